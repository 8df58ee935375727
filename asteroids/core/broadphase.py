"""Broad phase: which axis-aligned boxes may overlap, in a plain or wrapping world.

Two interchangeable strategies return the same candidate set:

* **direct**: every (a, b) pair, for small inputs where numpy call overhead dominates;
* **grid**: a uniform grid (counting sort by cell key with a stable argsort, ``searchsorted``
  joins), whose cost grows with the number of candidate pairs instead of ``A x B``. A pair that
  shares several cells is kept only in the lower-left cell of its overlap, so no duplicates.

In a wrapping world ``(W, H)`` each candidate carries the image shift ``(kx, ky)``: box ``b``
moved by ``(kx * W, ky * H)`` overlaps box ``a``. Bodies straddling a border, and boxes extending
outside ``[0, W) x [0, H)``, are therefore found on every side. Both strategies finish with the
same float box test, so the result does not depend on the strategy or the cell size; only the
speed does. Integer keys and stable sorts keep the output order deterministic.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from asteroids.core.geometry import F64Array, I64Array

__all__ = [
    "Boxes",
    "DIRECT_MAX_PAIRS",
    "body_boxes",
    "box_pairs",
    "box_self_pairs",
]

Boxes = tuple[F64Array, F64Array, F64Array, F64Array]
"""Axis-aligned boxes as four ``(N,)`` float64 arrays ``(x0, y0, x1, y1)``."""

DIRECT_MAX_PAIRS = 40_000
"""Use the all-pairs strategy up to this many (a, b) pairs; the grid above."""

_CELL_PAD = 1e-6
"""Cell-index padding (in cells) on the table side, so rounding of an image shift never loses a
pair (``floor((x + k W) / c)`` may differ from ``floor(x / c) + k nx`` by one ulp)."""

_MAX_CELLS_PER_BOX = 64


def body_boxes(points: F64Array, offsets: I64Array) -> Boxes:
    """Bounding box of each packed outline (exact: only min/max).

    Args:
        points: ``(V, 2)`` packed outline points.
        offsets: ``(B + 1,)`` body offsets (every body non-empty).

    Returns:
        ``(x0, y0, x1, y1)``, each ``(B,)``.
    """
    nb = offsets.shape[0] - 1
    v = points.shape[0]
    if nb == 0:
        e = np.zeros(0)
        return e, e, e, e
    if v % nb == 0 and offsets[1] == v // nb and offsets[-2] == v - v // nb:
        m = v // nb
        if (offsets[1:] - offsets[:-1] == m).all():
            r = points.reshape(nb, m, 2)
            lo = r.min(axis=1)
            hi = r.max(axis=1)
            return lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]
    st = offsets[:-1]
    x = points[:, 0]
    y = points[:, 1]
    return (
        np.minimum.reduceat(x, st),
        np.minimum.reduceat(y, st),
        np.maximum.reduceat(x, st),
        np.maximum.reduceat(y, st),
    )


def box_pairs(
    a: Boxes,
    b: Boxes,
    world: F64Array | None,
    *,
    method: str = "auto",
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """All (a, b, image) triples whose boxes overlap (inclusive).

    Args:
        a: query boxes, each array ``(A,)``.
        b: table boxes, each array ``(B,)``.
        world: ``(2,)`` world size for a wrapping world, or None.
        method: ``"auto"``, ``"direct"`` or ``"grid"`` (same result, different speed).

    Returns:
        ``(ia, ib, kx, ky)`` int64 arrays: box ``b[ib]`` shifted by ``(kx * W, ky * H)`` overlaps
        box ``a[ia]`` (``kx = ky = 0`` without wrap). Order is deterministic but unspecified.
    """
    na = a[0].shape[0]
    nb = b[0].shape[0]
    if na == 0 or nb == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z
    if method == "direct" or (method == "auto" and na * nb <= DIRECT_MAX_PAIRS):
        ia, ib, kx, ky = _direct_pairs(a, b, world)
    else:
        ia, ib, kx, ky = _grid_pairs(a, b, world)
    return _box_filter(a, b, world, ia, ib, kx, ky)


def box_self_pairs(
    a: Boxes, world: F64Array | None, *, method: str = "auto"
) -> tuple[I64Array, I64Array]:
    """Unordered pairs ``i < j`` of boxes that overlap in some image (may repeat a pair when
    a box is larger than half the world: callers deduplicate after their exact test).

    Args:
        a: boxes, each array ``(N,)``.
        world: ``(2,)`` world size for a wrapping world, or None.
        method: ``"auto"``, ``"direct"`` or ``"grid"``.

    Returns:
        ``(i, j)`` int64 arrays with ``i < j``.
    """
    n = a[0].shape[0]
    if n < 2:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    if method == "direct" or (method == "auto" and n * n <= 2 * DIRECT_MAX_PAIRS):
        i, j = _triu(n)
        if world is None:
            keep = _overlap(a, i, a, j, None, None)
            return i[keep], j[keep]
        ia, ib, kx, ky = _image_ranges(a, i, a, j, world)
        ia, ib, kx, ky = _box_filter(a, a, world, ia, ib, kx, ky)
        return ia, ib
    i, j = _grid_self_pairs(a, world)
    return i, j


# --------------------------------------------------------------------------------------------
# direct strategy
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _triu(n: int) -> tuple[I64Array, I64Array]:
    i, j = np.triu_indices(n, 1)
    i = i.astype(np.int64)
    j = j.astype(np.int64)
    i.flags.writeable = False
    j.flags.writeable = False
    return i, j


def _overlap(
    a: Boxes, ia: I64Array, b: Boxes, ib: I64Array, sx: F64Array | None, sy: F64Array | None
) -> np.ndarray:
    if sx is None:
        return (
            (a[0][ia] <= b[2][ib])
            & (b[0][ib] <= a[2][ia])
            & (a[1][ia] <= b[3][ib])
            & (b[1][ib] <= a[3][ia])
        )
    bx0 = b[0][ib] + sx
    bx1 = b[2][ib] + sx
    by0 = b[1][ib] + sy
    by1 = b[3][ib] + sy
    return (a[0][ia] <= bx1) & (bx0 <= a[2][ia]) & (a[1][ia] <= by1) & (by0 <= a[3][ia])


def _direct_pairs(
    a: Boxes, b: Boxes, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    na = a[0].shape[0]
    nb = b[0].shape[0]
    if world is None:
        m = (
            (a[0][:, None] <= b[2][None, :])
            & (b[0][None, :] <= a[2][:, None])
            & (a[1][:, None] <= b[3][None, :])
            & (b[1][None, :] <= a[3][:, None])
        )
        ia, ib = np.nonzero(m)
        z = np.zeros(ia.shape[0], dtype=np.int64)
        return ia.astype(np.int64), ib.astype(np.int64), z, z
    ia = np.repeat(np.arange(na, dtype=np.int64), nb)
    ib = np.tile(np.arange(nb, dtype=np.int64), na)
    return _image_ranges(a, ia, b, ib, world)


def _image_ranges(
    a: Boxes, ia: I64Array, b: Boxes, ib: I64Array, world: F64Array
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """Expand pairs to every image shift k with overlapping projections (padded by rounding)."""
    w, h = float(world[0]), float(world[1])
    # b + k W overlaps a on x  <=>  (a.x0 - b.x1) / W <= k <= (a.x1 - b.x0) / W
    kx0 = np.ceil((a[0][ia] - b[2][ib]) / w - 1e-9)
    kx1 = np.floor((a[2][ia] - b[0][ib]) / w + 1e-9)
    ky0 = np.ceil((a[1][ia] - b[3][ib]) / h - 1e-9)
    ky1 = np.floor((a[3][ia] - b[1][ib]) / h + 1e-9)
    nx = np.maximum(kx1 - kx0 + 1.0, 0.0).astype(np.int64)
    ny = np.maximum(ky1 - ky0 + 1.0, 0.0).astype(np.int64)
    cnt = nx * ny
    if (cnt <= 1).all():
        keep = np.flatnonzero(cnt)
        return ia[keep], ib[keep], kx0[keep].astype(np.int64), ky0[keep].astype(np.int64)
    owner = np.repeat(np.arange(cnt.shape[0]), cnt)
    local = np.arange(owner.shape[0]) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    nxo = nx[owner]
    kx = kx0[owner].astype(np.int64) + local % nxo
    ky = ky0[owner].astype(np.int64) + local // nxo
    return ia[owner], ib[owner], kx, ky


def _box_filter(
    a: Boxes,
    b: Boxes,
    world: F64Array | None,
    ia: I64Array,
    ib: I64Array,
    kx: I64Array,
    ky: I64Array,
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """The final float box test shared by both strategies (so they agree exactly)."""
    if world is None:
        keep = _overlap(a, ia, b, ib, None, None)
    else:
        keep = _overlap(a, ia, b, ib, kx * float(world[0]), ky * float(world[1]))
    if keep.all():
        return ia, ib, kx, ky
    keep = np.flatnonzero(keep)
    return ia[keep], ib[keep], kx[keep], ky[keep]


# --------------------------------------------------------------------------------------------
# grid strategy
# --------------------------------------------------------------------------------------------


class _Grid:
    """Cell geometry: cell size, and the wrap period in cells (0 = no wrap)."""

    __slots__ = ("inv_w", "inv_h", "nx", "ny")

    def __init__(self, a: Boxes, b: Boxes, world: F64Array | None) -> None:
        ext_b = np.maximum(b[2] - b[0], b[3] - b[1])
        ext_a = np.maximum(a[2] - a[0], a[3] - a[1])
        # Cell about the size of a typical table box: few cells per box, few boxes per cell.
        # Only speed depends on this choice, never the result.
        cell = max(float(np.median(ext_b)), 0.5 * float(np.median(ext_a)), 1e-9)
        span = max(
            float(np.max(np.abs(b[0]))), float(np.max(np.abs(b[2]))),
            float(np.max(np.abs(b[1]))), float(np.max(np.abs(b[3]))),
            float(np.max(np.abs(a[0]))), float(np.max(np.abs(a[2]))),
            float(np.max(np.abs(a[1]))), float(np.max(np.abs(a[3]))),
        )  # fmt: skip
        cell = max(cell, span / 2.0**20)  # keeps cell indices small integers
        if world is None:
            self.nx = 0
            self.ny = 0
            self.inv_w = 1.0 / cell
            self.inv_h = 1.0 / cell
        else:
            w, h = float(world[0]), float(world[1])
            self.nx = max(1, int(w / cell))
            self.ny = max(1, int(h / cell))
            self.inv_w = self.nx / w
            self.inv_h = self.ny / h

    def cells(self, bx: Boxes, pad: float) -> tuple[I64Array, I64Array, I64Array, I64Array]:
        cx0 = np.floor(bx[0] * self.inv_w - pad).astype(np.int64)
        cy0 = np.floor(bx[1] * self.inv_h - pad).astype(np.int64)
        cx1 = np.floor(bx[2] * self.inv_w + pad).astype(np.int64)
        cy1 = np.floor(bx[3] * self.inv_h + pad).astype(np.int64)
        return cx0, cy0, cx1, cy1


def _expand_cells(
    cx0: I64Array, cy0: I64Array, cx1: I64Array, cy1: I64Array
) -> tuple[I64Array, I64Array, I64Array]:
    """One entry per covered cell: (owner, unwrapped cell x, unwrapped cell y)."""
    wx = cx1 - cx0 + 1
    n = wx * (cy1 - cy0 + 1)
    if (n == 1).all():
        return np.arange(n.shape[0], dtype=np.int64), cx0, cy0
    owner = np.repeat(np.arange(n.shape[0], dtype=np.int64), n)
    local = np.arange(owner.shape[0], dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    wxo = wx[owner]
    return owner, cx0[owner] + local % wxo, cy0[owner] + local // wxo


def _keys(ux: I64Array, uy: I64Array, grid: _Grid, x_min: int, y_min: int, ny: int) -> I64Array:
    if grid.nx:
        return (ux % grid.nx) * grid.ny + (uy % grid.ny)
    return (ux - x_min) * ny + (uy - y_min)


def _coarsen(cells: tuple[I64Array, I64Array, I64Array, I64Array]) -> bool:
    cx0, cy0, cx1, cy1 = cells
    n = (cx1 - cx0 + 1) * (cy1 - cy0 + 1)
    return bool(n.shape[0]) and int(n.max()) > _MAX_CELLS_PER_BOX


def _grid_pairs(
    a: Boxes, b: Boxes, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    grid = _Grid(a, b, world)
    ca = grid.cells(a, 0.0)
    cb = grid.cells(b, _CELL_PAD)
    while _coarsen(cb) or _coarsen(ca):
        # A few huge boxes: a coarser grid keeps the entry count bounded.
        grid.inv_w *= 0.5
        grid.inv_h *= 0.5
        if grid.nx:
            grid.nx = max(1, grid.nx // 2)
            grid.ny = max(1, grid.ny // 2)
            grid.inv_w = grid.nx / float(world[0])  # type: ignore[index]
            grid.inv_h = grid.ny / float(world[1])  # type: ignore[index]
        ca = grid.cells(a, 0.0)
        cb = grid.cells(b, _CELL_PAD)
    ob, ubx, uby = _expand_cells(*cb)
    oa, uax, uay = _expand_cells(*ca)
    if grid.nx:
        x_min = y_min = ny = 0
    else:
        x_min = min(int(cb[0].min()), int(ca[0].min()))
        y_min = min(int(cb[1].min()), int(ca[1].min()))
        ny = max(int(cb[3].max()), int(ca[3].max())) - y_min + 1
    kb = _keys(ubx, uby, grid, x_min, y_min, ny)
    order = np.argsort(kb, kind="stable")
    kb = kb[order]
    ob = ob[order]
    ubx = ubx[order]
    uby = uby[order]
    ka = _keys(uax, uay, grid, x_min, y_min, ny)
    lo = np.searchsorted(kb, ka, "left")
    hi = np.searchsorted(kb, ka, "right")
    cnt = hi - lo
    total = int(cnt.sum())
    if total == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z
    pa = np.repeat(np.arange(ka.shape[0], dtype=np.int64), cnt)
    pos = np.repeat(lo - (np.cumsum(cnt) - cnt), cnt) + np.arange(total, dtype=np.int64)
    ia = oa[pa]
    ib = ob[pos]
    ax = uax[pa]
    ay = uay[pa]
    if grid.nx:
        kx = (ax - ubx[pos]) // grid.nx
        ky = (ay - uby[pos]) // grid.ny
        keep = (ax == np.maximum(ca[0][ia], cb[0][ib] + kx * grid.nx)) & (
            ay == np.maximum(ca[1][ia], cb[1][ib] + ky * grid.ny)
        )
    else:
        kx = ky = np.zeros(total, dtype=np.int64)
        keep = (ax == np.maximum(ca[0][ia], cb[0][ib])) & (ay == np.maximum(ca[1][ia], cb[1][ib]))
    keep = np.flatnonzero(keep)
    return ia[keep], ib[keep], kx[keep], ky[keep]


def _grid_self_pairs(a: Boxes, world: F64Array | None) -> tuple[I64Array, I64Array]:
    grid = _Grid(a, a, world)
    ca = grid.cells(a, _CELL_PAD)
    while _coarsen(ca):
        grid.inv_w *= 0.5
        grid.inv_h *= 0.5
        if grid.nx:
            grid.nx = max(1, grid.nx // 2)
            grid.ny = max(1, grid.ny // 2)
            grid.inv_w = grid.nx / float(world[0])  # type: ignore[index]
            grid.inv_h = grid.ny / float(world[1])  # type: ignore[index]
        ca = grid.cells(a, _CELL_PAD)
    o, ux, uy = _expand_cells(*ca)
    if grid.nx:
        x_min = y_min = ny = 0
    else:
        x_min = int(ca[0].min())
        y_min = int(ca[1].min())
        ny = int(ca[3].max()) - y_min + 1
    k = _keys(ux, uy, grid, x_min, y_min, ny)
    order = np.argsort(k, kind="stable")
    k = k[order]
    o = o[order]
    ux = ux[order]
    uy = uy[order]
    end = np.searchsorted(k, k, "right")
    pos = np.arange(k.shape[0], dtype=np.int64)
    cnt = end - pos - 1
    total = int(cnt.sum())
    if total == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    p = np.repeat(pos, cnt)
    q = p + 1 + (np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(cnt) - cnt, cnt))
    i = o[p]
    j = o[q]
    px = ux[p]
    py = uy[p]
    if grid.nx:
        kx = (px - ux[q]) // grid.nx
        ky = (py - uy[q]) // grid.ny
        keep = (
            (i != j)
            & (px == np.maximum(ca[0][i], ca[0][j] + kx * grid.nx))
            & (py == np.maximum(ca[1][i], ca[1][j] + ky * grid.ny))
        )
    else:
        keep = (px == np.maximum(ca[0][i], ca[0][j])) & (py == np.maximum(ca[1][i], ca[1][j]))
    keep = np.flatnonzero(keep)
    i = i[keep]
    j = j[keep]
    return np.minimum(i, j), np.maximum(i, j)
