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
    """Draws Worlds of one config into ``width`` x ``height`` RGB arrays, with the HUD.

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

        from asteroids.app.hud import Hud
        from asteroids.app.scene import SceneBuilder
        from asteroids.app.screen import Screen

        self._arcade = arcade
        self.config = config
        self.window = arcade.Window(width, height, "asteroids frames", visible=False,
                                    vsync=False, antialiasing=False)
        w, h = config.world.width_px, config.world.height_px
        self.screen = Screen(self.window, w, h)
        self.screen.frame_time_s = 1.0 / config.world.tick_hz
        self.scene = SceneBuilder(config)
        self.hud = Hud(w, h, False, scale=config.display.hud_scale)

    def frame(self, prev: World, world: World) -> np.ndarray:
        """``world`` drawn (``prev``: the tick before, for the afterglow's motion), as a
        (height, width, 3) uint8 array."""
        from asteroids.app.hud import role_colors
        from asteroids.app.scene import Segments
        from asteroids.app.text import rgba, text_ink

        self.window.switch_to()
        self._arcade.set_window(self.window)  # another window may have been the active one
        display, screen = self.config.display, self.screen
        palette = screen.palette(display)
        self.hud.show_world(world)
        frame = screen.frame(display.hud_scale)
        lines = self.hud.layout(frame).lines
        colors = {role: rgba(c) for role, c in role_colors(palette.text, palette.mono).items()}
        text = Segments()
        text_ink(lines, colors, screen.px_per_unit, display.line_width_px, text)
        segs = self.scene.build(prev, world, 1.0, palette=palette)
        screen.draw_frame(display, segs, text)
        image = self._arcade.get_image(0, 0, self.window.width, self.window.height)
        return np.asarray(image.convert("RGB"), dtype=np.uint8)

    def close(self) -> None:
        """Close the offscreen window."""
        self.window.close()
