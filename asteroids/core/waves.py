"""Waves and the heartbeat (phase 7 of a tick, with the ship's timers): a cleared wave starts a
pause, then the next, bigger wave; the two-tone thump quickens through a wave.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core import events as ev
from asteroids.core.kinds import FLYING, ShipState
from asteroids.core.lanes import ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.spawn import append_rocks, spawn_wave, wave_size
from asteroids.core.world import Draft

__all__ = ["heartbeat", "heartbeat_clock", "rocks_weight", "run_waves", "start_wave", "wave_clock",
           "wave_cleared"]


def start_wave(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
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
    d.wave_timer = L.where(cleared, p.wave_delay_ticks, d.wave_timer)
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


def heartbeat_clock(L: Lanes, d: Draft | BatchDraft, p: Params,
                    weight: Any) -> tuple[Any, Any, Any]:
    """The heartbeat's timers, given the ``weight`` of the rocks left (``rocks_weight``):
    (where a beat sounds, its tone, its interval). Shared by both drivers; see
    ``heartbeat``."""
    on = (d.game_over ^ True) & (d.wave_timer < 0) & (d.ship_state == FLYING)
    if not (L.many or on):
        return False, 0, 0
    left = d.beat_quicken_timer - 1
    quicken = on & (left <= 0)
    d.beat_quicken_timer = L.where(quicken, p.beat_quicken_ticks,
                                   L.where(on, left, d.beat_quicken_timer))
    d.beat_interval = L.where(
        quicken, L.maximum(p.beat_min_ticks, d.beat_interval - p.beat_step_ticks),
        d.beat_interval)
    span = p.beat_start_ticks - p.beat_min_ticks
    by_count = p.beat_min_ticks + span * L.minimum(weight, d.wave_weight) // d.wave_weight
    interval = L.maximum(p.beat_min_ticks, L.minimum(d.beat_interval, by_count))
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
