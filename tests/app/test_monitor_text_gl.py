"""Issue 39, item 4 (in part): under the vector-monitor look the text is drawn crisp on top,
outside the afterglow and the bloom, through the real headless window. Before, at a low frame
rate the last frame's digits glowed under the new ones ("35 FPS" read as "85 PPS"), and a
large letter's thick strokes read as hollow double outlines (a dimmer core between bright
edges)."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from asteroids.app.router import open_shell
from asteroids.app.scene import Segments
from asteroids.app.text import TextLine, text_ink
from tests.app.test_looks import with_display

pytestmark = pytest.mark.gl

WHITE = {"text": (1.0, 1.0, 1.0, 1.0)}


def draw(game, text: str, size: float) -> np.ndarray:
    """One frame with no world and ``text`` centred on the field; the pixels' brightness."""
    screen = game.screen
    ink = text_ink([TextLine.placed(text, 640.0, 300.0, size, "center")], WHITE,
                   screen.px_per_unit, game.config.display.line_width_px)
    screen.draw_frame(game.config.display, Segments(), ink)
    assert game.window.ctx.error is None
    return np.asarray(arcade.get_image(components=3)).astype(int).max(axis=2)


def test_changing_text_leaves_no_glow_behind_at_8_fps(window, config):
    shown = {}
    for strength in (0.0, 1.0):
        game = open_shell(window, with_display(config, monitor={"strength": strength}),
                          seed=1, sound=False)
        game.screen.frame_time_s = 1 / 8
        for _ in range(3):
            draw(game, "35 FPS", 40.0)
        shown[strength] = draw(game, "85 PPS", 40.0)
    plain = shown[0.0] > 30
    near = plain.copy()  # the plain look's strokes, grown by 2 pixels
    for axis in (0, 1):
        for shift in (-2, -1, 1, 2):
            near |= np.roll(plain, shift, axis=axis)
    stray = (shown[1.0] > 30) & ~near
    assert stray.sum() == 0, f"{stray.sum()} pixels glow where no stroke is now"


def test_large_letters_have_solid_strokes(window, config):
    game = open_shell(window, with_display(config, monitor={"strength": 1.0}), seed=1,
                      sound=False)
    game.screen.frame_time_s = 1 / 30
    for _ in range(3):
        img = draw(game, "I", 300.0)
    # Across the I's upright, halfway up: brightest in its core, not at its edges.
    row = img[img.shape[0] - 1 - int(round((300.0 + 150.0) * game.screen.px_per_unit))]
    lit = np.nonzero(row > 0.5 * row.max())[0]
    assert lit.size >= 3
    core = row[lit[0]:lit[-1] + 1]
    assert core.min() >= 0.85 * core.max(), core.tolist()
