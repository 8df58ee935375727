"""Arcade-style initials entry for a game that made the high-score table.

The score is already in the table with initials "???" (``Game.enter_score``) when this view
opens, so nothing the player does here, or fails to do, can lose it: confirming sets the
initials and saves; a timeout or Escape keeps whatever is entered ("???" when nothing was).
Then the next player's entry, or the title with the table and the new entry selected
(``game.nav.initials``). The finished game's rocks keep drifting behind the letters. No game
rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from asteroids.app.game import Game
from asteroids.app.keymap import (
    CONFIRM_KEYS,
    PAD_A,
    PAD_B,
    PAD_DOWN,
    PAD_LEFT,
    PAD_RIGHT,
    PAD_START,
    PAD_UP,
    KeyRule,
    run,
)
from asteroids.app.screens import FinishedGame, player_name
from asteroids.app.world_view import WorldView

__all__ = ["ALPHABET", "INITIALS_TIMEOUT_S", "InitialsView"]

ALPHABET = "?ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The letters the pad's up / down cycle through, in order ("?" is an unset letter)."""

INITIALS_TIMEOUT_S = 30.0
"""Seconds without a key (or pad) press after which the entry closes, keeping the initials
as they are ("???" if none was set)."""

_LEFT = frozenset({arcade.key.LEFT, arcade.key.NUM_LEFT, arcade.key.BACKSPACE})
_RIGHT = frozenset({arcade.key.RIGHT, arcade.key.NUM_RIGHT, arcade.key.TAB})
_LETTER_KEYS = {getattr(arcade.key, c): c for c in ALPHABET[1:]}

HELP = "TYPE A LETTER   LEFT / RIGHT: MOVE   FIRE: NEXT   ENTER: DONE"
"""The key help under the letters: every key that changes them is named here (Up / Down
are thrust and shield in the game, so a player still pressing them changes nothing)."""

PAD_HELP = "PAD: UP / DOWN: LETTER   A: NEXT   START: DONE"
"""The pad's help, shown when a pad is connected (it has no letter keys)."""


class InitialsView(WorldView):
    """Three letters for a new high score: typing a letter sets the one under the cursor
    and moves on, Left / Right move the cursor, Enter confirms. Fire (or the pad's A) moves
    on past a letter that is set, never past a "?": a player still pressing fire from the
    game cannot skip letters. The keyboard's Up / Down do nothing here (they thrust and
    shield in the game: 0.1.0 saved "AAC" for a player pulsing thrust); only the keys the
    help names change the letters. The pad: d-pad or stick up / down cycle the letter
    (``ALPHABET``, wrapping), left / right move, B moves left, Start confirms. The cursor
    starts on the first letter.

    Args:
        game: the shared services.
        finished: the game that ended.
        index: which of ``finished.slots`` this entry is for.
    """

    sound = False

    def __init__(self, game: Game, finished: FinishedGame, index: int = 0) -> None:
        player, slot = finished.slots[index]
        super().__init__(game, finished.seed, config=finished.config)
        self.finished = finished
        self.index = index
        self.world = self.prev = finished.worlds[player]
        self.slot = slot
        self.who = player_name(player) if finished.players > 1 else ""
        """Whose score it is (empty after a one-player game)."""
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
        self.update_hud()

    @property
    def initials(self) -> str:
        """The three letters as entered."""
        return "".join(self.letters)

    def key_rules(self) -> list[KeyRule]:
        """Enter / Escape / Start finish; letters, the pad's up / down, Left / Right, fire."""
        fire = lambda: self.game.rules.bindings.keys_for("fire") - CONFIRM_KEYS  # noqa: E731
        return [
            KeyRule(CONFIRM_KEYS | {arcade.key.ESCAPE, PAD_START}, run(self.finish),
                    name="done"),
            KeyRule({PAD_UP}, self._pressed(lambda _: self.cycle(1)), name="up"),
            KeyRule({PAD_DOWN}, self._pressed(lambda _: self.cycle(-1)), name="down"),
            KeyRule(_LEFT | {PAD_LEFT, PAD_B}, self._pressed(lambda _: self.move(-1)),
                    name="left"),
            KeyRule(_RIGHT | {PAD_RIGHT}, self._pressed(lambda _: self.move(1)), name="right"),
            KeyRule(lambda: fire() | {PAD_A}, self._pressed(lambda _: self.next_letter()),
                    name="fire"),
            KeyRule(_LETTER_KEYS, self._pressed(lambda s: self.type_letter(_LETTER_KEYS[s])),
                    name="letter"),
        ]

    def _pressed(self, action: Callable[[int], object]) -> Callable[[int], None]:
        """``action``, then the idle time starts again and the letters are redrawn."""
        def pressed(symbol: int) -> None:
            action(symbol)
            self.idle_s = 0.0
            self.update_hud()
        return pressed

    def cycle(self, step: int) -> None:
        """Move the letter under the cursor ``step`` places through ``ALPHABET``."""
        i = ALPHABET.index(self.letters[self.cursor])
        self.letters[self.cursor] = ALPHABET[(i + step) % len(ALPHABET)]

    def move(self, step: int) -> None:
        """Move the cursor (it stops at either end)."""
        self.cursor = min(max(self.cursor + step, 0), len(self.letters) - 1)

    def next_letter(self) -> None:
        """Fire: on to the next letter when this one is set (a "?" stays put)."""
        if self.letters[self.cursor] != "?":
            self.move(1)

    def type_letter(self, letter: str) -> None:
        """Set the letter under the cursor and move on."""
        self.letters[self.cursor] = letter
        self.move(1)

    def finish(self) -> None:
        """Set the initials in the table, save, and go on (the next player's entry, or the
        table); a failed save is queued for the title to show."""
        if self.done:
            return
        self.done = True
        self.game.profile.set_initials(self.slot, self.initials)
        self.game.nav.initials(self.finished, self.index + 1)

    def on_update(self, delta_time: float) -> None:
        """Pad moves, the drifting rocks, and the timeout."""
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
        place = f"NUMBER {self.slot.rank + 1}   ENTER YOUR INITIALS   TIME LEFT: {left}"
        if self.who:
            self.hud.message(self.who, f"NEW HIGH SCORE: {place}")
        else:
            self.hud.message("NEW HIGH SCORE", place)
        self.hud.initials(self.letters, self.cursor)
        self.hud.note(HELP if self.game.gamepad is None else f"{HELP}   {PAD_HELP}")
        self.hud.status((self.error or "").upper())
        super().update_hud()
