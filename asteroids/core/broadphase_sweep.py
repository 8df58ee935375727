"""The broad phase's sort-and-sweep strategy (``asteroids.core.broadphase``): pairs of boxes
found in horizontal strips, at a cost that follows the number of candidate pairs instead of
``A x B``.

Boxes are counting-sorted by (strip, quantised left edge) with ``bincount``/``cumsum`` and
16-bit radix sorts (no float sort, no ``searchsorted``: both are slow here), each strip is
swept along x, and a pair sharing several strips is kept only in the lowest one, so it is
reported once. In a wrapping world boxes crossing the right/top border get ghost copies one
period to the left/below (``_Images``); every box must then be smaller than half the world.
Two copies shifted along the same axis meet exactly where their unshifted boxes do, so such a
pair is a repeat and dropped; any other pair of copies may be the only place two boxes meet
(one wrapped over the top border, the other over the right one, near a corner).
Integer bookkeeping plus float comparisons, with stable sorts only: the output order is
deterministic and the pairs are the direct strategy's.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.geometry.checks import F64Array, I64Array

__all__ = ["stable_order", "sweep_pairs", "sweep_self"]


_X_BINS = 1024
"""Most x bins of the sweep (over the scene's x range); fewer when there are many strips."""


_MAX_KEYS = 16384
"""Upper bound on strips x bins."""


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


class _Images:
    """Boxes moved into the world, plus ghost copies of those crossing the right/top border
    (``gx`` / ``gy``: the copy is shifted one period to the left / down)."""

    __slots__ = ("owner", "gx", "gy", "kx", "ky", "x0", "y0", "x1", "y1")

    def __init__(self, lo: F64Array, hi: F64Array, world: F64Array | None) -> None:
        n = lo.shape[0]
        if world is None:
            self.owner = np.arange(n, dtype=np.int64)
            self.gx = self.gy = np.zeros(n, dtype=bool)
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
        gx = (x1 >= w).nonzero()[0]
        gy = (y1 >= h).nonzero()[0]
        gxy = gx[y1[gx] >= h]
        idx = np.concatenate([np.arange(n), gx, gy, gxy])
        dx = np.concatenate([np.zeros(n), -np.ones(gx.shape[0]),
                             np.zeros(gy.shape[0]), -np.ones(gxy.shape[0])])  # fmt: skip
        dy = np.concatenate([np.zeros(n + gx.shape[0]), -np.ones(gy.shape[0]),
                             -np.ones(gxy.shape[0])])  # fmt: skip
        self.owner = idx.astype(np.int64)
        self.gx = dx != 0.0
        self.gy = dy != 0.0
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
        # Strips as tall as the tallest box: a box spans one or two strips.
        tall = max(float((i.y1 - i.y0).max()) for i in imgs)
        span_y = max(y_max - y_min, 1e-300)
        n_strips = int(span_y / max(tall, 1e-300)) + 1
        n_strips = max(1, min(n_strips, 63))
        self.y_min = y_min
        self.inv_h = n_strips / span_y
        self.n_strips = n_strips + 1
        self.x_min = x_min
        # Few keys (strip, bin): the counting sort's bincount/cumsum tables stay small, and
        # keys fit the 16-bit radix sort.
        self.n_bins = max(16, min(_X_BINS, _MAX_KEYS // self.n_strips))
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
    cs = np.cumsum(cnt)
    total = int(cs[-1]) if cs.shape[0] else 0
    row = np.repeat(np.arange(cnt.shape[0], dtype=np.int64), cnt)
    pos = np.arange(total, dtype=np.int64) + np.repeat(lo - (cs - cnt), cnt)
    return row, pos


_CHUNK_PAIRS = 8192
"""Candidate pairs per chunk: keeps temporaries cache-sized and off the mmap path."""


def _chunks(lo: I64Array, hi: I64Array) -> list[tuple[int, int]]:
    """Split rows into consecutive blocks of about _CHUNK_PAIRS expanded pairs each."""
    n = lo.shape[0]
    if n == 0:
        return []
    cc = np.cumsum(np.maximum(hi - lo, 0))
    total = int(cc[-1])
    if total <= _CHUNK_PAIRS:
        return [(0, n)]
    cuts = np.searchsorted(cc, np.arange(_CHUNK_PAIRS, total, _CHUNK_PAIRS), "right")
    inner = np.unique(cuts[(cuts > 0) & (cuts < n)])
    edges = [0, *inner.tolist(), n]
    return list(zip(edges[:-1], edges[1:], strict=True))


class _Entries:
    """Strip entries of a set of images, counting-sorted by (strip, start bin), with the
    per-entry fields the sweep reads (gathered once, so candidates need one gather each)."""

    __slots__ = ("img", "strip", "key", "bin1", "x0", "x1", "y0", "y1", "home", "owner", "gx",
                 "gy", "cum")

    def __init__(self, a: _Images, g: _Strips) -> None:
        s0, s1 = g.strips(a)
        img, strip = _strip_entries(s0, s1)
        bin0 = g.bins(a.x0)
        key = strip * g.n_bins + bin0[img]
        order, self.cum = _counting_sort(key, g.n_strips * g.n_bins)
        img = img[order]
        strip = strip[order]
        self.img = img
        self.strip = strip
        self.key = key[order]
        self.bin1 = g.bins(a.x1)[img]
        self.x0 = a.x0[img]
        self.x1 = a.x1[img]
        self.y0 = a.y0[img]
        self.y1 = a.y1[img]
        # A pair sharing several strips is kept only in the lowest: the strip where one of
        # the two starts (both start at or below a shared strip).
        self.home = s0[img] == strip
        self.owner = a.owner[img]
        self.gx = a.gx[img]
        self.gy = a.gy[img]


def sweep_pairs(
    alo: F64Array, ahi: F64Array, blo: F64Array, bhi: F64Array, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    a = _Images(alo, ahi, world)
    b = _Images(blo, bhi, world)
    g = _Strips(a, b)
    ea = _Entries(a, g)
    eb = _Entries(b, g)
    nb_ = g.n_bins
    # (1) b starts within a's x-range: b's start bin in [a.bin0, a.bin1], same strip.
    lo1 = np.where(ea.key > 0, eb.cum[np.maximum(ea.key - 1, 0)], 0)
    hi1 = eb.cum[ea.strip * nb_ + ea.bin1]
    # (2) a starts strictly after b's start bin, within b's x-range.
    lo2 = ea.cum[eb.key]
    hi2 = ea.cum[eb.strip * nb_ + eb.bin1]
    out_a: list[I64Array] = []
    out_b: list[I64Array] = []
    for first, second, lo, hi in ((ea, eb, lo1, hi1), (eb, ea, lo2, hi2)):
        for c0, c1 in _chunks(lo, hi):
            r, p = _expand_ranges(lo[c0:c1], hi[c0:c1])
            r += c0
            # The bins found the candidates; the boxes themselves decide, as in the direct
            # strategy (two boxes one ulp apart share a bin).
            keep = (
                (first.x0[r] <= second.x1[p])
                & (second.x0[p] <= first.x1[r])
                & (first.y0[r] <= second.y1[p])
                & (second.y0[p] <= first.y1[r])
                & (first.home[r] | second.home[p])
            )
            if world is not None:
                # Copies shifted along the same axis repeat the pair of unshifted ones.
                keep &= ~(first.gx[r] & second.gx[p]) & ~(first.gy[r] & second.gy[p])
            k = keep.nonzero()[0]
            if first is ea:
                out_a.append(ea.img[r[k]])
                out_b.append(eb.img[p[k]])
            else:
                out_a.append(ea.img[p[k]])
                out_b.append(eb.img[r[k]])
    ia = np.concatenate(out_a) if out_a else np.zeros(0, dtype=np.int64)
    ib = np.concatenate(out_b) if out_b else np.zeros(0, dtype=np.int64)
    if world is None:
        return a.owner[ia], b.owner[ib], None, None
    assert a.kx is not None and a.ky is not None and b.kx is not None and b.ky is not None
    return a.owner[ia], b.owner[ib], b.kx[ib] - a.kx[ia], b.ky[ib] - a.ky[ia]


def sweep_self(
    lo: F64Array, hi: F64Array, world: F64Array | None
) -> tuple[I64Array, I64Array, I64Array | None, I64Array | None]:
    a = _Images(lo, hi, world)
    g = _Strips(a)
    e = _Entries(a, g)
    # Partners: later entries of the same strip whose start bin is within my x-range.
    lo_ = np.arange(1, e.img.shape[0] + 1, dtype=np.int64)
    hi_ = e.cum[e.strip * g.n_bins + e.bin1]
    out_i: list[I64Array] = []
    out_j: list[I64Array] = []
    for c0, c1 in _chunks(lo_, hi_):
        p, q = _expand_ranges(lo_[c0:c1], hi_[c0:c1])
        p += c0
        keep = ((e.x0[p] <= e.x1[q]) & (e.x0[q] <= e.x1[p]) & (e.y0[p] <= e.y1[q])
                & (e.y0[q] <= e.y1[p]) & (e.home[p] | e.home[q]))
        if world is not None:
            keep &= (~(e.gx[p] & e.gx[q]) & ~(e.gy[p] & e.gy[q])
                     & (e.owner[p] != e.owner[q]))
        k = keep.nonzero()[0]
        out_i.append(e.img[p[k]])
        out_j.append(e.img[q[k]])
    i = np.concatenate(out_i) if out_i else np.zeros(0, dtype=np.int64)
    j = np.concatenate(out_j) if out_j else np.zeros(0, dtype=np.int64)
    oi = a.owner[i]
    oj = a.owner[j]
    if world is None:
        return np.minimum(oi, oj), np.maximum(oi, oj), None, None
    swap = oi > oj
    # Image of the second body relative to the first (sign flips with the swap).
    assert a.kx is not None and a.ky is not None
    dkx: I64Array = np.where(swap, a.kx[i] - a.kx[j], a.kx[j] - a.kx[i])
    dky: I64Array = np.where(swap, a.ky[i] - a.ky[j], a.ky[j] - a.ky[i])
    return np.minimum(oi, oj), np.maximum(oi, oj), dkx, dky
