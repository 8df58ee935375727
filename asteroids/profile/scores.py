"""High-score tables: top 10 per ruleset, kept in ``data_dir()/scores.json``.

The file (``schema_version`` 1)::

    {"schema_version": 1,
     "tables": {"classic": [{"initials": "ABC", "score": 12340, "wave": 4,
                             "date": "2026-11-23T17:05:00Z", "play_seconds": 312.5,
                             "replay": "2026-11-23T17-05-00Z-seed1-score12340.replay"}, ...],
                ...}}

It goes through the player's-files store (``asteroids.profile.store``): ``ScoreBook.load``
never raises; a file that cannot be used (not JSON, binary, truncated, empty, over
``MAX_FILE_BYTES``, unreadable) is moved aside as ``scores.json.corrupt-<UTC time>`` and the
game starts with empty tables; single bad entries are left out (the original is copied aside
the same way before the file is next written); a named pipe or other special file is not
read and never replaced; a read-only file, or one from a newer version of the game
(``schema_version`` > ``SCHEMA_VERSION``), is read as far as it can be and never
overwritten. Each problem is one line in ``warnings``.

``save`` merges: under the store's lock it reads the file again and replays this book's
changes since its last save (entries added, initials set, entries cleared) onto what is
there, so two game windows, or a window and ``asteroids scores --import``, keep every entry.
An entry is known by everything but its initials (score, wave, date, play time, replay), so
initials typed after the entry was first saved reach the right entry wherever it now ranks.
``save`` never raises either: it returns a one-line reason, the tables and the unsaved
changes stay in memory and the next ``save`` tries again. No arcade here.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asteroids.paths import data_dir
from asteroids.profile.entries import (
    ENTRY_KEYS,
    MAX_ENTRIES,
    ScoreEntry,
    entry_from_json,
    entry_identity,
    entry_to_json,
    now_iso,
    top_entries,
    valid_initials,
    valid_replay_name,
)
from asteroids.profile.rulesets import is_ruleset_key
from asteroids.profile.store import (
    FileFormat,
    Reading,
    Store,
    StoreFileError,
    decode_document,
    plain_extras,
    short,
)

__all__ = ["MAX_ENTRIES", "MAX_FILE_BYTES", "SCHEMA_VERSION", "SCORES_FILE", "SCORES_FORMAT",
           "ParsedScores", "ScoreBook", "ScoreEntry", "ScoreFileError", "dump_scores",
           "entry_from_json", "entry_to_json", "now_iso", "parse_scores", "valid_initials",
           "valid_replay_name"]

SCHEMA_VERSION = 1
"""The ``schema_version`` this version writes."""
SCORES_FILE = "scores.json"
"""The file's name inside ``data_dir()``."""
MAX_FILE_BYTES = 1024 * 1024
"""Largest scores file read (1 MiB: about 500 full tables); bigger ones are set aside."""


class ScoreFileError(StoreFileError):
    """A scores file that cannot be used; ``str()`` is one paragraph naming the file."""


@dataclass
class ParsedScores:
    """What ``parse_scores`` found."""

    version: int
    tables: dict[str, list[ScoreEntry]]
    dropped: list[str]
    """One description per entry or table left out (bad or beyond the top 10)."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Top-level fields this version does not know, written back as they are."""


def _parse_document(doc: dict[str, Any], version: int, name: str) -> tuple[ParsedScores, list[str]]:
    """The store's ``parse`` for scores files (see ``FileFormat``)."""
    tables = doc.get("tables")
    if not isinstance(tables, dict):
        raise ScoreFileError(name, "not a scores file: 'tables' must be an object of "
                             "ruleset -> list of entries")
    out: dict[str, list[ScoreEntry]] = {}
    dropped: list[str] = []
    for key, raw_entries in tables.items():
        if not is_ruleset_key(key):
            dropped.append(f"table {short(key)}: not a ruleset name")
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
                continue
            unknown = [k for k in raw if k not in ENTRY_KEYS]
            if unknown and version <= SCHEMA_VERSION:  # a newer version's fields are expected
                dropped.append(f"table {key!r} entry {index + 1}: unknown field "
                               f"{short(unknown[0])}")
        top = top_entries(good)
        if len(good) > len(top):
            dropped.append(f"table {key!r}: {len(good) - len(top)} entries beyond the top "
                           f"{MAX_ENTRIES} or repeated")
        if top:
            out[key] = top
    extras = plain_extras(doc, ("tables",), dropped)
    return ParsedScores(version, out, dropped, extras), dropped


def parse_scores(data: bytes, name: str = SCORES_FILE) -> ParsedScores:
    """Read a scores file's bytes. Bad entries are left out and described in ``dropped``.

    Raises:
        ScoreFileError: the file as a whole is unusable (empty, not UTF-8 JSON, not an
            object, no usable ``schema_version``, no ``tables`` object). Nothing else.
    """
    doc, version = decode_document(SCORES_FORMAT, data, name)
    return _parse_document(doc, version, name)[0]


def dump_scores(tables: dict[str, list[ScoreEntry]], extras: dict[str, Any] | None = None) -> bytes:
    """The file's bytes for ``tables`` (keys sorted, one entry per line) and the fields this
    version does not know (``extras``, after the tables)."""
    lines = [f'{{"schema_version": {SCHEMA_VERSION}, "tables": {{']
    keys = [k for k in sorted(tables) if tables[k]]
    for i, key in enumerate(keys):
        lines.append(f"  {json.dumps(key)}: [")
        rows = [json.dumps(entry_to_json(e)) for e in tables[key]]
        lines.append(",\n".join(f"    {r}" for r in rows))
        lines.append("  ]" + ("," if i < len(keys) - 1 else ""))
    rest = "".join(f", {json.dumps(k)}: {json.dumps(v, allow_nan=False)}"
                   for k, v in sorted((extras or {}).items()))
    lines.append(f"}}{rest}}}")
    return ("\n".join(lines) + "\n").encode("utf-8")


SCORES_FORMAT: FileFormat[ParsedScores] = FileFormat(
    noun="scores file", what="high scores", fresh="starting with empty high-score tables",
    item=("bad entry", "bad entries"), version=SCHEMA_VERSION,
    upgrades=(),  # schema 1 is the first; the next change appends its upgrade here
    max_bytes=MAX_FILE_BYTES, parse=_parse_document,
    dump=lambda parsed: dump_scores(parsed.tables, parsed.extras), error=ScoreFileError,
)
"""scores.json in the player's-files store."""


@dataclass(frozen=True)
class _Change:
    """One change to the tables since the last save, replayed onto the file by ``save``."""

    kind: str
    """``add``, ``initials`` or ``remove``."""
    key: str
    entry: ScoreEntry
    """The entry added; the entry renamed (with its new initials); the entry removed."""


def _replay(tables: dict[str, list[ScoreEntry]],
            changes: list[_Change]) -> dict[str, list[ScoreEntry]]:
    """``tables`` with ``changes`` made to them, in order (a new dict)."""
    out = {k: list(v) for k, v in tables.items()}
    for change in changes:
        entries = out.get(change.key, [])
        ident = entry_identity(change.entry)
        if change.kind == "add":
            entries = top_entries([*entries, change.entry])
        elif change.kind == "initials":
            entries = top_entries([change.entry if entry_identity(e) == ident else e
                                   for e in entries])
        else:
            entries = [e for e in entries if entry_identity(e) != ident]
        out[change.key] = entries
    return {k: v for k, v in out.items() if v}


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
        self._extras: dict[str, Any] = {}
        self._changes: list[_Change] = []
        """What changed since the last save (replayed onto the file by the next save)."""
        self._read_only: str | None = None
        """Why ``save`` must not write (a newer version's file, a read-only file, one that
        could not be moved aside); None when it may."""

    def _store(self) -> Store[ParsedScores]:
        return Store(self.path, SCORES_FORMAT)

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None, *, tidy: bool = True) -> ScoreBook:
        """Read the scores file (default ``data_dir()/scores.json``); never raises.

        With ``tidy`` (the game) stale temporary files of an interrupted save are removed
        first and a file that cannot be used is moved aside (see the module's docstring);
        without it (``asteroids scores``) nothing in the data folder changes. A missing file
        is an empty book.
        """
        book = cls(path)
        book._take(book._store().load(tidy=tidy))
        return book

    def refresh(self) -> None:
        """Read the file again and put this book's unsaved changes on top of it: what other
        games saved since shows (``qualifies``, ``table``). Never raises; a missing or
        unusable file leaves the book as it is."""
        self._take(self._store().load())

    def _take(self, reading: Reading[ParsedScores]) -> None:
        self.warnings.extend(n for n in reading.notes if n not in self.warnings)
        if reading.read_only is not None:
            self._read_only = reading.read_only
        if reading.value is not None:
            self._tables = _replay(reading.value.tables, self._changes)
            self._extras = reading.value.extras

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

    def rank_of(self, key: str, entry: ScoreEntry) -> int:
        """The 0-based place of ``entry`` (whatever its initials) in ``key``'s table, or -1
        when it is not there (never added, or pushed out by better games)."""
        ident = entry_identity(entry)
        for rank, e in enumerate(self._tables.get(key, ())):
            if entry_identity(e) == ident:
                return rank
        return -1

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
            entry = dataclasses.replace(entry, replay=None)
        entry_from_json(entry_to_json(entry))  # the same checks as a loaded entry
        if not self.qualifies(key, entry.score):
            return -1
        entries = self._tables.setdefault(key, [])
        rank = sum(1 for e in entries if e.score >= entry.score)
        entries.insert(rank, entry)
        del entries[MAX_ENTRIES:]
        self._changes.append(_Change("add", key, entry))
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
        self.set_initials_of(key, entries[rank], initials)

    def set_initials_of(self, key: str, entry: ScoreEntry, initials: str) -> int:
        """Give ``entry`` (found whatever its initials) new ``initials``; return its rank, or
        -1 when it is not in the table any more. Does not save.

        Raises:
            ValueError: ``initials`` is not 3 of A-Z or ``?``.
        """
        if not valid_initials(initials):
            raise ValueError(f"initials must be 3 of A-Z or '?'; got {initials!r}")
        rank = self.rank_of(key, entry)
        if rank < 0:
            return -1
        renamed = dataclasses.replace(self._tables[key][rank], initials=initials)
        self._tables[key][rank] = renamed
        self._changes.append(_Change("initials", key, renamed))
        return rank

    def merge(self, tables: dict[str, list[ScoreEntry]]) -> int:
        """Add every entry of ``tables`` (an import); repeated entries are kept once and each
        table keeps its top ``MAX_ENTRIES``. Returns how many entries are new in the book.

        Raises:
            ValueError: a key that is not a ruleset key.
        """
        for key in tables:
            if not is_ruleset_key(key):
                raise ValueError(f"not a ruleset key: {key!r}")
        changes = [_Change("add", key, e) for key, entries in tables.items() for e in entries]
        before = {(k, e) for k, v in self._tables.items() for e in v}
        self._tables = _replay(self._tables, changes)
        self._changes.extend(changes)
        after = {(k, e) for k, v in self._tables.items() for e in v}
        return len(after - before)

    def clear(self, key: str | None = None) -> None:
        """Empty one table, or every table when ``key`` is None. Does not save.

        The next ``save`` removes the entries this book holds now (another game's entry
        saved meanwhile, which the player has not seen, stays).
        """
        for k in [key] if key is not None else list(self._tables):
            self._changes.extend(_Change("remove", k, e) for e in self._tables.pop(k, []))

    def tables(self) -> dict[str, list[ScoreEntry]]:
        """Every non-empty table (copies), by key."""
        return {k: list(v) for k, v in sorted(self._tables.items()) if v}

    def to_bytes(self) -> bytes:
        """The file's bytes (also the export format)."""
        return dump_scores(self._tables)

    # -- saving ----------------------------------------------------------------------------
    def save(self) -> str | None:
        """Merge this book's changes into the file and write it atomically, under the lock.

        Returns None when saved (the book then holds what the file holds, other games'
        entries included), else one line saying why not (the tables and changes stay in
        memory; call ``save`` again later). Never raises.
        """
        if self._read_only is not None:
            return self._read_only
        result = self._store().save(self._merged)
        self.warnings.extend(n for n in result.notes if n not in self.warnings)
        if result.problem is not None or result.value is None:
            if result.read_only:
                self._read_only = result.problem
            return result.problem
        self._tables = {k: list(v) for k, v in result.value.tables.items()}
        self._extras = result.value.extras
        self._changes.clear()
        return None

    def _merged(self, reading: Reading[ParsedScores]) -> ParsedScores:
        """What ``save`` writes: the file as it is now with this book's changes made to it
        (no usable file: this book's tables)."""
        if reading.value is None:
            return ParsedScores(SCHEMA_VERSION, _replay(self._tables, self._changes), [],
                                dict(self._extras))
        return ParsedScores(SCHEMA_VERSION, _replay(reading.value.tables, self._changes), [],
                            reading.value.extras)
