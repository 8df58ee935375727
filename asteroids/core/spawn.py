"""Making asteroids: outlines, new waves and the fragments of broken rocks.

All chance comes from the world's PCG32 and all maths is IEEE ``+ - * / sqrt``, so the same
seed makes the same rocks everywhere. Rocks are made in batches: every rock consumes a fixed
number of draws (``_DRAWS_PER_ROCK``), so a whole tick's fragments come from one vectorised
draw (``Pcg32.u32_array``) and one numpy pass, which matters when hundreds break at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.lanes import ONE, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import DrawQueue, Pcg32
from asteroids.core.tables import CLASSIC_ROCKS, COS, HEADING_STEPS, SIN
from asteroids.core.world import Draft, empty_f64, empty_i64

__all__ = [
    "ATTEMPTS",
    "NewRock",
    "RockBatch",
    "append_rocks",
    "draws_per_rock",
    "fragment_counts",
    "make_outline",
    "make_rocks",
    "place_draws",
    "remove_all_rocks",
    "split_rocks",
    "spawn_wave",
    "wave_places",
    "wave_rocks",
    "wave_size",
]

_CLASSIC = tuple(
    rock / max(math.sqrt(x * x + y * y) for x, y in rock.tolist()) for rock in CLASSIC_ROCKS
)
"""Classic outlines scaled so their farthest point is at radius 1."""
for _outline in _CLASSIC:
    _outline.flags.writeable = False
del _outline

_TWO32 = 4294967296.0


@dataclass(frozen=True, slots=True)
class RockBatch:
    """Asteroids about to join the world (appended after the tick's hits are resolved)."""

    size: np.ndarray
    """(M,) int64 sizes."""
    pos: np.ndarray
    """(M, 2) centres."""
    vel: np.ndarray
    """(M, 2) px per tick."""
    angle: np.ndarray
    """(M,) int64 heading steps."""
    spin: np.ndarray
    """(M,) int64 heading steps per tick."""
    radius: np.ndarray
    """(M,) bounding radius."""
    local: np.ndarray
    """(V, 2) packed outline points relative to each centre."""
    counts: np.ndarray
    """(M,) int64 points per rock."""

    def __len__(self) -> int:
        return int(self.size.shape[0])


class NewRock:
    """One hand-made rock (tests, benchmarks); ``append_rocks`` takes a list of them."""

    __slots__ = ("angle", "outline", "radius", "size", "spin", "vx", "vy", "x", "y")

    def __init__(self, size: int, x: float, y: float, vx: float, vy: float, angle: int,
                 spin: int, outline: list[tuple[float, float]], radius: float) -> None:
        self.size, self.x, self.y, self.vx, self.vy = size, x, y, vx, vy
        self.angle, self.spin, self.outline, self.radius = angle, spin, outline, radius


def _batch_of(rocks: list[NewRock]) -> RockBatch:
    return RockBatch(
        size=np.array([r.size for r in rocks], dtype=np.int64),
        pos=np.array([(r.x, r.y) for r in rocks], dtype=np.float64).reshape(-1, 2),
        vel=np.array([(r.vx, r.vy) for r in rocks], dtype=np.float64).reshape(-1, 2),
        angle=np.array([r.angle for r in rocks], dtype=np.int64),
        spin=np.array([r.spin for r in rocks], dtype=np.int64),
        radius=np.array([r.radius for r in rocks], dtype=np.float64),
        local=np.array([pt for r in rocks for pt in r.outline], dtype=np.float64).reshape(-1, 2),
        counts=np.array([len(r.outline) for r in rocks], dtype=np.int64),
    )


def draws_per_rock(p: Params) -> int:
    """Draws ``make_rocks`` makes for each new rock: the vertex count, the classic shape, the
    angle, the spin, then a jitter and a radius per vertex slot."""
    return 4 + 2 * p.asteroids_vertices_max


def make_rocks(rng: Pcg32 | DrawQueue, p: Params, size: np.ndarray, pos: np.ndarray,
               vel: np.ndarray) -> RockBatch:
    """New rocks of the given sizes, places and velocities, with random outlines and spin.

    Generated outlines have ``vertices_min..vertices_max`` points at evenly spaced angles plus
    a jitter below a third of the gap (so the points stay in angular order and the outline
    never crosses itself), each at ``radius * (1 - jaggedness * u)``.
    """
    m = int(size.shape[0])
    if m == 0:
        return _batch_of([])
    vmax = p.asteroids_vertices_max
    u = rng.u32_array(m * draws_per_rock(p)).reshape(m, draws_per_rock(p))
    r = np.array(p.radius, dtype=np.float64)[size]
    angle = ((u[:, 2] * np.uint64(HEADING_STEPS)) >> np.uint64(32)).astype(np.int64)
    span = np.uint64(2 * p.asteroids_spin_max_steps_per_tick + 1)
    spin = ((u[:,
               3] * span) >> np.uint64(32)).astype(np.int64) - p.asteroids_spin_max_steps_per_tick
    if p.classic_shapes:
        shape = ((u[:, 1] * np.uint64(len(_CLASSIC))) >> np.uint64(32)).tolist()
        local = np.concatenate([_CLASSIC[k] * rr for k, rr in zip(shape, r.tolist(),
                                                                     strict=True)])
        counts = np.array([_CLASSIC[k].shape[0] for k in shape], dtype=np.int64)
    else:
        choices = np.uint64(vmax - p.asteroids_vertices_min + 1)
        k = ((u[:, 0] * choices) >> np.uint64(32)).astype(np.int64) + p.asteroids_vertices_min
        jitter = np.maximum(1, HEADING_STEPS // (3 * k))
        slot = np.arange(vmax, dtype=np.int64)[None, :]
        jit = ((u[:, 4:4 + vmax] * jitter.astype(np.uint64)[:, None]) >> np.uint64(32))
        a = (slot * HEADING_STEPS) // k[:, None] + jit.astype(np.int64)
        rr = r[:, None] * (1.0 - p.asteroids_jaggedness
                           * (u[:, 4 + vmax:].astype(np.float64) / _TWO32))
        used = slot < k[:, None]
        a, rr = a[used], rr[used]
        local = np.stack([COS[a] * rr, SIN[a] * rr], axis=1)
        counts = k
    d2 = local[:, 0] * local[:, 0] + local[:, 1] * local[:, 1]
    starts = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts)[:-1]])
    radius = np.sqrt(np.maximum.reduceat(d2, starts))
    return RockBatch(size=size.astype(np.int64), pos=pos, vel=vel, angle=angle, spin=spin,
                     radius=radius, local=local, counts=counts)


def make_outline(rng: Pcg32, p: Params, size: int) -> tuple[list[tuple[float, float]], float]:
    """One rock outline (counter-clockwise, relative to its centre) and its bounding radius."""
    batch = make_rocks(rng, p, np.array([size]), np.zeros((1, 2)), np.zeros((1, 2)))
    return [tuple(pt) for pt in batch.local.tolist()], float(batch.radius[0])


def wave_size(p: Params, wave: Any, L: Lanes = ONE) -> Any:
    """Large asteroids in wave ``wave`` (1-based): first, +increment each wave, capped
    (one game's, or each game's through ``MANY``)."""
    return L.minimum(L.minimum(p.game_first_wave_asteroids + p.game_wave_increment * (wave - 1),
                               p.game_max_wave_asteroids),
                     p.asteroids_max_alive)


ATTEMPTS = 8
"""Edge points a new wave's rock tries, at most, for one far enough from the ship."""


def place_draws(count: Any) -> Any:
    """The most draws ``wave_places`` may use for ``count`` rocks (three per attempt)."""
    return 3 * ATTEMPTS * count


def spawn_wave(d: Draft, p: Params, rng: Pcg32, count: int) -> RockBatch:
    """``count`` large rocks on the playfield's edges, kept away from the ship
    (``wave_places``, then ``wave_rocks``); ``wave_places`` reads the draws it may need
    beforehand and the stream moves past those it used."""
    ship = np.array([[d.ship_x, d.ship_y]])
    places, used = wave_places(p, rng.peek(place_draws(count)).reshape(1, -1), ship,
                               np.array([count]))
    rng.skip(int(used[0]))
    return wave_rocks(rng, p, places, ship.repeat(count, axis=0))


def wave_places(p: Params, u: np.ndarray, ship: np.ndarray, count: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Where the large rocks of new waves go: ``count[g]`` rocks for each game g, whose ship
    is at ``ship[g]`` and whose stream gives ``u[g]`` next (at least
    ``place_draws(count[g])`` outputs; a game's row may run longer).

    Each rock tries up to ``ATTEMPTS`` random edge points, three draws each (which pair of
    edges, which of the two, where along it), and takes the first at least
    ``spawn_clearance`` from the ship (measured across the wrap seam when wrapping); if none
    is far enough it takes the farthest it tried (the first of equals). One text for one
    game and many (the rocks of a game one after another, the games at once).

    Returns:
        ((sum of count, 2) places, game after game; (G,) the draws each game used).
    """
    games = u.shape[0]
    tries = u[:, :3 * (u.shape[1] // 3)].reshape(games, u.shape[1] // 3, 3)
    r = p.radius[0]
    w, h = p.width, p.height
    inset = 0.0 if p.wrap_asteroids else r
    bit = (tries * np.uint64(2)) >> np.uint64(32)  # below(2) of each draw
    along = tries.astype(np.float64) / _TWO32
    side = bit[..., 0] == 1  # a left or right edge: x from the second draw, y along
    x = np.where(side, np.where(bit[..., 1] == 1, inset, w - inset),
                 inset + ((w - inset) - inset) * along[..., 1])
    y = np.where(side, inset + ((h - inset) - inset) * along[..., 2],
                 np.where(bit[..., 2] == 1, inset, h - inset))
    if p.wrap_asteroids:
        x, y = np.where(x >= w, 0.0, x), np.where(y >= h, 0.0, y)  # [0, W) x [0, H)
    dx, dy = x - ship[:, :1], y - ship[:, 1:]
    if p.wrap_ship or p.wrap_asteroids:
        dx, dy = wrap_delta(dx, w), wrap_delta(dy, h)
    d2 = dx * dx + dy * dy
    far = d2 >= p.game_spawn_clearance_px * p.game_spawn_clearance_px
    d2 = np.where(np.isnan(d2), -np.inf, d2)  # never the farthest (``d2 > best`` fails)
    most = int(count.max()) if games else 0
    places = np.zeros((games, most, 2))
    start = np.zeros(games, dtype=np.int64)
    window = np.arange(ATTEMPTS)
    rows = np.arange(games)[:, None]
    for i in range(most):
        at = np.minimum(start[:, None] + window, d2.shape[1] - 1)
        ok = far[rows, at]
        last = np.where(ok.any(axis=1), ok.argmax(axis=1), ATTEMPTS - 1)
        dist = np.where(window <= last[:, None], d2[rows, at], -np.inf)
        best = dist.argmax(axis=1)
        pick = at[rows[:, 0], best]
        found = dist[rows[:, 0], best] > -np.inf  # else (0, 0), as the loop began
        places[:, i, 0] = np.where(found, x[rows[:, 0], pick], 0.0)
        places[:, i, 1] = np.where(found, y[rows[:, 0], pick], 0.0)
        start = np.where(i < count, start + last + 1, start)
    return places[np.arange(most) < count[:, None]], 3 * start


def wave_rocks(rng: Pcg32 | DrawQueue, p: Params, pos: np.ndarray, ship: np.ndarray
               ) -> RockBatch:
    """New large rocks at ``pos`` (one game's, or many games' one after another with
    ``rng`` a ``DrawQueue`` of every game's draws), each kept from heading at its game's
    ship (``ship``: one row per rock). Speeds per axis are uniform in
    ``[speed_min, speed_max]`` with a random sign (all speeds drawn, then all signs), then
    the outlines (``make_rocks``)."""
    count = pos.shape[0]
    speed = rng.unit_array(2 * count).reshape(count, 2)
    signs = np.where(rng.below_array(2, 2 * count).reshape(count, 2) == 1, -1.0, 1.0)
    lo, hi = p.asteroids_speed_min_px_per_tick, p.asteroids_speed_max_px_per_tick
    vel = signs * (lo + (hi - lo) * speed)
    clear_ticks = p.per_tick["game.spawn_clearance_s"]
    if clear_ticks > 0 and count:
        vel = _heading_clear(pos, vel, ship, p.radius[0] + p.ship_radius, clear_ticks, p)
    return make_rocks(rng, p, np.zeros(count, dtype=np.int64), pos, vel)


_FLIPS = np.array([[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
"""The headings a new rock may take instead of its drawn one: its own, then mirrored."""
_FLIPS.flags.writeable = False


def _heading_clear(pos: np.ndarray, vel: np.ndarray, ship: Any, reach: float,
                   ticks: int, p: Params) -> np.ndarray:
    """New-wave velocities that keep every rock from reaching a still ship for ``ticks``
    (``ship``: one (x, y), or one row per rock, its game's ship).

    Each rock keeps its drawn velocity when, flying straight on (wrapping or bouncing at the
    borders as rocks do), its centre stays farther than ``reach`` from the ship for ``ticks``
    ticks; otherwise it takes the first of its mirrored velocities that does, or, when none
    does, the one that reaches the ship latest. No random draw is made, so the rest of the
    game's chance is the same whatever this picks.
    """
    t = np.arange(1, ticks + 1, dtype=np.float64)
    cand = vel[:, None, :] * _FLIPS[None, :, :]  # (rocks, 4, 2)
    path = pos[:, None, None, :] + cand[:, :, None, :] * t[None, None, :, None]
    size = p.size
    if p.wrap_asteroids:
        path = path % size
    else:
        lo = np.full(2, reach - p.ship_radius)
        span = size - 2.0 * lo
        k, rest = np.divmod(path - lo, span)
        path = np.where(k % 2.0 != 0.0, size - lo - rest, lo + rest)
    ship = np.asarray(ship, dtype=np.float64).reshape(-1, 2)  # one, or each rock's game's
    delta = path - ship[:, None, None, :]
    if p.wrap_asteroids or p.wrap_ship:
        delta = delta - size * np.round(delta / size)
    near = delta[..., 0] * delta[..., 0] + delta[..., 1] * delta[..., 1] <= reach * reach
    first = np.where(near.any(axis=2), near.argmax(axis=2), ticks + 1)  # (rocks, 4)
    clear = first > ticks
    pick = np.where(clear.any(axis=1), clear.argmax(axis=1), first.argmax(axis=1))
    return cand[np.arange(cand.shape[0]), pick]


def fragment_counts(p: Params, size: np.ndarray, room: Any,
                    game: np.ndarray | None = None) -> np.ndarray:
    """How many fragments each broken rock gets (see ``split_rocks``): ``split_children``
    for a large or medium rock while the cap's ``room`` lasts, earlier rocks first. With
    ``game`` (the game of each rock, ascending), ``room`` is each rock's game's and the
    rocks of each game share only their own."""
    wanted = np.where(size < 2, p.asteroids_split_children, 0)
    before = np.cumsum(wanted) - wanted
    if game is not None and game.shape[0]:
        starts = np.ones(game.shape[0], dtype=bool)
        starts[1:] = game[1:] != game[:-1]
        before = before - before[starts][np.cumsum(starts) - 1]
    got = np.minimum(wanted, np.maximum(0, room - before))
    return np.maximum(got, 0)


def split_rocks(rng: Pcg32 | DrawQueue, p: Params, size: np.ndarray, pos: np.ndarray,
                vel: np.ndarray, room: Any, game: np.ndarray | None = None
                ) -> tuple[RockBatch, np.ndarray]:
    """The fragments of rocks broken this tick, in the order given.

    Each large or medium rock yields up to ``split_children`` of the next size; each fragment
    inherits its parent's place and velocity plus a random kick per axis, clamped as in 1979
    so no fragment is too slow or too fast on either axis. ``room`` is how many more
    asteroids the cap allows: at the cap, earlier rocks get their fragments first and later
    ones fewer or none. For the rocks of many games (``game``, see ``fragment_counts``)
    ``rng`` is a ``DrawQueue`` of every game's draws.

    Returns:
        The fragments and, per parent, how many it got.
    """
    got = fragment_counts(p, size, room, game)
    parent = np.repeat(np.arange(size.shape[0]), got)
    n = int(parent.shape[0])
    kick = (2.0 * rng.unit_array(2 * n).reshape(n, 2) - 1.0) * p.asteroids_split_kick_px_per_tick
    v = vel.take(parent, axis=0) + kick
    mag = np.minimum(np.maximum(np.abs(v), p.asteroids_speed_min_px_per_tick),
                     p.asteroids_speed_max_px_per_tick)
    v = np.where(v >= 0.0, mag, -mag)
    return make_rocks(rng, p, size[parent] + 1, pos.take(parent, axis=0), v), got


def append_rocks(d: Draft, rocks: RockBatch | list[NewRock]) -> None:
    """Add new rocks at the end of the asteroid arrays, with fresh ids."""
    batch = rocks if isinstance(rocks, RockBatch) else _batch_of(rocks)
    n = len(batch)
    if n == 0:
        return
    ids = np.arange(d.next_id, d.next_id + n, dtype=np.int64)
    d.next_id += n
    d.ast_id = np.concatenate([d.ast_id, ids])
    d.ast_size = np.concatenate([d.ast_size, batch.size])
    d.ast_pos = np.concatenate([d.ast_pos, batch.pos])
    d.ast_vel = np.concatenate([d.ast_vel, batch.vel])
    d.ast_angle = np.concatenate([d.ast_angle, batch.angle])
    d.ast_spin = np.concatenate([d.ast_spin, batch.spin])
    d.ast_radius = np.concatenate([d.ast_radius, batch.radius])
    d.ast_local = np.concatenate([d.ast_local, batch.local])
    d.ast_offsets = np.concatenate([d.ast_offsets, d.ast_offsets[-1] + np.cumsum(batch.counts)])


def remove_all_rocks(d: Draft) -> None:
    """Empty the asteroid arrays (for hand-made scenes: tests and benchmarks)."""
    d.ast_id, d.ast_size, d.ast_angle, d.ast_spin = (empty_i64() for _ in range(4))
    d.ast_pos, d.ast_vel, d.ast_local = empty_f64(2), empty_f64(2), empty_f64(2)
    d.ast_radius = empty_f64()
    d.ast_offsets = np.zeros(1, dtype=np.int64)
