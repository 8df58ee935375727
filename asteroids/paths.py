"""TEMP stand-in (replaced by i9-replay on merge): the user's data folders."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["data_dir", "replays_dir"]


def data_dir() -> Path:
    """The user data folder; ``ASTEROIDS_DATA_DIR`` overrides it."""
    env = os.environ.get("ASTEROIDS_DATA_DIR")
    return Path(env) if env else Path(platformdirs.user_data_dir("asteroids"))


def replays_dir() -> Path:
    """Where played games are saved."""
    return data_dir() / "replays"
