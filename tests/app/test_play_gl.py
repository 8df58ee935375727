"""The real game shell in a real headless window: keys -> latch -> core, drawing, HUD,
letterboxing, screenshots. Views are driven by calling on_update/on_draw directly, since
headless ``arcade.run`` never dispatches fixed updates."""

from __future__ import annotations

import dataclasses

import arcade
import numpy as np
import pytest
from PIL import Image

from asteroids.app.game_over_view import GAME_OVER_MIN_S, GameOverView
from asteroids.app.main import EXIT_NO_DISPLAY, run_game
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.screenshot import save_screenshot
from asteroids.app.title_view import TitleView
from asteroids.core import InputFrame, new_world, state_hash, step
from asteroids.core import events as ev
from asteroids.core.bot import bot_input

pytestmark = pytest.mark.gl


@pytest.fixture
def game(window, config):
    return open_shell(window, config, seed=11, sound=False)


@pytest.fixture
def play(window, game):
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    return view


def key(window, symbol, kind="press"):
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def frames(view, n, dt=1 / 60):
    for _ in range(n):
        view.on_update(dt)


def lit_pixels(region=None):
    img = np.asarray(arcade.get_image(components=3))
    if region is not None:
        img = img[region]
    return int((img.max(axis=2) > 40).sum())


def replay(config, seed, masks):
    world = new_world(config, seed)
    for mask in masks:
        world, _ = step(world, mask, config)
    return world


def test_left_key_turns_the_ship_as_the_core_says(window, play, config):
    h0 = play.world.ship_heading
    key(window, arcade.key.LEFT)
    frames(play, 10)
    assert play.masks == [InputFrame.LEFT] * 10
    assert play.world.ship_heading != h0
    assert state_hash(play.world) == state_hash(replay(config, play.seed, play.masks))
    key(window, arcade.key.LEFT, "release")
    frames(play, 2)
    assert play.masks[-2:] == [0, 0]


def test_thrust_moves_the_ship(window, play):
    key(window, arcade.key.UP)
    frames(play, 15)
    assert play.world.thrusting
    assert (play.world.ship_vx, play.world.ship_vy) != (0.0, 0.0)


def test_a_tap_between_frames_fires_exactly_one_shot(window, play, config):
    key(window, arcade.key.SPACE)
    key(window, arcade.key.SPACE, "release")
    frames(play, 1)
    assert play.masks == [InputFrame.FIRE]
    assert [e for e in play.events if isinstance(e, ev.ShotFired)]
    frames(play, 3)
    assert play.masks == [InputFrame.FIRE, 0, 0, 0]
    assert play.world.shot_id.shape[0] == 1
    assert state_hash(play.world) == state_hash(replay(config, play.seed, play.masks))


def test_slow_frames_step_several_ticks_each_with_the_same_held_input(window, play):
    key(window, arcade.key.RIGHT)
    frames(play, 5, dt=3.01 / 60)  # a shade over three ticks per frame
    assert len(play.masks) == 15
    assert set(play.masks) == {InputFrame.RIGHT}


def test_pause_stops_the_clock_and_says_so(window, play):
    frames(play, 3)
    key(window, arcade.key.P)
    tick = play.world.tick
    frames(play, 10)
    assert play.world.tick == tick
    assert play.hud.values["title"] == "PAUSED"
    key(window, arcade.key.P)                   # P is still down: no second press yet
    assert play.paused
    key(window, arcade.key.P, "release")
    key(window, arcade.key.P)
    frames(play, 2)
    assert play.world.tick == tick + 2
    assert play.hud.values["title"] == ""


def test_drawing_lights_pixels(window, play):
    frames(play, 3)
    play.on_draw()
    assert lit_pixels() > 300


def test_hud_shows_the_score(window, play, config):
    world = play.world
    while world.score == 0:
        world, _ = step(world, bot_input(world, 1280.0, 720.0), config)
    play.world = play.prev = world
    frames(play, 1, dt=0.0)
    assert play.hud.values["score"] == f"{world.score:02d}"
    assert play.hud.values["wave"] == "WAVE 1"
    play.on_draw()
    # The score sits top-left: that corner has text pixels.
    assert lit_pixels((slice(0, 40), slice(0, 120))) > 20


def test_game_over_shows_the_message_then_enter_starts_a_new_game(window, play):
    play.world = play.prev = dataclasses.replace(play.world, game_over=True, lives=0)
    play.game_over()
    over = window.current_view
    assert isinstance(over, GameOverView)
    frames(over, 1)
    assert over.hud.values["title"] == "GAME OVER"
    key(window, arcade.key.ENTER)
    assert window.current_view is over  # too soon: a held fire key must not restart
    frames(over, int(GAME_OVER_MIN_S * 60) - 2)
    key(window, arcade.key.ENTER)
    assert window.current_view is over  # 1.5 s at least
    frames(over, 3)
    assert "PLAY AGAIN" in over.hud.values["hint"]
    key(window, arcade.key.ENTER)
    assert isinstance(window.current_view, PlayView) and window.current_view is not play
    assert window.current_view.seed == play.seed + 1


def test_title_runs_the_bot_and_enter_starts_play(window, game):
    title = TitleView(game)
    window.show_view(title)
    frames(title, 30)
    assert title.world.tick == 30 and any(title.masks)
    title.on_draw()
    assert title.hud.values["title"] == "ASTEROIDS"
    assert lit_pixels() > 500
    key(window, arcade.key.SPACE)
    assert isinstance(window.current_view, PlayView)


def test_letterbox_maps_world_corners_to_the_viewport(window, config_4_3):
    game = open_shell(window, config_4_3, seed=1, sound=False)
    cam = game.screen.camera
    # 800 x 600 world in a 640 x 360 window: 480 x 360 viewport, 80 px bars each side.
    assert cam.viewport.lrbt == pytest.approx((80, 560, 0, 360))
    assert tuple(cam.project((0.0, 0.0)))[:2] == pytest.approx((80.0, 0.0), abs=0.5)
    assert tuple(cam.project((800.0, 600.0)))[:2] == pytest.approx((560.0, 360.0), abs=0.5)
    assert tuple(cam.unproject((80.0, 0.0)))[:2] == pytest.approx((0.0, 0.0), abs=0.5)
    view = PlayView(game, 3)
    window.show_view(view)
    frames(view, 5)
    view.on_draw()
    assert lit_pixels() > 200
    assert lit_pixels((slice(None), slice(0, 78))) == 0     # the bars stay black
    assert lit_pixels((slice(None), slice(562, None))) == 0


def test_line_width_follows_the_camera_scale(window, game):
    # Half scale (1280-wide world in 640 px): 1.5 px is 3 world units.
    display = game.config.display
    assert game.screen.line_width(display) == pytest.approx(display.line_width_px * 2.0)


def test_screenshot_writes_a_png_of_the_game(window, config, tmp_path):
    out = save_screenshot(config, tmp_path / "shots" / "s.png", seed=2, ticks=40,
                          window=window)
    with Image.open(out) as img:
        assert img.size == (640, 360)
        assert (np.asarray(img).max(axis=2) > 40).sum() > 300


def test_screenshot_rejects_bad_arguments(config, tmp_path):
    with pytest.raises(ValueError):
        save_screenshot(config, tmp_path / "x.png", mode="replay")


def test_run_game_refuses_headless_with_one_line(config, capsys):
    assert run_game(config, seed=1) == EXIT_NO_DISPLAY
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("asteroids: ")
