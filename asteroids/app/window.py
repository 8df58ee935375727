"""The desktop game window: the top of the shell's import graph (window -> views -> game)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import arcade

from asteroids.app.game import Game
from asteroids.app.replay_view import ReplayView
from asteroids.app.views import show_title
from asteroids.config import Config
from asteroids.config.rulesets import Ruleset

if TYPE_CHECKING:
    from asteroids.replay import Replay

__all__ = ["FRAME_RATE", "GameWindow"]

FRAME_RATE = 120.0
"""Frames per second the window asks pyglet for (vsync may hold it to the display's)."""


class GameWindow(arcade.Window):
    """The desktop window: configured size, full screen and vsync; resizable, letterboxed.

    Shows the title screen, or with ``replay`` the replay viewer. Closing the window, however
    it happens, hides the current view first, so a game in progress saves its replay.

    Args:
        config: the settings.
        seed: the first game's seed (None: from the clock).
        sound: build the sound bank.
        record: save a replay of every game played.
        record_to: save replays to this file instead of the user's replay folder.
        replay: watch this replay instead of playing (nothing is recorded then).
        speed: the replay's starting speed (1, 2, 4 or 8).
        rulesets: the rules the title screen offers (None: only ``config``).
        ruleset_index: the selected one; its config is ``config``.
    """

    def __init__(self, config: Config, seed: int | None = None, sound: bool = True, *,
                 record: bool = True, record_to: str | os.PathLike[str] | None = None,
                 replay: Replay | None = None, speed: int = 1,
                 rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0) -> None:
        d = config.display
        title = "Asteroids" if replay is None else "Asteroids replay"
        super().__init__(
            d.window_width_px, d.window_height_px, title, fullscreen=d.fullscreen,
            resizable=True, vsync=d.vsync, update_rate=1 / FRAME_RATE,
            draw_rate=1 / FRAME_RATE, center_window=not d.fullscreen,
        )
        self.set_minimum_size(320, 240)
        recording = replay is None and (record or record_to is not None)
        self.game = Game(self, config, seed, sound=sound, record=recording,
                         record_to=record_to if replay is None else None,
                         rulesets=rulesets if replay is None else None,
                         ruleset_index=ruleset_index if replay is None else 0)
        if replay is None:
            show_title(self.game)
        else:
            self.show_view(ReplayView(self.game, replay, speed=speed))

    def on_resize(self, width: int, height: int) -> None:
        """Refit the letterbox to the new window size."""
        if hasattr(self, "game"):
            self.game.fit_camera()

    def close(self) -> None:
        """Hide the current view (a game saves its replay), then close."""
        if not self.closed:
            self.hide_view()
        super().close()
