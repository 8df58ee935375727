"""The screens: a title / attract view and the play view, and the moves between them.

Each view owns a World and advances it with the core's ``step`` from its own FixedStepper in
``on_update`` (headless ``arcade.run`` never dispatches ``on_fixed_update``, and arcade's
fixed clock neither clamps nor drops a backlog). Every tick takes exactly one input mask from
``tick_mask``; the view keeps the masks it fed to the core in ``masks``, and a recording
PlayView hands each (mask, world after) pair to a ``Recorder``. No game rule lives here.

Imports go one way: views receive the shared ``Game`` and switch screens with
``show_title`` / ``start_game`` below; ``game`` never imports a view.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

from asteroids.app.effects import Particles
from asteroids.app.game import Game
from asteroids.app.hud import Hud
from asteroids.app.input import MenuPad, PlayerInput
from asteroids.app.recording import SaveResult
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.app.stepper import FixedStepper
from asteroids.config import Config
from asteroids.core import World, new_world, step
from asteroids.core import events as ev
from asteroids.core.bot import bot_input
from asteroids.replay import Recorder, Replay

__all__ = ["PlayView", "RULES_NEXT_KEYS", "RULES_PREV_KEYS", "TickSource", "TitleView",
           "WorldView", "show_title", "start_game"]

START_KEYS = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER,
                        arcade.key.SPACE})
"""Keys that start a game from the title or game-over screen."""

RULES_PREV_KEYS = frozenset({arcade.key.LEFT, arcade.key.NUM_LEFT})
RULES_NEXT_KEYS = frozenset({arcade.key.RIGHT, arcade.key.NUM_RIGHT})
"""Keys that pick the previous / next ruleset on the title screen (so do the keys bound to
turning left / right, unless they are a start or quit key there)."""

RESTART_DELAY_S = 1.0
"""After game over, start keys are ignored this long (so a held fire key does not restart)."""

DEMO_PAUSE_S = 3.0
"""The attract mode shows a finished demo game this long before the next one."""

TickSource = Callable[[World], int]
"""Gives the input mask for the next tick from the world about to be stepped (a bot, a
script in tests). Called exactly once per tick."""


def show_title(game: Game) -> None:
    """Switch to the title / attract screen."""
    game.audio.stop_all()
    game.window.show_view(TitleView(game))


def start_game(game: Game) -> None:
    """Start a new game with the next seed."""
    game.audio.stop_all()
    game.window.show_view(PlayView(game, game.next_seed()))


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
        segs = self.scene.build(self.prev, self.world, alpha)
        self.particles.segments(alpha, segs)
        return segs

    def on_draw(self) -> None:
        """Draw the interpolated world and the HUD."""
        self.game.draw_frame(self.build_segments(), self.hud)

    def on_resize(self, width: int, height: int) -> None:
        """Keep the letterbox fitted (the window may not forward this)."""
        self.game.fit_camera()


class TitleView(WorldView):
    """The attract screen: bundled demo replays play silently behind the title, in turn.

    With no usable demo (none bundled, none loads, none fits the world) the core's bot plays
    live instead. It shows the selected ruleset; Left / Right (or the pad's d-pad or stick)
    pick another, which restarts the title in that ruleset's world.
    """

    sound = False

    def __init__(self, game: Game, seed: int = 1979) -> None:
        super().__init__(game, seed)
        choose = len(game.rulesets) > 1
        self.hud.message("ASTEROIDS", "ENTER / SPACE TO PLAY     LEFT / RIGHT: RULES" if choose
                         else "PRESS ENTER / SPACE TO PLAY")
        self.hud.note(f"RULES: {game.ruleset.label.upper()}" + ("  < >" if choose else ""))
        self.menu = MenuPad(game.gamepad)
        bindings = game.bindings
        menu_keys = START_KEYS | {arcade.key.ESCAPE}
        self.prev_keys = (RULES_PREV_KEYS | bindings.keys_for("left")) - menu_keys
        """Keys that pick the previous ruleset."""
        self.next_keys = (RULES_NEXT_KEYS | bindings.keys_for("right")) - menu_keys
        """Keys that pick the next ruleset."""
        self.over_s = 0.0
        self.demos: list[Replay] = game.demos()
        """The demos it cycles through (empty: the live bot plays)."""
        self.demo: Replay | None = None
        """The demo playing now (None: the live bot)."""
        self._demo_index = -1
        if self.demos:
            self.next_game()

    def next_game(self) -> None:
        """Start the next demo (or, without demos, a new bot game with the next seed)."""
        if self.demos:
            self._demo_index = (self._demo_index + 1) % len(self.demos)
            self.demo = self.demos[self._demo_index]
            self.config, self.seed = self.demo.config, self.demo.seed
            self.scene = (self.game.scene if self.config == self.game.config
                          else SceneBuilder(self.config))
        else:
            self.seed += 1
        self.world = self.prev = new_world(self.config, self.seed)
        self.masks.clear()
        self.particles.clear()
        self.over_s = 0.0

    @property
    def demo_done(self) -> bool:
        """True when every recorded tick of the demo has been shown."""
        return self.demo is not None and len(self.masks) >= self.demo.ticks

    def owed_ticks(self, delta_time: float) -> int:
        """Stop at the last recorded tick of a demo."""
        n = super().owed_ticks(delta_time)
        if self.demo is not None:
            n = min(n, self.demo.ticks - len(self.masks))
        return n

    def tick_mask(self) -> int:
        """The demo's recorded input, or the live bot's buttons."""
        if self.demo is not None:
            return self.demo.masks[len(self.masks)]
        return bot_input(self.world, self.game.width, self.game.height)

    def pick_ruleset(self, step: int) -> None:
        """Select the ruleset ``step`` places on (wrapping) and show the title in it."""
        if len(self.game.rulesets) < 2:
            return
        self.game.select_ruleset(self.game.ruleset_index + step)
        show_title(self.game)

    def on_update(self, delta_time: float) -> None:
        """Read the pad's menu moves; run the demo; start the next one a while after it
        ends."""
        for move in self.menu.poll():
            if move == "start":
                start_game(self.game)
                return
            self.pick_ruleset(-1 if move == "left" else 1)
            return
        super().on_update(delta_time)
        if self.world.game_over or self.demo_done:
            self.over_s += delta_time
        if self.over_s > DEMO_PAUSE_S:
            self.next_game()

    def update_hud(self) -> None:
        """Score of the demo game, plus the FPS counter."""
        self.hud.show_world(self.world)
        super().update_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Enter or Space plays; Escape quits; Left / Right pick the rules."""
        if symbol in START_KEYS:
            start_game(self.game)
        elif symbol == arcade.key.ESCAPE:
            self.game.quit()
        elif symbol in self.prev_keys:
            self.pick_ruleset(-1)
        elif symbol in self.next_keys:
            self.pick_ruleset(1)


class PlayView(WorldView):
    """A game in progress: keyboard (and gamepad) to the core, pause, game over, restart.

    When the game records (``game.saver`` is set), every tick's mask and the world after it
    go to a ``Recorder``; the replay is saved on game over, or unfinished when the player
    leaves the game (quit to title, window closed).

    Args:
        game: the shared services.
        seed: this game's seed.
        autopilot: let the core's bot play (screenshots, demos); keys then only pause/quit.
        source: where each tick's mask comes from instead of the keyboard (tests, bots);
            keys then only pause/quit.
    """

    def __init__(self, game: Game, seed: int, autopilot: bool = False,
                 source: TickSource | None = None) -> None:
        super().__init__(game, seed)
        self.input = PlayerInput(game.bindings, gamepad=game.gamepad)
        self.autopilot = autopilot
        self.source = source
        self.paused = False
        self.over_s = 0.0
        """Seconds since the game ended (0 while it runs)."""
        self.recorder: Recorder | None = (Recorder(self.config, seed)
                                          if game.saver is not None else None)
        """Records this game (None when the game does not record)."""
        self.recorded_ticks = 0
        """Ticks handed to the recorder so far."""
        self.saved: SaveResult | None = None
        """The outcome of saving the replay (None until it is saved or fails)."""

    def tick_mask(self) -> int:
        """The latched player input for one tick (or the source's, or the bot's)."""
        mask = self.input.take()
        if self.source is not None:
            return self.source(self.world)
        if self.autopilot:
            return bot_input(self.world, self.game.width, self.game.height)
        return mask

    def on_tick(self, mask: int) -> None:
        """Record the tick; on game over, save the replay."""
        if self.recorder is None or self.saved is not None:
            return
        self.recorder.add(mask, self.world)
        self.recorded_ticks += 1
        if self.world.game_over:
            self.save_replay()

    def save_replay(self) -> SaveResult | None:
        """Save the game recorded so far (once; later calls return the first outcome).

        Returns None when nothing is recorded (recording off, or not one tick played).
        """
        if self.saved is not None:
            return self.saved
        if self.recorder is None or self.game.saver is None or self.recorded_ticks == 0:
            return None
        self.saved = self.game.saver.save(self.recorder.finish(self.world))
        self.update_hud()
        return self.saved

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
        """Score, wave, the message of the moment and what became of the replay."""
        self.hud.show_world(self.world)
        if self.paused:
            self.hud.message("PAUSED", "P / ESC TO RESUME     Q TO QUIT TO TITLE")
        elif self.world.game_over:
            self.hud.message("GAME OVER", "PRESS ENTER / SPACE TO PLAY AGAIN     ESC FOR TITLE")
        else:
            self.hud.message()
        self.hud.note(self.saved.hud_text() if self.saved is not None else "")
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
                start_game(self.game)
            elif symbol == arcade.key.ESCAPE:
                show_title(self.game)
            return
        if symbol in self.game.bindings.pause:
            self.set_paused(not self.paused)
            return
        if self.paused:
            if symbol == arcade.key.Q:
                show_title(self.game)
            return
        if not self.input.key_press(symbol) and symbol == arcade.key.M:
            self.game.audio.set_muted(not self.game.audio.muted)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Release game keys."""
        self.input.key_release(symbol)

    def on_hide_view(self) -> None:
        """Leaving the game (another screen, or the window closing): save an unfinished
        game's replay, forget keys and stop sounds."""
        self.save_replay()
        self.input.clear()
        self.game.audio.stop_all()

    def on_deactivate(self) -> None:
        """The window lost focus: pause, so no key stays stuck down."""
        self.input.clear()
        self.set_paused(True)
