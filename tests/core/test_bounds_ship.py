"""Boundary tests for the ship and its shots (issue 13, "tests with teeth").

Guards ``asteroids/core/ship.py`` (firing, the shot cap, the per-axis shot speed cap,
turning, thrust, drag, the speed limit, the shield, hyperspace and its 1979 risk roll, dying,
game over, the respawn timer and the clear-centre rule, the ship outline) and the shot parts
of ``asteroids/core/simulation.py`` (shot lifetime, wrap and ricochet at the borders,
obstacle ricochets, claims so that the earliest shot breaks a rock, the shield against
saucer shots). Each rule is checked at its number and one past it, on small hand-built
worlds.
"""

from __future__ import annotations

import functools
import math
import warnings

import pytest

from asteroids.config.schema import Config, Obstacle
from asteroids.core import InputFrame, state_hash, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.ship import START_HEADING, hyperspace_death_chance, ship_outline
from asteroids.core.tables import COS, HEADING_STEPS, SHIP_OUTLINE, SIN
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
)
from tests.core.worlds import config_with, of, quiet, rock, with_shots, world_with

THRUST, LEFT, RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
FIRE, HYPER, SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)
CFG = quiet(Config())
P = params_for(CFG)
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


# --- firing: the shot cap, the press, autofire ---------------------------------------------


def _world_with_live_shots(ship: int, saucer: int = 0):
    # Slow shots parked along the bottom, away from the rock, the ship and its line of fire.
    shots = [(SHOOTER_SHIP, 200.0 + 40.0 * i, 600.0, 1.0, 0.0, 50) for i in range(ship)]
    shots += [(SHOOTER_SAUCER, 200.0 + 40.0 * i, 650.0, 1.0, 0.0, 50) for i in range(saucer)]
    return with_shots(world_with(CFG, [far_rock()]), shots)


def test_ship_shot_cap_one_below_fires() -> None:
    w = _world_with_live_shots(P.shot_max - 1)
    world, events = step(w, FIRE, CFG)
    assert of(events, ev.ShotFired) == [ev.ShotFired("ship", CX, CY + 0.5 * P.ship_length)]
    assert ship_shots(world) == P.shot_max


def test_ship_shot_cap_reached_exactly() -> None:
    w = _world_with_live_shots(P.shot_max)
    world, events = step(w, FIRE, CFG)
    assert not of(events, ev.ShotFired)
    assert ship_shots(world) == P.shot_max


def test_saucer_shots_do_not_count_against_the_ship_shot_cap() -> None:
    w = _world_with_live_shots(P.shot_max - 1, saucer=3)
    world, events = step(w, FIRE, CFG)
    assert len(of(events, ev.ShotFired)) == 1
    assert ship_shots(world) == P.shot_max


def test_fire_acts_on_the_press_tick_only() -> None:
    w = world_with(CFG, [far_rock()])
    _, ticks = run(w, CFG, [0, FIRE, FIRE, FIRE, 0, FIRE, FIRE])
    assert fired_ticks(ticks) == [1, 5]


def test_autofire_fires_exactly_every_autofire_ticks_while_held() -> None:
    cfg = quiet_with(shots={"autofire": True, "max_alive": 50})
    n = params_for(cfg).autofire_ticks
    w = world_with(cfg, [far_rock(cfg)])
    _, ticks = run(w, cfg, [FIRE] * (2 * n + 1))
    assert fired_ticks(ticks) == [0, n, 2 * n]


def test_autofire_press_fires_at_once_and_restarts_the_interval() -> None:
    cfg = quiet_with(shots={"autofire": True, "max_alive": 50})
    n = params_for(cfg).autofire_ticks
    w = world_with(cfg, [far_rock(cfg)])
    # Released after 3 ticks, pressed again: a shot on the press, the next n ticks later.
    _, ticks = run(w, cfg, [FIRE] * 3 + [0] + [FIRE] * (n + 1))
    assert fired_ticks(ticks) == [0, 4, 4 + n]


def test_autofire_off_gives_one_shot_per_press() -> None:
    w = world_with(CFG, [far_rock()])
    _, ticks = run(w, CFG, [FIRE] * (3 * P.autofire_ticks))
    assert fired_ticks(ticks) == [0]


# --- shots: lifetime, speed, inheritance -----------------------------------------------------


def test_shot_lives_exactly_shot_ticks_counting_the_firing_tick() -> None:
    w = world_with(CFG, [far_rock()])
    world, _ = step(w, FIRE, CFG)
    assert list(world.shot_ttl) == [P.shot_ticks - 1]
    world, _ = run(world, CFG, [0] * (P.shot_ticks - 2))  # shot_ticks - 1 ticks in all
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
    assert world.shot_vel.tolist() == [[3.0 * P.drag_keep, P.shot_speed - 2.0 * P.drag_keep]]


@pytest.mark.parametrize("heading", [START_HEADING, 300])
def test_shot_leaves_the_nose_ignoring_ship_velocity_when_inherit_is_off(heading: int) -> None:
    cfg = quiet_with(shots={"inherit_velocity": False})
    w = world_with(cfg, [far_rock(cfg)], ship_vx=3.0, ship_vy=-2.0, ship_heading=heading)
    world, events = step(w, FIRE, cfg)
    c, s = float(COS[heading]), float(SIN[heading])
    vel = (c * P.shot_speed, s * P.shot_speed)
    assert world.shot_vel.tolist() == [list(vel)]
    nose = (CX + c * 0.5 * P.ship_length, CY + s * 0.5 * P.ship_length)
    assert of(events, ev.ShotFired) == [ev.ShotFired("ship", *nose)]
    assert world.shot_pos.tolist() == [[nose[0] + vel[0], nose[1] + vel[1]]]


def _shot_velocity(cfg: Config, heading: int, ship_vy: float) -> tuple[float, float]:
    w = world_with(cfg, [far_rock(cfg)], ship_heading=heading, ship_vy=ship_vy)
    world, _ = step(w, FIRE, cfg)
    vx, vy = world.shot_vel[0].tolist()
    return vx, vy


def test_shot_axis_cap_leaves_a_component_at_the_cap_unchanged() -> None:
    cfg = quiet_with(shots={"max_axis_speed_px_per_s": 600.0})  # cap 10 px/tick = shot speed
    p = params_for(cfg)
    assert p.shot_axis_cap == p.shot_speed == 10.0
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


# --- turning, thrust, drag, speed limit ------------------------------------------------------


@pytest.mark.parametrize("mask,turn", [(LEFT, P.turn_steps), (RIGHT, -P.turn_steps),
                                       (LEFT | RIGHT, 0), (0, 0)])
def test_turn_is_exactly_turn_steps_per_tick(mask: int, turn: int) -> None:
    w = world_with(CFG, [far_rock()], ship_heading=10)
    world, _ = step(w, mask, CFG)
    assert world.ship_heading == (10 + turn) % HEADING_STEPS


def test_thrust_adds_exactly_thrust_along_the_heading_without_drag() -> None:
    w = world_with(CFG, [far_rock()], ship_heading=300, ship_vx=1.0)
    world, events = step(w, THRUST, CFG)
    vx, vy = 1.0 + float(COS[300]) * P.thrust, float(SIN[300]) * P.thrust
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


# Top speed 300 px/s at 60 Hz is 5 px/tick; no drag, so coasting keeps the velocity exactly.
ROUND = quiet_with(ship={"max_speed_px_per_s": 300.0, "drag_per_s": 0.0})
AXIS = quiet_with(ship={"max_speed_px_per_s": 300.0, "drag_per_s": 0.0, "speed_limit": "axis"})


def _coast(cfg: Config, vx: float, vy: float) -> tuple[float, float]:
    assert params_for(cfg).max_speed == 5.0 and params_for(cfg).drag_keep == 1.0
    world, _ = step(world_with(cfg, [far_rock(cfg)], ship_vx=vx, ship_vy=vy), 0, cfg)
    return world.ship_vx, world.ship_vy


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


# --- shield ----------------------------------------------------------------------------------

SHIELDED = quiet_with(ship={"shield": {"enabled": True}})
PS = params_for(SHIELDED)


def test_shield_turns_on_with_one_tick_of_energy_and_drains_to_zero() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], shield_energy=1)
    world, events = step(w, SHIELD, SHIELDED)
    assert world.shield_on and world.shield_energy == 0
    assert of(events, ev.ShieldChanged) == [ev.ShieldChanged(True, 1 / PS.shield_ticks)]
    world, events = step(world, SHIELD, SHIELDED)
    assert not world.shield_on and world.shield_energy == 0
    assert of(events, ev.ShieldChanged) == [ev.ShieldChanged(False, 0.0)]


def test_shield_does_not_turn_on_at_zero_energy() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], shield_energy=0)
    world, events = step(w, SHIELD, SHIELDED)
    assert not world.shield_on and world.shield_energy == 0
    assert not of(events, ev.ShieldChanged)


def test_shield_drains_exactly_one_per_tick() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)])
    assert w.shield_energy == PS.shield_ticks
    world, _ = run(w, SHIELDED, [SHIELD] * 5)
    assert world.shield_energy == PS.shield_ticks - 5 and world.shield_on


def test_shield_only_while_its_button_is_held() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)])
    world, events = step(w, THRUST | FIRE, SHIELDED)
    assert not world.shield_on and world.shield_energy == PS.shield_ticks
    assert not of(events, ev.ShieldChanged)


def test_shield_disabled_never_turns_on() -> None:
    w = world_with(CFG, [far_rock()])
    world, events = run(w, CFG, [SHIELD] * 3)
    assert not world.shield_on and world.shield_energy == P.shield_ticks
    assert not of([e for t in events for e in t], ev.ShieldChanged)


@pytest.mark.parametrize("refill,energy", [(True, PS.shield_ticks), (False, 5)])
def test_shield_refill_on_respawn(refill: bool, energy: int) -> None:
    cfg = quiet_with(ship={"shield": {"enabled": True, "refill_per_wave": refill}})
    w = world_with(cfg, [far_rock(cfg)], ship_state=SHIP_DEAD, ship_timer=1, shield_energy=5)
    world, events = step(w, 0, cfg)
    assert of(events, ev.ShipSpawned) == [ev.ShipSpawned(CX, CY)]
    assert world.shield_energy == energy


def test_shield_stops_saucer_shots() -> None:
    w = with_shots(world_with(SHIELDED, [far_rock(SHIELDED)]),
                   [(SHOOTER_SAUCER, CX - 30.0, CY, 12.0, 0.0, 30)])
    world, ticks = run(w, SHIELDED, [SHIELD] * 5)
    assert not of([e for t in ticks for e in t], ev.ShipDestroyed)
    assert world.ship_state == SHIP_FLYING and world.shot_id.shape[0] == 0, "shot absorbed"
    world, ticks = run(w, SHIELDED, [0] * 5)
    assert of([e for t in ticks for e in t], ev.ShipDestroyed)[0].cause == "saucer-shot"


# --- hyperspace ------------------------------------------------------------------------------

SAFE_HYPER = quiet_with(ship={"hyperspace": {"risky": False}})


def test_hyperspace_lasts_exactly_hyper_ticks() -> None:
    w = world_with(SAFE_HYPER, [far_rock(SAFE_HYPER)])
    world, _ = run(w, SAFE_HYPER, [HYPER] + [0] * (P.hyper_ticks - 2))
    assert world.ship_state == SHIP_HYPERSPACE
    world, events = step(world, 0, SAFE_HYPER)
    assert world.ship_state == SHIP_FLYING
    assert [e.survived for e in of(events, ev.HyperspaceExited)] == [True]


def test_hyperspace_entry_powers_down_engine_and_shield() -> None:
    cfg = quiet_with(ship={"shield": {"enabled": True}})
    w = world_with(cfg, [far_rock(cfg)], ship_vx=1.0, ship_x=500.0, ship_y=300.0)
    world, events = step(w, THRUST | SHIELD | HYPER, cfg)
    n = PS.shield_ticks
    kinds = (ev.ThrustChanged, ev.ShieldChanged, ev.HyperspaceEntered)
    assert [e for e in events if isinstance(e, kinds)] == [
        ev.ThrustChanged(True), ev.ShieldChanged(True, 1.0), ev.HyperspaceEntered(500.0, 300.0),
        ev.ThrustChanged(False), ev.ShieldChanged(False, (n - 1) / n)]
    assert world.ship_state == SHIP_HYPERSPACE
    assert world.thrusting is False and world.shield_on is False
    assert (world.ship_vx, world.ship_vy) == (0.0, 0.0)
    _, events = step(world, THRUST | SHIELD, cfg)
    assert not of(events, ev.ThrustChanged) and not of(events, ev.ShieldChanged)


def test_hyperspace_reentry_is_drawn_inside_the_margins() -> None:
    cfg = quiet_with(ship={"hyperspace": {"risky": False, "edge_margin": 0.45}})
    p = params_for(cfg)
    world, _ = run(world_with(cfg, [far_rock(cfg)]), cfg, [HYPER] + [0] * (p.hyper_ticks - 2))
    # Nothing else draws in the re-entry tick: x then y, uniform within the margins.
    rng = Pcg32(world.rng_state, world.rng_inc)
    x = rng.uniform(0.45 * p.width, 0.55 * p.width)
    y = rng.uniform(0.45 * p.height, 0.55 * p.height)
    world, events = step(world, 0, cfg)
    assert of(events, ev.HyperspaceExited) == [ev.HyperspaceExited(x, y, True)]
    assert (world.ship_x, world.ship_y) == (x, y)
    assert 0.45 * p.width <= x <= 0.55 * p.width and 0.45 * p.height <= y <= 0.55 * p.height


@functools.cache
def _rng_first_roll(r: int) -> tuple[int, int]:
    """An rng (state, inc) whose first ``below(32)`` is ``r``."""
    for seed in range(10_000):
        state, inc = seed_state(seed)
        if Pcg32(state, inc).below(32) == r:
            return state, inc
    raise AssertionError(r)


def _rocks(n: int, cfg: Config = CFG):
    # Small still rocks along the top edge: outside the re-entry area and far from the centre.
    return [rock(2, 40.0 + 64.0 * i, 30.0, round_radius=5.0, cfg=cfg) for i in range(n)]


# The 1979 rule: roll r in [0, 32); the jump fails when r >= 24 and (r & 7) * 2 + 4 >= rocks.
@pytest.mark.parametrize("r,rocks,doomed", [
    (23, 1, False), (24, 1, True),     # the roll threshold
    (24, 4, True), (24, 5, False),     # r = 24: 0 * 2 + 4 = 4 rocks
    (25, 6, True), (25, 7, False),     # r = 25: 1 * 2 + 4 = 6 rocks
    (31, 18, True), (31, 19, False),   # r = 31: 7 * 2 + 4 = 18 rocks
])
def test_hyperspace_risk_at_the_rock_count_and_roll_thresholds(r: int, rocks: int,
                                                                doomed: bool) -> None:
    state, inc = _rng_first_roll(r)
    w = world_with(CFG, _rocks(rocks), rng_state=state, rng_inc=inc, lives=3)
    world, _ = step(w, HYPER, CFG)
    assert world.ship_doomed is doomed
    world, ticks = run(world, CFG, [0] * (P.hyper_ticks - 1))
    assert [e.survived for e in of(ticks[-1], ev.HyperspaceExited)] == [not doomed]
    if doomed:
        assert [e.cause for e in of(ticks[-1], ev.ShipDestroyed)] == ["hyperspace"]
        assert world.ship_state == SHIP_DEAD and world.lives == 2
    else:
        assert world.ship_state == SHIP_FLYING and world.lives == 3


@pytest.mark.parametrize("rocks,fatal_rolls", [(4, 8), (5, 7), (18, 1), (19, 0)])
def test_hyperspace_death_chance_matches_the_game_at_the_thresholds(rocks: int,
                                                                    fatal_rolls: int) -> None:
    doomed = 0
    for r in range(32):
        state, inc = _rng_first_roll(r)
        world, _ = step(world_with(CFG, _rocks(rocks), rng_state=state, rng_inc=inc), HYPER, CFG)
        doomed += world.ship_doomed
    assert doomed == fatal_rolls
    assert hyperspace_death_chance(rocks) == fatal_rolls / 32


def test_riskless_hyperspace_never_kills_even_on_a_fatal_roll() -> None:
    state, inc = _rng_first_roll(24)
    w = world_with(SAFE_HYPER, _rocks(1, SAFE_HYPER), rng_state=state, rng_inc=inc)
    world, _ = step(w, HYPER, SAFE_HYPER)
    assert world.ship_doomed is False
    state_hash(world)  # a replay hashes every tick
    world, ticks = run(world, SAFE_HYPER, [0] * (P.hyper_ticks - 1))
    assert [e.survived for e in of(ticks[-1], ev.HyperspaceExited)] == [True]
    assert world.ship_state == SHIP_FLYING


def test_holding_hyperspace_jumps_once() -> None:
    w = world_with(SAFE_HYPER, [far_rock(SAFE_HYPER)])
    world, ticks = run(w, SAFE_HYPER, [HYPER] * (P.hyper_ticks + 3))
    assert len(of([e for t in ticks for e in t], ev.HyperspaceEntered)) == 1
    assert world.ship_state == SHIP_FLYING


def test_hyperspace_disabled_does_nothing() -> None:
    cfg = quiet_with(ship={"hyperspace": {"enabled": False}})
    world, events = step(world_with(cfg, [far_rock(cfg)]), HYPER, cfg)
    assert world.ship_state == SHIP_FLYING and not of(events, ev.HyperspaceEntered)


# --- death, game over, respawn ---------------------------------------------------------------


def _shot_down(lives: int, cfg: Config = CFG, mask: int = 0, **fields):
    """Step until a saucer shot fired at the still ship's side kills it (a few ticks)."""
    w = world_with(cfg, [far_rock(cfg)], lives=lives, **fields)
    w = with_shots(w, [(SHOOTER_SAUCER, CX - 30.0, CY, 12.0, 0.0, 30)])
    for _ in range(5):
        w, events = step(w, mask, cfg)
        if of(events, ev.ShipDestroyed):
            return w, events
    raise AssertionError("the shot missed")


def test_death_with_two_lives_leaves_one_and_play_goes_on() -> None:
    world, events = _shot_down(2)
    assert of(events, ev.ShipDestroyed) == [ev.ShipDestroyed(CX, CY, "saucer-shot", 1)]
    assert world.lives == 1 and not world.game_over and world.ship_state == SHIP_DEAD
    assert not of(events, ev.GameOver)


def test_death_with_the_last_life_is_game_over() -> None:
    world, events = _shot_down(1, score=1230)
    assert of(events, ev.ShipDestroyed) == [ev.ShipDestroyed(CX, CY, "saucer-shot", 0)]
    assert of(events, ev.GameOver) == [ev.GameOver(1230)]
    assert world.lives == 0 and world.game_over


def test_death_while_thrusting_stops_the_engine() -> None:
    world, events = _shot_down(2, mask=THRUST)
    kinds = (ev.ThrustChanged, ev.ShipDestroyed)
    assert [type(e) for e in events if isinstance(e, kinds)] == [ev.ThrustChanged,
                                                                   ev.ShipDestroyed]
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(False)]
    assert world.thrusting is False and (world.ship_vx, world.ship_vy) == (0.0, 0.0)
    _, events = step(world, THRUST, CFG)
    assert not of(events, ev.ThrustChanged)


def test_ship_returns_exactly_respawn_ticks_after_dying() -> None:
    # The tick of the death is the first of the respawn_ticks.
    world, _ = _shot_down(2)
    world, ticks = run(world, CFG, [0] * (P.respawn_ticks - 2))
    assert world.ship_state == SHIP_DEAD
    assert not of([e for t in ticks for e in t], ev.ShipSpawned)
    world, events = step(world, 0, CFG)
    assert world.ship_state == SHIP_FLYING
    assert of(events, ev.ShipSpawned) == [ev.ShipSpawned(CX, CY)]
    assert (world.ship_heading, world.ship_vx, world.ship_vy) == (START_HEADING, 0.0, 0.0)


def _respawn_with_rock_at(dx: float, dy: float) -> bool:
    # reach = rock radius 10 + safe_radius 128 = 138; the rock stands still.
    r = rock(0, CX + dx, CY + dy, round_radius=10.0)
    w = world_with(CFG, [r], ship_state=SHIP_DEAD, ship_timer=1, lives=2)
    world, events = step(w, 0, CFG)
    assert world.ast_pos.tolist() == [[CX + dx, CY + dy]]
    return world.ship_state == SHIP_FLYING and bool(of(events, ev.ShipSpawned))


@pytest.mark.parametrize("axis", [0, 1])
def test_respawn_blocked_by_rock_at_exactly_radius_plus_safe_radius(axis: int) -> None:
    reach = 10.0 + P.safe_radius
    assert not _respawn_with_rock_at(*((reach, 0.0) if axis == 0 else (0.0, reach)))


@pytest.mark.parametrize("axis", [0, 1])
def test_respawn_allowed_with_rock_just_past_radius_plus_safe_radius(axis: int) -> None:
    centre = (CX, CY)[axis]
    just_past = math.nextafter(centre + 10.0 + P.safe_radius, math.inf) - centre
    assert just_past > 10.0 + P.safe_radius
    assert _respawn_with_rock_at(*((just_past, 0.0) if axis == 0 else (0.0, just_past)))


def test_blocked_respawn_happens_the_first_tick_the_centre_is_clear() -> None:
    # The rock drifts out 1 px a tick: at exactly 138 px after the first tick (blocked, the
    # timer has run out), 139 px after the second (clear).
    r = rock(0, CX + 137.0, CY, 1.0, 0.0, round_radius=10.0)
    w = world_with(CFG, [r], ship_state=SHIP_DEAD, ship_timer=1, lives=2)
    world, _ = step(w, 0, CFG)
    assert world.ship_state == SHIP_DEAD and world.ast_pos[0, 0] == CX + 138.0
    world, events = step(world, 0, CFG)
    assert of(events, ev.ShipSpawned) == [ev.ShipSpawned(CX, CY)]


def test_respawn_on_an_empty_field() -> None:
    w = world_with(CFG, [], ship_state=SHIP_DEAD, ship_timer=1, lives=2)
    world, events = step(w, 0, CFG)
    assert of(events, ev.ShipSpawned) == [ev.ShipSpawned(CX, CY)]


def test_a_saucer_in_flight_blocks_respawn() -> None:
    fields = {"ship_state": SHIP_DEAD, "ship_timer": 1, "lives": 2, "saucer_x": 100.0,
              "saucer_y": 650.0}
    world, _ = step(world_with(CFG, [far_rock()], saucer_alive=True, **fields), 0, CFG)
    assert world.ship_state == SHIP_DEAD
    world, _ = step(world_with(CFG, [far_rock()], saucer_alive=False, **fields), 0, CFG)
    assert world.ship_state == SHIP_FLYING


ALL_BUTTONS = [FIRE | THRUST | LEFT | SHIELD, 0, FIRE | THRUST | RIGHT | SHIELD, 0]


@pytest.mark.parametrize("state", [SHIP_DEAD, SHIP_HYPERSPACE])
def test_no_input_acts_while_the_ship_is_away(state: int) -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], ship_state=state, ship_timer=50, lives=2)
    world, ticks = run(w, SHIELDED, ALL_BUTTONS)
    events = [e for t in ticks for e in t]
    assert not of(events, ev.ShotFired) and not of(events, ev.ThrustChanged)
    assert not of(events, ev.ShieldChanged)
    assert world.shot_id.shape[0] == 0 and world.ship_heading == START_HEADING
    assert world.shield_energy == PS.shield_ticks and world.ship_state == state


def test_no_input_acts_and_no_ship_returns_after_game_over() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], ship_state=SHIP_DEAD, ship_timer=1, lives=0,
                   game_over=True)
    world, ticks = run(w, SHIELDED, ALL_BUTTONS * 2)
    events = [e for t in ticks for e in t]
    assert not of(events, ev.ShotFired) and not of(events, ev.ThrustChanged)
    assert not of(events, ev.ShipSpawned)
    assert world.ship_state == SHIP_DEAD and world.shot_id.shape[0] == 0
    assert world.ship_heading == START_HEADING and world.game_over


# --- the ship's outline ----------------------------------------------------------------------


@pytest.mark.parametrize("heading", [0, 512, START_HEADING, 2900])
def test_ship_outline_is_the_template_rotated_to_the_heading(heading: int) -> None:
    x, y, length = 300.0, 200.0, P.ship_length
    pts = ship_outline(P, x, y, heading)
    c, s = float(COS[heading]), float(SIN[heading])
    for (px, py), (u, v) in zip(pts.tolist(), SHIP_OUTLINE.tolist(), strict=True):
        assert math.hypot(px - x, py - y) == pytest.approx(length * math.hypot(u, v), rel=1e-12)
        # Along the heading by u ship lengths, to its left by v.
        assert (px - x) * c + (py - y) * s == pytest.approx(u * length, abs=1e-9)
        assert (py - y) * c - (px - x) * s == pytest.approx(v * length, abs=1e-9)


# --- shots at borders and obstacles, and what they claim -------------------------------------


def test_shot_wraps_across_the_border() -> None:
    w = with_shots(world_with(CFG, [far_rock()]),
                   [(SHOOTER_SHIP, P.width - 4.0, 600.0, 12.0, 0.0, 30)])
    world, _ = step(w, 0, CFG)
    assert world.shot_pos.tolist() == [[8.0, 600.0]]
    assert world.shot_vel.tolist() == [[12.0, 0.0]] and list(world.shot_ttl) == [29]


BOUNCE = quiet_with(borders={"asteroids": "bounce", "shots": "bounce"})


def test_shot_bounces_off_the_border() -> None:
    w = with_shots(world_with(BOUNCE, [far_rock(BOUNCE)]),
                   [(SHOOTER_SHIP, P.width - 4.0, 600.0, 12.0, 5.0, 30)])
    world, _ = step(w, 0, BOUNCE)
    assert world.shot_pos.tolist() == [[P.width - 8.0, 605.0]]
    assert world.shot_vel.tolist() == [[-12.0, 5.0]]


def test_ricochet_off_the_left_wall_at_exactly_zero_reflects_only_x() -> None:
    # The shot meets x = 0 at exactly a quarter tick, at (0, 1): only x is on a wall. The
    # rest of its path, mirrored in x, runs (0, 1) -> (9, 3.25) through the small rock.
    cfg = BOUNCE
    target = rock(2, 6.0, 2.5, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far_rock(cfg), target]),
                   [(SHOOTER_SHIP, 3.0, 0.25, -12.0, 3.0, 30)])
    world, events = step(w, 0, cfg)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.size, b.x, b.y, b.by) for b in broken] == [(2, 6.0, 2.5, "ship-shot")]
    assert world.shot_id.shape[0] == 0


def test_shot_running_along_the_border_flies_on_without_warnings() -> None:
    # vx = 0 at x = 0: the wall-time division is 0 / 0 there, and must stay silent.
    w = with_shots(world_with(BOUNCE, [far_rock(BOUNCE)]),
                   [(SHOOTER_SHIP, 0.0, 300.0, 0.0, 12.0, 30)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        world, _ = step(w, 0, BOUNCE)
    assert world.shot_pos.tolist() == [[0.0, 312.0]]
    assert world.shot_vel.tolist() == [[0.0, 12.0]]


SQUARE = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))


@pytest.mark.parametrize("ttl,survives", [(1, False), (2, True)])
def test_ricochet_shot_still_expires_on_its_last_tick(ttl: int, survives: bool) -> None:
    cfg = quiet_with(obstacles=(Obstacle(points=SQUARE),), shots={"at_obstacles": "ricochet"})
    w = with_shots(world_with(cfg, [far_rock(cfg)]), [(SHOOTER_SHIP, 570.0, 200.0, 12.0, 0.0,
                                                        ttl)])
    world, _ = step(w, 0, cfg)
    assert world.shot_id.shape[0] == (1 if survives else 0)
    if survives:
        assert world.shot_vel.tolist() == [[-12.0, 0.0]]
        assert world.shot_pos[0, 0] == pytest.approx(578.0)


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
