"""The batched tick: every game of a batch in one pass over its columns, by the shared rule
texts.

A tick does the same things in every game: the ship turns, thrusts, drifts, fires and jumps;
the saucer comes, zig-zags, fires and leaves (each game drawing from its own PCG32 stream);
shots fly, ricochet and break what they hit, which scores and splits; rocks and craft move,
bounce off the obstacles and each other, and meet the craft; ships are lost and come back;
waves end and start; the clocks run. The batched pass runs the rules' shared texts for all
of it (``asteroids.core.lanes``: ``read_buttons``, ``fly``, ``trigger``, ``saucer_clock``,
``saucer_arrives``, ``move_rocks``, ``move_craft``, ``ship_clock``, ``heartbeat_clock``,
``split_rocks`` ...) over ``(B,)`` arrays and packed rows, for every game: no game is handed
to the one-game ``step`` (``step_batch(..., reference=True)`` does that, for every game, as
the identity tests' reference). Each game's next World is the one-game ``step``'s
(tests/core/test_batch_identity.py, test_batch_tick.py and test_batch_arena.py, every game
after every tick).

Two things once left to the one-game ``step`` are settled here: a game that needs more
draws in one tick than one jump table holds (a crowded wave, many fragments) draws in rounds
of a table (``Pcg32Batch``), the same stream; a shot with a NaN or infinite position or
velocity is refused (``refuse_broken_shots``, a ``ValueError`` naming the game). No game
reaches such a shot from ``new_world`` under validated rules (shots start at a craft inside
the world, at the craft's capped speed plus the shot's; positions stay wrapped or folded
into the world); only a World built by hand holds one, and ``batch.pack`` refuses it where
it enters a batch. (The one-game ``step``'s query refuses such a shot too when it is asked
about it; when nothing is in its reach the NaN is carried on into a World that
``state_hash`` refuses.)

Nothing here restates a rule: each phase calls the rules' own texts, the ones the one-game
``step`` runs, and where a phase gathers every game's rows that gathering sits beside the
rule (``reach.shots_may_hit_rows``, ``sweep_rows``, ``touch_rows``, ``resolve_rows``; each
kind of craft as ``bodies.CRAFT_ROWS`` shows it, the contacts pair by pair as
``bodies.CONTACTS`` lists them).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from asteroids.core.batch_rows import append_shots, row_games
from asteroids.core.bodies import CRAFT_ROWS, ENEMIES
from asteroids.core.claims import craft_claims, rock_claims
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.kinds import BY_SAUCER, BY_SHIP, Hit, Kind
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.motion import bounce_off_obstacles, collide_asteroids, move_craft, move_rocks
from asteroids.core.params import Params
from asteroids.core.reach import shots_may_hit_rows
from asteroids.core.resolve import extra_lives
from asteroids.core.resolve_rows import break_rocks
from asteroids.core.rng import Pcg32Batch
from asteroids.core.saucer import destroy_saucers, saucer_turn
from asteroids.core.ship import (
    fly,
    jump_many,
    lose_ships,
    read_buttons,
    ship_timers_many,
    shot_from_nose,
    trigger,
)
from asteroids.core.sweep import still_flying
from asteroids.core.sweep_rows import sweep_rows
from asteroids.core.touch_rows import contact_claims
from asteroids.core.waves import (
    heartbeat_clock,
    rocks_weight,
    start_waves_many,
    wave_cleared,
    wave_clock,
)

__all__ = ["refuse_broken_shots", "routine_tick"]


def refuse_broken_shots(columns: Mapping[str, np.ndarray]) -> None:
    """Raise ``ValueError`` naming the first game with a shot whose position or velocity is
    NaN or infinite (``columns``: ``shot_pos``, ``shot_vel``, ``shot_rows``). No game comes
    to one from ``new_world`` under validated rules (see the module's docstring)."""
    pos, vel = columns["shot_pos"], columns["shot_vel"]
    if pos.shape[0] and not (np.isfinite(pos).all() and np.isfinite(vel).all()):
        bad = ~(np.isfinite(pos).all(axis=1) & np.isfinite(vel).all(axis=1))
        row = int(bad.nonzero()[0][0])
        game = int(np.searchsorted(columns["shot_rows"], row, side="right")) - 1
        raise ValueError(f"game {game}: a shot with a NaN or infinite position or velocity "
                         f"({pos[row].tolist()}, {vel[row].tolist()})")


def _live_shots(d: BatchDraft, owner: int, lanes: int) -> np.ndarray:
    """(B,) each game's shots of ``owner`` in flight."""
    return np.bincount(row_games(d.shot_rows)[d.shot_owner == owner], minlength=lanes)


def routine_tick(columns: Mapping[str, np.ndarray], masks: np.ndarray, p: Params
                 ) -> tuple[dict[str, np.ndarray], np.ndarray, EventLog]:
    """One tick of every game by the shared rule texts.

    Args:
        columns: the batch's columns (every World field, ``ast_rows``, ``shot_rows``).
        masks: (B,) int64 input masks.
        p: the batch's rules.

    Returns:
        (the next columns; (K,) which of their shot rows still fly; the events).

    Raises:
        ValueError: a game holds a shot with a NaN or infinite position or velocity.
    """
    refuse_broken_shots(columns)
    d = BatchDraft(columns)
    log = EventLog()
    lanes = masks.shape[0]
    ast_counts = d.ast_rows[1:] - d.ast_rows[:-1]
    ast_game = row_games(d.ast_rows)
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
             f=d.shield_energy / p.ship_shield_energy_ticks)
    fly(MANY, d, p, masks, b)
    b = jump_many(d, p, b, ast_counts, log)
    fire = trigger(MANY, d, p, b) & (_live_shots(d, BY_SHIP, lanes) < p.shots_max_alive)
    x, y, vx, vy = shot_from_nose(MANY, d, p)
    append_shots(d, fire, BY_SHIP, x, y, vx, vy, p.shots_lifetime_ticks)
    log.emit(EventKind.SHOT_FIRED, fire, i0=BY_SHIP, x=x, y=y)
    # 2. the saucer (``saucer.saucer_turn``, as ``update_saucer`` runs it for one game),
    # with each game's own stream of chance.
    if p.saucers_enabled:
        rng = Pcg32Batch(d.rng_state, d.rng_inc)
        turn = saucer_turn(MANY, d, p, rng, ast_counts,
                           lambda: _live_shots(d, BY_SAUCER, lanes))
        log.emit(EventKind.SAUCER_SPAWNED, turn.arrived, i0=d.saucer_small, x=d.saucer_x,
                 y=d.saucer_y)
        log.emit(EventKind.SAUCER_LEFT, turn.left, i0=d.saucer_small)
        if turn.shot is not None:
            x, y, vx, vy = turn.shot
            append_shots(d, turn.fired, BY_SAUCER, x, y, vx, vy, p.saucers_shot_lifetime_ticks)
            log.emit(EventKind.SHOT_FIRED, turn.fired, i0=BY_SAUCER, x=x, y=y)
        d.rng_state = rng.state
    # ... and every declared enemy (``Enemy.act``), after the saucer's draws.
    if ENEMIES:
        rng = Pcg32Batch(d.rng_state, d.rng_inc)
        for enemy in ENEMIES:
            arrived, left = enemy.act(MANY, d, p, rng)
            if np.any(arrived):
                shown = enemy.rows(d, p)
                log.emit(EventKind.CRAFT_SPAWNED, np.broadcast_to(arrived, (lanes,)),
                         i0=enemy.kind, x=shown.x, y=shown.y)
            if np.any(left):
                log.emit(EventKind.CRAFT_LEFT, np.broadcast_to(left, (lanes,)), i0=enemy.kind)
        d.rng_state = rng.state
    shot_game = row_games(d.shot_rows)

    # 3. the shot sweep (``sweep.sweep_shots``): in a wrapping world without obstacles only
    # the games where the reach check finds something in reach are asked, of their rocks
    # only the pairs in reach (``reach.shots_may_hit_rows``); the sweep's own query, walls
    # and ricochets over every game's rows (``sweep_rows``, ``sweep.shot_hits``); the rocks
    # and craft hit are claimed (``claims.rock_claims``, ``claims.craft_claims``: the texts
    # the one-game sweep asks too).
    flying_shots = np.ones(d.shot_id.shape[0], dtype=bool)
    rock_by = craft_by = None
    if d.shot_id.shape[0]:
        crafts = {kind: rows(d, p) for kind, rows in CRAFT_ROWS.items()}
        asked, near = np.ones(lanes, dtype=bool), None
        if p.wrap_shots and not obstacles:
            may, near = shots_may_hit_rows(d, p, shot_game, ast_game, crafts, lanes)
            asked &= may
        hits = sweep_rows(d, p, asked, shot_game, crafts, near)
        kind = hits.kind
        craft_by = craft_claims(d.shot_owner, kind, hits.t, shot_game,
                                {k: shown.shield for k, shown in crafts.items()}, lanes)
        rows = (kind == Hit.ROCK).nonzero()[0]
        rock_by = rock_claims(d.shot_owner, rows, hits.index[rows], hits.t[rows],
                              d.ast_id.shape[0])
        flying_shots = still_flying(d.shot_ttl, kind)
    # 4. motion: the rules' own texts over every game's rows (``motion``).
    if d.ast_id.shape[0]:
        move_rocks(d, p)
    move_craft(MANY, d, p)
    for enemy in ENEMIES:
        enemy.move(MANY, d, p)
    if obstacles:
        bounce_off_obstacles(d, p, MANY)
    if p.asteroids_collide and d.ast_id.shape[0] > 1:
        collide_asteroids(d, p, MANY)
    # 5. contacts (``touch.touch``), pair by pair as ``CONTACTS`` lists them: a craft
    # against the lowest unclaimed rock it overlaps, or against the other craft, claimed as
    # one game's frame claims them, a shield bouncing the rocks it touches
    # (``touch_rows.contact_claims``).
    if rock_by is None:
        rock_by = np.full(d.ast_id.shape[0], -1, dtype=np.int64)
    if craft_by is None:
        craft_by = {kind: np.full(lanes, -1, dtype=np.int64) for kind in CRAFT_ROWS}
    crafts = {kind: rows(d, p) for kind, rows in CRAFT_ROWS.items()}
    contact_claims(d, p, crafts, rock_by, craft_by, ast_game, lanes)
    # 6. resolve (``resolve.resolve``): the rocks claimed break, score and split (each
    # game's draws from its own stream), a saucer claimed breaks and scores, extra ships are
    # earned, a ship claimed is lost.
    if (rock_by >= 0).any():
        break_rocks(d, p, rock_by, ast_game, lanes, log)
        ast_counts = d.ast_rows[1:] - d.ast_rows[:-1]
        ast_game = row_games(d.ast_rows)
    destroy_saucers(d, p, craft_by[Kind.SAUCER], log)
    for enemy in ENEMIES:
        by = craft_by[enemy.kind]
        shown = enemy.rows(d, p)
        when = (by >= 0) & shown.present
        if when.any():
            points = enemy.destroy(MANY, d, p, when, by, ~d.game_over)
            log.emit(EventKind.CRAFT_DESTROYED, when, i0=enemy.kind, i2=by, i3=points,
                     x=shown.x, y=shown.y)
    if p.scoring_extra_life_every > 0 and (d.score >= d.next_extra_life).any():
        granted = extra_lives(MANY, d, p)
        log.emit(EventKind.EXTRA_LIFE, granted > 0, i0=d.lives, i1=granted)
    if (craft_by[Kind.SHIP] >= 0).any():
        lose_ships(d, p, craft_by[Kind.SHIP] >= 0, craft_by[Kind.SHIP], log)
    # 7. timers: a ship coming back (``ship.update_ship_timers``), a wave cleared or
    # starting (``waves.run_waves``), the heartbeat.
    ship_timers_many(d, p, ast_game, log)
    between = wave_clock(MANY, d)
    cleared = wave_cleared(MANY, d, p, between, ast_counts)
    log.emit(EventKind.WAVE_CLEARED, cleared, i0=d.wave)
    started = (between | cleared) & (d.wave_timer <= 0)
    if started.any():
        start_waves_many(d, p, started, log)
        ast_game = row_games(d.ast_rows)
    sizes = np.bincount(ast_game * 3 + d.ast_size, minlength=3 * lanes).reshape(lanes, 3)
    beat, tone, interval = heartbeat_clock(
        MANY, d, p, rocks_weight(sizes[:, 0], sizes[:, 1], sizes[:, 2]), started)
    log.emit(EventKind.HEARTBEAT, beat, i0=tone, i1=interval)
    d.tick = d.tick + 1
    d.since_break = d.since_break + 1
    return d.__dict__, flying_shots, log

