"""A two-player game in progress: the players take turns, as on the 1979 cabinet
(``asteroids.core.match``); everything else as in a one-player ``PlayView``.

The match is recorded into one replay (a two-player ``Recorder``), saved when the match is over or
left. At the end every player's score goes to the rules' high-score table on its own
(initials "???" at once, so nothing is lost); the game-over screen then asks each player who
made the table for initials in turn, ``PLAYER N`` on screen. No game rule lives here.
"""

from __future__ import annotations

from asteroids.app.game import Game
from asteroids.app.match_view import MatchStepping
from asteroids.app.play_view import PlayView
from asteroids.app.profile_service import ScoreSlot
from asteroids.app.recording import SaveResult
from asteroids.app.screens import FinishedGame
from asteroids.app.world_view import TickSource
from asteroids.config import Config
from asteroids.config.live import ReloadPlan, apply_changes, plan_reload
from asteroids.profile import MAX_ENTRIES
from asteroids.replay import Recorder

__all__ = ["MatchPlayView"]


class MatchPlayView(MatchStepping, PlayView):
    """A two-player game: the keyboard (and pad) drive whichever player's turn it is.

    Args:
        game: the shared services.
        seed: the match's seed.
        autopilot: let the core's bot play both players.
        source: where each tick's mask comes from instead of the keyboard.
    """

    PLAYERS = 2
    SHOWS_LIVES = False

    def __init__(self, game: Game, seed: int, autopilot: bool = False,
                 source: TickSource | None = None) -> None:
        super().__init__(game, seed, autopilot=autopilot, source=source)
        self.recorder = None  # PlayView's one-player recorder: a match has its own
        self.match_recorder: Recorder | None = (
            Recorder(self.config, self.seed, players=2) if game.saver is not None else None)
        """Records the match (None when games are not recorded)."""
        self.start_match(self.seed)

    @property
    def ended(self) -> bool:
        """Both players are out."""
        return bool(self.match.over)

    def record(self, mask: int) -> None:
        """Hand the tick to the match's recorder."""
        if self.match_recorder is not None and self.saved is None:
            self.match_recorder.add(mask, self.match)
            self.recorded_ticks += 1

    def save_replay(self) -> SaveResult | None:
        """Save the match recorded so far (once); None when nothing is recorded."""
        if self.saved is not None:
            return self.saved
        if self.match_recorder is None or self.game.saver is None or self.recorded_ticks == 0:
            return None
        self.saved = self.game.saver.save(self.match_recorder.finish(self.match),
                                          finished=self.ended)
        return self.saved

    def enter_scores(self, name: str | None) -> list[tuple[int, ScoreSlot]]:
        """Each player's score in the table on its own (a better one entered after an
        earlier one pushes that one down)."""
        slots: list[tuple[int, ScoreSlot]] = []
        for player, world in enumerate(self.match.worlds):
            slot = self.game.enter_score(world, self.config, name)
            if slot is None:
                continue
            for _, earlier in slots:
                if earlier.key == slot.key and slot.rank <= earlier.rank:
                    earlier.rank += 1
            slots.append((player, slot))
        return [(p, s) for p, s in slots if s.rank < MAX_ENTRIES]

    def finish(self) -> FinishedGame:
        """Both players' Worlds and places, the active one on screen."""
        finished = super().finish()
        finished.worlds = tuple(self.match.worlds)
        finished.active = int(self.match.active)
        return finished

    def plan_reload(self, target: Config) -> ReloadPlan:
        """A live reload (``--live``) in a two-player game: the player's keys, sound and
        display apply at once; rule changes wait for the next game, as a two-player replay
        records no change of rules."""
        plan = plan_reload(self.config, target)
        rules = tuple(c for c in plan.live if c.rule)
        if not rules:
            return plan
        keep = tuple(c for c in plan.live if not c.rule)
        config = apply_changes(self.config, keep) if keep else self.config
        return ReloadPlan(config, keep, plan.deferred + rules,
                          "a two-player game keeps its rules to the end")

    def update_hud(self) -> None:
        """The one-player HUD, then both scores and the match's moment."""
        super().update_hud()
        self.match_hud.show(self.match)
        if not self.paused:
            self.match_message()
