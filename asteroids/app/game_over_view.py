"""The game-over screen: GAME OVER over the finished game's drifting rocks, what became of
its replay, and the way on.

It always shows for at least ``GAME_OVER_MIN_S``: a player still pressing fire as the last
ship goes cannot skip it, and no key does anything here before then. A game that made the
high-score table goes on to the initials entry after ``ENTRY_DELAY_S`` (or at once with Enter
/ Space once the minimum is up); Escape goes to the title (on the table, the entry selected:
its initials stay "???"). Any other game: Enter / Space plays again, Escape goes to the title.
No game rule lives here.
"""

from __future__ import annotations

import arcade

from asteroids.app.game import Game
from asteroids.app.hud import MatchHud
from asteroids.app.keymap import PAD_A, PAD_B, PAD_START, START_KEYS, KeyRule, run
from asteroids.app.screens import FinishedGame, player_name
from asteroids.app.world_view import WorldView

__all__ = ["ENTRY_DELAY_S", "GAME_OVER_MIN_S", "RULES_CHANGED_NOTE", "GameOverView"]

GAME_OVER_MIN_S = 1.5
"""The game-over screen shows at least this long; keys do nothing before."""

ENTRY_DELAY_S = 2.0
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

    def key_rules(self) -> list[KeyRule]:
        """Nothing before ``GAME_OVER_MIN_S``; then Enter / Space (A, Start) go on, Escape
        (B) goes to the title, the restart key starts a game with the waiting changes."""
        ready = lambda: self.ready  # noqa: E731
        return [
            KeyRule(lambda: self.game.rules.bindings.restart, run(self.play_again),
                    when=lambda: self.ready and bool(self.finished.pending), name="restart"),
            KeyRule(START_KEYS | {PAD_A, PAD_START}, run(self.go_on), when=ready, name="next"),
            KeyRule({arcade.key.ESCAPE, PAD_B}, run(self.to_title), when=ready, name="title"),
        ]

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
            self.hud.message("GAME OVER", "PRESS ENTER / SPACE TO PLAY AGAIN     ESC FOR TITLE")
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
