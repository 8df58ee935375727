"""Picking the rules on the title screen, in the real headless window: keys and the pad's
d-pad / stick switch between the player's settings and the bundled presets, and the game then
runs in the picked ruleset's world (size, tick rate, letterbox, HUD, demos, recording)."""

from __future__ import annotations

import arcade
import pytest

import asteroids.app.demos as demos
from asteroids.app.input import open_gamepad
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config
from asteroids.config.rulesets import ruleset_choices
from asteroids.core import InputFrame, new_world, state_hash, step
from asteroids.paths import replays_dir
from asteroids.replay import load_replay, verify_replay
from tests.app.replays import random_masks, record

pytestmark = pytest.mark.gl

CLASSIC_TICK_NS = 16_000_000
"""62.5 Hz."""


class StubPad:
    """Stands in for a pyglet Controller (none exists headless): the attributes the game
    polls, with pyglet's names, and ``open``. The game reads it through its real polling
    path (``open_gamepad``, ``MenuPad``, ``PlayerInput``)."""

    def __init__(self) -> None:
        self.opened = 0
        self.leftx = self.lefty = 0.0
        self.righttrigger = self.lefttrigger = 0.0
        self.dpleft = self.dpright = self.dpup = self.dpdown = False
        self.a = self.b = self.x = self.y = self.start = False

    def open(self, window=None, exclusive=False):  # noqa: ANN001, ANN201
        if self.opened:
            raise RuntimeError("Device is already open.")  # as pyglet does
        self.opened += 1


def key(window, symbol, kind="press"):
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def tap(window, symbol):
    key(window, symbol)
    key(window, symbol, "release")


def frames(view, n, dt=1 / 60):
    for _ in range(n):
        view.on_update(dt)


def make_game(window, choices, **kw):
    selected = choices.rulesets[choices.selected]
    return open_shell(window, selected.config, seed=21, sound=False, rulesets=choices.rulesets,
                ruleset_index=choices.selected, **kw)


@pytest.fixture
def game(window):
    return make_game(window, ruleset_choices())


@pytest.fixture
def title(window, game):
    game.nav.title()
    return window.current_view


def note(window):
    return window.current_view.hud.values["note"]


def test_title_shows_the_selected_rules_and_how_to_change_them(window, title):
    assert note(window) == "RULES: DEFAULT  < >"
    assert "LEFT / RIGHT: RULES" in title.hud.values["hint"]
    assert "PLAYERS: PRESS 1 OR 2" in title.hud.values["hint"]


def test_right_switches_to_the_next_ruleset_and_the_title_shows_it(window, game, title):
    tap(window, arcade.key.RIGHT)
    view = window.current_view
    assert isinstance(view, TitleView) and view is not title
    assert game.rules.ruleset.label == "classic" and game.rules.index == 1
    assert note(window) == "RULES: CLASSIC  < >"
    assert view.config.world.width_px == 1024.0 and view.config.world.tick_hz == 62.5
    assert view.stepper.tick_ns == CLASSIC_TICK_NS
    # The attract game runs in the classic world, 4:3 letterboxed into the 16:9 window.
    assert (game.rules.width, game.rules.height) == (1024.0, 768.0)
    assert game.screen.camera.viewport.lrbt == pytest.approx((80, 560, 0, 360))
    assert tuple(game.screen.camera.unproject((80.0, 0.0)))[:2] == pytest.approx((0, 0), abs=0.5)
    assert tuple(game.screen.camera.unproject((560.0, 360.0)))[:2] == pytest.approx((1024, 768),
                                                                            abs=0.5)
    frames(view, 60)
    assert view.world.tick in (62, 63)          # 1 s at 62.5 Hz
    view.on_draw()
    img = arcade.get_image(components=3)
    assert img.getbbox() is not None
    assert img.crop((0, 0, 78, 360)).getbbox() is None       # black bars stay black
    assert img.crop((562, 0, 640, 360)).getbbox() is None


def test_start_after_switching_to_classic_plays_and_records_classic(window, data_dir):
    choices = ruleset_choices()
    game = make_game(window, choices, record=True)
    game.saver.min_unfinished_s = 0.0             # keep this 2 s game (SHORT_GAME_S is 10)
    game.nav.title()
    tap(window, arcade.key.RIGHT)
    key(window, arcade.key.ENTER)
    play = window.current_view
    assert isinstance(play, PlayView)
    classic = load_config("classic")
    assert play.config == classic and game.config == classic
    assert play.stepper.tick_ns == CLASSIC_TICK_NS
    assert (play.world.ship_x, play.world.ship_y) == (512.0, 384.0)   # centre of 1024x768
    assert state_hash(play.world) == state_hash(new_world(classic, play.seed))
    # The HUD is laid out in the classic world's units: the score's top at the margin.
    play.on_draw()
    score = next(line for line in play.drawn_lines if line.text == play.hud.values["score"])
    assert score.box[3] == pytest.approx(768 * (1 - 0.03))
    key(window, arcade.key.UP)
    frames(play, 120)                             # 2 s: 125 ticks at 62.5 Hz
    assert len(play.masks) == 125 and InputFrame.THRUST in play.masks
    world = new_world(classic, play.seed)
    for mask in play.masks:
        world, _ = step(world, mask, classic)
    assert state_hash(world) == state_hash(play.world)
    key(window, arcade.key.P)
    key(window, arcade.key.Q)                     # quit to the title: saves the replay
    assert isinstance(window.current_view, TitleView)
    assert note(window) == "RULES: CLASSIC  < >"  # the choice stays for the next game
    [saved] = list(replays_dir().iterdir())
    replay = load_replay(saved)
    assert replay.config == classic and replay.ticks == 125
    assert verify_replay(replay).ok


def test_left_and_right_wrap_around(window, game, title):
    seen = []
    for _ in range(3):
        tap(window, arcade.key.LEFT)
        seen.append(note(window))
    assert seen == ["RULES: ARENA  < >", "RULES: CLASSIC  < >", "RULES: DEFAULT  < >"]
    for _ in range(3):
        tap(window, arcade.key.RIGHT)
    assert game.rules.ruleset.label == "default" and game.config == load_config()
    tap(window, arcade.key.D)                     # the turn-right key works too
    assert game.rules.ruleset.label == "classic"
    tap(window, arcade.key.A)
    tap(window, arcade.key.NUM_LEFT)
    assert game.rules.ruleset.label == "arena"
    assert len(game.config.obstacles) == 4


def test_a_given_config_file_is_listed_by_name_and_selected_first(window, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("[world]\nwidth_px = 800.0\nheight_px = 600.0\ntick_hz = 50.0\n")
    game = make_game(window, ruleset_choices([mine]))
    game.nav.title()
    assert note(window) == "RULES: MINE.TOML  < >"
    assert window.current_view.stepper.tick_ns == 20_000_000
    labels = []
    for _ in range(len(game.rules.rulesets)):
        tap(window, arcade.key.RIGHT)
        labels.append(note(window))
    assert labels == ["RULES: DEFAULT  < >", "RULES: CLASSIC  < >", "RULES: ARENA  < >",
                      "RULES: MINE.TOML  < >"]
    key(window, arcade.key.SPACE)
    assert window.current_view.config == load_config(mine)


def test_one_ruleset_shows_no_arrows_and_arrows_do_nothing(window, config):
    game = open_shell(window, config, sound=False)
    game.nav.title()
    title = window.current_view
    assert note(window) == "RULES: CUSTOM"
    assert "RULES" not in title.hud.values["hint"]
    tap(window, arcade.key.RIGHT)
    assert window.current_view is title


def test_the_hint_fits_the_world_in_every_ruleset(window, game, title):
    for _ in range(len(game.rules.rulesets)):
        view = window.current_view
        view.on_draw()
        assert view.drawn_lines
        for line in view.drawn_lines:
            left, bottom, right, top = line.box
            assert 0 <= left and right <= game.rules.width, line
            assert 0 <= bottom and top <= game.rules.height, line
        tap(window, arcade.key.RIGHT)


def test_the_pads_dpad_and_stick_pick_the_rules_and_a_starts(window):
    pad = StubPad()
    choices = ruleset_choices()
    game = make_game(window, choices)
    game.gamepad = open_gamepad(pad)
    game.nav.title()
    title = window.current_view
    pad.dpright = True
    frames(title, 1)
    assert note(window) == "RULES: CLASSIC  < >"
    frames(window.current_view, 5)                # held: one move per push
    assert game.rules.ruleset.label == "classic"
    pad.dpright = False
    frames(window.current_view, 1)
    pad.dpleft = True
    frames(window.current_view, 1)
    pad.dpleft = False
    assert game.rules.ruleset.label == "default"
    frames(window.current_view, 1)
    pad.leftx = -0.9                              # the stick, wrapping back to the last
    frames(window.current_view, 1)
    assert note(window) == "RULES: ARENA  < >"
    pad.leftx = -0.35                             # not back inside the dead band yet
    frames(window.current_view, 1)
    pad.leftx = -0.9
    frames(window.current_view, 1)
    assert game.rules.ruleset.label == "arena"
    pad.leftx = 0.0
    frames(window.current_view, 1)
    pad.a = True
    frames(window.current_view, 1)
    play = window.current_view
    assert isinstance(play, PlayView) and play.config == game.config == choices.rulesets[2].config
    frames(play, 10)                              # the A that started the game fires nothing
    assert play.masks == [0] * 10
    pad.a = False
    frames(play, 1)
    pad.a = True
    frames(play, 1)
    assert play.masks[-1] & InputFrame.FIRE
    assert pad.opened == 1                        # opened once for the whole session


def test_demos_follow_the_picked_rules(window, tmp_path, monkeypatch):
    default, arena = load_config(), load_config("arena")
    files = [tmp_path / "a.replay", tmp_path / "b.replay"]
    record(default, 5, random_masks(60, 1), files[0])
    record(arena, 6, random_masks(60, 2), files[1])
    monkeypatch.setattr(demos, "demo_files", lambda: files)
    game = make_game(window, ruleset_choices())
    game.nav.title()
    assert [d.seed for d in window.current_view.demos] == [5]     # default rules only
    tap(window, arcade.key.RIGHT)                                   # classic: 1024x768
    view = window.current_view
    assert view.demos == [] and view.demo is None                  # the live bot plays
    frames(view, 30)
    assert any(view.masks)
    tap(window, arcade.key.RIGHT)                                   # arena: its own demo
    assert [d.seed for d in window.current_view.demos] == [6]
    files.pop()                         # no arena demo: the default one plays, without pillars
    choices = ruleset_choices(["arena"])
    game = make_game(window, choices)
    game.nav.title()
    view = window.current_view
    assert game.rules.ruleset.label == "arena" and len(game.rules.scene.params.obstacle_points)
    assert [d.seed for d in view.demos] == [5]
    assert view.scene is not game.rules.scene and view.scene.params.obstacle_points.shape[0] == 0
