"""Settings that stick between runs: window size and place, fullscreen, sound, last ruleset,
and the options screen's choices (effects volume, palette, monitor look, HUD scale, controls).

Kept in ``data_dir()/settings.json`` (never in the player's TOML files, which the game does
not write)::

    {"schema_version": 2, "window_width": 1280, "window_height": 720, "window_x": 40,
     "window_y": 60, "fullscreen": false, "muted": false, "master_volume": 0.7,
     "ruleset": "CLASSIC", "effects_volume": 1.0, "palette": "green",
     "monitor_strength": 0.5, "hud_scale": 1.25, "show_fps": true, "border": "on",
     "keys": {"fire": ["SPACE"], "thrust": ["UP", "W"]}, "pad": {"fire": ["a"]}}

Schema 2 added the options fields (``effects_volume`` ... ``pad``; ``show_fps`` and
``border`` came later and are written only when set: ``LATER_FIELDS``); a schema 1 file is
upgraded when it loads (``SETTINGS_FORMAT.upgrades``: its options are simply not
remembered yet), and a version 1 game leaves a schema 2 file alone rather than drop the
options it does not know.

Every field may be missing or null (= use the TOML settings). A remembered option is checked
against the config schema's own declaration of the setting it stands for (``SCHEMA_FIELDS``:
``master_volume`` is ``audio.volume``, with its range); key names are ``arcade.key``'s.

The file goes through the player's-files store (``asteroids.profile.store``): loading never
raises; a bad field is left out with one line, the fields this version does not know (a note
of the player's own) are kept and written back, and the original file is copied aside
(``settings.json.corrupt-<UTC time>``) before the first write that leaves a bad field out; an
unusable file is moved aside; a read-only file, a newer version's file and a special file
(a named pipe) are read as far as they can be and never overwritten. ``save`` merges under
the store's lock: only the fields this object changed since it was loaded are written over
what the file holds now, so another window's change of another field is kept. ``save``
returns a one-line reason instead of raising. No arcade here.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from asteroids.config.keys import KEY_NAMES
from asteroids.config.knobs import Knob, describe, knobs
from asteroids.config.player_tables import KeysConfig
from asteroids.config.schema import Config
from asteroids.paths import data_dir
from asteroids.profile.store import (
    FileFormat,
    Reading,
    Store,
    StoreFileError,
    decode_document,
    plain_extras,
    short,
)

__all__ = ["KEY_ACTIONS", "LATER_FIELDS", "MAX_BINDINGS", "MAX_SETTINGS_BYTES", "PAD_ACTIONS",
           "PAD_BUTTONS", "PAD_BUTTON_NAMES", "SCHEMA_FIELDS", "SETTINGS_FILE", "SETTINGS_FORMAT",
           "SETTINGS_SCHEMA_VERSION", "ParsedSettings", "Settings", "SettingsFileError",
           "pad_button_name", "parse_settings"]

SETTINGS_FILE = "settings.json"
SETTINGS_SCHEMA_VERSION = 2
MAX_SETTINGS_BYTES = 64 * 1024
"""Largest settings file read; a real one is a few hundred bytes."""

_POSITION = 1_000_000
"""Window positions are accepted in [-1e6, 1e6] px (several monitors, negative left); the
config has no setting for them."""

MAX_BINDINGS = 8
"""Keys (or pad buttons) one remembered action may list."""

SCHEMA_FIELDS: dict[str, str] = {
    "window_width": "display.window_width_px",
    "window_height": "display.window_height_px",
    "fullscreen": "display.fullscreen",
    "muted": "audio.muted",
    "master_volume": "audio.volume",
    "effects_volume": "audio.effects_volume",
    "palette": "display.palette",
    "monitor_strength": "display.monitor.strength",
    "hud_scale": "display.hud_scale",
    "show_fps": "display.show_fps",
    "border": "display.border",
}
"""Remembered setting -> the config setting it stands for, whose schema declaration (type,
range, choices) it is checked against."""

KEY_ACTIONS: tuple[str, ...] = tuple(k.name for k in knobs(KeysConfig))
"""The actions a remembered key binding may name (``[keys]``'s fields)."""

PAD_ACTIONS: tuple[str, ...] = ("thrust", "left", "right", "fire", "hyperspace", "shield")
"""The actions a gamepad button may drive."""

PAD_BUTTONS: tuple[str, ...] = ("a", "b", "x", "y", "leftshoulder", "rightshoulder",
                                "lefttrigger", "righttrigger", "dpup", "dpdown", "dpleft",
                                "dpright")
"""Gamepad buttons that may be bound (pyglet ``Controller`` attribute names; the sticks
always steer, and start / back / guide are the menus')."""

PAD_BUTTON_NAMES: dict[str, str] = {
    "a": "A", "b": "B", "x": "X", "y": "Y", "start": "START", "back": "BACK",
    "guide": "GUIDE", "leftshoulder": "LEFT SHOULDER", "rightshoulder": "RIGHT SHOULDER",
    "lefttrigger": "LEFT TRIGGER", "righttrigger": "RIGHT TRIGGER",
    "leftstick": "LEFT STICK", "rightstick": "RIGHT STICK", "dpup": "D-PAD UP",
    "dpdown": "D-PAD DOWN", "dpleft": "D-PAD LEFT", "dpright": "D-PAD RIGHT",
}
"""What the screens call each gamepad button (pyglet ``Controller`` attribute names)."""


def pad_button_name(button: str) -> str:
    """A gamepad button as the screens show it.

    >>> pad_button_name("righttrigger"), pad_button_name("dpup"), pad_button_name("x")
    ('RIGHT TRIGGER', 'D-PAD UP', 'X')
    """
    return PAD_BUTTON_NAMES.get(button, button.upper())


class SettingsFileError(StoreFileError):
    """A settings file that cannot be used; ``str()`` is one line naming the file."""


@cache
def schema_knob(dotted: str) -> Knob:
    """The config schema's declaration of ``dotted`` (``display.monitor.strength``).

    Raises:
        KeyError: no such setting.
    """
    cls: type = Config
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        knob = next((k for k in knobs(cls) if k.name == part), None)
        if knob is None:
            raise KeyError(dotted)
        if i == len(parts) - 1:
            return knob
        if knob.kind != "table" or knob.cls is None:
            raise KeyError(dotted)
        cls = knob.cls
    raise KeyError(dotted)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def knob_accepts(knob: Knob, value: object) -> bool:
    """Whether ``value`` (as JSON gives it) is allowed by the schema's declaration: the
    kind (a whole number for an integer, true/false), finite, within ``lo`` / ``hi``
    (``lo_open``), one of ``choices``."""
    meta = knob.meta
    if knob.kind == "bool":
        return isinstance(value, bool)
    if knob.kind == "str":
        choices = meta.get("choices")
        return isinstance(value, str) and (not choices or value in choices)
    if knob.kind not in ("int", "float") or not _number(value):
        return False
    assert isinstance(value, (int, float))
    if knob.kind == "int" and not isinstance(value, int):
        return False
    if not math.isfinite(value):
        return False
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is not None and (value <= lo if meta.get("lo_open") else value < lo):
        return False
    return hi is None or value <= hi


def _check_schema(name: str) -> tuple[Any, str]:
    knob = schema_knob(SCHEMA_FIELDS[name])
    return (lambda value: knob_accepts(knob, value)), describe(knob)


def _check_position(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _POSITION


def _check_label(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 200 and value.isprintable()


def _binding_check(actions: tuple[str, ...], names: frozenset[str]) -> Any:
    def check(value: object) -> bool:
        return (isinstance(value, dict) and all(
            k in actions and isinstance(v, list) and len(v) <= MAX_BINDINGS
            and all(isinstance(n, str) and n in names for n in v)
            for k, v in value.items()))
    return check


_CHECKS: dict[str, tuple[Any, str]] = {
    **{name: _check_schema(name) for name in SCHEMA_FIELDS},
    "window_x": (_check_position, f"a whole number in [-{_POSITION}, {_POSITION}]"),
    "window_y": (_check_position, f"a whole number in [-{_POSITION}, {_POSITION}]"),
    "ruleset": (_check_label, "a ruleset label of 1 to 200 printable characters"),
    "keys": (_binding_check(KEY_ACTIONS, frozenset(KEY_NAMES)),
             f"a table of action ({', '.join(KEY_ACTIONS)}) -> list of up to {MAX_BINDINGS} "
             "arcade.key names"),
    "pad": (_binding_check(PAD_ACTIONS, frozenset(PAD_BUTTONS)),
            f"a table of action -> list of up to {MAX_BINDINGS} gamepad button names"),
}
"""Field -> (validator, what it allows). The schema's settings come from ``SCHEMA_FIELDS``;
the rest (window position, ruleset label, bindings) have no config setting of their own."""

_TABLES = frozenset({"keys", "pad"})
"""Fields that are tables of action -> list: a bad action is left out, the others kept."""


def _check_field(key: str, value: object, dropped: list[str]) -> Any:
    """``value`` if ``key`` accepts it (floats as float), else None with a line in
    ``dropped``. A binding table keeps its good actions."""
    check, expected = _CHECKS[key]
    if key in _TABLES and isinstance(value, dict):
        good = {a: v for a, v in value.items() if check({a: v})}
        for action in value:
            if action not in good:
                dropped.append(f"{key}.{action[:40]} must be {expected}; got "
                               f"{short(value[action])}")
        return good or None
    if not check(value):
        dropped.append(f"{key} must be {expected}; got {short(value)}")
        return None
    if SCHEMA_FIELDS.get(key) and schema_knob(SCHEMA_FIELDS[key]).kind == "float":
        return float(value)  # type: ignore[arg-type]
    return value


@dataclass
class ParsedSettings:
    """What ``parse_settings`` found."""

    version: int
    values: dict[str, Any]
    """The good fields (``Settings`` field names); a null field is absent."""
    dropped: list[str]
    """One line per bad field (or binding) left out."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Fields this version does not know, kept as they are and written back."""


def _parse_document(doc: dict[str, Any], version: int,
                    name: str) -> tuple[ParsedSettings, list[str]]:
    """The store's ``parse`` for settings files (see ``FileFormat``)."""
    values: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in doc.items():
        if key in _CHECKS and value is not None:
            good = _check_field(key, value, dropped)
            if good is not None:
                values[key] = good
    extras = plain_extras(doc, tuple(_CHECKS), dropped)
    return ParsedSettings(version, values, dropped, extras), dropped


def parse_settings(data: bytes, name: str = SETTINGS_FILE) -> ParsedSettings:
    """Read a settings file's bytes; bad fields are left out and described in ``dropped``.

    Raises:
        SettingsFileError: the file as a whole is unusable (nothing else is raised).
    """
    doc, version = decode_document(SETTINGS_FORMAT, data, name)
    return _parse_document(doc, version, name)[0]


LATER_FIELDS = frozenset({"show_fps", "border"})
"""Fields added to schema 2 after 0.1.0 (the options screen's FPS counter and playfield
border): written only when set, so a file that never set them stays as 0.1.0 wrote it."""


def _dump(parsed: ParsedSettings) -> bytes:
    doc: dict[str, Any] = {"schema_version": SETTINGS_SCHEMA_VERSION}
    doc.update({f.name: parsed.values.get(f.name) for f in fields(Settings)
                if f.name in _CHECKS and not (f.name in LATER_FIELDS
                                              and parsed.values.get(f.name) is None)})
    doc.update(parsed.extras)
    return (json.dumps(doc, indent=2, allow_nan=False) + "\n").encode("utf-8")


def _upgrade_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 only added fields (the options): a schema 1 file is a schema 2 file without
    them."""
    return doc


SETTINGS_FORMAT: FileFormat[ParsedSettings] = FileFormat(
    noun="settings file", what="settings", fresh="using the default settings",
    item=("bad setting", "bad settings"), version=SETTINGS_SCHEMA_VERSION,
    upgrades=(_upgrade_1_to_2,), max_bytes=MAX_SETTINGS_BYTES, parse=_parse_document,
    dump=_dump, error=SettingsFileError,
)
"""settings.json in the player's-files store."""


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
    show_fps: bool | None = None
    """The frames-per-second counter (the options screen's FPS item)."""
    border: str | None = None
    """The playfield border (``display.border``: auto, on, off)."""
    keys: dict[str, list[str]] | None = None
    """Remembered key bindings, action -> key names (actions not in it: the TOML's)."""
    pad: dict[str, list[str]] | None = None
    """Remembered gamepad buttons, action -> button names (``PAD_BUTTONS``)."""
    path: Path | None = field(default=None, compare=False, repr=False)
    """Where ``save`` writes; None: ``data_dir()/settings.json``."""
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)
    """One-line messages for the player (file set aside, values dropped, read-only)."""
    read_only: str | None = field(default=None, compare=False, repr=False)
    """Why ``save`` will not write (a newer version's file, a read-only file), or None."""
    _saved: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The values as last loaded or saved: ``save`` writes only the fields that differ."""
    _extras: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Fields of the file this version does not know (written back as they were)."""

    @classmethod
    def load(cls, path: Path | None = None, *, tidy: bool = True) -> Settings:
        """Read the settings file; never raises (see the module's docstring). Without
        ``tidy`` (a replay window) nothing in the data folder changes: no stale temporary
        file removed, no unusable file moved aside, no lock file made."""
        out = cls(path=path if path is not None else data_dir() / SETTINGS_FILE)
        reading = out._store().load(tidy=tidy)
        out.warnings.extend(reading.notes)
        out.read_only = reading.read_only
        if reading.value is not None:
            out._take(reading.value)
        return out

    def _store(self) -> Store[ParsedSettings]:
        return Store(self.path if self.path is not None else data_dir() / SETTINGS_FILE,
                     SETTINGS_FORMAT)

    def _values(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name in _CHECKS}

    def _take(self, parsed: ParsedSettings) -> None:
        for name in self._values():
            setattr(self, name, parsed.values.get(name))
        self._saved = self._values()
        self._extras = dict(parsed.extras)
        unknown = list(parsed.extras) if parsed.version <= SETTINGS_SCHEMA_VERSION else []
        if unknown:
            name = (self.path or Path(SETTINGS_FILE)).name
            what = ("1 field" if len(unknown) == 1 else f"{len(unknown)} fields")
            self.warnings.append(f"{name}: {what} this version does not know "
                                 f"({short(unknown[0])}) kept as written")

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {"schema_version": SETTINGS_SCHEMA_VERSION, **self._values(), **self._extras}

    def save(self) -> str | None:
        """Write the settings atomically, merged under the lock: the fields changed since
        load (or the last save) over what the file holds now. None when saved (this object
        then holds what the file holds), else one line saying why not (the values stay in
        memory; the next ``save`` tries again). Never raises.

        Raises nothing for bad values either: a value that would not load back (a width of
        5, a volume of 2) is reported and nothing is written.
        """
        if self.read_only is not None:
            return self.read_only
        values = self._values()
        for key, value in values.items():
            check, expected = _CHECKS[key]
            if value is not None and not check(value):
                return f"settings not saved: {key} must be {expected}"
        changed = {k: v for k, v in values.items() if v != self._saved.get(k)}

        def merged(reading: Reading[ParsedSettings]) -> ParsedSettings:
            if reading.value is None:  # no usable file: all of this object's values
                return ParsedSettings(SETTINGS_SCHEMA_VERSION, values, [], dict(self._extras))
            out = {k: reading.value.values.get(k) for k in values}
            out.update(changed)
            return ParsedSettings(SETTINGS_SCHEMA_VERSION, out, [], reading.value.extras)

        result = self._store().save(merged)
        self.warnings.extend(result.notes)
        if result.problem is not None or result.value is None:
            if result.read_only:
                self.read_only = result.problem
            return result.problem
        for name, value in result.value.values.items():
            setattr(self, name, value)
        self._saved = self._values()
        self._extras = dict(result.value.extras)
        return None
