"""Benchmark helpers: allocator tuning and robust timing."""

from __future__ import annotations

import time
from collections.abc import Callable

from asteroids.runtime import tune_malloc

__all__ = ["median_time", "tune_malloc"]


def median_time(fn: Callable[[], object], reps: int) -> float:
    """Median wall time of ``fn()`` in seconds over ``reps`` calls."""
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2]
