"""Exact, vectorised collision queries: shots vs outlines, circles, polygons; plain or wrapping.

The per-tick queries of the simulation. Each one is a pure function of numpy arrays: a broad
phase (:mod:`asteroids.core.broadphase`: all pairs when small, a uniform grid when large, so cost
follows the number of candidate pairs) feeds an exact narrow phase built from IEEE basic
operations only, and results come back in a deterministic order with ties broken by index.

Outline sets are packed (see :mod:`asteroids.core.geometry`): ``points`` ``(V, 2)`` world
coordinates of closed polygons, ``offsets`` ``(B + 1,)`` int where each body's points start.
With ``world_size=(W, H)`` the world is a torus: bodies straddling a border are hit on both
sides, and displacements are taken as minimum images.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import Boxes, body_boxes, box_pairs, box_self_pairs
from asteroids.core.geometry import (
    EPS,
    BoolArray,
    F64Array,
    I64Array,
    _edge_rows,
    _inside_rows,
    _orientation_ccw,
    as_offsets,
    as_vec2,
    as_world_size,
    hit_params,
    parallel_hits,
    segment_kernel,
    wrap_delta,
    wrap_positions,
)

__all__ = [
    "CircleContacts",
    "Hits",
    "circle_circle_contact",
    "circle_cross_pairs",
    "circle_pairs",
    "circle_polygon_contacts",
    "circle_segment_contacts",
    "first_hits",
    "polygons_overlap",
]

_PAD_REL = 1e-7
"""Broad-phase boxes grow by this fraction of the scene scale, so hits accepted within the
narrow phase's EPS tolerance are never culled."""


def _pad(*arrays: F64Array) -> float:
    """Absolute box padding for a scene: _PAD_REL times its largest coordinate (exact max)."""
    m = 1.0
    for a in arrays:
        if a.size:
            m = max(m, float(np.max(np.abs(a))))
    return _PAD_REL * m


# --------------------------------------------------------------------------------------------
# first_hits
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hits:
    """Closest hit of each shot (result of :func:`first_hits`).

    A shot with no hit has ``body == edge == -1``, ``t == inf`` and ``point == (nan, nan)``.
    A shot that *starts inside* a body's polygon hits it at ``t == 0`` with ``point == start``
    and ``edge`` the body's edge closest to the start (never -1 for a hit).
    """

    body: I64Array
    """(S,) index of the body hit, -1 for no hit."""
    edge: I64Array
    """(S,) edge within that body (edge i runs from point i to point i + 1, wrapping), -1 for
    no hit."""
    t: F64Array
    """(S,) fraction of the shot's travel (of the tick) at the hit, in [0, 1]; inf for no hit."""
    point: F64Array
    """(S, 2) where the shot is at the hit, ``start + t * (end - start)``, wrapped into
    [0, W) x [0, H) in a wrapping world; NaN for no hit."""

    @property
    def hit(self) -> BoolArray:
        """(S,) True where the shot hit something."""
        return self.body >= 0


def first_hits(
    starts: ArrayLike,
    ends: ArrayLike,
    points: ArrayLike,
    offsets: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    body_motion: ArrayLike | None = None,
    method: str = "auto",
) -> Hits:
    """For each shot segment, the hit closest to its start over every edge of every body.

    Edges are tested with the parametric segment test of
    :func:`asteroids.core.geometry.segment_intersections` (inclusive bounds widened by ``EPS``,
    colinear grazing hits at the first overlap point, endpoint snapping so a shot through a
    shared vertex is found once with one ``t``). A shot whose start lies inside a body's polygon
    hits that body at ``t = 0``. The winner per shot is the smallest ``t``, then the lowest body
    index, then the lowest edge index, so results are deterministic.

    Args:
        starts: ``(S, 2)`` shot positions at the start of the tick, world units.
        ends: ``(S, 2)`` shot positions at the end of the tick. In a wrapping world the shot's
            displacement is the minimum image of ``ends - starts`` (so ``ends`` may be given
            wrapped or unwrapped; a shot moves less than half the world per tick).
        points: ``(V, 2)`` packed outline points of closed polygons, world coordinates, at the
            start of the tick.
        offsets: ``(B + 1,)`` int, where each body's points start; ``offsets[-1] == V``.
        world_size: ``(W, H)`` to make the world wrap (bodies and shots are tested in every
            image, so a body straddling a border is hit on both sides and a shot crossing the
            border is tested on both sides); None for a plain plane.
        body_motion: optional ``(B, 2)`` displacement of each body during this tick. The test
            is then done in each body's frame (relative displacement ``(end - start) -
            body_motion[b]`` from the start-of-tick outline), so fast shots cannot tunnel
            through fast bodies; ``t`` is the tick fraction and ``point`` where the shot is then.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"grid"``; all give the same result.

    Returns:
        :class:`Hits` with ``body``, ``edge`` (S,) int64, ``t`` (S,) float64 (``inf`` where no
        hit) and ``point`` (S, 2) float64 (NaN where no hit).

    Raises:
        ValueError: wrong shapes, bad offsets, or NaN/inf anywhere in the inputs.

    >>> square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    >>> h = first_hits([[-1.0, 1.0], [5.0, 5.0]], [[1.0, 1.0], [6.0, 5.0]], square, [0, 4])
    >>> h.body.tolist(), h.edge.tolist(), h.t.tolist(), h.point[0].tolist()
    ([0, -1], [3, -1], [0.5, inf], [0.0, 1.0])
    """
    s = as_vec2(starts, "starts")
    e = as_vec2(ends, "ends", s.shape[0])
    pts = as_vec2(points, "points")
    offs = as_offsets(offsets, pts.shape[0])
    world = as_world_size(world_size)
    nb = offs.shape[0] - 1
    motion = None if body_motion is None else as_vec2(body_motion, "body_motion", nb)
    d = e - s
    if world is not None:
        d = wrap_delta(d, world)
    return _first_hits(s, d, pts, offs, world, motion, method)


def _no_hits(n: int) -> Hits:
    return Hits(
        body=np.full(n, -1, dtype=np.int64),
        edge=np.full(n, -1, dtype=np.int64),
        t=np.full(n, np.inf),
        point=np.full((n, 2), np.nan),
    )


def _first_hits(
    s: F64Array,
    d: F64Array,
    pts: F64Array,
    offs: I64Array,
    world: F64Array | None,
    motion: F64Array | None,
    method: str,
) -> Hits:
    n_shots = s.shape[0]
    nb = offs.shape[0] - 1
    if n_shots == 0 or nb == 0:
        return _no_hits(n_shots)
    sx = s[:, 0]
    sy = s[:, 1]
    dx = d[:, 0]
    dy = d[:, 1]
    ex = sx + dx
    ey = sy + dy
    bx0, by0, bx1, by1 = body_boxes(pts, offs)
    if motion is not None:
        mx = motion[:, 0]
        my = motion[:, 1]
        # Swept box: the union of the start and end boxes covers the whole translation.
        bx0, bx1 = np.minimum(bx0, bx0 + mx), np.maximum(bx1, bx1 + mx)
        by0, by1 = np.minimum(by0, by0 + my), np.maximum(by1, by1 + my)
    pad = _pad(bx0, by0, bx1, by1, sx, sy, ex, ey)
    shot_box: Boxes = (
        np.minimum(sx, ex) - pad,
        np.minimum(sy, ey) - pad,
        np.maximum(sx, ex) + pad,
        np.maximum(sy, ey) + pad,
    )
    body_box: Boxes = (bx0 - pad, by0 - pad, bx1 + pad, by1 + pad)
    ia, ib, kx, ky = box_pairs(shot_box, body_box, world, method=method)
    if ia.shape[0] == 0:
        return _no_hits(n_shots)

    # Candidate frame: the body image's own coordinates; the shot moves relative to the body.
    p0x = sx[ia]
    p0y = sy[ia]
    if world is not None:
        p0x = p0x - kx * world[0]
        p0y = p0y - ky * world[1]
    rx = dx[ia]
    ry = dy[ia]
    if motion is not None:
        rx = rx - mx[ib]
        ry = ry - my[ib]

    # One row per (candidate, edge).
    counts = offs[1:] - offs[:-1]
    n = counts[ib]
    n_c = ia.shape[0]
    m0 = int(counts[0])
    if (counts == m0).all():
        loc = np.arange(m0, dtype=np.int64)
        cand = np.repeat(np.arange(n_c, dtype=np.int64), m0)
        base = offs[ib]
        a = (base[:, None] + loc).ravel()
        b = (base[:, None] + np.where(loc == m0 - 1, 0, loc + 1)).ravel()
    else:
        cand = np.repeat(np.arange(n_c, dtype=np.int64), n)
        first = np.cumsum(n) - n
        local = np.arange(cand.shape[0], dtype=np.int64) - np.repeat(first, n)
        base = np.repeat(offs[ib], n)
        a = base + local
        b = np.where(local == np.repeat(n, n) - 1, base, a + 1)
    px = pts[:, 0]
    py = pts[:, 1]
    ax = px[a]
    ay = py[a]
    esx = px[b] - ax
    esy = py[b] - ay
    rpx = p0x[cand]
    rpy = p0y[cand]
    rrx = rx[cand]
    rry = ry[cand]
    qpx = ax - rpx
    qpy = ay - rpy
    denom = rrx * esy - rry * esx
    tn = qpx * esy - qpy * esx
    un = qpx * rry - qpy * rrx

    # Start inside the polygon (crossing number of a rightward ray; tn is the side test).
    straddle = (ay > rpy) != ((ay + esy) > rpy)
    right = np.where(esy > 0.0, tn > 0.0, tn < 0.0)
    inside = (np.bincount(cand[straddle & right], minlength=n_c) & 1).astype(bool)

    # Edge crossings, division-free; t only on the few hits.
    neg = denom < 0.0
    dd = np.abs(denom)
    tns = np.where(neg, -tn, tn)
    uns = np.where(neg, -un, un)
    eps_d = EPS * dd
    hi = dd + eps_d
    hit = (tns >= -eps_d) & (tns <= hi) & (uns >= -eps_d) & (uns <= hi) & (dd > 0.0)
    rows = np.flatnonzero(hit)
    t_rows, _ = hit_params(
        tns[rows], uns[rows], dd[rows], eps_d[rows], rpx[rows], rpy[rows],
        rrx[rows], rry[rows], ax[rows], ay[rows], px[b[rows]], py[b[rows]],
    )  # fmt: skip
    par = np.flatnonzero(denom == 0.0)
    if par.shape[0]:
        ph, pt, _ = parallel_hits(
            rpx[par], rpy[par], rrx[par], rry[par], ax[par], ay[par], esx[par], esy[par]
        )
        rows = np.concatenate([rows, par[ph]])
        t_rows = np.concatenate([t_rows, pt[ph]])
    hit_cand = cand[rows]
    hit_edge = a[rows] - offs[ib[hit_cand]]

    ins = np.flatnonzero(inside)
    if ins.shape[0]:
        ins_edge = _closest_edges(ins, cand, inside, a, ax, ay, esx, esy, rpx, rpy, offs, ib)
        hit_cand = np.concatenate([hit_cand, ins])
        hit_edge = np.concatenate([hit_edge, ins_edge])
        t_rows = np.concatenate([t_rows, np.zeros(ins.shape[0])])
    if hit_cand.shape[0] == 0:
        return _no_hits(n_shots)

    shot = ia[hit_cand]
    body = ib[hit_cand]
    order = np.lexsort((hit_edge, body, t_rows, shot))
    shot = shot[order]
    first = np.ones(shot.shape[0], dtype=bool)
    first[1:] = shot[1:] != shot[:-1]
    win = order[first]
    ws = shot[first]
    out = _no_hits(n_shots)
    out.body[ws] = body[win]
    out.edge[ws] = hit_edge[win]
    tw = t_rows[win]
    out.t[ws] = tw
    hx = sx[ws] + tw * dx[ws]
    hy = sy[ws] + tw * dy[ws]
    if world is not None:
        hp = wrap_positions(np.stack([hx, hy], axis=1), world)
        hx = hp[:, 0]
        hy = hp[:, 1]
    out.point[ws, 0] = hx
    out.point[ws, 1] = hy
    return out


def _closest_edges(
    ins: I64Array,
    cand: I64Array,
    inside: BoolArray,
    a: I64Array,
    ax: F64Array,
    ay: F64Array,
    sx: F64Array,
    sy: F64Array,
    px: F64Array,
    py: F64Array,
    offs: I64Array,
    ib: I64Array,
) -> I64Array:
    """For candidates whose start is inside, the edge nearest the start (ties: lowest edge)."""
    rows = np.flatnonzero(inside[cand])
    d2 = _point_segment_d2(px[rows], py[rows], ax[rows], ay[rows], sx[rows], sy[rows])
    c = cand[rows]
    edge = a[rows] - offs[ib[c]]
    order = np.lexsort((edge, d2, c))
    c = c[order]
    first = np.ones(c.shape[0], dtype=bool)
    first[1:] = c[1:] != c[:-1]
    # Rows are grouped by candidate in increasing order, matching ``ins``.
    return edge[order[first]]


def _point_segment_d2(
    px: F64Array, py: F64Array, ax: F64Array, ay: F64Array, sx: F64Array, sy: F64Array
) -> F64Array:
    """Squared distance from points to segments ``a + u s`` (u clamped to [0, 1])."""
    fx = px - ax
    fy = py - ay
    ss = sx * sx + sy * sy
    u = np.where(ss > 0.0, (fx * sx + fy * sy) / np.where(ss > 0.0, ss, 1.0), 0.0)
    u = np.minimum(np.maximum(u, 0.0), 1.0)
    cx = fx - u * sx
    cy = fy - u * sy
    return cx * cx + cy * cy


# --------------------------------------------------------------------------------------------
# circles
# --------------------------------------------------------------------------------------------


def _as_radii(r: ArrayLike, n: int, name: str) -> F64Array:
    a = np.asarray(r, dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {a.shape}")
    if not np.isfinite(a).all() or (a < 0.0).any():
        raise ValueError(f"{name} must be finite and >= 0")
    return a


def _circle_boxes(c: F64Array, r: F64Array, pad: float) -> Boxes:
    x = c[:, 0]
    y = c[:, 1]
    rp = r + pad
    return x - rp, y - rp, x + rp, y + rp


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
        method: broad phase, ``"auto"``, ``"direct"`` or ``"grid"``; same result.

    Returns:
        ``(i, j)``, int64 arrays sorted by ``(i, j)``.

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf.

    >>> circle_pairs([[0.0, 0.0], [3.0, 0.0], [10.0, 0.0]], [1.0, 2.0, 1.0])
    (array([0]), array([1]))
    """
    c = as_vec2(centers, "centers")
    r = _as_radii(radii, c.shape[0], "radii")
    world = as_world_size(world_size)
    pad = _pad(c)
    i, j = box_self_pairs(_circle_boxes(c, r, pad), world, method=method)
    if i.shape[0] == 0:
        return i, j
    keep = _circles_touch(c, r, i, c, r, j, world)
    i = i[keep]
    j = j[keep]
    key = i * c.shape[0] + j
    if world is not None:
        key = np.unique(key)
    else:
        key = np.sort(key)
    n = c.shape[0]
    return key // n, key % n


def circle_cross_pairs(
    centers_a: ArrayLike,
    radii_a: ArrayLike,
    centers_b: ArrayLike,
    radii_b: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    method: str = "auto",
) -> tuple[I64Array, I64Array]:
    """All pairs ``(ia, ib)`` of overlapping circles from two sets (e.g. shots vs rocks).

    Args:
        centers_a: ``(A, 2)`` centers of the first set.
        radii_a: ``(A,)`` radii of the first set.
        centers_b: ``(B, 2)`` centers of the second set.
        radii_b: ``(B,)`` radii of the second set.
        world_size: ``(W, H)`` for a wrapping world (minimum images), or None.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"grid"``; same result.

    Returns:
        ``(ia, ib)``, int64 arrays sorted by ``(ia, ib)``.

    Raises:
        ValueError: bad shapes, negative radii, NaN/inf.
    """
    ca = as_vec2(centers_a, "centers_a")
    ra = _as_radii(radii_a, ca.shape[0], "radii_a")
    cb = as_vec2(centers_b, "centers_b")
    rb = _as_radii(radii_b, cb.shape[0], "radii_b")
    world = as_world_size(world_size)
    pad = _pad(ca, cb)
    ia, ib, _, _ = box_pairs(
        _circle_boxes(ca, ra, pad), _circle_boxes(cb, rb, pad), world, method=method
    )
    if ia.shape[0] == 0:
        return ia, ib
    keep = _circles_touch(ca, ra, ia, cb, rb, ib, world)
    key = ia[keep] * max(cb.shape[0], 1) + ib[keep]
    key = np.unique(key) if world is not None else np.sort(key)
    nbb = max(cb.shape[0], 1)
    return key // nbb, key % nbb


def _circles_touch(
    ca: F64Array,
    ra: F64Array,
    ia: I64Array,
    cb: F64Array,
    rb: F64Array,
    ib: I64Array,
    world: F64Array | None,
) -> BoolArray:
    dx = cb[ib, 0] - ca[ia, 0]
    dy = cb[ib, 1] - ca[ia, 1]
    if world is not None:
        hw = 0.5 * world[0]
        hh = 0.5 * world[1]
        dx = (dx + hw) % world[0] - hw
        dy = (dy + hh) % world[1] - hh
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
    ra = _as_radii(r1, n, "r1")
    rb = _as_radii(r2, n, "r2")
    world = as_world_size(world_size)
    dxy = b - a
    if world is not None:
        dxy = wrap_delta(dxy, world)
    dist = np.sqrt(dxy[:, 0] * dxy[:, 0] + dxy[:, 1] * dxy[:, 1])
    ok = dist > 0.0
    safe = np.where(ok, dist, 1.0)
    normal = np.empty((n, 2))
    normal[:, 0] = np.where(ok, dxy[:, 0] / safe, 1.0)
    normal[:, 1] = np.where(ok, dxy[:, 1] / safe, 0.0)
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
        method: broad phase, ``"auto"``, ``"direct"`` or ``"grid"``; same result.

    Returns:
        :class:`CircleContacts` for pairs with distance ``<= radius`` or center inside.

    Raises:
        ValueError: bad shapes, offsets, negative radii, NaN/inf.

    >>> sq = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    >>> cc = circle_segment_contacts([[3.0, 1.0]], [1.5], sq, [0, 4])
    >>> cc.body.tolist(), cc.edge.tolist(), cc.depth.tolist(), cc.normal.tolist()
    ([0], [1], [0.5], [[1.0, 0.0]])
    """
    c = as_vec2(centers, "centers")
    r = _as_radii(radii, c.shape[0], "radii")
    pts = as_vec2(points, "points")
    offs = as_offsets(offsets, pts.shape[0])
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
    bb = body_boxes(pts, offs)
    pad = _pad(c, *bb)
    body_box: Boxes = (bb[0] - pad, bb[1] - pad, bb[2] + pad, bb[3] + pad)
    ic, ib, kx, ky = box_pairs(_circle_boxes(c, r, pad), body_box, world, method=method)
    if ic.shape[0] == 0:
        return empty
    qx = c[ic, 0]
    qy = c[ic, 1]
    if world is not None:
        qx = qx - kx * world[0]
        qy = qy - ky * world[1]
    inside = _inside_rows(qx, qy, pts, offs, ib)
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
    d2 = _point_segment_d2(qx[cand], qy[cand], ax, ay, sx, sy)
    mind = np.minimum.reduceat(d2, first)
    r2 = r[ic] * r[ic]
    touch = inside | (mind <= r2)
    if not touch.any():
        return empty
    # Nearest edge per candidate: first row (lowest edge) attaining the minimum.
    at_min = np.flatnonzero(d2 == mind[cand])
    fm = np.ones(at_min.shape[0], dtype=bool)
    fm[1:] = cand[at_min[1:]] != cand[at_min[:-1]]
    row = at_min[fm]  # one per candidate, in candidate order
    keep = np.flatnonzero(touch)
    row = row[keep]
    ic = ic[keep]
    ib = ib[keep]
    kx = kx[keep]
    ky = ky[keep]
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
        ccw = _orientation_ccw(pts, offs, ib)
        el = np.sqrt(ss)
        els = np.where(el > 0.0, el, 1.0)
        onx = np.where(el > 0.0, np.where(ccw, ey, -ey) / els, 1.0)
        ony = np.where(el > 0.0, np.where(ccw, -ex, ex) / els, 0.0)
        nx = np.where(ok, nx, onx)
        ny = np.where(ok, ny, ony)
    depth = np.where(inside, r[ic] + dist, r[ic] - dist)
    if world is not None:
        cpx = cpx + kx * world[0]
        cpy = cpy + ky * world[1]
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


# --------------------------------------------------------------------------------------------
# polygons
# --------------------------------------------------------------------------------------------


def polygons_overlap(
    points_a: ArrayLike,
    offsets_a: ArrayLike,
    points_b: ArrayLike,
    offsets_b: ArrayLike,
    pairs_a: ArrayLike,
    pairs_b: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
) -> BoolArray:
    """Whether polygon ``pairs_a[k]`` of set A overlaps polygon ``pairs_b[k]`` of set B.

    Two closed polygons overlap when any pair of their edges touches (the inclusive,
    EPS-widened segment test) or one lies wholly inside the other (robust point-in-polygon of
    one vertex each way; see :func:`asteroids.core.geometry.points_in_polygons`).

    Args:
        points_a: ``(VA, 2)`` packed outline points of set A (e.g. the ship), world units.
        offsets_a: ``(BA + 1,)`` offsets of set A.
        points_b: ``(VB, 2)`` packed outline points of set B (e.g. asteroids).
        offsets_b: ``(BB + 1,)`` offsets of set B.
        pairs_a: ``(P,)`` body index into A per candidate pair.
        pairs_b: ``(P,)`` body index into B per candidate pair.
        world_size: ``(W, H)`` for a wrapping world: B is tested in the image whose
            bounding-box center is nearest A's (polygons smaller than half the world).

    Returns:
        ``(P,)`` bool.

    Raises:
        ValueError: bad shapes, offsets, indices, NaN/inf.

    >>> sq = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])
    >>> tri = np.array([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0], [9.0, 9.0], [9.5, 9.0], [9.0, 9.5]])
    >>> polygons_overlap(sq, [0, 4], tri, [0, 3, 6], [0, 0], [0, 1]).tolist()
    [True, False]
    """
    pa = as_vec2(points_a, "points_a")
    oa = as_offsets(offsets_a, pa.shape[0], "offsets_a")
    pb = as_vec2(points_b, "points_b")
    ob = as_offsets(offsets_b, pb.shape[0], "offsets_b")
    ia = np.asarray(pairs_a, dtype=np.int64)
    ib = np.asarray(pairs_b, dtype=np.int64)
    world = as_world_size(world_size)
    if ia.ndim != 1 or ia.shape != ib.shape:
        raise ValueError("pairs_a and pairs_b must be 1-D arrays of equal length")
    if ia.size and ((ia < 0).any() or (ia >= oa.shape[0] - 1).any()):
        raise ValueError("pairs_a index out of range")
    if ib.size and ((ib < 0).any() or (ib >= ob.shape[0] - 1).any()):
        raise ValueError("pairs_b index out of range")
    n_p = ia.shape[0]
    if n_p == 0:
        return np.zeros(0, dtype=bool)
    # Shift of polygon B's image, so both are in A's frame.
    shx = np.zeros(n_p)
    shy = np.zeros(n_p)
    if world is not None:
        ab = body_boxes(pa, oa)
        bb = body_boxes(pb, ob)
        cax = 0.5 * (ab[0][ia] + ab[2][ia])
        cay = 0.5 * (ab[1][ia] + ab[3][ia])
        cbx = 0.5 * (bb[0][ib] + bb[2][ib])
        cby = 0.5 * (bb[1][ib] + bb[3][ib])
        dx = cbx - cax
        dy = cby - cay
        hw = 0.5 * world[0]
        hh = 0.5 * world[1]
        shx = ((dx + hw) % world[0] - hw) - dx
        shy = ((dy + hh) % world[1] - hh) - dy
    # Every (edge of A, edge of B) per pair.
    na = (oa[1:] - oa[:-1])[ia]
    nbb = (ob[1:] - ob[:-1])[ib]
    _, a0, a1 = _edge_rows(oa, ia)  # rows over A's edges, grouped by pair
    _, b0, b1 = _edge_rows(ob, ib)
    first_a = np.cumsum(na) - na
    first_b = np.cumsum(nbb) - nbb
    per = na * nbb
    pair = np.repeat(np.arange(n_p, dtype=np.int64), per)
    k = np.arange(pair.shape[0], dtype=np.int64) - np.repeat(np.cumsum(per) - per, per)
    nbp = nbb[pair]
    ra = first_a[pair] + k // nbp
    rb = first_b[pair] + k % nbp
    p_x = pa[a0[ra], 0]
    p_y = pa[a0[ra], 1]
    r_x = pa[a1[ra], 0] - p_x
    r_y = pa[a1[ra], 1] - p_y
    q_x = pb[b0[rb], 0] + shx[pair]
    q_y = pb[b0[rb], 1] + shy[pair]
    e_x = pb[b1[rb], 0] + shx[pair]
    e_y = pb[b1[rb], 1] + shy[pair]
    hit, _, _ = segment_kernel(p_x, p_y, r_x, r_y, q_x, q_y, e_x, e_y)
    crossed = np.bincount(pair[hit], minlength=n_p) > 0
    # Containment: a vertex of A inside B (B's frame) or a vertex of B inside A.
    va = oa[ia]
    vb = ob[ib]
    a_in_b = _inside_rows(pa[va, 0] - shx, pa[va, 1] - shy, pb, ob, ib)
    b_in_a = _inside_rows(pb[vb, 0] + shx, pb[vb, 1] + shy, pa, oa, ia)
    return crossed | a_in_b | b_in_a



circle_polygon_contacts = circle_segment_contacts
"""Alias of :func:`circle_segment_contacts` (circles against polygon outlines)."""
