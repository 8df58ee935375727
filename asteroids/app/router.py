"""The moves between screens: the one module that knows every screen.

``Router`` installs itself as ``game.nav`` (``asteroids.app.screens.Navigator``); a screen
asks it for the next one and never imports another screen. ``open_shell`` wires a window's
services and the router, for the desktop window, screenshots and tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade

from asteroids.app.game import Game
from asteroids.app.game_over_view import GameOverView
from asteroids.app.initials import InitialsView
from asteroids.app.play_view import PlayView
from asteroids.app.replay_view import ReplayView
from asteroids.app.screens import FinishedGame
from asteroids.app.title_view import TitleView
from asteroids.config import Config
from asteroids.replay import Replay

__all__ = ["Router", "open_shell"]


class Router:
    """Makes the next screen and shows it (``Navigator``).

    Args:
        game: the window's services; the router becomes its ``nav``.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        game.nav = self

    def _show(self, view: arcade.View) -> None:
        self.game.audio.stop_all()
        self.game.window.show_view(view)

    def title(self, *, table: bool = False, pick: int | None = None) -> None:
        """The title / attract screen; ``table`` opens it on the high-score table with row
        ``pick`` selected (the place a game just took)."""
        self.game.rules.sync()
        self._show(TitleView(self.game, table=table, pick=pick))

    def play(self, players: int = 1) -> None:
        """A new game with the next seed, on the selected rules as they are now: one player,
        or a two-player match."""
        self.game.rules.sync()
        self._show(PlayView(self.game, self.game.rules.next_seed(), players=players))

    def game_over(self, finished: FinishedGame) -> None:
        """The game-over screen of ``finished``."""
        self._show(GameOverView(self.game, finished))

    def initials(self, finished: FinishedGame, index: int = 0) -> None:
        """The initials entry of ``finished.slots[index]``; past the last, the title on the
        table with the best place selected."""
        if index < len(finished.slots):
            self._show(InitialsView(self.game, finished, index))
        else:
            self.title(table=True, pick=finished.pick)

    def watch(self, replay: Replay, back: Callable[[], None] | None = None) -> None:
        """The replay viewer (one player or a match)."""
        self._show(ReplayView(self.game, replay, back=back))


def open_shell(window: arcade.Window, config: Config, **options: Any) -> Game:
    """A window's services (``Game.open(window, config, **options)``) with the router
    installed; nothing is shown yet."""
    game = Game.open(window, config, **options)
    Router(game)
    return game
