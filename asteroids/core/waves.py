"""Waves and the heartbeat (phase 7 of a tick, with the ship's timers): a cleared wave starts a
pause, then the next, bigger wave; the two-tone thump quickens through a wave.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core import events as ev
from asteroids.core.batch_rows import rebuild_rocks, row_games, segments, xy_rows
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.kinds import FLYING, ShipState
from asteroids.core.lanes import MANY, ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import DrawQueue, Pcg32, Pcg32Batch
from asteroids.core.spawn import (
    append_rocks,
    draws_per_rock,
    place_draws,
    spawn_wave,
    wave_places,
    wave_rocks,
    wave_size,
)
from asteroids.core.world import Draft

__all__ = ["begin_wave", "heartbeat", "heartbeat_clock", "rocks_weight", "run_waves", "start_wave",
           "start_waves_many", "wave_clock", "wave_cleared"]


def start_wave(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    """The next wave: its clocks (``begin_wave``), then its rocks on the edges."""
    count = begin_wave(ONE, d, p, True)
    append_rocks(d, spawn_wave(d, p, rng, count))
    events.append(ev.WaveStarted(d.wave, count))


def begin_wave(L: Lanes, d: Draft | BatchDraft, p: Params, when: Any) -> Any:
    """Where ``when``, the next wave begins: its number, the pause over, its weight, the
    saucer's and the heartbeat's clocks from the start (and a full shield when it refills).
    Returns its large rocks (``wave_size``; each driver then spawns them: ``spawn``).
    Shared by both drivers."""
    d.wave = L.where(when, d.wave + 1, d.wave)
    count = wave_size(p, d.wave, L)
    d.wave_timer = L.where(when, -1, d.wave_timer)
    d.wave_weight = L.where(when, L.maximum(1, 7 * count), d.wave_weight)
    d.saucer_interval = L.where(when, p.saucers_first_interval_ticks, d.saucer_interval)
    d.saucer_timer = L.where(when, p.saucers_first_interval_ticks, d.saucer_timer)
    d.beat_interval = L.where(when, p.game_heartbeat_start_interval_ticks, d.beat_interval)
    d.beat_timer = L.where(when, p.game_heartbeat_start_interval_ticks, d.beat_timer)
    d.beat_quicken_timer = L.where(when, p.game_heartbeat_quicken_every_ticks, d.beat_quicken_timer)
    if p.ship_shield_refill_per_wave:
        d.shield_energy = L.where(when, p.ship_shield_energy_ticks, d.shield_energy)
    return count


def wave_clock(L: Lanes, d: Draft | BatchDraft) -> Any:
    """Count down the pause between waves; True where a pause is running (shared by both
    drivers)."""
    between = d.wave_timer >= 0
    d.wave_timer = L.where(between, d.wave_timer - 1, d.wave_timer)
    return between


def wave_cleared(L: Lanes, d: Draft | BatchDraft, p: Params, between: Any, rocks: Any) -> Any:
    """Where no pause runs (``between``: ``wave_clock``'s) and no rock is left (``rocks``),
    the wave is cleared and its pause starts; returns where (shared by both drivers)."""
    cleared = (between ^ True) & (rocks == 0)
    d.wave_timer = L.where(cleared, p.game_next_wave_delay_ticks, d.wave_timer)
    return cleared


def run_waves(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> bool:
    """A cleared wave starts a pause; after it the next, bigger wave comes. True when a wave
    started this tick."""
    between = wave_clock(ONE, d)
    if wave_cleared(ONE, d, p, between, d.ast_id.shape[0]):
        events.append(ev.WaveCleared(d.wave))
    elif not between:
        return False
    if d.wave_timer <= 0:
        start_wave(d, p, rng, events)
        return True
    return False


def rocks_weight(large: Any, medium: Any, small: Any) -> Any:
    """Hits it takes to clear these rocks (a large one takes 7: itself, two medium and four
    small): the heartbeat's measure of what is left of a wave."""
    return large * 7 + medium * 3 + small


def heartbeat_clock(L: Lanes, d: Draft | BatchDraft, p: Params, weight: Any,
                    started: Any = False) -> tuple[Any, Any, Any]:
    """The heartbeat's timers, given the ``weight`` of the rocks left (``rocks_weight``):
    (where a beat sounds, its tone, its interval); silent where a wave ``started`` this
    tick (its first beat counts from the next). Shared by both drivers; see
    ``heartbeat``."""
    on = (d.game_over ^ True) & (d.wave_timer < 0) & (d.ship_state == FLYING) & (
        started ^ True)
    if not (L.many or on):
        return False, 0, 0
    left = d.beat_quicken_timer - 1
    quicken = on & (left <= 0)
    d.beat_quicken_timer = L.where(quicken, p.game_heartbeat_quicken_every_ticks,
                                   L.where(on, left, d.beat_quicken_timer))
    d.beat_interval = L.where(
        quicken, L.maximum(p.game_heartbeat_min_interval_ticks,
                           d.beat_interval - p.game_heartbeat_quicken_step_ticks),
        d.beat_interval)
    span = p.game_heartbeat_start_interval_ticks - p.game_heartbeat_min_interval_ticks
    by_count = (p.game_heartbeat_min_interval_ticks
                + span * L.minimum(weight, d.wave_weight) // d.wave_weight)
    interval = L.maximum(p.game_heartbeat_min_interval_ticks, L.minimum(d.beat_interval, by_count))
    timer = d.beat_timer - 1
    beat = on & (timer <= 0)
    tone = d.beat_tone
    d.beat_tone = L.where(beat, tone ^ 1, tone)
    d.beat_timer = L.where(beat, interval, L.where(on, timer, d.beat_timer))
    return beat, tone, interval


def heartbeat(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """The thump quickens with time into the wave and as the wave's rocks dwindle.

    The interval is the shorter of the 1979 rule (one step shorter every
    ``beat_quicken_ticks``) and a share of the start interval proportional to the hits the
    wave still needs. Silent while the ship is gone, between waves and after game over.
    """
    if d.game_over or d.wave_timer >= 0 or d.ship_state != ShipState.FLYING:
        return
    large, medium, small = np.bincount(d.ast_size, minlength=3).tolist()
    beat, tone, interval = heartbeat_clock(ONE, d, p, rocks_weight(large, medium, small))
    if beat:
        events.append(ev.Heartbeat(tone, interval))


def start_waves_many(d: BatchDraft, p: Params, when: np.ndarray, log: EventLog) -> None:
    """``start_wave`` for every game of a batch where ``when``: ``begin_wave``, then each
    game's rocks placed and made from its own stream (``wave_places`` reads the draws a
    game may need, ``Pcg32Batch.ahead``, beyond one jump table in rounds; the stream moves
    past those it used, then past the speeds, signs and outlines, drawn for all games at
    once as a ``DrawQueue``), appended after the game's rocks, and ``WaveStarted``."""
    lanes = when.shape[0]
    count = np.where(when, begin_wave(MANY, d, p, when), 0)
    log.emit(EventKind.WAVE_STARTED, when, i0=d.wave, i1=count)
    games = when.nonzero()[0]
    if games.shape[0] == 0:
        return
    rocks = count[games]
    rng = Pcg32Batch(d.rng_state, d.rng_inc)
    ship = xy_rows(d.ship_x[games], d.ship_y[games])
    tried = rng.ahead(games[:, None], np.arange(place_draws(int(rocks.max())))[None, :])
    places, used = wave_places(p, tried, ship, rocks)
    rest = rocks * (4 + draws_per_rock(p))
    game, rank = segments(rest)
    run = rng.ahead(games[game], used[game] + rank)
    moved = np.zeros(lanes, dtype=np.int64)
    moved[games] = used + rest
    rng.skip(moved)
    d.rng_state = rng.state
    speeds = rank < 2 * rocks[game]
    signs = ~speeds & (rank < 4 * rocks[game])
    kids = wave_rocks(DrawQueue([run[speeds], run[signs], run[rank >= 4 * rocks[game]]]), p,
                      places, ship.repeat(rocks, axis=0))
    added = np.zeros(lanes, dtype=np.int64)
    added[games] = rocks
    rebuild_rocks(d, np.ones(d.ast_id.shape[0], dtype=bool), row_games(d.ast_rows), kids,
                  games.repeat(rocks), added, lanes)
