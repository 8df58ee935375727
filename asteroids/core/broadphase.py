"""Broad phase: which axis-aligned boxes may overlap, in a plain or a wrapping world.

Two interchangeable strategies return the same overlapping pairs:

* **direct**: every (a, b) pair at once with broadcasting, for small inputs where numpy's fixed
  per-call cost dominates;
* **sweep**: sort-and-sweep in horizontal strips, whose cost follows the number of candidate
  pairs instead of ``A x B``. Boxes are counting-sorted by (strip, quantised left edge) with
  ``bincount``/``cumsum`` and 16-bit radix sorts (no float sort, no ``searchsorted``: both are
  slow here), each strip is swept along x, and a pair sharing several strips is kept only in the
  lowest one, so it is reported once.

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

from asteroids.core.geometry import F64Array, I64Array

__all__ = [
    "DIRECT_MAX_PAIRS",
    "body_boxes",
    "box_pairs",
    "box_self_pairs",
    "stable_order",
]

DIRECT_MAX_PAIRS = 40_000
"""``"auto"`` uses the all-pairs strategy up to this many (a, b) pairs, the sweep above."""

_X_BINS = 4096
"""Most x bins of the sweep (over the scene's x range); fewer when there are many strips."""


def stable_order(keys: I64Array, max_key: int) -> I64Array:
    """Stable argsort of non-negative integer keys (a 16-bit radix sort when they fit).

    Args:
        keys: ``(N,)`` int64 keys in ``[0, max_key]``.
        max_key: an upper bound of the keys.

    Returns:
        ``(N,)`` int64 permutation sorting ``keys`` stably.
    """
    if max_key < 65536:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    if max_key < 1 << 32:
        lo = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
        hi = np.argsort((keys[lo] >> 16).astype(np.uint16), kind="stable")
        return lo[hi]
    return np.argsort(keys, kind="stable")


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
    if uniform and nb >= 256:
        # Elementwise min/max over the m columns beats reduceat for many bodies.
        r = points.reshape(nb, uniform, 2)
        lo = r[:, 0, :].copy()
        hi = lo.copy()
        for k in range(1, uniform):
            np.minimum(lo, r[:, k, :], out=lo)
            np.maximum(hi, r[:, k, :], out=hi)
        return lo, hi
    st = offsets[:-1]
    return np.minimum.reduceat(points, st, axis=0), np.maximum.reduceat(points, st, axis=0)


def box_pairs(
    alo: F64Array,
    ahi: F64Array,
    blo: F64Array,
    bhi: F64Array,
    world: F64Array | None,
    *,
    method: str = "auto",
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    """All (a, b, image) triples whose boxes overlap (inclusive bounds).

    Args:
        alo: ``(A, 2)`` lower corners of the query boxes.
        ahi: ``(A, 2)`` upper corners of the query boxes.
        blo: ``(B, 2)`` lower corners of the table boxes.
        bhi: ``(B, 2)`` upper corners of the table boxes.
        world: ``(2,)`` world size for a wrapping world, or None.
        method: ``"auto"``, ``"direct"`` or ``"sweep"`` (same pairs, different speed).

    Returns:
        ``(ia, ib, kx, ky)``: int64 arrays; box ``b[ib]`` shifted by ``(kx W, ky H)`` overlaps box
        ``a[ia]``. ``kx``/``ky`` are None without wrap. Order is deterministic, unspecified.
    """
    na = alo.shape[0]
    nb = blo.shape[0]
    z = np.zeros(0, dtype=np.int64)
    if na == 0 or nb == 0:
        return z, z, (None if world is None else z), (None if world is None else z)
    small = _small_boxes(alo, ahi, blo, bhi, world)
    if method == "direct" or not small or (method == "auto" and na * nb <= DIRECT_MAX_PAIRS):
        if world is None:
            return _direct_plain(alo, ahi, blo, bhi)
        if small:
            return _direct_nearest(alo, ahi, blo, bhi, world)
        return _direct_images(alo, ahi, blo, bhi, world)
    return _sweep_pairs(alo, ahi, blo, bhi, world)


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
    n = lo.shape[0]
    z = np.zeros(0, dtype=np.int64)
    if n < 2:
        return z, z, (None if world is None else z), (None if world is None else z)
    small = _small_boxes(lo, hi, lo, hi, world)
    if method == "direct" or not small or (method == "auto" and n * n <= 2 * DIRECT_MAX_PAIRS):
        if world is None:
            ia, ib, _, _ = _direct_plain(lo, hi, lo, hi)
            keep = np.flatnonzero(ia < ib)
            return ia[keep], ib[keep], None, None
        if small:
            ia, ib, kx, ky = _direct_nearest(lo, hi, lo, hi, world)
        else:
            ia, ib, kx, ky = _direct_images(lo, hi, lo, hi, world)
        keep = np.flatnonzero(ia < ib)
        return ia[keep], ib[keep], kx[keep], ky[keep]  # type: ignore[index]
    return _sweep_self(lo, hi, world)


# --------------------------------------------------------------------------------------------
# direct strategy
# --------------------------------------------------------------------------------------------


def _small_boxes(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array | None
) -> bool:
    """Without wrap always True; with wrap, True when any two boxes overlap in at most one
    image (both extents summed stay below half the world, with margin for rounding)."""
    if world is None:
        return True
    ea = (ahi - alo).max(axis=0)
    eb = (bhi - blo).max(axis=0)
    return bool(((ea + eb) < 0.45 * world).all())


def _direct_plain(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array
) -> tuple[I64Array, I64Array, None, None]:
    ov = (
        (alo[:, 0, None] <= bhi[:, 0])
        & (blo[:, 0] <= ahi[:, 0, None])
        & (alo[:, 1, None] <= bhi[:, 1])
        & (blo[:, 1] <= ahi[:, 1, None])
    )
    ia, ib = np.nonzero(ov)
    return ia, ib, None, None


def _direct_nearest(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """Wrap, small boxes: only the image of b nearest to a can overlap it."""
    w = float(world[0])
    h = float(world[1])
    ca = alo + ahi  # twice the centers
    cb = blo + bhi
    ea = ahi - alo
    eb = bhi - blo
    dx = cb[:, 0] - ca[:, 0, None]
    dy = cb[:, 1] - ca[:, 1, None]
    kx = np.floor(dx * (0.5 / w) + 0.5)
    ky = np.floor(dy * (0.5 / h) + 0.5)
    ov = (np.abs(dx - kx * (w + w)) <= ea[:, 0, None] + eb[:, 0]) & (
        np.abs(dy - ky * (h + h)) <= ea[:, 1, None] + eb[:, 1]
    )
    ia, ib = np.nonzero(ov)
    return ia, ib, -kx[ia, ib].astype(np.int64), -ky[ia, ib].astype(np.int64)


def _direct_images(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array
) -> tuple[I64Array, I64Array, I64Array, I64Array]:
    """Wrap, any box sizes: every image shift k with overlapping projections."""
    na = alo.shape[0]
    nb = blo.shape[0]
    ia = np.repeat(np.arange(na, dtype=np.int64), nb)
    ib = np.tile(np.arange(nb, dtype=np.int64), na)
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
    keep = np.flatnonzero(
        (alo[ia, 0] <= bhi[ib, 0] + sx)
        & (blo[ib, 0] + sx <= ahi[ia, 0])
        & (alo[ia, 1] <= bhi[ib, 1] + sy)
        & (blo[ib, 1] + sy <= ahi[ia, 1])
    )
    return ia[keep], ib[keep], kx[keep], ky[keep]


# --------------------------------------------------------------------------------------------
# sweep strategy
# --------------------------------------------------------------------------------------------


class _Images:
    """Boxes moved into the world, plus ghost copies of those crossing the right/top border."""

    __slots__ = ("owner", "real", "kx", "ky", "x0", "y0", "x1", "y1")

    def __init__(self, lo: F64Array, hi: F64Array, world: F64Array | None) -> None:
        n = lo.shape[0]
        if world is None:
            self.owner = np.arange(n, dtype=np.int64)
            self.real = np.ones(n, dtype=bool)
            self.kx = self.ky = None
            self.x0, self.y0 = lo[:, 0], lo[:, 1]
            self.x1, self.y1 = hi[:, 0], hi[:, 1]
            return
        w, h = float(world[0]), float(world[1])
        kx = -np.floor(lo[:, 0] / w)
        ky = -np.floor(lo[:, 1] / h)
        x0 = lo[:, 0] + kx * w
        y0 = lo[:, 1] + ky * h
        x1 = hi[:, 0] + kx * w
        y1 = hi[:, 1] + ky * h
        gx = np.flatnonzero(x1 >= w)
        gy = np.flatnonzero(y1 >= h)
        gxy = gx[y1[gx] >= h]
        idx = np.concatenate([np.arange(n), gx, gy, gxy])
        dx = np.concatenate([np.zeros(n), -np.ones(gx.shape[0]),
                             np.zeros(gy.shape[0]), -np.ones(gxy.shape[0])])  # fmt: skip
        dy = np.concatenate([np.zeros(n + gx.shape[0]), -np.ones(gy.shape[0]),
                             -np.ones(gxy.shape[0])])  # fmt: skip
        self.owner = idx.astype(np.int64)
        self.real = np.zeros(idx.shape[0], dtype=bool)
        self.real[:n] = True
        kxi = kx[idx] + dx
        kyi = ky[idx] + dy
        self.kx = kxi.astype(np.int64)
        self.ky = kyi.astype(np.int64)
        self.x0 = x0[idx] + dx * w
        self.x1 = x1[idx] + dx * w
        self.y0 = y0[idx] + dy * h
        self.y1 = y1[idx] + dy * h


class _Strips:
    """Strip and x-bin geometry shared by both sides of a sweep."""

    __slots__ = ("y_min", "inv_h", "n_strips", "x_min", "inv_bin", "n_bins")

    def __init__(self, *imgs: _Images) -> None:
        y_min = min(float(i.y0.min()) for i in imgs)
        y_max = max(float(i.y1.max()) for i in imgs)
        x_min = min(float(i.x0.min()) for i in imgs)
        x_max = max(float(i.x1.max()) for i in imgs)
        # Strips about as tall as the typical box: a box spans one or two strips.
        tall = max(float(np.median(i.y1 - i.y0)) for i in imgs)
        span_y = max(y_max - y_min, 1e-300)
        n_strips = int(span_y / max(tall, 1e-300)) + 1
        n_strips = max(1, min(n_strips, 63))
        self.y_min = y_min
        self.inv_h = n_strips / span_y
        self.n_strips = n_strips + 1
        self.x_min = x_min
        # Keys (strip, bin) stay below 2**16, so the counting sort is a 16-bit radix sort.
        self.n_bins = min(_X_BINS, 65535 // self.n_strips)
        self.inv_bin = (self.n_bins - 1) / max(x_max - x_min, 1e-300)

    def strips(self, img: _Images) -> tuple[I64Array, I64Array]:
        s0 = np.floor((img.y0 - self.y_min) * self.inv_h).astype(np.int64)
        s1 = np.floor((img.y1 - self.y_min) * self.inv_h).astype(np.int64)
        return s0, s1

    def bins(self, x: F64Array) -> I64Array:
        return np.floor((x - self.x_min) * self.inv_bin).astype(np.int64)


def _strip_entries(
    s0: I64Array, s1: I64Array
) -> tuple[I64Array, I64Array]:
    """One entry per (image, strip it touches): (image index, strip)."""
    n = s1 - s0 + 1
    if (n == 1).all():
        return np.arange(n.shape[0], dtype=np.int64), s0
    img = np.repeat(np.arange(n.shape[0], dtype=np.int64), n)
    local = np.arange(img.shape[0], dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    return img, s0[img] + local


def _counting_sort(keys: I64Array, n_keys: int) -> tuple[I64Array, I64Array]:
    """Stable order of integer keys in [0, n_keys) and the exclusive start of each key + 1.

    Returns:
        ``(order, cum)`` where ``cum[k]`` is the number of entries with key ``<= k``.
    """
    order = stable_order(keys, n_keys - 1)
    cum = np.cumsum(np.bincount(keys, minlength=n_keys))
    return order, cum


def _expand_ranges(lo: I64Array, hi: I64Array) -> tuple[I64Array, I64Array]:
    """Pairs (row, position) for every position in ``[lo[row], hi[row])``."""
    cnt = np.maximum(hi - lo, 0)
    total = int(cnt.sum())
    row = np.repeat(np.arange(cnt.shape[0], dtype=np.int64), cnt)
    pos = np.arange(total, dtype=np.int64) + np.repeat(lo - (np.cumsum(cnt) - cnt), cnt)
    return row, pos


def _sweep_pairs(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    a = _Images(alo, ahi, world)
    b = _Images(blo, bhi, world)
    g = _Strips(a, b)
    as0, as1 = g.strips(a)
    bs0, bs1 = g.strips(b)
    ea, sa = _strip_entries(as0, as1)
    eb, sb = _strip_entries(bs0, bs1)
    nb_ = g.n_bins
    a_bin0 = g.bins(a.x0)
    a_bin1 = g.bins(a.x1)
    b_bin0 = g.bins(b.x0)
    b_bin1 = g.bins(b.x1)
    n_keys = g.n_strips * nb_
    ka = sa * nb_ + a_bin0[ea]
    kb = sb * nb_ + b_bin0[eb]
    oa, cum_a = _counting_sort(ka, n_keys)
    ob, cum_b = _counting_sort(kb, n_keys)
    ea = ea[oa]
    sa = sa[oa]
    eb = eb[ob]
    sb = sb[ob]
    # (1) b starts in a's x-range: b bin in [a.bin0, a.bin1], same strip.
    ka_s = sa * nb_
    before = ka_s + a_bin0[ea] - 1  # the last key before a's start bin (flattened order)
    lo1 = np.where(before >= 0, cum_b[np.maximum(before, 0)], 0)
    hi1 = cum_b[ka_s + a_bin1[ea]]
    r1, p1 = _expand_ranges(lo1, hi1)
    # (2) a starts strictly after b's start bin, within b's x-range.
    kb_s = sb * nb_
    lo2 = cum_a[kb_s + b_bin0[eb]]
    hi2 = cum_a[kb_s + b_bin1[eb]]
    r2, p2 = _expand_ranges(lo2, hi2)
    ia_e = np.concatenate([r1, p2])  # entry positions in sorted a
    ib_e = np.concatenate([p1, r2])  # entry positions in sorted b
    ia = ea[ia_e]
    ib = eb[ib_e]
    strip = sa[ia_e]
    keep = (
        (a.y0[ia] <= b.y1[ib])
        & (b.y0[ib] <= a.y1[ia])
        & (a.x0[ia] <= b.x1[ib])
        & (b.x0[ib] <= a.x1[ia])
        & (strip == np.maximum(as0[ia], bs0[ib]))
    )
    if world is not None:
        keep &= a.real[ia] | b.real[ib]
    keep = np.flatnonzero(keep)
    ia = ia[keep]
    ib = ib[keep]
    if world is None:
        return a.owner[ia], b.owner[ib], None, None
    return a.owner[ia], b.owner[ib], b.kx[ib] - a.kx[ia], b.ky[ib] - a.ky[ia]  # type: ignore[operator]


def _sweep_self(
    lo: F64Array, hi: F64Array, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    a = _Images(lo, hi, world)
    g = _Strips(a)
    s0, s1 = g.strips(a)
    e, s = _strip_entries(s0, s1)
    nb_ = g.n_bins
    bin0 = g.bins(a.x0)
    bin1 = g.bins(a.x1)
    n_keys = g.n_strips * nb_
    k = s * nb_ + bin0[e]
    order, cum = _counting_sort(k, n_keys)
    e = e[order]
    s = s[order]
    # Partners: later entries of the same strip whose start bin is within my x-range.
    pos = np.arange(e.shape[0], dtype=np.int64)
    hi_ = cum[s * nb_ + bin1[e]]
    p, q = _expand_ranges(pos + 1, hi_)
    i = e[p]
    j = e[q]
    strip = s[p]
    keep = (
        (a.y0[i] <= a.y1[j])
        & (a.y0[j] <= a.y1[i])
        & (a.x0[i] <= a.x1[j])
        & (a.x0[j] <= a.x1[i])
        & (strip == np.maximum(s0[i], s0[j]))
    )
    oi = a.owner[i]
    oj = a.owner[j]
    keep &= oi != oj
    if world is not None:
        keep &= a.real[i] | a.real[j]
    keep = np.flatnonzero(keep)
    i = i[keep]
    j = j[keep]
    oi = oi[keep]
    oj = oj[keep]
    swap = oi > oj
    first = np.where(swap, oj, oi)
    second = np.where(swap, oi, oj)
    if world is None:
        return first, second, None, None
    dkx = a.kx[j] - a.kx[i]  # type: ignore[index]
    dky = a.ky[j] - a.ky[i]  # type: ignore[index]
    return first, second, np.where(swap, -dkx, dkx), np.where(swap, -dky, dky)
