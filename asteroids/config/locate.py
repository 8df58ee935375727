"""Find where each key sits in a TOML text, because ``tomllib`` keeps no positions.

A small tokenizer walks the (already valid) TOML and records the 1-based line and column of
every key, table header and array element, by path: ``("ship", "thrust_px_per_s2")``,
``("obstacles", 2, "points", 0)``, ``("asteroids", "radius_px", 1)``. Dotted keys, quoted
keys, inline tables, arrays of tables and multi-line arrays and strings are handled.
"""

from __future__ import annotations

from collections.abc import Iterator

from asteroids.config.bounded import MAX_DEPTH
from asteroids.config.toml_scan import tokens

__all__ = ["Path", "Positions", "find", "key_positions"]

Path = tuple[str | int, ...]
Positions = dict[Path, tuple[int, int]]

_MAX_PATH = 4 * MAX_DEPTH
"""A key path longer than this ends the scan (what was found so far is kept): text that
``bounded`` let through is nested at most ``MAX_DEPTH`` deep, and a longer path would make
recording its prefixes cost the square of its length."""


class _TooDeep(Exception):
    """A key path longer than ``_MAX_PATH``: stop scanning."""


class _Tok:
    __slots__ = ("kind", "text", "line", "col")

    def __init__(self, kind: str, text: str, line: int, col: int) -> None:
        self.kind, self.text, self.line, self.col = kind, text, line, col


def _tokens(text: str) -> Iterator[_Tok]:
    """The tokens of ``text`` but white space and comments, each with its line and column
    (a punctuation token's kind is its character)."""
    line, line_start = 1, 0
    for m in tokens(text):
        kind = m.lastgroup or "bare"
        if kind == "nl":
            yield _Tok(kind, "\n", line, m.start() - line_start + 1)
            line, line_start = line + 1, m.end()
            continue
        if kind == "ws" or kind == "comment":
            continue
        tok = m.group()
        yield _Tok(tok if kind == "punct" else kind, tok, line, m.start() - line_start + 1)
        if kind == "ml_str" or kind == "str":
            newlines = tok.count("\n")
            if newlines:
                line += newlines
                line_start = m.start() + tok.rindex("\n") + 1


def _key_part(tok: _Tok) -> list[str]:
    if tok.kind == "str":
        return [tok.text[1:-1]]
    return [p for p in tok.text.split(".") if p]


class _Scanner:
    def __init__(self, text: str) -> None:
        self.toks = list(_tokens(text))
        self.i = 0
        self.pos: Positions = {}
        self.array_counts: dict[Path, int] = {}

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def skip_newlines(self) -> None:
        while (t := self.peek()) is not None and t.kind == "nl":
            self.i += 1

    def record(self, path: Path, tok: _Tok) -> None:
        if len(path) > _MAX_PATH:
            raise _TooDeep
        self.pos.setdefault(path, (tok.line, tok.col))

    def read_key(self, stop: str) -> tuple[list[str], _Tok | None]:
        """Key parts up to ``stop`` (``=`` or ``]``); the first token gives the position."""
        parts: list[str] = []
        first = None
        while (t := self.peek()) is not None and t.kind not in (stop, "nl"):
            first = first or t
            parts.extend(_key_part(t))
            if len(parts) > _MAX_PATH:
                raise _TooDeep
            self.i += 1
        return parts, first

    def resolve(self, parts: list[str]) -> Path:
        """A header path with each array-of-tables prefix pointing at its latest element."""
        out: list[str | int] = []
        for p in parts:
            out.append(p)
            count = self.array_counts.get(tuple(out))
            if count is not None:
                out.append(count - 1)
        return tuple(out)

    def run(self) -> Positions:
        table: Path = ()
        while (t := self.peek()) is not None:
            if t.kind == "nl":
                self.i += 1
                continue
            if t.kind == "[":
                self.i += 1
                is_array = (n := self.peek()) is not None and n.kind == "[" and n.col == t.col + 1
                if is_array:
                    self.i += 1
                parts, _ = self.read_key("]")
                if is_array:
                    base = self.resolve(parts[:-1]) + tuple(parts[-1:])
                    index = self.array_counts.get(base, 0)
                    self.array_counts[base] = index + 1
                    table = (*base, index)
                    self.record(base, t)
                else:
                    table = self.resolve(parts)
                self.record(table, t)
                self.skip_to_newline()
                continue
            parts, first = self.read_key("=")
            if first is not None and (e := self.peek()) is not None and e.kind == "=":
                self.i += 1
                path = (*table, *parts)
                for k in range(len(table) + 1, len(path) + 1):
                    self.record(path[:k], first)
                self.value(path)
            self.skip_to_newline()
        return self.pos

    def skip_to_newline(self) -> None:
        while (t := self.peek()) is not None and t.kind != "nl":
            self.i += 1

    def value(self, path: Path) -> None:
        t = self.peek()
        if t is None:
            return
        if t.kind == "[":
            self.i += 1
            index = 0
            while True:
                self.skip_newlines()
                t = self.peek()
                if t is None or t.kind == "]":
                    break
                if t.kind == ",":
                    index += 1
                    self.i += 1
                    continue
                self.record((*path, index), t)
                self.value((*path, index))
            self.i += 1
        elif t.kind == "{":
            self.i += 1
            while (t := self.peek()) is not None and t.kind not in ("}", "nl"):
                if t.kind == ",":
                    self.i += 1
                    continue
                parts, first = self.read_key("=")
                if first is None or (e := self.peek()) is None or e.kind != "=":
                    break
                self.i += 1
                sub = (*path, *parts)
                for k in range(len(path) + 1, len(sub) + 1):
                    self.record(sub[:k], first)
                self.value(sub)
            self.i += 1
        else:
            # A scalar: one token, or a few for a date-time with a space in it.
            self.i += 1
            while (t := self.peek()) is not None and t.kind in ("bare", "str", "ml_str"):
                self.i += 1


def key_positions(text: str) -> Positions:
    """Map every key path in ``text`` to its ``(line, column)``, both 1-based.

    Meant for text ``tomllib`` has already accepted; on anything odd it returns what it found
    so far rather than raising, since positions only decorate error messages.
    """
    scanner = _Scanner(text)
    try:
        return scanner.run()
    except (IndexError, RecursionError, _TooDeep):
        return scanner.pos


def find(positions: Positions, path: Path) -> tuple[int | None, int | None]:
    """The position of ``path``, or of its nearest recorded ancestor; ``(None, None)`` if none."""
    for k in range(len(path), 0, -1):
        hit = positions.get(path[:k])
        if hit is not None:
            return hit
    return None, None
