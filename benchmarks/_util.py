"""Benchmark helpers: allocator tuning and robust timing."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable

__all__ = ["median_time", "tune_malloc"]


def tune_malloc() -> bool:
    """Keep freed memory in the heap instead of returning it to the OS (glibc only).

    numpy's large temporaries are otherwise ``mmap``-ed and page-faulted in on every call;
    keeping them in the heap made numpy pipelines 1.5-3.7x faster in the performance baseline.
    Call once at start-up; returns True when glibc accepted both settings.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    return (
        libc.mallopt(m_mmap_threshold, 64 << 20) == 1
        and libc.mallopt(m_trim_threshold, 512 << 20) == 1
    )


def median_time(fn: Callable[[], object], reps: int) -> float:
    """Median wall time of ``fn()`` in seconds over ``reps`` calls."""
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2]
