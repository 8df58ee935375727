"""One high-score entry: its fields, the checks every entry passes (loaded, imported or
added), a table's order, and what tells one game's entry from another's. No arcade here."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from asteroids.profile.store import short

__all__ = ["ENTRY_KEYS", "MAX_ENTRIES", "MAX_PLAY_SECONDS", "MAX_SCORE", "MAX_WAVE", "Identity",
           "ScoreEntry", "entry_from_json", "entry_identity", "entry_to_json", "now_iso",
           "top_entries", "valid_initials", "valid_replay_name"]

MAX_ENTRIES = 10
"""Entries kept per table."""
MAX_SCORE = 2**63 - 1
MAX_WAVE = 1_000_000
MAX_PLAY_SECONDS = 10_000_000.0
"""About 116 days: longer than any replay may last."""

_INITIALS = re.compile(r"[A-Z?]{3}")
_REPLAY_NAME = re.compile(r"[^/\\\x00-\x1f\x7f]{1,255}")
"""A replay is named by one plain file name (no folder part, no control characters)."""
_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]00:00)")
ENTRY_KEYS = ("initials", "score", "wave", "date", "play_seconds", "replay")
"""An entry's fields, in the file's order."""


def valid_initials(text: object) -> bool:
    """Three characters, each ``A``-``Z`` or ``?`` (``???`` when entry timed out)."""
    return isinstance(text, str) and _INITIALS.fullmatch(text) is not None


def valid_replay_name(text: object) -> bool:
    """A plain file name: no folder part (``/``, ``\\``), not ``.`` or ``..``, no control
    characters, at most 255 characters."""
    return (isinstance(text, str) and text not in (".", "..")
            and _REPLAY_NAME.fullmatch(text) is not None)


def now_iso() -> str:
    """The current UTC time as the entries store it: ``2026-11-23T17:05:00Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class ScoreEntry:
    """One line of a high-score table."""

    initials: str
    """Three characters, ``A``-``Z`` or ``?`` (``???`` after an entry timeout)."""
    score: int
    wave: int
    date: str
    """When the game ended: ISO 8601 UTC, e.g. ``2026-11-23T17:05:00Z``."""
    play_seconds: float
    replay: str | None
    """The replay's file name inside ``replays_dir()``, or None (not saved)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def entry_from_json(raw: object) -> ScoreEntry:
    """Check one entry read from JSON.

    Raises:
        ValueError: naming the first bad field.
    """
    if not isinstance(raw, dict):
        raise ValueError(f"an entry must be an object; got {type(raw).__name__}")
    missing = [k for k in ENTRY_KEYS if k not in raw]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    initials, score, wave = raw["initials"], raw["score"], raw["wave"]
    date, seconds, replay = raw["date"], raw["play_seconds"], raw["replay"]
    if not valid_initials(initials):
        raise ValueError(f"initials must be 3 of A-Z or '?'; got {short(initials)}")
    if not _is_int(score) or not 0 <= score <= MAX_SCORE:
        raise ValueError(f"score must be a whole number in [0, 2**63-1]; got {short(score)}")
    if not _is_int(wave) or not 0 <= wave <= MAX_WAVE:
        raise ValueError(f"wave must be a whole number in [0, {MAX_WAVE}]; got {short(wave)}")
    if not isinstance(date, str) or not _DATE.fullmatch(date) or not _date_ok(date):
        raise ValueError(f"date must be ISO 8601 UTC (2026-11-23T17:05:00Z); got {short(date)}")
    if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
            or not math.isfinite(seconds) or not 0 <= seconds <= MAX_PLAY_SECONDS):
        raise ValueError(f"play_seconds must be a number in [0, {MAX_PLAY_SECONDS:.0f}]; "
                         f"got {short(seconds)}")
    if replay is not None and not valid_replay_name(replay):
        raise ValueError(f"replay must be null or a file name without a folder; "
                         f"got {short(replay)}")
    return ScoreEntry(initials, score, wave, date, float(seconds), replay)


def _date_ok(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def entry_to_json(entry: ScoreEntry) -> dict[str, Any]:
    """The entry as the file stores it."""
    return {"initials": entry.initials, "score": entry.score, "wave": entry.wave,
            "date": entry.date, "play_seconds": entry.play_seconds, "replay": entry.replay}


def _order(entry: ScoreEntry) -> tuple[int, str]:
    # Best first; on equal scores the earlier game keeps the higher place (arcade rule).
    return (-entry.score, entry.date)


def top_entries(entries: list[ScoreEntry]) -> list[ScoreEntry]:
    """A table made of ``entries``: best first, each entry once, at most ``MAX_ENTRIES``."""
    unique: list[ScoreEntry] = []
    for e in sorted(entries, key=_order):
        if e not in unique:
            unique.append(e)
    return unique[:MAX_ENTRIES]


Identity = tuple[int, int, str, float, str | None]
"""Score, wave, date, play time and replay of an entry (``entry_identity``)."""


def entry_identity(entry: ScoreEntry) -> Identity:
    """What tells one game from another: everything but the initials, which change."""
    return (entry.score, entry.wave, entry.date, entry.play_seconds, entry.replay)
