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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from asteroids.config.bundled import preset_names
from asteroids.config.errors import ConfigError
from asteroids.config.loader import load_config, load_preset, parse_override
from asteroids.config.schema import Config

__all__ = ["KNOB_TIMING", "LIVE", "MATCH_TABLES", "NEXT_GAME", "NON_RULE_TABLES",
           "PLAYER_SECTIONS", "RULE_TABLES", "Ruleset", "RulesetChoices", "Timing",
           "player_label", "ruleset_choices", "with_player_sections"]

RULE_TABLES = ("world", "borders", "ship", "shots", "asteroids", "saucers", "scoring", "game",
               "obstacles")
"""Config tables that change how the game plays: they go into a replay's rules fingerprint."""

MATCH_TABLES = ("match",)
"""Config tables that change only two-player games (the "PLAYER N" banner between turns):
rules there, so they go into a two-player replay's rules fingerprint and settings, but a
one-player game never reads them and its replay leaves them out (so one-player replays and
their fingerprints are what they were before two-player games existed)."""

NON_RULE_TABLES = ("audio", "display", "keys", "storage")
"""Config tables that never touch the simulation (a test keeps the three lists complete)."""

PLAYER_SECTIONS = NON_RULE_TABLES
"""The tables that belong to the player, not to the rules: kept from the player's own
settings whichever ruleset is picked (the non-rule tables, by definition)."""

LIVE = "live"
"""A change that applies from the next tick of a game in progress."""
NEXT_GAME = "next game"
"""A change that needs a new World: it applies to the next game (``asteroids play --live``)."""


@dataclass(frozen=True)
class Timing:
    """When a changed setting can take effect in a game in progress, and why.

    Attributes:
        when: ``LIVE`` or ``NEXT_GAME``.
        why: the reason, for the docs and the notice.
        next_game_if: for a ``LIVE`` knob, the changes ``(old, new)`` that still need a new
            World (a cap lowered under what the World may hold); None: always live.
    """

    when: str
    why: str
    next_game_if: Callable[[Any, Any], bool] | None = None

    def of(self, old: Any, new: Any) -> str:
        """``LIVE`` or ``NEXT_GAME`` for the change from ``old`` to ``new``."""
        if self.when == LIVE and self.next_game_if is not None and self.next_game_if(old, new):
            return NEXT_GAME
        return self.when


def _lowered(old: Any, new: Any) -> bool:
    return bool(new < old)


_STEP = Timing(LIVE, "read by every tick's rules")
_NEW_ONES = Timing(LIVE, "given to what is made from now on (shots, rocks, saucers); what is "
                   "already flying keeps its values")
_TIMER = Timing(LIVE, "a timer already running keeps its count; the next one uses the new time")
_BORDER = Timing(LIVE, "bodies beyond the new border are folded back in on the next tick")
_CAP = Timing(LIVE, "raised: at once; lowered: the World may already hold more than the new "
              "cap, so it waits for the next game", _lowered)
_SHAPES = Timing(NEXT_GAME, "rock shapes: the rocks on screen were made with the old outlines, "
                 "and a wave would mix two kinds of rock")
_WORLD = Timing(NEXT_GAME, "the World's positions, speeds and timers are laid out for it")
_PLAYER = Timing(LIVE, "not a rule: the window applies it at once")

KNOB_TIMING: dict[str, Timing] = {
    "world.width_px": _WORLD,
    "world.height_px": _WORLD,
    "world.tick_hz": Timing(NEXT_GAME, "every speed and timer in the World is counted in ticks "
                            "of the old rate"),
    "borders.asteroids": _BORDER,
    "borders.ship": _BORDER,
    "borders.shots": _BORDER,
    "borders.saucers": _BORDER,
    "ship.length_px": _STEP,
    "ship.thrust_px_per_s2": _STEP,
    "ship.turn_deg_per_s": _STEP,
    "ship.drag_per_s": _STEP,
    "ship.max_speed_px_per_s": Timing(LIVE, "a ship above the new top speed is slowed to it on "
                                      "the next tick"),
    "ship.speed_limit": _STEP,
    "ship.respawn_delay_s": _TIMER,
    "ship.safe_radius_px": _STEP,
    "ship.hyperspace.enabled": Timing(LIVE, "a jump under way still ends as it began"),
    "ship.hyperspace.duration_s": _TIMER,
    "ship.hyperspace.risky": Timing(LIVE, "decided when the next jump starts"),
    "ship.hyperspace.edge_margin": _STEP,
    "ship.shield.enabled": Timing(LIVE, "switched off, a raised shield drops on the next tick"),
    "ship.shield.energy_s": Timing(LIVE, "the energy left is kept; a refill gives the new "
                                   "amount"),
    "ship.shield.radius_px": _STEP,
    "ship.shield.restitution": _STEP,
    "ship.shield.refill_per_wave": _STEP,
    "shots.speed_px_per_s": _NEW_ONES,
    "shots.inherit_velocity": _NEW_ONES,
    "shots.max_axis_speed_px_per_s": _NEW_ONES,
    "shots.length_px": Timing(LIVE, "only drawn"),
    "shots.lifetime_s": _NEW_ONES,
    "shots.max_alive": _CAP,
    "shots.autofire": _STEP,
    "shots.autofire_interval_s": _TIMER,
    "shots.at_obstacles": _STEP,
    "asteroids.radius_px": _SHAPES,
    "asteroids.shapes": _SHAPES,
    "asteroids.vertices_min": _SHAPES,
    "asteroids.vertices_max": _SHAPES,
    "asteroids.jaggedness": _SHAPES,
    "asteroids.speed_min_px_per_s": _NEW_ONES,
    "asteroids.speed_max_px_per_s": _NEW_ONES,
    "asteroids.spin_max_deg_per_s": _NEW_ONES,
    "asteroids.split_children": _NEW_ONES,
    "asteroids.split_kick_px_per_s": _NEW_ONES,
    "asteroids.max_alive": _CAP,
    "asteroids.collide": _STEP,
    "asteroids.restitution": _STEP,
    "saucers.enabled": Timing(LIVE, "switched on: at once; switched off: a saucer in flight "
                              "would stop its timers and never leave, so it waits for the "
                              "next game", lambda old, new: bool(old) and not new),
    "saucers.first_interval_s": _TIMER,
    "saucers.interval_step_s": _TIMER,
    "saucers.min_interval_s": _TIMER,
    "saucers.lurk_s": _STEP,
    "saucers.lurk_min_asteroids": _STEP,
    "saucers.lurk_min_asteroids_max": _STEP,
    "saucers.always_large_count": _STEP,
    "saucers.small_score": _STEP,
    "saucers.speed_px_per_s": Timing(LIVE, "a saucer in flight keeps its speed across; the "
                                     "zig-zag and the next saucer use the new one"),
    "saucers.zigzag_interval_s": _TIMER,
    "saucers.large_radius_px": _STEP,
    "saucers.small_radius_px": _STEP,
    "saucers.fire_interval_s": _TIMER,
    "saucers.max_shots": _CAP,
    "saucers.shot_speed_px_per_s": _NEW_ONES,
    "saucers.shot_lifetime_s": _NEW_ONES,
    "saucers.aim_error_deg": _STEP,
    "saucers.aim_error_expert_deg": _STEP,
    "saucers.expert_score": _STEP,
    "scoring.asteroid": _STEP,
    "scoring.saucer": _STEP,
    "scoring.ramming_scores": _STEP,
    "scoring.extra_life_every": Timing(
        LIVE, "the next extra ship still comes at the score already due, later ones every new "
        "amount; switched on from 0 (never), the World holds no due score and every missed "
        "ship would come at once, so that waits for the next game",
        lambda old, new: old == 0 and new != 0),
    "game.lives": Timing(NEXT_GAME, "counted once, when a game starts"),
    "game.max_lives": Timing(LIVE, "ships already in hand are kept; no more are given above "
                             "the new cap"),
    "game.first_wave_asteroids": Timing(LIVE, "the size of the next wave"),
    "game.wave_increment": Timing(LIVE, "the size of the next wave"),
    "game.max_wave_asteroids": Timing(LIVE, "the size of the next wave"),
    "game.next_wave_delay_s": _TIMER,
    "game.spawn_clearance_px": Timing(LIVE, "where the next wave's rocks appear"),
    "game.heartbeat.start_interval_s": _TIMER,
    "game.heartbeat.min_interval_s": _STEP,
    "game.heartbeat.quicken_every_s": _TIMER,
    "game.heartbeat.quicken_step_s": _STEP,
    "obstacles": Timing(NEXT_GAME, "pillars are part of the world: a rock or the ship inside a "
                        "new pillar would be trapped in it"),
    "match.turn_banner_s": Timing(NEXT_GAME, "a two-player game keeps the banner it started "
                                  "with (its replay records no change)"),
    "audio": _PLAYER,
    "display": _PLAYER,
    "keys": _PLAYER,
    "storage": _PLAYER,
}
"""When each setting can change during a game (``asteroids play --live``), decided knob by
knob against the core: ``LIVE`` settings go to ``step`` from the next tick (and into the
replay as a change at that tick); ``NEXT_GAME`` ones wait for a new World. Rule settings are
listed one by one; the player's tables (display, audio, keys, storage) never touch the World
and are listed whole. A test keeps this table and the schema in step."""


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
