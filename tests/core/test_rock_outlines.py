"""Generated rock outlines keep their points in angular order, each within a third of the
even spacing past its even angle: the rock renderer's fragment shader only tests the edges
around a pixel's angle and relies on it (``asteroids.app.outlines``)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32
from asteroids.core.spawn import make_rocks
from asteroids.core.tables import HEADING_STEPS
from tests.core.worlds import config_with

STEP = 2.0 * math.pi / HEADING_STEPS


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
