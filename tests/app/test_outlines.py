"""The rock renderer's CPU side (no GL): which rocks the shader may search by angle, and the
instances it draws, wrap copies included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.app.outlines import angular_inner_radius, rock_instances
from asteroids.app.palettes import VECTOR
from asteroids.app.scene import RockOutlines, SceneBuilder, Segments, closed_loops
from asteroids.config import load_config
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32
from asteroids.core.spawn import make_rocks

W, H = 1280.0, 720.0


def outlines(*overrides: str, rocks: int = 40) -> tuple[np.ndarray, np.ndarray]:
    p = params_for(load_config(overrides=list(overrides)))
    sizes = np.arange(rocks) % 3
    batch = make_rocks(Pcg32(9, 1), p, sizes, np.zeros((rocks, 2)), np.zeros((rocks, 2)))
    return batch.local, np.concatenate([[0], np.cumsum(batch.counts)])


def brute_inner(local: np.ndarray, offsets: np.ndarray) -> list[float]:
    """The closest each outline comes to its centre, sampled finely along every edge."""
    out = []
    for i in range(offsets.shape[0] - 1):
        segs = closed_loops(local[offsets[i]:offsets[i + 1]], np.array([0, offsets[i + 1]
                                                                        - offsets[i]]))
        t = np.linspace(0.0, 1.0, 2001)[None, :, None]
        pts = segs[:, :1] + (segs[:, 1:] - segs[:, :1]) * t
        out.append(float(np.hypot(pts[..., 0], pts[..., 1]).min()))
    return out


@pytest.mark.parametrize("overrides", [(), ("asteroids.vertices_min=3",),
                                       ("asteroids.vertices_max=64", "asteroids.jaggedness=0.9")])
def test_generated_rocks_are_searched_by_angle_with_their_true_inner_radius(overrides) -> None:
    local, offsets = outlines(*overrides)
    inner = angular_inner_radius(local, offsets)
    assert (inner > 0).all()
    assert inner == pytest.approx(brute_inner(local, offsets), abs=1e-3)


def test_outlines_out_of_angular_order_test_every_edge() -> None:
    local, offsets = outlines("asteroids.shapes=classic")
    inner = angular_inner_radius(local, offsets)
    assert (inner < 0).any()       # the classic shapes are not in even angular slots
    assert np.abs(inner) == pytest.approx(brute_inner(local, offsets), abs=1e-3)
    # A regular 12-gon turned a little within the slack (2e-3 rad) or almost a third of its
    # spacing passes; turned out of those slots either way, not.
    gap = 2.0 * math.pi / 12
    for turn, ok in ((-1.5e-3, True), (-2.5e-3, False), (0.33 * gap, True),
                     (gap / 3 + 2.5e-3, False)):
        a = np.arange(12) * gap + turn
        turned = np.stack([np.cos(a), np.sin(a)], axis=1) * 30.0
        assert (angular_inner_radius(turned, np.array([0, 12])) > 0).all() == ok, turn


def record(pos: list[tuple[float, float]], radius: float = 40.0, wraps: bool = True
           ) -> RockOutlines:
    n = len(pos)
    local, offsets = outlines(rocks=n)
    return RockOutlines(pos=np.array(pos, float), cos_sin=np.tile([1.0, 0.0], (n, 1)),
                        local=local, offsets=offsets, radius=np.full(n, radius),
                        color=(1.0, 1.0, 1.0, 1.0), style=(1.0, 0.0), wraps=wraps,
                        size=np.array([W, H]))


def test_a_rock_crossing_a_border_is_drawn_again_across_the_seam() -> None:
    rocks = record([(640, 360), (W - 30, 360), (20, 700)])
    data = rock_instances(rocks, np.ones(3), margin=0.0)
    got = sorted(map(tuple, data[:, :2].round(3).tolist()))
    assert got == sorted([(640, 360), (W - 30, 360), (20, 700), (-30, 360),
                          (20 + W, 700), (20, 700 - H), (20 + W, 700 - H)])


def test_the_seam_margin_counts_and_one_past_it_does_not_cross() -> None:
    rocks = record([(W - 45, 360)], radius=40.0)
    assert rock_instances(rocks, np.ones(1), margin=5.0).shape[0] == 1   # touches, no cross
    assert rock_instances(rocks, np.ones(1), margin=5.5).shape[0] == 2
    assert rock_instances(record([(W - 45, 360)], wraps=False), np.ones(1),
                          margin=50.0).shape[0] == 1


def test_segments_keep_counting_the_rocks_but_the_renderer_gets_them_apart() -> None:
    from tests.app.test_looks import busy_world

    config = load_config()
    prev, cur = busy_world(config)
    segs = SceneBuilder(config).build(prev, cur, 0.5, palette=VECTOR)
    assert isinstance(segs, Segments) and segs.rocks is not None
    rock_edges = segs.rocks.segments().shape[0]
    assert rock_edges >= cur.ast_local.shape[0]
    assert len(segs) == segs.packed().shape[0] == segs.packed(rocks=False).shape[0] + rock_edges
    with pytest.raises(ValueError):
        segs.add_rocks(segs.rocks)
