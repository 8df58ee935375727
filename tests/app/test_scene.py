"""Segment building: interpolation across the seam, ghosts, new objects, colours. No GL."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.app.effects import Particles
from asteroids.app.scene import (
    SceneBuilder,
    Segments,
    closed_loops,
    lerp_positions,
    match_ids,
    wrap_ghosts,
)
from asteroids.core import InputFrame, new_world, step
from asteroids.core import events as ev

SIZE = np.array([1280.0, 720.0])


def run(config, world, masks):
    prev = world
    for mask in masks:
        prev, (world, _) = world, step(world, mask, config)
    return prev, world


def test_closed_loops_join_each_polygon_back_to_its_start():
    pts = np.arange(14, dtype=float).reshape(7, 2)
    segs = closed_loops(pts, np.array([0, 3, 7]))
    assert segs.shape == (7, 2, 2)
    assert segs[2, 1].tolist() == pts[0].tolist()
    assert segs[6, 1].tolist() == pts[3].tolist()
    assert segs[3, 1].tolist() == pts[4].tolist()


def test_match_ids_finds_survivors_and_flags_newcomers():
    idx, found = match_ids(np.array([2, 5, 9]), np.array([5, 9, 11]))
    assert found.tolist() == [True, True, False]
    assert idx[:2].tolist() == [1, 2]
    _, none = match_ids(np.zeros(0, np.int64), np.array([1, 2]))
    assert not none.any()


def test_interpolation_takes_the_short_way_across_the_seam():
    prev = np.array([[1278.0, 10.0]])
    cur = np.array([[2.0, 10.0]])
    mid = lerp_positions(prev, cur, 0.5, SIZE)
    assert mid.tolist() == [[1280.0, 10.0]]
    assert lerp_positions(prev, cur, 0.5, None).tolist() == [[640.0, 10.0]]


def test_ghosts_copy_only_what_straddles_an_edge():
    segs = np.array([[[-5.0, 100.0], [5.0, 100.0]],      # straddles the left edge
                     [[600.0, 300.0], [610.0, 300.0]],    # well inside
                     [[-3.0, -3.0], [3.0, 3.0]]])         # a corner: 3 ghosts
    cols = np.ones((3, 4), np.float32)
    out, out_c = wrap_ghosts(segs, cols, SIZE)
    assert out.shape[0] == out_c.shape[0] == 3 + 1 + 3
    shifted = out[3:]
    assert [1275.0, 100.0] in shifted[:, 0].tolist()
    assert not np.any(np.all(shifted == segs[1], axis=(1, 2)))


def test_a_new_world_draws_every_asteroid_edge_and_the_ship(config):
    world = new_world(config, 5)
    segs, cols = SceneBuilder(config).build(world, world, 0.0).arrays()
    assert segs.dtype == np.float32 and cols.shape == (segs.shape[0], 4)
    assert segs.shape[0] >= world.ast_local.shape[0] + 4
    assert np.isfinite(segs).all()


def test_alpha_zero_and_one_land_on_the_two_ticks(config):
    prev, cur = run(config, new_world(config, 5), [0] * 20)
    assert prev.ast_id.tolist() == cur.ast_id.tolist()
    builder = SceneBuilder(config)
    edges = cur.ast_local.shape[0]  # the rocks' own edges come first, then any ghosts

    def rocks(a, b, alpha):
        return builder.build(a, b, alpha).arrays()[0][:edges]

    at0, at1 = rocks(prev, cur, 0.0), rocks(prev, cur, 1.0)
    assert np.allclose(at0, rocks(prev, prev, 0.0), atol=1e-3)
    assert np.allclose(at1, rocks(cur, cur, 0.0), atol=1e-3)
    half = rocks(prev, cur, 0.5)
    assert not np.allclose(half, at0) and not np.allclose(half, at1)


def test_a_new_shot_is_drawn_where_it_is_not_interpolated(config):
    world = new_world(config, 5)
    prev, cur = world, step(world, InputFrame.FIRE, config)[0]
    assert cur.shot_id.shape[0] == 1 and prev.shot_id.shape[0] == 0
    builder = SceneBuilder(config)
    segs = Segments()
    builder._shots(prev, cur, 0.0, segs)
    s, _ = segs.arrays()
    assert s[0, 1] == pytest.approx(cur.shot_pos[0].astype(np.float32))
    length = np.linalg.norm(s[0, 1] - s[0, 0])
    assert length == pytest.approx(config.shots.length_px, rel=1e-4)


def test_thrust_adds_a_flame(config):
    import dataclasses

    config = dataclasses.replace(config, ship=dataclasses.replace(config.ship, grace_s=0.0))
    world = new_world(config, 5)  # no grace: the ship is drawn on every tick
    builder = SceneBuilder(config)
    quiet = len(builder.build(world, world, 0.0))
    _, thrusting = run(config, world, [InputFrame.THRUST] * 2)
    assert thrusting.thrusting
    assert len(builder.build(thrusting, thrusting, 0.0)) > quiet - 1


def test_particles_burst_fade_and_expire():
    parts = Particles(1280.0, 720.0, 60.0, seed=1)
    parts.on_event(ev.AsteroidDestroyed(size=0, x=100.0, y=100.0, children=2, by="ship-shot",
                                        points=20))
    n = len(parts)
    assert n > 0
    segs = Segments()
    parts.segments(0.5, segs)
    s, c = segs.arrays()
    assert s.shape == (n, 2, 2) and (c[:, 3] <= 1.0).all()
    for _ in range(120):
        parts.tick()
    assert len(parts) == 0


def test_particles_use_their_own_generator(config):
    """Cosmetics never touch the simulation: same seed, same world, with or without them."""
    a = Particles(1280.0, 720.0, 60.0, seed=1)
    b = Particles(1280.0, 720.0, 60.0, seed=1)
    event = ev.ShipDestroyed(x=5.0, y=5.0, cause="asteroid", lives_left=2)
    a.on_event(event)
    b.on_event(event)
    assert np.array_equal(a.pos, b.pos)


def test_the_ship_blinks_while_its_grace_lasts(config):
    from asteroids.app.scene import GRACE_BLINK_TICKS, protected
    from asteroids.core.world import Draft

    def ship_edges(grace):
        d = Draft(new_world(config, 5))
        d.ship_grace = grace
        world = d.freeze()
        return len(SceneBuilder(config).build(world, world, 0.0).arrays()[0])

    assert protected(new_world(config, 5)) == (config.ship.grace_s > 0)
    steady = ship_edges(0)
    assert ship_edges(GRACE_BLINK_TICKS - 1) == steady  # shown
    assert ship_edges(GRACE_BLINK_TICKS) < steady  # hidden: the hull's edges are gone
    assert ship_edges(2 * GRACE_BLINK_TICKS) == steady
