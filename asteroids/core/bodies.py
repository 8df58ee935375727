"""Which bodies meet which, declared as data: the one table to extend for a new kind.

- ``CRAFT``: every kind of craft (one body of its own), with the function of its rules
  module that shows it to the contact and shot phases (a ``Craft``, or None out of play),
  and ``CRAFT_ROWS`` the one that shows it in every game of a batch (``CraftRows``);
- ``CONTACTS``: the pairs that touch (phase 5, ``asteroids.core.touch``), in the order they
  are decided, and what each side is claimed by;
- ``SHOT_TARGETS``: the craft each side's shots can hit (phase 3, ``asteroids.core.sweep``,
  and the reach check), besides every rock and the obstacles;
- ``ENEMIES``: every kind of craft beyond the ship and the saucer, each declared whole in its
  own rules module (``craft.Enemy``: its names, views, rules per phase, contacts and who
  shoots it). The tables above include them, and ``NAMES`` names their codes; both drivers
  run their rules from here, the bots aim at ``SHOT_TARGETS``, the counters read ``NAMES``.

docs/modders/adding-an-enemy.md walks through adding one (a drifting mine), and
tests/test_adding_an_enemy.py adds it in a scratch copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from asteroids.core.craft import Contact, Craft, CraftRows, Enemy
from asteroids.core.kinds import BUILTIN_NAMES, Cause, Hit, Kind, Names, Shooter
from asteroids.core.lanes import BatchDraft
from asteroids.core.params import Params
from asteroids.core.saucer import saucer_craft, saucer_rows
from asteroids.core.ship import ship_craft, ship_rows
from asteroids.core.world import Draft

__all__ = ["CONTACTS", "CRAFT", "CRAFT_ROWS", "ENEMIES", "HIT_OF", "KINDS", "KIND_HIT", "NAMES",
           "SHOT_CAUSE", "SHOT_TARGETS", "Contact", "Enemy"]

ENEMIES: tuple[Enemy, ...] = ()
"""Every kind of craft beyond the ship and the saucer, in the order its rules run (each
declared in its own rules module: ``craft.Enemy``)."""


def _check_enemies(enemies: tuple[Enemy, ...]) -> None:
    """Each enemy's codes come after the built-in ones and no two share a code or a name."""
    taken: dict[str, list[object]] = {
        "kind": [int(k) for k in Kind], "cause": [int(c) for c in Cause],
        "hit": [int(h) for h in Hit],
        "label": [*BUILTIN_NAMES.kinds.values(), *BUILTIN_NAMES.causes.values()]}
    for enemy in enemies:
        for what, seen in taken.items():
            value = getattr(enemy, what)
            if value in seen:
                raise TypeError(f"enemy {enemy.label!r}: its {what} {value!r} is taken")
            seen.append(value)


_check_enemies(ENEMIES)


CRAFT: Mapping[Kind | int, Callable[[Draft, Params], Craft | None]] = MappingProxyType({
    Kind.SHIP: ship_craft,
    Kind.SAUCER: saucer_craft,
    **{e.kind: e.craft for e in ENEMIES},
})
"""Each kind of craft and how its rules module shows it this tick."""

CRAFT_ROWS: Mapping[Kind | int, Callable[[BatchDraft, Params], CraftRows]] = MappingProxyType({
    Kind.SHIP: ship_rows,
    Kind.SAUCER: saucer_rows,
    **{e.kind: e.rows for e in ENEMIES},
})
"""Each kind of craft and how its rules module shows it in every game of a batch (the
batched pass's ``CRAFT``)."""

CONTACTS: tuple[Contact, ...] = (
    Contact(Kind.SHIP, Kind.ROCK, craft_by=Cause.ROCK, other_by=Cause.SHIP),
    Contact(Kind.SAUCER, Kind.ROCK, craft_by=Cause.ROCK, other_by=Cause.SAUCER),
    Contact(Kind.SHIP, Kind.SAUCER, craft_by=Cause.SAUCER, other_by=Cause.SHIP),
    *(c for e in ENEMIES for c in e.contacts),
)
"""What touches what, in the order it is decided (the first claim on a target wins)."""

SHOT_TARGETS: Mapping[Shooter, tuple[Kind | int, ...]] = MappingProxyType({
    Shooter.SHIP: (Kind.SAUCER, *(e.kind for e in ENEMIES if Shooter.SHIP in e.shot_by)),
    Shooter.SAUCER: (Kind.SHIP, *(e.kind for e in ENEMIES if Shooter.SAUCER in e.shot_by)),
})
"""The craft each side's shots can hit (a shooter never hits itself)."""

SHOT_CAUSE: Mapping[Shooter, Cause] = MappingProxyType({
    Shooter.SHIP: Cause.SHIP_SHOT,
    Shooter.SAUCER: Cause.SAUCER_SHOT,
})
"""What a hit by each side's shot is claimed by."""

HIT_OF: Mapping[Kind | int, Hit | int] = MappingProxyType({
    Kind.SAUCER: Hit.SAUCER, Kind.SHIP: Hit.SHIP, **{e.kind: e.hit for e in ENEMIES}})
"""The shot sweep's record of a hit on each kind of craft."""

KIND_HIT: Mapping[Hit | int, Kind | int] = MappingProxyType(
    {hit: kind for kind, hit in HIT_OF.items()})
"""The kind of craft a shot-sweep hit record names."""

KINDS: tuple[Kind | int, ...] = (*Kind, *(e.kind for e in ENEMIES))
"""Every kind of body, built in and declared."""

NAMES: Names = Names(
    kinds=MappingProxyType({**BUILTIN_NAMES.kinds, **{e.kind: e.label for e in ENEMIES}}),
    causes=MappingProxyType({**BUILTIN_NAMES.causes, **{e.cause: e.label for e in ENEMIES}}),
)
"""The names of every kind and cause code, the declared kinds' included: what events call
them (``event_columns.EventColumns.names``)."""
