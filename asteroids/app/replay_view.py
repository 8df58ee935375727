"""Watching a replay in the game window: play, pause, single step, 1-8x speed and seek.

One viewer for one player and two: the replay's ``Play`` (``asteroids.core.play``, as the
verifier uses it) runs the masks through the same ``WorldView`` tick machinery as a live game
(fixed stepper, effects, sound, both scores and the turn's banner in a match). Seeking
re-simulates from the nearest earlier state kept on the way: every ``CHECKPOINT_EVERY`` ticks
the view keeps the World or Match it passes (both are immutable, so keeping one is keeping a
reference), so a jump back costs at most that many ticks plus the jump, never a replay from
tick 0. Passing a recorded checkpoint also checks its state hash (the Play's), so a replay
that no longer matches the rules says so on screen. With a ``Deadline``
(``watch --time-limit``) the viewer stops at it, within a seek too, and closes the window.
No game rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade

from asteroids.app.game import Game
from asteroids.app.keymap import PAD_A, PAD_B, PAD_LEFT, PAD_RIGHT, PAD_START, KeyRule, run
from asteroids.app.live import Outcome
from asteroids.app.world_view import WorldView
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.config.rulesets import with_player_sections
from asteroids.core.params import Params, params_for
from asteroids.replay import CHECKPOINT_EVERY, Replay
from asteroids.replay.work import Deadline

__all__ = ["SEEK_S", "SPEEDS", "ReplayView", "clock_text"]

SPEEDS = (1, 2, 4, 8)
"""Playback speeds, keys 1-4."""

SEEK_S = 10.0
"""Seconds one seek key jumps."""

_SPEED_KEYS = {arcade.key.KEY_1: 1, arcade.key.KEY_2: 2, arcade.key.KEY_3: 4,
               arcade.key.KEY_4: 8, arcade.key.NUM_1: 1, arcade.key.NUM_2: 2,
               arcade.key.NUM_3: 4, arcade.key.NUM_4: 8}
_FASTER = frozenset({arcade.key.PLUS, arcade.key.EQUAL, arcade.key.NUM_ADD})
_SLOWER = frozenset({arcade.key.MINUS, arcade.key.NUM_SUBTRACT})
_PAUSE = frozenset({arcade.key.P, arcade.key.SPACE})
_STEP = frozenset({arcade.key.PERIOD, arcade.key.NUM_DECIMAL})
_QUIT = frozenset({arcade.key.ESCAPE, arcade.key.Q})

HINT = "SPACE PLAY   .  STEP   ARROWS SEEK   1-4 SPEED   ESC QUIT"
"""The key help shown while paused or at the end (fits the screen; README has them all)."""


def clock_text(ticks: int, tick_hz: float) -> str:
    """Ticks as game time, ``m:ss.s``.

    >>> clock_text(3723, 60.0)
    '1:02.0'
    """
    tenths = int(ticks * 10 // tick_hz)
    return f"{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"


class ReplayView(WorldView):
    """Plays a recorded game in the window (one player or a match).

    Args:
        game: the shared services (its config should be the replay's, display aside).
        replay: the recording.
        speed: the starting speed, one of ``SPEEDS``.
        back: what Escape / Q do (back to the title's high-score table); None closes the
            window (``asteroids watch``).

    Raises:
        ValueError: for a speed not in ``SPEEDS``.
    """

    SHOWS_LIVES = True

    deadline: Deadline | None = None
    """``watch --time-limit``: past it the viewer records the tick it reached
    (``deadline.stopped_at``) and closes the window (None: no limit)."""

    def __init__(self, game: Game, replay: Replay, speed: int = 1,
                 back: Callable[[], None] | None = None) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"speed must be one of {SPEEDS}, got {speed!r}")
        super().__init__(game, replay.seed, config=replay.config, players=replay.players)
        self.replay = replay
        self.player: Config = game.rules.config
        """Whose display, sound and keys the replay is shown with (the game's rules are
        the replay's own, changes recorded during it included)."""
        self._steps: dict[int, tuple[Config, Params]] = {}
        """The settings of each recorded settings change (tick of the change -> config)."""
        self.config = self._config_for(0)
        self.back = back
        """Called by Escape / Q instead of closing the window (None: close)."""
        self.speed = speed
        self.paused = False
        self.tick = 0
        """Ticks of the replay shown: ``world`` is the state after this many."""
        self.kept: dict[int, Any] = {0: self.state}
        """States passed so far, by tick, every ``keep_every`` ticks: where seeks restart."""
        self.keep_every = CHECKPOINT_EVERY
        self.hash = self.play.hasher()
        """The state hash the replay's checkpoints hold (``state_hash``, ``match_hash``)."""
        self.expected: dict[int, str] = dict(replay.checkpoints)
        self.expected[replay.ticks] = replay.final_hash
        self.out_of_step: int | None = None
        """The first passed checkpoint tick whose state hash is not the recorded one."""
        self.seeks = 0
        """Ticks re-simulated by seeks so far (diagnostics and tests)."""
        self._passed(0, self.state)

    @property
    def at_end(self) -> bool:
        """True when the last recorded tick is shown."""
        return self.tick >= self.replay.ticks

    def _passed(self, tick: int, state: Any) -> None:
        """Bookkeeping for the state after ``tick``: keep it, check it."""
        if tick % self.keep_every == 0:
            self.kept.setdefault(tick, state)
        want = self.expected.get(tick)
        if want is not None and self.out_of_step is None and self.hash(state) != want:
            self.out_of_step = tick

    def current_hash(self) -> str:
        """The state hash of what is shown, to compare with the replay's."""
        return self.hash(self.state)

    def _config_for(self, tick: int) -> Config:
        """The settings of the step from ``tick``: the replay's rules at that tick (with its
        recorded changes) and the player's display, sound and keys; one object per change."""
        return self._step_from(tick)[0]

    def _rules_for(self, tick: int) -> Params:
        """The compiled rules of ``_config_for(tick)``, compiled once per change."""
        return self._step_from(tick)[1]

    def _step_from(self, tick: int) -> tuple[Config, Params]:
        start = 0
        for change in self.replay.config_changes:
            if change.tick > tick:
                break
            start = change.tick
        step = self._steps.get(start)
        if step is None:
            config = with_player_sections(self.replay.config_at(tick), self.player)
            step = self._steps[start] = (config, params_for(config))
        return step

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome:
        """A live reload (``watch --live``): display, sound and keys apply at once; the
        rules are the replay's and do not change."""
        self.player = player
        self._steps.clear()
        self.config = self._config_for(self.tick)
        self.hud.show_fps = self.config.display.show_fps
        rules = {c.key for c in changes if c.rule}
        return Outcome(rules, ["the rules are the replay's: not changed"] if rules else [])

    def run_tick(self, mask: int) -> None:
        """Step with the settings in force at this tick of the recording."""
        if self.replay.config_changes:
            self.use_rules(*self._step_from(self.tick))
        super().run_tick(mask)

    def sound_time(self) -> float | None:
        """The tick's time at 1x; None (the next audio block) when played faster, where
        game time outruns the sound card's clock."""
        return super().sound_time() if self.speed == 1 else None

    def tick_mask(self) -> int:
        """The recorded mask of the next tick."""
        return self.replay.masks[self.tick]

    def on_tick(self, mask: int) -> None:
        """One more recorded tick shown."""
        self.tick += 1
        self._passed(self.tick, self.state)

    def owed_ticks(self, delta_time: float) -> int:
        """Ticks owed at the current speed, none while paused, none past the end."""
        if self.paused or self.at_end:
            self.stepper.reset()
            return 0
        n = 0
        for _ in range(self.speed):
            n += self.stepper.frame(delta_time)
        return min(n, self.replay.ticks - self.tick)

    def step_once(self) -> None:
        """Show exactly one more tick (while paused)."""
        if self.at_end:
            return
        self.events = []
        self.run_tick(self.tick_mask())
        self.prev = self.world  # show the new tick itself, not a blend
        self.update_hud()

    def out_of_time(self) -> bool:
        """Whether the deadline has passed; the first time, it records the tick shown and
        closes the window."""
        deadline = self.deadline
        if deadline is None or not deadline.passed():
            return False
        if deadline.stopped_at is None:
            deadline.stopped_at = self.tick
            self.game.quit()
        return True

    def on_update(self, delta_time: float) -> None:
        """One frame, none past the deadline."""
        if self.out_of_time():
            return
        super().on_update(delta_time)

    def seek(self, target: int) -> None:
        """Show the state after ``target`` ticks (clamped to the replay).

        Re-simulates silently from the nearest earlier kept state, or from the current one
        when that is nearer; effects and sounds in flight are dropped. With a deadline, a
        long seek goes ``keep_every`` ticks at a time and stops where the deadline finds it.
        """
        target = max(0, min(int(target), self.replay.ticks))
        if target == self.tick:
            return
        if self.deadline is None:
            start = self.resimulate(target)
        else:
            start, target = self._seek_in_steps(target)
            if self.deadline.stopped_at is not None:  # the window is closed
                self.seeks += target - start
                return
        self.seeks += target - start
        self.tick = target
        self.masks = list(self.replay.masks[:target])
        self.events = []
        self.particles.clear()
        self.stepper.reset()
        self.game.audio.stop_all()
        self.update_hud()

    def _seek_in_steps(self, target: int) -> tuple[int, int]:
        """``resimulate`` towards ``target`` at most ``keep_every`` ticks at a time, until it
        is reached or the deadline passes; (the tick it started from, the tick reached)."""
        start: int | None = None
        while True:
            base = max(t for t in self.kept if t <= target)
            origin = self.tick if base <= self.tick <= target else base
            stop = min(target, origin + self.keep_every)
            first = self.resimulate(stop)
            start = first if start is None else start
            reached = self.tick = stop
            if stop == target or self.out_of_time():
                return start, reached

    def resimulate(self, target: int) -> int:
        """Step silently to the state after ``target`` ticks and show it (``self.state``,
        ``self.config``); returns the tick it started from, the nearest of the kept states
        and the one shown."""
        base = max(t for t in self.kept if t <= target)
        if base <= self.tick <= target:
            start, state = self.tick, self.state
        else:
            start, state = base, self.kept[base]
        masks, step = self.replay.masks, self.play.step
        changes = bool(self.replay.config_changes)
        rules = self._rules_for(start)
        for t in range(start, target):
            if changes:
                rules = self._rules_for(t)
            state, _ = step(state, masks[t], rules)
            self._passed(t + 1, state)
        self.config = self._config_for(target)
        self.state = state
        self.prev = self.world
        return start

    def seek_by(self, seconds: float) -> None:
        """Jump ``seconds`` of game time forward (or back, when negative)."""
        self.seek(self.tick + round(seconds * self.config.world.tick_hz))

    def set_speed(self, speed: int) -> None:
        """Play at ``speed`` (clamped into ``SPEEDS``)."""
        self.speed = min(max(speed, SPEEDS[0]), SPEEDS[-1])
        self.update_hud()

    def toggle_pause(self) -> None:
        """Pause or resume; at the end, play again from the start."""
        if self.at_end:
            self.seek(0)
            self.paused = False
        else:
            self.paused = not self.paused
        self.stepper.reset()
        if self.paused:
            self.game.audio.stop_all()
        self.update_hud()

    def update_hud(self) -> None:
        """Score and wave, tick, time and speed, and the message of the moment."""
        self.hud.show_world(self.world)
        hz, total = self.config.world.tick_hz, self.replay.ticks
        self.hud.status(f"TICK {self.tick} / {total}   {clock_text(self.tick, hz)} / "
                        f"{clock_text(total, hz)}   {self.speed}X")
        hint = HINT if self.back is None else HINT.replace("ESC QUIT", "ESC BACK")
        if self.at_end:
            self.hud.message("END", hint)
        elif self.paused:
            self.hud.message("PAUSED", hint)
        else:
            self.hud.message()
        self.hud.note("" if self.out_of_step is None else
                      f"DOES NOT MATCH THE RECORDING FROM TICK {self.out_of_step} "
                      "(RECORDED WITH OTHER RULES?)")
        super().update_hud()
        self.show_players(moment=not self.paused and not self.at_end)

    def key_rules(self) -> list[KeyRule]:
        """Playback keys (see ``HINT``); the pad: A / Start pause, d-pad seeks, B leaves."""
        return [
            KeyRule(_PAUSE | {PAD_A, PAD_START}, run(self.toggle_pause), name="pause"),
            KeyRule(_STEP, run(self.step_once), name="step"),
            KeyRule({arcade.key.RIGHT, PAD_RIGHT}, run(self.step_once),
                    when=lambda: self.paused, name="step (paused)"),
            KeyRule({arcade.key.RIGHT, arcade.key.PAGEUP, PAD_RIGHT},
                    run(lambda: self.seek_by(SEEK_S)), name="forward"),
            KeyRule({arcade.key.LEFT, arcade.key.PAGEDOWN, PAD_LEFT},
                    run(lambda: self.seek_by(-SEEK_S)), name="back"),
            KeyRule({arcade.key.HOME}, run(lambda: self.seek(0)), name="start"),
            KeyRule({arcade.key.END}, run(lambda: self.seek(self.replay.ticks)), name="end"),
            KeyRule(_SPEED_KEYS, lambda s: self.set_speed(_SPEED_KEYS[s]), name="speed"),
            KeyRule(_FASTER, run(lambda: self.set_speed(self.speed * 2)), name="faster"),
            KeyRule(_SLOWER, run(lambda: self.set_speed(self.speed // 2)), name="slower"),
            KeyRule(_QUIT | {PAD_B}, run(self.leave), name="quit"),
        ]

    def leave(self) -> None:
        """Escape / Q: back where the viewer came from, or close the window."""
        if self.back is not None:
            self.back()
        else:
            self.game.quit()

    def on_hide_view(self) -> None:
        """Stop sounds when the viewer closes."""
        super().on_hide_view()
        self.game.audio.stop_all()
