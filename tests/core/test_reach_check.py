"""The step's "can any shot reach anything this tick" shortcut never hides a hit (issue 13).

``reach.shots_may_hit`` lets ``step`` skip the shot query; it must answer True whenever
the query (``first_hits``) finds a hit. Small hand-built worlds AT its edges: a crowd of more
than ``_REACH_MAX_PAIRS`` (shot, rock) pairs, a world with exactly one obstacle, a craft across
the wrap seam on each axis, a craft moving fast toward a shot, a small saucer wider than the
large one, and its cache ``_rock_reach`` after a rock's speed or size changes. Also
``rocks_near`` (the bounding-circle prefilter) at exactly touching circles.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import InputFrame, reach, step
from asteroids.core import events as ev
from asteroids.core.craft import SAFE
from asteroids.core.params import params_for
from asteroids.core.spawn import NewRock
from asteroids.core.touch import rocks_near
from asteroids.core.world import SHOOTER_SAUCER, SHOOTER_SHIP, Draft, World
from tests.core.worlds import (
    CFG,
    P,
    config_with,
    of,
    quiet,
    rock,
    shot_query_finds_hit,
    with_shots,
    world_with,
)

W, H = P.width, P.height


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0,
         cfg: Config = CFG) -> NewRock:
    """A small round (12-gon) rock: breaking it leaves no fragments."""
    return rock(2, x, y, vx, vy, round_radius=r, cfg=cfg)


def far_rock(cfg: Config = CFG) -> NewRock:
    return ball(100.0, 100.0, cfg=cfg)


def query_hits(world: World, cfg: Config) -> bool:
    """Whether the full shot query finds any hit this tick (what the check must not hide)."""
    return shot_query_finds_hit(Draft(world), params_for(cfg))


def check(world: World, cfg: Config) -> bool:
    return reach.shots_may_hit(Draft(world), params_for(cfg))


# --- crowds: more than _REACH_MAX_PAIRS (shot, rock) pairs always query ----------------------


@pytest.mark.parametrize("n_shots", [32, 33])  # 32 x 16 = 512 pairs (checked), 33 x 16 = 528
def test_crowd_past_512_pairs_still_breaks_the_rock_a_shot_reaches(n_shots: int) -> None:
    rocks = [ball(60.0 + 55.0 * i, 600.0) for i in range(16)]
    world = world_with(CFG, rocks)
    # One shot 5 px left of rock 0's edge, moving 10 px right; the rest idle in open space.
    shots = [(SHOOTER_SHIP, 45.0, 600.0, 10.0, 0.0, 30)]
    shots += [(SHOOTER_SHIP, 40.0 + 25.0 * i, 150.0, 0.0, 0.5, 30) for i in range(n_shots - 1)]
    world = with_shots(world, shots)
    assert (n_shots * 16 > reach.REACH_MAX_PAIRS) == (n_shots == 33)
    assert query_hits(world, CFG) and check(world, CFG)
    after, events = step(world, 0, CFG)
    assert [(e.x, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(60.0, "ship-shot")]
    assert after.asteroid_count == 15 and after.shot_id.shape[0] == n_shots - 1
    assert after.score > world.score


# --- obstacles: a world with exactly one obstacle always queries -----------------------------


def test_world_with_one_obstacle_stops_the_shot_at_it() -> None:
    block = Obstacle(points=((600.0, 300.0), (640.0, 300.0), (640.0, 340.0), (600.0, 340.0)))
    cfg = quiet(config_with(obstacles=(block,)))
    world = with_shots(world_with(cfg, [far_rock(cfg)]),
                       [(SHOOTER_SHIP, 595.0, 320.0, 10.0, 0.0, 30)])
    assert params_for(cfg).obstacle_offsets.shape[0] == 2  # one obstacle
    assert check(world, cfg)
    after, _ = step(world, 0, cfg)
    # Flying free it would end at (605, 320), inside the block.
    assert after.shot_id.shape[0] == 0 or after.shot_pos[0].tolist() != [605.0, 320.0]


# --- craft: the other side's craft, across the seam, moving, wide ----------------------------


def saucer_world(cfg: Config, x: float, y: float, *, small: bool = True, vx: float = 0.0,
                 vy: float = 0.0) -> World:
    return world_with(cfg, [far_rock(cfg)], saucer_alive=True, saucer_small=small,
                      saucer_x=x, saucer_y=y, saucer_vx=vx, saucer_vy=vy)


@pytest.mark.parametrize("axis", ["x", "y"])
def test_ship_shot_hits_the_saucer_across_the_wrap_seam(axis: str) -> None:
    # The saucer 5 px before the far edge, the shot 5 px past the near one moving over the seam:
    # 10 px apart in the nearest image, nearly a whole screen apart without it.
    if axis == "x":
        world = saucer_world(CFG, W - 5.0, 500.0)
        shot = (SHOOTER_SHIP, 5.0, 500.0, -8.0, 0.0, 30)
    else:
        world = saucer_world(CFG, 500.0, H - 5.0)
        shot = (SHOOTER_SHIP, 500.0, 5.0, 0.0, -8.0, 30)  # same x as the saucer: dx == 0
    world = with_shots(world, [shot])
    assert query_hits(world, CFG) and check(world, CFG)
    after, events = step(world, 0, CFG)
    assert len(of(events, ev.SaucerDestroyed)) == 1 and not after.saucer_alive
    assert after.shot_id.shape[0] == 0


@pytest.mark.parametrize("axis", ["x", "y"])
def test_saucer_shot_hits_the_ship_across_the_wrap_seam(axis: str) -> None:
    if axis == "x":
        world = world_with(CFG, [far_rock()], ship_x=W - 4.0, ship_y=500.0)
        shot = (SHOOTER_SAUCER, 4.0, 500.0, -8.0, 0.0, 30)
    else:
        world = world_with(CFG, [far_rock()], ship_x=500.0, ship_y=H - 4.0)
        shot = (SHOOTER_SAUCER, 500.0, 4.0, 0.0, -8.0, 30)
    world = with_shots(world, [shot])
    assert query_hits(world, CFG) and check(world, CFG)
    _, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]


def test_shot_straight_below_a_far_saucer_flies_on() -> None:
    # Same x (dx == 0), 300 px apart: nothing in reach, the shot just moves.
    world = with_shots(saucer_world(CFG, 500.0, 100.0),
                       [(SHOOTER_SHIP, 500.0, 400.0, 0.0, 8.0, 30)])
    assert not check(world, CFG)
    after, events = step(world, 0, CFG)
    assert after.shot_pos.tolist() == [[500.0, 408.0]] and after.saucer_alive
    assert not of(events, ev.SaucerDestroyed)


def test_saucer_moving_fast_onto_a_slow_shot_is_hit() -> None:
    # Small saucer (radius 10) 20 px right of the shot, coming 15 px a tick; the shot crawls.
    # Its reach counts its own motion: without it (1.5 r - |v|) the shot would be "far".
    world = with_shots(saucer_world(CFG, 520.0, 500.0, vx=-15.0),
                       [(SHOOTER_SHIP, 500.0, 500.0, 0.5, 0.0, 30)])
    assert query_hits(world, CFG) and check(world, CFG)
    after, events = step(world, 0, CFG)
    assert len(of(events, ev.SaucerDestroyed)) == 1 and not after.saucer_alive


def test_small_saucer_wider_than_the_large_one_uses_its_own_radius() -> None:
    cfg = quiet(config_with(saucers={"small_radius_px": 60.0, "large_radius_px": 10.0}))
    # 65 px from the small saucer's centre, moving 8 px toward it: crosses its edge at 60.
    world = with_shots(saucer_world(cfg, 500.0, 500.0), [(SHOOTER_SHIP, 565.0, 500.0, -8.0,
                                                         0.0, 30)])
    assert query_hits(world, cfg) and check(world, cfg)
    after, events = step(world, 0, cfg)
    assert len(of(events, ev.SaucerDestroyed)) == 1 and not after.saucer_alive


# --- a rock reaches as far as its own speed and radius take it ---------------------------------


def test_rock_reach_grows_with_the_rocks_speed() -> None:
    slow = with_shots(world_with(CFG, [ball(400.0, 400.0)]),
                      [(SHOOTER_SHIP, 700.0, 150.0, 0.0, 5.0, 30)])
    d = Draft(slow)
    d.ast_vel = np.array([[-12.0, 0.0]])  # the same radius array, the rock now comes at 12
    # 25 px from the centre (15 from the edge), moving 5 right: they meet this tick.
    d.shot_pos, d.shot_vel = np.array([[375.0, 400.0]]), np.array([[5.0, 0.0]])
    fast = d.freeze()
    assert fast.ast_radius is slow.ast_radius
    assert query_hits(fast, CFG) and check(fast, CFG)
    after, events = step(fast, 0, CFG)
    assert len(of(events, ev.AsteroidDestroyed)) == 1 and after.shot_id.shape[0] == 0


def test_rock_reach_grows_with_the_rocks_radius() -> None:
    small = with_shots(world_with(CFG, [ball(400.0, 400.0)]),
                       [(SHOOTER_SHIP, 700.0, 150.0, 0.0, 5.0, 30)])
    d = Draft(world_with(CFG, [ball(400.0, 400.0, r=40.0)]))
    d.ast_vel = small.ast_vel  # the same velocity array, a rock of radius 40
    big = with_shots(d.freeze(), [(SHOOTER_SHIP, 355.0, 400.0, 8.0, 0.0, 30)])
    assert query_hits(big, CFG) and check(big, CFG)
    after, events = step(big, 0, CFG)
    assert len(of(events, ev.AsteroidDestroyed)) == 1 and after.shot_id.shape[0] == 0


# --- rocks_near: the bounding-circle prefilter -------------------------------------------------


def below(x: float) -> float:
    return math.nextafter(x, -math.inf)


@pytest.mark.parametrize("rock_at,found", [
    ((120.0, 300.0), True),  # 20 px right of a centre away from the screen's middle
    ((100.0, 320.0), True),  # 20 px straight below (dx == 0)
    ((100.0, 325.0), True),  # exactly touching: 25 = 10 + 15
    ((115.0, 320.0), True),  # 15 by 20: exactly 25 apart
    ((100.0, 326.0), False),
])
def test_rocks_near_counts_circles_touching_exactly(rock_at, found: bool) -> None:
    world = world_with(CFG, [ball(*rock_at)])
    near = rocks_near(Draft(world), P, (100.0, 300.0), 15.0)
    assert near.tolist() == ([0] if found else [])


SHIELDED = quiet(config_with(ship={"shield": {"enabled": True}, "drag_per_s": 0.0}))


@pytest.mark.parametrize("gap,bounced", [(0.0, True), (1.0, False)])
def test_shield_bounces_a_rock_whose_vertex_ends_exactly_on_it(gap: float, bounced: bool) -> None:
    # A diamond of radius 10 whose left vertex ends the rock's move exactly on the shield
    # circle: the bounding circles touch exactly, so the prefilter must keep it.
    r_shield = params_for(SHIELDED).ship_shield_radius_px
    ship_x, ship_y = SHIELDED.world.width_px / 2, SHIELDED.world.height_px / 2
    x = ship_x + r_shield + 10.0 + gap
    outline = [(10.0, 0.0), (0.0, 10.0), (-10.0, 0.0), (0.0, -10.0)]
    diamond = NewRock(2, x + 1.0, ship_y, -1.0, 0.0, 0, 0, outline, 10.0)
    world = world_with(SHIELDED, [diamond, far_rock(SHIELDED)], ship_x=ship_x, ship_y=ship_y)
    after, events = step(world, int(InputFrame.SHIELD), SHIELDED)
    assert after.shield_on and not of(events, ev.ShipDestroyed)
    assert after.ast_vel[0].tolist() == ([1.0, 0.0] if bounced else [-1.0, 0.0])


@pytest.mark.parametrize("n_shots", [3, 17])  # the plain-float loop and the numpy branch
def test_a_nan_shot_velocity_always_runs_the_query(n_shots: int) -> None:
    """A broken (NaN) velocity must reach the shot query, which reports it, whichever shot it
    is in: the reach check may not skip the query because a later shot is finite."""
    cfg = quiet(CFG)
    world = world_with(cfg, [far_rock(cfg)])
    shots = [(SHOOTER_SHIP, 900.0, 600.0, 1.0, 0.0, 30) for _ in range(n_shots)]
    world = with_shots(world, shots)
    d = Draft(world)
    vel = d.shot_vel.copy()
    vel[0] = (math.nan, 0.0)
    d.shot_vel = vel
    assert check(d.freeze(), cfg)
    assert not check(world, cfg)  # the same shots with finite speeds are out of reach


# --- and it says "no" just past its bounds: it exists to skip the query on most ticks ----------


def _margin(shot_speed: float, p=P) -> float:
    """The shots' travel, with the check's safety factor and its 1 px and relative slack."""
    return shot_speed * SAFE + 1.0 + 1e-6 * (p.width + p.height)


def test_a_shot_half_a_pixel_past_a_moving_rocks_reach_is_not_queried() -> None:
    # A rock of radius 10 moving 3 px a tick reaches (10 + 3) * SAFE + margin on each axis; a
    # shot moving 4 px a tick toward it starts half a pixel farther than that.
    world = world_with(CFG, [ball(400.0, 400.0, 3.0, 0.0)])
    gap = (10.0 + 3.0) * SAFE + _margin(4.0) + 0.5
    world = with_shots(world, [(SHOOTER_SHIP, 400.0 - gap, 400.0, 4.0, 0.0, 30)])
    assert not query_hits(world, CFG) and not check(world, CFG)
    after, events = step(world, 0, CFG)
    assert not of(events, ev.AsteroidDestroyed)
    assert after.shot_pos.tolist() == [[400.0 - gap + 4.0, 400.0]]


@pytest.mark.parametrize("dx", [
    None,    # half a pixel past the craft's limit (1.5 r + |v|) * SAFE + margin
    118.0,   # far, and not near a tenth of the screen's width
])
def test_a_ship_shot_past_the_saucers_limit_is_not_queried(dx: float | None) -> None:
    r = P.saucer_radius[0]
    if dx is None:
        dx = 1.5 * r * SAFE + _margin(4.0) + 0.5
    world = with_shots(saucer_world(CFG, 700.0, 500.0, small=False),
                       [(SHOOTER_SHIP, 700.0 - dx, 500.0, 4.0, 0.0, 30)])
    assert not query_hits(world, CFG) and not check(world, CFG)


def test_exactly_512_far_pairs_are_checked_not_queried() -> None:
    # 32 shots x 16 rocks = REACH_MAX_PAIRS: still checked (a crowd is one pair more), and
    # every shot is far from every rock.
    rocks = [ball(60.0 + 55.0 * i, 600.0) for i in range(16)]
    shots = [(SHOOTER_SHIP, 40.0 + 25.0 * i, 150.0, 0.0, 0.5, 30) for i in range(32)]
    world = with_shots(world_with(CFG, rocks), shots)
    assert 32 * 16 == reach.REACH_MAX_PAIRS
    assert not query_hits(world, CFG) and not check(world, CFG)
