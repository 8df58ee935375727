"""The per-tick frame: what one ``step`` has found so far, handed from phase to phase.

Phases run in a fixed order (``asteroids.core.simulation``); the shot sweep and the contacts
*claim* targets, and ``resolve`` destroys what was claimed. The first claim on a target wins,
so a rock that two shots reach in one tick breaks once, for the earlier one. The frame lives
for one tick and is never kept: nothing derived here outlives the step that made it.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.kinds import Cause, Kind

__all__ = ["NO_CLAIM", "Frame"]

NO_CLAIM = -1
"""The value of a claim no one made."""


class Frame:
    """Claims on this tick's targets: each rock, and each kind of craft, by what (a
    ``Cause``), or ``NO_CLAIM``.

    Args:
        rocks: the number of rocks at the start of the tick.
        kinds: how many kinds of body there are (``bodies.KINDS``: the built-in ones and
            every declared enemy).
    """

    __slots__ = ("craft_by", "rock_by", "rocks")

    def __init__(self, rocks: int, kinds: int = len(Kind)) -> None:
        self.rocks = rocks
        self.rock_by: np.ndarray | None = None
        """(N,) int64: the cause that claimed each rock, or ``NO_CLAIM``; None while no rock is
        claimed (most ticks: nothing to break)."""
        self.craft_by = [NO_CLAIM] * kinds
        """By ``Kind`` value: the cause that claimed that craft, or ``NO_CLAIM``."""

    def claim_rock(self, index: int, cause: Cause) -> None:
        """Claim rock ``index`` for ``cause`` unless something claimed it first."""
        by = self.rock_by
        if by is None:
            by = self.rock_by = np.full(self.rocks, NO_CLAIM, dtype=np.int64)
        if by[index] < 0:
            by[index] = cause

    def unclaimed(self, index: np.ndarray) -> np.ndarray:
        """The rocks of ``index`` that nothing has claimed yet."""
        by = self.rock_by
        return index if by is None else index[by[index] < 0]

    def claim(self, kind: Kind | int, cause: Cause | int) -> None:
        """Claim the craft of ``kind`` for ``cause`` unless something claimed it first."""
        if self.craft_by[kind] < 0:
            self.craft_by[kind] = cause

    def claimed(self, kind: Kind | int) -> bool:
        """Whether something claimed the craft of ``kind`` this tick."""
        return self.craft_by[kind] >= 0

    def cause(self, kind: Kind | int) -> int:
        """What claimed the craft of ``kind`` (it must be claimed): a ``Cause`` code, built in
        or a declared enemy's (``bodies.NAMES`` names it)."""
        return self.craft_by[kind]
