"""Border maths for single objects (the ship, the saucer) on plain Python floats.

A handful of numpy calls costs more than the whole rule for one object, so the craft use
these. Python's float ``%`` is numpy's (``fmod``, then one IEEE add), so results match the
vectorised versions in ``asteroids.core.geometry.wrap`` and ``.bounce`` bit for bit.
"""

from __future__ import annotations

__all__ = ["bounce1", "min_image1", "wrap1"]


def wrap1(x: float, size: float) -> float:
    """One coordinate into ``[0, size)``, with no ``-0.0`` and never ``size`` itself."""
    y = x % size
    return (0.0 if y >= size else y) + 0.0


def bounce1(x: float, v: float, lo: float, hi: float) -> tuple[float, float]:
    """One coordinate folded into ``[lo, hi]`` by a triangle wave; ``v`` flips on odd crossings.

    The same arithmetic as ``geometry.bounce_positions`` (Python's ``divmod`` is numpy's).

    >>> bounce1(-806.7, -1667.0, 20.0, 780.0)
    (713.3, -1667.0)
    """
    k, rest = divmod(x - lo, hi - lo)
    if k % 2.0 != 0.0:
        return min(max(hi - rest, lo), hi) + 0.0, -v + 0.0
    return min(max(lo + rest, lo), hi) + 0.0, v + 0.0


def min_image1(delta: float, size: float) -> float:
    """The shortest way across a wrapping axis of length ``size``, in ``[-size/2, size/2]``.

    One axis of ``geometry.wrap_delta``, with the same operations (so the same bits): an
    input already shorter than half the world comes back unchanged.
    """
    return delta - size * round(delta / size) + 0.0
