"""Watching settings files for ``--live``: a cheap stat of each file a few times a second.

``ConfigWatcher.poll(now)`` is called from the window's update loop (no thread, no service).
At most every ``interval_s`` it stats every watched file (modification time, size, inode:
nothing is read). A file that changed is read only once it has held still for one more poll,
so a save caught halfway is not taken; then all the files are loaded again with the same
loader as at start (``load_config``: layers, ``--set`` overrides, every check), so a problem
is the same ``ConfigIssue`` that ``asteroids config check`` prints. A file that vanished, is
unreadable or is half written gives a ``ConfigError``, never an exception out of ``poll``;
the caller keeps its last good settings. No arcade here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from asteroids.config.errors import ConfigError
from asteroids.config.loader import load_config
from asteroids.config.schema import Config

__all__ = ["POLL_INTERVAL_S", "ConfigWatcher", "WatchResult", "file_signature"]

POLL_INTERVAL_S = 0.25
"""Seconds between two looks at the files: four a second costs a few stat calls."""

Signature = tuple[int, ...] | str | None


def file_signature(path: str | os.PathLike[str]) -> Signature:
    """What a stat says about a file, to notice that it changed: ``(mtime_ns, size, inode,
    device, ctime_ns)``; None when it does not exist; the error text when it cannot be
    statted."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{type(exc).__name__}: {exc.strerror or exc}"
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev, st.st_ctime_ns)


@dataclass(frozen=True)
class WatchResult:
    """The files were read again: either new valid settings or every problem found."""

    config: Config | None
    """The settings loaded (None when they are broken)."""
    error: ConfigError | None
    """Every problem found (None when the settings loaded)."""
    changed: tuple[str, ...]
    """The watched files that changed since the last look, as given."""

    @property
    def ok(self) -> bool:
        """True when the settings loaded."""
        return self.config is not None


class ConfigWatcher:
    """Polls the ``--config`` files of a game and loads them again when they change.

    Args:
        paths: the ``--config`` arguments, in order (a bundled preset given by name is no
            file and never changes, unless a file of that name appears, which then wins as
            it would at start).
        overrides: the ``--set`` texts, applied on top at every load.
        interval_s: the least time between two looks.
    """

    def __init__(self, paths: Sequence[str | os.PathLike[str]], overrides: Sequence[str] = (),
                 *, interval_s: float = POLL_INTERVAL_S) -> None:
        self.paths: tuple[str, ...] = tuple(os.fspath(p) for p in paths)
        self.overrides: tuple[str, ...] = tuple(overrides)
        self.interval_s = interval_s
        self._seen = self._signatures()
        """The signatures at the last look."""
        self._loaded = self._seen
        """The signatures when the files were last loaded."""
        self._next = float("-inf")
        self.loads = 0
        """How many times the files were loaded again (diagnostics and tests)."""

    def _signatures(self) -> tuple[Signature, ...]:
        return tuple(file_signature(p) for p in self.paths)

    @property
    def files(self) -> tuple[str, ...]:
        """The watched paths."""
        return self.paths

    def poll(self, now: float) -> WatchResult | None:
        """Look at the files (at most every ``interval_s`` of ``now``, in seconds).

        Returns:
            None when nothing new is known; else the outcome of loading them again.
        """
        if now < self._next or not self.paths:
            return None
        self._next = now + self.interval_s
        current = self._signatures()
        settled = current == self._seen
        self._seen = current
        if current == self._loaded or not settled:
            return None  # unchanged, or still changing: look again next time
        return self._load(current)

    def _load(self, current: tuple[Signature, ...]) -> WatchResult | None:
        changed = tuple(p for p, a, b in zip(self.paths, self._loaded, current, strict=True)
                        if a != b)
        try:
            config: Config | None = load_config(*self.paths, overrides=self.overrides)
            error = None
        except ConfigError as exc:
            config, error = None, exc
        after = self._signatures()
        if after != current:  # written to while being read: wait until it settles
            self._seen = after
            return None
        self.loads += 1
        self._loaded = current
        return WatchResult(config, error, changed)
