"""The numpy rasteriser's frames (``asteroids.env.pixels``) against the game's own renderer:
the same Worlds drawn by ``Screen.draw_frame`` in the headless window, the playfield's lit
pixels mapped into the 84 x 84 frame (a pixel is lit when any window pixel inside it is),
compared by intersection over union of lit pixels over 200 frames of three rulesets."""

from __future__ import annotations

import dataclasses

import arcade
import numpy as np
import pytest

from asteroids.app.palettes import VECTOR
from asteroids.app.scene import SceneBuilder
from asteroids.app.screen import Screen
from asteroids.config import Config, load_config
from asteroids.core import World
from asteroids.core.batch import new_batch, step_batch
from asteroids.core.params import params_for

# asteroids.env (the package of the rasteriser) needs the [rl] extra: this runs in .ci/run's
# rl step, with the other GL tests' headless window.
pytestmark = [pytest.mark.gl, pytest.mark.rl]
pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
from asteroids.env.pixels import Rasteriser  # noqa: E402

FRAMES = {"default": 67, "classic": 67, "arena": 66}
"""200 frames in all."""
EVERY = 7
"""Ticks between two compared frames."""


def plain(config: Config) -> Config:
    """The plain look: no glow halo, no vector-monitor look (lines as they are), and lines
    1 px wide: in the half-size test window that is 2 world units of a 1280-wide world, the
    nearest whole pixel to the 1.5 units the game's 1.5 px lines are at full size (at the
    default 1.5 px the window's lines are 3 units, 0.2 px of the 84 px frame, and light
    neighbouring pixels the rasteriser's zero-width lines do not: mean IoU 0.86-0.87)."""
    monitor = dataclasses.replace(config.display.monitor, strength=0.0)
    display = dataclasses.replace(config.display, glow=False, line_width_px=1.0,
                                  monitor=monitor)
    return dataclasses.replace(config, display=display)


def worlds(config: Config, count: int) -> list[World]:
    """``count`` moments of a game played with random buttons (shots, thrust, turns)."""
    p = params_for(config)
    batch = new_batch(p, [11])
    rng = np.random.default_rng(4)
    out = []
    while len(out) < count:
        for _ in range(EVERY):
            batch, _ = step_batch(batch, rng.integers(0, 32, 1), p)
        world = batch.world(0)
        if world.game_over:
            batch = new_batch(p, [int(rng.integers(0, 1000))])
            continue
        out.append(world)
    return out


def arcade_lit(window: arcade.Window, screen: Screen, raster: Rasteriser, config: Config,
               scene: SceneBuilder, world: World) -> np.ndarray:
    """``world`` drawn by the game's renderer, its lit pixels mapped into the raster frame."""
    screen.draw_frame(config.display, scene.build(world, world, 1.0, palette=VECTOR))
    assert window.ctx.error is None
    img = np.asarray(arcade.get_image(components=3)).astype(int).max(axis=2)
    left, bottom, vw, vh = screen.camera.viewport.lbwh_int
    rows, cols = np.nonzero(img > 0)
    y_win = img.shape[0] - 1 - rows
    x = (cols + 0.5 - left) / vw * screen.width
    y = (y_win + 0.5 - bottom) / vh * screen.height
    keep = (x >= 0) & (x < screen.width) & (y >= 0) & (y < screen.height)
    col = (raster.origin[0] + x[keep] * raster.scale).astype(int)
    row = (raster.origin[1] + (screen.height - y[keep]) * raster.scale).astype(int)
    out = np.zeros((raster.height, raster.width), bool)
    out[np.clip(row, 0, raster.height - 1), np.clip(col, 0, raster.width - 1)] = True
    return out


@pytest.mark.parametrize("preset", list(FRAMES))
def test_frames_match_the_game_renderer(window: arcade.Window, preset: str) -> None:
    config = plain(load_config(preset))
    raster = Rasteriser(config)
    scene = SceneBuilder(config)
    screen = Screen(window, config.world.width_px, config.world.height_px)
    ious = []
    for world in worlds(config, FRAMES[preset]):
        theirs = arcade_lit(window, screen, raster, config, scene, world)
        ours = raster.world_frame(world) > 0
        ious.append((theirs & ours).sum() / max((theirs | ours).sum(), 1))
    ious_a = np.array(ious)
    print(f"{preset}: IoU mean {ious_a.mean():.3f}, min {ious_a.min():.3f} "
          f"over {len(ious)} frames")
    assert ious_a.mean() >= 0.9, f"mean IoU {ious_a.mean():.3f}"
    assert ious_a.min() >= 0.8, f"worst frame IoU {ious_a.min():.3f}"
