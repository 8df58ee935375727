"""The presets that ship inside the package, so ``--config classic`` works from any install.

The files in ``config/`` are the documented, editable copies; ``asteroids/config/presets/``
carries the same bytes (a test proves it), read with ``importlib.resources`` so they are found
in a wheel, a zip or a one-file build alike.
"""

from __future__ import annotations

import difflib
import re
from importlib import resources

__all__ = ["PRESET_ORDER", "is_preset_name", "preset_bytes", "preset_description",
           "preset_names", "suggest_preset"]

PRESET_ORDER = ("default", "classic", "arena")
"""How ``asteroids config presets`` lists the bundled presets (any others follow, sorted)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def _folder() -> resources.abc.Traversable:
    return resources.files("asteroids.config").joinpath("presets")


def preset_names() -> tuple[str, ...]:
    """The bundled presets' names, in ``PRESET_ORDER`` and then alphabetically."""
    found = {p.name[:-5] for p in _folder().iterdir() if p.name.endswith(".toml")}
    first = [n for n in PRESET_ORDER if n in found]
    return tuple(first + sorted(found - set(first)))


def is_preset_name(text: str) -> bool:
    """True for text shaped like a preset name (no folder, no suffix), known or not."""
    return _NAME.fullmatch(text) is not None


def preset_bytes(name: str) -> bytes:
    """The bundled preset file's bytes.

    Raises:
        KeyError: if there is no preset of that name.
    """
    if not is_preset_name(name) or name not in preset_names():
        raise KeyError(name)
    return _folder().joinpath(f"{name}.toml").read_bytes()


def preset_description(name: str) -> str:
    """The first sentence of the preset's opening comment, e.g. "Arena preset: a closed box
    with hexagonal pillars."."""
    words: list[str] = []
    for line in preset_bytes(name).decode("utf-8").splitlines():
        if not line.startswith("#"):
            break
        text = line.lstrip("#").strip()
        if not text:
            if words:
                break
            continue
        words.append(text)
        if text.endswith("."):
            break
    return " ".join(words).split(". ")[0].rstrip(".") + "." if words else ""


def suggest_preset(text: str) -> str:
    """A did-you-mean hint ("; did you mean 'classic'?") or "" when nothing is close."""
    names = preset_names()
    if len(text) * 0.6 > 2 * max(map(len, names), default=0):
        return ""  # too long to be that close (and difflib's time grows with the square)
    close = difflib.get_close_matches(text.lower(), names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""
