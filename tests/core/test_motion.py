"""Motion and the borders: rocks and the ship move by their velocity, spin, wrap into the
half-open box or bounce at exactly a radius from a wall, each kind by its own border rule."""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.spawn import NewRock
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, SHIP_HYPERSPACE, SHOOTER_SHIP
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, with_shots, world_with

W, H = P.width, P.height
CX, CY = 0.5 * P.width, 0.5 * P.height
QUARTER = HEADING_STEPS // 4


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def at(size: float, offset: float) -> float:
    """A coordinate: ``offset`` from 0, or (negative) from the far edge ``size``."""
    return size + offset if offset < 0 else offset


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


NEEDLE = [(40.0, 0.0), (0.0, 2.0), (-40.0, 0.0), (0.0, -2.0)]
NODRAG = quiet_with(ship={"drag_per_s": 0.0})
BOUNCE = quiet_with(borders={"asteroids": "bounce", "ship": "bounce", "saucers": "bounce"},
                    ship={"drag_per_s": 0.0})


def _saucer(cfg: Config, x: float, y: float, vx: float, vy: float, **fields):
    """A saucer (large unless told) in flight whose timers will not run out in a few ticks."""
    fields.setdefault("saucer_small", False)
    rocks = fields.pop("rocks", [far_rock(cfg)])
    return world_with(cfg, rocks, saucer_alive=True, saucer_x=x,
                      saucer_y=y, saucer_vx=vx, saucer_vy=vy, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100, **fields)


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


def test_bounce_keeps_everything_inside_even_for_huge_overshoot() -> None:
    cfg = config_with(borders={"asteroids": "bounce", "ship": "bounce", "shots": "bounce"},
                      asteroids={"speed_max_px_per_s": 10000.0}, saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(2, 50.0, 50.0, -3000.0, 2500.0, round_radius=8.0, cfg=cfg)],
                   ship_vx=-900.0, ship_vy=77.0)
    w = with_shots(w, [(SHOOTER_SHIP, 100.0, 100.0, 4000.0, -1234.5, 10)])
    for _ in range(5):
        w, _ = step(w, 0, cfg)
        r = float(w.ast_radius[0])
        assert r - 1e-9 <= w.ast_pos[0, 0] <= p.width - r + 1e-9
        assert r - 1e-9 <= w.ast_pos[0, 1] <= p.height - r + 1e-9
        assert 0.0 <= w.ship_x <= p.width and 0.0 <= w.ship_y <= p.height
        for x, y in w.shot_pos:
            assert 0.0 <= x <= p.width and 0.0 <= y <= p.height


def test_wrap_keeps_positions_in_the_half_open_box() -> None:
    w = world_with(CFG, [rock(2, 0.5, 0.5, -1.0, -1.0, round_radius=8.0)])
    w, _ = step(w, 0, CFG)
    assert w.ast_pos[0, 0] == pytest.approx(P.width - 0.5)
    assert 0.0 <= w.ast_pos[0, 0] < P.width and 0.0 <= w.ast_pos[0, 1] < P.height
