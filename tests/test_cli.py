"""The command line: commands, exit codes, and messages instead of tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import Config, load_config, render_default_toml

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("play", "config", "bench", "watch", "verify", "record", "screenshot", "scores",
            "balance", "persona")


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m asteroids ARGS`` in a fresh process, with this checkout importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-m", "asteroids", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=60)


# --- through a real process: exit codes and no tracebacks -----------------------------------

def test_python_m_asteroids_help_lists_every_command():
    out = run_cli("--help")
    assert out.returncode == 0, out.stderr
    for command in COMMANDS:
        assert command in out.stdout


def test_config_check_reports_every_bad_file_with_exit_2(tmp_path):
    files = {
        "range.toml": "[ship]\nthrust_px_per_s2 = -5\n",
        "syntax.toml": "[ship]\nthrust_px_per_s2 =\n",
        "unknown.toml": "[asteroids]\nmax_sped = 3\n",
        "cross.toml": "[asteroids]\nvertices_min = 12\nvertices_max = 10\n",
        "good.toml": "[ship]\nthrust_px_per_s2 = 5\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = run_cli("config", "check", *files, "missing.toml", cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    expected = [
        "range.toml:2:1: error[range]: ship.thrust_px_per_s2 must be a number in [0, 20000] "
        "(px/s^2); got -5 (int)",
        "syntax.toml:2:19: error[syntax]: invalid TOML: Invalid value",
        "unknown.toml:2:1: error[unknown-key]: asteroids.max_sped is not a known key; "
        "did you mean 'speed_max_px_per_s'?",
        "cross.toml:2:1: error[cross-field]: asteroids.vertices_min (12) must not be greater "
        "than asteroids.vertices_max (10)",
        "missing.toml: error[unreadable]: cannot read the file: No such file or directory "
        "(a bundled preset is given by name: default, classic, arena)",
        "5 errors. The game will not start with a broken config.",
    ]
    assert out.stderr.splitlines() == expected
    assert out.stdout.splitlines() == ["good.toml: ok"]


def test_config_check_presets_exit_0():
    out = run_cli("config", "check", "config/default.toml", "config/classic.toml",
                  "config/arena.toml")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""


def test_play_with_missing_config_is_one_paragraph_and_exit_2(tmp_path):
    out = run_cli("play", "--config", "nope.toml", cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.splitlines() == [
        "nope.toml: error[unreadable]: cannot read the file: No such file or directory "
        "(a bundled preset is given by name: default, classic, arena)",
        "1 error. The game will not start with a broken config.",
    ]


def test_bad_set_syntax_exit_2_without_traceback():
    out = run_cli("--set", "ship.thrust_px_per_s2")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("--set #1 (ship.thrust_px_per_s2): error[syntax]: expected "
                                 "KEY=VALUE")


# --- in process ------------------------------------------------------------------------------

def test_help_lists_every_command(capsys):
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    for command in COMMANDS:
        assert command in text


def test_config_show_without_options_is_default_toml(capsys):
    assert cli.main(["config", "show"]) == 0
    assert capsys.readouterr().out == render_default_toml()


@pytest.mark.parametrize("comments", [True, False])
def test_config_show_round_trips(tmp_path, capsys, comments):
    sets = ["ship.thrust_px_per_s2=123.5", "borders.ship=bounce", 'keys.fire=["F", "SPACE"]']
    argv = ["config", "show", "--config", str(ROOT / "config" / "arena.toml"),
            "--config", str(ROOT / "config" / "classic.toml")]
    argv += [a for s in sets for a in ("--set", s)]
    if not comments:
        argv.append("--no-comments")
    assert cli.main(argv) == 0
    shown = tmp_path / "shown.toml"
    shown.write_text(capsys.readouterr().out)
    expected = load_config(ROOT / "config" / "arena.toml", ROOT / "config" / "classic.toml",
                           overrides=sets)
    assert expected != Config()
    assert load_config(shown) == expected


def test_play_validates_then_says_the_window_is_not_built(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "asteroids.app.main", None)  # import fails like a missing file
    assert cli.main([]) == 0
    assert "the arcade window is not built yet" in capsys.readouterr().out
    assert cli.main(["play", "--set", "game.lives=0"]) == 2
    assert "error[range]: game.lives" in capsys.readouterr().err


PINNED: list[set[str]] = []
"""The ``pinned`` argument of each faked ``run_game`` call."""


def _fake_run_game(monkeypatch):
    calls = []
    PINNED.clear()
    fake = types.ModuleType("asteroids.app.main")
    fake.run_game = (  # type: ignore[attr-defined]
        lambda config, seed=None, record_to=None, rulesets=None, ruleset_index=0, pinned=():
        calls.append((config, seed, record_to, rulesets, ruleset_index))
        or PINNED.append(set(pinned)))
    monkeypatch.setitem(sys.modules, "asteroids.app.main", fake)
    return calls


@pytest.mark.parametrize(("argv", "pinned"), [
    ([], set()),
    (["--set", "display.fullscreen=true", "--set", "audio.volume=0.2"],
     {"display.fullscreen", "audio.volume"}),
    (["--set", "game.lives=5"], {"game.lives", "ruleset"}),
    (["--config", "classic"], {"ruleset"}),
])
def test_play_pins_what_the_command_line_set_over_the_remembered_settings(
        monkeypatch, argv, pinned):
    _fake_run_game(monkeypatch)
    assert cli.main(argv) == 0
    assert PINNED == [pinned]


def test_play_hands_config_and_seed_to_run_game(monkeypatch):
    calls = _fake_run_game(monkeypatch)
    assert cli.main(["--set", "game.lives=5", "--seed", "7"]) == 0
    [(config, seed, record_to, rulesets, index)] = calls
    assert config.game.lives == 5 and seed == 7 and record_to is None
    assert rulesets[index].config is config


def test_play_offers_the_given_file_and_every_preset_with_the_sets(monkeypatch, tmp_path):
    calls = _fake_run_game(monkeypatch)
    mine = tmp_path / "mine.toml"
    mine.write_text("[ship]\nthrust_px_per_s2 = 321.0\n")
    assert cli.main(["--config", str(mine), "--set", "game.lives=4"]) == 0
    [(config, _, _, rulesets, index)] = calls
    assert [r.label for r in rulesets] == [
        "mine.toml (+1 --set)", "default (+1 --set)", "classic (+1 --set)", "arena (+1 --set)"]
    assert index == 0 and config.ship.thrust_px_per_s2 == 321.0
    assert all(r.config.game.lives == 4 for r in rulesets)
    assert rulesets[2].config == load_config("classic", overrides=["game.lives=4"])


def test_play_notes_a_preset_the_sets_break_and_leaves_it_out(monkeypatch, capsys):
    calls = _fake_run_game(monkeypatch)
    assert cli.main(["--set", "world.width_px=400", "--set", "world.height_px=300"]) == 0
    [(_, _, _, rulesets, index)] = calls
    assert [r.label.split()[0] for r in rulesets] == ["default", "classic"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "preset 'arena' is left out" in err


def test_bench_runs_benchmarks_main_from_the_working_directory(tmp_path, monkeypatch):
    bench = tmp_path / "benchmarks"
    bench.mkdir()
    (bench / "__init__.py").write_text("")
    (bench / "zz_cli_demo.py").write_text(
        "CALLS = []\n\ndef main(argv):\n    CALLS.append(argv)\n    return 3\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in [m for m in sys.modules if m == "benchmarks" or m.startswith("benchmarks.")]:
        monkeypatch.delitem(sys.modules, name)
    assert cli.main(["bench", "zz_cli_demo", "--n", "5"]) == 3
    assert sys.modules["benchmarks.zz_cli_demo"].CALLS == [["--n", "5"]]
    for name in [m for m in sys.modules if m == "benchmarks" or m.startswith("benchmarks.")]:
        monkeypatch.delitem(sys.modules, name)


def test_bench_unknown_name_exit_2(capsys):
    assert cli.main(["bench", "no_such_benchmark_xyz"]) == 2
    err = capsys.readouterr().err
    assert "benchmarks live in the source checkout; run from there" in err
    assert cli.main(["bench", "../etc"]) == 2


def test_usage_errors_exit_2(capsys):
    assert cli.main(["confg"]) == 2
    assert "invalid choice: 'confg'" in capsys.readouterr().err
    assert cli.main(["play", "--seed", "x"]) == 2
    assert cli.main(["config"]) == 2
    assert cli.main(["config", "check"]) == 2
    capsys.readouterr()


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("asteroids ")


def test_bench_is_offered_only_where_the_benchmarks_are(monkeypatch, capsys):
    """An installed game has no benchmarks/: it does not list bench, and asking for it says
    why in one paragraph (exit 2); a source checkout lists it."""
    assert cli.main(["--help"]) == 0
    assert "bench" in capsys.readouterr().out
    monkeypatch.setattr(cli, "benchmarks_here", lambda: False)
    assert cli.main(["--help"]) == 0
    assert "bench" not in capsys.readouterr().out
    assert cli.main(["bench", "step"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "source checkout" in err and "Traceback" not in err


def test_record_on_a_full_disk_says_which_file_and_that_nothing_was_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    from asteroids import storage

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    out = tmp_path / "game.replay"
    out.write_bytes(b"an earlier game")
    monkeypatch.setattr(storage.os, "fsync", full)   # the disk fills during the write
    assert cli.main(["record", "--bot", "idle", "--seed", "1", "--ticks", "5",
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (f"asteroids: record: --out {out}: the replay was not written (No space "
                   "left on device); no file was left there, and an earlier file of that "
                   "name is unchanged\n")
    assert out.read_bytes() == b"an earlier game"
    assert [p.name for p in tmp_path.iterdir()] == ["game.replay"]
