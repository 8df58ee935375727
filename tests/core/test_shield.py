"""The shield: turning on and draining, refills, rocks bouncing off it (relative to the ship,
across the seam), saucer shots stopped, a saucer it touches destroyed."""

from __future__ import annotations

import math

import pytest

from asteroids.config.schema import Config
from asteroids.core import InputFrame, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.spawn import NewRock
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHOOTER_SAUCER,
)
from tests.core.worlds import (
    CFG,
    FIRE,
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
    """Step through ``inputs``; return the last world and one event tuple per tick."""
    ticks = []
    for mask in inputs:
        world, events = step(world, mask, cfg)
        ticks.append(events)
    return world, ticks


SHIELDED = quiet_with(ship={"shield": {"enabled": True}})
PS = params_for(SHIELDED)
W, H = P.width, P.height


def above(x: float) -> float:
    return math.nextafter(x, math.inf)


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def diamond(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0) -> NewRock:
    """A small rock whose outline is a square on its corners, exactly r out along the axes."""
    return NewRock(2, x, y, vx, vy, 0, 0, [(r, 0.0), (0.0, r), (-r, 0.0), (0.0, -r)], r)


def far_ball(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def xy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_pos[i, 0]), float(world.ast_pos[i, 1])


def vxy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_vel[i, 0]), float(world.ast_vel[i, 1])


SHIELDED_COASTING = quiet_with(ship={"shield": {"enabled": True}, "drag_per_s": 0.0})
R_SHIELD = params_for(SHIELDED_COASTING).ship_shield_radius_px  # 26
SAUCERS = Config()
SAUCERS_P = params_for(SAUCERS)
IDLE = {"saucer_fire_timer": 10 ** 6, "saucer_zig_timer": 10 ** 6, "saucer_ticks_left": 10 ** 6}
"""A live saucer that neither fires, zig-zags nor leaves during the test."""


def row_of_rocks(n: int) -> list:
    """``n`` still rocks along the top edge, far from the ship, the saucer's lane and shots."""
    return [rock(2, 150.0 + 90.0 * i, 50.0, round_radius=10.0) for i in range(n)]


def saucer_world(cfg=SAUCERS, rocks=(), *, x=300.0, y=200.0, small=False, vx=0.0, vy=0.0,
                 **fields):
    """A world with a live saucer at (x, y) and the given fields."""
    base = {**IDLE, "saucer_alive": True, "saucer_small": small, "saucer_x": x,
            "saucer_y": y, "saucer_vx": vx, "saucer_vy": vy}
    base.update(fields)
    return world_with(cfg, list(rocks), **base)


SHIELD_CFG = config_with(ship={"shield": {"enabled": True}})
SHIELD_R = SHIELD_CFG.ship.shield.radius_px  # 26; saucers 20 (large) and 10 (small)


def _shield_touch(small: bool, ship, saucer):
    world = saucer_world(SHIELD_CFG, rocks=row_of_rocks(1), x=saucer[0], y=saucer[1],
                         small=small, ship_x=ship[0], ship_y=ship[1])
    lives = world.lives
    world, events = step(world, SHIELD, SHIELD_CFG)
    assert world.shield_on
    assert not of(events, ev.ShipDestroyed)
    assert world.ship_state == SHIP_FLYING and world.lives == lives
    return world, of(events, ev.SaucerDestroyed)


def _places(reach: float, past: bool):
    """(ship, saucer) centre pairs exactly ``reach`` apart, or one float step farther."""
    def far(v: float, way: float) -> float:
        return math.nextafter(v, way) if past else v
    return [
        ((640.0, 360.0), (far(640.0 + reach, math.inf), 360.0)),
        ((640.0, 360.0), (640.0, far(360.0 - reach, -math.inf))),
        # the left/right seam, then the top/bottom seam
        ((20.0, 360.0), (far(20.0 - reach + SAUCERS_P.width, -math.inf), 360.0)),
        ((640.0, 10.0), (640.0, far(10.0 - reach + SAUCERS_P.height, -math.inf))),
    ]


def test_shield_turns_on_with_one_tick_of_energy_and_drains_to_zero() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)], shield_energy=1)
    world, events = step(w, SHIELD, SHIELDED)
    assert world.shield_on and world.shield_energy == 0
    assert of(events, ev.ShieldChanged) == [ev.ShieldChanged(True, 1 / PS.ship_shield_energy_ticks)]
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
    assert w.shield_energy == PS.ship_shield_energy_ticks
    world, _ = run(w, SHIELDED, [SHIELD] * 5)
    assert world.shield_energy == PS.ship_shield_energy_ticks - 5 and world.shield_on


def test_shield_only_while_its_button_is_held() -> None:
    w = world_with(SHIELDED, [far_rock(SHIELDED)])
    world, events = step(w, THRUST | FIRE, SHIELDED)
    assert not world.shield_on and world.shield_energy == PS.ship_shield_energy_ticks
    assert not of(events, ev.ShieldChanged)


def test_shield_disabled_never_turns_on() -> None:
    w = world_with(CFG, [far_rock()])
    world, events = run(w, CFG, [SHIELD] * 3)
    assert not world.shield_on and world.shield_energy == P.ship_shield_energy_ticks
    assert not of([e for t in events for e in t], ev.ShieldChanged)


@pytest.mark.parametrize("refill,energy", [(True, PS.ship_shield_energy_ticks), (False, 5)])
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


@pytest.mark.parametrize("x,bounced", [(CX + R_SHIELD + 10.0, True),
                                       (above(CX + R_SHIELD + 10.0), False)])
def test_shield_touching_a_rock_at_exactly_its_radius(x: float, bounced: bool) -> None:
    # The rock's left vertex (radius 10) ends exactly on the shield circle, or one ulp out.
    world = world_with(SHIELDED_COASTING,
                       [diamond(x + 1.0, CY, -1.0, 0.0), far_ball(SHIELDED_COASTING)])
    world, events = step(world, SHIELD, SHIELDED_COASTING)
    assert world.shield_on and not of(events, ev.ShipDestroyed)
    assert xy(world) == (x, CY) and vxy(world) == ((1.0, 0.0) if bounced else (-1.0, 0.0))


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
@pytest.mark.parametrize("e,v,v_after", [
    (1.0, -1.0, 5.0), (0.0, -1.0, 2.0), (0.5, -1.0, 3.5),  # approaching (at 3 relative)
    (1.5, -1.0, 6.5),  # the schema's most: leaves at 4.5 relative
    (1.0, 2.0, 2.0),  # moving with the ship (vn = 0)
    (1.0, 3.0, 3.0),  # leaving faster than the ship (vn > 0)
])
def test_shield_bounce_is_relative_to_the_ship(borders: str, e: float, v: float,
                                               v_after: float) -> None:
    # The ship moves +2 to CX + 2; the rock (radius 10) ends 34 right of it, 2 px into the
    # shield, and is pushed out to 36 and turned in the ship's frame by restitution e.
    cfg = quiet_with(ship={"shield": {"enabled": True, "restitution": e}, "drag_per_s": 0.0},
                     borders={"asteroids": borders})
    end = CX + 2.0 + R_SHIELD + 10.0 - 2.0
    world = world_with(cfg, [diamond(end - v, CY, v, 0.0), far_ball(cfg)], ship_vx=2.0)
    world, events = step(world, SHIELD, cfg)
    assert not of(events, ev.ShipDestroyed) and world.ship_x == CX + 2.0
    assert xy(world) == (end + 2.0, CY) and vxy(world) == (v_after, 0.0)


def test_shield_bounces_a_rock_across_the_seam() -> None:
    # Ship at x = 30; the rock ends at x = -4 (W - 4), 2 px into the shield across the seam,
    # and is pushed back to W - 6, where it stays: the seam is no wall.
    world = world_with(SHIELDED_COASTING,
                       [diamond(W - 5.0, CY, 1.0, 0.0), far_ball(SHIELDED_COASTING)], ship_x=30.0)
    world, _ = step(world, SHIELD, SHIELDED_COASTING)
    assert xy(world) == (W - 6.0, CY) and vxy(world) == (-1.0, 0.0)


@pytest.mark.parametrize("small", [False, True])
def test_shield_kills_saucer_touching_at_exactly_shield_plus_saucer_radius(small: bool) -> None:
    reach = SHIELD_R + SAUCERS_P.saucer_radius[1 if small else 0]
    for ship, saucer in _places(reach, past=False):
        world, gone = _shield_touch(small, ship, saucer)
        points = SAUCERS_P.saucer_points[1 if small else 0]
        assert gone == [ev.SaucerDestroyed(small, saucer[0], saucer[1], "ship", points)], saucer
        assert world.score == points


@pytest.mark.parametrize("small", [False, True])
def test_shield_misses_saucer_just_past_touching(small: bool) -> None:
    reach = SHIELD_R + SAUCERS_P.saucer_radius[1 if small else 0]
    for ship, saucer in _places(reach, past=True):
        world, gone = _shield_touch(small, ship, saucer)
        assert gone == [] and world.saucer_alive, saucer


def test_shield_bounces_rocks_and_protects_the_ship() -> None:
    cfg = config_with(ship={"shield": {"enabled": True}}, saucers={"enabled": False})
    w = world_with(cfg, [rock(1, CX + 60.0, CY, -4.0, 0.0, round_radius=12.0, cfg=cfg)])
    world, events = run_inputs(w, cfg, [int(InputFrame.SHIELD)] * 30)
    assert not of(events, ev.ShipDestroyed)
    assert world.ast_vel[0, 0] > 0.0, "the rock bounced back off the shield"
    assert of(events, ev.ShieldChanged)[0].on
    assert world.shield_energy == params_for(cfg).ship_shield_energy_ticks - 30


def test_shield_runs_out() -> None:
    cfg = config_with(ship={"shield": {"enabled": True, "energy_s": 0.5}},
                      saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    world, events = run_inputs(w, cfg, [int(InputFrame.SHIELD)] * 60)
    assert world.shield_energy == 0 and not world.shield_on
    assert [e.on for e in of(events, ev.ShieldChanged)] == [True, False]


def test_the_shield_bounces_only_the_rock_that_touches_it() -> None:
    # The shield (radius 26 round the ship at (640, 360)) meets the rock 4 px into it; the
    # far rock keeps its course.
    cfg = quiet(config_with(ship={"shield": {"enabled": True}}))
    near = rock(2, 670.0 - 4.0, 360.0, -1.0, 0.0, round_radius=4.0, cfg=cfg)
    away = rock(0, 1000.0, 600.0, 1.0, 0.0, round_radius=10.0, cfg=cfg)
    world, _ = step(world_with(cfg, [near, away], ship_heading=0), int(InputFrame.SHIELD), cfg)
    assert world.shield_on
    assert world.ast_vel[0, 0] > 0.0, "the touching rock is turned away"
    assert world.ast_pos[1].tolist() == [1001.0, 600.0]
    assert world.ast_vel[1].tolist() == [1.0, 0.0]
