"""The data folder as a boundary: no link inside it is ever followed out of it.

The player's files (``scores.json``, ``settings.json``, their locks, temporary files and
quarantine copies, the ``replays/`` folder and its games) live in one folder,
``asteroids.paths.data_dir()``. A link inside it could send a write anywhere: with
``scores.json`` a link to ``/etc/passwd``, a game run as root would replace that file. So:

- **The top is followed once.** The data folder itself (``ASTEROIDS_DATA_DIR``, or the
  platform's folder) may be a link the player made on purpose; it is followed. A dangling
  one is not created through (``make_folder`` says where it leads).
- **Nothing below is followed.** ``refuse_links`` checks each name from the folder down to a
  file (``lstat``, which never follows) and raises ``LinkRefused`` naming the first link,
  dangling or not. Reads open with ``O_NOFOLLOW``; writes rename a new temporary file over
  the name (a rename replaces a link, never its target); folders are made one level at a
  time by ``mkdir``, which never follows a link either.
- **Locks** (``FolderLock``) are opened with ``O_NOFOLLOW`` and never truncated, and only
  by a command that writes: a listing command creates, renames and writes nothing.

No arcade here.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path
from types import TracebackType

from asteroids.storage import LinkRefused, NotRegularFile

__all__ = ["FolderLock", "LinkRefused", "LockTimeout", "lock_path", "make_folder",
           "refuse_links"]


def _below(path: Path, root: Path) -> list[Path]:
    """The names from just below ``root`` down to ``path`` (``[root/a, root/a/b, ...]``);
    ``[path]`` when ``path`` is not below ``root`` (only the file itself is checked)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return [path]
    out, here = [], root
    for part in parts:
        here = here / part
        out.append(here)
    return out


def refuse_links(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> None:
    """Raise ``LinkRefused`` if ``path`` or a folder between ``root`` and it is a symbolic
    link (dangling or not). ``root`` itself may be one (the top is followed). Names that do
    not exist yet are fine: whatever makes them does not follow links.

    Raises:
        LinkRefused: naming the first link met.
    """
    for name in _below(Path(path), Path(root)):
        try:
            st = os.lstat(name)
        except (FileNotFoundError, NotADirectoryError):
            return
        if stat.S_ISLNK(st.st_mode):
            raise LinkRefused(name)


def make_folder(folder: str | os.PathLike[str], root: str | os.PathLike[str]) -> Path:
    """Create ``folder`` (at or below ``root``) one level at a time without following a link
    below ``root``; return it.

    ``root`` is created if missing; when it is a dangling link, nothing is created at the
    place it names (the player's link may point at a disk that is not there now).

    Raises:
        LinkRefused: a link at or below ``root`` on the way (not ``root`` itself).
        OSError: a name on the way is a file, or the folder cannot be made.
    """
    top, target = Path(root), Path(folder)
    if os.path.islink(top) and not os.path.exists(top):
        raise OSError(errno.ENOENT, f"the data folder is a link to {os.readlink(top)}, "
                      "which does not exist; nothing is created there", os.fspath(top))
    top.mkdir(parents=True, exist_ok=True)
    for name in _below(target, top):
        if name == top:
            continue
        try:
            os.mkdir(name)
            continue
        except FileExistsError:
            pass
        st = os.lstat(name)
        if stat.S_ISLNK(st.st_mode):
            raise LinkRefused(name)
        if not stat.S_ISDIR(st.st_mode):
            raise NotADirectoryError(errno.ENOTDIR, "it is a file, not a folder",
                                     os.fspath(name))
    return target


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of ``path``: ``.NAME.lock`` in the same folder."""
    p = Path(path)
    return p.with_name(f".{p.name}.lock")


class LockTimeout(TimeoutError):
    """Another process held the lock for the whole timeout."""


_LOCK_FLAGS = (os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
"""Created if missing, never truncated, never through a link."""


class FolderLock:
    """An advisory exclusive lock on ``.NAME.lock`` beside a file of the data folder
    (``flock`` on POSIX; ``filelock`` elsewhere, after the same link check).

    The lock file is empty and stays: deleting it while another game waits on it would let
    two writers in. Use as a context manager; it is taken by ``__enter__``.

    Args:
        path: the lock file (``lock_path(file)``).
        timeout: seconds to wait for another holder.
        poll: seconds between tries while waiting.
    """

    def __init__(self, path: str | os.PathLike[str], timeout: float, poll: float) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.poll = poll
        self._fd: int | None = None
        self._other: object | None = None

    def __enter__(self) -> FolderLock:
        if os.name != "posix":
            return self._enter_elsewhere()
        import fcntl

        try:
            fd = os.open(self.path, _LOCK_FLAGS, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise LinkRefused(self.path) from None
            raise
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise NotRegularFile(self.path, st.st_mode)
            deadline = time.monotonic() + self.timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise LockTimeout(f"{self.path} stayed locked for "
                                          f"{self.timeout:g} s") from None
                    time.sleep(self.poll)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def _enter_elsewhere(self) -> FolderLock:  # pragma: no cover - not POSIX
        import filelock

        if os.path.islink(self.path):
            raise LinkRefused(self.path)
        lock = filelock.FileLock(self.path, timeout=self.timeout)
        try:
            lock.acquire(poll_interval=self.poll)
        except filelock.Timeout:
            raise LockTimeout(f"{self.path} stayed locked for {self.timeout:g} s") from None
        self._other = lock
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None
        if self._other is not None:  # pragma: no cover - not POSIX
            self._other.release()  # type: ignore[attr-defined]
            self._other = None
