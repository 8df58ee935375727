"""Arcade-style initials entry for a game that made the high-score table.

The score is already in the table with initials "???" (``Game.enter_score``) when this view
opens, so nothing the player does here, or fails to do, can lose it: confirming sets the
initials and saves; a timeout or Escape keeps whatever is entered ("???" when nothing was).
Then the title shows the table with the new entry selected (through the ``done`` callback:
this module never imports the title's). The finished game's rocks keep drifting behind the
letters. No game rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from asteroids.app.game import Game, ScoreSlot
from asteroids.app.input import MenuPad
from asteroids.app.world_view import WorldView
from asteroids.config import Config
from asteroids.core import World

__all__ = ["ALPHABET", "INITIALS_TIMEOUT_S", "InitialsView"]

ALPHABET = "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The letters Up / Down cycle through, in order ("?" is an unset letter)."""

INITIALS_TIMEOUT_S = 30.0
"""Seconds without a key (or pad) press after which the entry closes, keeping the initials
as they are ("???" if none was set)."""

_UP = frozenset({arcade.key.UP, arcade.key.NUM_UP})
_DOWN = frozenset({arcade.key.DOWN, arcade.key.NUM_DOWN})
_LEFT = frozenset({arcade.key.LEFT, arcade.key.NUM_LEFT, arcade.key.BACKSPACE})
_RIGHT = frozenset({arcade.key.RIGHT, arcade.key.NUM_RIGHT, arcade.key.TAB})
_CONFIRM = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER})
_LETTER_KEYS = {getattr(arcade.key, c): c for c in ALPHABET[1:]}

HELP = "UP / DOWN: LETTER   LEFT / RIGHT / FIRE: MOVE   ENTER: DONE"
"""The key help under the letters (the pad: d-pad or stick, A moves, Start is done)."""


class InitialsView(WorldView):
    """Three letters for a new high score: Up / Down cycle the letter under the cursor
    (``ALPHABET``, wrapping), Left / Right (or the fire keys) move the cursor, typing a
    letter sets it and moves on, Enter confirms. The pad: d-pad or stick up / down / left /
    right, A moves right, B left, Start confirms (read through ``MenuPad``).

    Args:
        game: the shared services.
        slot: the game's place in its table (from ``Game.enter_score``).
        world: the finished game's world (it keeps drifting behind the entry).
        config: the rules it was played with.
        seed: its seed.
        done: what comes next, once the initials are set (the title's table).
        who: whose score it is (``PLAYER 2`` after a two-player game), shown as the title;
            empty after a one-player game.
    """

    sound = False

    def __init__(self, game: Game, slot: ScoreSlot, world: World, config: Config, seed: int,
                 done: Callable[[], None], who: str = "") -> None:
        super().__init__(game, seed, config=config)
        self.world = self.prev = world
        self.slot = slot
        self.who = who
        """Whose score it is (empty after a one-player game)."""
        self.done_next = done
        """Called once the initials are set."""
        self.letters = ["?", "?", "?"]
        """The initials as entered so far."""
        self.cursor = 0
        """Index of the letter being entered."""
        self.idle_s = 0.0
        """Seconds since the last press (the entry closes at ``INITIALS_TIMEOUT_S``)."""
        self.done = False
        """True once the initials are set (confirmed or timed out)."""
        self.error: str | None = slot.error
        """Why the table could not be saved (shown under the letters; play goes on)."""
        self.fire_keys = game.bindings.keys_for("fire") - _CONFIRM
        """Keys that move the cursor right, like Right (the game's fire keys)."""
        self.menu = MenuPad(game.gamepad)
        self.update_hud()

    @property
    def initials(self) -> str:
        """The three letters as entered."""
        return "".join(self.letters)

    def cycle(self, step: int) -> None:
        """Move the letter under the cursor ``step`` places through ``ALPHABET``."""
        i = ALPHABET.index(self.letters[self.cursor])
        self.letters[self.cursor] = ALPHABET[(i + step) % len(ALPHABET)]

    def move(self, step: int) -> None:
        """Move the cursor (it stops at either end)."""
        self.cursor = min(max(self.cursor + step, 0), len(self.letters) - 1)

    def type_letter(self, letter: str) -> None:
        """Set the letter under the cursor and move on."""
        self.letters[self.cursor] = letter
        self.move(1)

    def finish(self) -> None:
        """Set the initials in the table, save, and go on (``done``); a failed save is
        queued in ``game.notices`` for the title to show."""
        if self.done:
            return
        self.done = True
        self.game.set_initials(self.slot, self.initials)
        self.done_next()

    def _pressed(self) -> None:
        self.idle_s = 0.0
        self.update_hud()

    def on_update(self, delta_time: float) -> None:
        """Pad moves, the drifting rocks, and the timeout."""
        for move in self.menu.poll():
            if move == "start":
                self.finish()
                return
            if move == "up":
                self.cycle(1)
            elif move == "down":
                self.cycle(-1)
            elif move in ("right", "fire"):
                self.move(1)
            elif move in ("left", "back"):
                self.move(-1)
            self._pressed()
        self.idle_s += delta_time
        if self.idle_s >= INITIALS_TIMEOUT_S:
            self.finish()
            return
        super().on_update(delta_time)

    def update_hud(self) -> None:
        """The score, the letters with the cursor, the time left and the key help."""
        self.hud.show_world(self.world)
        self.hud.best(self.game.best_score(self.config))
        left = max(0, int(INITIALS_TIMEOUT_S - self.idle_s + 0.999))
        place = f"NUMBER {self.slot.rank + 1}   ENTER YOUR INITIALS   {left}"
        if self.who:
            self.hud.message(self.who, f"NEW HIGH SCORE: {place}")
        else:
            self.hud.message("NEW HIGH SCORE", place)
        self.hud.initials(self.letters, self.cursor)
        self.hud.note(HELP)
        self.hud.status((self.error or "").upper())
        super().update_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Letters, arrows, fire, Enter; Escape keeps the initials as they are."""
        if symbol in _CONFIRM or symbol == arcade.key.ESCAPE:
            self.finish()
            return
        if symbol in _UP:
            self.cycle(1)
        elif symbol in _DOWN:
            self.cycle(-1)
        elif symbol in _LEFT:
            self.move(-1)
        elif symbol in _RIGHT or symbol in self.fire_keys:
            self.move(1)
        elif symbol in _LETTER_KEYS:
            self.type_letter(_LETTER_KEYS[symbol])
        else:
            return
        self._pressed()
