"""``asteroids sounds --capture``: a bot's game through OpenAL Soft's wave writer, measured
(issue 37, item 5). Skipped where OpenAL Soft (libopenal1) is missing."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from asteroids.app import sound_capture
from asteroids.cli import main

needs_openal = pytest.mark.skipif(not sound_capture.has_openal_soft(),
                                  reason="OpenAL Soft (libopenal1) is not installed")


@needs_openal
@pytest.mark.slow  # 5 s of real time through the driver
def test_a_short_capture_reports_lag_and_heartbeat_intervals(tmp_path):
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["sounds", "--capture", "5", "--out", str(tmp_path / "c.wav")])
    assert code == 0, stderr.getvalue()
    report = json.loads(stdout.getvalue().splitlines()[-1])
    assert report["driver"] == "openal"
    assert report["heartbeats_found"] >= 8 and report["heartbeats_cued"] >= report[
        "heartbeats_found"]
    lag, err = report["cue_to_sound_lag"], report["heartbeat_interval_error"]
    assert set(lag) == {"n", "median_ms", "min_ms", "max_ms", "spread_ms"}
    assert 0 < lag["median_ms"] < 200
    assert err["n"] == report["heartbeats_found"] - 1
    assert err["median_ms"] <= 3.0  # the bar (its goal is a median <= 1 ms)


def test_without_openal_soft_the_option_says_so_and_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(sound_capture, "has_openal_soft", lambda: False)
    assert main(["sounds", "--capture", "5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "libopenal1" in err[0]
