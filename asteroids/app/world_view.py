"""The base of every screen that shows a World: ``WorldView`` runs it at the fixed tick rate
and draws it interpolated; ``common_key`` handles the keys every screen shares (mute,
volume, full screen).

Each view owns a World and advances it with the core's ``step`` from its own FixedStepper in
``on_update`` (headless ``arcade.run`` never dispatches ``on_fixed_update``, and arcade's
fixed clock neither clamps nor drops a backlog). Every tick takes exactly one input mask from
``tick_mask``. No game rule lives here. Imports go one way: ``views``, ``replay_view`` and
``initials`` build on this module; it imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from asteroids.app.effects import Particles
from asteroids.app.game import Game
from asteroids.app.hud import Hud, score_wrap
from asteroids.app.live import Outcome
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.app.stepper import FixedStepper
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import with_player_sections
from asteroids.core import World, new_world, step
from asteroids.core import events as ev

__all__ = ["FULLSCREEN_KEYS", "MUTE_KEYS", "VOLUME_DOWN_KEYS", "VOLUME_UP_KEYS", "TickSource",
           "WorldView", "common_key"]

MUTE_KEYS = frozenset({arcade.key.M})
VOLUME_DOWN_KEYS = frozenset({arcade.key.BRACKETLEFT})
VOLUME_UP_KEYS = frozenset({arcade.key.BRACKETRIGHT})
FULLSCREEN_KEYS = frozenset({arcade.key.F11})
"""Keys that work on every screen but the initials entry: mute, master volume down / up,
full screen. Each change is remembered for the next run."""

TickSource = Callable[[World], int]
"""Gives the input mask for the next tick from the world about to be stepped (a bot, a
script in tests). Called exactly once per tick."""



def common_key(game: Game, symbol: int) -> bool:
    """Mute, volume and full-screen keys (``MUTE_KEYS`` ...); True when ``symbol`` was one."""
    if symbol in MUTE_KEYS:
        game.toggle_mute()
    elif symbol in VOLUME_DOWN_KEYS:
        game.change_volume(-1)
    elif symbol in VOLUME_UP_KEYS:
        game.change_volume(1)
    elif symbol in FULLSCREEN_KEYS:
        game.toggle_fullscreen()
    else:
        return False
    return True


class WorldView(arcade.View):
    """A view that runs a World at the fixed tick rate and draws it interpolated.

    Args:
        game: the shared services.
        seed: the World's seed.
        config: the settings the World is stepped with (default: the game's).
    """

    sound = True
    """Whether this view's events make sound."""

    def __init__(self, game: Game, seed: int, config: Config | None = None) -> None:
        super().__init__(game.window)
        self.game = game
        self.config = config if config is not None else game.config
        self.seed = seed
        self.world: World = new_world(self.config, seed)
        self.prev: World = self.world
        self.stepper = FixedStepper(self.config.world.tick_hz)
        self.scene = game.scene if self.config == game.config else SceneBuilder(self.config)
        """Draws this view's world (the game's, unless the view runs other settings)."""
        self.particles = Particles(game.width, game.height, self.config.world.tick_hz, seed)
        self.hud = Hud(game.width, game.height, self.config.display.show_fps,
                       scale=game.display.hud_scale)
        self.masks: list[int] = []
        """Every mask fed to the core, one per tick, in order."""
        self.events: list[ev.Event] = []
        """The last frame's events (for tests and overlays)."""
        self.frames = 0
        self._fps = 0.0
        self.replaced = False
        """True once a live reload put another screen up instead of this one."""

    def tick_mask(self) -> int:
        """The input for the next tick."""
        return 0

    def run_tick(self, mask: int) -> None:
        """Step the world once with ``mask``, then let effects, sound and ``on_tick`` see it."""
        self.masks.append(mask)
        self.prev = self.world
        self.world, events = step(self.world, mask, self.config)
        self.particles.tick()
        for event in events:
            self.particles.on_event(event, self.game.params.ship_length)
            if self.sound:
                self.game.audio.on_event(event)
        self.events.extend(events)
        self.on_tick(mask)

    def on_tick(self, mask: int) -> None:
        """Called after each tick with the mask the core was given (``self.world`` is the
        world after it)."""

    def owed_ticks(self, delta_time: float) -> int:
        """How many ticks this frame owes."""
        return self.stepper.frame(delta_time)

    def advance(self, delta_time: float) -> int:
        """Run the ticks this frame owes; returns how many ran."""
        n = self.owed_ticks(delta_time)
        self.events = []
        for _ in range(n):
            self.run_tick(self.tick_mask())
        return n

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

    def on_update(self, delta_time: float) -> None:
        """One frame: look at watched settings, run the owed ticks, refresh the HUD."""
        if self.poll_live(delta_time):
            return  # the reload opened another screen
        self.frames += 1
        if delta_time > 0:
            self._fps = 0.9 * self._fps + 0.1 / delta_time if self._fps else 1.0 / delta_time
        self.advance(delta_time)
        self.hud.score_wrap = score_wrap(self.game.display.score_wrap,
                                         self.game.score_key(self.config))
        self.update_hud()

    def update_hud(self) -> None:
        """Set the HUD labels from the world (only changed text is re-laid out)."""
        self.hud.fps(self._fps)

    SHOWS_LIVES = False
    """Draw the spare-ship icons under the score (games and replays, not the title)."""

    def build_segments(self) -> Segments:
        """This frame's segments: the playfield, particles and, where shown, spare ships."""
        alpha = self.stepper.alpha
        palette = self.game.palette()
        segs = self.scene.build(self.prev, self.world, alpha, palette=palette)
        self.particles.segments(alpha, segs, palette.particle, palette.style("particle"))
        if self.SHOWS_LIVES:
            x, y = self.hud.lives_xy
            self.game.scene.life_icons(self.world.lives, x, y, segs,
                                       scale=0.8 * self.hud.scale, palette=palette)
        return segs

    def on_draw(self) -> None:
        """Draw the interpolated world and the HUD."""
        self.game.draw_frame(self.build_segments(), self.hud)

    def on_resize(self, width: int, height: int) -> None:
        """Keep the letterbox fitted (the window may not forward this)."""
        self.game.fit_camera()
