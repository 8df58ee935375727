"""Boundary tests for motion, borders, obstacles and contacts (issue 13, "tests with teeth").

Guards the motion and contact parts of ``asteroids/core/simulation.py``: ``_move_bodies``
(moving, spinning, wrapping into the half-open box, bouncing at exactly a radius from a wall,
each kind of object following its own ``borders`` setting, the saucer's x clamp),
``_push_and_reflect`` / ``_bounce_off_obstacles`` (only approaching bodies reflect, one
obstacle per rock a tick, a ship out of play does not bounce), ``_collide_asteroids``
(exact impulses, restitution 0 and 1, contact radius with jaggedness, coincident centres, the
wrap seam, rounds), ``rocks_near`` / ``_first_overlap`` / ``_touch`` (bounding circles touching
exactly, which rock the ship or saucer breaks, the seam only when something wraps) and
``_shield_bounce``; plus ``new_world`` and the tick, ``since_break`` and rng bookkeeping of
``step``.
Each rule is checked at its number and one past it, on small hand-built worlds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.schema import Config, Obstacle
from asteroids.core import InputFrame, new_world, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.rng import seed_state
from asteroids.core.ship import START_HEADING
from asteroids.core.spawn import NewRock
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.touch import rocks_near
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, SHIP_HYPERSPACE, SHOOTER_SHIP, Draft
from tests.core.worlds import config_with, of, quiet, rock, with_shots, world_with

SHIELD = int(InputFrame.SHIELD)
CFG = quiet(Config())
P = params_for(CFG)
W, H = P.width, P.height
CX, CY = 0.5 * W, 0.5 * H
QUARTER = HEADING_STEPS // 4


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def below(x: float) -> float:
    return math.nextafter(x, -math.inf)


def above(x: float) -> float:
    return math.nextafter(x, math.inf)


def at(size: float, offset: float) -> float:
    """A coordinate: ``offset`` from 0, or (negative) from the far edge ``size``."""
    return size + offset if offset < 0 else offset


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def diamond(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0) -> NewRock:
    """A small rock whose outline is a square on its corners, exactly r out along the axes."""
    return NewRock(2, x, y, vx, vy, 0, 0, [(r, 0.0), (0.0, r), (-r, 0.0), (0.0, -r)], r)


def far_rock(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def xy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_pos[i, 0]), float(world.ast_pos[i, 1])


def vxy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_vel[i, 0]), float(world.ast_vel[i, 1])


# --- step and new_world bookkeeping --------------------------------------------------------------


def test_tick_and_since_break_advance_by_exactly_one_per_step() -> None:
    world = world_with(CFG, [far_rock()], tick=41, since_break=7)
    world, _ = step(world, 0, CFG)
    assert (world.tick, world.since_break) == (42, 8)
    world, _ = step(world, 0, CFG)
    assert (world.tick, world.since_break) == (43, 9)


def test_rng_state_advances_only_when_chance_is_used() -> None:
    world = world_with(CFG, [far_rock()])
    start = world.rng_state
    for _ in range(3):
        world, _ = step(world, 0, CFG)
    assert world.rng_state == start, "nothing random happened: no draws"
    # Breaking a large rock draws its fragments' kicks.
    world = with_shots(world_with(CFG, [ball(300.0, 200.0, size=0), far_rock()]),
                       [(SHOOTER_SHIP, 285.0, 200.0, 10.0, 0.0, 30)])
    after, events = step(world, 0, CFG)
    assert of(events, ev.AsteroidDestroyed) and after.asteroid_count == 3
    assert after.rng_state != world.rng_state and after.rng_inc == world.rng_inc


def test_new_world_starts_from_the_config() -> None:
    cfg = quiet_with(game={"lives": 4}, scoring={"extra_life_every": 5000},
                     ship={"shield": {"energy_s": 2.0, "refill_per_wave": False}})
    p = params_for(cfg)
    world = new_world(cfg, 9)
    assert (world.tick, world.score, world.wave, world.game_over) == (0, 0, 1, False)
    assert (world.ship_state, world.ship_x, world.ship_y) == (SHIP_FLYING, 0.5 * W, 0.5 * H)
    assert (world.ship_vx, world.ship_vy, world.ship_heading) == (0.0, 0.0, START_HEADING)
    assert (world.lives, world.next_extra_life) == (4, 5000)
    assert world.shield_energy == p.shield_ticks == 120
    assert world.rng_inc == seed_state(9)[1]
    assert world.rng_state != seed_state(9)[0], "the first wave drew its rocks"
    assert world.asteroid_count == p.first_wave
    assert world.ast_id.tolist() == list(range(1, p.first_wave + 1)), "ids count from 1"
    assert world.next_id == p.first_wave + 1 and world.shot_id.shape[0] == 0


def test_new_world_holds_no_button_no_timer_and_no_saucer() -> None:
    world = new_world(CFG, 3)
    assert (world.thrusting, world.shield_on, world.fire_held, world.hyper_held) == (False,) * 4
    assert (world.ship_timer, world.ship_doomed, world.autofire_timer) == (0, False, 0)
    assert (world.saucer_alive, world.saucer_small) == (False, False)
    assert (world.saucer_x, world.saucer_y, world.saucer_vx, world.saucer_vy) == (0.0,) * 4
    assert (world.saucer_ticks_left, world.saucer_fire_timer, world.saucer_zig_timer) == (0,) * 3
    assert (world.since_break, world.beat_tone) == (0, 0)
    _, events = step(world, int(InputFrame.FIRE), CFG)
    assert of(events, ev.ShotFired), "the very first press fires"


# --- moving and spinning -------------------------------------------------------------------------


def test_rock_moves_by_exactly_its_velocity_each_tick() -> None:
    world = world_with(CFG, [ball(300.25, 200.5, 1.5, -0.75)])
    world, _ = step(world, 0, CFG)
    assert xy(world) == (301.75, 199.75) and vxy(world) == (1.5, -0.75)
    world, _ = step(world, 0, CFG)
    assert xy(world) == (303.25, 199.0)


@pytest.mark.parametrize("angle,spin,after", [
    (5, 3, 8), (HEADING_STEPS - 2, 1, HEADING_STEPS - 1), (HEADING_STEPS - 1, 1, 0),
    (HEADING_STEPS - 1, 3, 2), (0, -1, HEADING_STEPS - 1), (0, 0, 0),
])
def test_spin_turns_the_angle_modulo_heading_steps(angle: int, spin: int, after: int) -> None:
    world = world_with(CFG, [ball(300.0, 200.0, angle=angle, spin=spin)])
    world, _ = step(world, 0, CFG)
    assert int(world.ast_angle[0]) == after


NEEDLE = [(40.0, 0.0), (0.0, 2.0), (-40.0, 0.0), (0.0, -2.0)]


@pytest.mark.parametrize("angle,spin,hit", [
    (0, 0, False), (QUARTER, 0, True), (0, QUARTER, True), (QUARTER, -QUARTER, False),
    (HEADING_STEPS - QUARTER, 2 * QUARTER, True), (HEADING_STEPS - 1, 1, False),
])
def test_a_rock_outline_turns_with_its_angle(angle: int, spin: int, hit: bool) -> None:
    # A needle 80 px long, 4 px thick, 45 px below the ship (which points up): lying flat it
    # passes under the ship's tail; turned a quarter (after this tick's spin) it reaches in.
    needle = NewRock(2, CX, CY - 45.0, 0.0, 0.0, angle, spin, NEEDLE, 40.0)
    world = world_with(CFG, [needle, far_rock()])
    _, events = step(world, 0, CFG)
    assert bool(of(events, ev.ShipDestroyed)) == hit


# --- borders: wrap -------------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("start,v,end", [
    (-1.0, 1.0, 0.0),  # exactly the far edge is outside the half-open box: it is 0
    (-1.0, 1.0 - 2 ** -40, -(2 ** -40)),  # a hair short of the far edge stays
    (1.0, -1.0, 0.0),  # exactly 0 stays
    (1.0, -1.0 - 2 ** -52, 0.0),  # a hair below 0, too little to show next to W: 0, not W
    (1.0, -1.5, -0.5),
])
def test_wrapping_rock_lands_in_the_half_open_box(axis: int, start: float, v: float,
                                                  end: float) -> None:
    size = (W, H)[axis]
    pos, vel = [300.0, 300.0], [0.0, 0.0]
    pos[axis], vel[axis] = at(size, start), v
    world = world_with(CFG, [ball(*pos, *vel)])
    world, _ = step(world, 0, CFG)
    pos[axis] = at(size, end)
    assert xy(world) == tuple(pos) and vxy(world) == tuple(vel)


NODRAG = quiet_with(ship={"drag_per_s": 0.0})


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("start,v,end", [
    (-1.0, 1.0, 0.0),  # exactly the far edge is 0
    (-1.0, 1.0 - 2 ** -40, -(2 ** -40)),  # a hair short of it stays
    (1.0, -1.0, 0.0),  # exactly 0 stays
    (1.0, -1.0 - 2 ** -52, 0.0),  # a hair below 0, too little to show next to W: 0, not W
    (1.0, -1.5, -0.5),
])
def test_wrapping_ship_lands_in_the_half_open_box(axis: int, start: float, v: float,
                                                  end: float) -> None:
    size = (W, H)[axis]
    pos, vel = [300.0, 300.0], [0.0, 0.0]
    pos[axis], vel[axis] = at(size, start), v
    world = world_with(NODRAG, [far_rock(NODRAG)], ship_x=pos[0], ship_y=pos[1],
                       ship_vx=vel[0], ship_vy=vel[1])
    world, _ = step(world, 0, NODRAG)
    pos[axis] = at(size, end)
    assert (world.ship_x, world.ship_y) == tuple(pos)
    assert (world.ship_vx, world.ship_vy) == tuple(vel)


# --- borders: bounce -----------------------------------------------------------------------------

BOUNCE = quiet_with(borders={"asteroids": "bounce", "ship": "bounce", "saucers": "bounce"},
                    ship={"drag_per_s": 0.0})


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("start,v,end,v_after", [
    (12.0, -2.0, 10.0, -2.0),  # ends exactly a radius (10) from the wall: not turned yet
    (11.5, -2.0, 10.5, 2.0),  # half a pixel past: folded back and turned
    (-12.5, 2.0, -10.5, 2.0),  # just short of the far wall
    (-12.0, 2.0, -10.0, -2.0),  # exactly a radius from the far wall: turned there
    (-11.5, 2.0, -10.5, -2.0),  # half a pixel past the far wall
])
def test_bouncing_rock_at_exactly_its_radius_from_a_wall(axis: int, start: float, v: float,
                                                         end: float, v_after: float) -> None:
    size = (W, H)[axis]
    pos, vel = [300.0, 300.0], [0.0, 0.0]
    pos[axis], vel[axis] = at(size, start), v
    world = world_with(BOUNCE, [ball(*pos, *vel, cfg=BOUNCE)])
    world, _ = step(world, 0, BOUNCE)
    pos[axis], vel[axis] = at(size, end), v_after
    assert xy(world) == tuple(pos) and vxy(world) == tuple(vel)


def test_bouncing_rock_touching_the_wall_turns_on_the_next_tick() -> None:
    world = world_with(BOUNCE, [ball(12.0, 300.0, -2.0, 0.0, cfg=BOUNCE)])
    world, _ = step(world, 0, BOUNCE)
    world, _ = step(world, 0, BOUNCE)
    assert xy(world) == (12.0, 300.0) and vxy(world) == (2.0, 0.0)


@pytest.mark.parametrize("axis", [0, 1])
def test_bouncing_ship_at_exactly_its_radius_from_a_wall(axis: int) -> None:
    r = P.ship_radius
    pos, vel = ("ship_x", "ship_y")[axis], ("ship_vx", "ship_vy")[axis]
    other = ("ship_y", "ship_x")[axis]
    start = r + 0.5
    v = r - start  # exact (Sterbenz), so start + v is exactly r
    world = world_with(BOUNCE, [far_rock(BOUNCE)], **{pos: start, vel: v, other: 300.0})
    after, _ = step(world, 0, BOUNCE)
    assert (getattr(after, pos), getattr(after, vel)) == (r, v), "touching: not turned yet"
    world = world_with(BOUNCE, [far_rock(BOUNCE)], **{pos: start, vel: v - 0.25, other: 300.0})
    after, _ = step(world, 0, BOUNCE)
    assert getattr(after, pos) == pytest.approx(r + 0.25, abs=1e-12)
    assert getattr(after, vel) == -(v - 0.25), "a quarter pixel past: turned"
    size = (W, H)[axis]
    hi = size - r
    world = world_with(BOUNCE, [far_rock(BOUNCE)], **{pos: hi - 0.5, vel: 0.75, other: 300.0})
    after, _ = step(world, 0, BOUNCE)
    assert getattr(after, pos) == pytest.approx(hi - 0.25, abs=1e-12)
    assert getattr(after, vel) == -0.75
    assert getattr(after, other) == 300.0


# --- each kind follows its own border setting ----------------------------------------------------


def _saucer(cfg: Config, x: float, y: float, vx: float, vy: float, **fields):
    """A saucer (large unless told) in flight whose timers will not run out in a few ticks."""
    fields.setdefault("saucer_small", False)
    rocks = fields.pop("rocks", [far_rock(cfg)])
    return world_with(cfg, rocks, saucer_alive=True, saucer_x=x,
                      saucer_y=y, saucer_vx=vx, saucer_vy=vy, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100, **fields)


@pytest.mark.parametrize("bouncing", ["", "asteroids", "ship", "saucers"])
def test_each_kind_follows_its_own_border_setting(bouncing: str) -> None:
    borders = {kind: ("bounce" if kind == bouncing else "wrap")
               for kind in ("asteroids", "ship", "saucers")}
    cfg = config_with(borders=borders, ship={"drag_per_s": 0.0})
    p = params_for(cfg)
    r_ship, r_saucer = p.ship_radius, p.saucer_radius[0]
    world = _saucer(cfg, 640.0, 1.0, 0.0, -2.0, rocks=[ball(1.0, 360.0, -2.0, cfg=cfg)],
                    ship_x=1.0, ship_y=200.0, ship_vx=-2.0)
    world, _ = step(world, 0, cfg)
    if bouncing == "asteroids":  # -1 folds off the wall at r=10 to 21
        assert xy(world) == (21.0, 360.0) and vxy(world) == (2.0, 0.0)
    else:
        assert xy(world) == (W - 1.0, 360.0) and vxy(world) == (-2.0, 0.0)
    if bouncing == "ship":
        assert world.ship_x == pytest.approx(2.0 * r_ship + 1.0, abs=1e-12)
        assert world.ship_vx == 2.0
    else:
        assert (world.ship_x, world.ship_vx) == (W - 1.0, -2.0)
    if bouncing == "saucers":
        assert (world.saucer_y, world.saucer_vy) == (2.0 * r_saucer + 1.0, 2.0)
    else:
        assert (world.saucer_y, world.saucer_vy) == (H - 1.0, -2.0)
    assert world.saucer_x == 640.0


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
@pytest.mark.parametrize("x,vx,end", [
    (W - 1.0, 2.0, W), (W - 2.0, 2.0, W), (W - 2.5, 2.0, W - 0.5),
    (1.0, -2.0, 0.0), (2.0, -2.0, 0.0), (2.5, -2.0, 0.5),
])
def test_saucer_x_is_clamped_to_zero_and_width(borders: str, x: float, vx: float,
                                               end: float) -> None:
    cfg = config_with(borders={"saucers": borders})
    world, _ = step(_saucer(cfg, x, 300.0, vx, 0.0), 0, cfg)
    assert world.saucer_alive and (world.saucer_x, world.saucer_y) == (end, 300.0)
    assert world.saucer_vx == vx


@pytest.mark.parametrize("small", [False, True])
@pytest.mark.parametrize("wall,start,vy,end,vy_after", [
    ("top", 2.0, -2.0, 0.0, -2.0),  # ends exactly its radius from the wall: not turned yet
    ("top", 1.5, -2.0, 0.5, 2.0),  # half a pixel past: turned
    ("bottom", -2.5, 2.0, -0.5, 2.0),  # just short of the far wall
    ("bottom", -2.0, 2.0, 0.0, -2.0),  # exactly its radius from the far wall: turned there
])
def test_bouncing_saucer_turns_at_exactly_its_radius(small: bool, wall: str, start: float,
                                                     vy: float, end: float,
                                                     vy_after: float) -> None:
    # Offsets from the saucer's own radius line: y = r at the top, y = H - r at the bottom.
    cfg = config_with(borders={"saucers": "bounce"})
    r = params_for(cfg).saucer_radius[1 if small else 0]
    line = r if wall == "top" else H - r
    world, _ = step(_saucer(cfg, 640.0, line + start, 0.0, vy, saucer_small=small), 0, cfg)
    assert (world.saucer_y, world.saucer_vy) == (line + end, vy_after)


@pytest.mark.parametrize("y,vy,end", [(H - 1.0, 1.0, 0.0), (H - 1.0, 0.5, H - 0.5),
                                      (1.0, -1.0, 0.0), (1.0, -1.5, H - 0.5)])
def test_wrapping_saucer_y_lands_in_the_half_open_box(y: float, vy: float, end: float) -> None:
    cfg = config_with()
    world, _ = step(_saucer(cfg, 640.0, y, 0.0, vy), 0, cfg)
    assert (world.saucer_y, world.saucer_vy) == (end, vy)


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 100},
    {"ship_state": SHIP_FLYING, "game_over": True},
])
def test_ship_out_of_play_does_not_move(fields) -> None:
    world = world_with(NODRAG, [far_rock(NODRAG)], ship_x=300.0, ship_y=300.0, ship_vx=2.0,
                       ship_vy=-1.0, **fields)
    world, _ = step(world, 0, NODRAG)
    assert (world.ship_x, world.ship_y) == (300.0, 300.0)


def test_saucer_not_in_flight_neither_moves_nor_breaks_rocks() -> None:
    cfg = config_with()
    world = world_with(cfg, [diamond(CX, CY), far_rock(cfg)], saucer_x=CX, saucer_y=CY,
                       saucer_vx=2.0, saucer_vy=1.0, ship_x=100.0, ship_y=600.0)
    world, events = step(world, 0, cfg)
    assert (world.saucer_x, world.saucer_y) == (CX, CY)
    assert not of(events, ev.AsteroidDestroyed) and world.asteroid_count == 2


# --- obstacles -----------------------------------------------------------------------------------


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


# --- asteroid against asteroid -------------------------------------------------------------------

COLLIDE = quiet_with(asteroids={"collide": True, "jaggedness": 0.0})


def collide_cfg(**asteroids) -> Config:
    return quiet_with(asteroids={"collide": True, "jaggedness": 0.0, **asteroids})


def pair(cfg: Config, a: tuple, b: tuple, r: float = 8.0, rb: float | None = None):
    """Just two round rocks (x, y, vx, vy) of radius r (and rb): two is enough to collide."""
    return world_with(cfg, [ball(*a, r=r, cfg=cfg), ball(*b, r=r if rb is None else rb, cfg=cfg)])


@pytest.mark.parametrize("e,va,vb", [(1.0, -1.0, 3.0), (0.0, 1.0, 1.0), (0.5, 0.0, 2.0)])
def test_equal_rocks_head_on_exchange_momentum_by_restitution(e: float, va: float,
                                                              vb: float) -> None:
    # Masses 64 each; they end exactly touching (16 apart), closing at 4 px a tick.
    cfg = collide_cfg(restitution=e)
    world = pair(cfg, (97.0, 300.0, 3.0, 0.0), (117.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, cfg)
    assert xy(world, 0) == (100.0, 300.0) and xy(world, 1) == (116.0, 300.0)
    assert vxy(world, 0) == (va, 0.0) and vxy(world, 1) == (vb, 0.0)


def test_rocks_just_apart_do_not_collide() -> None:
    world = pair(COLLIDE, (97.0, 300.0, 3.0, 0.0), (above(116.0) + 1.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert vxy(world, 0) == (3.0, 0.0) and vxy(world, 1) == (-1.0, 0.0)
    assert xy(world, 1) == (above(116.0), 300.0)


@pytest.mark.parametrize("jaggedness,x,hit", [
    (0.5, 124.0, True), (0.5, above(124.0), False), (0.25, 128.0, True),
    (0.25, above(128.0), False),
])
def test_contact_radius_shrinks_with_jaggedness(jaggedness: float, x: float, hit: bool) -> None:
    # Rocks of radius 16 touch at 2 * 16 * (1 - jaggedness / 2) apart: 24, or 28. The first
    # ends at x = 100, the still second at x: exactly touching, or one ulp apart.
    cfg = collide_cfg(jaggedness=jaggedness)
    world = pair(cfg, (99.0, 300.0, 1.0, 0.0), (x, 300.0, 0.0, 0.0), r=16.0)
    world, _ = step(world, 0, cfg)
    assert world.ast_vel[:2, 0].tolist() == pytest.approx([0.0, 1.0] if hit else [1.0, 0.0],
                                                          abs=1e-12)
    assert xy(world, 1) == (x, 300.0), "touching is not overlapping: nothing to push"


def test_unequal_rocks_share_momentum_and_overlap_by_mass() -> None:
    # Radii 16 and 8: masses 256 and 64. They end 23 apart, 1 px overlapping.
    world = pair(COLLIDE, (100.0, 300.0, 1.0, 0.0), (125.0, 300.0, -1.0, 0.0), r=16.0, rb=8.0)
    world, _ = step(world, 0, COLLIDE)
    m1, m2, v1, v2 = 256.0, 64.0, 1.0, -1.0
    assert world.ast_vel[0, 0] == pytest.approx(((m1 - m2) * v1 + 2 * m2 * v2) / (m1 + m2),
                                                abs=1e-12)
    assert world.ast_vel[1, 0] == pytest.approx(((m2 - m1) * v2 + 2 * m1 * v1) / (m1 + m2),
                                                abs=1e-12)
    assert world.ast_pos[0, 0] == pytest.approx(101.0 - 0.2, abs=1e-12), "the heavy one: 1/5"
    assert world.ast_pos[1, 0] == pytest.approx(124.0 + 0.8, abs=1e-12), "the light one: 4/5"
    assert world.ast_pos[:, 1].tolist() == [300.0, 300.0]
    assert world.ast_vel[:2, 1].tolist() == [0.0, 0.0]


HAIR = 2 ** -30


@pytest.mark.parametrize("va,vb,va_after,vb_after", [
    ((-1.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (1.0, 0.0)),  # separating (vn = 2 > 0)
    ((0.0, 1.0), (0.0, -1.0), (0.0, 1.0), (0.0, -1.0)),  # sliding past (vn = 0)
    ((0.5, 1.0), (0.5, 1.0), (0.5, 1.0), (0.5, 1.0)),  # moving together (vn = 0)
    ((-HAIR, 0.0), (0.0, 0.0), (-HAIR, 0.0), (0.0, 0.0)),  # separating by a hair
    ((HAIR, 0.0), (0.0, 0.0), (0.0, 0.0), (HAIR, 0.0)),  # approaching by a hair: exchanged
])
def test_overlapping_rocks_exchange_momentum_only_when_approaching(va, vb, va_after,
                                                                   vb_after) -> None:
    # They end 12 apart (4 px overlap) and are pushed 2 px out each along the x axis.
    world = pair(COLLIDE, (100.0 - va[0], 300.0 - va[1], *va),
                 (112.0 - vb[0], 300.0 - vb[1], *vb))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (98.0, 300.0) and xy(world, 1) == (114.0, 300.0)
    assert vxy(world, 0) == va_after and vxy(world, 1) == vb_after


def test_coincident_rocks_part_along_x() -> None:
    # Both end at (301, 300): no centre line, so the x axis is used; equal masses, head on.
    world = pair(COLLIDE, (300.0, 300.0, 1.0, 0.0), (302.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (293.0, 300.0) and xy(world, 1) == (309.0, 300.0)
    assert vxy(world, 0) == (-1.0, 0.0) and vxy(world, 1) == (1.0, 0.0)


def test_rocks_collide_across_the_wrap_seam() -> None:
    # They end at x = 2 and x = W - 2: 4 apart across the seam, 12 px overlapping.
    world = pair(COLLIDE, (3.0, 300.0, -1.0, 0.0), (W - 3.0, 300.0, 1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (8.0, 300.0) and xy(world, 1) == (W - 8.0, 300.0)
    assert vxy(world, 0) == (1.0, 0.0) and vxy(world, 1) == (-1.0, 0.0)


def test_bouncing_rocks_at_opposite_walls_do_not_touch_across_the_border() -> None:
    # Each rock is 8 from its wall: 16 apart across the border, which is no seam here.
    cfg = quiet_with(asteroids={"collide": True, "jaggedness": 0.0},
                     borders={"asteroids": "bounce"})
    world = pair(cfg, (8.0, 300.0, 0.0, 0.0), (W - 9.0, 300.0, 1.0, 0.0))
    world, _ = step(world, 0, cfg)
    assert xy(world, 0) == (8.0, 300.0) and vxy(world, 0) == (0.0, 0.0)
    assert xy(world, 1) == (W - 8.0, 300.0) and vxy(world, 1) == (-1.0, 0.0)


def test_a_row_of_three_touching_rocks_passes_the_blow_to_the_far_end() -> None:
    # Newton's cradle: contacts sharing a rock are solved one after the other, not at once.
    world = world_with(COLLIDE, [ball(100.0, 300.0, 1.0, 0.0, r=8.0, cfg=COLLIDE),
                                 ball(116.0, 300.0, r=8.0, cfg=COLLIDE),
                                 ball(132.0, 300.0, r=8.0, cfg=COLLIDE), far_rock(COLLIDE)])
    world, _ = step(world, 0, COLLIDE)
    assert world.ast_vel[:3, 0].tolist() == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)
    assert world.ast_pos[:3, 0].tolist() == pytest.approx([100.5, 116.25, 132.25], abs=1e-12)


@pytest.mark.parametrize("n", [64, 65])
def test_contacts_on_one_rock_are_solved_in_at_most_64_rounds(n: int) -> None:
    # n pebbles (radius 1) each 0.5 px into one big still rock (radius 44) and clear of each
    # other: every contact shares the big rock, so each needs a round of its own.
    pebbles = [ball(CX + 44.5 * math.cos(2 * math.pi * k / n),
                    CY + 44.5 * math.sin(2 * math.pi * k / n), r=1.0, cfg=COLLIDE)
               for k in range(n)]
    world = world_with(COLLIDE, [ball(CX, CY, r=44.0, cfg=COLLIDE), *pebbles], ship_x=100.0,
                       ship_y=600.0)
    world, _ = step(world, 0, COLLIDE)
    gaps = np.hypot(*(world.ast_pos[1:] - world.ast_pos[0]).T)
    assert (gaps[:64] > 44.99).all(), "the first 64 contacts were solved this tick"
    if n == 65:
        assert gaps[64] == pytest.approx(44.5, abs=0.01), "the 65th waits for the next tick"
        world, _ = step(world, 0, COLLIDE)
        assert np.hypot(*(world.ast_pos[65] - world.ast_pos[0])) > 44.99


# --- craft against rocks and each other ----------------------------------------------------------


@pytest.mark.parametrize("borders,rock,centre,found", [
    ("wrap", (125.0, 300.0), (100.0, 300.0), True),
    ("wrap", (above(125.0), 300.0), (100.0, 300.0), False),
    ("wrap", (115.0, 320.0), (100.0, 300.0), True),  # 15 by 20: 25 apart
    ("wrap", (115.0, above(320.0)), (100.0, 300.0), False),
    ("wrap", (W - 25.0, 300.0), (0.0, 300.0), True),  # across the seam
    ("wrap", (below(W - 25.0), 300.0), (0.0, 300.0), False),
    ("wrap", (300.0, H - 25.0), (300.0, 0.0), True),
    ("wrap", (300.0, below(H - 25.0)), (300.0, 0.0), False),
    ("bounce", (125.0, 300.0), (100.0, 300.0), True),
    ("bounce", (above(125.0), 300.0), (100.0, 300.0), False),
    ("bounce", (W - 25.0, 300.0), (0.0, 300.0), False),  # no seam when nothing wraps
    ("bounce", (300.0, H - 25.0), (300.0, 0.0), False),
])
def test_near_counts_bounding_circles_touching_exactly(borders: str, rock, centre,
                                                       found: bool) -> None:
    # A rock of radius 10 against a circle of radius 15: they touch at 25 apart.
    cfg = quiet_with(borders={k: borders for k in ("asteroids", "ship", "shots", "saucers")})
    world = world_with(cfg, [ball(*rock, cfg=cfg)])
    near = rocks_near(Draft(world), params_for(cfg), centre, 15.0)
    assert near.tolist() == ([0] if found else [])


def test_ship_touching_two_rocks_breaks_the_lowest_index_only() -> None:
    world = world_with(CFG, [ball(CX + 5.0, CY), ball(CX - 5.0, CY), far_rock()])
    world, events = step(world, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(e.x, e.by) for e in broken] == [(CX + 5.0, "ship")]
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.ast_pos[:, 0].tolist() == [CX - 5.0, 100.0]


def test_rock_claimed_by_a_shot_is_not_claimed_again_by_the_ship() -> None:
    # A shot from the right breaks rock 0 this tick; the ship, touching both, breaks rock 1.
    world = world_with(CFG, [ball(CX + 5.0, CY), ball(CX - 5.0, CY), far_rock()])
    world = with_shots(world, [(SHOOTER_SHIP, CX + 40.0, CY, -30.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(e.x, e.by) for e in broken] == [(CX + 5.0, "ship-shot"), (CX - 5.0, "ship")]
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.ast_pos[:, 0].tolist() == [100.0]


def test_ship_breaks_the_rock_whose_outline_it_touches_not_the_nearer_circle() -> None:
    # The ship points +x: its outline reaches y = 364.8 above the centre at x = CX. Rock 0
    # (radius 4, 14 above) has its bounding circle inside the ship's but its outline clear of
    # it; rock 1 (radius 30, 30 below) reaches up to the centre line.
    world = world_with(CFG, [ball(CX, CY + 14.0, r=4.0), ball(CX, CY - 30.0, r=30.0),
                             far_rock()], ship_heading=0)
    world, events = step(world, 0, CFG)
    assert [(e.x, e.y) for e in of(events, ev.AsteroidDestroyed)] == [(CX, CY - 30.0)]
    assert world.ast_pos[:, 1].tolist() == [CY + 14.0, 100.0]


@pytest.mark.parametrize("rock_x,hit", [(W - 3.0, True), (W - 20.0, False)])
def test_ship_meets_a_rock_across_the_seam(rock_x: float, hit: bool) -> None:
    # The ship points up at x = 5, its tail corners 9.6 to either side (x = -4.6 is W - 4.6).
    # A rock of radius 10 at W - 3 overlaps it across the seam; at W - 20 its bounding circle
    # still reaches the ship's but its outline stops short of the tail.
    world = world_with(CFG, [ball(rock_x, CY), far_rock()], ship_x=5.0)
    _, events = step(world, 0, CFG)
    assert bool(of(events, ev.ShipDestroyed)) == hit
    assert len(of(events, ev.AsteroidDestroyed)) == int(hit)


@pytest.mark.parametrize("small,rock_at,hit", [
    (False, (CX - 30.0, CY), True),  # the rock's right corner exactly on the saucer's left tip
    (False, (below(CX - 30.0), CY), False),  # one ulp apart: bounding circles apart
    (True, (CX - 20.0, CY), True),
    (True, (below(CX - 20.0), CY), False),
    (True, (CX, CY + 16.0), True),  # 0.5 px into the small saucer's dome (6.5 up)
    (True, (CX, CY + 19.0), False),  # clear of it (a large saucer's dome reaches 13 up)
])
def test_saucer_meets_a_rock_by_its_own_size(small: bool, rock_at, hit: bool) -> None:
    world = _saucer(CFG, CX, CY, 0.0, 0.0, saucer_small=small, ship_x=100.0, ship_y=600.0,
                    rocks=[diamond(*rock_at), far_rock()])
    world, events = step(world, 0, CFG)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == (["asteroid"] if hit else [])
    assert [(e.x, e.by) for e in of(events, ev.AsteroidDestroyed)] == (
        [(rock_at[0], "saucer")] if hit else [])
    assert world.saucer_alive != hit


@pytest.mark.parametrize("borders,hit", [("wrap", True), ("bounce", False)])
def test_ship_meets_a_saucer_at_the_far_edge_only_across_a_seam(borders: str, hit: bool) -> None:
    # A large saucer (half-width 20) at x = W, the ship (pointing up) at x = 16: its tail
    # corners at x = 6.4 are 13.6 px inside the saucer across the border, which is a seam only
    # when something wraps.
    cfg = config_with(borders={k: borders for k in ("asteroids", "ship", "shots", "saucers")})
    world = _saucer(cfg, W, CY, 0.0, 0.0, ship_x=16.0)
    _, events = step(world, 0, cfg)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == (["ship"] if hit else [])
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == (["saucer"] if hit else [])


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 100},
    {"ship_state": SHIP_FLYING, "game_over": True},
])
def test_ship_out_of_play_is_not_hit_by_a_rock(fields) -> None:
    world = world_with(CFG, [ball(CX, CY), far_rock()], **fields)
    world, events = step(world, 0, CFG)
    assert not of(events, ev.AsteroidDestroyed) and not of(events, ev.ShipDestroyed)
    assert world.asteroid_count == 2


# --- the shield ----------------------------------------------------------------------------------

SHIELDED = quiet_with(ship={"shield": {"enabled": True}, "drag_per_s": 0.0})
R_SHIELD = params_for(SHIELDED).shield_radius  # 26


@pytest.mark.parametrize("x,bounced", [(CX + R_SHIELD + 10.0, True),
                                       (above(CX + R_SHIELD + 10.0), False)])
def test_shield_touching_a_rock_at_exactly_its_radius(x: float, bounced: bool) -> None:
    # The rock's left vertex (radius 10) ends exactly on the shield circle, or one ulp out.
    world = world_with(SHIELDED, [diamond(x + 1.0, CY, -1.0, 0.0), far_rock(SHIELDED)])
    world, events = step(world, SHIELD, SHIELDED)
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
    world = world_with(cfg, [diamond(end - v, CY, v, 0.0), far_rock(cfg)], ship_vx=2.0)
    world, events = step(world, SHIELD, cfg)
    assert not of(events, ev.ShipDestroyed) and world.ship_x == CX + 2.0
    assert xy(world) == (end + 2.0, CY) and vxy(world) == (v_after, 0.0)


def test_shield_bounces_a_rock_across_the_seam() -> None:
    # Ship at x = 30; the rock ends at x = -4 (W - 4), 2 px into the shield across the seam,
    # and is pushed back to W - 6, where it stays: the seam is no wall.
    world = world_with(SHIELDED, [diamond(W - 5.0, CY, 1.0, 0.0), far_rock(SHIELDED)],
                       ship_x=30.0)
    world, _ = step(world, SHIELD, SHIELDED)
    assert xy(world) == (W - 6.0, CY) and vxy(world) == (-1.0, 0.0)
