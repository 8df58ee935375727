"""Issue 10 in the real headless window: the HUD's best score, arcade-style initials entry for
a game that beats the table (keyboard, pad, timeout), the title's high-score table and its
replays, failed saves and load warnings shown in the game, and settings remembered between
two Games. The player's data folder is a fresh temp folder per test (``ASTEROIDS_DATA_DIR``,
tests/app/conftest.py)."""

from __future__ import annotations

import json

import arcade
import pytest

import asteroids.app.rules_service as game_module
from asteroids import cli
from asteroids.app.game_over_view import ENTRY_DELAY_S, GAME_OVER_MIN_S, GameOverView
from asteroids.app.initials import INITIALS_TIMEOUT_S, InitialsView
from asteroids.app.input import open_gamepad
from asteroids.app.play_view import PlayView
from asteroids.app.replay_view import ReplayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import ATTRACT_DEMO_S, ATTRACT_TABLE_S, OPTIONS_HINT, TitleView
from asteroids.config import load_config
from asteroids.config.rulesets import ruleset_choices
from asteroids.core import World
from asteroids.core.bot import bot_input
from asteroids.paths import replays_dir
from asteroids.profile import ScoreBook, ScoreEntry, Settings, ruleset_key, ruleset_label
from asteroids.profile.options import apply_options
from asteroids.profile.scores import dump_scores
from asteroids.replay import load_replay, verify_replay
from tests.app.test_title_rules import StubPad

pytestmark = pytest.mark.gl

SEED = 1
SCORE = 1130
"""What ``script`` scores with one life and seed 1 (game over after 931 ticks)."""
TABLE = [5000, 2000, 1000, 900, 800, 700, 600, 500, 400, 300]
"""A full table the scripted game beats: it takes place 3 (rank 2)."""


@pytest.fixture(scope="module")
def one_life():
    return load_config(overrides=["game.lives=1"])


def script(world: World) -> int:
    """The bot for 5 s, then thrusting about, firing now and then, until the ship is hit."""
    if world.tick < 300:
        return bot_input(world, 1280.0, 720.0)
    return (1 if world.tick % 50 < 20 else 0) | (8 if world.tick % 6 == 0 else 0)


def fill_table(config, scores=TABLE) -> str:
    """Save a table of ``scores`` for ``config``'s rules (no replays); returns its key."""
    key = ruleset_key(config)
    book = ScoreBook.load()
    for i, score in enumerate(scores):
        book.add(key, ScoreEntry(f"{chr(65 + i)}{chr(65 + i)}{chr(65 + i)}", score, 3,
                                 "2026-01-02T03:04:05+00:00", 60.0, None))
    assert book.save() is None
    return key


def key(window, symbol, kind="press"):
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def tap(window, symbol):
    key(window, symbol)
    key(window, symbol, "release")


def frames(window, n: int, dt: float = 1 / 60) -> None:
    """Run ``n`` frames of whatever screen is on show."""
    for _ in range(n):
        window.current_view.on_update(dt)


def play_to_over(window, game) -> PlayView:
    """A game driven by ``script`` until the game-over screen takes over."""
    view = PlayView(game, game.rules.next_seed(), source=script)
    window.show_view(view)
    for _ in range(5000):
        view.on_update(1 / 60)
        if view.finished is not None:
            break
    assert view.world.game_over and view.world.score == SCORE
    assert isinstance(window.current_view, GameOverView)
    return view


def play_to_entry(window, config, **kw):
    """A recorded profile game driven by ``script`` until the initials entry opens."""
    game = open_shell(window, config, seed=SEED, sound=False, record=True, profile=True, **kw)
    view = play_to_over(window, game)
    for _ in range(int(ENTRY_DELAY_S * 60) + 2):
        if isinstance(window.current_view, InitialsView):
            break
        frames(window, 1)
    assert isinstance(window.current_view, InitialsView)
    return game, view


def stored(key_: str) -> list[ScoreEntry]:
    """The table as a fresh load from disk sees it."""
    return ScoreBook.load().table(key_)


def test_a_game_that_beats_the_table_enters_initials_saved_shown_and_replayable(
        window, one_life, data_dir):
    table_key = fill_table(one_life)
    game, play = play_to_entry(window, one_life)
    # The HUD showed the best score of these rules, top centre.
    assert play.hud.values["best"] == "5000"
    # At game over the replay was saved first and the entry made at once, as "???".
    assert play.saved is not None and play.saved.ok
    name = play.saved.path.name
    assert play.saved.path.parent == replays_dir()
    slot = play.finished.slot
    assert slot is not None and slot.rank == 2 and slot.error is None
    [entry] = [e for e in stored(table_key) if e.score == SCORE]
    assert entry.initials == "???" and entry.replay == name and entry.wave >= 1
    assert entry.play_seconds == pytest.approx(931 / 60, abs=0.02)

    entry_view = window.current_view
    assert entry_view.hud.values["title"] == "NEW HIGH SCORE"
    assert [entry_view.hud.values[f"letter{i}"] for i in range(3)] == ["?", "?", "?"]
    tap(window, arcade.key.UP)            # Up and Down are thrust and shield: no letter
    tap(window, arcade.key.DOWN)          # changes (issue 39; the pad's up / down do)
    assert entry_view.initials == "???"
    tap(window, arcade.key.B)             # typing a letter sets it and moves on
    tap(window, arcade.key.LEFT)
    tap(window, arcade.key.SPACE)         # fire moves on past a letter that is set
    tap(window, arcade.key.Z)
    tap(window, arcade.key.C)
    assert entry_view.initials == "BZC"
    assert [entry_view.hud.values[f"letter{i}"] for i in range(3)] == ["B", "Z", "C"]
    tap(window, arcade.key.ENTER)

    # Saved in scores.json under the data folder, in place 3, with its replay.
    assert (data_dir / "scores.json").is_file()
    rows = stored(table_key)
    assert [e.score for e in rows] == sorted([*TABLE, SCORE], reverse=True)[:10]
    assert rows[2].initials == "BZC" and rows[2].replay == name
    # The entry's replay verifies bit for bit.
    replay = load_replay(replays_dir() / name)
    assert replay.seed == SEED and replay.final_score == SCORE
    assert verify_replay(replay).ok

    # The title shows the table, the new entry selected.
    title = window.current_view
    assert isinstance(title, TitleView) and title.showing_table and title.pick == 2
    assert title.table.row(2)[:4] == ("3.", "BZC", str(SCORE), f"WAVE {rows[2].wave}")
    assert title.table.values["heading"].startswith(f"HIGH SCORES  {ruleset_label(table_key)}")
    assert title.hud.values["best"] == "5000"
    title.on_draw()
    # Enter on the entry watches its replay; Escape comes back to the same row.
    tap(window, arcade.key.ENTER)
    watch = window.current_view
    assert isinstance(watch, ReplayView) and watch.replay.masks == replay.masks
    for _ in range(30):
        watch.on_update(1 / 60)
    assert watch.tick > 0 and watch.out_of_step is None
    tap(window, arcade.key.ESCAPE)
    back = window.current_view
    assert isinstance(back, TitleView) and back.showing_table and back.pick == 2


def test_an_import_while_the_initials_are_typed_keeps_every_entry(window, one_life, data_dir,
                                                                   tmp_path):
    # Issue 20: each window kept the book it loaded, so the last save won. Here a better
    # score arrives from `asteroids scores --import` (another window saves the same way)
    # while this game's initials are being typed: both stay, and the initials go to this
    # game's entry, which is now one place lower.
    table_key = fill_table(one_life)
    game, play = play_to_entry(window, one_life)
    assert play.finished.slot is not None and play.finished.slot.rank == 2
    other = tmp_path / "other.json"
    imported = ScoreEntry("IMP", 3000, 2, "2026-03-04T05:06:07Z", 30.0, None)
    other.write_bytes(dump_scores({table_key: [imported]}))
    assert cli.main(["scores", "--import", str(other)]) == 0
    for letter in (arcade.key.A, arcade.key.B, arcade.key.C):
        tap(window, letter)
    tap(window, arcade.key.ENTER)
    rows = stored(table_key)
    assert [e.score for e in rows] == sorted([*TABLE, SCORE, 3000], reverse=True)[:10]
    assert [(e.score, e.initials) for e in rows[:4]] == \
        [(5000, "AAA"), (3000, "IMP"), (2000, "BBB"), (SCORE, "ABC")]
    title = window.current_view
    assert isinstance(title, TitleView) and title.pick == 3
    assert title.table.row(3)[:3] == ("4.", "ABC", str(SCORE))


def test_the_entry_times_out_keeping_question_marks(window, one_life):
    table_key = fill_table(one_life)
    _, play = play_to_entry(window, one_life)
    entry_view = window.current_view
    for _ in range(int(INITIALS_TIMEOUT_S) - 1):
        entry_view.on_update(1.0)
    assert window.current_view is entry_view and entry_view.hud.values["hint"].endswith(" 1")
    entry_view.on_update(1.0)
    assert isinstance(window.current_view, TitleView)
    [entry] = [e for e in stored(table_key) if e.score == SCORE]
    assert entry.initials == "???" and entry.replay == play.saved.path.name


def test_escape_at_game_over_keeps_the_entry(window, one_life):
    table_key = fill_table(one_life)
    game = open_shell(window, one_life, seed=SEED, sound=False, record=True, profile=True)
    play_to_over(window, game)
    over = window.current_view
    assert over.hud.values["hint"] == "A HIGH SCORE: NUMBER 3!"
    tap(window, arcade.key.ESCAPE)                 # too early: the screen stays
    assert window.current_view is over
    frames(window, int(GAME_OVER_MIN_S * 60) + 1)
    tap(window, arcade.key.ESCAPE)
    title = window.current_view
    assert isinstance(title, TitleView) and title.showing_table and title.pick == 2
    assert stored(table_key)[2].initials == "???"


def test_the_gamepad_types_initials(window, one_life):
    table_key = fill_table(one_life)
    pad = StubPad()
    game, _ = play_to_entry(window, one_life)
    game.gamepad = open_gamepad(pad)
    # The entry reads the pad through MenuPad, made when the view opens: reopen it.
    old = window.current_view
    entry_view = InitialsView(game, old.finished)
    window.show_view(entry_view)

    def press(attr, value=True):
        setattr(pad, attr, value)
        entry_view.on_update(1 / 60)
        setattr(pad, attr, False if isinstance(value, bool) else 0.0)
        entry_view.on_update(1 / 60)

    press("dpup")                      # ? -> A
    press("lefty", 0.9)                # stick up: A -> B
    press("a")                         # A moves on past a set letter
    press("a")                         # ... never past a "?"
    press("dpdown")                    # ? -> Z
    press("dpright")
    press("dpup")
    press("dpup")
    press("dpup")                      # ? -> C
    press("b")                         # B moves back
    press("dpdown")                    # Z -> Y
    assert entry_view.initials == "BYC"
    press("start")
    assert isinstance(window.current_view, TitleView)
    assert stored(table_key)[2].initials == "BYC"


def test_a_failed_save_is_shown_and_play_goes_on(window, one_life, monkeypatch, capsys):
    fill_table(one_life)
    game = open_shell(window, one_life, seed=SEED, sound=False, record=True, profile=True)
    error = "scores not saved: /x/scores.json: No space left on device"
    monkeypatch.setattr(game.profile.scores, "save", lambda: error)
    view = play_to_over(window, game)
    assert view.finished.slot is not None and view.finished.slot.error == error
    over = window.current_view
    assert error.upper() in over.hud.values["note"]
    tap(window, arcade.key.ENTER)     # too early to go on: nothing happens
    assert window.current_view is over
    frames(window, int(ENTRY_DELAY_S * 60) + 2)
    entry_view = window.current_view
    assert isinstance(entry_view, InitialsView)
    assert entry_view.hud.values["status"] == error.upper()
    tap(window, arcade.key.ENTER)
    title = window.current_view
    assert isinstance(title, TitleView) and error in title.hud.values["status"]
    # The entry stays in memory (the next save retries); a new game plays on.
    assert game.profile.scores.table(game.score_key(one_life))[2].initials == "???"
    assert "scores not saved" in capsys.readouterr().err
    tap(window, arcade.key.SPACE)
    assert isinstance(window.current_view, PlayView)


def test_load_warnings_are_shown_once_on_the_title(window, config, data_dir):
    (data_dir / "scores.json").write_bytes(b"\x00\xffnot json at all{{{")
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    assert game.profile.scores.warnings
    game.nav.title()
    first = window.current_view.hud.values["status"]
    # beside the options hint (issue 39: a notice no longer hides the hint)
    assert first == OPTIONS_HINT + "     " + "   ".join(game.profile.scores.warnings)
    game.nav.title()
    assert window.current_view.hud.values["status"] == OPTIONS_HINT  # the warnings are gone


def test_the_attract_cycle_alternates_the_demo_and_the_table(window, config):
    table_key = fill_table(config, [700, 300])
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.nav.title()
    title = window.current_view
    assert not title.showing_table and title.hud.values["best"] == "700"
    t = 0.0
    while not title.showing_table:
        title.on_update(1 / 10)
        t += 1 / 10
        assert t < ATTRACT_DEMO_S + 1
    assert title.table.row(0) == ("1.", "AAA", "700", "WAVE 3", "2026-01-02")
    assert title.table.row(2) == ("",) * 5
    assert title.hud.values["title"] == ""
    tick = title.world.tick
    title.on_update(1.0)
    assert title.world.tick == tick          # nothing runs behind the table
    for _ in range(int(ATTRACT_TABLE_S)):
        title.on_update(1.0)
    assert not title.showing_table and title.hud.values["title"] == "ASTEROIDS"
    # Down selects the first entry (showing the table) and holds it on screen.
    tap(window, arcade.key.DOWN)
    assert title.showing_table and title.pick == 0
    tap(window, arcade.key.DOWN)
    tap(window, arcade.key.DOWN)
    assert title.pick == 0                   # wraps over the two entries
    for _ in range(int(ATTRACT_TABLE_S) + 2):
        title.on_update(1.0)
    assert title.showing_table
    assert "NO REPLAY" in title.table.values["footer"]
    tap(window, arcade.key.ENTER)            # no replay to watch: stays
    assert window.current_view is title
    tap(window, arcade.key.ESCAPE)           # leaves the selection, not the game
    assert title.pick is None and not window.closed
    assert stored(table_key)[0].score == 700


def test_assisted_rules_have_their_own_labelled_table(window, config, monkeypatch):
    monkeypatch.setattr(game_module, "ruleset_key", lambda c: "default:assisted")
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.nav.title(table=True)
    heading = window.current_view.table.values["heading"]
    assert heading.startswith(f"HIGH SCORES  {ruleset_label('default:assisted')}")
    assert window.current_view.table.row(0)[2] == "NO SCORES YET"


def test_settings_are_remembered_between_two_games(window, data_dir):
    choices = ruleset_choices()
    first = choices.rulesets[choices.selected]
    assert first.label == "default"
    game = open_shell(window, first.config, seed=3, sound=False, profile=True,
                rulesets=choices.rulesets, ruleset_index=choices.selected)
    assert not game.audio.muted
    start_volume = game.audio.master_volume
    game.nav.title()
    tap(window, arcade.key.M)                               # mute
    tap(window, arcade.key.BRACKETLEFT)                     # volume down, twice
    tap(window, arcade.key.BRACKETLEFT)
    tap(window, arcade.key.RIGHT)                           # classic rules
    assert game.rules.ruleset.label == "classic" and game.audio.muted
    assert game.audio.master_volume == pytest.approx(start_volume - 0.2)
    # Written to the data folder at once, never into a TOML file.
    assert not list(data_dir.rglob("*.toml"))
    saved = Settings.load()
    assert (saved.muted, saved.ruleset) == (True, "classic")
    assert saved.master_volume == pytest.approx(start_volume - 0.2)

    again = open_shell(window, first.config, seed=4, sound=False, profile=True,
                 rulesets=choices.rulesets, ruleset_index=choices.selected)
    assert again.audio.muted
    assert again.audio.master_volume == pytest.approx(start_volume - 0.2)
    # The classic rules, with the player's remembered sound in their [audio] table.
    assert again.rules.ruleset.label == "classic"
    assert again.config == apply_options(load_config("classic"), Settings.load())
    again.nav.title()
    assert window.current_view.hud.values["note"].startswith("RULES: CLASSIC")

    # What the command line set explicitly wins over the remembered values at start.
    pinned = open_shell(window, first.config, seed=5, sound=False, profile=True,
                  rulesets=choices.rulesets, ruleset_index=choices.selected,
                  pinned={"audio.muted", "ruleset"})
    assert not pinned.audio.muted and pinned.rules.ruleset.label == "default"
    assert pinned.audio.master_volume == pytest.approx(start_volume - 0.2)


def test_a_remembered_ruleset_no_longer_offered_is_ignored(window, config, data_dir):
    s = Settings.load()
    s.ruleset = "gone.toml"
    assert s.save() is None
    choices = ruleset_choices()
    game = open_shell(window, config, seed=3, sound=False, profile=True,
                rulesets=choices.rulesets, ruleset_index=choices.selected)
    assert game.rules.ruleset.label == "default"


def test_without_a_profile_nothing_is_kept(window, one_life, data_dir):
    game = open_shell(window, one_life, seed=SEED, sound=False, record=True)
    view = play_to_over(window, game)
    assert view.finished.slot is None and view.hud.values["best"] == ""
    assert not (data_dir / "scores.json").exists()


def test_the_pad_browses_the_title_table(window, config):
    fill_table(config, [700, 300])
    pad = StubPad()
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.gamepad = open_gamepad(pad)
    game.nav.title()
    title = window.current_view

    def press(attr):
        setattr(pad, attr, True)
        title.on_update(1 / 60)
        setattr(pad, attr, False)
        title.on_update(1 / 60)

    press("dpdown")
    assert title.showing_table and title.pick == 0
    press("dpdown")
    assert title.pick == 1
    press("b")
    assert title.pick is None and title.showing_table
    press("a")                                   # nothing selected: A plays
    assert isinstance(window.current_view, PlayView)


def test_window_geometry_remembered_wins_over_toml_but_not_over_the_command_line(config):
    from asteroids.app.window import window_geometry

    assert window_geometry(config, None) == (1280, 720, False)
    remembered = Settings(window_width=900, window_height=500, fullscreen=True)
    assert window_geometry(config, remembered) == (900, 500, True)
    assert window_geometry(config, remembered, {"display.fullscreen"}) == (900, 500, False)
    assert window_geometry(config, remembered,
                           {"display.window_width_px", "display.window_height_px"}) == (
        1280, 720, True)


GAME_WINDOW_SCRIPT = """
import json, sys
from asteroids.config.rulesets import ruleset_choices
from asteroids.app.window import GameWindow
c = ruleset_choices()
w = GameWindow(c.rulesets[c.selected].config, seed=1, sound=False, rulesets=c.rulesets,
               ruleset_index=c.selected, pinned=set(sys.argv[1:]))
print(json.dumps([list(w.get_size()), w.game.audio.muted, w.game.rules.ruleset.label,
                  type(w.current_view).__name__]))
w.on_resize(1000, 600)
w.on_move(33, 44)
w.close()
"""


def test_the_game_window_opens_as_remembered_and_saves_at_close(data_dir):
    """The real GameWindow, in a process of its own (the test window stays arcade's one)."""
    import os
    import subprocess
    import sys

    s = Settings.load()
    s.window_width, s.window_height, s.muted, s.ruleset = 900, 500, True, "arena"
    assert s.save() is None
    env = {**os.environ, "ASTEROIDS_DATA_DIR": str(data_dir), "ARCADE_HEADLESS": "1",
           "ARCADE_SOUND_BACKENDS": "silent"}

    def run(*pinned: str) -> list:
        out = subprocess.run([sys.executable, "-c", GAME_WINDOW_SCRIPT, *pinned], env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    assert run() == [[900, 500], True, "arena", "TitleView"]
    saved = Settings.load()
    assert (saved.window_width, saved.window_height, saved.window_x, saved.window_y) == (
        1000, 600, 33, 44)
    assert run("audio.muted", "ruleset", "display.window_width_px") == [
        [1280, 600], False, "default", "TitleView"]
