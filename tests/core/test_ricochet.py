"""A shot's path after it ricochets off an obstacle, within the same tick (issue 9, section 0).

The rest of the path after a pillar is tested against the targets exactly like the rest of
the path after a border ricochet: against the shooter's targets where they are when that
piece starts and moving as they do during the tick, with hit times on the whole tick's clock,
and it may ricochet again (off another pillar or a wall) up to the per-tick cap of
``simulation.MAX_SHOT_PIECES`` pieces.

The pillar is the square x 580..620, y 180..220 unless a test says otherwise; the shots that
meet its left face at y = 200 come straight back along y = 200.
"""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config, Obstacle
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP
from tests.core.worlds import config_with, of, quiet, rock, with_shots, world_with

SQUARE = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))


def pillars(*obstacles: tuple[tuple[float, float], ...], borders: str = "wrap",
            saucers: bool = False) -> Config:
    """Shots ricochet off ``obstacles`` (default: SQUARE); borders wrap or bounce."""
    cfg = config_with(obstacles=tuple(Obstacle(points=o) for o in obstacles or (SQUARE,)),
                      shots={"at_obstacles": "ricochet"},
                      borders={"asteroids": borders, "ship": borders, "shots": borders,
                               "saucers": borders})
    return cfg if saucers else quiet(cfg)


def far(cfg: Config):
    return rock(0, 1000.0, 600.0, round_radius=10.0, cfg=cfg)


# --- a shot off a pillar into a rock ------------------------------------------------------


def shot_back_from_the_pillar(cfg: Config, rock_x: float):
    """One step of a shot that meets the pillar at 1/12 tick and travels the other 11 px back,
    to x = 569, with a small rock (tip at rock_x + 1) on its way."""
    target = rock(2, rock_x, 200.0, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far(cfg), target]),
                   [(SHOOTER_SHIP, 579.0, 200.0, 12.0, 0.0, 30)])
    return step(w, 0, cfg)


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
@pytest.mark.parametrize("rock_x", [570.0, 568.05])  # tip at 571, or 0.05 px before 569
def test_a_shot_off_a_pillar_breaks_a_rock_on_its_way_back(borders: str, rock_x: float) -> None:
    world, events = shot_back_from_the_pillar(pillars(borders=borders), rock_x)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.size, b.x, b.y, b.by, b.points) for b in broken] == [
        (2, rock_x, 200.0, "ship-shot", 100)]
    assert world.shot_id.shape[0] == 0, "the shot is spent on the rock"
    assert world.score == 100


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
def test_a_rock_just_beyond_the_ricochets_reach_stays_whole(borders: str) -> None:
    # One step past the boundary: the tip at 568.95 is 0.05 px beyond the end of the path,
    # while a tip 0.05 px before it is hit (the pair checks that the remainder is tested).
    cfg = pillars(borders=borders)
    world, events = shot_back_from_the_pillar(cfg, 567.95)
    assert not of(events, ev.AsteroidDestroyed) and world.score == 0
    assert world.shot_pos.tolist() == [[569.0, 200.0]]
    assert world.shot_vel.tolist() == [[-12.0, 0.0]]
    _, events = shot_back_from_the_pillar(cfg, 568.05)
    assert len(of(events, ev.AsteroidDestroyed)) == 1


@pytest.mark.parametrize("y0,vy,mover_hit", [(206.0, -12.0, True), (200.0, 12.0, False)])
def test_the_rest_of_the_path_sees_rocks_move(y0: float, vy: float, mover_hit: bool) -> None:
    # Back from the pillar the shot is at x = 581 - 12 t. A small rock (tip at x = 575) that
    # comes down from y = 206 at 12 px a tick is at y = 200 at half a tick, just when the
    # shot reaches x = 575: hit. One that starts on the line and moves up at 12 px a tick is
    # 6 px above it by then: missed, though it sat right on the path when the tick began.
    # A still rock at the end of the path (tip at 569.5) breaks only when the mover is missed.
    cfg = pillars()
    mover = rock(2, 574.0, y0, 0.0, vy, round_radius=1.0, cfg=cfg)
    still = rock(2, 568.5, 200.0, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far(cfg), mover, still]),
                   [(SHOOTER_SHIP, 579.0, 200.0, 12.0, 0.0, 30)])
    world, events = step(w, 0, cfg)
    broken = of(events, ev.AsteroidDestroyed)
    # (A rock breaks where it is at the end of the tick.)
    assert [(b.x, b.y) for b in broken] == ([(574.0, y0 + vy)] if mover_hit
                                            else [(568.5, 200.0)])
    assert world.shot_id.shape[0] == 0


# --- whose shot, and which target --------------------------------------------------------


def test_a_ship_shot_off_a_pillar_into_the_saucer_scores_for_the_player() -> None:
    # The shot meets the pillar at 1/12 tick and flies back 22 px, to x = 558, into the
    # large saucer (x 525..565) that waits on the line.
    cfg = pillars(saucers=True)
    w = world_with(cfg, [far(cfg)], saucer_alive=True, saucer_small=False, saucer_x=545.0,
                   saucer_y=200.0, saucer_vx=0.0, saucer_vy=0.0, saucer_ticks_left=100,
                   saucer_fire_timer=100, saucer_zig_timer=100)
    w = with_shots(w, [(SHOOTER_SHIP, 578.0, 200.0, 24.0, 0.0, 30)])
    world, events = step(w, 0, cfg)
    assert [(e.by, e.points) for e in of(events, ev.SaucerDestroyed)] == [("ship-shot", 200)]
    assert not world.saucer_alive and world.score == 200
    assert world.ship_state == SHIP_FLYING and not of(events, ev.ShipDestroyed)
    assert world.shot_id.shape[0] == 0


def test_a_saucer_shot_off_a_pillar_kills_the_ship() -> None:
    # The same path; the ship (x 555.2..564.8 on the line) is in the way of the ricochet.
    cfg = pillars()
    w = world_with(cfg, [far(cfg)], ship_x=560.0, ship_y=200.0)
    w = with_shots(w, [(SHOOTER_SAUCER, 578.0, 200.0, 24.0, 0.0, 30)])
    world, events = step(w, 0, cfg)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]
    assert world.ship_state == SHIP_DEAD and world.score == 0


# --- when within the tick the hit happens ------------------------------------------------


@pytest.mark.parametrize("saucer_shot_at,by,points", [
    (0.88, "saucer-shot", 0),    # the straight shot arrives first
    (0.95, "ship-shot", 100),    # the ricochet arrives first
])
def test_a_hit_after_a_pillar_is_timed_on_the_whole_tick(saucer_shot_at: float, by: str,
                                                         points: int) -> None:
    # The ship's shot meets the pillar at 5/12 tick and comes back along y = 200 to the
    # rock's right tip (574, 200) at 11/12 = 0.917 tick (6/7 = 0.857 of the way along the
    # rest of its path, the wrong clock). A saucer shot meets the rock's bottom tip (573,
    # 199) head on at 0.88 or 0.95 tick. The earlier hit claims the rock; both shots are
    # spent on it.
    cfg = pillars()
    target = rock(2, 573.0, 200.0, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far(cfg), target]), [
        (SHOOTER_SHIP, 575.0, 200.0, 12.0, 0.0, 30),
        (SHOOTER_SAUCER, 573.0, 199.0 - 12.0 * saucer_shot_at, 0.0, 12.0, 30),
    ])
    world, events = step(w, 0, cfg)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.size, b.by, b.points) for b in broken] == [(2, by, points)]
    assert world.score == points
    assert world.shot_id.shape[0] == 0, "both shots are spent on the rock"


# --- a ricochet's remainder may ricochet again -------------------------------------------

WALL = ((560.0, 180.0), (570.0, 180.0), (570.0, 220.0), (560.0, 220.0))


def test_a_shot_between_two_pillars_ricochets_off_both() -> None:
    # 24 px a tick from x = 575: the right pillar at 5/24 tick, the left one (its face at
    # x = 570) at 15/24, then 9 px right again: x = 579, heading right, never inside either.
    cfg = pillars(SQUARE, WALL)
    w = with_shots(world_with(cfg, [far(cfg)]), [(SHOOTER_SHIP, 575.0, 200.0, 24.0, 0.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_pos.tolist() == [[579.0, 200.0]]
    assert world.shot_vel.tolist() == [[24.0, 0.0]]


LEFT_PILLAR = ((10.0, 280.0), (50.0, 280.0), (50.0, 320.0), (10.0, 320.0))


def test_a_shot_off_the_wall_ricochets_off_a_pillar_the_way_it_came() -> None:
    # 24 px a tick to the left from x = 5: the wall at 5/24 tick, the pillar's left face
    # (x = 10) at 15/24, then 9 px back left: x = 1, heading left. It never enters the pillar.
    cfg = pillars(LEFT_PILLAR, borders="bounce")
    w = with_shots(world_with(cfg, [far(cfg)]), [(SHOOTER_SHIP, 5.0, 300.0, -24.0, 0.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_pos.tolist() == [[1.0, 300.0]]
    assert world.shot_vel.tolist() == [[-24.0, 0.0]]


def test_a_shot_off_a_pillar_then_the_wall_breaks_a_rock_on_its_third_piece() -> None:
    # From (5, 300) at (24, 24) a tick: the pillar's left face at (10, 305) at 5/24 tick, the
    # wall at (0, 315) at 15/24, then up-right to (9, 324). The rock at (5, 320) lies on the
    # third piece only (7 px from the second).
    cfg = pillars(LEFT_PILLAR, borders="bounce")
    target = rock(2, 5.0, 320.0, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far(cfg), target]),
                   [(SHOOTER_SHIP, 5.0, 300.0, 24.0, 24.0, 30)])
    world, events = step(w, 0, cfg)
    assert [(b.x, b.y, b.by) for b in of(events, ev.AsteroidDestroyed)] == [
        (5.0, 320.0, "ship-shot")]
    assert world.shot_id.shape[0] == 0
    # Without the rock the shot ends the tick at the end of that third piece.
    w = with_shots(world_with(cfg, [far(cfg)]), [(SHOOTER_SHIP, 5.0, 300.0, 24.0, 24.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_pos.tolist() == [[9.0, 324.0]]
    assert world.shot_vel.tolist() == [[24.0, 24.0]]
