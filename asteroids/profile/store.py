"""One versioned JSON store for the player's files (``scores.json``, ``settings.json``).

Both files follow the same rules, kept here once::

    store = Store(data_dir() / "scores.json", SCORES_FORMAT)
    reading = store.load()          # never raises; reading.value is None when nothing usable
    result = store.save(merge)      # read again under the lock, merge, write atomically

- **Bounded read of a regular file only**: a file over ``FileFormat.max_bytes`` is not read;
  a named pipe, device, socket or folder is neither opened nor replaced (one line says so and
  nothing is saved this session: ``asteroids.storage.read_limited`` never blocks on it).
  Integers of more than ``MAX_DIGITS`` digits and nesting past Python's recursion limit are
  refused before conversion.
- **Setting aside**: a file that cannot be used at all (not JSON, empty, binary, truncated,
  over the limit, unreadable) is moved aside as ``NAME.corrupt-<UTC time>`` under the lock
  and the game starts fresh; a usable file with bad fields is used without them, and copied
  aside the same way just before the first write that would leave them out. Unknown fields
  of the document are kept and written back.
- **Migrations**: ``FileFormat.upgrades[i]`` turns a version ``i + 1`` document into a
  version ``i + 2`` one; a file of an older version is upgraded in memory on every load and
  written at the current version by the next save. The next schema change is one function
  appended there (and a test that loads a file of the old version).
- **Newer versions read-only**: a file whose ``schema_version`` is newer than this game's is
  read as far as it can be and never written (nor moved aside, nor copied).
- **Read-only files**: a file without write permission for its owner (``chmod a-w``, the
  read-only attribute on Windows) is used and never replaced; one line says so.
- **The lock**: ``save`` re-reads the file, merges this process's changes into what is on
  disk and writes it atomically, all under an advisory lock (``filelock``: ``flock`` on
  POSIX, ``LockFileEx`` on Windows) held on ``.NAME.lock`` beside the file, so that two
  windows, or a window and ``asteroids scores --import``, never lose each other's changes.
  The lock file is empty and stays (deleting it while another game waits on it would let
  two writers in).
- **Listing writes nothing**: ``load(tidy=False)`` (``asteroids scores``, a replay window)
  only reads: no stale temporary file removed, no file set aside, no lock file created.
- **No link followed**: the file, its lock, its temporary and quarantine files live in the
  data folder, a boundary (``asteroids.datafolder``): a symbolic link there, dangling or
  not, is refused in one line naming it; nothing is read, written, renamed or created
  through it. No arcade here.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from asteroids.datafolder import FolderLock, LockTimeout, lock_path, make_folder, refuse_links
from asteroids.storage import (
    FileTooLarge,
    LinkRefused,
    NotRegularFile,
    atomic_write,
    describe_os_error,
    quarantine,
    read_limited,
    remove_stale_temps,
)

__all__ = ["LOCK_TIMEOUT_S", "MAX_DIGITS", "FileFormat", "Reading", "SaveResult", "Store",
           "StoreFileError", "decode_document", "folder_problem", "is_plain_json", "lock_path",
           "plain_extras", "short"]

T = TypeVar("T")

MAX_DIGITS = 40
"""Longest integer literal read (a score fits in 19 digits); longer ones are not converted
(Python refuses past 4300 digits, and converting is quadratic before that)."""

LOCK_TIMEOUT_S = 5.0
"""How long a save waits for another game's save to finish (a save takes milliseconds)."""

LOCK_POLL_S = 0.005
"""How often a waiting save tries the lock. filelock's default (50 ms) lets a process that
saves again and again take the lock back before a waiting one looks, for seconds on a busy
machine; a save holds it for a few milliseconds, so the waiter looks that often."""


class StoreFileError(ValueError):
    """A file that cannot be used as a whole; ``str()`` is one line naming the file."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}.")
        self.name = name
        """The file, as the caller named it."""
        self.problem = problem
        """What is wrong, without the name or a final full stop."""


Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns a document of one schema version into the next version's (``schema_version`` is
set by the store)."""


@dataclass(frozen=True)
class FileFormat(Generic[T]):
    """What one of the player's files holds and how it is told.

    Attributes:
        noun: what the file is, for messages: ``scores file``.
        what: what it keeps, for messages: ``high scores`` (``high scores not saved: ...``).
        fresh: what the game does without it: ``starting with empty high-score tables``.
        item: one field or entry, singular and plural: ``("entry", "entries")``.
        version: the ``schema_version`` this game writes.
        upgrades: ``upgrades[i]`` turns version ``i + 1`` into ``i + 2``; exactly
            ``version - 1`` of them.
        max_bytes: the largest file read.
        parse: ``(document, version, name) -> (value, dropped)``: the checked content and
            one description per bad field or entry left out. Raises ``error`` (naming
            ``name``) when the document is unusable as a whole. A document newer than
            ``version`` is passed as it is (unknown fields are then expected).
        dump: the file's bytes for a value (always the current version).
        error: the exception ``decode_document`` raises (a ``StoreFileError``).
    """

    noun: str
    what: str
    fresh: str
    item: tuple[str, str]
    version: int
    upgrades: tuple[Upgrade, ...]
    max_bytes: int
    parse: Callable[[dict[str, Any], int, str], tuple[T, list[str]]]
    dump: Callable[[T], bytes]
    error: type[StoreFileError] = StoreFileError

    def __post_init__(self) -> None:
        if len(self.upgrades) != self.version - 1:
            raise ValueError(f"{self.noun}: version {self.version} needs "
                             f"{self.version - 1} upgrades; got {len(self.upgrades)}")

    def items(self, n: int) -> str:
        """``1 entry``, ``3 entries``."""
        return f"{n} {self.item[0] if n == 1 else self.item[1]}"


def short(value: object) -> str:
    """A value for a one-line message: its repr, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _LongInteger:
    """An integer literal of more than ``MAX_DIGITS`` digits, left unconverted: no field
    accepts it, so it is reported as that field's bad value."""

    def __init__(self, digits: str) -> None:
        self.digits = len(digits)

    def __repr__(self) -> str:
        return f"<a {self.digits}-digit number>"


def _parse_int(text: str) -> int | _LongInteger:
    return int(text) if len(text) <= MAX_DIGITS else _LongInteger(text)


def is_plain_json(value: object, depth: int = 0) -> bool:
    """Whether ``value`` writes back as strict JSON: no NaN or infinity, no over-long
    integer, at most 64 levels deep."""
    if depth > 64:
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, list):
        return all(is_plain_json(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(is_plain_json(v, depth + 1) for v in value.values())
    return False


def decode_document(fmt: FileFormat[T], data: bytes, name: str) -> tuple[dict[str, Any], int]:
    """A file's bytes as a document of the current version, and the file's version.

    An older version is upgraded step by step (``fmt.upgrades``); a newer one is returned
    as it is.

    Raises:
        StoreFileError: (``fmt.error``) empty, not UTF-8, not JSON, nested too deeply, not
            an object, or no usable ``schema_version``.
    """
    if not data.strip():
        raise fmt.error(name, "the file is empty")
    try:
        doc = json.loads(data.decode("utf-8"), parse_int=_parse_int)
    except UnicodeDecodeError:
        raise fmt.error(name, f"not a {fmt.noun}: it is not UTF-8 text") from None
    except RecursionError:
        raise fmt.error(name, f"not a {fmt.noun}: nested too deeply") from None
    except ValueError as exc:
        raise fmt.error(name, f"not a {fmt.noun}: damaged or truncated JSON "
                        f"({_first_line(exc)})") from None
    if not isinstance(doc, dict):
        raise fmt.error(name, f"not a {fmt.noun}: a JSON object was expected; got "
                        f"{type(doc).__name__}")
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise fmt.error(name, f"not a {fmt.noun}: schema_version must be a whole number 1 "
                        f"or more; got {short(version)}")
    for step in range(version, fmt.version):
        doc = fmt.upgrades[step - 1](dict(doc))
        doc["schema_version"] = step + 1
    return doc, version


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@dataclass
class Reading(Generic[T]):
    """What ``Store.load`` found."""

    value: T | None = None
    """The content (``FileFormat.parse``), or None: no file, or none usable."""
    version: int = 0
    """The file's ``schema_version`` (0 without a usable file)."""
    dropped: list[str] = field(default_factory=list)
    """Bad fields or entries left out of ``value``."""
    notes: list[str] = field(default_factory=list)
    """One-line messages for the player (set aside, bad fields, newer, read-only)."""
    read_only: str | None = None
    """Why nothing may be written (a newer version's file, a read-only file, a named pipe,
    a file that could not be moved aside); None when saving may go ahead."""
    unusable: bool = False
    """True when a file was there but could not be used at all (it was moved aside, or left
    alone when it could not be)."""
    moved: str | None = None
    """The note saying where an unusable file was moved aside (None: it was not)."""
    data: bytes | None = None
    """The bytes read (None: nothing read)."""


@dataclass
class SaveResult(Generic[T]):
    """What ``Store.save`` did."""

    value: T | None
    """What was written (None: nothing)."""
    problem: str | None
    """None when written, else one line: ``high scores not saved: <why>``."""
    notes: list[str]
    """One-line messages from reading the file again (set aside meanwhile, ...)."""
    read_only: bool = False
    """True when the file turned out not to be writable at all (a newer version wrote it
    meanwhile, it was made read-only): the next save would fail the same way."""


class Store(Generic[T]):
    """One of the player's files: ``load`` it, ``save`` changes merged under the lock.

    Args:
        path: the file (a symbolic link there is refused, never followed).
        fmt: what it holds.
        lock_timeout: seconds a save waits for another game's save.
        root: the data folder ``path`` is in (default: ``path``'s folder): links between it
            and ``path`` are refused; ``root`` itself may be one.
    """

    def __init__(self, path: Path, fmt: FileFormat[T], *,
                 lock_timeout: float = LOCK_TIMEOUT_S, root: Path | None = None) -> None:
        self.path = path
        self.fmt = fmt
        self.lock_timeout = lock_timeout
        self.root = root if root is not None else path.parent

    # -- reading ---------------------------------------------------------------------------
    def load(self, *, tidy: bool = True) -> Reading[T]:
        """Read the file; never raises.

        With ``tidy`` (a command that writes, such as the game) temporary files of an
        interrupted save are removed first and an unusable file is moved aside under the
        lock (see the module's docstring). Without it nothing in the folder changes: an
        unusable file is only reported. A missing file is an empty ``Reading``.
        """
        if not tidy:
            return self._read()
        try:
            refuse_links(self.path.parent, self.root)
        except LinkRefused:
            return self._read()  # it says so; nothing is tidied through the link
        remove_stale_temps(self.path.parent, self.path.name)
        reading = self._read()
        if reading.unusable and reading.read_only is None:
            try:
                with self._lock():
                    reading = self._read(set_aside=True)
            except (LockTimeout, LinkRefused):
                pass  # not moved aside: the save says why
            except OSError:
                reading = self._read(set_aside=True)  # no lock to be had: as before locks
        return reading

    def _read(self, *, set_aside: bool = False) -> Reading[T]:
        """Read and check the file. ``set_aside``: move an unusable file aside (the caller
        holds the lock); otherwise only report it as ``unusable``."""
        fmt, name = self.fmt, self.path.name
        out: Reading[T] = Reading()
        try:
            refuse_links(self.path, self.root)
            st = os.lstat(self.path)
        except LinkRefused as exc:
            return self._link(out, exc)
        except FileNotFoundError:
            return out
        except NotADirectoryError:
            problem = folder_problem(self.path)
            if problem:
                out.notes.append(f"{fmt.what} cannot be kept: {problem}")
            return out
        except OSError as exc:
            out.notes.append(f"{fmt.what} cannot be kept: {self.path}: {describe_os_error(exc)}")
            return out
        if not stat.S_ISREG(st.st_mode):
            kind = NotRegularFile(self.path, st.st_mode).kind
            out.read_only = (f"{fmt.what} not saved: {name} is {kind}, not a regular file; it "
                             "is left as it is")
            out.notes.append(f"{name} is {kind}, not a regular file: not read, left as it is, "
                             f"and {fmt.what} are not saved")
            out.unusable = True
            return out
        writable = bool(st.st_mode & stat.S_IWUSR)
        if not writable:
            out.read_only = f"{fmt.what} not saved: {name} is read-only; it is left as it is"
        try:
            out.data = read_limited(self.path, fmt.max_bytes, follow_links=False)
        except LinkRefused as exc:  # made a link since the lstat
            return self._link(out, exc)
        except FileTooLarge as exc:
            return self._unusable(out, str(exc), set_aside)
        except FileNotFoundError:  # removed since the stat
            return Reading()
        except OSError as exc:
            return self._unusable(out, f"cannot read it ({describe_os_error(exc)})", set_aside)
        try:
            doc, version = decode_document(fmt, out.data, str(self.path))
            out.value, out.dropped = fmt.parse(doc, version, str(self.path))
        except StoreFileError as exc:
            return self._unusable(out, exc.problem, set_aside)
        out.version = version
        if version > fmt.version:
            out.read_only = (f"{fmt.what} not saved: {name} was written by a newer version of "
                             f"the game (schema {version}); it is kept as it is")
            out.notes.append(f"{name} is from a newer version of the game: read, but "
                             f"{fmt.what} are not saved to it")
            return out
        if not writable:
            out.notes.append(f"{name} is read-only: it is used, and left as it is "
                             f"({fmt.what} are not saved)")
        if out.dropped:
            first = out.dropped[0]
            more = f"; {len(out.dropped) - 1} more" if len(out.dropped) > 1 else ""
            keep = ("it is left as it is" if not writable
                    else "the original is copied aside before the file is next written")
            out.notes.append(f"{name}: {fmt.items(len(out.dropped))} left out ({first}{more}); "
                             f"{keep}")
        return out

    def _link(self, out: Reading[T], exc: LinkRefused) -> Reading[T]:
        """A link in the way: not read, not followed, and nothing saved this session."""
        where = exc.filename
        out.read_only = (f"{self.fmt.what} not saved: {where} is a symbolic link; links "
                         "inside the data folder are not followed")
        out.notes.append(f"{where}: {describe_os_error(exc)}: not read, and {self.fmt.what} "
                         "are not saved")
        out.unusable = True
        return out

    def _unusable(self, out: Reading[T], problem: str, set_aside: bool) -> Reading[T]:
        """An unusable file: move it aside (``set_aside``), or say why it stays."""
        name = self.path.name
        out.unusable, out.value, out.dropped = True, None, []
        if out.read_only is not None:  # a read-only file is never moved
            out.notes.append(f"{name}: {problem}; it is read-only, so it is left as it is and "
                             f"{self.fmt.what} are not saved")
            return out
        if not set_aside:
            out.notes.append(f"{name}: {problem}; not used, and left as it is until the game "
                             f"next saves {self.fmt.what}")
            return out
        try:
            moved = quarantine(self.path, follow_links=False)
        except OSError as exc:
            why = describe_os_error(exc)
            out.read_only = (f"{self.fmt.what} not saved: {name} is unusable and could not be "
                             f"moved aside ({why})")
            out.notes.append(f"{self.path}: {problem}; it could not be moved aside ({why}), so "
                             f"{self.fmt.what} are not saved")
            return out
        out.moved = f"{name}: {problem}; moved aside as {moved.name}, {self.fmt.fresh}"
        out.notes.append(out.moved)
        return out

    # -- writing ---------------------------------------------------------------------------
    def _lock(self) -> FolderLock:
        """The save lock, its folder made first (without following a link below the root)."""
        make_folder(self.path.parent, self.root)
        return FolderLock(lock_path(self.path), self.lock_timeout, LOCK_POLL_S)

    def save(self, merge: Callable[[Reading[T]], T]) -> SaveResult[T]:
        """Read the file again and write ``merge(reading)``, under the lock; never raises.

        ``merge`` gets what is on disk now (``reading.value`` None: no usable file) and
        returns what to write. A file with bad fields is copied aside first; an unusable one
        is moved aside; a newer version's, a read-only file or a special file is not
        written (``SaveResult.read_only``).
        """
        what = self.fmt.what
        notes: list[str] = []
        try:
            with self._lock():
                reading = self._read(set_aside=True)
                notes = [reading.moved] if reading.moved else []
                if reading.read_only is not None:
                    return SaveResult(None, reading.read_only, notes, read_only=True)
                value = merge(reading)
                data = self.fmt.dump(value)
                if reading.dropped:
                    try:
                        backup = quarantine(self.path, copy=True, follow_links=False)
                    except OSError as exc:
                        return SaveResult(None, f"{what} not saved: {self.path.name} has bad "
                                          f"fields and could not be copied aside "
                                          f"({describe_os_error(exc)})", notes)
                    notes.append(f"{self.path.name}: the original, with the "
                                 f"{self.fmt.items(len(reading.dropped))} left out, is kept "
                                 f"as {backup.name}")
                atomic_write(self.path, data, follow_links=False)
        except LockTimeout:
            return SaveResult(None, f"{what} not saved: {self.path.name} stayed locked by "
                              f"another game for {self.lock_timeout:g} s (the next save tries "
                              "again)", notes)
        except OSError as exc:
            where = exc.filename if isinstance(exc, LinkRefused) else self.path
            problem = folder_problem(self.path) or f"{where}: {describe_os_error(exc)}"
            return SaveResult(None, f"{what} not saved: {problem}", notes)
        return SaveResult(value, None, notes)


def folder_problem(path: Path) -> str:
    """``"/x is a file, not a folder"`` when a folder above ``path`` is a file, else ""."""
    for folder in path.parents:
        try:
            if folder.exists() and not folder.is_dir():
                return f"{folder} is a file, not a folder"
        except OSError:
            return ""
    return ""


def plain_extras(doc: dict[str, Any], known: Sequence[str],
                 dropped: list[str]) -> dict[str, Any]:
    """The fields of ``doc`` this version does not know (``schema_version`` aside), kept to
    be written back; one that would not write back as strict JSON goes to ``dropped``."""
    extras: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "schema_version" or key in known:
            continue
        if is_plain_json(value):
            extras[key] = value
        else:
            dropped.append(f"{short(key)}: {short(value)} is not plain JSON")
    return extras
