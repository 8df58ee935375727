"""Benchmark helpers: allocator tuning and robust timing."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable

from asteroids.runtime import tune_malloc

__all__ = ["cpu_name", "median_time", "tune_malloc"]


def median_time(fn: Callable[[], object], reps: int) -> float:
    """Median wall time of ``fn()`` in seconds over ``reps`` calls."""
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 2]


def cpu_name() -> str:
    """The CPU model and logical CPU count, e.g. "AMD EPYC 9B14, 2 logical CPUs, Linux"."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()}"
