"""The single-object border helpers agree bit for bit with the vectorised ones."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.geometry import bounce_positions, wrap_delta, wrap_positions
from asteroids.core.scalar import bounce1, min_image1, wrap1

coords = st.floats(-1e5, 1e5, allow_nan=False, allow_infinity=False)
sizes = st.floats(200.0, 5000.0)


@settings(max_examples=500, derandomize=True, database=None)
@given(x=coords, v=st.floats(-1e4, 1e4), lo=st.floats(0.0, 100.0), span=sizes)
def test_bounce1_matches_bounce_positions(x, v, lo, span) -> None:
    hi = lo + span
    pos, vel = bounce_positions(np.array([[x, lo]]), np.array([[v, 0.0]]),
                                np.array([lo, lo]), np.array([hi, hi]))
    assert bounce1(x, v, lo, hi) == (float(pos[0, 0]), float(vel[0, 0]))
    assert lo <= bounce1(x, v, lo, hi)[0] <= hi


@settings(max_examples=500, derandomize=True, database=None)
@given(x=coords, size=sizes)
def test_wrap1_matches_wrap_positions(x, size) -> None:
    got = wrap1(x, size)
    assert got == float(wrap_positions(np.array([[x, 0.0]]), np.array([size, size]))[0, 0])
    assert 0.0 <= got < size and not np.signbit(got)


@settings(max_examples=500, derandomize=True, database=None)
@given(d=st.floats(-2500.0, 2500.0), size=st.floats(5000.0, 9000.0))
def test_min_image1_is_the_short_way(d, size) -> None:
    got = min_image1(d, size)
    assert abs(got) <= 0.5 * size
    exact = float(wrap_delta(np.array([[d, 0.0]]), np.array([size, size]))[0, 0])
    assert got == exact and np.signbit(got) == np.signbit(exact), "one rule: wrap_delta's bits"
