"""Which rules the next game is played with, and the settings in force with them.

One job: the rulesets the title offers (the player's own and the bundled presets), the one
selected, the player's remembered options applied to all of them, and what follows from the
selected config (its parameters, world size, key bindings, scene builder, demos, high-score
key, the next game's seed). Whoever must follow a change of world (the camera, the live
panel) subscribes with ``on_world``. No arcade here beyond the key codes of ``KeyBindings``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from asteroids.app.demos import load_demos
from asteroids.app.input import KeyBindings
from asteroids.app.scene import SceneBuilder
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import Ruleset, ruleset_choices, with_player_sections
from asteroids.core.params import Params, params_for
from asteroids.profile import Settings, ruleset_key
from asteroids.profile.options import DEFAULT_PAD, apply_options, pad_bindings

if TYPE_CHECKING:
    from asteroids.replay import Replay

__all__ = ["OPTION_KEYS", "RulesSelection"]

OPTION_KEYS = {"palette": "display.palette", "hud_scale": "display.hud_scale",
               "monitor_strength": "display.monitor.strength", "master_volume": "audio.volume",
               "effects_volume": "audio.effects_volume", "muted": "audio.muted",
               "show_fps": "display.show_fps", "border": "display.border",
               "fullscreen": "display.fullscreen"}
"""Remembered option -> the dotted setting it replaces (``keys`` covers every ``keys.*``)."""


class RulesSelection:
    """The rulesets, the selected one, and the settings in force.

    Args:
        config: the selected ruleset's settings.
        rulesets: the rules the title screen offers (``asteroids.config.rulesets``); None
            offers only ``config``, labelled "custom".
        index: which of ``rulesets`` is selected; its config must equal ``config``.
        seed: the first game's seed; later games count up from it. None picks one from the
            clock.
        pinned: settings the command line gave (dotted keys such as ``audio.volume``, and
            ``ruleset`` when ``--config`` or a rules ``--set`` chose the rules): remembered
            values do not replace them.

    Raises:
        ValueError: ``index`` is out of range, or its config is not ``config``.
    """

    def __init__(self, config: Config, rulesets: Sequence[Ruleset] | None = None,
                 index: int = 0, seed: int | None = None,
                 pinned: Collection[str] = ()) -> None:
        self.rulesets: tuple[Ruleset, ...] = (tuple(rulesets) if rulesets
                                              else (Ruleset("custom", config),))
        """The rulesets the player can pick, the remembered options applied."""
        if not 0 <= index < len(self.rulesets):
            raise ValueError(f"ruleset_index {index} is not in [0, {len(self.rulesets)})")
        if self.rulesets[index].config != config:
            raise ValueError("config must be the selected ruleset's config")
        self.index = index
        """Index of the selected ruleset in ``rulesets``."""
        self.player_index = index
        """Index of the player's own settings in ``rulesets`` (the ones ``--live`` watches)."""
        self.base: tuple[Ruleset, ...] = self.rulesets
        """The rulesets as the settings files give them, before the remembered options."""
        self.pinned = frozenset(pinned)
        """Dotted settings the command line gave (they beat remembered options)."""
        self.live_pinned: set[str] = set()
        """Settings a live reload changed: the files' values beat remembered options."""
        self.seed: int = int(seed) if seed is not None else time.time_ns() % (1 << 31)
        """Seed of the next game."""
        self.pad_buttons: dict[str, tuple[str, ...]] = dict(DEFAULT_PAD)
        """The gamepad's buttons per action (remembered ones over the defaults)."""
        self.on_world: list[Callable[[Config], None]] = []
        """Called with the new config whenever the selected world (size, rules) changes."""
        self._keys: dict[Config, str] = {}
        """High-score table keys by settings (by value: equal settings, one key)."""
        self._demos: list[Replay] | None = None
        self._use(config)

    def _use(self, config: Config) -> None:
        """Make ``config`` the settings of every screen made from now on."""
        self.config = config
        """The settings in force: the selected rules with the player's options."""
        self.params: Params = params_for(config)
        self.width = float(config.world.width_px)
        """World width in world units (pixels of the world)."""
        self.height = float(config.world.height_px)
        self.bindings = KeyBindings(config, self.pad_buttons)
        """The resolved key and pad bindings."""
        self.scene = SceneBuilder(config)
        """Draws this config's worlds."""
        self._demos = None
        for listener in self.on_world:
            listener(config)

    @property
    def ruleset(self) -> Ruleset:
        """The selected ruleset."""
        return self.rulesets[self.index]

    @property
    def plays_player_rules(self) -> bool:
        """Whether the selected rules are the player's own (the ones ``--live`` watches)."""
        return self.index == self.player_index

    def select(self, index: int) -> Ruleset:
        """Select ``rulesets[index]`` (wrapping around both ways) for the screens made from
        now on; the screens already shown keep the config they were made with."""
        self.index = index % len(self.rulesets)
        chosen = self.ruleset
        if chosen.config != self.config:
            self._use(chosen.config)
        return chosen

    def select_label(self, label: str) -> bool:
        """Select the ruleset labelled ``label``; False when there is none."""
        labels = [r.label for r in self.rulesets]
        if label not in labels:
            return False
        self.select(labels.index(label))
        return True

    def sync(self) -> None:
        """Make the selected ruleset's settings the ones in force, if a live reload or an
        option changed them (called when a new screen starts: a game in progress keeps its
        World's)."""
        if self.ruleset.config != self.config:
            self._use(self.ruleset.config)

    def unpin(self, keys: Collection[str]) -> None:
        """What the player picks now wins over what the command line or a reload gave."""
        self.pinned = frozenset(k for k in self.pinned
                                if k not in keys and not ("keys" in keys and k.startswith("keys.")))
        self.live_pinned -= set(keys)

    def apply_options(self, settings: Settings | None) -> Config:
        """Put the remembered options (``asteroids.profile.options.apply_options``) into every
        ruleset's display, audio and keys tables and into the settings in force. Rules never
        change, so neither does a game's replay. Returns the settings in force."""
        pinned = self.pinned | self.live_pinned
        self.rulesets = tuple(r._replace(config=apply_options(r.config, settings, pinned))
                              for r in self.base)
        self.config = with_player_sections(self.config, self.ruleset.config)
        self.pad_buttons = pad_bindings(settings)
        self.bindings = KeyBindings(self.config, self.pad_buttons)
        self._keys.clear()
        return self.config

    def take_player(self, player: Config, changes: list[Change], paths: Sequence[str],
                    overrides: Sequence[str], rules: bool) -> None:
        """New player settings from a live reload: the title's rulesets (when the files give
        the rules), and at once the player's own tables (keys, sound, display) everywhere.
        Call ``apply_options`` after it."""
        if rules:
            was_player = self.plays_player_rules
            label = self.ruleset.label
            choices = ruleset_choices(paths, overrides, player=player)
            self.rulesets = tuple(choices.rulesets)
            self.player_index = choices.selected
            labels = [r.label for r in self.rulesets]
            self.index = (choices.selected if was_player or label not in labels
                          else labels.index(label))
            self.base = self.rulesets
        else:
            self.base = tuple(r._replace(config=with_player_sections(r.config, player))
                              for r in self.base)
        self.live_pinned |= {c.key for c in changes}
        self.rulesets = self.base
        self.config = with_player_sections(self.config, player)

    def score_key(self, config: Config | None = None) -> str:
        """The high-score table of ``config`` (default: the settings in force)."""
        config = config if config is not None else self.config
        key = self._keys.get(config)
        if key is None:
            key = self._keys[config] = ruleset_key(config)
        return key

    def next_seed(self) -> int:
        """The seed for a new game (then moves on, so each game differs)."""
        seed = self.seed
        self.seed = (self.seed + 1) % (1 << 63)
        return seed

    def demos(self) -> list[Replay]:
        """The bundled attract-mode replays that fit this world (loaded once; may be empty)."""
        if self._demos is None:
            self._demos = load_demos(self.config)
        return self._demos
