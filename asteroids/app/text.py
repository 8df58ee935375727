"""Text as laid-out lines of the vector font: measure, wrap, shrink, and the segments to draw.

A ``Frame`` is the playfield a screen lays its text out against: its size in world units,
how many window pixels one world unit is now (the letterbox's scale) and the HUD scale. Sizes
are cap heights in world units, never below ``MIN_LETTER_PX`` window pixels. A ``TextLine``
is one placed line; its ``box`` is what the layout tests keep inside the playfield and apart
from every other box. ``text_ink`` turns lines into coloured segments for the line renderer.
Pure: no arcade.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from asteroids.app.font import ADVANCE, CAP, WIDTH, text_segments
from asteroids.app.scene import Segments

__all__ = ["ELLIPSIS", "MIN_LETTER_PX", "ROLES", "SHRINK", "Frame", "TextLine", "fit", "ink_array",
           "overlaps", "rgba", "stroke_factor", "text_ink", "text_width", "truncate", "wrap"]

MIN_LETTER_PX = 12.0
"""No letter is drawn less than this many window pixels high (at 640 x 480 too)."""

ELLIPSIS = "\u2026"
"""Ends a line that was cut."""

ROLES = ("text", "selected", "dim", "notice", "wait", "problem", "faint")
"""What colour a line takes: the palette's text colour, the selection's, the waiting
player's, the live notice's, a setting that waits, a problem, the border's."""

_BELOW = 1.0
_ABOVE = 7.0
"""Glyphs reach 1 grid unit below the baseline and 1 above the cap height (brackets, a
comma's tail): a line's box covers them."""


def text_width(text: str, size: float) -> float:
    """Width of ``text`` at cap height ``size`` (world units); 0 for no text."""
    if not text:
        return 0.0
    return size / CAP * ((len(text) - 1) * ADVANCE + WIDTH)


@dataclass(frozen=True)
class Frame:
    """The playfield a screen lays its text out on.

    Attributes:
        width: playfield width in world units.
        height: playfield height in world units.
        px: window pixels per world unit now (the letterbox's scale).
        scale: ``display.hud_scale``.
    """

    width: float
    height: float
    px: float
    scale: float = 1.0

    @property
    def min_size(self) -> float:
        """The smallest cap height allowed, in world units (``MIN_LETTER_PX``)."""
        return MIN_LETTER_PX / max(self.px, 1e-9)

    @property
    def margin(self) -> float:
        """The space kept free along the playfield's edges."""
        return max(0.03 * self.height, 0.5 * self.min_size)

    def size(self, fraction: float, scaled: bool = True) -> float:
        """A cap height of ``fraction`` of the playfield's height (times the HUD scale when
        ``scaled``), never below ``min_size``."""
        return max(self.min_size, fraction * self.height * (self.scale if scaled else 1.0))


@dataclass(frozen=True)
class TextLine:
    """One line of text placed on the playfield."""

    text: str
    x: float
    """Left end of the first glyph, world units."""
    y: float
    """Baseline, world units."""
    size: float
    """Cap height, world units."""
    role: str = "text"
    """Its colour (``ROLES``)."""
    alpha: float = 1.0
    """Its opacity (a notice fading out)."""
    underline: bool = False
    """Underlined (the initials letter being entered: marked by more than colour)."""

    @property
    def width(self) -> float:
        """Width of the line."""
        return text_width(self.text, self.size)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) the line's glyphs can reach."""
        unit = self.size / CAP
        return (self.x, self.y - _BELOW * unit, self.x + self.width, self.y + (_ABOVE - CAP)
                * unit + self.size)

    @staticmethod
    def placed(text: str, x: float, y: float, size: float, anchor: str = "left",
               role: str = "text", underline: bool = False) -> TextLine:
        """A line with its ``anchor`` ("left", "center", "right") end at ``x``."""
        w = text_width(text, size)
        left = {"left": x, "center": x - w / 2, "right": x - w}[anchor]
        return TextLine(text, left, y, size, role, underline=underline)


def wrap(text: str, size: float, max_width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``max_width`` (a word wider than
    that is broken where it must); runs of spaces between words are kept inside a line."""
    per_line = max(1, int((max_width / (size / CAP) - WIDTH) // ADVANCE) + 1)
    if len(text) <= per_line:
        return [text]
    lines: list[str] = []
    rest = text
    while len(rest) > per_line:
        cut = rest.rfind("   ", 0, per_line + 1)  # between the items of a help line
        if cut < per_line // 3:
            cut = rest.rfind(" ", 0, per_line + 1)
        if cut <= 0:
            lines.append(rest[:per_line])
            rest = rest[per_line:]
        else:
            lines.append(rest[:cut].rstrip())
            rest = rest[cut:].lstrip()
    if rest:
        lines.append(rest)
    return lines


def truncate(text: str, size: float, max_width: float) -> str:
    """``text`` cut to fit ``max_width``, ending in ``ELLIPSIS`` when it was cut."""
    if text_width(text, size) <= max_width:
        return text
    keep = max(0, int((max_width / (size / CAP) - WIDTH) // ADVANCE))
    return text[:keep] + ELLIPSIS if keep else ""


SHRINK = 0.7
"""A line too long shrinks to this share of its size at most (never below the minimum);
past that it wraps."""


def fit(texts: Sequence[str], size: float, min_size: float, max_width: float,
        max_lines: int | None = None, shrink: float = SHRINK) -> tuple[list[str], float]:
    """Lines of ``texts`` that fit ``max_width``: a long line shrinks first (to ``shrink``
    of ``size`` at most, never below ``min_size``), then wraps; past ``max_lines`` the last
    line ends in ``ELLIPSIS``. Returns the lines and the size they take."""
    widest = max((text_width(t, size) for t in texts), default=0.0)
    if widest > max_width:
        size = max(min_size, size * shrink, size * max_width / widest)
    lines = [line for t in texts for line in wrap(t, size, max_width)]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        if lines:
            lines[-1] = truncate(lines[-1] + ELLIPSIS, size, max_width)
    return lines, size


def overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two (left, bottom, right, top) boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def stroke_factor(size: float, px: float, line_width_px: float) -> float:
    """How many line widths a letter's strokes are drawn: thicker as letters grow (a
    sixteenth of the cap height), never thinner than the configured line nor more than 2.5
    times it; and never more than a tenth of the cap height (a wide line on small letters)."""
    cap_px = size * px
    lw = max(line_width_px, 1e-9)
    factor = min(2.5, max(1.0, cap_px / 16.0 / lw))
    return min(factor, max(cap_px / 10.0, 1.0) / lw)


def text_ink(lines: Iterable[TextLine], colors: Mapping[str, tuple[float, ...]],
             px: float, line_width_px: float, out: Segments | None = None) -> Segments:
    """The lines as coloured segments (world units) in ``out`` (a new ``Segments`` when
    None); ``colors`` maps a role to RGBA in 0..1."""
    out = out if out is not None else Segments()
    for line in lines:
        if not line.text.strip():
            continue
        segs = text_segments(line.text, line.x, line.y, line.size)
        if line.underline:
            low = line.y - 0.6 * line.size / CAP
            segs = np.concatenate([segs, np.array([[[line.x, low], [line.x + line.width, low]]],
                                                  np.float32)])
        if segs.shape[0] == 0:
            continue
        width = stroke_factor(line.size, px, line_width_px)
        out.add(segs, _opaque(colors.get(line.role, colors["text"]), line.alpha), (width, 0.0))
    return out


def _opaque(color: tuple[float, ...], alpha: float) -> tuple[float, float, float, float]:
    """``color`` at ``alpha`` (times its own) as an opaque darker colour: text is drawn on
    black, and the plain look's glow adds colours whatever their alpha."""
    a = max(0.0, min(1.0, alpha * (color[3] if len(color) > 3 else 1.0)))
    return (color[0] * a, color[1] * a, color[2] * a, 1.0)


def rgba(color: Sequence[int]) -> tuple[float, float, float, float]:
    """An arcade RGBA (0..255) colour in 0..1, alpha 1 when not given."""
    c = [float(v) / 255.0 for v in color]
    return (c[0], c[1], c[2], c[3] if len(c) > 3 else 1.0)


def ink_array(lines: Iterable[TextLine]) -> np.ndarray:
    """Every line's segments, one (S, 2, 2) array (tests measure drawn text with it)."""
    parts = [text_segments(line.text, line.x, line.y, line.size) for line in lines]
    parts = [p for p in parts if p.shape[0]]
    return np.concatenate(parts) if parts else np.zeros((0, 2, 2), np.float32)
