"""Games per second, ours and the peers': ``python -m benchmarks.batch`` or ``asteroids bench
batch``.

The baseline for issue 25 (thousands of games at once), measured in one run on one core:

* **ours, one game at a time**: classic games through the one-game core (``new_world`` and
  ``step``), with idle inputs and with the aimer bot deciding every tick (its cost
  included): game-ticks per second, and memory per game (``tracemalloc``: what holding
  ``--hold`` live games costs, divided by their number, at tick 600);
* **ALE's Asteroids-v5** (the Atari 2600 game under the Stella emulator, C++), random
  actions: emulator frames per second (v5 repeats each action for 4 frames);
* **kesslergame** (pure Python, 30 asteroids) with a simple aiming controller (turn to the
  nearest asteroid, fire): frames per second.

* **ours, batched**: ``new_batch`` / ``step_batch`` at B = 1, 64, 1 024 and 4 096 games in
  lock-step, idle and with the batched aimer deciding (``asteroids.core.bot_batch``):
  game-ticks per second from the games' first tick over ``--batch-ticks`` ticks (or
  ``--batch-seconds``, whichever ends first; the note says which ticks), and memory per
  game (``tracemalloc``: what a batch holds after two steps, divided by B; its packed
  arrays alone, ``Batch.nbytes``, in the note);

* **ours, per preset, random inputs** (issue 35): for each ``--config`` preset (default
  classic), the one-game core and ``step_batch`` at B = ``--random-size`` (1 024) with
  uniformly random input masks (every button combination in ``[0, ALL_BUTTONS]`` alike,
  from a seeded generator, fresh each tick), games that end restarting from the next seed,
  the batch over ticks 1-``--batch-ticks`` (or ``--random-seconds``) and the one-game core
  over the same ticks of up to ``--games`` games (a game's cost changes as it goes on):
  both rates, their ratio, and the share of game-ticks the batched pass leaves to the
  one-game ``step`` (counted by wrapping the ``step`` that ``asteroids.core.batch`` calls:
  a Python call and an addition per such game-tick). ``--presets-only`` prints this table
  alone; ``--matches`` adds, for each preset, two-player matches of random inputs at
  B = ``--random-size`` matches (``match_batch.step_matches`` against ``step_match``,
  match-ticks per second: ``benchmarks.batch_matches``).

The peers come with the optional ``[peers]`` extra (``python -m pip install '.[peers]'``);
without them their rows say so. The issue's targets for the batched core are printed beside
the table.

Wall clock on a machine that may be busy: run it on an idle machine and quote the machine
line it prints.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import platform
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import asteroids.core.batch as batch_module
from asteroids.config import Config, load_config
from asteroids.core import World, new_world, step
from asteroids.core.batch import new_batch, step_batch
from asteroids.core.bot import bot_for
from asteroids.core.bot_batch import batch_bot_for
from asteroids.core.inputs import ALL_BUTTONS
from asteroids.core.params import Params, params_for
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name

__all__ = ["PresetRow", "Row", "ale_row", "batch_row", "kessler_row", "main", "one_game_row",
           "preset_row"]

SIZES = (1, 64, 1024, 4096)
"""The batch sizes the issue asks for."""

TARGETS = ("issue 25's targets for the batched core at B = 4 096, classic: at least 200 000 "
           "game-ticks/s with idle inputs, 100 000 with the aimer deciding (moonshot: "
           "1 000 000), at most 20 kB per game; 200 classic aimer games of 3 000 ticks "
           "balanced in under 10 s")
PRESET_TARGET = 10.0
"""Issue 35: every preset with random inputs at B = 1 024 at least this many times the
one-game step's game-ticks/s."""
PRESET_TARGETS = ("issue 35's targets: every preset with random inputs at B = 1 024 at least "
                  "10x the one-game step's game-ticks/s; classic idle at B = 4 096 keeps at "
                  "least 400 000 game-ticks/s (the classic idle rows)")
PEERS_MISSING = ("not installed: python -m pip install '.[peers]' (ale-py, kesslergame)")


@dataclass
class Row:
    """One line of the table."""

    engine: str
    inputs: str
    rate: float | None
    """Game-ticks (frames) per second on one core; None when not measured."""
    unit: str
    kb_per_game: float | None = None
    note: str = ""


def _play(cfg: Config, seeds: Sequence[int], ticks: int,
          decide: Callable[[World, Params], int] | None) -> int:
    p = params_for(cfg)  # compiled once, as a game does: the rate is the ticks'
    played = 0
    for seed in seeds:
        w = new_world(p, seed)
        for _ in range(ticks):
            w, _ = step(w, 0 if decide is None else decide(w, p), p)
            played += 1
            if w.game_over:
                break
    return played


def _kb_per_game(cfg: Config, hold: int, at_tick: int = 600) -> float:
    """What ``hold`` live idle games cost at ``at_tick``, per game (kB)."""
    p = params_for(cfg)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    worlds = []
    for seed in range(hold):
        w = new_world(p, seed)
        for _ in range(at_tick):
            w, _ = step(w, 0, p)
        worlds.append(w)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del worlds
    return used / hold / 1000.0


def one_game_row(cfg: Config, bot: str, games: int, ticks: int, hold: int) -> Row:
    """Our one-game core playing ``games`` games of up to ``ticks`` ticks with ``bot``."""
    decide = None if bot == "idle" else bot_for(bot)
    seeds = list(range(1, games + 1))
    start = time.perf_counter()
    played = _play(cfg, seeds, ticks, decide)
    rate = played / (time.perf_counter() - start)
    return Row("ours, one game at a time", bot, rate, "game-ticks/s",
               _kb_per_game(cfg, hold) if bot == "idle" else None)


def batch_row(cfg: Config, bot: str, lanes: int, ticks: int, seconds: float) -> Row:
    """``step_batch`` over ``lanes`` new classic games with ``bot`` deciding (its cost
    included), from their first tick for ``ticks`` ticks (the saucers' first visit, deaths
    and respawns come in the first 1 200), or until ``seconds`` have passed (at least two
    steps)."""
    decide = batch_bot_for(bot)
    p = params_for(cfg)
    batch = new_batch(p, range(1, lanes + 1))
    steps = 0
    start = time.perf_counter()
    while steps < 2 or (steps < ticks and time.perf_counter() - start < seconds):
        batch, _ = step_batch(batch, decide(batch, p), p)
        steps += 1
    rate = steps * lanes / (time.perf_counter() - start)
    size = f"{lanes:,}".replace(",", " ")
    return Row(f"ours, batched, B = {size}", bot, rate, "game-ticks/s",
               _batch_kb_per_game(cfg, lanes, decide),
               note=f"ticks 1-{steps}; arrays {batch.nbytes / lanes / 1000.0:.1f} kB/game")


def _batch_kb_per_game(cfg: Config, lanes: int, decide: Callable[..., Any]) -> float:
    """What a batch of ``lanes`` games holds after two steps, per game (kB, tracemalloc):
    its arrays and whatever else it keeps (while the phases run game by game, the Worlds)."""
    p = params_for(cfg)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    batch = new_batch(p, range(1, lanes + 1))
    for _ in range(2):
        batch, _ = step_batch(batch, decide(batch, p), p)
    batch.nbytes  # noqa: B018 (every column packed, as a batched core holds them)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del batch
    return used / lanes / 1000.0


def ale_row(frames: int) -> Row:
    """ALE Asteroids-v5 with random actions: emulator frames per second."""
    try:
        import ale_py
        import gymnasium as gym
    except ImportError:
        return Row("ALE Asteroids-v5 (ale-py)", "random", None, "frames/s", note=PEERS_MISSING)
    gym.register_envs(ale_py)
    env = gym.make("ALE/Asteroids-v5", obs_type="ram")
    skip = int(env.unwrapped._frameskip) if isinstance(env.unwrapped._frameskip, int) else 4
    env.reset(seed=0)
    env.action_space.seed(0)
    done_frames = 0
    start = time.perf_counter()
    while done_frames < frames:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        done_frames += skip
        if term or trunc:
            env.reset()
    rate = done_frames / (time.perf_counter() - start)
    env.close()
    return Row(f"ALE Asteroids-v5 (ale-py {ale_py.__version__})", "random", rate, "frames/s",
               note=f"{skip} frames per step, RAM observation")


def _aiming_controller() -> Any:
    from kesslergame import KesslerController

    class Aimer(KesslerController):
        """Turn towards the nearest asteroid and fire: the simple controller of the issue."""

        def actions(self, ship_state: Any, game_state: Any) -> tuple[float, float, bool, bool]:
            sx, sy = ship_state["position"]
            best, aim = math.inf, 0.0
            for a in game_state["asteroids"]:
                ax, ay = a["position"]
                d = (ax - sx) ** 2 + (ay - sy) ** 2
                if d < best:
                    best, aim = d, math.degrees(math.atan2(ay - sy, ax - sx))
            turn = (aim - ship_state["heading"] + 180.0) % 360.0 - 180.0
            return 0.0, max(-180.0, min(180.0, 6.0 * turn)), True, False

        @property
        def name(self) -> str:
            return "aimer"

    return Aimer()


def kessler_row(seconds: float) -> Row:
    """kesslergame, 30 asteroids, the aiming controller: frames per second."""
    try:
        import kesslergame
        from kesslergame import Scenario, TrainerEnvironment
    except ImportError:
        return Row("kesslergame", "aiming controller", None, "frames/s", note=PEERS_MISSING)
    game = TrainerEnvironment(settings={"time_limit": seconds})
    scenario = Scenario(name="bench", num_asteroids=30, seed=1, time_limit=seconds,
                        ship_states=[{"position": (400, 400), "lives": 99}])
    start = time.perf_counter()
    score, _ = game.run(scenario=scenario, controllers=[_aiming_controller()])
    elapsed = time.perf_counter() - start
    frames = round(score.sim_time * game.frequency)
    version = getattr(kesslergame, "__version__", "")
    return Row(f"kesslergame {version}".strip(), "aiming controller, 30 asteroids",
               frames / elapsed, "frames/s", note=f"{frames} frames at {game.frequency:g} Hz")


@dataclass
class PresetRow:
    """One preset with random inputs: the one-game core against the batched core."""

    preset: str
    one_game: float
    """The one-game core's game-ticks per second."""
    batched: float
    """``step_batch``'s game-ticks per second at B = ``lanes``."""
    lanes: int
    fallback: float
    """The share of the batched row's game-ticks stepped by the one-game ``step``."""
    note: str = ""

    @property
    def ratio(self) -> float:
        """The batched rate over the one-game rate."""
        return self.batched / self.one_game


def _random_masks(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` input masks, every button combination alike."""
    return rng.integers(0, ALL_BUTTONS + 1, size=n, dtype=np.int64)


def one_game_random_rate(cfg: Config, games: int, ticks: int, seconds: float,
                         seed: int = 0) -> tuple[float, int]:
    """Game-ticks per second of the one-game core under random inputs: up to ``games`` games
    (seeds 1, 2, ...) of up to ``ticks`` ticks each, a game over starting the next seed, for
    at most ``seconds`` (at least one tick). Returns the rate and the ticks played."""
    rng = np.random.default_rng(seed)
    masks = _random_masks(rng, games * ticks).tolist()
    p = params_for(cfg)  # compiled once, as a game does: the rate is the ticks'
    played = 0
    start = time.perf_counter()
    for game in range(games):
        w = new_world(p, game + 1)
        for t in range(ticks):
            w, _ = step(w, masks[game * ticks + t], p)
            played += 1
            if w.game_over or (played > 1 and time.perf_counter() - start >= seconds):
                break
        if played > 1 and time.perf_counter() - start >= seconds:
            break
    return played / (time.perf_counter() - start), played


@contextlib.contextmanager
def _counting_one_game_steps() -> Iterator[list[int]]:
    """Count the games ``step_batch`` hands to the one-game ``step`` (its module's name for
    it is swapped for a counting wrapper while the block runs)."""
    count = [0]
    one_game = batch_module.step

    def counted(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return one_game(*args, **kwargs)

    batch_module.step = counted  # type: ignore[assignment]
    try:
        yield count
    finally:
        batch_module.step = one_game  # type: ignore[assignment]


def batched_random_rate(cfg: Config, lanes: int, ticks: int, seconds: float,
                        seed: int = 0) -> tuple[float, int, float]:
    """Game-ticks per second of ``step_batch`` over ``lanes`` new games (seeds 1..lanes)
    under random inputs, from their first tick for ``ticks`` ticks or until ``seconds`` have
    passed (at least two steps), ended games restarting from the next seeds. Returns the
    rate, the steps taken and the share of game-ticks the one-game ``step`` played."""
    rng = np.random.default_rng(seed)
    p = params_for(cfg)
    batch = new_batch(p, range(1, lanes + 1))
    more = iter(range(lanes + 1, 2**31))
    steps = 0
    with _counting_one_game_steps() as count:
        start = time.perf_counter()
        while steps < 2 or (steps < ticks and time.perf_counter() - start < seconds):
            batch, _ = step_batch(batch, _random_masks(rng, lanes), p, auto_reset=more)
            steps += 1
        elapsed = time.perf_counter() - start
    return steps * lanes / elapsed, steps, count[0] / (steps * lanes)


def preset_row(name: str, lanes: int, games: int, batch_ticks: int,
               seconds: float) -> PresetRow:
    """Preset ``name`` under random inputs: ``step_batch`` at B = ``lanes`` (ticks
    1-``batch_ticks``, at most ``seconds``) against the one-game core over the same ticks of
    its games (``games`` games of ticks 1 to the batch's last, at most ``seconds``): the
    rules' cost changes as a game goes on (rocks, shots, saucers), so both rates cover the
    same stretch."""
    cfg = load_config(name)
    rate, steps, fallback = batched_random_rate(cfg, lanes, batch_ticks, seconds)
    one, played = one_game_random_rate(cfg, games, steps, seconds)
    return PresetRow(name, one, rate, lanes, fallback,
                     note=f"ticks 1-{steps}; one game: {played} game-ticks")


def _spaced(x: float) -> str:
    return f"{x:,.0f}".replace(",", " ")


def preset_table(rows: list[PresetRow]) -> str:
    """The preset rows as a Markdown table."""
    size = _spaced(rows[0].lanes) if rows else "B"
    lines = [f"| preset | inputs | batched / one game | one game, one core | batched, B = {size} "
             "| game-ticks by the one-game step | 10x target | note |",
             "|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        met = "met" if r.ratio >= PRESET_TARGET else "not met"
        lines.append(f"| {r.preset} | random | {r.ratio:.1f}x | {_spaced(r.one_game)} "
                     f"game-ticks/s | {_spaced(r.batched)} game-ticks/s | "
                     f"{100 * r.fallback:.1f} % | {met} | {r.note} |")
    return "\n".join(lines)


def _presets(values: list[str] | None) -> list[str]:
    names = [n.strip() for v in (values or ["classic"]) for n in v.split(",") if n.strip()]
    return list(dict.fromkeys(names))


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| engine | inputs | rate, one core | memory per game | note |",
             "|---|---|---:|---:|---|"]
    for r in rows:
        rate = "-" if r.rate is None else f"{r.rate:,.0f} {r.unit}".replace(",", " ")
        mem = "" if r.kb_per_game is None else f"{r.kb_per_game:.1f} kB"
        lines.append(f"| {r.engine} | {r.inputs} | {rate} | {mem} | {r.note} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="asteroids bench batch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8, help="one-game core: games per row")
    parser.add_argument("--ticks", type=int, default=3000, help="one-game core: ticks a game")
    parser.add_argument("--hold", type=int, default=64,
                        help="live games held to measure memory per game")
    parser.add_argument("--ale-frames", type=int, default=40000, help="ALE frames to run")
    parser.add_argument("--kessler-seconds", type=float, default=60.0,
                        help="kesslergame game time to run")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="batch sizes B, comma-separated (default %(default)s; none: '')")
    parser.add_argument("--batch-ticks", type=int, default=1200,
                        help="batched rows: ticks from the games' start (default %(default)s)")
    parser.add_argument("--batch-seconds", type=float, default=20.0,
                        help="batched rows: stop a row after this many seconds (default "
                        "%(default)s)")
    parser.add_argument("--no-peers", action="store_true", help="leave the peers out")
    parser.add_argument("--config", action="append", metavar="PRESET[,PRESET...]",
                        help="presets for the random-inputs table (repeatable or "
                        "comma-separated; default classic)")
    parser.add_argument("--random-size", type=int, default=1024,
                        help="random-inputs table: batch size B (default %(default)s)")
    parser.add_argument("--random-seconds", type=float, default=None,
                        help="random-inputs table: at most this many seconds for each of a "
                        "row's two rates (default: --batch-seconds)")
    parser.add_argument("--matches", action="store_true",
                        help="random-inputs table: add two-player matches of each preset "
                        "(B = --random-size matches)")
    parser.add_argument("--presets-only", action="store_true",
                        help="print the random-inputs table alone (no classic baseline rows, "
                        "no peers)")
    args = parser.parse_args(argv)
    tune_malloc()
    cfg = load_config("classic")
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}")
    seconds = args.batch_seconds if args.random_seconds is None else args.random_seconds
    presets = [preset_row(name, args.random_size, args.games, args.batch_ticks, seconds)
               for name in _presets(args.config)]
    if args.matches:
        from benchmarks.batch_matches import match_row

        presets += [match_row(name, args.random_size, args.games, args.batch_ticks, seconds)
                    for name in _presets(args.config)]
    if args.presets_only:
        _print_presets(presets, args, seconds)
        return 0
    print(f"Classic rules; one-game rows: {args.games} games of up to {args.ticks} ticks.\n")
    rows = [one_game_row(cfg, bot, args.games, args.ticks, args.hold)
            for bot in ("idle", "aimer")]
    sizes = [int(b) for b in args.sizes.split(",") if b.strip()]
    rows += [batch_row(cfg, bot, b, args.batch_ticks, args.batch_seconds)
             for bot in ("idle", "aimer") for b in sizes]
    if not args.no_peers:
        rows += [ale_row(args.ale_frames), kessler_row(args.kessler_seconds)]
    print(table(rows))
    print("\nMemory per game by tracemalloc: the one-game row holds live Worlds at tick 600, a "
          "batched row a batch after two steps (its packed arrays alone in the note).")
    print(TARGETS + ".\n")
    _print_presets(presets, args, seconds)
    return 0


def _print_presets(rows: list[PresetRow], args: argparse.Namespace, seconds: float) -> None:
    print(f"Random inputs, per preset: batched = ticks 1-{args.batch_ticks} from the games' "
          f"start or {seconds:g} s; one game = up to {args.games} games over the same ticks, "
          f"at most {seconds:g} s; games that end restart from the next seed.\n")
    print(preset_table(rows))
    print("\n" + PRESET_TARGETS + ".")


if __name__ == "__main__":
    raise SystemExit(main())
