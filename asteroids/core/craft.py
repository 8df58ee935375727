"""A craft as the contact and shot phases see it this tick: one body of its own (the ship, the
saucer; rocks are many and live in arrays), where it is, how big, and its outline.

Each craft's rules module makes its ``Craft`` (``ship.ship_craft``, ``saucer.saucer_craft``),
or None while it is out of play; ``asteroids.core.bodies`` lists them and the pairs that meet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from asteroids.core.kinds import Kind

__all__ = ["SAFE", "Craft", "CraftRows"]

SAFE = 1.0 + 1e-6
"""Bounding radii grown by this factor (and 1 px) before they rule out an outline test: far
above the rounding of the outlines and the overlap test's EPS tolerance."""


@dataclass(slots=True)
class Craft:
    """One craft in play this tick (made fresh by each phase that needs it; never kept)."""

    kind: Kind
    x: float
    y: float
    """Its centre."""
    vx: float
    vy: float
    """Its motion this tick, px."""
    radius: float
    """Its bounding radius: no point of its outline lies farther from the centre."""
    outline: Callable[[], np.ndarray]
    """Makes its ``(V, 2)`` world outline (only when a test needs it)."""
    shield: float | None = None
    """The radius of its shield while one is up (None: no shield up): rocks bounce off the
    shield, a craft it touches is claimed, and nothing claims the shielded craft."""
    bounce: float = 1.0
    """The restitution of its shield."""


class CraftRows(NamedTuple):
    """One kind of craft in every game of a batch, as the batched pass's contact and shot
    phases see it this tick (what ``Craft`` is to one game): ``(B,)`` columns."""

    present: np.ndarray
    """Where it is in play (where its ``Craft`` would not be None)."""
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    radius: np.ndarray
    """Its bounding radius in each game."""
    outlines: Callable[[np.ndarray], np.ndarray]
    """Its ``(n, V, 2)`` world outlines in the ``(n,)`` games asked."""
    shield: np.ndarray
    """Where its shield is up (``Craft.shield`` not None)."""
    shield_radius: float = 0.0
    """The radius of its shield."""
    shield_bounce: float = 0.0
    """How its shield bounces rocks (``Craft.bounce``)."""
