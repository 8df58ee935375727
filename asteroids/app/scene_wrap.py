"""Drawing across a wrapping world's seam, and between two ticks: pure numpy, no arcade.

Positions are interpolated across the seam (``lerp_positions``: ``prev + wrap_delta(cur -
prev) * alpha``), headings the short way round (``lerp_angle``), objects matched between
ticks by id (``match_ids``); a segment that straddles an edge is drawn again shifted by the
world's width or height (``ghost_index``, ``wrap_ghosts``). ``asteroids.app.scene`` builds a
frame's segments with these.
"""

from __future__ import annotations

import math

import numpy as np

from asteroids.core.geometry import wrap_delta
from asteroids.core.tables import HEADING_STEPS

__all__ = ["ALL_SHIFTS", "VERTICAL_SHIFTS", "circle", "closed_loops", "ghost_index",
           "lerp_angle", "lerp_positions", "loop", "match_ids", "wrap_ghosts"]

ALL_SHIFTS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The eight neighbouring copies of the world a ghost may be drawn in."""
VERTICAL_SHIFTS = ((0, -1), (0, 1))
"""The copies above and below (what wraps top to bottom only, as the saucer)."""


def closed_loops(points: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Segments joining each packed polygon's points in order and back to its first.

    Args:
        points: (V, 2) packed outline points.
        offsets: (B + 1,) where each polygon starts; ``offsets[-1] == V``.

    Returns:
        (V, 2, 2) segments, one per edge.

    >>> closed_loops(np.array([[0., 0.], [1., 0.], [0., 1.]]), np.array([0, 3]))[2].tolist()
    [[0.0, 1.0], [0.0, 0.0]]
    """
    n = points.shape[0]
    nxt = np.arange(1, n + 1)
    starts, ends = offsets[:-1], offsets[1:]
    keep = ends > starts
    nxt[ends[keep] - 1] = starts[keep]
    return np.stack([points, points[nxt % max(n, 1)]], axis=1)


def match_ids(prev_ids: np.ndarray, cur_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each current id was in the previous tick (ids are kept in ascending order).

    Returns:
        (index into prev, found mask), both shaped like ``cur_ids``.
    """
    if prev_ids.shape[0] == 0:
        return np.zeros(cur_ids.shape, np.int64), np.zeros(cur_ids.shape, bool)
    idx = np.searchsorted(prev_ids, cur_ids)
    idx = np.minimum(idx, prev_ids.shape[0] - 1)
    return idx, prev_ids[idx] == cur_ids


def lerp_positions(prev: np.ndarray, cur: np.ndarray, alpha: float, size: np.ndarray | None
                   ) -> np.ndarray:
    """``prev + delta * alpha`` with the shortest delta across the seam when ``size`` is given."""
    delta = cur - prev
    if size is not None:
        delta = wrap_delta(delta, size)
    return prev + delta * alpha


def lerp_angle(prev: np.ndarray, cur: np.ndarray, alpha: float) -> np.ndarray:
    """Headings (in steps) ``alpha`` of the way from ``prev`` to ``cur``, the short way."""
    half = HEADING_STEPS // 2
    delta = (cur - prev + half) % HEADING_STEPS - half
    return prev + delta * alpha


def ghost_index(segs: np.ndarray, size: np.ndarray,
                shifts: tuple[tuple[int, int], ...] = ALL_SHIFTS
                ) -> tuple[np.ndarray, np.ndarray]:
    """Which segments have a visible copy shifted by whole world sizes, and by how much.

    A copy is visible when its bounding box touches the world rectangle; only segments that
    touch or cross an edge can have one, so the test runs on those alone.

    Args:
        segs: (S, 2, 2) segments.
        size: (2,) world width and height.
        shifts: which (x, y) multiples of the size to try, in this order.

    Returns:
        (G,) indices into ``segs`` (in ``shifts`` order, then segment order) and (G, 1, 2)
        displacements to add to them.
    """
    none = np.zeros(0, np.int64), np.zeros((0, 1, 2))
    if segs.shape[0] == 0:
        return none
    w, h = float(size[0]), float(size[1])
    lo = np.minimum(segs[:, 0], segs[:, 1])
    hi = np.maximum(segs[:, 0], segs[:, 1])
    near = np.flatnonzero((lo[:, 0] <= 0.0) | (hi[:, 0] >= w) | (lo[:, 1] <= 0.0)
                          | (hi[:, 1] >= h))
    if near.shape[0] == 0:
        return none
    lo, hi = lo[near], hi[near]
    idx, moves = [], []
    for sx, sy in shifts:
        dx, dy = sx * w, sy * h
        vis = (hi[:, 0] + dx >= 0) & (lo[:, 0] + dx <= w) & (hi[:, 1] + dy >= 0) & (
            lo[:, 1] + dy <= h)
        if vis.any():
            found = near[vis]
            idx.append(found)
            moves.append(np.broadcast_to(np.array([[dx, dy]]), (found.shape[0], 1, 2)))
    if not idx:
        return none
    return np.concatenate(idx), np.concatenate(moves)


def wrap_ghosts(segs: np.ndarray, cols: np.ndarray, size: np.ndarray,
                shifts: tuple[tuple[int, int], ...] = ALL_SHIFTS
                ) -> tuple[np.ndarray, np.ndarray]:
    """Add copies of segments shifted by whole world sizes wherever a copy would be visible.

    Args:
        segs: (S, 2, 2) segments.
        cols: (S, ...) per-segment values (colours) that the copies keep.
        size: (2,) world width and height.
        shifts: which (x, y) multiples of the size to try.

    Returns:
        The segments and colours with the visible ghosts appended (``ghost_index`` order).
    """
    idx, moves = ghost_index(segs, size, shifts)
    if idx.shape[0] == 0:
        return segs, cols
    return (np.concatenate([segs, segs[idx] + moves.astype(segs.dtype)]),
            np.concatenate([cols, cols[idx]]))


def circle(x: float, y: float, r: float, n: int = 20) -> np.ndarray:
    """A circle of ``n`` segments about (x, y), radius ``r``: (n, 2, 2)."""
    t = np.arange(n + 1) * (2.0 * math.pi / n)
    pts = np.stack([x + r * np.cos(t), y + r * np.sin(t)], axis=1)
    return np.stack([pts[:-1], pts[1:]], axis=1)


def loop(points: np.ndarray) -> np.ndarray:
    """A closed polygon's (n, 2) points as its (n, 2, 2) segments."""
    return np.stack([points, np.roll(points, -1, axis=0)], axis=1)
