"""Settings changed during a recorded game (``asteroids play --live``): one record per change.

A record says from which tick on which rule settings hold new values, written as the
``--set`` overrides that make them (``ship.thrust_px_per_s2=420.0``): readable, short, and
rebuilt on reading with the same loader and checks as a command line, on top of the settings
in force before it, so every float comes back bit for bit. Only rule settings are recorded
(display, sound and keys never change a game), and only ``LIVE`` ones: a setting that needs
a new World is refused. ``ConfigChange.tick`` is the first step run under the new settings:
the step from ``tick`` to ``tick + 1`` (``masks[tick]``). No arcade here.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from asteroids.config import Config, ConfigError
from asteroids.config.budget import Carry, TickWork, rules_getter
from asteroids.config.live import apply_changes, diff_configs
from asteroids.config.overrides import parse_override
from asteroids.config.rulesets import KNOB_TIMING, LIVE, RULE_TABLES
from asteroids.messages import one_line, quote

__all__ = ["MAX_CHANGES", "MAX_SETTINGS", "MAX_TOTAL_SETTINGS", "ConfigChange", "config_at",
           "decode_changes", "encode_changes", "rule_settings"]

MAX_CHANGES = 10_000
"""Most change records a replay may hold (a save in the editor every few seconds for hours)."""
MAX_SETTINGS = 200
"""Most settings one record may set (there are fewer live rule settings than this)."""
MAX_TOTAL_SETTINGS = 2 * MAX_CHANGES
"""Most settings all the records of a replay may set together (two a change on average):
with ``MAX_CHANGES`` it bounds the work of reading a replay (``docs/limits.md``)."""

_MAX_TEXT = 200
_KEY = re.compile(r"[a-z0-9_.]{1,100}")


@dataclass(frozen=True)
class ConfigChange:
    """From ``tick`` on, the game ran on ``config``: the settings before it with ``settings``
    applied."""

    tick: int
    """The first step run under the new settings (the step from ``tick`` to ``tick + 1``)."""
    settings: tuple[str, ...]
    """``KEY=VALUE`` overrides, as ``--set`` takes them, in schema order."""
    config: Config
    """The whole resolved settings from ``tick`` on."""


def rule_settings(old: Config, new: Config) -> tuple[str, ...]:
    """The ``--set`` overrides that turn ``old``'s rules into ``new``'s (display, sound, keys
    and storage left out).

    Raises:
        ValueError: when a rule that differs cannot change during a game (``NEXT_GAME``).
    """
    out = []
    for change in diff_configs(old, new):
        if not change.rule:
            continue
        if not change.live:
            raise ValueError(f"{change.key} cannot change during a game ({change.text}); it "
                             "needs a new game")
        out.append(change.override)
    return tuple(out)


def config_at(start: Config, changes: Sequence[ConfigChange], tick: int) -> Config:
    """The settings of the step from ``tick`` to ``tick + 1``."""
    i = bisect.bisect_right([c.tick for c in changes], tick)
    return changes[i - 1].config if i else start


def encode_changes(changes: Sequence[ConfigChange]) -> list[str]:
    """The file lines of the ``config_changes`` key (TOML: an array of inline tables)."""
    lines = ["# Settings changed during the game (asteroids play --live): from 'tick' on, "
             "the game ran",
             "# with these --set overrides on top of the settings before them.",
             "config_changes = ["]
    for change in changes:
        settings = ", ".join(_quote(s) for s in change.settings)
        lines.append(f"    {{tick = {change.tick}, set = [{settings}]}},")
    lines.append("]")
    return lines


def _quote(text: str) -> str:
    """A TOML literal string when the text allows one (no ``'``), else a basic string."""
    if "'" not in text and "\n" not in text:
        return f"'{text}'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def decode_changes(value: Any, start: Config, ticks: int,
                   bad: Callable[[str], Exception]) -> tuple[ConfigChange, ...]:
    """Check the ``config_changes`` of a replay and rebuild the settings of each.

    Args:
        value: the parsed TOML value.
        start: the replay's starting settings.
        ticks: the replay's tick count (a change must come before its last step).
        bad: makes the ``ReplayError`` for a problem (one sentence).
    """
    if not isinstance(value, list) or not value or len(value) > MAX_CHANGES:
        raise bad(f"'config_changes' must be a list of 1 to {MAX_CHANGES} changes, each "
                  "{tick = N, set = [\"KEY=VALUE\", ...]}.")
    out: list[ConfigChange] = []
    config = start
    carry = Carry.of(rules_getter(start))
    last = -1
    total = 0
    for index, item in enumerate(value):
        where = f"config change {index + 1}"
        if not isinstance(item, dict) or set(item) != {"tick", "set"}:
            raise bad(f"{where} must be a table with exactly 'tick' and 'set'.")
        tick = item["tick"]
        if isinstance(tick, bool) or not isinstance(tick, int) or not last < tick < ticks:
            raise bad(f"{where} has tick {quote(tick)}; changes must come in increasing tick "
                      f"order, each before the last step (tick < {ticks}).")
        settings = item["set"]
        if (not isinstance(settings, list) or not settings or len(settings) > MAX_SETTINGS
                or not all(isinstance(s, str) and len(s) <= _MAX_TEXT for s in settings)):
            raise bad(f"{where} (tick {tick}) must set a list of 1 to {MAX_SETTINGS} "
                      "\"KEY=VALUE\" texts.")
        total += len(settings)
        if total > MAX_TOTAL_SETTINGS:
            raise bad(f"the config changes set more than {MAX_TOTAL_SETTINGS} settings in all "
                      f"(at {where}, tick {tick}).")
        keys = [_checked_key(s, f"{where} (tick {tick})", bad) for s in settings]
        if len(set(keys)) != len(keys):
            raise bad(f"{where} (tick {tick}) sets a key twice.")
        try:
            new = apply_changes(config, settings, source="replay settings")
        except ConfigError as exc:
            first = one_line(str(exc.errors[0]), 300) if exc.errors else "invalid"
            raise bad(f"{where} (tick {tick}) makes invalid settings ({first}).") from None
        diffs = diff_configs(config, new)
        for change in diffs:
            if not change.live:
                raise bad(f"{where} (tick {tick}): {change.text} cannot happen during a game "
                          "(it needs a new game).")
        if len(diffs) != len(settings):
            raise bad(f"{where} (tick {tick}) sets a value that it already had.")
        rules = rules_getter(new)
        work = TickWork.of(rules, carry)
        if work.over_budget():
            raise bad(f"{where} (tick {tick}) makes rules that, with the rocks the game's "
                      f"earlier rules allow, pass the work budget: {work.message()}.")
        carry = carry.then(rules)
        out.append(ConfigChange(tick, tuple(settings), new))
        config, last = new, tick
    return tuple(out)


def _checked_key(text: str, where: str, bad: Callable[[str], Exception]) -> str:
    """The dotted key of one ``KEY=VALUE``; refuses anything but a live rule setting."""
    try:
        key = parse_override(text)[0]
    except ValueError as exc:
        raise bad(f"{where}: {quote(text)} is not KEY=VALUE ({one_line(str(exc), 200)}).") from None
    if not _KEY.fullmatch(key) or key.split(".")[0] not in RULE_TABLES:
        raise bad(f"{where}: {quote(key)} is not a rule setting (only rules are recorded).")
    if key not in KNOB_TIMING:
        raise bad(f"{where}: {quote(key)} is not a setting.")
    if KNOB_TIMING[key].when != LIVE:
        raise bad(f"{where}: {key} cannot change during a game (it needs a new game).")
    return key
