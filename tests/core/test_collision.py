"""Tests for asteroids.core.shots.first_hits (T9, T10 of determinism-and-robustness.md).

Two oracles: a brute-force pure-Python reference that spells out the same float formulas
(results must be bit-identical), and exact ``fractions.Fraction`` arithmetic on integer scenes,
where every product is exact, so the library must agree with exact geometry exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.geometry import EPS, transform_outlines
from asteroids.core.shots import Hits, first_hits, first_hits_small

SETTINGS = settings(derandomize=True, database=None, max_examples=150, deadline=None)
WORLD = (1920.0, 1080.0)


# ------------------------------------------------------------------------------------------
# reference implementation (pure Python floats, same formulas, every image, every edge)
# ------------------------------------------------------------------------------------------


def _ref_parallel(px, py, rx, ry, ax, ay, sx, sy):
    qx, qy = ax - px, ay - py
    m = max(max(max(abs(qx), abs(qy)), max(abs(rx), abs(ry))), max(abs(sx), abs(sy)))
    unit = math.ldexp(1.0, math.frexp(m if m > 0.0 else 1.0)[1])
    qx, qy, rx, ry, sx, sy = qx / unit, qy / unit, rx / unit, ry / unit, sx / unit, sy / unit
    rr = rx * rx + ry * ry
    ss = sx * sx + sy * sy
    big = max(rr, ss)
    eps2 = EPS * EPS
    den = rx * sy - ry * sx
    if den != 0.0:  # underflowed in world units only
        tn = qx * sy - qy * sx
        un = qx * ry - qy * rx
        lim = abs(den) * (1.0 + 2.0 * EPS)
        if not (abs(tn + tn - den) <= lim and abs(un + un - den) <= lim):
            return None
        t, u = tn / den, un / den
        if u <= EPS or u >= 1.0 - EPS:
            vx, vy = (qx, qy) if u <= EPS else (qx + sx, qy + sy)
            t = (vx * rx + vy * ry) / (rr if rr > 0.0 else 1.0)
        return min(max(t, 0.0), 1.0)
    if rr > 0.0:
        cr = qx * ry - qy * rx
        if cr * cr <= eps2 * big * rr:
            ta = (qx * rx + qy * ry) / rr
            tb = ((qx + sx) * rx + (qy + sy) * ry) / rr
            lo = max(min(ta, tb), 0.0)
            hi = min(max(ta, tb), 1.0)
            if lo <= hi + EPS:
                return min(lo, 1.0)
        return None
    if ss > 0.0:
        cr2 = qx * sy - qy * sx
        proj = -(qx * sx + qy * sy)
        if cr2 * cr2 <= eps2 * ss * ss and -EPS * ss <= proj <= ss + EPS * ss:
            return 0.0
        return None
    return 0.0 if qx == 0.0 and qy == 0.0 else None


def ref_segment_t(px, py, rx, ry, ax, ay, bx, by):
    """t of shot p + t r against edge a -> b, or None (mirrors candidate_rows/resolve_rows)."""
    sx, sy = bx - ax, by - ay
    qx, qy = ax - px, ay - py
    den = rx * sy - ry * sx
    tn = qx * sy - qy * sx
    un = qx * ry - qy * rx
    lim = abs(den) * (1.0 + 2.0 * EPS)
    if den == 0.0:
        return _ref_parallel(px, py, rx, ry, ax, ay, sx, sy)
    if not (abs(tn + tn - den) <= lim and abs(un + un - den) <= lim):
        return None
    t = tn / den
    u = un / den
    if u <= EPS or u >= 1.0 - EPS:
        vx, vy = (ax, ay) if u <= EPS else (bx, by)
        rr = rx * rx + ry * ry
        t = ((vx - px) * rx + (vy - py) * ry) / (rr if rr > 0.0 else 1.0)
    return min(max(t, 0.0), 1.0)


def ref_shot(starts, ends, s, world):
    """Start and displacement of shot ``s``, the displacement as the minimum image when the
    world wraps."""
    sx, sy = float(starts[s][0]), float(starts[s][1])
    dx, dy = float(ends[s][0]) - sx, float(ends[s][1]) - sy
    if world is not None:
        w, h = world
        dx = (dx + 0.5 * w) % w - 0.5 * w
        dy = (dy + 0.5 * h) % h - 0.5 * h
    return sx, sy, dx, dy


def ref_all_hits(starts, ends, points, offsets, world=None, motion=None):
    """Every (shot, body, edge, t) hit, brute force over all images."""
    out = []
    nb = len(offsets) - 1
    images = [(0, 0)] if world is None else [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    for s in range(len(starts)):
        sx, sy, dx, dy = ref_shot(starts, ends, s, world)
        for b in range(nb):
            o0, o1 = int(offsets[b]), int(offsets[b + 1])
            n = o1 - o0
            rx, ry = dx, dy
            if motion is not None:
                rx, ry = dx - float(motion[b][0]), dy - float(motion[b][1])
            for kx, ky in images:
                px = sx - (kx * world[0] if world else 0.0)
                py = sy - (ky * world[1] if world else 0.0)
                crossings = 0
                best_d2, best_e = math.inf, -1
                for i in range(n):
                    ax, ay = float(points[o0 + i][0]), float(points[o0 + i][1])
                    j = o0 + (i + 1) % n
                    bx, by = float(points[j][0]), float(points[j][1])
                    t = ref_segment_t(px, py, rx, ry, ax, ay, bx, by)
                    if t is not None:
                        out.append((s, b, i, t, False))
                    qx, qy = ax - px, ay - py
                    sxe, sye = bx - ax, by - ay
                    tn = qx * sye - qy * sxe
                    if ((ay > py) != (by > py)) and tn * sye > 0.0:
                        crossings += 1
                    ss = sxe * sxe + sye * sye
                    u = -(qx * sxe + qy * sye) / (ss if ss > 0.0 else 1.0)
                    u = min(max(u, 0.0), 1.0)
                    cx, cy = qx + u * sxe, qy + u * sye
                    d2 = cx * cx + cy * cy
                    if d2 < best_d2:
                        best_d2, best_e = d2, i
                if crossings % 2:
                    out.append((s, b, best_e, 0.0, True))
    return out


def ref_first_hits(starts, ends, points, offsets, world=None, motion=None):
    hits = ref_all_hits(starts, ends, points, offsets, world, motion)
    n = len(starts)
    best: dict[int, tuple[float, int, int]] = {}
    for s, b, e, t, _ in hits:
        key = (t, b, e)
        if s not in best or key < best[s]:
            best[s] = key
    body = [-1] * n
    edge = [-1] * n
    ts = [math.inf] * n
    pts = [(math.nan, math.nan)] * n
    for s, (t, b, e) in best.items():
        body[s], edge[s], ts[s] = b, e, t
        sx, sy, dx, dy = ref_shot(starts, ends, s, world)
        x, y = sx + t * dx, sy + t * dy
        if world is not None:
            x, y = x % world[0], y % world[1]
            x = 0.0 if x >= world[0] else x
            y = 0.0 if y >= world[1] else y
            x, y = x + 0.0, y + 0.0
        pts[s] = (x, y)
    return body, edge, ts, pts


def assert_same(h: Hits, ref) -> None:
    body, edge, ts, pts = ref
    assert h.body.tolist() == body
    assert h.edge.tolist() == edge
    assert h.t.tolist() == ts
    got = h.point.tolist()
    for g, r in zip(got, pts, strict=True):
        if math.isnan(r[0]):
            assert math.isnan(g[0]) and math.isnan(g[1])
        else:
            assert g == list(r)


# ------------------------------------------------------------------------------------------
# scenes
# ------------------------------------------------------------------------------------------


def make_scene(n, s, seed, *, m=12, world=WORLD, aimed=0.8, ragged=False, motion=False):
    rng = np.random.default_rng(seed)
    w, h = world
    counts = rng.integers(3, 13, n) if ragged else np.full(n, m)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    local = []
    for c in counts:
        ang = np.sort(rng.uniform(0, 2 * np.pi, c))
        r = rng.uniform(10, 40) * rng.uniform(0.65, 1.0, c)
        local.append(np.column_stack([r * np.cos(ang), r * np.sin(ang)]))
    local = np.concatenate(local)
    centers = np.column_stack([rng.uniform(0, w, n), rng.uniform(0, h, n)])
    th = rng.uniform(0, 2 * np.pi, n)
    points = transform_outlines(centers, np.column_stack([np.cos(th), np.sin(th)]), local, offsets)
    ln = rng.uniform(10, 30, s)
    dr = rng.uniform(0, 2 * np.pi, s)
    dvec = np.column_stack([np.cos(dr), np.sin(dr)]) * ln[:, None]
    starts = np.column_stack([rng.uniform(0, w, s), rng.uniform(0, h, s)])
    k = int(aimed * s)
    if n and k:
        e = rng.integers(0, offsets[-1], k)
        b = np.searchsorted(offsets, e, side="right") - 1
        nxt = np.where(e + 1 == offsets[b + 1], offsets[b], e + 1)
        u = rng.uniform(0, 1, (k, 1))
        on = points[e] + u * (points[nxt] - points[e])
        starts[:k] = on - rng.uniform(0.1, 0.9, (k, 1)) * dvec[:k]
    ends = starts + dvec
    mot = rng.uniform(-10, 10, (n, 2)) if motion else None
    return starts, ends, points, offsets, mot


# ------------------------------------------------------------------------------------------
# agreement with the reference
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("wrap", [False, True])
@pytest.mark.parametrize("motion", [False, True])
def test_matches_reference_bit_for_bit(seed: int, wrap: bool, motion: bool) -> None:
    starts, ends, points, offsets, mot = make_scene(
        25, 40, seed, ragged=seed % 2 == 1, motion=motion
    )
    world = WORLD if wrap else None
    if wrap:  # push some bodies and shots across the seams
        shift = np.array([60.0, 40.0]) * (seed % 3)
        points = points - shift
        starts = starts - shift
        ends = ends - shift
    ref = ref_first_hits(starts, ends, points, offsets, world, mot)
    for method in ("auto", "direct", "sweep"):
        h = first_hits(starts, ends, points, offsets, world_size=world, body_motion=mot,
                       method=method)  # fmt: skip
        assert_same(h, ref)
    assert (np.array(ref[0]) >= 0).sum() > 10


@pytest.mark.parametrize("n,s", [(300, 200), (1000, 60)])
def test_sweep_and_direct_agree_on_dense_scenes(n: int, s: int) -> None:
    for wrap in (None, WORLD):
        starts, ends, points, offsets, mot = make_scene(n, s, n + s, motion=True)
        a = first_hits(starts, ends, points, offsets, world_size=wrap, body_motion=mot,
                       method="direct")  # fmt: skip
        b = first_hits(starts, ends, points, offsets, world_size=wrap, body_motion=mot,
                       method="sweep")  # fmt: skip
        for f in ("body", "edge", "t"):
            assert getattr(a, f).tolist() == getattr(b, f).tolist()
        assert np.array_equal(a.point, b.point, equal_nan=True)


def test_closest_hit_is_not_after_any_other_hit() -> None:
    starts, ends, points, offsets, _ = make_scene(40, 60, 5, aimed=1.0)
    # Long shots cross several edges.
    ends = starts + (ends - starts) * 8.0
    h = first_hits(starts, ends, points, offsets)
    all_hits = ref_all_hits(starts, ends, points, offsets)
    multi = 0
    for s in range(len(starts)):
        ts = [t for ss, _, _, t, _ in all_hits if ss == s]
        if ts:
            assert h.t[s] == min(ts)
            multi += len(ts) > 1
        else:
            assert h.body[s] == -1
    assert multi > 20


# ------------------------------------------------------------------------------------------
# exact oracle on integer scenes
# ------------------------------------------------------------------------------------------


def exact_first_hits(starts, ends, polys):
    """Exact (Fraction) first hit per shot: ``(t, body, edge, allowed_edges)`` or None.

    A start inside a polygon hits at t = 0 on the nearest edge; when several edges are exactly
    equally near, float rounding may pick any of them (``allowed_edges``)."""
    out = []
    for (sx, sy), (ex, ey) in zip(starts, ends, strict=True):
        px, py = Fraction(sx), Fraction(sy)
        rx, ry = Fraction(ex) - px, Fraction(ey) - py
        best = None
        for b, poly in enumerate(polys):
            n = len(poly)
            inside = False
            for i in range(n):
                ax, ay = map(Fraction, poly[i])
                bx, by = map(Fraction, poly[(i + 1) % n])
                t = _exact_t(px, py, rx, ry, ax, ay, bx - ax, by - ay)
                if t is not None and (best is None or (t, b, i) < best[:3]):
                    best = (t, b, i, {i})
                if (ay > py) != (by > py) and (ax - px) * (by - ay) - (ay - py) * (bx - ax) != 0:
                    if ((ax - px) * (by - ay) - (ay - py) * (bx - ax)) * (by - ay) > 0:
                        inside = not inside
            if inside:
                d2 = [_exact_d2(px, py, poly, i) for i in range(n)]
                near = {i for i in range(n) if d2[i] == min(d2)}
                if best is None or (Fraction(0), b, min(near)) < best[:3]:
                    best = (Fraction(0), b, min(near), near)
        out.append(best)
    return out


def _exact_t(px, py, rx, ry, ax, ay, sx, sy):
    den = rx * sy - ry * sx
    qx, qy = ax - px, ay - py
    if den != 0:
        t = (qx * sy - qy * sx) / den
        u = (qx * ry - qy * rx) / den
        return t if 0 <= t <= 1 and 0 <= u <= 1 else None
    if qx * ry - qy * rx != 0 or qx * sy - qy * sx != 0:
        return None
    rr = rx * rx + ry * ry
    if rr == 0:
        ss = sx * sx + sy * sy
        if ss == 0:
            return Fraction(0) if qx == 0 and qy == 0 else None
        u = -(qx * sx + qy * sy) / ss
        return Fraction(0) if 0 <= u <= 1 else None
    ta = (qx * rx + qy * ry) / rr
    tb = ((qx + sx) * rx + (qy + sy) * ry) / rr
    lo, hi = max(min(ta, tb), Fraction(0)), min(max(ta, tb), Fraction(1))
    return lo if lo <= hi else None


def _exact_d2(px, py, poly, i):
    ax, ay = map(Fraction, poly[i])
    bx, by = map(Fraction, poly[(i + 1) % len(poly)])
    sx, sy = bx - ax, by - ay
    ss = sx * sx + sy * sy
    u = Fraction(0) if ss == 0 else min(max(((px - ax) * sx + (py - ay) * sy) / ss, 0), 1)
    cx, cy = ax + u * sx - px, ay + u * sy - py
    return cx * cx + cy * cy


def _star(cx: int, cy: int, radii: list[int], n: int) -> list[tuple[int, int]]:
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n
        r = radii[i % len(radii)]
        pts.append((cx + round(r * math.cos(a)), cy + round(r * math.sin(a))))
    return pts


coord_i = st.integers(-60, 60)


@SETTINGS
@given(
    st.lists(
        st.tuples(coord_i, coord_i, st.lists(st.integers(4, 30), min_size=1, max_size=4),
                  st.integers(3, 9)),
        min_size=1, max_size=4,
    ),
    st.lists(st.tuples(coord_i, coord_i, coord_i, coord_i), min_size=1, max_size=8),
)  # fmt: skip
def test_integer_scenes_match_exact_oracle(bodies, shots) -> None:
    polys = [_star(cx, cy, radii, n) for cx, cy, radii, n in bodies]
    points = np.array([p for poly in polys for p in poly], dtype=float)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in polys])])
    starts = np.array([(a, b) for a, b, _, _ in shots], dtype=float)
    ends = np.array([(a + c, b + d) for a, b, c, d in shots], dtype=float)
    h = first_hits(starts, ends, points, offsets)
    exact = exact_first_hits(starts.tolist(), ends.tolist(), polys)
    for s, ex in enumerate(exact):
        if ex is None:
            assert h.body[s] == -1 and h.t[s] == np.inf
        else:
            t, b, _, allowed = ex
            assert h.body[s] == b and h.edge[s] in allowed, (s, ex)
            assert h.t[s] == float(t)


def test_shared_vertices_exact_integer_cases() -> None:
    """>= 2000 shots through shared vertices of integer polygons: never missed, and the one
    result is the exact first hit (ties between the two edges -> lowest edge index)."""
    rng = np.random.default_rng(2024)
    starts, ends, owner, polys = [], [], [], []
    for b in range(60):
        n = int(rng.integers(5, 13))
        # Polygons 400 apart: a shot (<= 64 px from its vertex) can reach only its own.
        cx, cy = 400 * (b % 8), 400 * (b // 8)
        radii = [int(r) for r in rng.integers(15, 60, 3)]
        poly = _star(cx, cy, radii, n)
        if len(set(poly)) < n:
            continue
        polys.append(poly)
        for vx, vy in poly:
            for _ in range(6):
                # Integer direction and steps: the shot passes exactly through the vertex.
                dx, dy = int(rng.integers(-9, 10)), int(rng.integers(-9, 10))
                if dx == 0 and dy == 0:
                    continue
                k0, k1 = int(rng.integers(1, 6)), int(rng.integers(1, 6))
                starts.append((vx - k0 * dx, vy - k0 * dy))
                ends.append((vx + k1 * dx, vy + k1 * dy))
                owner.append(len(polys) - 1)
    assert len(starts) >= 2000
    points = np.array([p for poly in polys for p in poly], dtype=float)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in polys])])
    h = first_hits(np.array(starts, dtype=float), np.array(ends, dtype=float), points, offsets)
    for i, b in enumerate(owner):
        ex = exact_first_hits([starts[i]], [ends[i]], [polys[b]])[0]
        assert ex is not None  # every shot passes through a vertex: never missed
        t, _, _, allowed = ex
        assert h.body[i] == b and h.edge[i] in allowed and h.t[i] == float(t), i


def test_shared_vertices_float_cases_found_once_with_one_t() -> None:
    """Float polygons (cos/sin), shots aimed through a vertex toward the center: rounding puts
    the line a hair beside the vertex, yet the shot is never missed and both edges meeting at
    the vertex report the same t (so the lowest edge wins, once)."""
    rng = np.random.default_rng(99)
    polys, starts, ends, vert = [], [], [], []
    for b in range(250):
        n = int(rng.integers(5, 13))
        c = np.array([400.0 * (b % 16), 400.0 * (b // 16)]) + rng.uniform(-50, 50, 2)
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        r = rng.uniform(15, 60) * rng.uniform(0.65, 1.0, n)
        poly = c + np.column_stack([r * np.cos(ang), r * np.sin(ang)])
        polys.append(poly)
        for i in range(n):
            v = poly[i]
            out = (v - c) / np.sqrt(((v - c) ** 2).sum())
            dirn = out + rng.uniform(-0.3, 0.3, 2)
            starts.append(v + rng.uniform(1, 20) * dirn)
            ends.append(v - rng.uniform(1, 20) * dirn)
            vert.append((b, i, n))
    assert len(starts) >= 2000
    points = np.concatenate(polys)
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in polys])])
    h = first_hits(np.array(starts), np.array(ends), points, offsets)
    ties = 0
    for k, (b, i, n) in enumerate(vert):
        ref = ref_all_hits([starts[k]], [ends[k]], polys[b], [0, n])
        edges = {(e, t) for _, _, e, t, inside in ref if not inside}
        starts_inside = any(inside for *_, inside in ref)
        if not starts_inside:
            assert h.body[k] == b, "no shot through a vertex is missed"
        adjacent = {(i - 1) % n, i}
        ts = {t for e, t in edges if e in adjacent}
        assert len(ts) <= 1, "the two edges at a vertex never disagree on t"
        ties += len([1 for e, _ in edges if e in adjacent]) == 2
        if not starts_inside:
            assert h.edge[k] in adjacent or h.t[k] <= min(ts, default=2.0)
    assert ties > 500


# ------------------------------------------------------------------------------------------
# specific cases
# ------------------------------------------------------------------------------------------

SQUARE = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])


def test_start_inside_hits_at_zero_on_nearest_edge() -> None:
    h = first_hits([[2.0, 5.0], [5.0, 9.0], [5.0, 5.0]], [[4.0, 5.0], [5.0, 9.0], [5.0, 15.0]],
                   SQUARE, [0, 4])  # fmt: skip
    assert h.body.tolist() == [0, 0, 0]
    assert h.t.tolist() == [0.0, 0.0, 0.0]
    assert h.edge.tolist() == [3, 2, 0]  # nearest edges; the tie at the center -> lowest
    assert h.point.tolist() == [[2.0, 5.0], [5.0, 9.0], [5.0, 5.0]]


def test_zero_length_shots() -> None:
    h = first_hits([[20.0, 5.0], [10.0, 5.0], [5.0, 5.0]], [[20.0, 5.0], [10.0, 5.0], [5.0, 5.0]],
                   SQUARE, [0, 4])  # fmt: skip
    assert h.body.tolist() == [-1, 0, 0]  # outside: miss; on the edge: hit; inside: hit
    assert h.edge.tolist()[1] == 1
    assert h.t.tolist() == [np.inf, 0.0, 0.0]


def test_parallel_and_colinear_grazing() -> None:
    starts = [[-5.0, 0.0], [-5.0, -1.0], [12.0, 0.0], [15.0, 0.0], [5.0, 0.0]]
    ends = [[5.0, 0.0], [20.0, -1.0], [20.0, 0.0], [11.0, 0.0], [-3.0, 0.0]]
    h = first_hits(starts, ends, SQUARE, [0, 4])
    # Grazing along the bottom edge hits at the first point of the overlap.
    assert h.body.tolist() == [0, -1, -1, -1, 0]
    assert h.edge.tolist()[0] == 0 and h.t[0] == 0.5
    assert h.point[0].tolist() == [0.0, 0.0]
    assert h.t[4] == 0.0  # starts on the edge


def test_ties_lowest_body_then_edge() -> None:
    two = np.concatenate([SQUARE, SQUARE])
    h = first_hits([[-5.0, -5.0]], [[5.0, 5.0]], two, [0, 4, 8])
    assert (h.body[0], h.edge[0], h.t[0]) == (0, 0, 0.5)  # corner (0,0): edges 3 and 0 tie



@pytest.mark.parametrize("n", [1, 4200])  # 2 hit rows each: sorted, and past 4 096 rows
def test_ties_lowest_body_then_edge_across_bodies_in_crowds(n: int) -> None:
    # Body 0's last edge (3: x = 0, the square's left side) and body 1's first edge (0: the
    # triangle's side on x = 0) are met at the same t; body 0 wins, however many shots.
    triangle = np.array([[0.0, 0.0], [0.0, 10.0], [10.0, 10.0]])
    h = first_hits([[-5.0, 5.0]] * n, [[5.0, 5.0]] * n, np.concatenate([SQUARE, triangle]),
                   [0, 4, 7])
    assert h.body.tolist() == [0] * n and h.edge.tolist() == [3] * n
    assert h.t.tolist() == [0.5] * n


def test_body_motion_head_on_no_tunnelling() -> None:
    # Shot at 1200 px/s (20 px/tick at 60 Hz) against a small rock at 600 px/s head-on.
    r = 4.0
    ang = np.arange(8) * (2 * np.pi / 8)
    local = np.column_stack([r * np.cos(ang), r * np.sin(ang)])
    rock_start = np.array([105.0, 50.0])
    outline = local + rock_start
    start, end = np.array([[80.0, 50.0]]), np.array([[100.0, 50.0]])
    motion = np.array([[-10.0, 0.0]])
    h = first_hits(start, end, outline, [0, 8], body_motion=motion)
    assert h.body[0] == 0
    assert h.t[0] == pytest.approx(0.7)
    assert h.point[0].tolist() == pytest.approx([94.0, 50.0])
    # The static tests miss it: start-of-tick outline, and the end-of-tick point test.
    assert first_hits(start, end, outline, [0, 8]).body[0] == -1
    end_outline = outline + motion
    inside_end = first_hits(end, end, end_outline, [0, 8])
    assert inside_end.body[0] == -1


def test_body_motion_tunnelling_grid() -> None:
    """T10 in miniature: 600/1200 px/s shots vs r = 8 rocks at 0/150 px/s, true crossings."""
    rng = np.random.default_rng(10)
    misses = 0
    total = 0
    for shot_speed in (10.0, 20.0):
        for rock_speed in (0.0, 2.5):
            n = 400
            ang = np.arange(12) * (2 * np.pi / 12)
            local = np.column_stack([8 * np.cos(ang), 8 * np.sin(ang)])
            centers = rng.uniform(100, 900, (n, 2))
            heading = rng.uniform(0, 2 * np.pi, n)
            mv = rock_speed * np.column_stack([np.cos(heading), np.sin(heading)])
            # Shot passes through the rock's center at a random moment of the tick.
            tau = rng.uniform(0, 1, n)
            sd = rng.uniform(0, 2 * np.pi, n)
            d = shot_speed * np.column_stack([np.cos(sd), np.sin(sd)])
            meet = centers + tau[:, None] * mv
            starts = meet - tau[:, None] * d
            ends = starts + d
            for k in range(n):
                h = first_hits(starts[k : k + 1], ends[k : k + 1], local + centers[k], [0, 12],
                               body_motion=mv[k : k + 1])  # fmt: skip
                misses += h.body[0] != 0
                total += 1
    assert total == 1600 and misses == 0


def test_wrap_body_straddling_seam_hit_from_far_side() -> None:
    body = SQUARE - np.array([5.0, -100.0])  # x in [-5, 5]: straddles x = 0
    w, h = WORLD
    starts = [[w - 10.0, 105.0], [w - 10.0, 105.0], [15.0, 103.0]]
    ends = [[w + 10.0, 105.0], [10.0, 105.0], [w - 15.0 + 10.0, 103.0]]
    hit = first_hits(starts, ends, body, [0, 4], world_size=WORLD)
    assert hit.body.tolist() == [0, 0, 0]
    # Given unwrapped or wrapped, the same hit: x = W - 5 (the body's image at the right).
    assert hit.t[0] == hit.t[1] == 0.25
    assert hit.point[0].tolist() == [w - 5.0, 105.0]
    assert hit.point[1].tolist() == [w - 5.0, 105.0]
    # The third shot travels left across x = 0 from 15 and hits the body's right edge at x=5.
    assert hit.point[2].tolist() == [5.0, 103.0]
    # Without wrap the first two shots miss.
    assert first_hits(starts[:2], ends[:2], body, [0, 4]).body.tolist() == [-1, -1]


def test_wrap_corner_and_point_wrapped_into_world() -> None:
    w, h = WORLD
    body = SQUARE + np.array([w - 5.0, h - 5.0])  # straddles the top-right corner
    starts = [[8.0, 8.0], [w - 20.0, h - 2.0]]
    ends = [[-3.0, -3.0], [w + 10.0, h - 2.0]]
    hit = first_hits(starts, ends, body, [0, 4], world_size=WORLD)
    assert hit.body.tolist() == [0, 0]
    assert (hit.point >= 0).all() and (hit.point[:, 0] < w).all() and (hit.point[:, 1] < h).all()
    assert hit.point[1].tolist() == [w - 5.0, h - 2.0]
    assert hit.point[0].tolist() == pytest.approx([5.0, 5.0], abs=1e-12)


def test_wrap_matches_reference_near_seams() -> None:
    rng = np.random.default_rng(77)
    starts, ends, points, offsets, mot = make_scene(30, 80, 77, motion=True)
    # Put every body near a border and every shot across one.
    w, h = WORLD
    shift = np.repeat(rng.choice([-1.0, 1.0], (30, 2)) * rng.uniform(0, 30, (30, 2)), 12, 0)
    points = np.where(points > np.array([w / 2, h / 2]), points - np.array([w / 2, h / 2]), points)
    points = points + shift
    ref = ref_first_hits(starts, ends, points, offsets, WORLD, mot)
    for method in ("direct", "sweep"):
        hh = first_hits(starts, ends, points, offsets, world_size=WORLD, body_motion=mot,
                        method=method)  # fmt: skip
        assert_same(hh, ref)


# ------------------------------------------------------------------------------------------
# input validation and purity
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["starts", "ends", "points", "body_motion"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_inf_raise_value_error(field: str, bad: float) -> None:
    args = {
        "starts": np.array([[1.0, 1.0]]),
        "ends": np.array([[2.0, 2.0]]),
        "points": SQUARE.copy(),
        "body_motion": np.zeros((1, 2)),
    }
    args[field][0, 0] = bad
    for world in (None, WORLD):
        with pytest.raises(ValueError, match=f"{field} contains NaN or inf"):
            first_hits(args["starts"], args["ends"], args["points"], [0, 4],
                       body_motion=args["body_motion"], world_size=world)  # fmt: skip


@pytest.mark.parametrize(
    "offsets,msg",
    [
        ([0, 3], "end at 4"),
        ([1, 4], "start at 0"),
        ([0, 2, 2, 4], "strictly"),
        ([0.0, 4.0], "integer"),
    ],
)
def test_bad_offsets(offsets, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        first_hits([[1.0, 1.0]], [[2.0, 2.0]], SQUARE, offsets)


def test_bad_shapes_and_world() -> None:
    with pytest.raises(ValueError, match="shape"):
        first_hits([1.0, 1.0], [[2.0, 2.0]], SQUARE, [0, 4])
    with pytest.raises(ValueError, match="rows"):
        first_hits([[1.0, 1.0]], [[2.0, 2.0], [3.0, 3.0]], SQUARE, [0, 4])
    with pytest.raises(ValueError, match="world_size"):
        first_hits([[1.0, 1.0]], [[2.0, 2.0]], SQUARE, [0, 4], world_size=(0.0, 10.0))
    with pytest.raises(ValueError, match="world_size"):
        first_hits([[1.0, 1.0]], [[2.0, 2.0]], SQUARE, [0, 4], world_size=(np.nan, 10.0))
    with pytest.raises(ValueError, match="body_motion"):
        first_hits([[1.0, 1.0]], [[2.0, 2.0]], SQUARE, [0, 4], body_motion=np.zeros((2, 2)))


def test_empty_inputs() -> None:
    h = first_hits(np.zeros((0, 2)), np.zeros((0, 2)), SQUARE, [0, 4])
    assert h.body.shape == (0,) and h.point.shape == (0, 2)
    h = first_hits([[1.0, 1.0]], [[2.0, 2.0]], np.zeros((0, 2)), [0])
    assert h.body.tolist() == [-1] and h.t.tolist() == [np.inf]
    assert h.hit.tolist() == [False]


@pytest.mark.parametrize("method", ["auto", "direct", "sweep"])
@pytest.mark.parametrize("bodies", [0, 1])
def test_a_shot_that_hits_nothing_reads_as_no_hit(method: str, bodies: int) -> None:
    # What ``Hits`` documents for no hit: body == edge == -1, t == inf, point NaN (int64
    # indices), whether there is nothing to hit or the one body is far from the shot.
    points, offsets = (SQUARE, [0, 4]) if bodies else (np.zeros((0, 2)), [0])
    h = first_hits([[50.0, 50.0], [60.0, 50.0]], [[51.0, 51.0], [61.0, 52.0]], points, offsets,
                   method=method)
    assert h.body.tolist() == [-1, -1] and h.edge.tolist() == [-1, -1]
    assert h.body.dtype == h.edge.dtype == np.int64
    assert h.t.tolist() == [np.inf, np.inf] and np.isnan(h.point).all()


def test_deterministic_and_inputs_untouched() -> None:
    starts, ends, points, offsets, mot = make_scene(200, 300, 3, motion=True)
    copies = [a.copy() for a in (starts, ends, points, offsets, mot)]
    a = first_hits(starts, ends, points, offsets, world_size=WORLD, body_motion=mot)
    b = first_hits(starts, ends, points, offsets, world_size=WORLD, body_motion=mot)
    for x, y in zip((starts, ends, points, offsets, mot), copies, strict=True):
        assert np.array_equal(x, y)
    assert a.body.dtype == np.int64 and a.edge.dtype == np.int64 and a.t.dtype == np.float64
    for f in ("body", "edge", "t"):
        assert getattr(a, f).tobytes() == getattr(b, f).tobytes()
    assert np.array_equal(a.point, b.point, equal_nan=True)


def test_raises_under_strict_float_errors() -> None:
    """No hidden division by zero or overflow on the tick path (np.seterr(all='raise'))."""
    starts, ends, points, offsets, mot = make_scene(100, 100, 8, motion=True)
    starts[:5] = ends[:5]  # zero-length shots
    with np.errstate(all="raise"):
        first_hits(starts, ends, points, offsets, world_size=WORLD, body_motion=mot)
        first_hits(starts, ends, points, offsets, method="sweep")


# ------------------------------------------------------------------------------------------
# the fused small-scene path (method="auto", few shot-body pairs) vs the general path
# ------------------------------------------------------------------------------------------


def _same_bits(a: Hits, b: Hits) -> None:
    for f in ("body", "edge", "t", "point"):
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes(), f


@pytest.mark.parametrize("seed", range(6))
def test_small_scene_path_is_bit_identical_to_general_path(seed: int) -> None:
    """``auto`` takes the fused path on small uniform scenes; ``direct`` is the general path.
    Integer-rounded scenes make shared vertices, starts on edges (t = 0, signed zeros) and
    parallel edges common; some shots have zero length."""
    rng = np.random.default_rng(seed)
    taken = 0
    for _ in range(30):
        n, s = int(rng.integers(1, 31)), int(rng.integers(1, 13))
        starts, ends, points, offsets, mot = make_scene(
            n, s, int(rng.integers(1 << 30)), motion=bool(rng.integers(2))
        )
        if rng.integers(2):
            points, starts, ends = np.round(points), np.round(starts), np.round(ends)
            if mot is not None:
                mot = np.round(mot)
        ends[: s // 4] = starts[: s // 4]
        for world in (None, WORLD):
            if world is not None and seed % 2:  # push across the seams
                starts, ends, points = starts - 30.0, ends - 30.0, points - 30.0
            args = (starts, ends, points, offsets)
            taken += first_hits_small(*args, world, mot) is not None
            _same_bits(first_hits(*args, world_size=world, body_motion=mot),
                       first_hits(*args, world_size=world, body_motion=mot, method="direct"))
    assert taken >= 50


def test_small_scene_path_edge_cases_match_general_path() -> None:
    """Shots starting on edges and vertices, along edges, through shared vertices, with
    signed zeros, against two squares sharing an edge; plain and wrapping, with motion."""
    sq = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])
    two = np.concatenate([sq, sq + [4.0, 0.0]])
    vals = np.array([-1.0, -0.0, 0.0, 1.0, 2.0, 4.0, 5.0, 8.0])
    rng = np.random.default_rng(11)
    for _ in range(400):
        p = rng.choice(vals, (4, 2))
        q = p.copy() if rng.random() < 0.2 else rng.choice(vals, (4, 2))
        mot = rng.choice([-0.0, 0.0, 1.0, -2.0, 0.5], (2, 2)) if rng.random() < 0.5 else None
        for world in (None, (8.0, 8.0), (16.0, 12.0)):
            _same_bits(first_hits(p, q, two, [0, 4, 8], world_size=world, body_motion=mot),
                       first_hits(p, q, two, [0, 4, 8], world_size=world, body_motion=mot,
                                  method="direct"))  # fmt: skip
