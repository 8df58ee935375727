"""``geometry.wrap.floor_mod``: numpy's floored modulo (``%``) bit for bit, by a faster
route on large arrays whose values lie within a world size of the world (positions and
displacements a few ticks on); every other value takes ``%`` itself."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.geometry.wrap import FAST_MOD_MIN, floor_mod, wrap_positions

SIZES = (800.0, 600.0, 1024.0, 768.0, 3.0, 1e-3, 0.1 + 0.2)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64)


def _edges(size: float) -> np.ndarray:
    """The values where a floored modulo can go wrong: the range's ends and their
    neighbours, signed zeros, tiny negatives, and values past the fast range."""
    ends = np.array([-size, 0.0, size, 2.0 * size, 0.5 * size, -0.5 * size, 1.5 * size])
    up = np.nextafter(ends, np.inf)
    down = np.nextafter(ends, -np.inf)
    return np.concatenate([ends, up, down, [-0.0, -1e-300, 1e-300, -5e-324, 5e-324,
                                            -1e-17, 3.0 * size, -3.0 * size, 1e300]])


def test_fast_route_equals_percent_on_every_edge_value() -> None:
    for size in SIZES:
        x = np.resize(_edges(size), 4 * FAST_MOD_MIN)
        in_range = x[(x >= -size) & (x < 2.0 * size)]
        x_fast = np.resize(in_range, 4 * FAST_MOD_MIN)
        for values in (x, x_fast):
            assert np.array_equal(_bits(floor_mod(values, size)), _bits(values % size))


def test_per_axis_sizes_broadcast_as_percent() -> None:
    """Per-axis sizes (``(2,)`` against ``(N, 2)``) as positions and displacements use
    them; the answer equals ``%`` and has no ``-0.0`` and no value equal to the size."""
    rng = np.random.default_rng(7)
    size = np.array([1024.0, 768.0])
    x = rng.uniform(-1.0, 2.0, (4 * FAST_MOD_MIN, 2)) * size
    x[:10] = [[-0.0, -768.0], [1024.0, 0.0], [-1024.0, 1536.0 - 1e-13], [2047.9, -1e-17],
              [-5e-324, 767.9999999], [0.0, -0.0], [1e-300, -1e-300], [512.0, 384.0],
              [-512.0, -384.0], [1023.9999999999999, 767.9999999999999]]
    got = floor_mod(x, size)
    assert np.array_equal(_bits(got), _bits(x % size))
    assert not np.signbit(got).any()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1,
                max_size=64),
       st.sampled_from(SIZES), st.integers(0, 3))
def test_floor_mod_equals_percent_bit_for_bit(values: list[float], size: float,
                                              spread: int) -> None:
    """Any floats (NaN, infinities, huge values send the whole array to ``%``), and the
    same values folded into ``[-size, 2 size)`` (the fast route's range)."""
    raw = np.resize(np.array(values), FAST_MOD_MIN + spread)
    finite = np.where(np.isfinite(raw), raw, 0.0)
    folded = np.fmod(finite, 1.5 * size) + 0.5 * size  # within (-size, 2 size)
    for x in (raw, folded):
        with np.errstate(invalid="ignore"):  # % of an infinity is NaN, with a warning
            want = x % size
            got = floor_mod(x, size)
        assert np.array_equal(_bits(got), _bits(want))


def test_positions_wrap_alike_as_rows_or_axes_apart() -> None:
    """``wrap_positions`` wraps many positions x and y apart and a few as rows: the same
    bits, on edge values (signed zeros, tiny negatives, the sizes and their neighbours)."""
    size = np.array([1024.0, 768.0])
    rng = np.random.default_rng(3)
    p = rng.uniform(-1.0, 2.0, (600, 2)) * size
    edges = np.stack([_edges(1024.0)[:20], _edges(768.0)[:20]], axis=1)
    p[:20] = edges
    p[20:40] = edges[::-1]
    many = wrap_positions(p, size)
    few = np.concatenate([wrap_positions(p[i:i + 4], size) for i in range(0, 600, 4)])
    assert np.array_equal(_bits(many), _bits(few))
    assert not np.signbit(many).any() and (many < size).all()
