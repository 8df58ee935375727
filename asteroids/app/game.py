"""The session of one window: the services its screens share, and the few moves that touch
more than one of them.

Each service has one job (``Game.open`` wires them):

- ``screen`` (``asteroids.app.screen.Screen``): rendering: camera, lines, looks;
- ``rules`` (``asteroids.app.rules_service.RulesSelection``): the rulesets, the selected one
  and the settings in force (options applied);
- ``profile`` (``asteroids.app.profile_service.PlayerProfile``): high scores, remembered
  settings, messages for the player;
- ``audio`` (``asteroids.app.audio_service.AudioService``): the sounds, mute and volume;
- ``live`` (``asteroids.app.live_service.LiveService``): ``--live`` reloads (None without);
- ``saver`` (``asteroids.app.recording.ReplaySaver``): where played games are saved (None:
  not recorded); ``gamepad``: the first game controller, opened once (None: keyboard only);
- ``nav``: the moves between screens (``asteroids.app.router.Router`` installs itself).

``Game`` only coordinates: an option the player picks is remembered by the profile, applied by
the rules selection and heard through the audio service. It knows nothing about screens: the
imports go ``router -> screens -> game -> services``, never back.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import arcade

from asteroids.app.audio_service import AudioService
from asteroids.app.input import first_gamepad, open_gamepad
from asteroids.app.live import LiveSpec, tell
from asteroids.app.live_service import LiveService, SettingsView
from asteroids.app.profile_service import REMEMBERED_FIELDS, PlayerProfile, ScoreSlot
from asteroids.app.recording import ReplaySaver
from asteroids.app.rules_service import OPTION_KEYS, RulesSelection
from asteroids.app.screen import Screen
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import Ruleset
from asteroids.core import World
from asteroids.profile import Settings

if TYPE_CHECKING:
    from asteroids.app.screens import Navigator

__all__ = ["OPTION_FIELDS", "Game", "ScoreSlot"]

OPTION_FIELDS = ("master_volume", "effects_volume", "muted", "palette", "monitor_strength",
                 "hud_scale", "show_fps", "border", "keys", "pad")
"""The remembered options the options screen sets."""


class Game:
    """The services of one window (see the module's docstring); build one with ``open``."""

    def __init__(self, window: arcade.Window, *, screen: Screen, rules: RulesSelection,
                 profile: PlayerProfile, audio: AudioService, live: LiveService | None,
                 saver: ReplaySaver | None, gamepad: Any | None) -> None:
        self.window = window
        self.screen = screen
        self.rules = rules
        self.profile = profile
        self.audio = audio
        self.live = live
        self.saver = saver
        self.gamepad = gamepad
        self.nav: Navigator | None = None
        """The moves between screens (set by ``asteroids.app.router.Router``)."""
        self.held_keys: set[int] = set()
        """Keys down now (the screens note them): a screen that opens while one is held
        ignores it until it is released and pressed again."""
        rules.on_world.append(lambda config: screen.use_world(config.world.width_px,
                                                              config.world.height_px))

    @classmethod
    def open(cls, window: arcade.Window, config: Config, seed: int | None = None,
             sound: bool = True, *, record: bool = False,
             record_to: str | os.PathLike[str] | None = None,
             rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0,
             profile: bool = False, pinned: Collection[str] = (),
             settings: Settings | None = None, live: LiveSpec | None = None,
             player: Config | None = None) -> Game:
        """Wire the services of a window.

        Args:
            window: the arcade window to draw into.
            config: the selected ruleset's settings.
            seed: the first game's seed; later games count up from it (None: from the clock).
            sound: build the sound bank (False for tests and screenshots).
            record: save a replay of every game played.
            record_to: save the replays to this file (later games beside it,
                ``NAME-2.replay``, ...) instead of the user's replay folder.
            rulesets: the rules the title screen offers; None offers only ``config``.
            ruleset_index: which of ``rulesets`` is selected; its config is ``config``.
            profile: keep the player's high scores and remembered settings (load them now,
                apply the remembered options, mute, volume and ruleset, save them as they
                change).
            pinned: settings the command line gave explicitly (dotted keys, and ``ruleset``
                when the command line chose the rules): remembered values do not replace
                them.
            settings: the remembered settings when already loaded (the window's, for its
                size); None loads them (with ``profile``).
            live: watch these settings files while the window runs (``--live``).
            player: the settings ``live``'s files gave at start (default: ``config``).
        """
        rules = RulesSelection(config, rulesets, ruleset_index, seed, pinned)
        kept = PlayerProfile(keep=profile, settings=settings)
        audio = AudioService(config, enabled=sound, remember=kept.remember)
        if audio.bank.notice:  # no audio device: said once, on stderr and on the title
            kept.tell(audio.bank.notice)
        elif audio.bank.report:  # the driver and latency it got: on stderr
            tell(audio.bank.report)
        screen = Screen(window, rules.width, rules.height)
        saver = ReplaySaver(record_to) if record or record_to is not None else None
        game: Game

        def take_player(new: Config, changes: list[Change]) -> None:
            game.take_player(new, changes)

        watcher = (LiveService(live, player or config, take_player)
                   if live is not None else None)
        game = cls(window, screen=screen, rules=rules, profile=kept, audio=audio,
                   live=watcher, saver=saver, gamepad=open_gamepad(first_gamepad()))
        if saver is not None:  # the replay folder stays within [storage] keep_replays
            saver.on_saved = game.prune_replays
            if record_to is None:
                game.prune_replays()  # a folder grown before this version pruned on every save
        if kept.settings is not None:
            game.restore()
        return game

    @property
    def config(self) -> Config:
        """The settings in force (``rules.config``)."""
        return self.rules.config

    def restore(self) -> None:
        """Apply the remembered options and ruleset, unless the command line pinned them
        (window size, position and full screen are the window's: ``GameWindow``)."""
        self.apply_options()
        s = self.profile.settings
        if s is not None and s.ruleset is not None and "ruleset" not in self.rules.pinned:
            self.rules.select_label(s.ruleset)

    def apply_options(self) -> None:
        """The remembered options into every ruleset and the sound (``RulesSelection``)."""
        config = self.rules.apply_options(self.profile.settings)
        self.audio.apply(config.audio)

    def set_option(self, **changes: object) -> str | None:
        """Remember options (``Settings`` field names; None forgets one) and apply them at
        once. Returns None when saved, else the one-line error."""
        self.profile.session_settings()
        self.rules.unpin({OPTION_KEYS.get(name, name) for name in changes})
        error = self.profile.remember(**changes)
        self.apply_options()
        return error

    def reset_options(self) -> str | None:
        """"Reset to defaults": forget every remembered value (``REMEMBERED_FIELDS``: the
        options, full screen, window size and place, the ruleset), leave full screen, and go
        back to the settings files' values, or the built-in defaults where they give none."""
        if self.window.fullscreen:
            self.screen.set_fullscreen(False)
        return self.set_option(**dict.fromkeys(REMEMBERED_FIELDS))

    def toggle_fullscreen(self) -> bool:
        """Switch the window between full screen and windowed, and remember it; returns
        whether it is full screen now (unchanged when the window refuses)."""
        full = self.screen.set_fullscreen(not self.window.fullscreen)
        self.profile.remember(fullscreen=full)
        return full

    def select_ruleset(self, index: int) -> Ruleset:
        """Select ``rules.rulesets[index]`` (wrapping) for the screens made from now on, and
        remember the choice for the next run."""
        chosen = self.rules.select(index)
        self.profile.remember(ruleset=chosen.label)
        return chosen

    def score_key(self, config: Config | None = None) -> str:
        """The high-score table of ``config`` (default: the settings in force)."""
        return self.rules.score_key(config)

    def best_score(self, config: Config | None = None) -> int | None:
        """The best score in ``config``'s table (None when no tables are kept)."""
        return self.profile.best(self.rules.score_key(config))

    def enter_score(self, world: World, config: Config, replay: str | None) -> ScoreSlot | None:
        """Put a finished game in its table (``PlayerProfile.enter_score``)."""
        return self.profile.enter_score(self.rules.score_key(config), world, config, replay)

    def prune_replays(self) -> None:
        """Keep the replay folder to ``[storage] keep_replays`` games besides the high-score
        entries' replays (after every save to it, and when the window opens)."""
        self.profile.prune_replays(self.rules.config.storage.keep_replays)

    def poll_live(self, view: SettingsView, delta_time: float) -> None:
        """Once per frame: let ``--live`` look at the files (nothing without ``--live``)."""
        if self.live is not None:
            self.live.poll(view, delta_time)

    def take_player(self, player: Config, changes: list[Change]) -> None:
        """New player settings from a live reload: the rulesets, options and sound, and the
        window's settings (vsync, full screen, size)."""
        live = self.live
        assert live is not None
        spec = live.spec
        self.rules.take_player(player, changes, spec.paths, spec.overrides, spec.rules)
        self.apply_options()
        keys = {c.key for c in changes}
        audio = player.audio
        bank = self.audio.bank
        if "audio.effects_volume" in keys or "audio.heartbeat_volume" in keys:
            bank.set_shares(audio.effects_volume, audio.heartbeat_volume)
        if "audio.volume" in keys:
            bank.set_volume(audio.volume)
        if "audio.muted" in keys:
            bank.set_muted(audio.muted)
        if "audio.sound_set" in keys:
            bank.set_sound_set(audio.sound_set)
        self._take_display(player, keys)

    def _take_display(self, player: Config, keys: set[str]) -> None:
        """Window settings from a reload: vsync, full screen, size (what the window allows)."""
        d = player.display
        window = self.window
        try:
            if "display.vsync" in keys:
                window.set_vsync(d.vsync)
            if "display.fullscreen" in keys and bool(window.fullscreen) != d.fullscreen:
                window.set_fullscreen(d.fullscreen)
            if ("display.window_width_px" in keys or "display.window_height_px" in keys) \
                    and not window.fullscreen:
                window.set_size(d.window_width_px, d.window_height_px)
        except Exception as exc:  # headless, no such mode: the rest still applies
            tell(f"display settings not applied: {type(exc).__name__}: {exc}")
        self.screen.fit_camera()

    def quit(self) -> None:
        """Close the window (the current view is hidden first, so it can save); ``arcade.run``
        then returns."""
        self.audio.stop_all()
        self.window.hide_view()
        self.window.close()
