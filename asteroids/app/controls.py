"""The controls as the screens teach them: from the actual key bindings (and the pad's, when
one is connected), only the actions the rules have.

The title shows them under its hint; the first game of a new profile shows them as a card
that fades out on the first input (``asteroids.app.play_view``). Pure: no arcade.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from asteroids.config import Config
from asteroids.profile.settings import pad_button_name

__all__ = ["key_label", "key_lines", "pad_lines"]

_SHORT = {"UP": "\u2191", "DOWN": "\u2193", "LEFT": "\u2190", "RIGHT": "\u2192",
          "ESCAPE": "ESC", "RETURN": "ENTER", "SPACE": "SPACE"}
"""Key names shown shorter (the arrows as arrows)."""


def key_label(name: str) -> str:
    """How a ``[keys]`` name is shown (``UP`` as an arrow, ``ESCAPE`` as ``ESC``)."""
    name = name.upper()
    return _SHORT.get(name, name)


def _keys(names: Sequence[str]) -> str:
    return " / ".join(key_label(n) for n in names[:2])


def _actions(config: Config) -> list[str]:
    """The actions the rules have, in the order they are taught."""
    actions = ["thrust", "turn", "fire"]
    if config.ship.hyperspace.enabled:
        actions.append("hyperspace")
    if config.ship.shield.enabled:
        actions.append("shield")
    return actions


def key_lines(config: Config) -> list[str]:
    """The keyboard's controls as ``ACTION: KEYS`` items: moving on the first line, the
    rest on the second."""
    keys = config.keys
    parts = []
    for action in _actions(config):
        if action == "turn":
            parts.append(f"TURN: {_keys(keys.left)}  {_keys(keys.right)}")
        else:
            parts.append(f"{action.upper()}: {_keys(getattr(keys, action))}")
    parts.append(f"PAUSE: {_keys(keys.pause)}")
    return ["   ".join(parts[:3]), "   ".join(parts[3:])]


def pad_lines(config: Config, pad: Mapping[str, Sequence[str]] | None) -> list[str]:
    """The gamepad's controls (none without a pad): the stick, then each action's
    buttons."""
    if pad is None:
        return []
    parts = ["PAD: STICK TURNS AND THRUSTS"]
    for action in _actions(config):
        if action == "turn":
            continue
        buttons = " / ".join(pad_button_name(b) for b in pad.get(action, ())[:2])
        if buttons:
            parts.append(f"{action.upper()}: {buttons}")
    parts.append("PAUSE: START")
    return ["   ".join(parts)]
