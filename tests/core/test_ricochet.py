"""Ricochets: a shot off the border (in a bouncing world) or an obstacle (``shots.at_obstacles
= "ricochet"``) goes on with the rest of its tick's travel, tested piece by piece up to
``MAX_SHOT_PIECES``, hits timed on the whole tick's clock."""

from __future__ import annotations

import dataclasses
import math

import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.spawn import NewRock
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, with_shots, world_with

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


WALL = ((560.0, 180.0), (570.0, 180.0), (570.0, 220.0), (560.0, 220.0))


def run(cfg, rocks, shots):
    world, events = step(with_shots(world_with(cfg, rocks), shots), 0, cfg)
    return world, of(events, ev.AsteroidDestroyed)


TALL = ((10.0, 10.0), (50.0, 10.0), (50.0, 100.0), (10.0, 100.0))
NEAR_LEFT = ((30.0, 375.0), (60.0, 375.0), (60.0, 395.0), (30.0, 395.0))


# The pillar x 8..28, y 5..25 by the top-left corner. From (4, 9) at (24, -12) a tick: the
# pillar's face x = 8 at (8, 7) at 1/6 tick, back left to the wall x = 0 at (0, 3) at 1/2, the
# wall y = 0 at (6, 0) at 3/4, then to (12, 3). The pillar uses the first piece and the two
# after it reach the cap; a path folded into too few pieces makes its last one the chord from
# (0, 3) straight to (12, 3) instead of the true piece (0, 3) to (6, 0).
CORNER_PILLAR = ((8.0, 5.0), (28.0, 5.0), (28.0, 25.0), (8.0, 25.0))
CORNER_SHOT = (SHOOTER_SHIP, 4.0, 9.0, 24.0, -12.0, 30)


def shot_back_from_the_pillar(cfg: Config, rock_x: float):
    """One step of a shot that meets the pillar at 1/12 tick and travels the other 11 px back,
    to x = 569, with a small rock (tip at rock_x + 1) on its way."""
    target = rock(2, rock_x, 200.0, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [far(cfg), target]),
                   [(SHOOTER_SHIP, 579.0, 200.0, 12.0, 0.0, 30)])
    return step(w, 0, cfg)


LEFT_PILLAR = ((10.0, 280.0), (50.0, 280.0), (50.0, 320.0), (10.0, 320.0))
BOUNCE_ALL = quiet(config_with(borders={"asteroids": "bounce", "ship": "bounce",
                                        "shots": "bounce", "saucers": "bounce"}))


def far_rock(cfg: Config = CFG):
    """A still rock far from the centre and from the ship's line of fire (keeps the wave on)."""
    return rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


BOUNCE = quiet_with(borders={"asteroids": "bounce", "shots": "bounce"})


def test_a_rock_on_the_third_piece_after_two_pillars_is_hit() -> None:
    # From (575, 200) at (24, 8) a tick: the square at (580, 201.67) at 5/24 tick, the wall's
    # face x = 570 at (570, 205) at 15/24, then right to (579, 208). The rock at (576, 207)
    # lies on that third piece only (4 px from the second): the last piece the cap allows.
    cfg = pillars(SQUARE, WALL)
    target = rock(2, 576.0, 207.0, round_radius=1.0, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target], [(SHOOTER_SHIP, 575.0, 200.0, 24.0, 8.0, 30)])
    assert [(b.x, b.y, b.by) for b in broken] == [(576.0, 207.0, "ship-shot")]
    assert world.shot_id.shape[0] == 0
    world, broken = run(cfg, [far(cfg)], [(SHOOTER_SHIP, 575.0, 200.0, 24.0, 8.0, 30)])
    assert world.shot_pos.tolist() == [[579.0, 208.0]]
    assert world.shot_vel.tolist() == [[24.0, 8.0]]


def test_a_rock_on_the_fourth_piece_after_three_pillars_is_not_tested() -> None:
    # From (575, 200) at (40, 16): the square at 5/40 tick (580, 202), the wall at 15/40
    # (570, 206), the square again at 25/40 (580, 210): the third ricochet uses up the cap.
    # The fourth piece, (580, 210) to the wall at (570, 214), passes the rock at (575, 212)
    # untested; the shot ends the tick 15 px on from its last ricochet, at (565, 216).
    cfg = pillars(SQUARE, WALL)
    target = rock(2, 575.0, 212.0, round_radius=1.0, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target],
                        [(SHOOTER_SHIP, 575.0, 200.0, 40.0, 16.0, 30)])
    assert broken == [] and world.score == 0
    assert world.shot_pos.tolist() == [[565.0, 216.0]]
    assert world.shot_vel.tolist() == [[-40.0, 16.0]]


def test_a_shot_that_meets_a_pillar_exactly_at_the_end_of_the_tick() -> None:
    # 1 px a tick from x = 579: the square's face at x = 580 at t = 1, with no tick left
    # to follow; the shot ends there, turned back.
    cfg = pillars()
    world, broken = run(cfg, [far(cfg)], [(SHOOTER_SHIP, 579.0, 200.0, 1.0, 0.0, 30)])
    assert broken == []
    assert world.shot_pos.tolist() == [[580.0, 200.0]]
    assert world.shot_vel.tolist() == [[-1.0, 0.0]]


def test_a_shot_off_a_pillar_and_the_wall_meets_the_same_pillar_again() -> None:
    # From (1, 70) at (30, -60) a tick: the pillar's left face at (10, 52) at 0.3 tick, the
    # wall at (0, 32) at 19/30, the same face again at (10, 12) at 29/30 (the pillar left is
    # skipped only on the piece that starts on it). Heading right there, it turns left: the
    # last 1/30 tick takes it to (9, 10), still heading up (it reaches y = 0 only after the
    # tick, so y is not flipped).
    cfg = pillars(TALL, borders="bounce")
    world, _ = run(cfg, [far(cfg)], [(SHOOTER_SHIP, 1.0, 70.0, 30.0, -60.0, 30)])
    assert world.shot_pos.tolist() == [[9.0, 10.0]]
    assert world.shot_vel.tolist() == [[-30.0, -60.0]]


def test_two_folds_on_one_axis_cancel_before_a_pillar() -> None:
    # A 200 px wide world, 300 px a tick each way from (150, 100): the right wall at 1/6 tick
    # (200, 150), the left wall at 5/6 (0, 350), then right again into the pillar's left face
    # at (30, 380) at 28/30: heading right as it started (two folds of x), it turns left and
    # ends the tick 20 px on, at (10, 400).
    cfg = pillars(NEAR_LEFT, borders="bounce")
    cfg = dataclasses.replace(cfg, world=dataclasses.replace(cfg.world, width_px=200.0))
    world, _ = run(cfg, [rock(0, 150.0, 600.0, round_radius=10.0, cfg=cfg)],
                   [(SHOOTER_SHIP, 150.0, 100.0, 300.0, 300.0, 30)])
    assert world.shot_pos.tolist() == [[pytest.approx(10.0, abs=1e-9), 400.0]]
    assert world.shot_vel.tolist() == [[-300.0, 300.0]]


def test_a_rock_on_the_third_piece_after_two_walls_is_hit() -> None:
    # From (4, 8) at (-12, -12): the left wall at (0, 4) at 1/3 tick, the top wall at (4, 0)
    # at 2/3, then to (8, 4). The rock at (7, 3) lies on that third piece only.
    cfg = pillars(borders="bounce")
    world, broken = run(cfg, [far(cfg)], [(SHOOTER_SHIP, 4.0, 8.0, -12.0, -12.0, 30)])
    assert world.shot_pos.tolist() == [[8.0, 4.0]]
    assert world.shot_vel.tolist() == [[12.0, 12.0]]
    target = rock(2, 7.0, 3.0, round_radius=1.0, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target], [(SHOOTER_SHIP, 4.0, 8.0, -12.0, -12.0, 30)])
    assert [(b.x, b.y, b.by) for b in broken] == [(7.0, 3.0, "ship-shot")]
    assert world.shot_id.shape[0] == 0


def test_a_rock_on_the_true_piece_after_a_pillar_and_a_wall_is_hit() -> None:
    # (4, 1) lies on the true piece (0, 3) -> (6, 0), 2 px from the chord y = 3.
    cfg = pillars(CORNER_PILLAR, borders="bounce")
    world, broken = run(cfg, [far(cfg)], [CORNER_SHOT])
    assert world.shot_pos.tolist() == [[12.0, 3.0]]
    assert world.shot_vel.tolist() == [[24.0, 12.0]]
    target = rock(2, 4.0, 1.0, round_radius=0.5, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target], [CORNER_SHOT])
    assert [(b.x, b.y, b.by) for b in broken] == [(4.0, 1.0, "ship-shot")]


def test_a_rock_on_the_chord_only_is_not_hit() -> None:
    # (9, 3) lies on the chord (0, 3) -> (12, 3), 1.3 px from the true path's nearest piece.
    cfg = pillars(CORNER_PILLAR, borders="bounce")
    target = rock(2, 9.0, 3.0, round_radius=1.0, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target], [CORNER_SHOT])
    assert broken == []
    assert world.shot_pos.tolist() == [[12.0, 3.0]]


def test_a_wrapping_rock_past_a_bouncing_wall_is_not_hit_beyond_it() -> None:
    # Rocks wrap, shots bounce (each kind has its own border), so a rock at the right edge
    # pokes past the wall x = W: a spike from (W-10, 95..105) to its tip (W+7, 108). The shot
    # from (W-6, 113) at (12, -6) meets the wall at (W, 110) at half a tick; straight on it
    # would enter the spike beyond the wall near (W+5, 107.5), but it folds back, and its true
    # path, the mirror image of that one, passes above the spike. No hit, and the shot ends
    # the tick folded at (W-6, 107).
    cfg = quiet(config_with(borders={"asteroids": "wrap", "ship": "wrap", "shots": "bounce",
                                     "saucers": "wrap"}))
    w = float(cfg.world.width_px)
    spike = ((-5.0, -5.0), (12.0, 8.0), (-5.0, 5.0))
    target = NewRock(2, w - 5.0, 100.0, 0.0, 0.0, 0, 0, spike, math.hypot(12.0, 8.0))
    world, broken = run(cfg, [far(cfg), target], [(SHOOTER_SHIP, w - 6.0, 113.0, 12.0, -6.0,
                                                    30)])
    assert broken == []
    assert world.shot_pos.tolist() == [[w - 6.0, 107.0]]
    assert world.shot_vel.tolist() == [[-12.0, -6.0]]


def test_the_pillar_left_is_skipped_when_it_is_target_zero() -> None:
    # No rocks and no saucer: the square is target 0 and the wall target 1. As in
    # test_ricochet.py's two-pillar shot: the square at 5/24 tick, the wall at 15/24, then
    # 9 px right to (579, 200). Were the square not skipped as the second piece leaves it, it
    # would be met again at once, using up the pieces, and the shot would end inside the wall.
    cfg = pillars(SQUARE, WALL)
    world, _ = run(cfg, [], [(SHOOTER_SHIP, 575.0, 200.0, 24.0, 0.0, 30)])
    assert world.shot_pos.tolist() == [[579.0, 200.0]]
    assert world.shot_vel.tolist() == [[24.0, 0.0]]


def test_a_ricochet_does_not_undo_another_shots_hit() -> None:
    # Two ship shots in one tick: one breaks the rock ahead of it, the other ricochets off
    # the square and flies on.
    cfg = pillars()
    target = rock(2, 306.0, 300.0, round_radius=1.0, cfg=cfg)
    world, broken = run(cfg, [far(cfg), target], [(SHOOTER_SHIP, 300.0, 300.0, 12.0, 0.0, 30),
                                                   (SHOOTER_SHIP, 579.0, 200.0, 12.0, 0.0, 30)])
    assert [(b.x, b.y, b.by) for b in broken] == [(306.0, 300.0, "ship-shot")]
    assert world.shot_pos.tolist() == [[569.0, 200.0]]
    assert world.shot_vel.tolist() == [[-12.0, 0.0]]


def test_a_saucer_half_beyond_a_bouncing_wall_is_not_hit_from_the_far_side() -> None:
    # Nothing wraps: the large saucer at x = 1275 pokes 15 px past the right wall, but its
    # part beyond it is not met at x = 15 by a shot near the left wall (it would be, across
    # the seam, in a wrapping world).
    cfg = pillars(borders="bounce", saucers=True)
    w = world_with(cfg, [far(cfg)], saucer_alive=True, saucer_small=False, saucer_x=1275.0,
                   saucer_y=200.0, saucer_vx=0.0, saucer_vy=0.0, saucer_ticks_left=100,
                   saucer_fire_timer=100, saucer_zig_timer=100)
    world, events = step(with_shots(w, [(SHOOTER_SHIP, 20.0, 200.0, -10.0, 0.0, 30)]), 0, cfg)
    assert not of(events, ev.SaucerDestroyed) and world.saucer_alive and world.score == 0
    assert world.shot_pos.tolist() == [[10.0, 200.0]]


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


def test_a_shot_between_two_pillars_ricochets_off_both() -> None:
    # 24 px a tick from x = 575: the right pillar at 5/24 tick, the left one (its face at
    # x = 570) at 15/24, then 9 px right again: x = 579, heading right, never inside either.
    cfg = pillars(SQUARE, WALL)
    w = with_shots(world_with(cfg, [far(cfg)]), [(SHOOTER_SHIP, 575.0, 200.0, 24.0, 0.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_pos.tolist() == [[579.0, 200.0]]
    assert world.shot_vel.tolist() == [[24.0, 0.0]]


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


@pytest.mark.parametrize("ship_shot_at,by,points", [
    (0.55, "ship-shot", 100),    # the straight shot arrives first
    (0.62, "saucer-shot", 0),    # the ricochet arrives first
])
def test_a_hit_after_a_ricochet_is_timed_on_the_whole_tick(ship_shot_at: float, by: str,
                                                          points: int) -> None:
    # A saucer shot meets the floor at 0.4 tick and the rock about 0.31 of the way along the
    # rest of its path: 0.4 + 0.31 * 0.6 = 0.586 tick. The ship's shot meets the same rock
    # head on at 0.55 or 0.62 tick. The earlier hit claims the rock, and the ricochet's
    # time must be measured from the start of the tick, not from the wall.
    cfg = BOUNCE_ALL
    target = rock(2, 50.0, 20.0, round_radius=2.0, cfg=cfg)
    far = rock(0, 1000.0, 600.0, round_radius=10.0, cfg=cfg)
    w = with_shots(world_with(cfg, [target, far]), [
        (SHOOTER_SAUCER, 110.0, 40.0, -100.0, -100.0, 30),
        (SHOOTER_SHIP, 52.0 + 100.0 * ship_shot_at, 20.0, -100.0, 0.0, 30),
    ])
    world, events = step(w, 0, cfg)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.size, b.by, b.points) for b in broken] == [(2, by, points)]
    assert world.score == points


def test_ricochet_travels_only_the_rest_of_the_tick() -> None:
    # The shot meets the left wall at half a tick and travels back the other half (6 px), to
    # x = 6: a rock whose nearest point is at x = 8 stays whole.
    cfg = BOUNCE_ALL
    w = world_with(cfg, [rock(2, 10.0, 300.0, round_radius=2.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 6.0, 300.0, -12.0, 0.0, 30)])
    world, events = step(w, 0, cfg)
    assert not of(events, ev.AsteroidDestroyed)
    assert world.shot_pos.tolist() == [[6.0, 300.0]]
    assert world.shot_vel.tolist() == [[12.0, 0.0]]
    world, events = step(world, 0, cfg)
    assert [e.by for e in of(events, ev.AsteroidDestroyed)] == ["ship-shot"]


def test_slow_shot_beside_a_wall_still_sees_moving_targets() -> None:
    # The shot drifts right at 0.5 px a tick from x = 0.25 and never reaches a wall this
    # tick, so its whole path is tested against the rock as it moves: the rock comes down
    # 15 px and meets the shot's path (300 -> 312) near its end. A wall time must only be
    # taken for a shot that really crosses a wall.
    cfg = BOUNCE_ALL
    falling = rock(2, 0.75, 330.0, 0.0, -15.0, round_radius=5.0, cfg=cfg)
    w = with_shots(world_with(cfg, [falling, rock(0, 1000.0, 600.0, round_radius=10.0,
                                                  cfg=cfg)]),
                   [(SHOOTER_SHIP, 0.25, 300.0, 0.5, 12.0, 30)])
    world, events = step(w, 0, cfg)
    assert [(e.size, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(2, "ship-shot")]
    assert world.shot_id.shape[0] == 0


def test_ricochet_remainder_misses_a_target_that_moved_away() -> None:
    # After a border ricochet the rest of the path is tested against the targets as they
    # move, like the first part. The shot meets the left wall at half a tick, at (0, 306),
    # and heads for (6, 312), straight through where the rock started; but the rock moves
    # 30 px right this tick, 15 px by the time the shot ricochets: the shot misses it.
    cfg = BOUNCE_ALL
    moving = rock(2, 4.0, 310.0, 30.0, 0.0, round_radius=1.5, cfg=cfg)
    w = with_shots(world_with(cfg, [moving, rock(0, 1000.0, 600.0, round_radius=10.0,
                                                 cfg=cfg)]),
                   [(SHOOTER_SHIP, 6.0, 300.0, -12.0, 12.0, 30)])
    world, events = step(w, 0, cfg)
    assert not of(events, ev.AsteroidDestroyed)
    assert world.shot_pos.tolist() == [[6.0, 312.0]]


@pytest.mark.parametrize("vx,hit", [(-12.0, True), (-6.0, False)])
def test_ricochet_remainder_hits_a_target_that_moves_into_it(vx: float, hit: bool) -> None:
    # The shot meets the left wall at half a tick, at (0, 306), and travels to (6, 312). A
    # small round rock (radius 1.5) starts at (12, 309) and moves 12 px left this tick: at
    # three quarters of the tick it is at (3, 309), where the shot is then: the rock moves
    # into the ricocheted path and is hit. At half that speed it never comes within 2.5 px
    # of the shot: a miss. Tested against where the rock started (the old simplification)
    # both would miss: (12, 309) is 6 px past the path's end. A still rock sits at the end
    # of the path: the shot reaches it last, so it breaks only when the mover was missed.
    cfg = BOUNCE_ALL
    mover = rock(2, 12.0, 309.0, vx, 0.0, round_radius=1.5, cfg=cfg)
    still = rock(2, 6.0, 312.5, round_radius=1.0, cfg=cfg)
    w = with_shots(world_with(cfg, [mover, still, rock(0, 1000.0, 600.0, round_radius=10.0,
                                                       cfg=cfg)]),
                   [(SHOOTER_SHIP, 6.0, 300.0, -12.0, 12.0, 30)])
    world, events = step(w, 0, cfg)
    assert [(e.size, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(2, "ship-shot")]
    assert world.shot_id.shape[0] == 0
    survivors = world.ast_pos[world.ast_size == 2].tolist()
    assert survivors == ([[6.0, 312.5]] if hit else [[12.0 + vx, 309.0]])


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


def test_shot_ricochets_off_an_obstacle() -> None:
    square = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))
    cfg = config_with(obstacles=(Obstacle(points=square),),
                      shots={"at_obstacles": "ricochet"}, saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 100.0, 600.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 570.0, 200.0, 12.0, 0.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_vel[0, 0] == -12.0
    assert world.shot_pos[0, 0] == pytest.approx(580.0 - 2.0)


def test_ricochet_off_the_border_can_hit_within_the_same_tick() -> None:
    cfg = config_with(borders={"asteroids": "bounce", "shots": "bounce"},
                      saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(2, p.width - 14.0, 300.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, p.width - 5.0, 300.0, 12.0, 0.0, 30)])
    _, events = step(w, 0, cfg)
    assert len(of(events, ev.AsteroidDestroyed)) == 1
