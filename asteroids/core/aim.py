"""The aimer's geometry: what the aimer bot (one game, ``bot.aimer_bot``) and the batched
aimer (``bot_batch.aimer_batch``) both compute, written once (the rules of its decision
steps that use it: ``asteroids.core.aim_steps``).

Plain IEEE ``+ - * /`` and ``sqrt``, elementwise over whatever rows they are given, so the
answers are the same everywhere and the same for one game or for many games' rows packed
together.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.geometry.wrap import floor_mod
from asteroids.core.params import Params
from asteroids.core.sight import ALL_HARM, SAUCER_ID, all_wrap, craft_seen
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHOOTER_SAUCER, World

__all__ = ["DANGER_MARGIN", "DANGER_TICKS", "HALF_TURN", "HIT_SHARE", "HYPER_TICKS",
           "IMAGE_STEPS", "STEPS", "AimKit", "Scene", "closest", "closest_within", "closest_xy",
           "escape", "escapes", "fold", "future", "nearest"]


HALF_TURN = HEADING_STEPS // 2


HIT_SHARE = 0.7
"""A shot counts as a hit when it passes this share of a target's bounding radius from its
centre (rock outlines are jagged: the bounding circle overstates them)."""
DANGER_TICKS = 60
"""How far ahead the aimer looks for collisions (about a second)."""
DANGER_MARGIN = 6.0
"""Extra px of clearance that still counts as a near miss worth acting on."""
HYPER_TICKS = 3
"""Hyperspace only when every escape still collides within this many ticks."""




def fold(x: np.ndarray, lo: np.ndarray | float, hi: np.ndarray | float) -> np.ndarray:
    """Where a point moving freely to ``x`` ends up when it bounces between ``lo`` and ``hi``."""
    span = np.maximum(hi - lo, 1e-9)
    y = (x - lo) % (2.0 * span)
    return lo + np.where(y > span, 2.0 * span - y, y)


def closest(rel: np.ndarray, vel: np.ndarray, horizon: np.ndarray,
             images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Time and distance of closest approach of relative motions ``rel + vel * t``.

    ``t`` runs over [0, horizon]. Each motion is tried against every image offset in
    ``images`` (in a wrapping world: the nearest image now and its eight neighbours, so a
    path that crosses the seam is followed into the next copy of the world instead of being
    measured the long way); the nearest pass wins.

    Args:
        rel: ``(..., 2)`` relative positions now (nearest images, when the world wraps).
        vel: ``(..., 2)`` relative velocities, px per tick.
        horizon: ticks to look ahead, broadcastable to ``rel[..., 0]``.
        images: ``(I, 2)`` offsets to add to ``rel``; ``[[0, 0]]`` when nothing wraps.

    Returns:
        ``(t, miss)`` arrays of shape ``rel.shape[:-1]``.
    """
    return closest_xy(rel[..., 0], rel[..., 1], vel[..., 0], vel[..., 1], horizon, images)


def closest_xy(rx0: np.ndarray, ry0: np.ndarray, vx0: np.ndarray, vy0: np.ndarray,
               horizon: np.ndarray, images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``closest`` with the relative positions and velocities given as x and y arrays
    (any shape, the same for all four)."""
    # x and y apart, (I, ...) each: the same operations per element as on (..., I, 2) rows,
    # without strided views or short inner loops over the images (twice as fast over many
    # games' pairs); the least over the images is exact in any layout.
    images_first = (images.shape[0],) + (1,) * np.ndim(rx0)
    rx = rx0 + images[:, 0].reshape(images_first)
    ry = ry0 + images[:, 1].reshape(images_first)
    tau = rx * vx0
    tau += ry * vy0
    tau /= np.maximum(vx0 * vx0 + vy0 * vy0, 1e-300)
    np.negative(tau, out=tau)
    np.maximum(tau, 0.0, out=tau)
    np.minimum(tau, horizon, out=tau)
    rx += vx0 * tau
    ry += vy0 * tau
    rx *= rx
    ry *= ry
    d2 = np.add(rx, ry, out=rx)
    if images.shape[0] == 1:
        return tau[0], np.sqrt(d2[0])
    best = d2.min(axis=0)
    return np.where(d2 == best, tau, np.inf).min(axis=0), np.sqrt(best)


def closest_within(rx: np.ndarray, ry: np.ndarray, vx: np.ndarray, vy: np.ndarray,
                   horizon: np.ndarray, images: np.ndarray, size: np.ndarray | None,
                   radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``closest`` for (N,) pairs, x and y apart ((N,) each), exact for every pair that
    comes within ``radius`` of its danger; for the others, a ``miss`` of ``radius`` or more
    (what the aimer reads of them: only whether ``miss < radius``, and ``t`` then).

    The nearest image is computed for every pair, the other eight only for the pairs that a
    neighbour image could bring within ``radius`` (one pixel to spare). Over the horizon
    ``h`` the relative x runs from ``rx`` to ``rx + vx h``, so a neighbour across x stays at
    least ``W - max(|rx|, |rx + vx h|)`` away, one across y at least ``H - max(|ry|, |ry +
    vy h|)``. Where neither bound reaches, the nearest image is the whole answer bit for bit
    (``closest`` computes it by the same operations), or no image is within ``radius``.
    """
    if images.shape[0] == 1 or size is None:
        return closest_xy(rx, ry, vx, vy, horizon, images)
    t, miss = closest_xy(rx, ry, vx, vy, horizon, images[:1])
    h = np.broadcast_to(horizon, rx.shape)
    gap = np.minimum(size[0] - np.maximum(np.abs(rx), np.abs(rx + vx * h)),
                     size[1] - np.maximum(np.abs(ry), np.abs(ry + vy * h)))
    every = (~(gap >= radius + 1.0)).nonzero()[0]  # NaN: every image, as closest does
    if every.shape[0]:
        t[every], miss[every] = closest_xy(rx[every], ry[every], vx[every], vy[every],
                                           np.abs(h[every]), images)
    return t, miss


STEPS = np.arange(1, DANGER_TICKS + 1, dtype=np.int64)
STEPS.flags.writeable = False
IMAGE_STEPS = np.array([(i, j) for i in (0.0, -1.0, 1.0) for j in (0.0, -1.0, 1.0)])
"""The nearest image and its eight neighbours, in world sizes."""
IMAGE_STEPS.flags.writeable = False


class AimKit:
    """The numbers the aimer needs this tick that follow from the rules alone."""

    __slots__ = ("all_wrap", "coast", "half", "half_col", "images", "p", "size", "size_col",
                 "steps", "turn_half_cos")

    def __init__(self, p: Params) -> None:
        self.p = p
        # Distances are wrap-aware whenever anything wraps, as in the core's collision tests.
        self.size = p.size if p.wrap_any else None
        self.half = 0.5 * p.size
        self.half_col = self.half[:, None]
        self.size_col = p.size[:, None]
        self.all_wrap = p.wrap_asteroids and all_wrap(p)
        """Every target and craft wraps (nothing to fold off a wall)."""
        self.images = IMAGE_STEPS * p.size if p.wrap_any else np.zeros((1, 2))
        self.coast = np.multiply.accumulate(np.full(DANGER_TICKS, p.drag_keep))
        """Drag factors keep**k for k = 1..DANGER_TICKS (one product after another)."""
        self.steps = STEPS
        self.turn_half_cos = np.zeros(0)
        """-cos((k + 1/2) turn steps) for k = 0, 1, ...: ascending, for ``searchsorted``.
        Empty when a turn rate under half a heading step per tick rounds to no turn at all:
        then no target costs turn ticks, and none is turned to."""
        if p.ship_turn_steps_per_tick > 0:
            turn = p.ship_turn_steps_per_tick
            half_steps = np.arange(turn // 2, HALF_TURN + turn, turn)
            self.turn_half_cos = -COS[np.minimum(half_steps, HALF_TURN)]


def nearest(d: np.ndarray, kit: AimKit) -> np.ndarray:
    """Shortest displacements (the minimum image) when the world wraps, else ``d``.

    The same rule as ``geometry.wrap_delta``, without its input checks (the aimer's inputs
    come from a valid World, and it runs several times a tick).
    """
    if kit.size is None:
        return d
    return floor_mod(d + kit.half, kit.size) - kit.half


class Scene:
    """What the aimer sees this tick, from the bodies tables (``asteroids.core.sight``):
    targets (rocks, then the craft the ship's shots hit: the saucer, then declared enemies)
    and dangers (targets, then craft that only take the ship, then the saucer's shots)."""

    __slots__ = ("danger_pos", "danger_rad", "danger_vel", "harms", "pos", "rad", "saucer",
                 "vel", "wraps")

    def __init__(self, world: World, p: Params) -> None:
        n = world.ast_id.shape[0]
        enemy = world.shot_owner == SHOOTER_SAUCER
        n_enemy = int(np.count_nonzero(enemy))
        seen = craft_seen(world, p)
        m = n + seen.aimed
        self.saucer = -1
        """The saucer's row (-1: none): it alone has a bonus as a target."""
        pos, vel, rad = world.ast_pos, world.ast_vel, world.ast_radius
        wraps = np.full(n, p.wrap_asteroids)
        if seen.rad.shape[0]:
            saucer = np.flatnonzero(seen.ids == SAUCER_ID)
            self.saucer = n + int(saucer[0]) if saucer.shape[0] else -1
            pos = np.concatenate([pos, seen.pos])
            vel = np.concatenate([vel, seen.vel])
            rad = np.concatenate([rad, seen.rad])
            wraps = np.concatenate([wraps, seen.wraps])
        self.pos, self.vel, self.rad, self.wraps = pos[:m], vel[:m], rad[:m], wraps[:m]
        self.harms: np.ndarray | None = None
        """Which dangers can take the ship (None: every one)."""
        if not ALL_HARM:
            self.harms = np.concatenate([np.ones(n, dtype=bool), seen.harms,
                                         np.ones(n_enemy, dtype=bool)])
        if n_enemy:
            self.danger_pos = np.concatenate([pos, world.shot_pos[enemy]])
            self.danger_vel = np.concatenate([vel, world.shot_vel[enemy]])
            self.danger_rad = np.concatenate([rad, np.ones(n_enemy)])
        else:
            self.danger_pos, self.danger_vel, self.danger_rad = pos, vel, rad


def future(pos: np.ndarray, vel: np.ndarray, t: np.ndarray, rad: np.ndarray, wraps: np.ndarray,
            p: Params) -> np.ndarray:
    """Positions after ``t`` ticks of straight flight, wrapped or bounced by each one's rule."""
    q = pos + vel * t[:, None]
    if wraps.all():
        return q
    folded = fold(q, rad[:, None], p.size - rad[:, None])
    return np.where(wraps[:, None], q, folded)


_TURNS_AFTER = np.array([[-1, 0, 1], [0, 1, -1], [1, 0, -1]], dtype=np.int64)
"""Row ``aim turn + 1``: the turns an escape tries, the aim turn first, then the others in
the order 0, 1, -1."""
_THRUSTS = np.array([False, False, False, True, True, True])
"""Each candidate's thrust: every turn without, then every turn with."""
_PATH_OF = np.array([0, 0, 0, 1, 2, 3])
"""Each candidate's path: the one coasting path, or thrusting under its turn."""
for _table in (_TURNS_AFTER, _THRUSTS, _PATH_OF):
    _table.flags.writeable = False
del _table


def escape(world: World, kit: AimKit, sc: Scene, aim_turn: int) -> tuple[int, int, int]:
    """``escapes`` for one game: its ship against its scene's dangers that can take it."""
    pos, vel, rad = sc.danger_pos, sc.danger_vel, sc.danger_rad
    if sc.harms is not None:
        pos, vel, rad = pos[sc.harms], vel[sc.harms], rad[sc.harms]
    turn, thrust, first = escapes(
        np.array([world.ship_x]), np.array([world.ship_y]), np.array([world.ship_vx]),
        np.array([world.ship_vy]), np.array([world.ship_heading]), np.array([aim_turn]),
        pos, vel, rad, np.zeros(1, dtype=np.int64), kit)
    return int(turn[0]), int(thrust[0]), int(first[0])


def escapes(x: np.ndarray, y: np.ndarray, vx: np.ndarray, vy: np.ndarray,
            heading: np.ndarray, aim_turn: np.ndarray, pos: np.ndarray, vel: np.ndarray,
            rad: np.ndarray, start: np.ndarray, kit: AimKit
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The safest (turn, thrust) for the next second of each of L ships, and ticks to the
    first contact under it.

    Candidates hold one choice for ``DANGER_TICKS`` ticks: the aim turn or no turn or either
    turn, each with and without thrust; dangers fly straight. The first candidate with the
    latest first contact (then the widest clearance) wins, so without danger the aim stands.

    Args:
        x, y, vx, vy, heading: (L,) each ship's position, velocity and heading.
        aim_turn: (L,) the turn each ship is aiming with (-1, 0 or 1).
        pos, vel, rad: (E,) dangers, each ship's packed one block after another.
        start: (L,) where each ship's block starts in them (every block has a danger).

    Returns:
        ``(turn, thrust, first)``, (L,) each: the turn (-1, 0, 1), whether to thrust, and the
        tick of the first contact (``DANGER_TICKS + 1``: none).
    """
    p = kit.p
    n = x.shape[0]
    turns = _TURNS_AFTER.take(aim_turn + 1, axis=0)  # (L, 3): the aim turn first
    dirs = np.concatenate([turns, turns], axis=1)  # (L, 6) candidates
    ks = kit.steps
    # Without thrust the heading moves nothing: the three coasting candidates share one
    # path (so their contacts are equal, and the first of them wins their ties). Paths:
    # coasting, then thrusting under each of the three turns.
    heads = (heading[:, None, None] + turns[:, :,
                                            None] * p.ship_turn_steps_per_tick * ks) % HEADING_STEPS
    # x and y apart, (L, 4, ticks) each: per element the operations of (..., 2) rows.
    path = []
    for axis, (table, v0, p0) in enumerate(((COS, vx, x), (SIN, vy, y))):
        v0 = v0[:, None, None]
        v = np.concatenate([np.broadcast_to(v0 * kit.coast, (n, 1, ks.shape[0])),
                            v0 + np.cumsum(table[heads] * p.ship_thrust_px_per_tick2,
                                           axis=2)], axis=1)
        if p.axis_speed_limit:
            v = np.clip(v, -p.ship_max_speed_px_per_tick, p.ship_max_speed_px_per_tick)
        q = p0[:, None, None] + np.cumsum(v, axis=2)
        if not p.wrap_ship:
            r = p.ship_radius
            q = fold(q, np.float64(r), p.size[axis] - r)
        path.append(q)
    if n == 1:  # one ship: its paths broadcast against every danger
        paths = path
    else:
        counts = np.empty(n, dtype=np.int64)
        counts[:-1] = start[1:] - start[:-1]
        counts[-1] = pos.shape[0] - start[-1]
        lane = np.arange(n).repeat(counts)
        paths = [path[0].take(lane, axis=0), path[1].take(lane, axis=0)]
    squares = []
    for axis in (0, 1):
        ahead = pos[:, axis, None] + vel[:, axis, None] * ks  # (E, ticks)
        rel = ahead[:, None, :] - paths[axis]
        if kit.size is not None:
            rel = floor_mod(rel + kit.half[axis], kit.size[axis]) - kit.half[axis]
        rel *= rel
        squares.append(rel)
    gap = np.add(squares[0], squares[1], out=squares[0])
    np.sqrt(gap, out=gap)
    gap -= (0.85 * rad + 0.7 * p.ship_radius)[:, None, None]
    gap_by_tick = np.minimum.reduceat(gap, start, axis=0)[:, _PATH_OF]  # (L, 6, ticks)
    hit = gap_by_tick < 0.0
    first = np.where(hit.any(axis=2), hit.argmax(axis=2) + 1, DANGER_TICKS + 1)
    clearance = gap_by_tick.min(axis=2)
    best = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for i in range(1, dirs.shape[1]):
        fb, cb = first[rows, best], clearance[rows, best]
        better = (first[:, i] > fb) | ((first[:, i] == fb) & (clearance[:, i] > cb))
        best = np.where(better, i, best)
    return dirs[rows, best], _THRUSTS[best], first[rows, best]

