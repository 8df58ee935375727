"""Which high-score table a game belongs to: its ruleset key, label and assisted flag.

A ruleset is identified by ``asteroids.replay.rules_fingerprint`` (only the rule tables
count: display, audio, keys and storage never change the key):

- ``"default"``, ``"classic"``, ``"arena"`` (any bundled preset's name) when the rules are
  exactly that preset's;
- ``"custom-<first 8 hex digits of the fingerprint>"`` otherwise;
- plus ``":assisted"`` when ``is_assisted(config)``: the rules are easier than the bundled
  preset they are closest to (the one whose rules differ in the fewest knobs; ties go to
  the first in ``preset_names()`` order). Assisted games have their own tables and are never
  ranked with the others.

The knobs that make a game *assisted* (``ASSIST_RULES``), each compared with the closest
preset's value:

=============================  ==========================================================
``game.lives``                 more ships at the start
``scoring.extra_life_every``   extra ships more often (or at all, where the preset has none)
``ship.shield.enabled``        shield on where the preset has none
``ship.hyperspace.risky``      hyperspace made safe where the preset's is risky
``asteroids.speed_min_px_per_s`` / ``asteroids.speed_max_px_per_s``  slower rocks
``game.first_wave_asteroids``  fewer rocks in the first wave
``game.wave_increment``        fewer rocks added per wave
``game.max_wave_asteroids``    fewer rocks in a full wave
``shots.autofire``             autofire on where the preset has it off
``shots.lifetime_s``           shots fly longer
``shots.max_alive``            more shots at once
``saucers.enabled``            no saucers where the preset has them
=============================  ==========================================================

Any other difference (a bigger playfield, faster rocks, more points per rock...) only makes
the rules *custom*. No arcade here.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from asteroids.config.schema import Config

# The config loader and the replay format (numpy) are imported where they are used, so that
# reading or printing the score tables starts fast.

__all__ = ["ASSISTED_SUFFIX", "ASSIST_RULES", "KEY_PATTERN", "closest_preset", "is_assisted",
           "is_ruleset_key", "ruleset_key", "ruleset_label"]

ASSISTED_SUFFIX = ":assisted"
"""Added to the key of a game played with assists."""

KEY_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}(?::assisted)?")
"""What a ruleset key looks like (a preset name or ``custom-XXXXXXXX``, then the suffix)."""


def _more(mine: Any, preset: Any) -> bool:
    return bool(mine > preset)


def _less(mine: Any, preset: Any) -> bool:
    return bool(mine < preset)


def _turned_on(mine: Any, preset: Any) -> bool:
    return bool(mine) and not bool(preset)


def _turned_off(mine: Any, preset: Any) -> bool:
    return not bool(mine) and bool(preset)


def _extra_lives_sooner(mine: Any, preset: Any) -> bool:
    # 0 means "never": any other value is sooner than never, and 0 is never easier.
    return mine != 0 and (preset == 0 or mine < preset)


ASSIST_RULES: dict[str, tuple[Callable[[Any, Any], bool], str]] = {
    "game.lives": (_more, "more ships at the start"),
    "scoring.extra_life_every": (_extra_lives_sooner, "extra ships more often"),
    "ship.shield.enabled": (_turned_on, "shield on"),
    "ship.hyperspace.risky": (_turned_off, "safe hyperspace"),
    "asteroids.speed_min_px_per_s": (_less, "slower rocks"),
    "asteroids.speed_max_px_per_s": (_less, "slower rocks"),
    "game.first_wave_asteroids": (_less, "fewer rocks"),
    "game.wave_increment": (_less, "fewer rocks"),
    "game.max_wave_asteroids": (_less, "fewer rocks"),
    "shots.autofire": (_turned_on, "autofire on"),
    "shots.lifetime_s": (_more, "longer-lived shots"),
    "shots.max_alive": (_more, "more shots at once"),
    "saucers.enabled": (_turned_off, "no saucers"),
}
"""Dotted knob -> (is it easier than the preset's value?, what the player is told)."""


def _knobs(config: Config) -> dict[str, Any]:
    """Every rule knob of ``config`` by dotted name (obstacles as one value)."""
    from asteroids.replay.format import RULE_TABLES

    out: dict[str, Any] = {}

    def walk(prefix: str, value: Any) -> None:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(f"{prefix}.{f.name}", getattr(value, f.name))
        else:
            out[prefix] = value

    for table in RULE_TABLES:
        walk(table, getattr(config, table))
    return out


@functools.lru_cache(maxsize=1)
def _presets() -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """(name, fingerprint, knobs) of each bundled preset, loaded once."""
    from asteroids.config.bundled import preset_names
    from asteroids.config.loader import load_preset
    from asteroids.replay.format import rules_fingerprint

    found = []
    for name in preset_names():
        config = load_preset(name)
        found.append((name, rules_fingerprint(config), _knobs(config)))
    return tuple(found)


def closest_preset(config: Config) -> str:
    """The bundled preset whose rules differ from ``config``'s in the fewest knobs."""
    mine = _knobs(config)
    best_name, best_diff = "", -1
    for name, _, knobs in _presets():
        diff = sum(1 for key, value in mine.items() if knobs.get(key) != value)
        if best_diff < 0 or diff < best_diff:
            best_name, best_diff = name, diff
    return best_name


def assists(config: Config) -> list[str]:
    """The assists in ``config`` compared with its closest preset, e.g. ``["game.lives"]``."""
    base = dict(next(k for n, _, k in _presets() if n == closest_preset(config)))
    mine = _knobs(config)
    return [key for key, (easier, _) in ASSIST_RULES.items()
            if key in base and easier(mine[key], base[key])]


def is_assisted(config: Config) -> bool:
    """True when ``config`` is easier than the bundled preset it is closest to (see
    ``ASSIST_RULES``); a bundled preset itself is never assisted."""
    return bool(assists(config))


def ruleset_key(config: Config) -> str:
    """The high-score table of a game played with ``config``: ``"classic"``,
    ``"custom-1a2b3c4d"``, ``"custom-1a2b3c4d:assisted"``..."""
    from asteroids.replay.format import rules_fingerprint

    fingerprint = rules_fingerprint(config)
    for name, preset_fingerprint, _ in _presets():
        if fingerprint == preset_fingerprint:
            return name
    key = f"custom-{fingerprint[:8]}"
    return key + ASSISTED_SUFFIX if is_assisted(config) else key


def is_ruleset_key(text: object) -> bool:
    """Whether ``text`` is shaped like a ruleset key (used to validate files)."""
    return isinstance(text, str) and KEY_PATTERN.fullmatch(text) is not None


def ruleset_label(key: str) -> str:
    """What the screen shows for a key: ``"CLASSIC"``, ``"CUSTOM 1A2B3C4D"``,
    ``"CLASSIC (ASSISTED)"``."""
    base, assisted = (key[: -len(ASSISTED_SUFFIX)], True) if key.endswith(ASSISTED_SUFFIX) \
        else (key, False)
    if base.startswith("custom-"):
        label = "CUSTOM " + base[len("custom-"):].upper()
    else:
        label = base.replace("_", " ").upper()
    return label + " (ASSISTED)" if assisted else label
