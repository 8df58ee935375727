"""Flying the ship: firing (the shot cap, the press, autofire), turning, thrust, drag, the
speed limit and its outline."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.schema import Config
from asteroids.core import InputFrame, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.ship import START_HEADING, ship_outline
from asteroids.core.tables import COS, HEADING_STEPS, SHIP_OUTLINE, SIN
from asteroids.core.world import SHOOTER_SAUCER, SHOOTER_SHIP
from tests.core.worlds import (
    CFG,
    FIRE,
    LEFT,
    RIGHT,
    THRUST,
    P,
    config_with,
    of,
    quiet,
    rock,
    with_shots,
    world_with,
)
from tests.core.worlds import run as run_inputs

CX, CY = 0.5 * P.width, 0.5 * P.height


def far_rock(cfg: Config = CFG):
    """A still rock far from the centre and from the ship's line of fire (keeps the wave on)."""
    return rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def run(world, cfg, inputs):
    """Step through ``inputs``; return the last world and one event tuple per tick."""
    ticks = []
    for mask in inputs:
        world, events = step(world, mask, cfg)
        ticks.append(events)
    return world, ticks


def fired_ticks(ticks) -> list[int]:
    return [i for i, events in enumerate(ticks) if of(events, ev.ShotFired)]


def ship_shots(world) -> int:
    return int((world.shot_owner == SHOOTER_SHIP).sum())


def _world_with_live_shots(ship: int, saucer: int = 0):
    # Slow shots parked along the bottom, away from the rock, the ship and its line of fire.
    shots = [(SHOOTER_SHIP, 200.0 + 40.0 * i, 600.0, 1.0, 0.0, 50) for i in range(ship)]
    shots += [(SHOOTER_SAUCER, 200.0 + 40.0 * i, 650.0, 1.0, 0.0, 50) for i in range(saucer)]
    return with_shots(world_with(CFG, [far_rock()]), shots)


# Top speed 300 px/s at 60 Hz is 5 px/tick; no drag, so coasting keeps the velocity exactly.
ROUND = quiet_with(ship={"max_speed_px_per_s": 300.0, "drag_per_s": 0.0})
AXIS = quiet_with(ship={"max_speed_px_per_s": 300.0, "drag_per_s": 0.0, "speed_limit": "axis"})


def _coast(cfg: Config, vx: float, vy: float) -> tuple[float, float]:
    assert params_for(cfg).ship_max_speed_px_per_tick == 5.0 and params_for(cfg).drag_keep == 1.0
    world, _ = step(world_with(cfg, [far_rock(cfg)], ship_vx=vx, ship_vy=vy), 0, cfg)
    return world.ship_vx, world.ship_vy


def test_ship_shot_cap_one_below_fires() -> None:
    w = _world_with_live_shots(P.shots_max_alive - 1)
    world, events = step(w, FIRE, CFG)
    assert of(events, ev.ShotFired) == [ev.ShotFired("ship", CX, CY + 0.5 * P.ship_length_px)]
    assert ship_shots(world) == P.shots_max_alive


def test_ship_shot_cap_reached_exactly() -> None:
    w = _world_with_live_shots(P.shots_max_alive)
    world, events = step(w, FIRE, CFG)
    assert not of(events, ev.ShotFired)
    assert ship_shots(world) == P.shots_max_alive


def test_saucer_shots_do_not_count_against_the_ship_shot_cap() -> None:
    w = _world_with_live_shots(P.shots_max_alive - 1, saucer=3)
    world, events = step(w, FIRE, CFG)
    assert len(of(events, ev.ShotFired)) == 1
    assert ship_shots(world) == P.shots_max_alive


def test_fire_acts_on_the_press_tick_only() -> None:
    w = world_with(CFG, [far_rock()])
    _, ticks = run(w, CFG, [0, FIRE, FIRE, FIRE, 0, FIRE, FIRE])
    assert fired_ticks(ticks) == [1, 5]


def test_autofire_fires_exactly_every_autofire_ticks_while_held() -> None:
    cfg = quiet_with(shots={"autofire": True, "max_alive": 50})
    n = params_for(cfg).shots_autofire_interval_ticks
    w = world_with(cfg, [far_rock(cfg)])
    _, ticks = run(w, cfg, [FIRE] * (2 * n + 1))
    assert fired_ticks(ticks) == [0, n, 2 * n]


def test_autofire_press_fires_at_once_and_restarts_the_interval() -> None:
    cfg = quiet_with(shots={"autofire": True, "max_alive": 50})
    n = params_for(cfg).shots_autofire_interval_ticks
    w = world_with(cfg, [far_rock(cfg)])
    # Released after 3 ticks, pressed again: a shot on the press, the next n ticks later.
    _, ticks = run(w, cfg, [FIRE] * 3 + [0] + [FIRE] * (n + 1))
    assert fired_ticks(ticks) == [0, 4, 4 + n]


def test_autofire_off_gives_one_shot_per_press() -> None:
    w = world_with(CFG, [far_rock()])
    _, ticks = run(w, CFG, [FIRE] * (3 * P.shots_autofire_interval_ticks))
    assert fired_ticks(ticks) == [0]


@pytest.mark.parametrize("mask,turn", [(LEFT, P.ship_turn_steps_per_tick),
                                       (RIGHT, -P.ship_turn_steps_per_tick),
                                       (LEFT | RIGHT, 0), (0, 0)])
def test_turn_is_exactly_turn_steps_per_tick(mask: int, turn: int) -> None:
    w = world_with(CFG, [far_rock()], ship_heading=10)
    world, _ = step(w, mask, CFG)
    assert world.ship_heading == (10 + turn) % HEADING_STEPS


def test_thrust_adds_exactly_thrust_along_the_heading_without_drag() -> None:
    w = world_with(CFG, [far_rock()], ship_heading=300, ship_vx=1.0)
    world, events = step(w, THRUST, CFG)
    thrust = P.ship_thrust_px_per_tick2
    vx, vy = 1.0 + float(COS[300]) * thrust, float(SIN[300]) * thrust
    assert (world.ship_vx, world.ship_vy) == (vx, vy)
    assert (world.ship_x, world.ship_y) == (CX + vx, CY + vy)
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(True)] and world.thrusting


def test_coasting_keeps_drag_keep_of_the_velocity() -> None:
    w = world_with(CFG, [far_rock()], ship_vx=3.0, ship_vy=-2.0)
    world, _ = step(w, 0, CFG)
    assert (world.ship_vx, world.ship_vy) == (3.0 * P.drag_keep, -2.0 * P.drag_keep)


def test_coasting_to_a_stop_leaves_positive_zero() -> None:
    # drag 10/s at 10 Hz keeps nothing: -3 * 0.0 is -0.0, which the rule normalises to +0.0.
    cfg = quiet_with(world={"tick_hz": 10.0}, ship={"drag_per_s": 10.0})
    assert params_for(cfg).drag_keep == 0.0
    w = world_with(cfg, [far_rock(cfg)], ship_vx=-3.0, ship_vy=-2.0)
    world, _ = step(w, 0, cfg)
    assert math.copysign(1.0, world.ship_vx) == 1.0
    assert math.copysign(1.0, world.ship_vy) == 1.0


def test_round_speed_limit_leaves_exactly_max_speed_unchanged() -> None:
    assert _coast(ROUND, 3.0, 4.0) == (3.0, 4.0)


def test_round_speed_limit_scales_just_above_max_speed() -> None:
    vx, vy = _coast(ROUND, 3.0, math.nextafter(4.0, 5.0))
    assert (vx, vy) != (3.0, math.nextafter(4.0, 5.0))
    assert math.hypot(vx, vy) == pytest.approx(5.0, rel=1e-15)


def test_round_speed_limit_scales_to_max_keeping_direction() -> None:
    assert _coast(ROUND, 6.0, -8.0) == (3.0, -4.0)
    assert _coast(ROUND, 4.0, 9.0) != (4.0, 5.0)


def test_axis_speed_limit_clamps_each_axis_to_max() -> None:
    assert _coast(AXIS, 5.0, -5.0) == (5.0, -5.0)
    assert _coast(AXIS, 6.0, -7.0) == (5.0, -5.0)
    assert _coast(AXIS, 4.0, 9.0) == (4.0, 5.0)
    assert _coast(AXIS, -9.0, 2.0) == (-5.0, 2.0)


@pytest.mark.parametrize("heading", [0, 512, START_HEADING, 2900])
def test_ship_outline_is_the_template_rotated_to_the_heading(heading: int) -> None:
    x, y, length = 300.0, 200.0, P.ship_length_px
    pts = ship_outline(P, x, y, heading)
    c, s = float(COS[heading]), float(SIN[heading])
    for (px, py), (u, v) in zip(pts.tolist(), SHIP_OUTLINE.tolist(), strict=True):
        assert math.hypot(px - x, py - y) == pytest.approx(length * math.hypot(u, v), rel=1e-12)
        # Along the heading by u ship lengths, to its left by v.
        assert (px - x) * c + (py - y) * s == pytest.approx(u * length, abs=1e-9)
        assert (py - y) * c - (px - x) * s == pytest.approx(v * length, abs=1e-9)


def test_one_shot_per_press() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    _, events = run_inputs(w, CFG, [FIRE] * 20)
    assert len(of(events, ev.ShotFired)) == 1
    _, events = run_inputs(w, CFG, [FIRE, 0] * 10)
    assert len(of(events, ev.ShotFired)) == 4  # capped by max_alive = 4


def test_autofire_option_fires_while_held() -> None:
    cfg = config_with(shots={"autofire": True, "max_alive": 50}, saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    _, events = run_inputs(w, cfg, [FIRE] * 60)
    p = params_for(cfg)
    assert len(of(events, ev.ShotFired)) == 1 + (60 - 1) // p.shots_autofire_interval_ticks


def test_shot_cap_limits_live_ship_shots() -> None:
    cfg = config_with(shots={"max_alive": 3, "lifetime_s": 5.0}, saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    world, events = run_inputs(w, cfg, [FIRE, 0] * 10)
    assert len(of(events, ev.ShotFired)) == 3
    assert int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP)) == 3


def test_thrust_turn_drag_and_speed_limit() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    world, events = run_inputs(w, CFG, [int(InputFrame.THRUST)] * 400)
    speed = math.hypot(world.ship_vx, world.ship_vy)
    assert speed == pytest.approx(P.ship_max_speed_px_per_tick, rel=1e-12)
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(True)]
    coasting, events = run_inputs(world, CFG, [0] * 60)
    assert math.hypot(coasting.ship_vx, coasting.ship_vy) < speed
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(False)]
    turned, _ = run_inputs(w, CFG, [int(InputFrame.LEFT)] * 10)
    assert turned.ship_heading == w.ship_heading + 10 * P.ship_turn_steps_per_tick


def test_classic_speed_limit_is_a_square() -> None:
    cfg = config_with(ship={"speed_limit": "axis"}, saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)],
                   ship_heading=512)  # 45 degrees
    world, _ = run_inputs(w, cfg, [int(InputFrame.THRUST)] * 600)
    top = p.ship_max_speed_px_per_tick
    assert world.ship_vx == pytest.approx(top) and world.ship_vy == pytest.approx(
        p.ship_max_speed_px_per_tick)
