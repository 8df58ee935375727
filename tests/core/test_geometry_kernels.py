"""Geometry kernels against independent oracles, in the cases the game itself never builds.

The game's worlds start at (0, 0) and its outlines are all wound one way, so a kernel that
mishandled a box with a non-zero corner or a clockwise outline would pass every game test.
These properties pin the general contracts: orientation by the shoelace area, outward edge
normals for both windings, wall folding in any box (a shifted box gives the shifted path),
segment tests at a scale where products underflow, and the typed empty results of the contact
queries.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.contacts import circle_cross_pairs, circle_pairs, circle_segment_contacts
from asteroids.core.geometry import (
    edge_normals,
    orientation_ccw,
    segment_wall_bounce,
)
from tests.core.kernels import seg


def star_polygon(rng: np.random.Generator, n: int) -> np.ndarray:
    """A simple polygon around the origin (star-shaped from it), counter-clockwise.

    One vertex per equal sector, jittered within its middle 40 %, so consecutive vertices are
    less than half a turn apart and the origin is strictly inside."""
    angles = (np.arange(n) + rng.uniform(0.3, 0.7, n)) * (2.0 * math.pi / n)
    radii = rng.uniform(1.0, 10.0, n)
    pts = np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=1)
    return np.round(pts * 64.0) / 64.0


def shoelace(pts: np.ndarray) -> float:
    x, y = pts[:, 0], pts[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(3, 12), min_size=1,
                                                      max_size=6))
def test_orientation_is_the_sign_of_the_area_for_either_winding(seed, sizes) -> None:
    rng = np.random.default_rng(seed)
    polys = []
    for n in sizes:
        p = star_polygon(rng, n)
        if rng.random() < 0.5:
            p = p[::-1]  # clockwise
        p = np.roll(p, int(rng.integers(0, n)), axis=0)  # any start vertex
        polys.append(p + rng.uniform(-50.0, 50.0, 2))
    points = np.concatenate(polys)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in polys])]).astype(np.int64)
    body = rng.integers(0, len(polys), 10).astype(np.int64)
    got = orientation_ccw(points, offsets, body)
    want = [shoelace(polys[b]) > 0.0 for b in body.tolist()]
    assert got.tolist() == want


def test_orientation_with_a_flat_bottom_uses_its_lowest_left_vertex() -> None:
    # Three vertices share the lowest y; the middle one is a straight angle (no turn), so the
    # orientation must be read at the lowest-LEFT vertex, a true corner, whatever the order.
    ccw = np.array([[1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0]])
    cw = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 2.0], [2.0, 2.0], [2.0, 0.0]])
    points = np.concatenate([ccw, cw])
    got = orientation_ccw(points, np.array([0, 5, 10]), np.array([0, 1]))
    assert got.tolist() == [True, False]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 12), clockwise=st.booleans())
def test_edge_normals_point_out_of_the_polygon_for_either_winding(seed, n, clockwise) -> None:
    # Outward: a step of a small length along the normal from the edge's midpoint leaves a
    # star polygon around the origin, seen from the origin: the normal has a positive
    # component along the midpoint's direction. Unit length, perpendicular to the edge.
    rng = np.random.default_rng(seed)
    p = star_polygon(rng, n)
    if clockwise:
        p = p[::-1]
    edges = np.arange(n, dtype=np.int64)
    normals = edge_normals(p, np.array([0, n]), np.zeros(n, dtype=np.int64), edges)
    a = p
    b = np.roll(p, -1, axis=0)
    d = b - a
    mid = 0.5 * (a + b)
    np.testing.assert_allclose(np.hypot(normals[:, 0], normals[:, 1]), 1.0, rtol=1e-12)
    np.testing.assert_allclose(np.sum(normals * d, axis=1), 0.0, atol=1e-9)
    # For a star polygon around the origin every edge faces away from it.
    cross_sign = np.sign(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    assert (np.sum(normals * mid, axis=1) * cross_sign * (-1 if clockwise else 1) > 0).all()


def test_a_zero_length_edge_gets_the_unit_x_normal() -> None:
    # The documented fallback: no direction to be perpendicular to.
    pts = np.array([[0.0, 0.0], [0.0, 0.0], [2.0, 0.0], [2.0, 2.0]])
    normals = edge_normals(pts, np.array([0, 4]), np.array([0, 0]), np.array([0, 1]))
    assert normals.tolist() == [[1.0, 0.0], [0.0, -1.0]]


def test_edges_shorter_than_a_pixel_get_their_own_unit_normals() -> None:
    # A quarter-pixel square (counter-clockwise): each edge's normal is still its own outward
    # unit normal; only a zero-length edge falls back to (1, 0).
    q = 0.25
    pts = np.array([[0.0, 0.0], [q, 0.0], [q, q], [0.0, q]])
    normals = edge_normals(pts, np.array([0, 4]), np.zeros(4, dtype=np.int64), np.arange(4))
    assert normals.tolist() == [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_slow_move_across_a_wall_bounces_off_it(sign: float) -> None:
    # Half a pixel a tick across x (a quarter pixel from the wall it moves toward), 5 px
    # along y: it meets the wall halfway through the tick and comes back a quarter pixel.
    x0 = 99.75 if sign > 0 else 0.25
    wall = 100.0 if sign > 0 else 0.0
    wb = segment_wall_bounce(np.array([[x0, 50.0]]), np.array([[0.5 * sign, 5.0]]),
                             np.zeros(2), np.array([100.0, 100.0]))
    assert wb.valid[0, :2].tolist() == [True, True] and not wb.valid[0, 2:].any()
    assert wb.t1[0, 0] == 0.5 and wb.ends[0, 0].tolist() == [wall, 52.5]
    assert wb.ends[0, 1].tolist() == [x0, 55.0]

def test_orientation_of_no_bodies_is_an_empty_bool_array() -> None:
    got = orientation_ccw(np.zeros((0, 2)), np.array([0]), np.zeros(0, dtype=np.int64))
    assert got.shape == (0,) and got.dtype == bool


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 6))
def test_folding_in_a_shifted_box_is_the_shifted_fold(seed, k) -> None:
    # The same moves in [0, W] x [0, H] and in [lo, lo + (W, H)]: every piece, time, end and
    # velocity agree after the shift (coordinates on a 1/16 grid keep the shift exact).
    rng = np.random.default_rng(seed)
    size = np.array([64.0, 32.0])
    lo = np.round(rng.uniform(-500.0, 500.0, 2) * 16.0) / 16.0
    start = np.round(rng.uniform(0.0, 1.0, (20, 2)) * size * 16.0) / 16.0
    move = np.round(rng.uniform(-150.0, 150.0, (20, 2)) * 16.0) / 16.0
    base = segment_wall_bounce(start, move, np.zeros(2), size, max_pieces=k)
    moved = segment_wall_bounce(start + lo, move, lo, lo + size, max_pieces=k)
    np.testing.assert_array_equal(moved.valid, base.valid)
    np.testing.assert_array_equal(moved.t0, base.t0)
    np.testing.assert_array_equal(moved.t1, base.t1)
    np.testing.assert_array_equal(moved.truncated, base.truncated)
    np.testing.assert_array_equal(moved.displacement, base.displacement)
    np.testing.assert_allclose(moved.end, base.end + lo, rtol=0, atol=1e-9)
    v = base.valid
    np.testing.assert_allclose(moved.starts[v], base.starts[v] + lo, rtol=0, atol=1e-9)
    np.testing.assert_allclose(moved.ends[v], base.ends[v] + lo, rtol=0, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_fold_matches_a_step_by_step_reflection(seed) -> None:
    # Oracle: walk the move in 2000 small steps, reflecting at each wall; the fold's end and
    # final velocity agree, and the number of walls crossed decides how many pieces exist.
    rng = np.random.default_rng(seed)
    lo = np.array([-20.0, 10.0])
    hi = np.array([44.0, 42.0])
    start = lo + rng.uniform(0.0, 1.0, 2) * (hi - lo)
    move = rng.uniform(-100.0, 100.0, 2)
    wb = segment_wall_bounce(start[None], move[None], lo, hi, max_pieces=8)
    pos, vel, crossings = start.copy(), move.copy(), 0
    steps = 2000
    for _ in range(steps):
        pos = pos + vel / steps
        for ax in (0, 1):
            if pos[ax] < lo[ax]:
                pos[ax], vel[ax], crossings = 2 * lo[ax] - pos[ax], -vel[ax], crossings + 1
            elif pos[ax] > hi[ax]:
                pos[ax], vel[ax], crossings = 2 * hi[ax] - pos[ax], -vel[ax], crossings + 1
    np.testing.assert_allclose(wb.end[0], pos, atol=1e-6)
    assert wb.displacement[0].tolist() == vel.tolist()
    assert int(wb.valid[0].sum()) == min(crossings + 1, 8)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_segment_tests_are_the_same_at_a_scale_where_the_determinant_underflows(seed) -> None:
    # Scaled by 2**-600 every product of two coordinates underflows to zero, so the crossing
    # test's determinant is 0 and the parallel branch must redo it in rescaled units. Scaling
    # by a power of two is exact, so hits, t and u must equal the unscaled ones bit for bit.
    rng = np.random.default_rng(seed)
    p1, p2, q1, q2 = (np.round(rng.uniform(-4.0, 4.0, (16, 2)) * 64.0) / 64.0
                      for _ in range(4))
    s = 2.0**-600
    hit, t, u, point = seg(p1, p2, q1, q2)
    hit_s, t_s, u_s, point_s = seg(p1 * s, p2 * s, q1 * s, q2 * s)
    assert hit_s.tolist() == hit.tolist()
    assert t_s[hit].tolist() == t[hit].tolist()
    assert u_s[hit].tolist() == u[hit].tolist()
    assert (point_s[hit] / s).tolist() == point[hit].tolist()


SQUARE = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]


def _shapes(result, names) -> dict[str, tuple[str, tuple[int, ...]]]:
    return {n: (getattr(result, n).dtype.name, getattr(result, n).shape) for n in names}


@pytest.mark.parametrize("case", ["no circles", "no bodies", "nothing touches"])
def test_circle_segment_contacts_with_nothing_to_report_has_typed_empty_fields(case) -> None:
    # Callers index and concatenate these arrays: an empty result has the same dtypes and
    # trailing shapes as a full one, whichever early return produced it.
    centers, radii, points, offsets = {
        "no circles": (np.zeros((0, 2)), np.zeros(0), SQUARE, [0, 4]),
        "no bodies": ([[1.0, 1.0]], [1.0], np.zeros((0, 2)), [0]),
        "nothing touches": ([[10.0, 10.0]], [1.0], SQUARE, [0, 4]),
    }[case]
    got = circle_segment_contacts(centers, radii, points, offsets)
    assert _shapes(got, ("circle", "body", "edge", "depth", "normal", "point")) == {
        "circle": ("int64", (0,)), "body": ("int64", (0,)), "edge": ("int64", (0,)),
        "depth": ("float64", (0,)), "normal": ("float64", (0, 2)), "point": ("float64", (0, 2)),
    }


@pytest.mark.parametrize("wrap", [None, (100.0, 100.0)])
def test_circle_pair_queries_with_nothing_to_report_give_empty_int_arrays(wrap) -> None:
    none = np.zeros((0, 2)), np.zeros(0)
    results = [
        circle_pairs(*none, world_size=wrap),
        circle_pairs([[0.0, 0.0]], [1.0], world_size=wrap),
        circle_pairs([[0.0, 0.0], [50.0, 50.0]], [1.0, 1.0], world_size=wrap),
        circle_cross_pairs(*none, [[1.0, 1.0]], [1.0], world_size=wrap),
        circle_cross_pairs([[1.0, 1.0]], [1.0], *none, world_size=wrap),
        circle_cross_pairs([[1.0, 1.0]], [1.0], [[50.0, 50.0]], [1.0], world_size=wrap),
    ]
    for i, j in results:
        assert (i.dtype.name, i.shape, j.dtype.name, j.shape) == ("int64", (0,), "int64", (0,))
