"""The game-over screen: GAME OVER over the finished game's drifting rocks, what became of
its replay, and the way on.

It always shows for at least ``GAME_OVER_MIN_S`` (no key does anything before), and a fire
press goes on only after ``FIRE_HOLD_S``: a player still mashing fire as the last ship goes
sees GAME OVER for 3 s, not a new game. Enter (the pad's Start) is the cabinet's Start
button: it goes on after ``GAME_OVER_MIN_S``. Space is the default fire key, so it counts as
fire here; rebound away from fire it is a start key like Enter. A game that made the
high-score table goes on to the initials entry after ``ENTRY_DELAY_S`` (or at once with
Enter, or fire once ``FIRE_HOLD_S`` is up); Escape goes to the title (on the table, the entry
selected: its initials stay "???"). Any other game: Enter plays again, Escape goes to the
title. No game rule lives here.
"""

from __future__ import annotations

import arcade

from asteroids.app.controls import key_label
from asteroids.app.game import Game
from asteroids.app.hud import MatchHud
from asteroids.app.keymap import PAD_A, PAD_B, PAD_START, START_KEYS, KeyRule, run
from asteroids.app.screens import FinishedGame, player_name
from asteroids.app.world_view import WorldView

__all__ = ["ENTRY_DELAY_S", "FIRE_HOLD_S", "GAME_OVER_MIN_S", "RULES_CHANGED_NOTE",
           "GameOverView"]

GAME_OVER_MIN_S = 1.0
"""The game-over screen shows at least this long; keys do nothing before. Then Enter (the
pad's Start) goes on and Escape goes to the title."""

FIRE_HOLD_S = 3.0
"""The fire keys (Space by default; the pad's A) go on only after this long: a player still
mashing fire from the game reads GAME OVER first."""

ENTRY_DELAY_S = 3.0
"""A game that made the table shows GAME OVER this long before the initials entry."""

RULES_CHANGED_NOTE = "RULES CHANGED DURING THE GAME: NOT IN THE HIGH SCORES"
"""The note of a ``--live`` game whose rules changed while it ran."""


class GameOverView(WorldView):
    """GAME OVER, then the initials entry, a new game or the title.

    Args:
        game: the shared services.
        finished: the game that ended (``PlayView.finish``).
    """

    sound = False
    SHOWS_LIVES = False

    def __init__(self, game: Game, finished: FinishedGame) -> None:
        super().__init__(game, finished.seed, config=finished.config)
        self.finished = finished
        self.world = self.prev = finished.world
        self.over_s = 0.0
        """Seconds on screen."""
        self.best = game.best_score(finished.config)
        self.match_hud = MatchHud(self.hud, game.rules.width) if finished.players > 1 else None
        """Both players' scores after a two-player game."""
        self.update_hud()

    @property
    def ready(self) -> bool:
        """Whether the minimum time is up (keys act from now on; frame times add up with a
        float's rounding, so a hair short of the minimum counts)."""
        return self.over_s >= GAME_OVER_MIN_S - 1e-9

    @property
    def fire_ready(self) -> bool:
        """Whether a fire press goes on now (``FIRE_HOLD_S`` is up)."""
        return self.over_s >= FIRE_HOLD_S - 1e-9

    def fire_keys(self) -> set[int]:
        """The keys bound to fire now (Space by default)."""
        return self.game.rules.bindings.keys_for("fire")

    def start_keys(self) -> set[int]:
        """The keys that go on after ``GAME_OVER_MIN_S``: Enter, and Space unless it fires."""
        return set(START_KEYS) - self.fire_keys()

    def key_rules(self) -> list[KeyRule]:
        """Nothing before ``GAME_OVER_MIN_S``; then Enter (Start) goes on, Escape (B) goes
        to the title, the restart key starts a game with the waiting changes; the fire keys
        (A) go on from ``FIRE_HOLD_S``."""
        ready = lambda: self.ready  # noqa: E731
        return [
            KeyRule(lambda: self.game.rules.bindings.restart, run(self.play_again),
                    when=lambda: self.ready and bool(self.finished.pending), name="restart"),
            KeyRule(lambda: self.start_keys() | {PAD_START}, run(self.go_on), when=ready,
                    name="next"),
            KeyRule(lambda: self.fire_keys() | {PAD_A}, run(self.go_on),
                    when=lambda: self.fire_ready, name="fire"),
            KeyRule({arcade.key.ESCAPE, PAD_B}, run(self.to_title), when=ready, name="title"),
        ]

    def play_again_hint(self) -> str:
        """How to play again: Enter, and the fire keys once they act."""
        keys = ["ENTER"]
        if arcade.key.SPACE not in self.fire_keys():
            keys.append("SPACE")
        if self.fire_ready:
            keys += [key_label(n) for n in self.game.rules.config.keys.fire[:2]
                     if key_label(n) not in keys]
        return f"PRESS {' / '.join(keys)} TO PLAY AGAIN     ESC FOR TITLE"

    def go_on(self) -> None:
        """The initials entry when the game made the table, else a new game."""
        if self.finished.slots:
            self.game.nav.initials(self.finished)
        else:
            self.play_again()

    def play_again(self) -> None:
        """A new game with as many players."""
        self.game.nav.play(self.finished.players)

    def to_title(self) -> None:
        """The title (on the high-score table when the game made it)."""
        self.game.nav.title(table=self.finished.slot is not None, pick=self.finished.pick)

    def on_update(self, delta_time: float) -> None:
        """The drifting rocks; the initials entry once ``ENTRY_DELAY_S`` is up."""
        self.over_s += max(delta_time, 0.0)
        super().on_update(delta_time)
        if self.window is not None and self.window.current_view is not self:
            return
        if self.finished.slots and self.over_s >= ENTRY_DELAY_S:
            self.game.nav.initials(self.finished)

    def update_hud(self) -> None:
        """GAME OVER, the table place or how to go on, the replay's fate."""
        finished = self.finished
        self.hud.show_world(self.world)
        if self.match_hud is not None:
            self.match_hud.show_scores(tuple(int(w.score) for w in finished.worlds),
                                       finished.active, int(self.world.wave))
        self.hud.best(self.best)
        if finished.players > 1 and finished.slots:
            places = "   ".join(f"{player_name(p)}: NUMBER {s.rank + 1}"
                                for p, s in finished.slots)
            self.hud.message("GAME OVER", f"HIGH SCORE!   {places}")
        elif finished.slot is not None:
            self.hud.message("GAME OVER", f"A HIGH SCORE: NUMBER {finished.slot.rank + 1}!")
        elif self.ready:
            self.hud.message("GAME OVER", self.play_again_hint())
        else:
            self.hud.message("GAME OVER", "")
        notes = [finished.saved.hud_text()] if finished.saved is not None else []
        for _, slot in finished.slots[:1]:
            if slot.error:
                notes.append(slot.error.upper())
        if finished.rules_changed:
            notes.append(RULES_CHANGED_NOTE)
        self.hud.note("     ".join(notes))
        waiting = len({c.key for c in finished.pending})
        if waiting:
            keys = " / ".join(self.game.rules.bindings.restart_names)
            what = "1 SETTING WAITS" if waiting == 1 else f"{waiting} SETTINGS WAIT"
            self.hud.status(f"{what} FOR THE NEXT GAME: {keys} STARTS IT NOW")
        else:
            self.hud.status("")
        super().update_hud()
