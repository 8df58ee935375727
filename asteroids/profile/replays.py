"""Pruning the replay folder: old unreferenced games go, table entries' replays stay.

No arcade here.
"""

from __future__ import annotations

import os
from pathlib import Path

from asteroids.datafolder import refuse_links
from asteroids.storage import remove_stale_temps

__all__ = ["prune_replays"]


def prune_replays(folder: Path, keep: int, referenced: set[str], *,
                  root: Path | None = None) -> list[Path]:
    """Delete the oldest ``*.replay`` files in ``folder`` that no high-score table refers to,
    keeping the newest ``keep`` of those unreferenced ones.

    Replays named in ``referenced`` (``ScoreBook.referenced_replays()``) are never deleted
    and do not count towards ``keep``. Age is the file's modification time, then its name
    (the game's names start with the UTC time). Stale temporary files of interrupted saves
    are removed too. Errors (a missing folder, a file that cannot be deleted) are skipped.

    Args:
        folder: the replay folder (``asteroids.paths.replays_dir()``).
        keep: unreferenced replays to keep (``[storage] keep_replays``), 0 or more.
        referenced: replay file names that must stay.
        root: the data folder ``folder`` is in: when ``folder`` (or a folder between) is a
            symbolic link, nothing is pruned (``asteroids.datafolder``); links in ``folder``
            are never candidates either way.

    Returns:
        The files deleted, oldest first.

    Raises:
        ValueError: ``keep`` is negative.
        LinkRefused: ``folder`` is a link below ``root`` (nothing deleted).
    """
    if keep < 0:
        raise ValueError(f"keep must be 0 or more; got {keep}")
    refuse_links(folder, root if root is not None else folder.parent)
    remove_stale_temps(folder)
    candidates: list[tuple[float, str, Path]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        if not name.endswith(".replay") or name.startswith(".") or name in referenced:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            mtime = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        candidates.append((mtime, name, Path(entry.path)))
    candidates.sort()
    deleted: list[Path] = []
    for _, _, path in candidates[: max(0, len(candidates) - keep)]:
        try:
            path.unlink()
        except OSError:
            continue
        deleted.append(path)
    return deleted
