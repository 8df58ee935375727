"""``--live`` through the real (headless) window: the settings file is edited while a game
runs, and what the player would notice is checked in the World, on screen and in the replay.

Frames are 1/60 s on 60 Hz rules, so each frame runs exactly one tick; the watcher looks at
the file every frame (interval 0) and reads it once it held still for one look, so an edit
is taken at the start of the second frame after it, before that frame's tick.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import arcade
import pytest

from asteroids.app.live import LiveSpec
from asteroids.app.live_panel import FADE_S, NOTICE_S
from asteroids.app.play_view import PlayView
from asteroids.app.replay_view import ReplayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import ConfigError, load_config
from asteroids.core.world import Draft
from asteroids.replay import get_bot, load_replay, record_bot_game, save_replay, verify_replay

pytestmark = pytest.mark.gl

ROOT = Path(__file__).resolve().parents[2]
THRUST_TICK = 300.0 / 60 / 60
"""Speed one tick of thrust adds with the defaults (px per tick)."""


def write(path: Path, text: str) -> None:
    """Save ``text`` as an editor would, a little later than the last save."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    later = max(path.stat().st_mtime_ns, before + 10_000_000)
    os.utime(path, ns=(later, later))


def key(window, symbol, kind="press"):  # type: ignore[no-untyped-def]
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def frames(view, n, dt=1 / 60):  # type: ignore[no-untyped-def]
    for _ in range(n):
        view.on_update(dt)


@pytest.fixture
def toml(tmp_path: Path) -> Path:
    path = tmp_path / "my.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = 300\n")
    return path


@pytest.fixture
def game(window, toml, tmp_path):  # type: ignore[no-untyped-def]
    config = load_config(toml)
    return open_shell(window, config, seed=11, sound=False, record_to=tmp_path / "game.replay",
                live=LiveSpec((str(toml),), interval_s=0.0))


@pytest.fixture
def play(window, game):  # type: ignore[no-untyped-def]
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    return view


def test_an_edit_changes_the_ships_thrust_from_the_next_tick(window, play, toml) -> None:
    key(window, arcade.key.UP)
    speeds = [play.world.ship_vy]
    frames(play, 1)
    speeds.append(play.world.ship_vy)
    for _ in range(5):
        frames(play, 1)
        speeds.append(play.world.ship_vy)
    write(toml, "[ship]\nthrust_px_per_s2 = 420\n")
    for _ in range(6):
        frames(play, 1)
        speeds.append(play.world.ship_vy)
    gains = [b - a for a, b in zip(speeds, speeds[1:], strict=False)]
    # Six ticks at 300, one more before the file is read, then 420 from the next tick on.
    assert gains == pytest.approx([THRUST_TICK] * 7 + [THRUST_TICK * 1.4] * 5, abs=1e-12)
    assert play.config.ship.thrust_px_per_s2 == 420.0
    (change,) = play.recorder.changes
    assert change.tick == 7 and change.settings == ("ship.thrust_px_per_s2=420.0",)
    notice = play.game.live.panel.notice_lines
    assert notice[0] == "my.toml reloaded"
    assert notice[1] == "ship.thrust_px_per_s2 300 \u2192 420"
    assert play.rules_changed and not play.pending


def test_a_broken_edit_shows_every_problem_and_the_game_ticks_on(window, play, toml,
                                                                  capsys) -> None:
    frames(play, 3)
    write(toml, "[ship]\nthrust_px_per_s2 = -5\nturn_deg_per_s = true\n[nosuch]\n")
    frames(play, 2)
    panel = play.game.live.panel
    assert panel.problem_lines[0].startswith("my.toml: 3 problems; the game goes on")
    with pytest.raises(ConfigError) as info:
        load_config(toml)
    assert panel.problem_lines[1:] == [str(e) for e in info.value.errors]
    assert panel.problem_lines[1].startswith(f"{toml}:2:1: error[range]: ship.thrust_px_per_s2")
    # On screen a long problem wraps onto the next row instead of running off the edge.
    play.on_draw()
    rows = [line for line in play.drawn_lines if line.role == "problem"]
    assert len(rows) > len(panel.problem_lines)
    w = play.game.rules.width
    assert all(0 < line.box[0] and line.box[2] < w for line in rows)
    tick = play.world.tick
    frames(play, 30)
    assert play.world.tick == tick + 30  # the game goes on, on the last good settings
    assert play.config.ship.thrust_px_per_s2 == 300.0
    assert "error[range]" in capsys.readouterr().err
    write(toml, "[ship]\nthrust_px_per_s2 = 350\n")
    frames(play, 2)
    assert panel.problem_lines == []
    assert play.config.ship.thrust_px_per_s2 == 350.0


@pytest.mark.parametrize("broken", ["vanished", "half-written", "folder", "not-utf8"])
def test_a_file_that_goes_bad_never_crashes_the_game(window, play, toml, broken) -> None:
    if broken == "vanished":
        toml.unlink()
    elif broken == "half-written":
        write(toml, "[ship]\nthrust_px_per_s2 = 4")  # a save caught halfway: valid so far?
        write(toml, "[ship]\nthrust_px_per_s2 = ")
    elif broken == "folder":
        toml.unlink()
        toml.mkdir()
    else:
        toml.write_bytes(b"[ship]\nthrust_px_per_s2 = \xff\xfe\n")
    frames(play, 3)
    assert play.game.live.panel.problem_lines
    tick = play.world.tick
    frames(play, 10)
    play.on_draw()
    assert play.world.tick == tick + 10
    assert play.config.ship.thrust_px_per_s2 == 300.0


def test_a_new_world_setting_waits_for_the_next_game_and_r_starts_it(window, play, toml,
                                                                     game) -> None:
    frames(play, 2)
    key(window, arcade.key.R)  # nothing waits: R does nothing
    assert window.current_view is play
    write(toml, "[ship]\nthrust_px_per_s2 = 420\n[world]\nwidth_px = 1600\n")
    frames(play, 2)
    assert play.config.world.width_px == 1280.0 and game.rules.width == 1280.0
    assert play.config.ship.thrust_px_per_s2 == 420.0  # the live part applies now
    assert [c.key for c in play.pending] == ["world.width_px"]
    notice = game.live.panel.notice_lines
    assert "world.width_px 1280 \u2192 1600  (next game)" in notice
    assert notice[-1] == "applies to the next game (R restarts now)"
    # Once the notice fades, the status line still says so.
    assert play.hud.values["status"] == "1 SETTING WAITS FOR THE NEXT GAME: R STARTS IT NOW"
    tick = play.world.tick
    frames(play, 20)
    assert play.world.tick == tick + 20
    key(window, arcade.key.R)
    new = window.current_view
    assert isinstance(new, PlayView) and new is not play
    assert new.config.world.width_px == 1600.0 and game.rules.width == 1600.0
    assert new.world.ship_x == 800.0
    assert play.saved is not None and play.saved.ok  # the old game's replay kept
    assert not new.pending and not new.rules_changed


def test_reverting_a_waiting_change_clears_it(window, play, toml) -> None:
    write(toml, "[ship]\nthrust_px_per_s2 = 300\n[world]\ntick_hz = 50\n")
    frames(play, 2)
    assert [c.key for c in play.pending] == ["world.tick_hz"]
    write(toml, "[ship]\nthrust_px_per_s2 = 300\n")
    frames(play, 2)
    assert play.pending == ()
    key(window, arcade.key.R)
    assert window.current_view is play


def test_the_restart_key_is_rebindable_and_checked_against_the_others(window, play,
                                                                      toml) -> None:
    write(toml, "[keys]\nfire = [\"R\"]\n")
    frames(play, 2)
    problems = play.game.live.panel.problem_lines
    assert any("bound to more than one action" in line and "keys.restart" in line
               for line in problems)
    write(toml, "[keys]\nfire = [\"R\"]\nrestart = [\"F5\"]\n[world]\nheight_px = 700\n")
    frames(play, 2)
    assert play.game.live.panel.problem_lines == []
    assert play.game.live.panel.notice_lines[-1] == "applies to the next game (F5 restarts now)"
    key(window, arcade.key.R)  # fire now
    frames(play, 1)
    assert play.masks[-1] & 8 and window.current_view is play
    key(window, arcade.key.R, "release")
    key(window, arcade.key.F5)
    assert window.current_view is not play
    assert window.current_view.config.world.height_px == 700.0


def test_a_long_list_of_changes_is_summarised(window, play, toml) -> None:
    write(toml, "[saucers]\nlurk_s = 1\nspeed_px_per_s = 100\nlarge_radius_px = 19\n"
          "small_radius_px = 9\nfire_interval_s = 1\nshot_speed_px_per_s = 300\n"
          "aim_error_deg = 1\n")
    frames(play, 2)
    notice = play.game.live.panel.notice_lines
    assert notice[0] == "my.toml reloaded" and notice[-1] == "+3 more"
    assert len(notice) == 6


def test_the_notice_fades_after_some_seconds(window, play, toml) -> None:
    write(toml, "[ship]\nthrust_px_per_s2 = 310\n")
    frames(play, 2)
    panel = play.game.live.panel
    assert panel.visible
    frames(play, round(NOTICE_S * 60))
    assert panel.visible
    frames(play, round(FADE_S * 60) + 2)
    assert not panel.visible and panel.notice_lines == []


def test_a_save_with_no_change_says_so(window, play, toml) -> None:
    write(toml, "[ship]\nthrust_px_per_s2 = 300.0\n")
    frames(play, 2)
    assert play.game.live.panel.notice_lines == ["my.toml reloaded: no setting changed"]
    assert play.recorder.changes == ()


def test_display_and_keys_apply_at_once_and_are_not_rule_changes(window, play, toml) -> None:
    write(toml, "[ship]\nthrust_px_per_s2 = 300\n[display]\nshow_fps = true\n"
          "[keys]\nthrust = [\"I\"]\n")
    frames(play, 2)
    frames(play, 2)
    assert play.hud.values["fps"].endswith("FPS")
    key(window, arcade.key.I)
    frames(play, 1)
    assert play.masks[-1] & 1
    assert not play.rules_changed and play.recorder.changes == ()


def test_a_tuned_game_is_recorded_with_its_changes_and_verifies_in_a_fresh_process(
        window, play, toml, tmp_path) -> None:
    key(window, arcade.key.UP)
    key(window, arcade.key.SPACE)
    frames(play, 40)
    write(toml, "[ship]\nthrust_px_per_s2 = 420\n[shots]\nspeed_px_per_s = 700\n")
    frames(play, 60)
    key(window, arcade.key.LEFT)
    write(toml, "[ship]\nthrust_px_per_s2 = 250\nturn_deg_per_s = 200\n"
          "[shots]\nspeed_px_per_s = 700\n")
    frames(play, 60)
    saved = play.save_replay()
    assert saved is not None and saved.ok
    replay = load_replay(saved.path)
    assert [c.tick for c in replay.config_changes] == [41, 101]
    assert replay.config_changes[1].settings == ("ship.thrust_px_per_s2=250.0",
                                                 "ship.turn_deg_per_s=200.0")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "asteroids", "verify", "--jobs", "1",
                          str(saved.path)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{replay.ticks} ticks" in out.stdout


def test_a_game_whose_rules_changed_enters_no_high_score_table(window, toml, tmp_path) -> None:
    def finish(live_change: bool) -> PlayView:
        config = load_config(toml)
        game = open_shell(window, config, seed=3, sound=False, record=True, profile=True,
                    live=LiveSpec((str(toml),), interval_s=0.0))
        view = PlayView(game, game.rules.next_seed())
        window.show_view(view)
        if live_change:
            write(toml, "[ship]\nthrust_px_per_s2 = 333\n")
        frames(view, 3)
        d = Draft(view.world)
        d.score, d.lives, d.game_over = 5000, 0, True
        view.world = d.freeze()
        view.game_over()
        return view

    plain = finish(False)
    assert plain.finished.slot is not None
    assert plain.game.profile.scores.best(plain.game.score_key()) == 5000
    tuned = finish(True)
    assert tuned.rules_changed and tuned.finished.slot is None
    assert "RULES CHANGED DURING THE GAME" in window.current_view.hud.values["note"]
    assert tuned.saved is not None and tuned.saved.ok
    assert load_replay(tuned.saved.path).config_changes


def test_the_title_restarts_on_new_rules(window, game, toml) -> None:
    game.rules.sync()
    title = TitleView(game)
    window.show_view(title)
    frames(title, 2)
    write(toml, "[world]\nwidth_px = 1000\nheight_px = 700\n")
    frames(title, 2)
    now = window.current_view
    assert isinstance(now, TitleView) and now is not title
    assert game.rules.width == 1000.0 and now.config.world.width_px == 1000.0
    frames(now, 3)
    game.nav.play()
    assert window.current_view.config.world.width_px == 1000.0


def test_a_preset_picked_on_the_title_keeps_its_rules(window, toml, tmp_path) -> None:
    from asteroids.config.rulesets import ruleset_choices

    choices = ruleset_choices([toml])
    config = choices.rulesets[choices.selected].config
    game = open_shell(window, config, seed=3, sound=False, rulesets=choices.rulesets,
                ruleset_index=choices.selected, live=LiveSpec((str(toml),), interval_s=0.0))
    labels = [r.label for r in game.rules.rulesets]
    game.select_ruleset(labels.index("classic"))
    game.rules.sync()
    view = PlayView(game, 5)
    window.show_view(view)
    write(toml, "[ship]\nthrust_px_per_s2 = 420\n[display]\nline_width_px = 3\n")
    frames(view, 2)
    assert view.config.ship.thrust_px_per_s2 == load_config("classic").ship.thrust_px_per_s2
    assert view.config.display.line_width_px == 3.0 and not view.rules_changed
    assert "this game runs the classic rules" in view.game.live.panel.notice_lines[-1]
    assert game.rules.rulesets[game.rules.player_index].config.ship.thrust_px_per_s2 == 420.0


def test_watch_live_takes_display_but_never_the_rules(window, toml, tmp_path) -> None:
    base = load_config(toml)
    replay = record_bot_game(base, 4, get_bot("spinner"), 400)
    path = save_replay(replay, tmp_path / "w.replay")
    replay = load_replay(path)
    game = open_shell(window, base, seed=1, sound=False,
                live=LiveSpec((str(toml),), rules=False, interval_s=0.0))
    view = ReplayView(game, replay)
    window.show_view(view)
    frames(view, 5)
    write(toml, "[ship]\nthrust_px_per_s2 = 999\n[display]\nshow_fps = true\n")
    frames(view, 3)
    notice = game.live.panel.notice_lines
    assert "ship.thrust_px_per_s2 300 \u2192 999  (next game)" in notice
    assert notice[-1] == "the rules are the replay's: not changed"
    assert view.config.ship.thrust_px_per_s2 == 300.0 and view.config.display.show_fps
    view.seek(replay.ticks)
    assert view.out_of_step is None and view.at_end


def test_watching_a_tuned_replay_plays_its_changes(window, config, tmp_path) -> None:
    from asteroids.config.live import apply_changes
    from asteroids.core import new_world, step
    from asteroids.replay import Recorder

    faster = apply_changes(config, ["ship.thrust_px_per_s2=600", "shots.speed_px_per_s=900"])
    recorder = Recorder(config, 2)
    world = new_world(config, 2)
    bot = get_bot("aimer")
    for t in range(500):
        used = config if t < 200 else faster
        mask = bot(world, used)
        world, _ = step(world, mask, used)
        recorder.add(mask, world, used)
    replay = recorder.finish(world)
    assert verify_replay(replay).ok
    game = open_shell(window, config, seed=1, sound=False)
    view = ReplayView(game, replay)
    window.show_view(view)
    frames(view, 500)
    assert view.at_end and view.out_of_step is None
    view.seek(150)
    view.seek(450)  # seeks replay the change too
    assert view.out_of_step is None
    assert view.config.shots.speed_px_per_s == 900.0


def test_with_live_losing_focus_does_not_pause(window, play) -> None:
    """The player edits the settings in another window and watches them take effect."""
    key(window, arcade.key.UP)
    play.on_deactivate()
    assert not play.paused and play.input.take() == 0
    tick = play.world.tick
    frames(play, 5)
    assert play.world.tick == tick + 5


def test_without_live_losing_focus_pauses(window, config) -> None:
    game = open_shell(window, config, seed=1, sound=False)
    view = PlayView(game, 1)
    window.show_view(view)
    view.on_deactivate()
    assert view.paused


def test_a_game_whose_replay_is_full_of_changes_keeps_its_rules(window, play, toml,
                                                                 monkeypatch) -> None:
    """Past the most changes a replay holds, an edit waits for the next game (the game goes
    on and its replay stays one the reader takes) instead of failing to record."""
    from asteroids.replay import record

    frames(play, 2)
    monkeypatch.setattr(record, "MAX_CHANGES", len(play.recorder.changes))  # full now
    write(toml, "[ship]\nthrust_px_per_s2 = 420\n")
    frames(play, 3)
    assert play.config.ship.thrust_px_per_s2 == 300.0 and play.recorder.changes == ()
    assert [c.key for c in play.pending] == ["ship.thrust_px_per_s2"]
    assert any("holds no more rule changes" in line
               for line in play.game.live.panel.notice_lines)
    monkeypatch.setattr(record, "MAX_CHANGES", 10_000)
    write(toml, "[ship]\nthrust_px_per_s2 = 380\n")
    frames(play, 3)
    assert play.config.ship.thrust_px_per_s2 == 380.0 and len(play.recorder.changes) == 1
