"""The services every view shares (camera, lines, sound, input bindings, replay saving).

``Game`` knows nothing about views: a view receives the Game it draws with, and screen
changes live beside the views (``views.show_title`` / ``views.start_game``). So the imports go
one way: ``window -> views -> game``, never back.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import arcade
from arcade.types import LRBT

from asteroids.app.audio import SoundBank
from asteroids.app.demos import load_demos
from asteroids.app.input import KeyBindings, first_gamepad, open_gamepad
from asteroids.app.live import LiveReload, LiveSpec, Outcome, notice_lines, problem_lines, tell
from asteroids.app.live_panel import LivePanel
from asteroids.app.monitor import LinePass, VectorMonitor
from asteroids.app.palettes import Palette, palette_named
from asteroids.app.recording import ReplaySaver
from asteroids.app.render import LineRenderer
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import Ruleset, ruleset_choices, with_player_sections
from asteroids.config.schema import DisplayConfig
from asteroids.core.params import Params, params_for
from asteroids.paths import replays_dir
from asteroids.profile import (
    ScoreBook,
    ScoreEntry,
    Settings,
    now_iso,
    prune_replays,
    ruleset_key,
)
from asteroids.profile.options import DEFAULT_PAD, apply_options, pad_bindings

if TYPE_CHECKING:
    from typing import Protocol

    from asteroids.app.hud import Hud
    from asteroids.core import World
    from asteroids.replay import Replay

    class SettingsView(Protocol):
        """A screen that takes new settings from a live reload (``WorldView``)."""

        def apply_settings(self, player: Config, changes: list[Change]) -> Outcome: ...

__all__ = ["OPTION_FIELDS", "VOLUME_STEP", "Game", "ScoreSlot"]

OPTION_FIELDS = ("master_volume", "effects_volume", "muted", "palette", "monitor_strength",
                 "hud_scale", "keys", "pad")
"""The remembered settings the options screen's "reset to defaults" forgets."""

_OPTION_KEYS = {"palette": "display.palette", "hud_scale": "display.hud_scale",
                "monitor_strength": "display.monitor.strength", "master_volume": "audio.volume",
                "effects_volume": "audio.effects_volume", "muted": "audio.muted"}
"""Remembered option -> the dotted setting it replaces (``keys`` covers every ``keys.*``)."""

VOLUME_STEP = 0.1
"""How much one volume key changes the master volume."""


class ScoreSlot:
    """A finished game's place in a high-score table, while its initials are entered."""

    def __init__(self, key: str, rank: int, score: int, error: str | None,
                 entry: ScoreEntry | None = None) -> None:
        self.key = key
        """The table (``asteroids.profile.ruleset_key``)."""
        self.rank = rank
        """0-based place in it."""
        self.score = score
        self.error = error
        """Why the table could not be saved (None: saved, with initials "???" for now)."""
        self.entry = entry
        """The entry itself: the initials go to it wherever it ranks when they are typed
        (another window may have saved scores meanwhile); None: the entry at ``rank``."""


class Game:
    """Everything the views share, attached to one arcade window.

    Tests attach a Game to their own headless window; ``GameWindow`` attaches one to itself.

    Args:
        window: the arcade window to draw into.
        config: the settings.
        seed: the first game's seed; later games count up from it. None picks one from the
            clock.
        sound: build the sound bank (False for tests and screenshots).
        record: save a replay of every game played (the desktop window does; tests and
            screenshots do not unless they ask).
        record_to: save the replays to this file (later games of the session beside it,
            ``NAME-2.replay``, ...) instead of the user's replay folder.
        rulesets: the rules the title screen offers (``asteroids.config.rulesets``); None
            offers only ``config``, labelled "custom".
        ruleset_index: which of ``rulesets`` is selected; its config must equal ``config``.
        profile: keep the player's high scores and remembered settings in the user data
            folder (``asteroids.profile``): load them now, apply the remembered mute, volume
            and ruleset, and save them as they change. The desktop window does; tests do
            when they ask.
        pinned: settings the command line gave explicitly (dotted keys such as
            ``audio.volume``, and ``ruleset`` when ``--config`` or a rules ``--set`` chose
            the rules): the remembered value does not replace them at start.
        settings: the remembered settings, when the caller has loaded them already (the
            window does, for its size); None loads them (with ``profile``).
        live: watch these settings files and apply their changes while the window runs
            (``asteroids play --live``); None: settings are read once.
        player: the settings ``live``'s files gave at start (default: ``config``).
    """

    def __init__(self, window: arcade.Window, config: Config, seed: int | None = None,
                 sound: bool = True, *, record: bool = False,
                 record_to: str | os.PathLike[str] | None = None,
                 rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0,
                 profile: bool = False, pinned: Collection[str] = (),
                 settings: Settings | None = None, live: LiveSpec | None = None,
                 player: Config | None = None) -> None:
        self.window = window
        self.live: LiveReload | None = (LiveReload(live, player or config)
                                        if live is not None else None)
        """The watched settings files (None: no ``--live``)."""
        self.live_panel: LivePanel | None = None
        """The reload notice and problem panel (None: no ``--live``)."""
        self.rulesets: tuple[Ruleset, ...] = (tuple(rulesets) if rulesets
                                              else (Ruleset("custom", config),))
        """The rulesets the player can pick on the title screen."""
        if not 0 <= ruleset_index < len(self.rulesets):
            raise ValueError(f"ruleset_index {ruleset_index} is not in "
                             f"[0, {len(self.rulesets)})")
        if self.rulesets[ruleset_index].config != config:
            raise ValueError("config must be the selected ruleset's config")
        self.ruleset_index = ruleset_index
        """Index of the selected ruleset in ``rulesets``. The hook for remembering the choice
        between runs (issue 10's settings store): restore it with ``select_ruleset`` before
        the first view is shown, save ``ruleset.label`` when it changes."""
        self.player_index = ruleset_index
        """Index of the player's own settings in ``rulesets`` (the ones ``--live`` watches)."""
        self.seed: int = int(seed) if seed is not None else time.time_ns() % (1 << 31)
        """Seed of the next game."""
        self.gamepad = open_gamepad(first_gamepad())
        """The first game controller, opened once for the session (None: keyboard only)."""
        self.audio = SoundBank(config, enabled=sound)
        self.saver: ReplaySaver | None = (ReplaySaver(record_to)
                                          if record or record_to is not None else None)
        """Where played games are saved; None when games are not recorded."""
        self.lines = LineRenderer(window.ctx)
        self.monitor: VectorMonitor | None = None
        """The vector-monitor look's buffers while it is on (None: off, nothing allocated)."""
        self.frame_time_s: float | None = None
        """A fixed time per drawn frame for the afterglow (screenshots, benchmarks); None
        uses the wall clock."""
        self._last_frame: float | None = None
        self._keys: dict[int, tuple[Config, str]] = {}
        self.pad_buttons: dict[str, tuple[str, ...]] = dict(DEFAULT_PAD)
        """The gamepad's buttons per action (remembered ones over the defaults)."""
        self._base_rulesets = self.rulesets
        """The rulesets as the settings files give them, before the remembered options."""
        self._session_only = False
        """True when ``settings`` only holds this session's options (no profile)."""
        self._live_pinned: set[str] = set()
        """Settings a live reload changed: the files' values win over remembered options."""
        self._use_config(config)
        self.pinned = frozenset(pinned)
        self.notices: list[str] = []
        """One-line messages for the player (a corrupt file moved aside, a failed save); the
        next title screen shows them once and empties the list."""
        if self.audio.notice:  # no audio device: said once, on stderr and on the title
            self._tell(self.audio.notice)
        self.scores: ScoreBook | None = None
        """The high-score tables (None: this session keeps none)."""
        self.settings: Settings | None = None
        """The remembered settings (None: this session remembers nothing)."""
        if profile:
            self.scores = ScoreBook.load()
            self.settings = settings if settings is not None else Settings.load()
            self.notices += [*self.scores.warnings, *self.settings.warnings]
            self._restore()

    def _restore(self) -> None:
        """Apply the remembered mute, volume and ruleset, unless the command line pinned
        them (window size, position and full screen are the window's: ``GameWindow``)."""
        s = self.settings
        if s is None:
            return
        if s.muted is not None and "audio.muted" not in self.pinned:
            self.audio.set_muted(bool(s.muted))
        if s.master_volume is not None and "audio.volume" not in self.pinned:
            self.audio.set_volume(float(s.master_volume))
        self.apply_options()
        if s.ruleset is not None and "ruleset" not in self.pinned:
            labels = [r.label for r in self.rulesets]
            if s.ruleset in labels:
                self.select_ruleset(labels.index(s.ruleset))

    def apply_options(self) -> None:
        """Put the remembered options (``asteroids.profile.options.apply_options``) into
        every ruleset's display, audio and keys tables and into the game's, and the sound
        levels into the sound bank. Rules never change, so neither does a game's replay."""
        pinned = self.pinned | self._live_pinned
        self.rulesets = tuple(r._replace(config=apply_options(r.config, self.settings, pinned))
                              for r in self._base_rulesets)
        self.config = with_player_sections(self.config, self.ruleset.config)
        self.pad_buttons = pad_bindings(self.settings)
        self.bindings = KeyBindings(self.config, self.pad_buttons)
        self._keys.clear()
        audio = self.config.audio
        self.audio.set_shares(audio.effects_volume, audio.heartbeat_volume)
        self.audio.set_volume(audio.volume)
        self.audio.set_muted(audio.muted)
        self.audio.set_sound_set(audio.sound_set)

    def set_option(self, **changes: object) -> str | None:
        """Remember options (``Settings`` field names; None forgets one) and apply them at
        once. Returns None when saved, else the one-line error (see ``remember``)."""
        if self.settings is None:  # no profile: the options last for this session only
            self.settings = Settings()
            self._session_only = True
        # What the player picks now wins over what the command line or a reload gave.
        keys = {_OPTION_KEYS.get(name, name) for name in changes}
        self.pinned = frozenset(k for k in self.pinned
                                if k not in keys and not ("keys" in keys and k.startswith("keys.")))
        self._live_pinned -= keys
        error = self.remember(**changes)
        self.apply_options()
        return error

    def reset_options(self) -> str | None:
        """Forget every remembered option (``OPTION_FIELDS``): back to the settings files'
        values, or the built-in defaults where they give none."""
        return self.set_option(**dict.fromkeys(OPTION_FIELDS))

    def remember(self, **changes: object) -> str | None:
        """Set remembered settings (``Settings`` field names) and save them at once.

        Returns None when saved (or nothing changed, or nothing is remembered), else the
        one-line error, which is also printed to stderr and queued in ``notices``; the
        values stay in memory and the next save retries.
        """
        s = self.settings
        if s is None:
            return None
        changed = False
        for name, value in changes.items():
            if getattr(s, name) != value:
                setattr(s, name, value)
                changed = True
        return self.save_settings() if changed else None

    def save_settings(self) -> str | None:
        """Save the remembered settings now (see ``remember``)."""
        if self.settings is None or self._session_only:
            return None
        error = self.settings.save()
        if error is not None:
            self._tell(error)
        return error

    def _tell(self, line: str) -> None:
        print(f"asteroids: {line}", file=sys.stderr)
        if line not in self.notices:
            self.notices.append(line)

    def toggle_mute(self) -> bool:
        """Mute or unmute, and remember it; returns the new state."""
        self.audio.set_muted(not self.audio.muted)
        self.remember(muted=self.audio.muted)
        return self.audio.muted

    def change_volume(self, steps: int) -> float:
        """Turn the master volume up (or down, negative) by ``steps`` of ``VOLUME_STEP``,
        and remember it; returns the new volume."""
        volume = self.audio.set_volume(round(self.audio.master_volume + steps * VOLUME_STEP, 2))
        self.remember(master_volume=volume)
        return volume

    def toggle_fullscreen(self) -> bool:
        """Switch the window between full screen and windowed, and remember it; returns
        whether it is full screen now (unchanged when the window refuses)."""
        want = not self.window.fullscreen
        try:
            self.window.set_fullscreen(want)
        except Exception as exc:  # no such mode, headless, ...: stay as we are
            print(f"asteroids: full screen not changed: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return bool(self.window.fullscreen)
        self.fit_camera()
        self.remember(fullscreen=bool(self.window.fullscreen))
        return bool(self.window.fullscreen)

    def score_key(self, config: Config | None = None) -> str:
        """The high-score table of ``config`` (default: the selected rules)."""
        config = config if config is not None else self.config
        cached = self._keys.get(id(config))
        if cached is None or cached[0] is not config:
            cached = (config, ruleset_key(config))
            self._keys[id(config)] = cached
        return cached[1]

    def best_score(self, config: Config | None = None) -> int | None:
        """The best score in ``config``'s table (None when no tables are kept)."""
        if self.scores is None:
            return None
        return self.scores.best(self.score_key(config))

    def enter_score(self, world: World, config: Config, replay: str | None) -> ScoreSlot | None:
        """Put a finished game in its table with initials "???" and save the tables.

        The entry is saved before the initials are asked for, so leaving, a timeout or a
        crash during the entry never loses it. Returns None when no tables are kept or the
        score does not make the table.

        Args:
            world: the world at game over.
            config: the rules it was played with.
            replay: the game's replay file name in ``replays_dir()`` (None: not saved).
        """
        if self.scores is None:
            return None
        key = self.score_key(config)
        self.scores.refresh()  # another window's scores count too
        if not self.scores.qualifies(key, world.score):
            return None
        entry = ScoreEntry(initials="???", score=int(world.score), wave=max(int(world.wave), 1),
                           date=now_iso(),
                           play_seconds=round(world.tick / config.world.tick_hz, 2),
                           replay=replay)
        rank = self.scores.add(key, entry)
        if rank < 0:
            return None
        error = self.save_scores()
        rank = self.scores.rank_of(key, entry)  # the save merged what is on disk
        if rank < 0:
            return None
        return ScoreSlot(key, rank, entry.score, error, entry)

    def set_initials(self, slot: ScoreSlot, initials: str) -> str | None:
        """Give ``slot``'s entry its initials and save the tables (None: saved; else the
        one-line error, also queued in ``notices``)."""
        if self.scores is None:
            return None
        if slot.entry is None:
            self.scores.set_initials(slot.key, slot.rank, initials)
            return self.save_scores()
        self.scores.set_initials_of(slot.key, slot.entry, initials)
        error = self.save_scores()
        rank = self.scores.rank_of(slot.key, slot.entry)  # where it is now, merged
        if rank >= 0:
            slot.rank = rank
        return error

    def save_scores(self) -> str | None:
        """Save the tables now; a failure is printed, queued in ``notices`` and returned
        (the tables stay in memory and the next save retries)."""
        if self.scores is None:
            return None
        error = self.scores.save()
        if error is not None:
            self._tell(error)
        return error

    def prune_replays(self) -> list[os.PathLike[str]]:
        """Delete the oldest recorded games beyond ``[storage] keep_replays`` that no table
        refers to (never when no tables are kept: then nothing says which ones matter)."""
        if self.scores is None:
            return []
        try:
            return list(prune_replays(replays_dir(), self.config.storage.keep_replays,
                                      self.scores.referenced_replays()))
        except Exception as exc:  # pruning is housekeeping: never stop the game for it
            print(f"asteroids: replays not pruned: {type(exc).__name__}: {exc}",
                  file=sys.stderr)
            return []

    def _use_config(self, config: Config) -> None:
        """Make ``config`` the settings of every view made from now on: world size (camera,
        letterbox, HUD), tick rate, key bindings, the scene and which demos fit."""
        self.config = config
        self.params: Params = params_for(config)
        self.width = float(config.world.width_px)
        self.height = float(config.world.height_px)
        self.bindings = KeyBindings(config, self.pad_buttons)
        self._demos: list[Replay] | None = None
        w, h = self.width, self.height
        self.camera = arcade.Camera2D(position=(w / 2, h / 2),
                                      projection=LRBT(-w / 2, w / 2, -h / 2, h / 2),
                                      window=self.window)
        self.fit_camera()
        self.scene = SceneBuilder(config)
        if self.live is not None:
            if self.live_panel is None:
                self.live_panel = LivePanel(w, h)
            else:
                self.live_panel.layout(w, h)

    def sync_ruleset(self) -> None:
        """Make the selected ruleset's settings the game's, if a live reload changed them
        (called when a new screen starts: a game in progress keeps its World's)."""
        if self.ruleset.config != self.config:
            self._use_config(self.ruleset.config)

    @property
    def plays_player_rules(self) -> bool:
        """Whether the selected rules are the player's own (the ones ``--live`` watches)."""
        return self.ruleset_index == self.player_index

    def poll_live(self, view: SettingsView, delta_time: float) -> None:
        """Once per frame: age the notice; when the watched files changed, hand valid
        settings to ``view`` and put up what changed, or the problems of a broken file."""
        live, panel = self.live, self.live_panel
        if live is None or panel is None:
            return
        panel.update(delta_time)
        result = live.poll()
        if result is None:
            return
        if result.config is None:
            assert result.error is not None
            lines = problem_lines(result.changed, result.error)
            panel.show_problems(lines)
            tell("\n".join(lines))
            return
        if panel.problem_lines:
            panel.clear_problems()
        changes = live.accept(result.config)
        outcome = Outcome()
        if changes:
            self._take_player(result.config, changes)
            outcome = view.apply_settings(result.config, changes)
        lines, waiting = notice_lines(result.changed, changes, outcome)
        panel.show_notice(lines, waiting)
        tell(lines[0] + "".join(f"\n  {line}" for line in lines[1:]))

    def _take_player(self, player: Config, changes: list[Change]) -> None:
        """New player settings: the title's rulesets, and at once the player's own tables
        (keys, sound, display) everywhere."""
        live = self.live
        assert live is not None
        if live.spec.rules:
            was_player = self.plays_player_rules
            label = self.ruleset.label
            choices = ruleset_choices(live.spec.paths, live.spec.overrides, player=player)
            self.rulesets = tuple(choices.rulesets)
            self.player_index = choices.selected
            labels = [r.label for r in self.rulesets]
            self.ruleset_index = (choices.selected if was_player or label not in labels
                                  else labels.index(label))
        keys = {c.key for c in changes}
        self._live_pinned |= keys
        self._base_rulesets = (self.rulesets if live.spec.rules else tuple(
            r._replace(config=with_player_sections(r.config, player))
            for r in self._base_rulesets))
        self.rulesets = self._base_rulesets
        self.config = with_player_sections(self.config, player)
        self.apply_options()
        audio = player.audio
        if "audio.effects_volume" in keys or "audio.heartbeat_volume" in keys:
            self.audio.set_shares(audio.effects_volume, audio.heartbeat_volume)
        if "audio.volume" in keys:
            self.audio.set_volume(audio.volume)
        if "audio.muted" in keys:
            self.audio.set_muted(audio.muted)
        self._take_display(player, keys)

    def _take_display(self, player: Config, keys: set[str]) -> None:
        """Window settings from a reload: vsync, full screen, size (what the window allows)."""
        d = player.display
        try:
            if "display.vsync" in keys:
                self.window.set_vsync(d.vsync)
            if "display.fullscreen" in keys and bool(self.window.fullscreen) != d.fullscreen:
                self.window.set_fullscreen(d.fullscreen)
            if ("display.window_width_px" in keys or "display.window_height_px" in keys) \
                    and not self.window.fullscreen:
                self.window.set_size(d.window_width_px, d.window_height_px)
        except Exception as exc:  # headless, no such mode: the rest still applies
            tell(f"display settings not applied: {type(exc).__name__}: {exc}")
        self.fit_camera()

    @property
    def ruleset(self) -> Ruleset:
        """The selected ruleset."""
        return self.rulesets[self.ruleset_index]

    def select_ruleset(self, index: int) -> Ruleset:
        """Select ``rulesets[index]`` (wrapping around both ways) for the views made from now
        on; the views already shown keep the config they were made with.

        The player's sound settings stay as they are (every ruleset carries the player's own
        ``[audio]``, ``[display]`` and ``[keys]``; see ``asteroids.config.rulesets``). The
        choice is remembered for the next run (``remember``).
        """
        self.ruleset_index = index % len(self.rulesets)
        chosen = self.ruleset
        if chosen.config != self.config:
            self._use_config(chosen.config)
        self.remember(ruleset=chosen.label)
        return chosen

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

    def fit_camera(self) -> None:
        """Letterbox the whole world into the window, keeping its aspect ratio."""
        self.camera.match_window(viewport=True, projection=False, scissor=False,
                                 aspect=self.width / self.height)
        self.camera.scissor = self.camera.viewport

    def line_width(self) -> float:
        """The configured line width in pixels, as world units under the current camera."""
        vw = max(self.camera.viewport.width, 1.0)
        return self.config.display.line_width_px * self.width / vw

    @property
    def display(self) -> DisplayConfig:
        """The display settings in force now (read on every frame: a reload applies at
        once)."""
        return self.config.display

    def palette(self) -> Palette:
        """The line palette in force now (``display.palette``)."""
        return palette_named(self.display.palette)

    def frame_dt(self) -> float:
        """Seconds since the last frame drawn (``frame_time_s`` when set), for the monitor
        look's afterglow; clamped to [0, 0.25]."""
        now = time.perf_counter()
        last, self._last_frame = self._last_frame, now
        if self.frame_time_s is not None:
            return self.frame_time_s
        return 0.0 if last is None else min(max(now - last, 0.0), 0.25)

    def draw_frame(self, segs: Segments, hud: Hud | None) -> None:
        """Draw the segments and the HUD in world units, over black (bars included): the
        plain look, or the vector-monitor look when ``display.monitor.strength`` > 0."""
        display = self.display
        self.lines.upload(segs.packed(rocks=False), segs.rocks)
        width = self.line_width()
        look = display.monitor
        dt = self.frame_dt()
        if look.strength > 0.0:
            if self.monitor is None:
                self.monitor = VectorMonitor(self.window.ctx)
            px = self.width / max(self.camera.viewport.width, 1.0)

            def draw_lines(line: LinePass) -> None:
                self.lines.draw(width * line.width, dwell=line.dwell,
                                dwell_length=line.dwell_length_px * px,
                                brightness=line.brightness)

            self.monitor.frame(look, self.camera, self.window.get_framebuffer_size(), dt,
                               draw_lines)
        else:
            if self.monitor is not None:  # the look was turned off: free its buffers
                self.monitor.release()
                self.monitor = None
            self.window.ctx.scissor = None
            self.window.clear(color=arcade.color.BLACK)
            self.camera.use()
            self.lines.draw(width, glow=display.glow)
        if hud is not None:
            hud.tint(self.palette().text)
            hud.draw()
        if self.live_panel is not None:
            self.live_panel.draw()

    def quit(self) -> None:
        """Close the window (the current view is hidden first, so it can save); ``arcade.run``
        then returns."""
        self.audio.stop_all()
        self.window.hide_view()
        self.window.close()
