"""Shots: their lifetime, speed, inherited velocity and per-axis cap, wrapping at the border,
what each side's shots are tested against, which shot claims a rock, and fast shots
against fast rocks."""

from __future__ import annotations

import warnings

import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.ship import START_HEADING
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP
from tests.core.worlds import CFG, FIRE, P, config_with, of, quiet, rock, with_shots, world_with
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


def _shot_velocity(cfg: Config, heading: int, ship_vy: float) -> tuple[float, float]:
    w = world_with(cfg, [far_rock(cfg)], ship_heading=heading, ship_vy=ship_vy)
    world, _ = step(w, FIRE, cfg)
    vx, vy = world.shot_vel[0].tolist()
    return vx, vy


BOUNCE = quiet_with(borders={"asteroids": "bounce", "shots": "bounce"})
BOUNCE_ALL = quiet(config_with(borders={"asteroids": "bounce", "ship": "bounce",
                                        "shots": "bounce", "saucers": "bounce"}))


def test_shot_lives_exactly_shot_ticks_counting_the_firing_tick() -> None:
    w = world_with(CFG, [far_rock()])
    world, _ = step(w, FIRE, CFG)
    assert list(world.shot_ttl) == [P.shots_lifetime_ticks - 1]
    world, _ = run(world, CFG, [0] * (P.shots_lifetime_ticks - 2))  # shot_ticks - 1 ticks in all
    assert list(world.shot_ttl) == [1]
    world, _ = step(world, 0, CFG)  # the shot_ticks-th tick
    assert world.shot_id.shape[0] == 0


@pytest.mark.parametrize("ttl,survives", [(1, False), (2, True)])
def test_shot_with_one_tick_left_is_gone_after_it(ttl: int, survives: bool) -> None:
    w = with_shots(world_with(CFG, [far_rock()]), [(SHOOTER_SHIP, 600.0, 600.0, 5.0, 0.0, ttl)])
    world, _ = step(w, 0, CFG)
    assert (world.shot_id.shape[0] == 1) is survives


def test_shot_inherits_ship_velocity_when_on() -> None:
    w = world_with(CFG, [far_rock()], ship_vx=3.0, ship_vy=-2.0)
    world, _ = step(w, FIRE, CFG)
    # Coasting drag acts before the shot leaves; heading up adds shot_speed to y.
    assert world.shot_vel.tolist() == [[3.0 * P.drag_keep,
                                        P.shots_speed_px_per_tick - 2.0 * P.drag_keep]]


@pytest.mark.parametrize("heading", [START_HEADING, 300])
def test_shot_leaves_the_nose_ignoring_ship_velocity_when_inherit_is_off(heading: int) -> None:
    cfg = quiet_with(shots={"inherit_velocity": False})
    w = world_with(cfg, [far_rock(cfg)], ship_vx=3.0, ship_vy=-2.0, ship_heading=heading)
    world, events = step(w, FIRE, cfg)
    c, s = float(COS[heading]), float(SIN[heading])
    vel = (c * P.shots_speed_px_per_tick, s * P.shots_speed_px_per_tick)
    assert world.shot_vel.tolist() == [list(vel)]
    nose = (CX + c * 0.5 * P.ship_length_px, CY + s * 0.5 * P.ship_length_px)
    assert of(events, ev.ShotFired) == [ev.ShotFired("ship", *nose)]
    assert world.shot_pos.tolist() == [[nose[0] + vel[0], nose[1] + vel[1]]]


def test_shot_axis_cap_leaves_a_component_at_the_cap_unchanged() -> None:
    cfg = quiet_with(shots={"max_axis_speed_px_per_s": 600.0})  # cap 10 px/tick = shot speed
    p = params_for(cfg)
    assert p.shots_max_axis_speed_px_per_tick == p.shots_speed_px_per_tick == 10.0
    assert _shot_velocity(cfg, START_HEADING, 0.0) == (0.0, 10.0)
    assert _shot_velocity(cfg, START_HEADING, -2.0) == (0.0, 10.0 - 2.0 * p.drag_keep)


def test_shot_axis_cap_clamps_a_component_above_the_cap() -> None:
    cfg = quiet_with(shots={"max_axis_speed_px_per_s": 600.0})
    assert _shot_velocity(cfg, START_HEADING, 2.0) == (0.0, 10.0)
    assert _shot_velocity(cfg, 3 * HEADING_STEPS // 4, -2.0) == (0.0, -10.0)


def test_shot_axis_cap_zero_means_no_cap_and_a_small_cap_still_clamps() -> None:
    cfg = quiet_with(shots={"max_axis_speed_px_per_s": 0.0})
    assert _shot_velocity(cfg, START_HEADING, 2.0) == (0.0, 10.0 + 2.0 * P.drag_keep)
    cfg = quiet_with(shots={"max_axis_speed_px_per_s": 30.0})  # 0.5 px/tick: below 1
    assert _shot_velocity(cfg, START_HEADING, 2.0) == (0.0, 0.5)


def test_shot_wraps_across_the_border() -> None:
    w = with_shots(world_with(CFG, [far_rock()]),
                   [(SHOOTER_SHIP, P.width - 4.0, 600.0, 12.0, 0.0, 30)])
    world, _ = step(w, 0, CFG)
    assert world.shot_pos.tolist() == [[8.0, 600.0]]
    assert world.shot_vel.tolist() == [[12.0, 0.0]] and list(world.shot_ttl) == [29]


def test_shot_running_along_the_border_flies_on_without_warnings() -> None:
    # vx = 0 at x = 0: the wall-time division is 0 / 0 there, and must stay silent.
    w = with_shots(world_with(BOUNCE, [far_rock(BOUNCE)]),
                   [(SHOOTER_SHIP, 0.0, 300.0, 0.0, 12.0, 30)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        world, _ = step(w, 0, BOUNCE)
    assert world.shot_pos.tolist() == [[0.0, 312.0]]
    assert world.shot_vel.tolist() == [[0.0, 12.0]]


@pytest.mark.parametrize("ship_from,saucer_from,by,points", [
    (280.0, 178.0, "ship-shot", 20),    # ship shot meets the rock at 5/12 tick, saucer's 7/12
    (278.0, 180.0, "saucer-shot", 0),   # the other way round
])
def test_the_earliest_shot_claims_a_rock(ship_from: float, saucer_from: float, by: str,
                                         points: int) -> None:
    w = world_with(CFG, [rock(0, 300.0, 200.0, round_radius=15.0)])
    w = with_shots(w, [(SHOOTER_SHIP, ship_from, 200.0, 12.0, 0.0, 30),
                       (SHOOTER_SAUCER, 300.0, saucer_from, 0.0, 12.0, 30)])
    world, events = step(w, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.by, b.points) for b in broken] == [(by, points)]
    assert world.score == points
    assert world.shot_id.shape[0] == 0, "both shots are spent on the rock"


def test_shots_expire_after_their_lifetime() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    # A shot flies for exactly shot_ticks ticks, the tick it was fired included.
    world, _ = run_inputs(w, CFG, [FIRE] + [0] * (P.shots_lifetime_ticks - 2))
    assert world.shot_id.shape[0] == 1
    world, _ = step(world, 0, CFG)
    assert world.shot_id.shape[0] == 0


def test_shot_inherits_ship_velocity() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)], ship_vx=3.0, ship_vy=0.0)
    world, _ = step(w, FIRE, CFG)
    # Heading is straight up; the shot keeps the ship's sideways drift.
    assert world.shot_vel[0, 0] == pytest.approx(3.0 * P.drag_keep)
    assert world.shot_vel[0, 1] == pytest.approx(P.shots_speed_px_per_tick)


def test_fast_shot_hits_fast_rock_head_on() -> None:
    # 1200 px/s shot and a 600 px/s small rock closing head-on: at 60 Hz they pass ~30 px per
    # tick through each other, more than the rock's 16 px width.
    cfg = config_with(shots={"speed_px_per_s": 1200.0}, saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 330.0, 200.0, -10.0, 0.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 300.0, 200.0, 20.0, 0.0, 30)])
    _, events = step(w, 0, cfg)
    assert len(of(events, ev.AsteroidDestroyed)) == 1


def test_shot_crossing_the_seam_hits_rock_on_the_other_side() -> None:
    w = world_with(CFG, [rock(2, 6.0, 300.0, round_radius=8.0)])
    w = with_shots(w, [(SHOOTER_SHIP, P.width - 4.0, 300.0, 12.0, 0.0, 30)])
    _, events = step(w, 0, CFG)
    assert len(of(events, ev.AsteroidDestroyed)) == 1


def test_shot_stops_at_an_obstacle() -> None:
    square = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))
    cfg = config_with(obstacles=(Obstacle(points=square),), saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 700.0, 200.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 560.0, 200.0, 12.0, 0.0, 30)])
    world, events = run_inputs(w, cfg, [0] * 12)
    assert not of(events, ev.AsteroidDestroyed)
    assert world.shot_id.shape[0] == 0


def test_saucer_shot_hits_the_ship_while_the_ships_shots_have_nothing_to_hit() -> None:
    # No rocks, no saucer, no obstacles: the ship's own shot has no target at all, and that
    # must not stop the saucer's shot from being tested against the ship.
    w = world_with(CFG, [])
    cx, cy = w.ship_x, w.ship_y
    w = with_shots(w, [(SHOOTER_SHIP, 100.0, 100.0, 10.0, 0.0, 30),
                       (SHOOTER_SAUCER, cx - 40.0, cy, 60.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]
    assert world.ship_state == SHIP_DEAD


def test_shot_crossing_the_seam_hits_a_rock_past_where_a_wall_would_be() -> None:
    # Shots wrap here, so the border is no wall: the rock is met at half a tick, long after
    # the shot crossed x = width (a sixth of a tick in).
    w = world_with(CFG, [rock(2, 6.0, 300.0, round_radius=2.0)])
    w = with_shots(w, [(SHOOTER_SHIP, P.width - 2.0, 300.0, 12.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    assert [(e.size, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(2, "ship-shot")]
    assert world.shot_id.shape[0] == 0


def test_ship_shot_off_a_wall_into_the_saucer_is_the_players() -> None:
    # The second pass (after the ricochet) still knows whose shot it is.
    w = world_with(BOUNCE_ALL, [rock(0, 1000.0, 600.0, round_radius=10.0, cfg=BOUNCE_ALL)],
                   saucer_alive=True, saucer_small=False, saucer_x=30.0, saucer_y=40.0,
                   saucer_ticks_left=100, saucer_fire_timer=100, saucer_zig_timer=100)
    # Down to the floor at 0.4 tick, then up-left through the saucer.
    w = with_shots(w, [(SHOOTER_SHIP, 110.0, 40.0, -100.0, -100.0, 30)])
    world, events = step(w, 0, BOUNCE_ALL)
    assert [(e.by, e.points) for e in of(events, ev.SaucerDestroyed)] == [("ship-shot", 200)]
    assert not of(events, ev.ShipDestroyed) and world.ship_state == SHIP_FLYING
    assert world.score == 200
