"""``asteroids scores``: print, export, import and clear the high-score tables.

Bad input (an unknown ruleset, a damaged import file, a refused ``--clear``) is one paragraph
on stderr and exit code 2, never a traceback. Notes about the scores file itself (set aside
as corrupt, from a newer version, a named pipe) go to stderr as ``asteroids: note: ...``.

``--import`` and ``--clear`` save through the scores store's lock (merged with what another
game saved meanwhile). ``--import`` reads a regular file only (a named pipe would block): a
pipe is read when given as ``-`` (standard input). ``--export FILE`` is written atomically;
a symbolic link stays a link (its target is written), and a named pipe, device or folder is
refused. No arcade here.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from asteroids.config.bundled import preset_names
from asteroids.messages import listing, quote
from asteroids.paths import replays_dir
from asteroids.profile.rulesets import ASSISTED_SUFFIX, is_ruleset_key, ruleset_label
from asteroids.profile.scores import (
    MAX_FILE_BYTES,
    ScoreBook,
    ScoreEntry,
    ScoreFileError,
    dump_scores,
    entry_to_json,
    parse_scores,
)
from asteroids.storage import (
    FileTooLarge,
    NotRegularFile,
    atomic_write,
    describe_os_error,
)
from asteroids.userfile import read_user_file

__all__ = ["format_tables", "run_scores"]

EXIT_BAD_INPUT = 2


def _fail(message: str) -> int:
    print(f"asteroids: scores: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


CUSTOM_KEY = re.compile(r"custom-[0-9a-f]{8}")
"""The key of the player's own rules (``custom-`` and 8 hex digits of their fingerprint)."""


def _possible(key: str) -> bool:
    """Whether ``key`` names rules the game can have: a bundled preset or custom rules,
    assisted or not."""
    base = key.removesuffix(ASSISTED_SUFFIX)
    return is_ruleset_key(key) and (base in preset_names() or bool(CUSTOM_KEY.fullmatch(base)))


def _resolve(book: ScoreBook, name: str) -> str | None:
    """The key for ``name``: a key (``classic``) or a label (``CLASSIC (ASSISTED)``) of a
    table, or of rules that have no table yet (a preset, custom rules); None: no such rules."""
    text = name.strip()
    for key in book.keys():
        if text.lower() == key or text.upper() == ruleset_label(key):
            return key
    lowered = text.lower()
    for preset in preset_names():
        for key in (preset, preset + ASSISTED_SUFFIX):
            if text.upper() == ruleset_label(key):
                return key
    return lowered if _possible(lowered) else None


def _unknown_ruleset(book: ScoreBook, name: str) -> int:
    """One paragraph: no such rules, the ones there are, the closest, exit 2. One line of at
    most ``MAX_LINE`` characters however long ``name`` is and however many tables there are."""
    presets = preset_names()
    tables = list(book.keys())
    candidates = [*presets, *tables, *(ruleset_label(k) for k in tables)]
    hint = ""
    query = name.strip().lower()
    # A name over 4 times the longest candidate cannot reach the 0.5 cutoff (difflib's time
    # grows with the square of the lengths): it is not compared.
    if len(query) <= 4 * max(map(len, candidates), default=0):
        close = difflib.get_close_matches(query, [c.lower() for c in candidates], n=1,
                                          cutoff=0.5)
        if close:
            match = next(c for c in candidates if c.lower() == close[0])
            hint = f" Did you mean {match!r}?"
    with_entries = listing(tables, shown=5, noun=("table", "tables")) if tables else "none yet"
    return _fail(f"--ruleset {quote(name)} is not a ruleset. The known ones are the bundled "
                 f"presets ({', '.join(presets)}) and custom-XXXXXXXX for your own settings, "
                 f"each also as PRESET{ASSISTED_SUFFIX}; tables with entries: "
                 f"{with_entries}.{hint}")


def _duration(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _replay_cell(entry: ScoreEntry, folder: Path) -> str:
    if entry.replay is None:
        return "-"
    try:  # lstat: a link in the data folder is not followed, so it is not the replay
        present = stat.S_ISREG(os.lstat(folder / entry.replay).st_mode)
    except OSError:  # missing, or e.g. a name too long for this file system
        present = False
    return entry.replay if present else f"{entry.replay} (missing)"


def format_tables(tables: dict[str, list[ScoreEntry]], folder: Path | None = None) -> str:
    """The tables as readable text: a heading per ruleset, then rank, initials, score, wave,
    date (UTC), play time and replay file columns."""
    folder = folder if folder is not None else replays_dir()
    out: list[str] = []
    for key, entries in tables.items():
        if out:
            out.append("")
        out.append(f"{ruleset_label(key)}  ({key})")
        if not entries:
            out.append("  (no entries yet)")
            continue
        out.append(f"  {'RANK':>4}  {'NAME':<4}  {'SCORE':>11}  {'WAVE':>4}  "
                   f"{'DATE (UTC)':<16}  {'TIME':>7}  REPLAY")
        for rank, e in enumerate(entries, 1):
            date = e.date[:16].replace("T", " ")
            out.append(f"  {rank:>4}  {e.initials:<4}  {e.score:>11,}  {e.wave:>4}  "
                       f"{date:<16}  {_duration(e.play_seconds):>7}  {_replay_cell(e, folder)}")
    return "\n".join(out)


def _as_json(book: ScoreBook, tables: dict[str, list[ScoreEntry]],
             notes: list[str]) -> dict[str, Any]:
    return {
        "file": str(book.path),
        "tables": {key: {"label": ruleset_label(key),
                         "entries": [entry_to_json(e) for e in entries]}
                   for key, entries in tables.items()},
        "warnings": notes,
    }


def run_scores(args: argparse.Namespace) -> int:
    """Run ``asteroids scores`` with parsed ``args``; return the exit code."""
    book = ScoreBook.load(tidy=False)  # listing writes nothing; --import/--clear save
    notes = _notes(book)
    key: str | None = None
    if args.ruleset is not None:
        key = _resolve(book, args.ruleset)
        if key is None:
            return _unknown_ruleset(book, args.ruleset)
    if args.yes and not args.clear:
        return _fail("--yes only goes with --clear.")
    if args.import_file is not None:
        return _import(book, args.import_file, key)
    if args.clear:
        return _clear(book, key, args.yes)
    tables = book.tables()
    if key is not None:
        tables = {key: tables.get(key, [])}
    if args.export is not None:
        return _export(tables, args.export)
    if args.json:
        print(json.dumps(_as_json(book, tables, notes), indent=2))
    elif not any(tables.values()) and key is None:
        print(f"No high scores yet ({book.path}).")
    else:
        print(format_tables(tables))
    return 0


def _notes(book: ScoreBook) -> list[str]:
    """Print the book's notes and clear them (a save may add more: a file moved aside);
    return the ones printed."""
    shown = list(book.warnings)
    for line in shown:
        print(f"asteroids: note: {line}", file=sys.stderr)
    book.warnings.clear()
    return shown


def _export(tables: dict[str, list[ScoreEntry]], target: str) -> int:
    data = dump_scores(tables)
    count = sum(len(v) for v in tables.values())
    if target == "-":
        sys.stdout.write(data.decode("utf-8"))
        return 0
    try:
        path = atomic_write(target, data)
    except NotRegularFile as exc:
        return _fail(f"--export {target}: not written: {describe_os_error(exc)} (to write to a "
                     "pipe, give '-' and redirect standard output).")
    except OSError as exc:
        return _fail(f"--export {target}: cannot write the file: {describe_os_error(exc)}.")
    print(f"asteroids: exported {count} entr{'y' if count == 1 else 'ies'} in "
          f"{sum(1 for v in tables.values() if v)} table(s) to {path}")
    return 0


def _import(book: ScoreBook, source: str, key: str | None) -> int:
    try:
        data = read_user_file(source, MAX_FILE_BYTES)
    except FileTooLarge as exc:
        return _fail(f"--import {source}: {exc}; nothing was imported.")
    except NotRegularFile as exc:
        return _fail(f"--import {source}: not read: {describe_os_error(exc)}; nothing was "
                     "imported.")
    except OSError as exc:
        return _fail(f"--import {source}: cannot read the file: {describe_os_error(exc)}; "
                     "nothing was imported.")
    name = "<stdin>" if source == "-" else source
    try:
        parsed = parse_scores(data, name)
    except ScoreFileError as exc:
        return _fail(f"--import {exc} Nothing was imported; give a file written by "
                     "'asteroids scores --export'.")
    if parsed.dropped:
        more = f" (and {len(parsed.dropped) - 1} more)" if len(parsed.dropped) > 1 else ""
        return _fail(f"--import {name}: {parsed.dropped[0]}{more}. Nothing was imported; "
                     "fix or remove the bad entries and try again.")
    tables = parsed.tables if key is None else {key: parsed.tables.get(key, [])}
    if book.read_only is not None:
        return _fail(f"--import {name}: {book.read_only}; nothing was imported.")
    added = book.merge(tables)
    problem = book.save()
    _notes(book)
    if problem is not None:
        return _fail(f"--import {name}: {problem}; nothing was imported.")
    total = sum(len(v) for v in tables.values())
    print(f"asteroids: imported {added} new entr{'y' if added == 1 else 'ies'} of {total} "
          f"from {name} into {book.path}")
    return 0


def _clear(book: ScoreBook, key: str | None, yes: bool) -> int:
    tables = book.tables() if key is None else {key: book.table(key)}
    count = sum(len(v) for v in tables.values())
    if count == 0:
        print("asteroids: no high scores to clear")
        return 0
    what = (f"{count} entr{'y' if count == 1 else 'ies'} in "
            + (f"the {ruleset_label(key)} table" if key is not None
               else f"{len(tables)} table{'s' if len(tables) != 1 else ''}"))
    if not yes:
        if not sys.stdin.isatty():
            return _fail(f"--clear would delete {what} and cannot ask here (no terminal); "
                         "add --yes to clear without asking.")
        try:
            answer = input(f"Delete {what} from {book.path}? This cannot be undone. [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("asteroids: nothing was cleared")
            return 0
    book.clear(key)
    problem = book.save()
    _notes(book)
    if problem is not None:
        return _fail(f"--clear: {problem}.")
    print(f"asteroids: cleared {what}")
    return 0
