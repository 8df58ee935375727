"""The options screen's pure part: its items, their values, key and button binding with
conflicts refused, and applying the remembered options to a Config.

Everything here is a display, sound or input setting (the ``[display]``, ``[audio]`` and
``[keys]`` tables, and gamepad buttons, which have no table): applying options never
changes a rule, so a game's rules fingerprint and replay stay the same whatever the player
picks. No arcade here: keys are arcade.key *names*, buttons pyglet Controller attribute
names; the screen (``asteroids.app.options_overlay``) turns codes into names.

Precedence: the TOML's ``[display]`` / ``[audio]`` / ``[keys]`` give the starting values,
remembered options replace them, and a value the command line gave (``--set
display.palette=amber``: a *pinned* dotted key) beats both for that run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from asteroids.config import Config
from asteroids.config.keys import canonical_key
from asteroids.config.player_tables import KeysConfig
from asteroids.profile.settings import (
    KEY_ACTIONS,
    PAD_ACTIONS,
    PAD_BUTTONS,
    Settings,
    pad_button_name,
)

__all__ = ["BIND_ACTIONS", "DEFAULT_PAD", "HUD_SCALES", "ITEMS", "KEY_SLOTS",
           "MONITOR_STRENGTHS", "RESERVED_KEYS", "VOLUME_STEP", "Binding", "Item",
           "apply_options", "bind_button", "bind_key", "clear_key", "key_bindings",
           "key_slots", "pad_bindings", "step_choice", "step_volume"]

VOLUME_STEP = 0.1
"""One Left / Right on a volume item."""

MONITOR_STRENGTHS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The monitor look's choices (0: off, the plain look)."""

HUD_SCALES: tuple[float, ...] = (0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)
"""The HUD scale's choices."""

BIND_ACTIONS: tuple[str, ...] = ("thrust", "left", "right", "fire", "hyperspace", "shield",
                                 "pause")
"""The actions the options screen rebinds on the keyboard (``restart`` only matters with
``--live`` and stays in the TOML)."""

KEY_SLOTS: tuple[str, ...] = ("primary", "alternate")
"""The key slots the options screen shows per keyboard action: ``slot`` 0 and 1 index an
action's key list. Keys past the second (a player's TOML may give more) stay bound and
untouched by binding, but are not shown."""

DEFAULT_PAD: dict[str, tuple[str, ...]] = {
    "thrust": ("b", "dpup"),
    "left": ("dpleft",),
    "right": ("dpright",),
    "fire": ("a", "righttrigger"),
    "hyperspace": ("x", "lefttrigger"),
    "shield": ("y", "dpdown"),
}
"""The gamepad's buttons per action until the player rebinds them (the left stick always
steers and thrusts as well)."""

RESERVED_KEYS: dict[str, str] = {"F11": "full screen", "ESCAPE": "back / cancel"}
"""Keys the options screen will not bind to an action, with what they already do
(Escape cancels a press-to-bind; it stays a pause key where the TOML has it so)."""


class Item(NamedTuple):
    """One line of the options screen."""

    key: str
    """What it sets: ``master_volume``, ``palette``, ``key:fire``, ``pad:fire``, ``reset``..."""
    label: str
    """What the screen calls it."""


ITEMS: tuple[Item, ...] = (
    Item("master_volume", "VOLUME"),
    Item("effects_volume", "EFFECTS VOLUME"),
    Item("muted", "SOUND"),
    Item("fullscreen", "FULL SCREEN"),
    Item("palette", "PALETTE"),
    Item("monitor_strength", "MONITOR LOOK"),
    Item("hud_scale", "HUD SCALE"),
    Item("border", "PLAYFIELD BORDER"),
    Item("show_fps", "FPS COUNTER"),
    *(Item(f"key:{a}", f"KEY  {a.upper()}") for a in BIND_ACTIONS),
    *(Item(f"pad:{a}", f"PAD  {a.upper()}") for a in PAD_ACTIONS),
    Item("reset", "RESET TO DEFAULTS"),
    Item("back", "BACK"),
)
"""The options screen's items, top to bottom."""


class Binding(NamedTuple):
    """The outcome of a press-to-bind."""

    table: dict[str, list[str]]
    """The bindings after it (unchanged when refused)."""
    error: str | None
    """Why it was refused (None: bound)."""


def step_volume(value: float, step: int) -> float:
    """``value`` moved ``step`` volume steps, kept in [0, 1] and rounded to the step.

    >>> step_volume(0.7, 1), step_volume(0.95, 1), step_volume(0.05, -1)
    (0.8, 1.0, 0.0)
    """
    return round(min(max(value + step * VOLUME_STEP, 0.0), 1.0), 2)


def step_choice(choices: tuple[float, ...] | tuple[str, ...], value: object,
                step: int) -> object:
    """The choice ``step`` places from ``value`` (wrapping). A value between choices (set in
    the TOML) moves to the nearest choice on that side.

    >>> step_choice(HUD_SCALES, 1.0, 1), step_choice(HUD_SCALES, 1.1, -1)
    (1.25, 1.0)
    >>> step_choice(("vector", "green", "amber"), "amber", 1)
    'vector'
    """
    if value in choices:
        return choices[(choices.index(value) + step) % len(choices)]
    numbers = [c for c in choices if isinstance(c, float)]
    if numbers and isinstance(value, (int, float)):
        side = [c for c in numbers if (c > value if step > 0 else c < value)]
        if side:
            return min(side) if step > 0 else max(side)
        return numbers[0] if step > 0 else numbers[-1]
    return choices[0]


def key_bindings(config: Config) -> dict[str, list[str]]:
    """Every ``[keys]`` action's key names in ``config`` (as lists, for binding)."""
    return {a: list(getattr(config.keys, a)) for a in KEY_ACTIONS}


def pad_bindings(settings: Settings | None) -> dict[str, tuple[str, ...]]:
    """The gamepad's buttons per action: the remembered ones over ``DEFAULT_PAD``."""
    table = dict(DEFAULT_PAD)
    if settings is not None and settings.pad:
        table.update({a: tuple(v) for a, v in settings.pad.items() if a in PAD_ACTIONS})
    return table


def key_slots(keys: Sequence[str]) -> tuple[str, str | None]:
    """An action's primary and alternate key (None: no alternate), as the screen shows them.

    >>> key_slots(["UP", "W", "NUM_8"]), key_slots(["SPACE"])
    (('UP', 'W'), ('SPACE', None))
    """
    return keys[0], (keys[1] if len(keys) > 1 else None)


def _check_slot(slot: int) -> None:
    if slot not in (0, 1):
        raise ValueError(f"slot must be 0 (primary) or 1 (alternate), not {slot!r}")


def bind_key(table: Mapping[str, list[str]], action: str, key: str, slot: int = 0) -> Binding:
    """Put ``key`` in ``action``'s ``slot`` (0: primary, 1: alternate; see ``KEY_SLOTS``),
    keeping the action's other keys, unless another action has it (refused, saying which)
    or the screen reserves it.

    An empty alternate slot gets ``key`` appended. Keys past the second are kept as they
    are. A key the same action already has in another place swaps places with the slot's
    key (so the action keeps the same keys, in a new order), except the primary into an
    empty alternate, which is refused (the primary cannot be left empty).

    >>> bind_key({"fire": ["SPACE"], "thrust": ["UP", "W"]}, "fire", "W").error
    'W is already THRUST: not bound'
    >>> bind_key({"fire": ["SPACE"], "thrust": ["UP", "W"]}, "thrust", "K", 1).table["thrust"]
    ['UP', 'K']
    >>> bind_key({"fire": ["SPACE"], "thrust": ["UP", "W"]}, "thrust", "W", 0).table["thrust"]
    ['W', 'UP']

    Raises:
        ValueError: ``slot`` is neither 0 nor 1.
    """
    _check_slot(slot)
    name = canonical_key(key)
    if name in RESERVED_KEYS:
        return Binding(dict(table), f"{key} is the {RESERVED_KEYS[name]} key: not bound")
    for other, keys in table.items():
        if other != action and name in {canonical_key(k) for k in keys}:
            return Binding(dict(table), f"{key} is already {other.upper()}: not bound")
    out = {a: list(v) for a, v in table.items()}
    keys = out[action]
    names = [canonical_key(k) for k in keys]
    if name in names:
        place = names.index(name)
        if slot >= len(keys):
            return Binding(dict(table),
                           f"{key} is already the {action.upper()} primary key: not bound")
        keys[slot], keys[place] = keys[place], keys[slot]
    elif slot < len(keys):
        keys[slot] = key
    else:
        keys.append(key)
    return Binding(out, None)


def clear_key(table: Mapping[str, list[str]], action: str, slot: int) -> Binding:
    """Take the key out of ``action``'s alternate slot (1). The primary (0) is never cleared:
    an action keeps at least one key (the ``[keys]`` lists are never empty). A third key,
    if the TOML gave one, moves up into the alternate slot (the screen shows what is bound).

    >>> clear_key({"thrust": ["UP", "W"]}, "thrust", 1).table
    {'thrust': ['UP']}
    >>> clear_key({"thrust": ["UP", "W"]}, "thrust", 0).error
    'THRUST keeps its primary key: not cleared'

    Raises:
        ValueError: ``slot`` is neither 0 nor 1.
    """
    _check_slot(slot)
    if slot == 0:
        return Binding(dict(table), f"{action.upper()} keeps its primary key: not cleared")
    if len(table[action]) < 2:
        return Binding(dict(table), f"{action.upper()} has no alternate key")
    out = {a: list(v) for a, v in table.items()}
    del out[action][1]
    return Binding(out, None)


def bind_button(table: Mapping[str, tuple[str, ...] | list[str]], action: str,
                button: str) -> Binding:
    """Make ``button`` the one gamepad button of ``action``, unless another action has it.
    Pad bindings stay one button per action on the screen (the defaults give some actions
    two, ``DEFAULT_PAD``; binding replaces both).

    >>> bind_button(DEFAULT_PAD, "fire", "x").error
    'pad X is already HYPERSPACE: not bound'
    """
    if button not in PAD_BUTTONS:
        return Binding({a: list(v) for a, v in table.items()}, f"pad {button} cannot be bound")
    for other, buttons in table.items():
        if other != action and button in buttons:
            return Binding({a: list(v) for a, v in table.items()},
                           f"pad {pad_button_name(button)} is already {other.upper()}: "
                           "not bound")
    out = {a: list(v) for a, v in table.items()}
    out[action] = [button]
    return Binding(out, None)


def apply_options(config: Config, settings: Settings | None,
                  pinned: Collection[str] = ()) -> Config:
    """``config`` with the remembered options in its display, audio and keys tables, except
    where ``pinned`` (dotted keys the command line gave) says the command line decides.

    Only non-rule tables change, so ``rules_fingerprint(config)`` stays the same.
    """
    if settings is None:
        return config
    display, audio, keys = config.display, config.audio, config.keys

    def take(key: str, value: object) -> bool:
        return value is not None and key not in pinned

    if take("display.palette", settings.palette):
        display = dataclasses.replace(display, palette=settings.palette)
    if take("display.hud_scale", settings.hud_scale):
        display = dataclasses.replace(display, hud_scale=float(settings.hud_scale or 1.0))
    if take("display.fullscreen", settings.fullscreen):
        display = dataclasses.replace(display, fullscreen=bool(settings.fullscreen))
    if take("display.monitor.strength", settings.monitor_strength):
        display = dataclasses.replace(display, monitor=dataclasses.replace(
            display.monitor, strength=float(settings.monitor_strength or 0.0)))
    if take("display.show_fps", settings.show_fps):
        display = dataclasses.replace(display, show_fps=bool(settings.show_fps))
    if take("display.border", settings.border):
        display = dataclasses.replace(display, border=str(settings.border))
    if take("audio.volume", settings.master_volume):
        audio = dataclasses.replace(audio, volume=float(settings.master_volume or 0.0))
    if take("audio.effects_volume", settings.effects_volume):
        audio = dataclasses.replace(audio, effects_volume=float(settings.effects_volume or 0.0))
    if take("audio.muted", settings.muted):
        audio = dataclasses.replace(audio, muted=bool(settings.muted))
    if settings.keys:
        changed = {a: tuple(v) for a, v in settings.keys.items()
                   if a in KeysConfig.__dataclass_fields__ and v and f"keys.{a}" not in pinned}
        if changed:
            keys = dataclasses.replace(keys, **changed)
    if (display, audio, keys) == (config.display, config.audio, config.keys):
        return config
    return dataclasses.replace(config, display=display, audio=audio, keys=keys)
