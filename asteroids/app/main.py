"""Entry point of the desktop game: ``run_game(config, seed=...)``, called by the CLI."""

from __future__ import annotations

import sys

from asteroids.config import Config

__all__ = ["EXIT_NO_DISPLAY", "run_game"]

EXIT_NO_DISPLAY = 3
"""Exit code when no window can be opened (no display, no OpenGL 3.3, arcade missing)."""


def _fail(message: str) -> int:
    print(f"asteroids: {message}", file=sys.stderr)
    return EXIT_NO_DISPLAY


def run_game(config: Config, seed: int | None = None) -> int:
    """Open the game window and play until it is closed.

    Args:
        config: the resolved, validated settings.
        seed: the first game's seed (later games count up); None picks one from the clock.

    Returns:
        The process exit code: 0 after a normal quit, ``EXIT_NO_DISPLAY`` when no window
        could be opened (with a one-line reason on stderr, never a traceback).
    """
    try:
        import arcade
    except Exception as exc:  # arcade/pyglet missing or broken: say so in one line
        return _fail(f"cannot load arcade ({type(exc).__name__}: {exc})")
    if arcade.headless:
        return _fail("ARCADE_HEADLESS is set, so no window can be shown; unset it to play")

    from asteroids.app.window import GameWindow
    from asteroids.runtime import tune_malloc

    tune_malloc()
    try:
        window = GameWindow(config, seed=seed)
    except Exception as exc:  # no display, no OpenGL 3.3 context, ...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return _fail(f"cannot open the game window: {type(exc).__name__}"
                     f"{': ' + reason if reason else ''} "
                     "(a desktop display with OpenGL 3.3 is needed)")
    try:
        arcade.run()
    except KeyboardInterrupt:
        pass
    finally:
        if not window.closed:
            window.close()
    return 0
