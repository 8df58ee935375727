"""What the bots see of the craft, read from the bodies tables (``asteroids.core.bodies``):
the craft the ship's shots can hit are targets, the craft that can kill the ship dangers.

- ``AIMED``: ``SHOT_TARGETS[Shooter.SHIP]``, the saucer and then each declared enemy the
  ship's shots hit: the bots' targets besides the rocks;
- ``AVOIDED``: every other craft that can kill the ship (a pair of ``CONTACTS`` between it
  and the ship): dangers only;
- ``SEEN``: both, in that order: the rows the craft come in after a game's rocks.

``craft_seen`` shows them in one game (each kind's ``CRAFT`` view), ``craft_seen_rows`` in
every game of a batch (``CRAFT_ROWS``): the aimer (``aim.Scene``, ``bot_batch``) and the
personas (``asteroids.pilots``) read them from there. With no enemy declared they are the
saucer alone, as the bots always saw it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from asteroids.core.bodies import CONTACTS, CRAFT, CRAFT_ROWS, ENEMIES, SHOT_TARGETS
from asteroids.core.kinds import Kind, Shooter
from asteroids.core.params import Params

__all__ = ["AIMED", "ALL_HARM", "AVOIDED", "HARMS", "SAUCER_ID", "SEEN", "CraftSeen", "SeenRows",
           "all_wrap", "craft_seen", "craft_seen_rows", "harms_ship", "wraps"]


def harms_ship(kind: Kind | int) -> bool:
    """Whether touching ``kind`` can take the ship: a pair of ``CONTACTS`` between them
    (either side moving into the other)."""
    return any((c.craft, c.other) in ((Kind.SHIP, kind), (kind, Kind.SHIP)) for c in CONTACTS)


AIMED: tuple[Kind | int, ...] = tuple(SHOT_TARGETS[Shooter.SHIP])
"""The craft the ship's shots can hit, the saucer first: the bots' targets."""
AVOIDED: tuple[Kind | int, ...] = tuple(
    k for k in CRAFT if k != Kind.SHIP and k not in AIMED and harms_ship(k))
"""The craft that can take the ship but that its shots cannot hit: dangers only."""
SEEN: tuple[Kind | int, ...] = (*AIMED, *AVOIDED)
"""Every craft the bots see, in the order of their rows."""
HARMS: tuple[bool, ...] = tuple(harms_ship(k) for k in SEEN)
"""Whether each of ``SEEN`` can take the ship (a target that cannot is no danger)."""
ALL_HARM = all(HARMS)
"""Every craft seen is a danger: no row needs telling apart (the shipped game)."""
SAUCER_ID = -1 - SEEN.index(Kind.SAUCER)
"""The saucer's id in ``CraftSeen.ids`` (-1: it is the first target)."""

_WRAPS: Mapping[Kind | int, Callable[[Params], bool]] = MappingProxyType({
    Kind.SAUCER: lambda p: p.wrap_saucers,
    **{e.kind: e.wraps for e in ENEMIES if e.wraps is not None},
})


def wraps(kind: Kind | int, p: Params) -> bool:
    """Whether ``kind`` wraps at the borders under ``p`` (else it bounces off them): the
    saucer by ``borders.saucers``, a declared enemy by its ``Enemy.wraps``."""
    rule = _WRAPS.get(kind)
    return True if rule is None else bool(rule(p))


def all_wrap(p: Params) -> bool:
    """Whether every craft the bots see wraps under ``p`` (a rule of the params alone, so
    one game and a batch of games decide it alike)."""
    return all(wraps(k, p) for k in SEEN)


class CraftSeen(NamedTuple):
    """The craft the bots see in one game, one row each for those in play, in ``SEEN``'s
    order (so the targets first)."""

    pos: np.ndarray
    """(n, 2) their centres."""
    vel: np.ndarray
    """(n, 2) their motions, px per tick."""
    rad: np.ndarray
    """(n,) their bounding radii."""
    wraps: np.ndarray
    """(n,) bool: whether each wraps at the borders."""
    ids: np.ndarray
    """(n,) int64: -1 - the kind's place in ``SEEN`` (the saucer's is -1; rocks' ids are
    never negative)."""
    aimed: int
    """The first this many rows are targets (``AIMED``), the others dangers only."""
    harms: np.ndarray
    """(n,) bool: whether each can take the ship."""


def _none_seen() -> CraftSeen:
    rows = CraftSeen(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=bool),
                     np.zeros(0, dtype=np.int64), 0, np.zeros(0, dtype=bool))
    for array in rows:
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    return rows


_NONE_SEEN = _none_seen()
"""No craft in play (most ticks of most games): made once, read-only."""


def craft_seen(d: Any, p: Params) -> CraftSeen:
    """The craft of ``SEEN`` in play in one game (a World or a Draft), from their ``CRAFT``
    views."""
    shown = [(i, c) for i, kind in enumerate(SEEN) if (c := CRAFT[kind](d, p)) is not None]
    if not shown:
        return _NONE_SEEN
    n = len(shown)
    index = np.array([i for i, _ in shown], dtype=np.int64)
    return CraftSeen(
        np.array([(c.x, c.y) for _, c in shown], dtype=np.float64).reshape(n, 2),
        np.array([(c.vx, c.vy) for _, c in shown], dtype=np.float64).reshape(n, 2),
        np.array([c.radius for _, c in shown], dtype=np.float64),
        np.array([wraps(SEEN[i], p) for i, _ in shown], dtype=bool),
        -1 - index,
        int(np.count_nonzero(index < len(AIMED))),
        np.array([HARMS[i] for i, _ in shown], dtype=bool))


class SeenRows(NamedTuple):
    """One kind of ``SEEN`` in the games of a batch where it is in play: ``(n,)`` columns."""

    place: int
    """Its place in ``SEEN``."""
    lanes: np.ndarray
    """The games it is in play in, ascending."""
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    radius: np.ndarray
    wraps: bool
    aimed: bool
    """Whether it is a target (``AIMED``)."""
    harms: bool
    """Whether it can take the ship."""


def craft_seen_rows(d: Any, p: Params, where: np.ndarray) -> list[SeenRows]:
    """Each kind of ``SEEN``, in its order, in the games ``where`` ((B,) bool) of a batch
    (a ``Batch`` or ``BatchDraft``: read by field name) where it is in play, from its
    ``CRAFT_ROWS`` view."""
    out = []
    for place, kind in enumerate(SEEN):
        view = CRAFT_ROWS[kind](d, p)
        lanes = (view.present & where).nonzero()[0]
        out.append(SeenRows(place, lanes, view.x[lanes], view.y[lanes], view.vx[lanes],
                            view.vy[lanes], view.radius[lanes], wraps(kind, p),
                            place < len(AIMED), HARMS[place]))
    return out
