"""``--set KEY=VALUE`` overrides: one line of text split into a dotted key and a TOML value.

The value is read as TOML with the bounds of a settings file (``asteroids.config.bounded``);
a bare word that is not TOML, like ``bounce``, is taken as a string. The loader layers
overrides over the files (``load_config(..., overrides=...)``); the command line, the
rulesets and a replay's recorded changes parse their ``KEY=VALUE`` texts here too.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from asteroids.config import bounded
from asteroids.config.bounded import MAX_DEPTH
from asteroids.config.reading import toml_position
from asteroids.messages import quote

__all__ = ["parse_override"]

_OVERRIDE_KEY = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def parse_override(text: str) -> tuple[str, Any]:
    """Split ``ship.thrust_px_per_s2=400`` into a dotted key and a TOML value.

    The value is parsed as TOML (``400``, ``"bounce"``, ``[1, 2]``, ``{a = 1}``); a bare word
    that is not valid TOML, like ``bounce``, is taken as a string.

    Raises:
        ValueError: with a one-line reason when the text is not ``KEY=VALUE``.
    """
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep or not _OVERRIDE_KEY.fullmatch(key):
        raise ValueError("expected KEY=VALUE with a dotted key, e.g. ship.thrust_px_per_s2=400")
    if "\n" in raw or "\r" in raw:
        raise ValueError("the value must be on one line")
    if key.count(".") >= MAX_DEPTH:
        raise ValueError(f"the key has more than {MAX_DEPTH} parts")
    try:
        parsed = bounded.loads(f"v = {raw}")
    except bounded.TomlLimitError as exc:
        raise ValueError(f"cannot read the value: {exc.reason}") from None
    except tomllib.TOMLDecodeError as exc:
        if _BARE_WORD.fullmatch(raw):
            return key, raw
        found = toml_position(str(exc))
        reason = found[0] if found is not None else str(exc)
        raise ValueError(f"cannot read the value {quote(raw)} as TOML: {reason}") from None
    return key, parsed["v"]

