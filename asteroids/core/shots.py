"""The shot query: each shot's first hit on the outlines of bodies, plain or wrapping.

:func:`first_hits` tests each shot's swept segment for one tick against every edge of every
body (optionally in each body's moving frame, so nothing tunnels) and keeps the hit closest to
the shot's start. Read top-down: the result type and the public query; then the fused path for
small scenes (the same IEEE operations in fewer numpy calls, bit for bit the general path);
then the general path: broad phase (:mod:`asteroids.core.broadphase`) over boxes, exact narrow
phase in cache-sized chunks, and the per-shot reduction (smallest ``t``, then lowest body, then
lowest edge).

Outline sets are packed (see :mod:`asteroids.core.geometry`): ``points`` ``(V, 2)`` world
coordinates of closed polygons, ``offsets`` ``(B + 1,)`` int where each body's points start.
With ``world_size=(W, H)`` the world is a torus: bodies straddling a border are hit on both
sides, and displacements are taken as minimum images.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import PAD_REL, body_boxes, box_pairs, check_method
from asteroids.core.geometry.checks import (
    BoolArray,
    F64Array,
    I64Array,
    as_world_size,
    offsets_counts,
    vec2,
)
from asteroids.core.geometry.polygon import point_segment_distance2
from asteroids.core.geometry.segment import EPS, candidate_rows, resolve_rows

__all__ = [
    "Hits",
    "first_hits",
    "first_hits_small",
]


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
    :func:`asteroids.core.geometry.segment.segment_intersections` (inclusive bounds widened by
    ``EPS``, colinear grazing hits at the first overlap point, zero-length shots as points, endpoint
    snapping so a shot through a shared vertex is found once with one ``t``). A shot whose start
    lies inside a body's polygon hits that body at ``t = 0``. The winner per shot is the
    smallest ``t``, then the lowest body index, then the lowest edge index.

    Args:
        starts: ``(S, 2)`` shot positions at the start of the tick, world units.
        ends: ``(S, 2)`` shot positions at the end of the tick. In a wrapping world the shot's
            displacement is the minimum image of ``ends - starts`` (so ``ends`` may be given
            wrapped or unwrapped; a shot moves less than half the world per tick).
        points: ``(V, 2)`` packed outline points of closed polygons, world coordinates, at the
            start of the tick.
        offsets: ``(B + 1,)`` int, where each body's points start; ``offsets[-1] == V``.
        world_size: ``(W, H)`` to make the world wrap: every body is hittable in every image,
            so one straddling a border is hit from both sides and a shot crossing the border
            is tested on both sides. None for a plain plane.
        body_motion: optional ``(B, 2)`` displacement of each body during this tick. The test
            is then done in each body's frame (relative displacement ``(end - start) -
            body_motion[b]`` against the start-of-tick outline), so a fast shot cannot tunnel
            through a fast body; ``t`` is the tick fraction and ``point`` where the shot is then.
        method: broad phase, ``"auto"``, ``"direct"`` or ``"sweep"``; all give the same result.

    Returns:
        :class:`Hits`: ``body``, ``edge`` (S,) int64 (-1: no hit), ``t`` (S,) float64 (``inf``:
        no hit) and ``point`` (S, 2) float64 (NaN: no hit).

    Raises:
        ValueError: wrong shapes, bad offsets, or NaN/inf anywhere in the inputs.

    >>> square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    >>> h = first_hits([[-1.0, 1.0], [5.0, 5.0]], [[1.0, 1.0], [6.0, 5.0]], square, [0, 4])
    >>> h.body.tolist(), h.edge.tolist(), h.t.tolist(), h.point[0].tolist()
    ([0, -1], [3, -1], [0.5, inf], [0.0, 1.0])
    """
    check_method(method)
    if method == "auto":
        small = first_hits_small(starts, ends, points, offsets, world_size, body_motion)
        if small is not None:
            return small
    s = vec2(starts, "starts")
    e = vec2(ends, "ends", s.shape[0])
    pts = vec2(points, "points")
    offs, counts, uniform = offsets_counts(offsets, pts.shape[0])
    world = as_world_size(world_size)
    motion = None if body_motion is None else vec2(body_motion, "body_motion", offs.shape[0] - 1)
    _check_inputs(s, e, pts, motion)
    if s.shape[0] == 0 or offs.shape[0] == 1:
        return _no_hits(s.shape[0])
    d = e - s
    if world is not None:
        half = 0.5 * world
        d = (d + half) % world - half
    found = _broad_hits(s, e, d, pts, offs, counts, uniform, world, motion, method)
    if found is None:
        return _no_hits(s.shape[0])
    return _reduce_hits(found, s, d, world, counts)


# --------------------------------------------------------------------------------------------
# first_hits, small scenes: the same arithmetic in far fewer, cheaper numpy calls
# --------------------------------------------------------------------------------------------

_SMALL_MAX_PAIRS = 1024
"""``first_hits(method="auto")`` takes the fused path below up to this many (shot, body) pairs
(uniform outlines only); above it, or for anything unusual, the general path."""

_SMALL_MAX_ROWS = 16384
"""...and up to this many candidate edge rows (one chunk of the general path)."""

_SMALL_PY_ROWS = 48
"""Up to this many candidate rows are resolved and reduced with Python floats (the same IEEE
operations in the same order); more go through :func:`resolve_rows` and the sort."""

_SMALL_MAX_SCALE = 1e100
"""Coordinates beyond this go to the general path (whose numpy calls report overflow)."""

_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)
"""Coordinate pairs are gathered, added and subtracted as complex128 views of ``(N, 2)``
float64 arrays: one call moves or combines both coordinates, and complex addition and
subtraction are exactly the float operations on each part (no complex multiplication or
division is ever used)."""
_U16 = np.dtype(np.uint16)


class _SmallLayout:
    """Index arrays and constants of the fused path for one (S, B, m, world) shape."""

    __slots__ = ("grid_a", "grid_b", "grid_shot", "half", "lim", "no_body", "no_point",
                 "no_t", "offs", "offs_bytes", "size", "size_grid", "starts_at", "two",
                 "two_inv")  # fmt: skip

    def __init__(self, n_s: int, nb: int, m: int, w: float, h: float) -> None:
        self.offs = np.arange(0, nb * m + 1, m, dtype=np.int64)
        self.offs_bytes = self.offs.tobytes()
        self.starts_at = self.offs[:-1]
        shot = np.repeat(np.arange(n_s, dtype=np.int64), nb)
        self.grid_shot = shot
        self.grid_a = shot + nb  # the shot's row in the stacked boxes
        self.grid_b = np.tile(np.arange(nb, dtype=np.int64), n_s)
        wh = np.array([w, h])
        self.size = np.tile(wh, (n_s, 1))
        self.half = np.tile(0.5 * wh, (n_s, 1))
        self.size_grid = np.tile(wh, n_s * nb)
        self.lim = 0.45 * min(w, h)
        w2 = 2.0 * w
        h2 = 2.0 * h
        self.two = np.tile(np.array([w2, h2]), n_s * nb)
        self.two_inv = self.two if w2 == 0.0 else np.tile(np.array([1.0 / w2, 1.0 / h2]), n_s * nb)
        self.no_body = np.full(n_s, -1, dtype=np.int64)
        self.no_t = np.full(n_s, np.inf)
        self.no_point = np.full((n_s, 2), np.nan)
        for name in self.__slots__:
            a = getattr(self, name)
            if isinstance(a, np.ndarray):
                a.flags.writeable = False


@lru_cache(maxsize=64)
def _small_layout(n_s: int, nb: int, m: int, w: float, h: float) -> _SmallLayout:
    return _SmallLayout(n_s, nb, m, w, h)


@lru_cache(maxsize=256)
def _small_rows(n_c: int, m: int) -> tuple[I64Array, I64Array, I64Array]:
    """Per edge row of ``n_c`` candidates of ``m`` edges: candidate, edge start, edge end."""
    cand = np.repeat(np.arange(n_c, dtype=np.int64), m)
    loc = np.tile(np.arange(m, dtype=np.int64), n_c)
    nxt = np.tile(np.roll(np.arange(m, dtype=np.int64), -1), n_c)
    for a in (cand, loc, nxt):
        a.flags.writeable = False
    return cand, loc, nxt


@lru_cache(maxsize=16)
def _world_floats(w: object, h: object) -> tuple[float, float]:
    world = as_world_size((w, h))
    assert world is not None
    return float(world[0]), float(world[1])


def first_hits_small(
    starts: ArrayLike,
    ends: ArrayLike,
    points: ArrayLike,
    offsets: ArrayLike,
    world_size: ArrayLike | None,
    body_motion: ArrayLike | None,
) -> Hits | None:
    """:func:`first_hits` for few (shot, body) pairs and uniform outlines, or None when the
    inputs are not such a scene (or are invalid: the general path then raises).

    Bit for bit the general path (direct broad phase, one narrow-phase chunk): every value is
    computed with the same IEEE operations on the same operands, only batched differently
    (coordinate pairs gathered and subtracted as one complex value, boxes of shots and bodies
    stacked, no broadcasting), and the per-shot reduction runs over the few hit rows in
    Python floats, in the same order and with the same ties.
    """
    s = np.ascontiguousarray(starts, dtype=np.float64)
    e = np.ascontiguousarray(ends, dtype=np.float64)
    pts = np.ascontiguousarray(points, dtype=np.float64)
    o = np.asarray(offsets)
    if s.ndim != 2 or s.shape[1] != 2 or e.shape != s.shape or pts.ndim != 2:
        return None
    if pts.shape[1] != 2 or o.ndim != 1 or o.dtype.kind not in "iu":
        return None
    n_s = s.shape[0]
    nb = o.shape[0] - 1
    n_v = pts.shape[0]
    if n_s == 0 or nb < 1 or n_v < nb or n_v % nb or n_s * nb > _SMALL_MAX_PAIRS:
        return None
    m = n_v // nb
    wrap = world_size is not None
    w = h = 0.0
    if wrap:
        try:
            if type(world_size) is tuple and len(world_size) == 2:
                w, h = _world_floats(*world_size)
            else:
                w, h = _world_floats(*as_world_size(world_size).tolist())  # type: ignore[union-attr]
        except (TypeError, ValueError):
            return None  # the general path reports it, after checking the other inputs
    lay = _small_layout(n_s, nb, m, w, h)
    if o.dtype.char == "l" and o.flags.c_contiguous and o.dtype.itemsize == 8:
        if o.tobytes() != lay.offs_bytes:
            return None
    elif not (o == lay.offs).all():
        return None
    mo = None
    if body_motion is not None:
        mo = np.ascontiguousarray(body_motion, dtype=np.float64)
        if mo.shape != (nb, 2):
            return None

    # Shot displacement (minimum image) and boxes: bodies (swept by their motion) in rows
    # [0, nb), shots in rows [nb, nb + S). Warnings are off here: a NaN/inf input or an
    # overflow shows up in the box extremes, and the general path then raises or warns.
    with np.errstate(all="ignore"):
        d = e - s
        if wrap:
            d = (d + lay.half) % lay.size - lay.half
            e = s + d
        blo = np.minimum.reduceat(pts, lay.starts_at, axis=0)
        bhi = np.maximum.reduceat(pts, lay.starts_at, axis=0)
        if mo is not None:
            blo = np.minimum(blo, blo + mo)
            bhi = np.maximum(bhi, bhi + mo)
        lo = np.concatenate((blo, np.minimum(s, e)))
        hi = np.concatenate((bhi, np.maximum(s, e)))
        mn = float(lo.min())
        mx = float(hi.max())
    if not (-_SMALL_MAX_SCALE < mn and mx < _SMALL_MAX_SCALE):
        return None
    pad = PAD_REL * max(-mn, mx, 1.0)
    lo -= pad
    hi += pad
    lo_c = lo.view(_C128).ravel()
    hi_c = hi.view(_C128).ravel()

    # Broad phase over every (shot, body) pair, shot-major like box_pairs' direct strategy.
    ga = lay.grid_a
    gb = lay.grid_b
    if wrap:
        ext = hi_c - lo_c
        ext_f = ext.view(_F64)
        if not 2.0 * float(ext_f.max()) < lay.lim:
            if not float(ext_f[2 * nb :].max()) + float(ext_f[: 2 * nb].max()) < lay.lim:
                return None  # large boxes: every image (general path)
        c = lo_c + hi_c
        dxy = (c[gb] - c[ga]).view(_F64)
        kf = np.floor(dxy * lay.two_inv + 0.5)
        ov = np.abs(dxy - kf * lay.two) <= (ext[ga] + ext[gb]).view(_F64)
    else:
        kf = None
        ov = (lo_c[ga].view(_F64) <= hi_c[gb].view(_F64)) & (
            lo_c[gb].view(_F64) <= hi_c[ga].view(_F64)
        )
    k = (ov.view(_U16) == 257).nonzero()[0]  # both axes overlap
    n_c = k.shape[0]
    if n_c == 0:
        return Hits(body=lay.no_body.copy(), edge=lay.no_body.copy(), t=lay.no_t.copy(),
                    point=lay.no_point.copy())  # fmt: skip
    if n_c * m > _SMALL_MAX_ROWS:
        return None
    ia = lay.grid_shot[k]
    ib = gb[k]

    # Narrow phase: candidate c is shot ia[c] against body ib[c] in the image found above,
    # moving relative to the body; one row per (candidate, edge).
    p0 = s.view(_C128).ravel()[ia]
    if kf is not None:
        p0 = p0 - ((0.0 - kf) * lay.size_grid).view(_C128)[k]
    r = d.view(_C128).ravel()[ia]
    if mo is not None:
        r = r - mo.view(_C128).ravel()[ib]
    cand, loc, nxt = _small_rows(n_c, m)
    base = (ib * m)[cand]
    pc = pts.view(_C128).ravel()
    a = pc[base + loc]
    b = pc[base + nxt]
    p = p0[cand]
    rv = r[cand]
    q = a - p
    sv = b - a
    qx = q.real
    qy = q.imag
    sx = sv.real
    sy = sv.imag
    rx = rv.real
    ry = rv.imag
    den = rx * sy - ry * sx
    tn = qx * sy - qy * sx
    un = qx * ry - qy * rx
    lim = np.abs(den) * (1.0 + 2.0 * EPS)  # candidate_rows
    rows = (
        ((np.abs(tn + tn - den) <= lim) & (np.abs(un + un - den) <= lim)) | (den == 0.0)
    ).nonzero()[0]
    py = p.imag
    cross = ((a.imag > py) != (b.imag > py)) & (tn * sy > 0.0)
    inside = np.logical_xor.reduce(cross.reshape(n_c, m), axis=1).nonzero()[0]
    near = None
    if inside.shape[0]:
        # Hit at t = 0 on the edge nearest the start (ties: lowest edge): _seg_d2, where a
        # zero-length edge divides by the smallest subnormal instead of 1 (u is then +-0
        # either way, and d2 does not depend on it).
        ss = sx * sx + sy * sy
        u = -(qx * sx + qy * sy) / np.maximum(ss, 5e-324)
        u = np.minimum(np.maximum(u, 0.0), 1.0)
        cx = qx + u * sx
        cy = qy + u * sy
        near = (cx * cx + cy * cy).reshape(n_c, m)[inside].argmin(axis=1)

    hit_rows = None
    if rows.shape[0] <= _SMALL_PY_ROWS:
        hit_rows = _resolve_py(rows, den, tn, un, p, rv, a, b)
    if hit_rows is None:

        def geom(kk: I64Array) -> tuple:
            g = rows[kk]
            pg = p[g]
            rg = rv[g]
            ag = a[g]
            bg = b[g]
            return pg.real, pg.imag, rg.real, rg.imag, ag.real, ag.imag, bg.real, bg.imag

        hit, t, _ = resolve_rows(den[rows], tn[rows], un[rows], geom)
        hk = hit.nonzero()[0]
        if hk.shape[0] + inside.shape[0] > _SMALL_PY_ROWS:
            hr = rows[hk]
            ci = hr // m
            parts = [(ia[ci], ib[ci], hr - ci * m, t[hk])]
            if near is not None:
                parts.append((ia[inside], ib[inside], near, np.zeros(inside.shape[0])))
            found = _join(parts)
            if found is None:
                return Hits(body=lay.no_body.copy(), edge=lay.no_body.copy(),
                            t=lay.no_t.copy(), point=lay.no_point.copy())  # fmt: skip
            return _reduce_hits(found, s, d, np.array([w, h]) if wrap else None, lay.offs[1:2])
        hit_rows = list(zip(rows[hk].tolist(), t[hk].tolist(), strict=True))

    # Winner per shot, in the general path's row order (segment hits, then starts inside):
    # smallest t, then lowest body, then lowest edge; the first of equal rows wins.
    best: dict[int, tuple[float, int, int]] = {}
    ia_l = ia.tolist()
    ib_l = ib.tolist()
    for row, t_ in hit_rows:
        cc = row // m
        sh = ia_l[cc]
        key = (t_, ib_l[cc], row - cc * m)
        if sh not in best or key < best[sh]:
            best[sh] = key
    if near is not None:
        for cc, ed in zip(inside.tolist(), near.tolist(), strict=True):
            sh = ia_l[cc]
            key = (0.0, ib_l[cc], ed)
            if sh not in best or key < best[sh]:
                best[sh] = key
    if not best:
        return Hits(body=lay.no_body.copy(), edge=lay.no_body.copy(), t=lay.no_t.copy(),
                    point=lay.no_point.copy())  # fmt: skip
    out_body = [-1] * n_s
    out_edge = [-1] * n_s
    out_t = [math.inf] * n_s
    out_pt = [math.nan] * (2 * n_s)
    sl = s.tolist()
    dl = d.tolist()
    for sh, (t_, b_, e_) in best.items():
        out_body[sh] = b_
        out_edge[sh] = e_
        out_t[sh] = t_
        ps = sl[sh]
        ds = dl[sh]
        hx = ps[0] + t_ * ds[0]
        hy = ps[1] + t_ * ds[1]
        if wrap:  # _wrap1
            hx = hx % w
            hx = (0.0 if hx >= w else hx) + 0.0
            hy = hy % h
            hy = (0.0 if hy >= h else hy) + 0.0
        out_pt[2 * sh] = hx
        out_pt[2 * sh + 1] = hy
    return Hits(
        body=np.array(out_body, dtype=np.int64),
        edge=np.array(out_edge, dtype=np.int64),
        t=np.array(out_t, dtype=np.float64),
        point=np.array(out_pt, dtype=np.float64).reshape(n_s, 2),
    )


def _resolve_py(
    rows: I64Array,
    den: F64Array,
    tn: F64Array,
    un: F64Array,
    p: np.ndarray,
    rv: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
) -> list[tuple[int, float]] | None:
    """:func:`resolve_rows` on a few rows in Python floats: ``(row, t)`` of each hit, or None
    when a row needs the numpy version (parallel, or a ``t`` of exactly zero, whose sign the
    numpy clamp decides). ``p``, ``rv``, ``a``, ``b``: complex coordinate pairs per row."""
    out = []
    for row, dn, tv, uv in zip(rows.tolist(), den[rows].tolist(), tn[rows].tolist(),
                               un[rows].tolist(), strict=True):  # fmt: skip
        if dn == 0.0:
            return None
        t = tv / dn
        u = uv / dn
        at_a = u <= EPS
        if at_a or u >= 1.0 - EPS:
            # Snap to the vertex: its projection on the shot, from its own coordinates.
            x0 = float(p[row].real)
            y0 = float(p[row].imag)
            vx = float(rv[row].real)
            vy = float(rv[row].imag)
            v = a[row] if at_a else b[row]
            cx = float(v.real)
            cy = float(v.imag)
            rr = vx * vx + vy * vy
            t = ((cx - x0) * vx + (cy - y0) * vy) / (rr if rr > 0.0 else 1.0)
        if t == 0.0:
            return None
        out.append((row, 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)))
    return out


def _check_inputs(*arrays: F64Array | None) -> None:
    """Raise ``ValueError`` naming the first input that holds NaN or inf."""
    names = ("starts", "ends", "points", "body_motion")
    for name, a in zip(names, arrays, strict=False):
        if a is not None and a.size and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")


def _no_hits(n: int) -> Hits:
    return Hits(
        body=np.full(n, -1, dtype=np.int64),
        edge=np.full(n, -1, dtype=np.int64),
        t=np.full(n, np.inf),
        point=np.full((n, 2), np.nan),
    )


_CHUNK_ROWS = 16384
"""Narrow-phase rows per chunk: keeps temporaries cache-sized and off the mmap path."""


@lru_cache(maxsize=32)
def _ring(m: int) -> tuple[I64Array, I64Array]:
    loc = np.arange(m, dtype=np.int64)
    nxt = np.roll(loc, -1)
    loc.flags.writeable = False
    nxt.flags.writeable = False
    return loc, nxt


def _reduce_hits(
    found: Found, s: F64Array, d: F64Array, world: F64Array | None, counts: I64Array
) -> Hits:
    """Winner per shot from the hit rows, and the output arrays."""
    n_shots = s.shape[0]
    shot, body, edge, t = found
    # Winner per shot: smallest t, then lowest body, then lowest edge.
    if shot.shape[0] <= 4096:
        order = np.lexsort((edge, body, t, shot))
        so = shot[order]
        first = np.ones(so.shape[0], dtype=bool)
        first[1:] = so[1:] != so[:-1]
        win = order[first]
    else:
        tmin = np.full(n_shots, np.inf)
        np.minimum.at(tmin, shot, t)
        tie = (t == tmin[shot]).nonzero()[0]
        key = body[tie] * (int(counts.max()) + 1) + edge[tie]
        kmin = np.full(n_shots, np.iinfo(np.int64).max)
        np.minimum.at(kmin, shot[tie], key)
        win = tie[key == kmin[shot[tie]]]
    ws = shot[win]
    tw = t[win]
    out_body = np.full(n_shots, -1, dtype=np.int64)
    out_edge = np.full(n_shots, -1, dtype=np.int64)
    out_t = np.full(n_shots, np.inf)
    out_pt = np.full((n_shots, 2), np.nan)
    out_body[ws] = body[win]
    out_edge[ws] = edge[win]
    out_t[ws] = tw
    hx = s[:, 0][ws] + tw * d[:, 0][ws]
    hy = s[:, 1][ws] + tw * d[:, 1][ws]
    if world is not None:
        hx = _wrap1(hx, float(world[0]))
        hy = _wrap1(hy, float(world[1]))
    out_pt[ws, 0] = hx
    out_pt[ws, 1] = hy
    return Hits(body=out_body, edge=out_edge, t=out_t, point=out_pt)


Found = tuple[I64Array, I64Array, I64Array, F64Array]
"""Hit rows before the per-shot reduction: (shot, body, edge, t)."""


def _join(parts: list[Found]) -> Found | None:
    if not parts:
        return None
    if len(parts) == 1:
        out = parts[0]
    else:
        out = (
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]),
        )
    return out if out[0].shape[0] else None


def _broad_hits(
    s: F64Array,
    e: F64Array,
    d: F64Array,
    pts: F64Array,
    offs: I64Array,
    counts: I64Array,
    uniform: int,
    world: F64Array | None,
    motion: F64Array | None,
    method: str,
) -> Found | None:
    """Broad phase (boxes), then the candidates' edges in cache-sized chunks."""
    lo, hi = body_boxes(pts, offs, uniform)
    if motion is not None:
        # Swept box: the union of the start and end boxes covers the whole translation.
        lo = np.minimum(lo, lo + motion)
        hi = np.maximum(hi, hi + motion)
    if world is not None:
        e = s + d
    slo = np.minimum(s, e)
    shi = np.maximum(s, e)
    # Scene scale for the box padding (exact: min/max only).
    scale = max(-float(lo.min()), float(hi.max()), -float(slo.min()), float(shi.max()), 1.0)
    pad = PAD_REL * scale
    ia, ib, kx, ky = box_pairs(slo - pad, shi + pad, lo - pad, hi + pad, world, method=method)
    n_c = ia.shape[0]
    if n_c == 0:
        return None
    # Candidate frame: the body image's own coordinates; the shot moves relative to the body.
    p0x = s[:, 0][ia]
    p0y = s[:, 1][ia]
    if world is not None:
        p0x = p0x - kx * world[0]  # type: ignore[operator]
        p0y = p0y - ky * world[1]  # type: ignore[operator]
    rx = d[:, 0][ia]
    ry = d[:, 1][ia]
    if motion is not None:
        rx = rx - motion[:, 0][ib]
        ry = ry - motion[:, 1][ib]
    xs = pts[:, 0]
    ys = pts[:, 1]
    m = uniform if uniform else int(counts[ib].max())
    loc, nxt = _ring(m)
    step = max(1, _CHUNK_ROWS // m)
    parts: list[Found] = []
    for c0 in range(0, n_c, step):
        c1 = min(n_c, c0 + step)
        ibc = ib[c0:c1]
        base = offs[ibc][:, None]
        if uniform:
            a = base + loc
            b = base + nxt
            valid = None
        else:
            nn = counts[ibc][:, None]
            a = base + np.minimum(loc, nn - 1)
            b = base + np.where(loc + 1 < nn, loc + 1, 0)
            valid = loc < nn
        ax = xs[a]
        ay = ys[a]
        bx = xs[b]
        by = ys[b]
        px = p0x[c0:c1, None]
        py = p0y[c0:c1, None]
        qx = ax - px
        qy = ay - py
        sx = bx - ax
        sy = by - ay
        vx = rx[c0:c1, None]
        vy = ry[c0:c1, None]
        den = vx * sy - vy * sx
        tn = qx * sy - qy * sx
        un = qx * vy - qy * vx
        cross = ((ay > py) != (by > py)) & (tn * sy > 0.0)
        sel = candidate_rows(den, tn, un)
        if valid is not None:
            cross &= valid
            sel &= valid
        inside = (np.logical_xor.reduce(cross, axis=1)).nonzero()[0]
        rows = sel.ravel().nonzero()[0]
        if rows.shape[0]:
            ci = rows // m
            cg = ci + c0

            def geom(k: I64Array, rows=rows, cg=cg, ax=ax, ay=ay, bx=bx, by=by) -> tuple:
                r = rows[k]
                g = cg[k]
                return (p0x[g], p0y[g], rx[g], ry[g], ax.ravel()[r], ay.ravel()[r],
                        bx.ravel()[r], by.ravel()[r])  # fmt: skip

            hit, t, _ = resolve_rows(den.ravel()[rows], tn.ravel()[rows], un.ravel()[rows], geom)
            k = hit.nonzero()[0]
            parts.append((ia[cg[k]], ib[cg[k]], rows[k] - ci[k] * m, t[k]))
        if inside.shape[0]:
            # Hit at t = 0 on the edge nearest the start (ties: lowest edge).
            d2 = point_segment_distance2(qx, qy, sx, sy)[inside]
            if valid is not None:
                d2 = np.where(valid[inside], d2, np.inf)
            g = inside + c0
            parts.append(
                (ia[g], ib[g], np.argmin(d2, axis=1).astype(np.int64), np.zeros(g.shape[0]))
            )
    return _join(parts)


def _wrap1(x: F64Array, w: float) -> F64Array:
    """One axis of :func:`asteroids.core.geometry.wrap.wrap_positions`."""
    y = x % w
    return np.where(y >= w, 0.0, y) + 0.0
