"""Frames of a game as RGB arrays, drawn offscreen by the game's own renderer.

For the Gymnasium environment's ``render_mode="rgb_array"``: an invisible arcade window
(headless EGL when arcade has not been imported yet, as ``asteroids.app.screenshot``), the
game's scene builder, HUD and line renderer, read back with ``arcade.get_image``.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from asteroids.config import Config
from asteroids.core import World

__all__ = ["FrameRenderer"]


class FrameRenderer:
    """Draws Worlds of one config into ``width`` x ``height`` RGB arrays.

    Args:
        config: the settings (the display section picks the palette and the look).
        width: frame width in px.
        height: frame height in px.
    """

    def __init__(self, config: Config, width: int, height: int) -> None:
        if "arcade" not in sys.modules:
            os.environ.setdefault("ARCADE_HEADLESS", "1")
            os.environ.setdefault("ARCADE_SOUND_BACKENDS", "silent")
        import arcade

        from asteroids.app.game import Game
        from asteroids.app.hud import Hud

        self._arcade = arcade
        self.window = arcade.Window(width, height, "asteroids frames", visible=False,
                                    vsync=False, antialiasing=False)
        self.game = Game(self.window, config, 0, sound=False)
        self.game.frame_time_s = 1.0 / config.world.tick_hz
        self.hud = Hud(self.game.width, self.game.height, False,
                       scale=self.game.display.hud_scale)

    def frame(self, prev: World, world: World) -> np.ndarray:
        """``world`` drawn (``prev``: the tick before, for the afterglow's motion), as a
        (height, width, 3) uint8 array."""
        self.window.switch_to()
        self._arcade.set_window(self.window)  # another window may have been the active one
        self.hud.show_world(world)
        segs = self.game.scene.build(prev, world, 1.0, palette=self.game.palette())
        self.game.draw_frame(segs, self.hud)
        image = self._arcade.get_image(0, 0, self.window.width, self.window.height)
        return np.asarray(image.convert("RGB"), dtype=np.uint8)

    def close(self) -> None:
        """Close the offscreen window."""
        self.window.close()
