"""The validation at the collision queries' public entry points (``geometry.checks``): what it
accepts at each bound and one past it, what it returns, and what its messages name."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.core.geometry.checks import (
    as_offsets,
    as_vec2,
    as_world_size,
    offsets_counts,
    vec2,
    vec2_scale,
)


@pytest.mark.parametrize("size", [(0.5, 0.5), (1.0, 0.25), (0.25, 1.0), (1e-300, 1e-300),
                                  (4100, 3000)])
def test_any_finite_positive_world_size_is_accepted_however_small(size):
    out = as_world_size(size)
    assert out is not None and out.dtype == np.float64 and out.tolist() == list(size)


@pytest.mark.parametrize("size", [(0.0, 1.0), (1.0, 0.0), (-1.0, 1.0), (1.0, -0.5),
                                  (math.inf, 1.0), (1.0, math.nan)])
def test_a_world_size_of_zero_or_less_or_not_finite_is_refused(size):
    with pytest.raises(ValueError, match="world_size must be two finite positive numbers"):
        as_world_size(size)


@pytest.mark.parametrize("size", [("a", "b"), (1.0,), (1.0, 2.0, 3.0), [[1.0, 2.0]]])
def test_a_world_size_that_is_not_two_numbers_says_so(size):
    with pytest.raises(ValueError, match=r"^world_size must be two numbers \(W, H\)"):
        as_world_size(size)
    assert as_world_size(None) is None


@pytest.mark.parametrize(("offsets", "n", "uniform"), [
    ([0, 1, 2, 3], 3, 1), ([0, 2, 4], 4, 2), ([0, 5], 5, 5),
    ([0, 1, 3], 3, 0), ([0, 2, 3], 3, 0), ([0], 0, 0)])
def test_offsets_report_the_uniform_point_count_or_zero(offsets, n, uniform):
    o, counts, m = offsets_counts(np.array(offsets), n)
    assert m == uniform and isinstance(m, int)
    assert o.dtype == np.int64 and o.tolist() == offsets
    assert counts.tolist() == np.diff(offsets).tolist()


@pytest.mark.parametrize(("offsets", "n"), [([0, 2, 2, 4], 4), ([0, 0], 0), ([0, 3, 2], 2)])
def test_a_body_without_a_point_is_refused(offsets, n):
    with pytest.raises(ValueError, match="every body needs >= 1 point"):
        as_offsets(np.array(offsets), n)


def test_offsets_must_be_integers_from_zero_to_the_point_count():
    with pytest.raises(ValueError, match="must be an integer array"):
        as_offsets(np.array([0.0, 1.0]), 1)
    with pytest.raises(ValueError, match="must start at 0 and end at 3"):
        as_offsets(np.array([0, 2]), 3)
    with pytest.raises(ValueError, match=r"must have shape \(B \+ 1,\)"):
        as_offsets(np.zeros(0, dtype=np.int64), 0)


def test_points_come_back_as_float64_with_their_scale():
    a, m = vec2_scale([[1, -7], [3, 2]], "p")
    assert a.dtype == np.float64 and m == 7.0
    empty, m0 = vec2_scale(np.zeros((0, 2)), "p")
    assert empty.shape == (0, 2) and m0 == 0.0
    assert as_vec2([[1, 2]], "p").dtype == np.float64
    assert vec2([[1, 2]], "p").dtype == np.float64


def test_a_wrong_row_count_names_the_count_it_got():
    for check in (as_vec2, vec2):
        with pytest.raises(ValueError, match=r"^p must have 2 rows, got 3$"):
            check(np.zeros((3, 2)), "p", 2)
