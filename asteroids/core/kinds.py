"""The named kinds of the core: what an int in a World or in a tick's bookkeeping means.

Each is an ``IntEnum``: its members are ints, so the values a World holds (and ``state_hash``
hashes) are exactly the ints they always were; only the names are new.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType

__all__ = ["BUILTIN_NAMES", "BY_SAUCER", "BY_SHIP", "DEAD", "FLYING", "Cause", "Hit", "Kind",
           "Names", "ShipState", "Shooter"]


class Kind(IntEnum):
    """The kinds of body in a World: many rocks, and craft (one body each)."""

    ROCK = 0
    SHIP = 1
    SAUCER = 2


class ShipState(IntEnum):
    """``World.ship_state``."""

    FLYING = 0
    """The ship is in play and can be hit."""
    DEAD = 1
    """The ship exploded; ``ship_timer`` counts down to a (safe) respawn."""
    HYPERSPACE = 2
    """The ship is in hyperspace; ``ship_timer`` counts down to re-entry."""


class Shooter(IntEnum):
    """``World.shot_owner``: whose shot it is (a shooter never hits itself)."""

    SHIP = 0
    SAUCER = 1

    @property
    def label(self) -> str:
        """The name events use (``ShotFired.shooter``)."""
        return "ship" if self is Shooter.SHIP else "saucer"


FLYING, DEAD = int(ShipState.FLYING), int(ShipState.DEAD)
BY_SHIP, BY_SAUCER = int(Shooter.SHIP), int(Shooter.SAUCER)
"""Ship states and shooters as plain ints, for comparing arrays with them: numpy compares
an array with an IntEnum member about five times as slowly (3.2 against 0.6 us)."""


class Cause(IntEnum):
    """What destroyed something this tick: the claim a target gets (the first claim wins)."""

    SHIP_SHOT = 0
    SAUCER_SHOT = 1
    SHIP = 2
    """Rammed by the ship."""
    SAUCER = 3
    """Rammed by the saucer."""
    ROCK = 4
    """Flew into a rock (the ship, the saucer)."""
    HYPERSPACE = 5
    """A jump that failed (the ship)."""

    @property
    def label(self) -> str:
        """The name events use (``AsteroidDestroyed.by``, ``SaucerDestroyed.by``,
        ``ShipDestroyed.cause``)."""
        return _LABELS[self]


_LABELS = ("ship-shot", "saucer-shot", "ship", "saucer", "asteroid", "hyperspace")
"""``Cause.label`` by value."""


class Hit(IntEnum):
    """What a shot hit this tick (the shot sweep's bookkeeping)."""

    NONE = 0
    ROCK = 1
    SAUCER = 2
    SHIP = 3
    OBSTACLE = 4


@dataclass(frozen=True)
class Names:
    """The names events give the codes a tick's bookkeeping holds: the built-in ones
    (``BUILTIN_NAMES``) plus those of every kind ``asteroids.core.bodies.ENEMIES`` declares
    (``bodies.NAMES``), so a new kind names itself where it is declared."""

    kinds: Mapping[int, str]
    """Each ``Kind`` code's name (``CraftSpawned.kind``)."""
    causes: Mapping[int, str]
    """Each ``Cause`` code's label (``ShipDestroyed.cause``, ``AsteroidDestroyed.by``)."""

    def __post_init__(self) -> None:
        for table in (self.kinds, self.causes):
            if len(dict.fromkeys(table.values())) != len(table):
                raise TypeError(f"two codes share a name in {dict(table)}")
        object.__setattr__(self, "_cause_codes", {v: k for k, v in self.causes.items()})
        object.__setattr__(self, "_kind_codes", {v: k for k, v in self.kinds.items()})

    def cause_code(self, label: str) -> int:
        """The code of a cause label (the inverse of ``causes``)."""
        return self._cause_codes[label]  # type: ignore[attr-defined, no-any-return]

    def kind_code(self, name: str) -> int:
        """The code of a kind's name (the inverse of ``kinds``)."""
        return self._kind_codes[name]  # type: ignore[attr-defined, no-any-return]


BUILTIN_NAMES = Names(
    kinds=MappingProxyType({int(Kind.ROCK): "asteroid", int(Kind.SHIP): "ship",
                            int(Kind.SAUCER): "saucer"}),
    causes=MappingProxyType({int(c): c.label for c in Cause}),
)
"""The names of the built-in kinds and causes."""
