"""Tests for the circle and polygon queries of asteroids.core.contacts and .overlap (T11
pieces, T12)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core.contacts import (
    circle_circle_contact,
    circle_cross_pairs,
    circle_pairs,
    circle_polygon_contacts,
    circle_segment_contacts,
)
from asteroids.core.overlap import polygons_overlap

SETTINGS = settings(derandomize=True, database=None, max_examples=100, deadline=None)
WORLD = (1920.0, 1080.0)


def _min_image(d: float, size: float) -> float:
    return (d + 0.5 * size) % size - 0.5 * size


def brute_pairs(c, r, world=None):
    out = []
    for i in range(len(c)):
        for j in range(i + 1, len(c)):
            dx, dy = c[j][0] - c[i][0], c[j][1] - c[i][1]
            if world:
                dx, dy = _min_image(dx, world[0]), _min_image(dy, world[1])
            if dx * dx + dy * dy <= (r[i] + r[j]) * (r[i] + r[j]):
                out.append((i, j))
    return out


def brute_cross(ca, ra, cb, rb, world=None):
    out = []
    for i in range(len(ca)):
        for j in range(len(cb)):
            dx, dy = cb[j][0] - ca[i][0], cb[j][1] - ca[i][1]
            if world:
                dx, dy = _min_image(dx, world[0]), _min_image(dy, world[1])
            if dx * dx + dy * dy <= (ra[i] + rb[j]) * (ra[i] + rb[j]):
                out.append((i, j))
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 30, 250, 700])
@pytest.mark.parametrize("world", [None, WORLD])
def test_circle_pairs_match_brute_force(n: int, world) -> None:
    rng = np.random.default_rng(n)
    c = np.column_stack([rng.uniform(-20, 1940, n), rng.uniform(-20, 1100, n)])
    r = rng.uniform(10, 40, n)
    expect = brute_pairs(c.tolist(), r.tolist(), world)
    for method in ("auto", "direct", "sweep"):
        i, j = circle_pairs(c, r, world_size=world, method=method)
        assert list(zip(i.tolist(), j.tolist(), strict=True)) == expect
        assert i.dtype == np.int64


def test_circle_pairs_touching_and_coincident() -> None:
    i, j = circle_pairs([[0.0, 0.0], [3.0, 0.0], [3.0, 0.0], [100.0, 0.0]], [1.0, 2.0, 0.0, 1.0])
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == [(0, 1), (1, 2)]
    # Across the seam with wrap only.
    c = [[2.0, 500.0], [1915.0, 500.0]]
    assert circle_pairs(c, [5.0, 5.0])[0].tolist() == []
    assert circle_pairs(c, [5.0, 5.0], world_size=WORLD)[0].tolist() == [0]


@pytest.mark.parametrize("world", [None, WORLD])
def test_circle_cross_pairs_match_brute_force(world) -> None:
    rng = np.random.default_rng(5)
    ca = rng.uniform(0, 1080, (300, 2))
    ra = rng.uniform(1, 30, 300)
    cb = rng.uniform(0, 1080, (400, 2))
    rb = rng.uniform(5, 40, 400)
    expect = brute_cross(ca.tolist(), ra.tolist(), cb.tolist(), rb.tolist(), world)
    for method in ("auto", "direct", "sweep"):
        ia, ib = circle_cross_pairs(ca, ra, cb, rb, world_size=world, method=method)
        assert list(zip(ia.tolist(), ib.tolist(), strict=True)) == expect


def test_big_circles_in_small_world_all_images() -> None:
    # Circles larger than half the world: every image is considered, pairs reported once.
    c = np.array([[10.0, 10.0], [90.0, 90.0], [50.0, 50.0]])
    r = np.array([30.0, 30.0, 1.0])
    i, j = circle_pairs(c, r, world_size=(100.0, 100.0))
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == brute_pairs(c.tolist(), r.tolist(),
                                                                         (100.0, 100.0))


def test_circle_validation() -> None:
    with pytest.raises(ValueError, match="radii"):
        circle_pairs([[0.0, 0.0]], [-1.0])
    with pytest.raises(ValueError, match="NaN"):
        circle_pairs([[np.nan, 0.0]], [1.0])
    with pytest.raises(ValueError, match="radii"):
        circle_pairs([[0.0, 0.0]], [np.inf])
    with pytest.raises(ValueError, match="shape"):
        circle_cross_pairs([[0.0, 0.0]], [1.0, 2.0], [[0.0, 0.0]], [1.0])


coordf = st.floats(-500, 500, allow_nan=False)


@SETTINGS
@given(coordf, coordf, coordf, coordf, st.floats(0, 50), st.floats(0, 50))
def test_circle_circle_contact_properties(x1, y1, x2, y2, r1, r2) -> None:
    ov, n, depth = circle_circle_contact([[x1, y1]], [r1], [[x2, y2]], [r2])
    ov2, n2, depth2 = circle_circle_contact([[x2, y2]], [r2], [[x1, y1]], [r1])
    assert np.isfinite(n).all() and np.isfinite(depth).all()
    assert math.sqrt(n[0, 0] ** 2 + n[0, 1] ** 2) == pytest.approx(1.0)
    assert ov[0] == ov2[0] and depth[0] == depth2[0]
    if (x1, y1) != (x2, y2):
        assert n2.tolist() == (-n + 0.0).tolist()
    dist = math.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2)
    assert depth[0] == pytest.approx(r1 + r2 - dist, abs=1e-9)


def test_circle_circle_contact_coincident_and_wrap() -> None:
    ov, n, depth = circle_circle_contact([[5.0, 5.0]], [1.0], [[5.0, 5.0]], [2.0])
    assert ov.tolist() == [True] and n.tolist() == [[1.0, 0.0]] and depth.tolist() == [3.0]
    ov, n, _ = circle_circle_contact([[1915.0, 5.0]], [4.0], [[3.0, 5.0]], [4.0],
                                     world_size=WORLD)  # fmt: skip
    assert ov.tolist() == [True] and n.tolist() == [[1.0, 0.0]]


SQUARE = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])


def test_circle_segment_contacts_cases() -> None:
    c = np.array([
        [13.0, 5.0],  # side contact with edge 1
        [12.0, 12.0],  # vertex contact at (10, 10)
        [5.0, 5.0],  # big circle: all edges wholly inside the circle
        [5.0, 2.0],  # center inside: normal points out through the nearest edge (0)
        [30.0, 30.0],  # far away
    ])
    r = np.array([4.0, 3.0, 20.0, 1.0, 2.0])
    cc = circle_segment_contacts(c, r, SQUARE, [0, 4])
    assert cc.circle.tolist() == [0, 1, 2, 3]
    assert cc.body.tolist() == [0, 0, 0, 0]
    assert cc.edge.tolist() == [1, 1, 0, 0]
    np.testing.assert_allclose(cc.depth, [1.0, 3.0 - math.sqrt(8.0), 25.0, 3.0])
    np.testing.assert_allclose(
        cc.normal, [[1.0, 0.0], [math.sqrt(0.5), math.sqrt(0.5)], [0.0, -1.0], [0.0, -1.0]]
    )
    np.testing.assert_allclose(cc.point, [[10.0, 5.0], [10.0, 10.0], [5.0, 0.0], [5.0, 0.0]])
    assert circle_polygon_contacts is circle_segment_contacts


def test_circle_on_outline_uses_outward_edge_normal() -> None:
    cw = SQUARE[::-1].copy()
    for pts in (SQUARE, cw):
        cc = circle_segment_contacts([[10.0, 5.0]], [1.0], pts, [0, 4])
        assert cc.normal.tolist() == [[1.0, 0.0]] and cc.depth.tolist() == [1.0]


def test_circle_segment_contacts_wrap_and_brute_force() -> None:
    rng = np.random.default_rng(4)
    polys = []
    for _ in range(40):
        n = int(rng.integers(3, 10))
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        rad = rng.uniform(10, 40) * rng.uniform(0.6, 1, n)
        c = rng.uniform(0, 1000, 2)
        polys.append(c + np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]))
    pts = np.concatenate(polys)
    offs = np.concatenate([[0], np.cumsum([len(p) for p in polys])])
    centers = rng.uniform(0, 1000, (200, 2))
    radii = rng.uniform(5, 30, 200)
    cc = circle_segment_contacts(centers, radii, pts, offs, method="direct")
    cc2 = circle_segment_contacts(centers, radii, pts, offs, method="sweep")
    for f in ("circle", "body", "edge", "depth", "normal", "point"):
        assert np.array_equal(getattr(cc, f), getattr(cc2, f))
    # Brute force: a contact iff the center is within r of some edge, or inside.
    from shapely.geometry import Point, Polygon

    expect = []
    for i, (c, r) in enumerate(zip(centers, radii, strict=True)):
        for b, poly in enumerate(polys):
            pg = Polygon(poly)
            if pg.exterior.distance(Point(c)) <= r or pg.contains(Point(c)):
                expect.append((i, b))
    assert list(zip(cc.circle.tolist(), cc.body.tolist(), strict=True)) == expect
    assert (cc.depth >= 0).all()
    # Wrap: a polygon straddling the seam touches a circle on the other side.
    body = SQUARE + np.array([-5.0, 100.0])
    w = circle_segment_contacts([[1915.0, 105.0]], [1.0], body, [0, 4], world_size=WORLD)
    assert w.body.tolist() == [0] and w.depth.tolist() == [1.0]
    assert w.point.tolist() == [[1915.0, 105.0]] or w.point[0, 0] == 1915.0


def test_polygons_overlap_vs_shapely() -> None:
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import Polygon

    rng = np.random.default_rng(12)

    def poly(c, scale):
        n = int(rng.integers(3, 12))
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        rad = scale * rng.uniform(0.5, 1, n)
        return c + np.column_stack([rad * np.cos(ang), rad * np.sin(ang)])

    a_polys = [poly(rng.uniform(0, 200, 2), rng.uniform(5, 30)) for _ in range(30)]
    b_polys = [poly(rng.uniform(0, 200, 2), rng.uniform(5, 30)) for _ in range(30)]
    pa, pb = np.concatenate(a_polys), np.concatenate(b_polys)
    oa = np.concatenate([[0], np.cumsum([len(p) for p in a_polys])])
    ob = np.concatenate([[0], np.cumsum([len(p) for p in b_polys])])
    ia, ib = np.meshgrid(np.arange(30), np.arange(30), indexing="ij")
    ia, ib = ia.ravel(), ib.ravel()
    got = polygons_overlap(pa, oa, pb, ob, ia, ib)
    expect = [
        Polygon(a_polys[i]).buffer(0).intersects(Polygon(b_polys[j]).buffer(0))
        for i, j in zip(ia, ib, strict=True)
    ]
    valid = [Polygon(a_polys[i]).is_valid and Polygon(b_polys[j]).is_valid
             for i, j in zip(ia, ib, strict=True)]  # fmt: skip
    assert shapely is not None
    mism = [k for k in range(len(ia)) if valid[k] and got[k] != expect[k]]
    assert mism == []
    assert 20 < sum(got) < len(ia) - 20


def test_polygons_overlap_containment_and_wrap() -> None:
    small = np.array([[4.0, 4.0], [6.0, 4.0], [5.0, 6.0]])
    big = SQUARE
    assert polygons_overlap(small, [0, 3], big, [0, 4], [0], [0]).tolist() == [True]
    assert polygons_overlap(big, [0, 4], small, [0, 3], [0], [0]).tolist() == [True]
    far = small + 50.0
    assert polygons_overlap(far, [0, 3], big, [0, 4], [0], [0]).tolist() == [False]
    # Straddling the seam: A near x = W, B near x = 0.
    a = SQUARE + np.array([1915.0, 100.0])
    b = SQUARE + np.array([2.0, 102.0])
    assert polygons_overlap(a, [0, 4], b, [0, 4], [0], [0]).tolist() == [False]
    assert polygons_overlap(a, [0, 4], b, [0, 4], [0], [0], world_size=WORLD).tolist() == [True]
    with pytest.raises(ValueError, match="pairs_b"):
        polygons_overlap(a, [0, 4], b, [0, 4], [0], [1])
