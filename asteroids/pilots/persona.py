"""A persona's parameters: what limits a human pilot, as a small TOML file.

Every parameter is declared once in ``PARAMS`` (name, unit, range, what it means); the
loader, ``asteroids persona show`` and the fit all read that table. A persona file is one
table of these keys, e.g. the bundled ``asteroids/pilots/bundled/novice.toml``::

    name = "novice"
    reaction_ms = 450
    reaction_jitter_ms = 120
    ...

A bad file is reported like a bad config: every problem at once, one line each with the
file, line and column, the key, what is allowed and what was given (``PersonaError``).
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asteroids.config import bounded
from asteroids.config.locate import find, key_positions
from asteroids.userfile import display_name, read_user_file

__all__ = ["BUNDLED", "MAX_PERSONA_BYTES", "PARAMS", "Param", "Persona", "PersonaError",
           "bundled_persona", "load_persona_file", "parse_persona", "persona_toml"]

MAX_PERSONA_BYTES = 16 * 1024
"""Largest persona file read (a real one is a few hundred bytes)."""

BUNDLED = ("novice", "average", "expert")
"""The personas that ship in the package (``asteroids/pilots/bundled/NAME.toml``)."""


@dataclass(frozen=True)
class Param:
    """One persona parameter: its key, unit, allowed range and meaning."""

    key: str
    unit: str
    low: float
    high: float
    doc: str
    integer: bool = False

    def allowed(self) -> str:
        kind = "an integer" if self.integer else "a number"
        unit = f" ({self.unit})" if self.unit else ""
        return f"{kind} in [{self.low:g}, {self.high:g}]{unit}"


PARAMS: tuple[Param, ...] = (
    Param("reaction_ms", "ms", 0.0, 1500.0,
          "mean delay from perception to action: the pilot acts on the world as it was this "
          "long ago (its own ship excepted, whose controls it feels)"),
    Param("reaction_jitter_ms", "ms", 0.0, 500.0,
          "standard deviation of that delay, drawn anew at every glance (every 0.25 s)"),
    Param("aim_error_deg", "deg", 0.0, 30.0,
          "standard deviation of the aim's direction error, drawn for each new target"),
    Param("turn_overshoot_deg", "deg", 0.0, 90.0,
          "mean overshoot past the aim when a turn stops (once per target), then corrected"),
    Param("attention", "rocks", 1.0, 64.0,
          "how many threats are tracked: the nearest rocks (and the saucer) the pilot sees; "
          "the rest do not exist for it", integer=True),
    Param("fire_discipline", "", 0.0, 1.0,
          "1: fires only when aimed at a tracked target; 0: also sprays shots while not aimed "
          "(at most one press each 0.1 s, on a press when ready)"),
    Param("thrust_share", "", 0.0, 0.95,
          "share of flying time spent thrusting, in bursts of 0.5 s on average (a habit, not "
          "a plan)"),
    Param("hyperspace_panic", "", 0.0, 1.0,
          "chance of pressing hyperspace (the shield, when the rules have one) when a tracked "
          "rock is about to hit (contact within 0.25 s)"),
)
"""Every persona parameter, in file order."""

_BY_KEY = {p.key: p for p in PARAMS}
_TEXT_KEYS = ("name", "description")


@dataclass(frozen=True)
class Persona:
    """A pilot with human limits (see ``PARAMS`` for each field's unit and meaning)."""

    name: str
    reaction_ms: float
    reaction_jitter_ms: float
    aim_error_deg: float
    turn_overshoot_deg: float
    attention: int
    fire_discipline: float
    thrust_share: float
    hyperspace_panic: float
    description: str = ""

    def values(self) -> dict[str, float]:
        """The numeric parameters by key, in ``PARAMS`` order."""
        return {p.key: getattr(self, p.key) for p in PARAMS}

    def replace(self, **changes: Any) -> Persona:
        """A copy with some fields changed (checked against ``PARAMS``).

        Raises:
            ValueError: for an unknown key or a value out of its range.
        """
        problems = []
        for key, value in changes.items():
            param = _BY_KEY.get(key)
            if param is None and key not in _TEXT_KEYS:
                problems.append(f"{key} is not a persona parameter")
            elif param is not None and not _fits(param, value):
                problems.append(f"{key} must be {param.allowed()}; got {value!r}")
        if problems:
            raise ValueError("; ".join(problems))
        return dataclasses.replace(self, **changes)


class PersonaError(Exception):
    """A persona file or name that cannot be used; ``str()`` is one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def _fits(param: Param, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if param.integer and not isinstance(value, int):
        return False
    return math.isfinite(value) and param.low <= value <= param.high


def _got(value: Any) -> str:
    kind = {bool: "bool", int: "int", float: "float", str: "string", list: "array",
            dict: "table"}.get(type(value), type(value).__name__)
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return f"{text[:40]} ({kind})"


def parse_persona(text: str, *, source: str = "<text>", default_name: str = "") -> Persona:
    """The persona a TOML text describes; every key of ``PARAMS`` must be given.

    Args:
        text: the file's text.
        source: how messages name the file.
        default_name: the name when the file gives none (a file's stem).

    Raises:
        PersonaError: every problem, each as ``source:line:col: error[code]: message``.
    """
    try:
        doc = bounded.loads(text)
    except bounded.TomlLimitError as exc:
        where = f":{exc.line}:{exc.col}" if exc.line is not None else ""
        raise PersonaError([f"{source}{where}: error[too-large]: {exc.reason}"]) from None
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise PersonaError([f"{source}: error[syntax]: invalid TOML: {exc}"]) from None
    positions = key_positions(text)

    def at(key: str) -> str:
        line, col = find(positions, (key,))
        return f"{source}:{line}:{col}" if line is not None else source

    problems: list[str] = []
    values: dict[str, Any] = {}
    for key, value in doc.items():
        if key in _TEXT_KEYS:
            if not isinstance(value, str) or len(value) > 200:
                problems.append(f"{at(key)}: error[type]: {key} must be a string of at most "
                                f"200 characters; got {_got(value)}")
            else:
                values[key] = value
            continue
        param = _BY_KEY.get(key)
        if param is None:
            known = ", ".join([*_TEXT_KEYS, *_BY_KEY])
            problems.append(f"{at(key)}: error[unknown-key]: {key} is not a persona "
                            f"parameter; known: {known}")
        elif not _fits(param, value):
            problems.append(f"{at(key)}: error[range]: {key} must be {param.allowed()}; "
                            f"got {_got(value)}")
        else:
            values[key] = int(value) if param.integer else float(value)
    missing = [p.key for p in PARAMS if p.key not in doc]
    if missing:
        problems.append(f"{source}: error[missing]: a persona sets every parameter; missing: "
                        f"{', '.join(missing)}")
    if problems:
        raise PersonaError(problems)
    values.setdefault("name", default_name or "custom")
    return Persona(**values)


def persona_toml(persona: Persona, *, comments: bool = True) -> str:
    """The persona as a TOML file that ``parse_persona`` reads back to an equal persona."""
    lines = [f"name = {_string(persona.name)}"]
    if persona.description:
        lines.append(f"description = {_string(persona.description)}")
    for p in PARAMS:
        value = getattr(persona, p.key)
        text = str(int(value)) if p.integer else repr(float(value))
        if comments:
            unit = f" {p.unit}" if p.unit else ""
            lines.append(f"# {p.doc} [{p.low:g}, {p.high:g}]{unit}")
        lines.append(f"{p.key} = {text}")
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def load_persona_file(path: str | os.PathLike[str]) -> Persona:
    """Read a persona file (regular files only, at most ``MAX_PERSONA_BYTES``).

    Raises:
        PersonaError: when it cannot be read or is not a valid persona.
    """
    name = display_name(path)
    try:
        data = read_user_file(path, MAX_PERSONA_BYTES)
    except OSError as exc:
        raise PersonaError([f"{name}: error[unreadable]: cannot read the persona file: "
                            f"{exc.strerror or exc}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PersonaError([f"{name}: error[syntax]: not UTF-8 text"]) from None
    stem = os.path.splitext(os.path.basename(os.fspath(path)))[0]
    return parse_persona(text, source=name, default_name=stem)


def bundled_persona(name: str) -> Persona:
    """One of the personas that ship in the package (``BUNDLED``).

    Raises:
        KeyError: for another name.
    """
    if name not in BUNDLED:
        raise KeyError(name)
    text = resources.files("asteroids.pilots").joinpath("bundled", f"{name}.toml").read_text(
        encoding="utf-8")
    return parse_persona(text, source=f"<bundled {name}>", default_name=name)
