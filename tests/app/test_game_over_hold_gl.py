"""Issue 39 in the real (headless) window: the game-over screen holds against mashed fire, the
initials take only the keys they name, the countdown is labelled, the replay's name is
short on screen, and the replay folder keeps its promise (no file for a game quit in its
first seconds; pruned to ``[storage] keep_replays`` after every save, never a high-score
replay).

Keys go through the window's event dispatch, as a player's would; the data folder is a fresh
temporary folder per test (tests/app/conftest.py)."""

from __future__ import annotations

import os

import arcade
import pytest

from asteroids.app.game_over_view import FIRE_HOLD_S, GAME_OVER_MIN_S, GameOverView
from asteroids.app.initials import InitialsView
from asteroids.app.play_view import PlayView
from asteroids.app.recording import SCREEN_NAME_CHARS, SHORT_GAME_S
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config
from asteroids.paths import replays_dir
from asteroids.profile import ScoreBook, ScoreEntry, now_iso, ruleset_key
from tests.app.test_first_minutes_gl import ended, frames, tap

pytestmark = pytest.mark.gl


def test_mashed_fire_cannot_start_a_new_game_for_3_s_and_enter_can_after_1_s(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    play = PlayView(game, 3)
    window.show_view(play)
    game.nav.game_over(ended(game, play, slot=False))
    over = window.current_view
    assert isinstance(over, GameOverView)
    hints = set()
    for _ in range(int(FIRE_HOLD_S * 10) - 1):     # fire mashed 10 times a second
        tap(window, arcade.key.SPACE)
        assert window.current_view is over, over.over_s
        frames(window, 6)
        hints.add(over.hud.values["hint"])
    assert over.ready and not over.fire_ready
    assert hints == {"", "PRESS ENTER TO PLAY AGAIN     ESC FOR TITLE"}   # Space not offered
    frames(window, 7)                              # 3 s
    assert "ENTER / SPACE TO PLAY AGAIN" in over.hud.values["hint"]
    tap(window, arcade.key.SPACE)
    assert isinstance(window.current_view, PlayView) and window.current_view is not play

    play = window.current_view                     # Enter, the Start button, after 1 s
    game.nav.game_over(ended(game, play, slot=False))
    over = window.current_view
    frames(window, int(GAME_OVER_MIN_S * 60) - 1)
    tap(window, arcade.key.ENTER)
    assert window.current_view is over
    frames(window, 1)
    tap(window, arcade.key.ENTER)
    assert isinstance(window.current_view, PlayView)


def test_space_rebound_from_fire_is_a_start_key_after_1_s(window):
    game = open_shell(window, load_config(overrides=['keys.fire=["F"]']), seed=3, sound=False)
    play = PlayView(game, 3)
    window.show_view(play)
    game.nav.game_over(ended(game, play, slot=False))
    over = window.current_view
    frames(window, int(GAME_OVER_MIN_S * 60))
    assert over.hud.values["hint"].startswith("PRESS ENTER / SPACE TO PLAY AGAIN")
    tap(window, arcade.key.F)                      # fire: not yet
    assert window.current_view is over
    tap(window, arcade.key.SPACE)
    assert isinstance(window.current_view, PlayView)


def test_initials_take_only_the_keys_they_name_and_the_countdown_is_labelled(window, config,
                                                                             data_dir):
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    play = PlayView(game, 3)
    window.show_view(play)
    game.nav.game_over(ended(game, play, slot=True))
    frames(window, int(FIRE_HOLD_S * 60) + 1)
    entry = window.current_view
    assert isinstance(entry, InitialsView)
    help_line = entry.hud.values["note"]
    assert "UP" not in help_line and "DOWN" not in help_line
    assert entry.hud.values["hint"].endswith("ENTER YOUR INITIALS   TIME LEFT: 30")
    for key in (arcade.key.UP, arcade.key.SPACE, arcade.key.UP, arcade.key.DOWN,
                arcade.key.SPACE, arcade.key.UP):  # thrust pulsed, fire mashed: 0.1.0's AAC
        tap(window, key)
    assert entry.initials == "???" and entry.cursor == 0
    for key in (arcade.key.A, arcade.key.B, arcade.key.C, arcade.key.ENTER):
        tap(window, key)
    assert [e.initials for e in ScoreBook.load().table(game.score_key())] == ["ABC"]


def test_the_game_over_screen_shows_a_short_replay_name(window, tmp_path):
    one_life = load_config(overrides=["game.lives=1"])
    target = tmp_path / ("a-replay-name-a-player-chose-that-is-far-too-long-to-show-"
                         "whole.replay")
    game = open_shell(window, one_life, seed=2, sound=False, record_to=target)
    play = PlayView(game, 2, source=lambda w: 1 if w.tick % 50 < 20 else 0)
    window.show_view(play)
    for _ in range(5000):
        if play.finished is not None:
            break
        play.on_update(1 / 60)
    over = window.current_view
    assert isinstance(over, GameOverView) and target.is_file()
    note = over.hud.values["note"]
    assert note.startswith("REPLAY SAVED: ") and "..." in note
    assert len(note) <= len("REPLAY SAVED: ") + SCREEN_NAME_CHARS


def _play_then_quit(window, game, seconds: float) -> PlayView:
    """A game played ``seconds`` (no input) then quit from the pause screen."""
    play = PlayView(game, game.rules.next_seed(), source=lambda w: 0)
    window.show_view(play)
    frames(window, round(seconds * 60))
    tap(window, arcade.key.P)
    tap(window, arcade.key.Q)
    assert isinstance(window.current_view, TitleView)
    return play


def test_a_game_quit_in_its_first_seconds_leaves_no_replay_and_the_folder_is_pruned(
        window, data_dir):
    config = load_config(overrides=["storage.keep_replays=3"])
    folder = data_dir / "replays"
    folder.mkdir()
    for i in range(6):                             # older games, the oldest on the table
        path = folder / f"2020-01-0{i + 1}T00-00-00Z-seed{i}-score0.replay"
        path.write_text("old")
        os.utime(path, (1_600_000_000 + i, 1_600_000_000 + i))
    kept = sorted(p.name for p in folder.iterdir())[0]
    book = ScoreBook.load()
    book.add(ruleset_key(config), ScoreEntry(initials="OLD", score=10, wave=1, date=now_iso(),
                                             play_seconds=1.0, replay=kept))
    assert book.save() is None
    game = open_shell(window, config, seed=5, sound=False, record=True, profile=True)
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 3 + 1 and kept in names   # pruned as the window opens
    play = _play_then_quit(window, game, 2.0)
    assert play.saved is not None and not play.saved.ok and play.saved.error is None
    assert sorted(p.name for p in folder.iterdir()) == names   # nothing for a 2 s game
    _play_then_quit(window, game, SHORT_GAME_S + 0.5)
    now = sorted(p.name for p in replays_dir().iterdir())
    assert len(now) == 4 and kept in now           # saved, pruned at once, table's kept
    newest = max(folder.iterdir(), key=lambda p: p.stat().st_mtime)
    assert newest.name not in names and newest.read_bytes() != b"old"
