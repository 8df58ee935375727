"""Checking one source's settings against the schema: each value's type, range, choice and
length, and an unknown key with what it likely meant ("did you mean 'world.tick_hz'?").

``Validator`` walks one source's raw TOML data table by table, keeps what is valid
(converted: ints as floats where a knob wants a number, lists as tuples, obstacles as
``Obstacle``) and records every problem as a ``ConfigIssue`` placed by its source, never
raising, so the loader reports every problem of every source at once. Checks that need
several keys are in ``asteroids.config.cross_field``; ``leaf`` names the unit a layer
replaces whole (a list, the obstacles list), which the loader and those checks share.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import math
from collections.abc import Iterable
from typing import Any

from asteroids.config.errors import ConfigIssue
from asteroids.config.keys import KEY_NAMES
from asteroids.config.knobs import MIN_OBSTACLE_POINTS, Knob, describe, knobs
from asteroids.config.locate import Path
from asteroids.config.reading import Source, dotted
from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.messages import QUOTED, clip, quote

__all__ = ["LEAF_PATHS", "MAX_HINTS", "Validator", "leaf"]

_KEY_NAME_SET = frozenset(KEY_NAMES)
_UNITS = ("_px", "_deg", "_s", "_s2", "_hz", "_per")
"""Unit suffixes a name is also matched without (``speed_max_px_per_s`` as ``speed_max``)."""


class _Bad:
    """Marker for a value that failed validation (and was reported)."""


_BAD = _Bad()


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "table"
    return "datetime"


def _show(value: Any, limit: int = 60) -> str:
    """A value as TOML-ish text, shortened for a one-line message."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = repr(value)
    elif isinstance(value, str):
        text = json.dumps(value)
    elif isinstance(value, list):
        text = "[" + ", ".join(_show(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {_show(v, limit)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    return clip(text, limit)


def _got(value: Any) -> str:
    return f"{_show(value)} ({_type_name(value)})"


def _norm(name: str) -> str:
    return name.lower().replace("-", "_")


def _without_units(name: str) -> str:
    """``name`` without its trailing unit suffixes (``_px_per_s``), or ``name`` when that
    leaves nothing; one pass from the end, however many suffixes it has."""
    end = len(name)
    while True:
        for unit in _UNITS:
            if name.endswith(unit, 0, end):
                end -= len(unit)
                break
        else:
            break
    return name[:end] or name


def _forms(name: str) -> list[str]:
    """Ways to spell a name for matching: as is, without its unit suffix, words sorted.

    ``speed_max_px_per_s`` also matches as ``speed_max`` and ``max_speed``, so ``max_sped``
    finds it although the unit suffix makes the full names far apart.
    """
    base = _norm(name)
    bare = _without_units(base)
    return list(dict.fromkeys([base, bare, "_".join(sorted(bare.split("_")))]))


@functools.lru_cache(maxsize=64)
def _candidate_forms(candidates: tuple[str, ...]) -> tuple[dict[str, str], int]:
    """Each spelling (``_forms``) of the candidates mapped to its candidate, and the length
    of the longest spelling."""
    by_form: dict[str, str] = {}
    for c in candidates:
        for form in _forms(c):
            by_form.setdefault(form, c)
    return by_form, max(map(len, by_form), default=0)


_CLOSE = 0.6
"""How alike a name and a candidate must be (``difflib``'s ratio) to be suggested."""


def _suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate after ignoring case, ``-``/``_`` and unit suffixes, or None.

    A name (without its unit suffixes) more than ``2 / _CLOSE`` times as long as the longest
    candidate cannot be that alike (the ratio is at most twice the shorter length over both
    lengths), so it is not compared: ``difflib`` can take time quadratic in the lengths, and
    a name may be 64 KiB long.
    """
    by_form, longest = _candidate_forms(tuple(candidates))
    if len(_without_units(_norm(name))) * _CLOSE > 2 * longest:
        return None
    best: tuple[float, str] | None = None
    for query in _forms(name):
        for hit in difflib.get_close_matches(query, list(by_form), n=1, cutoff=_CLOSE):
            score = difflib.SequenceMatcher(None, query, hit).ratio()
            if best is None or score > best[0]:
                best = (score, by_form[hit])
    return best[1] if best else None


def _key_text(path: Path) -> str:
    """A dotted key for a message: as it is, or quoted and shortened when it is long (a key
    from outside may be 64 KiB)."""
    text = dotted(path)
    return text if len(text) <= QUOTED else quote(text)


def _all_paths(cls: type, prefix: Path = ()) -> Iterable[Path]:
    for k in knobs(cls):
        if k.kind == "table" and k.cls is not None:
            yield from _all_paths(k.cls, (*prefix, k.name))
        else:
            yield (*prefix, k.name)


LEAF_PATHS = tuple(_all_paths(Config))
"""Every setting's path (lists and the obstacles list as one), in schema order."""

MAX_HINTS = 100
"""Did-you-mean hints looked for in one source; later problems come without one (a message
shows the first problems only, and 10 000 bad names would take seconds to match)."""


class Validator:
    """Checks one source's raw TOML data against the schema, collecting issues."""

    def __init__(self, source: Source, issues: list[ConfigIssue]) -> None:
        self.src = source
        self.issues = issues
        self.bad: set[Path] = set()
        """Leaf paths with an error, so cross-field checks on them are skipped."""
        self.set_paths: list[Path] = []
        """Leaf paths this source set to a valid value."""
        self.hints = 0
        """Did-you-mean hints looked for so far (at most ``MAX_HINTS``)."""

    def suggest(self, name: str, candidates: Iterable[str]) -> str | None:
        """``_suggest``, for the first ``MAX_HINTS`` problems of this source; None after."""
        if self.hints >= MAX_HINTS:
            return None
        self.hints += 1
        return _suggest(name, candidates)

    def report(self, path: Path, code: str, message: str, expected: str = "",
               got: str = "") -> _Bad:
        self.issues.append(self.src.issue(path, code, message, expected, got))
        self.bad.add(leaf(path))
        return _BAD

    def table(self, data: dict[str, Any], cls: type, path: Path) -> dict[str, Any]:
        """Validate a table; returns the valid entries, converted (nested tables as dicts)."""
        by_name = {k.name: k for k in knobs(cls)}
        out: dict[str, Any] = {}
        for name, value in data.items():
            knob = by_name.get(name)
            if knob is None:
                self.unknown(name, value, by_name, path)
                continue
            sub = (*path, name)
            if knob.kind == "table" and knob.cls is not None:
                if not isinstance(value, dict):
                    self.report(sub, "type", f"{dotted(sub)} must be a table [{dotted(sub)}]; "
                                f"got {_got(value)}", f"a table [{dotted(sub)}]", _got(value))
                    continue
                out[name] = self.table(value, knob.cls, sub)
                continue
            converted = self.value(value, knob, sub)
            if converted is not _BAD:
                out[name] = converted
                self.set_paths.append(sub)
        return out

    def unknown(self, name: str, value: Any, by_name: dict[str, Knob], path: Path) -> None:
        sub = (*path, name)
        what = "table" if isinstance(value, dict) else "key"
        hint = self.suggest(name, by_name)
        if hint is None:
            # Maybe the right key in the wrong table: [ship] tick_hz -> world.tick_hz.
            norm = _norm(name)
            elsewhere = [p for p in LEAF_PATHS if _norm(str(p[-1])) == norm]
            if len(elsewhere) == 1 and elsewhere[0] != sub:
                hint = dotted(elsewhere[0])
        message = f"{_key_text(sub)} is not a known {what}"
        if hint is not None:
            message += f"; did you mean '{hint}'?"
        where = f"[{dotted(path)}]" if path else "the top level"
        self.report(sub, "unknown-key", message, f"a key of {where}", name)

    def value(self, value: Any, knob: Knob, path: Path) -> Any:
        kind = knob.kind
        if kind in ("int", "float"):
            return self.number(value, knob, path, describe(knob))
        if kind == "bool":
            if not isinstance(value, bool):
                return self.mismatch(path, knob, value)
            return value
        if kind == "str":
            return self.choice(value, knob, path)
        if kind == "list":
            return self.number_list(value, knob, path)
        if kind == "keys":
            return self.key_list(value, knob, path)
        if kind == "tables":
            return self.obstacles(value, knob, path)
        if kind == "points":
            return self.points(value, knob, path)
        raise AssertionError(f"unhandled knob kind {kind}")  # pragma: no cover

    def mismatch(self, path: Path, knob: Knob, value: Any, code: str = "type") -> _Bad:
        expected = describe(knob, dotted(path))
        return self.report(path, code, f"{dotted(path)} must be {expected}; got {_got(value)}",
                           expected, _got(value))

    def number(self, value: Any, knob: Knob, path: Path, expected: str,
               elem: type | None = None) -> Any:
        """Check one number against the knob's type (``elem`` overrides it) and range."""
        want = elem or (int if knob.kind == "int" else float)
        key = dotted(path)
        got = _got(value)
        is_num = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not is_num or (want is int and isinstance(value, float)):
            return self.report(path, "type", f"{key} must be {expected}; got {got}",
                               expected, got)
        if isinstance(value, float) and not math.isfinite(value):
            return self.report(path, "non-finite", f"{key} must be finite, {expected}; got "
                               f"{got}", expected, got)
        lo, hi = knob.meta.get("lo"), knob.meta.get("hi")
        too_low = lo is not None and (value <= lo if knob.meta.get("lo_open") else value < lo)
        too_high = hi is not None and value > hi
        if too_low or too_high:
            return self.report(path, "range", f"{key} must be {expected}; got {got}",
                               expected, got)
        return float(value) if want is float else value

    def choice(self, value: Any, knob: Knob, path: Path) -> Any:
        if not isinstance(value, str):
            return self.mismatch(path, knob, value)
        choices = knob.meta.get("choices")
        if choices and value not in choices:
            expected = describe(knob)
            message = f"{dotted(path)} must be {expected}; got {_got(value)}"
            hint = self.suggest(value, choices)
            if hint is not None:
                message += f"; did you mean '{hint}'?"
            return self.report(path, "choice", message, expected, _got(value))
        return value

    def number_list(self, value: Any, knob: Knob, path: Path) -> Any:
        if not isinstance(value, list):
            return self.mismatch(path, knob, value)
        length = knob.meta.get("length")
        ok = True
        if length is not None and len(value) != length:
            expected = describe(knob)
            got = f"{_show(value)} (array of {len(value)})"
            self.report(path, "length", f"{dotted(path)} must be {expected}; got {got}",
                        expected, got)
            ok = False
        elem_knob = dataclasses.replace(knob, kind="int" if knob.elem is int else "float")
        elem_expected = describe(elem_knob)
        out = [self.number(v, knob, (*path, i), elem_expected, knob.elem)
               for i, v in enumerate(value)]
        if not ok or any(v is _BAD for v in out):
            return _BAD
        return tuple(out)

    def key_list(self, value: Any, knob: Knob, path: Path) -> Any:
        if not isinstance(value, list):
            return self.mismatch(path, knob, value)
        if not value:
            return self.mismatch(path, knob, value, code="length")
        out = []
        expected = 'a key name from arcade.key, e.g. "SPACE", "A", "KEY_1", "LSHIFT"'
        for i, name in enumerate(value):
            sub = (*path, i)
            got = _got(name)
            if not isinstance(name, str):
                out.append(self.report(sub, "type", f"{dotted(sub)} must be {expected}; got "
                                       f"{got}", expected, got))
            elif name not in _KEY_NAME_SET:
                message = f"{dotted(sub)} must be {expected}; got {got}"
                digit = len(name) == 1 and name.isdigit()
                hint = f"KEY_{name}" if digit else self.suggest(name, KEY_NAMES)
                if hint is not None:
                    message += f"; did you mean '{hint}'?"
                out.append(self.report(sub, "choice", message, expected, got))
            else:
                out.append(name)
        return _BAD if any(v is _BAD for v in out) else tuple(out)

    def obstacles(self, value: Any, knob: Knob, path: Path) -> Any:
        if not isinstance(value, list):
            return self.mismatch(path, knob, value)
        out: list[Any] = []
        for i, item in enumerate(value):
            sub = (*path, i)
            if not isinstance(item, dict):
                expected = "a table with points = [[x, y], ...]"
                out.append(self.report(sub, "type", f"{dotted(sub)} must be {expected}; got "
                                       f"{_got(item)}", expected, _got(item)))
                continue
            before = len(self.issues)
            data = self.table(item, Obstacle, sub)
            if "points" not in data and "points" not in item:
                points_knob = next(k for k in knobs(Obstacle) if k.name == "points")
                self.points([], points_knob, (*sub, "points"))
            if len(self.issues) > before:
                out.append(_BAD)
            else:
                out.append(Obstacle(**data))
        # Obstacle entries were recorded as set individually; the list is the layered unit.
        self.set_paths = [p for p in self.set_paths if p[:1] != ("obstacles",)]
        if any(v is _BAD for v in out):
            self.bad.add(leaf(path))
            return _BAD
        return tuple(out)

    def points(self, value: Any, knob: Knob, path: Path) -> Any:
        if not isinstance(value, list):
            return self.mismatch(path, knob, value)
        out: list[Any] = []
        expected = "a point [x, y] of two finite numbers (px)"
        for j, point in enumerate(value):
            sub = (*path, j)
            good = (
                isinstance(point, list) and len(point) == 2
                and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in point)
            )
            if not good:
                code = "length" if isinstance(point, list) and len(point) != 2 else "type"
                out.append(self.report(sub, code, f"{dotted(sub)} must be {expected}; got "
                                       f"{_got(point)}", expected, _got(point)))
            elif not all(_finite(c) for c in point):
                out.append(self.report(sub, "non-finite", f"{dotted(sub)} must be {expected}; "
                                       f"got {_got(point)}", expected, _got(point)))
            else:
                out.append((float(point[0]), float(point[1])))
        if len(value) < MIN_OBSTACLE_POINTS:
            expected = describe(knob)
            got = f"{_show(value)} ({len(value)} point{'' if len(value) == 1 else 's'})"
            return self.report(path, "length", f"{dotted(path)} must be {expected}; got {got}",
                               expected, got)
        return _BAD if any(v is _BAD for v in out) else tuple(out)


def _finite(x: float) -> bool:
    """Whether a TOML number is a finite float (TOML ints may exceed the float range)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def leaf(path: Path) -> Path:
    """The layering unit a path belongs to: a whole list, or the whole obstacles list."""
    if path[:1] == ("obstacles",):
        return ("obstacles",)
    while path and isinstance(path[-1], int):
        path = path[:-1]
    return path
