"""The on-screen side of ``--live``: a short notice of what a reload changed, and a panel of
every problem in a broken settings file.

The notice sits bottom left, above the status line, for ``NOTICE_S`` seconds and then fades
out over ``FADE_S``; a new reload replaces it. The problem panel stays until the file is
fixed (the game goes on underneath, on the last good settings). Both are arcade.Text labels
in one batch, laid out in world units like the HUD, in a monospaced font (the HUD's font has
no arrow and its capitals make file paths hard to read). No game rule here.
"""

from __future__ import annotations

import textwrap

import arcade
import pyglet

__all__ = ["FADE_S", "MAX_NOTICE_LINES", "MAX_PROBLEM_LINES", "NOTICE_S", "PANEL_FONT",
           "LivePanel"]

NOTICE_S = 6.0
"""Seconds a reload's notice stays fully visible..."""
FADE_S = 1.5
"""...then it fades out over this long."""
MAX_NOTICE_LINES = 8
"""Lines of the notice (header, changes, the next-game line); longer lists end "+N more"."""
MAX_PROBLEM_LINES = 12
"""Problems listed in the panel; more end in "+N more"."""
MAX_PANEL_ROWS = 20
"""Screen rows of the panel: a problem longer than the screen is wide wraps onto more."""
MAX_CHARS = 150
"""A longer notice line is cut (with "...") so that it stays on the screen."""
CHAR_WIDTH = 0.8
"""Width of a character in font sizes, when it cannot be measured (DejaVu Sans Mono at
96 dpi: 0.602 * 96 / 72)."""

PANEL_FONT: tuple[str, ...] = ("DejaVu Sans Mono", "Consolas", "Menlo", "Courier New",
                               "Liberation Mono", "monospace")
"""Monospaced fonts, first found wins."""

NOTICE_COLOR = (150, 255, 170)
WAIT_COLOR = (255, 220, 60)
PROBLEM_COLOR = (255, 130, 110)
PANEL_BACKDROP = (0, 0, 0, 215)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 3] + "..."


class LivePanel:
    """The reload notice and the problem panel, for a world of ``width`` x ``height``.

    Tests read ``notice_lines``, ``problem_lines`` and ``visible``.
    """

    def __init__(self, width: float, height: float) -> None:
        self.notice_lines: list[str] = []
        """What the notice says now (empty: no notice)."""
        self.problem_lines: list[str] = []
        """What the problem panel says now (empty: no panel)."""
        self.notice_age = 0.0
        """Seconds the notice has been up."""
        self._waiting: set[int] = set()
        self.layout(width, height)

    def layout(self, width: float, height: float) -> None:
        """Lay the labels out for a world of this size (a new game may bring another)."""
        self.width, self.height = float(width), float(height)
        self.batch = pyglet.graphics.Batch()
        size = self.height * 0.021
        self.line_h = size * 1.45
        margin = self.height * 0.03
        self.margin = margin
        bottom = margin + self.height * 0.028 * 0.8 * 1.8  # above the HUD's status line
        self.notice = [arcade.Text("", margin * 1.5, bottom + i * self.line_h, NOTICE_COLOR,
                                   size, font_name=PANEL_FONT, anchor_y="bottom",
                                   batch=self.batch)
                       for i in range(MAX_NOTICE_LINES)]
        top = self.height * 0.82
        self.panel_top = top
        probe = arcade.Text("0" * 20, 0, 0, font_size=size, font_name=PANEL_FONT)
        char_w = probe.content_width / 20 if probe.content_width > 0 else size * CHAR_WIDTH
        self.columns = max(20, int((self.width - margin * 3.5) / char_w))
        """Characters that fit across the panel (measured in the font found)."""
        self.problems = [arcade.Text("", margin * 1.5, top - i * self.line_h, PROBLEM_COLOR,
                                     size, font_name=PANEL_FONT, anchor_y="top",
                                     batch=self.batch)
                         for i in range(MAX_PANEL_ROWS)]
        self.panel_rows: list[str] = []
        """The panel's text as laid out on screen (long problems wrapped)."""
        self._show()

    @property
    def visible(self) -> bool:
        """Whether the notice is on screen (not yet faded out)."""
        return bool(self.notice_lines) and self.notice_age < NOTICE_S + FADE_S

    def show_notice(self, lines: list[str], waiting: set[int] | None = None) -> None:
        """Put up a notice (the first line a header); ``waiting`` lines are drawn in the
        colour of settings that wait for the next game."""
        if len(lines) > MAX_NOTICE_LINES:
            lines = [*lines[: MAX_NOTICE_LINES - 1], f"+{len(lines) - MAX_NOTICE_LINES + 1} more"]
        self.notice_lines = [_cut(line) for line in lines]
        self._waiting = set(waiting or ())
        self.notice_age = 0.0
        self._show()

    def show_problems(self, lines: list[str]) -> None:
        """Put up the problem panel: a header, then one line per problem, each exactly as
        given (wrapped on screen when longer than the screen is wide)."""
        if len(lines) > MAX_PROBLEM_LINES + 1:
            rest = len(lines) - MAX_PROBLEM_LINES
            lines = [*lines[:MAX_PROBLEM_LINES], f"+{rest} more (asteroids config check FILE "
                                                 "lists them all)"]
        self.problem_lines = list(lines)
        self._show()

    def _rows(self) -> list[str]:
        """The problem lines wrapped to the panel's width, at most ``MAX_PANEL_ROWS``."""
        rows: list[str] = []
        for line in self.problem_lines:
            rows += textwrap.wrap(line, self.columns, subsequent_indent="    ",
                                  break_long_words=True, break_on_hyphens=False) or [""]
        if len(rows) > MAX_PANEL_ROWS:
            rows = [*rows[: MAX_PANEL_ROWS - 1], "..."]
        return rows

    def clear_problems(self) -> None:
        """Take the problem panel down (the file is fixed)."""
        self.problem_lines = []
        self._show()

    def update(self, delta_time: float) -> None:
        """Age the notice and fade it out at the end."""
        if not self.notice_lines:
            return
        self.notice_age += max(delta_time, 0.0)
        if self.notice_age >= NOTICE_S + FADE_S:
            self.notice_lines = []
            self._show()
        elif self.notice_age > NOTICE_S:
            self._fade(1.0 - (self.notice_age - NOTICE_S) / FADE_S)

    def _fade(self, share: float) -> None:
        alpha = max(0, min(255, round(255 * share)))
        for i, label in enumerate(self.notice):
            r, g, b = WAIT_COLOR if self._row_waits(i) else NOTICE_COLOR
            label.color = (r, g, b, alpha)

    def _row_waits(self, row: int) -> bool:
        """Labels are stacked bottom up; notice line ``i`` sits on label ``n - 1 - i``."""
        return len(self.notice_lines) - 1 - row in self._waiting

    def _show(self) -> None:
        n = len(self.notice_lines)
        for i, label in enumerate(self.notice):
            text = self.notice_lines[n - 1 - i] if i < n else ""
            if label.text != text:
                label.text = text
            label.color = WAIT_COLOR if self._row_waits(i) else NOTICE_COLOR
        self.panel_rows = self._rows()
        for i, label in enumerate(self.problems):
            text = self.panel_rows[i] if i < len(self.panel_rows) else ""
            if label.text != text:
                label.text = text

    def draw(self) -> None:
        """Draw the panel's backdrop and every label (nothing when there is nothing)."""
        if not self.notice_lines and not self.problem_lines:
            return
        if self.panel_rows:
            bottom = self.panel_top - (len(self.panel_rows) + 0.6) * self.line_h
            arcade.draw_lrbt_rectangle_filled(self.margin, self.width - self.margin, bottom,
                                              self.panel_top + self.line_h * 0.5,
                                              PANEL_BACKDROP)
        self.batch.draw()
