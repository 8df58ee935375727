"""Settings that stick between runs: window size and place, fullscreen, sound, last ruleset,
and the options screen's choices (effects volume, palette, monitor look, HUD scale, controls).

Kept in ``data_dir()/settings.json`` (never in the player's TOML files, which the game does
not write)::

    {"schema_version": 1, "window_width": 1280, "window_height": 720, "window_x": 40,
     "window_y": 60, "fullscreen": false, "muted": false, "master_volume": 0.7,
     "ruleset": "CLASSIC", "effects_volume": 1.0, "palette": "green",
     "monitor_strength": 0.5, "hud_scale": 1.25,
     "keys": {"fire": ["SPACE"], "thrust": ["UP", "W"]}, "pad": {"fire": ["a"]}}

Schema 2 added the options fields (``effects_volume`` ... ``pad``); a schema 1 file loads as
it is (its options are simply not remembered), and a version 1 game leaves a schema 2 file
alone rather than drop the options it does not know.

Every field may be missing or null (= use the TOML settings). Loading never raises: a bad
field is dropped with a warning, an unusable file is moved aside
(``settings.json.corrupt-<UTC time>``), a newer version's file is read and never
overwritten. ``save`` returns a one-line reason instead of raising. No arcade here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from asteroids.config.keys import KEY_NAMES
from asteroids.config.schema import PALETTES, KeysConfig
from asteroids.paths import data_dir
from asteroids.storage import (
    FileTooLarge,
    atomic_write,
    describe_os_error,
    quarantine,
    read_limited,
    remove_stale_temps,
)

__all__ = ["KEY_ACTIONS", "MAX_SETTINGS_BYTES", "PAD_ACTIONS", "PAD_BUTTONS", "SETTINGS_FILE",
           "SETTINGS_SCHEMA_VERSION", "Settings", "SettingsFileError", "parse_settings"]

SETTINGS_FILE = "settings.json"
SETTINGS_SCHEMA_VERSION = 2
MAX_SETTINGS_BYTES = 64 * 1024
"""Largest settings file read; a real one is a few hundred bytes."""

_POSITION = 1_000_000
"""Window positions are accepted in [-1e6, 1e6] px (several monitors, negative left)."""


class SettingsFileError(ValueError):
    """A settings file that cannot be used; ``str()`` is one line naming the file."""


def _int_in(lo: int, hi: int) -> Any:
    def check(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    check.__doc__ = f"a whole number in [{lo}, {hi}]"
    return check


def _bool(value: object) -> bool:
    """true or false"""
    return isinstance(value, bool)


def _volume(value: object) -> bool:
    """a number in [0, 1]"""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and 0.0 <= value <= 1.0)


def _label(value: object) -> bool:
    """a ruleset label of 1 to 200 printable characters"""
    return isinstance(value, str) and 0 < len(value) <= 200 and value.isprintable()


def _palette(value: object) -> bool:
    return isinstance(value, str) and value in PALETTES


_palette.__doc__ = f"one of {', '.join(PALETTES)}"


def _hud_scale(value: object) -> bool:
    """a number in [0.5, 3]"""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and 0.5 <= value <= 3.0)


KEY_ACTIONS: tuple[str, ...] = tuple(KeysConfig.__dataclass_fields__)
"""The actions a remembered key binding may name (``[keys]``'s fields)."""

PAD_ACTIONS: tuple[str, ...] = ("thrust", "left", "right", "fire", "hyperspace", "shield")
"""The actions a gamepad button may drive."""

PAD_BUTTONS: tuple[str, ...] = ("a", "b", "x", "y", "leftshoulder", "rightshoulder",
                                "lefttrigger", "righttrigger", "dpup", "dpdown", "dpleft",
                                "dpright")
"""Gamepad buttons that may be bound (pyglet ``Controller`` attribute names; the sticks
always steer, and start / back / guide are the menus')."""

_KEY_SET = frozenset(KEY_NAMES)


def _binding_table(actions: tuple[str, ...], names: frozenset[str], what: str) -> Any:
    def check(value: object) -> bool:
        return (isinstance(value, dict) and all(
            k in actions and isinstance(v, list) and len(v) <= 8
            and all(isinstance(n, str) and n in names for n in v)
            for k, v in value.items()))
    check.__doc__ = f"a table of action -> list of up to 8 {what}"
    return check


_CHECKS: dict[str, Any] = {
    "window_width": _int_in(320, 16384),
    "window_height": _int_in(240, 16384),
    "window_x": _int_in(-_POSITION, _POSITION),
    "window_y": _int_in(-_POSITION, _POSITION),
    "fullscreen": _bool,
    "muted": _bool,
    "master_volume": _volume,
    "ruleset": _label,
    "effects_volume": _volume,
    "palette": _palette,
    "monitor_strength": _volume,
    "hud_scale": _hud_scale,
    "keys": _binding_table(KEY_ACTIONS, _KEY_SET, "arcade.key names"),
    "pad": _binding_table(PAD_ACTIONS, frozenset(PAD_BUTTONS), "gamepad button names"),
}
"""Field -> validator (its docstring says what is allowed). Sizes match ``[display]``."""


_FLOATS = frozenset({"master_volume", "effects_volume", "monitor_strength", "hud_scale"})


@dataclass
class ParsedSettings:
    version: int
    values: dict[str, Any]
    dropped: list[str]


def parse_settings(data: bytes, name: str = SETTINGS_FILE) -> ParsedSettings:
    """Read a settings file's bytes; bad fields are left out and described in ``dropped``.

    Raises:
        SettingsFileError: the file as a whole is unusable (nothing else is raised).
    """
    if not data.strip():
        raise SettingsFileError(f"{name}: the file is empty")
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SettingsFileError(f"{name}: not a settings file: not UTF-8 text") from None
    except RecursionError:
        raise SettingsFileError(f"{name}: not a settings file: nested too deeply") from None
    except ValueError:
        raise SettingsFileError(f"{name}: not a settings file: damaged or truncated JSON") \
            from None
    if not isinstance(doc, dict):
        raise SettingsFileError(f"{name}: not a settings file: a JSON object was expected")
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SettingsFileError(f"{name}: not a settings file: no usable schema_version")
    values: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in doc.items():
        if key == "schema_version" or value is None:
            continue
        check = _CHECKS.get(key)
        if check is None:
            if version <= SETTINGS_SCHEMA_VERSION:  # a newer version's extras are fine
                dropped.append(f"unknown setting {key[:40]!r}")
            continue
        if not check(value):
            text = repr(value)
            dropped.append(f"{key} must be {check.__doc__}; got "
                           f"{text if len(text) <= 40 else text[:37] + '...'}")
            continue
        values[key] = float(value) if key in _FLOATS else value
    return ParsedSettings(version, values, dropped)


@dataclass
class Settings:
    """What the player changed in the window, remembered for the next run.

    None means "not remembered": use the TOML settings.
    """

    window_width: int | None = None
    window_height: int | None = None
    window_x: int | None = None
    window_y: int | None = None
    fullscreen: bool | None = None
    muted: bool | None = None
    master_volume: float | None = None
    ruleset: str | None = None
    """The label of the ruleset last picked on the title screen."""
    effects_volume: float | None = None
    palette: str | None = None
    monitor_strength: float | None = None
    """The vector-monitor look's strength (0: off)."""
    hud_scale: float | None = None
    keys: dict[str, list[str]] | None = None
    """Remembered key bindings, action -> key names (actions not in it: the TOML's)."""
    pad: dict[str, list[str]] | None = None
    """Remembered gamepad buttons, action -> button names (``PAD_BUTTONS``)."""
    path: Path | None = field(default=None, compare=False, repr=False)
    """Where ``save`` writes; None: ``data_dir()/settings.json``."""
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)
    """One-line messages for the player (file set aside, values dropped)."""
    read_only: str | None = field(default=None, compare=False, repr=False)
    """Why ``save`` will not write (a newer version's file), or None."""

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        """Read the settings file; never raises (see the module's docstring)."""
        target = path if path is not None else data_dir() / SETTINGS_FILE
        out = cls(path=target)
        remove_stale_temps(target.parent, target.name)
        try:
            data = read_limited(target, MAX_SETTINGS_BYTES)
        except FileNotFoundError:
            return out
        except NotADirectoryError:
            out.warnings.append(f"settings cannot be kept: a folder above {target} is a file")
            return out
        except (FileTooLarge, OSError) as exc:
            out._set_aside(describe_os_error(exc) if not isinstance(exc, FileTooLarge)
                           else str(exc))
            return out
        try:
            parsed = parse_settings(data, target.name)
        except SettingsFileError as exc:
            out._set_aside(str(exc).split(": ", 1)[-1])
            return out
        for key, value in parsed.values.items():
            setattr(out, key, value)
        if parsed.version > SETTINGS_SCHEMA_VERSION:
            out.read_only = (f"settings not saved: {target.name} is from a newer version of "
                             f"the game (schema {parsed.version}); it is kept as it is")
        elif parsed.dropped:
            out.warnings.append(f"{target.name}: {len(parsed.dropped)} bad setting"
                                f"{'' if len(parsed.dropped) == 1 else 's'} ignored "
                                f"({parsed.dropped[0]})")
        return out

    def _set_aside(self, problem: str) -> None:
        assert self.path is not None
        try:
            moved = quarantine(self.path)
        except OSError as exc:
            self.read_only = (f"settings not saved: {self.path.name} is unusable and could not "
                              f"be moved aside ({describe_os_error(exc)})")
            self.warnings.append(self.read_only)
            return
        self.warnings.append(f"{self.path.name}: {problem}; moved aside as {moved.name}, "
                             "using the default settings")

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        doc: dict[str, Any] = {"schema_version": SETTINGS_SCHEMA_VERSION}
        for f in fields(self):
            if f.name in _CHECKS:
                doc[f.name] = getattr(self, f.name)
        return doc

    def save(self) -> str | None:
        """Write the settings atomically. None when saved, else one line saying why not (the
        values stay in memory; the next ``save`` tries again). Never raises.

        Raises nothing for bad values either: a value that would not load back (a width of
        5, a volume of 2) is reported and nothing is written.
        """
        if self.read_only is not None:
            return self.read_only
        path = self.path if self.path is not None else data_dir() / SETTINGS_FILE
        doc = self.to_json()
        bad = [k for k, v in doc.items() if k in _CHECKS and v is not None and not _CHECKS[k](v)]
        if bad:
            return f"settings not saved: {bad[0]} must be {_CHECKS[bad[0]].__doc__}"
        try:
            atomic_write(path, (json.dumps(doc, indent=2) + "\n").encode("utf-8"))
        except OSError as exc:
            return f"settings not saved: {path}: {describe_os_error(exc)}"
        return None
