"""Waves and the heartbeat (phase 7 of a tick, with the ship's timers): a cleared wave starts a
pause, then the next, bigger wave; the two-tone thump quickens through a wave.
"""

from __future__ import annotations

import numpy as np

from asteroids.core import events as ev
from asteroids.core.kinds import ShipState
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.spawn import append_rocks, spawn_wave, wave_size
from asteroids.core.world import Draft

__all__ = ["heartbeat", "run_waves", "start_wave"]


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


def run_waves(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> bool:
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
        start_wave(d, p, rng, events)
        return True
    return False


def heartbeat(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """The thump quickens with time into the wave and as the wave's rocks dwindle.

    The interval is the shorter of the 1979 rule (one step shorter every
    ``beat_quicken_ticks``) and a share of the start interval proportional to the hits the
    wave still needs. Silent while the ship is gone, between waves and after game over.
    """
    if d.game_over or d.wave_timer >= 0 or d.ship_state != ShipState.FLYING:
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
