"""``asteroids watch FILE`` and ``asteroids play --record FILE`` from the command line."""

from __future__ import annotations

import sys
import types

from asteroids import cli
from asteroids.app.main import EXIT_NO_DISPLAY
from tests.app.replays import random_masks, record


def test_watch_a_bad_file_is_one_paragraph_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "junk.replay"
    bad.write_bytes(b"\x89PNG not a replay at all")
    assert cli.main(["watch", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "junk.replay" in err and "Traceback" not in err
    assert cli.main(["watch", str(tmp_path / "missing.replay")]) == 2
    assert "missing.replay" in capsys.readouterr().err


def test_watch_without_a_display_gives_run_games_one_line(config, tmp_path, capsys):
    path = tmp_path / "g.replay"
    record(config, 1, random_masks(30, 1), path)
    assert cli.main(["watch", str(path), "--speed", "4"]) == EXIT_NO_DISPLAY
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("asteroids: ") and "ARCADE_HEADLESS" in err


def test_watch_refuses_other_speeds(tmp_path, capsys):
    assert cli.main(["watch", str(tmp_path / "x.replay"), "--speed", "3"]) == 2
    assert "--speed" in capsys.readouterr().err


def test_play_record_hands_the_file_to_run_game(monkeypatch, tmp_path, capsys):
    calls = []
    fake = types.ModuleType("asteroids.app.main")
    fake.run_game = (  # type: ignore[attr-defined]
        lambda config, seed=None, record_to=None, **rules: calls.append((seed, record_to)))
    monkeypatch.setitem(sys.modules, "asteroids.app.main", fake)
    target = tmp_path / "best.replay"
    assert cli.main(["play", "--seed", "3", "--record", str(target)]) == 0
    assert calls == [(3, str(target))]
    assert cli.main(["play", "--record", str(tmp_path / "no" / "such" / "x.replay")]) == 2
    assert "does not exist" in capsys.readouterr().err and len(calls) == 1


WATCH_WINDOW_SCRIPT = """
import json, sys
from asteroids.app.main import watch_replay
from asteroids.app.window import GameWindow
from asteroids.replay import load_replay
replay = load_replay(sys.argv[1])
w = GameWindow(replay.config, replay=replay, pinned=set(sys.argv[2:]))
d = w.game.config.display
print(json.dumps([d.palette, d.monitor.strength, d.hud_scale, type(w.current_view).__name__]))
w.on_resize(1000, 600)
w.close()
"""


def test_watch_shows_the_replay_with_the_remembered_look_and_saves_nothing(config, tmp_path,
                                                                           data_dir):
    """``asteroids watch`` takes the palette, monitor look and HUD scale the player chose
    (a --set still wins), and never writes the settings file."""
    import json
    import os
    import subprocess

    from asteroids.profile import Settings

    path = tmp_path / "g.replay"
    record(config, 1, random_masks(30, 1), path)
    Settings(palette="amber", monitor_strength=0.5, hud_scale=1.5).save()
    before = (data_dir / "settings.json").read_bytes()
    env = {**os.environ, "ASTEROIDS_DATA_DIR": str(data_dir), "ARCADE_HEADLESS": "1",
           "ARCADE_SOUND_BACKENDS": "silent"}

    def run(*pinned: str) -> list:
        out = subprocess.run([sys.executable, "-c", WATCH_WINDOW_SCRIPT, str(path), *pinned],
                             env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    assert run() == ["amber", 0.5, 1.5, "ReplayView"]
    assert run("display.palette") == [config.display.palette, 0.5, 1.5, "ReplayView"]
    assert (data_dir / "settings.json").read_bytes() == before
