"""Item 4 of issue 12: F11 and Alt+Enter toggle full screen at any time, keeping the
letterbox and the game running (the same tick stream as the pure core), and the choice is
remembered for the next run."""

from __future__ import annotations

import arcade
import pytest

from asteroids.app.game import Game
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.app.window import window_geometry
from asteroids.core import state_hash
from asteroids.profile import Settings
from tests.app.test_view_ticks import ScriptedSource, core_stream, scripted_masks

pytestmark = pytest.mark.gl

SEED = 77
TICKS = 360


def _letterboxed(game: Game) -> bool:
    """The camera shows the whole world at its aspect ratio, centred in the window."""
    vp = game.screen.camera.viewport
    fw, fh = game.window.get_framebuffer_size()
    aspect_ok = abs(vp.width / vp.height - game.rules.width / game.rules.height) < 0.01
    fits = vp.width <= fw + 1 and vp.height <= fh + 1
    touches = abs(vp.width - fw) <= 1 or abs(vp.height - fh) <= 1
    centred = abs(vp.left + vp.width / 2 - fw / 2) <= 1 and abs(vp.bottom + vp.height / 2
                                                                  - fh / 2) <= 1
    return aspect_ok and fits and touches and centred


def test_f11_and_alt_enter_toggle_while_the_tick_stream_stays_the_cores(window, config):
    script = scripted_masks(TICKS, 5)
    expected = core_stream(config, SEED, script)
    game = open_shell(window, config, seed=SEED, sound=False, profile=True)
    source = ScriptedSource(script)
    view = PlayView(game, SEED, source=source)
    window.show_view(view)
    sizes = []
    try:
        for frame in range(TICKS + 10):
            if frame == 100:
                view.on_key_press(arcade.key.F11, 0)
                assert window.fullscreen
                sizes.append(window.get_framebuffer_size())
                assert _letterboxed(game)
                assert Settings.load().fullscreen is True  # saved at once
            if frame == 200:
                view.on_key_press(arcade.key.ENTER, arcade.key.MOD_ALT)
                assert not window.fullscreen
                assert not view.paused and not view.ended  # Alt+Enter is not Enter
                sizes.append(window.get_framebuffer_size())
                assert _letterboxed(game)
                assert Settings.load().fullscreen is False
            view.on_update(1 / 60)
            if frame % 20 == 0:
                view.on_draw()
            if len(view.masks) >= TICKS:
                break
    finally:
        if window.fullscreen:
            window.set_fullscreen(False)
    assert sizes[0] != sizes[1]  # the headless window really changed size
    after = [h for _, h in source.asked[1:]] + [state_hash(view.world)]
    stream = list(zip(view.masks, after, strict=True))[:TICKS]
    assert stream == expected


def test_full_screen_toggles_while_paused_and_on_the_title_and_is_remembered(window, config):
    game = open_shell(window, config, seed=SEED, sound=False, profile=True)
    view = PlayView(game, SEED)
    window.show_view(view)
    view.set_paused(True)
    try:
        view.on_key_press(arcade.key.F11, 0)
        assert window.fullscreen and view.paused
        # A new run opens full screen: the remembered choice wins over the TOML's ...
        assert window_geometry(config, Settings.load())[2] is True
        # ... unless the command line pinned it.
        assert window_geometry(config, Settings.load(), {"display.fullscreen"})[2] is False
        title = TitleView(game)
        window.show_view(title)
        title.on_key_press(arcade.key.RETURN, arcade.key.MOD_ALT)
        assert not window.fullscreen
        assert window.current_view is title  # Alt+Enter did not start a game
        assert window_geometry(config, Settings.load())[2] is False
    finally:
        if window.fullscreen:
            window.set_fullscreen(False)


def test_a_refused_switch_prints_one_line_and_the_game_goes_on(window, config, capsys,
                                                               monkeypatch):
    game = open_shell(window, config, seed=SEED, sound=False, profile=True)
    view = PlayView(game, SEED)
    window.show_view(view)

    def refuse(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no such mode")

    monkeypatch.setattr(window, "set_fullscreen", refuse)
    view.on_key_press(arcade.key.F11, 0)
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["asteroids: full screen not changed: RuntimeError: no such mode"]
    assert not window.fullscreen
    view.on_update(0.1)
    assert view.world.tick > 0
