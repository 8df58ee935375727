"""One test per game rule a player would notice: splitting, scoring, lives, waves, hyperspace,
respawn, saucers, shots, borders and obstacles."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.schema import Config, Obstacle
from asteroids.core import InputFrame, new_world, state_hash, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.saucer import aim_direction
from asteroids.core.ship import hyperspace_death_chance
from asteroids.core.spawn import wave_size
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import config_with, of, quiet, rock, run, with_shots, world_with

FIRE = int(InputFrame.FIRE)
CFG = quiet(Config())
P = params_for(CFG)
CX, CY = 0.5 * P.width, 0.5 * P.height


# --- splitting and scoring -----------------------------------------------------------------


def _shoot_rock(size: int, owner: int = SHOOTER_SHIP, cfg: Config = CFG):
    # A round rock far from the ship; one shot flying straight into it.
    w = world_with(cfg, [rock(size, 300.0, 200.0, 1.0, 0.5, round_radius=15.0, cfg=cfg)])
    w = with_shots(w, [(owner, 250.0, 200.0, 10.0, 0.0, 30)])
    return run(w, cfg, [0] * 6)


@pytest.mark.parametrize("size,points", [(0, 20), (1, 50), (2, 100)])
def test_ship_shot_breaks_rock_into_next_size_and_scores(size: int, points: int) -> None:
    world, events = _shoot_rock(size)
    broken = of(events, ev.AsteroidDestroyed)
    assert len(broken) == 1
    assert broken[0].size == size and broken[0].points == points
    assert broken[0].by == "ship-shot"
    assert world.score == points
    expected_children = 0 if size == 2 else 2
    assert broken[0].children == expected_children
    assert world.asteroid_count == expected_children
    assert list(world.ast_size) == [size + 1] * expected_children
    assert world.shot_id.shape[0] == 0, "the shot is spent on its target"


def test_fragments_start_at_parent_with_bounded_kick() -> None:
    world, events = _shoot_rock(0)
    hit = of(events, ev.AsteroidDestroyed)[0]
    for pos, vel in zip(world.ast_pos, world.ast_vel, strict=True):
        # Fragments appeared at the parent's place and moved a few ticks since.
        assert math.dist(pos, (hit.x, hit.y)) < 6 * P.ast_speed_max * math.sqrt(2) + 1e-9
        for axis_v in vel:
            assert P.ast_speed_min - 1e-12 <= abs(axis_v) <= P.ast_speed_max + 1e-12


def test_saucer_shot_breaks_rock_without_points() -> None:
    world, events = _shoot_rock(0, owner=SHOOTER_SAUCER)
    broken = of(events, ev.AsteroidDestroyed)
    assert len(broken) == 1 and broken[0].by == "saucer-shot" and broken[0].points == 0
    assert world.score == 0


def test_one_shot_breaks_one_rock_and_never_its_fragments() -> None:
    # Two rocks in a line: the shot stops at the first; the fragments are not hit this tick.
    rocks = [rock(0, 300.0, 200.0, round_radius=15.0), rock(0, 340.0, 200.0, round_radius=15.0)]
    w = with_shots(world_with(CFG, rocks), [(SHOOTER_SHIP, 270.0, 200.0, 200.0, 0.0, 30)])
    world, events = step(w, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert len(broken) == 1 and broken[0].x == pytest.approx(300.0, abs=1e-9)
    assert world.asteroid_count == 3  # one large left, two medium fragments


def test_split_respects_the_asteroid_cap() -> None:
    cfg = config_with(asteroids={"max_alive": 2}, saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 300.0, 200.0, round_radius=15.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 270.0, 200.0, 10.0, 0.0, 30)])
    world, events = run(w, cfg, [0] * 5)
    assert of(events, ev.AsteroidDestroyed)[0].children == 2
    w = world_with(cfg, [rock(0, 300.0, 200.0, round_radius=15.0, cfg=cfg),
                         rock(0, 900.0, 600.0, round_radius=15.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 270.0, 200.0, 10.0, 0.0, 30)])
    world, events = run(w, cfg, [0] * 5)
    assert of(events, ev.AsteroidDestroyed)[0].children == 1
    assert world.asteroid_count == 2


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


def test_ramming_a_rock_scores_and_costs_a_life() -> None:
    w = world_with(CFG, [rock(1, CX + 40.0, CY, -3.0, 0.0, round_radius=12.0)])
    world, events = run(w, CFG, [0] * 12)
    broken = of(events, ev.AsteroidDestroyed)
    assert broken and broken[0].by == "ship" and broken[0].points == 50
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.lives == w.lives - 1 and world.ship_state == SHIP_DEAD


# --- the ship --------------------------------------------------------------------------------


def test_one_shot_per_press() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    _, events = run(w, CFG, [FIRE] * 20)
    assert len(of(events, ev.ShotFired)) == 1
    _, events = run(w, CFG, [FIRE, 0] * 10)
    assert len(of(events, ev.ShotFired)) == 4  # capped by max_alive = 4


def test_autofire_option_fires_while_held() -> None:
    cfg = config_with(shots={"autofire": True, "max_alive": 50}, saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    _, events = run(w, cfg, [FIRE] * 60)
    p = params_for(cfg)
    assert len(of(events, ev.ShotFired)) == 1 + (60 - 1) // p.autofire_ticks


def test_shot_cap_limits_live_ship_shots() -> None:
    cfg = config_with(shots={"max_alive": 3, "lifetime_s": 5.0}, saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    world, events = run(w, cfg, [FIRE, 0] * 10)
    assert len(of(events, ev.ShotFired)) == 3
    assert int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP)) == 3


def test_shots_expire_after_their_lifetime() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    # A shot flies for exactly shot_ticks ticks, the tick it was fired included.
    world, _ = run(w, CFG, [FIRE] + [0] * (P.shot_ticks - 2))
    assert world.shot_id.shape[0] == 1
    world, _ = step(world, 0, CFG)
    assert world.shot_id.shape[0] == 0


def test_shot_inherits_ship_velocity() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)], ship_vx=3.0, ship_vy=0.0)
    world, _ = step(w, FIRE, CFG)
    # Heading is straight up; the shot keeps the ship's sideways drift.
    assert world.shot_vel[0, 0] == pytest.approx(3.0 * P.drag_keep)
    assert world.shot_vel[0, 1] == pytest.approx(P.shot_speed)


def test_thrust_turn_drag_and_speed_limit() -> None:
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    world, events = run(w, CFG, [int(InputFrame.THRUST)] * 400)
    speed = math.hypot(world.ship_vx, world.ship_vy)
    assert speed == pytest.approx(P.max_speed, rel=1e-12)
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(True)]
    coasting, events = run(world, CFG, [0] * 60)
    assert math.hypot(coasting.ship_vx, coasting.ship_vy) < speed
    assert of(events, ev.ThrustChanged) == [ev.ThrustChanged(False)]
    turned, _ = run(w, CFG, [int(InputFrame.LEFT)] * 10)
    assert turned.ship_heading == w.ship_heading + 10 * P.turn_steps


def test_classic_speed_limit_is_a_square() -> None:
    cfg = config_with(ship={"speed_limit": "axis"}, saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)],
                   ship_heading=512)  # 45 degrees
    world, _ = run(w, cfg, [int(InputFrame.THRUST)] * 600)
    assert world.ship_vx == pytest.approx(p.max_speed) and world.ship_vy == pytest.approx(
        p.max_speed)


@pytest.mark.parametrize("count,chance", [(1, 0.25), (4, 0.25), (5, 7 / 32), (10, 5 / 32),
                                          (18, 1 / 32), (19, 0.0), (27, 0.0)])
def test_hyperspace_risk_follows_the_1979_formula(count: int, chance: float) -> None:
    assert hyperspace_death_chance(count) == pytest.approx(chance)


def test_hyperspace_jumps_fail_at_the_classic_rate() -> None:
    deaths = 0
    jumps = 400
    for seed in range(jumps):
        w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)], seed=seed)
        w, events = step(w, int(InputFrame.HYPERSPACE), CFG)
        assert w.ship_state == SHIP_HYPERSPACE and of(events, ev.HyperspaceEntered)
        w, events = run(w, CFG, [0] * P.hyper_ticks)
        exits = of(events, ev.HyperspaceExited)
        assert len(exits) == 1
        margin = P.hyper_margin
        assert margin * P.width <= exits[0].x <= (1 - margin) * P.width
        deaths += not exits[0].survived
        if not exits[0].survived:
            assert of(events, ev.ShipDestroyed)[0].cause == "hyperspace"
    # One rock on screen: 8 of 32 rolls fail. 400 jumps: expect 100, sd ~8.7.
    assert 65 <= deaths <= 135


def test_hyperspace_without_risk_never_kills() -> None:
    cfg = config_with(ship={"hyperspace": {"risky": False}}, saucers={"enabled": False})
    for seed in range(40):
        w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)], seed=seed)
        w, events = run(w, cfg, [int(InputFrame.HYPERSPACE)] + [0] * 60)
        assert not of(events, ev.ShipDestroyed)


def test_respawn_waits_until_the_centre_is_clear() -> None:
    # The ship is dead; a rock sits at the centre and drifts away slowly.
    w = world_with(CFG, [rock(0, CX, CY, 2.0, 0.0, round_radius=30.0)], ship_state=SHIP_DEAD,
                   ship_timer=1, lives=2)
    w, events = step(w, 0, CFG)
    assert w.ship_state == SHIP_DEAD and not of(events, ev.ShipSpawned)
    ticks = 0
    while w.ship_state == SHIP_DEAD:
        w, events = step(w, 0, CFG)
        ticks += 1
        assert ticks < 200
    assert of(events, ev.ShipSpawned)
    gap = abs(float(w.ast_pos[0, 0]) - CX)
    assert gap > P.safe_radius + 30.0 - 2.0 - 1e-9
    assert (w.ship_x, w.ship_y) == (CX, CY)


def test_game_over_when_the_last_ship_dies() -> None:
    w = world_with(CFG, [rock(1, CX + 40.0, CY, -3.0, 0.0, round_radius=12.0)], lives=1)
    world, events = run(w, CFG, [0] * 12)
    assert world.game_over and world.lives == 0
    assert of(events, ev.GameOver) == [ev.GameOver(world.score)]
    later, _ = run(world, CFG, [FIRE, int(InputFrame.THRUST)] * 200)
    assert later.game_over and later.shot_id.shape[0] == 0


def test_shield_bounces_rocks_and_protects_the_ship() -> None:
    cfg = config_with(ship={"shield": {"enabled": True}}, saucers={"enabled": False})
    w = world_with(cfg, [rock(1, CX + 60.0, CY, -4.0, 0.0, round_radius=12.0, cfg=cfg)])
    world, events = run(w, cfg, [int(InputFrame.SHIELD)] * 30)
    assert not of(events, ev.ShipDestroyed)
    assert world.ast_vel[0, 0] > 0.0, "the rock bounced back off the shield"
    assert of(events, ev.ShieldChanged)[0].on
    assert world.shield_energy == params_for(cfg).shield_ticks - 30


def test_shield_runs_out() -> None:
    cfg = config_with(ship={"shield": {"enabled": True, "energy_s": 0.5}},
                      saucers={"enabled": False})
    w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)])
    world, events = run(w, cfg, [int(InputFrame.SHIELD)] * 60)
    assert world.shield_energy == 0 and not world.shield_on
    assert [e.on for e in of(events, ev.ShieldChanged)] == [True, False]


# --- waves -----------------------------------------------------------------------------------


def test_wave_sizes_grow_by_two_up_to_eleven() -> None:
    assert [wave_size(P, n) for n in range(1, 8)] == [4, 6, 8, 10, 11, 11, 11]


def test_first_wave_spawns_on_the_edges_away_from_the_ship() -> None:
    for seed in range(20):
        w = new_world(CFG, seed)
        assert w.asteroid_count == 4 and w.wave == 1
        d = w.ast_pos - np.array([CX, CY])
        assert (np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) >= P.spawn_clearance).all()
        on_edge = (w.ast_pos[:, 0] == 0) | (w.ast_pos[:, 1] == 0)  # the seam of a torus
        assert on_edge.all()


def test_next_wave_comes_after_the_delay_and_is_bigger() -> None:
    w = world_with(CFG, [rock(2, 300.0, 200.0, round_radius=8.0)])
    w = with_shots(w, [(SHOOTER_SHIP, 280.0, 200.0, 10.0, 0.0, 30)])
    w, events = run(w, CFG, [0] * 2)
    assert of(events, ev.WaveCleared) == [ev.WaveCleared(1)]
    w, events = run(w, CFG, [0] * (P.wave_delay_ticks - 1))
    assert w.asteroid_count == 0 and not of(events, ev.WaveStarted)
    w, events = step(w, 0, CFG)
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(2, 6)]
    assert w.asteroid_count == 6


def test_heartbeat_quickens_and_alternates() -> None:
    w = new_world(CFG, 3)
    _, events = run(w, CFG, [0] * 2400)
    beats = of(events, ev.Heartbeat)
    assert [b.tone for b in beats[:4]] == [0, 1, 0, 1]
    intervals = [b.interval_ticks for b in beats]
    assert intervals[0] == P.beat_start_ticks
    assert all(b <= a for a, b in zip(intervals, intervals[1:], strict=False))
    assert intervals[-1] < intervals[0]


def test_heartbeat_quickens_as_rocks_dwindle() -> None:
    full = world_with(CFG, [rock(0, 100.0 + 150 * i, 100.0, round_radius=10.0)
                            for i in range(4)])
    few = world_with(CFG, [rock(2, 100.0, 100.0, round_radius=5.0)], wave_weight=28)
    first_full = of(run(full, CFG, [0] * 200)[1], ev.Heartbeat)[1].interval_ticks
    first_few = of(run(few, CFG, [0] * 200)[1], ev.Heartbeat)[1].interval_ticks
    assert first_few < first_full


# --- saucers ---------------------------------------------------------------------------------


def test_small_saucer_aims_across_the_wrap_seam() -> None:
    # Saucer near the left edge, ship near the right edge: the short way is leftwards.
    ux, uy = aim_direction(P, 10.0, 300.0, P.width - 10.0, 300.0, 0)
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
    for error in (-P.aim_error_steps, P.aim_error_steps):
        ux, uy = aim_direction(P, 0.0, 0.0, 100.0, 0.0, error)
        angle = math.degrees(math.atan2(uy, ux))
        assert abs(angle) == pytest.approx(Config().saucers.aim_error_deg, abs=0.1)


def test_saucer_comes_sooner_for_a_lurker() -> None:
    cfg = Config()
    p = params_for(cfg)
    lurker = world_with(cfg, [rock(0, 100.0 + 100 * i, 100.0, round_radius=10.0)
                              for i in range(8)], since_break=10 ** 6)
    busy = world_with(cfg, [rock(0, 100.0 + 100 * i, 100.0, round_radius=10.0)
                            for i in range(8)], since_break=0)
    ticks = p.saucer_first_ticks + 2
    _, lurk_events = run(lurker, cfg, [0] * ticks)
    assert of(lurk_events, ev.SaucerSpawned), "an idle player gets a saucer on time"
    # A busy player (who keeps breaking rocks) holds the saucer off.
    world = busy
    spawned = []
    for _ in range(ticks):
        draft = Draft(world)
        draft.since_break = 0
        world, events = step(draft.freeze(), 0, cfg)
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
    w, events = run(w, cfg, [0] * (math.ceil(p.width / p.saucer_speed) + 2))
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
    w = world_with(CFG, [rock(0, 100.0, 100.0, round_radius=10.0)])
    w = with_shots(w, [(SHOOTER_SAUCER, CX - 60.0, CY, 12.0, 0.0, 30)])
    world, events = run(w, CFG, [0] * 8)
    assert of(events, ev.ShipDestroyed)[0].cause == "saucer-shot"
    assert world.score == 0


# --- shots against fast things ---------------------------------------------------------------


def test_fast_shot_hits_fast_rock_head_on() -> None:
    # 1200 px/s shot and a 600 px/s small rock closing head-on: at 60 Hz they pass ~30 px per
    # tick through each other, more than the rock's 16 px width.
    cfg = config_with(shots={"speed_px_per_s": 1200.0}, saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 330.0, 200.0, -10.0, 0.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 300.0, 200.0, 20.0, 0.0, 30)])
    _, events = step(w, 0, cfg)
    assert len(of(events, ev.AsteroidDestroyed)) == 1


def test_shot_crossing_the_seam_hits_rock_on_the_other_side() -> None:
    w = world_with(CFG, [rock(2, 6.0, 300.0, round_radius=8.0)])
    w = with_shots(w, [(SHOOTER_SHIP, P.width - 4.0, 300.0, 12.0, 0.0, 30)])
    _, events = step(w, 0, CFG)
    assert len(of(events, ev.AsteroidDestroyed)) == 1


# --- borders and obstacles -------------------------------------------------------------------


def test_bounce_keeps_everything_inside_even_for_huge_overshoot() -> None:
    cfg = config_with(borders={"asteroids": "bounce", "ship": "bounce", "shots": "bounce"},
                      asteroids={"speed_max_px_per_s": 10000.0}, saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(2, 50.0, 50.0, -3000.0, 2500.0, round_radius=8.0, cfg=cfg)],
                   ship_vx=-900.0, ship_vy=77.0)
    w = with_shots(w, [(SHOOTER_SHIP, 100.0, 100.0, 4000.0, -1234.5, 10)])
    for _ in range(5):
        w, _ = step(w, 0, cfg)
        r = float(w.ast_radius[0])
        assert r - 1e-9 <= w.ast_pos[0, 0] <= p.width - r + 1e-9
        assert r - 1e-9 <= w.ast_pos[0, 1] <= p.height - r + 1e-9
        assert 0.0 <= w.ship_x <= p.width and 0.0 <= w.ship_y <= p.height
        for x, y in w.shot_pos:
            assert 0.0 <= x <= p.width and 0.0 <= y <= p.height


def test_wrap_keeps_positions_in_the_half_open_box() -> None:
    w = world_with(CFG, [rock(2, 0.5, 0.5, -1.0, -1.0, round_radius=8.0)])
    w, _ = step(w, 0, CFG)
    assert w.ast_pos[0, 0] == pytest.approx(P.width - 0.5)
    assert 0.0 <= w.ast_pos[0, 0] < P.width and 0.0 <= w.ast_pos[0, 1] < P.height


def test_rock_bounces_off_an_obstacle() -> None:
    hexagon = tuple((600.0 + 40.0 * math.cos(math.pi / 3 * k),
                     200.0 + 40.0 * math.sin(math.pi / 3 * k)) for k in range(6))
    cfg = config_with(obstacles=(Obstacle(points=hexagon),), saucers={"enabled": False})
    w = world_with(cfg, [rock(1, 520.0, 200.0, 3.0, 0.0, round_radius=12.0, cfg=cfg)])
    world, _ = run(w, cfg, [0] * 30)
    assert world.ast_vel[0, 0] < 0.0, "the rock came back off the obstacle"
    assert world.ast_pos[0, 0] < 560.0


def test_shot_stops_at_an_obstacle() -> None:
    square = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))
    cfg = config_with(obstacles=(Obstacle(points=square),), saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 700.0, 200.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 560.0, 200.0, 12.0, 0.0, 30)])
    world, events = run(w, cfg, [0] * 12)
    assert not of(events, ev.AsteroidDestroyed)
    assert world.shot_id.shape[0] == 0


def test_shot_ricochets_off_an_obstacle() -> None:
    square = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))
    cfg = config_with(obstacles=(Obstacle(points=square),),
                      shots={"at_obstacles": "ricochet"}, saucers={"enabled": False})
    w = world_with(cfg, [rock(2, 100.0, 600.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, 570.0, 200.0, 12.0, 0.0, 30)])
    world, _ = step(w, 0, cfg)
    assert world.shot_vel[0, 0] == -12.0
    assert world.shot_pos[0, 0] == pytest.approx(580.0 - 2.0)


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


def test_ricochet_off_the_border_can_hit_within_the_same_tick() -> None:
    cfg = config_with(borders={"asteroids": "bounce", "shots": "bounce"},
                      saucers={"enabled": False})
    p = params_for(cfg)
    w = world_with(cfg, [rock(2, p.width - 14.0, 300.0, round_radius=8.0, cfg=cfg)])
    w = with_shots(w, [(SHOOTER_SHIP, p.width - 5.0, 300.0, 12.0, 0.0, 30)])
    _, events = step(w, 0, cfg)
    assert len(of(events, ev.AsteroidDestroyed)) == 1
