"""Render a frame of the real game to a PNG, without showing a window (for docs and CI)."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from asteroids.config import Config
from asteroids.storage import atomic_write

if TYPE_CHECKING:
    import arcade

    from asteroids.config.rulesets import Ruleset

__all__ = ["AFTERGLOW_FRAMES", "save_screenshot"]

AFTERGLOW_FRAMES = 30
"""With the vector-monitor look, the frames drawn before the picture (one per tick), so the
afterglow has its trails."""


def save_screenshot(config: Config, path: str | os.PathLike[str], *, seed: int = 0,
                    ticks: int = 600, mode: str = "play", width: int | None = None,
                    height: int | None = None, window: arcade.Window | None = None,
                    rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0) -> Path:
    """Run a bot game (or the attract screen) for some ticks and save the frame as a PNG.

    Headless (EGL) when arcade has not been imported yet; otherwise an invisible window.

    Args:
        config: the settings (the display section sets the default image size, the palette
            and the vector-monitor look).
        path: where to write the PNG (atomically: ``asteroids.storage.atomic_write``);
            parent folders are created. The suffix picks the format (``.jpg``...; PNG for
            a suffix Pillow does not know).
        seed: the game's seed.
        ticks: simulation ticks to run before the picture is taken.
        mode: "play" (the core's bot plays, with HUD and spare ships) or "title".
        width: image width in px (default ``config.display.window_width_px``).
        height: image height in px (default ``config.display.window_height_px``).
        window: an existing arcade window to draw into (tests); its size wins.
        rulesets: the rulesets the title screen lists (None: only ``config``, "custom").
        ruleset_index: the selected one; its config must be ``config``.

    Returns:
        The path written.

    Raises:
        ValueError: for an unknown mode or negative ticks.
    """
    if mode not in ("play", "title"):
        raise ValueError(f"mode must be 'play' or 'title', got {mode!r}")
    if ticks < 0:
        raise ValueError(f"ticks must be >= 0, got {ticks}")
    if "arcade" not in sys.modules:
        os.environ.setdefault("ARCADE_HEADLESS", "1")
        os.environ.setdefault("ARCADE_SOUND_BACKENDS", "silent")
    import arcade
    import PIL.Image

    from asteroids.app.play_view import PlayView
    from asteroids.app.router import open_shell
    from asteroids.app.title_view import TitleView

    own = window is None
    if window is None:
        w = width or config.display.window_width_px
        h = height or config.display.window_height_px
        window = arcade.Window(w, h, "asteroids screenshot", visible=False, vsync=False,
                               antialiasing=False)
    try:
        game = open_shell(window, config, seed=seed, sound=False, rulesets=rulesets,
                          ruleset_index=ruleset_index)
        view = (PlayView(game, seed, autopilot=True) if mode == "play"
                else TitleView(game, seed))
        window.show_view(view)
        dt = 1.0 / config.world.tick_hz
        game.screen.frame_time_s = dt
        # With the monitor look on, the last frames are drawn too: their afterglow shows.
        drawn = min(ticks, AFTERGLOW_FRAMES if config.display.monitor.strength > 0 else 0)
        for i in range(ticks):
            view.on_update(dt)
            if i >= ticks - drawn:
                view.on_draw()
        # Land between two ticks, as a real frame usually does.
        view.on_update(dt * 0.5)
        game.screen.frame_time_s = dt * 0.5
        view.on_draw()
        image = arcade.get_image()
        out = Path(path)
        # Encoded here and written by atomic_write: never a half-written picture, and a
        # named pipe at ``path`` is not opened (that would wait for a reader for ever).
        buffer = io.BytesIO()
        kind = PIL.Image.registered_extensions().get(out.suffix.lower(), "PNG")
        image.convert("RGB").save(buffer, format=kind)
        atomic_write(out, buffer.getvalue())
        window.hide_view()
        return out
    finally:
        if own:
            window.close()
