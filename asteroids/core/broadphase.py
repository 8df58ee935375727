"""Broad phase: which axis-aligned boxes may overlap, in a plain or a wrapping world.

Two interchangeable strategies return the same overlapping pairs:

* **direct**: every (a, b) pair at once with broadcasting, for small inputs where numpy's fixed
  per-call cost dominates;
* **sweep**: sort-and-sweep in horizontal strips, whose cost follows the number of candidate
  pairs instead of ``A x B`` (``asteroids.core.broadphase_sweep``).

In a wrapping world ``(W, H)`` every box is first moved into the world by whole periods and
boxes crossing the right/top border get *ghost* copies one period to the left/below, so a body
straddling a border is found from both sides; a pair is reported as ``(a, b, kx, ky)`` meaning
"box ``b`` shifted by ``(kx W, ky H)`` overlaps box ``a``". This needs every box to be smaller
than half the world (always true for asteroids and shots); larger boxes use the direct strategy,
which enumerates every overlapping image.

Everything is integer bookkeeping plus float comparisons, with stable sorts only: the output
order is deterministic, and the final float box test is the same in both strategies, so the
result never depends on the strategy chosen.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.broadphase_sweep import stable_order, sweep_pairs, sweep_self
from asteroids.core.geometry.checks import F64Array, I64Array

__all__ = [
    "DIRECT_MAX_PAIRS",
    "METHODS",
    "PAD_REL",
    "body_boxes",
    "box_pairs",
    "box_self_pairs",
    "check_method",
    "stable_order",
]


DIRECT_MAX_PAIRS = 40_000
"""``"auto"`` uses the all-pairs strategy up to this many (a, b) pairs, the sweep above."""


PAD_REL = 1e-7
"""The collision queries grow their broad-phase boxes by this fraction of the scene scale, so
hits accepted within the narrow phase's EPS tolerance are never culled."""


def body_boxes(points: F64Array, offsets: I64Array, uniform: int = 0) -> tuple[F64Array, F64Array]:
    """Bounding box of each packed outline (exact: min/max only).

    Args:
        points: ``(V, 2)`` packed outline points.
        offsets: ``(B + 1,)`` body offsets, every body non-empty.
        uniform: ``m`` if every body has exactly ``m`` points (enables a faster layout), else 0.

    Returns:
        ``(lo, hi)``, each ``(B, 2)``: lower-left and upper-right corners.
    """
    nb = offsets.shape[0] - 1
    if nb == 0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    if uniform and nb >= 64:
        # Coordinates as (2m, B) rows: min/max across rows run elementwise over B, which is
        # several times faster than reduceat over short runs.
        t = np.ascontiguousarray(points.reshape(nb, 2 * uniform).T)
        xs = t[0::2]
        ys = t[1::2]
        lo = np.empty((nb, 2))
        hi = np.empty((nb, 2))
        lo[:, 0] = xs.min(axis=0)
        lo[:, 1] = ys.min(axis=0)
        hi[:, 0] = xs.max(axis=0)
        hi[:, 1] = ys.max(axis=0)
        return lo, hi
    st = offsets[:-1]
    return np.minimum.reduceat(points, st, axis=0), np.maximum.reduceat(points, st, axis=0)


METHODS = ("auto", "direct", "sweep")
"""The broad phase's ways of finding pairs: all give the same pairs; "auto" picks by size."""


def check_method(method: str) -> None:
    """Refuse an unknown broad-phase method (a typo would otherwise silently mean "sweep")."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def box_pairs(
    alo: F64Array,
    ahi: F64Array,
    blo: F64Array,
    bhi: F64Array,
    world: F64Array | None,
    *,
    method: str = "auto",
    among: tuple[I64Array, I64Array] | None = None,
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    """All (a, b, image) triples whose boxes overlap (inclusive bounds).

    Args:
        alo: ``(A, 2)`` lower corners of the query boxes.
        ahi: ``(A, 2)`` upper corners of the query boxes.
        blo: ``(B, 2)`` lower corners of the table boxes.
        bhi: ``(B, 2)`` upper corners of the table boxes.
        world: ``(2,)`` world size for a wrapping world, or None.
        method: ``"auto"``, ``"direct"`` or ``"sweep"`` (same pairs, different speed).
        among: ``(ia, ib)``, the only (a, b) pairs to test (the direct strategy over them,
            in their order): many independent scenes in one call, e.g. a batch of games
            whose boxes may meet only within a game. None: every pair.

    Returns:
        ``(ia, ib, kx, ky)``: int64 arrays; box ``b[ib]`` shifted by ``(kx W, ky H)`` overlaps box
        ``a[ia]``. ``kx``/``ky`` are None without wrap. Order is deterministic, unspecified.
    """
    check_method(method)
    na = alo.shape[0]
    nb = blo.shape[0]
    z = np.zeros(0, dtype=np.int64)
    if na == 0 or nb == 0 or (among is not None and among[0].shape[0] == 0):
        return z, z, (None if world is None else z), (None if world is None else z)
    direct = among is not None or method == "direct" or (
        method == "auto" and na * nb <= DIRECT_MAX_PAIRS)
    if world is None:
        if direct:
            return _direct_plain(alo, ahi, blo, bhi, among or _grid_index(na, nb))
        return sweep_pairs(alo, ahi, blo, bhi, None)
    ea = ahi - alo
    eb = bhi - blo
    if not _small(ea, eb, world):
        return _direct_images(alo, ahi, blo, bhi, world, among or _grid_index(na, nb))
    if direct:
        return _direct_nearest(alo, ahi, blo, bhi, world, ea, eb, among or _grid_index(na, nb))
    return sweep_pairs(alo, ahi, blo, bhi, world)


def box_self_pairs(
    lo: F64Array, hi: F64Array, world: F64Array | None, *, method: str = "auto"
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    """Pairs ``i < j`` of boxes of one set that overlap (in some image when wrapping).

    Args:
        lo: ``(N, 2)`` lower corners.
        hi: ``(N, 2)`` upper corners.
        world: ``(2,)`` world size for a wrapping world, or None.
        method: ``"auto"``, ``"direct"`` or ``"sweep"``.

    Returns:
        ``(i, j, kx, ky)``: box ``j`` shifted by ``(kx W, ky H)`` overlaps box ``i``; ``i < j``.
        A pair may repeat with different images only when a box is larger than half the world.
    """
    check_method(method)
    n = lo.shape[0]
    z = np.zeros(0, dtype=np.int64)
    if n < 2:
        return z, z, (None if world is None else z), (None if world is None else z)
    direct = method == "direct" or (method == "auto" and n * n <= 2 * DIRECT_MAX_PAIRS)
    if world is None:
        if not direct:
            return sweep_self(lo, hi, None)
        ia, ib, _, _ = _direct_plain(lo, hi, lo, hi, _grid_index(n, n))
        keep = (ia < ib).nonzero()[0]
        return ia[keep], ib[keep], None, None
    e = hi - lo
    small = _small(e, e, world)
    if small and not direct:
        return sweep_self(lo, hi, world)
    if small:
        ia, ib, kx, ky = _direct_nearest(lo, hi, lo, hi, world, e, e, _grid_index(n, n))
    else:
        ia, ib, kx, ky = _direct_images(lo, hi, lo, hi, world, _grid_index(n, n))
    keep = (ia < ib).nonzero()[0]
    return ia[keep], ib[keep], kx[keep], ky[keep]


# --------------------------------------------------------------------------------------------
# direct strategy


def _small(ea: F64Array, eb: F64Array, world: F64Array) -> bool:
    """True when any two boxes (extents ``ea``, ``eb``) overlap in at most one image: the
    largest extents summed stay below half the world, with margin for rounding."""
    if ea.shape[0] == 0 or eb.shape[0] == 0:
        return True
    return float(ea.max()) + float(eb.max()) < 0.45 * min(float(world[0]), float(world[1]))


def _grid_index(na: int, nb: int) -> tuple[I64Array, I64Array]:
    """Flat (a, b) index arrays of every pair, a-major (broadcasting is slower for small
    arrays)."""
    ia, ib = np.divmod(np.arange(na * nb, dtype=np.int64), nb)
    return ia, ib


def _direct_plain(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array,
    grid: tuple[I64Array, I64Array],
) -> tuple[I64Array, I64Array, None, None]:
    ia, ib = grid
    ov = (
        (alo[:, 0][ia] <= bhi[:, 0][ib])
        & (blo[:, 0][ib] <= ahi[:, 0][ia])
        & (alo[:, 1][ia] <= bhi[:, 1][ib])
        & (blo[:, 1][ib] <= ahi[:, 1][ia])
    )
    k = ov.nonzero()[0]
    return ia[k], ib[k], None, None


def _direct_nearest(
    alo: F64Array,
    ahi: F64Array,
    blo: F64Array,
    bhi: F64Array,
    world: F64Array,
    ea: F64Array,
    eb: F64Array,
    grid: tuple[I64Array, I64Array],
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """Wrap, small boxes (extents ``ea``, ``eb``): only the image of b nearest to a can
    overlap it (of the pairs ``grid``)."""
    ia, ib = grid
    w2 = 2.0 * float(world[0])
    h2 = 2.0 * float(world[1])
    ca = alo + ahi  # twice the centers; compared with twice the half extents: the extents
    cb = blo + bhi
    dx = cb[:, 0][ib] - ca[:, 0][ia]
    dy = cb[:, 1][ib] - ca[:, 1][ia]
    kx = np.floor(dx * (1.0 / w2) + 0.5)
    ky = np.floor(dy * (1.0 / h2) + 0.5)
    ov = (np.abs(dx - kx * w2) <= ea[:, 0][ia] + eb[:, 0][ib]) & (
        np.abs(dy - ky * h2) <= ea[:, 1][ia] + eb[:, 1][ib]
    )
    k = ov.nonzero()[0]
    return ia[k], ib[k], -kx[k].astype(np.int64), -ky[k].astype(np.int64)


def _direct_images(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array,
    grid: tuple[I64Array, I64Array],
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """Wrap, any box sizes: every image shift k with overlapping projections (of the pairs
    ``grid``)."""
    ia, ib = grid
    # b + k W overlaps a on an axis  <=>  (a.lo - b.hi) / W <= k <= (a.hi - b.lo) / W
    k0 = np.ceil((alo[ia] - bhi[ib]) / world - 1e-9)
    k1 = np.floor((ahi[ia] - blo[ib]) / world + 1e-9)
    nk = np.maximum(k1 - k0 + 1.0, 0.0).astype(np.int64)
    cnt = nk[:, 0] * nk[:, 1]
    owner = np.repeat(np.arange(cnt.shape[0]), cnt)
    local = np.arange(owner.shape[0]) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    nxo = nk[owner, 0]
    kx = k0[owner, 0].astype(np.int64) + local % nxo
    ky = k0[owner, 1].astype(np.int64) + local // nxo
    ia = ia[owner]
    ib = ib[owner]
    sx = kx * world[0]
    sy = ky * world[1]
    keep = (
        (alo[ia, 0] <= bhi[ib, 0] + sx)
        & (blo[ib, 0] + sx <= ahi[ia, 0])
        & (alo[ia, 1] <= bhi[ib, 1] + sy)
        & (blo[ib, 1] + sy <= ahi[ia, 1])
    ).nonzero()[0]
    return ia[keep], ib[keep], kx[keep], ky[keep]


# --------------------------------------------------------------------------------------------
# sweep strategy
