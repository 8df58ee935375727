"""``new_world`` and ``step``: the whole game, one fixed tick at a time.

(The module is ``simulation`` so that ``asteroids.core.step`` can be the function.)

A tick runs in this order, always:

1. the ship obeys this tick's input (turn, thrust, shield, hyperspace, fire);
2. the saucer's timers run (spawn, zig-zag, fire);
3. shots sweep their whole path for this tick against every asteroid edge, the saucer, the
   ship and obstacles, in each target's own frame, and keep the hit closest to their start;
   a path that ricochets (off a wall or an obstacle) is followed piece by piece, up to
   ``MAX_SHOT_PIECES`` pieces, with the targets moving on;
4. asteroids, the ship and the saucer move and meet the borders and obstacles;
5. asteroids collide with each other (if enabled), then the ship, shield and saucer touch;
6. what was hit breaks: scores, fragments (which join only now, so one shot cannot break
   them too), extra lives;
7. timers: respawn, hyperspace re-entry, the next wave, the heartbeat.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core.contacts import circle_pairs, circle_segment_contacts
from asteroids.core.geometry.bounce import (
    bounce_positions,
    reflect,
    remaining_travel,
    segment_wall_bounce,
)
from asteroids.core.geometry.polygon import edge_normals, transform_outlines
from asteroids.core.geometry.wrap import wrap_delta, wrap_positions
from asteroids.core.inputs import InputFrame, as_mask
from asteroids.core.overlap import polygons_overlap
from asteroids.core.params import Params, params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.saucer import saucer_outline, update_saucer
from asteroids.core.scalar import bounce1, wrap1
from asteroids.core.ship import (
    START_HEADING,
    control_ship,
    kill_ship,
    ship_outline,
    update_ship_timers,
)
from asteroids.core.shots import first_hits
from asteroids.core.spawn import append_rocks, spawn_wave, split_rocks, wave_size
from asteroids.core.tables import COS_SIN, HEADING_STEPS
from asteroids.core.world import (
    SHIP_FLYING,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
    Draft,
    World,
    empty_f64,
    empty_i64,
)

__all__ = ["MAX_SHOT_PIECES", "new_world", "step"]

# Causes, in the order a claim on a target is decided.
_BY_SHIP_SHOT, _BY_SAUCER_SHOT, _BY_SHIP, _BY_SAUCER = 0, 1, 2, 3
_CAUSE_NAMES = ("ship-shot", "saucer-shot", "ship", "saucer")

_SAFE = 1.0 + 1e-6
"""Bounding radii grown by this factor (and 1 px) before they rule out an outline test: far
above the rounding of the outlines and the overlap test's EPS tolerance."""


def new_world(config: Config, seed: int) -> World:
    """A new game: the ship at the centre and the first wave on the edges.

    Args:
        config: the resolved settings.
        seed: any integer; the same seed and inputs give the same game everywhere.
    """
    p = params_for(config)
    state, inc = seed_state(int(seed))
    world = World(
        tick=0, rng_state=state, rng_inc=inc, next_id=1,
        ast_id=empty_i64(), ast_size=empty_i64(), ast_pos=empty_f64(2), ast_vel=empty_f64(2),
        ast_angle=empty_i64(), ast_spin=empty_i64(), ast_radius=empty_f64(),
        ast_local=empty_f64(2), ast_offsets=np.zeros(1, dtype=np.int64),
        shot_id=empty_i64(), shot_owner=empty_i64(), shot_pos=empty_f64(2),
        shot_vel=empty_f64(2), shot_ttl=empty_i64(),
        ship_state=SHIP_FLYING, ship_x=0.5 * p.width, ship_y=0.5 * p.height, ship_vx=0.0,
        ship_vy=0.0, ship_heading=START_HEADING, ship_timer=0, ship_doomed=False,
        thrusting=False, shield_on=False, shield_energy=p.shield_ticks, fire_held=False,
        hyper_held=False, autofire_timer=0,
        saucer_alive=False, saucer_small=False, saucer_x=0.0, saucer_y=0.0, saucer_vx=0.0,
        saucer_vy=0.0, saucer_ticks_left=0, saucer_fire_timer=0, saucer_zig_timer=0,
        score=0, lives=p.lives, next_extra_life=p.extra_life_every, wave=0, wave_timer=0,
        wave_weight=1, saucer_timer=p.saucer_first_ticks, saucer_interval=p.saucer_first_ticks,
        saucers_this_game=0, since_break=0, beat_timer=p.beat_start_ticks,
        beat_interval=p.beat_start_ticks, beat_quicken_timer=p.beat_quicken_ticks, beat_tone=0,
        game_over=False, ship_grace=p.per_tick["ship.grace_s"],
    )
    d = Draft(world)
    rng = Pcg32(state, inc)
    _start_wave(d, p, rng, [])
    d.rng_state = rng.state
    return d.freeze()


def step(
    world: World, inputs: InputFrame | int, config: Config
) -> tuple[World, tuple[ev.Event, ...]]:
    """Advance the game by one tick.

    Args:
        world: the current state (never modified).
        inputs: this tick's buttons, an InputFrame or a plain int bit mask (bit 0 thrust,
            1 left, 2 right, 3 fire, 4 hyperspace, 5 shield).
        config: the settings the game runs under (the same object every tick is fastest).

    Returns:
        The next World and what happened during the tick, in the order it happened.
    """
    p = params_for(config)
    mask = as_mask(inputs)
    d = Draft(world)
    rng = Pcg32(world.rng_state, world.rng_inc)
    events: list[ev.Event] = []
    claims = _Claims(world.ast_id.shape[0])

    control_ship(d, p, mask, rng, events)
    update_saucer(d, p, rng, events)
    _sweep_shots(d, p, claims)
    _move_bodies(d, p)
    if p.obstacle_offsets.shape[0] > 1:
        _bounce_off_obstacles(d, p)
    if p.ast_collide and d.ast_id.shape[0] > 1:
        _collide_asteroids(d, p)
    _touch(d, p, claims)
    _resolve(d, p, rng, claims, events)
    update_ship_timers(d, p, rng, events)
    if not _run_waves(d, p, rng, events):
        _heartbeat(d, p, events)  # a wave's first beat counts from the tick after it starts
    d.tick += 1
    d.since_break += 1
    d.rng_state = rng.state
    return d.freeze(), tuple(events)


class _Claims:
    """Targets hit this tick and by what; the first claim on a target wins."""

    __slots__ = ("ast_by", "saucer_by", "ship_by")

    def __init__(self, n: int) -> None:
        self.ast_by = np.full(n, -1, dtype=np.int64)
        self.saucer_by = -1
        self.ship_by = ""

    def asteroid(self, index: int, cause: int) -> None:
        if self.ast_by[index] < 0:
            self.ast_by[index] = cause


# --- geometry of the current state ---------------------------------------------------------


def _asteroid_outlines(d: Draft) -> np.ndarray:
    """World outlines of every asteroid (packed like ``ast_local``)."""
    return transform_outlines(d.ast_pos, COS_SIN[d.ast_angle % HEADING_STEPS], d.ast_local,
                              d.ast_offsets)


def _outlines_of(d: Draft, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World outlines (packed points, offsets) of just the asteroids in ``index``."""
    counts = d.ast_offsets[index + 1] - d.ast_offsets[index]
    offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts)])
    rows = np.repeat(d.ast_offsets[index] - offsets[:-1], counts) + np.arange(offsets[-1])
    cos_sin = COS_SIN[d.ast_angle[index] % HEADING_STEPS]
    return transform_outlines(d.ast_pos[index], cos_sin, d.ast_local[rows], offsets), offsets


def _world_size(p: Params) -> tuple[float, float] | None:
    return (p.width, p.height) if p.wrap_any else None


# --- 3. shots --------------------------------------------------------------------------------


def _targets(d: Draft, p: Params, owner: int,
             rocks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """What ``owner``'s shots can hit, packed: asteroids, the other side's craft, obstacles.

    Returns (points, offsets, per-body motion this tick, number of craft bodies: 0 or 1).
    A shooter never hits itself.
    """
    if owner == SHOOTER_SHIP and d.saucer_alive:
        craft = saucer_outline(p, d.saucer_x, d.saucer_y, d.saucer_small)
        craft_motion = [(d.saucer_vx, d.saucer_vy)]
    elif (owner == SHOOTER_SAUCER and d.ship_state == SHIP_FLYING and not d.game_over
          and not d.ship_grace):
        craft = ship_outline(p, d.ship_x, d.ship_y, d.ship_heading)
        craft_motion = [(d.ship_vx, d.ship_vy)]
    else:
        craft, craft_motion = None, []
    n_obstacles = p.obstacle_offsets.shape[0] - 1
    if craft is None and n_obstacles == 0:
        return rocks, d.ast_offsets, d.ast_vel, 0
    parts, offsets, motion = [rocks], [d.ast_offsets], [d.ast_vel]
    end = d.ast_offsets[-1]
    if craft is not None:
        parts.append(craft)
        end = end + craft.shape[0]
        offsets.append(np.array([end], dtype=np.int64))
        motion.append(np.array(craft_motion, dtype=np.float64))
    if n_obstacles:
        parts.append(p.obstacle_points)
        offsets.append(end + p.obstacle_offsets[1:])
        motion.append(np.zeros((n_obstacles, 2)))
    return (np.concatenate(parts), np.concatenate(offsets), np.concatenate(motion),
            len(craft_motion))


MAX_SHOT_PIECES = 3
"""A shot's path in one tick is tested against the targets in at most this many straight
pieces: up to two ricochets a tick, off the border or obstacles in any order. Shots move
10-20 px a tick, so a third ricochet within one tick takes a corner that narrow; there the
shot still ends the tick as its ricochets take it (folded at the walls, reflected at the
last obstacle met), but the rest of that tick's travel is not tested: it may pass a rock or a
pillar there, and is tested again from the next tick on."""

_WALL_PIECES = MAX_SHOT_PIECES + 1
"""Pieces asked of :func:`geometry.segment_wall_bounce`: one more than are ever tested. Its last
piece is a chord when a move crosses more walls than it has pieces for; with one spare, every
piece tested is a true piece of the path, never that chord."""


_REACH_MAX_PAIRS = 512
"""``_shots_may_hit`` answers up to this many (shot, rock) pairs (a classic game has at most
~6 x 27); beyond it the check would cost more than it saves."""


def _shots_may_hit(d: Draft, p: Params) -> bool:
    """False only when no shot can reach any target this tick, so the shot query would find
    nothing; then it is skipped (most ticks of a real game: shots fly in the open).

    Conservative bounds in a wrapping world, from the query's own broad phase (boxes): a
    shot's swept box lies within its travel ``|v|`` of its start; a target's swept, padded box
    within ``r + |motion|`` of its centre on each axis and within ``sqrt(2) r + |motion|`` in
    distance (``r`` its bounding radius: ``ast_radius``, ``ship_radius``, the saucer's
    radius), in the nearest image. Bounds get a relative and a 1 px margin, far above the
    broad phase's padding and any rounding here, so the answer never differs from the query.
    A craft counts for the other side's shots (as in ``_targets``). Worlds with obstacles,
    and crowds of more than ``_REACH_MAX_PAIRS`` (shot, rock) pairs, always query.
    """
    if p.obstacle_offsets.shape[0] > 1 or not p.wrap_any:
        return True
    if d.shot_id.shape[0] * d.ast_id.shape[0] > _REACH_MAX_PAIRS:
        return True  # a crowd: something is near anyway, and the query's grid is cheaper
    if d.shot_id.shape[0] <= 16:
        travel2 = 0.0
        for vx, vy in d.shot_vel.tolist():
            v2 = vx * vx + vy * vy
            if not v2 <= travel2 and travel2 == travel2:  # NaN wins and stays: the
                travel2 = v2                                 # query runs and reports it
    else:
        vel = d.shot_vel
        travel2 = float((vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1]).max())  # NaN wins too
    margin = math.sqrt(travel2) * _SAFE + 1.0 + 1e-6 * (p.width + p.height)
    if d.ast_id.shape[0]:
        # Rocks, per axis (their boxes, not circles): a rock's swept box lies within r + |v|
        # of its centre on each axis, a shot's within its travel of its start.
        gap = np.abs(d.ast_pos[None, :, :] - d.shot_pos[:, None, :])
        gap = np.minimum(gap, p.size - gap)  # nearest image per axis (never more: conservative)
        limit = _rock_reach(d.ast_radius, d.ast_vel) + margin
        if not bool((gap > limit[:, None]).any(axis=2).all()):
            return True
    craft = []  # (whose shots can hit it, x, y, bounding radius, vx, vy)
    if d.saucer_alive:
        craft.append((SHOOTER_SHIP, d.saucer_x, d.saucer_y,
                      p.saucer_radius[1 if d.saucer_small else 0], d.saucer_vx, d.saucer_vy))
    if d.ship_state == SHIP_FLYING and not d.game_over and not d.ship_grace:
        craft.append((SHOOTER_SAUCER, d.ship_x, d.ship_y, p.ship_radius, d.ship_vx, d.ship_vy))
    if not craft:
        return False
    owners = d.shot_owner.tolist()
    starts = None
    w, h = p.width, p.height
    for shooter, cx, cy, r, vx, vy in craft:
        if shooter not in owners:
            continue
        if starts is None:
            starts = d.shot_pos.tolist()
        limit = (1.5 * r + math.sqrt(vx * vx + vy * vy)) * _SAFE + margin
        for (x, y), owner in zip(starts, owners, strict=True):
            if owner != shooter:
                continue
            dx = cx - x
            dy = cy - y
            dx -= w * round(dx / w, 0)  # nearest image (NaN stays NaN)
            dy -= h * round(dy / h, 0)
            if not dx * dx + dy * dy > limit * limit:  # NaN: query (it reports the NaN)
                return True
    return False


_rock_reach_cache: tuple[np.ndarray, np.ndarray, np.ndarray] = (empty_f64(), empty_f64(2),
                                                                 empty_f64())


def _rock_reach(radius: np.ndarray, vel: np.ndarray) -> np.ndarray:
    """(N,) how far each rock's swept box reaches from its centre on either axis this tick,
    with the safety factor: ``(r + |v|) * _SAFE``. Kept for the last (radius, velocity)
    arrays, which change only when rocks break, bounce or collide."""
    global _rock_reach_cache
    r0, v0, reach = _rock_reach_cache
    if r0 is radius and v0 is vel:
        return reach
    reach = (radius + np.sqrt(vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1])) * _SAFE
    _rock_reach_cache = (radius, vel, reach)
    return reach


class _Targets:
    """What one shooter's shots can hit, packed (see :func:`_targets`): rocks first (so a
    rock's body index is its asteroid index), then the other side's craft, then obstacles."""

    __slots__ = ("body", "motion", "n_craft", "n_rocks", "offsets", "owner", "points")

    def __init__(self, points: np.ndarray, offsets: np.ndarray, motion: np.ndarray,
                 n_rocks: int, n_craft: int, owner: int,
                 body: np.ndarray | None = None) -> None:
        self.points, self.offsets, self.motion = points, offsets, motion
        self.n_rocks, self.n_craft, self.owner = n_rocks, n_craft, owner
        self.body = body
        """Packed index -> index among all the shooter's targets (None: the same)."""

    def without(self, body: int) -> _Targets:
        """The same targets but one obstacle: the one a ricochet just left. The rest of the
        path starts on its edge, which would count as a hit at once; a ray leaving a convex
        pillar cannot meet it again, so nothing is lost (a concave obstacle's pocket is only
        seen from the piece after)."""
        counts = self.offsets[1:] - self.offsets[:-1]
        others = np.arange(counts.shape[0]) != body
        keep = np.flatnonzero(others)
        rows = np.flatnonzero(np.repeat(others, counts))
        offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts[keep])])
        return _Targets(self.points.take(rows, axis=0), offsets, self.motion.take(keep, axis=0),
                        self.n_rocks, self.n_craft, self.owner,
                        keep if self.body is None else self.body[keep])


class _ShotHits:
    """Per shot: what it hit this tick (kind 0 none, 1 asteroid, 2 saucer, 3 ship, 4 obstacle
    that stops shots), which asteroid, when (on the whole tick's clock, 0..1), where, and the
    obstacle edge's normal; and the last obstacle it ricocheted off (``bounced``: where, when,
    its velocity before, the edge's normal, which target), from which it ends the tick."""

    __slots__ = ("b_body", "b_normal", "b_point", "b_t", "b_vel", "bounced", "index", "kind",
                 "normal", "point", "t")

    def __init__(self, k: int) -> None:
        self.kind = np.zeros(k, dtype=np.int64)
        self.index = np.full(k, -1, dtype=np.int64)
        self.t = np.full(k, np.inf)
        self.point = np.zeros((k, 2))
        self.normal = np.zeros((k, 2))
        self.bounced = np.zeros(k, dtype=bool)
        self.b_body = np.full(k, -1, dtype=np.int64)
        self.b_t = np.zeros(k)
        self.b_point = np.zeros((k, 2))
        self.b_vel = np.zeros((k, 2))
        self.b_normal = np.zeros((k, 2))

    def record(self, rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, tg: _Targets,
               p: Params, t0: np.ndarray | None = None, t1: np.ndarray | None = None) -> None:
        """Query ``first_hits`` for shots ``rows`` and keep hits earlier than any recorded.

        ``t0``, ``t1`` map a piece's own t (0..1) onto the tick: tick t = t0 + t * (t1 - t0).
        """
        hits = first_hits(starts, ends, tg.points, tg.offsets, world_size=_world_size(p),
                          body_motion=tg.motion)
        got = np.flatnonzero(hits.body >= 0)
        if got.shape[0] == 0:
            return
        if t0 is None or t1 is None:
            t = hits.t[got]
        else:
            t = t0[got] + hits.t[got] * (t1[got] - t0[got])
        r = rows[got]
        better = t < self.t[r]
        got, r, t = got[better], r[better], t[better]
        b = hits.body[got]
        n_rocks, n_craft = tg.n_rocks, tg.n_craft
        kind = np.where(b < n_rocks, 1, np.where(
            b < n_rocks + n_craft, 2 if tg.owner == SHOOTER_SHIP else 3, 4))
        self.t[r] = t
        self.point[r] = hits.point[got]
        self.kind[r] = kind
        self.index[r] = b if tg.body is None else tg.body[b]
        wall = kind == 4
        if wall.any():  # obstacle edges: the normal a ricochet reflects off
            self.normal[r[wall]] = edge_normals(tg.points, tg.offsets, b[wall],
                                                hits.edge[got][wall])

    def forget(self, rows: np.ndarray) -> None:
        """Drop the hits of ``rows`` (not real: something turned the shot first)."""
        self.kind[rows] = 0
        self.t[rows] = np.inf

    def ricochet(self, rows: np.ndarray, vel: np.ndarray) -> np.ndarray:
        """Turn the obstacle hits among ``rows`` (moving at ``vel``) into ricochets, so the
        rest of their path can be tested; returns the rows that ricocheted."""
        wall = self.kind[rows] == 4
        r = rows[wall]
        if r.shape[0]:
            self.bounced[r] = True
            self.b_body[r] = self.index[r]
            self.b_t[r] = self.t[r]
            self.b_point[r] = self.point[r]
            self.b_vel[r] = vel[wall]
            self.b_normal[r] = self.normal[r]
            self.forget(r)
        return r


class _Leg:
    """One straight stretch of a shot's path: from ``origin`` at tick time ``ts`` at ``vel``
    per tick to the end of the tick, folded at the walls into pieces (tick times ``t0``..``t1``)
    in a bouncing world. A leg ends at an obstacle ricochet, where the next one starts."""

    __slots__ = ("ends", "next", "origin", "skip", "starts", "t0", "t1", "ts", "valid", "vel")

    def __init__(self, origin: np.ndarray, vel: np.ndarray, ts: float, starts: np.ndarray,
                 ends: np.ndarray, t0: np.ndarray, t1: np.ndarray, valid: np.ndarray,
                 first: int = 0, skip: int = -1) -> None:
        self.origin, self.vel, self.ts = origin, vel, ts
        self.starts, self.ends, self.t0, self.t1, self.valid = starts, ends, t0, t1, valid
        self.next = first
        """The next piece to test."""
        self.skip = skip
        """The obstacle the leg starts on (not a target of its first piece), or -1."""

    def velocity(self, piece: int, size: np.ndarray) -> np.ndarray:
        """The shot's velocity on ``piece``: ``vel`` with each axis flipped once per wall
        crossed before it (the parity of the unfolded position at the piece's middle)."""
        if piece == 0:  # a leg starts straight
            return self.vel
        mid = 0.5 * (self.t0[piece] + self.t1[piece])
        u = self.origin + (mid - self.ts) * self.vel
        return np.where(np.floor(u / size) % 2.0 != 0.0, -self.vel, self.vel)


def _leg_after_ricochet(hits: _ShotHits, row: int, p: Params) -> _Leg | None:
    """The leg a shot starts where it ricocheted off an obstacle, or None when the ricochet
    came at the very end of the tick."""
    ts = float(hits.b_t[row])
    if ts >= 1.0:
        return None
    point = hits.b_point[row][None, :]
    end, vel = remaining_travel(point, hits.b_t[row:row + 1], hits.b_vel[row][None, :],
                                hits.b_normal[row][None, :])
    skip = int(hits.b_body[row])
    if p.wrap_shots:
        return _Leg(point[0], vel[0], ts, point, end, np.array([ts]), np.array([1.0]),
                    np.array([True]), skip=skip)
    rest = 1.0 - ts
    wb = segment_wall_bounce(point, rest * vel, np.zeros(2), p.size, max_pieces=_WALL_PIECES)
    return _Leg(point[0], vel[0], ts, wb.starts[0], wb.ends[0], ts + wb.t0[0] * rest,
                ts + wb.t1[0] * rest, wb.valid[0], skip=skip)


def _sweep_shots(d: Draft, p: Params, claims: _Claims) -> None:
    """Move every shot along this tick's path, stopping it at the first thing it hits.

    Each shot's whole path this tick is tested against every edge of every target in the
    target's own frame (``body_motion``), so nothing tunnels at any speed. A path that turns
    this tick (off a wall in a bouncing world, :func:`geometry.segment_wall_bounce`, or off an
    obstacle when shots ricochet) is tested piece by piece, up to :data:`MAX_SHOT_PIECES`
    pieces: the first pass keeps only hits before the first turn, and each later piece is
    tested against the same targets where they are when the piece begins, moving as they do
    during it, so a target that moves into the ricocheted path is hit when the shot gets
    there. All hit times are on the whole tick's clock, so the earliest shot claims a target.
    """
    k = d.shot_id.shape[0]
    if k == 0:
        return
    if p.wrap_shots and not _shots_may_hit(d, p):
        _fly_unhit_shots(d, p)  # nothing in reach: nothing to query, nothing hit
        return
    n = d.ast_id.shape[0]
    starts = d.shot_pos
    ends = starts + d.shot_vel
    rocks = _asteroid_outlines(d) if n else empty_f64(2)
    hits = _ShotHits(k)
    walls = None if p.wrap_shots else segment_wall_bounce(starts, d.shot_vel, np.zeros(2),
                                                          p.size, max_pieces=_WALL_PIECES)
    for owner in (SHOOTER_SHIP, SHOOTER_SAUCER):
        rows = np.flatnonzero(d.shot_owner == owner)
        if rows.shape[0] == 0:
            continue
        points, offsets, motion, n_craft = _targets(d, p, owner, rocks)
        if offsets.shape[0] == 1:
            continue
        tg = _Targets(points, offsets, motion, n, n_craft, owner)
        hits.record(rows, starts[rows], ends[rows], tg, p)
        if walls is not None:
            # Hits beyond the first wall are not real: the shot ricocheted first.
            wall_t = np.where(walls.valid[rows, 1], walls.t1[rows, 0], np.inf)
            hits.forget(rows[hits.t[rows] > wall_t])
        if p.shots_ricochet_obstacles:
            hits.ricochet(rows, d.shot_vel[rows])
        turned = hits.bounced[rows].copy()
        if walls is not None:
            turned |= walls.valid[rows, 1]
        for row in rows[turned & (hits.kind[rows] == 0)].tolist():
            if hits.bounced[row]:
                leg = _leg_after_ricochet(hits, row, p)
            else:
                assert walls is not None
                leg = _Leg(starts[row], d.shot_vel[row], 0.0, walls.starts[row],
                           walls.ends[row], walls.t0[row], walls.t1[row], walls.valid[row],
                           first=1)
            _follow_shot(hits, row, leg, tg, p)
    _apply_shot_hits(d, p, claims, hits)


def _follow_shot(hits: _ShotHits, row: int, leg: _Leg | None, tg: _Targets, p: Params) -> None:
    """Test the rest of one shot's path after its first turn, piece by piece, until it hits
    something, the tick ends or it has used :data:`MAX_SHOT_PIECES` pieces.

    Each piece spans tick times ``[t0, t1]``: the targets are moved to where they are at
    ``t0`` and move by ``(t1 - t0)`` of their tick's motion while it lasts. One shot per
    call (each piece starts at its own time); shots turn rarely, so this stays cheap.
    """
    used = 1
    one = np.array([row])
    while leg is not None and used < MAX_SHOT_PIECES:
        piece = leg.next
        if piece >= leg.valid.shape[0] or not leg.valid[piece]:
            return
        t0 = float(leg.t0[piece])
        t1 = float(leg.t1[piece])
        at = tg.without(leg.skip) if piece == 0 and leg.skip >= 0 else tg
        counts = at.offsets[1:] - at.offsets[:-1]
        moved = _Targets(at.points + np.repeat(at.motion * t0, counts, axis=0), at.offsets,
                         at.motion * (t1 - t0), at.n_rocks, at.n_craft, at.owner, at.body)
        hits.record(one, leg.starts[piece][None, :], leg.ends[piece][None, :], moved, p,
                    t0=np.array([t0]), t1=np.array([t1]))
        used += 1
        if p.shots_ricochet_obstacles and hits.kind[row] == 4:
            hits.ricochet(one, leg.velocity(piece, p.size)[None, :])
            leg = _leg_after_ricochet(hits, row, p)
        elif hits.kind[row]:
            return
        else:
            leg.next = piece + 1


def _fly_unhit_shots(d: Draft, p: Params) -> None:
    """``_apply_shot_hits`` for a tick where no shot hit anything in a world where shots wrap:
    the same operations on the same values (move, wrap, age, drop the expired), without the
    empty hit bookkeeping."""
    pos = wrap_positions(d.shot_pos + d.shot_vel, p.size)
    ttl = d.shot_ttl - 1
    alive = ttl > 0
    if alive.all():
        d.shot_pos, d.shot_ttl = pos, ttl
        return
    keep = alive.nonzero()[0]
    d.shot_id = d.shot_id.take(keep)
    d.shot_owner = d.shot_owner.take(keep)
    d.shot_pos = pos.take(keep, axis=0)
    d.shot_vel = d.shot_vel.take(keep, axis=0)
    d.shot_ttl = ttl.take(keep)


def _apply_shot_hits(d: Draft, p: Params, claims: _Claims, hits: _ShotHits) -> None:
    """Break what the shots hit (earliest hit first), then move or remove every shot."""
    hit_kind, hit_index, hit_t = hits.kind, hits.index, hits.t
    struck = np.flatnonzero(hit_kind)
    order = struck[np.lexsort((struck, hit_t[struck]))]
    for row in order.tolist():
        kind = int(hit_kind[row])
        if kind == 1:
            cause = _BY_SHIP_SHOT if d.shot_owner[row] == SHOOTER_SHIP else _BY_SAUCER_SHOT
            claims.asteroid(int(hit_index[row]), cause)
        elif kind == 2 and claims.saucer_by < 0:
            claims.saucer_by = _BY_SHIP_SHOT
        elif kind == 3 and not claims.ship_by and not d.shield_on:
            claims.ship_by = "saucer-shot"

    pos = d.shot_pos + d.shot_vel
    vel = d.shot_vel
    if hits.bounced.any():  # the rest of the tick from the last obstacle ricochet
        pos, vel = pos.copy(), vel.copy()
        rows = np.flatnonzero(hits.bounced)
        pos[rows], vel[rows] = remaining_travel(hits.b_point[rows], hits.b_t[rows],
                                                hits.b_vel[rows], hits.b_normal[rows])
    if p.wrap_shots:
        pos = wrap_positions(pos, p.size)
    else:
        lo = np.zeros(2)
        pos, vel = bounce_positions(pos, vel, lo, p.size)
    ttl = d.shot_ttl - 1
    keep = np.flatnonzero((ttl > 0) & (hit_kind == 0))
    d.shot_id = d.shot_id.take(keep)
    d.shot_owner = d.shot_owner.take(keep)
    d.shot_pos = pos.take(keep, axis=0)
    d.shot_vel = vel.take(keep, axis=0)
    d.shot_ttl = ttl.take(keep)


# --- 4. motion -------------------------------------------------------------------------------


def _move_bodies(d: Draft, p: Params) -> None:
    """Move asteroids, the ship and the saucer one tick and apply each kind's border rule."""
    if d.ast_id.shape[0]:
        pos = d.ast_pos + d.ast_vel
        d.ast_angle = (d.ast_angle + d.ast_spin) % HEADING_STEPS
        if p.wrap_asteroids:
            d.ast_pos = wrap_positions(pos, p.size)
        else:
            r = d.ast_radius[:, None]
            d.ast_pos, d.ast_vel = bounce_positions(pos, d.ast_vel, r, p.size - r)
    if d.ship_state == SHIP_FLYING and not d.game_over:
        x, y = d.ship_x + d.ship_vx, d.ship_y + d.ship_vy
        if p.wrap_ship:
            d.ship_x, d.ship_y = wrap1(x, p.width), wrap1(y, p.height)
        else:
            r = p.ship_radius
            d.ship_x, d.ship_vx = bounce1(x, d.ship_vx, r, p.width - r)
            d.ship_y, d.ship_vy = bounce1(y, d.ship_vy, r, p.height - r)
    if d.saucer_alive:
        x = d.saucer_x + d.saucer_vx
        y = d.saucer_y + d.saucer_vy
        r = p.saucer_radius[1 if d.saucer_small else 0]
        if p.wrap_saucers:
            y = wrap1(y, p.height)
        else:
            y, d.saucer_vy = bounce1(y, d.saucer_vy, r, p.height - r)
        d.saucer_x = min(max(x, 0.0), p.width)
        d.saucer_y = y


def _push_and_reflect(pos: np.ndarray, vel: np.ndarray, normal: np.ndarray, depth: np.ndarray,
                      restitution: float) -> tuple[np.ndarray, np.ndarray]:
    """Move bodies out along ``normal`` by ``depth`` and reflect velocity if approaching."""
    return (pos + normal * depth[:, None],
            reflect(vel, normal, restitution, approaching_only=True))


def _bounce_off_obstacles(d: Draft, p: Params) -> None:
    """Asteroids and the ship bounce off static obstacles (circle against each edge)."""
    pts, offs = p.obstacle_points, p.obstacle_offsets
    if d.ast_id.shape[0]:
        c = circle_segment_contacts(d.ast_pos, d.ast_radius, pts, offs)
        if c.circle.shape[0]:
            pick = _deepest_per_circle(c.circle, c.depth)  # one obstacle a tick per rock
            i = c.circle[pick]
            c_normal, c_depth = c.normal[pick], c.depth[pick]
            pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
            pos[i], vel[i] = _push_and_reflect(pos[i], vel[i], c_normal, c_depth, 1.0)
            d.ast_pos, d.ast_vel = _keep_inside(pos, vel, d.ast_radius[:, None], p,
                                               p.wrap_asteroids)
    if d.ship_state == SHIP_FLYING and not d.game_over:
        c = circle_segment_contacts(np.array([[d.ship_x, d.ship_y]]),
                                    np.array([p.ship_radius]), pts, offs)
        if c.circle.shape[0]:
            pick = _deepest_per_circle(c.circle, c.depth)
            pos, vel = _push_and_reflect(np.array([[d.ship_x, d.ship_y]]),
                                         np.array([[d.ship_vx, d.ship_vy]]), c.normal[pick],
                                         c.depth[pick], 1.0)
            pos, vel = _keep_inside(pos, vel, np.array([p.ship_radius]), p, p.wrap_ship)
            d.ship_x, d.ship_y = float(pos[0, 0]), float(pos[0, 1])
            d.ship_vx, d.ship_vy = float(vel[0, 0]), float(vel[0, 1])


def _deepest_per_circle(circle: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Index of the deepest contact of each circle (ties: the first obstacle in config order),
    given contacts sorted by (circle, body); one row per circle, in circle order."""
    order = np.lexsort((-depth, circle))  # stable: equal depths keep body order
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = circle[order[1:]] != circle[order[:-1]]
    return order[first]


def _keep_inside(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, p: Params,
                 wrap: bool) -> tuple[np.ndarray, np.ndarray]:
    if wrap:
        return wrap_positions(pos, p.size), vel
    return bounce_positions(pos, vel, radius, p.size - radius)


def _collide_asteroids(d: Draft, p: Params) -> None:
    """Elastic asteroid-asteroid collisions, mass proportional to area.

    Contacts are resolved in rounds; each round takes, in (i, j) order, pairs that share no
    asteroid with an earlier pair of the round, so every contact is solved exactly once per
    round and the outcome does not depend on anything but the pair order. Impulses apply
    only to approaching pairs; overlap is then removed along the centre line.
    """
    radius = d.ast_radius * (1.0 - 0.5 * p.jaggedness)
    i_all, j_all = circle_pairs(d.ast_pos, radius,
                                world_size=(p.width, p.height) if p.wrap_asteroids else None)
    if i_all.shape[0] == 0:
        return
    pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
    mass = radius * radius
    e = p.ast_restitution
    n_bodies = pos.shape[0]
    remaining = np.arange(i_all.shape[0])
    for _ in range(64):
        if remaining.shape[0] == 0:
            break
        i, j = i_all[remaining], j_all[remaining]
        first = np.full(n_bodies, remaining.shape[0], dtype=np.int64)
        order = np.arange(remaining.shape[0])
        np.minimum.at(first, i, order)
        np.minimum.at(first, j, order)
        now = (first[i] == order) & (first[j] == order)
        i, j = i[now], j[now]
        remaining = remaining[~now]
        delta = pos[j] - pos[i]
        if p.wrap_asteroids:
            delta = wrap_delta(delta, p.size)
        dist = np.sqrt(delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1])
        safe = dist > 0.0
        inv = np.where(safe, 1.0 / np.where(safe, dist, 1.0), 0.0)
        nx = np.where(safe, delta[:, 0] * inv, 1.0)
        ny = np.where(safe, delta[:, 1] * inv, 0.0)
        mi, mj = mass[i], mass[j]
        rel_x = vel[j, 0] - vel[i, 0]
        rel_y = vel[j, 1] - vel[i, 1]
        vn = rel_x * nx + rel_y * ny
        impulse = np.where(vn < 0.0, -(1.0 + e) * vn / (1.0 / mi + 1.0 / mj), 0.0)
        vel[i, 0] -= impulse / mi * nx
        vel[i, 1] -= impulse / mi * ny
        vel[j, 0] += impulse / mj * nx
        vel[j, 1] += impulse / mj * ny
        overlap = np.maximum(radius[i] + radius[j] - dist, 0.0)
        share_i = overlap * mj / (mi + mj)
        share_j = overlap * mi / (mi + mj)
        pos[i, 0] -= share_i * nx
        pos[i, 1] -= share_i * ny
        pos[j, 0] += share_j * nx
        pos[j, 1] += share_j * ny
    d.ast_pos, d.ast_vel = _keep_inside(pos, vel, d.ast_radius[:, None], p, p.wrap_asteroids)


# --- 5. contacts between craft and asteroids --------------------------------------------------


def _touch(d: Draft, p: Params, claims: _Claims) -> None:
    """Ship, shield and saucer against asteroids and each other."""
    n = d.ast_id.shape[0]
    ws = _world_size(p)
    ship_in_play = (d.ship_state == SHIP_FLYING and not d.game_over and not claims.ship_by
                    and not d.ship_grace)
    if ship_in_play and n:
        if d.shield_on:
            _shield_bounce(d, p)
        else:
            hit = _first_overlap(lambda: ship_outline(p, d.ship_x, d.ship_y, d.ship_heading),
                                 (d.ship_x, d.ship_y), p.ship_radius, d, p, claims)
            if hit >= 0:
                claims.asteroid(hit, _BY_SHIP)
                claims.ship_by = "asteroid"
    if d.saucer_alive and claims.saucer_by < 0:
        saucer = saucer_outline(p, d.saucer_x, d.saucer_y, d.saucer_small)
        r = p.saucer_radius[1 if d.saucer_small else 0]
        if n:
            hit = _first_overlap(lambda: saucer, (d.saucer_x, d.saucer_y), r, d, p, claims)
            if hit >= 0:
                claims.asteroid(hit, _BY_SAUCER)
                claims.saucer_by = _BY_SAUCER
        if ship_in_play and claims.saucer_by < 0 and not claims.ship_by:
            if d.shield_on:
                touching = _circles_touch((d.ship_x, d.ship_y), p.shield_radius,
                                          (d.saucer_x, d.saucer_y), r, p)
            elif not _circles_touch((d.ship_x, d.ship_y), _SAFE * p.ship_radius + 1.0,
                                    (d.saucer_x, d.saucer_y), _SAFE * r, p):
                touching = False  # out of each other's bounding circles: the outlines cannot
            else:
                ship = ship_outline(p, d.ship_x, d.ship_y, d.ship_heading)
                touching = bool(polygons_overlap(
                    ship, np.array([0, ship.shape[0]]), saucer, np.array([0, saucer.shape[0]]),
                    np.array([0]), np.array([0]), world_size=ws)[0])
            if touching:
                claims.saucer_by = _BY_SHIP
                if not d.shield_on:
                    claims.ship_by = "saucer"


def _circles_touch(a: tuple[float, float], ra: float, b: tuple[float, float], rb: float,
                   p: Params) -> bool:
    """Whether two circles touch (distance <= ra + rb), across the seam when anything wraps."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if p.wrap_any:
        dx, dy = wrap_delta(np.array([dx, dy]), p.size).tolist()
    return dx * dx + dy * dy <= (ra + rb) * (ra + rb)


def rocks_near(d: Draft, p: Params, center: tuple[float, float], radius: float) -> np.ndarray:
    """Indices (ascending) of asteroids whose bounding circle touches a circle (min image).

    The cheap first test before an outline test (ship and saucer against rocks); public so
    its boundary (circles touching exactly, across the seam) is tested directly."""
    delta = d.ast_pos - np.array(center)
    if p.wrap_any:
        delta = wrap_delta(delta, p.size)
    dx, dy = delta[:, 0], delta[:, 1]
    reach = d.ast_radius + radius
    return (dx * dx + dy * dy <= reach * reach).nonzero()[0]


def _first_overlap(make_outline: Callable[[], np.ndarray], center: tuple[float, float],
                   radius: float, d: Draft, p: Params, claims: _Claims) -> int:
    """Index of the lowest unclaimed asteroid whose outline overlaps ``make_outline()``, or -1
    (the outline is made only when a rock is near)."""
    cand = rocks_near(d, p, center, radius)
    if cand.shape[0] == 0:
        return -1
    cand = cand[claims.ast_by[cand] < 0]
    if cand.shape[0] == 0:
        return -1
    rocks, offsets = _outlines_of(d, cand)
    outline = make_outline()
    hit = polygons_overlap(outline, np.array([0, outline.shape[0]]), rocks, offsets,
                           np.zeros(cand.shape[0], dtype=np.int64), np.arange(cand.shape[0]),
                           world_size=_world_size(p))
    found = cand[hit]
    return int(found[0]) if found.shape[0] else -1


def _shield_bounce(d: Draft, p: Params) -> None:
    """Asteroids touching the shield circle bounce off it, reflected off their own edge."""
    center = np.array([[d.ship_x, d.ship_y]])
    near = rocks_near(d, p, (d.ship_x, d.ship_y), p.shield_radius)
    if near.shape[0] == 0:
        return
    rocks, offsets = _outlines_of(d, near)
    c = circle_segment_contacts(center, np.array([p.shield_radius]), rocks, offsets,
                                world_size=_world_size(p))
    if c.body.shape[0] == 0:
        return
    i = near[c.body]
    ship_v = np.array([d.ship_vx, d.ship_vy])
    away = -c.normal  # the contact normal points from the rock's edge to the ship
    pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
    rel = vel[i] - ship_v
    new_pos, new_rel = _push_and_reflect(pos[i], rel, away, c.depth, p.shield_restitution)
    pos[i], vel[i] = new_pos, new_rel + ship_v
    d.ast_pos, d.ast_vel = _keep_inside(pos, vel, d.ast_radius[:, None], p, p.wrap_asteroids)


# --- 6. breaking things ----------------------------------------------------------------------


def _resolve(d: Draft, p: Params, rng: Pcg32, claims: _Claims, events: list[ev.Event]) -> None:
    """Destroy what was claimed this tick: score it, split it, award extra lives."""
    broken = (claims.ast_by >= 0).nonzero()[0]
    kids = None
    scoring = not d.game_over  # a shot still in flight after game over scores nothing
    if broken.shape[0]:
        causes = claims.ast_by[broken]
        sizes = d.ast_size[broken]
        room = p.ast_max - (d.ast_id.shape[0] - broken.shape[0])
        kids, got = split_rocks(rng, p, sizes, d.ast_pos[broken], d.ast_vel[broken], room)
        for cause, size, (x, y), children in zip(causes.tolist(), sizes.tolist(),
                                                 d.ast_pos[broken].tolist(), got.tolist(),
                                                 strict=True):
            by_player = cause == _BY_SHIP_SHOT or (cause == _BY_SHIP and p.ramming_scores)
            points = p.asteroid_points[size] if by_player and scoring else 0
            if cause in (_BY_SHIP_SHOT, _BY_SHIP):
                d.since_break = 0
            d.score += points
            events.append(ev.AsteroidDestroyed(size, x, y, children, _CAUSE_NAMES[cause],
                                               points))
        _keep_asteroids(d, claims.ast_by < 0)
    if claims.saucer_by >= 0 and d.saucer_alive:
        by_player = claims.saucer_by == _BY_SHIP_SHOT or (
            claims.saucer_by == _BY_SHIP and p.ramming_scores)
        points = p.saucer_points[1 if d.saucer_small else 0] if by_player and scoring else 0
        d.score += points
        d.saucer_alive = False
        by = "asteroid" if claims.saucer_by == _BY_SAUCER else _CAUSE_NAMES[claims.saucer_by]
        events.append(ev.SaucerDestroyed(d.saucer_small, d.saucer_x, d.saucer_y, by, points))
    # The points of this tick earn their extra life before the ship's loss is counted, so a
    # life earned on the tick the last ship dies keeps the game going.
    _award_extra_lives(d, p, events)
    if claims.ship_by:
        kill_ship(d, p, claims.ship_by, events)
    if kids is not None:
        append_rocks(d, kids)


def _keep_asteroids(d: Draft, keep: np.ndarray) -> None:
    """Drop the asteroids where ``keep`` is False, keeping order (and so ids ascending)."""
    index = np.flatnonzero(keep)
    counts = np.diff(d.ast_offsets)
    # take() with indices: boolean-mask indexing of an (V, 2) array is ~10x slower.
    d.ast_local = d.ast_local.take(np.flatnonzero(np.repeat(keep, counts)), axis=0)
    d.ast_offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts[index])])
    d.ast_id = d.ast_id.take(index)
    d.ast_size = d.ast_size.take(index)
    d.ast_pos = d.ast_pos.take(index, axis=0)
    d.ast_vel = d.ast_vel.take(index, axis=0)
    d.ast_angle = d.ast_angle.take(index)
    d.ast_spin = d.ast_spin.take(index)
    d.ast_radius = d.ast_radius.take(index)


def _award_extra_lives(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """Every extra ship the score has reached, at once: one event however many are due.

    The same lives and next threshold as awarding them one by one (each due ship is given
    unless the game is over or ``max_lives`` is reached), in constant time, so a rule of one
    ship per point with a million points a rock costs no more than one ship.
    """
    if p.extra_life_every <= 0 or d.score < d.next_extra_life:
        return
    due = (d.score - d.next_extra_life) // p.extra_life_every + 1
    d.next_extra_life += due * p.extra_life_every
    if d.game_over:
        return
    granted = due if not p.max_lives else max(0, min(due, p.max_lives - d.lives))
    if granted:
        d.lives += granted
        events.append(ev.ExtraLife(d.lives, granted))


# --- 7. waves and the heartbeat --------------------------------------------------------------


def _start_wave(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    d.wave += 1
    count = wave_size(p, d.wave)
    rocks = spawn_wave(d, p, rng, count)
    append_rocks(d, rocks)
    d.wave_timer = -1
    d.wave_weight = max(1, 7 * count)
    d.saucer_interval = p.saucer_first_ticks
    d.saucer_timer = p.saucer_first_ticks
    d.beat_interval = p.beat_start_ticks
    d.beat_timer = p.beat_start_ticks
    d.beat_quicken_timer = p.beat_quicken_ticks
    if p.shield_refill:
        d.shield_energy = p.shield_ticks
    events.append(ev.WaveStarted(d.wave, count))


def _run_waves(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> bool:
    """A cleared wave starts a pause; after it the next, bigger wave comes. True when a wave
    started this tick."""
    if d.wave_timer < 0:
        if d.ast_id.shape[0] == 0:
            events.append(ev.WaveCleared(d.wave))
            d.wave_timer = p.wave_delay_ticks
        else:
            return False
    else:
        d.wave_timer -= 1
    if d.wave_timer <= 0:
        _start_wave(d, p, rng, events)
        return True
    return False


def _heartbeat(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """The thump quickens with time into the wave and as the wave's rocks dwindle.

    The interval is the shorter of the 1979 rule (one step shorter every
    ``beat_quicken_ticks``) and a share of the start interval proportional to the hits the
    wave still needs. Silent while the ship is gone, between waves and after game over.
    """
    if d.game_over or d.wave_timer >= 0 or d.ship_state != SHIP_FLYING:
        return
    d.beat_quicken_timer -= 1
    if d.beat_quicken_timer <= 0:
        d.beat_quicken_timer = p.beat_quicken_ticks
        d.beat_interval = max(p.beat_min_ticks, d.beat_interval - p.beat_step_ticks)
    counts = np.bincount(d.ast_size, minlength=3)
    weight = int(counts[0]) * 7 + int(counts[1]) * 3 + int(counts[2])
    span = p.beat_start_ticks - p.beat_min_ticks
    by_count = p.beat_min_ticks + span * min(weight, d.wave_weight) // d.wave_weight
    interval = max(p.beat_min_ticks, min(d.beat_interval, by_count))
    d.beat_timer -= 1
    if d.beat_timer <= 0:
        events.append(ev.Heartbeat(d.beat_tone, interval))
        d.beat_tone ^= 1
        d.beat_timer = interval
