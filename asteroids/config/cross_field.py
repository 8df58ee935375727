"""Checks that need several settings at once, judged on the layered values of every source.

A large rock must fit the world, rock radii must decrease, each minimum must stay under its
maximum, the ship's safe radius and every obstacle point must lie inside the world, a key
may be bound to one action only, and a tick's work must stay within its budget
(``asteroids.config.budget``, docs/limits.md). Each problem is reported against the last
source that set one of the keys involved, at that key's line, so a file that is fine alone
can be blamed for what it breaks on top of another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from asteroids.config.budget import BUDGET_MB, BUDGET_MS, TickWork
from asteroids.config.errors import ConfigIssue
from asteroids.config.keys import canonical_key
from asteroids.config.knobs import fmt_num, knobs
from asteroids.config.locate import Path
from asteroids.config.player_tables import KeysConfig
from asteroids.config.reading import Source, dotted
from asteroids.config.validate import leaf

__all__ = ["cross_field_issues"]


def _get(tree: dict[str, Any], path: Path) -> Any:
    """The value at ``path`` of a merged tree (dicts where layers set something, the
    dataclasses they did not touch elsewhere)."""
    node: Any = tree
    for part in path:
        node = node[part] if isinstance(node, dict) else getattr(node, str(part))
    return node


def cross_field_issues(tree: dict[str, Any], setter: dict[Path, Source],
                       bad: set[Path]) -> list[ConfigIssue]:
    """Checks that need several keys, judged on the layered values.

    Each problem is reported against the last source that set one of the keys involved, at
    that key's line; checks touching a key that already has an error are skipped.

    Args:
        tree: the layered settings (the loader's merged tree).
        setter: the source that last set each layering unit (``leaf``); a unit no source set
            is reported against the built-in defaults.
        bad: the layering units that already have an error.
    """
    out: list[ConfigIssue] = []

    def check(paths: Sequence[Path], message: str, expected: str, got: str) -> None:
        if any(leaf(p) in bad for p in paths):
            return
        best: tuple[int, Path, Source] | None = None
        for p in paths:
            src = setter.get(leaf(p))
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
