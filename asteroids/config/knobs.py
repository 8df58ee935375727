"""Read the schema's declarations: what kind of value each field holds, and how to say so.

The loader (validation), the renderer (``default.toml`` comments) and error messages all
describe a knob the same way, from its one declaration in the schema's tables
(``rule_tables.py``, ``player_tables.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Knob", "describe", "fmt_num", "knobs", "range_text"]

MIN_OBSTACLE_POINTS = 3
"""An obstacle needs at least a triangle."""


@dataclass(frozen=True)
class Knob:
    """One field of a config dataclass, classified for validation and rendering.

    Attributes:
        name: the field (and TOML key) name.
        kind: ``table`` (a nested dataclass), ``bool``, ``int``, ``float``, ``str``,
            ``list`` (numbers; fixed length when ``meta["length"]`` is set), ``keys`` (key
            names), ``points`` (``[[x, y], ...]``) or ``tables`` (an array of tables).
        elem: element type for ``list`` (int or float) and the dataclass for ``tables``.
        cls: the nested dataclass for ``table``.
        meta: the ``knob()`` metadata (doc, unit, lo, hi, lo_open, choices, length).
    """

    name: str
    kind: str
    elem: type | None
    cls: type | None
    meta: Mapping[str, Any]


def _classify(tp: Any) -> tuple[str, type | None, type | None]:
    if dataclasses.is_dataclass(tp):
        return "table", None, tp
    if tp in (bool, int, float, str):
        return tp.__name__, None, None
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        variable = len(args) == 2 and args[1] is Ellipsis
        elem = args[0]
        if variable and elem is str:
            return "keys", None, None
        if variable and typing.get_origin(elem) is tuple:
            return "points", None, None
        if variable and dataclasses.is_dataclass(elem):
            return "tables", elem, None
        if elem in (int, float) and (variable or all(a is elem for a in args)):
            return "list", elem, None
    raise TypeError(f"config schema: unsupported field type {tp!r}")


@functools.cache
def knobs(cls: type) -> tuple[Knob, ...]:
    """The fields of a config dataclass, in declaration order, classified."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        kind, elem, sub = _classify(hints[f.name])
        out.append(Knob(f.name, kind, elem, sub, f.metadata))
    return tuple(out)


def fmt_num(x: float) -> str:
    """A bound or value as a person writes it: ``20000`` not ``20000.0``, ``0.25`` as is."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def range_text(meta: Mapping[str, Any]) -> str:
    """`` in [lo, hi]`` (``(`` when ``lo_open``), or an open-ended form; empty if unbounded."""
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is not None and hi is not None:
        return f" in {'(' if meta.get('lo_open') else '['}{fmt_num(lo)}, {fmt_num(hi)}]"
    if lo is not None:
        return f" {'greater than' if meta.get('lo_open') else 'at least'} {fmt_num(lo)}"
    if hi is not None:
        return f" at most {fmt_num(hi)}"
    return ""


def _unit(meta: Mapping[str, Any]) -> str:
    return f" ({meta['unit']})" if meta.get("unit") else ""


def describe(knob: Knob, path: str = "") -> str:
    """What a knob accepts, e.g. ``a number in [0, 20000] (px/s^2)``.

    Args:
        knob: the knob.
        path: its dotted path, used to name a table (``a table [ship]``).
    """
    meta = knob.meta
    kind = knob.kind
    if kind == "float":
        return f"a number{range_text(meta)}{_unit(meta)}"
    if kind == "int":
        return f"an integer{range_text(meta)}{_unit(meta)}"
    if kind == "bool":
        return "true or false"
    if kind == "str":
        choices = meta.get("choices")
        if choices:
            return "one of " + ", ".join(f'"{c}"' for c in choices)
        return "a string"
    if kind == "list":
        what = "integers" if knob.elem is int else "numbers"
        count = f"{meta['length']} " if meta.get("length") else ""
        each = f", each{range_text(meta)}" if range_text(meta) else ""
        return f"a list of {count}{what}{each}{_unit(meta)}"
    if kind == "keys":
        return 'a non-empty list of key names from arcade.key, e.g. ["SPACE"]'
    if kind == "points":
        return (
            f"a list of at least {MIN_OBSTACLE_POINTS} points [x, y] of finite numbers"
            f"{_unit(meta)}"
        )
    if kind == "tables":
        return f"a list of tables ([[{knob.name}]]), each with points = [[x, y], ...]"
    return f"a table [{path or knob.name}]"
