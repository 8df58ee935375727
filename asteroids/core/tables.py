"""Constant tables for the tick path: headings, outline templates.

Headings and rotations are integers counting ``HEADING_STEPS`` steps per turn; their unit
vectors come from ``COS`` / ``SIN`` below. The tables are built at import from a Taylor
series evaluated with IEEE ``+ - * /`` in a fixed order, never libm: ``math.sin`` may differ
in the last bit between platforms, and one bit is enough to make a replay diverge. A test
pins the tables' hash.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.lanes import Table

__all__ = [
    "CLASSIC_ROCKS",
    "COS",
    "COS_SIN",
    "COS_TABLE",
    "HEADING_STEPS",
    "SAUCER_OUTLINE",
    "SHIP_OUTLINE",
    "SIN",
    "SIN_TABLE",
    "heading_vector",
]

HEADING_STEPS = 4096
"""Integer heading steps per full turn (the 1979 ROM used 256; 4096 = 16x finer)."""

_TWO_PI = 6.283185307179586


def _sin_cos_taylor(x: float) -> tuple[float, float]:
    """sin(x), cos(x) for |x| <= pi/4 from their Taylor series (terms to x**27)."""
    x2 = x * x
    s = 0.0
    term = x
    n = 1
    while n < 28:
        s = s + term
        term = -term * x2 / ((n + 1) * (n + 2))
        n += 2
    c = 0.0
    term = 1.0
    n = 0
    while n < 28:
        c = c + term
        term = -term * x2 / ((n + 1) * (n + 2))
        n += 2
    return s, c


def _build_tables(steps: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of 2*pi*k/steps for every k, exactly symmetric by construction."""
    eighth = steps // 8
    cos = [0.0] * steps
    sin = [0.0] * steps
    for k in range(eighth + 1):
        s, c = _sin_cos_taylor(k * _TWO_PI / steps)
        # First octant from the series; the rest by exact reflections, so that
        # cos(k) == sin(steps/4 - k) and every quadrant mirrors the first bit for bit.
        for kk, cc, ss in ((k, c, s), (steps // 4 - k, s, c)):
            for q, (qc, qs) in enumerate(((cc, ss), (-ss, cc), (-cc, -ss), (ss, -cc))):
                idx = (kk + q * (steps // 4)) % steps
                cos[idx] = qc + 0.0
                sin[idx] = qs + 0.0
    cos_a = np.array(cos, dtype=np.float64)
    sin_a = np.array(sin, dtype=np.float64)
    cos_a.flags.writeable = False
    sin_a.flags.writeable = False
    return cos_a, sin_a


COS, SIN = _build_tables(HEADING_STEPS)
"""Unit vector components of heading k (k = 0 points along +x, counter-clockwise)."""

COS_SIN = np.stack([COS, SIN], axis=1)
"""``(HEADING_STEPS, 2)``: row k is ``(COS[k], SIN[k])``, the rotation of heading k."""
COS_SIN.flags.writeable = False
COS_TABLE = Table(COS)
SIN_TABLE = Table(SIN)
"""``COS`` and ``SIN`` for scalar code and the shared rule texts (``Lanes.take``): indexing
gives Python floats (one game), ``.array`` the same values as an array (many games)."""


def heading_vector(heading: int) -> tuple[float, float]:
    """The unit vector (cos, sin) of an integer heading."""
    k = heading % HEADING_STEPS
    return float(COS[k]), float(SIN[k])


def _frozen(points: list[tuple[float, float]]) -> np.ndarray:
    a = np.array(points, dtype=np.float64)
    a.flags.writeable = False
    return a


SHIP_OUTLINE = _frozen([(0.5, 0.0), (-0.5, 0.4), (-0.3, 0.0), (-0.5, -0.4)])
"""Ship outline in ship lengths, nose along +x (the classic dart with a notched tail)."""

SAUCER_OUTLINE = _frozen([
    (-1.0, 0.0), (-0.4, -0.35), (0.4, -0.35), (1.0, 0.0),
    (0.4, 0.35), (0.25, 0.65), (-0.25, 0.65), (-0.4, 0.35),
])
"""Saucer outline in saucer half-widths: hull, rim and dome."""

CLASSIC_ROCKS = tuple(
    _frozen([(x / 4.0, y / 4.0) for x, y in rock])
    for rock in (
        # Four rocks in the style of the 1979 vector ROM's (AstPtrnPtrTbl), on a 9x9 grid.
        [(-4, 2), (-2, 4), (0, 3), (2, 4), (4, 2), (3, 0), (4, -2), (1, -4), (-2, -4),
         (-4, -2)],
        [(-4, 2), (-2, 4), (0, 2), (2, 4), (4, 2), (2, 1), (4, -1), (2, -4), (-1, -3),
         (-2, -4), (-4, -2)],
        [(-4, 2), (-1, 2), (-2, 4), (1, 4), (4, 2), (4, 1), (1, 0), (4, -2), (1, -4),
         (-1, -3), (-4, -1)],
        [(-4, 1), (-2, 4), (1, 4), (4, 1), (4, -1), (1, -4), (-2, -4), (0, -1), (-4, -1)],
    )
)
"""Four classic-style rock outlines; the simulation scales each to its radius."""
