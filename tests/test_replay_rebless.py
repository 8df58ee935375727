"""``python -m asteroids.replay.rebless``: re-records from the manifest, says what changed,
leaves unchanged games alone, and ``--check`` writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from asteroids.replay import load_replay
from asteroids.replay.rebless import main

ROOT = Path(__file__).resolve().parents[1]

MANIFEST = """
[[replay]]
name = "a"
preset = "classic"
bot = "classic"
seed = {seed}
ticks = 120

[[replay]]
name = "b"
preset = "bounce"
bot = "classic-hyper"
seed = 2
ticks = 90
"""


def test_rebless_reports_new_unchanged_and_changed(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bounce.toml").write_text('[borders]\nship = "bounce"\n')
    (tmp_path / "manifest.toml").write_text(MANIFEST.format(seed=1))
    assert main(["--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a: new; 120 ticks" in out and "b: new; 90 ticks" in out
    assert load_replay(tmp_path / "b.replay").config.borders.ship == "bounce"
    stamp = (tmp_path / "a.replay").read_bytes()

    assert main(["--dir", str(tmp_path), "--check"]) == 0
    assert "0 changed" in capsys.readouterr().out

    (tmp_path / "manifest.toml").write_text(MANIFEST.format(seed=5))
    assert main(["--dir", str(tmp_path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "a: changed (final hash" in out and "b: unchanged" in out
    assert (tmp_path / "a.replay").read_bytes() == stamp  # --check wrote nothing

    assert main(["--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert load_replay(tmp_path / "a.replay").seed == 5
    assert "[a]" in (tmp_path / "coverage.toml").read_text()


@pytest.mark.slow
def test_verify_benchmark_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "verify", "--ticks", "200", "--files",
         "2", "--file-ticks", "100"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "## One classic bot game: 200 ticks re-simulated" in done.stdout
    assert "| 2 |" in done.stdout and "speed-up" in done.stdout
