"""Checks at the core's public entry points: the collision queries validate what callers
hand them once, with these, and then run the kernels of this package, which do not check.

Also the array types every module of the core annotates with.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "BoolArray",
    "F64Array",
    "I64Array",
    "as_offsets",
    "as_vec2",
    "as_world_size",
    "check_finite",
    "offsets_counts",
    "vec2",
    "vec2_scale",
]

F64Array = NDArray[np.float64]
"""A float64 array; shapes are given in each docstring."""
I64Array = NDArray[np.int64]
"""An int64 array (indices, counts, offsets)."""
BoolArray = NDArray[np.bool_]
"""A boolean mask."""


def as_vec2(x: ArrayLike, name: str, n: int | None = None) -> F64Array:
    """Return ``x`` as a finite ``(N, 2)`` float64 array, or raise ``ValueError``.

    Args:
        x: array-like of shape ``(N, 2)``.
        name: argument name used in the error message.
        n: required number of rows, if any.

    Returns:
        A float64 array (the input itself when it already is one).

    Raises:
        ValueError: wrong shape, wrong row count, or a NaN/inf entry.
    """
    return vec2_scale(x, name, n)[0]


def vec2_scale(x: ArrayLike, name: str, n: int | None = None) -> tuple[F64Array, float]:
    """Like :func:`as_vec2`, also returning the largest absolute coordinate (0 when empty).

    One ``abs().max()`` both finds the scene scale and rejects NaN/inf (max propagates them).
    """
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"{name} must have shape (N, 2), got {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} must have {n} rows, got {a.shape[0]}")
    m = float(np.abs(a).max()) if a.shape[0] else 0.0
    if not math.isfinite(m):
        raise ValueError(f"{name} contains NaN or inf")
    return a, m


def offsets_counts(
    offsets: ArrayLike, n_points: int, name: str = "offsets"
) -> tuple[I64Array, I64Array, int]:
    """Validate packed-outline offsets; also return the point count per body.

    Returns:
        ``(offsets, counts, uniform)``: ``(B + 1,)`` int64, ``(B,)`` int64, and ``m`` when every
        body has exactly ``m`` points (else 0).

    Raises:
        ValueError: as :func:`as_offsets`.
    """
    o = np.asarray(offsets)
    if o.ndim != 1 or o.shape[0] < 1:
        raise ValueError(f"{name} must have shape (B + 1,), got {o.shape}")
    if o.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an integer array, got dtype {o.dtype}")
    o = o.astype(np.int64, copy=False)
    if o[0] != 0 or o[-1] != n_points:
        raise ValueError(f"{name} must start at 0 and end at {n_points} (the number of points)")
    counts = o[1:] - o[:-1]
    uniform = 0
    nb = counts.shape[0]
    if nb:
        m = int(counts[0])
        if m >= 1 and m * nb == n_points and (counts == m).all():
            uniform = m
        elif int(counts.min()) < 1:
            raise ValueError(f"{name} must be strictly increasing: every body needs >= 1 point")
    return o, counts, uniform


def as_offsets(offsets: ArrayLike, n_points: int, name: str = "offsets") -> I64Array:
    """Return validated packed-outline offsets as int64.

    Args:
        offsets: ``(B + 1,)`` integer array; ``offsets[0] == 0``, ``offsets[-1] == n_points``,
            every body has at least one point (strictly increasing).
        n_points: number of packed points ``V``.
        name: argument name used in the error message.

    Returns:
        ``(B + 1,)`` int64 array.

    Raises:
        ValueError: if any of the conditions above fails.
    """
    return offsets_counts(offsets, n_points, name)[0]


def as_world_size(world_size: ArrayLike | None, name: str = "world_size") -> F64Array | None:
    """Validate an optional world size ``(W, H)``; both must be finite and > 0.

    Returns:
        ``(2,)`` float64 array, or None.

    Raises:
        ValueError: wrong length, non-finite or non-positive size (the message starts with
            ``name``).
    """
    if world_size is None:
        return None
    try:
        size = np.asarray(world_size, dtype=np.float64)
    except (TypeError, ValueError):
        size = np.zeros(0)
    if size.shape != (2,):
        raise ValueError(f"{name} must be two numbers (W, H), got {world_size!r}")
    w, h = size.tolist()
    if not (math.isfinite(w) and math.isfinite(h) and w > 0.0 and h > 0.0):
        raise ValueError(f"{name} must be two finite positive numbers, got {world_size!r}")
    return np.array([w, h])


def vec2(x: ArrayLike, name: str, n: int | None = None) -> F64Array:
    """Shape check only (``(N, 2)`` float64); finiteness is checked by the caller."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"{name} must have shape (N, 2), got {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} must have {n} rows, got {a.shape[0]}")
    return a



def check_finite(a: F64Array, name: str) -> None:
    """Raise ``ValueError`` naming ``name`` when ``a`` holds NaN or inf."""
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains NaN or inf")
