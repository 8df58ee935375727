"""A later version of the game, made in a scratch copy of the package, keeps every old replay.

Two changes are made the way docs/adding-a-rule.md and docs/replay-format.md say to make
them, each in its own copy of ``asteroids/`` run in a subprocess:

- a new rule knob: one declaration in the schema (default 7, ``before`` 0) plus the rule
  that reads it (every rock is worth that many more points), and a new World field that
  the rule keeps (ticks played with the bonus on), declared with its neutral value;
- a rules change that is not a knob: ``RULES_VERSION`` raised to 2, shots 1.5 times as fast
  under rules version 2 and as they were under 1.

Each new version must verify every replay the current one reads (the archive, the goldens
and the demos), play the new rule in new games, play exactly the old game when the knob or
the rules version is set back, and leave custom-rules fingerprints alone; and this build,
meeting a replay the newer one wrote, must say which version wrote it and what to do.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import load_config
from asteroids.config.compat import rules_fingerprint
from asteroids.replay import get_bot, load_replay, record_bot_game
from tests.enemy_scratch import later_version

ROOT = Path(__file__).resolve().parents[1]


def _distinct(paths: list[Path]) -> list[Path]:
    """``paths`` less any file whose bytes an earlier one already has (an archive keeps
    copies of the goldens and demos a release shipped unchanged)."""
    seen: set[bytes] = set()
    out = []
    for path in paths:
        data = path.read_bytes()
        if data not in seen:
            seen.add(data)
            out.append(path)
    return out


REPLAYS = _distinct(sorted([*(ROOT / "tests" / "replays").rglob("*.replay"),
                            *(ROOT / "asteroids" / "replay" / "demos").glob("*.replay")]))
"""Every archived, golden and demo replay, each content once."""

pytestmark = pytest.mark.slow

KNOB = '''    bonus_points: int = knob(
        7, "points added to every rock broken (a knob of a later version)", lo=0, hi=1000,
        timing=STEP, tick=AS_IS, since="0.3.0", before=0,
    )
'''


def _later_version(tmp: Path, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of the package with ``(file, anchor, replacement)`` edits and version 0.3.0."""
    return later_version(tmp, edits)


def _run(pkg: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pkg), "ASTEROIDS_DATA_DIR": str(pkg / "data")}
    return subprocess.run([sys.executable, "-m", "asteroids", *args], capture_output=True,
                          text=True, env=env, cwd=pkg, timeout=240, check=False)


SAMPLE = [ROOT / "tests" / "replays" / "archive" / "0.1.0" / name for name in (
    "bots/classic-aimer.replay", "bots/arena-two-players.replay", "live/live-default.replay",
    "live/window-live.replay", "data/replays/2026-11-25T16-14-11Z-seed6-score110.replay")]
"""One replay of each kind 0.1.0 wrote: classic, a two-player arena match, a bot game and a
real window's game tuned with --live, and a real window's two-player match."""


def _verify_all(pkg: Path, replays: list[Path] = REPLAYS) -> None:
    out = _run(pkg, "verify", "--jobs", "2", "--json", *map(str, replays))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    files = json.loads(out.stdout)["files"]
    assert len(files) == len(replays) and all(f["status"] == "ok" for f in files)


def _record(pkg: Path, out: Path, *sets: str) -> None:
    args = ["record", "--bot", "aimer", "--seed", "5", "--ticks", "900", "--out", str(out)]
    for text in sets:
        args += ["--set", text]
    done = _run(pkg, *args)
    assert done.returncode == 0, done.stderr


def _verify_here(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = cli.main(["verify", str(path)])
    return code, capsys.readouterr().err


def test_a_new_knob_keeps_every_old_replay(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    pkg = _later_version(tmp_path, [
        ("config/rule_tables.py", "    heartbeat: HeartbeatConfig = field(",
         KNOB + "    heartbeat: HeartbeatConfig = field("),
        ("core/params.py", '("asteroid_points", lambda t, c: tuple(t["scoring.asteroid"])),',
         '("asteroid_points", lambda t, c: tuple(p + t["game.bonus_points"]\n'
         '                                            for p in t["scoring.asteroid"])),'),
        ("core/world.py", "    game_over: bool = per_game(False)\n",
         "    game_over: bool = per_game(False)\n    bonus_ticks: int = per_game(0, neutral=0)\n"),
        ("core/simulation.py", "    d.since_break += 1\n",
         '    d.since_break += 1\n    if p.per_tick["game.bonus_points"]:\n'
         '        d.bonus_ticks += 1\n'),
    ])
    _verify_all(pkg)

    shown = _run(pkg, "config", "show").stdout
    assert "bonus_points = 7\n" in shown
    assert "(new in 0.3.0; older replays play with 0)" in shown

    today = record_bot_game(load_config(), 5, get_bot("aimer"), 900)
    _record(pkg, tmp_path / "new.replay")
    _record(pkg, tmp_path / "as-before.replay", "game.bonus_points=0")
    new = _run(pkg, "verify", "--json", str(tmp_path / "new.replay"),
               str(tmp_path / "as-before.replay"))
    assert new.returncode == 0, new.stdout + new.stderr
    played, as_before = json.loads(new.stdout)["files"]
    assert played["final_score"] > today.final_score  # the new rule plays
    assert (as_before["final_hash"], as_before["final_score"]) == (today.final_hash,
                                                                   today.final_score)
    header = (tmp_path / "as-before.replay").read_text("utf-8")
    assert f'rules = "{today.rules}"' in header  # same rules, same table

    code, err = _verify_here(tmp_path / "new.replay", capsys)
    assert code == 2 and "Traceback" not in err
    assert "recorded by asteroids 0.3.0, a newer version, with settings this version does not " \
           "know" in err and "game.bonus_points" in err and "Update the game" in err


def test_a_new_rules_version_keeps_every_old_replay(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pkg = _later_version(tmp_path, [
        ("config/schema.py", "RULES_VERSION = 1\n", "RULES_VERSION = 2\n"),
        ("core/params.py", '    "shots.speed_px_per_s",\n', ''),
        ("core/params.py", "DERIVED_PARAMS: tuple[tuple[str, Callable[[Mapping[str, Any], Config], "
         "Any]], ...] = (\n",
         "DERIVED_PARAMS: tuple[tuple[str, Callable[[Mapping[str, Any], Config], Any]], ...] = (\n"
         '    ("shots_speed_px_per_tick", lambda t, c: (t["shots.speed_px_per_s"] * 1.5\n'
         '                                              if t["rules_version"] >= 2\n'
         '                                              else t["shots.speed_px_per_s"])),\n'),
    ])
    _verify_all(pkg, SAMPLE)  # the knob test above goes through all of them

    today = record_bot_game(load_config(), 5, get_bot("aimer"), 900)
    _record(pkg, tmp_path / "v2.replay")
    _record(pkg, tmp_path / "v1.replay", "rules_version=1")
    assert "\nrules_version = 2\n" in (tmp_path / "v2.replay").read_text("utf-8")
    new = _run(pkg, "verify", "--json", str(tmp_path / "v2.replay"), str(tmp_path / "v1.replay"))
    assert new.returncode == 0, new.stdout + new.stderr
    v2, v1 = json.loads(new.stdout)["files"]
    assert v2["final_hash"] != today.final_hash  # rules version 2 plays its change
    assert v1["final_hash"] == today.final_hash  # rules version 1 plays as today
    assert load_replay(tmp_path / "v1.replay").rules == today.rules
    assert rules_fingerprint(load_replay(tmp_path / "v1.replay").config) == today.rules

    code, err = _verify_here(tmp_path / "v2.replay", capsys)
    assert code == 2 and "Traceback" not in err
    assert "recorded by asteroids 0.3.0 under rules version 2" in err
    assert "plays rules versions 1 to 1. Update the game" in err
