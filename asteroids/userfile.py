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

from asteroids.storage import FileTooLarge, NotRegularFile, read_limited

__all__ = ["STDIN", "FileTooLarge", "NotRegularFile", "display_name", "read_user_file"]

STDIN = "-"
"""The file name that means standard input."""

_stdin = bytearray()
_stdin_eof = False


def display_name(path: str | os.PathLike[str]) -> str:
    """How messages name ``path``: as given, or ``<stdin>`` for ``-``."""
    name = os.fspath(path)
    return "<stdin>" if name == STDIN else name


_PIPE_HINT = " (to read from a pipe, give '-' and redirect the pipe to standard input)"


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
        NotRegularFile: a folder, named pipe, device or socket (nothing is read); for a pipe
            the message says to pass ``-``.
        FileTooLarge: more than ``limit`` bytes (a regular file's size is known before
            reading; standard input is read only up to ``limit + 1`` bytes).
        OSError: the file cannot be opened or read (``strerror`` says why).
    """
    if os.fspath(path) == STDIN:
        data = _read_stdin(limit)
        if len(data) > limit:
            raise FileTooLarge(limit)
        return data
    try:
        return read_limited(path, limit)
    except NotRegularFile as exc:
        if exc.kind != "a named pipe":
            raise
        raise NotRegularFile(path, stat.S_IFIFO, _PIPE_HINT) from None
