"""Polygon overlap: whether given pairs of closed polygons touch, plain or wrapping.

:func:`polygons_overlap` tests every edge pair of each candidate (the inclusive, EPS-widened
segment test of :mod:`asteroids.core.geometry.segment`) and containment both ways, so a
polygon wholly inside another overlaps it. The caller chooses the pairs (usually from a broad
phase).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from asteroids.core.broadphase import body_boxes
from asteroids.core.geometry.checks import BoolArray, as_offsets, as_vec2, as_world_size
from asteroids.core.geometry.polygon import edge_rows, points_in_polygons
from asteroids.core.geometry.segment import segment_intersections

__all__ = [
    "polygons_overlap",
]


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
    one vertex each way; see :func:`asteroids.core.geometry.polygon.points_in_polygons`).

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
        alo, ahi = body_boxes(pa, oa)
        blo, bhi = body_boxes(pb, ob)
        cax = 0.5 * (alo[ia, 0] + ahi[ia, 0])
        cay = 0.5 * (alo[ia, 1] + ahi[ia, 1])
        cbx = 0.5 * (blo[ib, 0] + bhi[ib, 0])
        cby = 0.5 * (blo[ib, 1] + bhi[ib, 1])
        dx = cbx - cax
        dy = cby - cay
        hw = 0.5 * world[0]
        hh = 0.5 * world[1]
        shx = ((dx + hw) % world[0] - hw) - dx
        shy = ((dy + hh) % world[1] - hh) - dy
    # Every (edge of A, edge of B) per pair.
    na = (oa[1:] - oa[:-1])[ia]
    nbb = (ob[1:] - ob[:-1])[ib]
    _, a0, a1 = edge_rows(oa, ia)  # rows over A's edges, grouped by pair
    _, b0, b1 = edge_rows(ob, ib)
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
    hit, _, _ = segment_intersections(p_x, p_y, r_x, r_y, q_x, q_y, e_x, e_y)
    crossed = np.bincount(pair[hit], minlength=n_p) > 0
    # Containment: a vertex of A inside B (B's frame) or a vertex of B inside A.
    va = oa[ia]
    vb = ob[ib]
    a_in_b = points_in_polygons(pa[va, 0] - shx, pa[va, 1] - shy, pb, ob, ib)
    b_in_a = points_in_polygons(pb[vb, 0] + shx, pb[vb, 1] + shy, pa, oa, ia)
    return crossed | a_in_b | b_in_a
