"""Rocks: splitting into the next size (children, the cap, fragment speeds), their outlines
(vertex counts, jitter, classic shapes, spin) and the asteroid arrays (ids, order)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.spawn import (
    append_rocks,
    make_outline,
    make_rocks,
    remove_all_rocks,
    split_rocks,
)
from asteroids.core.tables import CLASSIC_ROCKS, HEADING_STEPS
from asteroids.core.world import (
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, run, with_shots, world_with


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


# A round rock at (300, y) and a shot that reaches its edge (x = 292) on the first tick.
def _target(size: int, y: float = 200.0, cfg: Config = CFG):
    return rock(size, 300.0, y, round_radius=8.0, cfg=cfg)


def _shot(y: float = 200.0, owner: int = SHOOTER_SHIP):
    return (owner, 285.0, y, 10.0, 0.0, 30)


def _split(sizes, room, cfg: Config = CFG, vel=(1.0, 1.0), seed: int = 7):
    n = len(sizes)
    pos = np.array([(100.0 + 50 * i, 200.0) for i in range(n)]).reshape(-1, 2)
    v = np.array([vel] * n, dtype=np.float64).reshape(-1, 2)
    return split_rocks(Pcg32(*seed_state(seed)), params_for(cfg), np.array(sizes, dtype=np.int64),
                       pos, v, room)


def _many(cfg: Config = CFG, n: int = 400, seed: int = 11):
    sizes = np.arange(n, dtype=np.int64) % 3
    return make_rocks(Pcg32(*seed_state(seed)), params_for(cfg), sizes, np.zeros((n, 2)),
                      np.zeros((n, 2)))


def _outlines(batch):
    ends = np.cumsum(batch.counts)
    return [batch.local[e - c:e] for c, e in zip(batch.counts.tolist(), ends.tolist(),
                                                   strict=True)]


def _shoot_rock(size: int, owner: int = SHOOTER_SHIP, cfg: Config = CFG):
    # A round rock far from the ship; one shot flying straight into it.
    w = world_with(cfg, [rock(size, 300.0, 200.0, 1.0, 0.5, round_radius=15.0, cfg=cfg)])
    w = with_shots(w, [(owner, 250.0, 200.0, 10.0, 0.0, 30)])
    return run(w, cfg, [0] * 6)


STEP = 2.0 * math.pi / HEADING_STEPS


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
    assert kids.vel.tolist() == [[P.asteroids_speed_max_px_per_tick,
                                  -P.asteroids_speed_max_px_per_tick]] * 4


@pytest.mark.parametrize("vel,expected", [
    ((0.0, -0.1), (P.asteroids_speed_min_px_per_tick,
                   -P.asteroids_speed_min_px_per_tick)),  # too slow: raised to min; 0 is +
    ((P.asteroids_speed_min_px_per_tick, -P.asteroids_speed_max_px_per_tick),
     (P.asteroids_speed_min_px_per_tick, -P.asteroids_speed_max_px_per_tick)),  # at the bounds
    ((math.nextafter(P.asteroids_speed_min_px_per_tick, 0.0),
      -math.nextafter(P.asteroids_speed_max_px_per_tick, math.inf)),
     (P.asteroids_speed_min_px_per_tick,
      -P.asteroids_speed_max_px_per_tick)),  # one float past each bound
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
    assert (np.abs(kick) <= p.asteroids_split_kick_px_per_tick).all()
    most = 0.8 * p.asteroids_split_kick_px_per_tick
    assert kick.min() < -most and kick.max() > most


def test_outline_vertex_counts_reach_both_ends() -> None:
    counts = _many().counts
    assert sorted(set(counts.tolist())) == list(range(P.asteroids_vertices_min,
                                                      P.asteroids_vertices_max + 1))
    cfg = quiet_with(asteroids={"vertices_min": 5, "vertices_max": 5})
    assert set(_many(cfg, 40).counts.tolist()) == {5}


def test_spin_reaches_both_ends() -> None:
    spin = _many().spin
    top = P.asteroids_spin_max_steps_per_tick
    assert spin.min() == -top and spin.max() == top
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
        assert r * (1.0 - P.asteroids_jaggedness) - 1e-9 <= math.sqrt(float(d2.min()))
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
    assert P.asteroids_vertices_min <= len(outline) <= P.asteroids_vertices_max


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
        assert math.dist(pos, (hit.x,
                               hit.y)) < 6 * P.asteroids_speed_max_px_per_tick * math.sqrt(2) + 1e-9
        for axis_v in vel:
            assert (P.asteroids_speed_min_px_per_tick - 1e-12 <= abs(axis_v)
                    <= P.asteroids_speed_max_px_per_tick + 1e-12)


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


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    lo=st.integers(3, 64),
    hi=st.integers(3, 64),
    jaggedness=st.floats(0.0, 0.9),
    seed=st.integers(0, 2**32 - 1),
)
def test_generated_outlines_keep_their_points_in_even_angular_slots(
        lo: int, hi: int, jaggedness: float, seed: int) -> None:
    lo, hi = min(lo, hi), max(lo, hi)
    p = params_for(config_with(asteroids={"vertices_min": lo, "vertices_max": hi,
                                          "jaggedness": jaggedness}))
    sizes = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    batch = make_rocks(Pcg32(seed, 1), p, sizes, np.zeros((8, 2)), np.zeros((8, 2)))
    starts = np.concatenate([[0], np.cumsum(batch.counts)])
    for i, n in enumerate(batch.counts.tolist()):
        assert lo <= n <= hi
        pts = batch.local[starts[i]:starts[i + 1]]
        gap = 2.0 * math.pi / n
        angle = np.arctan2(pts[:, 1], pts[:, 0])
        # The offset of each point from its even angle, in (-pi, pi]: at most one heading
        # step below it (the even angle is floored to whole steps) and under a third of the
        # spacing above it.
        off = (angle - np.arange(n) * gap + math.pi) % (2.0 * math.pi) - math.pi
        assert (off >= -STEP - 1e-9).all() and (off < gap / 3.0).all(), (n, off / gap)
        assert (np.hypot(pts[:, 0], pts[:, 1]) > 0.0).all()
