"""Line palettes (``display.palette``): a colour, a width and a dash for each kind of line.

A palette only changes how lines look, never what is drawn. ``vector`` is the game's original
look (soft phosphor tints); ``white``, ``green`` and ``amber`` are the monochrome monitors;
``colour`` gives every kind its own hue; ``high_contrast`` is pure white and yellow with
thicker lines; ``colour_blind`` uses the Okabe-Ito colours, which stay distinct under the
common colour-vision deficiencies, and also tells the kinds that matter apart without hue:
saucer shots are dashed and wider than the player's, saucers are drawn thicker. No arcade
here (the scene builder and tests use it without GL).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["KINDS", "PALETTES_BY_NAME", "Color", "LineStyle", "Palette", "palette_named"]

Color = tuple[float, float, float, float]
"""RGBA in 0..1."""

KINDS = ("asteroid", "ship", "flame", "shield", "saucer", "shot_ship", "shot_saucer",
         "obstacle", "particle", "icon")
"""The kinds of line a palette colours (``icon``: the spare-ship icons of the HUD)."""

PLAIN = (1.0, 0.0)
"""(width factor, dash length): a solid line of the configured width."""


@dataclass(frozen=True, slots=True)
class LineStyle:
    """How one kind of line is drawn besides its colour."""

    width: float = 1.0
    """Times the configured line width."""
    dash: float = 0.0
    """Length of each dash and gap, in line widths (0 = solid)."""

    @property
    def pair(self) -> tuple[float, float]:
        """``(width, dash)`` as the renderer stores them per segment."""
        return (self.width, self.dash)


@dataclass(frozen=True, slots=True)
class Palette:
    """A colour and a line style per kind of line, and the HUD text colour."""

    name: str
    asteroid: Color
    ship: Color
    flame: Color
    shield: Color
    saucer: Color
    shot_ship: Color
    shot_saucer: Color
    obstacle: Color
    particle: Color
    """Explosion sparks and ship debris (their alpha fades with age)."""
    icon: Color
    text: tuple[int, int, int, int]
    """Score, messages and tables: RGBA in 0..255, as arcade.Text takes it."""
    styles: dict[str, LineStyle] = field(default_factory=dict)
    """Kinds drawn wider or dashed; the others are plain lines."""
    mono: bool = False
    """A monochrome monitor: text of every kind (selected, a notice, a problem) is drawn in
    shades of ``text``, not in colours of its own."""

    def color(self, kind: str) -> Color:
        """The colour of ``kind`` (one of ``KINDS``)."""
        return getattr(self, kind)

    def style(self, kind: str) -> tuple[float, float]:
        """``(width factor, dash length)`` of ``kind``."""
        found = self.styles.get(kind)
        return found.pair if found is not None else PLAIN


def _mono(name: str, rgb: tuple[float, float, float], text: tuple[int, int, int]) -> Palette:
    c = (*rgb, 1.0)
    return Palette(name, asteroid=c, ship=c, flame=c, shield=(*rgb, 0.85), saucer=c,
                   shot_ship=c, shot_saucer=c, obstacle=c, particle=c, icon=c,
                   text=(*text, 255), mono=True)


_WHITE_TEXT = (255, 255, 255, 255)

VECTOR = Palette(
    "vector",
    asteroid=(0.86, 0.90, 1.00, 1.0),
    ship=(1.00, 1.00, 1.00, 1.0),
    flame=(1.00, 0.62, 0.25, 1.0),
    shield=(0.45, 0.80, 1.00, 0.85),
    saucer=(0.65, 1.00, 0.65, 1.0),
    shot_ship=(1.00, 1.00, 1.00, 1.0),
    shot_saucer=(1.00, 0.55, 0.55, 1.0),
    obstacle=(0.45, 0.60, 1.00, 1.0),
    particle=(1.00, 1.00, 1.00, 1.0),
    icon=(0.90, 0.90, 0.90, 1.0),
    text=_WHITE_TEXT,
)
"""The game's original look (the default): every colour as it was before palettes."""

_THICK = LineStyle(width=1.6)

PALETTES_BY_NAME: dict[str, Palette] = {
    "vector": VECTOR,
    "white": _mono("white", (1.0, 1.0, 1.0), (255, 255, 255)),
    "green": _mono("green", (0.25, 1.0, 0.40), (64, 255, 102)),
    "amber": _mono("amber", (1.0, 0.70, 0.10), (255, 178, 26)),
    "colour": Palette(
        "colour",
        asteroid=(0.80, 0.72, 0.55, 1.0),      # sand
        ship=(0.30, 0.90, 1.00, 1.0),          # cyan
        flame=(1.00, 0.55, 0.15, 1.0),
        shield=(0.30, 0.90, 1.00, 0.85),
        saucer=(0.75, 0.45, 1.00, 1.0),        # violet
        shot_ship=(1.00, 1.00, 0.35, 1.0),     # yellow
        shot_saucer=(1.00, 0.25, 0.25, 1.0),   # red
        obstacle=(0.35, 0.55, 1.00, 1.0),
        particle=(1.00, 0.85, 0.55, 1.0),
        icon=(0.30, 0.90, 1.00, 1.0),
        text=_WHITE_TEXT,
    ),
    "high_contrast": Palette(
        "high_contrast",
        asteroid=(1.0, 1.0, 1.0, 1.0),
        ship=(1.0, 1.0, 0.0, 1.0),
        flame=(1.0, 1.0, 0.0, 1.0),
        shield=(1.0, 1.0, 0.0, 1.0),
        saucer=(1.0, 1.0, 1.0, 1.0),
        shot_ship=(1.0, 1.0, 0.0, 1.0),
        shot_saucer=(1.0, 1.0, 1.0, 1.0),
        obstacle=(1.0, 1.0, 1.0, 1.0),
        particle=(1.0, 1.0, 1.0, 1.0),
        icon=(1.0, 1.0, 0.0, 1.0),
        text=(255, 255, 0, 255),
        styles={kind: _THICK for kind in ("asteroid", "ship", "saucer", "obstacle", "icon")}
        | {"shot_ship": LineStyle(width=2.2), "shot_saucer": LineStyle(width=2.2, dash=2.0)},
    ),
    "colour_blind": Palette(
        "colour_blind",
        # Okabe & Ito (2008): blue, orange, sky blue, bluish green, vermillion, yellow.
        asteroid=(0.90, 0.90, 0.90, 1.0),
        ship=(0.34, 0.71, 0.91, 1.0),          # sky blue
        flame=(0.90, 0.62, 0.00, 1.0),         # orange
        shield=(0.34, 0.71, 0.91, 0.85),
        saucer=(0.90, 0.62, 0.00, 1.0),        # orange
        shot_ship=(0.94, 0.89, 0.26, 1.0),     # yellow, solid
        shot_saucer=(0.84, 0.37, 0.00, 1.0),   # vermillion, dashed and wider
        obstacle=(0.00, 0.45, 0.70, 1.0),      # blue
        particle=(0.90, 0.90, 0.90, 1.0),
        icon=(0.34, 0.71, 0.91, 1.0),
        text=_WHITE_TEXT,
        styles={"saucer": LineStyle(width=1.6), "shot_saucer": LineStyle(width=2.0, dash=2.0)},
    ),
}
"""Every palette, by its ``display.palette`` name (the names the config accepts,
``asteroids.config.player_tables.PALETTES``, in the same order: a test keeps them equal)."""

def palette_named(name: str) -> Palette:
    """The palette called ``name`` (the config has checked it is one of ``PALETTES``)."""
    return PALETTES_BY_NAME[name]
