"""The in-game keys as ``asteroids play --help`` lists them, read from the tables the game
itself uses: the ``[keys]`` bindings (``asteroids.config.KeysConfig``), the keys every screen
shares (``asteroids.app.keymap.common_rules``) and the pause screen's own line.

Imports arcade (through the key map), so the command line loads this only when the help is
asked for.
"""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import arcade

from asteroids.app.keymap import alt_enter_rule, common_rules
from asteroids.config import KeysConfig

__all__ = ["key_name", "play_keys_help"]

_NAMES = {"BRACKETLEFT": "[", "BRACKETRIGHT": "]", "RETURN": "ENTER"}
"""Key names written the way the key looks."""


def key_name(symbol: int) -> str:
    """An arcade key code as the player reads it (``BRACKETLEFT`` as ``[``)."""
    name = arcade.key.symbol_string(symbol) if hasattr(arcade.key, "symbol_string") else ""
    if not name:
        import pyglet.window.key as pyglet_key

        name = pyglet_key.symbol_string(symbol)
    return _NAMES.get(name, name)


def _shared_keys() -> list[str]:
    """The keys every screen takes, as ``KEYS what`` items, from the screens' own rules (a
    stand-in for the game: the rules are read, never run)."""
    game = SimpleNamespace(toggle_fullscreen=None,
                           audio=SimpleNamespace(toggle_mute=None, change_volume=None))
    items: dict[str, list[str]] = {}
    for rule in [*common_rules(game), alt_enter_rule(game)]:  # type: ignore[arg-type]
        keys = rule.keys() if callable(rule.keys) else rule.keys
        names = sorted({key_name(k) for k in keys if not key_name(k).startswith("NUM_")})
        shown = " / ".join(("ALT+" if rule.alt else "") + n for n in names)
        items.setdefault(rule.name, []).append(shown)
    return [f"{' or '.join(keys)} {name}" for name, keys in items.items()]


def play_keys_help(keys: KeysConfig | None = None) -> str:
    """The keys a game takes, as lines for ``asteroids play --help``.

    Args:
        keys: the bindings to list (default: the built-in ``[keys]``).
    """
    keys = keys or KeysConfig()
    lines = ["in-game keys (built in; [keys] in a --config file or the options screen "
             "changes them):"]
    for f in dataclasses.fields(KeysConfig):
        names = " / ".join(getattr(keys, f.name))
        lines.append(f"  {names:<16} {f.metadata['doc']}")
    try:
        from asteroids.app.play_view import PAUSE_HINT
    except ImportError:  # the pause screen's line is a nicety here
        pass
    else:
        parts = [" ".join(p.split()) for p in re.split(r"\s{2,}", PAUSE_HINT) if p.strip()]
        lines.append(f"paused: {', '.join(parts)}")
    lines.append(f"every screen: {', '.join(_shared_keys())}")
    return "\n".join(lines)
