"""Bounds of a shot's ricochet path within one tick (issue 13, survivors of the ricochet loop).

``simulation.MAX_SHOT_PIECES`` (3) straight pieces of a shot's path are tested a tick: the
third piece after two ricochets is tested, a fourth is not. A piece after a wall fold
ricochets off a pillar with the velocity the folds gave it (two folds on one axis cancel);
the pillar a ricochet leaves is skipped only for the piece that starts on it; a ricochet
turns only its own shot. Pillars: see ``test_ricochet.py`` (the square x 580..620, y 180..220
and the wall x 560..570, y 180..220).

Also the contacts of the same mutation run's survivors: nothing is met across the seam when
nothing wraps; a rock claimed by a shot no longer touches the ship; the shield bounces only
the rock it touches; the ship and saucer meet when their outlines overlap by half a pixel at
their farthest points (the cheap bounding-circle test before the outline test has slack).
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.inputs import InputFrame
from asteroids.core.params import params_for
from asteroids.core.ship import ship_outline
from asteroids.core.spawn import NewRock
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.world import SHIP_FLYING, SHOOTER_SHIP
from tests.core.test_ricochet import SQUARE, WALL, far, of, pillars
from tests.core.worlds import config_with, quiet, rock, with_shots, world_with


def run(cfg, rocks, shots):
    world, events = step(with_shots(world_with(cfg, rocks), shots), 0, cfg)
    return world, of(events, ev.AsteroidDestroyed)


# --- the cap: three pieces tested, not four ------------------------------------------------


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


# --- a piece after a wall fold ricochets with the folded velocity ---------------------------

TALL = ((10.0, 10.0), (50.0, 10.0), (50.0, 100.0), (10.0, 100.0))


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


NEAR_LEFT = ((30.0, 375.0), (60.0, 375.0), (60.0, 395.0), (30.0, 395.0))


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


# --- a piece after the first wall fold is tested -------------------------------------------


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


# --- a pillar, then two walls: the tested pieces are the true path, never a chord ----------

# The pillar x 8..28, y 5..25 by the top-left corner. From (4, 9) at (24, -12) a tick: the
# pillar's face x = 8 at (8, 7) at 1/6 tick, back left to the wall x = 0 at (0, 3) at 1/2, the
# wall y = 0 at (6, 0) at 3/4, then to (12, 3). The pillar uses the first piece and the two
# after it reach the cap; a path folded into too few pieces makes its last one the chord from
# (0, 3) straight to (12, 3) instead of the true piece (0, 3) to (6, 0).
CORNER_PILLAR = ((8.0, 5.0), (28.0, 5.0), (28.0, 25.0), (8.0, 25.0))
CORNER_SHOT = (SHOOTER_SHIP, 4.0, 9.0, 24.0, -12.0, 30)


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


# --- nothing is hit beyond a wall the shot bounced off ------------------------------------


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


# --- the pillar left behind, and whose hits a ricochet drops -------------------------------


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


# --- the rest of the tick's contacts (other survivors of the same run) ---------------------


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


def test_a_rock_shot_while_it_touches_the_ship_does_not_kill_it() -> None:
    # The rock over the ship's nose is broken by a shot this tick; with that rock claimed,
    # no rock touches the ship, so it flies on and the far rock stays whole.
    cfg = quiet(Config())
    near = rock(2, 650.0, 360.0, round_radius=5.0, cfg=cfg)
    w = world_with(cfg, [near, far(cfg)], ship_heading=0)
    world, events = step(with_shots(w, [(SHOOTER_SHIP, 665.0, 360.0, -12.0, 0.0, 30)]), 0, cfg)
    assert [(b.x, b.y, b.by) for b in of(events, ev.AsteroidDestroyed)] == [
        (650.0, 360.0, "ship-shot")]
    assert world.ship_state == SHIP_FLYING and not of(events, ev.ShipDestroyed)


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


def test_a_ship_tail_corner_half_a_pixel_into_the_saucer_tip_rams_it() -> None:
    # The ship's farthest points are its tail corners, ship_radius = 15.37 px from its
    # centre; the saucer's are its tips, 20 px. Turned so a tail corner points along +x,
    # the ship meets the large saucer's left tip 0.5 px deep: 34.87 px apart, within the
    # sum of the two radii (35.37) but not within that sum less 1 px (34.37).
    cfg = pillars(saucers=True)
    cfg = dataclasses.replace(cfg, obstacles=())
    p = params_for(cfg)
    heading = round(-math.atan2(9.6, -12.0) / (2 * math.pi) * HEADING_STEPS) % HEADING_STEPS
    corner = max(ship_outline(p, 640.0, 360.0, heading).tolist())
    assert corner[0] - 640.0 == pytest.approx(p.ship_radius, abs=1e-3)
    w = world_with(cfg, [far(cfg)], ship_heading=heading, saucer_alive=True, saucer_small=False,
                   saucer_x=corner[0] + 19.5, saucer_y=corner[1], saucer_vx=0.0, saucer_vy=0.0,
                   saucer_ticks_left=100, saucer_fire_timer=100, saucer_zig_timer=100)
    world, events = step(w, 0, cfg)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == ["ship"]
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]
