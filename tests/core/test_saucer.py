"""Saucer rules at their exact numbers and one past: when a saucer comes (spawn timer,
anti-lurking, the shrinking interval), which size, how it crosses, zig-zags, fires and aims,
what its shots hit and what killing it scores. Defaults at 60 Hz: first interval 560
ticks, step 23, floor 123, lurk 307 ticks, lurk minimum 5 (+1 a wave, cap 11), 3 large
saucers first, small from 30000 points, fire every 38 ticks, 2 shots of 66 ticks."""

from __future__ import annotations

import math

import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.saucer import aim_direction, saucer_outline
from asteroids.core.ship import START_HEADING
from asteroids.core.spawn import NewRock
from asteroids.core.tables import COS, HEADING_STEPS, SAUCER_OUTLINE, SIN
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import config_with, of, quiet, rock, run, with_shots, world_with

CFG = Config()
P = params_for(CFG)
GONE = {"ship_state": SHIP_DEAD, "ship_timer": 10 ** 6}
"""The ship out of play for the whole test, so nothing aims at it or rams it."""


IDLE = {"saucer_fire_timer": 10 ** 6, "saucer_zig_timer": 10 ** 6, "saucer_ticks_left": 10 ** 6}
"""A live saucer that neither fires, zig-zags nor leaves during the test."""


def row_of_rocks(n: int) -> list:
    """``n`` still rocks along the top edge, far from the ship, the saucer's lane and shots."""
    return [rock(2, 150.0 + 90.0 * i, 50.0, round_radius=10.0) for i in range(n)]


def due(cfg=P, rocks=None, **fields):
    """A world whose saucer timer expires this tick, the player idle (no lurk hold)."""
    base = {"saucer_timer": 1, "since_break": 10 ** 6, **GONE}
    base.update(fields)
    return world_with(cfg, row_of_rocks(1) if rocks is None else rocks, **base)


def saucer_world(cfg=P, rocks=(), *, x=300.0, y=200.0, small=False, vx=0.0, vy=0.0,
                 **fields):
    """A world with a live saucer at (x, y) and the given fields."""
    base = {**IDLE, "saucer_alive": True, "saucer_small": small, "saucer_x": x,
            "saucer_y": y, "saucer_vx": vx, "saucer_vy": vy}
    base.update(fields)
    return world_with(cfg, list(rocks), **base)


def spawned(events) -> list[ev.SaucerSpawned]:
    return of(events, ev.SaucerSpawned)


def saucer_shots(world) -> int:
    return int((world.shot_owner == SHOOTER_SAUCER).sum())


# First and floor one tick apart (10 and 9 ticks at 60 Hz): the roll is then always 0.
ONE_TICK_SPAN = config_with(saucers={"first_interval_s": 10 / 60, "min_interval_s": 9 / 60})


def _aimed_shot(cfg, score: int, *, small: bool = True, seed: int = 1, **fields):
    """One saucer shot at a moving ship; returns (shot velocity, exact aim at the ship's next
    position, aim at its current position)."""
    p = params_for(cfg)
    sx, sy = 200.0, 360.0
    base = {"ship_x": 640.0, "ship_y": 500.0, "ship_vx": 3.0, "ship_vy": -2.0,
            "saucer_fire_timer": 1, "score": score, "next_extra_life": 10 ** 7, "seed": seed}
    base.update(fields)
    before = saucer_world(cfg, x=sx, y=sy, small=small, **base)
    after, events = step(before, 0, cfg)
    assert of(events, ev.ShotFired) == [ev.ShotFired("saucer", sx, sy)]
    (row,) = (after.shot_owner == SHOOTER_SAUCER).nonzero()[0].tolist()
    vel = tuple(after.shot_vel[row].tolist())
    # The ship drifts (with drag) to where it is after this tick: the aim point.
    nx, ny = after.ship_x, after.ship_y
    assert nx != before.ship_x and ny != before.ship_y
    dist = math.hypot(nx - sx, ny - sy)
    next_aim = ((nx - sx) / dist * p.saucers_shot_speed_px_per_tick,
                (ny - sy) / dist * p.saucers_shot_speed_px_per_tick)
    dist = math.hypot(before.ship_x - sx, before.ship_y - sy)
    now_aim = ((before.ship_x - sx) / dist * p.saucers_shot_speed_px_per_tick,
               (before.ship_y - sy) / dist * p.saucers_shot_speed_px_per_tick)
    return vel, next_aim, now_aim


def _same(a, b) -> bool:
    return a == pytest.approx(b, rel=1e-12, abs=1e-12)


def _turn_steps(vel, aim) -> float:
    """Angle from ``aim`` to ``vel`` in heading steps."""
    da = math.atan2(vel[1], vel[0]) - math.atan2(aim[1], aim[0])
    da = (da + math.pi) % (2 * math.pi) - math.pi
    return da / (2 * math.pi) * HEADING_STEPS


def _is_table_direction(vel, speed: float) -> bool:
    ux, uy = vel[0] / speed, vel[1] / speed
    k = round(math.atan2(uy, ux) / (2 * math.pi) * HEADING_STEPS) % HEADING_STEPS
    return _same((ux, uy), (float(COS[k]), float(SIN[k])))


SQUARE = Obstacle(points=((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0)))
QUIET = quiet(Config())
QUIET_P = params_for(QUIET)
CX, CY = 0.5 * QUIET_P.width, 0.5 * QUIET_P.height
W, H = QUIET_P.width, QUIET_P.height


def below(x: float) -> float:
    return math.nextafter(x, -math.inf)


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = QUIET, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def diamond(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0) -> NewRock:
    """A small rock whose outline is a square on its corners, exactly r out along the axes."""
    return NewRock(2, x, y, vx, vy, 0, 0, [(r, 0.0), (0.0, r), (-r, 0.0), (0.0, -r)], r)


def far_rock(cfg: Config = QUIET) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def _saucer(cfg: Config, x: float, y: float, vx: float, vy: float, **fields):
    """A saucer (large unless told) in flight whose timers will not run out in a few ticks."""
    fields.setdefault("saucer_small", False)
    rocks = fields.pop("rocks", [far_rock(cfg)])
    return world_with(cfg, rocks, saucer_alive=True, saucer_x=x,
                      saucer_y=y, saucer_vx=vx, saucer_vy=vy, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100, **fields)


def test_saucer_spawns_when_timer_reaches_exactly_zero() -> None:
    world, events = step(due(saucer_timer=1), 0, CFG)
    assert len(spawned(events)) == 1 and world.saucer_alive
    world, events = step(due(saucer_timer=2), 0, CFG)
    assert not spawned(events) and not world.saucer_alive
    assert world.saucer_timer == 1


def test_no_saucer_between_waves_even_on_the_last_pause_tick() -> None:
    # wave_timer 1 is the last tick of the pause (the next wave starts this very tick).
    world, events = step(due(rocks=[], wave_timer=1), 0, CFG)
    assert not spawned(events) and not world.saucer_alive
    assert of(events, ev.WaveStarted), "the pause ended in this tick"
    world, events = step(due(rocks=[], wave_timer=5), 0, CFG)
    assert not spawned(events) and world.saucer_timer == 1, "the timer stands still"
    world, events = step(due(wave_timer=-1), 0, CFG)
    assert spawned(events)


def test_no_saucer_when_saucers_are_disabled() -> None:
    cfg = quiet(CFG)
    world, events = step(due(cfg), 0, cfg)
    assert not spawned(events) and not world.saucer_alive
    assert world.saucer_timer == 1


def test_spawn_timer_stands_still_while_a_saucer_flies() -> None:
    world, _ = step(saucer_world(saucer_timer=1, since_break=10 ** 6, **GONE), 0, CFG)
    assert world.saucer_alive and world.saucer_timer == 1


@pytest.mark.parametrize("since_break,comes", [(P.saucers_lurk_ticks - 1, False),
                                               (P.saucers_lurk_ticks, True)])
def test_lurk_hold_ends_at_exactly_lurk_ticks(since_break: int, comes: bool) -> None:
    # Wave 1: the hold needs lurk_min (5) rocks; give it exactly that many.
    world = due(rocks=row_of_rocks(P.saucers_lurk_min_asteroids), since_break=since_break)
    world, events = step(world, 0, CFG)
    assert bool(spawned(events)) is comes and world.saucer_alive is comes
    if not comes:
        assert world.saucer_timer == world.saucer_interval == P.saucers_first_interval_ticks
        assert world.saucers_this_game == 0


@pytest.mark.parametrize("wave,lurk_min", [
    (1, P.saucers_lurk_min_asteroids),
    (3, P.saucers_lurk_min_asteroids + 2),  # +1 a wave
    (P.saucers_lurk_min_asteroids_max - P.saucers_lurk_min_asteroids + 1,
     P.saucers_lurk_min_asteroids_max),  # the wave that reaches the cap
    (P.saucers_lurk_min_asteroids_max - P.saucers_lurk_min_asteroids + 2,
     P.saucers_lurk_min_asteroids_max),  # uncapped it would be 12
    (20, P.saucers_lurk_min_asteroids_max),
])
def test_lurk_hold_needs_exactly_lurk_min_rocks_growing_with_wave_up_to_cap(
        wave: int, lurk_min: int) -> None:
    held = due(rocks=row_of_rocks(lurk_min), since_break=0, wave=wave)
    world, events = step(held, 0, CFG)
    assert not spawned(events), f"{lurk_min} rocks hold the saucer off in wave {wave}"
    assert world.saucer_timer == P.saucers_first_interval_ticks
    free = due(rocks=row_of_rocks(lurk_min - 1), since_break=0, wave=wave)
    world, events = step(free, 0, CFG)
    assert spawned(events), f"{lurk_min - 1} rocks let it come in wave {wave}"


def test_lurk_hold_resets_timer_to_the_current_interval() -> None:
    world = due(rocks=row_of_rocks(P.saucers_lurk_min_asteroids), since_break=0,
                saucer_interval=300)
    world, events = step(world, 0, CFG)
    assert not spawned(events)
    assert world.saucer_timer == 300 and world.saucer_interval == 300


@pytest.mark.parametrize("before,after", [
    (P.saucers_first_interval_ticks,
     P.saucers_first_interval_ticks - P.saucers_interval_step_ticks),
    (P.saucers_min_interval_ticks + P.saucers_interval_step_ticks + 1,
     P.saucers_min_interval_ticks + 1),
    (P.saucers_min_interval_ticks + P.saucers_interval_step_ticks, P.saucers_min_interval_ticks),
    (P.saucers_min_interval_ticks + P.saucers_interval_step_ticks - 1,
     P.saucers_min_interval_ticks),
    (P.saucers_min_interval_ticks, P.saucers_min_interval_ticks),
])
def test_each_saucer_shortens_interval_by_step_down_to_min(before: int, after: int) -> None:
    world, events = step(due(saucer_interval=before), 0, CFG)
    assert spawned(events)
    assert world.saucer_interval == after and world.saucer_timer == after
    assert world.saucers_this_game == 1


@pytest.mark.parametrize("this_wave,small", [(P.saucers_always_large_count - 1, False),
                                             (P.saucers_always_large_count, True)])
def test_first_always_large_count_saucers_are_large_even_at_high_score(
        this_wave: int, small: bool) -> None:
    world, events = step(due(saucers_this_game=this_wave, score=10 ** 6), 0, CFG)
    assert spawned(events)[0].small is small and world.saucer_small is small
    assert world.saucers_this_game == this_wave + 1


@pytest.mark.parametrize("score,small", [(P.saucers_small_score - 1, False), (P.saucers_small_score,
                                                                              True)])
def test_only_small_saucers_from_exactly_small_score(score: int, small: bool) -> None:
    # Interval still at the first: shrunk == 0, so below small_score the roll never says small.
    world = due(saucers_this_game=P.saucers_always_large_count, score=score,
                next_extra_life=10 ** 7)
    assert world.saucer_interval == P.saucers_first_interval_ticks
    world, events = step(world, 0, CFG)
    assert spawned(events)[0].small is small


@pytest.mark.parametrize("cfg", [CFG, ONE_TICK_SPAN], ids=["default", "one-tick-span"])
def test_interval_at_its_floor_always_gives_small_saucers(cfg) -> None:
    p = params_for(cfg)
    for seed in range(1, 13):
        world = due(p, saucers_this_game=p.saucers_always_large_count,
                    saucer_interval=p.saucers_min_interval_ticks,
                    seed=seed)
        world, events = step(world, 0, p)
        assert spawned(events)[0].small is True, seed


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_small_roll_is_strictly_below_how_far_the_interval_shrank(seed: int) -> None:
    # The size roll is the tick's first draw: roll in [0, first - min). The saucer is small
    # when roll < first - interval; at interval = first - roll it is large, one less: small.
    span = P.saucers_first_interval_ticks - P.saucers_min_interval_ticks
    world = due(saucers_this_game=P.saucers_always_large_count, seed=seed)
    roll = Pcg32(world.rng_state, world.rng_inc).below(span)
    assert 0 < roll < span - 1
    for interval, small in ((P.saucers_first_interval_ticks - roll, False),
                            (P.saucers_first_interval_ticks - roll - 1, True)):
        d = Draft(world)
        d.saucer_interval = interval
        _, events = step(d.freeze(), 0, CFG)
        assert spawned(events)[0].small is small, interval


def test_saucer_enters_on_a_side_and_flies_away_from_it() -> None:
    sides = []
    base = due()
    for seed in range(1, 301):
        d = Draft(base)
        d.rng_state, d.rng_inc = seed_state(seed)
        world, events = step(d.freeze(), 0, P)
        s = spawned(events)[0]
        assert s.x in (0.0, P.width)
        from_left = s.x == 0.0
        sides.append(from_left)
        speed = P.saucers_speed_px_per_tick
        assert world.saucer_vx == (speed if from_left else -speed)
        assert world.saucer_vy == 0.0
        assert 0.15 * P.height <= s.y < 0.85 * P.height
    assert 120 <= sides.count(True) <= 180, "either side, as often (150 expected)"


@pytest.mark.parametrize("small", [False, True])
def test_spawn_height_keeps_the_whole_saucer_on_screen(small: bool) -> None:
    # Height 200, this size's radius 100: the band [max(30, r), min(170, 200 - r)] closes
    # to y = 100 (the other size is 10 px, which would leave the band open).
    radii = {"large_radius_px": 10.0, "small_radius_px": 100.0} if small else {
        "large_radius_px": 100.0, "small_radius_px": 10.0}
    cfg = config_with(world={"height_px": 200.0}, saucers=radii)
    p = params_for(cfg)
    for seed in (1, 2, 3):
        world = due(cfg, rocks=[rock(2, 600.0, 10.0, round_radius=5.0)], seed=seed,
                    saucers_this_game=p.saucers_always_large_count,
                    score=p.saucers_small_score if small else 0)
        _, events = step(world, 0, cfg)
        assert spawned(events)[0].small is small
        assert spawned(events)[0].y == 100.0


def test_spawned_saucer_timers_start_full() -> None:
    world, _ = step(due(), 0, CFG)
    # One tick has run since the spawn set them; the crossing takes ceil(1280 / 2.083) = 615.
    assert world.saucer_ticks_left == math.ceil(P.width / P.saucers_speed_px_per_tick) == 615
    assert world.saucer_fire_timer == P.saucers_fire_interval_ticks
    assert world.saucer_zig_timer == P.saucers_zigzag_interval_ticks


def test_saucer_leaves_exactly_ceil_width_over_speed_ticks_after_spawning() -> None:
    cfg = config_with(saucers={"max_shots": 0, "zigzag_interval_s": 600.0})
    world, events = step(due(cfg), 0, cfg)
    assert spawned(events)
    crossing = math.ceil(P.width / P.saucers_speed_px_per_tick)
    world, events = run(world, cfg, [0] * (crossing - 1))
    assert world.saucer_alive and not of(events, ev.SaucerLeft)
    world, events = step(world, 0, cfg)
    assert of(events, ev.SaucerLeft) == [ev.SaucerLeft(False)] and not world.saucer_alive


@pytest.mark.parametrize("ticks_left,leaves", [(1, True), (2, False)])
def test_saucer_leaves_when_ticks_left_runs_out(ticks_left: int, leaves: bool) -> None:
    world = saucer_world(small=True, saucer_ticks_left=ticks_left, **GONE)
    world, events = step(world, 0, CFG)
    assert (of(events, ev.SaucerLeft) == [ev.SaucerLeft(True)]) is leaves
    assert world.saucer_alive is (not leaves)


def test_zigzag_exactly_every_zigzag_ticks() -> None:
    sentinel = 0.5  # not a zig-zag speed, so any change shows
    world, _ = step(saucer_world(vy=sentinel, saucer_zig_timer=1, **GONE), 0, CFG)
    assert world.saucer_vy != sentinel and world.saucer_zig_timer == P.saucers_zigzag_interval_ticks
    d = Draft(world)
    d.saucer_vy = sentinel
    world, _ = run(d.freeze(), CFG, [0] * (P.saucers_zigzag_interval_ticks - 1))
    assert world.saucer_vy == sentinel and world.saucer_zig_timer == 1
    world, _ = step(world, 0, CFG)
    assert world.saucer_vy != sentinel and world.saucer_zig_timer == P.saucers_zigzag_interval_ticks


def test_zigzag_speeds_are_down_level_up() -> None:
    seen = []
    for seed in range(1, 61):
        world, _ = step(saucer_world(vy=0.5, saucer_zig_timer=1, seed=seed, **GONE), 0, P)
        seen.append(world.saucer_vy)
    s = P.saucers_speed_px_per_tick
    assert set(seen) == {-s, 0.0, s}
    assert seen.count(0.0) > max(seen.count(-s), seen.count(s)), "level flight twice as likely"


def test_saucer_fires_exactly_every_fire_ticks() -> None:
    world = saucer_world(saucer_fire_timer=1, **GONE)
    fired_at = []
    for tick in range(2 * P.saucers_fire_interval_ticks + 2):
        world, events = step(world, 0, P)
        if of(events, ev.ShotFired):
            fired_at.append(tick)
    assert fired_at == [0, P.saucers_fire_interval_ticks, 2 * P.saucers_fire_interval_ticks]
    world, events = step(saucer_world(saucer_fire_timer=2, **GONE), 0, CFG)
    assert not of(events, ev.ShotFired) and world.saucer_fire_timer == 1


@pytest.mark.parametrize("live,fires", [(P.saucers_max_shots - 1, True),
                                        (P.saucers_max_shots, False)])
def test_saucer_shot_cap_reached_exactly(live: int, fires: bool) -> None:
    world = saucer_world(saucer_fire_timer=1, **GONE)
    # Still shots in a corner; three ship shots too, which the saucer's cap ignores.
    world = with_shots(world, [(SHOOTER_SAUCER, 1200.0, 680.0 - 10.0 * i, 0.0, 0.0, 30)
                               for i in range(live)]
                       + [(SHOOTER_SHIP, 1100.0, 680.0 - 10.0 * i, 0.0, 0.0, 30)
                          for i in range(3)])
    world, events = step(world, 0, CFG)
    assert (of(events, ev.ShotFired) == [ev.ShotFired("saucer", 300.0, 200.0)]) is fires
    assert saucer_shots(world) == live + fires
    assert world.saucer_fire_timer == P.saucers_fire_interval_ticks, "the timer restarts either way"


def test_saucer_shot_lives_exactly_saucer_shot_ticks() -> None:
    cfg = config_with(saucers={"max_shots": 1})
    world, events = step(saucer_world(cfg, saucer_fire_timer=1, **GONE), 0, cfg)
    assert of(events, ev.ShotFired)
    d = Draft(world)
    d.saucer_alive = False  # the shot flies on alone
    d.saucer_timer = 10 ** 6
    world = d.freeze()
    (shot_id,) = world.shot_id.tolist()
    assert world.shot_ttl.tolist() == [P.saucers_shot_lifetime_ticks - 1]
    world, _ = run(world, cfg, [0] * (P.saucers_shot_lifetime_ticks - 2))
    assert world.shot_id.tolist() == [shot_id], "alive after saucer_shot_ticks - 1 ticks"
    world, _ = step(world, 0, cfg)
    assert world.shot_id.shape[0] == 0


def test_small_saucer_aims_where_the_ship_will_be_next_tick() -> None:
    cfg = config_with(saucers={"aim_error_deg": 0.0, "aim_error_expert_deg": 0.0})
    for score in (0, params_for(cfg).saucers_expert_score):
        vel, next_aim, now_aim = _aimed_shot(cfg, score)
        assert _same(vel, next_aim), score
        assert not _same(vel, now_aim)


@pytest.mark.parametrize("offset,exact", [(0, True), (-1, False)])
def test_expert_aim_from_exactly_expert_score(offset: int, exact: bool) -> None:
    # Expert error 0, normal error 90 deg: only the expert shot goes exactly at the ship.
    cfg = config_with(saucers={"aim_error_deg": 90.0, "aim_error_expert_deg": 0.0})
    vel, next_aim, _ = _aimed_shot(cfg, params_for(cfg).saucers_expert_score + offset)
    assert _same(vel, next_aim) is exact
    if not exact:
        turn = _turn_steps(vel, next_aim)
        assert 1 <= abs(turn) <= params_for(cfg).saucers_aim_error_steps + 1e-6


def test_aim_error_is_whole_steps_either_way_within_the_bound() -> None:
    err = P.saucers_aim_error_steps
    turns = []
    for seed in range(1, 31):
        vel, next_aim, _ = _aimed_shot(CFG, 0, seed=seed)
        turn = _turn_steps(vel, next_aim)
        assert turn == pytest.approx(round(turn), abs=1e-6)
        assert abs(turn) <= err + 1e-6
        turns.append(round(turn))
    assert min(turns) < -err // 2 and max(turns) > err // 2, "errors spread both ways"


def test_aim_error_reaches_exactly_plus_and_minus_its_bound() -> None:
    # 360 / 4096 deg is one heading step: the error is then -1, 0 or +1 step, all reachable.
    cfg = config_with(saucers={"aim_error_deg": 360.0 / HEADING_STEPS})
    assert params_for(cfg).saucers_aim_error_steps == 1
    turns = set()
    for seed in range(1, 31):
        vel, next_aim, _ = _aimed_shot(cfg, 0, seed=seed)
        turns.add(round(_turn_steps(vel, next_aim)))
    assert turns == {-1, 0, 1}


def test_expert_aim_error_is_within_the_expert_bound() -> None:
    turns = []
    for seed in range(1, 31):
        vel, next_aim, _ = _aimed_shot(CFG, P.saucers_expert_score, seed=seed)
        turns.append(_turn_steps(vel, next_aim))
    assert max(abs(t) for t in turns) <= P.saucers_aim_error_expert_steps + 1e-6
    assert max(abs(t) for t in turns) > P.saucers_aim_error_expert_steps // 2


def test_large_saucer_fires_at_random_not_at_the_ship() -> None:
    cfg = config_with(saucers={"aim_error_deg": 0.0, "aim_error_expert_deg": 0.0})
    quadrants = set()
    for seed in range(1, 25):
        vel, next_aim, _ = _aimed_shot(cfg, 0, small=False, seed=seed)
        assert not _same(vel, next_aim)
        assert _is_table_direction(vel, P.saucers_shot_speed_px_per_tick)
        quadrants.add((vel[0] > 0.0, vel[1] > 0.0))
    assert len(quadrants) == 4, "any of the whole turn's headings"


@pytest.mark.parametrize("state", [SHIP_DEAD, SHIP_HYPERSPACE])
def test_no_aimed_fire_at_a_ship_out_of_play(state: int) -> None:
    cfg = config_with(saucers={"aim_error_deg": 0.0, "aim_error_expert_deg": 0.0})
    world = saucer_world(cfg, x=200.0, y=360.0, small=True, saucer_fire_timer=1,
                         ship_state=state, ship_timer=10 ** 6, ship_x=640.0, ship_y=360.0)
    world, _ = step(world, 0, cfg)
    (vel,) = world.shot_vel.tolist()
    assert not _same(vel, (P.saucers_shot_speed_px_per_tick, 0.0)), "not aimed at the ship's place"
    assert _is_table_direction(vel, P.saucers_shot_speed_px_per_tick)


def test_no_aimed_fire_after_game_over() -> None:
    cfg = config_with(saucers={"aim_error_deg": 0.0, "aim_error_expert_deg": 0.0})
    world = saucer_world(cfg, x=200.0, y=360.0, small=True, saucer_fire_timer=1,
                         game_over=True, lives=0, ship_x=640.0, ship_y=360.0)
    world, _ = step(world, 0, cfg)
    (vel,) = world.shot_vel.tolist()
    assert not _same(vel, (P.saucers_shot_speed_px_per_tick, 0.0))


def test_aim_direction_of_a_target_on_the_saucer_is_plus_x() -> None:
    assert aim_direction(P, 100.0, 100.0, 100.0, 100.0, 0) == (1.0, 0.0)
    ux, uy = aim_direction(P, 100.0, 100.0, 100.0, 100.0, HEADING_STEPS // 4)
    assert (ux, uy) == (float(COS[HEADING_STEPS // 4]), float(SIN[HEADING_STEPS // 4]))


def test_aim_direction_turns_by_error_steps_modulo_a_full_turn() -> None:
    base = aim_direction(P, 0.0, 0.0, 100.0, 0.0, 0)
    assert base == (1.0, 0.0)
    assert aim_direction(P, 0.0, 0.0, 100.0, 0.0, -1) == (float(COS[-1]), float(SIN[-1]))
    assert aim_direction(P, 0.0, 0.0, 100.0, 0.0, HEADING_STEPS + 3) == aim_direction(
        P, 0.0, 0.0, 100.0, 0.0, 3)
    ux, uy = aim_direction(P, 0.0, 0.0, 0.0, 50.0, 5)  # from +y, turned 5 steps
    assert ux == pytest.approx(-float(SIN[5])) and uy == pytest.approx(float(COS[5]))


def test_aim_direction_wraps_vertically_across_the_seam() -> None:
    ux, uy = aim_direction(P, 300.0, 10.0, 300.0, P.height - 10.0, 0)
    assert (ux, uy) == pytest.approx((0.0, -1.0))


def test_saucer_outline_is_the_table_scaled_by_its_radius() -> None:
    large = saucer_outline(P, 100.0, 50.0, False)
    small = saucer_outline(P, 100.0, 50.0, True)
    assert large.tolist() == (SAUCER_OUTLINE * P.saucer_radius[0] + [100.0, 50.0]).tolist()
    assert small.tolist() == (SAUCER_OUTLINE * P.saucer_radius[1] + [100.0, 50.0]).tolist()
    assert large[:, 0].min() == 80.0 and small[:, 0].min() == 90.0


def test_saucer_shots_pass_through_the_saucer() -> None:
    world = with_shots(saucer_world(**GONE), [(SHOOTER_SAUCER, 270.0, 200.0, 12.0, 0.0, 30)])
    world, events = run(world, CFG, [0] * 6)
    assert world.saucer_alive and not of(events, ev.SaucerDestroyed)
    assert not of(events, ev.ShipDestroyed)
    assert world.shot_ttl.tolist() == [30 - 6], "the shot flew on through it"


@pytest.mark.parametrize("owner,hit", [(SHOOTER_SHIP, True), (SHOOTER_SAUCER, False)])
@pytest.mark.parametrize("motion,shot", [
    ((30.0, 0.0), (335.0, 200.0)),  # 15 px beyond the hull's tip (+20 px), flying 30 px at it
    ((0.0, 30.0), (300.0, 223.0)),  # 10 px below the dome (+13 px), falling 30 px onto it
])
def test_ship_shot_hits_a_saucer_moving_into_it(owner: int, hit: bool, motion, shot) -> None:
    # A still shot that only a saucer moving this tick can meet (shots sweep in its frame).
    world = saucer_world(vx=motion[0], vy=motion[1], **GONE)
    world = with_shots(world, [(owner, shot[0], shot[1], 0.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert bool(of(events, ev.SaucerDestroyed)) is hit


@pytest.mark.parametrize("state,dies", [(SHIP_FLYING, True), (SHIP_HYPERSPACE, False),
                                        (SHIP_DEAD, False)])
@pytest.mark.parametrize("heading,motion,shot", [
    (START_HEADING, (0.0, 8.0), (640.0, 376.0)),  # nose (+12 px) down, shot 4 px below it
    (0, (8.0, 0.0), (656.0, 360.0)),  # nose right, shot 4 px beyond it
])
def test_saucer_shot_hits_only_a_ship_in_play_moving_into_it(state: int, dies: bool, heading,
                                                             motion, shot) -> None:
    # A still saucer shot that only the ship moving this tick (~8 px after drag) can meet.
    world = world_with(CFG, row_of_rocks(1), ship_vx=motion[0], ship_vy=motion[1],
                       ship_heading=heading, ship_state=state, ship_timer=10 ** 6)
    world = with_shots(world, [(SHOOTER_SAUCER, shot[0], shot[1], 0.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == (["saucer-shot"] if dies else [])


@pytest.mark.parametrize("small", [False, True])
@pytest.mark.parametrize("what", ["shot", "rock", "ship"])
def test_saucer_size_sets_its_outline_for_every_contact(small: bool, what: str) -> None:
    # Each contact reaches 15-20 px right of the centre: inside the large hull's tip (20 px),
    # outside the small one's (10 px).
    rocks = row_of_rocks(1)
    fields = dict(GONE)
    if what == "rock":
        rocks = [rock(2, 322.0, 200.0, round_radius=5.0), *rocks]  # left edge at 317
    elif what == "ship":
        fields = {"ship_x": 323.0, "ship_y": 200.0}  # nose down: left side at 318.2
    world = saucer_world(rocks=rocks, small=small, **fields)
    if what == "shot":
        world = with_shots(world, [(SHOOTER_SHIP, 315.0, 180.0, 0.0, 12.0, 30)])
    world, events = run(world, CFG, [0] * 3)
    assert world.saucer_alive is small
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == (
        [] if small else [{"shot": "ship-shot", "rock": "asteroid", "ship": "ship"}[what]])


@pytest.mark.parametrize("owner", [SHOOTER_SHIP, SHOOTER_SAUCER])
@pytest.mark.parametrize("blocked", [True, False])
def test_shots_stop_at_an_obstacle_while_the_other_craft_flies(owner: int,
                                                               blocked: bool) -> None:
    # The obstacle follows the other side's craft in the target list: it must still stop the
    # shot (it meets the square's left side at x = 580 on the second tick).
    cfg = config_with(obstacles=(SQUARE,) if blocked else ())
    world = saucer_world(cfg, rocks=row_of_rocks(1), x=300.0, y=500.0)
    assert world.ship_state == SHIP_FLYING and world.saucer_alive
    world = with_shots(world, [(owner, 560.0, 200.0, 12.0, 0.0, 30)])
    world, events = run(world, cfg, [0] * 4)
    assert (world.shot_id.shape[0] == 0) is blocked
    assert world.saucer_alive and world.ship_state == SHIP_FLYING


def test_shot_saucer_touching_a_rock_is_the_players() -> None:
    # The shot comes from the left; a rock overlaps the saucer's right side the same tick.
    world = saucer_world(rocks=[rock(0, 320.0, 200.0, round_radius=15.0)], **GONE)
    world = with_shots(world, [(SHOOTER_SHIP, 275.0, 200.0, 8.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert of(events, ev.SaucerDestroyed) == [ev.SaucerDestroyed(False, 300.0, 200.0,
                                                                 "ship-shot", P.saucer_points[0])]
    assert not of(events, ev.AsteroidDestroyed), "the rock is not broken by a dead saucer"


def test_ship_killed_by_a_rock_does_not_also_ram_the_saucer() -> None:
    # The ship (at the centre) touches a rock at its left wing and the saucer to its right.
    rocks = [rock(2, 625.0, 345.0, round_radius=8.0), rock(2, 1000.0, 600.0, round_radius=8.0)]
    world = saucer_world(rocks=rocks, x=652.0, y=360.0, ship_x=640.0, ship_y=360.0)
    world, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["asteroid"]
    assert not of(events, ev.SaucerDestroyed) and world.saucer_alive


def test_ship_shot_by_a_saucer_does_not_also_ram_a_rock() -> None:
    # A saucer shot meets the nose this tick while a rock touches the left wing.
    world = world_with(CFG, [rock(2, 625.0, 345.0, round_radius=8.0)])
    world = with_shots(world, [(SHOOTER_SAUCER, 640.0, 380.0, 0.0, -8.0, 30)])
    world, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]
    assert not of(events, ev.AsteroidDestroyed) and world.score == 0


def test_saucer_shot_at_point_blank_is_not_also_rammed() -> None:
    # The ship touches the saucer's right tip while a ship shot meets its left tip this tick.
    world = saucer_world(rocks=row_of_rocks(1), ship_x=323.0, ship_y=200.0)
    world = with_shots(world, [(SHOOTER_SHIP, 275.0, 200.0, 8.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert of(events, ev.SaucerDestroyed) == [ev.SaucerDestroyed(False, 300.0, 200.0,
                                                                 "ship-shot", P.saucer_points[0])]
    assert not of(events, ev.ShipDestroyed) and world.ship_state == SHIP_FLYING


def test_saucer_broken_by_a_rock_is_not_also_rammed() -> None:
    # The saucer touches a rock below it and the ship to its left; the rock claims it first.
    rocks = [rock(2, 652.0, 375.0, round_radius=8.0)]
    world = saucer_world(rocks=rocks, x=652.0, y=360.0, ship_x=640.0, ship_y=360.0)
    world, events = step(world, 0, CFG)
    (gone,) = of(events, ev.SaucerDestroyed)
    assert gone.by == "asteroid" and gone.points == 0
    assert not of(events, ev.ShipDestroyed) and world.ship_state == SHIP_FLYING


@pytest.mark.parametrize("small", [False, True])
def test_ship_shot_kills_saucer_for_its_size_points(small: bool) -> None:
    points = P.saucer_points[1 if small else 0]
    world = with_shots(saucer_world(small=small, score=1230, **GONE),
                       [(SHOOTER_SHIP, 260.0, 200.0, 12.0, 0.0, 30)])
    world, events = run(world, CFG, [0] * 4)
    assert of(events, ev.SaucerDestroyed) == [ev.SaucerDestroyed(small, 300.0, 200.0,
                                                                 "ship-shot", points)]
    assert points == (200, 1000)[small] and not world.saucer_alive
    assert world.score == 1230 + points, "added to the score"


def test_rock_kills_saucer_for_no_points_and_keeps_the_lurk_clock() -> None:
    rocks = [rock(0, 320.0, 200.0, round_radius=15.0), rock(0, 1000.0, 600.0, round_radius=15.0)]
    world = saucer_world(rocks=rocks, since_break=40, **GONE)
    world, events = step(world, 0, CFG)
    assert of(events, ev.SaucerDestroyed) == [ev.SaucerDestroyed(False, 300.0, 200.0,
                                                                 "asteroid", 0)]
    (broken,) = of(events, ev.AsteroidDestroyed)
    assert broken.by == "saucer" and broken.points == 0
    assert world.score == 0 and not world.saucer_alive
    assert world.since_break == 41, "a rock the saucer broke is not the player's"


@pytest.mark.parametrize("ramming_scores", [True, False])
@pytest.mark.parametrize("small", [False, True])
@pytest.mark.parametrize("ship_x,saucer_x", [(640.0, 652.0), (5.0, 1275.0)])  # 2nd: the seam
def test_ramming_saucer_kills_both_and_scores_only_with_ramming_scores(
        ramming_scores: bool, small: bool, ship_x: float, saucer_x: float) -> None:
    cfg = config_with(scoring={"ramming_scores": ramming_scores})
    world = saucer_world(cfg, rocks=row_of_rocks(1), x=saucer_x, y=360.0, small=small,
                         ship_x=ship_x, ship_y=360.0)
    world, events = step(world, 0, cfg)
    points = P.saucer_points[1 if small else 0] if ramming_scores else 0
    assert of(events, ev.SaucerDestroyed) == [ev.SaucerDestroyed(small, saucer_x, 360.0, "ship",
                                                                 points)]
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]
    assert world.score == points and world.ship_state == SHIP_DEAD


@pytest.mark.parametrize("radius", [P.height * 0.5, P.height * 0.5 + 1.0, P.height * 0.6])
def test_saucer_too_big_for_the_spawn_band_comes_in_at_mid_height(radius: float) -> None:
    # The band is the middle 70 % of the height, kept a radius from the top and bottom: at
    # a radius of half the height it is one point (mid-height); beyond, it would be reversed
    # (lo = r > hi = H - r) and put saucers past mid-height toward the edges: it stays at
    # mid-height instead.
    p = params_for(config_with(saucers={"large_radius_px": radius, "small_radius_px": radius}))
    for seed in range(5):
        world, events = step(due(p, rng_state=seed_state(seed)[0]), 0, p)
        assert [s.y for s in spawned(events)] == [0.5 * P.height]


def test_first_saucers_of_a_game_are_large_in_every_wave() -> None:
    # always_large_count counts saucers over the game (as the 1979 reload did): the fourth
    # saucer of a game, even the first of wave 2, may be small; the third may not.
    big_score = {"score": P.saucers_small_score}
    first, _ = step(due(wave=2, saucers_this_game=P.saucers_always_large_count - 1, **big_score), 0,
                    CFG)
    later, _ = step(due(wave=2, saucers_this_game=P.saucers_always_large_count, **big_score), 0,
                    CFG)
    assert first.saucer_alive and not first.saucer_small
    assert later.saucer_alive and later.saucer_small
    assert later.saucers_this_game == P.saucers_always_large_count + 1


def test_small_saucer_aims_across_the_wrap_seam() -> None:
    # Saucer near the left edge, ship near the right edge: the short way is leftwards.
    ux, uy = aim_direction(QUIET_P, 10.0, 300.0, QUIET_P.width - 10.0, 300.0, 0)
    assert ux == pytest.approx(-1.0) and uy == pytest.approx(0.0, abs=1e-12)
    # The shot is what crosses the seam, so the shots' border rule decides, not the ship's.
    cfg = config_with(borders={"ship": "bounce"})
    p = params_for(cfg)
    ux, _ = aim_direction(p, 10.0, 300.0, p.width - 10.0, 300.0, 0)
    assert ux == pytest.approx(-1.0), "shots wrap: aim across the seam though the ship bounces"
    cfg = config_with(borders={"shots": "bounce"})
    p = params_for(cfg)
    ux, _ = aim_direction(p, 10.0, 300.0, p.width - 10.0, 300.0, 0)
    assert ux == pytest.approx(1.0), "no seam to aim across when shots bounce"


def test_saucer_aim_error_is_bounded() -> None:
    for error in (-QUIET_P.saucers_aim_error_steps, QUIET_P.saucers_aim_error_steps):
        ux, uy = aim_direction(QUIET_P, 0.0, 0.0, 100.0, 0.0, error)
        angle = math.degrees(math.atan2(uy, ux))
        assert abs(angle) == pytest.approx(Config().saucers.aim_error_deg, abs=0.1)


def test_saucer_comes_sooner_for_a_lurker() -> None:
    cfg = Config()
    p = params_for(cfg)
    lurker = world_with(cfg, [rock(0, 100.0 + 100 * i, 100.0, round_radius=10.0)
                              for i in range(8)], since_break=10 ** 6)
    busy = world_with(cfg, [rock(0, 100.0 + 100 * i, 100.0, round_radius=10.0)
                            for i in range(8)], since_break=0)
    ticks = p.saucers_first_interval_ticks + 2
    _, lurk_events = run(lurker, cfg, [0] * ticks)
    assert of(lurk_events, ev.SaucerSpawned), "an idle player gets a saucer on time"
    # A busy player (who keeps breaking rocks) holds the saucer off.
    world = busy
    spawned = []
    for _ in range(ticks):
        draft = Draft(world)
        draft.since_break = 0
        world, events = step(draft.freeze(), 0, p)
        spawned += of(events, ev.SaucerSpawned)
    assert not spawned


def test_saucer_crosses_and_leaves() -> None:
    cfg = Config()
    p = params_for(cfg)
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0)], since_break=10 ** 6,
                   saucer_timer=1, ship_state=SHIP_DEAD, ship_timer=10 ** 6)
    w, events = step(w, 0, cfg)
    spawned = of(events, ev.SaucerSpawned)
    assert spawned and w.saucer_alive
    w, events = run(w, cfg, [0] * (math.ceil(p.width / p.saucers_speed_px_per_tick) + 2))
    assert of(events, ev.SaucerLeft) or of(events, ev.SaucerDestroyed)
    assert not w.saucer_alive


def test_ship_shot_destroys_saucer_for_points() -> None:
    cfg = Config()
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0)], saucer_alive=True,
                   saucer_small=True, saucer_x=600.0, saucer_y=500.0, saucer_vx=2.0,
                   saucer_ticks_left=500, saucer_fire_timer=1000, saucer_zig_timer=1000)
    w = with_shots(w, [(SHOOTER_SHIP, 560.0, 500.0, 12.0, 0.0, 30)])
    world, events = run(w, cfg, [0] * 5)
    destroyed = of(events, ev.SaucerDestroyed)
    assert destroyed == [ev.SaucerDestroyed(True, destroyed[0].x, destroyed[0].y, "ship-shot",
                                            1000)]
    assert world.score == 1000 and not world.saucer_alive


def test_saucer_shot_kills_the_ship() -> None:
    w = world_with(QUIET, [rock(0, 100.0, 100.0, round_radius=10.0)])
    w = with_shots(w, [(SHOOTER_SAUCER, CX - 60.0, CY, 12.0, 0.0, 30)])
    world, events = run(w, QUIET, [0] * 8)
    assert of(events, ev.ShipDestroyed)[0].cause == "saucer-shot"
    assert world.score == 0


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
@pytest.mark.parametrize("x,vx,end", [
    (W - 1.0, 2.0, W), (W - 2.0, 2.0, W), (W - 2.5, 2.0, W - 0.5),
    (1.0, -2.0, 0.0), (2.0, -2.0, 0.0), (2.5, -2.0, 0.5),
])
def test_saucer_x_is_clamped_to_zero_and_width(borders: str, x: float, vx: float,
                                               end: float) -> None:
    cfg = config_with(borders={"saucers": borders})
    world, _ = step(_saucer(cfg, x, 300.0, vx, 0.0), 0, cfg)
    assert world.saucer_alive and (world.saucer_x, world.saucer_y) == (end, 300.0)
    assert world.saucer_vx == vx


@pytest.mark.parametrize("small", [False, True])
@pytest.mark.parametrize("wall,start,vy,end,vy_after", [
    ("top", 2.0, -2.0, 0.0, -2.0),  # ends exactly its radius from the wall: not turned yet
    ("top", 1.5, -2.0, 0.5, 2.0),  # half a pixel past: turned
    ("bottom", -2.5, 2.0, -0.5, 2.0),  # just short of the far wall
    ("bottom", -2.0, 2.0, 0.0, -2.0),  # exactly its radius from the far wall: turned there
])
def test_bouncing_saucer_turns_at_exactly_its_radius(small: bool, wall: str, start: float,
                                                     vy: float, end: float,
                                                     vy_after: float) -> None:
    # Offsets from the saucer's own radius line: y = r at the top, y = H - r at the bottom.
    cfg = config_with(borders={"saucers": "bounce"})
    r = params_for(cfg).saucer_radius[1 if small else 0]
    line = r if wall == "top" else H - r
    world, _ = step(_saucer(cfg, 640.0, line + start, 0.0, vy, saucer_small=small), 0, cfg)
    assert (world.saucer_y, world.saucer_vy) == (line + end, vy_after)


@pytest.mark.parametrize("y,vy,end", [(H - 1.0, 1.0, 0.0), (H - 1.0, 0.5, H - 0.5),
                                      (1.0, -1.0, 0.0), (1.0, -1.5, H - 0.5)])
def test_wrapping_saucer_y_lands_in_the_half_open_box(y: float, vy: float, end: float) -> None:
    cfg = config_with()
    world, _ = step(_saucer(cfg, 640.0, y, 0.0, vy), 0, cfg)
    assert (world.saucer_y, world.saucer_vy) == (end, vy)


def test_saucer_not_in_flight_neither_moves_nor_breaks_rocks() -> None:
    cfg = config_with()
    world = world_with(cfg, [diamond(CX, CY), far_rock(cfg)], saucer_x=CX, saucer_y=CY,
                       saucer_vx=2.0, saucer_vy=1.0, ship_x=100.0, ship_y=600.0)
    world, events = step(world, 0, cfg)
    assert (world.saucer_x, world.saucer_y) == (CX, CY)
    assert not of(events, ev.AsteroidDestroyed) and world.asteroid_count == 2


@pytest.mark.parametrize("small,rock_at,hit", [
    (False, (CX - 30.0, CY), True),  # the rock's right corner exactly on the saucer's left tip
    (False, (below(CX - 30.0), CY), False),  # one ulp apart: bounding circles apart
    (True, (CX - 20.0, CY), True),
    (True, (below(CX - 20.0), CY), False),
    (True, (CX, CY + 16.0), True),  # 0.5 px into the small saucer's dome (6.5 up)
    (True, (CX, CY + 19.0), False),  # clear of it (a large saucer's dome reaches 13 up)
])
def test_saucer_meets_a_rock_by_its_own_size(small: bool, rock_at, hit: bool) -> None:
    world = _saucer(QUIET, CX, CY, 0.0, 0.0, saucer_small=small, ship_x=100.0, ship_y=600.0,
                    rocks=[diamond(*rock_at), far_rock()])
    world, events = step(world, 0, QUIET)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == (["asteroid"] if hit else [])
    assert [(e.x, e.by) for e in of(events, ev.AsteroidDestroyed)] == (
        [(rock_at[0], "saucer")] if hit else [])
    assert world.saucer_alive != hit
