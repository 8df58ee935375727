"""Boundary tests for the game's flow: scoring, extra lives, waves, spawning, splitting and the
heartbeat (``asteroids/core/spawn.py`` and the flow parts of ``asteroids/core/simulation.py``).

Each rule is pinned exactly at its number and one past it, from small hand-built worlds, so a
``>=`` that became ``>`` (or an off-by-one in a timer) fails here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, step
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.spawn import (
    append_rocks,
    make_outline,
    make_rocks,
    remove_all_rocks,
    spawn_wave,
    split_rocks,
    wave_size,
)
from asteroids.core.tables import CLASSIC_ROCKS, HEADING_STEPS
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import config_with, of, quiet, rock, with_shots, world_with

CFG = quiet(Config())
P = params_for(CFG)
CX, CY = 0.5 * P.width, 0.5 * P.height


def run(world, cfg, n):
    """Step ``n`` ticks with no input; return the last world and each step's events."""
    per_step = []
    for _ in range(n):
        world, events = step(world, 0, cfg)
        per_step.append(events)
    return world, per_step


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


# --- points and who scores -------------------------------------------------------------------


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


# --- extra lives ------------------------------------------------------------------------------


def test_extra_life_at_exactly_threshold() -> None:
    # 9 980 + a large rock's 20 = exactly 10 000.
    world, events = _kill_one(0, score=9980, next_extra_life=10000)
    assert world.score == 10000
    assert world.lives == P.lives + 1
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.lives + 1)]
    assert world.next_extra_life == 20000


def test_no_extra_life_one_point_short_of_threshold() -> None:
    world, events = _kill_one(0, score=9979, next_extra_life=10000)
    assert world.score == 9999
    assert world.lives == P.lives and not of(events, ev.ExtraLife)
    assert world.next_extra_life == 10000


def test_extra_life_threshold_advances_by_extra_life_every() -> None:
    cfg = quiet_with(scoring={"extra_life_every": 7000})
    world, events = _kill_one(0, cfg, score=6980, next_extra_life=7000)
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.lives + 1)]
    assert world.next_extra_life == 14000


def test_one_kill_crossing_two_thresholds_gives_two_lives() -> None:
    # 19 990 + 20 passes both 10 000 and 20 000.
    world, events = _kill_one(0, score=19990, next_extra_life=10000)
    assert world.score == 20010
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.lives + 2, count=2)]
    assert world.lives == P.lives + 2
    assert world.next_extra_life == 30000


def test_small_saucer_reaching_second_threshold_exactly_gives_two_lives() -> None:
    # 0 + 1 000 with a life every 500: 500 passed, 1 000 reached exactly.
    cfg = quiet_with(scoring={"extra_life_every": 500})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)], score=0,
                   next_extra_life=500, saucer_alive=True, saucer_small=True, saucer_x=300.0,
                   saucer_y=500.0, saucer_ticks_left=500)
    world, events = step(with_shots(w, [_saucer_shot(True)]), 0, cfg)
    assert world.score == 1000
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.lives + 2, count=2)]
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
    assert world.lives == P.lives and not of(events, ev.ExtraLife)
    assert world.next_extra_life == 0


def test_extra_life_every_one_point_awards_for_each_point() -> None:
    # The smallest nonzero setting: 20 points from 0 pass 20 thresholds (1, 2, ..., 20).
    cfg = quiet_with(scoring={"extra_life_every": 1})
    world, events = _kill_one(0, cfg, score=0, next_extra_life=1)
    assert of(events, ev.ExtraLife) == [ev.ExtraLife(P.lives + 20, count=20)]
    assert world.lives == P.lives + 20
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


def test_no_points_for_a_saucer_shot_down_after_game_over() -> None:
    saucer = {"saucer_alive": True, "saucer_small": True, "saucer_x": 300.0, "saucer_y": 500.0,
              "saucer_ticks_left": 100, "saucer_fire_timer": 100, "saucer_zig_timer": 100}
    w = with_shots(world_with(CFG, [_target(0, 100.0)], game_over=True, lives=0,
                              ship_state=SHIP_DEAD, score=500, **saucer), [_saucer_shot(True)])
    world, events = step(w, 0, CFG)
    assert [s.points for s in of(events, ev.SaucerDestroyed)] == [0]
    assert world.score == 500


_GAIN = P.asteroid_points[2] + (P.asteroid_points[0] if P.ramming_scores else 0)


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


# --- wave size --------------------------------------------------------------------------------


def test_wave_size_reaches_max_wave_asteroids_exactly() -> None:
    # 4 + 2 * (wave - 1) hits the cap of 10 exactly at wave 4.
    p = params_for(quiet_with(game={"max_wave_asteroids": 10}))
    assert [wave_size(p, n) for n in (1, 3, 4, 5, 6)] == [4, 8, 10, 10, 10]


def test_wave_size_one_under_max_wave_asteroids() -> None:
    # Cap 11 (default): wave 4 is 10, one under it; wave 5 would be 12 and is capped.
    assert [wave_size(P, n) for n in (4, 5)] == [10, 11]


@pytest.mark.parametrize("max_alive,sizes", [(10, [8, 10, 10]), (9, [8, 9, 9])])
def test_wave_size_capped_by_asteroid_max_alive(max_alive: int, sizes: list[int]) -> None:
    p = params_for(quiet_with(asteroids={"max_alive": max_alive}))
    assert [wave_size(p, n) for n in (3, 4, 5)] == sizes


def test_first_wave_of_zero_asteroids_clears_at_once() -> None:
    cfg = quiet_with(game={"first_wave_asteroids": 0, "next_wave_delay_s": 0.0})
    w = new_world(cfg, 1)
    assert w.wave == 1 and w.asteroid_count == 0
    assert [wave_size(params_for(cfg), n) for n in (1, 2, 3)] == [0, 2, 4]
    world, events = step(w, 0, cfg)
    assert of(events, ev.WaveCleared) == [ev.WaveCleared(1)]
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(2, 2)]
    assert world.asteroid_count == 2


# --- the next wave ----------------------------------------------------------------------------


def _clear_last_rock(cfg: Config = CFG, **fields):
    """A world whose last rock (small: no fragments) a shot breaks on the next tick."""
    return with_shots(world_with(cfg, [_target(2, cfg=cfg)], **fields), [_shot()])


def test_next_wave_starts_exactly_wave_delay_ticks_after_the_break() -> None:
    w = _clear_last_rock()
    world, per_step = run(w, CFG, 1 + P.wave_delay_ticks)
    cleared = [i for i, events in enumerate(per_step) if of(events, ev.WaveCleared)]
    started = [i for i, events in enumerate(per_step) if of(events, ev.WaveStarted)]
    assert cleared == [0]  # the tick the last rock broke
    assert started == [P.wave_delay_ticks]  # nothing at delay - 1
    assert of(per_step[-1], ev.WaveStarted) == [ev.WaveStarted(2, wave_size(P, 2))]
    assert world.asteroid_count == wave_size(P, 2)


def test_next_wave_with_a_short_delay() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 3 / 60})
    assert params_for(cfg).wave_delay_ticks == 3
    world, per_step = run(_clear_last_rock(cfg), cfg, 4)
    assert [bool(of(events, ev.WaveStarted)) for events in per_step] == [False, False, False,
                                                                          True]
    assert world.wave_timer == -1 and world.asteroid_count == 6


def test_next_wave_with_zero_delay_starts_on_the_clearing_tick() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, events = step(_clear_last_rock(cfg), 0, cfg)
    assert [type(e) for e in events if isinstance(e, (ev.WaveCleared, ev.WaveStarted))] == [
        ev.WaveCleared, ev.WaveStarted]
    assert world.wave == 2 and world.asteroid_count == 6


def test_wave_counter_increments_by_one() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, events = step(_clear_last_rock(cfg, wave=7), 0, cfg)
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(8, 11)]
    assert world.wave == 8


def test_new_wave_resets_saucer_timers_but_not_the_saucer_count() -> None:
    # The count of saucers decides the "first saucers of a game are large" rule
    # (always_large_count): it runs over the whole game, as the 1979 game's reload did.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, _ = step(_clear_last_rock(cfg, saucer_timer=3, saucer_interval=150,
                                     saucers_this_game=4), 0, cfg)
    assert world.saucer_timer == P.saucer_first_ticks
    assert world.saucer_interval == P.saucer_first_ticks
    assert world.saucers_this_game == 4


@pytest.mark.parametrize("refill,energy", [(True, P.shield_ticks), (False, 5)])
def test_new_wave_refills_shield_only_when_refill_per_wave(refill: bool, energy: int) -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0},
                     ship={"shield": {"refill_per_wave": refill}})
    world, _ = step(_clear_last_rock(cfg, shield_energy=5), 0, cfg)
    assert world.wave == 2 and world.shield_energy == energy


def test_new_wave_weight_is_seven_per_large_rock() -> None:
    # Wave 2 has 6 large rocks: weight 42. With one large rock (7) left the by-count interval
    # is 8 + 38 * 7 // 42 = 14.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, _ = step(_clear_last_rock(cfg), 0, cfg)
    assert world.wave_weight == 42
    d = Draft(world)
    remove_all_rocks(d)
    append_rocks(d, [rock(0, 100.0, 100.0, round_radius=10.0)])
    d.beat_timer = 1
    _, events = step(d.freeze(), 0, cfg)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [14]


# --- spawning a wave --------------------------------------------------------------------------


def _spawn(cfg: Config, count: int, seed: int, ship: tuple[float, float] = (CX, CY)):
    d = Draft(world_with(cfg, []))
    d.ship_x, d.ship_y = ship
    return spawn_wave(d, params_for(cfg), Pcg32(*seed_state(seed)), count)


def _clearance_cfg(clearance: float, borders: tuple[str, str]) -> Config:
    return quiet_with(game={"spawn_clearance_px": clearance},
                      borders={"asteroids": borders[0], "ship": borders[1]})


@pytest.mark.parametrize("borders,seed", [
    (("wrap", "wrap"), 2), (("wrap", "bounce"), 2), (("bounce", "wrap"), 4)])
def test_spawn_accepts_a_place_exactly_spawn_clearance_away_across_the_seam(
        borders: tuple[str, str], seed: int) -> None:
    # The seed's first try is on the top edge (y = 0, or the radius when rocks bounce). A ship
    # 520 px below it is 200 px away across the seam when anything wraps: at a clearance of
    # 200 that try is taken, at the next float above 200 it is not.
    first = _spawn(_clearance_cfg(0.0, borders), 1, seed).pos[0]
    top = 0.0 if borders[0] == "wrap" else P.radius[0]
    assert first[1] == top
    ship = (float(first[0]), top + 520.0)
    at = _spawn(_clearance_cfg(200.0, borders), 1, seed, ship).pos[0]
    assert at.tolist() == first.tolist()
    nudged = _clearance_cfg(math.nextafter(200.0, math.inf), borders)
    assert _spawn(nudged, 1, seed, ship).pos[0].tolist() != first.tolist()


def test_spawn_clearance_is_measured_straight_when_nothing_wraps() -> None:
    # Bounce borders, seed 4: first try on the top edge inset by the radius (y = 44).
    borders = ("bounce", "bounce")
    first = _spawn(_clearance_cfg(0.0, borders), 1, 4).pos[0]
    assert first[1] == P.radius[0]
    ship = (float(first[0]), P.radius[0] + 200.0)
    assert _spawn(_clearance_cfg(200.0, borders), 1, 4, ship).pos[0].tolist() == first.tolist()
    nudged = _clearance_cfg(math.nextafter(200.0, math.inf), borders)
    assert _spawn(nudged, 1, 4, ship).pos[0].tolist() != first.tolist()
    # 520 px straight down, 200 across a seam that does not exist here: taken at 300.
    far = (float(first[0]), P.radius[0] - 200.0 + P.height)
    assert _spawn(_clearance_cfg(300.0, borders), 1, 4, far).pos[0].tolist() == first.tolist()


def test_spawn_falls_back_to_the_farthest_try() -> None:
    # Walk the records: each clearance just past the last result finds the next farther try,
    # until none is farther; a clearance nobody can meet must then give that farthest try.
    ship = (150.0, 120.0)

    def place(clearance):
        pos = _spawn(_clearance_cfg(clearance, ("wrap", "wrap")), 1, 16, ship).pos[0]
        dx = min(abs(pos[0] - ship[0]), P.width - abs(pos[0] - ship[0]))
        dy = min(abs(pos[1] - ship[1]), P.height - abs(pos[1] - ship[1]))
        return pos.tolist(), math.hypot(dx, dy)

    records = [place(0.0)]
    while True:
        nxt = place(records[-1][1] * (1.0 + 1e-9))
        if nxt[0] == records[-1][0]:
            break
        records.append(nxt)
    assert len(records) >= 3  # seed 16's first try is not its farthest
    assert place(1e6)[0] == records[-1][0]


def test_new_wave_rocks_are_large_on_the_wrapping_edges() -> None:
    batch = _spawn(CFG, 60, 3)
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    assert (batch.size == 0).all()
    assert ((x == 0.0) | (y == 0.0)).all()  # the far edges fold onto 0 in [0, W) x [0, H)
    assert (x == 0.0).any() and (y == 0.0).any()
    assert ((x >= 0.0) & (x < P.width) & (y >= 0.0) & (y < P.height)).all()
    # Along its edge a rock may be anywhere: only the coordinate across the edge is pinned.
    assert np.ptp(x[y == 0.0]) > 0.5 * P.width and np.ptp(y[x == 0.0]) > 0.5 * P.height
    dx = np.minimum(abs(x - CX), P.width - abs(x - CX))
    dy = np.minimum(abs(y - CY), P.height - abs(y - CY))
    assert (dx * dx + dy * dy >= P.spawn_clearance * P.spawn_clearance).all()


def test_new_wave_rocks_sit_inset_by_their_radius_when_bouncing() -> None:
    cfg = quiet_with(borders={"asteroids": "bounce", "ship": "bounce"})
    batch = _spawn(cfg, 60, 3)
    r = P.radius[0]
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    on_x, on_y = (x == r) | (x == P.width - r), (y == r) | (y == P.height - r)
    assert (on_x | on_y).all()
    for edge in (x == r, x == P.width - r, y == r, y == P.height - r):
        assert edge.any()
    assert ((x >= r) & (x <= P.width - r) & (y >= r) & (y <= P.height - r)).all()


def test_new_wave_rocks_come_evenly_from_all_four_edges() -> None:
    # Each edge has odds 1/4 (with no clearance to meet, every first try is taken).
    cfg = quiet_with(borders={"asteroids": "bounce", "ship": "bounce"},
                     game={"spawn_clearance_px": 0.0})
    batch = _spawn(cfg, 1000, 5)
    r = P.radius[0]
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    for edge in (x == r, x == P.width - r, y == r, y == P.height - r):
        assert 0.2 < edge.mean() < 0.3


def test_new_wave_speed_signs_are_even() -> None:
    vel = _spawn(CFG, 1000, 5).vel
    assert 0.45 < (vel < 0).mean() < 0.55


def test_new_wave_speeds_per_axis_within_min_and_max() -> None:
    vel = _spawn(CFG, 60, 3).vel
    speed = np.abs(vel)
    assert (speed >= P.ast_speed_min).all() and (speed < P.ast_speed_max).all()
    span = P.ast_speed_max - P.ast_speed_min
    assert speed.min() < P.ast_speed_min + 0.1 * span  # the whole range is used
    assert speed.max() > P.ast_speed_max - 0.1 * span
    assert (vel > 0).any() and (vel < 0).any()


def test_new_wave_speed_equal_min_and_max_is_exact() -> None:
    cfg = quiet_with(asteroids={"speed_min_px_per_s": 90.0, "speed_max_px_per_s": 90.0})
    vel = _spawn(cfg, 20, 3).vel
    assert (np.abs(vel) == 90.0 / 60.0).all()


# --- splitting --------------------------------------------------------------------------------


def _split(sizes, room, cfg: Config = CFG, vel=(1.0, 1.0), seed: int = 7):
    n = len(sizes)
    pos = np.array([(100.0 + 50 * i, 200.0) for i in range(n)]).reshape(-1, 2)
    v = np.array([vel] * n, dtype=np.float64).reshape(-1, 2)
    return split_rocks(Pcg32(*seed_state(seed)), params_for(cfg), np.array(sizes, dtype=np.int64),
                       pos, v, room)


def test_split_large_to_two_medium_medium_to_two_small_small_to_none() -> None:
    kids, got = _split([0, 1, 2], 100)
    assert got.tolist() == [2, 2, 0]
    assert kids.size.tolist() == [1, 1, 2, 2]
    assert kids.pos.tolist() == [[100.0, 200.0]] * 2 + [[150.0, 200.0]] * 2


def test_split_children_setting() -> None:
    _, got = _split([0, 1, 2], 100, quiet_with(asteroids={"split_children": 3}))
    assert got.tolist() == [3, 3, 0]
    kids, got = _split([0, 1, 2], 100, quiet_with(asteroids={"split_children": 0}))
    assert got.tolist() == [0, 0, 0] and len(kids) == 0


@pytest.mark.parametrize("room,got", [
    (7, [2, 2, 2]),  # more than enough
    (6, [2, 2, 2]),  # exactly enough room for every fragment
    (5, [2, 2, 1]),  # one less: the last rock loses one
    (4, [2, 2, 0]),
    (3, [2, 1, 0]),  # earlier rocks get their fragments first
    (1, [1, 0, 0]),
    (0, [0, 0, 0]),
    (-2, [0, 0, 0]),  # a hand-made world above the cap
])
def test_split_room_at_the_asteroid_cap(room: int, got: list[int]) -> None:
    kids, counts = _split([0, 0, 0], room)
    assert counts.tolist() == got and len(kids) == sum(got)


def test_small_rocks_take_no_room_at_the_cap() -> None:
    _, got = _split([0, 2, 1], 3)
    assert got.tolist() == [2, 0, 1]


@pytest.mark.parametrize("max_alive,children", [(4, 2), (3, 1), (2, 0)])
def test_split_room_in_the_game(max_alive: int, children: int) -> None:
    # Three rocks, one broken: room = max_alive - 2 survivors.
    cfg = quiet_with(asteroids={"max_alive": max_alive})
    rocks = [rock(0, 100.0, 600.0, round_radius=10.0, cfg=cfg), _target(0, cfg=cfg),
             rock(0, 1100.0, 600.0, round_radius=10.0, cfg=cfg)]
    w = with_shots(world_with(cfg, rocks), [_shot()])
    world, events = step(w, 0, cfg)
    assert of(events, ev.AsteroidDestroyed)[0].children == children
    assert world.asteroid_count == 2 + children


def test_fragment_speed_clamped_to_exactly_speed_max_keeping_sign() -> None:
    # Parent far too fast on both axes: every kick leaves it past the bound.
    kids, _ = _split([0, 0], 100, vel=(10.0, -10.0))
    assert kids.vel.tolist() == [[P.ast_speed_max, -P.ast_speed_max]] * 4


@pytest.mark.parametrize("vel,expected", [
    ((0.0, -0.1), (P.ast_speed_min, -P.ast_speed_min)),  # too slow: raised to min; 0 is +
    ((P.ast_speed_min, -P.ast_speed_max), (P.ast_speed_min, -P.ast_speed_max)),  # at the bounds
    ((math.nextafter(P.ast_speed_min, 0.0), -math.nextafter(P.ast_speed_max, math.inf)),
     (P.ast_speed_min, -P.ast_speed_max)),  # one float past each bound
])
def test_fragment_speed_bounds_without_kick(vel, expected) -> None:
    cfg = quiet_with(asteroids={"split_kick_px_per_s": 0.0})
    kids, _ = _split([1], 100, cfg, vel=vel)
    assert kids.vel.tolist() == [list(expected)] * 2


def test_fragment_kick_spans_plus_minus_split_kick() -> None:
    cfg = quiet_with(asteroids={"speed_min_px_per_s": 0.0, "speed_max_px_per_s": 10000.0})
    p = params_for(cfg)
    kids, _ = _split([0] * 30, 1000, cfg, vel=(50.0, 50.0))
    kick = kids.vel - 50.0
    assert (np.abs(kick) <= p.split_kick).all()
    assert kick.min() < -0.8 * p.split_kick and kick.max() > 0.8 * p.split_kick


# --- outlines ---------------------------------------------------------------------------------


def _many(cfg: Config = CFG, n: int = 400, seed: int = 11):
    sizes = np.arange(n, dtype=np.int64) % 3
    return make_rocks(Pcg32(*seed_state(seed)), params_for(cfg), sizes, np.zeros((n, 2)),
                      np.zeros((n, 2)))


def _outlines(batch):
    ends = np.cumsum(batch.counts)
    return [batch.local[e - c:e] for c, e in zip(batch.counts.tolist(), ends.tolist(),
                                                   strict=True)]


def test_outline_vertex_counts_reach_both_ends() -> None:
    counts = _many().counts
    assert sorted(set(counts.tolist())) == list(range(P.vertices_min, P.vertices_max + 1))
    cfg = quiet_with(asteroids={"vertices_min": 5, "vertices_max": 5})
    assert set(_many(cfg, 40).counts.tolist()) == {5}


def test_spin_reaches_both_ends() -> None:
    spin = _many().spin
    assert spin.min() == -P.spin_max_steps and spin.max() == P.spin_max_steps
    cfg = quiet_with(asteroids={"spin_max_deg_per_s": 0.0})
    assert set(_many(cfg, 40).spin.tolist()) == {0}


def test_angle_and_spin_are_whole_heading_steps() -> None:
    batch = _many()
    assert batch.angle.dtype == np.int64 and batch.spin.dtype == np.int64
    assert batch.angle.min() >= 0 and batch.angle.max() < HEADING_STEPS
    assert batch.angle.max() > HEADING_STEPS // 2  # the whole circle is used


def test_rock_angle_spin_and_outline_are_drawn_independently() -> None:
    # Each property has its own draw: knowing one tells nothing about another.
    batch = _many()
    first_point = np.array([np.arctan2(o[0, 1], o[0, 0]) for o in _outlines(batch)])
    for a, b in ((batch.angle, batch.spin), (batch.spin, first_point),
                 (batch.angle, batch.counts), (batch.spin, batch.counts)):
        assert abs(np.corrcoef(a, b)[0, 1]) < 0.2
    classic = _many(quiet_with(asteroids={"shapes": "classic"}))
    for count in set(classic.counts.tolist()):
        assert np.ptp(classic.angle[classic.counts == count]) > HEADING_STEPS // 2


def test_bounding_radius_is_the_farthest_outline_point() -> None:
    batch = _many()
    for size, outline, radius in zip(batch.size.tolist(), _outlines(batch),
                                     batch.radius.tolist(), strict=True):
        d2 = outline[:, 0] * outline[:, 0] + outline[:, 1] * outline[:, 1]
        assert radius == math.sqrt(float(d2.max()))
        r = P.radius[size]
        assert r * (1.0 - P.jaggedness) - 1e-9 <= math.sqrt(float(d2.min()))
        assert radius <= r + 1e-9


def test_generated_outline_goes_once_round_counter_clockwise() -> None:
    for outline in _outlines(_many(n=60)):
        a = np.arctan2(outline[:, 1], outline[:, 0]) % (2 * math.pi)
        steps = np.diff(np.concatenate([a, a[:1] + 2 * math.pi]))
        assert (steps > 0).all()  # never crosses itself
        assert steps.sum() == pytest.approx(2 * math.pi)


def test_outline_point_jitter_stays_below_a_third_of_the_gap() -> None:
    # Point i of k sits at heading step i * 4096 // k plus a jitter in [0, 4096 // (3k)).
    largest = 0.0
    for outline in _outlines(_many(n=120)):
        k = outline.shape[0]
        steps = np.rint(np.arctan2(outline[:, 1], outline[:, 0]) * HEADING_STEPS
                        / (2 * math.pi)).astype(np.int64) % HEADING_STEPS
        jitter = steps - np.arange(k) * HEADING_STEPS // k
        limit = HEADING_STEPS // (3 * k)
        assert (jitter >= 0).all() and (jitter < limit).all()
        largest = max(largest, float(jitter.max()) / limit)
    assert largest > 0.9  # and the jitter is really used


def test_classic_outlines_use_the_four_shapes_at_full_radius() -> None:
    cfg = quiet_with(asteroids={"shapes": "classic"})
    batch = _many(cfg, 60)
    shapes = {len(r) for r in CLASSIC_ROCKS}
    assert set(batch.counts.tolist()) == shapes
    radius = np.array(P.radius)[batch.size]
    assert np.allclose(batch.radius, radius, rtol=1e-12)


def test_make_outline_is_one_rock_of_make_rocks() -> None:
    outline, radius = make_outline(Pcg32(*seed_state(3)), P, 1)
    batch = make_rocks(Pcg32(*seed_state(3)), P, np.array([1]), np.zeros((1, 2)),
                       np.zeros((1, 2)))
    assert outline == [tuple(pt) for pt in batch.local.tolist()]
    assert radius == float(batch.radius[0])
    assert P.vertices_min <= len(outline) <= P.vertices_max


# --- the asteroid arrays ----------------------------------------------------------------------


def test_append_rocks_gives_fresh_ascending_ids() -> None:
    d = Draft(world_with(CFG, [rock(0, 100.0, 100.0, seed=1)], next_id=10))
    before = d.ast_local.shape[0]
    batch = _many(n=3)
    append_rocks(d, batch)
    assert d.ast_id.tolist()[1:] == [10, 11, 12] and d.next_id == 13
    assert d.ast_offsets.tolist() == [0, before] + (before + np.cumsum(batch.counts)).tolist()
    assert d.ast_local[before:].tolist() == batch.local.tolist()
    append_rocks(d, [])
    assert d.next_id == 13 and d.ast_id.shape[0] == 4


def test_remove_all_rocks_empties_the_arrays() -> None:
    d = Draft(world_with(CFG, [rock(0, 100.0, 100.0), rock(1, 300.0, 100.0)]))
    remove_all_rocks(d)
    world = d.freeze()
    for name in ("ast_id", "ast_size", "ast_pos", "ast_vel", "ast_angle", "ast_spin",
                 "ast_radius", "ast_local"):
        assert getattr(world, name).shape[0] == 0, name
    assert world.ast_pos.shape == (0, 2) and world.ast_local.shape == (0, 2)
    assert world.ast_offsets.tolist() == [0]


@pytest.mark.parametrize("rocks", [[], [rock(0, 100.0, 100.0), rock(2, 300.0, 100.0)]])
def test_rock_batches_keep_their_documented_dtypes_even_when_empty(rocks) -> None:
    # RockBatch promises int64 sizes, angles, spins and counts and float64 places: an empty
    # batch (no fragments this tick) must not turn into float arrays that would promote the
    # World's integer columns when appended.
    batch = make_rocks(Pcg32(1, 1), P, np.array([r.size for r in rocks], dtype=np.int64),
                       np.array([(r.x, r.y) for r in rocks]).reshape(-1, 2),
                       np.zeros((len(rocks), 2)))
    assert len(batch) == len(rocks)
    for name in ("size", "angle", "spin", "counts"):
        assert getattr(batch, name).dtype == np.int64, name
    for name in ("pos", "vel", "radius", "local"):
        assert getattr(batch, name).dtype == np.float64, name
    assert batch.pos.shape == (len(rocks), 2) and batch.local.shape[1] == 2
    d = Draft(world_with(CFG, []))
    append_rocks(d, rocks)
    world = d.freeze()
    for name in ("ast_id", "ast_size", "ast_angle", "ast_spin", "ast_offsets"):
        assert getattr(world, name).dtype == np.int64, name
    assert world.asteroid_count == len(rocks)


def test_breaking_a_middle_rock_keeps_the_others_whole_and_in_order() -> None:
    rocks = [rock(0, 100.0, 600.0, 1.5, -0.5, seed=1, angle=100, spin=3), _target(0),
             rock(1, 1100.0, 600.0, -1.0, 0.25, seed=2, angle=2000, spin=-5)]
    w = with_shots(world_with(CFG, rocks), [_shot()])
    world, _ = step(w, 0, CFG)
    keep = [0, 2]
    assert world.ast_id.tolist()[:2] == [w.ast_id[i] for i in keep]
    assert world.ast_id.tolist()[2:] == [w.next_id, w.next_id + 1]
    for new, old in enumerate(keep):
        assert world.ast_size[new] == w.ast_size[old]
        assert world.ast_radius[new] == w.ast_radius[old]
        assert world.ast_vel[new].tolist() == w.ast_vel[old].tolist()
        assert world.ast_pos[new].tolist() == (w.ast_pos[old] + w.ast_vel[old]).tolist()
        assert world.ast_spin[new] == w.ast_spin[old]
        assert world.ast_angle[new] == w.ast_angle[old] + w.ast_spin[old]
        o = w.ast_local[w.ast_offsets[old]:w.ast_offsets[old + 1]]
        n = world.ast_local[world.ast_offsets[new]:world.ast_offsets[new + 1]]
        assert n.tolist() == o.tolist()
    assert world.ast_offsets[-1] == world.ast_local.shape[0]


# --- the heartbeat ----------------------------------------------------------------------------


def _still(*sizes: int):
    """Motionless rocks well away from the ship (so the count stays put)."""
    return [rock(s, 100.0 + 150.0 * i, 100.0, round_radius=10.0) for i, s in enumerate(sizes)]


def _beats(per_step):
    """(step number from 1, tone, interval) of every beat."""
    return [(i + 1, b.tone, b.interval_ticks) for i, events in enumerate(per_step)
            for b in of(events, ev.Heartbeat)]


def test_first_beats_come_at_beat_start_then_quicken() -> None:
    # First beat on tick 46 (beat_start_ticks); one step off the interval every 61 ticks
    # (at 61 and 122), so the next beats are 45 and then 44 ticks apart.
    assert (P.beat_start_ticks, P.beat_quicken_ticks, P.beat_step_ticks) == (46, 61, 1)
    w = world_with(CFG, _still(0, 0, 0, 0))
    _, per_step = run(w, CFG, 181)
    assert _beats(per_step) == [(46, 0, 46), (92, 1, 45), (137, 0, 44), (181, 1, 44)]


def test_beat_interval_shrinks_exactly_every_beat_quicken_ticks() -> None:
    w = world_with(CFG, _still(0))
    w, _ = run(w, CFG, P.beat_quicken_ticks - 1)
    assert w.beat_interval == P.beat_start_ticks and w.beat_quicken_timer == 1
    w, _ = step(w, 0, CFG)
    assert w.beat_interval == P.beat_start_ticks - P.beat_step_ticks
    assert w.beat_quicken_timer == P.beat_quicken_ticks


@pytest.mark.parametrize("before,after", [(11, 9), (10, 8), (9, 8), (8, 8)])
def test_beat_interval_never_below_beat_min(before: int, after: int) -> None:
    # Step of 2 ticks: min + step (10) lands exactly on min 8, min + step - 1 (9) is floored.
    cfg = quiet_with(game={"heartbeat": {"quicken_step_s": 2 / 60}})
    assert (params_for(cfg).beat_step_ticks, params_for(cfg).beat_min_ticks) == (2, 8)
    w = world_with(cfg, _still(0), beat_interval=before, beat_quicken_timer=1)
    world, _ = step(w, 0, cfg)
    assert world.beat_interval == after


@pytest.mark.parametrize("sizes,interval", [
    ((0, 0, 0, 0), 46),  # all four large left: 8 + 38 * 28 // 28
    ((0,), 17),  # 8 + 38 * 7 // 28
    ((1,), 12),  # 8 + 38 * 3 // 28
    ((2,), 9),  # 8 + 38 * 1 // 28
    ((0, 1, 2), 22),  # 8 + 38 * 11 // 28
    ((1, 1, 2), 17),  # two medium and a small weigh one large: 3 + 3 + 1 = 7
])
def test_beat_by_count_weighs_large_7_medium_3_small_1(sizes, interval: int) -> None:
    w = world_with(CFG, _still(*sizes), wave_weight=28, beat_timer=1)
    world, events = step(w, 0, CFG)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [interval]
    assert world.beat_timer == interval


def test_beat_never_faster_than_min_when_start_is_faster() -> None:
    # A start interval (6) below the minimum (12): the minimum still rules.
    cfg = quiet_with(game={"heartbeat": {"start_interval_s": 0.1, "min_interval_s": 0.2}})
    assert (params_for(cfg).beat_start_ticks, params_for(cfg).beat_min_ticks) == (6, 12)
    w = world_with(cfg, _still(0), beat_timer=1)
    _, events = step(w, 0, cfg)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [12]


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 30},
    {"game_over": True},
])
def test_heartbeat_silent_while_ship_gone_or_game_over(fields) -> None:
    w = world_with(CFG, _still(0), beat_timer=1, beat_quicken_timer=1, **fields)
    world, events = step(w, 0, CFG)
    assert not of(events, ev.Heartbeat)
    assert world.beat_timer == 1 and world.beat_quicken_timer == 1  # the clock is stopped
    assert world.beat_interval == P.beat_start_ticks


def test_heartbeat_beats_with_ship_flying() -> None:
    # The counterpart of the silent cases: the same world with the ship in play beats.
    w = world_with(CFG, _still(0), beat_timer=1, beat_quicken_timer=1)
    world, events = step(w, 0, CFG)
    assert of(events, ev.Heartbeat) == [ev.Heartbeat(0, P.beat_start_ticks - P.beat_step_ticks)]
    assert world.beat_tone == 1
    assert world.beat_interval == P.beat_start_ticks - P.beat_step_ticks


def test_heartbeat_silent_between_waves() -> None:
    w = world_with(CFG, [], wave_timer=5, beat_timer=1)
    world, events = step(w, 0, CFG)
    assert not of(events, ev.Heartbeat) and world.beat_timer == 1
    assert world.wave_timer == 4


def test_first_beat_of_a_later_wave_comes_as_late_as_the_first_waves() -> None:
    # The heartbeat starts counting on the tick after a wave starts, as it does for the
    # first wave (which starts before the first step): its first beat comes
    # beat_start_ticks steps after the wave started, in every wave.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    w, events = step(_clear_last_rock(cfg, beat_interval=20, beat_timer=3,
                                      beat_quicken_timer=7, beat_tone=1), 0, cfg)
    assert of(events, ev.WaveStarted) and not of(events, ev.Heartbeat)
    assert (w.beat_interval, w.beat_timer) == (P.beat_start_ticks, P.beat_start_ticks)
    assert w.beat_quicken_timer == P.beat_quicken_ticks
    _, per_step = run(w, cfg, P.beat_start_ticks)
    assert _beats(per_step) == [(P.beat_start_ticks, 1, P.beat_start_ticks)]
    _, first_wave = run(new_world(cfg, 3), cfg, P.beat_start_ticks)
    assert [b[0] for b in _beats(first_wave)] == [P.beat_start_ticks]
