"""One line, at most ``MAX_LINE`` characters, for every message the game prints.

Input from outside (a key in a shared replay, a ``--set`` text, a ruleset name) can be any
length; a message quotes it through ``quote`` (shortened with an ellipsis and its length) and
lists many items through ``listing`` (the first few, then a count). ``one_line`` is the last
guard before a line is printed: it folds line breaks and cuts what is still too long.
No arcade here.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["MAX_LINE", "QUOTED", "clip", "count", "listing", "one_line", "quote"]

MAX_LINE = 600
"""The longest line (in characters) any message of the game prints."""

QUOTED = 60
"""The longest piece of quoted input, in characters, before it is shortened."""


def count(n: int) -> str:
    """``n`` with thin groups of three digits, as the game's messages write numbers:
    ``200 000``."""
    return f"{n:,}".replace(",", " ")


def clip(text: str, limit: int) -> str:
    """``text``, or its first characters and ``...`` in ``limit`` characters when longer."""
    return text if len(text) <= limit else text[: max(limit - 3, 1)] + "..."


def quote(text: object, limit: int = QUOTED) -> str:
    """``repr(text)`` for a message, shortened past ``limit`` characters:
    ``'kkkkkkkk...' (200 000 characters)``. Non-strings are quoted by their ``repr``; an int
    too long for Python's repr (over 4 300 digits) by its size, and a value whose repr fails
    by its type, so that a message about a hostile value always comes out."""
    if not isinstance(text, str):
        try:
            shown = repr(text)
        except Exception:  # past int's str digit limit, or a hostile __repr__
            if isinstance(text, int):
                return f"(an int of {count(text.bit_length())} bits)"
            return f"(a {type(text).__name__})"
        return clip(shown, limit)
    shown = repr(text)
    if len(shown) <= limit:
        return shown
    room = max(limit - 5, 2)  # the quoted head, its opening quote included
    lo, hi = 0, min(len(text), room)
    while lo < hi:  # the most characters whose repr fits (escapes take more room)
        mid = (lo + hi + 1) // 2
        if len(repr(text[:mid])) - 1 <= room:
            lo = mid
        else:
            hi = mid - 1
    head = repr(text[:lo])[:-1]  # it closes with its own quote, which may not be shown[0]
    return f"{head}...{head[0]} ({count(len(text))} characters)"


def listing(items: Sequence[object], *, shown: int = 3, limit: int = QUOTED,
            noun: tuple[str, str] = ("item", "items")) -> str:
    """The first ``shown`` items, quoted, then how many more: ``'a', 'b', 'c' and 19 997 more
    keys``. An empty sequence is ``none``."""
    if not items:
        return "none"
    head = ", ".join(quote(item, limit) if isinstance(item, str) else str(item)
                     for item in items[:shown])
    rest = len(items) - shown
    if rest <= 0:
        return head
    return f"{head} and {count(rest)} more {noun[1] if rest > 1 else noun[0]}"


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one line of at most ``limit`` characters: line breaks (any that
    ``str.splitlines`` splits at, ``\r`` too) become spaces and a longer text is cut with
    `` ...``."""
    parts = text.splitlines()
    flat = " ".join(parts) if len(parts) > 1 else (parts[0] if parts else "")
    if len(flat) <= limit:
        return flat
    return flat[: limit - 4] + " ..."
