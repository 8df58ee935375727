"""The title / attract screen: bundled demo replays play silently behind the title, in turn,
and with the player's profile on, the high-score table of the selected rules.

With high scores kept (``game.profile.scores``), the attract cycle alternates the demo with
the table; a game that makes the table comes back here on it after the initials entry. It is
a ``WorldView`` (one input mask per tick, the fixed stepper). No game rule lives here.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import arcade

from asteroids.app.controls import key_lines, pad_lines
from asteroids.app.game import Game
from asteroids.app.hud import ScoreTable, spawn_band
from asteroids.app.keymap import (
    CONFIRM_KEYS,
    LEFT_KEYS,
    PAD_A,
    PAD_B,
    PAD_BACK,
    PAD_DOWN,
    PAD_LEFT,
    PAD_RIGHT,
    PAD_START,
    PAD_UP,
    PAD_Y,
    RIGHT_KEYS,
    START_KEYS,
    KeyRule,
    run,
)
from asteroids.app.layout import HudLayout
from asteroids.app.live import Outcome
from asteroids.app.options_overlay import OPEN_KEYS, OptionsMenu
from asteroids.app.palettes import KINDS, Palette
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.app.text import Frame, TextLine
from asteroids.app.world_view import WorldView
from asteroids.config import Config
from asteroids.config.live import Change
from asteroids.core import new_world
from asteroids.core.bot import bot_input
from asteroids.datafolder import refuse_links
from asteroids.paths import data_dir, replays_dir
from asteroids.profile import ScoreEntry, ruleset_label
from asteroids.replay import Replay, ReplayError, load_replay

__all__ = ["ATTRACT_DEMO_S", "ATTRACT_DIM", "ATTRACT_TABLE_S", "DEMO_PAUSE_S", "OPTIONS_HINT",
           "PLAYER_KEYS", "QUIT_CONFIRM_S", "QUIT_HINT", "RULES_NEXT_KEYS", "RULES_PREV_KEYS",
           "TitleView", "dimmed"]

PLAYER_KEYS = {arcade.key.KEY_1: 1, arcade.key.NUM_1: 1, arcade.key.KEY_2: 2,
               arcade.key.NUM_2: 2}
"""Keys that start a one- or two-player game from the title (Enter / Space: one player)."""

RULES_PREV_KEYS = LEFT_KEYS
RULES_NEXT_KEYS = RIGHT_KEYS
"""Keys that pick the previous / next ruleset on the title screen (so do the keys bound to
turning left / right, unless they are a start or quit key there)."""

DEMO_PAUSE_S = 3.0
"""The attract mode shows a finished demo game this long before the next one (without a
high-score table to show instead)."""

ATTRACT_DEMO_S = 15.0
"""With high scores kept, the attract cycle shows a demo this long (or to its end)..."""
ATTRACT_TABLE_S = 10.0
"""...then the selected rules' high-score table this long, then the next demo. Browsing the
table (up / down) holds it on screen."""

TABLE_UP_KEYS = frozenset({arcade.key.UP, arcade.key.NUM_UP, arcade.key.W})
TABLE_DOWN_KEYS = frozenset({arcade.key.DOWN, arcade.key.NUM_DOWN, arcade.key.S})
"""Keys that move the selection in the title screen's high-score table."""

OPTIONS_HINT = "O: OPTIONS     F11: FULL SCREEN"
"""The title's bottom line when no message waits (in full screen, without the F11 part)."""

WATCH_KEYS = CONFIRM_KEYS
"""Keys that watch the selected table entry's replay (with no entry selected they play)."""

QUIT_HINT = "ESC AGAIN TO QUIT     ANY OTHER KEY: STAY"
"""The hint line after one Escape: the title asks before it closes the window, as the pause
screen asks (Q) before it leaves a game."""

QUIT_CONFIRM_S = 3.0
"""A second Escape within this long quits; after it the title stops asking."""

ATTRACT_DIM = 0.45
"""The attract game's lines are drawn at this brightness behind the title's text, so a rock
or the ship passing under a word never drowns it."""


def dimmed(palette: Palette, k: float) -> Palette:
    """``palette`` with every line colour's red, green and blue times ``k`` (its text and
    styles as they were)."""
    return dataclasses.replace(palette, **{
        kind: (*(c * k for c in palette.color(kind)[:3]), palette.color(kind)[3])
        for kind in KINDS})


def _table_rows(entries: list[ScoreEntry]) -> list[tuple[str, str, str, str, str]]:
    """Column texts of a high-score table: rank, initials, score, wave, date."""
    return [(f"{i + 1}.", e.initials, f"{e.score}", f"WAVE {e.wave}", e.date[:10])
            for i, e in enumerate(entries)]


class TitleView(WorldView):
    """The attract screen: bundled demo replays play silently behind the title, in turn.

    With no usable demo (none bundled, none loads, none fits the world) the core's bot plays
    live instead. It shows the selected ruleset; Left / Right (or the pad's d-pad or stick)
    pick another, which restarts the title in that ruleset's world.

    With high scores kept (``game.profile``) the cycle alternates a demo (``ATTRACT_DEMO_S``)
    with the selected rules' table (``ATTRACT_TABLE_S``); Up / Down (or the pad) select an
    entry, and Enter (or A) on an entry with a replay watches it, then comes back here. The
    best score of the selected rules is at the top centre, and messages waiting in
    the profile's notices (a corrupt file moved aside, a failed save) are shown once, bottom
    left.

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
        rules, profile = game.rules, game.profile
        self.choose = len(rules.rulesets) > 1
        bindings = rules.bindings
        menu_keys = START_KEYS | {arcade.key.ESCAPE}
        self.prev_keys = (RULES_PREV_KEYS | bindings.keys_for("left")) - menu_keys
        """Keys that pick the previous ruleset."""
        self.next_keys = (RULES_NEXT_KEYS | bindings.keys_for("right")) - menu_keys
        """Keys that pick the next ruleset."""
        self.over_s = 0.0
        self.demos: list[Replay] = rules.demos()
        """The demos it cycles through (empty: the live bot plays)."""
        self.demo: Replay | None = None
        """The demo playing now (None: the live bot)."""
        self._demo_index = -1
        self.score_key = game.score_key() if profile.scores is not None else None
        """The selected rules' high-score table (None: no tables kept)."""
        self.entries: list[ScoreEntry] = (profile.scores.table(self.score_key)
                                          if profile.scores is not None and self.score_key
                                          else [])
        """The entries of that table, best first."""
        self.table: ScoreTable | None = (ScoreTable(rules.width, rules.height)
                                         if self.score_key is not None else None)
        """The table's labels (None: no tables kept)."""
        self.showing_table = False
        """True while the table is on screen instead of the demo."""
        self.phase_s = 0.0
        """Seconds the demo or the table has been on screen."""
        self.pick: int | None = None
        """The selected table row (None: none)."""
        self.notice = "   ".join(profile.take_notices())
        """The messages shown once on this title (taken from the profile's notices), beside
        the options hint."""
        self.own_status = True
        """The status line shows the options hint and the notice (False: a message of its
        own, a replay that would not load)."""
        self.quit_asked_s: float | None = None
        """Seconds since the first Escape asked to quit (None: not asking)."""
        self.hud.clear = spawn_band(rules.height, rules.params.ship_length_px)
        self.hud.status(self.status_line())
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
            self.hud.controls("")
            return
        game = self.game
        config = game.rules.config
        pad = game.rules.pad_buttons if game.gamepad is not None else None
        self.hud.controls("\n".join([*key_lines(config), *pad_lines(config, pad)]))
        scores = "     UP / DOWN: SCORES" if self.table is not None else ""
        hint = (("PLAYERS: PRESS 1 OR 2     LEFT / RIGHT: RULES" if choose
                 else "PLAYERS: PRESS 1 OR 2     ENTER / SPACE: 1 PLAYER") + scores)
        self.hud.message("ASTEROIDS", QUIT_HINT if self.quit_asked_s is not None else hint)
        self.hud.note(f"RULES: {self.game.rules.ruleset.label.upper()}"
                      + ("  < >" if choose else ""))

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
            refuse_links(path, data_dir())  # the data folder follows no link
            replay = load_replay(path)
        except (ReplayError, OSError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.own_status = False
            self.hud.status(f"REPLAY NOT LOADED: {reason}"[:120].upper())
            return True
        game, key, pick = self.game, self.score_key, self.pick

        def back() -> None:
            # The same rules are selected still; come back to the same row.
            if game.score_key() == key:
                game.nav.title(table=True, pick=pick)
            else:
                game.nav.title()

        self.game.nav.watch(replay, back=back)
        return True

    def next_game(self) -> None:
        """Start the next demo (or, without demos, a new bot game with the next seed)."""
        if self.demos:
            self._demo_index = (self._demo_index + 1) % len(self.demos)
            self.demo = self.demos[self._demo_index]
            self.config, self.seed = self.demo.config, self.demo.seed
            rules = self.game.rules
            self.scene = (rules.scene if self.config == rules.config
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
        return bot_input(self.world, self.game.rules.width, self.game.rules.height)

    def pick_ruleset(self, step: int) -> None:
        """Select the ruleset ``step`` places on (wrapping) and show the title in it (on
        the table, if the table was showing)."""
        if len(self.game.rules.rulesets) < 2:
            return
        self.game.select_ruleset(self.game.rules.index + step)
        self.game.nav.title(table=self.showing_table)

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome:
        """A live reload: the title starts again on the selected rules as they are now."""
        super().apply_settings(player, changes)
        self.game.nav.title(table=self.showing_table)
        return Outcome()

    def on_update(self, delta_time: float) -> None:
        """Run the demo; alternate it with the table (the pad's moves go through the key
        table)."""
        super().on_update(delta_time)
        if self.replaced:
            return
        self.phase_s += delta_time
        if self.quit_asked_s is not None:
            self.quit_asked_s += delta_time
            if self.quit_asked_s > QUIT_CONFIRM_S:
                self.stop_asking()
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

    def options_hint(self) -> str:
        """The bottom line when no message waits: the options key, and the full-screen key
        while in a window."""
        if self.game.screen.fullscreen:
            return OPTIONS_HINT.split("     ")[0]
        return OPTIONS_HINT

    def status_line(self) -> str:
        """The bottom line: the options hint, then the notices (no audio device, a file
        moved aside) beside it."""
        return "     ".join(part for part in (self.options_hint(), self.notice) if part)

    def update_hud(self) -> None:
        """Score of the demo game and the best score of the rules, plus the FPS counter."""
        if self.own_status:
            self.hud.status(self.status_line())
        if self.showing_table:
            self.hud.set("score", "")
            self.hud.set("wave", "")
        else:
            self.hud.show_world(self.world)
        self.hud.best(self.game.best_score())
        super().update_hud()

    def world_palette(self) -> Palette:
        """The attract game's palette, dimmed (``ATTRACT_DIM``)."""
        return dimmed(self.game.screen.palette(self.game.config.display), ATTRACT_DIM)

    def past_segments(self) -> list[tuple[Segments, float]]:
        """The attract game's stepped-over ticks; none behind the table."""
        return [] if self.showing_table else super().past_segments()

    def build_segments(self) -> Segments:
        """The attract game dimmed behind the title's text (``ATTRACT_DIM``), or nothing
        behind the table."""
        if self.showing_table:
            return Segments()
        return super().build_segments()  # in ``world_palette``

    def screen_lines(self, frame: Frame, hud: HudLayout) -> list[TextLine]:
        """The high-score table between the HUD's bands, while it is on screen."""
        if not self.showing_table or self.table is None:
            return []
        gap = frame.min_size
        return self.table.layout(frame, hud.bottom + gap, hud.top - gap)

    def open_options(self) -> None:
        """The options over the title; back from them, the title starts again with them
        (keys included)."""
        self.open_overlay(OptionsMenu(
            self, close=lambda: self.game.nav.title(table=self.showing_table),
            changed=self.take_options))

    def unpick_or_quit(self) -> None:
        """Escape: leave the table's selection; else ask to quit (the hint says so), and
        quit on a second Escape while it asks."""
        if self.pick is not None:
            self.show_table(None)
        elif self.quit_asked_s is not None:
            self.game.quit()
        else:
            if self.showing_table:
                self.show_demo()  # the question is asked in the title's hint line
            self.quit_asked_s = 0.0
            self._show_texts()

    def stop_asking(self) -> None:
        """The title no longer asks to quit (time ran out, or another key was pressed)."""
        if self.quit_asked_s is not None:
            self.quit_asked_s = None
            self._show_texts()

    def pressed(self, symbol: int) -> None:
        """Any key but Escape: the title stops asking to quit (the key then acts)."""
        if symbol != arcade.key.ESCAPE:
            self.stop_asking()

    def unpick(self) -> None:
        """The pad's B: leave the table's selection."""
        if self.pick is not None:
            self.show_table(None)

    def key_rules(self) -> list[KeyRule]:
        """O options; Enter watches a picked entry; Enter / Space play (1 / 2: one or two
        players); Escape leaves the pick or quits; Left / Right the rules; Up / Down the
        table. The pad: A / Start play, Y two players, B leaves the pick, Back options."""
        has_table = lambda: self.table is not None  # noqa: E731
        return [
            KeyRule(OPEN_KEYS | {PAD_BACK}, run(self.open_options), name="options"),
            KeyRule(WATCH_KEYS | {PAD_A, PAD_START}, lambda _: self.watch_pick(),
                    name="watch"),
            KeyRule(START_KEYS | {PAD_A, PAD_START}, run(lambda: self.game.nav.play(1)),
                    name="play"),
            KeyRule(PLAYER_KEYS, lambda s: self.game.nav.play(PLAYER_KEYS[s]), name="players"),
            KeyRule({PAD_Y}, run(lambda: self.game.nav.play(2)), name="two players"),
            KeyRule({arcade.key.ESCAPE}, run(self.unpick_or_quit), name="quit"),
            KeyRule({PAD_B}, run(self.unpick), name="unpick"),
            KeyRule(lambda: self.prev_keys | {PAD_LEFT}, run(lambda: self.pick_ruleset(-1)),
                    name="previous rules"),
            KeyRule(lambda: self.next_keys | {PAD_RIGHT}, run(lambda: self.pick_ruleset(1)),
                    name="next rules"),
            KeyRule(TABLE_UP_KEYS | {PAD_UP}, run(lambda: self.move_pick(-1)), when=has_table,
                    name="table up"),
            KeyRule(TABLE_DOWN_KEYS | {PAD_DOWN}, run(lambda: self.move_pick(1)),
                    when=has_table, name="table down"),
        ]
