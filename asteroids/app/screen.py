"""Rendering: the letterboxed play camera, the line renderers and the vector-monitor look.

One job: put a frame's lines on the window. The world is laid out in world units and the
camera letterboxes it into the window keeping its aspect; the bars beside or above it stay
black under every look (the monitor look's buffers are cleared when the playfield moves:
a new world size, a resized window). Knows nothing of rules, profiles or screens.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import arcade
from arcade.types import LRBT

from asteroids.app.monitor import LinePass, VectorMonitor
from asteroids.app.palettes import Palette, palette_named
from asteroids.app.render import LineRenderer
from asteroids.config.schema import DisplayConfig

if TYPE_CHECKING:
    from asteroids.app.scene import Segments

__all__ = ["Screen"]


class Screen:
    """The window's drawing: camera, lines and looks, for a world of ``width`` x ``height``.

    Args:
        window: the arcade window to draw into.
        width: world width in world units.
        height: world height in world units.
    """

    def __init__(self, window: arcade.Window, width: float, height: float) -> None:
        self.window = window
        self.lines = LineRenderer(window.ctx)
        """The world's lines (rocks, ship, shots, particles, icons)."""
        self.monitor: VectorMonitor | None = None
        """The vector-monitor look's buffers while it is on (None: off, nothing allocated)."""
        self.frame_time_s: float | None = None
        """A fixed time per drawn frame for the afterglow (screenshots, benchmarks); None
        uses the wall clock."""
        self._last_frame: float | None = None
        self._viewport: tuple[int, int, int, int] | None = None
        self.use_world(width, height)

    def use_world(self, width: float, height: float) -> None:
        """Draw a world of this size from now on (a new camera, fitted to the window)."""
        self.width, self.height = float(width), float(height)
        w, h = self.width, self.height
        self.camera = arcade.Camera2D(position=(w / 2, h / 2),
                                      projection=LRBT(-w / 2, w / 2, -h / 2, h / 2),
                                      window=self.window)
        self.fit_camera()

    def fit_camera(self) -> None:
        """Letterbox the whole world into the window, keeping its aspect ratio."""
        self.camera.match_window(viewport=True, projection=False, scissor=False,
                                 aspect=self.width / self.height)
        self.camera.scissor = self.camera.viewport

    @property
    def px_per_unit(self) -> float:
        """Window pixels per world unit under the camera."""
        return max(self.camera.viewport.width, 1.0) / self.width

    @property
    def letterboxed(self) -> bool:
        """Whether the playfield leaves black bars in the window (its aspect differs)."""
        vp = self.camera.viewport
        w, h = self.window.get_size()
        return vp.width < w - 1.5 or vp.height < h - 1.5

    def line_width(self, display: DisplayConfig) -> float:
        """The configured line width in pixels, as world units under the current camera."""
        return display.line_width_px / self.px_per_unit

    @staticmethod
    def palette(display: DisplayConfig) -> Palette:
        """The line palette of ``display``."""
        return palette_named(display.palette)

    def frame_dt(self) -> float:
        """Seconds since the last frame drawn (``frame_time_s`` when set), for the monitor
        look's afterglow; clamped to [0, 0.25]."""
        now = time.perf_counter()
        last, self._last_frame = self._last_frame, now
        if self.frame_time_s is not None:
            return self.frame_time_s
        return 0.0 if last is None else min(max(now - last, 0.0), 0.25)

    def _check_viewport(self) -> None:
        """A moved or resized playfield starts the monitor look's afterglow afresh, so no
        old trail is left where the bars are now."""
        viewport = self.camera.viewport.lbwh_int
        if viewport != self._viewport:
            self._viewport = viewport
            if self.monitor is not None:
                self.monitor.release()

    def draw_frame(self, display: DisplayConfig, segs: Segments,
                   overlays: Sequence[Callable[[], None]] = ()) -> None:
        """Draw the segments in world units over black (the bars included): the plain look,
        or the vector-monitor look when ``display.monitor.strength`` > 0; then each overlay
        (drawn with the camera in use)."""
        self._check_viewport()
        self.lines.upload(segs.packed(rocks=False), segs.rocks)
        width = self.line_width(display)
        look = display.monitor
        dt = self.frame_dt()
        ctx = self.window.ctx
        if look.strength > 0.0:
            if self.monitor is None:
                self.monitor = VectorMonitor(ctx)
            px = self.px_per_unit

            def draw_lines(line: LinePass) -> None:
                self.lines.draw(width * line.width, dwell=line.dwell,
                                dwell_length=line.dwell_length_px / px,
                                brightness=line.brightness)

            self.monitor.frame(look, self.camera, self.window.get_framebuffer_size(), dt,
                               draw_lines)
        else:
            if self.monitor is not None:  # the look was turned off: free its buffers
                self.monitor.release()
                self.monitor = None
            ctx.scissor = None
            self.window.clear(color=arcade.color.BLACK)
            self.camera.use()
            self.lines.draw(width, glow=display.glow)
        for overlay in overlays:
            overlay()

    def set_fullscreen(self, want: bool) -> bool:
        """Switch the window to full screen or back; returns whether it is full screen now
        (unchanged when the window refuses)."""
        try:
            self.window.set_fullscreen(want)
        except Exception as exc:  # no such mode, headless, ...: stay as we are
            print(f"asteroids: full screen not changed: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return bool(self.window.fullscreen)
        self.fit_camera()
        return bool(self.window.fullscreen)
