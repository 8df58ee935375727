"""Read a file the user named: regular files only, never blocking, bounded; ``-`` is stdin.

Opening a named pipe for reading waits until something writes to it, so ``asteroids verify
PIPE`` would hang for ever, and a device such as ``/dev/zero`` never ends. Files are opened
with ``O_NONBLOCK`` (which makes ``open`` return at once even on a pipe) and checked with
``fstat`` on the open descriptor (so a file swapped between a check and the open is still
seen); anything but a regular file is refused with one sentence saying what it is. A pipe is
read only when the user asks for it by passing ``-``: standard input, read once per process
(so ``--config -`` given to a command that loads its settings twice reads the same bytes).
"""

from __future__ import annotations

import errno
import os
import stat
import sys

__all__ = ["STDIN", "FileTooLarge", "NotARegularFile", "display_name", "read_user_file"]

STDIN = "-"
"""The file name that means standard input."""

_stdin = bytearray()
_stdin_eof = False


class NotARegularFile(OSError):
    """The path names a folder, pipe, device or socket; ``strerror`` says which."""


class FileTooLarge(OSError):
    """The file holds more than the caller's limit; ``size`` is its size in bytes, or None
    when unknown (standard input is read only up to one byte past the limit)."""

    def __init__(self, size: int | None, limit: int) -> None:
        shown = f" ({size} bytes)" if size is not None else ""
        super().__init__(errno.EFBIG, f"the file is larger than {limit} bytes{shown}")
        self.size = size


def display_name(path: str | os.PathLike[str]) -> str:
    """How messages name ``path``: as given, or ``<stdin>`` for ``-``."""
    name = os.fspath(path)
    return "<stdin>" if name == STDIN else name


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(mode: int) -> NotARegularFile:
    what = _kind(mode)
    text = what if what.startswith("not") else f"{what}, not a regular file"
    if stat.S_ISFIFO(mode):
        text += " (to read from a pipe, give '-' and redirect the pipe to standard input)"
    return NotARegularFile(errno.EINVAL, f"it is {text}")


def _read_stdin(limit: int) -> bytes:
    global _stdin_eof
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise OSError(errno.EBADF, "there is no standard input to read")
    while not _stdin_eof and len(_stdin) <= limit:
        chunk = stream.read(limit + 1 - len(_stdin))
        if not chunk:
            _stdin_eof = True
        _stdin.extend(chunk)
    return bytes(_stdin[: limit + 1])


def read_user_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file (or of standard input for ``-``), at most ``limit``.

    Raises:
        NotARegularFile: a folder, named pipe, device or socket (nothing is read).
        FileTooLarge: more than ``limit`` bytes (a regular file's size is known before
            reading; standard input is read only up to ``limit + 1`` bytes).
        OSError: the file cannot be opened or read (``strerror`` says why).
    """
    if os.fspath(path) == STDIN:
        data = _read_stdin(limit)
        if len(data) > limit:
            raise FileTooLarge(None, limit)
        return data
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = stat.S_IFREG  # let open() give the reason (no such file, no permission, ...)
    if not stat.S_ISREG(mode):
        raise _refuse(mode)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(info.st_mode)
        if info.st_size > limit:
            raise FileTooLarge(info.st_size, limit)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # the file grew while it was read
        raise FileTooLarge(len(data), limit)
    return data
