"""The rocks' outlines where they are this tick: every rock's, or a few rocks'.

A World keeps each rock's outline relative to its centre, unrotated (``ast_local``); the
queries want world coordinates. Computed when a phase needs them, never kept.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.geometry.polygon import transform_outlines
from asteroids.core.tables import COS_SIN, HEADING_STEPS
from asteroids.core.world import Draft

__all__ = ["rock_outlines", "rock_outlines_of"]


def rock_outlines(d: Draft) -> np.ndarray:
    """World outlines of every asteroid (packed like ``ast_local``)."""
    return transform_outlines(d.ast_pos, COS_SIN[d.ast_angle % HEADING_STEPS], d.ast_local,
                              d.ast_offsets)


def rock_outlines_of(d: Draft, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World outlines (packed points, offsets) of just the asteroids in ``index``."""
    counts = d.ast_offsets[index + 1] - d.ast_offsets[index]
    offsets = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    counts.cumsum(out=offsets[1:])
    rows = (d.ast_offsets[index] - offsets[:-1]).repeat(counts) + np.arange(offsets[-1])
    cos_sin = COS_SIN.take(d.ast_angle[index] % HEADING_STEPS, axis=0)
    return transform_outlines(d.ast_pos.take(index, axis=0), cos_sin,
                              d.ast_local.take(rows, axis=0), offsets), offsets
