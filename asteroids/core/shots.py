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

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import PAD_REL, body_boxes, box_pairs, check_method
from asteroids.core.geometry.checks import (
    F64Array,
    I64Array,
    as_world_size,
    offsets_counts,
    vec2,
)
from asteroids.core.geometry.polygon import point_segment_distance2
from asteroids.core.geometry.segment import candidate_rows, resolve_rows
from asteroids.core.hits import Found, Hits, join_found, no_hits, reduce_hits
from asteroids.core.shots_small import first_hits_small

__all__ = [
    "Hits",
    "first_hits",
    "first_hits_small",
]


def first_hits(
    starts: ArrayLike,
    ends: ArrayLike,
    points: ArrayLike,
    offsets: ArrayLike,
    *,
    world_size: ArrayLike | None = None,
    body_motion: ArrayLike | None = None,
    method: str = "auto",
    among: tuple[ArrayLike, ArrayLike] | None = None,
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
        among: ``(shot, body)`` index arrays: the only pairs tested (``broadphase.box_pairs``'
            ``among``), for many independent scenes in one query (a batch of games, each
            shot tested against its own game's bodies). Each shot's answer is the one a query
            of its own scene gives (the broad phase's padding, a fraction of the scene's
            scale, may only grow with more scenes: it never drops a pair the narrow phase
            accepts). None: every pair.

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
    if method == "auto" and among is None:
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
        return no_hits(s.shape[0])
    d = e - s
    if world is not None:
        half = 0.5 * world
        d = (d + half) % world - half
    pairs = None if among is None else (np.asarray(among[0], dtype=np.int64),
                                        np.asarray(among[1], dtype=np.int64))
    found = _broad_hits(s, e, d, pts, offs, counts, uniform, world, motion, method, pairs)
    if found is None:
        return no_hits(s.shape[0])
    return reduce_hits(found, s, d, world, counts)


# --------------------------------------------------------------------------------------------
# first_hits, small scenes: the same arithmetic in far fewer, cheaper numpy calls


def _check_inputs(*arrays: F64Array | None) -> None:
    """Raise ``ValueError`` naming the first input that holds NaN or inf."""
    names = ("starts", "ends", "points", "body_motion")
    for name, a in zip(names, arrays, strict=False):
        if a is not None and a.size and not np.isfinite(a).all():
            raise ValueError(f"{name} contains NaN or inf")


_CHUNK_ROWS = 16384
"""Narrow-phase rows per chunk: keeps temporaries cache-sized and off the mmap path."""


def _ring(m: int) -> tuple[I64Array, I64Array]:
    """The edges of an ``m``-point outline: start ``loc``, end ``nxt`` (the last closes it)."""
    loc = np.arange(m, dtype=np.int64)
    nxt = loc + 1
    nxt[-1] = 0
    return loc, nxt


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
    among: tuple[I64Array, I64Array] | None = None,
) -> Found | None:
    """Broad phase (boxes, over the pairs ``among`` when given), then the candidates' edges
    in cache-sized chunks."""
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
    ia, ib, kx, ky = box_pairs(slo - pad, shi + pad, lo - pad, hi + pad, world, method=method,
                               among=among)
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
    return join_found(parts)
