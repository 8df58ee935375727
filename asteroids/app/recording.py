"""Where the window's replays go, and saving them without ever stopping the game.

A played game is saved on game over (or, unfinished, when the player leaves it) either to the
user's replay folder under a sortable name (``2026-11-23T17-05-00Z-seed123-score4560.replay``)
or, for ``asteroids play --record FILE``, to FILE. A save that fails (read-only folder, full
disk, a link where the replays folder or the file should be: the data folder follows none,
``asteroids.datafolder``) is reported in one line and the game goes on. No arcade here.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from asteroids.datafolder import make_folder
from asteroids.paths import data_dir, replays_dir
from asteroids.replay import Replay, save_replay

__all__ = ["ReplaySaver", "SaveResult", "replay_filename"]


def replay_filename(replay: Replay, when: datetime) -> str:
    """A name that sorts by time and says the seed and score.

    >>> from types import SimpleNamespace as NS
    >>> replay_filename(NS(seed=123, final_score=4560), datetime(2026, 11, 23, 17, 5, tzinfo=UTC))
    '2026-11-23T17-05-00Z-seed123-score4560.replay'
    """
    stamp = when.astimezone(UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
    return f"{stamp}-seed{replay.seed}-score{replay.final_score}.replay"


def _free(path: Path) -> Path:
    """``path``, or ``stem-2.suffix``, ``stem-3.suffix``, ... whichever does not exist yet
    (a name taken by a link, even a dangling one, is taken)."""
    n = 2
    candidate = path
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        n += 1
    return candidate


class SaveResult:
    """What happened to one save: the path written, or the one-line reason it failed."""

    def __init__(self, path: Path | None, error: str | None, reason: str = "") -> None:
        self.path = path
        """The file written (None on failure)."""
        self.error = error
        """One line saying why nothing was written (None on success)."""
        self.reason = reason
        """The failure in a few words (``Read-only file system``), for the screen."""

    @property
    def ok(self) -> bool:
        """True when the replay is on disk."""
        return self.path is not None

    def table_name(self) -> str | None:
        """The file's name when it was saved into the user's replays folder, where a
        high-score entry can point to it; None otherwise (``--record FILE`` elsewhere, a
        failed save, a folder that cannot be resolved)."""
        if self.path is None:
            return None
        try:
            if self.path.parent.resolve() == replays_dir().resolve():
                return self.path.name
        except OSError:
            return None
        return None

    def hud_text(self) -> str:
        """A short line for the screen."""
        if self.path is not None:
            return f"REPLAY SAVED: {self.path.name}"
        return f"REPLAY NOT SAVED: {self.reason}".upper()


class ReplaySaver:
    """Saves the window's games, one file each, atomically.

    Args:
        record_to: the file for the session's first game (later games go beside it as
            ``NAME-2.replay``, ``NAME-3.replay``, so none overwrites another); None saves to
            ``asteroids.paths.replays_dir()`` under timestamped names.
    """

    def __init__(self, record_to: str | os.PathLike[str] | None = None) -> None:
        self.record_to = Path(record_to) if record_to is not None else None
        self.saved: list[Path] = []
        """Every file written this session, in order."""

    def target(self, replay: Replay, when: datetime | None = None) -> Path:
        """Where ``replay`` would be saved now (creates nothing)."""
        if self.record_to is not None:
            first = self.record_to
            return first if not self.saved else _free(first)
        when = when or datetime.now(UTC)
        return _free(replays_dir() / replay_filename(replay, when))

    def save(self, replay: Replay) -> SaveResult:
        """Write ``replay``; never raises. Prints one line to stderr when it fails."""
        path: Path | None = None
        try:
            path = self.target(replay)
            if self.record_to is None:  # the data folder: no link followed on the way
                make_folder(path.parent, data_dir())
                written = save_replay(replay, path, follow_links=False)
            else:  # the player's own --record FILE
                path.parent.mkdir(parents=True, exist_ok=True)
                written = save_replay(replay, path)
        except Exception as exc:  # a failed save must never end the player's game
            where = f"{path}: " if path is not None else ""
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            line = f"replay not saved: {where}{type(exc).__name__}{': ' if reason else ''}{reason}"
            print(f"asteroids: {line}", file=sys.stderr)
            short = (exc.strerror if isinstance(exc, OSError) and exc.strerror
                     else type(exc).__name__)
            return SaveResult(None, line, short)
        self.saved.append(Path(written))
        return SaveResult(Path(written), None)
