"""TOML text cut into tokens in one pass, for the checks made before ``tomllib`` reads it
(``asteroids.config.bounded``) and for finding where each key was written
(``asteroids.config.locate``).

The scan costs time linear in the text, whatever it holds (an unclosed string of escaped
quotes, 64 KiB of brackets): every character starts exactly one kind of token, told by that
character alone (a quote, ``#``, a line break, other white space, one of ``[]{}=,``, or
anything else), and every token pattern always matches where it starts. Its loops are greedy
and are followed only by optional parts, so the regular-expression engine never goes back
into them, and no position is tried twice: a string that is not closed simply ends where its
line ends (a multi-line string: where the text ends), and ``tomllib`` then reports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["KINDS", "tokens"]

KINDS = ("ml_str", "str", "comment", "nl", "ws", "punct", "bare")
"""The token kinds, as ``match.lastgroup`` names them: a multi-line string (``\"\"\"`` or
``'''``), a one-line string, a comment, a line break (``\\n``; the ``\\r`` of ``\\r\\n`` is
``ws``), white space, one of ``[]{}=,``, and a run of anything else (a bare key, a number, a
word such as ``true``, a ``.`` between quoted key parts)."""

_TOKEN = re.compile(
    # Multi-line basic: an escape, a quote not followed by two more, or anything else;
    # closed by the first unescaped triple quote and up to two more quotes (its content).
    # Every loop is possessive (*+, ++): the engine keeps no backtracking state per
    # repetition, so a 64 KiB string grows no stack (each pattern is unambiguous, so its
    # match is the greedy one).
    r'(?P<ml_str>"""[^"\\]*+(?:(?:\\.|"(?!""))[^"\\]*+)*+(?:"""(?:""?)?)?'
    r"|'''[^']*+(?:'(?!'')[^']*+)*+(?:'''(?:''?)?)?)"
    # One-line: closed by its quote, or unclosed up to the end of its line.
    r'|(?P<str>"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?'
    r"|'[^'\n]*+'?)"
    r"|(?P<comment>#[^\n]*+)"
    r"|(?P<nl>\n)"
    r"|(?P<ws>[^\S\n]++)"
    r"|(?P<punct>[\[\]{}=,])"
    r"|(?P<bare>[^\s\[\]{}=,#\"']++)",
    re.DOTALL,
)


def tokens(text: str) -> Iterator[re.Match[str]]:
    """Every token of ``text`` in order, as matches (``lastgroup`` is its kind, one of
    ``KINDS``); together they cover the text without a gap. Linear in ``len(text)``."""
    return _TOKEN.finditer(text)
