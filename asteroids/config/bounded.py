"""TOML with bounds: number length and nesting depth are checked before anything is converted.

``tomllib`` turns a decimal integer of more than 4 300 digits into a ``ValueError`` (Python's
int conversion limit), not a ``TOMLDecodeError``; it builds hexadecimal integers of any size,
which then break every ``repr``; and 2 000 nested arrays exhaust the stack. Settings files,
``--set`` values and replay headers all go through ``loads`` here instead: a number written
with more than ``MAX_NUMBER_CHARS`` characters, or arrays and tables nested more than
``MAX_DEPTH`` deep (brackets or dotted keys), is refused with its line and column before
``tomllib`` sees it. No real setting comes near either bound: the longest number a replay
holds is a 64-bit seed (20 digits), the deepest value an obstacle's points (4 levels).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from asteroids.config.toml_scan import tokens

__all__ = ["MAX_DEPTH", "MAX_NUMBER_CHARS", "TomlLimitError", "loads"]

MAX_NUMBER_CHARS = 1000
"""Longest number read, in characters (digits, sign, underscores, ``0x``, exponent): far
below Python's 4 300-digit limit, also for hexadecimal (1 000 hex digits are about 1 200
decimal ones), so every integer read can be printed. It may still exceed the float range:
compare with a bound before converting."""
MAX_DEPTH = 32
"""Deepest nesting of arrays and tables read (an obstacle's points are 4 levels deep)."""

class TomlLimitError(ValueError):
    """TOML over a bound (a number too long, values nested too deeply).

    Attributes:
        reason: the problem, one sentence without a position.
        line: 1-based line of the offending text, or None when unknown.
        col: 1-based column, or None.
    """

    def __init__(self, reason: str, line: int | None = None, col: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.col = col
        where = f" (at line {line}, column {col})" if line is not None else ""
        super().__init__(f"{reason}{where}")


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _check_text(text: str) -> None:
    """Refuse over-long numbers, over-deep brackets and over-deep dotted keys, by position,
    without converting anything: one pass over the tokens (``toml_scan``), linear in the
    text however it is built."""
    brackets: list[str] = []  # the open brackets, innermost last (at most MAX_DEPTH)
    in_key = True  # a key may start here: a line's start outside brackets, a header, a
    # table's ``{`` or ``,``; tomllib reads dotted keys in time quadratic in their parts
    key_start = -1  # where the key being read starts (-1: none yet)
    dots = 0  # the dots of that key outside quotes: one per part after the first
    for m in tokens(text):
        kind = m.lastgroup
        if kind == "bare":
            _check_bare(text, m, in_key)
            if in_key:
                if key_start < 0:
                    key_start = m.start()
                dots += text.count(".", m.start(), m.end())
                if dots >= MAX_DEPTH:
                    raise TomlLimitError(f"keys are nested more than {MAX_DEPTH} deep",
                                         *_position(text, key_start))
        elif kind == "str" or kind == "ml_str":
            if in_key and key_start < 0:
                key_start = m.start()
        elif kind == "nl":
            in_key, key_start, dots = not brackets, -1, 0
        elif kind == "punct":
            char = text[m.start()]
            if char == "[" or char == "{":
                if len(brackets) >= MAX_DEPTH:
                    raise TomlLimitError(
                        f"arrays or tables are nested more than {MAX_DEPTH} deep",
                        *_position(text, m.start()))
                brackets.append(char)
                # ``[`` where a key may start opens a table header (``[[`` too).
                in_key = char == "{" or in_key
            elif char == "]" or char == "}":
                if brackets:
                    brackets.pop()
                in_key = False
            elif char == ",":
                in_key = bool(brackets) and brackets[-1] == "{"
            else:  # "="
                in_key = False
            key_start, dots = -1, 0


def _check_bare(text: str, m: re.Match[str], in_key: bool) -> None:
    """Refuse a number longer than ``MAX_NUMBER_CHARS`` in a run of bare characters, and
    outside a key a word with ``MAX_DEPTH`` dots: a number is the run from its first digit
    (with the sign just before it), a word the run from its first character that is neither
    a digit nor a sign."""
    run = m.group()
    signs = len(run) - len(run.lstrip("+-"))
    if signs == len(run):
        return
    if run[signs] in _DIGITS:
        first = signs - 1 if signs else 0
        length = len(run) - first
        if length > MAX_NUMBER_CHARS:
            raise TomlLimitError(
                f"a number is written with {length} characters; numbers longer "
                f"than {MAX_NUMBER_CHARS} characters are refused",
                *_position(text, m.start() + first))
    elif not in_key and run.count(".", signs) >= MAX_DEPTH:
        raise TomlLimitError(f"keys are nested more than {MAX_DEPTH} deep",
                             *_position(text, m.start() + signs))


_DIGITS = frozenset("0123456789")


def _check_depth(doc: dict[str, Any]) -> None:
    """Refuse tables nested too deeply by dotted keys (``a.b.c... = 1``), without recursion."""
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TomlLimitError(f"keys are nested more than {MAX_DEPTH} deep")
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads`` for text from outside: bounded first, then parsed.

    Raises:
        TomlLimitError: a number longer than ``MAX_NUMBER_CHARS`` characters, or nesting
            deeper than ``MAX_DEPTH`` (with the line and column where the text shows it).
        tomllib.TOMLDecodeError: the text is not valid TOML.
    """
    _check_text(text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except (ValueError, RecursionError) as exc:  # pragma: no cover - the checks above stop it
        raise TomlLimitError(f"the text is beyond what can be read ({exc})") from None
    _check_depth(doc)
    return doc
