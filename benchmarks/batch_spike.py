"""SPIKE for issue 25 (a batched core): ``python -m benchmarks.batch_spike``.

This is a throw-away measurement, not the batched core. It answers, with numbers, the
questions docs/batch-design.md needs answered before the batched core is built:

* ``--core``: where the one-game core spends a tick (classic preset, idle and aimer games):
  each phase of ``simulation.step`` timed by wrapping the phase functions in this process
  (the game's code is not changed), the bot's decision, and the rest (Draft, freeze, events).
* ``--overhead``: what a "batch of one" costs: a numpy operation on length-1 arrays against
  the same arithmetic on Python floats.
* ``--kernels`` (default): numpy kernels over a struct-of-arrays of B classic-sized games
  (rocks packed with per-game offsets and a game index per rock, per-game scalars as (B,)
  arrays): rock motion and wrap, ship against rocks (circles), the shot sweep (broad phase by
  circles, then exact edges for the candidates, the nearest hit per shot), a per-game
  compaction (rocks removed and fragments appended without Python loops), a vectorised
  PCG32, and the shape of the aimer's closest-approach search (brute, pruned, on columns),
  at B = 1, 64, 1024, 4096; then packed against padded slots and (N, 2) rows against (N,)
  columns. The geometry is rule-shaped but NOT the game's rules bit for bit.
* ``--backends``: one rule text on two backends (Python scalars for one game, (B,) arrays for
  a batch): a stand-in for the ship's flight, and the real ``waves.heartbeat`` rewritten once
  and checked against the core on every call of 16 real games.

What IS exact, and checked on every ``--kernels`` run: the batch PCG32 against
``asteroids.core.rng.Pcg32`` (also tests/core/test_batch_pcg32_spike.py); the core's own
``shots.first_hits`` over 300 real scenes packed into one call (same-game pairs) against the
one-game query (``check_batched_query``); the column form of the aimer's closest approach
against ``aim.closest`` (``check_columns``); the pruned search against the brute one
(``check_prune``).

Timings are wall clock, single-threaded, best of ``--repeat`` (default 3) runs each; every
table prints a calibration (ns per element of a 1M-element add) to show the machine's load.
docs/batch-design.md reads these numbers.
"""

from __future__ import annotations

import argparse
import math
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from asteroids.config import load_config
from asteroids.core import new_world, simulation
from asteroids.core.bot import BOTS
from asteroids.core.lanes import MANY, ONE
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.tables import CLASSIC_ROCKS, HEADING_STEPS
from asteroids.core.waves import heartbeat_clock

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "config" / "classic.toml"

U64 = np.uint64
_MULT = 6364136223846793005
_MASK64 = (1 << 64) - 1


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The best wall time of ``repeat`` calls of ``fn``, in seconds."""
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


# --------------------------------------------------------------------------------------------
# 1. The one-game core, phase by phase
# --------------------------------------------------------------------------------------------

PHASES = ("control_ship", "update_saucer", "sweep_shots", "move_bodies", "touch", "resolve",
          "update_ship_timers", "run_waves", "heartbeat")


class PhaseClock:
    """Wraps the phase functions ``simulation.step`` calls (its module globals) with timers."""

    def __init__(self) -> None:
        self.total = dict.fromkeys(PHASES, 0.0)
        self.calls = dict.fromkeys(PHASES, 0)
        self.saved: dict[str, Callable[..., object]] = {}

    def __enter__(self) -> PhaseClock:
        for name in PHASES:
            fn = getattr(simulation, name)
            self.saved[name] = fn
            setattr(simulation, name, self._wrap(name, fn))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self.saved.items():
            setattr(simulation, name, fn)

    def _wrap(self, name: str, fn: Callable[..., object]) -> Callable[..., object]:
        total, calls, clock = self.total, self.calls, time.perf_counter

        def timed(*args: object) -> object:
            t0 = clock()
            out = fn(*args)
            total[name] += clock() - t0
            calls[name] += 1
            return out

        return timed


def play(config: object, seed: int, bot_name: str, ticks: int) -> tuple[int, float, float]:
    """Play ``ticks`` ticks (on past game over); returns (game-over tick or -1, step seconds,
    bot seconds)."""
    bot = BOTS[bot_name]
    p = params_for(config)  # compiled once, as a game does: the times are the tick's
    world = new_world(p, seed)
    step = simulation.step
    step_s = bot_s = 0.0
    over_at = -1
    clock = time.perf_counter
    for _ in range(ticks):
        t0 = clock()
        mask = bot(world, p)
        t1 = clock()
        world, _ = step(world, mask, p)
        t2 = clock()
        bot_s += t1 - t0
        step_s += t2 - t1
        if over_at < 0 and world.game_over:
            over_at = world.tick
    return over_at, step_s, bot_s


def core_profile(ticks: int, seed: int, repeat: int) -> None:
    """Per-phase cost per tick of an idle and an aimer classic game."""
    config = load_config(CLASSIC)
    print(f"\n## One-game core, classic, {ticks} ticks, seed {seed} (best of {repeat}; "
          f"calibration {calibrate(repeat):.2f} ns per element of a 1M add)\n")
    for bot_name in ("idle", "aimer"):
        plain = math.inf
        bot_best = math.inf
        over_at = -1
        for _ in range(repeat):
            over_at, step_s, bot_s = play(config, seed, bot_name, ticks)
            plain, bot_best = min(plain, step_s), min(bot_best, bot_s)
        best_clock: PhaseClock | None = None
        best_step = math.inf
        for _ in range(repeat):
            with PhaseClock() as clock:
                _, step_s, _ = play(config, seed, bot_name, ticks)
            if step_s < best_step:
                best_step, best_clock = step_s, clock
        assert best_clock is not None
        print(f"### {bot_name}: game over at tick {over_at}; step {1e6 * plain / ticks:.1f} "
              f"µs/tick ({ticks / plain:,.0f} ticks/s), bot {1e6 * bot_best / ticks:.1f} "
              f"µs/tick; with both {ticks / (plain + bot_best):,.0f} ticks/s\n")
        print("| phase | calls | µs per call | µs per tick | share of step |")
        print("|---|---:|---:|---:|---:|")
        phases_s = 0.0
        for name in PHASES:
            t, n = best_clock.total[name], best_clock.calls[name]
            phases_s += t
            print(f"| {name} | {n} | {1e6 * t / max(n, 1):.2f} | {1e6 * t / ticks:.2f} | "
                  f"{100 * t / best_step:.0f}% |")
        rest = best_step - phases_s
        print(f"| rest of step (Draft, Pcg32, Frame, freeze, wrappers) | {ticks} | "
              f"{1e6 * rest / ticks:.2f} | {1e6 * rest / ticks:.2f} | "
              f"{100 * rest / best_step:.0f}% |")
        print(f"| **step, timed** | {ticks} | | {1e6 * best_step / ticks:.2f} | 100% |\n")


# --------------------------------------------------------------------------------------------
# 2. The cost of a batch of one
# --------------------------------------------------------------------------------------------


def overhead(repeat: int) -> None:
    """A numpy op on length-1 arrays vs Python float math, and fixed per-call costs."""
    n = 100_000
    x, v = 1.5, 0.25
    xa, va = np.array([1.5]), np.array([0.25])
    w = 1024.0
    out = np.empty(1)

    def py_float() -> None:
        for _ in range(n):
            y = x + v
            y = y - w if y >= w else y

    def np_len1() -> None:
        for _ in range(n):
            y = xa + va
            np.where(y >= w, y - w, y)

    def np_len1_out() -> None:
        for _ in range(n):
            np.add(xa, va, out=out)
            np.subtract(out, w, out=out, where=out >= w)

    def np_scalar_read() -> None:
        for _ in range(n):
            float(xa[0])

    def np_tolist() -> None:
        for _ in range(n):
            xa.tolist()

    def py_call() -> None:
        def f(a: float, b: float) -> float:
            return a + b
        for _ in range(n):
            f(x, v)

    print(f"\n## Batch-of-one overhead (per operation, best of {repeat}, {n:,} loops; "
          f"calibration {calibrate(repeat):.2f} ns per element of a 1M add)\n")
    print("| operation | ns |")
    print("|---|---:|")
    for label, fn in (("Python float: x + v, wrap by compare", py_float),
                      ("numpy (1,) arrays: x + v, np.where wrap", np_len1),
                      ("numpy (1,) arrays, out=: add, subtract where", np_len1_out),
                      ("float(a[0]) (array -> Python float)", np_scalar_read),
                      ("a.tolist() on a (1,) array", np_tolist),
                      ("a Python function call, two floats", py_call)):
        print(f"| {label} | {1e9 * best_of(fn, repeat) / n:.0f} |")


# --------------------------------------------------------------------------------------------
# 3. Vectorised PCG32: one 64-bit state per game
# --------------------------------------------------------------------------------------------


def _jump(k: int) -> tuple[int, int]:
    """(A, B) with state_k = A * s + B * inc (mod 2**64): k steps of the LCG, by squaring."""
    a, b = 1, 0                 # the identity
    ma, mb = _MULT, 1           # one step: s -> mult * s + inc
    while k:
        if k & 1:
            a, b = (a * ma) & _MASK64, (b * ma + mb) & _MASK64
        ma, mb = (ma * ma) & _MASK64, (mb * ma + mb) & _MASK64
        k >>= 1
    return a, b


class BatchPcg32:
    """B independent PCG32 generators: ``state`` and ``inc`` are (B,) uint64 arrays.

    ``u32(active)`` draws once for the games in the boolean mask ``active`` (the others keep
    their state): exactly ``Pcg32.u32`` per game. ``advance(k)`` jumps each game by its own
    number of draws ``k`` (a (B,) int array) in O(log max k) vector steps, so a rule that
    draws a per-game number of values (fragments, a wave) can draw them all from jumped
    states at once and then advance every game past them.
    """

    def __init__(self, state: np.ndarray, inc: np.ndarray) -> None:
        self.state = state.astype(U64, copy=True)
        self.inc = inc.astype(U64, copy=True)
        self.attempts = np.zeros(0, dtype=np.int64)

    @staticmethod
    def output(old: np.ndarray) -> np.ndarray:
        """PCG32's XSH-RR output of the states ``old`` (uint64 array) as uint64 < 2**32."""
        xorshifted = (((old >> U64(18)) ^ old) >> U64(27)) & U64(0xFFFFFFFF)
        rot = old >> U64(59)
        left = (U64(32) - rot) & U64(31)
        return ((xorshifted >> rot) | (xorshifted << left)) & U64(0xFFFFFFFF)

    def u32(self, active: np.ndarray | None = None) -> np.ndarray:
        """One draw per game (per active game; inactive games get 0 and do not advance)."""
        old = self.state
        with np.errstate(over="ignore"):
            new = old * U64(_MULT) + self.inc
        if active is None:
            self.state = new
            return self.output(old)
        self.state = np.where(active, new, old)
        return np.where(active, self.output(old), U64(0))

    def below(self, n: np.ndarray | int, active: np.ndarray | None = None) -> np.ndarray:
        """``Pcg32.below(n)`` per game: (u32 * n) >> 32 when n > 1, else 0 **without a draw**
        (``Pcg32.below`` draws nothing for n <= 1, whatever its docstring says; the batch
        follows the code, which the golden replays pin)."""
        n64 = np.broadcast_to(np.asarray(n).astype(U64), self.state.shape)
        draws = n64 > U64(1)
        if active is not None:
            draws = draws & active
        u = self.u32(draws)
        return np.where(draws, (u * n64) >> U64(32), U64(0)).astype(np.int64)

    def advance(self, k: np.ndarray) -> None:
        """Jump game g by ``k[g]`` draws (k >= 0), by binary powers of the LCG step."""
        k = np.asarray(k, dtype=np.int64)
        state = self.state
        inc = self.inc
        bit = 0
        top = int(k.max()) if k.size else 0
        with np.errstate(over="ignore"):
            while (1 << bit) <= top:
                a, b = _jump(1 << bit)
                on = ((k >> bit) & 1).astype(bool)
                state = np.where(on, U64(a) * state + U64(b) * inc, state)
                bit += 1
        self.state = state

    def draws(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``counts[g]`` consecutive draws per game, packed game after game, and their game
        index: what ``counts[g]`` calls of ``Pcg32.u32`` would give each game. The states
        advance past them."""
        counts = np.asarray(counts, dtype=np.int64)
        total = int(counts.sum())
        game = np.repeat(np.arange(counts.shape[0]), counts)
        starts = np.cumsum(counts) - counts
        j = np.arange(total, dtype=np.int64) - starts[game]   # draw number within its game
        a_tab, b_tab = _jump_table(int(counts.max()) if counts.size else 0)
        with np.errstate(over="ignore"):
            old = a_tab[j] * self.state[game] + b_tab[j] * self.inc[game]
        self.advance(counts)
        return self.output(old), game


_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _jump_table(n: int) -> tuple[np.ndarray, np.ndarray]:
    """A_k, B_k for k < n as uint64 arrays (built once per size; a spike's cache)."""
    size = max(64, 1 << max(n - 1, 0).bit_length())
    if size not in _TABLES:
        a, b = [1], [0]
        for _ in range(size - 1):
            a.append((a[-1] * _MULT) & _MASK64)
            b.append((b[-1] * _MULT + 1) & _MASK64)
        _TABLES[size] = (np.array(a, dtype=U64), np.array(b, dtype=U64))
    return _TABLES[size]


def wave_places(rng: BatchPcg32, p: object, ship_x: np.ndarray, ship_y: np.ndarray,
                count: int) -> tuple[np.ndarray, np.ndarray]:
    """``spawn.spawn_wave``'s places and velocities for B games at once (``count`` rocks each),
    drawing exactly what it draws from each game's stream, in its order.

    The rejection loop (up to 8 attempts per rock, the first one far enough from the ship,
    else the farthest) has a data-dependent number of draws, but every attempt draws exactly
    3 values and its outcome depends only on those and the ship: so draw 8 x 3 x count values
    per game speculatively (from copies of the states), judge every attempt at once, walk the
    rocks with a vector scan (one step per rock, not per game), then advance each real state
    by the 3 x attempts it used. Speeds, signs and the outlines' draws follow as
    ``spawn_wave`` and ``make_rocks`` take them (outlines: skipped, the states advanced)."""
    b = ship_x.shape[0]
    w, h = p.width, p.height
    inset = 0.0 if p.wrap_asteroids else p.radius[0]
    n_att = 8 * count
    spec = BatchPcg32(rng.state, rng.inc)
    u, _ = spec.draws(np.full(b, 3 * n_att))
    u = u.reshape(b, n_att, 3)
    unit = u.astype(np.float64) / 4294967296.0
    bit = ((u * U64(2)) >> U64(32)).astype(np.int64)           # below(2)
    side = bit[..., 0] == 1
    x = np.where(side, np.where(bit[..., 1] == 1, inset, w - inset),
                 inset + ((w - inset) - inset) * unit[..., 1])
    y = np.where(side, inset + ((h - inset) - inset) * unit[..., 2],
                 np.where(bit[..., 2] == 1, inset, h - inset))
    if p.wrap_asteroids:
        x = np.where(x >= w, 0.0, x)
        y = np.where(y >= h, 0.0, y)
    dx = x - ship_x[:, None]
    dy = y - ship_y[:, None]
    if p.wrap_ship or p.wrap_asteroids:
        dx = dx - w * np.round(dx / w) + 0.0
        dy = dy - h * np.round(dy / h) + 0.0
    d2 = dx * dx + dy * dy
    ok = d2 >= p.game_spawn_clearance_px * p.game_spawn_clearance_px
    rows = np.arange(b)
    at = np.zeros(b, dtype=np.int64)                             # each game's next attempt
    places = np.zeros((b, count, 2))
    window = np.arange(8)
    for i in range(count):
        idx = at[:, None] + window                               # (b, 8) this rock's attempts
        acc = ok[rows[:, None], idx]
        first_ok = acc.argmax(axis=1)
        taken = np.where(acc.any(axis=1), first_ok, d2[rows[:, None], idx].argmax(axis=1))
        pick = at + taken
        places[:, i, 0] = x[rows, pick]
        places[:, i, 1] = y[rows, pick]
        at = at + np.where(acc.any(axis=1), first_ok + 1, 8)
    rng.advance(3 * at)
    rng.attempts = at  # for the check's statistics
    speed, _ = rng.draws(np.full(b, 2 * count))
    signs, _ = rng.draws(np.full(b, 2 * count))
    speed = (speed.astype(np.float64) / 4294967296.0).reshape(b, count, 2)
    sign = np.where(((signs * U64(2)) >> U64(32)).reshape(b, count, 2) == 1, -1.0, 1.0)
    lo, hi = p.asteroids_speed_min_px_per_tick, p.asteroids_speed_max_px_per_tick
    vel = sign * (lo + (hi - lo) * speed)
    rng.advance(np.full(b, count * (4 + 2 * p.asteroids_vertices_max)))  # make_rocks' draws
    return places, vel


def check_wave_places(games: int = 200) -> tuple[int, int]:
    """``wave_places`` against the real ``spawn.spawn_wave``, game by game, for every wave
    size of the classic preset, and again with a clearance no point meets (every rock then
    takes the farthest of its 8 attempts): the same places, velocities and final PCG32
    state, bit for bit, with ships anywhere. (Presets whose new waves turn away from the
    ship, ``spawn_clearance_s`` > 0, add ``_heading_clear``, which draws nothing and is not
    in this spike.) Returns (rocks, attempts)."""
    import dataclasses

    from asteroids.core.spawn import spawn_wave
    from asteroids.core.world import Draft

    compared = attempts = 0
    config = load_config(CLASSIC)
    classic = params_for(config)
    # the preset, and a clearance no edge point meets (every rock takes the farthest of 8)
    for p in (classic, dataclasses.replace(classic, game_spawn_clearance_px=10_000.0)):
        rng = np.random.default_rng(4)
        for count in sorted({min(p.game_first_wave_asteroids + p.game_wave_increment * k,
                                 p.game_max_wave_asteroids, p.asteroids_max_alive)
                             for k in range(8)}):
            seeds = rng.integers(0, 2**63, games)
            pairs = [seed_state(int(s_)) for s_ in seeds]
            ship_x = rng.uniform(0.0, p.width, games)
            ship_y = rng.uniform(0.0, p.height, games)
            batch = BatchPcg32(np.array([a for a, _ in pairs], dtype=U64),
                               np.array([i for _, i in pairs], dtype=U64))
            places, vel = wave_places(batch, p, ship_x, ship_y, count)
            attempts += int(batch.attempts.sum())
            for g in range(games):
                d = Draft(new_world(config, 0))
                d.ship_x, d.ship_y = float(ship_x[g]), float(ship_y[g])
                one = Pcg32(*pairs[g])
                rocks = spawn_wave(d, p, one, count)
                assert rocks.pos.tobytes() == places[g].tobytes(), f"places, game {g}"
                assert rocks.vel.tobytes() == vel[g].tobytes(), f"velocities, game {g}"
                assert int(batch.state[g]) == one.state, f"PCG32 state, game {g}"
                compared += count
    return compared, attempts


def check_pcg32(seeds: Sequence[int] = (0, 1, 2, 42, 12345, 2**63 + 7, 2**64 - 1)) -> None:
    """Fail loudly unless the batch generator equals ``Pcg32`` seed by seed."""
    pairs = [seed_state(s) for s in seeds]
    gens = [Pcg32(s, i) for s, i in pairs]
    batch = BatchPcg32(np.array([s for s, _ in pairs], dtype=U64),
                       np.array([i for _, i in pairs], dtype=U64))
    rng = np.random.default_rng(0)
    for _ in range(200):
        active = rng.random(len(seeds)) < 0.6
        got = batch.u32(active)
        for g, gen in enumerate(gens):
            if active[g]:
                assert int(got[g]) == gen.u32(), "u32 differs"
        n = rng.integers(0, 1000, len(seeds))
        n[rng.random(len(seeds)) < 0.3] = 1  # below(1) and below(0) draw nothing
        got = batch.below(n)
        for g, gen in enumerate(gens):
            assert int(got[g]) == gen.below(int(n[g])), "below differs"
        counts = rng.integers(0, 40, len(seeds))
        got, game = batch.draws(counts)
        for g, gen in enumerate(gens):
            want = [gen.u32() for _ in range(int(counts[g]))]
            assert got[game == g].tolist() == want, "draws differ"
        k = rng.integers(0, 300, len(seeds))
        batch.advance(k)
        for g, gen in enumerate(gens):
            for _ in range(int(k[g])):
                gen.u32()
        assert [int(s) for s in batch.state] == [g.state for g in gens], "advance differs"


# --------------------------------------------------------------------------------------------
# 4. Classic-sized batch state and rule-shaped kernels
# --------------------------------------------------------------------------------------------

W, H = 1024.0, 768.0
RADIUS = np.array([33.0, 18.0, 10.5])
SHAPES = [r / np.sqrt((r * r).sum(axis=1)).max() for r in CLASSIC_ROCKS]  # radius 1
MAX_PTS = max(s.shape[0] for s in SHAPES)           # 11
SHAPE_PTS = np.zeros((len(SHAPES), MAX_PTS, 2))     # padded: a repeated last point
SHAPE_N = np.array([s.shape[0] for s in SHAPES])
for _i, _s in enumerate(SHAPES):
    SHAPE_PTS[_i, :_s.shape[0]] = _s
    SHAPE_PTS[_i, _s.shape[0]:] = _s[0]             # pad with the first point: a 0-length edge


class Batch:
    """The spike's struct-of-arrays: per-game scalars (B,), rocks and shots packed in game
    order with a game index per row and per-game offsets (B + 1,)."""

    def __init__(self, b: int, rocks_per_game: int, shots_per_game: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.b = b
        self.ship = np.column_stack([rng.uniform(0, W, b), rng.uniform(0, H, b)])
        self.ship_v = rng.uniform(-2, 2, (b, 2))
        self.ship_r = np.full(b, 11.0)
        n = b * rocks_per_game
        self.rock_game = np.repeat(np.arange(b, dtype=np.int64), rocks_per_game)
        self.rock_off = np.arange(0, n + 1, rocks_per_game, dtype=np.int64)
        self.rock_id = np.arange(n, dtype=np.int64)
        self.rock_size = rng.integers(0, 3, n)
        self.rock_shape = rng.integers(0, 4, n)
        self.rock_r = RADIUS[self.rock_size]
        self.rock_pos = np.column_stack([rng.uniform(0, W, n), rng.uniform(0, H, n)])
        self.rock_vel = rng.uniform(-3.9, 3.9, (n, 2))
        k = b * shots_per_game
        self.shot_game = np.repeat(np.arange(b, dtype=np.int64), shots_per_game)
        self.shot_off = np.arange(0, k + 1, shots_per_game, dtype=np.int64)
        self.shot_pos = np.column_stack([rng.uniform(0, W, k), rng.uniform(0, H, k)])
        ang = rng.uniform(0, 2 * np.pi, k)
        self.shot_vel = 7.875 * np.column_stack([np.cos(ang), np.sin(ang)])
        self.shot_ttl = rng.integers(1, 72, k)
        state, inc = zip(*(seed_state(seed * 100_003 + g) for g in range(b)), strict=True)
        self.rng = BatchPcg32(np.array(state, dtype=U64), np.array(inc, dtype=U64))
        # Per-game scalars a World holds (the rest of the ~45 fields): int64 (B,) each.
        self.scalars = {name: np.zeros(b, dtype=np.int64) for name in (
            "tick", "next_id", "ship_state", "ship_heading", "ship_timer", "lives", "score",
            "wave", "wave_timer", "saucer_timer", "since_break", "beat_timer", "flags")}

    def nbytes(self) -> int:
        """Bytes the batch's arrays hold (numpy buffers only)."""
        total = 0
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                total += value.nbytes
            elif isinstance(value, dict):
                total += sum(a.nbytes for a in value.values())
        return total + self.rng.state.nbytes + self.rng.inc.nbytes


def k_move_rocks(bt: Batch) -> None:
    """Rocks move and wrap (the classic rule: x + v, then into [0, W) x [0, H))."""
    pos = bt.rock_pos + bt.rock_vel
    pos[:, 0] %= W
    pos[:, 1] %= H
    bt.rock_pos = pos


def k_move_shots(bt: Batch) -> None:
    """Shots move and wrap, age, and the expired are removed (a per-game compaction)."""
    pos = bt.shot_pos + bt.shot_vel
    pos[:, 0] %= W
    pos[:, 1] %= H
    ttl = bt.shot_ttl - 1
    keep = ttl > 0
    bt.shot_pos, bt.shot_ttl = pos, ttl
    # keep everything in this spike (so every B runs the same load), but pay for the
    # compaction a real tick does: offsets from the kept mask, by a cumulative sum.
    np.add.reduceat(keep, bt.shot_off[:-1]) if keep.shape[0] else None


def wrap_delta(d: np.ndarray) -> np.ndarray:
    """Nearest image of displacements (N, 2) in the W x H torus."""
    out = d.copy()
    out[:, 0] -= W * np.round(out[:, 0] / W)
    out[:, 1] -= H * np.round(out[:, 1] / H)
    return out


def k_ship_contacts(bt: Batch) -> np.ndarray:
    """Ship against its own game's rocks, circles, nearest image: per game the lowest rock
    index that touches (a claim), or -1."""
    d = wrap_delta(bt.rock_pos - bt.ship[bt.rock_game])
    reach = bt.rock_r + bt.ship_r[bt.rock_game]
    touch = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] <= reach * reach
    first = np.full(bt.b, -1, dtype=np.int64)
    hit = np.flatnonzero(touch)
    # the lowest index per game: hits are in ascending order, so the first one of each game
    g = bt.rock_game[hit]
    lead = np.ones(hit.shape[0], dtype=bool)
    lead[1:] = g[1:] != g[:-1]
    first[g[lead]] = hit[lead]
    return first


def _pairs_same_game(shot_game: np.ndarray, shot_off: np.ndarray, rock_off: np.ndarray,
                     b: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (shot, rock) pair of the same game, as two flat index arrays (no Python loop):
    shot s meets rocks rock_off[g]..rock_off[g+1] of its game g."""
    rocks_of = np.diff(rock_off)
    per_shot = rocks_of[shot_game]
    total = int(per_shot.sum())
    shot = np.repeat(np.arange(shot_game.shape[0], dtype=np.int64), per_shot)
    starts = np.cumsum(per_shot) - per_shot
    rock = rock_off[shot_game][shot] + (np.arange(total, dtype=np.int64) - starts[shot])
    return shot, rock


def k_shot_sweep(bt: Batch) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Each shot's segment this tick against its own game's rocks: broad phase by swept
    circle, exact segment-edge tests for the candidates (the rock's outline in the rock's
    frame), the nearest hit per shot. Returns (hit rock or -1 per shot, t per shot, pairs,
    candidates)."""
    shot, rock = _pairs_same_game(bt.shot_game, bt.shot_off, bt.rock_off, bt.b)
    # relative motion: the shot's segment in the rock's frame (the core's body_motion)
    rel_v = bt.shot_vel[shot] - bt.rock_vel[rock]
    d = wrap_delta(bt.rock_pos[rock] - bt.shot_pos[shot])
    # circle broad phase: closest approach of the segment to the rock's centre
    vv = rel_v[:, 0] * rel_v[:, 0] + rel_v[:, 1] * rel_v[:, 1]
    t = np.clip((d[:, 0] * rel_v[:, 0] + d[:, 1] * rel_v[:, 1]) / np.maximum(vv, 1e-300),
                0.0, 1.0)
    mx = d[:, 0] - rel_v[:, 0] * t
    my = d[:, 1] - rel_v[:, 1] * t
    r = bt.rock_r[rock] * 1.0001 + 1e-6
    cand = np.flatnonzero(mx * mx + my * my <= r * r)
    n_pairs, n_cand = shot.shape[0], cand.shape[0]
    hit_rock = np.full(bt.shot_pos.shape[0], -1, dtype=np.int64)
    hit_t = np.full(bt.shot_pos.shape[0], np.inf)
    if n_cand == 0:
        return hit_rock, hit_t, n_pairs, n_cand
    cs, cr = shot[cand], rock[cand]
    # the candidate rocks' outlines, padded to MAX_PTS points (edges i -> i+1, closed)
    pts = SHAPE_PTS[bt.rock_shape[cr]] * bt.rock_r[cr][:, None, None]     # (C, P, 2)
    a = pts
    e = np.roll(pts, -1, axis=1) - pts
    # the segment from -d (the shot's start relative to the rock) along rel_v
    p0 = -d[cand][:, None, :]
    v = rel_v[cand][:, None, :]
    # solve p0 + v t = a + e u, t, u in [0, 1]
    den = v[..., 0] * e[..., 1] - v[..., 1] * e[..., 0]
    q = a - p0
    tn = q[..., 0] * e[..., 1] - q[..., 1] * e[..., 0]
    un = q[..., 0] * v[..., 1] - q[..., 1] * v[..., 0]
    ok = den != 0.0
    safe = np.where(ok, den, 1.0)
    tt, uu = tn / safe, un / safe
    good = ok & (tt >= 0.0) & (tt <= 1.0) & (uu >= 0.0) & (uu <= 1.0)
    tt = np.where(good, tt, np.inf)
    t_pair = tt.min(axis=1)                                              # (C,)
    # nearest hit per shot: the min t over its candidate pairs (ties: the lower rock,
    # by lexsort on (rock, t, shot))
    order = np.lexsort((cr, t_pair, cs))
    cs_o, t_o, cr_o = cs[order], t_pair[order], cr[order]
    lead = np.ones(cs_o.shape[0], dtype=bool)
    lead[1:] = cs_o[1:] != cs_o[:-1]
    win = lead & np.isfinite(t_o)
    hit_rock[cs_o[win]] = cr_o[win]
    hit_t[cs_o[win]] = t_o[win]
    return hit_rock, hit_t, n_pairs, n_cand


def k_compact_rocks(bt: Batch, broken: np.ndarray, split: bool = True) -> None:
    """Remove the rocks in ``broken`` (a bool per rock) and append two fragments per broken
    large or medium rock at the end of its own game's rocks: one gather, no Python loop,
    offsets by cumulative sums. The fragments' draws come from the batch PCG32 (a fixed
    number per fragment, game by game, as ``spawn.split_rocks`` draws them)."""
    keep = ~broken
    parent = np.flatnonzero(broken & (bt.rock_size < 2)) if split else np.zeros(0, np.int64)
    kids_per_parent = 2
    kid_parent = np.repeat(parent, kids_per_parent)
    kid_game = bt.rock_game[kid_parent]
    b = bt.b
    kept_per_game = np.bincount(bt.rock_game[keep], minlength=b)
    kids_per_game = np.bincount(kid_game, minlength=b)
    # draws: 2 kicks + 4 + 2 * vertices_max per fragment (the core's split + make_rocks)
    per_kid = 2 + 4 + 2 * 14
    u, _ = bt.rng.draws(kids_per_game * per_kid)
    u = u.reshape(-1, per_kid) if u.shape[0] else np.zeros((0, per_kid), dtype=U64)
    kick = (2.0 * (u[:, 0:2].astype(np.float64) / 4294967296.0) - 1.0) * 0.5
    shape = ((u[:, 3] * U64(4)) >> U64(32)).astype(np.int64)
    # new layout: per game, its kept rocks (in order) then its fragments (in order)
    new_off = np.zeros(b + 1, dtype=np.int64)
    np.cumsum(kept_per_game + kids_per_game, out=new_off[1:])
    kept_idx = np.flatnonzero(keep)
    kept_game = bt.rock_game[kept_idx]
    kept_rank = np.arange(kept_idx.shape[0]) - (np.cumsum(kept_per_game) - kept_per_game)[
        kept_game]
    kid_rank = np.arange(kid_parent.shape[0]) - (np.cumsum(kids_per_game) - kids_per_game)[
        kid_game]
    dest_kept = new_off[kept_game] + kept_rank
    dest_kid = new_off[kid_game] + kept_per_game[kid_game] + kid_rank
    n = int(new_off[-1])

    def place(old: np.ndarray, kid_values: np.ndarray) -> np.ndarray:
        out = np.empty((n, *old.shape[1:]), dtype=old.dtype)
        out[dest_kept] = old[kept_idx]
        out[dest_kid] = kid_values
        return out

    kid_size = bt.rock_size[kid_parent] + 1
    bt.rock_pos = place(bt.rock_pos, bt.rock_pos[kid_parent])
    bt.rock_vel = place(bt.rock_vel, bt.rock_vel[kid_parent] + kick)
    bt.rock_size = place(bt.rock_size, kid_size)
    bt.rock_r = place(bt.rock_r, RADIUS[kid_size])
    bt.rock_shape = place(bt.rock_shape, shape)
    bt.rock_id = place(bt.rock_id, np.arange(kid_parent.shape[0]) + 10**9)
    bt.rock_game = place(bt.rock_game, kid_game)
    bt.rock_off = new_off


def check_compaction(b: int = 64) -> int:
    """``k_compact_rocks`` against a per-game Python reference: each game keeps its unbroken
    rocks in order, then gets two fragments per broken large or medium rock in parent order
    (at its parent's place, one size down), with the fragment draws each game's own PCG32
    would give (``Pcg32``, game by game); offsets by game. Returns the rocks compared."""
    bt = Batch(b, 9, 3, seed=21)
    rng = np.random.default_rng(8)
    broken = rng.random(bt.rock_pos.shape[0]) < 0.2
    before = {k: getattr(bt, k).copy() for k in ("rock_pos", "rock_size", "rock_game",
                                                  "rock_off")}
    gens = [Pcg32(int(st), int(inc)) for st, inc in zip(bt.rng.state, bt.rng.inc, strict=True)]
    k_compact_rocks(bt, broken)
    per_kid = 2 + 4 + 2 * 14
    compared = 0
    for g in range(b):
        lo, hi = before["rock_off"][g], before["rock_off"][g + 1]
        rows = np.arange(lo, hi)
        kept = rows[~broken[lo:hi]]
        parents = rows[broken[lo:hi] & (before["rock_size"][lo:hi] < 2)]
        kids = np.repeat(parents, 2)
        a, z = bt.rock_off[g], bt.rock_off[g + 1]
        assert z - a == kept.shape[0] + kids.shape[0], f"game {g}: count"
        want_pos = np.concatenate([before["rock_pos"][kept], before["rock_pos"][kids]])
        want_size = np.concatenate([before["rock_size"][kept], before["rock_size"][kids] + 1])
        assert bt.rock_pos[a:z].tobytes() == want_pos.tobytes(), f"game {g}: places"
        assert bt.rock_size[a:z].tolist() == want_size.tolist(), f"game {g}: sizes"
        assert (bt.rock_game[a:z] == g).all(), f"game {g}: game index"
        draws = [gens[g].u32() for _ in range(kids.shape[0] * per_kid)]
        shapes = [(draws[k * per_kid + 3] * 4) >> 32 for k in range(kids.shape[0])]
        assert bt.rock_shape[a + kept.shape[0]:z].tolist() == shapes, f"game {g}: draws"
        assert int(bt.rng.state[g]) == gens[g].state, f"game {g}: PCG32 state"
        compared += int(z - a)
    return compared


def k_pcg_tick(bt: Batch) -> None:
    """The per-tick scalar draws of a tick where some games draw: e.g. the saucer's zig-zag
    (below(4)) in about 1 game in 128, masked, as one vector call."""
    active = (bt.scalars["tick"] & 127) == (np.arange(bt.b) & 127)
    bt.rng.below(4, active)


def k_scalars(bt: Batch) -> None:
    """The ship's flight per game as (B,) arrays: turn, thrust, drag, axis clamp, wrap (the
    shape of ship.control_ship + move_bodies for the ship)."""
    s = bt.scalars
    s["tick"] += 1
    heading = s["ship_heading"]
    turn = np.where((s["tick"] & 1) == 1, 3, 0)
    heading[:] = (heading + turn) % HEADING_STEPS
    v = bt.ship_v * 0.9921875
    np.clip(v, -7.875, 7.875, out=v)
    bt.ship_v = v
    pos = bt.ship + v
    pos[:, 0] %= W
    pos[:, 1] %= H
    bt.ship = pos
    s["ship_timer"] = np.maximum(s["ship_timer"] - 1, 0)


CHUNK = 8192
"""Pairs per block in the pair kernels: keeps temporaries in cache (2-3x faster at B=4096 than
one pass over every pair; the core's narrow phase chunks the same way)."""

_IMAGES = np.array([(i * W, j * H) for i in (0.0, -1.0, 1.0) for j in (0.0, -1.0, 1.0)])


def _movers(bt: Batch, per_game: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``per_game`` movers per game (the aimer's shots in flight, its 3 candidate shots and
    the ship), packed with offsets: (game, offsets, pos, vel)."""
    b = bt.b
    game = np.repeat(np.arange(b, dtype=np.int64), per_game)
    off = np.arange(0, b * per_game + 1, per_game, dtype=np.int64)
    pos = np.repeat(bt.ship, per_game, axis=0)
    ang = np.arange(b * per_game) * 0.7
    vel = np.repeat(bt.ship_v, per_game, axis=0) + 7.875 * np.column_stack(
        [np.cos(ang), np.sin(ang)])
    return game, off, pos, vel


def _closest9(rel: np.ndarray, vel: np.ndarray, horizon: float) -> tuple[np.ndarray, ...]:
    """``aim.closest`` over the 9 wrap images, for flat (P, 2) pairs: (tau, miss)."""
    rr = rel[:, None, :] + _IMAGES
    vv = vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1]
    tau = (rr[..., 0] * vel[:, None, 0] + rr[..., 1] * vel[:, None, 1]) / np.maximum(
        vv, 1e-300)[:, None]
    tau = np.minimum(np.maximum(-tau, 0.0), horizon)
    mx = rr[..., 0] + vel[:, None, 0] * tau
    my = rr[..., 1] + vel[:, None, 1] * tau
    d2 = mx * mx + my * my
    best = d2.min(axis=1)
    return np.where(d2 == best[:, None], tau, np.inf).min(axis=1), np.sqrt(best)


def aimer_closest(bt: Batch, movers: int, prune: float = 0.0,
                  axes: bool = False) -> tuple[np.ndarray, ...]:
    """For every (mover, rock) pair of the same game, closest approach over a 60-tick horizon
    with the 9 wrap images (``aim.closest``), brute or pruned (see ``k_aimer_shape``;
    ``axes``: a per-axis lattice test before the capsule test).
    Returns (mover, rock, rel, vel, tau, miss, pairs computed exactly)."""
    b = bt.b
    mover_game, mover_off, mover_pos, mover_vel = _movers(bt, movers)
    m, r = _pairs_same_game(mover_game, mover_off, bt.rock_off, b)
    rel = wrap_delta(bt.rock_pos[r] - mover_pos[m])
    vel = bt.rock_vel[r] - mover_vel[m]
    horizon = 60.0
    n = rel.shape[0]
    exact = n
    tau = np.full(n, np.inf)
    miss = np.full(n, np.inf)
    for c0 in range(0, n, CHUNK):  # cache-sized blocks: elementwise, so the same bits
        c1 = min(n, c0 + CHUNK)
        rl, vl = rel[c0:c1], vel[c0:c1]
        if prune > 0.0 and axes:
            # first a per-axis test against the 3 x 3 image lattice: image (ix, iy) can come
            # within ``prune`` only if -ix lies in the path's x extent +- prune and -iy in
            # its y extent; the lattice is a product, so "some image passes both" is "some
            # ix passes and some iy passes". Only the survivors take the capsule test.
            ends = rl + vl * horizon
            lo = np.minimum(rl, ends) - prune
            hi = np.maximum(rl, ends) + prune
            ok = np.ones(c1 - c0, dtype=bool)
            for axis, size in ((0, W), (1, H)):
                la, ha = lo[:, axis], hi[:, axis]
                ok &= (((la <= 0.0) & (ha >= 0.0)) | ((la <= size) & (ha >= size))
                       | ((la <= -size) & (ha >= -size)))
            first = np.flatnonzero(ok)
            rl, vl = rl[first], vl[first]
        else:
            first = None
        if prune > 0.0:
            # capsule test per image: the path p(t) = rel + img + vel t, t in [0, horizon],
            # comes within ``prune`` of the origin only if the origin's projection lies
            # within the segment's extent +- prune and its distance to the line is <= prune.
            vx, vy = vl[:, 0], vl[:, 1]
            speed = np.sqrt(vx * vx + vy * vy)
            cross0 = rl[:, 0] * vy - rl[:, 1] * vx
            dot0 = rl[:, 0] * vx + rl[:, 1] * vy
            lim = prune * speed + 1e-9
            span = speed * speed * horizon
            keep = np.zeros(rl.shape[0], dtype=bool)
            for ix, iy in _IMAGES.tolist():
                c = cross0 + (ix * vy - iy * vx)
                dt = -(dot0 + (ix * vx + iy * vy))
                keep |= (np.abs(c) <= lim) & (dt >= -lim) & (dt <= span + lim)
            sel = np.flatnonzero(keep)
            exact -= (c1 - c0) - sel.shape[0]
            rows = sel if first is None else first[sel]
            tau[c0 + rows], miss[c0 + rows] = _closest9(rl[sel], vl[sel], horizon)
        else:
            tau[c0:c1], miss[c0:c1] = _closest9(rl, vl, horizon)
    return m, r, rel, vel, tau, miss, exact


def closest9_columns(dx: np.ndarray, dy: np.ndarray, vx: np.ndarray, vy: np.ndarray,
                     horizon: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """``aim.closest`` over the 9 wrap images on (P,) columns instead of (P, 9, 2) blocks:
    the same operations per image (so the same bits, checked in ``check_columns``), the
    images folded by a running minimum with ``_closest``'s tie rule (the smallest ``tau``
    among the images at the smallest distance)."""
    vv = vx * vx + vy * vy
    den = np.maximum(vv, 1e-300)
    best = tbest = None
    for ix, iy in _IMAGES.tolist():
        ax = dx + ix
        ay = dy + iy
        tau = (ax * vx + ay * vy) / den
        tau = np.minimum(np.maximum(-tau, 0.0), horizon)
        mx = ax + vx * tau
        my = ay + vy * tau
        d2 = mx * mx + my * my
        if best is None or tbest is None:
            best, tbest = d2, tau
            continue
        tbest = np.where(d2 < best, tau, np.where(d2 == best, np.minimum(tau, tbest), tbest))
        best = np.minimum(d2, best)
    assert best is not None and tbest is not None
    return tbest, np.sqrt(best)


class Columns:
    """The spike's rock and mover coordinates as separate (N,) columns, not (N, 2) rows."""

    def __init__(self, bt: Batch, movers: int) -> None:
        self.movers = movers
        game, off, pos, vel = _movers(bt, movers)
        self.m, self.r = _pairs_same_game(game, off, bt.rock_off, bt.b)
        self.rx, self.ry = bt.rock_pos[:, 0].copy(), bt.rock_pos[:, 1].copy()
        self.rvx, self.rvy = bt.rock_vel[:, 0].copy(), bt.rock_vel[:, 1].copy()
        self.mx, self.my = pos[:, 0].copy(), pos[:, 1].copy()
        self.mvx, self.mvy = vel[:, 0].copy(), vel[:, 1].copy()


def aimer_closest_columns(c: Columns, prune: float, horizon: float = 60.0
                          ) -> tuple[np.ndarray, np.ndarray, int]:
    """``aimer_closest`` with ``axes`` and ``prune`` on columns: (tau, miss, exact pairs)."""
    m, r = c.m, c.r
    dx = c.rx[r] - c.mx[m]
    dy = c.ry[r] - c.my[m]
    dx -= W * np.round(dx / W)
    dy -= H * np.round(dy / H)
    vx = c.rvx[r] - c.mvx[m]
    vy = c.rvy[r] - c.mvy[m]
    n = dx.shape[0]
    tau = np.full(n, np.inf)
    miss = np.full(n, np.inf)
    exact = 0
    for c0 in range(0, n, CHUNK):
        c1 = min(n, c0 + CHUNK)
        a, b, u, v = dx[c0:c1], dy[c0:c1], vx[c0:c1], vy[c0:c1]
        ex, ey = a + u * horizon, b + v * horizon
        lox, hix = np.minimum(a, ex) - prune, np.maximum(a, ex) + prune
        loy, hiy = np.minimum(b, ey) - prune, np.maximum(b, ey) + prune
        okx = (((lox <= 0.0) & (hix >= 0.0)) | ((lox <= W) & (hix >= W))
               | ((lox <= -W) & (hix >= -W)))
        oky = (((loy <= 0.0) & (hiy >= 0.0)) | ((loy <= H) & (hiy >= H))
               | ((loy <= -H) & (hiy >= -H)))
        sel = np.flatnonzero(okx & oky)
        a, b, u, v = a[sel], b[sel], u[sel], v[sel]
        speed = np.sqrt(u * u + v * v)
        cross0 = a * v - b * u
        dot0 = a * u + b * v
        lim = prune * speed + 1e-9
        span = speed * speed * horizon
        keep = np.zeros(sel.shape[0], dtype=bool)
        for ix, iy in _IMAGES.tolist():
            cc = cross0 + (ix * v - iy * u)
            dt = -(dot0 + (ix * u + iy * v))
            keep |= (np.abs(cc) <= lim) & (dt >= -lim) & (dt <= span + lim)
        k = np.flatnonzero(keep)
        exact += k.shape[0]
        rows = c0 + sel[k]
        tau[rows], miss[rows] = closest9_columns(a[k], b[k], u[k], v[k], horizon)
    return tau, miss, exact


def check_columns(b: int = 256) -> int:
    """``closest9_columns`` equals the real ``aim.closest`` bit for bit on every pair, and
    the pruned column search equals it on every pair within 64 px. Returns the pairs."""
    from asteroids.core.aim import closest as _closest

    bt = Batch(b, 9, 3, seed=13)
    m, r, rel, vel, *_ = aimer_closest(bt, 7)
    images = _IMAGES.copy()
    t_real, miss_real = _closest(rel, vel, np.full(rel.shape[0], 60.0), images)
    t_col, miss_col = closest9_columns(rel[:, 0].copy(), rel[:, 1].copy(), vel[:, 0].copy(),
                                       vel[:, 1].copy(), 60.0)
    assert t_col.tobytes() == t_real.tobytes() and miss_col.tobytes() == miss_real.tobytes()
    cols = Columns(bt, 7)
    tau, miss, _ = aimer_closest_columns(cols, 64.0)
    near = miss_real <= 64.0
    assert tau[near].tobytes() == t_real[near].tobytes()
    assert miss[near].tobytes() == miss_real[near].tobytes()
    return int(rel.shape[0])


def check_prune(b: int = 256, prune: float = 64.0) -> tuple[int, int]:
    """The pruned closest approach equals the brute one, bit for bit, on every pair that
    comes within ``prune`` px, and prunes only pairs that stay farther; (pairs, exact)."""
    bt = Batch(b, 9, 3, seed=11)
    *_, tau_b, miss_b, n = aimer_closest(bt, 7)
    near = miss_b <= prune
    exact = n
    for axes in (False, True):
        *_, tau_p, miss_p, exact = aimer_closest(bt, 7, prune, axes)
        assert np.array_equal(miss_b[near], miss_p[near]) and np.array_equal(tau_b[near],
                                                                             tau_p[near])
        assert (miss_b[~np.isfinite(miss_p)] > prune).all()
    return n, exact


def k_aimer_shape(bt: Batch, movers: int = 6, prune: float = 0.0, axes: bool = False) -> int:
    """A stand-in for the aimer's decision, batched: ``aimer_closest`` (closest approach of
    every (mover, rock) pair of a game, the shape of ``aim.closest``), then the intercept
    quadratic per target, twice, and the cheapest target per game (a segment reduction, no
    sort).

    ``prune`` > 0: first a conservative capsule test per pair and image (can this image come
    within ``prune`` px of the mover's path?), and the exact 9-image computation only for
    the pairs that pass. Exact for the aimer, whose decisions only read ``miss`` and ``t``
    where ``miss`` is below a radius (hit_r < 24 px, reach_r <= 50 px in classic): see
    ``check_prune``. Returns the number of pairs computed exactly."""
    m, r, rel, vel, tau, miss, exact = aimer_closest(bt, movers, prune, axes)
    # the intercepts: per target, from the ship (the last mover of each game), as the aimer
    # solves them (twice: a first guess of the turn ticks, then refined)
    ship = np.flatnonzero(m % movers == movers - 1)
    rs, rel_s, vel_s = r[ship], rel[ship], vel[ship]
    vv = vel_s[:, 0] * vel_s[:, 0] + vel_s[:, 1] * vel_s[:, 1]
    a = vv - 7.875 * 7.875
    t = np.zeros(ship.shape[0])
    for _ in range(2):
        d = rel_s + vel_s * t[:, None]
        bq = d[:, 0] * vel_s[:, 0] + d[:, 1] * vel_s[:, 1]
        c = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
        t = (-bq - np.sqrt(np.maximum(bq * bq - a * c, 0.0))) / np.where(a < 0, a, -1.0)
    cost = t + (miss[ship] < bt.rock_r[rs]) * 400.0
    # per game: the cheapest target, ties to the lowest index (rows are in game order, so a
    # segment reduction: no sort)
    g = bt.rock_game[rs]
    if g.shape[0]:
        lead = np.ones(g.shape[0], dtype=bool)
        lead[1:] = g[1:] != g[:-1]
        starts = np.flatnonzero(lead)
        low = np.minimum.reduceat(cost, starts)
        seg = np.cumsum(lead) - 1
        idx = np.where(cost == low[seg], np.arange(g.shape[0]), g.shape[0])
        np.minimum.reduceat(idx, starts)
    return exact


# --------------------------------------------------------------------------------------------
# 4b. The core's own shot query over a batch: one call for every game's shots and rocks
# --------------------------------------------------------------------------------------------


def real_scenes(count: int, seed: int = 1) -> list[tuple[np.ndarray, ...]]:
    """``count`` shot-query scenes from real classic aimer games (the ticks where shots and
    rocks are both present): (starts, ends, outline points, offsets, rock motion), exactly
    what ``sweep.sweep_shots`` hands ``first_hits`` for the ship's shots against the rocks."""
    from asteroids.core.outlines import rock_outlines
    from asteroids.core.world import Draft

    p = params_for(load_config(CLASSIC))  # compiled once, passed every tick
    bot = BOTS["aimer"]
    scenes: list[tuple[np.ndarray, ...]] = []
    game = seed
    while len(scenes) < count:
        world = new_world(p, game)
        for _ in range(1500):
            world, _ = simulation.step(world, bot(world, p), p)
            if world.shot_id.shape[0] and world.ast_id.shape[0] and world.tick % 3 == 0:
                scenes.append((world.shot_pos.copy(), world.shot_pos + world.shot_vel,
                               rock_outlines(Draft(world)), world.ast_offsets.copy(),
                               world.ast_vel.copy()))
                if len(scenes) == count:
                    break
        game += 1
    return scenes


def check_batched_query(count: int = 300) -> tuple[int, int]:
    """The core's ``first_hits`` run ONCE over ``count`` games packed together, with its broad
    phase restricted to same-game pairs, gives every game bit for bit the hits the one-game
    ``first_hits`` gives it: the narrow phase (``shots._broad_hits``) and the reduction
    (``hits.reduce_hits``) work on global row numbers unchanged. (The same-game restriction
    is done here by filtering the core's all-pairs broad phase, which a batch would build
    per game instead; nothing in ``asteroids/`` changes: the patch lives in this process.)
    Returns (scenes, hits)."""
    from asteroids.core import shots

    scenes = real_scenes(count)
    world = np.array([W, H])
    singles = [shots.first_hits(s, e, pts, offs, world_size=(W, H), body_motion=mot)
               for s, e, pts, offs, mot in scenes]
    shot_game = np.repeat(np.arange(count), [sc[0].shape[0] for sc in scenes])
    body_game = np.repeat(np.arange(count), [sc[3].shape[0] - 1 for sc in scenes])
    body_base = np.concatenate([[0], np.cumsum([sc[3].shape[0] - 1 for sc in scenes])])
    point_base = np.concatenate([[0], np.cumsum([sc[2].shape[0] for sc in scenes])])
    offsets = np.concatenate([[0]] + [sc[3][1:] + point_base[g]
                                      for g, sc in enumerate(scenes)]).astype(np.int64)
    original = shots.box_pairs

    def same_game(alo: np.ndarray, ahi: np.ndarray, blo: np.ndarray, bhi: np.ndarray,
                  world_: np.ndarray | None, *, method: str = "auto") -> tuple:
        ia, ib, kx, ky = original(alo, ahi, blo, bhi, world_, method=method)
        keep = shot_game[ia] == body_game[ib]
        return ia[keep], ib[keep], kx[keep], ky[keep]

    shots.box_pairs = same_game
    try:
        many = shots.first_hits(np.concatenate([sc[0] for sc in scenes]),
                                np.concatenate([sc[1] for sc in scenes]),
                                np.concatenate([sc[2] for sc in scenes]), offsets,
                                world_size=world, body_motion=np.concatenate(
                                    [sc[4] for sc in scenes]), method="direct")
    finally:
        shots.box_pairs = original
    hits = 0
    for g, one in enumerate(singles):
        rows = np.flatnonzero(shot_game == g)
        body = many.body[rows]
        local = np.where(body >= 0, body - body_base[g], -1)
        assert local.tolist() == one.body.tolist(), f"scene {g}: bodies differ"
        assert many.edge[rows].tolist() == one.edge.tolist(), f"scene {g}: edges differ"
        assert many.t[rows].tobytes() == one.t.tobytes(), f"scene {g}: t differs"
        assert many.point[rows].tobytes() == one.point.tobytes(), f"scene {g}: points differ"
        hits += int((one.body >= 0).sum())
    return count, hits


# --------------------------------------------------------------------------------------------
# 5. The padded alternative: rocks in (B, R) slots with an alive mask
# --------------------------------------------------------------------------------------------


class Padded:
    """Rocks and shots in fixed slots per game: (B, R) and (B, S), with counts; rows of a game
    stay in id order (slots 0..count-1 live)."""

    def __init__(self, bt: Batch, cap_rocks: int, cap_shots: int) -> None:
        b = bt.b
        self.b = b
        self.rock_n = np.diff(bt.rock_off)
        self.shot_n = np.diff(bt.shot_off)
        r_slot = np.arange(bt.rock_pos.shape[0]) - bt.rock_off[bt.rock_game]
        s_slot = np.arange(bt.shot_pos.shape[0]) - bt.shot_off[bt.shot_game]
        self.rock_pos = np.zeros((b, cap_rocks, 2))
        self.rock_vel = np.zeros((b, cap_rocks, 2))
        self.rock_r = np.zeros((b, cap_rocks))
        self.rock_shape = np.zeros((b, cap_rocks), dtype=np.int64)
        self.rock_pos[bt.rock_game, r_slot] = bt.rock_pos
        self.rock_vel[bt.rock_game, r_slot] = bt.rock_vel
        self.rock_r[bt.rock_game, r_slot] = bt.rock_r
        self.rock_shape[bt.rock_game, r_slot] = bt.rock_shape
        self.rock_alive = np.arange(cap_rocks)[None, :] < self.rock_n[:, None]
        self.shot_pos = np.zeros((b, cap_shots, 2))
        self.shot_vel = np.zeros((b, cap_shots, 2))
        self.shot_pos[bt.shot_game, s_slot] = bt.shot_pos
        self.shot_vel[bt.shot_game, s_slot] = bt.shot_vel
        self.shot_alive = np.arange(cap_shots)[None, :] < self.shot_n[:, None]
        self.ship = bt.ship.copy()
        self.ship_r = bt.ship_r.copy()


def p_move_rocks(pd: Padded) -> None:
    pos = pd.rock_pos + pd.rock_vel
    pos[..., 0] %= W
    pos[..., 1] %= H
    pd.rock_pos = pos


def p_ship_contacts(pd: Padded) -> np.ndarray:
    d = pd.rock_pos - pd.ship[:, None, :]
    d[..., 0] -= W * np.round(d[..., 0] / W)
    d[..., 1] -= H * np.round(d[..., 1] / H)
    reach = pd.rock_r + pd.ship_r[:, None]
    touch = (d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1] <= reach * reach) & pd.rock_alive
    return np.where(touch.any(axis=1), touch.argmax(axis=1), -1)


def p_shot_broad(pd: Padded) -> np.ndarray:
    """The shot sweep's broad phase over (B, S, R) slots: (game, shot slot, rock slot) of the
    candidate pairs (the exact edge test then runs on those few, as in ``k_shot_sweep``)."""
    rel_v = pd.shot_vel[:, :, None, :] - pd.rock_vel[:, None, :, :]
    d = pd.rock_pos[:, None, :, :] - pd.shot_pos[:, :, None, :]
    d[..., 0] -= W * np.round(d[..., 0] / W)
    d[..., 1] -= H * np.round(d[..., 1] / H)
    vx, vy = rel_v[..., 0], rel_v[..., 1]
    vv = vx * vx + vy * vy
    t = (d[..., 0] * vx + d[..., 1] * vy) / np.maximum(vv, 1e-300)
    np.clip(t, 0.0, 1.0, out=t)
    mx = d[..., 0] - vx * t
    my = d[..., 1] - vy * t
    r = pd.rock_r[:, None, :] * 1.0001 + 1e-6
    near = (mx * mx + my * my <= r * r) & pd.shot_alive[:, :, None] & pd.rock_alive[:, None, :]
    return np.argwhere(near)


def p_compact(pd: Padded, broken: np.ndarray) -> None:
    """Drop ``broken`` (B, R) rocks keeping order, then append one fragment per broken rock
    at the end of its game's live slots (vectorised, no Python loop over games)."""
    alive = pd.rock_alive & ~broken
    order = np.argsort(~alive, axis=1, kind="stable")
    pos = np.take_along_axis(pd.rock_pos, order[..., None], axis=1)
    vel = np.take_along_axis(pd.rock_vel, order[..., None], axis=1)
    rad = np.take_along_axis(pd.rock_r, order, axis=1)
    n = alive.sum(axis=1)
    g, slot = np.nonzero(broken)
    rank = np.arange(g.shape[0]) - (np.cumsum(np.bincount(g, minlength=pd.b)) -
                                    np.bincount(g, minlength=pd.b))[g]
    dest = n[g] + rank
    ok = dest < pos.shape[1]
    pos[g[ok], dest[ok]] = pd.rock_pos[g[ok], slot[ok]]
    vel[g[ok], dest[ok]] = pd.rock_vel[g[ok], slot[ok]]
    rad[g[ok], dest[ok]] = pd.rock_r[g[ok], slot[ok]]
    n = n + np.bincount(g[ok], minlength=pd.b)
    pd.rock_pos, pd.rock_vel, pd.rock_r = pos, vel, rad
    pd.rock_alive = np.arange(pos.shape[1])[None, :] < n[:, None]
    pd.rock_n = n


# --------------------------------------------------------------------------------------------
# 6. One rule, two backends: the ship's flight written once, run on Python floats (a batch of
#    one, as ``step`` would) and on (B,) arrays (``step_batch``)
# --------------------------------------------------------------------------------------------


class ScalarOps:
    """The few operations a branch-free rule needs, on Python scalars."""

    @staticmethod
    def where(c: bool, a: float, b: float) -> float:
        return a if c else b

    @staticmethod
    def clamp(x: float, lo: float, hi: float) -> float:
        return min(max(x, lo), hi)


class ArrayOps:
    """The same on (B,) arrays."""

    where = staticmethod(np.where)

    @staticmethod
    def clamp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
        return np.minimum(np.maximum(x, lo), hi)


_COS_T = np.cos(2 * np.pi * np.arange(HEADING_STEPS) / HEADING_STEPS)
_SIN_T = np.sin(2 * np.pi * np.arange(HEADING_STEPS) / HEADING_STEPS)
_COS_L, _SIN_L = tuple(_COS_T.tolist()), tuple(_SIN_T.tolist())


def fly_ship(ops: type, cos: object, sin: object, flying: object, mask: object,
             heading: object, vx: object, vy: object, x: object, y: object) -> tuple:
    """Turn, thrust or drag, axis clamp, move and wrap: ``ship.control_ship`` +
    ``motion.move_bodies`` for the ship, branch-free, for either backend (``cos``/``sin``:
    a tuple for scalars, an array for arrays; both index with ``[heading]``)."""
    turn = ops.where(mask & 2, 3, 0) - ops.where(mask & 4, 3, 0)
    heading = ops.where(flying, (heading + turn) % HEADING_STEPS, heading)
    thrust = (mask & 1) != 0
    c, s = cos[heading], sin[heading]
    nvx = ops.where(thrust, vx + c * 0.0630, vx * 0.9921875)
    nvy = ops.where(thrust, vy + s * 0.0630, vy * 0.9921875)
    nvx = ops.clamp(nvx, -7.875, 7.875) + 0.0
    nvy = ops.clamp(nvy, -7.875, 7.875) + 0.0
    vx, vy = ops.where(flying, nvx, vx), ops.where(flying, nvy, vy)
    nx, ny = (x + vx) % W, (y + vy) % H
    x = ops.where(flying, ops.where(nx >= W, 0.0, nx) + 0.0, x)
    y = ops.where(flying, ops.where(ny >= H, 0.0, ny) + 0.0, y)
    return heading, vx, vy, x, y


def fly_ship_branchy(flying: bool, mask: int, heading: int, vx: float, vy: float, x: float,
                     y: float) -> tuple:
    """The same rule as today's core writes it (branches on Python scalars)."""
    if not flying:
        return heading, vx, vy, x, y
    turn = 0
    if mask & 2:
        turn += 3
    if mask & 4:
        turn -= 3
    heading = (heading + turn) % HEADING_STEPS
    if mask & 1:
        vx += _COS_L[heading] * 0.0630
        vy += _SIN_L[heading] * 0.0630
    else:
        vx *= 0.9921875
        vy *= 0.9921875
    vx = min(max(vx, -7.875), 7.875) + 0.0
    vy = min(max(vy, -7.875), 7.875) + 0.0
    nx, ny = (x + vx) % W, (y + vy) % H
    return heading, vx, vy, (0.0 if nx >= W else nx) + 0.0, (0.0 if ny >= H else ny) + 0.0


class One:
    """One game's Python scalars (what ``step`` passes): the core's ``lanes.ONE`` and how
    the spike counts rocks and collects beats."""

    core = ONE

    @staticmethod
    def rock_weight(sizes: np.ndarray, game: None, b: int) -> int:
        counts = np.bincount(sizes, minlength=3)
        return int(counts[0]) * 7 + int(counts[1]) * 3 + int(counts[2])

    @staticmethod
    def emit(out: list, mask: bool, tone: int, interval: int) -> None:
        if mask:
            out.append(("Heartbeat", int(tone), int(interval)))


class Many:
    """B games' (B,) arrays (what ``step_batch`` passes): the core's ``lanes.MANY`` and how
    the spike counts rocks and collects beats."""

    core = MANY

    @staticmethod
    def rock_weight(sizes: np.ndarray, game: np.ndarray, b: int) -> np.ndarray:
        counts = np.bincount(game * 3 + sizes, minlength=3 * b).reshape(b, 3)
        return counts[:, 0] * 7 + counts[:, 1] * 3 + counts[:, 2]

    @staticmethod
    def emit(out: list, mask: np.ndarray, tone: np.ndarray, interval: np.ndarray) -> None:
        rows = np.flatnonzero(mask)
        out.append(("Heartbeat", rows, tone[rows], interval[rows]))


def heartbeat_rule(lanes: type, d: object, p: object, weight: object, out: list) -> None:
    """The heartbeat written once for both backends: the core's own shared text
    (``waves.heartbeat_clock``; the spike's prototype of it became that), its beats
    collected as ``lanes.emit`` does (``d`` holds Python scalars or (B,) arrays; ``weight``
    is each game's rock weight)."""
    beat, tone, interval = heartbeat_clock(lanes.core, d, p, weight)  # type: ignore[attr-defined]
    lanes.emit(out, beat, tone, interval)  # type: ignore[attr-defined]


def heartbeat_rule_one_inlined(d: object, p: object, weight: int, out: list) -> None:
    """What an import-time rewrite of ``heartbeat_rule`` for ``One`` would give (written out
    by hand here): ``lanes.where(c, a, b)`` -> ``(a if c else b)``, ``lanes.minimum`` ->
    ``min``, ``lanes.not_`` -> ``not``, ``lanes.none(m)`` -> ``not m``, ``lanes.emit`` -> an
    ``if``. The same rule text, no helper calls."""
    on = (not d.game_over) & (d.wave_timer < 0) & (d.ship_state == 0)
    if not on:
        return
    qt = d.beat_quicken_timer - 1
    quick = on & (qt <= 0)
    d.beat_quicken_timer = ((p.game_heartbeat_quicken_every_ticks if quick else qt) if on
                            else d.beat_quicken_timer)
    d.beat_interval = (max(p.game_heartbeat_min_interval_ticks,
                           d.beat_interval - p.game_heartbeat_quicken_step_ticks) if quick
                       else d.beat_interval)
    span = p.game_heartbeat_start_interval_ticks - p.game_heartbeat_min_interval_ticks
    by_count = p.game_heartbeat_min_interval_ticks + span * min(weight,
                                                                d.wave_weight) // d.wave_weight
    interval = max(p.game_heartbeat_min_interval_ticks, min(d.beat_interval, by_count))
    bt = d.beat_timer - 1
    beat = on & (bt <= 0)
    if beat:
        out.append(("Heartbeat", int(d.beat_tone), int(interval)))
    d.beat_tone = d.beat_tone ^ 1 if beat else d.beat_tone
    d.beat_timer = (interval if beat else bt) if on else d.beat_timer


_BEAT_FIELDS = ("game_over", "wave_timer", "ship_state", "beat_quicken_timer", "beat_interval",
                "wave_weight", "beat_timer", "beat_tone")


class _Lane:
    """A bag of fields (a Draft's, as scalars or as arrays)."""

    def __init__(self, **fields: object) -> None:
        self.__dict__.update(fields)


def check_heartbeat(games: int, ticks: int, repeat: int) -> None:
    """Capture every call of the core's ``waves.heartbeat`` in ``games`` real classic games
    (idle bot: the ship dies, waves pause, games end), then run ``heartbeat_rule`` on each
    captured state with ``One`` and on all of them at once with ``Many``: both must give
    the core's fields and events bit for bit. Also times the three."""
    from asteroids.core import waves

    config = load_config(CLASSIC)
    p = params_for(config)
    before: list[dict[str, object]] = []
    sizes: list[np.ndarray] = []
    after: list[dict[str, object]] = []
    beats: list[tuple] = []
    real = simulation.heartbeat

    def spy(d: object, p_: object, events: list) -> None:
        before.append({k: getattr(d, k) for k in _BEAT_FIELDS})
        sizes.append(d.ast_size)
        n = len(events)
        real(d, p_, events)
        after.append({k: getattr(d, k) for k in _BEAT_FIELDS})
        new = [(type(e).__name__, e.tone, e.interval_ticks) for e in events[n:]]
        beats.append(new[0] if new else None)

    simulation.heartbeat = spy
    try:
        for g in range(games):
            world = new_world(p, 1000 + g)
            for _ in range(ticks):
                world, _ = simulation.step(world, 0, p)
    finally:
        simulation.heartbeat = real
    n = len(before)
    # One: every captured state on Python scalars
    for i in range(n):
        lane = _Lane(**before[i])
        out: list = []
        heartbeat_rule(One, lane, p, One.rock_weight(sizes[i], None, 1), out)
        assert {k: getattr(lane, k) for k in _BEAT_FIELDS} == after[i], f"One differs at {i}"
        assert (out[0] if out else None) == beats[i], f"One's event differs at {i}"
        lane = _Lane(**before[i])
        out = []
        heartbeat_rule_one_inlined(lane, p, One.rock_weight(sizes[i], None, 1), out)
        assert {k: getattr(lane, k) for k in _BEAT_FIELDS} == after[i], f"inlined, at {i}"
        assert (out[0] if out else None) == beats[i], f"inlined event, at {i}"
    # Many: all captured states as one batch
    cols = {k: np.array([b[k] for b in before]) for k in _BEAT_FIELDS}
    game = np.repeat(np.arange(n), [s_.shape[0] for s_ in sizes])
    all_sizes = np.concatenate(sizes)
    lane = _Lane(**cols)
    out = []
    heartbeat_rule(Many, lane, p, Many.rock_weight(all_sizes, game, n), out)
    for k in _BEAT_FIELDS:
        want = np.array([a[k] for a in after])
        got = getattr(lane, k)
        assert got.tolist() == want.tolist(), f"Many differs in {k}"
    _, rows, tones, intervals = out[0]
    got_beats = dict.fromkeys(range(n))
    for r, t, iv in zip(rows.tolist(), tones.tolist(), intervals.tolist(), strict=True):
        got_beats[r] = ("Heartbeat", t, iv)
    assert [got_beats[i] for i in range(n)] == beats, "Many's events differ"

    # time: the core's rule, the shared rule on scalars, the shared rule on the batch
    d0 = next(b for b in before[n // 2:] if not b["game_over"] and b["wave_timer"] < 0
              and b["ship_state"] == 0)  # a state where the rule runs in full

    def core_once() -> None:
        for _ in range(2000):
            d = _Lane(**d0)
            d.ast_size = sizes[n // 2]
            waves.heartbeat(d, p, [])

    def one_once() -> None:
        for _ in range(2000):
            d = _Lane(**d0)
            heartbeat_rule(One, d, p, One.rock_weight(sizes[n // 2], None, 1), [])

    def inlined_once() -> None:
        for _ in range(2000):
            d = _Lane(**d0)
            heartbeat_rule_one_inlined(d, p, One.rock_weight(sizes[n // 2], None, 1), [])

    def many_once() -> None:
        d = _Lane(**cols)
        heartbeat_rule(Many, d, p, Many.rock_weight(all_sizes, game, n), [])

    print(f"\n## A real rule written once: waves.heartbeat on both backends (best of {repeat})\n")
    print(f"{n} captured calls from {games} idle classic games of {ticks} ticks: the shared "
          "rule equals the core's fields and events bit for bit with One (scalars, each "
          "call) and with Many (all calls as one batch).\n")
    print("| version (each timing includes building the state and the rock weight) | "
          "µs per game-tick |")
    print("|---|---:|")
    core_us = 1e6 * best_of(core_once, repeat) / 2000
    one_us = 1e6 * best_of(one_once, repeat) / 2000
    inl_us = 1e6 * best_of(inlined_once, repeat) / 2000
    t = best_of(many_once, repeat)
    print(f"| core `waves.heartbeat` (Python scalars) | {core_us:.2f} |")
    print(f"| shared rule, `One` (Python scalars) | {one_us:.2f} |")
    print(f"| shared rule, `One` inlined (an import-time rewrite) | {inl_us:.2f} |")
    print(f"| shared rule, `Many`, B = {n} | {1e6 * t / n:.3f} (µs per batch step: "
          f"{1e6 * t:.0f}) |")


def two_backends(repeat: int) -> None:
    """The same rule on one game's Python scalars, on (1,) arrays and on (4096,) arrays:
    time per call and bit-identity of the results."""
    n = 20_000
    rng = np.random.default_rng(3)
    masks = rng.integers(0, 8, n).tolist()

    def scalar_branchy() -> tuple:
        st = (64, 1.0, -2.0, 500.0, 300.0)
        for m in masks:
            st = fly_ship_branchy(True, m, *st)
        return st

    def scalar_free() -> tuple:
        st = (64, 1.0, -2.0, 500.0, 300.0)
        for m in masks:
            st = fly_ship(ScalarOps, _COS_L, _SIN_L, True, m, *st)
        return st

    def arrays(b: int) -> Callable[[], tuple]:
        def run() -> tuple:
            st = (np.full(b, 64), np.full(b, 1.0), np.full(b, -2.0), np.full(b, 500.0),
                  np.full(b, 300.0))
            flying = np.ones(b, dtype=bool)
            for m in masks[: n // 20]:
                st = fly_ship(ArrayOps, _COS_T, _SIN_T, flying, np.full(b, m), *st)
            return st
        return run

    a = scalar_branchy()
    b = scalar_free()
    c = arrays(1)()
    same = a == b
    partial_b = b  # the array runs take n/20 ticks: compare on those
    st = (64, 1.0, -2.0, 500.0, 300.0)
    for m in masks[: n // 20]:
        st = fly_ship_branchy(True, m, *st)
    same_arr = all(float(x[0]) == float(y) for x, y in zip(c, st, strict=True))
    print(f"\n## One rule, two backends: the ship's flight (best of {repeat})\n")
    print(f"bit-identical: branch-free scalars == branchy scalars: {same}; (1,) arrays == "
          f"branchy scalars over {n // 20} ticks: {same_arr}\n")
    del partial_b
    print("| backend | µs per game-tick |")
    print("|---|---:|")
    print(f"| Python scalars, branchy (today's style) | "
          f"{1e6 * best_of(scalar_branchy, repeat) / n:.2f} |")
    print(f"| Python scalars, branch-free (shared rule, ScalarOps) | "
          f"{1e6 * best_of(scalar_free, repeat) / n:.2f} |")
    for b in (1, 64, 1024, 4096):
        t = best_of(arrays(b), repeat) / (n // 20)
        print(f"| (B,) arrays, B = {b} (ArrayOps) | {1e6 * t / b:.3f} "
              f"(µs per batch step: {1e6 * t:.1f}) |")


def calibrate(repeat: int) -> float:
    """ns per element of ``np.add`` over 1M float64 (out=): a yardstick for the machine's
    load, printed beside every table."""
    a = np.random.default_rng(0).random(1_000_000)
    out = np.empty_like(a)

    def run() -> None:
        for _ in range(20):
            np.add(a, a, out=out)

    return 1e9 * best_of(run, repeat) / 20 / a.shape[0]


def _peak_bytes(fn: Callable[[], object]) -> int:
    """Peak bytes numpy allocated during ``fn()`` (numpy reports to tracemalloc)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


WORKLOADS = {"idle": (7, 1), "aimer": (9, 3)}
"""Rocks and shots per game, from real classic games of 3 000 ticks (seeds 1-3): idle
games hold 6-7.5 rocks and 0.2-0.6 shots on average (max 11, 2); aimer games 8.6-9.5 rocks
and 2.0-2.2 shots (max 27, 4), plus saucer shots."""


def kernels(sizes: Sequence[int], repeat: int, steps: int, prune: float) -> None:
    """Time each kernel per batch step at each B; game-ticks/s and bytes per game."""
    check_pcg32()
    print(f"\nCalibration (this machine, now): {calibrate(repeat):.2f} ns per element of a "
          "1M-element float64 add (numpy, one thread); a loaded machine scales everything.")
    print("\nBatchPcg32 equals asteroids.core.rng.Pcg32 (u32, masked u32, below, per-game "
          "draws, advance) for 7 seeds: OK")
    pairs, exact = check_prune(prune=prune)
    print(f"Compaction (rocks removed, fragments appended per game, their draws) equals a "
          f"per-game reference for {check_compaction()} rocks")
    rocks, attempts = check_wave_places()
    print(f"spawn_wave's places, velocities and draws, batched with speculative attempts: "
          f"equal to spawn.spawn_wave for {rocks} classic rocks ({attempts} attempts; half of "
          "them with a clearance no point meets)")
    n_scenes, n_hits = check_batched_query()
    print(f"The core's first_hits over {n_scenes} real classic scenes packed into one call "
          f"(same-game pairs only) equals the one-game first_hits bit for bit ({n_hits} hits)")
    print(f"The aimer's closest approach on (P,) columns equals aim.closest bit for bit on "
          f"{check_columns()} pairs (and pruned, on every pair within 64 px)")
    print(f"Aimer pruning at {prune:g} px equals the brute 9-image search on every pair within "
          f"{prune:g} px: OK ({exact} of {pairs} pairs computed exactly)")
    packed = ("move_rocks", "move_shots", "ship_contacts", "shot_sweep", "compact_rocks",
              "pcg_tick", "scalars")
    for workload, (rocks, shots) in WORKLOADS.items():
        print(f"\n## Packed kernels, {workload} workload: {rocks} rocks and {shots} shots per "
              f"game (µs per batch step, best of {repeat} runs of {steps} steps)\n")
        cols = list(packed) + (["aimer_brute", f"aimer_pruned({prune:g}px)", "aimer_axes+pruned",
                                "aimer_columns"] if workload == "aimer" else [])
        print("| B | " + " | ".join(cols) + " | step sum | game-ticks/s | resident B/game "
              "| peak B/game |")
        print("|---:|" + "---:|" * (len(cols) + 4))
        for b in sizes:
            bt = Batch(b, rocks, shots, seed=7)
            resident = bt.nbytes() / b

            def compact(bt: Batch = bt) -> None:
                n = bt.rock_pos.shape[0]
                br = np.zeros(n, dtype=bool)
                br[::97] = True
                k_compact_rocks(bt, br)  # break ~1 %: fragments appended per game
                n2 = bt.rock_pos.shape[0]
                drop = np.zeros(n2, dtype=bool)  # then drop as many, no split, to keep the
                drop[::max(1, n2 // max(1, n2 - n))] = True  # load steady
                drop[np.cumsum(drop) > n2 - n] = False
                k_compact_rocks(bt, drop, split=False)

            fns: dict[str, Callable[[], object]] = {
                "move_rocks": lambda bt=bt: k_move_rocks(bt),
                "move_shots": lambda bt=bt: k_move_shots(bt),
                "ship_contacts": lambda bt=bt: k_ship_contacts(bt),
                "shot_sweep": lambda bt=bt: k_shot_sweep(bt),
                "compact_rocks": compact,
                "pcg_tick": lambda bt=bt: k_pcg_tick(bt),
                "scalars": lambda bt=bt: k_scalars(bt),
                "aimer_brute": lambda bt=bt, k=shots + 4: k_aimer_shape(bt, movers=k),
                f"aimer_pruned({prune:g}px)": lambda bt=bt, k=shots + 4: k_aimer_shape(
                    bt, movers=k, prune=prune),
                "aimer_axes+pruned": lambda bt=bt, k=shots + 4: k_aimer_shape(
                    bt, movers=k, prune=prune, axes=True),
                "aimer_columns": lambda bt=bt, k=shots + 4: aimer_closest_columns(
                    Columns(bt, k), prune),
            }
            us: dict[str, float] = {}
            for name in cols:
                fn = fns[name]

                def loop(fn: Callable[[], object] = fn) -> None:
                    for _ in range(steps):
                        fn()

                fn()  # warm
                us[name] = 1e6 * best_of(loop, repeat) / steps
                fresh = Batch(b, rocks, shots, seed=7)  # compaction drifts the rock count:
                vars(bt).update(vars(fresh))           # every kernel starts from the same
                                                      # scene
            us["compact_rocks"] /= 2  # it compacts twice per call
            total = sum(us[n] for n in packed)
            if workload == "aimer":
                total += us["aimer_axes+pruned"]  # the row layout, as the table's other kernels
            peak = max(_peak_bytes(fns[n]) for n in cols)
            print(f"| {b} | " + " | ".join(f"{us[n]:,.0f}" for n in cols) +
                  f" | {total:,.0f} | {b / total * 1e6:,.0f} | {resident:,.0f} | "
                  f"{peak / b:,.0f} |")
            if workload == "aimer":
                exact = k_aimer_shape(bt, movers=shots + 4, prune=prune)
                m, _ = _pairs_same_game(*_movers(bt, shots + 4)[:2], bt.rock_off, b)
                print(f"<!-- B={b}: aimer pairs {m.shape[0]}, exact after pruning {exact} -->")
            _, _, n_pairs, n_cand = k_shot_sweep(bt)
            print(f"<!-- B={b}: shot sweep {n_pairs} pairs, {n_cand} candidates -->")

    print(f"\n## Padded layout (rocks in (B, 27) slots, shots in (B, 6)), aimer workload, "
          f"against packed (µs per batch step, best of {repeat})\n")
    print("| B | move_rocks packed / padded | ship_contacts packed / padded | sweep broad "
          "phase packed / padded | sweep broad phase packed rows / packed columns | compact "
          "packed / padded |")
    print("|---:|---:|---:|---:|---:|---:|")
    rocks, shots = WORKLOADS["aimer"]
    for b in sizes:
        bt = Batch(b, rocks, shots, seed=7)
        pd = Padded(bt, 27, 6)
        broken_p = np.zeros(bt.rock_pos.shape[0], dtype=bool)
        broken_p[::97] = True
        broken_d = np.zeros((b, 27), dtype=bool)
        g = bt.rock_game[broken_p]
        slot = np.flatnonzero(broken_p) - bt.rock_off[g]
        broken_d[g, slot] = True

        def rep(fn: Callable[[], object]) -> float:
            def loop() -> None:
                for _ in range(steps):
                    fn()
            return 1e6 * best_of(loop, repeat) / steps

        def packed_broad(bt: Batch = bt) -> None:
            shot, rock = _pairs_same_game(bt.shot_game, bt.shot_off, bt.rock_off, bt.b)
            rel_v = bt.shot_vel[shot] - bt.rock_vel[rock]
            d = wrap_delta(bt.rock_pos[rock] - bt.shot_pos[shot])
            vv = rel_v[:, 0] * rel_v[:, 0] + rel_v[:, 1] * rel_v[:, 1]
            t = np.clip((d[:, 0] * rel_v[:, 0] + d[:, 1] * rel_v[:, 1]) / np.maximum(
                vv, 1e-300), 0.0, 1.0)
            mx = d[:, 0] - rel_v[:, 0] * t
            my = d[:, 1] - rel_v[:, 1] * t
            r = bt.rock_r[rock] * 1.0001 + 1e-6
            np.flatnonzero(mx * mx + my * my <= r * r)

        split = tuple(a[:, k].copy() for a in (bt.rock_pos, bt.rock_vel, bt.shot_pos,
                                                 bt.shot_vel) for k in (0, 1))

        def columns_broad(bt: Batch = bt, split: tuple = split) -> None:
            """The same broad phase on (N,) columns (pairs built as in ``packed_broad``)."""
            rx, ry, rvx, rvy, sx, sy, svx, svy = split
            shot, rock = _pairs_same_game(bt.shot_game, bt.shot_off, bt.rock_off, bt.b)
            ux = svx[shot] - rvx[rock]
            uy = svy[shot] - rvy[rock]
            dx = rx[rock] - sx[shot]
            dy = ry[rock] - sy[shot]
            dx -= W * np.round(dx / W)
            dy -= H * np.round(dy / H)
            vv = ux * ux + uy * uy
            t = np.clip((dx * ux + dy * uy) / np.maximum(vv, 1e-300), 0.0, 1.0)
            mx = dx - ux * t
            my = dy - uy * t
            r = bt.rock_r[rock] * 1.0001 + 1e-6
            np.flatnonzero(mx * mx + my * my <= r * r)

        def packed_compact(bt: Batch = bt, br: np.ndarray = broken_p) -> None:
            saved = (bt.rock_pos, bt.rock_vel, bt.rock_size, bt.rock_r, bt.rock_shape,
                     bt.rock_id, bt.rock_game, bt.rock_off, bt.rng.state.copy())
            k_compact_rocks(bt, br)
            (bt.rock_pos, bt.rock_vel, bt.rock_size, bt.rock_r, bt.rock_shape, bt.rock_id,
             bt.rock_game, bt.rock_off, bt.rng.state) = saved

        def padded_compact(pd: Padded = pd, br: np.ndarray = broken_d) -> None:
            saved = (pd.rock_pos, pd.rock_vel, pd.rock_r, pd.rock_alive, pd.rock_n)
            p_compact(pd, br)
            pd.rock_pos, pd.rock_vel, pd.rock_r, pd.rock_alive, pd.rock_n = saved

        row = [(rep(lambda bt=bt: k_move_rocks(bt)), rep(lambda pd=pd: p_move_rocks(pd))),
               (rep(lambda bt=bt: k_ship_contacts(bt)),
                rep(lambda pd=pd: p_ship_contacts(pd))),
               (rep(packed_broad), rep(lambda pd=pd: p_shot_broad(pd))),
               (rep(packed_broad), rep(columns_broad)),
               (rep(packed_compact), rep(padded_compact))]
        print(f"| {b} | " + " | ".join(f"{x:,.0f} / {y:,.0f}" for x, y in row) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch_spike",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--core", action="store_true", help="profile the one-game core")
    parser.add_argument("--overhead", action="store_true", help="batch-of-one overhead")
    parser.add_argument("--kernels", action="store_true", help="the batch kernels (default)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 1024, 4096])
    parser.add_argument("--prune", type=float, default=64.0,
                        help="the aimer's pruning radius, px (0: none)")
    parser.add_argument("--backends", action="store_true",
                        help="one rule on Python scalars and on (B,) arrays")
    parser.add_argument("--steps", type=int, default=20, help="batch steps per timed run")
    parser.add_argument("--ticks", type=int, default=3000, help="ticks of the core profile")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best kept)")
    args = parser.parse_args(argv)
    if not (args.core or args.overhead or args.kernels or args.backends):
        args.kernels = True
    params_for(load_config(CLASSIC))  # warm the imports
    print(f"numpy {np.__version__}; timings: best of {args.repeat}, one thread")
    if args.core:
        core_profile(args.ticks, args.seed, args.repeat)
    if args.overhead:
        overhead(args.repeat)
    if args.kernels:
        kernels(args.sizes, args.repeat, args.steps, args.prune)
    if args.backends:
        two_backends(args.repeat)
        check_heartbeat(16, 3000, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
