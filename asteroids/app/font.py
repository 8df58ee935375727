"""The game's vector font: every glyph a few strokes on a 4 x 6 grid, drawn by the line
renderer as the 1979 cabinet drew its letters with the beam.

A glyph is a tuple of strokes, each a polyline of grid points (x right 0..4, y up 0..6, half
steps allowed); the baseline is y = 0 and the cap height 6. Text is upper case: lower-case
letters are drawn as capitals. The shapes keep the classic confusions apart (the test renders
every pair at the smallest size the screens use and asserts a margin): K has a stem and X
none, H a bar; Z a flat bottom and 2 a curl; 0 a slash, O none and Q a tail; S a diagonal
spine and 5 a stem and a bowl; B a stem and 8 a crossing waist; I serifs and 1 a flag;
U a flat bottom and V a point; < and > are angles and ( and ) rounded arcs. Pure (no
arcade): ``text_segments`` gives world-unit segments that ``asteroids.app.text`` lays out.
"""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["ADVANCE", "CAP", "GLYPHS", "LINE", "WIDTH", "glyph", "glyph_segments",
           "missing_glyph", "text_segments"]

WIDTH = 4.0
"""Glyph width in grid units."""
CAP = 6.0
"""Cap height in grid units (the baseline is 0)."""
ADVANCE = 6.0
"""From one glyph's left edge to the next's, in grid units (2 units of space between)."""
LINE = 10.0
"""From one line's baseline to the next's, in grid units."""

Stroke = tuple[tuple[float, float], ...]


def _s(*points: tuple[float, float]) -> Stroke:
    return tuple((float(x), float(y)) for x, y in points)


GLYPHS: dict[str, tuple[Stroke, ...]] = {
    # Letters.
    "A": (_s((0, 0), (0, 4), (2, 6), (4, 4), (4, 0)), _s((0, 2.5), (4, 2.5))),
    "B": (_s((0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3), (0, 3)),
          _s((3, 3), (4, 2), (4, 1), (3, 0), (0, 0))),
    "C": (_s((4, 0), (0, 0), (0, 6), (4, 6)),),
    "D": (_s((0, 0), (0, 6), (2, 6), (4, 4), (4, 2), (2, 0), (0, 0)),),
    "E": (_s((4, 0), (0, 0), (0, 6), (4, 6)), _s((0, 3), (3, 3))),
    "F": (_s((0, 0), (0, 6), (4, 6)), _s((0, 3), (3, 3))),
    "G": (_s((2, 3), (4, 3), (4, 0), (0, 0), (0, 6), (4, 6)),),
    "H": (_s((0, 0), (0, 6)), _s((4, 0), (4, 6)), _s((0, 3), (4, 3))),
    "I": (_s((0, 0), (4, 0)), _s((2, 0), (2, 6)), _s((0, 6), (4, 6))),
    "J": (_s((0, 2), (0, 0), (4, 0), (4, 6)), _s((2, 6), (4, 6))),
    "K": (_s((0, 0), (0, 6)), _s((4, 6), (0, 3), (4, 0))),
    "L": (_s((0, 6), (0, 0), (4, 0)),),
    "M": (_s((0, 0), (0, 6), (2, 3), (4, 6), (4, 0)),),
    "N": (_s((0, 0), (0, 6), (4, 0), (4, 6)),),
    "O": (_s((0, 0), (0, 6), (4, 6), (4, 0), (0, 0)),),
    "P": (_s((0, 0), (0, 6), (4, 6), (4, 3), (0, 3)),),
    "Q": (_s((0, 0), (0, 6), (4, 6), (4, 2), (2, 0), (0, 0)), _s((2, 2), (4, 0))),
    "R": (_s((0, 0), (0, 6), (4, 6), (4, 3), (0, 3)), _s((1, 3), (4, 0))),
    "S": (_s((4, 5), (3, 6), (1, 6), (0, 5), (0, 4), (4, 2), (4, 1), (3, 0), (1, 0),
             (0, 1)),),
    "T": (_s((0, 6), (4, 6)), _s((2, 6), (2, 0))),
    "U": (_s((0, 6), (0, 0), (4, 0), (4, 6)),),
    "V": (_s((0, 6), (2, 0), (4, 6)),),
    "W": (_s((0, 6), (0, 0), (2, 3), (4, 0), (4, 6)),),
    "X": (_s((0, 0), (4, 6)), _s((0, 6), (4, 0))),
    "Y": (_s((0, 6), (2, 3), (4, 6)), _s((2, 3), (2, 0))),
    "Z": (_s((0, 6), (4, 6), (0, 0), (4, 0)),),
    # Digits.
    "0": (_s((0, 0), (0, 6), (4, 6), (4, 0), (0, 0)), _s((0, 0), (4, 6))),
    "1": (_s((0.5, 4.5), (2, 6), (2, 0)), _s((0.5, 0), (3.5, 0))),
    "2": (_s((0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (0, 0), (4, 0)),),
    "3": (_s((0, 6), (4, 6), (4, 0), (0, 0)), _s((1, 3), (4, 3))),
    "4": (_s((3, 0), (3, 6), (0, 2), (4, 2)),),
    "5": (_s((4, 6), (0, 6), (0, 3.5), (3, 3.5), (4, 2.5), (4, 1), (3, 0), (0, 0)),),
    "6": (_s((3, 6), (0, 3), (0, 0), (4, 0), (4, 3), (0, 3)),),
    "7": (_s((0, 6), (4, 6), (1.5, 0)),),
    "8": (_s((2, 3), (3.5, 4), (3.5, 5), (2.5, 6), (1.5, 6), (0.5, 5), (0.5, 4), (2, 3), (4, 2),
             (4, 1), (3, 0), (1, 0), (0, 1), (0, 2), (2, 3)),),
    "9": (_s((1, 0), (4, 3), (4, 6), (0, 6), (0, 3), (4, 3)),),
    # Punctuation and signs.
    " ": (),
    ".": (_s((1.75, 0), (2.25, 0), (2.25, 0.5), (1.75, 0.5), (1.75, 0)),),
    ",": (_s((2.25, 0.5), (2.25, 0), (1.25, -1)),),
    ":": (_s((1.75, 1), (2.25, 1), (2.25, 1.5), (1.75, 1.5), (1.75, 1)),
          _s((1.75, 4), (2.25, 4), (2.25, 4.5), (1.75, 4.5), (1.75, 4))),
    ";": (_s((2.25, 1), (2.25, 0.5), (1.25, -0.5)),
          _s((1.75, 4), (2.25, 4), (2.25, 4.5), (1.75, 4.5), (1.75, 4))),
    "!": (_s((2, 6), (2, 2)), _s((1.75, 0), (2.25, 0), (2.25, 0.5), (1.75, 0.5), (1.75, 0))),
    "?": (_s((0, 4.5), (1.5, 6), (2.5, 6), (4, 4.5), (4, 4), (2, 2.5), (2, 1.5)),
          _s((1.75, 0), (2.25, 0), (2.25, 0.5), (1.75, 0.5), (1.75, 0))),
    "'": (_s((2, 6), (2, 4.5)),),
    '"': (_s((1, 6), (1, 4.5)), _s((3, 6), (3, 4.5))),
    "-": (_s((0.5, 3), (3.5, 3)),),
    "+": (_s((0.5, 3), (3.5, 3)), _s((2, 1.5), (2, 4.5))),
    "=": (_s((0.5, 2), (3.5, 2)), _s((0.5, 4), (3.5, 4))),
    "*": (_s((2, 2.5), (2, 5.5)), _s((0.7, 3.25), (3.3, 4.75)), _s((0.7, 4.75), (3.3, 3.25))),
    "/": (_s((0, 0), (4, 6)),),
    "\\": (_s((0, 6), (4, 0)),),
    "_": (_s((0, -0.5), (4, -0.5)),),
    "|": (_s((2, -1), (2, 7)),),
    "(": (_s((3, 7), (1.5, 5.5), (1, 3), (1.5, 0.5), (3, -1)),),
    ")": (_s((1, 7), (2.5, 5.5), (3, 3), (2.5, 0.5), (1, -1)),),
    "[": (_s((3, 7), (1, 7), (1, -1), (3, -1)),),
    "]": (_s((1, 7), (3, 7), (3, -1), (1, -1)),),
    "{": (_s((3.5, 7), (2, 6.5), (2, 3.5), (0.5, 3), (2, 2.5), (2, -0.5), (3.5, -1)),),
    "}": (_s((0.5, 7), (2, 6.5), (2, 3.5), (3.5, 3), (2, 2.5), (2, -0.5), (0.5, -1)),),
    "^": (_s((0, 3.5), (2, 6), (4, 3.5)),),
    "<": (_s((4, 6), (0, 3), (4, 0)),),
    ">": (_s((0, 6), (4, 3), (0, 0)),),
    "#": (_s((1, 0), (1.5, 6)), _s((2.5, 0), (3, 6)), _s((0, 2), (4, 2)), _s((0, 4), (4, 4))),
    "%": (_s((0, 0), (4, 6)), _s((0, 6), (1, 6), (1, 5), (0, 5), (0, 6)),
          _s((3, 1), (4, 1), (4, 0), (3, 0), (3, 1))),
    "\u2190": (_s((4, 3), (0, 3)), _s((1.5, 4.5), (0, 3), (1.5, 1.5))),
    "\u2192": (_s((0, 3), (4, 3)), _s((2.5, 4.5), (4, 3), (2.5, 1.5))),
    "\u2191": (_s((2, 0), (2, 6)), _s((0.5, 4.5), (2, 6), (3.5, 4.5))),
    "\u2193": (_s((2, 6), (2, 0)), _s((0.5, 1.5), (2, 0), (3.5, 1.5))),
    "\u25b2": (_s((0, 1), (2, 5), (4, 1), (0, 1)),),
    "\u25bc": (_s((0, 5), (2, 1), (4, 5), (0, 5)),),
    "\u2026": (_s((0, 0), (0.5, 0), (0.5, 0.5), (0, 0.5), (0, 0)),
               _s((1.75, 0), (2.25, 0), (2.25, 0.5), (1.75, 0.5), (1.75, 0)),
               _s((3.5, 0), (4, 0), (4, 0.5), (3.5, 0.5), (3.5, 0))),
}
"""Every glyph, by character."""

missing_glyph: tuple[Stroke, ...] = (_s((0, 0), (0, 6), (4, 6), (4, 0), (0, 0)),
                                      _s((0, 0), (4, 6)), _s((0, 6), (4, 0)))
"""What a character without a glyph is drawn as: a crossed box."""


def glyph(char: str) -> tuple[Stroke, ...]:
    """The strokes of ``char`` (lower case as upper case; a crossed box when there is none)."""
    found = GLYPHS.get(char)
    if found is None:
        found = GLYPHS.get(char.upper(), missing_glyph)
    return found


@cache
def glyph_segments(char: str) -> np.ndarray:
    """(S, 2, 2) segments of ``char`` in grid units (read-only; shared)."""
    segs = [(a, b) for stroke in glyph(char) for a, b in zip(stroke, stroke[1:], strict=False)]
    out = np.array(segs, dtype=np.float32).reshape(-1, 2, 2)
    out.setflags(write=False)
    return out


def text_segments(text: str, x: float, y: float, size: float) -> np.ndarray:
    """(S, 2, 2) segments of one line of ``text`` with its first glyph's bottom-left at
    (``x``, ``y``) and a cap height of ``size`` (world units); one glyph per character,
    ``ADVANCE`` grid units apart."""
    unit = size / CAP
    parts = []
    for i, char in enumerate(text):
        segs = glyph_segments(char)
        if segs.shape[0]:
            parts.append(segs * unit + np.array([x + i * ADVANCE * unit, y], np.float32))
    if not parts:
        return np.zeros((0, 2, 2), np.float32)
    return np.concatenate(parts)
