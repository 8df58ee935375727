"""The screens: a title / attract view and the play view, and the moves between them.

With the player's profile on (``Game.scores``), the title's attract cycle alternates the demo
with the high-score table of the selected rules, and a game that makes the table goes on to
the initials entry (``asteroids.app.initials``) before the title shows its place.

Both are ``WorldView``s (``asteroids.app.world_view``: one input mask per tick, the fixed
stepper); a recording PlayView hands each (mask, world after) pair to a ``Recorder``. A
two-player game is a ``MatchPlayView``: a PlayView over a two-player match
(``asteroids.app.match_view``). No game rule lives here.

Imports go one way: views receive the shared ``Game`` and switch screens with
``show_title`` / ``start_game`` below; the screens they open (``InitialsView``,
``ReplayView``) are handed what to do next as a callback, so they never import this module;
``game`` never imports a view.
"""

from __future__ import annotations

from pathlib import Path

import arcade

from asteroids.app.game import Game, ScoreSlot
from asteroids.app.hud import ScoreTable
from asteroids.app.initials import InitialsView
from asteroids.app.input import PlayerInput
from asteroids.app.live import Outcome
from asteroids.app.match_view import MatchPlay, replay_view
from asteroids.app.recording import SaveResult
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.app.world_view import OPEN_KEYS, TickSource, WorldView, common_key, fullscreen_key
from asteroids.config import Config
from asteroids.config.budget import Carry, rules_getter
from asteroids.config.live import Change, ReloadPlan, plan_reload
from asteroids.config.rulesets import with_player_sections
from asteroids.core import new_world
from asteroids.core.bot import bot_input
from asteroids.paths import replays_dir
from asteroids.profile import ScoreEntry, ruleset_label
from asteroids.replay import Recorder, Replay, ReplayError, load_replay

__all__ = ["ATTRACT_DEMO_S", "ATTRACT_TABLE_S", "ENTRY_DELAY_S", "OPTIONS_HINT", "MatchPlayView",
           "PlayView", "RULES_NEXT_KEYS", "RULES_PREV_KEYS", "TickSource", "TitleView",
           "WorldView", "common_key", "show_title", "start_game"]

START_KEYS = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER,
                        arcade.key.SPACE})
"""Keys that start a game from the title or game-over screen."""

PLAYER_KEYS = {arcade.key.KEY_1: 1, arcade.key.NUM_1: 1, arcade.key.KEY_2: 2,
               arcade.key.NUM_2: 2}
"""Keys that start a one- or two-player game from the title (Enter / Space: one player)."""

RULES_PREV_KEYS = frozenset({arcade.key.LEFT, arcade.key.NUM_LEFT})
RULES_NEXT_KEYS = frozenset({arcade.key.RIGHT, arcade.key.NUM_RIGHT})
"""Keys that pick the previous / next ruleset on the title screen (so do the keys bound to
turning left / right, unless they are a start or quit key there)."""

RESTART_DELAY_S = 1.0
"""After game over, start keys are ignored this long (so a held fire key does not restart)."""

DEMO_PAUSE_S = 3.0
"""The attract mode shows a finished demo game this long before the next one (without a
high-score table to show instead)."""

ATTRACT_DEMO_S = 15.0
"""With high scores kept, the attract cycle shows a demo this long (or to its end)..."""
ATTRACT_TABLE_S = 10.0
"""...then the selected rules' high-score table this long, then the next demo. Browsing the
table (up / down) holds it on screen."""

ENTRY_DELAY_S = 2.0
"""A game that made the table shows GAME OVER this long before the initials entry (a start
key goes there at once, after ``RESTART_DELAY_S``)."""

TABLE_UP_KEYS = frozenset({arcade.key.UP, arcade.key.NUM_UP, arcade.key.W})
TABLE_DOWN_KEYS = frozenset({arcade.key.DOWN, arcade.key.NUM_DOWN, arcade.key.S})
"""Keys that move the selection in the title screen's high-score table."""

OPTIONS_HINT = "O: OPTIONS     F11: FULL SCREEN"
"""The title's bottom line when no message waits."""

WATCH_KEYS = frozenset({arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER})
"""Keys that watch the selected table entry's replay (with no entry selected they play)."""


def show_title(game: Game, *, table: bool = False, pick: int | None = None) -> None:
    """Switch to the title / attract screen; ``table`` opens it on the high-score table
    with row ``pick`` selected (the place a game just took)."""
    game.audio.stop_all()
    game.sync_ruleset()
    game.window.show_view(TitleView(game, table=table, pick=pick))


def start_game(game: Game, players: int = 1) -> None:
    """Start a new game with the next seed (on the selected rules as they are now): one
    player, or a two-player match."""
    game.audio.stop_all()
    game.sync_ruleset()
    view = PlayView if players == 1 else MatchPlayView
    game.window.show_view(view(game, game.next_seed()))


def _table_rows(entries: list[ScoreEntry]) -> list[tuple[str, str, str, str, str]]:
    """Column texts of a high-score table: rank, initials, score, wave, date."""
    return [(f"{i + 1}.", e.initials, f"{e.score}", f"WAVE {e.wave}", e.date[:10])
            for i, e in enumerate(entries)]


class TitleView(WorldView):
    """The attract screen: bundled demo replays play silently behind the title, in turn.

    With no usable demo (none bundled, none loads, none fits the world) the core's bot plays
    live instead. It shows the selected ruleset; Left / Right (or the pad's d-pad or stick)
    pick another, which restarts the title in that ruleset's world.

    With high scores kept (``game.scores``) the cycle alternates a demo (``ATTRACT_DEMO_S``)
    with the selected rules' table (``ATTRACT_TABLE_S``); Up / Down (or the pad) select an
    entry, and Enter (or A) on an entry with a replay watches it, then comes back here. The
    best score of the selected rules is at the top centre, and messages waiting in
    ``game.notices`` (a corrupt file moved aside, a failed save) are shown once, bottom left.

    Args:
        game: the shared services.
        seed: the first live bot game's seed (without demos).
        table: start on the high-score table (after an initials entry).
        pick: the selected row of the table (None: none).
    """

    sound = False

    def __init__(self, game: Game, seed: int = 1979, *, table: bool = False,
                 pick: int | None = None) -> None:
        super().__init__(game, seed)
        self.choose = len(game.rulesets) > 1
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
        self.score_key = game.score_key() if game.scores is not None else None
        """The selected rules' high-score table (None: no tables kept)."""
        self.entries: list[ScoreEntry] = (game.scores.table(self.score_key)
                                          if game.scores is not None and self.score_key
                                          else [])
        """The entries of that table, best first."""
        self.table: ScoreTable | None = (ScoreTable(game.width, game.height)
                                         if self.score_key is not None else None)
        """The table's labels (None: no tables kept)."""
        self.showing_table = False
        """True while the table is on screen instead of the demo."""
        self.phase_s = 0.0
        """Seconds the demo or the table has been on screen."""
        self.pick: int | None = None
        """The selected table row (None: none)."""
        self.notice = "   ".join(game.notices)
        """The messages shown once on this title (taken from ``game.notices``)."""
        game.notices.clear()
        self.hud.status(self.notice or OPTIONS_HINT)
        if self.demos:
            self.next_game()
        if table and self.table is not None:
            self.show_table(pick)
        else:
            self._show_texts()
        self.update_hud()

    def _show_texts(self) -> None:
        """The title, hint and rules line of the current phase."""
        choose = self.choose
        if self.showing_table:
            self.hud.message()
            self.hud.note("")
            return
        scores = "     UP / DOWN: SCORES" if self.table is not None else ""
        self.hud.message("ASTEROIDS", ("PLAYERS: PRESS 1 OR 2     LEFT / RIGHT: RULES" if choose
                                       else "PLAYERS: PRESS 1 OR 2     ENTER / SPACE: 1 PLAYER")
                         + scores)
        self.hud.note(f"RULES: {self.game.ruleset.label.upper()}" + ("  < >" if choose else ""))

    def show_table(self, pick: int | None = None) -> None:
        """Put the high-score table on screen (with row ``pick`` selected)."""
        if self.table is None:
            return
        self.showing_table = True
        self.phase_s = 0.0
        self.pick = pick if pick is not None and 0 <= pick < len(self.entries) else None
        self._show_texts()
        self._fill_table()

    def show_demo(self) -> None:
        """Back from the table to the attract game (the next demo)."""
        self.showing_table = False
        self.pick = None
        self.phase_s = 0.0
        self.next_game()
        self._show_texts()

    def _fill_table(self) -> None:
        if self.table is None or self.score_key is None:
            return
        rows = _table_rows(self.entries) or [("", "", "NO SCORES YET", "", "")]
        if self.pick is None:
            footer = ("UP / DOWN: PICK A GAME     ENTER / SPACE: PLAY" if self.entries
                      else "ENTER / SPACE TO PLAY")
        elif self.entries[self.pick].replay:
            footer = "ENTER: WATCH THIS GAME     SPACE: PLAY     ESC: BACK"
        else:
            footer = "NO REPLAY OF THIS GAME     SPACE: PLAY     ESC: BACK"
        rules = ruleset_label(self.score_key)
        arrows = "  < >" if self.choose else ""
        self.table.show(f"HIGH SCORES  {rules}{arrows}", rows, self.pick, footer)

    def move_pick(self, step: int) -> None:
        """Select the entry ``step`` rows down (up when negative), showing the table."""
        if self.table is None:
            return
        if not self.showing_table:
            self.show_table()
        if self.entries:
            if self.pick is None:
                self.pick = 0 if step > 0 else len(self.entries) - 1
            else:
                self.pick = (self.pick + step) % len(self.entries)
        self.phase_s = 0.0
        self._fill_table()

    def watch_pick(self) -> bool:
        """Watch the selected entry's replay (then come back to this table); False when no
        entry is selected. A replay that will not load says so bottom left."""
        if not self.showing_table or self.pick is None or self.score_key is None:
            return False
        entry = self.entries[self.pick]
        if not entry.replay:
            return True  # the footer says there is none; Space still plays
        path = replays_dir() / Path(entry.replay).name
        try:
            replay = load_replay(path)
        except (ReplayError, OSError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.hud.status(f"REPLAY NOT LOADED: {reason}"[:120].upper())
            return True
        game, key, pick = self.game, self.score_key, self.pick

        def back() -> None:
            # The same rules are selected still; come back to the same row.
            if game.score_key() == key:
                show_title(game, table=True, pick=pick)
            else:
                show_title(game)

        self.game.audio.stop_all()
        self.game.window.show_view(replay_view(self.game, replay, back=back))
        return True

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
        """Stop at the last recorded tick of a demo; nothing runs behind the table."""
        n = super().owed_ticks(delta_time)
        if self.showing_table:
            return 0
        if self.demo is not None:
            n = min(n, self.demo.ticks - len(self.masks))
        return n

    def tick_mask(self) -> int:
        """The demo's recorded input, or the live bot's buttons."""
        if self.demo is not None:
            return self.demo.masks[len(self.masks)]
        return bot_input(self.world, self.game.width, self.game.height)

    def pick_ruleset(self, step: int) -> None:
        """Select the ruleset ``step`` places on (wrapping) and show the title in it (on
        the table, if the table was showing)."""
        if len(self.game.rulesets) < 2:
            return
        self.game.select_ruleset(self.game.ruleset_index + step)
        show_title(self.game, table=self.showing_table)

    def start(self, players: int = 1) -> None:
        """Enter / A: watch the selected entry, else play (Y: a two-player game)."""
        if players != 1 or not self.watch_pick():
            start_game(self.game, players)

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome:
        """A live reload: the title starts again on the selected rules as they are now."""
        super().apply_settings(player, changes)
        show_title(self.game, table=self.showing_table)
        return Outcome()

    def on_update(self, delta_time: float) -> None:
        """Read the pad's menu moves; run the demo; alternate it with the table."""
        for move in self.menu_moves():
            if move == "options":
                self.open_options()
                break
            if move in ("fire", "start", "alt"):
                self.start(2 if move == "alt" else 1)
                return
            if move == "back" and self.pick is not None:
                self.show_table(None)
                continue
            if move in ("up", "down"):
                self.move_pick(-1 if move == "up" else 1)
                continue
            if move in ("left", "right"):
                self.pick_ruleset(-1 if move == "left" else 1)
                return
        super().on_update(delta_time)
        if self.replaced:
            return
        self.phase_s += delta_time
        if self.showing_table:
            if self.phase_s > ATTRACT_TABLE_S and self.pick is None:
                self.show_demo()
            return
        if self.world.game_over or self.demo_done:
            self.over_s += delta_time
        if self.table is not None:
            if self.phase_s > ATTRACT_DEMO_S or self.over_s > 0.5:
                self.show_table()
        elif self.over_s > DEMO_PAUSE_S:
            self.next_game()

    def update_hud(self) -> None:
        """Score of the demo game and the best score of the rules, plus the FPS counter."""
        if self.showing_table:
            self.hud.set("score", "")
            self.hud.set("wave", "")
        else:
            self.hud.show_world(self.world)
        self.hud.best(self.game.best_score())
        super().update_hud()

    def build_segments(self) -> Segments:
        """The attract game, or nothing behind the table."""
        if self.showing_table:
            return Segments()
        return super().build_segments()

    def on_draw(self) -> None:
        """The attract game and the HUD, or the table."""
        super().on_draw()
        if self.showing_table and self.table is not None and self.options is None:
            self.table.draw()

    def close_options(self) -> None:
        """Back from the options: the title starts again with them (keys included)."""
        super().close_options()
        show_title(self.game, table=self.showing_table)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Enter or Space plays (Enter on a table entry watches it); Escape leaves the
        table's selection, else quits; Left / Right pick the rules; Up / Down the entry."""
        if fullscreen_key(self.game, symbol, modifiers):
            return
        if self.options is not None:
            self.options.on_key_press(symbol, modifiers)
            return
        if symbol in OPEN_KEYS:
            self.open_options()
            return
        if symbol in WATCH_KEYS and self.watch_pick():
            return
        if symbol in START_KEYS:
            start_game(self.game)
        elif symbol in PLAYER_KEYS:
            start_game(self.game, PLAYER_KEYS[symbol])
        elif symbol == arcade.key.ESCAPE:
            if self.pick is not None:
                self.show_table(None)
            else:
                self.game.quit()
        elif symbol in self.prev_keys:
            self.pick_ruleset(-1)
        elif symbol in self.next_keys:
            self.pick_ruleset(1)
        elif self.table is not None and symbol in TABLE_UP_KEYS:
            self.move_pick(-1)
        elif self.table is not None and symbol in TABLE_DOWN_KEYS:
            self.move_pick(1)
        else:
            common_key(self.game, symbol)


class PlayView(WorldView):
    """A game in progress: keyboard (and gamepad) to the core, pause, game over, restart.

    When the game records (``game.saver`` is set), every tick's mask and the world after it
    go to a ``Recorder``; the replay is saved on game over, or unfinished when the player
    leaves the game (quit to title, window closed).

    With high scores kept (``game.scores``), the best score of the rules is at the top centre,
    and a finished game that makes the table is entered at once (initials "???", with its
    saved replay's name), then after ``ENTRY_DELAY_S`` (or a start key) the initials entry
    asks for the initials. Escape at game over goes to the title and keeps "???". A game
    left unfinished is not entered.

    Args:
        game: the shared services.
        seed: this game's seed.
        autopilot: let the core's bot play (screenshots, demos); keys then only pause/quit.
        source: where each tick's mask comes from instead of the keyboard (tests, bots);
            keys then only pause/quit.
    """

    SHOWS_LIVES = True
    PLAYERS = 1
    """Players in this view's games (``start_game`` plays again with as many)."""

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
        self.best = game.best_score(self.config)
        """The best score of these rules when the game began (None: no tables kept)."""
        self.finished = False
        """True once game over has been handled (replay saved, score entered)."""
        self.slot: ScoreSlot | None = None
        """This game's place in the high-score table (None: it did not make it)."""
        self.follows_player = game.live is not None and game.plays_player_rules
        self.carry = Carry.of(rules_getter(self.config))
        """What the rules in force so far this game allow (rocks made under them may still
        fly): a live change is judged against the work budget with it."""
        """Whether ``--live`` changes to the player's rules apply to this game."""
        self.rules_changed = False
        """True once a live reload changed this game's rules: it is recorded with the
        changes, and enters no high-score table (it was not played under one ruleset)."""
        self.pending: tuple[Change, ...] = ()
        """Changes that wait for the next game (the restart key starts it now)."""

    @property
    def ended(self) -> bool:
        """The game is over (the last ship is gone)."""
        return bool(self.world.game_over)

    def to_title(self, *, table: bool = False, pick: int | None = None) -> None:
        """Back to the title (on its high-score table, row ``pick`` selected)."""
        show_title(self.game, table=table, pick=pick)

    def tick_mask(self) -> int:
        """The latched player input for one tick (or the source's, or the bot's)."""
        mask = self.input.take()
        if self.source is not None:
            return self.source(self.world)
        if self.autopilot:
            return bot_input(self.world, self.game.width, self.game.height)
        return mask

    def on_tick(self, mask: int) -> None:
        """Record the tick; on game over, save the replay and enter the score."""
        if self.recorder is not None and self.saved is None:
            self.recorder.add(mask, self.world, self.config)
            self.recorded_ticks += 1
        if self.ended and not self.finished:
            self.game_over()

    def game_over(self) -> None:
        """Save the replay first, so the score's entry can name it, then enter the score."""
        self.finished = True
        saved = self.save_replay()
        name = saved.table_name() if saved is not None else None
        if not self.rules_changed:
            self.slot = self.game.enter_score(self.world, self.config, name)
        if saved is not None and saved.ok:
            self.game.prune_replays()
        self.update_hud()

    def enter_initials(self) -> None:
        """Go to the initials entry of this game's table place (then to the table)."""
        slot, game = self.slot, self.game
        if slot is None:
            return
        game.audio.stop_all()
        game.window.show_view(InitialsView(
            game, slot, self.world, self.config, self.seed,
            done=lambda: self.to_title(table=True, pick=slot.rank)))

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
                self.input.bindings = game.bindings
                self.input.clear()
        self.pending = plan.deferred
        live = {c.key for c in plan.live}
        outcome = Outcome({c.key for c in changes if c.key not in live})
        if not self.follows_player and any(c.rule for c in changes):
            outcome.notes.append(f"this game runs the {self.game.ruleset.label} rules; "
                                 "yours apply when you pick them")
        if plan.reason:
            outcome.notes.append(plan.reason)
        if self.pending:
            keys = sorted(game.bindings.restart_names)
            earlier = len({c.key for c in self.pending} - {c.key for c in changes})
            more = f" with {earlier} earlier change{'s' if earlier > 1 else ''}" if earlier else ""
            outcome.notes.append(f"applies to the next game{more} "
                                 f"({' / '.join(keys) or 'restart'} restarts now)")
        self.update_hud()
        return outcome

    def restart_now(self) -> None:
        """Start the next game at once, so the changes waiting for it apply (the current
        game's replay is saved as an unfinished game)."""
        start_game(self.game, self.PLAYERS)

    def plan_reload(self, target: Config) -> ReloadPlan:
        """What this game takes of the reloaded settings ``target`` now, and what waits."""
        return plan_reload(self.config, target, carry=self.carry)

    def on_update(self, delta_time: float) -> None:
        """Run the owed ticks unless paused (watched settings are read either way)."""
        for move in self.menu_moves():  # the pad's Start pauses; Back / Select: options
            if move == "start":
                self.set_paused(not self.paused)
            elif move == "options" and self.paused:
                self.open_options()
        if self.paused:
            self.poll_live(delta_time)
            self.update_hud()
            return
        self.input.poll_pad()
        super().on_update(delta_time)
        if self.ended:
            self.over_s += delta_time
            if self.slot is not None and self.over_s >= ENTRY_DELAY_S:
                self.enter_initials()

    def update_hud(self) -> None:
        """Score, wave, the message of the moment and what became of the replay."""
        self.hud.show_world(self.world)
        self.hud.best(self.best)
        if self.paused:
            self.hud.message("PAUSED", "P / ESC TO RESUME     O: OPTIONS     Q TO QUIT TO TITLE")
        elif self.ended and self.slot is not None:
            self.hud.message("GAME OVER", f"A HIGH SCORE: NUMBER {self.slot.rank + 1}!")
        elif self.ended:
            self.hud.message("GAME OVER", "PRESS ENTER / SPACE TO PLAY AGAIN     ESC FOR TITLE")
        else:
            self.hud.message()
        notes = [self.saved.hud_text()] if self.saved is not None else []
        if self.slot is not None and self.slot.error:
            notes.append(self.slot.error.upper())
        if self.rules_changed and self.ended:
            notes.append("RULES CHANGED DURING THE GAME: NOT IN THE HIGH SCORES")
        self.hud.note("     ".join(notes))
        waiting = len({c.key for c in self.pending})
        if waiting:
            keys = " / ".join(self.game.bindings.restart_names)
            what = "1 SETTING WAITS" if waiting == 1 else f"{waiting} SETTINGS WAIT"
            self.hud.status(f"{what} FOR THE NEXT GAME: {keys} STARTS IT NOW")
        else:
            self.hud.status("")
        super().update_hud()

    def set_paused(self, paused: bool) -> None:
        """Pause or resume; the clock does not run while paused."""
        if paused == self.paused or self.ended:
            return
        self.paused = paused
        self.input.clear()
        self.stepper.reset()
        if paused:
            self.game.audio.stop_all()
        self.update_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        """Game keys to the latch; pause, restart and quit keys to the view."""
        if fullscreen_key(self.game, symbol, modifiers):
            return
        if self.options is not None:
            self.options.on_key_press(symbol, modifiers)
            return
        if self.pending and symbol in self.game.bindings.restart:
            self.restart_now()
            return
        if self.ended:
            if symbol in START_KEYS and self.over_s >= RESTART_DELAY_S:
                if self.slot is not None:
                    self.enter_initials()
                else:
                    start_game(self.game, self.PLAYERS)
            elif symbol == arcade.key.ESCAPE:
                self.to_title(table=self.slot is not None,
                              pick=self.slot.rank if self.slot is not None else None)
            else:
                common_key(self.game, symbol)
            return
        if symbol in self.game.bindings.pause:
            self.set_paused(not self.paused)
            return
        if self.paused:
            if symbol == arcade.key.Q:
                self.to_title()
            elif symbol in OPEN_KEYS:
                self.open_options()
            return
        if not self.input.key_press(symbol):
            common_key(self.game, symbol)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        """Release game keys."""
        self.input.key_release(symbol)

    def take_options(self) -> None:
        """New options: the game's keys and pad buttons too (it is paused: none is held)."""
        super().take_options()
        self.input.bindings = self.game.bindings
        self.input.clear()

    def on_hide_view(self) -> None:
        """Leaving the game (another screen, or the window closing): save an unfinished
        game's replay, forget keys and stop sounds."""
        self.save_replay()
        self.input.clear()
        self.game.audio.stop_all()

    def on_deactivate(self) -> None:
        """The window lost focus: forget the keys held, so none stays stuck down, and
        pause; with ``--live`` the game runs on (the player is editing its settings in
        another window, to watch them take effect)."""
        self.input.clear()
        if self.game.live is None:
            self.set_paused(True)


class MatchPlayView(MatchPlay, PlayView):
    """A two-player game: the players take turns, as on the 1979 cabinet (``MatchPlay`` and
    ``asteroids.core.match``); everything else as in ``PlayView``. The keyboard (and pad)
    drive whichever player's turn it is."""
