"""A game in progress, one player or two taking turns as on the 1979 cabinet: keyboard (and
gamepad) to the core, the pause overlay, and the move to the game-over screen when the last
ship is gone.

The game is a ``Play`` (``asteroids.core.play``) as in the replay recorder and verifier: the
view steps, records and saves through it with one text for one and two players. A recording
PlayView hands each (mask, state after) pair to a ``Recorder`` of as many players; the replay
is saved at game over, or unfinished when the player leaves the game (quit to title, window
closed). At game over every player's score goes into the high-score table at once (initials
"???", with the saved replay's name) and the game-over screen
(``asteroids.app.game_over_view``) takes over; it asks each player who made the table for
initials in turn. No game rule lives here.
"""

from __future__ import annotations

import arcade

from asteroids.app.controls import key_lines, pad_lines
from asteroids.app.font import CAP
from asteroids.app.game import Game
from asteroids.app.hud import spawn_band
from asteroids.app.input import PlayerInput
from asteroids.app.keymap import PAD_BACK, PAD_START, KeyRule, run
from asteroids.app.layout import HudLayout
from asteroids.app.live import Outcome
from asteroids.app.options_overlay import OPEN_KEYS, OptionsMenu
from asteroids.app.overlay import Overlay
from asteroids.app.profile_service import ScoreSlot
from asteroids.app.recording import SaveResult
from asteroids.app.scene import SceneBuilder
from asteroids.app.screens import FinishedGame
from asteroids.app.text import Frame, TextLine, text_width
from asteroids.app.world_view import TickSource, WorldView
from asteroids.config import Config
from asteroids.config.budget import Carry, rules_getter
from asteroids.config.live import Change, ReloadPlan, apply_changes, plan_reload
from asteroids.config.rulesets import with_player_sections
from asteroids.core.bot import bot_input
from asteroids.profile import MAX_ENTRIES
from asteroids.replay import Recorder
from asteroids.replay.changes import MAX_CHANGES, MAX_TOTAL_SETTINGS

__all__ = ["CARD_FADE_S", "CARD_TITLE", "GRACE_WORD", "PAUSE_HINT", "PauseOverlay", "PlayView"]

PAUSE_HINT = "P / ESC TO RESUME     O: OPTIONS     Q TO QUIT TO TITLE"
"""The pause screen's line under PAUSED."""

CARD_FADE_S = 0.6
"""The controls card fades out this long after the first input."""

CARD_TITLE = "HOW TO PLAY"
"""The controls card's first line."""

GRACE_WORD = "SAFE"
"""Shown under the first ship of a new player's first game while it blinks: the blink is
its grace (``ship.grace_s``), when nothing can hit it."""


class PauseOverlay(Overlay):
    """The pause screen over a game: the pause keys (or the pad's Start) resume, O (Back /
    Select) opens the options, Q quits to the title. The game's clock stands still."""

    def __init__(self, view: PlayView) -> None:
        super().__init__(view, modal=True, name="pause")
        self.play = view

    def key_rules(self) -> list[KeyRule]:
        """Resume, options, quit; and the keys every screen shares."""
        view = self.play
        return [
            KeyRule(lambda: view.game.rules.bindings.pause | {PAD_START},
                    run(lambda: view.set_paused(False)), name="resume"),
            KeyRule(OPEN_KEYS | {PAD_BACK}, run(view.open_options), name="options"),
            KeyRule({arcade.key.Q}, run(view.quit_to_title), name="quit"),
        ]


class PlayView(WorldView):
    """A game in progress; in a match the keyboard (and pad) drive whichever player's turn
    it is.

    Args:
        game: the shared services.
        seed: this game's seed.
        autopilot: let the core's bot play (screenshots, demos); keys then only pause.
        source: where each tick's mask comes from instead of the keyboard (tests, bots);
            keys then only pause.
        players: 1, or 2 for a match (a new game after this one has as many).
    """

    SHOWS_LIVES = True

    def __init__(self, game: Game, seed: int, autopilot: bool = False,
                 source: TickSource | None = None, players: int = 1) -> None:
        super().__init__(game, seed, players=players)
        self.input = PlayerInput(game.rules.bindings, gamepad=game.gamepad)
        self.autopilot = autopilot
        self.source = source
        self.recorder: Recorder | None = (Recorder(self.config, seed, players=players)
                                          if game.saver is not None else None)
        """Records this game (None when the game does not record)."""
        self.recorded_ticks = 0
        """Ticks handed to the recorder so far."""
        self.saved: SaveResult | None = None
        """The outcome of saving the replay (None until it is saved or fails)."""
        self.best = game.best_score(self.config)
        """The best score of these rules when the game began (None: no tables kept)."""
        self.finished: FinishedGame | None = None
        """The game as the screens after it see it (None while it runs)."""
        self.follows_player = game.live is not None and game.rules.plays_player_rules
        """Whether ``--live`` changes to the player's rules apply to this game."""
        self.carry = Carry.of(rules_getter(self.config))
        """What the rules in force so far this game allow (rocks made under them may still
        fly): a live change is judged against the work budget with it."""
        self.rules_changed = False
        """True once a live reload changed this game's rules: it is recorded with the
        changes, and enters no high-score table (it was not played under one ruleset)."""
        self.pending: tuple[Change, ...] = ()
        """Changes that wait for the next game (the restart key starts it now)."""
        self.card = 1.0 if game.profile.card_due else 0.0
        """The controls card's opacity (a new player's first game): 1 until the first
        input, then it fades out over ``CARD_FADE_S``; 0 once gone."""
        self.card_fading = False
        self.teach = game.profile.card_due
        """A new player's first game: the card, and the word under the first ship's blink
        (``GRACE_WORD``)."""
        self.first_grace_ticks = int(self.world.ship_grace)
        """The first ship's grace, ticks (the word shows while it lasts)."""
        game.profile.card_due = False

    # --- keys -----------------------------------------------------------------------------

    def key_rules(self) -> list[KeyRule]:
        """The restart key while changes wait, the pause keys (or the pad's Start), then the
        game's own keys into the input latch."""
        bindings = lambda: self.game.rules.bindings  # noqa: E731
        return [
            KeyRule(lambda: bindings().restart, run(self.restart_now),
                    when=lambda: bool(self.pending), name="restart"),
            KeyRule(lambda: bindings().pause | {PAD_START}, run(lambda: self.set_paused(True)),
                    name="pause"),
            KeyRule(lambda: bindings().bits, self.input.key_press, name="play"),
        ]

    def pressed(self, symbol: int) -> None:
        """Any key: the controls card (if up) starts to fade."""
        if self.card > 0.0:
            self.card_fading = True

    def key_released(self, symbol: int) -> None:
        """Release game keys."""
        self.input.key_release(symbol)

    # --- pause ----------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        """Whether the pause screen (or the options over it) is up."""
        return any(isinstance(o, (PauseOverlay, OptionsMenu)) for o in self.overlays)

    def set_paused(self, paused: bool) -> None:
        """Pause or resume; the clock does not run while paused."""
        if paused == self.paused or self.finished is not None:
            return
        self.input.clear()
        self.stepper.reset()
        if paused:
            self.game.audio.stop_all()
            self.open_overlay(PauseOverlay(self))
        else:
            for overlay in self.overlays:
                self.close_overlay(overlay)
        self.update_hud()

    def open_options(self) -> None:
        """The options over the pause screen (Escape comes back to it)."""
        self.open_overlay(OptionsMenu(self, close=self.update_hud, changed=self.take_options))

    def quit_to_title(self) -> None:
        """Leave the game for the title (its replay is saved unfinished)."""
        self.game.nav.title()

    def take_options(self) -> None:
        """New options: the game's keys and pad buttons too (it is paused: none is held)."""
        super().take_options()
        self.input.bindings = self.game.rules.bindings
        self.input.clear()

    # --- the game -------------------------------------------------------------------------

    @property
    def ended(self) -> bool:
        """The game is over (every player's last ship is gone)."""
        return bool(self.play.over(self.state))

    def tick_mask(self) -> int:
        """The latched player input for one tick (or the source's, or the bot's)."""
        mask = self.input.take()
        if mask and self.card > 0.0:
            self.card_fading = True  # the first input: the controls card fades
        if self.source is not None:
            return self.source(self.world)
        if self.autopilot:
            return bot_input(self.world, self.game.rules.width, self.game.rules.height)
        return mask

    def on_tick(self, mask: int) -> None:
        """Record the tick; the tick that ends the game hands over to the game-over screen."""
        self.record(mask)
        if self.ended and self.finished is None:
            self.game_over()

    def record(self, mask: int) -> None:
        """Hand the tick to the recorder."""
        if self.recorder is not None and self.saved is None:
            self.recorder.add(mask, self.state, self.config)
            self.recorded_ticks += 1

    def advance(self, delta_time: float) -> int:
        """Run the ticks this frame owes, none past the end of the game (the game-over
        screen runs the world on); returns how many ran."""
        n = self.owed_ticks(delta_time)
        self.events = []
        self.passed = []
        ran = 0
        while ran < n and self.finished is None:
            self.run_tick(self.tick_mask())
            self.note_passed()
            ran += 1
        return ran

    def enter_scores(self, name: str | None) -> list[tuple[int, ScoreSlot]]:
        """Each player's score in the high-score table on its own, as (player, place) (a
        better one entered after an earlier one pushes that one down); none when the rules
        changed."""
        if self.rules_changed:
            return []
        slots: list[tuple[int, ScoreSlot]] = []
        for player, world in enumerate(self.play.worlds(self.state)):
            slot = self.game.enter_score(world, self.config, name)
            if slot is None:
                continue
            for _, earlier in slots:
                if earlier.key == slot.key and slot.rank <= earlier.rank:
                    earlier.rank += 1
            slots.append((player, slot))
        return [(p, s) for p, s in slots if s.rank < MAX_ENTRIES]

    def finish(self) -> FinishedGame:
        """What the screens after the game need of it: every player's World, the one on
        screen, the places taken."""
        saved = self.save_replay()
        name = saved.table_name() if saved is not None else None
        slots = self.enter_scores(name)
        if saved is not None and saved.ok:
            self.game.prune_replays()
        return FinishedGame(tuple(self.play.worlds(self.state)), self.config, self.seed,
                            active=self.play.active(self.state), slots=slots, saved=saved,
                            rules_changed=self.rules_changed, pending=self.pending)

    def game_over(self) -> None:
        """Save the replay first, so the score's entry can name it, enter the score, and go
        to the game-over screen."""
        self.finished = self.finish()
        self.game.audio.stop_all()
        self.game.nav.game_over(self.finished)

    def save_replay(self) -> SaveResult | None:
        """Save the game recorded so far (once; later calls return the first outcome).

        Returns None when nothing is recorded (recording off, or not one tick played).
        """
        if self.saved is not None:
            return self.saved
        if self.recorder is None or self.game.saver is None or self.recorded_ticks == 0:
            return None
        self.saved = self.game.saver.save(self.recorder.finish(self.state),
                                          finished=self.ended)
        return self.saved

    # --- live settings --------------------------------------------------------------------

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome:
        """A live reload: live settings apply from the next tick (and go into the replay);
        the others wait for the next game, which the restart key starts at once.

        A game on other rules than the player's (a preset picked on the title) takes only
        the player's keys, sound and display.
        """
        game = self.game
        target = player if self.follows_player else with_player_sections(self.config, player)
        plan = self.plan_reload(target)
        if plan.config is not self.config:
            if any(c.rule for c in plan.live):
                self.rules_changed = True
                self.scene = SceneBuilder(plan.config)
            self.config = plan.config
            self.carry = self.carry.then(rules_getter(self.config))
            self.hud.show_fps = self.config.display.show_fps
            if any(c.key.startswith("keys.") for c in plan.live):
                self.input.bindings = game.rules.bindings
                self.input.clear()
        self.pending = plan.deferred
        live = {c.key for c in plan.live}
        outcome = Outcome({c.key for c in changes if c.key not in live})
        if not self.follows_player and any(c.rule for c in changes):
            outcome.notes.append(f"this game runs the {game.rules.ruleset.label} rules; "
                                 "yours apply when you pick them")
        if plan.reason:
            outcome.notes.append(plan.reason)
        if self.pending:
            keys = sorted(game.rules.bindings.restart_names)
            earlier = len({c.key for c in self.pending} - {c.key for c in changes})
            more = f" with {earlier} earlier change{'s' if earlier > 1 else ''}" if earlier else ""
            outcome.notes.append(f"applies to the next game{more} "
                                 f"({' / '.join(keys) or 'restart'} restarts now)")
        self.update_hud()
        return outcome

    def restart_now(self) -> None:
        """Start the next game at once, so the changes waiting for it apply (the current
        game's replay is saved as an unfinished game)."""
        self.game.nav.play(self.play.players)

    def plan_reload(self, target: Config) -> ReloadPlan:
        """What this game takes of the reloaded settings ``target`` now, and what waits
        (the rule changes too, when this game keeps its rules: ``keeps_rules``)."""
        plan = plan_reload(self.config, target, carry=self.carry)
        rules = tuple(c for c in plan.live if c.rule)
        reason = self.keeps_rules(len(rules)) if rules else None
        if reason is None:
            return plan
        keep = tuple(c for c in plan.live if not c.rule)
        config = apply_changes(self.config, keep) if keep else self.config
        return ReloadPlan(config, keep, plan.deferred + rules, reason)

    def keeps_rules(self, settings: int) -> str | None:
        """Why this game keeps its rules rather than take a change of ``settings`` rule
        settings now (None: it takes it): a two-player replay records no change of rules,
        and a replay holds so many changes."""
        if self.play.players != 1:
            return "a two-player game keeps its rules to the end"
        if self.recorder is not None and not self.recorder.has_room(settings):
            return (f"this game's replay holds no more rule changes (at most {MAX_CHANGES} "
                    f"changes, {MAX_TOTAL_SETTINGS} settings)")
        return None

    # --- frames ---------------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        """Run the owed ticks unless paused (watched settings are read either way)."""
        if self.card > 0.0 and self.card_fading:
            self.card = max(0.0, self.card - delta_time / CARD_FADE_S)
        if self.paused:
            if self.poll_live(delta_time):
                return
            self.update_overlays(delta_time)
            self.menu.poll()  # the overlays read the pad while the game is paused
            self.update_hud()
            return
        self.input.poll_pad()
        super().on_update(delta_time)

    def update_hud(self) -> None:
        """Score, wave, the pause message and what waits for the next game."""
        self.hud.show_world(self.world)
        self.hud.best(self.best)
        if self.paused and not self.modal_is_options:
            self.hud.message("PAUSED", PAUSE_HINT)
        else:
            self.hud.message()
        if self.card > 0.0 and not self.paused:
            config = self.game.rules.config
            pad = self.game.rules.pad_buttons if self.game.gamepad is not None else None
            self.hud.controls("\n".join([CARD_TITLE, *key_lines(config),
                                         *pad_lines(config, pad)]))
            self.hud.fade["controls"] = self.card
            # The card keeps clear of the ship's spawn: above or below it, not over it.
            self.hud.clear = spawn_band(self.game.rules.height,
                                        self.game.rules.params.ship_length_px)
        else:
            self.hud.controls("")
            self.hud.fade.pop("controls", None)
            self.hud.clear = None
        self.hud.note("")
        waiting = len({c.key for c in self.pending})
        if waiting:
            keys = " / ".join(self.game.rules.bindings.restart_names)
            what = "1 SETTING WAITS" if waiting == 1 else f"{waiting} SETTINGS WAIT"
            self.hud.status(f"{what} FOR THE NEXT GAME: {keys} STARTS IT NOW")
        else:
            self.hud.status("")
        super().update_hud()
        self.show_players(moment=not self.paused)

    def screen_lines(self, frame: Frame, hud: HudLayout) -> list[TextLine]:
        """``GRACE_WORD`` under the ship while the first ship of a new player's first game
        blinks (its grace), so the blink is explained where it shows."""
        world = self.world
        if not self.teach or self.paused or world.ship_grace <= 0 or \
                world.tick >= self.first_grace_ticks:
            return []
        s = frame.size(0.022, scaled=False)  # not the HUD scale: it stays in spawn_band's room
        half = text_width(GRACE_WORD, s) / 2
        m = frame.margin
        x = min(max(float(world.ship_x), m + half), frame.width - m - half)
        y = float(world.ship_y) - 0.75 * self.game.rules.params.ship_length_px - s - s / CAP
        return [TextLine.placed(GRACE_WORD, x, max(y, m + s / CAP), s, "center")]

    @property
    def modal_is_options(self) -> bool:
        """Whether the options are up (over the pause screen)."""
        return isinstance(self.modal, OptionsMenu)

    def on_hide_view(self) -> None:
        """Leaving the game (another screen, or the window closing): save an unfinished
        game's replay, forget keys and stop sounds."""
        super().on_hide_view()
        self.save_replay()
        self.input.clear()
        self.game.audio.stop_all()

    def on_deactivate(self) -> None:
        """The window lost focus: forget the keys held, so none stays stuck down, and
        pause; with ``--live`` the game runs on (the player is editing its settings in
        another window, to watch them take effect)."""
        super().on_deactivate()
        self.input.clear()
        if self.game.live is None:
            self.set_paused(True)
