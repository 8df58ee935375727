"""Watching a replay in the real (headless) window: the same ticks as the core, pause, single
step, speeds, seeks that restart from kept Worlds, the on-screen tick/time/score, END; and
every golden replay in tests/replays/ reaches its recorded final hash through the View."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import arcade
import pytest

from asteroids.app.replay_view import ReplayView, clock_text
from asteroids.app.router import open_shell
from asteroids.core import state_hash
from asteroids.replay import CHECKPOINT_EVERY, load_replay
from tests.app.replays import hashes, random_masks, record

pytestmark = pytest.mark.gl

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "replays").glob("*.replay"))
_ARCHIVE = Path(__file__).resolve().parents[1] / "replays" / "archive" / "0.1.0"
ARCHIVED = [_ARCHIVE / "data" / "replays" / "2026-11-25T16-11-55Z-seed11-score310.replay",
            _ARCHIVE / "data" / "replays" / "2026-11-25T16-14-11Z-seed6-score110.replay",
            _ARCHIVE / "live" / "window-live.replay"]
"""Games asteroids 0.1.0 saved from its real window: classic (format 1), a two-player match
and a game tuned with --live (format 2). Every later version must still play them."""

SEEK = 600
"""Ticks in the 10 s seek at the default 60 Hz."""


@pytest.fixture(scope="module")
def recorded(config, tmp_path_factory):
    """A replay long enough for seeks across several checkpoints, and its hash per tick."""
    n = 2 * CHECKPOINT_EVERY + 2 * SEEK + 37
    path = tmp_path_factory.mktemp("rv") / "game.replay"
    record(config, 31, random_masks(n, 5), path)
    replay = load_replay(path)
    assert replay.ticks == n, "the recorded game ended early; pick another seed"
    return replay, hashes(replay.config, replay.seed, replay.masks)


@pytest.fixture
def watch(window, recorded):
    replay, _ = recorded
    game = open_shell(window, replay.config, sound=False)
    view = ReplayView(game, replay)
    window.show_view(view)
    return view


def press(window, symbol):
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_events()


def frames(view, n, dt=1 / 60):
    for _ in range(n):
        view.on_update(dt)


def test_plays_the_recorded_ticks_with_tick_time_and_score_on_screen(window, watch, recorded):
    replay, want = recorded
    frames(watch, 90)
    assert watch.tick == 90 and watch.masks == list(replay.masks[:90])
    assert state_hash(watch.world) == want[90]
    status = watch.hud.values["status"]
    assert status.startswith(f"TICK 90 / {replay.ticks}   0:01.5 / ")
    assert watch.hud.values["score"] == f"{watch.world.score:02d}"
    assert watch.hud.values["title"] == ""
    watch.on_draw()
    assert watch.out_of_step is None


def test_pause_and_single_step(window, watch, recorded):
    _, want = recorded
    frames(watch, 10)
    press(window, arcade.key.SPACE)
    frames(watch, 30)
    assert watch.tick == 10 and watch.hud.values["title"] == "PAUSED"
    press(window, arcade.key.PERIOD)
    press(window, arcade.key.RIGHT)  # paused: Right is a single step too
    assert watch.tick == 12 and state_hash(watch.world) == want[12]
    assert watch.prev is watch.world  # a step shows the new tick, not a blend
    press(window, arcade.key.P)
    frames(watch, 3)
    assert watch.tick == 15 and watch.hud.values["title"] == ""


def test_speeds_from_number_keys_and_plus_minus(window, watch, recorded):
    _, want = recorded
    for symbol, speed in ((arcade.key.KEY_4, 8), (arcade.key.KEY_3, 4), (arcade.key.KEY_2, 2)):
        press(window, symbol)
        start = watch.tick
        frames(watch, 10)
        assert watch.tick - start == 10 * speed
        assert watch.hud.values["status"].endswith(f"{speed}X")
    press(window, arcade.key.PLUS)
    assert watch.speed == 4
    press(window, arcade.key.MINUS)
    press(window, arcade.key.MINUS)
    press(window, arcade.key.MINUS)
    assert watch.speed == 1
    assert state_hash(watch.world) == want[watch.tick]


def test_seeks_land_on_the_cores_state_and_restart_from_kept_worlds(window, watch, recorded):
    replay, want = recorded
    press(window, arcade.key.RIGHT)                      # +10 s while playing
    assert watch.tick == SEEK and state_hash(watch.world) == want[SEEK]
    press(window, arcade.key.PAGEUP)
    assert watch.tick == 2 * SEEK and state_hash(watch.world) == want[2 * SEEK]
    frames(watch, 7)
    kept = sorted(watch.kept)
    assert kept[0] == 0 and all(t % CHECKPOINT_EVERY == 0 for t in kept) and len(kept) >= 3
    at = watch.tick
    before = watch.seeks
    press(window, arcade.key.LEFT)                       # back 10 s: from a kept World
    assert watch.tick == at - SEEK and state_hash(watch.world) == want[at - SEEK]
    assert watch.seeks - before < CHECKPOINT_EVERY, "seeking back replayed from further back"
    press(window, arcade.key.PAGEDOWN)
    assert watch.tick == at - 2 * SEEK and state_hash(watch.world) == want[at - 2 * SEEK]
    press(window, arcade.key.HOME)
    assert watch.tick == 0 and state_hash(watch.world) == want[0]
    frames(watch, 5)                                     # plays on normally after a seek
    assert state_hash(watch.world) == want[5]


def test_a_seek_back_costs_the_distance_from_the_kept_world_not_from_tick_0(window, watch,
                                                                            recorded):
    replay, want = recorded
    press(window, arcade.key.END)                        # passes (and keeps) every checkpoint
    assert set(range(0, replay.ticks + 1, CHECKPOINT_EVERY)) <= set(watch.kept)
    before = watch.seeks
    target = 2 * CHECKPOINT_EVERY + 50
    watch.seek(target)
    assert watch.seeks - before == 50
    assert state_hash(watch.world) == want[target]
    before = watch.seeks
    watch.seek(target + 20)                              # forward: from where it is
    assert watch.seeks - before == 20 and state_hash(watch.world) == want[target + 20]


def test_end_shows_END_stops_and_space_plays_again(window, watch, recorded):
    replay, want = recorded
    press(window, arcade.key.END)
    assert watch.at_end and state_hash(watch.world) == replay.final_hash == want[-1]
    frames(watch, 5)
    assert watch.tick == replay.ticks and watch.hud.values["title"] == "END"
    assert watch.out_of_step is None
    press(window, arcade.key.RIGHT)                      # nothing past the end
    assert watch.tick == replay.ticks
    press(window, arcade.key.SPACE)
    assert watch.tick == 0 and not watch.paused
    frames(watch, 2)
    assert watch.tick == 2


def test_a_replay_that_no_longer_matches_says_so(window, recorded):
    replay, _ = recorded
    first = next(t for t, _ in replay.checkpoints if t > 0)
    bad = dataclasses.replace(replay, checkpoints=tuple(
        (t, "0" * 32 if t == first else h) for t, h in replay.checkpoints))
    view = ReplayView(open_shell(window, replay.config, sound=False), bad, speed=8)
    window.show_view(view)
    frames(view, first // 8 + 2)
    assert view.out_of_step == first
    assert f"TICK {first}" in view.hud.values["note"]


def test_clock_text():
    assert clock_text(0, 60.0) == "0:00.0"
    assert clock_text(37_500, 62.5) == "10:00.0"
    assert clock_text(59, 60.0) == "0:00.9"


def test_a_bad_speed_is_refused(window, recorded):
    with pytest.raises(ValueError, match="speed"):
        ReplayView(open_shell(window, recorded[0].config, sound=False), recorded[0], speed=3)


@pytest.mark.skipif(not GOLDEN, reason="no golden replays in tests/replays/ yet")
@pytest.mark.parametrize("path", GOLDEN + ARCHIVED, ids=lambda p: p.name)
def test_golden_replay_through_the_view_reaches_its_final_hash(window, path):
    """Issue 9 item 6, the View half: the window plays each golden game to the same end
    (issue 12: the two-player golden in the same viewer, through the replay's Play)."""
    replay = load_replay(path)
    view = ReplayView(open_shell(window, replay.config, sound=False), replay, speed=8)
    window.show_view(view)
    frames_needed = replay.ticks // 8 + 2
    for i in range(frames_needed):
        view.on_update(1 / 60)
        if i % 200 == 0:
            view.on_draw()
    assert view.at_end and view.tick == replay.ticks
    assert view.masks == list(replay.masks)
    assert view.out_of_step is None, f"checkpoint at tick {view.out_of_step} differs"
    assert view.current_hash() == replay.final_hash
