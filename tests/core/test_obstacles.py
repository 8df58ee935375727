"""Obstacles: rocks and the ship meet an obstacle's face and are pushed out of the deepest
one, one obstacle a tick, across the border too; a ship out of play does not bounce."""

from __future__ import annotations

import math

import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.spawn import NewRock
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, run, world_with

W, H = P.width, P.height


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def below(x: float) -> float:
    return math.nextafter(x, -math.inf)


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def far_rock(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def xy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_pos[i, 0]), float(world.ast_pos[i, 1])


def vxy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_vel[i, 0]), float(world.ast_vel[i, 1])


def box(x0: float, y0: float, x1: float, y1: float) -> Obstacle:
    return Obstacle(points=((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


BLOCK = box(600.0, 300.0, 640.0, 340.0)  # its left face is x = 600
WALLED = quiet_with(obstacles=(BLOCK,), ship={"drag_per_s": 0.0})


@pytest.mark.parametrize("start,v,end,v_after", [
    ((587.0, 320.0), (3.0, 0.0), (590.0, 320.0), (-3.0, 0.0)),  # ends exactly touching: turned
    ((589.0, 320.0), (3.0, 0.5), (590.0, 320.5), (-3.0, 0.5)),  # 2 px deep: pushed out, turned
    ((592.0, 310.0), (0.0, 2.0), (590.0, 312.0), (0.0, 2.0)),  # sliding along (vn = 0)
    ((593.0, 320.0), (-0.5, 0.0), (590.0, 320.0), (-0.5, 0.0)),  # leaving (vn = 0.5 > 0)
    ((592.0 - 2 ** -30, 320.0), (2 ** -30, 0.0), (590.0, 320.0), (-(2 ** -30), 0.0)),  # barely in
    ((592.0 + 2 ** -30, 320.0), (-(2 ** -30), 0.0), (590.0, 320.0), (-(2 ** -30), 0.0)),  # out
])
def test_rock_meets_an_obstacle_face(start, v, end, v_after) -> None:
    """Pushed out to exactly its radius (10) from the face; only an approaching rock turns,
    elastically."""
    world = world_with(WALLED, [ball(*start, *v, cfg=WALLED), far_rock(WALLED)])
    world, _ = step(world, 0, WALLED)
    assert xy(world) == end and vxy(world) == v_after


def test_rock_just_apart_from_an_obstacle_is_not_touched() -> None:
    x = below(590.0)  # ends one ulp farther than its radius from the face
    world = world_with(WALLED, [ball(x - 3.0, 320.0, 3.0, 0.0, cfg=WALLED), far_rock(WALLED)])
    world, _ = step(world, 0, WALLED)
    assert xy(world) == (x, 320.0) and vxy(world) == (3.0, 0.0)


@pytest.mark.parametrize("wall_first", [True, False])
def test_ship_in_a_corner_is_pushed_out_of_the_deepest_obstacle(wall_first: bool) -> None:
    # The ship ends 3 px into a wall (left face x = 600) and 1 px into a floor (top face
    # y = 300, left of the wall): out of the wall, whatever the order in the config.
    r = P.ship_radius
    wall, floor = box(600.0, 100.0, 640.0, 300.0), box(540.0, 300.0, 598.0, 340.0)
    cfg = quiet_with(obstacles=(wall, floor) if wall_first else (floor, wall),
                     ship={"drag_per_s": 0.0})
    world = world_with(cfg, [far_rock(cfg)], ship_x=600.0 - r + 2.0, ship_y=300.0 - r,
                       ship_vx=1.0, ship_vy=1.0)
    world, events = step(world, 0, cfg)
    assert not of(events, ev.ShipDestroyed)
    assert (world.ship_x, world.ship_y) == (600.0 - r, 301.0 - r)
    assert (world.ship_vx, world.ship_vy) == (-1.0, 1.0)


@pytest.mark.parametrize("vx,vx_after", [(3.0, -3.0), (0.0, 0.0), (-0.5, -0.5)])
def test_ship_bounces_off_an_obstacle(vx: float, vx_after: float) -> None:
    r = P.ship_radius
    world = world_with(WALLED, [far_rock(WALLED)], ship_x=592.0 - vx, ship_y=320.0, ship_vx=vx,
                       ship_vy=0.25)
    world, events = step(world, 0, WALLED)
    assert not of(events, ev.ShipDestroyed)
    assert world.ship_x == pytest.approx(600.0 - r, abs=1e-12), "pushed out to its radius"
    assert (world.ship_vx, world.ship_vy) == (vx_after, 0.25)


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 100},
    {"ship_state": SHIP_FLYING, "game_over": True},
])
def test_ship_out_of_play_does_not_bounce_off_an_obstacle(fields) -> None:
    world = world_with(WALLED, [far_rock(WALLED)], ship_x=595.0, ship_y=320.0, ship_vx=1.0,
                       **fields)
    world, _ = step(world, 0, WALLED)
    assert (world.ship_x, world.ship_y, world.ship_vx) == (595.0, 320.0, 1.0)


@pytest.mark.parametrize("wall_first", [True, False])
def test_rock_in_a_corner_takes_one_obstacle_a_tick(wall_first: bool) -> None:
    # A wall (left face x = 600, down to y = 300) and a floor below and left of it (top face
    # y = 300). Rock 1 ends 4 px into the wall and 2 px into the floor: it is pushed out of
    # the wall (the deepest contact) only, the floor waits; whichever the config lists first.
    wall, floor = box(600.0, 100.0, 640.0, 300.0), box(540.0, 300.0, 598.0, 340.0)
    cfg = quiet_with(obstacles=(wall, floor) if wall_first else (floor, wall))
    world = world_with(cfg, [ball(591.0, 150.0, 1.0, 0.0, cfg=cfg),
                             ball(593.0, 291.0, 1.0, 1.0, cfg=cfg), far_rock(cfg)])
    world, _ = step(world, 0, cfg)
    assert xy(world, 0) == (590.0, 150.0) and vxy(world, 0) == (-1.0, 0.0)
    assert xy(world, 1) == (590.0, 292.0), "out of the wall only; still 2 px in the floor"
    assert vxy(world, 1) == (-1.0, 1.0)
    world, _ = step(world, 0, cfg)
    assert xy(world, 1) == (589.0, 290.0) and vxy(world, 1) == (-1.0, -1.0), "the floor's turn"


@pytest.mark.parametrize("borders,face,start,vx,x,vx_after", [
    ("wrap", 5.0, 0.5, 0.5, W - 5.0, -0.5),  # pushed to x = -5: across the seam
    ("bounce", 15.0, 10.5, 0.5, 15.0, 0.5),  # pushed to x = 5, 5 px past its wall: folded
    ("bounce", W - 15.0, W - 10.5, -0.5, W - 15.0, -0.5),  # the same at the right wall
])
def test_rock_pushed_off_an_obstacle_across_the_border(borders: str, face: float, start: float,
                                                      vx: float, x: float,
                                                      vx_after: float) -> None:
    # The rock (r = 10) moves 0.5 px to end 4 px from the block's face (x = face): 6 px deep.
    block = box(face, 300.0, face + 40.0, 340.0) if vx > 0 else box(face - 40.0, 300.0, face,
                                                                    340.0)
    cfg = quiet_with(obstacles=(block,), borders={"asteroids": borders})
    world = world_with(cfg, [ball(start, 320.0, vx, 0.0, cfg=cfg), far_rock(cfg)])
    world, _ = step(world, 0, cfg)
    assert xy(world) == (x, 320.0) and vxy(world) == (vx_after, 0.0)


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
def test_ship_pushed_off_an_obstacle_across_the_border(borders: str) -> None:
    # The ship ends 4 px from the block's left face and is pushed out to 5 - r < 0 when
    # wrapping (across the seam), or to 5 < r when bouncing (folded back off the wall).
    r = P.ship_radius
    start = 0.5 if borders == "wrap" else r + 0.5
    face = start + 4.5
    cfg = quiet_with(obstacles=(box(face, 300.0, face + 40.0, 340.0),),
                     borders={"ship": borders}, ship={"drag_per_s": 0.0})
    world = world_with(cfg, [far_rock(cfg)], ship_x=start, ship_y=320.0, ship_vx=0.5)
    world, _ = step(world, 0, cfg)
    if borders == "wrap":
        assert world.ship_x == pytest.approx(W + 5.0 - r, abs=1e-9) and world.ship_vx == -0.5
    else:
        assert world.ship_x == pytest.approx(2.0 * r - 5.0, abs=1e-9) and world.ship_vx == 0.5
    assert world.ship_y == 320.0


def test_rock_bounces_off_an_obstacle() -> None:
    hexagon = tuple((600.0 + 40.0 * math.cos(math.pi / 3 * k),
                     200.0 + 40.0 * math.sin(math.pi / 3 * k)) for k in range(6))
    cfg = config_with(obstacles=(Obstacle(points=hexagon),), saucers={"enabled": False})
    w = world_with(cfg, [rock(1, 520.0, 200.0, 3.0, 0.0, round_radius=12.0, cfg=cfg)])
    world, _ = run(w, cfg, [0] * 30)
    assert world.ast_vel[0, 0] < 0.0, "the rock came back off the obstacle"
    assert world.ast_pos[0, 0] < 560.0
