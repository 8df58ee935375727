"""A screen's key handling as a table: which keys, when, do what.

Each screen lists its rules in order (``KeyTable``); the first rule whose keys hold the
pressed key (and whose condition holds now) runs, and nothing else does. The keys of a rule
may be a set or a function giving the set (bindings a live reload or the options screen
change). The gamepad's menu moves go through the same table as negative key codes
(``PAD_UP``, ``PAD_A`` ...), so a screen says in one place what a key or a button does. The
keys every screen shares (full screen, mute, volume) are ``common_rules``.
No game rule here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import arcade

if TYPE_CHECKING:
    from asteroids.app.game import Game

__all__ = ["CONFIRM_KEYS", "DOWN_KEYS", "FULLSCREEN_KEYS", "KeyRule", "KeyTable", "LEFT_KEYS",
           "MUTE_KEYS", "RIGHT_KEYS", "START_KEYS", "UP_KEYS", "VOLUME_DOWN_KEYS",
           "PAD_A", "PAD_B", "PAD_BACK", "PAD_DOWN", "PAD_LEFT", "PAD_MOVES", "PAD_RIGHT",
           "PAD_START", "PAD_UP", "PAD_Y", "VOLUME_UP_KEYS", "alt_enter_rule", "common_rules",
           "pad_key", "run"]

CONFIRM_KEYS = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER})
"""Enter, on the main keys or the keypad."""
START_KEYS = CONFIRM_KEYS | {arcade.key.SPACE}
"""Keys that start a game from the title or game-over screen."""
UP_KEYS = frozenset({arcade.key.UP, arcade.key.NUM_UP})
DOWN_KEYS = frozenset({arcade.key.DOWN, arcade.key.NUM_DOWN})
LEFT_KEYS = frozenset({arcade.key.LEFT, arcade.key.NUM_LEFT})
RIGHT_KEYS = frozenset({arcade.key.RIGHT, arcade.key.NUM_RIGHT})
MUTE_KEYS = frozenset({arcade.key.M})
VOLUME_DOWN_KEYS = frozenset({arcade.key.BRACKETLEFT})
VOLUME_UP_KEYS = frozenset({arcade.key.BRACKETRIGHT})
FULLSCREEN_KEYS = frozenset({arcade.key.F11})
"""Keys that work on every screen: mute, master volume down / up, full screen (and
Alt+Enter). Each change is remembered for the next run."""

PAD_MOVES = ("left", "right", "up", "down", "fire", "start", "back", "alt", "options")
"""The gamepad's menu moves (``asteroids.app.input.MenuPad``)."""


def pad_key(move: str) -> int:
    """The key code a pad menu move goes through a key table as: negative, so it is never a
    keyboard key (``PAD_UP`` ...)."""
    return -1 - PAD_MOVES.index(move)


PAD_LEFT, PAD_RIGHT, PAD_UP, PAD_DOWN, PAD_A, PAD_START, PAD_B, PAD_Y, PAD_BACK = (
    pad_key(m) for m in PAD_MOVES)
"""The pad's menu moves as key codes: d-pad or stick, A, Start, B, Y, Back / Select."""

Keys = Collection[int] | Callable[[], Collection[int]]


@dataclass(frozen=True)
class KeyRule:
    """One line of a screen's key table."""

    keys: Keys
    """The keys it takes (or a function giving them now)."""
    action: Callable[[int], object]
    """What it does, given the key pressed. An action returning ``False`` declines the key
    (the next rules are tried); any other result handles it."""
    when: Callable[[], bool] | None = None
    """Only while this holds (None: always)."""
    alt: bool = False
    """Only with Alt held (Alt+Enter is not Enter)."""
    name: str = ""
    """What it is for (the screen's help, tests)."""

    def takes(self, symbol: int, modifiers: int) -> bool:
        """Whether this rule is for ``symbol`` now."""
        if self.alt and not modifiers & arcade.key.MOD_ALT:
            return False
        keys = self.keys() if callable(self.keys) else self.keys
        return symbol in keys and (self.when is None or self.when())


class KeyTable:
    """A screen's key rules, first match wins."""

    def __init__(self, rules: Sequence[KeyRule]) -> None:
        self.rules = tuple(rules)

    def press(self, symbol: int, modifiers: int = 0) -> bool:
        """Run the first rule for ``symbol``; True when one handled it."""
        for rule in self.rules:
            if rule.takes(symbol, modifiers) and rule.action(symbol) is not False:
                return True
        return False

    def rule(self, name: str) -> KeyRule:
        """The rule called ``name``.

        Raises:
            KeyError: no rule has that name.
        """
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)


def run(fn: Callable[[], object]) -> Callable[[int], None]:
    """An action that ignores which key was pressed and what ``fn`` returns: it always
    handles the key (``run(self.pause)``)."""
    def action(_symbol: int) -> None:
        fn()
    return action


def common_rules(game: Game) -> list[KeyRule]:
    """Full screen (F11, Alt+Enter), mute (M) and volume ([ and ]): every screen's, after
    its own keys (but Alt+Enter before them: it is not Enter)."""
    return [
        KeyRule(FULLSCREEN_KEYS, run(game.toggle_fullscreen), name="fullscreen"),
        KeyRule(MUTE_KEYS, run(game.audio.toggle_mute), name="mute"),
        KeyRule(VOLUME_DOWN_KEYS, lambda _: game.audio.change_volume(-1), name="volume down"),
        KeyRule(VOLUME_UP_KEYS, lambda _: game.audio.change_volume(1), name="volume up"),
    ]


def alt_enter_rule(game: Game) -> KeyRule:
    """Alt+Enter toggles full screen (listed first: Enter alone is a screen's own key)."""
    return KeyRule(CONFIRM_KEYS, run(game.toggle_fullscreen), alt=True, name="fullscreen")
