"""The heartbeat: its first beat, quickening with time and as the wave's rocks dwindle, its
floor, and its silence while the ship is gone, between waves and after game over."""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, step
from asteroids.core.params import params_for
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_HYPERSPACE,
    SHOOTER_SHIP,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, with_shots, world_with
from tests.core.worlds import run as run_inputs


def run(world, cfg, n):
    """Step ``n`` ticks with no input (``cfg`` compiled once); return the last world and
    each step's events."""
    per_step = []
    p = params_for(cfg)
    for _ in range(n):
        world, events = step(world, 0, p)
        per_step.append(events)
    return world, per_step


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


# A round rock at (300, y) and a shot that reaches its edge (x = 292) on the first tick.
def _target(size: int, y: float = 200.0, cfg: Config = CFG):
    return rock(size, 300.0, y, round_radius=8.0, cfg=cfg)


def _shot(y: float = 200.0, owner: int = SHOOTER_SHIP):
    return (owner, 285.0, y, 10.0, 0.0, 30)


def _clear_last_rock(cfg: Config = CFG, **fields):
    """A world whose last rock (small: no fragments) a shot breaks on the next tick."""
    return with_shots(world_with(cfg, [_target(2, cfg=cfg)], **fields), [_shot()])


def _still(*sizes: int):
    """Motionless rocks well away from the ship (so the count stays put)."""
    return [rock(s, 100.0 + 150.0 * i, 100.0, round_radius=10.0) for i, s in enumerate(sizes)]


def _beats(per_step):
    """(step number from 1, tone, interval) of every beat."""
    return [(i + 1, b.tone, b.interval_ticks) for i, events in enumerate(per_step)
            for b in of(events, ev.Heartbeat)]


def test_first_beats_come_at_beat_start_then_quicken() -> None:
    # First beat on tick 46 (beat_start_ticks); one step off the interval every 61 ticks
    # (at 61 and 122), so the next beats are 45 and then 44 ticks apart.
    assert (P.game_heartbeat_start_interval_ticks, P.game_heartbeat_quicken_every_ticks,
            P.game_heartbeat_quicken_step_ticks) == (46, 61, 1)
    w = world_with(CFG, _still(0, 0, 0, 0))
    _, per_step = run(w, CFG, 181)
    assert _beats(per_step) == [(46, 0, 46), (92, 1, 45), (137, 0, 44), (181, 1, 44)]


def test_beat_interval_shrinks_exactly_every_beat_quicken_ticks() -> None:
    w = world_with(CFG, _still(0))
    w, _ = run(w, CFG, P.game_heartbeat_quicken_every_ticks - 1)
    assert w.beat_interval == P.game_heartbeat_start_interval_ticks and w.beat_quicken_timer == 1
    w, _ = step(w, 0, CFG)
    assert w.beat_interval == (P.game_heartbeat_start_interval_ticks
                               - P.game_heartbeat_quicken_step_ticks)
    assert w.beat_quicken_timer == P.game_heartbeat_quicken_every_ticks


@pytest.mark.parametrize("before,after", [(11, 9), (10, 8), (9, 8), (8, 8)])
def test_beat_interval_never_below_beat_min(before: int, after: int) -> None:
    # Step of 2 ticks: min + step (10) lands exactly on min 8, min + step - 1 (9) is floored.
    cfg = quiet_with(game={"heartbeat": {"quicken_step_s": 2 / 60}})
    assert (params_for(cfg).game_heartbeat_quicken_step_ticks,
            params_for(cfg).game_heartbeat_min_interval_ticks) == (2, 8)
    w = world_with(cfg, _still(0), beat_interval=before, beat_quicken_timer=1)
    world, _ = step(w, 0, cfg)
    assert world.beat_interval == after


@pytest.mark.parametrize("sizes,interval", [
    ((0, 0, 0, 0), 46),  # all four large left: 8 + 38 * 28 // 28
    ((0,), 17),  # 8 + 38 * 7 // 28
    ((1,), 12),  # 8 + 38 * 3 // 28
    ((2,), 9),  # 8 + 38 * 1 // 28
    ((0, 1, 2), 22),  # 8 + 38 * 11 // 28
    ((1, 1, 2), 17),  # two medium and a small weigh one large: 3 + 3 + 1 = 7
])
def test_beat_by_count_weighs_large_7_medium_3_small_1(sizes, interval: int) -> None:
    w = world_with(CFG, _still(*sizes), wave_weight=28, beat_timer=1)
    world, events = step(w, 0, CFG)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [interval]
    assert world.beat_timer == interval


def test_beat_never_faster_than_min_when_start_is_faster() -> None:
    # A start interval (6) below the minimum (12): the minimum still rules.
    cfg = quiet_with(game={"heartbeat": {"start_interval_s": 0.1, "min_interval_s": 0.2}})
    assert (params_for(cfg).game_heartbeat_start_interval_ticks,
            params_for(cfg).game_heartbeat_min_interval_ticks) == (6, 12)
    w = world_with(cfg, _still(0), beat_timer=1)
    _, events = step(w, 0, cfg)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [12]


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 30},
    {"game_over": True},
])
def test_heartbeat_silent_while_ship_gone_or_game_over(fields) -> None:
    w = world_with(CFG, _still(0), beat_timer=1, beat_quicken_timer=1, **fields)
    world, events = step(w, 0, CFG)
    assert not of(events, ev.Heartbeat)
    assert world.beat_timer == 1 and world.beat_quicken_timer == 1  # the clock is stopped
    assert world.beat_interval == P.game_heartbeat_start_interval_ticks


def test_heartbeat_beats_with_ship_flying() -> None:
    # The counterpart of the silent cases: the same world with the ship in play beats.
    w = world_with(CFG, _still(0), beat_timer=1, beat_quicken_timer=1)
    world, events = step(w, 0, CFG)
    quicker = P.game_heartbeat_start_interval_ticks - P.game_heartbeat_quicken_step_ticks
    assert of(events, ev.Heartbeat) == [ev.Heartbeat(0, quicker)]
    assert world.beat_tone == 1
    assert world.beat_interval == quicker


def test_heartbeat_silent_between_waves() -> None:
    w = world_with(CFG, [], wave_timer=5, beat_timer=1)
    world, events = step(w, 0, CFG)
    assert not of(events, ev.Heartbeat) and world.beat_timer == 1
    assert world.wave_timer == 4


def test_first_beat_of_a_later_wave_comes_as_late_as_the_first_waves() -> None:
    # The heartbeat starts counting on the tick after a wave starts, as it does for the
    # first wave (which starts before the first step): its first beat comes
    # beat_start_ticks steps after the wave started, in every wave.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    w, events = step(_clear_last_rock(cfg, beat_interval=20, beat_timer=3,
                                      beat_quicken_timer=7, beat_tone=1), 0, cfg)
    assert of(events, ev.WaveStarted) and not of(events, ev.Heartbeat)
    assert (w.beat_interval, w.beat_timer) == (P.game_heartbeat_start_interval_ticks,
                                               P.game_heartbeat_start_interval_ticks)
    assert w.beat_quicken_timer == P.game_heartbeat_quicken_every_ticks
    _, per_step = run(w, cfg, P.game_heartbeat_start_interval_ticks)
    assert _beats(per_step) == [(P.game_heartbeat_start_interval_ticks, 1,
                                 P.game_heartbeat_start_interval_ticks)]
    _, first_wave = run(new_world(cfg, 3), cfg, P.game_heartbeat_start_interval_ticks)
    assert [b[0] for b in _beats(first_wave)] == [P.game_heartbeat_start_interval_ticks]


def test_heartbeat_quickens_and_alternates() -> None:
    w = new_world(CFG, 3)
    _, events = run_inputs(w, CFG, [0] * 2400)
    beats = of(events, ev.Heartbeat)
    assert [b.tone for b in beats[:4]] == [0, 1, 0, 1]
    intervals = [b.interval_ticks for b in beats]
    assert intervals[0] == P.game_heartbeat_start_interval_ticks
    assert all(b <= a for a, b in zip(intervals, intervals[1:], strict=False))
    assert intervals[-1] < intervals[0]


def test_heartbeat_quickens_as_rocks_dwindle() -> None:
    full = world_with(CFG, [rock(0, 100.0 + 150 * i, 100.0, round_radius=10.0)
                            for i in range(4)])
    few = world_with(CFG, [rock(2, 100.0, 100.0, round_radius=5.0)], wave_weight=28)
    first_full = of(run_inputs(full, CFG, [0] * 200)[1], ev.Heartbeat)[1].interval_ticks
    first_few = of(run_inputs(few, CFG, [0] * 200)[1], ev.Heartbeat)[1].interval_ticks
    assert first_few < first_full
