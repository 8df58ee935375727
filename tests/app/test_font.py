"""Issue 22, item 1: no two glyphs of the vector font can be taken for each other.

Every glyph is rasterised as the screens draw their smallest letters (``MIN_LETTER_PX`` high,
the strokes as wide as ``stroke_factor`` makes them there with the default line width), and
every pair is compared: somewhere one glyph's ink lies at least ``MARGIN_PX`` from all of the
other's (their Hausdorff distance), and at least ``MIN_DIFFERENCE`` of their ink differs.
The classic confusions of the old font are named one by one. Pure: no window."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asteroids.app import font
from asteroids.app.font import CAP, GLYPHS, WIDTH, glyph, glyph_segments, text_segments
from asteroids.app.text import MIN_LETTER_PX, stroke_factor, text_width
from asteroids.config import load_config

MARGIN_PX = 2.0
"""Some stroke of one glyph is this far from every stroke of the other (more than a line's
width: the gap shows), at the smallest size."""
MIN_DIFFERENCE = 0.15
"""At least this share of two glyphs' ink differs."""

LINE_PX = stroke_factor(MIN_LETTER_PX, 1.0, load_config().display.line_width_px) * \
    load_config().display.line_width_px
"""How wide the strokes of the smallest letters are drawn (default line width)."""

NAMED = ["KX", "KH", "XH", "Z2", "O0", "OQ", "0Q", "S5", "B8", "I1", "UV", "<(", ">)"]
"""The confusions players met in the font of 0.1.0."""

_PAD = 3


def raster(char: str, cap_px: float = MIN_LETTER_PX, line_px: float = LINE_PX) -> np.ndarray:
    """Coverage (0..1) of ``char`` drawn ``cap_px`` high with ``line_px`` wide strokes."""
    unit = cap_px / CAP
    segs = glyph_segments(char).astype(np.float64) * unit
    w = int(np.ceil(WIDTH * unit)) + 2 * _PAD
    h = int(np.ceil((CAP + 2) * unit)) + 2 * _PAD
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    px, py = xs + 0.5 - _PAD, ys + 0.5 - _PAD - unit  # room for a descender
    d = np.full(px.shape, np.inf)
    for (ax, ay), (bx, by) in segs:
        vx, vy = bx - ax, by - ay
        length2 = vx * vx + vy * vy
        t = np.clip(((px - ax) * vx + (py - ay) * vy) / length2, 0.0, 1.0) if length2 else 0.0
        d = np.minimum(d, np.hypot(px - (ax + t * vx), py - (ay + t * vy)))
    return np.clip(line_px / 2 + 0.5 - d, 0.0, 1.0)


def distance_field(a: np.ndarray) -> np.ndarray:
    """Each pixel's distance to the nearest inked pixel of ``a``."""
    ink = np.argwhere(a > 0.5).astype(np.float64)
    grid = np.argwhere(np.ones_like(a, bool)).astype(np.float64)
    d = np.sqrt(((grid[:, None, :] - ink[None, :, :]) ** 2).sum(axis=-1)).min(axis=1)
    return d.reshape(a.shape)


def hausdorff_px(a: np.ndarray, b: np.ndarray, fa: np.ndarray | None = None,
                 fb: np.ndarray | None = None) -> float:
    """The larger of: how far the farthest inked pixel of ``a`` is from ``b``'s ink, and the
    other way round (``fa`` / ``fb``: their distance fields, when already made)."""
    fa = distance_field(a) if fa is None else fa
    fb = distance_field(b) if fb is None else fb
    return float(max(fb[a > 0.5].max(), fa[b > 0.5].max()))


def difference(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the two glyphs' ink that is not in both."""
    return float(np.abs(a - b).sum() / np.maximum(a, b).sum())


CHARS = [c for c in GLYPHS if glyph_segments(c).shape[0]]
RASTERS = {c: raster(c) for c in CHARS}


@pytest.mark.parametrize("pair", NAMED)
def test_the_classic_confusions_are_apart(pair: str) -> None:
    a, b = RASTERS[pair[0]], RASTERS[pair[1]]
    assert hausdorff_px(a, b) >= MARGIN_PX, pair
    assert difference(a, b) >= MIN_DIFFERENCE, pair


def test_every_pair_of_glyphs_is_apart_at_the_smallest_size() -> None:
    assert glyph("\0") is font.missing_glyph
    rasters = {**RASTERS, "missing": raster("\0")}
    fields = {c: distance_field(r) for c, r in rasters.items()}
    close = []
    for a, b in itertools.combinations([*CHARS, "missing"], 2):
        ra, rb = rasters[a], rasters[b]
        h, d = hausdorff_px(ra, rb, fields[a], fields[b]), difference(ra, rb)
        if h < MARGIN_PX or d < MIN_DIFFERENCE:
            close.append(f"{a!r}/{b!r}: {h:.2f} px, {d:.0%}")
    assert close == []


def test_the_margin_is_a_real_margin() -> None:
    """The measure tells a glyph from itself and from a glyph one grid unit off: 0 apart,
    and a shift of one unit (2 px at 12 px) is exactly the margin."""
    a = RASTERS["H"]
    assert hausdorff_px(a, a) == 0.0 and difference(a, a) == 0.0
    shifted = np.roll(a, 2, axis=1)
    assert hausdorff_px(a, shifted) == pytest.approx(MARGIN_PX)


def test_glyphs_keep_to_their_cell() -> None:
    for char in CHARS:
        segs = glyph_segments(char)
        assert segs[..., 0].min() >= 0.0 and segs[..., 0].max() <= WIDTH, char
        assert segs[..., 1].min() >= -1.0 and segs[..., 1].max() <= CAP + 1.0, char


def test_lower_case_is_drawn_as_capitals_and_unknown_characters_as_a_crossed_box() -> None:
    assert glyph("k") == glyph("K")
    assert glyph("\u00e9") == font.missing_glyph


def test_a_line_of_text_is_its_glyphs_side_by_side() -> None:
    size = 24.0
    segs = text_segments("I1", 10.0, 20.0, size)
    unit = size / CAP
    assert segs[..., 0].min() == pytest.approx(10.0)
    assert segs[..., 0].max() <= 10.0 + text_width("I1", size) + 1e-4
    assert segs[..., 1].min() == pytest.approx(20.0)
    assert segs[..., 1].max() == pytest.approx(20.0 + CAP * unit)
    second = text_segments("1", 10.0 + font.ADVANCE * unit, 20.0, size)
    assert np.allclose(segs[-second.shape[0]:], second)
