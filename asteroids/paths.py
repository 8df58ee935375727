"""Where the game keeps the player's files (replays, later high scores).

The folder is the platform's user data folder (``platformdirs.user_data_dir("asteroids")``:
``~/.local/share/asteroids`` on Linux, ``~/Library/Application Support/asteroids`` on macOS,
``%LOCALAPPDATA%\\asteroids`` on Windows). ``ASTEROIDS_DATA_DIR`` overrides it, for tests and
for players who keep their files elsewhere. Nothing here creates a folder: writers do, when
they first save.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR_ENV", "data_dir", "replays_dir"]

DATA_DIR_ENV = "ASTEROIDS_DATA_DIR"
"""Environment variable naming the data folder instead of the platform's default."""


def data_dir() -> Path:
    """The folder for the player's files: ``$ASTEROIDS_DATA_DIR`` if set and not empty,
    else the platform's user data folder for "asteroids"."""
    override = os.environ.get(DATA_DIR_ENV, "")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("asteroids", appauthor=False))


def replays_dir() -> Path:
    """The folder where finished games are saved as replays: ``data_dir() / "replays"``."""
    return data_dir() / "replays"
