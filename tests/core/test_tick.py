"""The tick as a whole: the World a new game starts from, the tick and chance bookkeeping of
``step``, the input mask language, and that a step never changes the old World."""

from __future__ import annotations

import pytest

from asteroids.config.schema import Config
from asteroids.core import InputFrame, new_world, state_hash, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.rng import seed_state
from asteroids.core.ship import START_HEADING
from asteroids.core.spawn import NewRock
from asteroids.core.world import SHIP_FLYING, SHOOTER_SHIP
from tests.core.worlds import CFG, FIRE, P, config_with, of, quiet, rock, with_shots, world_with

W, H = P.width, P.height


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def far_rock(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)




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
    assert world.shield_energy == p.ship_shield_energy_ticks == 120
    assert world.rng_inc == seed_state(9)[1]
    assert world.rng_state != seed_state(9)[0], "the first wave drew its rocks"
    assert world.asteroid_count == p.game_first_wave_asteroids
    assert world.ast_id.tolist() == list(range(1,
                                               p.game_first_wave_asteroids + 1)), "ids count from 1"
    assert world.next_id == p.game_first_wave_asteroids + 1 and world.shot_id.shape[0] == 0


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


def test_step_never_changes_the_old_world() -> None:
    w = new_world(Config(), 9)
    before = state_hash(w)
    for mask in (FIRE, int(InputFrame.THRUST | InputFrame.LEFT), 0):
        step(w, mask, Config())
    assert state_hash(w) == before
    with pytest.raises(ValueError):
        w.ast_pos[0, 0] = 1.0


@pytest.mark.parametrize("bad", [-1, 64, 1 << 10, 2.5, "F", None, True])
def test_bad_input_masks_are_refused(bad) -> None:
    w = new_world(CFG, 1)
    with pytest.raises(ValueError):
        step(w, bad, CFG)


def test_int_mask_and_input_frame_are_the_same_language() -> None:
    w = new_world(CFG, 4)
    a, _ = step(w, InputFrame.THRUST | InputFrame.FIRE | InputFrame.LEFT, CFG)
    b, _ = step(w, 0b1011, CFG)
    assert state_hash(a) == state_hash(b)
    assert a.ship_state == SHIP_FLYING


@pytest.mark.parametrize("refill", [True, False])
def test_new_game_starts_from_a_canonical_state(refill: bool) -> None:
    # Every field is set from the config or to zero, never left to chance: a replay's first
    # checkpoint is the hash of this World, so two builds must agree on all of it.
    cfg = config_with(ship={"shield": {"enabled": True, "refill_per_wave": refill}})
    p = params_for(cfg)
    w = new_world(cfg, 7)
    assert (w.tick, w.score, w.lives, w.next_extra_life, w.wave, w.game_over) == (
        0, 0, p.game_lives, p.scoring_extra_life_every, 1, False)
    assert (w.ship_state, w.ship_x, w.ship_y, w.ship_vx, w.ship_vy) == (
        SHIP_FLYING, 0.5 * p.width, 0.5 * p.height, 0.0, 0.0)
    assert (w.ship_timer, w.ship_doomed, w.autofire_timer, w.thrusting, w.shield_on,
            w.fire_held, w.hyper_held) == (0, False, 0, False, False, False, False)
    assert w.shield_energy == p.ship_shield_energy_ticks
    assert (w.saucer_alive, w.saucer_small, w.saucer_x, w.saucer_y, w.saucer_vx, w.saucer_vy,
            w.saucer_ticks_left, w.saucer_fire_timer, w.saucer_zig_timer) == (
        False, False, 0.0, 0.0, 0.0, 0.0, 0, 0, 0)
    assert (w.saucer_timer, w.saucer_interval, w.saucers_this_game, w.since_break) == (
        p.saucers_first_interval_ticks, p.saucers_first_interval_ticks, 0, 0)
    assert (w.beat_timer, w.beat_interval, w.beat_quicken_timer, w.beat_tone) == (
        p.game_heartbeat_start_interval_ticks, p.game_heartbeat_start_interval_ticks,
        p.game_heartbeat_quicken_every_ticks, 0)
    assert (w.wave_timer, w.wave_weight) == (-1, 7 * p.game_first_wave_asteroids)
    assert w.shot_id.shape[0] == 0 and w.asteroid_count == p.game_first_wave_asteroids
    assert state_hash(w) == state_hash(new_world(cfg, 7))
