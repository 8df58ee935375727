"""Losing the ship: lives, game over, the respawn timer and the clear-centre rule, and no
input acting while the ship is away."""

from __future__ import annotations

import math

import pytest

from asteroids.config.schema import Config
from asteroids.core import InputFrame, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.ship import START_HEADING
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
)
from tests.core.worlds import (
    CFG,
    FIRE,
    LEFT,
    RIGHT,
    SHIELD,
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
    """Step through ``inputs`` (``cfg`` compiled once); return the last world and one event
    tuple per tick."""
    ticks = []
    p = params_for(cfg)
    for mask in inputs:
        world, events = step(world, mask, p)
        ticks.append(events)
    return world, ticks


SHIELDED = quiet_with(ship={"shield": {"enabled": True}})
PS = params_for(SHIELDED)


def _shot_down(lives: int, cfg: Config = CFG, mask: int = 0, **fields):
    """Step until a saucer shot fired at the still ship's side kills it (a few ticks)."""
    w = world_with(cfg, [far_rock(cfg)], lives=lives, **fields)
    w = with_shots(w, [(SHOOTER_SAUCER, CX - 30.0, CY, 12.0, 0.0, 30)])
    for _ in range(5):
        w, events = step(w, mask, cfg)
        if of(events, ev.ShipDestroyed):
            return w, events
    raise AssertionError("the shot missed")


def _respawn_with_rock_at(dx: float, dy: float) -> bool:
    # reach = rock radius 10 + safe_radius 128 = 138; the rock stands still.
    r = rock(0, CX + dx, CY + dy, round_radius=10.0)
    w = world_with(CFG, [r], ship_state=SHIP_DEAD, ship_timer=1, lives=2)
    world, events = step(w, 0, CFG)
    assert world.ast_pos.tolist() == [[CX + dx, CY + dy]]
    return world.ship_state == SHIP_FLYING and bool(of(events, ev.ShipSpawned))


ALL_BUTTONS = [FIRE | THRUST | LEFT | SHIELD, 0, FIRE | THRUST | RIGHT | SHIELD, 0]


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
    world, ticks = run(world, CFG, [0] * (P.ship_respawn_delay_ticks - 2))
    assert world.ship_state == SHIP_DEAD
    assert not of([e for t in ticks for e in t], ev.ShipSpawned)
    world, events = step(world, 0, CFG)
    assert world.ship_state == SHIP_FLYING
    assert of(events, ev.ShipSpawned) == [ev.ShipSpawned(CX, CY)]
    assert (world.ship_heading, world.ship_vx, world.ship_vy) == (START_HEADING, 0.0, 0.0)


@pytest.mark.parametrize("axis", [0, 1])
def test_respawn_blocked_by_rock_at_exactly_radius_plus_safe_radius(axis: int) -> None:
    reach = 10.0 + P.ship_safe_radius_px
    assert not _respawn_with_rock_at(*((reach, 0.0) if axis == 0 else (0.0, reach)))


@pytest.mark.parametrize("axis", [0, 1])
def test_respawn_allowed_with_rock_just_past_radius_plus_safe_radius(axis: int) -> None:
    centre = (CX, CY)[axis]
    just_past = math.nextafter(centre + 10.0 + P.ship_safe_radius_px, math.inf) - centre
    assert just_past > 10.0 + P.ship_safe_radius_px
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


@pytest.mark.parametrize("state", [SHIP_DEAD, SHIP_HYPERSPACE])
def test_no_input_acts_while_the_ship_is_away(state: int) -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], ship_state=state, ship_timer=50, lives=2)
    world, ticks = run(w, SHIELDED, ALL_BUTTONS)
    events = [e for t in ticks for e in t]
    assert not of(events, ev.ShotFired) and not of(events, ev.ThrustChanged)
    assert not of(events, ev.ShieldChanged)
    assert world.shot_id.shape[0] == 0 and world.ship_heading == START_HEADING
    assert world.shield_energy == PS.ship_shield_energy_ticks and world.ship_state == state


def test_no_input_acts_and_no_ship_returns_after_game_over() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], ship_state=SHIP_DEAD, ship_timer=1, lives=0,
                   game_over=True)
    world, ticks = run(w, SHIELDED, ALL_BUTTONS * 2)
    events = [e for t in ticks for e in t]
    assert not of(events, ev.ShotFired) and not of(events, ev.ThrustChanged)
    assert not of(events, ev.ShipSpawned)
    assert world.ship_state == SHIP_DEAD and world.shot_id.shape[0] == 0
    assert world.ship_heading == START_HEADING and world.game_over


def test_respawn_waits_until_the_centre_is_clear() -> None:
    # The ship is dead; a rock sits at the centre and drifts away slowly.
    w = world_with(CFG, [rock(0, CX, CY, 2.0, 0.0, round_radius=30.0)], ship_state=SHIP_DEAD,
                   ship_timer=1, lives=2)
    w, events = step(w, 0, CFG)
    assert w.ship_state == SHIP_DEAD and not of(events, ev.ShipSpawned)
    ticks = 0
    while w.ship_state == SHIP_DEAD:
        w, events = step(w, 0, P)
        ticks += 1
        assert ticks < 200
    assert of(events, ev.ShipSpawned)
    gap = abs(float(w.ast_pos[0, 0]) - CX)
    assert gap > P.ship_safe_radius_px + 30.0 - 2.0 - 1e-9
    assert (w.ship_x, w.ship_y) == (CX, CY)


def test_game_over_when_the_last_ship_dies() -> None:
    w = world_with(CFG, [rock(1, CX + 40.0, CY, -3.0, 0.0, round_radius=12.0)], lives=1)
    world, events = run_inputs(w, CFG, [0] * 12)
    assert world.game_over and world.lives == 0
    assert of(events, ev.GameOver) == [ev.GameOver(world.score)]
    later, _ = run_inputs(world, CFG, [FIRE, int(InputFrame.THRUST)] * 200)
    assert later.game_over and later.shot_id.shape[0] == 0
