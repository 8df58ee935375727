"""Write a Config as TOML: ``config/default.toml`` and ``asteroids config show`` both use it.

The output is valid TOML that loads back to the same Config. With comments, every knob gets
one line saying what it does, its unit and what it accepts, so the defaults file documents
the whole schema and cannot drift from it (a test compares the two).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from asteroids.config.knobs import Knob, describe, knobs
from asteroids.config.schema import Config

__all__ = ["DEFAULT_TOML_HEADER", "render_default_toml", "render_toml", "render_value"]

DEFAULT_TOML_HEADER = (
    "Default preset: every setting of asteroids, with its built-in default.",
    "",
    "Generated from asteroids/config/schema.py; do not edit by hand. Regenerate with:",
    "    python -m asteroids config show > config/default.toml",
    "and copy it to asteroids/config/presets/ (the package carries the same bytes).",
    "",
    "To change settings, write a small file with only the keys you want and pass it with",
    "--config, start from a preset (asteroids config show --config classic > my.toml),",
    "or use --set KEY=VALUE. Presets: asteroids config presets.",
    "Units: px = world pixels, s = seconds, deg = degrees.",
)
"""The comment block at the top of ``config/default.toml``."""


def render_value(value: Any) -> str:
    """One setting's value as TOML (floats with ``repr``, so every bit survives a round trip).

    >>> render_value(420.0), render_value((20, 50, 100)), render_value("bounce")
    ('420.0', '[20, 50, 100]', '"bounce"')
    """
    return _value(value)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")  # pragma: no cover


def _comment(knob: Knob) -> str:
    text = f"# {knob.meta['doc']}; {describe(knob)}"
    if "before" in knob.meta:
        text += (f" (new in {knob.meta['since']}; older replays play with "
                 f"{_value(knob.meta['before'])})")
    return text


def _table(out: list[str], obj: Any, path: str, with_comments: bool) -> None:
    out.append("")
    if with_comments:
        out.append(f"# {(type(obj).__doc__ or '').strip().splitlines()[0]}")
    out.append(f"[{path}]")
    subtables = []
    for knob in knobs(type(obj)):
        value = getattr(obj, knob.name)
        if knob.kind == "table":
            subtables.append((knob, value))
            continue
        if with_comments:
            out.append(_comment(knob))
        out.append(f"{knob.name} = {_value(value)}")
    for knob, value in subtables:
        _table(out, value, f"{path}.{knob.name}", with_comments)


def _obstacles(out: list[str], knob: Knob, obstacles: tuple[Any, ...],
               with_comments: bool) -> None:
    points_knob = knobs(knob.elem)[0] if knob.elem else None
    out.append("")
    if with_comments:
        out.append(f"# {knob.meta['doc']}, one per polygon")
        if points_knob is not None:
            unit = points_knob.meta["unit"]
            out.append(f"#   points: {points_knob.meta['doc']}" + (f" ({unit})" if unit else ""))
    if not obstacles:
        if with_comments:
            out.append("# None by default. Example, a triangle:")
            out.append(f"# [[{knob.name}]]")
            out.append("# points = [[100.0, 100.0], [160.0, 100.0], [130.0, 150.0]]")
        return
    for i, obstacle in enumerate(obstacles):
        if i:
            out.append("")
        out.append(f"[[{knob.name}]]")
        out.append("points = [")
        out.extend(f"    [{_value(x)}, {_value(y)}]," for x, y in obstacle.points)
        out.append("]")


def render_toml(config: Config, *, with_comments: bool = True,
                header: Sequence[str] = (), skip: Collection[str] = ()) -> str:
    """The whole config as TOML text, tables in schema order.

    Args:
        config: the config to write.
        with_comments: add a comment line per knob (doc, unit, allowed values) and per table.
        header: lines for a comment block at the top (written even without comments).
        skip: top-level tables to leave out (they load back as their defaults); a
            one-player replay leaves out the two-player ``match`` table this way.

    Returns:
        TOML text ending in a newline; ``load_config`` on it gives ``config`` back.
    """
    out = [f"# {line}".rstrip() for line in header]
    top = [k for k in knobs(Config) if k.kind not in ("table", "tables") and k.name not in skip]
    if top:
        out.append("")
    for knob in top:  # plain top-level keys must come before the first table
        if with_comments:
            out.append(_comment(knob))
        out.append(f"{knob.name} = {_value(getattr(config, knob.name))}")
    for knob in knobs(Config):
        if knob.name in skip or knob in top:
            continue
        value = getattr(config, knob.name)
        if knob.kind == "table":
            _table(out, value, knob.name, with_comments)
        else:
            _obstacles(out, knob, value, with_comments)
    if out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"


def render_default_toml() -> str:
    """The exact text of ``config/default.toml``: the defaults, documented."""
    return render_toml(Config(), with_comments=True, header=DEFAULT_TOML_HEADER)

