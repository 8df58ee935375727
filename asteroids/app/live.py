"""``--live``: watch the player's settings files while the window runs and hand each valid
change to the screen on show; report a broken file without stopping the game.

``LiveReload`` owns the file watcher (``asteroids.config.watch``) and the last good settings.
``Game.poll_live`` calls ``poll`` once per frame; a valid reload goes to the current view's
``apply_settings`` (a game in progress takes the live settings from its next tick and keeps
the rest for the next game: ``asteroids.config.live.plan_reload``), and the lines here say
what happened, on screen (``LivePanel``) and on stderr. No arcade and no game rule here.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from asteroids.config import Config, ConfigError
from asteroids.config.live import Change, diff_configs
from asteroids.config.watch import POLL_INTERVAL_S, ConfigWatcher, WatchResult

__all__ = ["LiveReload", "LiveSpec", "Outcome", "notice_lines", "problem_lines", "tell"]


@dataclass(frozen=True)
class LiveSpec:
    """What ``--live`` watches: the ``--config`` files (in order) and the ``--set`` texts
    applied on top of them at every reload."""

    paths: tuple[str, ...]
    overrides: tuple[str, ...] = ()
    rules: bool = True
    """Whether the files give the rules of the next games too (``play``); False: only
    display, sound and keys are taken (``watch``: the replay's rules are fixed)."""
    interval_s: float = POLL_INTERVAL_S


@dataclass
class Outcome:
    """What a view did with new settings, for the notice."""

    waiting: set[str] = field(default_factory=set)
    """Keys of this reload's changes that do not apply to what is on screen now."""
    notes: list[str] = field(default_factory=list)
    """Lines after the changes (e.g. "applies to the next game (R restarts now)")."""


def _names(paths: Iterable[str]) -> str:
    return ", ".join(os.path.basename(p.rstrip("/\\")) or p for p in paths)


def notice_lines(changed: Sequence[str], changes: Sequence[Change], outcome: Outcome,
                 limit: int = 5) -> tuple[list[str], set[int]]:
    """The notice of a reload: a header naming the files, one line per change (at most
    ``limit``: a longer list shows ``limit - 1`` and ``+N more``), then the view's notes; and
    the indices of the lines about what waits (drawn in another colour)."""
    header = f"{_names(changed) or 'settings'} reloaded"
    if not changes:
        return [f"{header}: no setting changed"], set()
    shown = changes if len(changes) <= limit else changes[: limit - 1]
    lines = [header]
    waiting = set()
    for change in shown:
        if change.key in outcome.waiting:
            waiting.add(len(lines))
            lines.append(f"{change.text}  (next game)")
        else:
            lines.append(change.text)
    if len(shown) < len(changes):
        lines.append(f"+{len(changes) - len(shown)} more")
    for note in outcome.notes:
        waiting.add(len(lines))
        lines.append(note)
    return lines, waiting


def problem_lines(changed: Sequence[str], error: ConfigError) -> list[str]:
    """The panel of a broken reload: a header, then every problem exactly as ``asteroids
    config check`` prints it (``file:line:col: error[code]: ...``)."""
    n = len(error.errors)
    header = (f"{_names(changed) or 'settings'}: {n} problem{'' if n == 1 else 's'}; the game "
              "goes on with the last good settings until the file is fixed")
    return [header, *(str(issue) for issue in error.errors)]


class LiveReload:
    """The watched files and the last settings that loaded from them.

    Args:
        spec: what to watch.
        config: the settings loaded from them at start (the player's own).
        clock: seconds, for the poll interval (``time.monotonic``; tests pass their own).
    """

    def __init__(self, spec: LiveSpec, config: Config, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec
        self.watcher = ConfigWatcher(spec.paths, spec.overrides, interval_s=spec.interval_s)
        self.config = config
        """The last good settings (what the game runs on while a file is broken)."""
        self.clock = clock
        self.broken: WatchResult | None = None
        """The last reload, while the files are broken (None: they are fine)."""

    def poll(self) -> WatchResult | None:
        """Look at the files (cheap; rate-limited); the outcome when they were read again."""
        result = self.watcher.poll(self.clock())
        if result is None:
            return None
        self.broken = None if result.ok else result
        return result

    def accept(self, config: Config) -> list[Change]:
        """Take ``config`` as the new last good settings; what changed since the last."""
        changes = diff_configs(self.config, config)
        self.config = config
        return changes


def tell(line: str) -> None:
    """One line on stderr, as the game's other messages."""
    print(f"asteroids: {line}", file=sys.stderr, flush=True)
