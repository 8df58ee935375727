"""The shot sweep (phase 3 of a tick): every shot along its whole path this tick, stopped at
the first thing it hits, with ricochets off walls and obstacles followed piece by piece.

Hits are *claimed* in the tick's frame (``Frame``): the earliest shot claims a target, and
``resolve`` breaks it later in the tick.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.bodies import CRAFT, HIT_OF, KIND_HIT, SHOT_CAUSE, SHOT_TARGETS
from asteroids.core.frame import Frame
from asteroids.core.geometry.bounce import bounce_positions, remaining_travel, segment_wall_bounce
from asteroids.core.geometry.polygon import edge_normals
from asteroids.core.geometry.wrap import wrap_positions
from asteroids.core.kinds import Hit, Kind, Shooter
from asteroids.core.outlines import rock_outlines
from asteroids.core.params import Params
from asteroids.core.reach import shots_may_hit
from asteroids.core.shots import first_hits
from asteroids.core.world import Draft, empty_f64

__all__ = ["MAX_SHOT_PIECES", "sweep_shots"]


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


def _targets(d: Draft, p: Params, owner: Shooter,
             rocks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[Kind, ...]]:
    """What ``owner``'s shots can hit, packed: asteroids, the craft of ``SHOT_TARGETS`` that
    are in play, obstacles.

    Returns (points, offsets, per-body motion this tick, the kinds of the craft bodies).
    """
    crafts = [c for c in (CRAFT[kind](d, p) for kind in SHOT_TARGETS[owner]) if c is not None]
    n_obstacles = p.obstacle_offsets.shape[0] - 1
    if not crafts and n_obstacles == 0:
        return rocks, d.ast_offsets, d.ast_vel, ()
    parts, offsets, motion = [rocks], [d.ast_offsets], [d.ast_vel]
    end = d.ast_offsets[-1]
    for craft in crafts:
        outline = craft.outline()
        parts.append(outline)
        end = end + outline.shape[0]
        offsets.append(np.array([end], dtype=np.int64))
        motion.append(np.array([(craft.vx, craft.vy)], dtype=np.float64))
    if n_obstacles:
        parts.append(p.obstacle_points)
        offsets.append(end + p.obstacle_offsets[1:])
        motion.append(np.zeros((n_obstacles, 2)))
    return (np.concatenate(parts), np.concatenate(offsets), np.concatenate(motion),
            tuple(c.kind for c in crafts))


class _Targets:
    """What one shooter's shots can hit, packed (see :func:`_targets`): rocks first (so a
    rock's body index is its asteroid index), then the craft (of kinds ``craft``), then
    obstacles."""

    __slots__ = ("body", "craft", "motion", "n_rocks", "offsets", "points")

    def __init__(self, points: np.ndarray, offsets: np.ndarray, motion: np.ndarray,
                 n_rocks: int, craft: tuple[Kind, ...],
                 body: np.ndarray | None = None) -> None:
        self.points, self.offsets, self.motion = points, offsets, motion
        self.n_rocks, self.craft = n_rocks, craft
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
                        self.n_rocks, self.craft, keep if self.body is None else self.body[keep])


class _ShotHits:
    """Per shot: what it hit this tick (``kind``, a ``Hit``: an obstacle stops or turns the
    shot), which asteroid, when (on the whole tick's clock, 0..1), where, and the
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
        hits = first_hits(starts, ends, tg.points, tg.offsets, world_size=p.wrap_size,
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
        n_rocks = tg.n_rocks
        kind = np.where(b < n_rocks, Hit.ROCK, Hit.OBSTACLE)
        for j, craft in enumerate(tg.craft):
            kind[b == n_rocks + j] = HIT_OF[craft]
        self.t[r] = t
        self.point[r] = hits.point[got]
        self.kind[r] = kind
        self.index[r] = b if tg.body is None else tg.body[b]
        wall = kind == Hit.OBSTACLE
        if wall.any():  # obstacle edges: the normal a ricochet reflects off
            self.normal[r[wall]] = edge_normals(tg.points, tg.offsets, b[wall],
                                                hits.edge[got][wall])

    def forget(self, rows: np.ndarray) -> None:
        """Drop the hits of ``rows`` (not real: something turned the shot first)."""
        self.kind[rows] = Hit.NONE
        self.t[rows] = np.inf

    def ricochet(self, rows: np.ndarray, vel: np.ndarray) -> np.ndarray:
        """Turn the obstacle hits among ``rows`` (moving at ``vel``) into ricochets, so the
        rest of their path can be tested; returns the rows that ricocheted."""
        wall = self.kind[rows] == Hit.OBSTACLE
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


def sweep_shots(d: Draft, p: Params, frame: Frame) -> None:
    """Move every shot along this tick's path, stopping it at the first thing it hits.

    Each shot's whole path this tick is tested against every edge of every target in the
    target's own frame (``body_motion``), so nothing tunnels at any speed. A path that turns
    this tick (off a wall in a bouncing world, :func:`geometry.segment_wall_bounce`, or off an
    obstacle when shots ricochet) is tested piece by piece, up to :data:`MAX_SHOT_PIECES`
    pieces: the first pass keeps only hits before the first turn, and each later piece is
    tested against the same targets where they are when the piece begins, moving as they do
    during it, so a target that moves into the ricocheted path is hit when the shot gets
    there. All hit times are on the whole tick's clock, so the earliest shot frame a target.
    """
    k = d.shot_id.shape[0]
    if k == 0:
        return
    if p.wrap_shots and not shots_may_hit(d, p):
        _fly_unhit_shots(d, p)  # nothing in reach: nothing to query, nothing hit
        return
    n = d.ast_id.shape[0]
    starts = d.shot_pos
    ends = starts + d.shot_vel
    rocks = rock_outlines(d) if n else empty_f64(2)
    hits = _ShotHits(k)
    walls = None if p.wrap_shots else segment_wall_bounce(starts, d.shot_vel, np.zeros(2),
                                                          p.size, max_pieces=_WALL_PIECES)
    for owner in (Shooter.SHIP, Shooter.SAUCER):
        rows = np.flatnonzero(d.shot_owner == owner)
        if rows.shape[0] == 0:
            continue
        points, offsets, motion, craft = _targets(d, p, owner, rocks)
        if offsets.shape[0] == 1:
            continue
        tg = _Targets(points, offsets, motion, n, craft)
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
        for row in rows[turned & (hits.kind[rows] == Hit.NONE)].tolist():
            if hits.bounced[row]:
                leg = _leg_after_ricochet(hits, row, p)
            else:
                assert walls is not None
                leg = _Leg(starts[row], d.shot_vel[row], 0.0, walls.starts[row],
                           walls.ends[row], walls.t0[row], walls.t1[row], walls.valid[row],
                           first=1)
            _follow_shot(hits, row, leg, tg, p)
    _apply_shot_hits(d, p, frame, hits)


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
                         at.motion * (t1 - t0), at.n_rocks, at.craft, at.body)
        hits.record(one, leg.starts[piece][None, :], leg.ends[piece][None, :], moved, p,
                    t0=np.array([t0]), t1=np.array([t1]))
        used += 1
        if p.shots_ricochet_obstacles and hits.kind[row] == Hit.OBSTACLE:
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


def _apply_shot_hits(d: Draft, p: Params, frame: Frame, hits: _ShotHits) -> None:
    """Break what the shots hit (earliest hit first), then move or remove every shot."""
    hit_kind, hit_index, hit_t = hits.kind, hits.index, hits.t
    struck = np.flatnonzero(hit_kind)
    order = struck[np.lexsort((struck, hit_t[struck]))]
    for row in order.tolist():
        kind = int(hit_kind[row])
        cause = SHOT_CAUSE[d.shot_owner[row]]
        if kind == Hit.ROCK:
            frame.claim_rock(int(hit_index[row]), cause)
        elif kind in KIND_HIT:  # a craft; one with its shield up is not claimed
            craft = KIND_HIT[Hit(kind)]
            shown = CRAFT[craft](d, p)
            if shown is not None and shown.shield is None:
                frame.claim(craft, cause)

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
    keep = np.flatnonzero((ttl > 0) & (hit_kind == Hit.NONE))
    d.shot_id = d.shot_id.take(keep)
    d.shot_owner = d.shot_owner.take(keep)
    d.shot_pos = pos.take(keep, axis=0)
    d.shot_vel = vel.take(keep, axis=0)
    d.shot_ttl = ttl.take(keep)
