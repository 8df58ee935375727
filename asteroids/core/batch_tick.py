"""The batched tick: every game of a batch in one pass over its columns where the tick is
routine, and the one-game ``step`` for the few games where it is not.

Routine is most of what a tick does: the ship turns, thrusts, drifts and fires; the saucer
comes, zig-zags, fires and leaves (each game drawing from its own PCG32 stream); shots fly,
and break the rocks they hit, which score and split; rocks and craft move; the clocks run.
The batched pass runs the rules' shared texts for all of it (``asteroids.core.lanes``:
``read_buttons``, ``fly``, ``trigger``, ``saucer_clock``, ``saucer_arrives``, ``move_rocks``,
``move_craft``, ``ship_clock``, ``heartbeat_clock``, ``split_rocks`` ...) over ``(B,)`` arrays
and packed rows; so do the arena's rules (``bounce_off_obstacles``, ``collide_asteroids``,
and the sweep's walls and ricochets, ``sweep_rows``). Each game is *classified* as it
goes: the moment a rule would do what the batched pass leaves to the one-game driver (a
jump, a contact, a death, an extra life, a wave, a shot hitting a craft), the game is
marked, and every marked game is stepped by ``simulation.step`` from its state at the
start of the tick; its World replaces whatever the batched pass computed for it
(``batch_rows.merge_lanes``). The classification only picks the driver; both give the
same next World (tests/core/test_batch_identity.py, test_batch_tick.py and
test_batch_arena.py, every game after every tick), so a test that is too cautious costs
time, never bits. In a classic batch of idle or aimer games, well under 1 % of the games
take the one-game step on a tick.

The tests that mark a game read the same quantities, with the same operations, as the
rules they stand for (the reach check's bounds, ``touch.near_rows``, ``circles_touch``, the
sweep's own ``first_hits`` and the contacts' ``polygons_overlap`` over every game at once),
so a game left to the batched pass is one whose one-game tick would do nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from asteroids.core.batch_rows import (
    any_per_game,
    append_shots,
    distinct,
    flat_rows,
    pairs_in_games,
    row_games,
    xy_rows,
)
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.geometry.wrap import wrap_positions
from asteroids.core.kinds import BY_SAUCER, BY_SHIP, Hit, Kind
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.motion import bounce_off_obstacles, collide_asteroids, move_craft, move_rocks
from asteroids.core.outlines import rock_outlines_of
from asteroids.core.params import Params
from asteroids.core.reach import craft_reach, reach_margin, rock_reach
from asteroids.core.resolve import extra_lives
from asteroids.core.resolve_rows import break_rocks
from asteroids.core.rng import Pcg32Batch
from asteroids.core.saucer import (
    lurker_busy,
    saucer_arrives,
    saucer_clock,
    saucer_outline,
    saucer_shot,
    zigzag,
)
from asteroids.core.ship import (
    fly,
    jump_many,
    read_buttons,
    ship_outline_points,
    ship_present,
    ship_timers_many,
    shot_from_nose,
    trigger,
)
from asteroids.core.shots import first_hits
from asteroids.core.sweep_rows import claims, sweep_rows
from asteroids.core.touch_rows import craft_meets_rocks, crafts_meet, near_rocks
from asteroids.core.waves import (
    heartbeat_clock,
    rocks_weight,
    start_waves_many,
    wave_cleared,
    wave_clock,
)

__all__ = ["routine_tick"]



def _shots_may_hit(d: BatchDraft, p: Params, shot_game: np.ndarray, ast_game: np.ndarray,
                   lanes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B,) where a shot may reach something this tick: ``reach.shots_may_hit`` for every
    game at once, the same bounds by the same operations (a wrapping world without
    obstacles; games where it says no fly their shots unhit); and the (shot row, rock row)
    pairs within those bounds (the bound is per pair: a rock no shot of its game can reach
    cannot be hit, so the query leaves it out)."""
    vel = d.shot_vel
    v2 = vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1]
    may = np.zeros(lanes, dtype=bool)
    travel2 = np.zeros(lanes)
    np.maximum.at(travel2, shot_game, np.where(np.isfinite(v2), v2, 0.0))
    margin = reach_margin(MANY, travel2, p)
    near_s = near_r = np.zeros(0, dtype=np.int64)
    if d.ast_id.shape[0]:
        s, r = pairs_in_games(shot_game, d.ast_rows)
        if s.shape[0]:
            # Each rock's reach once (its game's margin), then per pair: the differences as
            # complex rows (one take and one subtraction for x and y), then x and y apart.
            reach = rock_reach(d.ast_radius, d.ast_vel, margin[ast_game]).take(r)
            delta = flat_rows(d.ast_pos).take(r) - flat_rows(d.shot_pos).take(s)
            gap = np.abs(delta.real)
            near = ~(np.minimum(gap, p.size[0] - gap) > reach)
            gap = np.abs(delta.imag)
            near &= ~(np.minimum(gap, p.size[1] - gap) > reach)
            may |= any_per_game(near, shot_game.take(s), lanes)
            near = near.nonzero()[0]
            near_s, near_r = s.take(near), r.take(near)
    ship_up = ship_present(d)
    saucer_up = d.saucer_alive
    large, small = p.saucer_radius
    w, h = p.width, p.height
    saucer_r = np.where(d.saucer_small, small, large)
    ship_r = np.full(lanes, p.ship_radius)
    for owner, present, cx, cy, r, cvx, cvy in (
            (0, saucer_up, d.saucer_x, d.saucer_y, saucer_r, d.saucer_vx, d.saucer_vy),
            (1, ship_up, d.ship_x, d.ship_y, ship_r, d.ship_vx, d.ship_vy)):
        rows = ((d.shot_owner == owner) & present[shot_game]).nonzero()[0]
        if rows.shape[0] == 0:
            continue
        g = shot_game[rows]
        limit = craft_reach(MANY, r[g], cvx[g], cvy[g], margin[g])
        dx = cx[g] - d.shot_pos[rows, 0]
        dy = cy[g] - d.shot_pos[rows, 1]
        dx = dx - w * np.round(dx / w, 0)
        dy = dy - h * np.round(dy / h, 0)
        may |= any_per_game(~(dx * dx + dy * dy > limit * limit), g, lanes)
    return may, near_s, near_r


def _shots_hit(d: BatchDraft, p: Params, query: np.ndarray, shot_game: np.ndarray,
               near: tuple[np.ndarray, np.ndarray], ship_shape: Any, saucer_shape: Any
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What the shots of the games of ``query`` hit this tick: the sweep's own query
    (``shots.first_hits``) for all those games in one call, each shot tested against its
    own game's targets as ``sweep._targets`` lists them (the rocks, and the other side's
    craft when it is in play), of the rocks only those within its reach (``near``: the
    (shot row, rock row) pairs in bounds, shot-major): the others cannot be hit, and each
    pair's answer is computed by itself.

    Returns:
        (the shot rows that hit something, the rock row each hit (-1: a craft), the hit's
        ``t``, the games where a shot hit a craft).
    """
    lanes = query.shape[0]
    shots = query[shot_game].nonzero()[0]
    sg = shot_game[shots]
    asked = query[shot_game[near[0]]]
    near_s, near_r = near[0][asked], near[1][asked]
    rocks = distinct(near_r, d.ast_id.shape[0])
    pts, offs = rock_outlines_of(d, rocks)  # type: ignore[arg-type]
    ia, ib = np.searchsorted(shots, near_s), np.searchsorted(rocks, near_r)
    n_bodies = rocks.shape[0]
    parts, offsets, motion = [pts], [offs], [d.ast_vel.take(rocks, axis=0)]
    pair_a, pair_b = [ia], [ib]
    owner = d.shot_owner[shots]
    for shooter, present, shape, vx, vy in (
            (0, d.saucer_alive, saucer_shape, d.saucer_vx, d.saucer_vy),
            (1, ship_present(d), ship_shape, d.ship_vx, d.ship_vy)):
        mine = ((owner == shooter) & present[sg]).nonzero()[0]
        if mine.shape[0] == 0:
            continue
        games = distinct(sg[mine], lanes)  # the craft some shot of the other side may hit
        outline = shape(games)
        n, v = outline.shape[0], outline.shape[1]
        parts.append(outline.reshape(n * v, 2))
        offsets.append(offsets[-1][-1] + v * np.arange(1, n + 1))
        motion.append(xy_rows(vx[games], vy[games]))
        pair_a.append(mine)
        pair_b.append(n_bodies + np.searchsorted(games, sg[mine]))
        n_bodies += n
    a, b = np.concatenate(pair_a), np.concatenate(pair_b)
    none = np.zeros(0, dtype=np.int64)
    if a.shape[0] == 0:
        return none, none, np.zeros(0), np.zeros(lanes, dtype=bool)
    starts = d.shot_pos.take(shots, axis=0)
    hits = first_hits(starts, starts + d.shot_vel.take(shots, axis=0), np.concatenate(parts),
                      np.concatenate(offsets), world_size=p.wrap_size,
                      body_motion=np.concatenate(motion), among=(a, b))
    got = (hits.body >= 0).nonzero()[0]
    body = hits.body[got]
    rock = np.where(body < rocks.shape[0], rocks[np.minimum(body, rocks.shape[0] - 1)], -1) \
        if rocks.shape[0] else np.full(got.shape[0], -1, dtype=np.int64)
    return shots[got], rock, hits.t[got], any_per_game(rock < 0, sg[got], lanes)


def _live_shots(d: BatchDraft, owner: int, lanes: int) -> np.ndarray:
    """(B,) each game's shots of ``owner`` in flight."""
    return np.bincount(row_games(d.shot_rows)[d.shot_owner == owner], minlength=lanes)


def routine_tick(columns: Mapping[str, np.ndarray], masks: np.ndarray, p: Params
                 ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, EventLog]:
    """One tick of every game by the shared rule texts, and which games need the one-game
    driver instead.

    Args:
        columns: the batch's columns (every World field, ``ast_rows``, ``shot_rows``).
        masks: (B,) int64 input masks.
        p: the batch's rules.

    Returns:
        (the next columns, right for the routine games only; (K,) which of their shot rows
        still fly; (B,) the games that are not routine; the routine games' events).
    """
    d = BatchDraft(columns)
    log = EventLog()
    lanes = masks.shape[0]
    ast_counts = d.ast_rows[1:] - d.ast_rows[:-1]
    ast_game = row_games(d.ast_rows)
    other = np.zeros(lanes, dtype=bool)
    obstacles = p.obstacle_offsets.shape[0] > 1

    # 1. the ship (``ship.control_ship``): buttons, engine and shield, flight, a jump, a
    # shot.
    b = read_buttons(MANY, d, p, masks)
    changed = b.thrust != d.thrusting
    d.thrusting = b.thrust
    log.emit(EventKind.THRUST_CHANGED, changed, i0=b.thrust)
    changed = b.shield != d.shield_on
    d.shield_on = b.shield
    log.emit(EventKind.SHIELD_CHANGED, changed, i0=b.shield,
             f=d.shield_energy / p.shield_ticks)
    fly(MANY, d, p, masks, b)
    b = jump_many(d, p, b, ast_counts, log)
    fire = trigger(MANY, d, p, b) & (_live_shots(d, BY_SHIP, lanes) < p.shot_max)
    x, y, vx, vy = shot_from_nose(MANY, d, p)
    append_shots(d, fire, BY_SHIP, x, y, vx, vy, p.shot_ticks)
    log.emit(EventKind.SHOT_FIRED, fire, i0=BY_SHIP, x=x, y=y)
    # 2. the saucer (``saucer.update_saucer``), with each game's own stream of chance.
    if p.saucers:
        rng = Pcg32Batch(d.rng_state, d.rng_inc)
        due = saucer_clock(MANY, d)
        busy = due.due & lurker_busy(MANY, d, p, ast_counts)
        d.saucer_timer = np.where(busy, d.saucer_interval, d.saucer_timer)
        arrive = due.due & ~busy
        # Each rule changes (and draws for) only the games its mask names: where it names
        # none, skipping it changes nothing.
        if arrive.any():
            saucer_arrives(MANY, d, p, rng, arrive)
            log.emit(EventKind.SAUCER_SPAWNED, arrive, i0=d.saucer_small, x=d.saucer_x,
                     y=d.saucer_y)
        if due.leaving.any():
            d.saucer_alive = d.saucer_alive & ~due.leaving
            log.emit(EventKind.SAUCER_LEFT, due.leaving, i0=d.saucer_small)
        if due.zig.any():
            zigzag(MANY, d, p, rng, due.zig)
        if due.fire.any():
            d.saucer_fire_timer = np.where(due.fire, p.saucer_fire_ticks,
                                           d.saucer_fire_timer)
            fire = due.fire & (_live_shots(d, BY_SAUCER, lanes) < p.saucer_max_shots)
            if fire.any():
                x, y, vx, vy = saucer_shot(MANY, d, p, rng, fire)
                append_shots(d, fire, BY_SAUCER, x, y, vx, vy, p.saucer_shot_ticks)
                log.emit(EventKind.SHOT_FIRED, fire, i0=BY_SAUCER, x=x, y=y)
        d.rng_state = rng.state
    shot_game = row_games(d.shot_rows)

    def ship_shape(games: np.ndarray) -> np.ndarray:
        points = ship_outline_points(MANY, p, d.ship_x[games], d.ship_y[games],
                                     d.ship_heading[games])
        out = np.empty((games.shape[0], len(points), 2))
        for v, (x, y) in enumerate(points):
            out[:, v, 0] = x
            out[:, v, 1] = y
        return out

    def saucer_shape(games: np.ndarray) -> np.ndarray:
        return saucer_outline(p, d.saucer_x[games], d.saucer_y[games], d.saucer_small[games])

    # 3. shots fly unhit where nothing is in reach (the one-game reach check's bounds);
    # where the sweep's query finds hits, the rocks hit are claimed (a craft hit is not
    # routine).
    flying_shots = np.ones(d.shot_id.shape[0], dtype=bool)
    rock_by = None
    if d.shot_id.shape[0]:
        finite = np.isfinite(d.shot_vel).all(axis=1) & np.isfinite(d.shot_pos).all(axis=1)
        other |= any_per_game(~finite, shot_game, lanes)  # the query reports NaN: one game
        if p.wrap_shots and not obstacles:
            may, near_s, near_r = _shots_may_hit(d, p, shot_game, ast_game, lanes)
            may &= ~other
            struck = np.zeros(d.shot_id.shape[0], dtype=bool)
            if may.any():
                rows, rock, t, craft_hit = _shots_hit(d, p, may, shot_game, (near_s, near_r),
                                                      ship_shape, saucer_shape)
                other |= craft_hit
                struck[rows] = True
                rock_by = claims(d, rows, rock, t, d.ast_id.shape[0])
            d.shot_pos = wrap_positions(d.shot_pos + d.shot_vel, p.size)
            d.shot_ttl = d.shot_ttl - 1
            flying_shots = (d.shot_ttl > 0) & ~struck
        else:
            # Walls or obstacles turn shots: the sweep's own query, walls and ricochets over
            # every game's rows (``sweep.shot_hits``); a craft hit is not routine.
            hits = sweep_rows(d, p, ~other, shot_game,
                              {Kind.SHIP: ship_present(d), Kind.SAUCER: d.saucer_alive},
                              {Kind.SHIP: ship_shape, Kind.SAUCER: saucer_shape},
                              {Kind.SHIP: (d.ship_vx, d.ship_vy),
                               Kind.SAUCER: (d.saucer_vx, d.saucer_vy)})
            kind = hits.kind
            other |= any_per_game((kind != Hit.NONE) & (kind != Hit.ROCK) &
                                  (kind != Hit.OBSTACLE), shot_game, lanes)
            rows = (kind == Hit.ROCK).nonzero()[0]
            rock_by = claims(d, rows, hits.index[rows], hits.t[rows], d.ast_id.shape[0])
            flying_shots = (d.shot_ttl > 0) & (kind == Hit.NONE)
    # 4. motion: the rules' own texts over every game's rows (``motion``).
    if d.ast_id.shape[0]:
        move_rocks(d, p)
    move_craft(MANY, d, p)
    if obstacles:
        bounce_off_obstacles(d, p, MANY)
    if p.ast_collide and d.ast_id.shape[0] > 1:
        collide_asteroids(d, p, MANY)
    # 5. contacts: a craft touching a rock (or the shield near one), or the two craft
    # touching, is not routine.
    ship = ship_present(d)
    shielded = ship & d.shield_on
    if shielded.any():
        near = near_rocks(d, p, shielded, d.ship_x, d.ship_y, p.shield_radius, ast_game)
        other[ast_game[near]] = True
    other |= craft_meets_rocks(d, p, ship & ~d.shield_on, d.ship_x, d.ship_y, p.ship_radius,
                               ship_shape, ast_game, lanes)
    large, small = p.saucer_radius
    other |= craft_meets_rocks(d, p, d.saucer_alive, d.saucer_x, d.saucer_y,
                               np.where(d.saucer_small, small, large), saucer_shape, ast_game,
                               lanes)
    other |= crafts_meet(d, p, ship, ship_shape, saucer_shape)
    # 6. resolve: the rocks claimed break, score and split (each game's draws from its own
    # stream); an extra life due is not routine.
    if rock_by is not None and (rock_by >= 0).any():
        break_rocks(d, p, rock_by, ast_game, other, log)
        ast_counts = d.ast_rows[1:] - d.ast_rows[:-1]
        ast_game = row_games(d.ast_rows)
    if p.extra_life_every > 0 and (d.score >= d.next_extra_life).any():
        granted = extra_lives(MANY, d, p)
        log.emit(EventKind.EXTRA_LIFE, granted > 0, i0=d.lives, i1=granted)
    # 7. timers: a ship coming back (``ship.update_ship_timers``), a wave cleared or
    # starting (``waves.run_waves``), the heartbeat.
    ship_timers_many(d, p, ast_game, log)
    between = wave_clock(MANY, d)
    cleared = wave_cleared(MANY, d, p, between, ast_counts)
    log.emit(EventKind.WAVE_CLEARED, cleared, i0=d.wave)
    started = (between | cleared) & (d.wave_timer <= 0)
    if started.any():
        other |= start_waves_many(d, p, started, log)
        ast_game = row_games(d.ast_rows)
    sizes = np.bincount(ast_game * 3 + d.ast_size, minlength=3 * lanes).reshape(lanes, 3)
    beat, tone, interval = heartbeat_clock(
        MANY, d, p, rocks_weight(sizes[:, 0], sizes[:, 1], sizes[:, 2]), started)
    log.emit(EventKind.HEARTBEAT, beat, i0=tone, i1=interval)
    d.tick = d.tick + 1
    d.since_break = d.since_break + 1
    return d.__dict__, flying_shots, other, log

