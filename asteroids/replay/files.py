"""Saving and loading replay files: atomic writes, bounded reads."""

from __future__ import annotations

import os
from pathlib import Path

from asteroids.replay.format import (
    MAX_REPLAY_BYTES,
    Replay,
    ReplayError,
    decode_replay,
    encode_replay,
)
from asteroids.storage import atomic_write

__all__ = ["load_replay", "save_replay"]


def save_replay(replay: Replay, path: str | os.PathLike[str]) -> Path:
    """Write ``replay`` to ``path`` atomically and return the path.

    The bytes go to a temporary file in the same folder, which is flushed and fsynced, then
    renamed over ``path`` (``os.replace``), and the folder is fsynced. A failure at any point
    leaves no partial file and keeps an existing file as it was. The folder is created if
    needed (``asteroids.storage.atomic_write``).

    Raises:
        OSError: when the folder cannot be created or written.
    """
    return atomic_write(path, encode_replay(replay))


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and check a replay file.

    Files over ``MAX_REPLAY_BYTES`` are refused before they are read.

    Raises:
        ReplayError: the one-paragraph reason the file cannot be used (missing, unreadable,
            oversized, not a replay, another format version, truncated, damaged, edited).
    """
    name = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_REPLAY_BYTES:
                raise ReplayError(name, _too_big(size))
            data = fh.read(MAX_REPLAY_BYTES + 1)
    except OSError as exc:
        raise ReplayError(name, f"cannot read the file: {exc.strerror or exc}.") from None
    if len(data) > MAX_REPLAY_BYTES:  # grew, or not a regular file
        raise ReplayError(name, _too_big(len(data)))
    return decode_replay(data, name)


def _too_big(size: int) -> str:
    return (f"the file is too large to be a replay ({size} bytes; replays over "
            f"{MAX_REPLAY_BYTES // (1024 * 1024)} MiB, {MAX_REPLAY_BYTES} bytes, are refused).")
