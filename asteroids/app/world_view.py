"""The base of every screen that shows a World: ``WorldView`` runs it at the fixed tick rate
and draws it interpolated, takes keys and pad moves through the screen's key table, and
hosts the screen's overlays (pause, options, the controls card) as arcade Sections.

Each view owns a game through the core's ``Play`` seam (``asteroids.core.play``, as the
replay recorder and verifier do): its ``state`` is a World (one player) or a Match (two
players taking turns), and ``world`` is the World on screen. The view advances it with the
Play's ``step`` from its own FixedStepper in ``on_update`` (headless ``arcade.run`` never
dispatches ``on_fixed_update``, and arcade's fixed clock neither clamps nor drops a
backlog). Every tick takes exactly one input mask from ``tick_mask``. What two players add
on screen (both scores, whose turn, each one's spare ships) is read from the Play, not from
another class. No game rule lives here.

Overlays are sections of the view's ``SectionManager``: a modal one (pause, options) gets the
keys first, and only it does. The view updates its overlays in its own ``on_update`` (the top
modal one reads the pad; the title's demo plays on under the options unless the view checks
``modal``) and draws them after its frame. arcade 3 pushes the section manager's handlers
above the view's, and calls the view's own handler again when the manager's returns
nothing, so the view's key handlers return ``True``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade

from asteroids.app.effects import Particles
from asteroids.app.game import Game
from asteroids.app.hud import Hud, MatchHud, role_colors, score_wrap
from asteroids.app.input import MenuPad
from asteroids.app.keymap import KeyRule, KeyTable, alt_enter_rule, common_rules, pad_key
from asteroids.app.layout import HudLayout
from asteroids.app.live import Outcome
from asteroids.app.monitor import MAX_PAST_TICKS
from asteroids.app.overlay import Overlay
from asteroids.app.palettes import Palette
from asteroids.app.scene import ICON_PITCH, SceneBuilder, Segments
from asteroids.app.stepper import FixedStepper
from asteroids.app.text import Frame, TextLine, rgba, text_ink
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import with_player_sections
from asteroids.core import World
from asteroids.core import events as ev
from asteroids.core.params import Params, params_for
from asteroids.core.play import Play, play_for

__all__ = ["TickSource", "WorldView"]

TickSource = Callable[[World], int]
"""Gives the input mask for the next tick from the world about to be stepped (a bot, a
script in tests). Called exactly once per tick."""


class WorldView(arcade.View):
    """A view that runs a game at the fixed tick rate and draws its World interpolated.

    Args:
        game: the shared services.
        seed: the game's seed.
        config: the settings the game is stepped with (default: the ones in force).
        players: 1, or 2 for a match (``asteroids.core.play.play_for``).
    """

    sound = True
    """Whether this view's events make sound."""

    @property
    def config(self) -> Config:
        """The settings the game is stepped with; setting them compiles their rules once
        (``params``), so no tick compiles them again."""
        return self._config

    @config.setter
    def config(self, config: Config) -> None:
        self.use_rules(config, params_for(config))

    def use_rules(self, config: Config, params: Params) -> None:
        """Step with ``config`` from now on, ``params`` being its compiled rules (for a
        caller that holds them already)."""
        self._config = config
        self.params = params
        """The compiled rules of ``config``: what the core steps with."""

    def __init__(self, game: Game, seed: int, config: Config | None = None,
                 players: int = 1) -> None:
        super().__init__(game.window)
        self.game = game
        rules = game.rules
        self.config = config if config is not None else rules.config
        self.seed = seed
        self.play: Play[Any] = play_for(players)
        """How this view's game starts, steps and reads, one player or a match."""
        self.state: Any = self.play.start(self.config, seed)
        """The game between ticks: the World (one player) or the Match (two)."""
        self.prev: World = self.world
        self.stepper = FixedStepper(self.config.world.tick_hz)
        self.scene = rules.scene if self.config == rules.config else SceneBuilder(self.config)
        """Draws this view's world (the game's, unless the view runs other settings)."""
        self.particles = Particles(rules.width, rules.height, self.config.world.tick_hz, seed)
        self.hud = Hud(rules.width, rules.height, self.config.display.show_fps,
                       scale=rules.config.display.hud_scale)
        self.match_hud = MatchHud(self.hud, rules.width) if players > 1 else None
        """Every player's score and whose turn it is (None: one player)."""
        self.masks: list[int] = []
        """Every mask fed to the core, one per tick, in order."""
        self.events: list[ev.Event] = []
        """The last frame's events (for tests and overlays)."""
        self.frames = 0
        self._fps = 0.0
        self.replaced = False
        """True once a live reload put another screen up instead of this one."""
        self.menu = MenuPad(game.gamepad)
        """The pad's menu moves, fed to the key table as ``pad_key`` codes."""
        self.stale: set[int] = set(game.held_keys)
        """Keys held when this screen was made: they act only once released and pressed
        again (``on_show_view`` takes them again)."""
        self.section_manager = arcade.SectionManager(self)
        # Only keys go through the sections. The view updates and draws its overlays itself
        # (headless ``arcade.run`` calls a view's on_update and on_draw directly, past any
        # section manager); the window keeps its own on_resize (it remembers the size).
        self.section_manager.managed_events = {"on_key_press", "on_key_release"}
        self._table: KeyTable | None = None
        self.drawn_lines: list[TextLine] = []
        """Every line of text of the last frame drawn (tests read where text went)."""
        self.passed: list[World] = []
        """The worlds this frame's ticks started from, oldest first (at most
        ``MAX_PAST_TICKS``): where things were in between, for the monitor look's
        afterglow. Display only: nothing is decided from them."""

    @property
    def world(self) -> World:
        """The World on screen: the game's, or the active player's in a match."""
        return self.play.world(self.state)

    @world.setter
    def world(self, world: World) -> None:
        """Put ``world`` up as a one-player game's state (the title's next demo, the World
        a game ended with, tests); a match shows its active player's World."""
        if self.play.players != 1:
            raise ValueError("a match shows its active player's World: set its state")
        self.state = world

    # --- keys -----------------------------------------------------------------------------

    @property
    def keys(self) -> KeyTable:
        """This screen's key table: Alt+Enter, the screen's own rules, then the keys every
        screen shares (``common_rules``)."""
        if self._table is None:
            self._table = KeyTable([alt_enter_rule(self.game), *self.key_rules(),
                                    *common_rules(self.game)])
        return self._table

    def key_rules(self) -> list[KeyRule]:
        """The screen's own keys, in order (the first match wins)."""
        return []

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """A key through the screen's table (an overlay that is up has had it first). A key
        held since before this screen opened does nothing until pressed again: presses never
        cross screens."""
        self.game.held_keys.add(symbol)
        if symbol not in self.stale:
            self.pressed(symbol)
            self.keys.press(symbol, modifiers)
        return True

    def pressed(self, symbol: int) -> None:
        """Any key pressed on this screen (before its table sees it)."""

    def on_key_release(self, symbol: int, modifiers: int) -> bool:
        """A key let go: it may act on this screen again; ``key_released`` sees it."""
        self.game.held_keys.discard(symbol)
        if symbol in self.stale:
            self.stale.discard(symbol)
        else:
            self.key_released(symbol)
        return True

    def key_released(self, symbol: int) -> None:
        """A key pressed on this screen was let go (a game's held buttons)."""

    def on_deactivate(self) -> None:
        """The window lost focus: keys may be let go unseen, so none counts as held."""
        self.game.held_keys.clear()
        self.stale.clear()

    def update_overlays(self, delta_time: float) -> None:
        """Once a frame: the top modal overlay's update (it reads the pad), and every
        overlay that only watches."""
        top = self.modal
        for overlay in self.overlays:
            if overlay is top or not overlay.modal:
                overlay.on_update(delta_time)

    def pad_moves(self) -> None:
        """Once a frame: the pad's menu moves through this screen's key table (none while a
        modal overlay is up: it reads the pad itself)."""
        moves = self.menu.poll()
        if self.modal is not None:
            return
        for move in moves:
            self.keys.press(pad_key(move))
            if self.modal is not None or (self.window is not None
                                          and self.window.current_view is not self):
                return  # the move opened an overlay or another screen

    # --- overlays -------------------------------------------------------------------------

    @property
    def overlays(self) -> list[Overlay]:
        """The overlays up now, the top one first."""
        return [s for s in self.section_manager.sections if isinstance(s, Overlay)]

    @property
    def options(self) -> Overlay | None:
        """The options overlay while it is up (``asteroids.app.options_overlay``), else
        None."""
        return next((o for o in self.overlays if o.name == "options"), None)

    @property
    def modal(self) -> Overlay | None:
        """The top modal overlay (it takes the keys), or None."""
        return next((o for o in self.overlays if o.modal), None)

    def open_overlay(self, overlay: Overlay) -> Overlay:
        """Put ``overlay`` up over this screen, on top of any other."""
        self.section_manager.add_section(overlay, at_index=0)
        return overlay

    def close_overlay(self, overlay: Overlay) -> None:
        """Take ``overlay`` down (a no-op when it is not up)."""
        if overlay in self.section_manager.sections:
            self.section_manager.remove_section(overlay)

    def on_show_view(self) -> None:
        """Route events through the overlays; the keys held now are stale here."""
        self.stale = set(self.game.held_keys)
        self.section_manager.enable()

    def on_hide_view(self) -> None:
        """Stop routing events through the overlays."""
        self.section_manager.disable()

    # --- live settings ------------------------------------------------------------------------

    def take_options(self) -> None:
        """The options changed (``Game.apply_options``): take the player's new display,
        sound and keys tables (never rules: the World steps on as before) and a new HUD
        scale at once."""
        rules = self.game.rules
        self.config = with_player_sections(self.config, rules.config)
        self.hud.show_fps = self.config.display.show_fps
        scale = rules.config.display.hud_scale
        if scale != self.hud.scale:
            old = self.hud
            self.hud = Hud(rules.width, rules.height, old.show_fps, scale=scale)
            if self.match_hud is not None:
                self.match_hud = MatchHud(self.hud, rules.width)
            self.hud.score_wrap = old.score_wrap
            for name, text in old.values.items():
                self.hud.set(name, text)

    def poll_live(self, delta_time: float) -> bool:
        """Let ``--live`` look at the settings files (``Game.poll_live``; once a frame).
        Returns True when a reload put another screen up instead of this one."""
        window = self.window
        before = window.current_view if window is not None else None
        self.game.poll_live(self, delta_time)
        self.replaced = window is not None and window.current_view is not before
        return self.replaced

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome:
        """New settings from a live reload (``changes`` is what differs from the last).

        The player's own tables (keys, sound, display) apply to this screen at once; its
        rules are not this screen's to change, so rule changes wait for the next game.
        Returns what the notice should say about them.
        """
        self.config = with_player_sections(self.config, player)
        self.hud.show_fps = self.config.display.show_fps
        rules = {c.key for c in changes if c.rule}
        return Outcome(rules, ["rules apply to the next game"] if rules else [])

    # --- ticks ----------------------------------------------------------------------------

    def tick_mask(self) -> int:
        """The input for the next tick."""
        return 0

    def run_tick(self, mask: int) -> None:
        """Step the game once with ``mask``, then let effects, sound and ``on_tick`` see the
        events of the World on screen. A turn change cuts to the next player's World (no
        blend, no debris, no sound carried over); a turn that resumes with a saucer still
        crossing brings its siren back."""
        self.masks.append(mask)
        play, before, shown = self.play, self.state, self.world
        self.state, tagged = play.step(before, mask, self.params)
        world = self.world
        cut = play.active(self.state) != play.active(before)
        self.prev = world if cut else shown
        self.particles.tick()
        events = play.world_events(tagged)
        for event in events:
            self.particles.on_event(event, self.game.rules.params.ship_length_px)
            if self.sound:
                self.game.audio.on_event(event, at=self.sound_time())
        if cut:
            self.particles.clear()
            self.game.audio.stop_all()
        elif play.banner(before) == 1 and self.sound and world.saucer_alive:
            self.game.audio.loop("saucer_small" if world.saucer_small else "saucer_large", True)
        self.events.extend(events)
        self.on_tick(mask)

    def sound_time(self) -> float | None:
        """The time of the tick just run on the game's clock: tick / tick rate (a match's
        turns do not move it back) and the time the stepper dropped (a frame too long to
        catch up on stalls the sounds with the picture); its sounds start that far apart
        (``Mixer.play``). None: at the next audio block."""
        return self.play.tick(self.state) / self.config.world.tick_hz + \
            self.stepper.dropped_ns / 1e9

    def sound_clock(self, ticks: int) -> float | None:
        """The game's clock at the start of a frame that owes ``ticks`` (the last of them
        was due ``acc_ns`` ago: ``SoundBank.game_clock``); None: no timed sound."""
        last = self.sound_time()
        return None if last is None else last + (
            ticks * self.stepper.tick_ns + self.stepper.acc_ns) / 1e9

    def on_tick(self, mask: int) -> None:
        """Called after each tick with the mask the core was given (``self.world`` is the
        world after it)."""

    def owed_ticks(self, delta_time: float) -> int:
        """How many ticks this frame owes."""
        return self.stepper.frame(delta_time)

    def note_passed(self) -> None:
        """After a tick of this frame: keep the world it started from (``passed``). A cut
        (the view shows the new world unblended: a turn change) starts the list afresh."""
        if self.prev is self.world:
            self.passed.clear()
        self.passed.append(self.prev)
        del self.passed[:-MAX_PAST_TICKS]

    def advance(self, delta_time: float) -> int:
        """Run the ticks this frame owes; returns how many ran."""
        n = self.owed_ticks(delta_time)
        self.events = []
        self.passed = []
        if self.sound:  # the game's clock against the wall clock: what is due when
            self.game.audio.game_clock(self.sound_clock(n))
        for _ in range(n):
            self.run_tick(self.tick_mask())
            self.note_passed()
        if self.sound:
            self.game.audio.game_clock(None)
        return n

    def count_frame(self, delta_time: float) -> None:
        """The frame counter and the FPS estimate."""
        self.frames += 1
        if delta_time > 0:
            self._fps = 0.9 * self._fps + 0.1 / delta_time if self._fps else 1.0 / delta_time

    def on_update(self, delta_time: float) -> None:
        """One frame: look at watched settings, the pad, run the owed ticks, the HUD."""
        if self.poll_live(delta_time):
            return  # the reload opened another screen
        self.update_overlays(delta_time)
        self.pad_moves()
        if self.window is not None and self.window.current_view is not self \
                and self.window.current_view is not None:
            self.replaced = True  # a pad move opened another screen
            return
        self.count_frame(delta_time)
        self.advance(delta_time)
        self.hud.score_wrap = score_wrap(self.game.config.display.score_wrap,
                                         self.game.score_key(self.config))
        self.update_hud()

    def update_hud(self) -> None:
        """Set the HUD's texts from the world (only changed text is laid out again)."""
        self.hud.fps(self._fps)
        self.hud.sound(self.game.audio.notice())

    def show_players(self, moment: bool) -> None:
        """A match: every score, the active player's lit, and with ``moment`` the turn's
        moment (``MatchHud.show``); nothing for one player."""
        if self.match_hud is not None:
            self.match_hud.show(self.play, self.state, moment)

    # --- drawing --------------------------------------------------------------------------

    SHOWS_LIVES = False
    """Draw the spare-ship icons under the score (games and replays, not the title)."""

    def build_segments(self) -> Segments:
        """This frame's segments: the playfield, particles and, where shown, spare ships
        (where the last HUD layout left room for them)."""
        alpha = self.stepper.alpha
        palette = self.world_palette()
        segs = self.scene.build(self.prev, self.world, alpha, palette=palette)
        self.particles.segments(alpha, segs, palette.particle, palette.style("particle"))
        if self.SHOWS_LIVES:
            self.spare_ships(segs, palette)
        return segs

    def spare_ships(self, segs: Segments, palette: Palette) -> None:
        """Every player's spare ships under their score: player 1's from the left margin,
        player 2's ending at the right one."""
        rules = self.game.rules
        scale = 0.8 * self.hud.scale
        gap = rules.params.ship_length_px * scale * ICON_PITCH
        for player, world in enumerate(self.play.worlds(self.state)):
            lives = int(world.lives)
            if player == 0:
                x, y = self.hud.lives_xy
            else:
                x, y = self.hud.lives2_xy
                x -= (max(0, min(lives, 12)) - 1) * gap
            rules.scene.life_icons(lives, x, y, segs, scale=scale, palette=palette)

    def world_palette(self) -> Palette:
        """The palette the world is drawn in."""
        return self.game.screen.palette(self.game.config.display)

    def past_segments(self) -> list[tuple[Segments, float]]:
        """The world at each tick this frame stepped over, with its age in seconds (how
        long before the moment drawn now), oldest first; none when the frame ran fewer than
        two ticks (the last frame's afterglow already holds the one before)."""
        if len(self.passed) < 2:
            return []
        tick_s = self.stepper.tick_ns / 1e9
        alpha = self.stepper.alpha
        palette = self.world_palette()
        last = len(self.passed) - 1
        return [(self.scene.build(w, w, 0.0, palette=palette), (last - i + alpha) * tick_s)
                for i, w in enumerate(self.passed)]

    def screen_lines(self, frame: Frame, hud: HudLayout) -> list[TextLine]:
        """Text the screen adds to its HUD's (the title's high-score table)."""
        return []

    def text_lines(self, frame: Frame) -> tuple[list[TextLine], tuple[float, float, float,
                                                                      float] | None]:
        """Every line of text this frame (the HUD, the live panel, the screen's own, then
        the overlays'), and the opaque panel the world is not drawn under (None: none)."""
        game = self.game
        overlays = list(reversed(self.overlays))
        lines: list[TextLine] = []
        hole = None
        self.hud.icon = game.rules.params.ship_length_px * 0.8 * self.hud.scale
        self.hud.lives = self.SHOWS_LIVES
        if not any(o.covers for o in overlays):
            panel = game.live.panel if game.live is not None else None
            notices = panel.notice_rows() if panel is not None else []
            problems = panel.problem_lines if panel is not None else []
            layout = self.hud.layout(frame, notices, problems)
            lines += layout.lines
            hole = layout.panel
            if not problems:
                lines += self.screen_lines(frame, layout)
        for overlay in overlays:
            more, panel_box = overlay.text_lines(frame)
            lines += more
            if panel_box is not None:
                hole = panel_box
        return lines, hole

    def on_draw(self) -> bool:
        """Draw the interpolated world, then every word in the vector font (HUD, overlays),
        and the playfield border, through the look in force."""
        game = self.game
        display = game.config.display
        screen = game.screen
        frame = screen.frame(display.hud_scale)
        lines, hole = self.text_lines(frame)
        segs = self.build_segments()
        palette = screen.palette(display)
        colors = {role: rgba(c) for role, c in role_colors(palette.text, palette.mono).items()}
        text = Segments()
        faint = tuple(c * colors["faint"][3] for c in colors["faint"][:3]) + (1.0,)
        if screen.shows_border(display):
            screen.border(display, faint, text)
        if hole is not None:
            screen.panel_edge(hole, faint, text)
        text_ink(lines, colors, screen.px_per_unit, display.line_width_px, text)
        past = self.past_segments() if display.monitor.strength > 0.0 else []
        screen.draw_frame(display, segs, text, hole, past)
        self.drawn_lines = lines
        return True

    def on_resize(self, width: int, height: int) -> bool | None:
        """Keep the letterbox fitted (the window may not forward this)."""
        self.game.screen.fit_camera()
        return None
