"""Reading one settings source: a TOML file, a bundled preset or text, into raw data.

Every failure (no such file, a folder, pipe or device, too large, not UTF-8, bad TOML, a
number too long or values nested too deeply, a key set twice) is recorded as a
``ConfigIssue`` placed in its file, never raised, so ``load_config`` can report every problem
of every source at once. ``Source`` knows where each key of a file was written. ``-`` reads
the settings from standard input (``asteroids.userfile``).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from asteroids.config import bounded
from asteroids.config.bundled import is_preset_name, preset_bytes, preset_names, suggest_preset
from asteroids.config.errors import OVERRIDE_SOURCE, ConfigIssue
from asteroids.config.locate import Path, Positions, find, key_positions
from asteroids.messages import QUOTED, count, quote
from asteroids.userfile import FileTooLarge, read_user_file

__all__ = ["MAX_FILE_BYTES", "Source", "TextFile", "dotted", "read_source", "syntax_issue",
           "toml_position"]

MAX_FILE_BYTES = 64 * 1024
"""Largest settings file read; a real one is a few KiB, and huge TOML can eat CPU/memory."""

_LINE_COLUMN = re.compile(r"line (\d+), column (\d+)")
_REASON_SHOWN = 200
"""A reason of tomllib's longer than this (it may quote a 64 KiB key) is shortened."""


def toml_position(message: str) -> tuple[str, int | None, int | None] | None:
    """tomllib's message split into its reason and the line and column it ends with
    (``... (at line 3, column 7)``; both None for ``(at end of document)``); None when it
    names no place. The reason is shortened past ``_REASON_SHOWN`` characters. One pass."""
    at = message.rfind("(at ")
    if at < 0 or not message.endswith(")"):
        return None
    where = message[at + 4:-1]
    if where == "end of document":
        line = col = None
    elif (m := _LINE_COLUMN.fullmatch(where)) is not None:
        line, col = int(m.group(1)), int(m.group(2))
    else:
        return None
    reason = message[:at].rstrip()
    if len(reason) > _REASON_SHOWN:
        reason = f"{reason[:_REASON_SHOWN - 3]}... ({count(len(reason))} characters)"
    return reason, line, col


@dataclass
class Source:
    """One layer: a file or one ``--set``; knows how to place an issue in itself."""

    order: int
    name: str
    positions: Positions = field(default_factory=dict)
    override: str = ""
    override_index: int = 0

    def issue(self, path: Path, code: str, message: str, expected: str = "",
              got: str = "") -> ConfigIssue:
        if self.name == OVERRIDE_SOURCE:
            line, col = self.override_index, None
        else:
            line, col = find(self.positions, path)
        return ConfigIssue(
            source=self.name, line=line, col=col, key=dotted(path), code=code,
            message=message, expected=expected, got=got, order=self.order,
            override=self.override,
        )


def dotted(path: Path) -> str:
    """``("asteroids", "radius_px", 1)`` -> ``asteroids.radius_px[1]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def syntax_issue(src: Source, text: str, exc: Exception) -> ConfigIssue:
    """The issue of a text tomllib refused, placed at the line and column it names."""
    message = str(exc)
    line: int | None = None
    col: int | None = None
    found = toml_position(message)
    if found is not None:
        message, line, col = found
        if line is None:  # the end of the document
            line, col = text.count("\n") + 1, len(text) - text.rfind("\n")
    key = ""
    if line is not None and message.startswith(("Cannot overwrite", "Cannot declare")):
        # tomllib points past the value and does not name the key: find it on the line.
        key, key_col, is_table = _duplicate_at(text, line)
        if key:
            col = key_col
            shown = key if len(key) <= QUOTED else quote(key)
            message = (f"table [{shown}] is declared twice" if is_table
                       else f"{shown} is set twice")
        else:
            message += " (a key or table is set twice)"
    elif message == "Illegal character '\\n'":
        message += " (a string not closed on its line?)"
    return ConfigIssue(source=src.name, line=line, col=col, key=key, code="syntax",
                       message=f"invalid TOML: {message}", expected="valid TOML",
                       got="", order=src.order)


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-\"' ")
"""What the key of a ``key = value`` line may be written with (quotes and spaces are dropped
from the name shown)."""


def _header(line: str) -> tuple[str, int] | None:
    """``[name]`` or ``[[name]]`` at the start of ``line`` (after white space): the name
    without spaces and the column of its ``[``; None for any other line. One pass."""
    body = line.lstrip()
    if not body.startswith("["):
        return None
    inner = body[2:] if body.startswith("[[") else body[1:]
    close = inner.find("]")
    if close == 0 and body.startswith("[["):  # ``[[]``: the second ``[`` is the name
        inner = body[1:]
        close = inner.find("]")
    if close <= 0:
        return None
    name = inner[:close].strip() or inner[:close]
    return name.replace(" ", ""), len(line) - len(body) + 1


def _duplicate_at(text: str, line: int) -> tuple[str, int | None, bool]:
    """The dotted key (or table) declared twice on ``line``, its column, whether a table.
    Linear in the text, whatever its lines hold."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return "", None, False
    here = lines[line - 1]
    header = _header(here)
    if header is not None:
        return header[0], header[1], True
    body = here.lstrip()
    equals = body.find("=")
    key = body[:equals].rstrip() if equals > 0 else ""
    if not key or not _KEY_CHARS.issuperset(key):
        return "", None, False
    table = ""
    for previous in reversed(lines[: line - 1]):
        found = _header(previous)
        if found is not None:
            table = found[0] + "."
            break
    name = key.replace(" ", "").replace('"', "").replace("'", "")
    return table + name, len(here) - len(body) + 1, False


@dataclass(frozen=True)
class TextFile:
    """Settings given as text instead of a file (``load_config_text``)."""

    name: str
    data: bytes

    def __fspath__(self) -> str:
        return self.name


def _too_large(fail: Callable[[str, str], None]) -> None:
    fail("too-large", f"the file is larger than {MAX_FILE_BYTES // 1024} KiB "
         f"({MAX_FILE_BYTES} bytes); a settings file is only a few KiB")


def read_source(src: Source, path: str | os.PathLike[str],
               issues: list[ConfigIssue]) -> dict[str, Any] | None:
    """Read and parse one file; on failure record the issue and return None."""
    def fail(code: str, message: str, line: int | None = None,
             col: int | None = None) -> None:
        issues.append(ConfigIssue(source=src.name, line=line, col=col, key="", code=code,
                                  message=message, order=src.order))

    if isinstance(path, TextFile):
        data = path.data
    else:
        text_path = os.fspath(path)
        if os.path.isdir(text_path):
            fail("unreadable", "this is a folder, not a settings file; give a .toml file or a "
                 f"preset name ({', '.join(preset_names())})")
            return None
        if not os.path.exists(text_path) and is_preset_name(text_path):
            # A file of that name wins; only a name that is no file means a bundled preset.
            try:
                data = preset_bytes(text_path)
            except KeyError:
                fail("unknown-preset", f"there is no file and no preset named {quote(text_path)}; "
                     f"the presets are {', '.join(preset_names())}{suggest_preset(text_path)}")
                return None
        else:
            try:
                data = read_user_file(text_path, MAX_FILE_BYTES)
            except FileTooLarge:
                _too_large(fail)
                return None
            except OSError as exc:
                hint = ""
                if isinstance(exc, FileNotFoundError):
                    stem = os.path.splitext(os.path.basename(text_path))[0]
                    hint = (f" (a bundled preset is given by name: {', '.join(preset_names())}"
                            f"{suggest_preset(stem)})")
                fail("unreadable", f"cannot read the file: {exc.strerror or exc}{hint}")
                return None
    if len(data) > MAX_FILE_BYTES:
        _too_large(fail)
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        fail("syntax", "invalid TOML: the file is not UTF-8 text", line)
        return None
    try:
        parsed = bounded.loads(text)
    except bounded.TomlLimitError as exc:
        fail("too-large", exc.reason, exc.line, exc.col)
        return None
    except tomllib.TOMLDecodeError as exc:
        issues.append(syntax_issue(src, text, exc))
        return None
    src.positions = key_positions(text)
    return parsed
