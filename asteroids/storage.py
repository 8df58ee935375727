"""Writing the player's files so that nothing is ever lost or half-written.

One helper for every file the game writes into the data folder (replays, high scores,
settings):

- ``atomic_write``: the bytes go to a temporary file in the same folder (``.NAME.PID.XXXX.tmp``),
  which is flushed and fsynced, then renamed over the target with ``os.replace`` and the
  folder is fsynced. A crash at any moment leaves either the old file or the new one, never a
  mix; a failure leaves the old file as it was and removes the temporary file. A named pipe,
  device, socket or folder is refused (``NotRegularFile``), never replaced or opened. A
  symbolic link is followed only for a file the player named (``--export FILE``); in the
  data folder (``follow_links=False``) a link, dangling or not, is refused (``LinkRefused``)
  and nothing is written through it.
- ``remove_stale_temps``: temporary files left by a write that was killed half way (the
  process is gone) are removed at the next load.
- ``quarantine``: a file the game cannot use is moved aside as ``NAME.corrupt-<UTC time>``,
  never deleted, so the player (or a later version) can still recover it.
- ``read_limited``: reads a regular file whole, refusing one over a size limit before reading
  it, and anything else (a named pipe, a device; with ``follow_links=False`` a link) without
  blocking on it.

No arcade here.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["FileTooLarge", "LinkRefused", "NotRegularFile", "atomic_write",
           "describe_os_error", "file_kind", "quarantine", "read_limited", "real_path",
           "remove_stale_temps"]

_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp")
"""Temporary files made by ``atomic_write``: ``.NAME.PID.RANDOM.tmp``."""


def atomic_write(path: str | os.PathLike[str], data: bytes, *, mode: int | None = None,
                 follow_links: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically; create the folder if needed; return the path.

    Args:
        path: the file to write (replaced if it exists; a symbolic link stays a link and its
            target is written, unless ``follow_links`` is False).
        data: its new bytes.
        mode: permission bits for a new file; default: an existing file's, else rw-r--r--
            (``mkstemp`` alone would make it private).
        follow_links: False for a file of the data folder: a link at ``path`` is refused,
            no folder is created (the caller made it, ``asteroids.datafolder.make_folder``),
            and the rename replaces the name itself, never a link's target.

    Returns:
        ``path`` as given (not the link's target).

    Raises:
        NotRegularFile: ``path`` is a named pipe, device, socket or folder (nothing written).
        LinkRefused: ``follow_links`` is False and ``path`` is a symbolic link.
        OSError: when the folder cannot be created or written (full disk, read-only
            folder, no permission, the folder is a file). The old file is then unchanged
            and no temporary file remains.
    """
    target = real_path(path) if follow_links else Path(path)
    try:
        st = os.stat(target) if follow_links else os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        pass
    else:
        if stat.S_ISLNK(st.st_mode):
            raise LinkRefused(path)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, st.st_mode)
    if follow_links:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.",
                               suffix=".tmp")
    try:
        if mode is None:
            try:
                mode = os.stat(target, follow_symlinks=follow_links).st_mode & 0o777
            except OSError:
                mode = 0o644
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)
    return Path(path)


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` with symbolic links followed (as far as they lead): the file that a write
    replaces and beside which its temporary, backup and lock files go."""
    return Path(os.path.realpath(path))


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX; Windows has no folder handles to fsync)."""
    if os.name != "posix":
        return
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (another game may be writing that temp file)."""
    if pid == os.getpid() or pid <= 0:
        return False  # ours: writes are synchronous, so a leftover of ours is stale
    if os.name != "posix":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def remove_stale_temps(folder: str | os.PathLike[str], name: str | None = None) -> list[Path]:
    """Remove temporary files of interrupted ``atomic_write`` calls in ``folder``.

    Args:
        folder: where to look (a missing folder is fine).
        name: only the temporaries of this file name (e.g. ``"scores.json"``); None: all.

    Returns:
        The files removed. A temporary file of a process that still runs is left alone (it
        may be another game's write in progress); errors are ignored (the next load tries
        again).
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP.fullmatch(entry.name)
        if not match or (name is not None and match["name"] != name):
            continue
        if _alive(int(match["pid"])):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


class FileTooLarge(OSError):
    """The file holds more than the reader's limit (it was not read, or only one byte past
    the limit). ``size`` is its size in bytes, or None when unknown (standard input)."""

    def __init__(self, limit: int, size: int | None = None) -> None:
        what = f"{size} bytes; the limit is {limit}" if size is not None else f"over {limit} bytes"
        super().__init__(f"the file is too large ({what})")
        self.limit = limit
        self.size = size


def file_kind(mode: int) -> str:
    """What a ``stat`` mode is, in words: ``a named pipe``, ``a folder``, ``a regular file``."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


class NotRegularFile(OSError):
    """A named pipe, device, socket or folder where a regular file was expected: it is
    neither read (reading a pipe would block) nor replaced. ``strerror`` says what it is."""

    def __init__(self, path: str | os.PathLike[str], mode: int, hint: str = "") -> None:
        code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
        super().__init__(code, f"it is {file_kind(mode)}, not a regular file{hint}",
                         os.fspath(path))
        self.kind = file_kind(mode)
        """``a named pipe``, ``a folder``, ... (``file_kind``)."""


class LinkRefused(OSError):
    """A symbolic link where a file or folder of the data folder was expected: the game
    follows no link inside its data folder (one could lead anywhere: a write through it
    would change a file elsewhere), so nothing is read, written, renamed or created
    through it. ``strerror`` says so in one line; ``filename`` is the link."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            dangling = not os.path.exists(path)
        except OSError:
            dangling = False
        what = "a dangling symbolic link" if dangling else "a symbolic link"
        super().__init__(errno.ELOOP, f"it is {what}; links inside the data folder are not "
                         "followed (replace it with a regular file or folder)",
                         os.fspath(path))


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_BINARY", 0))
"""Non-blocking: opening a named pipe with no writer would otherwise wait forever."""


def read_limited(path: str | os.PathLike[str], limit: int, *,
                 follow_links: bool = True) -> bytes:
    """The whole of a regular file, refusing one over ``limit`` bytes before reading it.

    Anything but a regular file (a named pipe, a device, a folder) is refused without
    blocking: it is checked before opening, and the open itself does not wait. With
    ``follow_links`` False (the data folder) a symbolic link is refused too, also one put
    there between the check and the open (``O_NOFOLLOW``).

    Raises:
        FileNotFoundError: no such file.
        NotRegularFile: not a regular file (nothing read).
        LinkRefused: a link, with ``follow_links`` False.
        FileTooLarge: over the limit.
        OSError: unreadable (permission, an I/O error).
    """
    st = os.stat(path) if follow_links else os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise LinkRefused(path)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path, st.st_mode)
    try:
        fd = os.open(path, _READ_FLAGS | (0 if follow_links else _NOFOLLOW))
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise LinkRefused(path) from None
        raise
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between the stat and the open
            raise NotRegularFile(path, st.st_mode)
        if st.st_size > limit:
            raise FileTooLarge(limit, st.st_size)
        data = fh.read(limit + 1)
    if len(data) > limit:  # grew meanwhile
        raise FileTooLarge(limit)
    return data


def quarantine(path: str | os.PathLike[str], *, copy: bool = False,
               now: datetime | None = None, follow_links: bool = True) -> Path:
    """Move (or copy) ``path`` aside as ``NAME.corrupt-YYYYMMDDTHHMMSSZ`` and return the new
    path; ``-2``, ``-3``, ... are added if that name is taken. Never deletes anything.

    A symbolic link is followed: its target is moved (or copied) aside beside itself, and the
    link stays, so that the next write through it makes a new target. With ``follow_links``
    False (the data folder) a link is refused instead, and the copy is made as a new file
    that no link can redirect.

    Raises:
        LinkRefused: ``path`` is a link, with ``follow_links`` False.
        OSError: when the file cannot be moved or copied.
    """
    source = real_path(path) if follow_links else Path(path)
    if not follow_links and os.path.islink(source):
        raise LinkRefused(path)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = source.with_name(f"{source.name}.corrupt-{stamp}")
    candidate, n = base, 2
    while os.path.lexists(candidate):
        candidate = base.with_name(f"{base.name}-{n}")
        n += 1
    if copy and follow_links:
        shutil.copy2(source, candidate)
    elif copy:
        _copy_new(source, candidate)
    else:
        os.replace(source, candidate)
    return candidate


def _copy_new(source: Path, target: Path) -> None:
    """Copy a regular file to a name that must not exist yet (``O_EXCL``: a link put there
    meanwhile makes it fail rather than write through it)."""
    st = os.lstat(source)
    data = read_limited(source, st.st_size, follow_links=False)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
                 | getattr(os, "O_BINARY", 0), st.st_mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    shutil.copystat(source, target, follow_symlinks=False)


def describe_os_error(exc: BaseException) -> str:
    """A few words for a failed read or write: ``No space left on device``."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
