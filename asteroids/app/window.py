"""The game window and the services its views share (camera, lines, sound, input bindings)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import arcade
from arcade.types import LRBT

from asteroids.app.audio import SoundBank
from asteroids.app.input import KeyBindings, first_gamepad
from asteroids.app.render import LineRenderer
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.config import Config
from asteroids.core.params import Params, params_for

if TYPE_CHECKING:
    from asteroids.app.hud import Hud

__all__ = ["FRAME_RATE", "Game", "GameWindow"]

FRAME_RATE = 120.0
"""Frames per second the window asks pyglet for (vsync may hold it to the display's)."""


class Game:
    """Everything the views share, attached to one arcade window.

    Tests attach a Game to their own headless window; ``GameWindow`` attaches one to itself.

    Args:
        window: the arcade window to draw into.
        config: the settings.
        seed: the first game's seed; later games count up from it. None picks one from the
            clock (the seed is shown in nothing yet, but a replay recorder can read it).
        sound: build the sound bank (False for tests and screenshots).
    """

    def __init__(self, window: arcade.Window, config: Config, seed: int | None = None,
                 sound: bool = True) -> None:
        self.window = window
        self.config = config
        self.params: Params = params_for(config)
        self.width = float(config.world.width_px)
        self.height = float(config.world.height_px)
        self.seed: int = int(seed) if seed is not None else time.time_ns() % (1 << 31)
        """Seed of the next game."""
        self.bindings = KeyBindings(config)
        self.gamepad = first_gamepad()
        self.audio = SoundBank(config, enabled=sound)
        w, h = self.width, self.height
        self.camera = arcade.Camera2D(position=(w / 2, h / 2),
                                      projection=LRBT(-w / 2, w / 2, -h / 2, h / 2),
                                      window=window)
        self.fit_camera()
        self.lines = LineRenderer(window.ctx)
        self.scene = SceneBuilder(config)

    def next_seed(self) -> int:
        """The seed for a new game (then moves on, so each game differs)."""
        seed = self.seed
        self.seed = (self.seed + 1) % (1 << 63)
        return seed

    def fit_camera(self) -> None:
        """Letterbox the whole world into the window, keeping its aspect ratio."""
        self.camera.match_window(viewport=True, projection=False, scissor=False,
                                 aspect=self.width / self.height)
        self.camera.scissor = self.camera.viewport

    def line_width(self) -> float:
        """The configured line width in pixels, as world units under the current camera."""
        vw = max(self.camera.viewport.width, 1.0)
        return self.config.display.line_width_px * self.width / vw

    def draw_frame(self, segs: Segments, hud: Hud | None) -> None:
        """Clear (black bars included), then draw the segments and the HUD in world units."""
        self.window.ctx.scissor = None
        self.window.clear(color=arcade.color.BLACK)
        self.camera.use()
        s, c = segs.arrays()
        self.lines.update(s, c)
        self.lines.draw(self.line_width(), glow=self.config.display.glow)
        if hud is not None:
            hud.draw()

    def show_title(self) -> None:
        """Switch to the title / attract screen."""
        from asteroids.app.views import TitleView

        self.audio.stop_all()
        self.window.show_view(TitleView(self))

    def start_game(self) -> None:
        """Start a new game with the next seed."""
        from asteroids.app.views import PlayView

        self.audio.stop_all()
        self.window.show_view(PlayView(self, self.next_seed()))

    def quit(self) -> None:
        """Close the window; ``arcade.run`` then returns."""
        self.audio.stop_all()
        self.window.close()


class GameWindow(arcade.Window):
    """The desktop window: configured size, full screen and vsync; resizable, letterboxed.

    Args:
        config: the settings.
        seed: the first game's seed (None: from the clock).
        sound: build the sound bank.
    """

    def __init__(self, config: Config, seed: int | None = None, sound: bool = True) -> None:
        d = config.display
        super().__init__(
            d.window_width_px, d.window_height_px, "Asteroids", fullscreen=d.fullscreen,
            resizable=True, vsync=d.vsync, update_rate=1 / FRAME_RATE,
            draw_rate=1 / FRAME_RATE, center_window=not d.fullscreen,
        )
        self.set_minimum_size(320, 240)
        self.game = Game(self, config, seed, sound=sound)
        self.game.show_title()

    def on_resize(self, width: int, height: int) -> None:
        """Refit the letterbox to the new window size."""
        if hasattr(self, "game"):
            self.game.fit_camera()
