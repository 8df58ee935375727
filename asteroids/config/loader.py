"""Load settings: built-in defaults, then TOML files, then ``--set`` overrides, validated.

Every source is checked completely and every problem is collected, so one run reports all
of them (``ConfigError.errors``), each with its file, line, column, dotted key and a stable
code. Nothing is applied from a broken config: ``load_config`` either returns a valid,
immutable ``Config`` or raises.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from typing import Any

from asteroids.config import bounded
from asteroids.config.bounded import MAX_DEPTH
from asteroids.config.budget import BUDGET_MB, BUDGET_MS, TickWork
from asteroids.config.bundled import preset_bytes
from asteroids.config.errors import OVERRIDE_SOURCE, ConfigError, ConfigIssue
from asteroids.config.keys import KEY_NAMES, canonical_key
from asteroids.config.knobs import MIN_OBSTACLE_POINTS, Knob, describe, fmt_num, knobs
from asteroids.config.locate import Path
from asteroids.config.player_tables import KeysConfig
from asteroids.config.reading import (
    MAX_FILE_BYTES,
    TOML_POSITION,
    Source,
    TextFile,
    dotted,
    read_source,
)
from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.userfile import display_name

__all__ = ["MAX_FILE_BYTES", "load_config", "load_config_over", "load_config_text", "load_preset",
           "parse_override"]

_KEY_NAME_SET = frozenset(KEY_NAMES)
_OVERRIDE_KEY = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_UNIT_SUFFIX = re.compile(r"(_(px|deg|s|s2|hz|per))+$")


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
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _got(value: Any) -> str:
    return f"{_show(value)} ({_type_name(value)})"


def _norm(name: str) -> str:
    return name.lower().replace("-", "_")


def _forms(name: str) -> list[str]:
    """Ways to spell a name for matching: as is, without its unit suffix, words sorted.

    ``speed_max_px_per_s`` also matches as ``speed_max`` and ``max_speed``, so ``max_sped``
    finds it although the unit suffix makes the full names far apart.
    """
    base = _norm(name)
    bare = _UNIT_SUFFIX.sub("", base) or base
    return list(dict.fromkeys([base, bare, "_".join(sorted(bare.split("_")))]))


def _suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate after ignoring case, ``-``/``_`` and unit suffixes, or None."""
    by_form: dict[str, str] = {}
    for c in candidates:
        for form in _forms(c):
            by_form.setdefault(form, c)
    best: tuple[float, str] | None = None
    for query in _forms(name):
        for hit in difflib.get_close_matches(query, list(by_form), n=1, cutoff=0.6):
            score = difflib.SequenceMatcher(None, query, hit).ratio()
            if best is None or score > best[0]:
                best = (score, by_form[hit])
    return best[1] if best else None


def _all_paths(cls: type, prefix: Path = ()) -> Iterable[Path]:
    for k in knobs(cls):
        if k.kind == "table" and k.cls is not None:
            yield from _all_paths(k.cls, (*prefix, k.name))
        else:
            yield (*prefix, k.name)


_LEAF_PATHS = tuple(_all_paths(Config))
"""Every setting's path (lists and the obstacles list as one), in schema order."""


class _Validator:
    """Checks one source's raw TOML data against the schema, collecting issues."""

    def __init__(self, source: Source, issues: list[ConfigIssue]) -> None:
        self.src = source
        self.issues = issues
        self.bad: set[Path] = set()
        """Leaf paths with an error, so cross-field checks on them are skipped."""
        self.set_paths: list[Path] = []
        """Leaf paths this source set to a valid value."""

    def report(self, path: Path, code: str, message: str, expected: str = "",
               got: str = "") -> _Bad:
        self.issues.append(self.src.issue(path, code, message, expected, got))
        self.bad.add(_leaf(path))
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
        hint = _suggest(name, by_name)
        if hint is None:
            # Maybe the right key in the wrong table: [ship] tick_hz -> world.tick_hz.
            elsewhere = [p for p in _LEAF_PATHS if _norm(str(p[-1])) == _norm(name)]
            if len(elsewhere) == 1 and elsewhere[0] != sub:
                hint = dotted(elsewhere[0])
        message = f"{dotted(sub)} is not a known {what}"
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
            hint = _suggest(value, choices)
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
                hint = f"KEY_{name}" if digit else _suggest(name, KEY_NAMES)
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
            self.bad.add(_leaf(path))
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


def _leaf(path: Path) -> Path:
    """The layering unit a path belongs to: a whole list, or the whole obstacles list."""
    if path[:1] == ("obstacles",):
        return ("obstacles",)
    while path and isinstance(path[-1], int):
        path = path[:-1]
    return path


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
        reason = TOML_POSITION.sub(r"\1", str(exc))
        raise ValueError(f"cannot read the value {_short(raw)} as TOML: {reason}") from None
    return key, parsed["v"]


def _short(raw: str, limit: int = 60) -> str:
    """``raw`` quoted for a message, cut to ``limit`` characters."""
    text = repr(raw)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _as_tree(obj: Any) -> dict[str, Any]:
    """One level of a config dataclass as a dict: its nested tables stay dataclasses until a
    layer sets something in them (``_merge``), so a layer costs what it sets."""
    return {k.name: getattr(obj, k.name) for k in knobs(type(obj))}


def _merge(tree: dict[str, Any], partial: dict[str, Any]) -> None:
    for name, value in partial.items():
        if isinstance(value, dict):
            node = tree[name]
            if not isinstance(node, dict):
                node = tree[name] = _as_tree(node)
            _merge(node, value)
        else:
            tree[name] = value


def _build(cls: type, tree: dict[str, Any] | Any, base: Any = None) -> Any:
    """The dataclass of a merged tree: a table no layer touched is the dataclass it was, and
    one whose values are all still ``base``'s is ``base`` itself, so settings changed a few
    at a time share what they keep."""
    if not isinstance(tree, dict):
        return tree
    kwargs = {}
    same = base is not None
    for k in knobs(cls):
        value = tree[k.name]
        if k.kind == "table" and k.cls:
            value = _build(k.cls, value, None if base is None else getattr(base, k.name))
        kwargs[k.name] = value
        same = same and value is getattr(base, k.name)
    return base if same else cls(**kwargs)


def _with_before_values(obj: Any) -> Any:
    """A config dataclass with each knob that declares a ``before`` value (see
    ``schema.knob``) set to it instead of its default."""
    changes = {}
    for k in knobs(type(obj)):
        value = getattr(obj, k.name)
        if k.kind == "table" and k.cls is not None:
            sub = _with_before_values(value)
            if sub is not value:
                changes[k.name] = sub
        elif "before" in k.meta:
            changes[k.name] = k.meta["before"]
    return dataclasses.replace(obj, **changes) if changes else obj


def load_config(
    *paths: str | os.PathLike[str],
    overrides: Sequence[str] = (),
    recorded: bool = False,
) -> Config:
    """The built-in defaults, layered with each file in order and then each override.

    Files may set any subset of keys; later layers win, and lists (including
    ``[[obstacles]]``) are replaced whole. Ints are accepted for float knobs; floats for int
    knobs, booleans for numbers, nan and inf are not.

    Args:
        *paths: TOML files, applied in order.
        overrides: ``KEY=VALUE`` texts (``ship.thrust_px_per_s2=400``), applied last.
        recorded: the files are settings a version of the game recorded whole (a replay's):
            a knob missing from them did not exist in that version, so it starts from its
            ``before`` value (the one that plays as that version did), not its default.

    Returns:
        The validated, immutable config.

    Raises:
        ConfigError: listing every problem in every source (nothing is partially applied).
    """
    base = _with_before_values(Config()) if recorded else Config()
    return _load(base, None, paths, overrides)


def load_config_over(base: Config, overrides: Sequence[str], *, source: str) -> Config:
    """``base`` layered with ``overrides``, with the same checks as ``load_config``.

    For settings changed on top of settings already loaded (a live reload, a replay's
    recorded changes): ``base`` is taken as it is, without writing it out as TOML and
    reading it back, so a change costs the same whatever the size of the settings.

    Args:
        base: settings this loader built (they are not checked again one by one).
        overrides: ``KEY=VALUE`` texts, applied in order.
        source: names ``base`` in error messages (a cross-field problem may lie in it).

    Raises:
        ConfigError: listing every problem (nothing is partially applied).
    """
    return _load(base, source, (), overrides)


def _load(base: Config, base_source: str | None, paths: Sequence[str | os.PathLike[str]],
          overrides: Sequence[str]) -> Config:
    """``base`` layered with ``paths`` then ``overrides``; ``base_source`` names ``base`` in
    errors (None: the built-in defaults)."""
    issues: list[ConfigIssue] = []
    sources: list[Source] = []
    validators: list[_Validator] = []
    tree = _as_tree(base)
    setter: dict[Path, Source] = {}
    if base_source is not None:
        src = Source(order=len(sources), name=base_source)
        sources.append(src)
        setter = dict.fromkeys(_LEAF_PATHS, src)

    def layer(src: Source, data: dict[str, Any]) -> None:
        validator = _Validator(src, issues)
        partial = validator.table(data, Config, ())
        _merge(tree, partial)
        for p in validator.set_paths:
            setter[_leaf(p)] = src
        validators.append(validator)

    for path in paths:
        src = Source(order=len(sources), name=display_name(path))
        sources.append(src)
        data = read_source(src, path, issues)
        if data is not None:
            layer(src, data)

    for index, text in enumerate(overrides, start=1):
        src = Source(order=len(sources), name=OVERRIDE_SOURCE, override=text,
                      override_index=index)
        sources.append(src)
        try:
            key, value = parse_override(text)
        except ValueError as exc:
            issues.append(ConfigIssue(source=OVERRIDE_SOURCE, line=index, col=None, key="",
                                      code="syntax", message=str(exc), expected="KEY=VALUE",
                                      got=text, order=src.order, override=text))
            continue
        data: dict[str, Any] = {}
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
        layer(src, data)

    bad = set().union(*(v.bad for v in validators)) if validators else set()
    issues.extend(_cross_field(tree, setter, bad))
    if issues:
        raise ConfigError(issues)
    return _build(Config, tree, base)


def _get(tree: dict[str, Any], path: Path) -> Any:
    """The value at ``path`` of a merged tree (dicts where layers set something, the
    dataclasses they did not touch elsewhere)."""
    node: Any = tree
    for part in path:
        node = node[part] if isinstance(node, dict) else getattr(node, str(part))
    return node


def _cross_field(tree: dict[str, Any], setter: dict[Path, Source],
                 bad: set[Path]) -> list[ConfigIssue]:
    """Checks that need several keys, judged on the layered values.

    Each problem is reported against the last source that set one of the keys involved, at
    that key's line; checks touching a key that already has an error are skipped.
    """
    out: list[ConfigIssue] = []

    def check(paths: Sequence[Path], message: str, expected: str, got: str) -> None:
        if any(_leaf(p) in bad for p in paths):
            return
        best: tuple[int, Path, Source] | None = None
        for p in paths:
            src = setter.get(_leaf(p))
            if src is not None and (best is None or src.order > best[0]):
                best = (src.order, p, src)
        if best is None:
            out.append(ConfigIssue(source="(built-in defaults)", line=None, col=None,
                                   key=dotted(paths[0]), code="cross-field",
                                   message=message.replace("{key}", dotted(paths[0])),
                                   expected=expected, got=got, order=-1))
            return
        _, path, src = best
        message = message.replace("{key}", dotted(path))
        out.append(src.issue(path, "cross-field", message, expected, got))

    g = tree
    n = fmt_num
    width, height = _get(g, ("world", "width_px")), _get(g, ("world", "height_px"))
    side = min(width, height)
    world_paths: list[Path] = [("world", "width_px"), ("world", "height_px")]
    world_text = f"{n(width)} x {n(height)} px"

    radius = _get(g, ("asteroids", "radius_px"))
    if not 2 * radius[0] < side:
        check([("asteroids", "radius_px", 0), *world_paths],
              f"a large asteroid (asteroids.radius_px[0] = {n(radius[0])}, so "
              f"{n(2 * radius[0])} px across) must be smaller than the world's smaller side "
              f"(world {world_text})",
              f"2 * asteroids.radius_px[0] < {n(side)}", f"{n(2 * radius[0])}")
    if not radius[0] > radius[1] > radius[2]:
        shown = "[" + ", ".join(n(r) for r in radius) + "]"
        check([("asteroids", "radius_px")],
              f"asteroids.radius_px must be strictly decreasing (large > medium > small); "
              f"got {shown}", "large > medium > small", shown)

    def ordered(a: Path, b: Path) -> None:
        va, vb = _get(g, a), _get(g, b)
        if va > vb:
            check([a, b], f"{dotted(a)} ({n(va)}) must not be greater than {dotted(b)} "
                  f"({n(vb)})", f"{dotted(a)} <= {dotted(b)}", f"{n(va)} > {n(vb)}")

    ordered(("asteroids", "vertices_min"), ("asteroids", "vertices_max"))
    ordered(("asteroids", "speed_min_px_per_s"), ("asteroids", "speed_max_px_per_s"))
    ordered(("saucers", "min_interval_s"), ("saucers", "first_interval_s"))
    ordered(("game", "heartbeat", "min_interval_s"), ("game", "heartbeat", "start_interval_s"))

    safe = _get(g, ("ship", "safe_radius_px"))
    if safe > side / 2:
        check([("ship", "safe_radius_px"), *world_paths],
              f"ship.safe_radius_px ({n(safe)}) must be at most half the world's smaller side "
              f"({n(side / 2)}, world {world_text}), or the ship could never return",
              f"ship.safe_radius_px <= {n(side / 2)}", n(safe))

    for i, obstacle in enumerate(_get(g, ("obstacles",))):
        for j, (x, y) in enumerate(obstacle.points):
            if not (0 <= x <= width and 0 <= y <= height):
                check([("obstacles", i, "points", j), *world_paths],
                      f"obstacles[{i}].points[{j}] = [{n(x)}, {n(y)}] lies outside the world "
                      f"([0, {n(width)}] x [0, {n(height)}])",
                      "points inside the world", f"[{n(x)}, {n(y)}]")
                break

    owners: dict[str, list[tuple[str, int]]] = {}
    for action in (k.name for k in knobs(KeysConfig)):
        for index, name in enumerate(_get(g, ("keys", action))):
            owners.setdefault(canonical_key(name), []).append((action, index))
    for name, uses in owners.items():
        actions = list(dict.fromkeys(a for a, _ in uses))
        if len(actions) > 1:
            listed = " and ".join(f"keys.{a}" for a in actions)
            check([("keys", a, i) for a, i in uses],
                  f'{{key}}: key "{name}" is bound to more than one action: {listed}',
                  "each key bound to one action", f'"{name}" in {listed}')

    work = TickWork.of(lambda key: _get(g, tuple(key.split("."))))
    if work.over_budget():
        ms, mb = work.cost()
        _, keys = work.explain()
        check([tuple(k.split(".")) for k in keys], work.message(),
              f"at most {BUDGET_MS:g} ms and {BUDGET_MB:g} MiB a tick",
              f"about {math.ceil(ms)} ms and {math.ceil(mb)} MiB")
    return out


def load_config_text(text: str, *, source: str = "<text>",
                     overrides: Sequence[str] = (), recorded: bool = False) -> Config:
    """The built-in defaults layered with settings given as TOML text, then ``overrides``.

    For settings embedded in another file (a replay stores its whole resolved config this
    way, and its mid-game changes as overrides; it passes ``recorded=True``, see
    ``load_config``); the same checks and limits as ``load_config`` apply, and errors name
    ``source``.

    Raises:
        ConfigError: listing every problem (positions are lines of ``text``).
    """
    return load_config(TextFile(source, text.encode("utf-8")), overrides=overrides,
                       recorded=recorded)


def load_preset(name: str, *, overrides: Sequence[str] = ()) -> Config:
    """The bundled preset ``name`` layered with ``overrides``, validated.

    Unlike ``load_config(name)``, a file of that name in the working folder does not win: this
    always reads the copy that ships in the package.

    Raises:
        KeyError: if no preset has that name.
        ConfigError: listing every problem (the preset with these overrides is invalid).
    """
    return load_config(TextFile(name, preset_bytes(name)), overrides=overrides)
