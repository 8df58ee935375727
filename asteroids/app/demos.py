"""The attract mode's bundled demo replays (package data ``asteroids/replay/demos/*.replay``).

A demo is only used when it loads cleanly and was recorded in a world of the same size and
tick rate as the selected ruleset (it is drawn into that world's letterbox); among those, the
ones recorded under exactly the selected rules are preferred, so picking a ruleset on the
title screen shows it being played. With no usable demo the title screen falls back to the
live bot. No arcade here.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Iterable
from pathlib import Path

from asteroids.config import Config
from asteroids.replay import Replay, ReplayError, load_replay, rules_fingerprint

__all__ = ["DEMO_PACKAGE", "demo_files", "fits", "load_demos"]

DEMO_PACKAGE = "asteroids.replay"
"""The package whose ``demos/`` folder holds the demo replays."""


def demo_files() -> list[Path]:
    """The bundled ``*.replay`` files, sorted by name (empty when none are bundled)."""
    try:
        folder = importlib.resources.files(DEMO_PACKAGE) / "demos"
        if not folder.is_dir():
            return []
        # The package is installed as plain files (setuptools, editable or not), so a
        # Traversable here is a real path.
        return sorted(Path(str(entry)) for entry in folder.iterdir()
                      if entry.name.endswith(".replay") and entry.is_file())
    except (ModuleNotFoundError, OSError):
        return []


def fits(replay: Replay, config: Config) -> bool:
    """True when ``replay`` can be drawn with ``config``'s world (same size and tick rate)
    and plays on one set of rules (a game tuned live is no demo)."""
    a, b = replay.config.world, config.world
    return ((a.width_px, a.height_px, a.tick_hz) == (b.width_px, b.height_px, b.tick_hz)
            and not replay.config_changes)


def load_demos(config: Config, files: Iterable[Path] | None = None) -> list[Replay]:
    """The demos that load and fit ``config``; broken or unfitting ones are skipped, and
    when some were recorded under ``config``'s own rules, only those.

    Args:
        config: the selected ruleset's settings.
        files: replay files to try (default: the bundled ones).
    """
    demos = []
    for path in demo_files() if files is None else files:
        try:
            replay = load_replay(path)
        except ReplayError:
            continue
        if replay.ticks > 0 and fits(replay, config):
            demos.append(replay)
    rules = rules_fingerprint(config)
    same = [d for d in demos if rules_fingerprint(d.config) == rules]
    return same or demos
