"""The per-tick frame: what one ``step`` has found so far, handed from phase to phase.

Phases run in a fixed order (``asteroids.core.simulation``); the shot sweep and the contacts
*claim* targets, and ``resolve`` destroys what was claimed. The first claim on a target wins,
so a rock that two shots reach in one tick breaks once, for the earlier one. The frame lives
for one tick and is never kept: nothing derived here outlives the step that made it.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.kinds import Cause

__all__ = ["NO_CLAIM", "Frame"]

NO_CLAIM = -1
"""The value of a claim no one made."""


class Frame:
    """Claims on this tick's targets: each rock, the saucer and the ship, by what
    (a ``Cause``), or ``NO_CLAIM``.

    Args:
        rocks: the number of rocks at the start of the tick.
    """

    __slots__ = ("rock_by", "saucer_by", "ship_by")

    def __init__(self, rocks: int) -> None:
        self.rock_by = np.full(rocks, NO_CLAIM, dtype=np.int64)
        """(N,) int64: the cause that claimed each rock, or ``NO_CLAIM``."""
        self.saucer_by = NO_CLAIM
        """The cause that claimed the saucer, or ``NO_CLAIM``."""
        self.ship_by = NO_CLAIM
        """The cause that claimed the ship, or ``NO_CLAIM``."""

    def claim_rock(self, index: int, cause: Cause) -> None:
        """Claim rock ``index`` for ``cause`` unless something claimed it first."""
        if self.rock_by[index] < 0:
            self.rock_by[index] = cause

    def claim_saucer(self, cause: Cause) -> None:
        """Claim the saucer for ``cause`` unless something claimed it first."""
        if self.saucer_by < 0:
            self.saucer_by = cause

    def claim_ship(self, cause: Cause) -> None:
        """Claim the ship for ``cause`` unless something claimed it first."""
        if self.ship_by < 0:
            self.ship_by = cause

    @property
    def saucer_claimed(self) -> bool:
        """Whether something claimed the saucer this tick."""
        return self.saucer_by >= 0

    @property
    def ship_claimed(self) -> bool:
        """Whether something claimed the ship this tick."""
        return self.ship_by >= 0
