"""The configuration reference of the documentation site, one Markdown page per table.

``config/default.toml`` and these pages are written from the same declarations (the schema's
``knob()`` calls, read through ``asteroids.config.knobs``): every knob with its default, what
it accepts (range and unit), when a change applies in a running game, and its history (the
version it arrived in and the value older replays play with). A test keeps the committed
pages equal to what this module writes. Regenerate them after a schema change with::

    python -m asteroids.config.reference docs/modders/reference
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from asteroids.config.declare import FIRST_VERSION
from asteroids.config.knobs import Knob, describe, knobs
from asteroids.config.render import render_value
from asteroids.config.schema import Config

__all__ = ["GENERATED_NOTE", "reference_pages"]

GENERATED_NOTE = (
    "<!-- Generated from asteroids/config/schema.py by "
    "`python -m asteroids.config.reference docs/modders/reference`; do not edit by hand. -->"
)
"""The first line of every generated page."""


def _summary(obj: Any) -> str:
    """The first paragraph of a config dataclass's docstring, on one line."""
    return " ".join((type(obj).__doc__ or "").strip().split("\n\n")[0].split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _history(knob: Knob) -> str:
    since = knob.meta.get("since", FIRST_VERSION)
    if "before" not in knob.meta:
        return f"since {since}"
    return f"since {since}; before: `{render_value(knob.meta['before'])}`"


def _live(knob: Knob) -> str:
    timing = knob.meta.get("timing")
    if timing is None:
        return ""
    when = "live" if timing.when == "live" else "next game"
    return f"{when}: {timing.why}"


def _rows(obj: Any, path: str, out: list[str]) -> list[tuple[str, Any]]:
    """Append one table row per plain knob of ``obj``; return its sub-tables."""
    subtables = []
    for knob in knobs(type(obj)):
        value = getattr(obj, knob.name)
        if knob.kind == "table":
            subtables.append((f"{path}.{knob.name}", value))
            continue
        out.append(
            f"| `{path}.{knob.name}` | `{_cell(render_value(value))}` | "
            f"{_cell(knob.meta['doc'])}; {_cell(describe(knob))} | {_cell(_live(knob))} | "
            f"{_cell(_history(knob))} |")
    return subtables


_HEADER = ("| Key | Default | What it does; what it accepts | A change while playing "
           "(`--live`) | History |", "|---|---|---|---|---|")


def _table_page(name: str, obj: Any) -> str:
    out = [GENERATED_NOTE, "", f"# `[{name}]`", "", _summary(obj), ""]
    pending = [(name, obj)]
    first = True
    while pending:
        path, table = pending.pop(0)
        if not first:
            out += ["", f"## `[{path}]`", "", _summary(table), ""]
        first = False
        rows: list[str] = []
        pending[0:0] = _rows(table, path, rows)
        if rows:
            out += [*_HEADER, *rows]
    return "\n".join(out) + "\n"


def _index_page(config: Config, tables: list[str]) -> str:
    out = [GENERATED_NOTE, "", "# Configuration reference", "",
           "Every setting of the game, one page per TOML table, written from the same "
           "declarations as `config/default.toml` (`asteroids/config/schema.py`). "
           "*Live* settings apply from the next tick under `asteroids play --live`; "
           "*next game* ones wait for a new World. *before* is the value a replay recorded "
           "before the setting existed plays with.", "", "## Top-level keys", "",
           *_HEADER]
    for knob in knobs(Config):
        if knob.kind in ("table", "tables"):
            continue
        out.append(
            f"| `{knob.name}` | `{render_value(getattr(config, knob.name))}` | "
            f"{_cell(knob.meta['doc'])}; {_cell(describe(knob))} | {_cell(_live(knob))} | "
            f"{_cell(_history(knob))} |")
    out += ["", "## Tables", ""]
    for name in tables:
        out.append(f"- [`[{name}]`]({name}.md): {_summary(getattr(config, name))}")
    for knob in knobs(Config):
        if knob.kind == "tables":
            points = knobs(knob.elem)[0] if knob.elem else None
            out += ["", f"## `[[{knob.name}]]`", "",
                    f"{knob.meta['doc']}, one `[[{knob.name}]]` table per polygon, none by "
                    "default."]
            if points is not None:
                out += ["", f"- `points`: {points.meta['doc']}; {describe(points)}."]
    return "\n".join(out) + "\n"


def reference_pages() -> dict[str, str]:
    """File name -> Markdown text: ``index.md`` and one page per top-level table."""
    config = Config()
    tables = [k.name for k in knobs(Config) if k.kind == "table"]
    pages = {f"{name}.md": _table_page(name, getattr(config, name)) for name in tables}
    return {"index.md": _index_page(config, tables), **pages}


def main(argv: list[str] | None = None) -> int:
    """Write the pages into a folder (``docs/modders/reference``), or ``--check`` them."""
    parser = argparse.ArgumentParser(prog="python -m asteroids.config.reference",
                                     description=main.__doc__)
    parser.add_argument("out", type=Path, help="the folder for the pages")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a page differs from what it would be")
    args = parser.parse_args(argv)
    stale = []
    for name, text in reference_pages().items():
        path = args.out / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
