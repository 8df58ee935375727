"""Boundary tests for the tick as a whole (issue 13): the state a new game starts from, which
shots are tested against what, and when within a tick a hit happens.

The mutation run found these rules unguarded: the initial World (which a replay's first
checkpoint hashes), the order of two hits on one rock when one of them came off a wall, the
length of a shot's path after a ricochet, and contacts across a border that does not wrap.
"""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, state_hash, step
from asteroids.core.params import params_for
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP
from tests.core.worlds import config_with, of, quiet, rock, with_shots, world_with

CFG = quiet(Config())
P = params_for(CFG)
BOUNCE_ALL = quiet(config_with(borders={"asteroids": "bounce", "ship": "bounce",
                                        "shots": "bounce", "saucers": "bounce"}))


# --- the state a new game starts from ----------------------------------------------------


@pytest.mark.parametrize("refill", [True, False])
def test_new_game_starts_from_a_canonical_state(refill: bool) -> None:
    # Every field is set from the config or to zero, never left to chance: a replay's first
    # checkpoint is the hash of this World, so two builds must agree on all of it.
    cfg = config_with(ship={"shield": {"enabled": True, "refill_per_wave": refill}})
    p = params_for(cfg)
    w = new_world(cfg, 7)
    assert (w.tick, w.score, w.lives, w.next_extra_life, w.wave, w.game_over) == (
        0, 0, p.lives, p.extra_life_every, 1, False)
    assert (w.ship_state, w.ship_x, w.ship_y, w.ship_vx, w.ship_vy) == (
        SHIP_FLYING, 0.5 * p.width, 0.5 * p.height, 0.0, 0.0)
    assert (w.ship_timer, w.ship_doomed, w.autofire_timer, w.thrusting, w.shield_on,
            w.fire_held, w.hyper_held) == (0, False, 0, False, False, False, False)
    assert w.shield_energy == p.shield_ticks
    assert (w.saucer_alive, w.saucer_small, w.saucer_x, w.saucer_y, w.saucer_vx, w.saucer_vy,
            w.saucer_ticks_left, w.saucer_fire_timer, w.saucer_zig_timer) == (
        False, False, 0.0, 0.0, 0.0, 0.0, 0, 0, 0)
    assert (w.saucer_timer, w.saucer_interval, w.saucers_this_game, w.since_break) == (
        p.saucer_first_ticks, p.saucer_first_ticks, 0, 0)
    assert (w.beat_timer, w.beat_interval, w.beat_quicken_timer, w.beat_tone) == (
        p.beat_start_ticks, p.beat_start_ticks, p.beat_quicken_ticks, 0)
    assert (w.wave_timer, w.wave_weight) == (-1, 7 * p.first_wave)
    assert w.shot_id.shape[0] == 0 and w.asteroid_count == p.first_wave
    assert state_hash(w) == state_hash(new_world(cfg, 7))


# --- which shots are tested against what --------------------------------------------------


def test_saucer_shot_hits_the_ship_while_the_ships_shots_have_nothing_to_hit() -> None:
    # No rocks, no saucer, no obstacles: the ship's own shot has no target at all, and that
    # must not stop the saucer's shot from being tested against the ship.
    w = world_with(CFG, [])
    cx, cy = w.ship_x, w.ship_y
    w = with_shots(w, [(SHOOTER_SHIP, 100.0, 100.0, 10.0, 0.0, 30),
                       (SHOOTER_SAUCER, cx - 40.0, cy, 60.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]
    assert world.ship_state == SHIP_DEAD


def test_shot_crossing_the_seam_hits_a_rock_past_where_a_wall_would_be() -> None:
    # Shots wrap here, so the border is no wall: the rock is met at half a tick, long after
    # the shot crossed x = width (a sixth of a tick in).
    w = world_with(CFG, [rock(2, 6.0, 300.0, round_radius=2.0)])
    w = with_shots(w, [(SHOOTER_SHIP, P.width - 2.0, 300.0, 12.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    assert [(e.size, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(2, "ship-shot")]
    assert world.shot_id.shape[0] == 0


def test_ship_shot_off_a_wall_into_the_saucer_is_the_players() -> None:
    # The second pass (after the ricochet) still knows whose shot it is.
    w = world_with(BOUNCE_ALL, [rock(0, 1000.0, 600.0, round_radius=10.0, cfg=BOUNCE_ALL)],
                   saucer_alive=True, saucer_small=False, saucer_x=30.0, saucer_y=40.0,
                   saucer_ticks_left=100, saucer_fire_timer=100, saucer_zig_timer=100)
    # Down to the floor at 0.4 tick, then up-left through the saucer.
    w = with_shots(w, [(SHOOTER_SHIP, 110.0, 40.0, -100.0, -100.0, 30)])
    world, events = step(w, 0, BOUNCE_ALL)
    assert [(e.by, e.points) for e in of(events, ev.SaucerDestroyed)] == [("ship-shot", 200)]
    assert not of(events, ev.ShipDestroyed) and world.ship_state == SHIP_FLYING
    assert world.score == 200


# --- when within the tick a hit happens ---------------------------------------------------


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


# --- borders that do not wrap ---------------------------------------------------------------


def test_ship_and_saucer_do_not_touch_across_a_border_that_does_not_wrap() -> None:
    # The saucer enters at the right edge while the ship sits at the left edge: 20 px apart
    # across the seam, but nothing wraps, so they are a screen apart.
    cfg = BOUNCE_ALL
    p = params_for(cfg)
    w = world_with(cfg, [rock(0, 640.0, 600.0, round_radius=10.0, cfg=cfg)],
                   ship_x=15.0, ship_y=300.0, saucer_alive=True, saucer_small=False,
                   saucer_x=p.width - 5.0, saucer_y=300.0, saucer_ticks_left=100,
                   saucer_fire_timer=100, saucer_zig_timer=100)
    world, events = step(w, 0, cfg)
    assert not of(events, ev.ShipDestroyed) and not of(events, ev.SaucerDestroyed)
    assert world.saucer_alive and world.ship_state == SHIP_FLYING
    # The same two, 20 px apart on the screen, do touch.
    near = world_with(cfg, [rock(0, 640.0, 600.0, round_radius=10.0, cfg=cfg)],
                      ship_x=615.0, ship_y=300.0, saucer_alive=True, saucer_small=False,
                      saucer_x=635.0, saucer_y=300.0, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100)
    _, events = step(near, 0, cfg)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]


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
