"""What changed between two settings, and what of it a game in progress can take.

``diff_configs(old, new)`` lists every setting that differs (dotted key, old value, new
value), each classified by ``asteroids.config.rulesets.KNOB_TIMING``: ``LIVE`` (from the next
tick) or ``NEXT_GAME`` (needs a new World). ``plan_reload(running, new)`` splits a reload into
the settings a running game takes now and those that wait, and builds the running game's
new settings with the same loader and checks as ``--set`` (so a replay can rebuild them the
same way). No arcade here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from asteroids.config.budget import Carry, TickWork, rules_getter
from asteroids.config.errors import ConfigError
from asteroids.config.knobs import fmt_num, knobs
from asteroids.config.loader import load_config_over
from asteroids.config.render import render_value
from asteroids.config.rulesets import (
    KNOB_TIMING,
    LIVE,
    MATCH_TABLES,
    NEXT_GAME,
    RULE_TABLES,
    Timing,
)
from asteroids.config.schema import Config
from asteroids.messages import clip

__all__ = ["Change", "ReloadPlan", "apply_changes", "diff_configs", "leaf_keys", "plan_reload",
           "timing_of"]

ARROW = "\u2192"
"""Between the old and the new value in a change's text."""


def leaf_keys(cls: type = Config, prefix: str = "") -> list[str]:
    """Every setting's dotted key, in schema order: tables are walked, lists and the
    obstacles list are one setting each (they are replaced whole when layered)."""
    out: list[str] = []
    for knob in knobs(cls):
        key = f"{prefix}.{knob.name}" if prefix else knob.name
        if knob.kind == "table" and knob.cls is not None:
            out.extend(leaf_keys(knob.cls, key))
        else:
            out.append(key)
    return out


def timing_of(key: str) -> Timing:
    """The timing entry that covers ``key``: its own, else its table's (the player's
    tables are listed whole).

    Raises:
        KeyError: for a key the table does not cover (a test keeps that from happening).
    """
    entry = KNOB_TIMING.get(key)
    if entry is None:
        entry = KNOB_TIMING[key.split(".")[0]]
    return entry


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return fmt_num(value)
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
        return f"{len(value)} obstacle{'' if len(value) == 1 else 's'}"
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


_SHOWN = 80
"""The most characters of a value a change's ``text`` shows."""


def _brief(value: Any) -> str:
    text = _show(value)
    return clip(text, _SHOWN)


@dataclass(frozen=True)
class Change:
    """One setting that differs between two configs."""

    key: str
    """Dotted key, e.g. ``ship.thrust_px_per_s2``."""
    old: Any
    new: Any
    when: str
    """``LIVE`` or ``NEXT_GAME`` for this change (see ``KNOB_TIMING``)."""

    @property
    def live(self) -> bool:
        """Whether a game in progress takes it from the next tick."""
        return self.when == LIVE

    @property
    def rule(self) -> bool:
        """Whether it changes how the game plays (a key of ``RULE_TABLES``, or of the
        two-player ``MATCH_TABLES``)."""
        return self.key.split(".")[0] in RULE_TABLES + MATCH_TABLES

    @property
    def text(self) -> str:
        """``ship.thrust_px_per_s2 300 → 420``; each value cut at ``_SHOWN`` characters (a
        list of keys may be thousands long)."""
        return f"{self.key} {_brief(self.old)} {ARROW} {_brief(self.new)}"

    @property
    def override(self) -> str:
        """The change as ``--set`` takes it: ``ship.thrust_px_per_s2=420.0`` (every bit)."""
        return f"{self.key}={render_value(self.new)}"


def diff_configs(old: Config, new: Config) -> list[Change]:
    """Every setting whose value differs, in schema order, each with its timing."""
    out: list[Change] = []
    _diff(old, new, Config, "", out)
    return out


def _diff(old: Any, new: Any, cls: type, prefix: str, out: list[Change]) -> None:
    """The settings that differ under one table; equal tables are skipped whole (a replay
    may hold thousands of changes, each of a few settings)."""
    for knob in knobs(cls):
        a, b = getattr(old, knob.name), getattr(new, knob.name)
        if a is b or a == b:
            continue
        key = f"{prefix}.{knob.name}" if prefix else knob.name
        if knob.kind == "table" and knob.cls is not None:
            _diff(a, b, knob.cls, key, out)
        else:
            out.append(Change(key, a, b, timing_of(key).of(a, b)))


def apply_changes(config: Config, changes: Iterable[Change | str], *,
                  source: str = "(running game)") -> Config:
    """``config`` with ``changes`` applied as ``--set`` overrides, validated like any layer.

    Args:
        config: the settings to start from.
        changes: ``Change`` objects or ``KEY=VALUE`` texts.
        source: names the base settings in error messages.

    Raises:
        ConfigError: when the result is invalid (e.g. it contradicts a setting that did not
            change).
    """
    overrides = [c.override if isinstance(c, Change) else c for c in changes]
    if not overrides:
        return config
    return load_config_over(config, overrides, source=source)


@dataclass(frozen=True)
class ReloadPlan:
    """What a game in progress does with new settings."""

    config: Config
    """The settings it runs on from the next tick (the old ones when nothing applies)."""
    live: tuple[Change, ...]
    """The changes it takes now."""
    deferred: tuple[Change, ...]
    """The changes that wait for the next game."""
    reason: str = ""
    """Why changes that could be live wait too (they contradict a deferred one); or ''."""


def plan_reload(running: Config, new: Config, *, carry: Carry | None = None) -> ReloadPlan:
    """Split the difference between a running game's settings and new ones.

    Live changes are applied to ``running`` (with the loader's checks); the rest wait. If the
    live ones alone make invalid settings (a setting checked against a waiting one, such as
    ``ship.safe_radius_px`` against a new world size), everything waits for the next game.
    So it does when they would pass the work budget with the rocks that the game's earlier
    settings (``carry``, see ``asteroids.config.budget``) may still have in play: the replay
    reader refuses such a change.
    """
    changes = diff_configs(running, new)
    live = tuple(c for c in changes if c.when == LIVE)
    deferred = tuple(c for c in changes if c.when == NEXT_GAME)
    if not live:
        return ReloadPlan(running, (), deferred)
    try:
        config = apply_changes(running, live)
    except ConfigError as exc:
        first = exc.errors[0].message if exc.errors else "invalid"
        return ReloadPlan(running, (), tuple(changes),
                          f"without the changes that wait for the next game, {first}")
    if carry is not None and any(c.rule for c in live):
        work = TickWork.of(rules_getter(config), carry)
        if work.over_budget():
            return ReloadPlan(running, (), tuple(changes),
                              f"with the rocks this game's earlier rules allow, {work.message()}")
    return ReloadPlan(config, live, deferred)
