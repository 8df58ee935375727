"""Contact queries between circles, and between circles and polygon outlines.

Which circles overlap (:func:`circle_pairs` within one set, :func:`circle_cross_pairs` across
two: asteroid-asteroid, ship/saucer-asteroid), the contact of given circle pairs (normal and
depth, :func:`circle_circle_contact`, for elastic collisions and pushes), and the deepest
contact of each circle touching a polygon outline (:func:`circle_segment_contacts`, for pushes
out of obstacles). Each is a pure function of numpy arrays: a broad phase
(:mod:`asteroids.core.broadphase`) feeds an exact narrow phase, and results come back sorted,
ties broken by index. With ``world_size=(W, H)`` distances are minimum images on the torus.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import (
    PAD_REL,
    body_boxes,
    box_pairs,
    box_self_pairs,
    check_method,
    stable_order,
)
from asteroids.core.geometry.checks import (
    BoolArray,
    F64Array,
    I64Array,
    as_vec2,
    as_world_size,
    offsets_counts,
    vec2_scale,
)
from asteroids.core.geometry.polygon import (
    orientation_ccw,
    point_segment_distance2,
    points_in_polygons,
)
from asteroids.core.geometry.wrap import wrap_delta, wrap_positions

__all__ = [
    "CircleContacts",
    "circle_circle_contact",
    "circle_cross_pairs",
    "circle_pairs",
    "circle_pairs_in_games",
    "circle_polygon_contacts",
    "circle_segment_contacts",
]


def _unit(x: F64Array, y: F64Array) -> tuple[F64Array, F64Array, F64Array]:
    """Unit vectors and lengths, scaled first so tiny or huge vectors neither underflow nor
    overflow; a zero vector gives the fallback direction (1, 0) and length 0."""
    m = np.maximum(np.abs(x), np.abs(y))
    ok = m > 0.0
    sm = np.where(ok, m, 1.0)
    ux = x / sm
    uy = y / sm
    length = np.sqrt(ux * ux + uy * uy)  # in [1, sqrt(2)] when ok
    sl = np.where(ok, length, 1.0)
    return np.where(ok, ux / sl, 1.0) + 0.0, np.where(ok, uy / sl, 0.0) + 0.0, m * length


def _as_radii(r: ArrayLike, n: int, name: str) -> tuple[F64Array, float]:
    a = np.asarray(r, dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {a.shape}")
    if n == 0:
        return a, 0.0
    lo = float(a.min())
    hi = float(a.max())
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo < 0.0:
        raise ValueError(f"{name} must be finite and >= 0")
    return a, hi


def _sorted_pairs(
    i: I64Array, j: I64Array, n_i: int, n_j: int, dedup: bool
) -> tuple[I64Array, I64Array]:
    """Sort pairs by (i, j) with stable integer sorts; drop repeats when asked."""
    if i.shape[0] > 1:
        o = stable_order(j, max(n_j - 1, 0))
        o = o[stable_order(i[o], max(n_i - 1, 0))]
        i = i[o]
        j = j[o]
        if dedup:
            keep = np.ones(i.shape[0], dtype=bool)
            keep[1:] = (i[1:] != i[:-1]) | (j[1:] != j[:-1])
            i = i[keep]
            j = j[keep]
    return i, j


_SMALL_PAIRS_N = 64
"""Up to this many circles, ``circle_pairs`` tests every pair directly (fewest numpy calls)."""


def _triu(n: int) -> tuple[I64Array, I64Array]:
    """Every pair i < j of ``n``, row-major."""
    i, j = np.triu_indices(n, 1)
    return i.astype(np.int64, copy=False), j.astype(np.int64, copy=False)


def _small_circle_pairs(
    c: F64Array, r: F64Array, world: F64Array | None
) -> tuple[I64Array, I64Array]:
    """Every pair i < j at once; row-major order is already sorted by (i, j)."""
    i, j = _triu(c.shape[0])
    return _touching(c, r, world, i, j)


def _touching(
    c: F64Array, r: F64Array, world: F64Array | None, i: I64Array, j: I64Array
) -> tuple[I64Array, I64Array]:
    """The pairs ``(i, j)`` whose circles touch, in their order. The image is the nearest
    one, ``d - W floor(d / W + 1/2)``; wherever circles touch this is the same whole number
    of periods the broad-phase path adds, so both paths agree bit for bit."""
    x = c[:, 0]
    y = c[:, 1]
    dx = x[j] - x[i]
    dy = y[j] - y[i]
    if world is not None:
        w = float(world[0])
        h = float(world[1])
        dx = dx - np.floor(dx * (1.0 / w) + 0.5) * w
        dy = dy - np.floor(dy * (1.0 / h) + 0.5) * h
    rs = r[i] + r[j]
    k = (dx * dx + dy * dy <= rs * rs).nonzero()[0]
    return i[k], j[k]


def circle_pairs_in_games(
    centers: ArrayLike,
    radii: ArrayLike,
    rows: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
) -> tuple[I64Array, I64Array]:
    """:func:`circle_pairs` of many independent sets at once (a batch's games): the
    circles are packed set after set, set g owning ``rows[g]:rows[g + 1]``; only pairs
    ``i < j`` of one set are tested, each by the test ``circle_pairs`` gives it on its own
    set, so each set's pairs are its own ``circle_pairs`` (shifted by ``rows[g]``), sorted by
    ``(i, j)``.

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf (as ``circle_pairs``).

    >>> circle_pairs_in_games([[0.0, 0.0], [1.0, 0.0], [0.5, 0.0]], [1.0, 1.0, 1.0], [0, 2, 3])
    (array([0]), array([1]))
    """
    c, _ = vec2_scale(centers, "centers")
    r, _ = _as_radii(radii, c.shape[0], "radii")
    world = as_world_size(world_size)
    offs = np.asarray(rows, dtype=np.int64)
    counts = offs[1:] - offs[:-1]
    # Row a (rank k in a set of n) pairs with the n - 1 - k rows after it in its set.
    game = np.arange(counts.shape[0]).repeat(counts)
    after = (offs[1:].take(game) - 1) - np.arange(c.shape[0])
    ends = after.cumsum()
    i = np.arange(c.shape[0]).repeat(after)
    j = i + 1 + (np.arange(i.shape[0]) - (ends - after).take(i))
    return _touching(c, r, world, i, j)


def circle_pairs(
    centers: ArrayLike,
    radii: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    method: str = "auto",
) -> tuple[I64Array, I64Array]:
    """All pairs ``i < j`` of overlapping circles (center distance ``<= r_i + r_j``).

    Args:
        centers: ``(N, 2)`` circle centers, world units.
        radii: ``(N,)`` radii, ``>= 0``.
        world_size: ``(W, H)`` for a wrapping world (distances are minimum images), or None.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"sweep"``; same result.

    Returns:
        ``(i, j)``, int64 arrays sorted by ``(i, j)``.

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf.

    >>> circle_pairs([[0.0, 0.0], [3.0, 0.0], [10.0, 0.0]], [1.0, 2.0, 1.0])
    (array([0]), array([1]))
    """
    check_method(method)
    c, mc = vec2_scale(centers, "centers")
    r, mr = _as_radii(radii, c.shape[0], "radii")
    world = as_world_size(world_size)
    n = c.shape[0]
    if method == "auto" and n <= _SMALL_PAIRS_N:
        return _small_circle_pairs(c, r, world)
    rp = (r + PAD_REL * max(1.0, mc + mr))[:, None]
    i, j, kx, ky = box_self_pairs(c - rp, c + rp, world, method=method)
    if i.shape[0] == 0:
        return i, j
    keep = (_circles_touch(c, r, i, c, r, j, world, kx, ky)).nonzero()[0]
    return _sorted_pairs(i[keep], j[keep], n, n, world is not None)


def circle_cross_pairs(
    centers_a: ArrayLike,
    radii_a: ArrayLike,
    centers_b: ArrayLike,
    radii_b: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    method: str = "auto",
) -> tuple[I64Array, I64Array]:
    """All pairs ``(ia, ib)`` of overlapping circles from two sets (e.g. ship vs rocks).

    Args:
        centers_a: ``(A, 2)`` centers of the first set.
        radii_a: ``(A,)`` radii of the first set.
        centers_b: ``(B, 2)`` centers of the second set.
        radii_b: ``(B,)`` radii of the second set.
        world_size: ``(W, H)`` for a wrapping world (minimum images), or None.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"sweep"``; same result.

    Returns:
        ``(ia, ib)``, int64 arrays sorted by ``(ia, ib)``.

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf.

    >>> circle_cross_pairs([[0.0, 0.0]], [1.0], [[5.0, 0.0], [1.5, 0.0]], [1.0, 1.0])
    (array([0]), array([1]))
    """
    check_method(method)
    ca, ma = vec2_scale(centers_a, "centers_a")
    ra, mra = _as_radii(radii_a, ca.shape[0], "radii_a")
    cb, mb = vec2_scale(centers_b, "centers_b")
    rb, mrb = _as_radii(radii_b, cb.shape[0], "radii_b")
    world = as_world_size(world_size)
    pad = PAD_REL * max(1.0, ma + mra, mb + mrb)
    rpa = (ra + pad)[:, None]
    rpb = (rb + pad)[:, None]
    ia, ib, kx, ky = box_pairs(ca - rpa, ca + rpa, cb - rpb, cb + rpb, world, method=method)
    if ia.shape[0] == 0:
        return ia, ib
    keep = (_circles_touch(ca, ra, ia, cb, rb, ib, world, kx, ky)).nonzero()[0]
    return _sorted_pairs(ia[keep], ib[keep], ca.shape[0], cb.shape[0], world is not None)


def _circles_touch(
    ca: F64Array,
    ra: F64Array,
    ia: I64Array,
    cb: F64Array,
    rb: F64Array,
    ib: I64Array,
    world: F64Array | None,
    kx: I64Array | None,
    ky: I64Array | None,
) -> BoolArray:
    """Center distance <= r_a + r_b, for circle b in the image (kx, ky) found by the broad
    phase. That image is the minimum image whenever the circles touch: the broad phase only
    reports images with overlapping boxes, and boxes this small overlap in one image at most;
    for larger boxes it reports every overlapping image and the caller drops repeats."""
    dx = cb[:, 0][ib] - ca[:, 0][ia]
    dy = cb[:, 1][ib] - ca[:, 1][ia]
    if world is not None:
        dx = dx + kx * world[0]  # type: ignore[operator]
        dy = dy + ky * world[1]  # type: ignore[operator]
    rs = ra[ia] + rb[ib]
    return dx * dx + dy * dy <= rs * rs


def circle_circle_contact(
    c1: ArrayLike,
    r1: ArrayLike,
    c2: ArrayLike,
    r2: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
) -> tuple[BoolArray, F64Array, F64Array]:
    """Contact between circle pairs, row by row.

    Args:
        c1: ``(N, 2)`` centers of the first circles.
        r1: ``(N,)`` their radii.
        c2: ``(N, 2)`` centers of the second circles.
        r2: ``(N,)`` their radii.
        world_size: ``(W, H)`` for minimum-image distances in a wrapping world, or None.

    Returns:
        ``(overlap, normal, depth)``: ``(N,)`` bool (distance ``<= r1 + r2``); ``(N, 2)`` unit
        normal from circle 1 toward circle 2 (``(1, 0)`` for coincident centers, never NaN);
        ``(N,)`` penetration depth ``r1 + r2 - distance`` (negative when apart).

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf.

    >>> ov, nrm, dep = circle_circle_contact([[0.0, 0.0], [5.0, 5.0]], [2.0, 1.0],
    ...                                      [[3.0, 0.0], [5.0, 5.0]], [2.0, 1.0])
    >>> ov.tolist(), nrm.tolist(), dep.tolist()
    ([True, True], [[1.0, 0.0], [1.0, 0.0]], [1.0, 2.0])
    """
    a = as_vec2(c1, "c1")
    n = a.shape[0]
    b = as_vec2(c2, "c2", n)
    ra, _ = _as_radii(r1, n, "r1")
    rb, _ = _as_radii(r2, n, "r2")
    world = as_world_size(world_size)
    dxy = b - a
    if world is not None:
        dxy = wrap_delta(dxy, world)
    nx, ny, dist = _unit(dxy[:, 0], dxy[:, 1])
    normal = np.empty((n, 2))
    normal[:, 0] = nx
    normal[:, 1] = ny
    depth = ra + rb - dist
    return depth >= 0.0, normal + 0.0, depth


@dataclass(frozen=True, slots=True)
class CircleContacts:
    """Deepest contact of each touching (circle, body) pair (result of
    :func:`circle_segment_contacts`), sorted by ``(circle, body)``."""

    circle: I64Array
    """(K,) circle index."""
    body: I64Array
    """(K,) body index."""
    edge: I64Array
    """(K,) edge of the body nearest the circle center (ties: lowest edge)."""
    depth: F64Array
    """(K,) penetration depth: ``radius - distance`` from the center to the outline, or
    ``radius + distance`` when the center is inside the polygon; >= 0."""
    normal: F64Array
    """(K, 2) unit normal to push the circle out along: from the nearest outline point toward
    the center, reversed when the center is inside; an edge's outward normal when the center
    lies exactly on the outline."""
    point: F64Array
    """(K, 2) nearest point of the outline, in the circle's image (wrapped into the world when
    wrapping)."""


def circle_segment_contacts(
    centers: ArrayLike,
    radii: ArrayLike,
    points: ArrayLike,
    offsets: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    method: str = "auto",
) -> CircleContacts:
    """Circles against polygon outlines: the deepest contact per touching (circle, body) pair.

    Handles edges lying wholly inside a circle and vertex contacts (closest point clamped to
    the edge), and a circle whose center is inside the polygon (then the normal points out).

    Args:
        centers: ``(M, 2)`` circle centers, world units.
        radii: ``(M,)`` radii, ``>= 0``.
        points: ``(V, 2)`` packed outline points, world coordinates.
        offsets: ``(B + 1,)`` body offsets.
        world_size: ``(W, H)`` for a wrapping world, or None.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"sweep"``; same result.

    Returns:
        :class:`CircleContacts` for pairs with distance ``<= radius`` or center inside.

    Raises:
        ValueError: bad shapes, offsets, negative radii, NaN/inf.

    >>> sq = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    >>> cc = circle_segment_contacts([[3.0, 1.0]], [1.5], sq, [0, 4])
    >>> cc.body.tolist(), cc.edge.tolist(), cc.depth.tolist(), cc.normal.tolist()
    ([0], [1], [0.5], [[1.0, 0.0]])
    """
    check_method(method)
    c, mc = vec2_scale(centers, "centers")
    r, mr = _as_radii(radii, c.shape[0], "radii")
    pts, mp = vec2_scale(points, "points")
    offs, _, uniform = offsets_counts(offsets, pts.shape[0])
    world = as_world_size(world_size)
    empty = CircleContacts(
        circle=np.zeros(0, dtype=np.int64),
        body=np.zeros(0, dtype=np.int64),
        edge=np.zeros(0, dtype=np.int64),
        depth=np.zeros(0),
        normal=np.zeros((0, 2)),
        point=np.zeros((0, 2)),
    )
    if c.shape[0] == 0 or offs.shape[0] == 1:
        return empty
    lo, hi = body_boxes(pts, offs, uniform)
    pad = PAD_REL * max(1.0, mc + mr, mp)
    rp = (r + pad)[:, None]
    ic, ib, kx, ky = box_pairs(c - rp, c + rp, lo - pad, hi + pad, world, method=method)
    if ic.shape[0] == 0:
        return empty
    qx = c[ic, 0]
    qy = c[ic, 1]
    if world is not None:
        assert kx is not None and ky is not None
        qx = qx - kx * world[0]
        qy = qy - ky * world[1]
    inside = points_in_polygons(qx, qy, pts, offs, ib)
    counts = offs[1:] - offs[:-1]
    n = counts[ib]
    cand = np.repeat(np.arange(ic.shape[0], dtype=np.int64), n)
    first = np.cumsum(n) - n
    local = np.arange(cand.shape[0], dtype=np.int64) - np.repeat(first, n)
    base = np.repeat(offs[ib], n)
    a = base + local
    b = np.where(local == np.repeat(n, n) - 1, base, a + 1)
    ax = pts[a, 0]
    ay = pts[a, 1]
    sx = pts[b, 0] - ax
    sy = pts[b, 1] - ay
    d2 = point_segment_distance2(ax - qx[cand], ay - qy[cand], sx, sy)
    mind = np.minimum.reduceat(d2, first)
    r2 = r[ic] * r[ic]
    touch = inside | (mind <= r2)
    if not touch.any():
        return empty
    # Nearest edge per candidate: first row (lowest edge) attaining the minimum.
    at_min = (d2 == mind[cand]).nonzero()[0]
    fm = np.ones(at_min.shape[0], dtype=bool)
    fm[1:] = cand[at_min[1:]] != cand[at_min[:-1]]
    row = at_min[fm]  # one per candidate, in candidate order
    keep = touch.nonzero()[0]
    row = row[keep]
    ic = ic[keep]
    ib = ib[keep]
    inside = inside[keep]
    qx = qx[keep]
    qy = qy[keep]
    ex = sx[row]
    ey = sy[row]
    fx = qx - ax[row]
    fy = qy - ay[row]
    ss = ex * ex + ey * ey
    u = np.where(ss > 0.0, (fx * ex + fy * ey) / np.where(ss > 0.0, ss, 1.0), 0.0)
    u = np.minimum(np.maximum(u, 0.0), 1.0)
    cpx = ax[row] + u * ex
    cpy = ay[row] + u * ey
    vx = qx - cpx
    vy = qy - cpy
    dist = np.sqrt(vx * vx + vy * vy)
    ok = dist > 0.0
    safe = np.where(ok, dist, 1.0)
    sign = np.where(inside, -1.0, 1.0)
    nx = sign * vx / safe
    ny = sign * vy / safe
    edge = a[row] - offs[ib]
    if not ok.all():
        # Center exactly on the outline: the edge's outward normal (exact orientation test).
        ccw = orientation_ccw(pts, offs, ib)
        el = np.sqrt(ss)
        els = np.where(el > 0.0, el, 1.0)
        onx = np.where(el > 0.0, np.where(ccw, ey, -ey) / els, 1.0)
        ony = np.where(el > 0.0, np.where(ccw, -ex, ex) / els, 0.0)
        nx = np.where(ok, nx, onx)
        ny = np.where(ok, ny, ony)
    depth = np.where(inside, r[ic] + dist, r[ic] - dist)
    if world is not None:
        cpx = cpx + kx[keep] * world[0]  # type: ignore[index]
        cpy = cpy + ky[keep] * world[1]  # type: ignore[index]
    # Several images of one pair: keep the deepest (ties: first image in candidate order).
    order = np.lexsort((-depth, ib, ic))
    key_c = ic[order]
    key_b = ib[order]
    fk = np.ones(order.shape[0], dtype=bool)
    fk[1:] = (key_c[1:] != key_c[:-1]) | (key_b[1:] != key_b[:-1])
    sel = order[fk]
    point = np.stack([cpx[sel], cpy[sel]], axis=1)
    if world is not None:
        point = wrap_positions(point, world)
    return CircleContacts(
        circle=ic[sel],
        body=ib[sel],
        edge=edge[sel],
        depth=depth[sel] + 0.0,
        normal=np.stack([nx[sel], ny[sel]], axis=1) + 0.0,
        point=point + 0.0,
    )


circle_polygon_contacts = circle_segment_contacts
"""Alias of :func:`circle_segment_contacts` (circles against polygon outlines)."""
