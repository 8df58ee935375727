"""Tests for asteroids.core.geometry: wrap, bounce, reflection, outlines, point-in-polygon,
pairwise segment intersection (T8, T12 of determinism-and-robustness.md)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from asteroids.core.geometry import (
    EPS,
    bounce_positions,
    edge_normals,
    points_in_polygons,
    reflect,
    remaining_travel,
    segment_wall_bounce,
    transform_outlines,
    wrap_delta,
    wrap_positions,
)
from tests.core.kernels import seg

SETTINGS = settings(derandomize=True, database=None, max_examples=300, deadline=None)
W, H = 800.0, 600.0
SIZE = np.array([W, H])
coord = st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False)
small_int = st.integers(-1024, 1024)


# ------------------------------------------------------------------------------------------
# wrap
# ------------------------------------------------------------------------------------------


@SETTINGS
@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=8))
@example([(-1e-17, -8.7e-20)])
@example([(-0.0, 800.0)])
@example([(1600.0, -600.0)])
def test_wrap_positions_in_range_no_negative_zero(xy: list[tuple[float, float]]) -> None:
    p = np.array(xy)
    out = wrap_positions(p, SIZE)
    assert (out >= 0.0).all()
    assert (out[:, 0] < W).all() and (out[:, 1] < H).all()
    assert not np.signbit(out).any(), "no -0.0"
    # Same point on the torus: the difference is (nearly) a whole number of periods.
    k = (p - out) / SIZE
    assert np.allclose(k, np.round(k), atol=1e-9)


def test_wrap_positions_naive_failure_cases() -> None:
    out = wrap_positions(np.array([[-1e-17, -8.7e-20], [-0.0, 0.0], [W, H]]), SIZE)
    assert out.tolist() == [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    assert not np.signbit(out).any()


@SETTINGS
@given(coord, coord)
def test_wrap_delta_minimum_image(dx: float, dy: float) -> None:
    d = np.array([[dx, dy]])
    out = wrap_delta(d, SIZE)
    assert abs(out[0, 0]) <= W / 2 and abs(out[0, 1]) <= H / 2
    k = (d - out) / SIZE
    assert np.allclose(k, np.round(k), atol=1e-9)


@SETTINGS
@given(st.floats(-W / 2, W / 2), st.floats(-H / 2, H / 2))
@example(25.000000000000014, -0.0)  # one ulp past 25: (d + W/2) % W - W/2 rounds it to 25.0
@example(399.99999999999994, 300.0)  # floor(d / W + 1/2) would give -400.00000000000006
def test_wrap_delta_keeps_a_short_displacement_bit_for_bit(dx: float, dy: float) -> None:
    # A touch test across the seam must decide exactly as it does away from it, so a
    # displacement already the minimum image is not rounded (and -0.0 becomes 0.0).
    out = wrap_delta(np.array([[dx, dy]]), SIZE)
    assert out.tolist() == [[dx + 0.0, dy + 0.0]]


# ------------------------------------------------------------------------------------------
# bounce
# ------------------------------------------------------------------------------------------


def _bounce_ref(x: float, v: float, lo: float, hi: float) -> tuple[float, float]:
    """The recipe of determinism-and-robustness.md section 5."""
    k, p = divmod(x - lo, hi - lo)
    return (hi - p, -v) if int(k) % 2 else (lo + p, v)


@SETTINGS
@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-2e3, 2e3, allow_nan=False),
)
@example(-806.7, 5.0, -1667.0)
def test_bounce_triangle_wave(x: float, y: float, v: float) -> None:
    lo = np.array([20.0, 0.0])
    hi = np.array([780.0, 600.0])
    pos, vel = bounce_positions(np.array([[x, y]]), np.array([[v, -v]]), lo, hi)
    assert (pos >= lo).all() and (pos <= hi).all()
    for axis, (c, vv) in enumerate(((x, v), (y, -v))):
        rp, rv = _bounce_ref(c, vv, float(lo[axis]), float(hi[axis]))
        assert pos[0, axis] == pytest.approx(min(max(rp, lo[axis]), hi[axis]), abs=1e-9)
        assert vel[0, axis] == rv + 0.0
    assert not np.signbit(vel[vel == 0.0]).any()


def test_bounce_single_reflection_failure_case() -> None:
    pos, vel = bounce_positions(
        np.array([[-806.7, 5.0]]), np.array([[-1667.0, 0.0]]), np.array([20.0, 0.0]),
        np.array([780.0, 10.0])
    )
    assert pos[0, 0] == pytest.approx(713.3)
    assert vel[0, 0] == -1667.0  # two walls crossed: the sign is back where it was


# ------------------------------------------------------------------------------------------
# reflection and bounce continuation
# ------------------------------------------------------------------------------------------


unit_angle = st.integers(0, 359)


@SETTINGS
@given(coord, coord, unit_angle)
def test_reflect_elastic_keeps_speed_and_flips_normal(vx: float, vy: float, deg: int) -> None:
    n = np.array([[math.cos(math.radians(deg)), math.sin(math.radians(deg))]])
    v = np.array([[vx, vy]])
    out = reflect(v, n)
    speed = math.sqrt(vx * vx + vy * vy)
    assert math.sqrt(out[0, 0] ** 2 + out[0, 1] ** 2) == pytest.approx(speed, rel=1e-12, abs=1e-9)
    vn = vx * n[0, 0] + vy * n[0, 1]
    on = out[0, 0] * n[0, 0] + out[0, 1] * n[0, 1]
    assert on == pytest.approx(-vn, abs=1e-9 * (1 + speed))


def test_reflect_restitution_and_approaching_only() -> None:
    v = np.array([[3.0, -4.0], [3.0, 4.0]])
    n = np.array([[0.0, 1.0], [0.0, 1.0]])
    assert reflect(v, n, 0.0).tolist() == [[3.0, 0.0], [3.0, 0.0]]
    assert reflect(v, n, 0.5, approaching_only=True).tolist() == [[3.0, 2.0], [3.0, 4.0]]
    # Above 1 (ship.shield.restitution allows 1.5): a bouncy surface, faster away than in.
    assert reflect(v, n, 1.5).tolist() == [[3.0, 6.0], [3.0, -6.0]]
    assert reflect(v, n, 1.5, approaching_only=True).tolist() == [[3.0, 6.0], [3.0, 4.0]]


def test_remaining_travel_keeps_path_length() -> None:
    point = np.array([[10.0, 0.0], [0.0, 0.0]])
    t = np.array([0.25, 1.0])
    d = np.array([[0.0, -8.0], [5.0, 5.0]])
    n = np.array([[0.0, 1.0], [-1.0, 0.0]])
    end, new_d = remaining_travel(point, t, d, n)
    assert end.tolist() == [[10.0, 6.0], [0.0, 0.0]]
    assert new_d.tolist() == [[0.0, 8.0], [-5.0, 5.0]]


def test_remaining_travel_loses_speed_to_restitution() -> None:
    # Half the normal speed comes back: 8 px down into the floor at t = 0.25 leaves at 4 px
    # up, and the rest of the tick (0.75) carries it 3 px.
    end, new_d = remaining_travel(np.array([[10.0, 0.0]]), np.array([0.25]),
                                  np.array([[2.0, -8.0]]), np.array([[0.0, 1.0]]), 0.5)
    assert new_d.tolist() == [[2.0, 4.0]] and end.tolist() == [[11.5, 3.0]]


@SETTINGS
@given(
    st.floats(1.0, 99.0),
    st.floats(1.0, 99.0),
    st.floats(-450.0, 450.0),
    st.floats(-450.0, 450.0),
    st.integers(1, 6),
)
@example(90.0, 50.0, 20.0, 0.0, 2)
@example(90.0, 90.0, 20.0, 20.0, 3)  # exact corner
def test_segment_wall_bounce(x: float, y: float, dx: float, dy: float, k: int) -> None:
    lo = np.array([0.0, 0.0])
    hi = np.array([100.0, 100.0])
    wb = segment_wall_bounce(np.array([[x, y]]), np.array([[dx, dy]]), lo, hi, max_pieces=k)
    end, disp = bounce_positions(np.array([[x + dx, y + dy]]), np.array([[dx, dy]]), lo, hi)
    assert wb.end.tolist() == end.tolist()
    assert wb.displacement.tolist() == disp.tolist()
    valid = wb.valid[0]
    assert valid[0] or (dx == 0.0 and dy == 0.0) or wb.t1[0, 0] == 0.0
    # Pieces tile the tick in order and join up.
    assert wb.t0[0, 0] == 0.0 and wb.t1[0, -1] == 1.0
    assert (wb.t1[0, :-1] == wb.t0[0, 1:]).all()
    assert (wb.ends[0, :-1] == wb.starts[0, 1:]).all()
    assert (wb.starts >= lo).all() and (wb.ends <= hi).all()
    # Each valid piece is straight travel at the original speed (when not truncated).
    speed = math.sqrt(dx * dx + dy * dy)
    length = 0.0
    for j in np.flatnonzero(valid):
        seg = wb.ends[0, j] - wb.starts[0, j]
        seg_len = math.sqrt(seg[0] ** 2 + seg[1] ** 2)
        if not wb.truncated[0] or j < k - 1:
            assert seg_len == pytest.approx(speed * (wb.t1[0, j] - wb.t0[0, j]), abs=1e-7)
        length += seg_len
    if not wb.truncated[0]:
        assert length == pytest.approx(speed, abs=1e-6)
        assert (wb.ends[0, -1] == wb.end[0]).all()


# ------------------------------------------------------------------------------------------
# outlines
# ------------------------------------------------------------------------------------------


def test_transform_outlines_matches_loop() -> None:
    rng = np.random.default_rng(3)
    counts = [3, 12, 7]
    offsets = np.concatenate([[0], np.cumsum(counts)])
    local = rng.normal(size=(offsets[-1], 2)) * 20
    centers = rng.uniform(0, 800, (3, 2))
    ang = rng.uniform(0, 2 * np.pi, 3)
    cs = np.column_stack([np.cos(ang), np.sin(ang)])
    out = transform_outlines(centers, cs, local, offsets)
    for b in range(3):
        c, s = cs[b]
        for i in range(offsets[b], offsets[b + 1]):
            lx, ly = local[i]
            assert out[i, 0] == centers[b, 0] + (c * lx - s * ly)
            assert out[i, 1] == centers[b, 1] + (s * lx + c * ly)


def test_edge_normals_point_out_for_both_orientations() -> None:
    ccw = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    pts = np.concatenate([ccw, ccw[::-1] + 10.0])
    n = edge_normals(pts, np.array([0, 4, 8]), np.array([0, 0, 0, 1, 1]),
                     np.array([0, 1, 2, 0, 1]))
    # CW square 10..12: its edge 0 runs (10,12)->(12,12) (top), edge 1 (12,12)->(12,10).
    assert n.tolist() == [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]


# ------------------------------------------------------------------------------------------
# point in polygon
# ------------------------------------------------------------------------------------------


def _inside_exact(q: tuple[float, float], poly: list[tuple[float, float]]) -> bool | None:
    """Exact crossing-number test in rationals; None when the point is on the boundary."""
    qx, qy = Fraction(q[0]), Fraction(q[1])
    inside = False
    n = len(poly)
    for i in range(n):
        ax, ay = map(Fraction, poly[i])
        bx, by = map(Fraction, poly[(i + 1) % n])
        cross = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
        if cross == 0 and min(ax, bx) <= qx <= max(ax, bx) and min(ay, by) <= qy <= max(ay, by):
            return None
        if (ay > qy) != (by > qy):
            xi = ax + (qy - ay) * (bx - ax) / (by - ay)
            if xi > qx:
                inside = not inside
    return inside


def test_points_in_polygons_arcade_failure_cases() -> None:
    tri = np.array([[0.0, 0.0], [4.0, 0.0], [2.0, 2.0]])
    kite = np.array([[0.0, 0.0], [2.0, -1.0], [4.0, 0.0], [2.0, 1.0]])
    pts = np.concatenate([tri, kite])
    res = points_in_polygons(np.array([0.0, 1.0]), np.array([2.0, 0.0]), pts,
                             np.array([0, 3, 7]), np.array([0, 1]))
    assert res.tolist() == [False, True]


def test_points_in_polygons_level_with_vertices_vs_exact() -> None:
    rng = np.random.default_rng(7)
    polys, queries, bodies = [], [], []
    for b in range(60):
        n = int(rng.integers(5, 13))
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        r = rng.integers(5, 20, n)
        poly = np.column_stack([np.round(r * np.cos(ang)), np.round(r * np.sin(ang))])
        polys.append(poly)
        for v in poly:  # queries level with each vertex, left and right of it
            for dx in (-25.0, -3.0, -1.0, 0.5, 2.0, 25.0):
                queries.append((v[0] + dx, v[1]))
                bodies.append(b)
    pts = np.concatenate(polys)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in polys])])
    q = np.array(queries)
    got = points_in_polygons(q[:, 0], q[:, 1], pts, offsets, np.array(bodies))
    checked = 0
    for q, b, g in zip(queries, bodies, got, strict=True):
        exact = _inside_exact(q, [tuple(p) for p in polys[b]])
        if exact is not None:
            assert g == exact, (q, b)
            checked += 1
    assert checked > 1500


# ------------------------------------------------------------------------------------------
# pairwise segment intersection (T8)
# ------------------------------------------------------------------------------------------


def _exact_hit(p1, p2, q1, q2) -> tuple[bool, Fraction | None]:
    """Exact segment test in rationals: (hit, t of the first common point along segment 1)."""
    px, py = map(Fraction, p1)
    rx, ry = Fraction(p2[0]) - px, Fraction(p2[1]) - py
    ax, ay = map(Fraction, q1)
    sx, sy = Fraction(q2[0]) - ax, Fraction(q2[1]) - ay
    den = rx * sy - ry * sx
    qx, qy = ax - px, ay - py
    if den != 0:
        t = (qx * sy - qy * sx) / den
        u = (qx * ry - qy * rx) / den
        return (0 <= t <= 1 and 0 <= u <= 1), t
    if qx * ry - qy * rx != 0 or qx * sy - qy * sx != 0:
        return False, None  # parallel, apart
    rr = rx * rx + ry * ry
    if rr == 0:
        ss = sx * sx + sy * sy
        if ss == 0:
            return (qx == 0 and qy == 0), Fraction(0)
        u = -(qx * sx + qy * sy) / ss
        return 0 <= u <= 1, Fraction(0)
    ta = (qx * rx + qy * ry) / rr
    tb = ((qx + sx) * rx + (qy + sy) * ry) / rr
    lo, hi = max(min(ta, tb), Fraction(0)), min(max(ta, tb), Fraction(1))
    return lo <= hi, lo


seg_int = st.tuples(small_int, small_int, small_int, small_int, small_int, small_int, small_int,
                    small_int)  # fmt: skip


@SETTINGS
@given(seg_int)
@example((0, 0, 10, 0, 5, 0, 5, 7))  # T-junction: endpoint on the other segment
@example((0, 0, 10, 0, 4, 0, 20, 0))  # colinear overlap: hit at the overlap start
@example((0, 0, 10, 0, 12, 0, 20, 0))  # colinear, disjoint
@example((0, 0, 10, 0, 0, 1, 10, 1))  # parallel
@example((3, 3, 3, 3, 0, 0, 6, 6))  # zero-length segment on the other
@example((3, 3, 3, 3, 3, 3, 3, 3))  # two equal points
@example((0, 0, 4, 4, 4, 4, 9, 0))  # touching end to end
def test_segment_intersection_matches_exact_on_integer_grid(c: tuple[int, ...]) -> None:
    p1, p2, q1, q2 = (c[0], c[1]), (c[2], c[3]), (c[4], c[5]), (c[6], c[7])
    hit, t, _, point = seg([p1], [p2], [q1], [q2])
    exact, t_exact = _exact_hit(p1, p2, q1, q2)
    # Integer coordinates: every product is exact, so decisions match exactly.
    assert bool(hit[0]) == exact
    if exact:
        assert t[0] == float(t_exact)
        assert np.isfinite(point).all()
    else:
        assert t[0] == np.inf and np.isnan(point).all()


@SETTINGS
@given(st.tuples(coord, coord, coord, coord, coord, coord, coord, coord))
@example((0.0, 0.0, 0.0, 0.0, 0.0, 1.4755195567724494e-299, 0.0, 0.0))  # tiny: no underflow
@example((1.4755195567724494e-299, 0.0, 0.0, 0.0, 0.0, 1.4755195567724494e-299, 0.0, 0.0))
def test_segment_intersection_properties(c: tuple[float, ...]) -> None:
    p1, p2, q1, q2 = np.array([[c[0], c[1]]]), np.array([[c[2], c[3]]]), np.array(
        [[c[4], c[5]]]
    ), np.array([[c[6], c[7]]])
    scale = 1.0 + max(abs(x) for x in c)
    hit, t, u, point = seg(p1, p2, q1, q2)
    hit2, _, _, point2 = seg(q1, q2, p1, p2)
    exact, _ = _exact_hit(tuple(p1[0]), tuple(p2[0]), tuple(q1[0]), tuple(q2[0]))
    if exact and not _degenerate(c, scale):
        assert hit[0], "an exact hit is never missed"
    if hit[0]:
        assert 0.0 <= t[0] <= 1.0 and 0.0 <= u[0] <= 1.0
        # The hit point lies on both segments (within EPS of the scene scale).
        for a, b in ((p1[0], p2[0]), (q1[0], q2[0])):
            assert _dist_to_segment(point[0], a, b) <= 1e-9 * scale
        if hit2[0]:
            den = (c[2] - c[0]) * (c[7] - c[5]) - (c[3] - c[1]) * (c[6] - c[4])
            if den != 0.0:  # swapping gives the same point (colinear: first overlap differs)
                assert np.abs(point - point2).max() <= 1e-6 * scale
    if not exact and hit[0]:
        # Only inside the EPS band of touching.
        assert _dist_to_segment(point[0], q1[0], q2[0]) <= 1e-9 * scale


def _degenerate(c: tuple[float, ...], scale: float) -> bool:
    """Known limit of float tolerance: a touching hit may be lost to rounding when the two
    segments are parallel within 1e-6 rad (but not exactly) or one is shorter than 1e-6 of
    the scene scale without being a point. Exactly parallel, zero-length and everything else
    is never missed."""
    rx, ry, sx, sy = c[2] - c[0], c[3] - c[1], c[6] - c[4], c[7] - c[5]
    lr, ls = math.hypot(rx, ry), math.hypot(sx, sy)
    den = rx * sy - ry * sx
    tiny = 0.0 < lr < 1e-6 * scale or 0.0 < ls < 1e-6 * scale
    return tiny or (den != 0.0 and abs(den) < 1e-6 * lr * ls)


def _dist_to_segment(p, a, b) -> float:
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    p = np.asarray(p, float)
    s = b - a
    ss = float(s @ s)
    u = 0.0 if ss == 0 else min(max(float((p - a) @ s) / ss, 0.0), 1.0)
    c = a + u * s - p
    return math.sqrt(float(c @ c))


@SETTINGS
@given(seg_int, st.tuples(small_int, small_int))
def test_segment_intersection_translation_invariant(
    c: tuple[int, ...], off: tuple[int, int]
) -> None:
    base = np.array(c, dtype=float).reshape(4, 2)
    moved = base + np.array(off, dtype=float)
    r1 = seg(base[:1], base[1:2], base[2:3], base[3:4])
    r2 = seg(moved[:1], moved[1:2], moved[2:3], moved[3:4])
    assert r1[0].tolist() == r2[0].tolist()
    assert r1[1].tolist() == r2[1].tolist()
    if r1[0][0]:
        assert np.allclose(r1[3] + np.array(off), r2[3], atol=1e-9)


@SETTINGS
@given(seg_int)
def test_segment_reversal_same_point(c: tuple[int, ...]) -> None:
    p1, p2, q1, q2 = [(c[0], c[1])], [(c[2], c[3])], [(c[4], c[5])], [(c[6], c[7])]
    a = seg(p1, p2, q1, q2)
    b = seg(p1, p2, q2, q1)
    assert a[0].tolist() == b[0].tolist()
    if a[0][0]:
        assert np.allclose(a[3], b[3], atol=1e-9 * 2048)


def test_segment_eps_closes_vertex_gaps() -> None:
    # A shot computed to pass through the shared vertex of two edges: never missed.
    rng = np.random.default_rng(11)
    misses = 0
    for _ in range(2000):
        v = rng.uniform(-100, 100, 2)
        a = v + rng.uniform(-50, 50, 2)
        b = v + rng.uniform(-50, 50, 2)
        d = rng.normal(size=2)
        p1 = v - rng.uniform(1, 30) * d
        p2 = v + rng.uniform(1, 30) * d
        hit, _, _, _ = seg([p1, p1], [p2, p2], [a, v], [v, b])
        misses += not hit.any()
    assert misses == 0
    assert EPS == 1e-9
