"""High-score tables: top 10 per ruleset, kept in ``data_dir()/scores.json``.

The file (``schema_version`` 1)::

    {"schema_version": 1,
     "tables": {"classic": [{"initials": "ABC", "score": 12340, "wave": 4,
                             "date": "2026-11-23T17:05:00Z", "play_seconds": 312.5,
                             "replay": "2026-11-23T17-05-00Z-seed1-score12340.replay"}, ...],
                ...}}

``ScoreBook.load`` never raises: a file that cannot be used (not JSON, binary, truncated,
empty, over ``MAX_FILE_BYTES``, unreadable) is moved aside as
``scores.json.corrupt-<UTC time>`` and the game starts with empty tables; single bad
entries are dropped (the original file is first copied aside the same way); each problem
becomes one line in ``warnings``. A file from a newer version of the game
(``schema_version`` > ``SCHEMA_VERSION``) is read as far as it can be and never
overwritten. ``save`` never raises either: it returns a one-line reason, the tables stay in
memory and the next ``save`` tries again. No arcade here.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from asteroids.paths import data_dir
from asteroids.profile.rulesets import is_ruleset_key
from asteroids.storage import (
    FileTooLarge,
    atomic_write,
    describe_os_error,
    quarantine,
    read_limited,
    remove_stale_temps,
)

__all__ = ["MAX_ENTRIES", "MAX_FILE_BYTES", "SCHEMA_VERSION", "SCORES_FILE", "ScoreBook",
           "ScoreEntry", "ScoreFileError", "entry_from_json", "entry_to_json", "now_iso",
           "parse_scores", "valid_initials", "valid_replay_name"]

MAX_ENTRIES = 10
"""Entries kept per table."""
SCHEMA_VERSION = 1
"""The ``schema_version`` this version writes."""
SCORES_FILE = "scores.json"
"""The file's name inside ``data_dir()``."""
MAX_FILE_BYTES = 1024 * 1024
"""Largest scores file read (1 MiB: about 500 full tables); bigger ones are set aside."""
MAX_SCORE = 2**63 - 1
MAX_WAVE = 1_000_000
MAX_PLAY_SECONDS = 10_000_000.0
"""About 116 days: longer than any replay may last."""

_INITIALS = re.compile(r"[A-Z?]{3}")
_REPLAY_NAME = re.compile(r"[^/\\\x00-\x1f\x7f]{1,255}")
"""A replay is named by one plain file name (no folder part, no control characters)."""
_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]00:00)")
_ENTRY_KEYS = ("initials", "score", "wave", "date", "play_seconds", "replay")


class ScoreFileError(ValueError):
    """A scores file that cannot be used; ``str()`` is one paragraph naming the file."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


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
    missing = [k for k in _ENTRY_KEYS if k not in raw]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    initials, score, wave = raw["initials"], raw["score"], raw["wave"]
    date, seconds, replay = raw["date"], raw["play_seconds"], raw["replay"]
    if not valid_initials(initials):
        raise ValueError(f"initials must be 3 of A-Z or '?'; got {_short(initials)}")
    if not _is_int(score) or not 0 <= score <= MAX_SCORE:
        raise ValueError(f"score must be a whole number in [0, 2**63-1]; got {_short(score)}")
    if not _is_int(wave) or not 0 <= wave <= MAX_WAVE:
        raise ValueError(f"wave must be a whole number in [0, {MAX_WAVE}]; got {_short(wave)}")
    if not isinstance(date, str) or not _DATE.fullmatch(date) or not _date_ok(date):
        raise ValueError(f"date must be ISO 8601 UTC (2026-11-23T17:05:00Z); got {_short(date)}")
    if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
            or not math.isfinite(seconds) or not 0 <= seconds <= MAX_PLAY_SECONDS):
        raise ValueError(f"play_seconds must be a number in [0, {MAX_PLAY_SECONDS:.0f}]; "
                         f"got {_short(seconds)}")
    if replay is not None and not valid_replay_name(replay):
        raise ValueError(f"replay must be null or a file name without a folder; "
                         f"got {_short(replay)}")
    return ScoreEntry(initials, score, wave, date, float(seconds), replay)


def _date_ok(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def entry_to_json(entry: ScoreEntry) -> dict[str, Any]:
    """The entry as the file stores it."""
    return {"initials": entry.initials, "score": entry.score, "wave": entry.wave,
            "date": entry.date, "play_seconds": entry.play_seconds, "replay": entry.replay}


def _order(entry: ScoreEntry) -> tuple[int, str]:
    # Best first; on equal scores the earlier game keeps the higher place (arcade rule).
    return (-entry.score, entry.date)


def _top(entries: list[ScoreEntry]) -> list[ScoreEntry]:
    unique: list[ScoreEntry] = []
    for e in sorted(entries, key=_order):
        if e not in unique:
            unique.append(e)
    return unique[:MAX_ENTRIES]


@dataclass
class ParsedScores:
    """What ``parse_scores`` found."""

    version: int
    tables: dict[str, list[ScoreEntry]]
    dropped: list[str]
    """One description per entry or table left out (bad or beyond the top 10)."""


def parse_scores(data: bytes, name: str = SCORES_FILE) -> ParsedScores:
    """Read a scores file's bytes. Bad entries are left out and described in ``dropped``.

    Raises:
        ScoreFileError: the file as a whole is unusable (empty, not UTF-8 JSON, not an
            object, no usable ``schema_version``, no ``tables`` object). Nothing else.
    """
    if not data.strip():
        raise ScoreFileError(name, "the file is empty.")
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ScoreFileError(name, "not a scores file: it is not UTF-8 text.") from None
    except RecursionError:
        raise ScoreFileError(name, "not a scores file: nested too deeply.") from None
    except ValueError as exc:
        raise ScoreFileError(name, f"not a scores file: damaged or truncated JSON "
                             f"({_first_line(exc)}).") from None
    if not isinstance(doc, dict):
        raise ScoreFileError(name, f"not a scores file: a JSON object was expected; got "
                             f"{type(doc).__name__}.")
    version = doc.get("schema_version")
    if not _is_int(version) or version < 1:
        raise ScoreFileError(name, f"not a scores file: schema_version must be a whole number "
                             f"1 or more; got {_short(version)}.")
    tables = doc.get("tables")
    if not isinstance(tables, dict):
        raise ScoreFileError(name, "not a scores file: 'tables' must be an object of "
                             "ruleset -> list of entries.")
    out: dict[str, list[ScoreEntry]] = {}
    dropped: list[str] = []
    for key, raw_entries in tables.items():
        if not is_ruleset_key(key):
            dropped.append(f"table {_short(key)}: not a ruleset name")
            continue
        if not isinstance(raw_entries, list):
            dropped.append(f"table {key!r}: must be a list of entries")
            continue
        good: list[ScoreEntry] = []
        for index, raw in enumerate(raw_entries):
            try:
                good.append(entry_from_json(raw))
            except ValueError as exc:
                dropped.append(f"table {key!r} entry {index + 1}: {exc}")
        top = _top(good)
        if len(good) > len(top):
            dropped.append(f"table {key!r}: {len(good) - len(top)} entries beyond the top "
                           f"{MAX_ENTRIES} or repeated")
        if top:
            out[key] = top
    return ParsedScores(version, out, dropped)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def dump_scores(tables: dict[str, list[ScoreEntry]]) -> bytes:
    """The file's bytes for ``tables`` (keys sorted, one entry per line)."""
    lines = [f'{{"schema_version": {SCHEMA_VERSION}, "tables": {{']
    keys = [k for k in sorted(tables) if tables[k]]
    for i, key in enumerate(keys):
        lines.append(f"  {json.dumps(key)}: [")
        rows = [json.dumps(entry_to_json(e)) for e in tables[key]]
        lines.append(",\n".join(f"    {r}" for r in rows))
        lines.append("  ]" + ("," if i < len(keys) - 1 else ""))
    lines.append("}}")
    return ("\n".join(lines) + "\n").encode("utf-8")


class ScoreBook:
    """Every high-score table, loaded from and saved to one file.

    Build it with ``ScoreBook.load()``; ``ScoreBook()`` is an empty book for
    ``data_dir()/scores.json`` that has not read the file.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path: Path = path if path is not None else data_dir() / SCORES_FILE
        """Where the book is saved."""
        self.warnings: list[str] = []
        """One-line messages for the player (a file set aside, entries dropped, a failed
        save); the caller shows and clears them."""
        self._tables: dict[str, list[ScoreEntry]] = {}
        self._read_only: str | None = None
        """Why ``save`` must not write (a newer version's file, one that could not be
        moved aside); None when it may."""

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None) -> ScoreBook:
        """Read the scores file (default ``data_dir()/scores.json``); never raises.

        Stale temporary files of an interrupted save are removed first. A missing file is an
        empty book; a file that cannot be used is moved aside (see the module's docstring).
        """
        book = cls(path)
        remove_stale_temps(book.path.parent, book.path.name)
        try:
            data = read_limited(book.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            return book
        except FileTooLarge as exc:
            book._set_aside(f"{exc}")
            return book
        except OSError as exc:
            problem = _folder_problem(book.path)
            if problem:
                book.warnings.append(f"high scores cannot be kept: {problem}")
                return book
            book._set_aside(f"cannot read it ({describe_os_error(exc)})")
            return book
        try:
            parsed = parse_scores(data, str(book.path))
        except ScoreFileError as exc:
            book._set_aside(exc.problem.rstrip("."))
            return book
        book._tables = parsed.tables
        if parsed.version > SCHEMA_VERSION:
            book._read_only = (f"high scores not saved: {book.path.name} was written by a "
                               f"newer version of the game (schema {parsed.version}); it is "
                               "kept as it is")
            book.warnings.append(f"{book.path.name} is from a newer version of the game: "
                                 "shown, but new scores are not saved to it")
        elif parsed.dropped:
            try:
                backup = quarantine(book.path, copy=True)
                where = f"the original is kept as {backup.name}"
            except OSError as exc:
                book._read_only = (f"high scores not saved: {book.path.name} had bad entries "
                                   f"and could not be backed up ({describe_os_error(exc)})")
                where = "it is not overwritten"
            book.warnings.append(f"{book.path.name}: {len(parsed.dropped)} bad entr"
                                 f"{'y' if len(parsed.dropped) == 1 else 'ies'} left out "
                                 f"({parsed.dropped[0]}); {where}")
        return book

    def _set_aside(self, problem: str) -> None:
        """Move the unusable file aside and start empty (or, if it cannot be moved, refuse
        to overwrite it)."""
        try:
            moved = quarantine(self.path)
        except OSError as exc:
            self._read_only = (f"high scores not saved: {self.path.name} is unusable and could "
                               f"not be moved aside ({describe_os_error(exc)})")
            self.warnings.append(f"{self.path}: {problem}; it could not be moved aside "
                                 f"({describe_os_error(exc)}), so new scores are not saved")
            return
        self.warnings.append(f"{self.path.name}: {problem}; moved aside as {moved.name}, "
                             "starting with empty high-score tables")

    # -- reading ---------------------------------------------------------------------------
    def keys(self) -> list[str]:
        """The rulesets that have a table, sorted."""
        return sorted(k for k, v in self._tables.items() if v)

    def table(self, key: str) -> list[ScoreEntry]:
        """The table for ``key``, best first, at most ``MAX_ENTRIES`` (a copy)."""
        return list(self._tables.get(key, ()))

    def best(self, key: str) -> int:
        """The top score for ``key``; 0 when the table is empty."""
        entries = self._tables.get(key)
        return entries[0].score if entries else 0

    def qualifies(self, key: str, score: int) -> bool:
        """Whether a game with ``score`` makes the table: more than 0 points, and the table
        is not full or the score beats its last entry (an equal score does not: the earlier
        game keeps its place)."""
        if score <= 0:
            return False
        entries = self._tables.get(key, [])
        return len(entries) < MAX_ENTRIES or score > entries[-1].score

    def referenced_replays(self) -> set[str]:
        """The replay file names any table points to (never pruned)."""
        return {e.replay for entries in self._tables.values() for e in entries
                if e.replay is not None}

    @property
    def read_only(self) -> str | None:
        """Why ``save`` will not write, or None."""
        return self._read_only

    # -- changing --------------------------------------------------------------------------
    def add(self, key: str, entry: ScoreEntry) -> int:
        """Put ``entry`` into the table for ``key``; return its 0-based rank, or -1 when it
        did not make the table (see ``qualifies``). Does not save.

        A ``replay`` that is not a plain file name (a path) is stored as None.

        Raises:
            ValueError: a malformed key or entry (a bug in the caller).
        """
        if not is_ruleset_key(key):
            raise ValueError(f"not a ruleset key: {key!r}")
        if entry.replay is not None and not valid_replay_name(entry.replay):
            # A replay saved outside replays_dir() (``--record FILE``): keep the score,
            # without a link the table could not follow.
            entry = ScoreEntry(entry.initials, entry.score, entry.wave, entry.date,
                               entry.play_seconds, None)
        entry_from_json(entry_to_json(entry))  # the same checks as a loaded entry
        if not self.qualifies(key, entry.score):
            return -1
        entries = self._tables.setdefault(key, [])
        rank = sum(1 for e in entries if e.score >= entry.score)
        entries.insert(rank, entry)
        del entries[MAX_ENTRIES:]
        return rank

    def set_initials(self, key: str, rank: int, initials: str) -> None:
        """Replace the initials of the entry at ``rank`` (after initials entry). Does not save.

        Raises:
            ValueError: ``initials`` is not 3 of A-Z or ``?``.
            IndexError: no entry at ``rank``.
        """
        if not valid_initials(initials):
            raise ValueError(f"initials must be 3 of A-Z or '?'; got {initials!r}")
        entries = self._tables.get(key, [])
        if not 0 <= rank < len(entries):
            raise IndexError(f"no entry {rank} in table {key!r}")
        old = entries[rank]
        entries[rank] = ScoreEntry(initials, old.score, old.wave, old.date, old.play_seconds,
                                   old.replay)

    def merge(self, tables: dict[str, list[ScoreEntry]]) -> int:
        """Add every entry of ``tables`` (an import); repeated entries are kept once and each
        table keeps its top ``MAX_ENTRIES``. Returns how many entries are new in the book."""
        before = {(k, e) for k, v in self._tables.items() for e in v}
        for key, entries in tables.items():
            if not is_ruleset_key(key):
                raise ValueError(f"not a ruleset key: {key!r}")
            self._tables[key] = _top(self._tables.get(key, []) + list(entries))
        after = {(k, e) for k, v in self._tables.items() for e in v}
        return len(after - before)

    def clear(self, key: str | None = None) -> None:
        """Empty one table, or every table when ``key`` is None. Does not save."""
        if key is None:
            self._tables.clear()
        else:
            self._tables.pop(key, None)

    def tables(self) -> dict[str, list[ScoreEntry]]:
        """Every non-empty table (copies), by key."""
        return {k: list(v) for k, v in sorted(self._tables.items()) if v}

    def to_bytes(self) -> bytes:
        """The file's bytes (also the export format)."""
        return dump_scores(self._tables)

    # -- saving ----------------------------------------------------------------------------
    def save(self) -> str | None:
        """Write the book atomically. Returns None when saved, else one line saying why not
        (the tables stay in memory; call ``save`` again later). Never raises."""
        if self._read_only is not None:
            return self._read_only
        try:
            atomic_write(self.path, self.to_bytes())
        except OSError as exc:
            problem = _folder_problem(self.path) or f"{self.path}: {describe_os_error(exc)}"
            return f"high scores not saved: {problem}"
        return None


def _folder_problem(path: Path) -> str:
    """``"/x is a file, not a folder"`` when a folder above ``path`` is a file, else ""."""
    for folder in path.parents:
        try:
            if folder.exists() and not folder.is_dir():
                return f"{folder} is a file, not a folder"
        except OSError:
            return ""
    return ""
