"""``asteroids play --live`` and ``asteroids watch --live`` on the command line (the window
itself is faked here; tests/app/test_live_gl.py drives the real one)."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.app.live import LiveSpec
from asteroids.config import load_config
from asteroids.replay import get_bot, record_bot_game, save_replay


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, object]]]:
    calls: list[tuple[str, dict[str, object]]] = []
    fake = types.ModuleType("asteroids.app.main")
    fake.run_game = lambda config, **kw: calls.append(("play", {"config": config, **kw}))  # type: ignore[attr-defined]
    fake.watch_replay = lambda replay, config, **kw: calls.append(  # type: ignore[attr-defined]
        ("watch", {"config": config, **kw}))
    monkeypatch.setitem(sys.modules, "asteroids.app.main", fake)
    return calls


@pytest.fixture
def toml(tmp_path: Path) -> Path:
    path = tmp_path / "my.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = 420\n")
    return path


def test_play_live_watches_the_config_files_with_the_sets_on_top(fake_app, toml) -> None:  # type: ignore[no-untyped-def]
    argv = ["play", "--config", "classic", "--config", str(toml), "--set",
            "ship.turn_deg_per_s=200", "--live"]
    assert cli.main(argv) == 0
    [(kind, call)] = fake_app
    assert kind == "play"
    assert call["live"] == LiveSpec(("classic", str(toml)), ("ship.turn_deg_per_s=200",),
                                    rules=True)
    config = call["config"]
    assert config.ship.thrust_px_per_s2 == 420.0 and config.world.tick_hz == 62.5


def test_play_without_live_passes_nothing_new(fake_app, toml) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["play", "--config", str(toml)]) == 0
    [(_, call)] = fake_app
    assert "live" not in call


def test_live_without_a_file_to_watch_is_one_line_and_exit_2(fake_app, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["play", "--live", "--set", "game.lives=5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("asteroids: play: --live watches the --config files")
    assert err.count("\n") == 1 and not fake_app


def test_a_broken_file_at_start_still_refuses_to_start(fake_app, toml, capsys) -> None:  # type: ignore[no-untyped-def]
    toml.write_text("[ship]\nthrust_px_per_s2 = -1\n")
    assert cli.main(["play", "--config", str(toml), "--live"]) == 2
    assert "error[range]" in capsys.readouterr().err and not fake_app


def test_watch_live_takes_only_display_sound_and_keys(fake_app, toml, tmp_path) -> None:  # type: ignore[no-untyped-def]
    replay = record_bot_game(load_config(), 1, get_bot("idle"), 30)
    path = save_replay(replay, tmp_path / "a.replay")
    assert cli.main(["watch", str(path), "--config", str(toml), "--live"]) == 0
    [(kind, call)] = fake_app
    assert kind == "watch" and call["live"] == LiveSpec((str(toml),), (), rules=False)


def test_help_mentions_live(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--live" in out and "next game" in out
