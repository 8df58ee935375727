"""Saving and loading replay files: atomic writes; bounded reads of regular files only."""

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
from asteroids.userfile import FileTooLarge, display_name, read_user_file

__all__ = ["load_replay", "read_replay_bytes", "save_replay"]


def save_replay(replay: Replay, path: str | os.PathLike[str], *,
                follow_links: bool = True) -> Path:
    """Write ``replay`` to ``path`` atomically and return the path.

    The bytes go to a temporary file in the same folder, which is flushed and fsynced, then
    renamed over ``path`` (``os.replace``), and the folder is fsynced. A failure at any point
    leaves no partial file and keeps an existing file as it was. The folder is created if
    needed (``asteroids.storage.atomic_write``). ``follow_links`` False (the data folder's
    replays): a link at ``path`` is refused and no folder is created.

    Raises:
        LinkRefused: ``path`` is a link, with ``follow_links`` False.
        OSError: when the folder cannot be created or written.
    """
    return atomic_write(path, encode_replay(replay), follow_links=follow_links)


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and check a replay file.

    Files over ``MAX_REPLAY_BYTES`` are refused before they are read, and so is anything
    but a regular file (a folder, a named pipe, a device); ``-`` reads standard input.

    Raises:
        ReplayError: the one-paragraph reason the file cannot be used (missing, unreadable,
            not a regular file, oversized, not a replay, another format version, truncated,
            damaged, edited).
    """
    return decode_replay(read_replay_bytes(path), display_name(path))


def read_replay_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a replay file, read as ``load_replay`` reads them, not yet checked.

    Raises:
        ReplayError: the file cannot be read (missing, unreadable, not a regular file,
            oversized).
    """
    name = display_name(path)
    try:
        return read_user_file(path, MAX_REPLAY_BYTES)
    except FileTooLarge as exc:
        raise ReplayError(name, _too_big(exc.size)) from None
    except OSError as exc:
        raise ReplayError(name, f"cannot read the file: {exc.strerror or exc}.") from None


def _too_big(size: int | None) -> str:
    shown = f"{size} bytes" if size is not None else f"more than {MAX_REPLAY_BYTES} bytes"
    return (f"the file is too large to be a replay ({shown}; replays over "
            f"{MAX_REPLAY_BYTES // (1024 * 1024)} MiB, {MAX_REPLAY_BYTES} bytes, are refused).")
