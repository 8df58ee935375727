"""Where the window's replays go, and saving them without ever stopping the game.

A played game is saved on game over (or, unfinished, when the player leaves it) either to the
user's replay folder under a sortable name (``2026-11-23T17-05-00Z-seed123-score4560.replay``)
or, for ``asteroids play --record FILE``, to FILE. A game left unfinished within its first
``SHORT_GAME_S`` seconds (quit from the pause screen, window closed) is not saved to the
replay folder: a newcomer trying the keys and quitting leaves no file behind. After every
save to the folder the window prunes it (``Game.prune_replays``: ``[storage] keep_replays``,
never a high-score entry's replay). A save that fails (read-only folder, full disk, a link
where the replays folder or the file should be: the data folder follows none,
``asteroids.datafolder``) is reported in one line and the game goes on. No arcade here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from asteroids.datafolder import make_folder
from asteroids.paths import data_dir, replays_dir
from asteroids.replay import Replay, save_replay

__all__ = ["SCREEN_NAME_CHARS", "SHORT_GAME_S", "ReplaySaver", "SaveResult", "replay_filename",
           "short_name"]

SHORT_GAME_S = 10.0
"""A game left unfinished within this many seconds of play is not saved to the replay folder
(``ReplaySaver.min_unfinished_s``; ``--record FILE`` keeps every game)."""

SCREEN_NAME_CHARS = 28
"""The longest file name the game-over screen shows whole; longer ones are cut in the
middle (``short_name``)."""


def replay_filename(replay: Replay, when: datetime) -> str:
    """A name that sorts by time and says the seed and score.

    >>> from types import SimpleNamespace as NS
    >>> replay_filename(NS(seed=123, final_score=4560), datetime(2026, 11, 23, 17, 5, tzinfo=UTC))
    '2026-11-23T17-05-00Z-seed123-score4560.replay'
    """
    stamp = when.astimezone(UTC).strftime("%Y-%m-%dT%H-%M-%SZ")
    return f"{stamp}-seed{replay.seed}-score{replay.final_score}.replay"


def short_name(name: str, limit: int = SCREEN_NAME_CHARS) -> str:
    """``name`` cut in the middle to at most ``limit`` characters, for the screen.

    >>> short_name("a-very-long-name-that-the-player-chose.replay", 24)
    'a-very-long...ose.replay'
    """
    if len(name) <= limit:
        return name
    tail = min(len(name) // 2, (limit - 3) // 2)
    return f"{name[:limit - 3 - tail]}...{name[-tail:]}"


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

    def __init__(self, path: Path | None, error: str | None, reason: str = "", *,
                 in_folder: bool = False) -> None:
        self.path = path
        """The file written (None on failure, or when the game was too short to keep)."""
        self.in_folder = in_folder
        """True when the file went to the user's replay folder (not ``--record FILE``)."""
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
        """A short line for the screen: the replay folder's technical names are not shown
        (the high-score table and ``asteroids watch`` find them), a chosen file's name is,
        cut to ``SCREEN_NAME_CHARS``."""
        if self.path is not None:
            if self.in_folder:
                return "REPLAY SAVED IN THE REPLAYS FOLDER"
            return f"REPLAY SAVED: {short_name(self.path.name)}"
        if self.error is None:
            return f"REPLAY NOT KEPT: {self.reason}".upper()
        return f"REPLAY NOT SAVED: {self.reason}".upper()


class ReplaySaver:
    """Saves the window's games, one file each, atomically.

    Args:
        record_to: the file for the session's first game (later games go beside it as
            ``NAME-2.replay``, ``NAME-3.replay``, so none overwrites another); None saves to
            ``asteroids.paths.replays_dir()`` under timestamped names.
    """

    def __init__(self, record_to: str | os.PathLike[str] | None = None, *,
                 min_unfinished_s: float = SHORT_GAME_S,
                 on_saved: Callable[[], object] | None = None) -> None:
        self.record_to = Path(record_to) if record_to is not None else None
        self.saved: list[Path] = []
        """Every file written this session, in order."""
        self.min_unfinished_s = min_unfinished_s
        """An unfinished game shorter than this (seconds of play) is not saved to the replay
        folder (0 keeps every game)."""
        self.on_saved = on_saved
        """Called after each save to the replay folder (the window prunes it)."""

    def target(self, replay: Replay, when: datetime | None = None) -> Path:
        """Where ``replay`` would be saved now (creates nothing)."""
        if self.record_to is not None:
            first = self.record_to
            return first if not self.saved else _free(first)
        when = when or datetime.now(UTC)
        return _free(replays_dir() / replay_filename(replay, when))

    def keeps(self, replay: Replay, finished: bool) -> bool:
        """Whether ``replay`` is worth a file: a finished game, any game for ``--record FILE``,
        an unfinished one of at least ``min_unfinished_s`` of play."""
        if finished or self.record_to is not None:
            return True
        return replay.ticks >= self.min_unfinished_s * replay.tick_hz

    def save(self, replay: Replay, *, finished: bool = True) -> SaveResult:
        """Write ``replay`` (an unfinished game too short to keep is skipped: ``keeps``);
        never raises. Prints one line to stderr when it fails.

        Args:
            replay: the game.
            finished: whether the game ended (False: the player left it).
        """
        if not self.keeps(replay, finished):
            return SaveResult(None, None, f"shorter than {self.min_unfinished_s:g} s")
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
        if self.record_to is None and self.on_saved is not None:
            self.on_saved()
        return SaveResult(Path(written), None, in_folder=self.record_to is None)
