"""Issue 39, the command line as a newcomer reads it: ``verify`` shows the error before the
line that points up to it, a file that is not a replay is told the current first line, and
``play --help`` lists the in-game keys from the game's own key tables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import KeysConfig
from asteroids.replay import FORMAT_VERSION

ROOT = Path(__file__).resolve().parents[1]


def _python(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with this checkout importable, stderr merged into stdout in the order
    written (as a terminal shows them)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, cwd=cwd, env=env, timeout=60)


def test_verify_a_missing_file_says_the_error_before_pointing_up_to_it(tmp_path: Path) -> None:
    (tmp_path / "junk.replay").write_text("hello\n")
    out = _python("-m", "asteroids", "verify", "missing.replay", "junk.replay", cwd=tmp_path)
    assert out.returncode == 2
    lines = out.stdout.splitlines()
    assert lines == [
        "asteroids: missing.replay: cannot read the file: No such file or directory.",
        "missing.replay: unusable (see the error above)",
        lines[2],
        "junk.replay: unusable (see the error above)",
        "2 files: 0 ok, 0 mismatch, 2 unusable",
    ], out.stdout
    assert lines[2].startswith("asteroids: junk.replay: this is not an asteroids replay")


def test_a_file_that_is_not_a_replay_is_told_the_current_first_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    assert cli.main(["verify", str(tmp_path / "notes.txt")]) == 2
    err = capsys.readouterr().err
    assert f"a replay's first line is 'asteroids-replay {FORMAT_VERSION}'" in err
    assert "formats 1 and 2 are read too" in err
    (tmp_path / "damaged.replay").write_text("asteroids-replay x\n")
    assert cli.main(["verify", str(tmp_path / "damaged.replay")]) == 2
    assert f"e.g. 'asteroids-replay {FORMAT_VERSION}'" in capsys.readouterr().err


def test_play_help_lists_the_in_game_keys_from_the_key_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--record FILE" in out                          # the options are still there
    keys = out[out.index("in-game keys"):]
    for action in ("thrust", "turn left", "turn right", "fire", "hyperspace", "shield",
                   "pause / resume"):
        names = " / ".join(getattr(KeysConfig(), action.split()[-1].replace("resume", "pause")))
        assert f"  {names:<16} {action}" in keys, (action, keys)
    assert "Q TO QUIT TO TITLE" in keys                    # the pause screen's own line
    assert "F11 or ALT+ENTER fullscreen" in keys and "M mute" in keys


def test_the_key_list_follows_the_bindings_and_parsing_loads_no_arcade() -> None:
    from asteroids.app.keys_help import play_keys_help

    assert "  F                fire" in play_keys_help(KeysConfig(fire=("F",)))
    code = ("import sys; from asteroids import cli_parser; "
            "cli_parser.build_parser().parse_args(['play']); sys.exit('arcade' in sys.modules)")
    done = _python("-c", code, cwd=ROOT)
    assert done.returncode == 0, done.stdout
