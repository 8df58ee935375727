"""The named bots deciding for a whole batch at once: (B,) input masks, lane i's equal to
the one-game bot's on ``batch.world(i)`` (tests/core/test_batch_bots.py).

idle and spinner are array expressions over the batch's columns, sharing the one-game bot's
rule (``bot.spin``). The aimer's decision for every game at once: each game's targets,
dangers and movers packed game after game, every (mover, danger) pair of a game through the
aimer's own geometry (``aim.closest_within``, ``aim.future``: elementwise, so a pair gives
the bits it gives in the one-game aimer), the rules of each step by the one-game aimer's
own text (``asteroids.core.aim_steps``: per row, or per game with ``lanes.MANY``), and
per-game reductions (any, min, argmin with the lowest index on ties, as numpy's). The games
in danger that the aimer cannot shoot clear (2-6 % of ticks) choose their escape together
(``aim.escapes``, which the one-game aimer runs for its one ship).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import batch as core_batch
from asteroids.core.aim import DANGER_TICKS, AimKit, closest_within, escapes
from asteroids.core.aim_steps import (
    buttons,
    hit_radius,
    in_time,
    intercepts,
    may_fire,
    next_shot,
    passes,
    reach_radius,
    target_costs,
    threats,
    turn_toward,
)
from asteroids.core.batch import Batch, rules_for
from asteroids.core.batch_rows import any_per_game, flat_rows, offsets_of, row_games, xy_rows
from asteroids.core.bot import aimer_bot, named, spin
from asteroids.core.geometry.wrap import floor_mod
from asteroids.core.kinds import BY_SAUCER, BY_SHIP, FLYING, Kind
from asteroids.core.lanes import MANY
from asteroids.core.params import Params
from asteroids.core.sight import AIMED, ALL_HARM, SEEN, craft_seen_rows
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


_SAUCER_CAT = 1 + SEEN.index(Kind.SAUCER)
"""The saucer's ``cat`` among a game's dangers (the targets' bonus is the saucer's alone)."""
_TARGET_CATS = 1 + len(AIMED)
"""``cat`` below this: a target (the rocks, then the craft of ``sight.AIMED``)."""
_SHOT_CAT = 1 + len(SEEN)
"""The saucer's shots' ``cat``, after every craft seen."""


class _Dangers:
    """Every flying game's dangers, packed game after game: its rocks (``cat`` 0), its craft
    of ``sight.SEEN`` (``cat`` 1 + each kind's place: the saucer, declared enemies), its
    saucer shots (``_SHOT_CAT``); the rocks and the craft of ``sight.AIMED`` are its
    targets (``cat`` below ``_TARGET_CATS``)."""

    __slots__ = ("cat", "count", "harms", "lane", "pos", "rad", "start", "targets", "vel",
                 "wraps")

    def __init__(self, batch: Batch, kit: AimKit, flying: np.ndarray, rock_lane: np.ndarray,
                 shot_lane: np.ndarray) -> None:
        p = kit.p
        rock = flying[rock_lane]
        craft = craft_seen_rows(batch, p, flying)
        enemy = (batch.shot_owner == BY_SAUCER) & flying[shot_lane]
        n_rock, n_enemy = np.count_nonzero(rock), np.count_nonzero(enemy)
        lane = np.concatenate([rock_lane[rock], *(c.lanes for c in craft), shot_lane[enemy]])
        cat = np.concatenate([np.zeros(n_rock, np.int64),
                              *(np.full(c.lanes.shape[0], 1 + c.place, np.int64) for c in craft),
                              np.full(n_enemy, _SHOT_CAT, np.int64)])
        order = _pack(lane, cat, _SHOT_CAT + 1)
        self.lane, self.cat = lane[order], cat[order]
        # (N, 2) rows by take/compress: a[index] on them is several times slower.
        self.pos = np.concatenate([np.compress(rock, batch.ast_pos, axis=0),
                                   *(xy_rows(c.x, c.y) for c in craft),
                                   np.compress(enemy, batch.shot_pos, axis=0)]).take(order, axis=0)
        self.vel = np.concatenate([np.compress(rock, batch.ast_vel, axis=0),
                                   *(xy_rows(c.vx, c.vy) for c in craft),
                                   np.compress(enemy, batch.shot_vel, axis=0)]).take(order, axis=0)
        self.rad = np.concatenate([batch.ast_radius[rock], *(c.radius for c in craft),
                                   np.ones(n_enemy)])[order]
        # Whether each wraps: read only where some target bounces off the walls.
        self.wraps = None if kit.all_wrap else np.concatenate([
            np.full(n_rock, p.wrap_asteroids),
            *(np.full(c.lanes.shape[0], c.wraps) for c in craft),
            np.zeros(n_enemy, dtype=bool)])[order]
        self.harms = None if ALL_HARM else np.concatenate([
            np.ones(n_rock, dtype=bool), *(np.full(c.lanes.shape[0], c.harms) for c in craft),
            np.ones(n_enemy, dtype=bool)])[order]
        """Which rows can take the ship (None: every one)."""
        self.count = np.bincount(self.lane, minlength=batch.size)
        self.targets = np.bincount(lane[cat < _TARGET_CATS], minlength=batch.size)
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
            x, y, svx, svy = next_shot(MANY, p, sx[live], sy[live], vx[live], vy[live],
                                       heading[live], turned)
            self.lane, self.cat = live, 2 - turned
            self.pos, self.vel = xy_rows(x, y), xy_rows(svx, svy)
            self.horizon = np.full(live.shape[0], p.shots_lifetime_ticks - 1.0)
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
    radius = np.where(mv.cat[mover] == _SHIP_MOVER, reach_radius(kit.p, rad), hit_radius(rad))
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
    aim_turn = np.zeros(size, dtype=np.int64)
    target = np.full(size, -1, dtype=np.int64)
    reach = np.zeros(d.lane.shape[0])
    ti = (d.cat < _TARGET_CATS).nonzero()[0]
    if not ti.shape[0]:
        return target, aim_turn, reach
    tl = d.lane[ti]
    bouncing = not kit.all_wrap
    # (2, N) rows of x and y, each contiguous (a transposed (N, 2) view would run numpy's
    # slow two-wide inner loops).
    vel = np.stack([d.vel[:, 0].take(ti), d.vel[:, 1].take(ti)])
    ship_v = np.stack([batch.ship_vx[tl], batch.ship_vy[tl]])
    here = np.stack([batch.ship_x[tl], batch.ship_y[tl]]) if bouncing else None
    n, t, left = intercepts(
        kit, np.stack([rel_ship[0].take(ti), rel_ship[1].take(ti)]), vel, here, ship_v,
        COS[heading[tl]], SIN[heading[tl]], d.pos.take(ti, axis=0) if bouncing else None,
        d.rad[ti] if bouncing else None,
        d.wraps[ti] if bouncing else None)  # type: ignore[index]
    cost = target_costs(p, n, t, taken_any[ti], d.cat[ti] == _SAUCER_CAT, batch.saucer_small[tl],
                        threat[ti], threat_t[ti])
    best = _first_argmin(cost, d.targets)
    has = best >= 0
    target[has] = ti[best[has]]
    aim_turn[has] = turn_toward(MANY, n[best[has]], left[best[has]])
    reach[ti] = n + t
    return target, aim_turn, reach


def aimer_batch(batch: Batch, config: Config | Params) -> np.ndarray:
    """The aimer's buttons for every game at once: game i's equal ``aimer_bot``'s on
    ``batch.world(i)`` (tests/core/test_batch_bots.py). The steps are the one-game aimer's,
    numbered as there, and their rules the same text (``asteroids.core.aim_steps``), run on
    every game's rows packed game after game. A batch smaller than ``BATCHED_PASS_MIN`` asks
    the one-game aimer game by game (the batched steps cost about 1 ms whatever B is)."""
    p = rules_for(batch, config)
    if batch.size < core_batch.BATCHED_PASS_MIN:
        return np.array([aimer_bot(w, p) for w in batch.worlds()], dtype=np.int64)
    kit = AimKit(p)
    size = batch.size
    flying = (batch.ship_state == FLYING) & ~batch.game_over
    heading = batch.ship_heading % HEADING_STEPS
    rock_lane = row_games(batch.ast_rows)
    shot_lane = row_games(batch.shot_rows)
    d = _Dangers(batch, kit, flying, rock_lane, shot_lane)
    playing = flying & (d.count > 0)
    if not playing.any():
        return np.zeros(size, dtype=np.int64)
    mine = (batch.shot_owner == BY_SHIP) & flying[shot_lane]
    k = np.bincount(shot_lane[mine], minlength=size)
    mv = _Movers(batch, p, playing, mine, shot_lane, heading)
    mover, danger, rel, t_all, miss_all = _pairs(d, mv, kit)
    pcat = mv.cat[mover]
    target_pair = d.cat[danger] < _TARGET_CATS

    # (1) What the shots in flight will hit, and what is on a collision course.
    taken = ((pcat == 0) & target_pair & passes(miss_all, d.rad[danger])).nonzero()[0]
    taken_danger = danger.take(taken)
    taken_any = np.bincount(taken_danger, minlength=d.lane.shape[0]) > 0
    # The ship pairs: every danger once, in order (each game's ship is its last mover, and
    # every game with a danger plays).
    ship_pair = (pcat == _SHIP_MOVER).nonzero()[0]
    rel_ship = (rel[0].take(ship_pair), rel[1].take(ship_pair))
    threat, threat_t = threats(p, d.rad, miss_all.take(ship_pair), t_all.take(ship_pair),
                               d.vel, batch.ship_vx[d.lane], batch.ship_vy[d.lane], d.harms)

    # (2), (3) Intercepts, and each game's cheapest target.
    target, aim_turn, reach = _intercepts(batch, kit, d, heading, rel_ship, taken_any, threat,
                                          threat_t)

    # (5) Dodge what is not being shot away; jump only when nothing else works.
    taken_at = np.full(d.lane.shape[0], np.inf)
    np.minimum.at(taken_at, taken_danger, t_all.take(taken))
    handled = in_time(taken_at, threat_t, 1.0)
    tgt = target[target >= 0]
    handled[tgt] |= in_time(reach[tgt], threat_t[tgt], 2.0)
    turn = aim_turn.copy()
    thrust = np.zeros(size, dtype=bool)
    first = np.full(size, DANGER_TICKS + 1, dtype=np.int64)
    dodging = (any_per_game(threat & ~handled, d.lane, size) & playing).nonzero()[0]
    if dodging.shape[0]:
        count = d.count[dodging]
        packed = offsets_of(count)
        start = packed[:-1]
        rows = np.repeat(d.start[dodging] - start, count) + np.arange(int(packed[-1]))
        if d.harms is not None:  # only what can take the ship is dodged
            keep = d.harms[rows]
            rows = rows[keep]
            start = offsets_of(np.add.reduceat(keep.astype(np.int64), start))[:-1]
        turn[dodging], thrust[dodging], first[dodging] = escapes(
            batch.ship_x[dodging], batch.ship_y[dodging], batch.ship_vx[dodging],
            batch.ship_vy[dodging], batch.ship_heading[dodging], aim_turn[dodging],
            d.pos.take(rows, axis=0), d.vel.take(rows, axis=0), d.rad[rows], start, kit)

    # (4) Fire on the press edge if next tick's shot would hit a target no shot is meant for:
    # the candidate shot of the turn taken, against the targets, measured only in the games
    # that may fire.
    fire = may_fire(MANY, p, d.targets, batch.fire_held, k) & playing
    shot = _Movers(batch, p, fire, mine, shot_lane, heading, turn)
    if shot.lane.shape[0]:
        s_mover, s_danger, _, _, s_miss = _pairs(d, shot, kit)
        hits = ((d.cat[s_danger] < _TARGET_CATS) & passes(s_miss, d.rad[s_danger])
                & ~taken_any[s_danger])
        fire &= any_per_game(hits, shot.lane[s_mover], size)
    masks = buttons(MANY, p, turn, thrust, first, batch.shield_energy, batch.hyper_held, fire)
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
