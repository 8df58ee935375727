"""The rulesets the title screen offers: the player's own settings and every bundled preset.

``ruleset_choices(paths, overrides)`` builds them once at start-up, from the same
``--config`` / ``--set`` the player gave; the window only picks one of them and hands its
``Config`` to the core (no rule is decided in ``asteroids/app``).

- The player's layered settings come first and are selected when ``--config`` or ``--set``
  was given, labelled with the file names (``my.toml``, ``classic + my.toml``) or
  ``custom`` (``--set`` only). When they equal one of the presets' choices (``--config
  classic``, or no option at all: the defaults are the ``default`` preset) that preset is
  selected instead and nothing is listed twice.
- Then each bundled preset, in ``preset_names()`` order, with every ``--set`` applied on top
  (an override is the player's last word, whichever rules are picked). A preset that the
  overrides make invalid is left out; ``ruleset_choices`` says which and why.
- The player's ``[display]``, ``[audio]``, ``[keys]`` and ``[storage]`` come from their own
  layered settings in every choice: picking other rules never rebinds keys or changes the window.

No arcade here.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import NamedTuple

from asteroids.config.bundled import preset_names
from asteroids.config.declare import LIVE, NEXT_GAME, PLAYER, Timing
from asteroids.config.errors import ConfigError
from asteroids.config.knobs import knobs
from asteroids.config.loader import load_config, load_preset
from asteroids.config.overrides import parse_override
from asteroids.config.schema import MATCH_TABLES, NON_RULE_TABLES, RULE_TABLES, Config

__all__ = ["KNOB_TIMING", "LIVE", "MATCH_TABLES", "NEXT_GAME", "NON_RULE_TABLES",
           "PLAYER_SECTIONS", "RULE_TABLES", "Ruleset", "RulesetChoices", "Timing",
           "player_label", "ruleset_choices", "with_player_sections"]

PLAYER_SECTIONS = NON_RULE_TABLES
"""The tables that belong to the player, not to the rules: kept from the player's own
settings whichever ruleset is picked (the non-rule tables, by definition)."""


def _rule_timings(cls: type, prefix: str) -> dict[str, Timing]:
    out: dict[str, Timing] = {}
    for knob in knobs(cls):
        key = f"{prefix}.{knob.name}" if prefix else knob.name
        if knob.kind == "table" and knob.cls is not None:
            out.update(_rule_timings(knob.cls, key))
        else:
            out[key] = knob.meta["timing"]
    return out


def _knob_timing() -> dict[str, Timing]:
    by_name = {k.name: k for k in knobs(Config)}
    out: dict[str, Timing] = {}
    for name in RULE_TABLES + MATCH_TABLES:
        knob = by_name[name]
        if knob.kind == "table" and knob.cls is not None:
            out.update(_rule_timings(knob.cls, name))
        else:
            out[name] = knob.meta["timing"]
    out.update({name: PLAYER for name in NON_RULE_TABLES})
    return out


KNOB_TIMING: dict[str, Timing] = _knob_timing()
"""When each setting can change during a game (``asteroids play --live``), as each knob
declares it in ``asteroids/config/rule_tables.py`` (``timing=``), decided knob by knob against
the core: ``LIVE`` settings go to ``step`` from the next tick (and into the replay as a change
at that tick); ``NEXT_GAME`` ones wait for a new World. Rule settings are listed one by one;
the player's tables (display, audio, keys, storage) never touch the World and are listed
whole."""


class Ruleset(NamedTuple):
    """One choice on the title screen."""

    label: str
    """What the title shows (upper-cased there): a preset name, file names, or ``custom``;
    ``(+N --set)`` follows when N overrides of rules (not display, audio, keys or storage) apply."""
    config: Config
    """The settings a game under this ruleset runs with."""


class RulesetChoices(NamedTuple):
    """What ``ruleset_choices`` found."""

    rulesets: list[Ruleset]
    """The choices, in title-screen order (never empty)."""
    selected: int
    """Index of the one to start on: the player's own settings."""
    skipped: list[str]
    """One line per preset left out because the overrides make it invalid."""


def player_label(paths: Sequence[str | os.PathLike[str]], overrides: Sequence[str]) -> str:
    """The label of the player's own settings: file names joined by `` + `` (a preset given
    by name is its name), or ``custom`` for ``--set`` alone, or ``default`` for nothing."""
    if paths:
        label = " + ".join(os.path.basename(os.fspath(p).rstrip("/\\")) or os.fspath(p)
                           for p in paths)
    else:
        label = "custom" if overrides else "default"
    return label + _set_suffix(overrides)


def _set_suffix(overrides: Sequence[str]) -> str:
    """`` (+N --set)`` for the overrides that change rules (not display, audio or keys)."""
    n = 0
    for text in overrides:
        try:
            key = parse_override(text)[0]
        except ValueError:
            key = ""
        n += key.split(".")[0] not in PLAYER_SECTIONS
    return f" (+{n} --set)" if n else ""


def with_player_sections(rules: Config, player: Config) -> Config:
    """``rules`` with the player's display, audio, keys and storage tables."""
    return dataclasses.replace(rules, **{name: getattr(player, name) for name in PLAYER_SECTIONS})


def ruleset_choices(paths: Sequence[str | os.PathLike[str]] = (),
                    overrides: Sequence[str] = (), *,
                    player: Config | None = None) -> RulesetChoices:
    """The title screen's rulesets for a player who gave ``--config paths --set overrides``.

    Args:
        paths: the ``--config`` files and presets, in order.
        overrides: the ``--set`` texts.
        player: the player's settings when already loaded from them (a live reload); None
            loads them.

    Raises:
        ConfigError: when the player's own settings are invalid (the game must not start);
            a preset that only fails with the overrides is skipped instead.
    """
    if player is None:
        player = load_config(*paths, overrides=overrides)
    rulesets: list[Ruleset] = []
    skipped: list[str] = []
    for name in preset_names():
        try:
            rules = load_preset(name, overrides=overrides)
        except ConfigError as exc:
            first = exc.errors[0].message if exc.errors else "invalid"
            skipped.append(f"preset {name!r} is left out of the title screen's rules: "
                           f"with the --set overrides, {first}")
            continue
        rulesets.append(Ruleset(name + _set_suffix(overrides),
                                with_player_sections(rules, player)))
    for index, choice in enumerate(rulesets):
        if choice.config == player:
            return RulesetChoices(rulesets, index, skipped)
    rulesets.insert(0, Ruleset(player_label(paths, overrides), player))
    return RulesetChoices(rulesets, 0, skipped)
