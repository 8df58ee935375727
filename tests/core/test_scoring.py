"""What each rock is worth and who scores it: ship shots and (when ``ramming_scores``)
ramming score, saucer shots and rocks never do, nothing scores after game over."""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.world import (
    SHIP_DEAD,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, run, with_shots, world_with

CX, CY = 0.5 * P.width, 0.5 * P.height


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


# A round rock at (300, y) and a shot that reaches its edge (x = 292) on the first tick.
def _target(size: int, y: float = 200.0, cfg: Config = CFG):
    return rock(size, 300.0, y, round_radius=8.0, cfg=cfg)


def _shot(y: float = 200.0, owner: int = SHOOTER_SHIP):
    return (owner, 285.0, y, 10.0, 0.0, 30)


def _saucer_shot(small: bool):
    """A ship shot 5 px short of the left tip of a saucer at (300, 500)."""
    return (SHOOTER_SHIP, 300.0 - P.saucer_radius[int(small)] - 5.0, 500.0, 10.0, 0.0, 30)


def _kill_one(size: int, cfg: Config = CFG, **fields):
    """One tick in which a ship shot breaks one rock of ``size``."""
    w = with_shots(world_with(cfg, [_target(size, cfg=cfg)], **fields), [_shot()])
    return step(w, 0, cfg)


def _shoot_rock(size: int, owner: int = SHOOTER_SHIP, cfg: Config = CFG):
    # A round rock far from the ship; one shot flying straight into it.
    w = world_with(cfg, [rock(size, 300.0, 200.0, 1.0, 0.5, round_radius=15.0, cfg=cfg)])
    w = with_shots(w, [(owner, 250.0, 200.0, 10.0, 0.0, 30)])
    return run(w, cfg, [0] * 6)


def test_each_size_scores_its_points_exactly_once() -> None:
    rocks = [_target(0, 200.0), _target(1, 300.0), _target(2, 400.0)]
    w = with_shots(world_with(CFG, rocks, score=1000), [_shot(200.0), _shot(300.0), _shot(400.0)])
    world, events = step(w, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.size, b.points) for b in broken] == [(0, 20), (1, 50), (2, 100)]
    assert [(b.x, b.y) for b in broken] == [(300.0, 200.0), (300.0, 300.0), (300.0, 400.0)]
    assert world.score == 1000 + 20 + 50 + 100


@pytest.mark.parametrize("first,points", [(SHOOTER_SHIP, 50), (SHOOTER_SAUCER, 0)])
def test_first_shot_into_a_rock_decides_who_scores(first: int, points: int) -> None:
    # Both shots reach the rock this tick; the one nearer to it hits first and owns the break.
    other = SHOOTER_SAUCER if first == SHOOTER_SHIP else SHOOTER_SHIP
    w = with_shots(world_with(CFG, [_target(1)], score=1000),
                   [(first, 289.0, 200.0, 10.0, 0.0, 30), (other, 284.0, 200.0, 10.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert len(broken) == 1 and broken[0].points == points
    assert world.score == 1000 + points


def test_saucer_shot_scores_nothing_and_leaves_since_break() -> None:
    # since_break counts ticks since the PLAYER broke a rock; a saucer's break is not one.
    w = with_shots(world_with(CFG, [_target(0)], score=300, since_break=50),
                   [_shot(owner=SHOOTER_SAUCER)])
    world, events = step(w, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.by, b.points) for b in broken] == [("saucer-shot", 0)]
    assert world.score == 300
    assert world.since_break == 51


def test_ship_shot_resets_since_break() -> None:
    world, _ = _kill_one(0, since_break=50)
    assert world.since_break == 1  # reset to 0 during the tick, then the tick counted


@pytest.mark.parametrize("ramming_scores,points", [(True, 50), (False, 0)])
def test_ramming_a_rock_scores_only_when_ramming_scores(ramming_scores: bool,
                                                        points: int) -> None:
    cfg = quiet_with(scoring={"ramming_scores": ramming_scores})
    w = world_with(cfg, [rock(1, CX + 10.0, CY, round_radius=12.0, cfg=cfg)], score=500,
                   since_break=50)
    world, events = step(w, 0, cfg)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(b.by, b.points) for b in broken] == [("ship", points)]
    assert world.score == 500 + points
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.since_break == 1  # ramming is the player's break, points or not


def test_saucer_ramming_a_rock_scores_nothing() -> None:
    w = world_with(CFG, [rock(0, 905.0, 500.0, round_radius=12.0)], score=500, since_break=50,
                   saucer_alive=True, saucer_x=900.0, saucer_y=500.0, saucer_ticks_left=500)
    world, events = step(w, 0, CFG)
    assert [(b.by, b.points) for b in of(events, ev.AsteroidDestroyed)] == [("saucer", 0)]
    assert [(s.by, s.points) for s in of(events, ev.SaucerDestroyed)] == [("asteroid", 0)]
    assert world.score == 500 and world.since_break == 51 and not world.saucer_alive


@pytest.mark.parametrize("small,points", [(False, 200), (True, 1000)])
def test_ship_shot_on_saucer_scores_its_size(small: bool, points: int) -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)], score=500,
                   saucer_alive=True, saucer_small=small, saucer_x=300.0, saucer_y=500.0,
                   saucer_ticks_left=500)
    world, events = step(with_shots(w, [_saucer_shot(small)]), 0, CFG)
    assert of(events, ev.SaucerDestroyed) == [
        ev.SaucerDestroyed(small, 300.0, 500.0, "ship-shot", points)]
    assert world.score == 500 + points
    assert world.saucer_alive is False


def test_saucer_nobody_hit_stays_alive_and_scores_nothing() -> None:
    # The same saucer with the shot aimed 40 px too high: it misses.
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)], score=500,
                   saucer_alive=True, saucer_x=300.0, saucer_y=500.0, saucer_ticks_left=500)
    world, events = step(with_shots(w, [(SHOOTER_SHIP, 275.0, 460.0, 10.0, 0.0, 30)]), 0, CFG)
    assert not of(events, ev.SaucerDestroyed)
    assert world.saucer_alive is True and world.score == 500


@pytest.mark.parametrize("ramming_scores,points", [(True, 200), (False, 0)])
def test_ramming_a_saucer_scores_only_when_ramming_scores(ramming_scores: bool,
                                                          points: int) -> None:
    cfg = quiet_with(scoring={"ramming_scores": ramming_scores})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)], score=500,
                   saucer_alive=True, saucer_x=CX + 15.0, saucer_y=CY, saucer_ticks_left=500)
    world, events = step(w, 0, cfg)
    assert [(s.by, s.points) for s in of(events, ev.SaucerDestroyed)] == [("ship", points)]
    assert world.score == 500 + points and world.ship_state == SHIP_DEAD


def test_no_points_for_a_saucer_shot_down_after_game_over() -> None:
    saucer = {"saucer_alive": True, "saucer_small": True, "saucer_x": 300.0, "saucer_y": 500.0,
              "saucer_ticks_left": 100, "saucer_fire_timer": 100, "saucer_zig_timer": 100}
    w = with_shots(world_with(CFG, [_target(0, 100.0)], game_over=True, lives=0,
                              ship_state=SHIP_DEAD, score=500, **saucer), [_saucer_shot(True)])
    world, events = step(w, 0, CFG)
    assert [s.points for s in of(events, ev.SaucerDestroyed)] == [0]
    assert world.score == 500


def test_saucer_shot_breaks_rock_without_points() -> None:
    world, events = _shoot_rock(0, owner=SHOOTER_SAUCER)
    broken = of(events, ev.AsteroidDestroyed)
    assert len(broken) == 1 and broken[0].by == "saucer-shot" and broken[0].points == 0
    assert world.score == 0


def test_ramming_a_rock_scores_and_costs_a_life() -> None:
    w = world_with(CFG, [rock(1, CX + 40.0, CY, -3.0, 0.0, round_radius=12.0)])
    world, events = run(w, CFG, [0] * 12)
    broken = of(events, ev.AsteroidDestroyed)
    assert broken and broken[0].by == "ship" and broken[0].points == 50
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.lives == w.lives - 1 and world.ship_state == SHIP_DEAD
