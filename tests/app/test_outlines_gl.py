"""The rocks drawn by ``OutlineRenderer`` (one quad each, outlines tested in the fragment
shader) against the same rocks drawn as segments by ``LineRenderer`` (the path they took
before), through the real headless window and ``Screen.draw_frame``."""

from __future__ import annotations

import dataclasses

import arcade
import numpy as np
import pytest

from asteroids.app.game import Game
from asteroids.app.palettes import VECTOR, LineStyle, Palette
from asteroids.app.router import open_shell
from asteroids.app.scene import Segments
from asteroids.config import Config, load_config
from asteroids.core import World
from benchmarks.render_methods import near
from tests.app.test_looks import with_display
from tests.core.worlds import rock, world_with

pytestmark = pytest.mark.gl

W, H = 1280.0, 720.0


class RocksAsSegments:
    """A frame's segments with the rocks expanded into plain segments: what ``draw_frame``
    drew before rocks had their own renderer."""

    rocks = None

    def __init__(self, segs: Segments) -> None:
        self._packed = segs.packed()

    def packed(self, rocks: bool = True) -> np.ndarray:
        return self._packed


def rocky_world(config: Config) -> World:
    """Eleven rocks of all three sizes, turned every which way, two across a seam."""
    places = [(0, 200, 180, 0), (0, 640, 400, 37), (0, 1050, 560, 190), (1, 420, 600, 12),
              (1, 900, 150, 77), (1, 300, 380, 150), (2, 760, 620, 5), (2, 1150, 300, 222),
              (2, 120, 520, 99), (0, 1270, 360, 61), (1, 500, 715, 140)]
    rocks = [rock(size, x, y, cfg=config, angle=angle, seed=3 + i)
             for i, (size, x, y, angle) in enumerate(places)]
    return world_with(config, rocks)


def lit(game: Game, segs: Segments | RocksAsSegments, threshold: int = 0) -> np.ndarray:
    game.screen.draw_frame(game.config.display, segs)  # type: ignore[arg-type]
    assert game.window.ctx.error is None
    img = np.asarray(arcade.get_image(components=3)).astype(int)
    return img.max(axis=2) > threshold


def both_ways(window: arcade.Window, config: Config, world: World, threshold: int = 0,
              palette: Palette | None = None) -> tuple[np.ndarray, np.ndarray, Game]:
    """The frame drawn the new way and the old way (each by its own Game, so the monitor
    look's afterglow starts from nothing in both)."""
    frames = []
    for old in (False, True):
        game = open_shell(window, config, seed=1, sound=False)
        game.screen.frame_time_s = 1 / 60
        palette = palette or game.screen.palette(game.config.display)
        segs = game.rules.scene.build(world, world, 0.5, palette=palette)
        assert segs.rocks is not None and len(segs.rocks) == world.ast_id.shape[0]
        frames.append(lit(game, RocksAsSegments(segs) if old else segs, threshold))
        if not old:
            new_game = game
    return frames[0], frames[1], new_game


DASHED = dataclasses.replace(VECTOR, styles={"asteroid": LineStyle(width=1.6, dash=2.0)})
"""Thick dashed rocks (no palette has them; the renderer supports them)."""


SHAPES = {"classic": ["asteroids.shapes=classic"],
          "vertices_3": ["asteroids.vertices_min=3", "asteroids.vertices_max=3"],
          "vertices_64": ["asteroids.vertices_min=64", "asteroids.vertices_max=64",
                          "asteroids.jaggedness=0.9"]}
"""Outlines the neighbour search treats apart: not in angular order (every edge tested),
too few points to skip any, and many points close together."""


@pytest.mark.parametrize("look", ["plain", "glow", "colour_blind", "high_contrast", "dashed",
                                  "monitor", "monitor_thick", *SHAPES])
def test_the_rocks_light_the_pixels_their_segments_lit(window, look: str) -> None:
    config = load_config(overrides=SHAPES.get(look, []))
    config = {
        "plain": with_display(config, glow=False),
        "glow": with_display(config, glow=True),
        "colour_blind": with_display(config, glow=True, palette="colour_blind"),
        "high_contrast": with_display(config, glow=True, palette="high_contrast"),
        "dashed": with_display(config, glow=True),
        "monitor": with_display(config, monitor={"strength": 1.0}),
        "monitor_thick": with_display(config, palette="high_contrast",
                                      monitor={"strength": 1.0}),
    }.get(look, with_display(config, glow=True, palette="high_contrast"))
    world = rocky_world(config)
    monitor = config.display.monitor.strength > 0.0
    # Under the monitor look the bloom's outer ring is 1-2 of 255, and there the two paths'
    # small-buffer lines (rasterised differently, no longer clamped at 1) round either way,
    # so a pixel counts as lit above 2 there. (At 0 one pixel of ~21 000 failed, at 1 one
    # more: at (225, 591) the rock path gave 1 where the segments' 3 x 3 had 0.)
    new, old, game = both_ways(window, config, world, threshold=2 if monitor else 0,
                               palette=DASHED if look == "dashed" else None)
    assert game.screen.lines.outlines.instances > world.ast_id.shape[0]   # the seam copies
    assert old.sum() > 500
    assert abs(int(new.sum()) - int(old.sum())) <= 0.01 * old.sum()
    assert near(old, new) == 1.0
    # The segment path's wrap ghosts test a segment's box without its width, so the glow of
    # an edge just short of the seam never reached across it; the rock path draws that copy.
    # Those pixels, and only those, sit next to the window's border. Under the monitor look
    # the bloom spreads that copy further in: it blurs the frame's own afterglow (before, the
    # last frame's, so a first frame had none), and the lost edge's halo reaches 12 px in
    # (the rock across the top seam, lit at the bottom; with that rock left out the two
    # match everywhere), so the margin there is twice the bloom's reach again.
    margin = 8
    if monitor:
        margin += int(2 * config.display.monitor.bloom_radius_px)
    inner = np.zeros_like(new)
    inner[margin:-margin, margin:-margin] = True
    assert near(new & inner, old) == 1.0
    assert near(new, old) >= 0.99


def test_thick_and_dashed_rock_styles_change_what_the_rocks_light(window) -> None:
    config = with_display(load_config(), glow=False)
    thin, _, _ = both_ways(window, config, rocky_world(config))
    thick, _, _ = both_ways(window, with_display(config, palette="high_contrast"),
                            rocky_world(config))
    dashed, _, _ = both_ways(window, config, rocky_world(config), palette=DASHED)
    assert thick.sum() > 1.2 * thin.sum()
    assert dashed.sum() < 0.8 * thick.sum()


def seam_rocks(config: Config) -> World:
    """A big rock across the right edge and a small one across the top."""
    return world_with(config, [rock(0, W - 10, 200, cfg=config, seed=4),
                               rock(2, 400, H - 4, cfg=config, seed=6)],
                      ship_visible=False)


@pytest.mark.parametrize("mode", ["wrap", "bounce"])
def test_a_rock_across_a_seam_shows_on_both_sides_only_when_rocks_wrap(window, mode):
    config = load_config(overrides=[f"borders.asteroids={mode}", "display.glow=false"])
    game = open_shell(window, config, seed=1, sound=False)
    world = seam_rocks(config)
    palette = game.screen.palette(game.config.display)
    img = lit(game, game.rules.scene.build(world, world, 0.5, palette=palette))
    h, w = img.shape
    # The big rock (radius 40 world px = 20 window px) at y = 200 (row 360 - 100 = 260).
    # (Clear of the outermost 2 pixels: where rocks bounce, a wall is drawn there.)
    right, left = img[230:290, w - 8:w - 2], img[230:290, 2:8]
    # The small rock (radius 10 = 5 px) at x = 400 (column 200).
    top, bottom = img[2:6, 190:210], img[h - 6:h - 2, 190:210]
    assert right.any() and top.any()
    assert left.any() == (mode == "wrap")
    assert bottom.any() == (mode == "wrap")


def test_more_points_than_a_texture_row_holds(window) -> None:
    """600 small rocks (over 4096 outline points: a second texture row), as the segments
    drew them."""
    config = load_config(overrides=["asteroids.vertices_min=10"])
    rocks = [rock(2, 20 + 52 * (i % 24), 15 + 28 * (i // 24), cfg=config, angle=17 * i,
                  seed=i) for i in range(600)]
    world = world_with(config, rocks)
    assert world.ast_local.shape[0] > 4096
    new, old, game = both_ways(window, with_display(config, glow=False), world)
    assert game.screen.lines.outlines.texture_rows == 2
    assert abs(int(new.sum()) - int(old.sum())) <= 0.01 * old.sum()
    assert near(old, new) == 1.0
    assert near(new, old) >= 0.99


def test_the_points_texture_is_written_only_when_the_outlines_change(window) -> None:
    config = load_config()
    game = open_shell(window, config, seed=1, sound=False)
    world = rocky_world(config)
    outlines = game.screen.lines.outlines
    for _ in range(3):
        game.screen.draw_frame(game.config.display, game.rules.scene.build(world, world, 0.5))
    assert outlines.texture_uploads == 1
    other = rocky_world(config)
    game.screen.draw_frame(game.config.display, game.rules.scene.build(other, other, 0.5))
    assert outlines.texture_uploads == 2


@pytest.mark.parametrize("glow", [False, True])
def test_bright_ends_and_dimming_match_the_segments(window, glow: bool) -> None:
    """The monitor look's dwell (brighter where an edge ends) and brightness, and the glow's
    additive halo: the picture's total light and its brightest pixels as the segments'."""
    config = load_config()
    game = open_shell(window, config, seed=1, sound=False)
    world = rocky_world(config)
    segs = game.rules.scene.build(world, world, 0.5)
    width = game.screen.line_width(game.config.display)
    pictures = []
    for packed, rocks in ((segs.packed(rocks=False), segs.rocks), (segs.packed(), None)):
        window.ctx.scissor = None
        window.clear(color=(0, 0, 0, 255))
        game.screen.camera.use()
        game.screen.lines.upload(packed, rocks)
        game.screen.lines.draw(width, glow, dwell=0.8, dwell_length=4.0, brightness=0.6)
        assert window.ctx.error is None
        pictures.append(np.asarray(arcade.get_image(components=3)).astype(float))
    new, old = pictures
    assert new.sum() == pytest.approx(old.sum(), rel=0.02)
    assert new.max() == pytest.approx(old.max(), abs=3)
    plain = 0.6 * 255 * 0.9   # the rock colour dimmed, where no end is near
    assert (new > plain + 20).sum() == pytest.approx((old > plain + 20).sum(), rel=0.05)
