"""Helpers for tests of the geometry kernels."""

from __future__ import annotations

import numpy as np

from asteroids.core.geometry import segment_intersections


def seg(p1, p2, q1, q2) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``segment_intersections`` on rows of points, with the hit point ``p1 + t (p2 - p1)``
    (NaN on a miss)."""
    p1, p2, q1, q2 = (np.asarray(a, dtype=np.float64).reshape(-1, 2) for a in (p1, p2, q1, q2))
    rx = p2[:, 0] - p1[:, 0]
    ry = p2[:, 1] - p1[:, 1]
    hit, t, u = segment_intersections(p1[:, 0], p1[:, 1], rx, ry, q1[:, 0], q1[:, 1], q2[:, 0],
                                      q2[:, 1])
    point = np.full(p1.shape, np.nan)
    point[hit, 0] = p1[hit, 0] + t[hit] * rx[hit]
    point[hit, 1] = p1[hit, 1] + t[hit] * ry[hit]
    return hit, t, u, point
