"""The named bots deciding for a whole batch at once: (B,) input masks, lane i's equal to
the one-game bot's on ``batch.world(i)`` (tests/core/test_batch_bots.py).

idle and spinner are array expressions over the batch's columns, sharing the one-game bot's
rule (``bot.spin``). The aimer's decision for every game at once: each game's targets,
dangers and movers packed game after game, every (mover, danger) pair of a game through the
aimer's own geometry (``aim.closest``, ``aim.nearest``, ``aim.future``: elementwise, so a
pair gives the bits it gives in the one-game aimer), then per-game reductions (any, min,
argmin with the lowest index on ties, as numpy's). The games in danger that the aimer
cannot shoot clear (2-6 % of ticks) choose their escape together (``aim.escapes``, which the
one-game aimer runs for its one ship).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import batch as core_batch
from asteroids.core.aim import (
    DANGER_MARGIN,
    DANGER_TICKS,
    HIT_SHARE,
    HYPER_TICKS,
    AimKit,
    closest_within,
    escapes,
    future,
)
from asteroids.core.batch import Batch, rules_for
from asteroids.core.batch_rows import any_per_game, flat_rows, offsets_of, row_games, xy_rows
from asteroids.core.bot import aimer_bot, named, spin
from asteroids.core.geometry.wrap import floor_mod
from asteroids.core.inputs import InputFrame
from asteroids.core.kinds import BY_SAUCER, BY_SHIP, FLYING
from asteroids.core.params import Params
from asteroids.core.tables import COS, HEADING_STEPS, SIN

__all__ = ["BATCH_BOTS", "BatchBot", "aimer_batch", "batch_bot_for", "idle_batch",
           "spinner_batch"]

BatchBot = Callable[[Batch, Config], np.ndarray]
"""A batched pilot: the batch and its Config in, (B,) int64 input masks out."""


def idle_batch(batch: Batch, config: Config) -> np.ndarray:
    """Presses nothing, in every game."""
    return np.zeros(batch.size, dtype=np.int64)


def spinner_batch(batch: Batch, config: Config) -> np.ndarray:
    """Turns left for ever and fires on every press edge, in every game."""
    return np.asarray(spin(batch.fire_held), dtype=np.int64)


_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER, _SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)
_SHIP_MOVER = 4
"""Movers of a game in order: its shots in flight (0), the shot after turning left (1), not
turning (2), turning right (3), then the ship (4): the one-game aimer's rows."""


def _pack(lane: np.ndarray, cat: np.ndarray, kinds: int) -> np.ndarray:
    """The order that puts rows game after game, and by category inside a game (each
    category's rows keep their order)."""
    return np.argsort(lane * kinds + cat, kind="stable")


def _first_argmin(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per lane, the index (into ``values``, packed lane after lane, ``counts[g]`` of lane
    g) of its smallest value, the first on ties and the first NaN when there is one, as
    ``np.argmin`` gives for one lane; -1 for a lane without values."""
    out = np.full(counts.shape[0], -1, dtype=np.int64)
    n = values.shape[0]
    if not n:
        return out
    lanes = counts.nonzero()[0]
    starts = offsets_of(counts)[lanes]
    rank = np.arange(n)
    low = np.minimum.reduceat(values, starts)  # NaN where a lane has one
    out[lanes] = np.minimum.reduceat(np.where(values == low.repeat(counts[lanes]), rank, n),
                                     starts)
    nan = np.isnan(values)
    if nan.any():  # a lane's first NaN, as np.argmin
        first_nan = np.minimum.reduceat(np.where(nan, rank, n), starts)
        out[lanes] = np.where(first_nan < n, first_nan, out[lanes])
    return out


class _Dangers:
    """Every flying game's dangers, packed game after game: its rocks, its saucer, its saucer
    shots (the first two kinds are its targets, ``cat`` 0 and 1)."""

    __slots__ = ("cat", "count", "lane", "pos", "rad", "start", "targets", "vel", "wraps")

    def __init__(self, batch: Batch, p: Params, flying: np.ndarray, rock_lane: np.ndarray,
                 shot_lane: np.ndarray) -> None:
        lanes = np.arange(batch.size)
        rock = flying[rock_lane]
        saucer = flying & batch.saucer_alive
        enemy = (batch.shot_owner == BY_SAUCER) & flying[shot_lane]
        n_rock, n_enemy = np.count_nonzero(rock), np.count_nonzero(enemy)
        s_lane = lanes[saucer]
        radii = np.asarray(p.saucer_radius, dtype=np.float64)
        s_rad = radii[batch.saucer_small[saucer].astype(int)]
        lane = np.concatenate([rock_lane[rock], s_lane, shot_lane[enemy]])
        cat = np.concatenate([np.zeros(n_rock, np.int64), np.ones(s_lane.shape[0], np.int64),
                              np.full(n_enemy, 2, np.int64)])
        order = _pack(lane, cat, 3)
        self.lane, self.cat = lane[order], cat[order]
        # (N, 2) rows by take/compress: a[index] on them is several times slower.
        self.pos = np.concatenate([np.compress(rock, batch.ast_pos, axis=0), xy_rows(
            batch.saucer_x[saucer], batch.saucer_y[saucer]),
            np.compress(enemy, batch.shot_pos, axis=0)]).take(order, axis=0)
        self.vel = np.concatenate([np.compress(rock, batch.ast_vel, axis=0), xy_rows(
            batch.saucer_vx[saucer], batch.saucer_vy[saucer]),
            np.compress(enemy, batch.shot_vel, axis=0)]).take(order, axis=0)
        self.rad = np.concatenate([batch.ast_radius[rock], s_rad, np.ones(n_enemy)])[order]
        # Whether each wraps: read only where some target bounces off the walls.
        self.wraps = None if p.wrap_asteroids and p.wrap_saucers else np.concatenate([
            np.full(n_rock, p.wrap_asteroids), np.full(s_lane.shape[0], p.wrap_saucers),
            np.zeros(n_enemy, dtype=bool)])[order]
        self.count = np.bincount(self.lane, minlength=batch.size)
        self.targets = np.bincount(lane[cat < 2], minlength=batch.size)
        """Each game's targets (the first rows of its block)."""
        self.start = np.zeros(batch.size, dtype=np.int64)
        np.cumsum(self.count[:-1], out=self.start[1:])


class _Movers:
    """Every playing game's movers, packed game after game in the one-game aimer's row
    order: its shots in flight and the ship (``cat`` 0 and 4); or, given each game's
    ``turn``, just the shot it would fire after that turn (``cat`` 1, 2, 3 for turning
    left, not turning, turning right), the only candidate the aimer reads once it has
    chosen its turn."""

    __slots__ = ("cat", "horizon", "lane", "pos", "vel")

    def __init__(self, batch: Batch, p: Params, playing: np.ndarray, mine: np.ndarray,
                 shot_lane: np.ndarray, heading: np.ndarray,
                 turn: np.ndarray | None = None) -> None:
        sx, sy, vx, vy = batch.ship_x, batch.ship_y, batch.ship_vx, batch.ship_vy
        live = playing.nonzero()[0]
        if turn is not None:
            turned = turn[live]
            nvx, nvy = vx[live] * p.drag_keep, vy[live] * p.drag_keep
            h1 = (heading[live] + turned * p.turn_steps) % HEADING_STEPS
            c, s = COS[h1], SIN[h1]
            svx, svy = c * p.shot_speed, s * p.shot_speed
            if p.shot_inherit:
                svx, svy = svx + nvx, svy + nvy
            if p.shot_axis_cap > 0.0:
                cap = p.shot_axis_cap
                svx = np.minimum(np.maximum(svx, -cap), cap)
                svy = np.minimum(np.maximum(svy, -cap), cap)
            self.lane, self.cat = live, 2 - turned
            self.pos = xy_rows(sx[live] + c * 0.5 * p.ship_length,
                               sy[live] + s * 0.5 * p.ship_length)
            self.vel = xy_rows(svx, svy)
            self.horizon = np.full(live.shape[0], p.shot_ticks - 1.0)
            return
        own = mine & playing[shot_lane]
        n_live = live.shape[0]
        lane = np.concatenate([shot_lane[own], live])
        cat = np.concatenate([np.zeros(np.count_nonzero(own), np.int64),
                              np.full(n_live, _SHIP_MOVER)])
        order = _pack(lane, cat, 5)
        self.lane, self.cat = lane[order], cat[order]
        self.pos = np.concatenate([np.compress(own, batch.shot_pos, axis=0),
                                   xy_rows(sx[live], sy[live])]).take(order, axis=0)
        self.vel = np.concatenate([np.compress(own, batch.shot_vel, axis=0),
                                   xy_rows(vx[live], vy[live])]).take(order, axis=0)
        self.horizon = np.concatenate([batch.shot_ttl[own],
                                       np.full(n_live, float(DANGER_TICKS))])[order]


def _pairs(d: _Dangers, mv: _Movers, kit: AimKit
           ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray,
                      np.ndarray]:
    """Every (mover, danger) pair of a game, mover-major as the one-game aimer's grid, and
    the closest approach of each, exact wherever the aimer reads it: within the danger's
    hit radius of a shot (``HIT_SHARE``), or its reach of the ship (``closest_within``):
    ``(mover, danger, (rel x, rel y), t, miss)``."""
    per_mover = d.count[mv.lane]
    mover = np.arange(mv.lane.shape[0]).repeat(per_mover)
    pair_start = np.zeros(mv.lane.shape[0], dtype=np.int64)
    per_mover[:-1].cumsum(out=pair_start[1:])
    danger = (d.start[mv.lane] - pair_start).repeat(per_mover) + np.arange(mover.shape[0])
    # Differences of rows as complex numbers (one take and one subtraction for x and y
    # both, each part exact as apart), then x and y apart ((N,) columns): ``nearest`` and
    # ``closest_within`` per element, as on (N, 2) rows, without numpy's slow two-wide
    # inner loops.
    r = flat_rows(d.pos).take(danger) - flat_rows(mv.pos).take(mover)
    v = flat_rows(d.vel).take(danger) - flat_rows(mv.vel).take(mover)
    rel, w = [r.real, r.imag], [v.real, v.imag]
    if kit.size is not None:
        for axis in (0, 1):
            rel[axis] = floor_mod(rel[axis] + kit.half[axis], kit.size[axis]) - kit.half[axis]
    rad = d.rad[danger]
    radius = np.where(mv.cat[mover] == _SHIP_MOVER, rad + kit.p.ship_radius + DANGER_MARGIN,
                      HIT_SHARE * rad)
    t_all, miss_all = closest_within(rel[0], rel[1], w[0], w[1], mv.horizon[mover],
                                     kit.images, kit.size, radius)
    return mover, danger, (rel[0], rel[1]), t_all, miss_all


def _intercepts(batch: Batch, kit: AimKit, d: _Dangers, heading: np.ndarray,
                rel_ship: tuple[np.ndarray, np.ndarray], taken_any: np.ndarray, threat: np.ndarray,
                threat_t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(2) the heading that meets each target and (3) each game's cheapest target:
    ``(target, aim_turn, reach)``: the target's danger row per game (-1: none), the turn
    toward it, and every target's turn-and-flight ticks."""
    p = kit.p
    size = batch.size
    sx, sy, vx, vy = batch.ship_x, batch.ship_y, batch.ship_vx, batch.ship_vy
    aim_turn = np.zeros(size, dtype=np.int64)
    target = np.full(size, -1, dtype=np.int64)
    reach = np.zeros(d.lane.shape[0])
    ti = (d.cat < 2).nonzero()[0]
    if not ti.shape[0]:
        return target, aim_turn, reach
    tl = d.lane[ti]
    # x and y apart ((N,) columns): per element the operations of (N, 2) rows, without
    # numpy's slow two-wide inner loops.
    velx, vely = d.vel[:, 0].take(ti), d.vel[:, 1].take(ti)
    svx, svy = vx[tl], vy[tl]
    rvx, rvy = velx - svx, vely - svy
    wx, wy = (rvx, rvy) if p.shot_inherit else (velx, vely)
    a = wx * wx + wy * wy - p.shot_speed * p.shot_speed
    slow = a < -1e-9
    a_safe = np.where(slow, a, -1.0)
    hx, hy = COS[heading[tl]], SIN[heading[tl]]
    bouncing = not kit.all_wrap
    rx, ry = rel_ship[0].take(ti), rel_ship[1].take(ti)
    n = np.searchsorted(kit.turn_half_cos, -(rx * hx + ry * hy)
                        / np.maximum(np.sqrt(rx * rx + ry * ry), 1e-9))
    if bouncing:
        pos, vel = d.pos.take(ti, axis=0), xy_rows(velx, vely)
        rad, wraps = d.rad[ti], d.wraps[ti]  # type: ignore[index]
        herex, herey = sx[tl], sy[tl]
    for _ in range(2):
        if bouncing:
            here_nx, here_ny = herex + svx * n, herey + svy * n
            ahead = future(pos, vel, n, rad, wraps, p)
            dx, dy = ahead[:, 0] - here_nx, ahead[:, 1] - here_ny
        else:
            dx, dy = rx + rvx * n, ry + rvy * n
        if kit.size is not None:
            dx = floor_mod(dx + kit.half[0], kit.size[0]) - kit.half[0]
            dy = floor_mod(dy + kit.half[1], kit.size[1]) - kit.half[1]
        b = dx * wx + dy * wy
        c2 = dx * dx + dy * dy
        root = np.sqrt(np.maximum(b * b - a * c2, 0.0))
        t = np.where(slow, (-b - root) / a_safe, np.sqrt(c2) / p.shot_speed)
        aimx, aimy = dx + wx * t, dy + wy * t
        if bouncing:
            later = future(pos, vel, n + t, rad, wraps, p)
            laterx, latery = later[:, 0] - here_nx, later[:, 1] - here_ny
            if p.shot_inherit:
                laterx, latery = laterx - svx * t, latery - svy * t
            aimx, aimy = np.where(wraps, aimx, laterx), np.where(wraps, aimy, latery)
        n = np.searchsorted(kit.turn_half_cos, -(aimx * hx + aimy * hy)
                            / np.maximum(np.sqrt(aimx * aimx + aimy * aimy), 1e-9))
    left = hx * aimy - hy * aimx > 0.0
    reach_t = n + t
    cost = reach_t + (t >= p.shot_ticks - 1) * 400.0 + taken_any[ti] * 2000.0
    small = batch.saucer_small[tl]
    cost = np.where(d.cat[ti] == 1, cost - np.where(small, 80.0, 40.0), cost)
    t_threat = threat_t[ti]
    urgent = threat[ti] & (reach_t + 2.0 < t_threat) & ~taken_any[ti]
    cost = np.where(urgent, cost - 1000.0 + 4.0 * t_threat, cost)
    best = _first_argmin(cost, d.targets)
    has = best >= 0
    target[has] = ti[best[has]]
    aim_turn[has] = np.where(n[best[has]] > 0, np.where(left[best[has]], 1, -1), 0)
    reach[ti] = reach_t
    return target, aim_turn, reach


def aimer_batch(batch: Batch, config: Config | Params) -> np.ndarray:
    """The aimer's buttons for every game at once: game i's equal ``aimer_bot``'s on
    ``batch.world(i)`` (tests/core/test_batch_bots.py). The steps are the one-game aimer's,
    numbered as there. A batch smaller than ``BATCHED_PASS_MIN`` asks the one-game aimer
    game by game (the batched steps cost about 1 ms whatever B is)."""
    p = rules_for(batch, config)
    if batch.size < core_batch.BATCHED_PASS_MIN:
        return np.array([aimer_bot(w, p) for w in batch.worlds()], dtype=np.int64)
    kit = AimKit(p)
    size = batch.size
    masks = np.zeros(size, dtype=np.int64)
    flying = (batch.ship_state == FLYING) & ~batch.game_over
    heading = batch.ship_heading % HEADING_STEPS
    rock_lane = row_games(batch.ast_rows)
    shot_lane = row_games(batch.shot_rows)
    d = _Dangers(batch, p, flying, rock_lane, shot_lane)
    playing = flying & (d.count > 0)
    if not playing.any():
        return masks
    mine = (batch.shot_owner == BY_SHIP) & flying[shot_lane]
    k = np.bincount(shot_lane[mine], minlength=size)
    mv = _Movers(batch, p, playing, mine, shot_lane, heading)
    mover, danger, rel, t_all, miss_all = _pairs(d, mv, kit)
    pcat = mv.cat[mover]
    target_pair = d.cat[danger] < 2
    hit_r = HIT_SHARE * d.rad

    # (1) What the shots in flight will hit, and what is on a collision course.
    taken = ((pcat == 0) & target_pair & (miss_all < hit_r[danger])).nonzero()[0]
    taken_danger = danger.take(taken)
    taken_any = np.bincount(taken_danger, minlength=d.lane.shape[0]) > 0
    # The ship pairs: every danger once, in order (each game's ship is its last mover, and
    # every game with a danger plays).
    ship_pair = (pcat == _SHIP_MOVER).nonzero()[0]
    miss_ship, t_ship = miss_all.take(ship_pair), t_all.take(ship_pair)
    rel_ship = (rel[0].take(ship_pair), rel[1].take(ship_pair))
    reach_r = d.rad + p.ship_radius + DANGER_MARGIN
    threat = miss_ship < reach_r
    in_danger = any_per_game(threat, d.lane, size)
    wx_, wy_ = d.vel[:, 0] - batch.ship_vx[d.lane], d.vel[:, 1] - batch.ship_vy[d.lane]
    speed = np.sqrt(wx_ * wx_ + wy_ * wy_)
    inside = np.sqrt(np.maximum(reach_r * reach_r - miss_ship * miss_ship, 0.0))
    contact = np.maximum(t_ship - inside / np.where(speed > 0.0, speed, 1.0), 0.0)
    threat_t = np.where(threat, contact, np.inf)

    # (2), (3) Intercepts, and each game's cheapest target.
    target, aim_turn, reach = _intercepts(batch, kit, d, heading, rel_ship, taken_any, threat,
                                          threat_t)

    # (5) Dodge what is not being shot away; jump only when nothing else works.
    taken_at = np.full(d.lane.shape[0], np.inf)
    np.minimum.at(taken_at, taken_danger, t_all.take(taken))
    handled = taken_at + 1.0 < threat_t
    tgt = target[target >= 0]
    handled[tgt] |= reach[tgt] + 2.0 < threat_t[tgt]
    unhandled = any_per_game(threat & ~handled, d.lane, size)
    turn = aim_turn.copy()
    thrust = np.zeros(size, dtype=bool)
    jump = np.zeros(size, dtype=bool)
    dodging = (in_danger & unhandled & playing).nonzero()[0]
    if dodging.shape[0]:
        count = d.count[dodging]
        packed = offsets_of(count)
        start = packed[:-1]
        rows = np.repeat(d.start[dodging] - start, count) + np.arange(int(packed[-1]))
        turn[dodging], thrust[dodging], first = escapes(
            batch.ship_x[dodging], batch.ship_y[dodging], batch.ship_vx[dodging],
            batch.ship_vy[dodging], batch.ship_heading[dodging], aim_turn[dodging],
            d.pos.take(rows, axis=0), d.vel.take(rows, axis=0), d.rad[rows], start, kit)
        cornered = dodging[first <= HYPER_TICKS]
        if p.shield_enabled:
            charged = batch.shield_energy[cornered] > 0
            masks[cornered[charged]] |= _SHIELD
            cornered = cornered[~charged]
        if p.hyper_enabled:
            jump[cornered[~batch.hyper_held[cornered]]] = True
    masks |= np.where(turn > 0, _LEFT, np.where(turn < 0, _RIGHT, 0))
    masks |= np.where(thrust, _THRUST, 0)

    # (4) Fire on the press edge if next tick's shot would hit a target no shot is meant for.
    # The candidate shot of the turn taken (left 1, none 2, right 3), against the targets.
    may_fire = (d.targets > 0) & ~batch.fire_held & (k < p.shot_max)
    # Only games that may fire need their candidate shot measured.
    shot = _Movers(batch, p, playing & may_fire, mine, shot_lane, heading, turn)
    if shot.lane.shape[0]:
        s_mover, s_danger, _, _, s_miss = _pairs(d, shot, kit)
        fire_pair = ((d.cat[s_danger] < 2) & (s_miss < hit_r[s_danger])
                     & ~taken_any[s_danger])
        masks |= np.where(may_fire & any_per_game(fire_pair, shot.lane[s_mover], size),
                          _FIRE, 0)
    masks = np.where(jump, _HYPER, masks)
    return np.where(playing, masks, 0)


BATCH_BOTS: Mapping[str, BatchBot] = MappingProxyType({
    "idle": idle_batch,
    "spinner": spinner_batch,
    "aimer": aimer_batch,
})
"""The named bots that have a batched form (``BOTS``' names)."""


def batch_bot_for(name: str) -> BatchBot:
    """The batched bot called ``name``.

    Raises:
        ValueError: for a name without a batched form; the message lists those there are.
    """
    return named(BATCH_BOTS, name, "no batched bot", "bots with a batched form")
