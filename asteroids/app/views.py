"""The screens: a title / attract view and the play view. No game rule lives here.

Each view owns a World and advances it with the core's ``step`` from its own FixedStepper in
``on_update`` (headless ``arcade.run`` never dispatches ``on_fixed_update``, and arcade's
fixed clock neither clamps nor drops a backlog). Every tick takes exactly one input mask; the
view keeps the masks it fed to the core in ``masks``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import arcade

from asteroids.app.effects import Particles
from asteroids.app.hud import Hud
from asteroids.app.input import PlayerInput
from asteroids.app.scene import Segments
from asteroids.app.stepper import FixedStepper
from asteroids.core import World, new_world, step
from asteroids.core import events as ev
from asteroids.core.bot import bot_input

if TYPE_CHECKING:
    from asteroids.app.window import Game

__all__ = ["PlayView", "TitleView", "WorldView"]

START_KEYS = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER,
                        arcade.key.SPACE})
"""Keys that start a game from the title or game-over screen."""

RESTART_DELAY_S = 1.0
"""After game over, start keys are ignored this long (so a held fire key does not restart)."""


class WorldView(arcade.View):
    """A view that runs a World at the fixed tick rate and draws it interpolated.

    Args:
        game: the shared services.
        seed: the World's seed.
    """

    sound = True
    """Whether this view's events make sound."""

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game.window)
        self.game = game
        self.config = game.config
        self.seed = seed
        self.world: World = new_world(self.config, seed)
        self.prev: World = self.world
        self.stepper = FixedStepper(self.config.world.tick_hz)
        self.particles = Particles(game.width, game.height, self.config.world.tick_hz, seed)
        self.hud = Hud(game.width, game.height, self.config.display.show_fps)
        self.masks: list[int] = []
        """Every mask fed to the core, one per tick, in order."""
        self.events: list[ev.Event] = []
        """The last frame's events (for tests and overlays)."""
        self.frames = 0
        self._fps = 0.0

    def tick_mask(self) -> int:
        """The input for the next tick."""
        return 0

    def advance(self, delta_time: float) -> int:
        """Run the ticks this frame owes; returns how many ran."""
        n = self.stepper.frame(delta_time)
        self.events = []
        for _ in range(n):
            mask = self.tick_mask()
            self.masks.append(mask)
            self.prev = self.world
            self.world, events = step(self.world, mask, self.config)
            self.particles.tick()
            for event in events:
                self.particles.on_event(event, self.game.params.ship_length)
                if self.sound:
                    self.game.audio.on_event(event)
            self.events.extend(events)
        return n

    def on_update(self, delta_time: float) -> None:
        """One frame: run the owed ticks and refresh the HUD."""
        self.frames += 1
        if delta_time > 0:
            self._fps = 0.9 * self._fps + 0.1 / delta_time if self._fps else 1.0 / delta_time
        self.advance(delta_time)
        self.update_hud()

    def update_hud(self) -> None:
        """Set the HUD labels from the world (only changed text is re-laid out)."""
        self.hud.fps(self._fps)

    def build_segments(self) -> Segments:
        """This frame's segments: the playfield, then particles."""
        alpha = self.stepper.alpha
        segs = self.game.scene.build(self.prev, self.world, alpha)
        self.particles.segments(alpha, segs)
        return segs

    def on_draw(self) -> None:
        """Draw the interpolated world and the HUD."""
        self.game.draw_frame(self.build_segments(), self.hud)

    def on_resize(self, width: int, height: int) -> None:
        """Keep the letterbox fitted (the window may not forward this)."""
        self.game.fit_camera()


class TitleView(WorldView):
    """The attract screen: the core's bot plays silently behind the title."""

    sound = False

    def __init__(self, game: Game, seed: int = 1979) -> None:
        super().__init__(game, seed)
        self.hud.message("ASTEROIDS", "PRESS ENTER / SPACE TO PLAY")
        self.over_s = 0.0

    def tick_mask(self) -> int:
        """The bot's buttons."""
        return bot_input(self.world, self.game.width, self.game.height)

    def on_update(self, delta_time: float) -> None:
        """Run the demo; start another when the bot loses."""
        super().on_update(delta_time)
        if self.world.game_over:
            self.over_s += delta_time
        if self.over_s > 3.0:
            self.over_s = 0.0
            self.seed += 1
            self.world = self.prev = new_world(self.config, self.seed)
            self.masks.clear()
            self.particles.clear()

    def update_hud(self) -> None:
        """Score of the demo game, plus the FPS counter."""
        self.hud.show_world(self.world)
        super().update_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Enter or Space plays; Escape quits."""
        if symbol in START_KEYS:
            self.game.start_game()
        elif symbol == arcade.key.ESCAPE:
            self.game.quit()


class PlayView(WorldView):
    """A game in progress: keyboard (and gamepad) to the core, pause, game over, restart.

    Args:
        game: the shared services.
        seed: this game's seed.
        autopilot: let the core's bot play (screenshots, demos); keys then only pause/quit.
    """

    def __init__(self, game: Game, seed: int, autopilot: bool = False) -> None:
        super().__init__(game, seed)
        self.input = PlayerInput(game.bindings, gamepad=game.gamepad)
        self.autopilot = autopilot
        self.paused = False
        self.over_s = 0.0
        """Seconds since the game ended (0 while it runs)."""

    def tick_mask(self) -> int:
        """The latched player input for one tick (or the bot's, on autopilot)."""
        mask = self.input.take()
        if self.autopilot:
            return bot_input(self.world, self.game.width, self.game.height)
        return mask

    def on_update(self, delta_time: float) -> None:
        """Run the owed ticks unless paused."""
        if self.paused:
            self.update_hud()
            return
        self.input.poll_pad()
        super().on_update(delta_time)
        if self.world.game_over:
            self.over_s += delta_time

    def update_hud(self) -> None:
        """Score, wave and the message of the moment."""
        self.hud.show_world(self.world)
        if self.paused:
            self.hud.message("PAUSED", "P / ESC TO RESUME     Q TO QUIT TO TITLE")
        elif self.world.game_over:
            self.hud.message("GAME OVER", "PRESS ENTER / SPACE TO PLAY AGAIN     ESC FOR TITLE")
        else:
            self.hud.message()
        super().update_hud()

    def build_segments(self) -> Segments:
        """The playfield, particles and the spare-ship icons."""
        segs = super().build_segments()
        x, y = self.hud.lives_xy
        self.game.scene.life_icons(self.world.lives, x, y, segs)
        return segs

    def set_paused(self, paused: bool) -> None:
        """Pause or resume; the clock does not run while paused."""
        if paused == self.paused or self.world.game_over:
            return
        self.paused = paused
        self.input.clear()
        self.stepper.reset()
        if paused:
            self.game.audio.stop_all()
        self.update_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Game keys to the latch; pause, restart and quit keys to the view."""
        if self.world.game_over:
            if symbol in START_KEYS and self.over_s >= RESTART_DELAY_S:
                self.game.start_game()
            elif symbol == arcade.key.ESCAPE:
                self.game.show_title()
            return
        if symbol in self.game.bindings.pause:
            self.set_paused(not self.paused)
            return
        if self.paused:
            if symbol == arcade.key.Q:
                self.game.show_title()
            return
        if not self.input.key_press(symbol) and symbol == arcade.key.M:
            self.game.audio.set_muted(not self.game.audio.muted)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Release game keys."""
        self.input.key_release(symbol)

    def on_hide_view(self) -> None:
        """Leaving the game: forget keys and stop sounds."""
        self.input.clear()
        self.game.audio.stop_all()

    def on_deactivate(self) -> None:
        """The window lost focus: pause, so no key stays stuck down."""
        self.input.clear()
        self.set_paused(True)
