"""Extra ships (``scoring.extra_life_every``, ``game.max_lives``): at the threshold and one
point short, several at once in one event, capped at the most ships, none after game over,
and one earned on the tick the last ship dies keeps the game going."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.world import (
    SHIP_DEAD,
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


_GAIN = P.asteroid_points[2] + (P.asteroid_points[0] if P.scoring_ramming_scores else 0)


def test_extra_life_at_exactly_threshold() -> None:
    # 9 980 + a large rock's 20 = exactly 10 000.
    world, events = _kill_one(0, score=9980, next_extra_life=10000)
    assert world.score == 10000
    assert world.lives == P.game_lives + 1
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.game_lives + 1)]
    assert world.next_extra_life == 20000


def test_no_extra_life_one_point_short_of_threshold() -> None:
    world, events = _kill_one(0, score=9979, next_extra_life=10000)
    assert world.score == 9999
    assert world.lives == P.game_lives and not of(events, ev.ExtraLife)
    assert world.next_extra_life == 10000


def test_extra_life_threshold_advances_by_extra_life_every() -> None:
    cfg = quiet_with(scoring={"extra_life_every": 7000})
    world, events = _kill_one(0, cfg, score=6980, next_extra_life=7000)
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.game_lives + 1)]
    assert world.next_extra_life == 14000


def test_one_kill_crossing_two_thresholds_gives_two_lives() -> None:
    # 19 990 + 20 passes both 10 000 and 20 000.
    world, events = _kill_one(0, score=19990, next_extra_life=10000)
    assert world.score == 20010
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.game_lives + 2, count=2)]
    assert world.lives == P.game_lives + 2
    assert world.next_extra_life == 30000


def test_small_saucer_reaching_second_threshold_exactly_gives_two_lives() -> None:
    # 0 + 1 000 with a life every 500: 500 passed, 1 000 reached exactly.
    cfg = quiet_with(scoring={"extra_life_every": 500})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)], score=0,
                   next_extra_life=500, saucer_alive=True, saucer_small=True, saucer_x=300.0,
                   saucer_y=500.0, saucer_ticks_left=500)
    world, events = step(with_shots(w, [_saucer_shot(True)]), 0, cfg)
    assert world.score == 1000
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.game_lives + 2, count=2)]
    assert world.next_extra_life == 1500


@pytest.mark.parametrize("score,next_life", [(9980, 20000), (19990, 30000)])
def test_no_extra_life_at_max_lives_but_threshold_advances(score: int, next_life: int) -> None:
    cfg = quiet_with(game={"max_lives": 4})
    world, events = _kill_one(0, cfg, lives=4, score=score, next_extra_life=10000)
    assert world.lives == 4 and not of(events, ev.ExtraLife)
    assert world.next_extra_life == next_life  # every threshold passed is used up


def test_extra_life_one_below_max_lives() -> None:
    cfg = quiet_with(game={"max_lives": 4})
    world, events = _kill_one(0, cfg, lives=3, score=9980, next_extra_life=10000)
    assert world.lives == 4 and of(events, ev.ExtraLife) == [ev.ExtraLife(4)]


def test_two_thresholds_one_below_max_lives_give_one_life() -> None:
    cfg = quiet_with(game={"max_lives": 4})
    world, events = _kill_one(0, cfg, lives=3, score=19990, next_extra_life=10000)
    assert world.lives == 4 and of(events, ev.ExtraLife) == [ev.ExtraLife(4)]
    assert world.next_extra_life == 30000


def test_extra_life_every_zero_never_awards() -> None:
    cfg = quiet_with(scoring={"extra_life_every": 0})
    world, events = _kill_one(0, cfg, score=9980)
    assert world.score == 10000
    assert world.lives == P.game_lives and not of(events, ev.ExtraLife)
    assert world.next_extra_life == 0


def test_extra_life_every_one_point_awards_for_each_point() -> None:
    # The smallest nonzero setting: 20 points from 0 pass 20 thresholds (1, 2, ..., 20).
    cfg = quiet_with(scoring={"extra_life_every": 1})
    world, events = _kill_one(0, cfg, score=0, next_extra_life=1)
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.game_lives + 20, count=20)]
    assert world.lives == P.game_lives + 20
    assert world.next_extra_life == 21


def test_no_points_and_no_extra_life_after_game_over() -> None:
    # A shot still in flight when the game ends breaks its rock, but the game is over: the
    # score stands (it is the final score already reported) and no ship comes back.
    world, events = _kill_one(0, game_over=True, lives=0, ship_state=SHIP_DEAD, score=9980,
                              next_extra_life=10000)
    assert [(b.size, b.points) for b in of(events, ev.AsteroidDestroyed)] == [(0, 0)]
    assert world.score == 9980
    assert world.lives == 0 and world.game_over and not of(events, ev.ExtraLife)
    assert world.next_extra_life == 10000


@pytest.mark.parametrize("score,saved", [(10000 - _GAIN - 1, False), (10000 - _GAIN, True)])
def test_extra_life_earned_on_the_tick_the_last_ship_dies_keeps_the_game_going(
        score: int, saved: bool) -> None:
    # On one tick the shot breaks a small rock and the last ship flies into a large one
    # (ramming scores too, by default). The points were scored on that tick, so the life
    # they earn counts before the loss: the game goes on with one ship; one point short, it
    # is over.
    big = rock(0, CX, CY, round_radius=30.0, cfg=CFG)
    w = with_shots(world_with(CFG, [_target(2), big], lives=1, score=score,
                              next_extra_life=10000), [_shot()])
    world, events = step(w, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["asteroid"]
    assert bool(of(events, ev.ExtraLife)) is saved
    assert world.game_over is not saved and bool(of(events, ev.GameOver)) is not saved
    assert world.lives == (1 if saved else 0)


def test_extra_life_every_10000() -> None:
    w = world_with(CFG, [rock(2, 300.0, 200.0, round_radius=8.0)], score=9950,
                   next_extra_life=10000)
    w = with_shots(w, [(SHOOTER_SHIP, 280.0, 200.0, 10.0, 0.0, 30)])
    lives = w.lives
    world, events = run(w, CFG, [0] * 4)
    assert world.score == 10050
    assert world.lives == lives + 1
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(lives + 1)]
    assert world.next_extra_life == 20000


# --- many ships at once (the work budget's extreme: one kill worth a million ships) ---------


def _kill(points: int, every: int, *, score: int, next_life: int, lives: int = 3,
          max_lives: int = 0, game_over: bool = False) -> tuple:
    """One tick where a ship's shot, already inside a rock worth ``points``, breaks it."""
    p = params_for(quiet(config_with(scoring={"asteroid": (points, points, points),
                                              "extra_life_every": every},
                                     game={"max_lives": max_lives})))
    w = world_with(p, [rock(2, 300.0, 200.0, round_radius=15.0, cfg=p)], score=score,
                   next_extra_life=next_life, lives=lives, game_over=game_over)
    return step(with_shots(w, [(SHOOTER_SHIP, 300.0, 200.0, 10.0, 0.0, 30)]), 0, p)


def test_a_million_extra_ships_from_one_kill_come_in_one_event() -> None:
    world, events = _kill(1_000_000, 1, score=0, next_life=1)
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(3 + 1_000_000, count=1_000_000)]
    assert len(events) < 10
    assert (world.lives, world.next_extra_life) == (3 + 1_000_000, 1_000_001)


@settings(max_examples=60, deadline=None)
@given(points=st.integers(0, 5000), every=st.integers(0, 700), score=st.integers(0, 3000),
       ahead=st.integers(1, 700), lives=st.integers(0, 12), max_lives=st.integers(0, 12),
       game_over=st.booleans())
def test_extra_ships_at_once_are_the_ships_one_by_one(points: int, every: int, score: int,
                                                      ahead: int, lives: int, max_lives: int,
                                                      game_over: bool) -> None:
    """The ships and the next threshold are those of the one-ship-at-a-time rule."""
    next_life = score + ahead if every else 0
    world, events = _kill(points, every, score=score, next_life=next_life, lives=lives,
                          max_lives=max_lives, game_over=game_over)
    # The rule as it was: each threshold the score reaches gives a ship, if one may be given.
    want_lives, want_next, given_lives = lives, next_life, []
    total = score + (0 if game_over else points)
    while every > 0 and total >= want_next:
        want_next += every
        if not game_over and not (max_lives and want_lives >= max_lives):
            want_lives += 1
            given_lives.append(want_lives)
    assert (world.lives, world.next_extra_life) == (want_lives, want_next)
    extra = of(events, ev.ExtraLife)
    assert sum(e.count for e in extra) == len(given_lives)
    assert [e.lives for e in extra] == given_lives[-1:]
