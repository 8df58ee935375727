"""Issue 35 item 6: one play view and one replay viewer for one player and two, through the
core's ``Play`` seam as the replay recorder and verifier use it. A short game of each is
played in the real (headless) window, saved at game over, verified by the core and watched
to its recorded end in the viewer; what only a match shows (both scores, whose turn, each
player's spare ships) is drawn from the Play, in the player's palette, and survives a HUD
scale change mid-game."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from asteroids.app.game_over_view import GameOverView
from asteroids.app.play_view import PlayView
from asteroids.app.replay_view import ReplayView
from asteroids.app.router import open_shell
from asteroids.config import load_config
from asteroids.core import InputFrame
from asteroids.core.play import play_for
from asteroids.replay import load_replay, verify_replay

pytestmark = pytest.mark.gl


@pytest.fixture(scope="module")
def short():
    """One ship each and a short banner: a thrusting game ends in a few hundred ticks."""
    return load_config(overrides=["game.lives=1", "match.turn_banner_s=0.25"])


def thrust(world):
    return int(InputFrame.THRUST) if world.tick % 50 < 20 else 0


def tap(window, symbol):
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_events()
    window.dispatch_event("on_key_release", symbol, 0)
    window.dispatch_events()


@pytest.mark.parametrize("players", [1, 2])
def test_a_game_played_in_the_window_saves_a_replay_that_verifies_and_plays_back(
        window, short, tmp_path, players):
    path = tmp_path / f"{players}.replay"
    game = open_shell(window, short, seed=4, sound=False, record_to=path)
    view = PlayView(game, game.rules.next_seed(), players=players, source=thrust)
    window.show_view(view)
    for frame in range(6000):
        view.on_update(1 / 60)
        if frame % 50 == 0:
            view.on_draw()
        if view.ended:
            break
    assert view.ended and isinstance(window.current_view, GameOverView)
    play = play_for(players)
    assert view.play is play
    finished = window.current_view.finished
    assert finished.worlds == play.worlds(view.state) and len(finished.worlds) == players
    # The replay holds every mask the view fed the core, and the core verifies it.
    assert view.saved is not None and view.saved.ok and view.saved.path == path
    replay = load_replay(path)
    assert replay.players == players and replay.ticks == play.tick(view.state) > 0
    assert replay.masks == bytes(view.masks)
    assert replay.final_hash == play.hasher()(view.state)
    assert verify_replay(replay).ok
    if players == 2:
        assert replay.final_scores == play.scores(view.state)
    # The same viewer plays it back to the recorded end, every checkpoint matching.
    watch = ReplayView(open_shell(window, short, sound=False), replay, speed=8)
    window.show_view(watch)
    assert watch.play is play
    for _ in range(replay.ticks // 8 + 2):
        watch.on_update(1 / 60)
    assert watch.at_end and watch.masks == list(replay.masks)
    assert watch.out_of_step is None and watch.current_hash() == replay.final_hash
    assert play.scores(watch.state) == play.scores(view.state)


def test_a_match_is_drawn_in_the_players_palette_as_one_player_is(window, short):
    """Both views draw the same first World with the colours of the player's palette (the
    match only adds player 2's score and spare ships)."""
    amber = load_config(overrides=["game.lives=3", "display.palette=amber"])
    colours = {}
    for players in (1, 2):
        game = open_shell(window, amber, seed=4, sound=False)
        view = PlayView(game, 9, players=players, source=lambda world: 0)
        window.show_view(view)
        view.on_update(1 / 60)
        view.on_draw()
        _, cols = view.build_segments().arrays()
        colours[players] = {tuple(c) for c in np.round(cols, 4)}
    assert colours[2] == colours[1]
    assert (1.0, 1.0, 1.0, 1.0) not in colours[2], "amber, not the vector look's white"


def test_a_match_keeps_both_scores_on_screen_after_a_hud_scale_change(window, short,
                                                                       data_dir):
    game = open_shell(window, short, seed=4, sound=False, profile=True)
    view = PlayView(game, 9, players=2, source=lambda world: 0)
    window.show_view(view)
    view.on_update(1 / 60)
    scale = view.hud.scale
    tap(window, arcade.key.P)
    tap(window, arcade.key.O)
    for _ in range(40):
        if view.options.item.key == "hud_scale":
            break
        tap(window, arcade.key.DOWN)
    tap(window, arcade.key.RIGHT)
    tap(window, arcade.key.ESCAPE)
    tap(window, arcade.key.P)
    assert not view.paused and view.hud.scale != scale
    for _ in range(3):
        view.on_update(1 / 60)
    view.on_draw()
    shown = {line.text for line in view.drawn_lines}
    assert {"PLAYER 1", "PLAYER 2"} <= shown
    assert view.match_hud is not None and view.match_hud.hud is view.hud
