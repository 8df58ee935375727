"""Every schema range is accepted by the kernels and the bots that use it.

Each rule setting is set to each end of its range (each choice, each flag) on top of a busy
game (shield on and held half the time, a wide shield, more rocks, rocks colliding); the
aimer bot plays 120 ticks of it, then the spinner and the soak bot 20 each, with every
World invariant checked after every tick. The ranges come from
``asteroids/config/rule_tables.py`` itself, so a widened range is walked as soon as it is
written.
Before this walk, ``ship.shield.restitution = 1.5`` (schema-valid) crashed the first shield
contact, and ``ship.turn_deg_per_s`` under about 2.6 deg/s made the aimer divide by zero.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from asteroids.config import Config, ConfigError
from asteroids.config.knobs import Knob, knobs
from asteroids.config.loader import load_preset
from asteroids.config.render import render_value
from asteroids.config.rulesets import RULE_TABLES
from asteroids.core import new_world, step
from asteroids.core.bot import aimer_bot, bot_input, spinner_bot
from asteroids.core.inputs import InputFrame
from asteroids.core.params import Params, params_for
from asteroids.core.world import World
from tests.core.invariants import check_world

BUSY = ("ship.shield.enabled=true", "ship.shield.radius_px=120", "game.lives=99",
        "game.first_wave_asteroids=8", "asteroids.collide=true")
"""The game every extreme is played in: the shield in use and rocks touching it often."""
AIMER_TICKS = 120
OTHER_TICKS = 20
SEED = 11
"""A seed whose rocks touch the shield early (tick 75 with the default rules)."""

BIG_WORLD = ("world.width_px=20000", "world.height_px=20000")
"""Room for extremes the default world is too small for (huge rocks, a huge safe radius)."""
PARTNERS = {
    "asteroids.vertices_min": "asteroids.vertices_max",
    "asteroids.speed_min_px_per_s": "asteroids.speed_max_px_per_s",
    "saucers.min_interval_s": "saucers.first_interval_s",
    "game.heartbeat.min_interval_s": "game.heartbeat.start_interval_s",
}
"""Settings that must not exceed another (cross-field): the other moves to the same end."""
PARTNERS |= {b: a for a, b in PARTNERS.items()}


def _leaves(cls: type, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, Knob]]:
    for k in knobs(cls):
        if k.kind == "table" and k.cls is not None:
            yield from _leaves(k.cls, (*prefix, k.name))
        elif k.kind in ("int", "float", "list", "bool", "str"):
            yield ".".join((*prefix, k.name)), k


def _ends(knob: Knob) -> list[tuple[str, object]]:
    """(label, value) for each end of the knob's range, each choice, or both flags."""
    meta = knob.meta
    if knob.kind == "bool":
        return [("true", True), ("false", False)]
    if knob.kind == "str":
        return [(c, c) for c in meta["choices"]]
    lo, hi = meta["lo"], meta["hi"]
    if knob.kind == "list":
        conv = int if knob.elem is int else float
        if knob.name == "radius_px":  # large > medium > small
            return [("lo", (conv(lo) + 2, conv(lo) + 1, conv(lo))),
                    ("hi", (conv(hi), conv(hi) / 2, conv(hi) / 4))]
        return [("lo", (conv(lo),) * meta["length"]), ("hi", (conv(hi),) * meta["length"])]
    if knob.kind == "int":
        return [("lo", int(lo) + (1 if meta["lo_open"] else 0)), ("hi", int(hi))]
    return [("lo", lo + (hi - lo) * 1e-6 if meta["lo_open"] else float(lo)), ("hi", float(hi))]


CASES = [pytest.param(key, value, id=f"{key}={label}")
         for key, knob in _leaves(Config) if key.split(".")[0] in RULE_TABLES
         for label, value in _ends(knob)]


def _config(key: str, value: object) -> Config:
    """The busy game with ``key`` at ``value``, in the default world or, if that refuses it,
    a big one (with the setting's cross-field partner at the same value)."""
    setting = f"{key}={render_value(value)}"
    tries = [(), BIG_WORLD]
    if key in PARTNERS:
        tries.append((*BIG_WORLD, f"{PARTNERS[key]}={render_value(value)}"))
    problem = ""
    for extra in tries:
        try:
            return load_preset("default", overrides=[*BUSY, setting, *extra])
        except ConfigError as exc:
            problem = str(exc.errors[0])
    pytest.fail(f"{setting}: no game accepts this end of the schema's range ({problem})")


def _play(config: Config, bot: object, ticks: int) -> World:
    p = params_for(config)  # compiled once, passed every tick
    world = new_world(p, SEED)
    prev = None
    for _ in range(ticks):
        world, _ = step(world, bot(world, p), p)  # type: ignore[operator]
        check_world(world, p, prev)
        prev = world
    return world


def _shielding_aimer(world: World, p: Params) -> int:
    """The aimer, with the shield held every other 25 ticks."""
    return aimer_bot(world, p) | (int(InputFrame.SHIELD) if world.tick // 25 % 2 else 0)


def _soak_bot(world: World, p: Params) -> int:
    world_table = p.config.world
    return bot_input(world, world_table.width_px, world_table.height_px, world.tick % 3)


@pytest.mark.slow  # ~11 s in all
@pytest.mark.parametrize(("key", "value"), CASES)
def test_every_end_of_every_rule_range_plays_with_every_invariant_kept(key: str,
                                                                       value: object) -> None:
    config = _config(key, value)
    assert _play(config, _shielding_aimer, AIMER_TICKS).tick == AIMER_TICKS
    for bot in (spinner_bot, _soak_bot):
        assert _play(config, bot, OTHER_TICKS).tick == OTHER_TICKS


def test_the_walk_covers_every_rule_setting_and_the_two_that_crashed() -> None:
    keys = {p.values[0] for p in CASES}
    rule_keys = {k for k, _ in _leaves(Config) if k.split(".")[0] in RULE_TABLES}
    assert keys == rule_keys and len(keys) > 80
    assert ("ship.shield.restitution", 1.5) in {tuple(p.values) for p in CASES}
    assert ("ship.turn_deg_per_s", 0.0) in {tuple(p.values) for p in CASES}


@pytest.mark.parametrize(("turn", "steps"), [(0.0, 0), (2.6, 0), (2.7, 1)])
def test_the_aimer_flies_a_ship_that_cannot_turn(turn: float, steps: int) -> None:
    """Under half a heading step per tick (2.64 deg/s at 60 Hz) the ship cannot turn; the
    aimer still plays (it used to divide by zero) and never presses a turn; one step more
    and it turns again."""
    config = load_preset("default", overrides=[f"ship.turn_deg_per_s={turn}"])
    p = params_for(config)  # compiled once, passed every tick
    assert p.ship_turn_steps_per_tick == steps
    world = new_world(p, SEED)
    pressed = 0
    for _ in range(300):
        mask = aimer_bot(world, p)
        pressed |= mask
        world, _ = step(world, mask, p)
    turned = bool(pressed & (int(InputFrame.LEFT) | int(InputFrame.RIGHT)))
    assert turned == (steps > 0)
    assert pressed & int(InputFrame.FIRE)
