"""The shot query for small scenes: few (shot, body) pairs with uniform outlines, answered
with the same IEEE operations as the general path (``asteroids.core.shots``) in far fewer,
cheaper numpy calls. Most ticks of a real game that query at all take this path.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import PAD_REL
from asteroids.core.geometry.checks import F64Array, I64Array, as_world_size
from asteroids.core.geometry.segment import EPS, resolve_rows
from asteroids.core.hits import Hits, join_found, no_hits, reduce_hits

__all__ = ["SMALL_MAX_PAIRS", "SMALL_MAX_ROWS", "first_hits_small"]


def _world_floats(world_size: ArrayLike) -> tuple[float, float] | None:
    """``(W, H)`` as two floats, or None when they are not two finite positive numbers."""
    if type(world_size) is tuple and len(world_size) == 2:
        w, h = world_size
        if type(w) is float and type(h) is float and 0.0 < w < math.inf and 0.0 < h < math.inf:
            return w, h
    try:
        world = as_world_size(world_size)
    except ValueError:
        return None
    assert world is not None
    return float(world[0]), float(world[1])


SMALL_MAX_PAIRS = 1024
"""``first_hits(method="auto")`` takes the fused path below up to this many (shot, body) pairs
(uniform outlines only); above it, or for anything unusual, the general path."""


SMALL_MAX_ROWS = 16384
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
    if n_s == 0 or nb < 1 or n_v < nb or n_v % nb or n_s * nb > SMALL_MAX_PAIRS:
        return None
    m = n_v // nb
    wrap = world_size is not None
    w = h = 0.0
    if world_size is not None:
        size = _world_floats(world_size)
        if size is None:
            return None  # the general path reports it, after checking the other inputs
        w, h = size
    offs = np.arange(0, nb * m + 1, m, dtype=np.int64)
    if o.dtype.char == "l" and o.flags.c_contiguous and o.dtype.itemsize == 8:
        if o.tobytes() != offs.tobytes():
            return None
    elif not (o == offs).all():
        return None
    mo = None
    if body_motion is not None:
        mo = np.ascontiguousarray(body_motion, dtype=np.float64)
        if mo.shape != (nb, 2):
            return None

    # Shot displacement (minimum image) and boxes: bodies (swept by their motion) in rows
    # [0, nb), shots in rows [nb, nb + S). Warnings are off here: a NaN/inf input or an
    # overflow shows up in the box extremes, and the general path then raises or warns.
    wh = np.array([w, h])
    with np.errstate(all="ignore"):
        d = e - s
        if wrap:
            half = 0.5 * wh
            d = (d + half) % wh - half
            e = s + d
        starts_at = offs[:-1]
        blo = np.minimum.reduceat(pts, starts_at, axis=0)
        bhi = np.maximum.reduceat(pts, starts_at, axis=0)
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

    # Broad phase over every (shot, body) pair, shot-major like box_pairs' direct strategy:
    # pair g is shot g // nb (its box in row nb + g // nb) against body g % nb.
    g_shot, gb = np.divmod(np.arange(n_s * nb, dtype=np.int64), nb)
    ga = g_shot + nb
    if wrap:
        lim = 0.45 * min(w, h)
        ext = hi_c - lo_c
        ext_f = ext.view(_F64)
        if not 2.0 * float(ext_f.max()) < lim:
            if not float(ext_f[2 * nb :].max()) + float(ext_f[: 2 * nb].max()) < lim:
                return None  # large boxes: every image (general path)
        c = lo_c + hi_c
        two = 2.0 * wh
        dxy = (c[gb] - c[ga]).view(_F64).reshape(-1, 2)
        kf = np.floor(dxy * (1.0 / two) + 0.5)
        ov = np.abs(dxy - kf * two) <= (ext[ga] + ext[gb]).view(_F64).reshape(-1, 2)
    else:
        kf = None
        ov = (lo_c[ga].view(_F64) <= hi_c[gb].view(_F64)) & (
            lo_c[gb].view(_F64) <= hi_c[ga].view(_F64)
        )
    k = (ov.view(_U16).ravel() == 257).nonzero()[0]  # both axes overlap
    n_c = k.shape[0]
    if n_c == 0:
        return no_hits(n_s)
    if n_c * m > SMALL_MAX_ROWS:
        return None
    ia = g_shot[k]
    ib = gb[k]

    # Narrow phase: candidate c is shot ia[c] against body ib[c] in the image found above,
    # moving relative to the body; one row per (candidate, edge).
    p0 = s.view(_C128).ravel()[ia]
    if kf is not None:
        p0 = p0 - ((0.0 - kf) * wh).view(_C128).ravel()[k]
    r = d.view(_C128).ravel()[ia]
    if mo is not None:
        r = r - mo.view(_C128).ravel()[ib]
    # One row per (candidate, edge): candidate, edge start, edge end.
    cand, loc = np.divmod(np.arange(n_c * m, dtype=np.int64), m)
    nxt = np.where(loc == m - 1, 0, loc + 1)
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
            found = join_found(parts)
            if found is None:
                return no_hits(n_s)
            return reduce_hits(found, s, d, wh if wrap else None, offs[1:2])
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
        return no_hits(n_s)
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
