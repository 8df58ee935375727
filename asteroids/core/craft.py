"""A craft as the contact and shot phases see it this tick: one body of its own (the ship, the
saucer; rocks are many and live in arrays), where it is, how big, and its outline.

Each craft's rules module makes its ``Craft`` (``ship.ship_craft``, ``saucer.saucer_craft``),
or None while it is out of play; ``asteroids.core.bodies`` lists them and the pairs that meet
(``Contact``). A kind of craft beyond the ship and the saucer is declared whole as an
``Enemy``: its names, how it shows itself, its rules for each phase, what it touches and
whose shots hit it; both drivers run those rules from ``bodies.ENEMIES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from asteroids.core.kinds import Cause, Kind, Shooter

__all__ = ["SAFE", "Contact", "Craft", "CraftRows", "Enemy"]

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


@dataclass(frozen=True, slots=True)
class Contact:
    """A pair of kinds that can touch, and the claims touching makes.

    ``craft`` moves into ``other``: a rock (every rock, tested outline against outline, the
    lowest unclaimed one that touches) or another craft. When they touch, ``other`` is
    claimed by ``other_by`` and ``craft`` by ``craft_by``; when ``craft`` has its shield up,
    rocks bounce off the shield instead, a craft the shield touches is claimed, and ``craft``
    is not. A pair is skipped while either side is out of play or already claimed.
    """

    craft: Kind | int
    other: Kind | int
    craft_by: Cause | int
    other_by: Cause | int


@dataclass(frozen=True, slots=True)
class Enemy:
    """A kind of craft beyond the ship and the saucer, declared whole in its rules module and
    listed in ``asteroids.core.bodies.ENEMIES``; both drivers run its rules from there.

    Its rules are written once against ``lanes`` (``L``: ``ONE`` for one game's ``Draft``,
    ``MANY`` for a batch's ``BatchDraft``), change only the games their mask names, and draw
    (``L.below``, ``L.uniform``...) only where they say, each game from its own stream, after
    the saucer's draws of the tick. Its state is World fields declared with a neutral value
    (``per_game(..., neutral=...)``), so a game where it never appears hashes as before.
    """

    kind: int
    """Its ``Kind`` code, after the built-in kinds."""
    cause: int
    """The ``Cause`` code of what it claims (a ship it rams, ...), after the built-in ones."""
    hit: int
    """The ``Hit`` code of a shot striking it, after the built-in ones."""
    label: str
    """Its name in events (``CraftSpawned.kind``) and as a cause (``ShipDestroyed.cause``)."""
    craft: Callable[[Any, Any], Craft | None]
    """``(draft, params)``: it as the contact and shot phases see it in one game, or None
    while it is out of play."""
    rows: Callable[[Any, Any], CraftRows]
    """``(batch_draft, params)``: it in every game of a batch."""
    act: Callable[[Any, Any, Any, Any], tuple[Any, Any]]
    """``(L, d, params, rng)``: phase 2, its clocks (coming, leaving, whatever it does on its
    own). Returns (where it came into play, where it left play); the driver reports them
    (``CraftSpawned`` where it then is, ``CraftLeft``)."""
    move: Callable[[Any, Any, Any], None]
    """``(L, d, params)``: phase 4, it moves and meets the borders."""
    destroy: Callable[[Any, Any, Any, Any, Any, Any], Any]
    """``(L, d, params, when, cause, scoring)``: phase 6, it breaks where ``when`` (claimed by
    ``cause``; the player scores only while ``scoring``). Returns the points scored; the
    driver reports ``CraftDestroyed`` where it was."""
    contacts: tuple[Contact, ...] = ()
    """The pairs it is part of, decided after the built-in ones, in this order."""
    shot_by: tuple[Shooter, ...] = ()
    """Whose shots can hit it."""
    wraps: Callable[[Any], bool] | None = None
    """``(params)``: whether its ``move`` wraps it at the borders (else it bounces off them):
    how the bots foresee its path, to lead a shot or dodge it. None: it always wraps."""
