"""Packing segments for upload and the fast wrap-ghost search. No GL."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from asteroids.app.palettes import PALETTES_BY_NAME, VECTOR
from asteroids.app.scene import (
    FLOATS_PER_SEGMENT,
    SceneBuilder,
    Segments,
    ghost_index,
    wrap_ghosts,
)
from asteroids.core import InputFrame, new_world, step
from asteroids.core.world import SHOOTER_SAUCER

SIZE = np.array([1280.0, 720.0])
SHIFTS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def ghosts_by_brute_force(segs, cols, size):
    """Every shift tested on every segment (the search before it was narrowed)."""
    lo, hi = segs.min(axis=1), segs.max(axis=1)
    out, out_c = [segs], [cols]
    w, h = float(size[0]), float(size[1])
    for sx, sy in SHIFTS:
        dx, dy = sx * w, sy * h
        vis = (hi[:, 0] + dx >= 0) & (lo[:, 0] + dx <= w) & (hi[:, 1] + dy >= 0) & (
            lo[:, 1] + dy <= h)
        out.append(segs[vis] + np.array([dx, dy]))
        out_c.append(cols[vis])
    return np.concatenate(out), np.concatenate(out_c)


@pytest.mark.parametrize("seed", range(5))
def test_ghosts_are_the_same_as_testing_every_segment(seed):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-60, 1340, (3000, 2)) * np.array([1.0, 720 / 1280])
    segs = np.stack([a, a + rng.uniform(-40, 40, (3000, 2))], axis=1)
    # Segments that touch an edge exactly get a ghost on the other side too.
    segs[:20, :, 0] = np.array([0.0, 5.0])
    segs[20:40, :, 1] = np.array([715.0, 720.0])
    cols = rng.uniform(0, 1, (3000, 4)).astype(np.float32)
    got, got_c = wrap_ghosts(segs, cols, SIZE)
    want, want_c = ghosts_by_brute_force(segs, cols, SIZE)
    assert np.array_equal(got, want) and np.array_equal(got_c, want_c)


def test_no_ghosts_for_segments_well_inside():
    segs = np.array([[[10.0, 10.0], [20.0, 20.0]], [[600.0, 300.0], [700.0, 400.0]]])
    idx, moves = ghost_index(segs, SIZE)
    assert idx.shape == (0,) and moves.shape == (0, 1, 2)


def test_packed_segments_carry_ends_colour_and_style():
    segs = Segments()
    segs.add(np.array([[[1.0, 2.0], [3.0, 4.0]]]), (0.1, 0.2, 0.3, 0.4))
    segs.add(np.array([[[5.0, 6.0], [7.0, 8.0]], [[9.0, 9.0], [9.0, 9.5]]]),
             np.array([[1, 0, 0, 1], [0, 1, 0, 1]], np.float32), (2.0, 1.5))
    packed = segs.packed()
    assert packed.shape == (3, FLOATS_PER_SEGMENT) and packed.dtype == np.float32
    assert packed[0].tolist() == pytest.approx([1, 2, 3, 4, 0.1, 0.2, 0.3, 0.4, 1, 0])
    assert packed[2].tolist() == pytest.approx([9, 9, 9, 9.5, 0, 1, 0, 1, 2, 1.5])
    s, c = segs.arrays()
    assert s.shape == (3, 2, 2) and c.shape == (3, 4)
    assert segs.styles()[:, 0].tolist() == [1.0, 2.0, 2.0]
    assert Segments().packed().shape == (0, FLOATS_PER_SEGMENT)


def test_scene_colours_and_styles_follow_the_palette(config):
    world = new_world(config, 5)
    prev, cur = world, step(world, InputFrame.FIRE, config)[0]
    builder = SceneBuilder(config)
    for name, palette in PALETTES_BY_NAME.items():
        packed = builder.build(prev, cur, 0.5, palette=palette).packed()
        colours = {tuple(np.round(row, 5)) for row in packed[:, 4:8]}
        assert tuple(np.round(np.float32(palette.asteroid), 5)) in colours, name
        assert tuple(np.round(np.float32(palette.shot_ship), 5)) in colours, name


def test_saucer_shots_get_their_own_style(config):
    world = new_world(config, 5)
    prev, cur = world, step(world, InputFrame.FIRE, config)[0]
    saucer_shot = cur.shot_owner.copy()
    saucer_shot[:] = SHOOTER_SAUCER
    cur = dataclasses.replace(cur, shot_owner=saucer_shot)
    builder = SceneBuilder(config)
    blind = builder.build(prev, cur, 0.5, palette=PALETTES_BY_NAME["colour_blind"]).packed()
    plain = builder.build(prev, cur, 0.5, palette=VECTOR).packed()
    assert (blind[:, 9] > 0).sum() == cur.shot_id.shape[0]  # only the shots are dashed
    assert (plain[:, 8:] == np.array([1.0, 0.0])).all()
