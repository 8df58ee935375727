"""Rendering: the letterboxed play camera, the line renderers and the vector-monitor look.

One job: put a frame's lines on the window: the world's, then the text's (every word is
strokes of the vector font, ``asteroids.app.text``), both through the same look, so letters
glow, take the palette and the monitor look. The world is laid out in world units and the
camera letterboxes it into the window keeping its aspect; the bars beside or above it stay
black under every look (the monitor look's buffers are cleared when the playfield moves:
a new world size, a resized window), and a faint border shows where the playfield ends
(``display.border``). An opaque panel (the options) is a ``hole`` the world's lines leave
empty. Knows nothing of rules, profiles or screens.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import arcade
import numpy as np
from arcade.types import LRBT

from asteroids.app.monitor import MAX_PAST_TICKS, LinePass, VectorMonitor, fade
from asteroids.app.outlines import NO_HOLE
from asteroids.app.palettes import Palette, palette_named
from asteroids.app.render import LineRenderer
from asteroids.app.scene import FLOATS_PER_SEGMENT, Segments
from asteroids.app.text import Frame
from asteroids.config.player_tables import DisplayConfig

__all__ = ["TEXT_GLOW", "Screen"]

TEXT_GLOW = 0.5
"""Letters glow half as wide as the world's lines in the plain look (a wide halo over dense
strokes would blot them out)."""


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
        self.text = LineRenderer(window.ctx, capacity=1024)
        """The text's lines (and the border): drawn after the world's, never under a hole."""
        self.text.glow_scale = TEXT_GLOW
        self.past = LineRenderer(window.ctx)
        """The lines of the ticks a frame stepped over, for the monitor look's afterglow."""
        self.monitor: VectorMonitor | None = None
        """The vector-monitor look's buffers while it is on (None: off, nothing allocated)."""
        self.frame_time_s: float | None = None
        """A fixed time per drawn frame for the afterglow (screenshots, benchmarks); None
        uses the wall clock."""
        self._last_frame: float | None = None
        self._viewport: tuple[int, int, int, int] | None = None
        self.afterglow_restarts = 0
        """Times the monitor look's afterglow was dropped because the playfield moved."""
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
    def fullscreen(self) -> bool:
        """Whether the window is full screen."""
        return bool(self.window.fullscreen)

    @property
    def letterboxed(self) -> bool:
        """Whether the playfield leaves black bars in the window (its aspect differs)."""
        vp = self.camera.viewport
        w, h = self.window.get_size()
        return vp.width < w - 1.5 or vp.height < h - 1.5

    def frame(self, scale: float = 1.0) -> Frame:
        """The playfield as the text layout sees it now (``asteroids.app.text.Frame``)."""
        return Frame(self.width, self.height, self.px_per_unit, scale)

    def shows_border(self, display: DisplayConfig) -> bool:
        """Whether the playfield border is drawn (``display.border``: auto = letterboxed)."""
        return display.border == "on" or (display.border == "auto" and self.letterboxed)

    def border(self, display: DisplayConfig, color: tuple[float, ...], out: Segments) -> None:
        """Add the faint playfield border to ``out`` (inset by half a line: the edge stays
        inside the playfield)."""
        inset = self.line_width(display) * 0.5
        x0, y0, x1, y1 = inset, inset, self.width - inset, self.height - inset
        pts = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
        out.add(np.stack([pts, np.roll(pts, -1, axis=0)], axis=1), color)

    def panel_edge(self, box: tuple[float, float, float, float], color: tuple[float, ...],
                   out: Segments) -> None:
        """Add a faint frame around an opaque panel (left, bottom, right, top) to ``out``."""
        x0, y0, x1, y1 = box
        pts = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
        out.add(np.stack([pts, np.roll(pts, -1, axis=0)], axis=1), color)

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
            if self.monitor is not None and self.monitor.allocated:
                self.monitor.release()
                self.afterglow_restarts += 1

    def draw_frame(self, display: DisplayConfig, segs: Segments, text: Segments | None = None,
                   hole: tuple[float, float, float, float] | None = None,
                   past: Sequence[tuple[Segments, float]] = ()) -> None:
        """Draw the world's segments, then the text's, in world units over black (the bars
        included): the plain look, or the vector-monitor look when
        ``display.monitor.strength`` > 0.

        Args:
            display: the display settings in force (read every frame).
            segs: the world's segments (rocks kept as ``RockOutlines``).
            text: the text's segments (``asteroids.app.text.text_ink``), the border's.
            hole: a world rectangle the world's lines leave empty (an opaque panel).
            past: the world's segments at the ticks this frame stepped over, each with its
                age in seconds: the monitor look's afterglow gets them too, dimmed by their
                age (the last ``MAX_PAST_TICKS``); the plain look ignores them.
        """
        self._check_viewport()
        self.lines.upload(segs.packed(rocks=False), segs.rocks)
        self.text.upload(text.packed() if text is not None
                         else np.zeros((0, FLOATS_PER_SEGMENT), np.float32))
        where = hole if hole is not None else NO_HOLE
        width = self.line_width(display)
        look = display.monitor
        dt = self.frame_dt()
        ctx = self.window.ctx
        if look.strength > 0.0:
            if self.monitor is None:
                self.monitor = VectorMonitor(ctx)
            px = self.px_per_unit

            def draw_lines(line: LinePass) -> None:
                self.lines.draw(width * line.width, hole=where, dwell=line.dwell,
                                dwell_length=line.dwell_length_px / px,
                                brightness=line.brightness)

            def draw_text(line: LinePass) -> None:  # crisp, on top: no afterglow, no bloom
                self.text.draw(width * line.width, brightness=line.brightness)

            def draw_past(line: LinePass) -> None:  # into the afterglow only
                self.past.draw(width * line.width, hole=where, dwell=line.dwell,
                               dwell_length=line.dwell_length_px / px,
                               brightness=line.brightness)

            has_past = self._upload_past(past, look.persistence_s * look.strength)
            self.monitor.frame(look, self.camera, self.window.get_framebuffer_size(), dt,
                               draw_lines, draw_text, draw_past if has_past else None)
        else:
            if self.monitor is not None:  # the look was turned off: free its buffers
                self.monitor.release()
                self.monitor = None
            ctx.scissor = None
            self.window.clear(color=arcade.color.BLACK)
            self.camera.use()
            self.lines.draw(width, glow=display.glow, hole=where)
            self.text.draw(width, glow=display.glow)

    def _upload_past(self, past: Sequence[tuple[Segments, float]],
                     persistence_s: float) -> bool:
        """Upload the stepped-over ticks' segments (rocks as segments), oldest first, each
        colour dimmed by ``fade`` of its age; False when there is nothing to draw."""
        parts = []
        for segs, age_s in list(past)[-MAX_PAST_TICKS:]:
            weight = fade(age_s, persistence_s)
            if weight <= 0.0 or not len(segs):
                continue
            packed = segs.packed(rocks=True)
            packed[:, 4:7] *= weight
            parts.append(packed)
        if not parts:
            return False
        self.past.upload(np.concatenate(parts))
        return True

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
