"""Our own OpenAL driver (issue 37): short buffers on one source, OpenAL Soft asked for short
periods.

The configuration tests are pure. The others open OpenAL Soft's wave writer (``libopenal1``;
skipped, with what to install, where it is missing: ``.ci/run`` installs it), which writes
what it mixes to a file in real time, in a fresh process each (OpenAL Soft reads its
configuration once per process).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from asteroids.app import audio_driver, audio_openal, synth
from asteroids.app.audio import SWITCH_INTERVAL_S, SoundBank
from asteroids.app.audio_openal import period_config
from asteroids.app.sound_capture import has_openal_soft, read_wav
from asteroids.core import events as ev

R = synth.RATE

needs_openal = pytest.mark.skipif(not has_openal_soft(), reason="OpenAL Soft is not "
                                  "installed (apt-get install libopenal1)")


def env_with(tmp_path: Path, conf: str | None = None, rc: str | None = None) -> dict[str, str]:
    """A process environment whose OpenAL Soft configuration is only what the test gives:
    ``conf`` as ``ALSOFT_CONF``, ``rc`` as the player's ``~/.alsoftrc``."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "XDG_CONFIG_DIRS": str(tmp_path / "none"),
           "XDG_CONFIG_HOME": str(home / ".config")}
    if conf is not None:
        (tmp_path / "alsoft.conf").write_text(conf)
        env["ALSOFT_CONF"] = str(tmp_path / "alsoft.conf")
    if rc is not None:
        (home / ".alsoftrc").write_text(rc)
    return env


def test_openal_soft_is_asked_for_5_ms_periods_at_the_rate_it_will_mix_at(tmp_path):
    text = period_config(env_with(tmp_path))
    assert text is not None and "period_size = 240\nperiods = 3\n" in text  # 48 kHz
    text = period_config(env_with(tmp_path, "[general]\nfrequency = 22050\n"))
    assert text is not None and "period_size = 112\n" in text  # 110.25, a multiple of 4
    assert text.startswith("[general]\nfrequency = 22050\n")  # theirs first, all of it


def test_the_players_own_period_wins(tmp_path):
    def fresh(name: str) -> Path:
        (tmp_path / name).mkdir()
        return tmp_path / name

    assert period_config(env_with(fresh("a"), "[general]\nperiod_size = 1024\n")) is None
    assert period_config(env_with(fresh("b"), rc="period_size=512\n")) is None  # no section
    # a period set for one backend only is not the general one
    assert period_config(env_with(fresh("c"), "[pulse]\nperiod_size = 512\n")) is not None
    assert period_config(env_with(fresh("d"), "# period_size = 512\n")) is not None


def test_a_hostile_configuration_is_read_bounded_and_only_from_a_regular_file(tmp_path):
    """Their ``ALSOFT_CONF`` is carried over whole or left alone (we then ask nothing): a
    folder, a named pipe (never waited on) or a file over the bound is not read."""
    env = env_with(tmp_path)
    env["ALSOFT_CONF"] = str(tmp_path)  # a folder
    assert period_config(env) is None
    os.mkfifo(tmp_path / "pipe")
    env["ALSOFT_CONF"] = str(tmp_path / "pipe")
    assert period_config(env) is None
    huge = "frequency = 22050\n" + "#" * audio_openal.MAX_CONF_BYTES
    assert period_config(env_with(tmp_path, huge)) is None
    bound = "frequency = 22050\n" + "#" * (audio_openal.MAX_CONF_BYTES - 19)
    assert "period_size = 112" in period_config(env_with(tmp_path, bound))  # just under it
    assert "period_size = 240" in period_config(env_with(tmp_path, "frequency = 1e9\n"))
    (tmp_path / "home" / ".alsoftrc").write_text("period_size = 9\n" + "#" * (1 << 17))
    assert period_config(env_with(tmp_path)) is not None  # theirs unreadable: not theirs


def test_a_source_that_ran_dry_is_told_to_the_mixer_which_anchors_afresh(monkeypatch,
                                                                          config):
    """The driver sees its source run dry itself; the mixer's own guess (a block asked for
    after what was delivered ran out) is off for it: the two would count one underrun twice."""

    class DryStream:  # what the bank needs of a driver of ours
        underruns, queue_s, period_s = 0, 0.025, 0.005

        def __init__(self, render, rate):
            self.render = render

        def describe(self) -> str:
            return "openal driver (test)"

        def grow(self) -> float:
            return self.queue_s

        def pause(self) -> None:
            pass

        def delete(self) -> None:
            pass

    monkeypatch.setattr(audio_driver, "_ours", [("openal",)])
    monkeypatch.setattr(audio_openal, "available", lambda: True)
    monkeypatch.setattr(audio_openal, "OpenALStream", DryStream)
    before = sys.getswitchinterval()
    bank = SoundBank(config)
    try:
        stream, clock_map = bank._player, bank.mixer.clock_map
        assert sys.getswitchinterval() == min(before, SWITCH_INTERVAL_S)  # its thread waits less
        assert clock_map.underrun_slack == float("inf")
        bank.on_event(ev.Heartbeat(1, 9), at=0.0)
        stream.render(110)
        assert clock_map.offset is not None and bank.mixer.underruns == 0
        stream.underruns = 1  # the feeder found the source stopped and started it again
        stream.render(110)
        assert bank.mixer.underruns == 1 and clock_map.offset is None
        stream.render(110)
        assert bank.mixer.underruns == 1  # told once
    finally:
        bank.close()
    assert sys.getswitchinterval() == before


def run_fresh(code: str, tmp_path: Path, conf: str) -> str:
    """Run ``code`` in a fresh process with OpenAL Soft writing to ``tmp_path/out.wav``."""
    (tmp_path / "alsoft.conf").write_text(conf.format(out=tmp_path / "out.wav"))
    env = {**os.environ, "ALSOFT_CONF": str(tmp_path / "alsoft.conf"),
           "ARCADE_HEADLESS": "1"}
    env.pop("ARCADE_SOUND_BACKENDS", None)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


WAVE = "[general]\ndrivers = wave\nfrequency = 22050\nchannels = mono\n[wave]\nfile = {out}\n"


@needs_openal
def test_the_short_period_takes_effect_and_the_bank_says_what_it_got(tmp_path):
    line = run_fresh("""
        from asteroids.app import audio_driver
        audio_driver.choose("openal")
        import arcade
        from asteroids.app.audio import SWITCH_INTERVAL_S, SoundBank
        from asteroids.app.audio_service import AudioService
        from asteroids.config import Config
        audio = AudioService(Config())
        bank = audio.bank
        print(bank.driver, bank._player.period_frames, round(bank._player.period_s * 1000, 1),
              audio_driver.current(), audio.state_text(), "|", bank.report)
        bank.close()
        """, tmp_path, WAVE)
    assert line.startswith("openal 112 5.1 silent ON (OPENAL 50 MS) | sound: openal driver "
                           "(OpenAL Soft, ours), 5.1 ms periods, 25 ms queue, each cue")
    # pyglet held no device of its own ("silent"): two would both have written the file


@needs_openal
def test_without_openal_the_bank_falls_back_to_pyglet_and_says_why(monkeypatch, config):
    monkeypatch.setattr(audio_driver, "_ours", [("openal",)])
    monkeypatch.setattr(audio_openal, "_library_path", lambda: None)
    bank = SoundBank(config, allow_silent=True)
    try:
        assert bank.available and "ours" not in bank.report
        assert bank.report.endswith(" (openal: OpenAL is not installed)")
    finally:
        bank.close()


@needs_openal
@pytest.mark.slow  # 2.5 s of real time through OpenAL Soft's wave writer
def test_a_1_s_game_stall_leaves_no_gap_through_our_openal_driver(tmp_path):
    """The game thread spins for 1 s holding the interpreter (a pure-Python busy loop: the
    feeder gets it only at Python's switch interval) while the thrust loops; what OpenAL Soft
    wrote has no silence longer than the latency the bank states."""
    line = run_fresh("""
        import sys, time
        from asteroids.app import audio_driver
        audio_driver.choose("openal")
        from asteroids.app.audio import SWITCH_INTERVAL_S, SoundBank
        from asteroids.config import Config
        bank = SoundBank(Config())
        bank.loop("thrust", True)
        time.sleep(0.5)
        start = time.monotonic()
        while time.monotonic() - start < 1.0:
            sum(range(200))
        time.sleep(0.5)
        bank.loop("thrust", False)
        time.sleep(0.2)
        print(bank.latency_ms, bank._player.underruns, bank.mixer.underruns)
        bank.close()
        assert sys.getswitchinterval() == 0.005  # put back
        """, tmp_path, WAVE)
    latency_ms, driver_underruns, mixer_underruns = map(int, line.split())
    pcm, rate = read_wav(tmp_path / "out.wav")
    assert rate == R
    loud = np.flatnonzero(np.abs(pcm) > 1e-4)
    played = pcm[loud[0]: loud[0] + round(1.9 * R)]  # the thrust, stall and all
    zero = np.concatenate(([0], (np.abs(played) <= 1e-4).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(zero))
    longest = int((edges[1::2] - edges[::2]).max()) if edges.size else 0
    assert played.size > R and longest < latency_ms / 1000 * R
    assert driver_underruns <= 1 and mixer_underruns == driver_underruns
