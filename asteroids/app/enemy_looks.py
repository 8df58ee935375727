"""How each declared enemy looks and sounds: the app's one table for a new kind of craft.

The core declares a kind of craft beyond the ship and the saucer as an ``Enemy`` in
``asteroids.core.bodies.ENEMIES``; the app needs nothing more to show it: the scene draws its
outline (``Craft.outline``) in the saucer's colour and style, and its destruction plays the
medium explosion. ``LOOKS`` gives a kind, by its name, a drawing and a sound of its own:

- ``draw``: its segments, ``(S, 2, 2)`` world points, from its ``Craft`` view this tick (the
  scene moves them to where the craft is drawn between ticks, and draws their wrap ghosts);
- ``sound``: its explosion's shape at a sample rate, peak 1.0 (like a sound set's builders),
  mixed at ``level_db`` and played as ``sound_name(kind)`` when ``CraftDestroyed`` says so;
- ``palette_kind``: whose colour and line style it takes (a name of ``palettes.KINDS``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from asteroids.core.craft import Craft

__all__ = ["LOOKS", "Look", "look_of", "segments_of", "sound_name", "voices"]

DEFAULT_SOUND = "bang_medium"
"""What a declared enemy without a sound of its own sounds like when destroyed."""


@dataclass(frozen=True)
class Look:
    """One declared kind's drawing and sound (each optional)."""

    draw: Callable[[Craft], np.ndarray] | None = None
    sound: Callable[[int], np.ndarray] | None = None
    level_db: float = -12.0
    palette_kind: str = "saucer"


LOOKS: Mapping[str, Look] = MappingProxyType({
})
"""Each declared enemy's look, by its name (``Enemy.label``); a kind not listed is drawn
from its outline and explodes like a medium rock."""


def look_of(kind: str) -> Look:
    """The look of the declared kind ``kind`` (the default one when it has none)."""
    return LOOKS.get(kind, _PLAIN)


_PLAIN = Look()


def segments_of(kind: str, craft: Craft) -> np.ndarray:
    """``craft``'s ``(S, 2, 2)`` segments: its look's drawing, or its closed outline."""
    draw = look_of(kind).draw
    if draw is not None:
        return np.asarray(draw(craft), dtype=np.float64).reshape(-1, 2, 2)
    pts = np.asarray(craft.outline(), dtype=np.float64)
    return np.stack([pts, np.roll(pts, -1, axis=0)], axis=1)


def sound_name(kind: str) -> str:
    """The sound a destroyed craft of ``kind`` plays: its own, or ``DEFAULT_SOUND``."""
    return f"enemy_{kind}" if look_of(kind).sound is not None else DEFAULT_SOUND


def voices(rate: int) -> dict[str, np.ndarray]:
    """The declared kinds' own sounds at their mix levels, read-only float32 (for the
    mixer, beside the sound set's)."""
    out = {}
    for kind, look in LOOKS.items():
        if look.sound is not None:
            wave = (np.asarray(look.sound(rate), dtype=np.float64)
                    * 10.0 ** (look.level_db / 20.0)).astype(np.float32)
            wave.setflags(write=False)
            out[sound_name(kind)] = wave
    return out
