"""Every game played in the window is recorded: saved on game over to the replay folder (or
``--record FILE``), saved unfinished when the player leaves, never crashing on a failed save;
attract-mode games are not recorded, and the attract mode plays bundled demos."""

from __future__ import annotations

import re

import arcade
import pytest

import asteroids.app.demos as demos
from asteroids.app.game_over_view import GameOverView
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config
from asteroids.core import InputFrame, new_world, state_hash, step
from asteroids.paths import replays_dir
from asteroids.replay import load_replay, verify_replay
from tests.app.replays import random_masks, record

pytestmark = pytest.mark.gl

NAME = re.compile(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-seed(\d+)-score(\d+)\.replay")


@pytest.fixture(scope="module")
def one_life():
    """One ship: a thrusting game is over in a few hundred ticks."""
    return load_config(overrides=["game.lives=1"])


def thrust_source(world):
    return int(InputFrame.THRUST) if world.tick % 50 < 20 else 0


def key(window, symbol, kind="press"):
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def play_until_over(view, limit=5000):
    for _ in range(limit):
        view.on_update(1 / 60)
        if view.world.game_over:
            return
    raise AssertionError("the game did not end")


def test_game_over_saves_a_verifiable_replay_with_a_sortable_name(window, one_life, data_dir):
    game = open_shell(window, one_life, seed=2, sound=False, record=True)
    view = PlayView(game, game.rules.next_seed(), source=thrust_source)
    window.show_view(view)
    play_until_over(view)
    [path] = (data_dir / "replays").iterdir()
    assert path.parent == replays_dir()
    m = NAME.fullmatch(path.name)
    assert m and int(m[1]) == 2 and int(m[2]) == view.world.score
    replay = load_replay(path)
    assert replay.masks == bytes(view.masks) and replay.final_hash == state_hash(view.world)
    assert verify_replay(replay).ok
    over = window.current_view
    assert isinstance(over, GameOverView)
    over.on_update(1 / 60)
    assert over.hud.values["note"] == "REPLAY SAVED IN THE REPLAYS FOLDER"  # no long name
    # The game-over screen keeps running; the recording stopped at game over.
    for _ in range(3):
        over.on_update(0.6)
    key(window, arcade.key.ENTER)                        # a new game: nothing saved twice
    assert isinstance(window.current_view, PlayView) and window.current_view is not view
    assert len(list((data_dir / "replays").iterdir())) == 1
    assert load_replay(path).ticks == replay.ticks


def test_keys_are_recorded_and_quitting_mid_game_saves_the_unfinished_game(window, config,
                                                                           data_dir):
    game = open_shell(window, config, seed=8, sound=False, record=True)
    game.saver.min_unfinished_s = 0.0     # keep even this 7-tick game (test_replay_keeping.py)
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    key(window, arcade.key.LEFT)
    for _ in range(6):
        view.on_update(1 / 60)
    key(window, arcade.key.LEFT, "release")
    key(window, arcade.key.SPACE)
    key(window, arcade.key.SPACE, "release")
    view.on_update(1 / 60)
    key(window, arcade.key.P)                            # pause, then Q: back to the title
    key(window, arcade.key.Q)
    assert isinstance(window.current_view, TitleView)
    [path] = (data_dir / "replays").iterdir()
    replay = load_replay(path)
    assert list(replay.masks) == [InputFrame.LEFT] * 6 + [InputFrame.FIRE] == view.masks
    assert verify_replay(replay).ok
    # The title's demo game is not recorded.
    title = window.current_view
    for _ in range(120):
        title.on_update(1 / 60)
    window.hide_view()                                   # what closing the window does first
    assert len(list((data_dir / "replays").iterdir())) == 1


def test_closing_the_window_mid_game_saves(window, config, data_dir):
    game = open_shell(window, config, seed=9, sound=False, record=True)
    game.saver.min_unfinished_s = 0.0     # keep even this half-second game
    view = PlayView(game, game.rules.next_seed(), source=lambda w: 4)
    window.show_view(view)
    for _ in range(30):
        view.on_update(1 / 60)
    window.hide_view()              # GameWindow.close() and Game.quit() hide the view first
    [path] = (data_dir / "replays").iterdir()
    assert load_replay(path).masks == bytes([4] * 30)


def test_record_to_a_chosen_file_then_beside_it(window, one_life, tmp_path, data_dir):
    target = tmp_path / "mine.replay"
    game = open_shell(window, one_life, seed=2, sound=False, record_to=target)
    for expected in (target, tmp_path / "mine-2.replay"):
        view = PlayView(game, game.rules.next_seed(), source=thrust_source)
        window.show_view(view)
        play_until_over(view)
        assert view.saved.path == expected and load_replay(expected).seed == view.seed
    assert not (data_dir / "replays").exists()


def test_a_failed_save_is_one_line_and_the_game_goes_on(window, one_life, tmp_path,
                                                        monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(blocker))   # replays dir cannot be made
    game = open_shell(window, one_life, seed=2, sound=False, record=True)
    view = PlayView(game, game.rules.next_seed(), source=thrust_source)
    window.show_view(view)
    play_until_over(view)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("asteroids: replay not saved: ")
    assert str(blocker) in err
    over = window.current_view
    over.on_update(1 / 60)
    assert over.hud.values["note"].startswith("REPLAY NOT SAVED: ")
    tick = over.world.tick
    for _ in range(10):
        over.on_update(1 / 60)
    assert over.world.tick == tick + 10
    over.on_draw()
    window.hide_view()                                   # no second attempt, no second line
    assert capsys.readouterr().err == ""


def test_screenshot_and_test_games_do_not_record_unless_asked(window, config, data_dir):
    game = open_shell(window, config, seed=1, sound=False)
    view = PlayView(game, 1, autopilot=True)
    window.show_view(view)
    for _ in range(20):
        view.on_update(1 / 60)
    window.hide_view()
    assert view.recorder is None and not (data_dir / "replays").exists()


# --- attract mode --------------------------------------------------------------------------

def test_title_plays_bundled_demos_in_turn(window, config, tmp_path, monkeypatch):
    a = record(config, 5, random_masks(90, 1), tmp_path / "a.replay")
    b = record(config, 6, random_masks(60, 2), tmp_path / "b.replay")
    broken = tmp_path / "c.replay"
    broken.write_bytes(b"not a replay")
    small = record(load_config(overrides=["world.width_px=800", "world.height_px=600"]), 7,
                   [0] * 10, tmp_path / "d.replay")
    assert small.ticks == 10
    files = [tmp_path / n for n in ("a.replay", "b.replay", "c.replay", "d.replay")]
    monkeypatch.setattr(demos, "demo_files", lambda: files)
    game = open_shell(window, config, seed=1, sound=False, record=True)
    title = TitleView(game)
    window.show_view(title)
    assert [d.seed for d in title.demos] == [5, 6]       # broken and other-sized ones skipped
    for demo in (a, b, a):
        assert title.demo.seed == demo.seed and title.world.tick == 0
        for _ in range(demo.ticks + 30):
            title.on_update(1 / 60)
        assert title.masks == list(demo.masks)           # stops at the last recorded tick
        assert state_hash(title.world) == demo.final_hash
        for _ in range(200):                             # a pause, then the next demo
            title.on_update(1 / 60)
            if title.world.tick == 0:
                break
    window.hide_view()
    assert not replays_dir().exists()                    # demos are not recorded


def test_title_falls_back_to_the_live_bot_without_usable_demos(window, config, tmp_path,
                                                                monkeypatch):
    broken = tmp_path / "x.replay"
    broken.write_bytes(b"\x00" * 10)
    monkeypatch.setattr(demos, "demo_files", lambda: [broken])
    title = TitleView(open_shell(window, config, seed=1, sound=False))
    window.show_view(title)
    for _ in range(60):
        title.on_update(1 / 60)
    assert title.demo is None and any(title.masks)
    world = new_world(config, title.seed)
    for mask in title.masks:
        world, _ = step(world, mask, config)
    assert state_hash(world) == state_hash(title.world)


def test_bundled_demos_are_listed_and_packaged():
    """Whatever is bundled loads and is shown under the rules it was recorded with (the
    default rules get only their own demos), and pyproject ships the folder's replays as
    package data."""
    import tomllib
    from pathlib import Path

    from asteroids.replay import load_replay, rules_fingerprint

    files = demos.demo_files()
    assert all(p.suffix == ".replay" for p in files)
    default = load_config()
    own = [p for p in files
           if rules_fingerprint(load_replay(p).config) == rules_fingerprint(default)]
    assert len(demos.load_demos(default, files)) == len(own)
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml")
                              .read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]
    assert "demos/*.replay" in data["asteroids.replay"]


def test_replay_names_sort_by_time_and_never_overwrite(tmp_path, monkeypatch):
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from asteroids.app.recording import ReplaySaver, replay_filename

    fake = SimpleNamespace(seed=123, final_score=4560)
    when = datetime(2026, 11, 23, 17, 5, tzinfo=UTC)
    assert replay_filename(fake, when) == "2026-11-23T17-05-00Z-seed123-score4560.replay"
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(tmp_path))
    first = ReplaySaver().target(fake, when)
    first.parent.mkdir(parents=True)
    first.write_text("taken")
    assert ReplaySaver().target(fake, when).name == (
        "2026-11-23T17-05-00Z-seed123-score4560-2.replay")
