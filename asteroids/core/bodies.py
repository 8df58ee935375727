"""Which bodies meet which, declared as data: the one table to extend for a new kind.

- ``CRAFT``: every kind of craft (one body of its own), with the function of its rules
  module that shows it to the contact and shot phases (a ``Craft``, or None out of play),
  and ``CRAFT_ROWS`` the one that shows it in every game of a batch (``CraftRows``);
- ``CONTACTS``: the pairs that touch (phase 5, ``asteroids.core.touch``), in the order they
  are decided, and what each side is claimed by;
- ``SHOT_TARGETS``: the craft each side's shots can hit (phase 3, ``asteroids.core.sweep``,
  and the reach check), besides every rock and the obstacles.

docs/architecture.md walks through adding an enemy and a pickup with these tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from asteroids.core.craft import Craft, CraftRows
from asteroids.core.kinds import Cause, Hit, Kind, Shooter
from asteroids.core.lanes import BatchDraft
from asteroids.core.params import Params
from asteroids.core.saucer import saucer_craft, saucer_rows
from asteroids.core.ship import ship_craft, ship_rows
from asteroids.core.world import Draft

__all__ = ["CONTACTS", "CRAFT", "CRAFT_ROWS", "HIT_OF", "KIND_HIT", "SHOT_CAUSE", "SHOT_TARGETS",
           "Contact"]


@dataclass(frozen=True, slots=True)
class Contact:
    """A pair of kinds that can touch, and the claims touching makes.

    ``craft`` moves into ``other``: a rock (every rock, tested outline against outline, the
    lowest unclaimed one that touches) or another craft. When they touch, ``other`` is
    claimed by ``other_by`` and ``craft`` by ``craft_by``; when ``craft`` has its shield up,
    rocks bounce off the shield instead, a craft the shield touches is claimed, and ``craft``
    is not. A pair is skipped while either side is out of play or already claimed.
    """

    craft: Kind
    other: Kind
    craft_by: Cause
    other_by: Cause


CRAFT: Mapping[Kind, Callable[[Draft, Params], Craft | None]] = MappingProxyType({
    Kind.SHIP: ship_craft,
    Kind.SAUCER: saucer_craft,
})
"""Each kind of craft and how its rules module shows it this tick."""

CRAFT_ROWS: Mapping[Kind, Callable[[BatchDraft, Params], CraftRows]] = MappingProxyType({
    Kind.SHIP: ship_rows,
    Kind.SAUCER: saucer_rows,
})
"""Each kind of craft and how its rules module shows it in every game of a batch (the
batched pass's ``CRAFT``)."""

CONTACTS: tuple[Contact, ...] = (
    Contact(Kind.SHIP, Kind.ROCK, craft_by=Cause.ROCK, other_by=Cause.SHIP),
    Contact(Kind.SAUCER, Kind.ROCK, craft_by=Cause.ROCK, other_by=Cause.SAUCER),
    Contact(Kind.SHIP, Kind.SAUCER, craft_by=Cause.SAUCER, other_by=Cause.SHIP),
)
"""What touches what, in the order it is decided (the first claim on a target wins)."""

SHOT_TARGETS: Mapping[Shooter, tuple[Kind, ...]] = MappingProxyType({
    Shooter.SHIP: (Kind.SAUCER,),
    Shooter.SAUCER: (Kind.SHIP,),
})
"""The craft each side's shots can hit (a shooter never hits itself)."""

SHOT_CAUSE: Mapping[Shooter, Cause] = MappingProxyType({
    Shooter.SHIP: Cause.SHIP_SHOT,
    Shooter.SAUCER: Cause.SAUCER_SHOT,
})
"""What a hit by each side's shot is claimed by."""

HIT_OF: Mapping[Kind, Hit] = MappingProxyType({Kind.SAUCER: Hit.SAUCER, Kind.SHIP: Hit.SHIP})
"""The shot sweep's record of a hit on each kind of craft."""

KIND_HIT: Mapping[Hit, Kind] = MappingProxyType({hit: kind for kind, hit in HIT_OF.items()})
"""The kind of craft a shot-sweep hit record names."""
