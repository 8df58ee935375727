"""The World's types: a Draft declares every World field, with the same type, so a type
checker sees what a rule reads and writes; the named kinds keep the ints a World holds."""

from __future__ import annotations

from asteroids.config.schema import Config
from asteroids.core import new_world, state_hash, step
from asteroids.core.kinds import Cause, Hit, Kind, ShipState, Shooter
from asteroids.core.world import FIELD_NAMES, NEUTRAL, Draft, World


def test_draft_declares_every_world_field_with_its_type() -> None:
    world = {name: kind for name, kind in World.__annotations__.items() if name != "params"}
    assert tuple(world) == FIELD_NAMES
    assert Draft.__annotations__ == world


def test_named_kinds_keep_the_ints_a_world_holds() -> None:
    """The values ``state_hash`` hashes are the ints they were before the kinds had names."""
    assert [int(s) for s in ShipState] == [0, 1, 2]
    assert [int(s) for s in Shooter] == [0, 1]
    assert [int(h) for h in Hit] == [0, 1, 2, 3, 4]
    assert [int(k) for k in Kind] == [0, 1, 2]
    assert [c.label for c in Cause] == ["ship-shot", "saucer-shot", "ship", "saucer",
                                        "asteroid", "hyperspace"]


def test_params_ride_along_but_are_not_state() -> None:
    """The compiled rules a World carries are never hashed, and stepping with the same
    Config reuses them; another Config compiles its own."""
    cfg = Config()
    world = new_world(cfg, 3)
    assert "params" not in FIELD_NAMES and "params" not in NEUTRAL
    after, _ = step(world, 0, cfg)
    assert after.params is world.params and world.params is not None
    other = Config()
    moved, _ = step(world, 0, other)
    assert moved.params is not world.params and moved.params.config is other
    assert state_hash(moved) == state_hash(after)
    bare = Draft(world)
    bare._params = None
    hand_made = bare.freeze()
    assert hand_made.params is None and state_hash(hand_made) == state_hash(world)
    again, _ = step(hand_made, 0, cfg)
    assert state_hash(again) == state_hash(after)
