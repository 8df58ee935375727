"""The desktop game window: the top of the shell's import graph (window -> router -> screens
-> game -> services)."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import arcade

from asteroids.app.match_view import replay_view
from asteroids.app.router import open_shell
from asteroids.config import Config
from asteroids.config.rulesets import Ruleset
from asteroids.profile import Settings

if TYPE_CHECKING:
    from asteroids.app.live import LiveSpec
    from asteroids.replay import Replay

__all__ = ["FRAME_RATE", "GameWindow", "window_geometry"]

FRAME_RATE = 120.0
"""Frames per second the window asks pyglet for (vsync may hold it to the display's)."""

MIN_SIZE = (320, 240)
"""The smallest window, in pixels."""


def window_geometry(config: Config, settings: Settings | None,
                    pinned: Collection[str] = ()) -> tuple[int, int, bool]:
    """The window's starting width, height and full screen.

    The player's ``[display]`` is the default; what the window remembers from the last run
    (``Settings``) wins over it, except for a value the command line gave (``pinned``, e.g.
    ``display.fullscreen`` from ``--set``), which wins for this run.

    >>> from asteroids.config import load_config
    >>> window_geometry(load_config(), Settings(window_width=900, window_height=600))
    (900, 600, False)
    >>> window_geometry(load_config(), Settings(window_width=900, fullscreen=True),
    ...                 pinned={"display.window_width_px"})
    (1280, 720, True)
    """
    d = config.display
    width, height, full = d.window_width_px, d.window_height_px, d.fullscreen
    if settings is not None:
        if settings.window_width is not None and "display.window_width_px" not in pinned:
            width = max(int(settings.window_width), MIN_SIZE[0])
        if settings.window_height is not None and "display.window_height_px" not in pinned:
            height = max(int(settings.window_height), MIN_SIZE[1])
        if settings.fullscreen is not None and "display.fullscreen" not in pinned:
            full = bool(settings.fullscreen)
    return width, height, full


class GameWindow(arcade.Window):
    """The desktop window: configured size, full screen and vsync; resizable, letterboxed.

    Shows the title screen, or with ``replay`` the replay viewer. Closing the window, however
    it happens, hides the current view first, so a game in progress saves its replay.

    Playing (not watching), the window keeps the player's profile (``Game.open(profile=
    True)``): high scores, and the remembered size, position, full screen, mute, volume and
    rules. It opens at the remembered size and position (``window_geometry``; a position off
    every screen is ignored), notes every resize and move, and saves them when it closes.
    Watching, it shows the replay with the remembered look (palette, monitor look, HUD
    scale) and saves nothing.

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
        pinned: settings the command line gave (``Game.open``'s ``pinned``): remembered
            values do not replace them at start.
        live: the settings files to watch (``--live``; ``Game.open``'s ``live``).
        player: the settings those files gave at start (default: ``config``).
    """

    def __init__(self, config: Config, seed: int | None = None, sound: bool = True, *,
                 record: bool = True, record_to: str | os.PathLike[str] | None = None,
                 replay: Replay | None = None, speed: int = 1,
                 rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0,
                 pinned: Collection[str] = (), live: LiveSpec | None = None,
                 player: Config | None = None) -> None:
        d = config.display
        title = "Asteroids" if replay is None else "Asteroids replay"
        playing = replay is None
        settings = Settings.load(tidy=playing)  # a replay window writes nothing
        width, height, full = window_geometry(config, settings if playing else None, pinned)
        placed = (playing and not full and settings.window_x is not None
                  and settings.window_y is not None)
        super().__init__(
            width, height, title, fullscreen=full,
            resizable=True, vsync=d.vsync, update_rate=1 / FRAME_RATE,
            draw_rate=1 / FRAME_RATE, center_window=not full and not placed,
        )
        self.set_minimum_size(*MIN_SIZE)
        if placed:
            self._place(int(settings.window_x or 0), int(settings.window_y or 0))
        recording = playing and (record or record_to is not None)
        self.game = open_shell(self, config, seed=seed, sound=sound, record=recording,
                               record_to=record_to if playing else None,
                               rulesets=rulesets if playing else None,
                               ruleset_index=ruleset_index if playing else 0,
                               profile=playing, pinned=pinned, settings=settings, live=live,
                               player=player)
        if replay is None:
            self.game.nav.title()  # type: ignore[union-attr]
        else:
            self.show_view(replay_view(self.game, replay, speed=speed))

    def _place(self, x: int, y: int) -> None:
        """Move the window to ``(x, y)`` when that corner is on a screen (a remembered
        position from a monitor no longer attached is ignored: the window stays centred)."""
        try:
            screens = self.display.get_screens()
            if any(s.x <= x < s.x + s.width - 40 and s.y <= y < s.y + s.height - 40
                   for s in screens):
                self.set_location(x, y)
            else:
                self.center_window()
        except Exception:  # a platform that cannot place windows: leave it where it is
            pass

    def on_resize(self, width: int, height: int) -> None:
        """Refit the letterbox to the new window size; remember a windowed size."""
        if hasattr(self, "game"):
            self.game.screen.fit_camera()
            settings = self.game.profile.settings
            if settings is not None and not self.fullscreen:
                settings.window_width = max(int(width), MIN_SIZE[0])
                settings.window_height = max(int(height), MIN_SIZE[1])

    def on_move(self, x: int, y: int) -> None:
        """Remember where a windowed window is (saved when it closes)."""
        game = getattr(self, "game", None)
        settings = game.profile.settings if game is not None else None
        if settings is not None and not self.fullscreen:
            settings.window_x, settings.window_y = x, y

    def close(self) -> None:
        """Hide the current view (a game saves its replay), save the remembered settings,
        then close."""
        if not self.closed:
            self.hide_view()
            if hasattr(self, "game"):
                self.game.profile.save_settings()
        super().close()
