"""The shot sweep (phase 3 of a tick): every shot along its whole path this tick, stopped at
the first thing it hits, with ricochets off walls and obstacles followed piece by piece.

Hits are *claimed* in the tick's frame (``Frame``): the earliest shot claims a target, and
``resolve`` breaks it later in the tick. Who claims what is one text for one game and every
game of a batch (``asteroids.core.claims``).
"""

from __future__ import annotations

import numpy as np

from asteroids.core.bodies import CRAFT, HIT_OF, KIND_HIT, SHOT_TARGETS
from asteroids.core.claims import craft_claims, rock_claims
from asteroids.core.frame import Frame
from asteroids.core.geometry.bounce import (
    WallBounce,
    bounce_positions,
    remaining_travel,
    segment_wall_bounce,
)
from asteroids.core.geometry.polygon import edge_normals
from asteroids.core.geometry.wrap import wrap_positions
from asteroids.core.kinds import Hit, Kind, Shooter
from asteroids.core.outlines import rock_outlines
from asteroids.core.params import Params
from asteroids.core.reach import shots_may_hit
from asteroids.core.shots import first_hits
from asteroids.core.world import Draft, empty_f64

__all__ = ["MAX_SHOT_PIECES", "ShotHits", "Targets", "shot_hits", "shots_after", "still_flying",
           "sweep_shots", "targets_of"]


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


class Targets:
    """What shots can hit, packed (``first_hits``' bodies): the rocks first, then the craft,
    then the obstacles, so that for every shot the lowest body of a tie is the one-game
    sweep's. Each body says what a hit on it records (``kind``, a ``Hit``, and ``index``:
    the rock's row, or the obstacle's number). ``pairs``: the (shot, body) pairs to test,
    shots numbered among the shots asked (many games at once: each shot with its own game's
    bodies); None: every shot with every body (one game)."""

    __slots__ = ("_craft", "_index", "_kind", "motion", "offsets", "pairs", "points")

    def __init__(self, points: np.ndarray, offsets: np.ndarray, motion: np.ndarray,
                 kind: np.ndarray | None, index: np.ndarray | None,
                 pairs: tuple[np.ndarray, np.ndarray] | None = None,
                 craft: tuple[int, tuple[Kind, ...]] = (0, ())) -> None:
        self.points, self.offsets, self.motion = points, offsets, motion
        self._kind, self._index, self.pairs = kind, index, pairs
        self._craft = craft
        """For ``kind`` and ``index`` left None (one game's targets, read only when a shot
        hits something): the number of rocks and the kinds of the craft bodies after them."""

    @property
    def kind(self) -> np.ndarray:
        """(bodies,) the ``Hit`` a hit on each body records."""
        if self._kind is None:
            n_rocks, craft = self._craft
            kind = np.full(self.offsets.shape[0] - 1, int(Hit.OBSTACLE), dtype=np.int64)
            kind[:n_rocks] = int(Hit.ROCK)
            for j, c in enumerate(craft):
                kind[n_rocks + j] = int(HIT_OF[c])
            self._kind = kind
        return self._kind

    @property
    def index(self) -> np.ndarray:
        """(bodies,) each body's rock row or obstacle number (-1 for a craft here too)."""
        if self._index is None:
            n_rocks, craft = self._craft
            index = np.arange(self.offsets.shape[0] - 1, dtype=np.int64)
            first = n_rocks + len(craft)
            index[first:] -= first
            self._index = index
        return self._index

    def pairs_of(self, asked: np.ndarray, shots: int) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of the shots ``asked`` (ascending positions among the ``shots``
        shots this was made for), each shot's in body order: (which of ``asked``, body)."""
        bodies = self.offsets.shape[0] - 1
        if self.pairs is None:
            which = np.arange(asked.shape[0]).repeat(bodies)
            return which, np.tile(np.arange(bodies), asked.shape[0])
        a, b = self.pairs
        slot = np.full(shots, -1, dtype=np.int64)
        slot[asked] = np.arange(asked.shape[0])
        mine = (slot.take(a) >= 0).nonzero()[0]
        which = slot.take(a.take(mine))
        order = np.lexsort((b.take(mine), which))
        return which.take(order), b.take(mine).take(order)


def targets_of(d: Draft, p: Params, owner: Shooter, rocks: np.ndarray) -> Targets:
    """One game's ``Targets`` for ``owner``'s shots (``_targets``' bodies)."""
    points, offsets, motion, craft = _targets(d, p, owner, rocks)
    return Targets(points, offsets, motion, None, None, craft=(d.ast_id.shape[0], craft))


class ShotHits:
    """Per shot: what it hit this tick (``kind``, a ``Hit``: an obstacle stops or turns the
    shot), which asteroid, when (on the whole tick's clock, 0..1), where, and the
    obstacle edge's normal; and the last obstacle it ricocheted off (``bounced``: where, when,
    its velocity before, the edge's normal, which obstacle), from which it ends the tick."""

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

    def record(self, rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, tg: Targets,
               p: Params, t0: np.ndarray | None = None, t1: np.ndarray | None = None) -> None:
        """Query ``first_hits`` for shots ``rows`` and keep hits earlier than any recorded.

        ``t0``, ``t1`` map a piece's own t (0..1) onto the tick: tick t = t0 + t * (t1 - t0).
        """
        hits = first_hits(starts, ends, tg.points, tg.offsets, world_size=p.wrap_size,
                          body_motion=tg.motion, among=tg.pairs)
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
        kind = tg.kind[b]
        self.t[r] = t
        self.point[r] = hits.point[got]
        self.kind[r] = kind
        self.index[r] = tg.index[b]
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


class _Legs:
    """The straight stretches the turned shots are on, one row per shot: from ``origin`` at
    tick time ``ts`` at ``vel`` per tick to the end of the tick, folded at the walls into
    ``_WALL_PIECES`` pieces (tick times ``t0``..``t1``; ``valid`` marks those that exist) in
    a bouncing world. A leg ends at an obstacle ricochet, where the next one starts."""

    __slots__ = ("ends", "next", "origin", "skip", "starts", "t0", "t1", "ts", "valid", "vel")

    def __init__(self, origin: np.ndarray, vel: np.ndarray, ts: np.ndarray, starts: np.ndarray,
                 ends: np.ndarray, t0: np.ndarray, t1: np.ndarray, valid: np.ndarray,
                 first: np.ndarray, skip: np.ndarray) -> None:
        self.origin, self.vel, self.ts = origin, vel, ts
        self.starts, self.ends, self.t0, self.t1, self.valid = starts, ends, t0, t1, valid
        self.next = first
        """The next piece of each leg to test."""
        self.skip = skip
        """The obstacle each leg starts on (not a target of its first piece), or -1."""

    def set(self, rows: np.ndarray, legs: _Legs) -> None:
        """Legs ``rows`` become ``legs`` (one row each)."""
        for name in self.__slots__:
            getattr(self, name)[rows] = getattr(legs, name)

    def velocity(self, rows: np.ndarray, piece: np.ndarray, size: np.ndarray) -> np.ndarray:
        """The shot's velocity on ``piece`` of legs ``rows``: ``vel`` with each axis flipped
        once per wall crossed before it (the parity of the unfolded position at the piece's
        middle); a leg starts straight (piece 0)."""
        vel = self.vel[rows]
        mid = 0.5 * (self.t0[rows, piece] + self.t1[rows, piece])
        u = self.origin[rows] + (mid - self.ts[rows])[:, None] * vel
        turned = np.where(np.floor(u / size) % 2.0 != 0.0, -vel, vel)
        return np.where((piece == 0)[:, None], vel, turned)


def _pieces(n: int) -> tuple[np.ndarray, ...]:
    """Empty leg pieces for ``n`` legs: starts, ends, t0, t1, valid."""
    return (np.zeros((n, _WALL_PIECES, 2)), np.zeros((n, _WALL_PIECES, 2)),
            np.zeros((n, _WALL_PIECES)), np.zeros((n, _WALL_PIECES)),
            np.zeros((n, _WALL_PIECES), dtype=bool))


def _legs_after_ricochet(hits: ShotHits, rows: np.ndarray, p: Params
                         ) -> tuple[_Legs, np.ndarray]:
    """The legs shots ``rows`` start where they ricocheted off an obstacle, and which of
    them have one (not those whose ricochet came at the very end of the tick)."""
    ts = hits.b_t[rows]
    point = hits.b_point[rows]
    end, vel = remaining_travel(point, ts, hits.b_vel[rows], hits.b_normal[rows])
    skip = hits.b_body[rows]
    n = rows.shape[0]
    starts, ends, t0, t1, valid = _pieces(n)
    if p.wrap_shots:
        starts[:, 0], ends[:, 0], t0[:, 0], t1[:, 0], valid[:, 0] = point, end, ts, 1.0, True
    else:
        rest = 1.0 - ts
        wb = segment_wall_bounce(point, rest[:, None] * vel, np.zeros(2), p.size,
                                 max_pieces=_WALL_PIECES)
        starts, ends, valid = wb.starts, wb.ends, wb.valid
        t0 = ts[:, None] + wb.t0 * rest[:, None]
        t1 = ts[:, None] + wb.t1 * rest[:, None]
    legs = _Legs(point, vel, ts, starts, ends, t0, t1, valid, np.zeros(n, dtype=np.int64), skip)
    return legs, ~(ts >= 1.0)


def shot_hits(starts: np.ndarray, vel: np.ndarray, asked: list[tuple[np.ndarray, Targets]],
              p: Params) -> ShotHits:
    """What every shot hits this tick along its whole path (``sweep_shots``' query), for one
    game's shots or many games' packed rows: ``asked`` pairs shot rows with their targets.

    Each shot's whole path this tick is tested against every edge of every target in the
    target's own frame (``body_motion``), so nothing tunnels at any speed. A path that turns
    this tick (off a wall in a bouncing world, :func:`geometry.segment_wall_bounce`, or off an
    obstacle when shots ricochet) is tested piece by piece, up to :data:`MAX_SHOT_PIECES`
    pieces: the first pass keeps only hits before the first turn, and each later piece is
    tested against the same targets where they are when the piece begins, moving as they do
    during it, so a target that moves into the ricocheted path is hit when the shot gets
    there. All hit times are on the whole tick's clock, so the earliest shot frame a target.
    """
    hits = ShotHits(starts.shape[0])
    ends = starts + vel
    walls = None if p.wrap_shots else segment_wall_bounce(starts, vel, np.zeros(2), p.size,
                                                          max_pieces=_WALL_PIECES)
    for rows, tg in asked:
        hits.record(rows, starts[rows], ends[rows], tg, p)
        if walls is not None:
            # Hits beyond the first wall are not real: the shot ricocheted first.
            wall_t = np.where(walls.valid[rows, 1], walls.t1[rows, 0], np.inf)
            hits.forget(rows[hits.t[rows] > wall_t])
        if p.shots_ricochet_obstacles:
            hits.ricochet(rows, vel[rows])
        turned = hits.bounced[rows].copy()
        if walls is not None:
            turned |= walls.valid[rows, 1]
        follow = (turned & (hits.kind[rows] == Hit.NONE)).nonzero()[0]
        if follow.shape[0]:
            _follow_shots(hits, rows, follow, _first_legs(hits, rows.take(follow), starts,
                                                          vel, walls, p), tg, p)
    return hits


def _first_legs(hits: ShotHits, rows: np.ndarray, starts: np.ndarray, vel: np.ndarray,
                walls: WallBounce | None, p: Params) -> tuple[_Legs, np.ndarray]:
    """The legs the turned shots ``rows`` go on after their first piece: after an obstacle
    ricochet, else the rest of the path folded at the walls (from its second piece)."""
    bounced = hits.bounced[rows]
    n = rows.shape[0]
    if walls is None:
        return _legs_after_ricochet(hits, rows, p)
    legs = _Legs(starts[rows], vel[rows], np.zeros(n), walls.starts[rows], walls.ends[rows],
                 walls.t0[rows], walls.t1[rows], walls.valid[rows], np.ones(n, dtype=np.int64),
                 np.full(n, -1, dtype=np.int64))
    live = np.ones(n, dtype=bool)
    if bounced.any():
        at = bounced.nonzero()[0]
        after, live[at] = _legs_after_ricochet(hits, rows.take(at), p)
        legs.set(at, after)
    return legs, live


def _follow_shots(hits: ShotHits, rows: np.ndarray, follow: np.ndarray,
                  first: tuple[_Legs, np.ndarray], tg: Targets, p: Params) -> None:
    """Test the rest of the turned shots' paths (``rows[follow]``) after their first turn,
    piece by piece, until each hits something, the tick ends or it has used
    :data:`MAX_SHOT_PIECES` pieces.

    Each piece spans tick times ``[t0, t1]``: the shot's targets are moved to where they
    are at ``t0`` and move by ``(t1 - t0)`` of their tick's motion while it lasts; every
    shot has its own copy of its targets (each piece starts at its own time).
    """
    legs, live = first
    shot = rows.take(follow)
    used = 1
    while used < MAX_SHOT_PIECES:
        piece = np.minimum(legs.next, _WALL_PIECES - 1)
        live &= (legs.next < _WALL_PIECES) & legs.valid[np.arange(piece.shape[0]), piece]
        now = live.nonzero()[0]
        if now.shape[0] == 0:
            return
        piece = piece.take(now)
        t0, t1 = legs.t0[now, piece], legs.t1[now, piece]
        which, body = tg.pairs_of(follow.take(now), rows.shape[0])
        skip = legs.skip.take(now).take(which)
        keep = ~((piece.take(which) == 0) & (skip >= 0) & (tg.kind.take(body) == Hit.OBSTACLE)
                 & (tg.index.take(body) == skip))
        which, body = which[keep], body[keep]
        counts = (tg.offsets[1:] - tg.offsets[:-1]).take(body)
        offsets = np.zeros(body.shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        at = (tg.offsets.take(body) - offsets[:-1]).repeat(counts) + np.arange(offsets[-1])
        motion = tg.motion.take(body, axis=0)
        moved = Targets(tg.points.take(at, axis=0) + np.repeat(motion * t0.take(which)[:, None],
                                                               counts, axis=0),
                        offsets, motion * (t1 - t0).take(which)[:, None], tg.kind.take(body),
                        tg.index.take(body),
                        None if now.shape[0] == 1 else (which, np.arange(body.shape[0])))
        hits.record(shot.take(now), legs.starts[now, piece], legs.ends[now, piece], moved, p,
                    t0=t0, t1=t1)
        used += 1
        kind = hits.kind[shot.take(now)]
        wall = (kind == Hit.OBSTACLE) & p.shots_ricochet_obstacles
        live[now[kind != Hit.NONE]] = False
        legs.next[now] += 1
        if wall.any():
            turned = now[wall]
            hits.ricochet(shot.take(turned), legs.velocity(turned, piece[wall], p.size))
            after, live[turned] = _legs_after_ricochet(hits, shot.take(turned), p)
            legs.set(turned, after)


def sweep_shots(d: Draft, p: Params, frame: Frame) -> None:
    """Move every shot along this tick's path, stopping it at the first thing it hits
    (``shot_hits``, each side's shots against what they can hit), and claim what was hit."""
    k = d.shot_id.shape[0]
    if k == 0:
        return
    if p.wrap_shots and not shots_may_hit(d, p):
        _fly_unhit_shots(d, p)  # nothing in reach: nothing to query, nothing hit
        return
    rocks = rock_outlines(d) if d.ast_id.shape[0] else empty_f64(2)
    asked = []
    for owner in (Shooter.SHIP, Shooter.SAUCER):
        rows = np.flatnonzero(d.shot_owner == owner)
        if rows.shape[0] == 0:
            continue
        tg = targets_of(d, p, owner, rocks)
        if tg.offsets.shape[0] > 1:
            asked.append((rows, tg))
    _apply_shot_hits(d, p, frame, shot_hits(d.shot_pos, d.shot_vel, asked, p))


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


def _apply_shot_hits(d: Draft, p: Params, frame: Frame, hits: ShotHits) -> None:
    """Break what the shots hit (earliest hit first), then move or remove every shot."""
    hit_kind, hit_index, hit_t = hits.kind, hits.index, hits.t
    if hit_kind.any():  # the claims, as for every game of a batch (a batch of one)
        rows = (hit_kind == Hit.ROCK).nonzero()[0]
        if rows.shape[0]:
            by = rock_claims(d.shot_owner, rows, hit_index[rows], hit_t[rows], frame.rocks)
            before = frame.rock_by  # an earlier claim, were a phase before to make one, wins
            frame.rock_by = by if before is None else np.where(before >= 0, before, by)
        shielded = {}  # each craft hit: one with its shield up (or none shown) is not claimed
        for code in dict.fromkeys(hit_kind[hit_kind > Hit.ROCK].tolist()):
            if code in KIND_HIT:
                shown = CRAFT[KIND_HIT[code]](d, p)
                shielded[KIND_HIT[code]] = np.array([shown is None or shown.shield is not None])
        one = np.zeros(hit_kind.shape[0], dtype=np.int64)
        for craft, by in craft_claims(d.shot_owner, hit_kind, hit_t, one, shielded, 1).items():
            if by[0] >= 0:
                frame.claim(craft, int(by[0]))

    pos, vel = shots_after(d.shot_pos, d.shot_vel, hits, p)
    ttl = d.shot_ttl - 1
    keep = np.flatnonzero(still_flying(ttl, hit_kind))
    d.shot_id = d.shot_id.take(keep)
    d.shot_owner = d.shot_owner.take(keep)
    d.shot_pos = pos.take(keep, axis=0)
    d.shot_vel = vel.take(keep, axis=0)
    d.shot_ttl = ttl.take(keep)


def still_flying(ttl: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Which shots fly on after this tick: time left (``ttl``, counted down this tick) and
    nothing hit (``kind``, ``ShotHits.kind``); one game's shots or every game's rows."""
    return (ttl > 0) & (kind == Hit.NONE)


def shots_after(pos: np.ndarray, vel: np.ndarray, hits: ShotHits, p: Params
                ) -> tuple[np.ndarray, np.ndarray]:
    """Where every shot ends the tick and its velocity then (row by row, one game's shots or
    many games'): moved, from its last obstacle ricochet if any, and wrapped or folded at
    the walls."""
    pos = pos + vel
    if hits.bounced.any():  # the rest of the tick from the last obstacle ricochet
        pos, vel = pos.copy(), vel.copy()
        rows = np.flatnonzero(hits.bounced)
        pos[rows], vel[rows] = remaining_travel(hits.b_point[rows], hits.b_t[rows],
                                                hits.b_vel[rows], hits.b_normal[rows])
    if p.wrap_shots:
        return wrap_positions(pos, p.size), vel
    return bounce_positions(pos, vel, np.zeros(2), p.size)
