"""Our own audio driver (issue 37): a miniaudio device that calls back for each period and
pulls exactly those frames from the mixer.

The fast tests drive a stand-in for the ``miniaudio`` package (its device calls back when
the test says); the slow ones play through the real package into a PulseAudio null sink of
their own and are skipped, with what to install, where either is missing (``.ci/run``
installs both).
"""

from __future__ import annotations

import enum
import os
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

from asteroids.app import audio_driver, audio_miniaudio, sound_capture, synth
from asteroids.app.audio import SoundBank
from asteroids.app.audio_clock import UNDERRUN_SLACK_S, WINDOW_S
from asteroids.app.audio_miniaudio import PULSE_ENV, STEADY, CallbackStream, NoOutput
from asteroids.core import events as ev

R = synth.RATE


class FakeClock:
    """Wall-clock seconds that the test sets."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def fake_miniaudio(backend: str = "PulseAudio", fail: bool = False) -> types.ModuleType:
    """A stand-in for the ``miniaudio`` package: its device keeps the configuration it was
    opened with and the generator it was started with (``pull``), which the test drives."""
    module = types.ModuleType("miniaudio")

    class MiniaudioError(Exception):
        pass

    class Backend(enum.Enum):
        PULSEAUDIO = 7
        ALSA = 8
        JACK = 9

    class SampleFormat(enum.Enum):
        SIGNED16 = 2

    class ThreadPriority(enum.Enum):
        HIGHEST = 3
        REALTIME = 4

    class PlaybackDevice:
        opened: list[PlaybackDevice] = []

        def __init__(self, **config: object) -> None:
            if fail:
                raise MiniaudioError("failed to init device", -401)
            self.config = config
            self.pulse_env = os.environ.get(PULSE_ENV)
            self.backend = backend
            self.pull = None
            self.closed = False
            PlaybackDevice.opened.append(self)

        def start(self, pull: object) -> None:
            self.pull = pull

        def stop(self) -> None:
            self.pull = None

        def close(self) -> None:
            self.closed = True

    module.MiniaudioError = MiniaudioError  # type: ignore[attr-defined]
    module.Backend = Backend  # type: ignore[attr-defined]
    module.SampleFormat = SampleFormat  # type: ignore[attr-defined]
    module.ThreadPriority = ThreadPriority  # type: ignore[attr-defined]
    module.PlaybackDevice = PlaybackDevice  # type: ignore[attr-defined]
    return module


@pytest.fixture
def fake(monkeypatch):
    module = fake_miniaudio()
    monkeypatch.setitem(sys.modules, "miniaudio", module)
    monkeypatch.delenv(PULSE_ENV, raising=False)
    return module


def steady(stream: CallbackStream, clock: FakeClock, frames: int = 220) -> None:
    """Call back every period until the stream asks the mixer (``STEADY`` in a row; the
    last call is the mixer's first block)."""
    device = stream.device
    while not stream.steady:
        clock.now += stream.period_ms / 1000.0
        device.pull.send(frames)


def test_the_device_plays_silence_until_it_calls_back_steadily(fake):
    clock, asked = FakeClock(), []
    stream = CallbackStream(lambda n: asked.append(n) or b"\x01\x00" * n, R, clock=clock)
    pull = stream.device.pull
    assert pull.send(220) == bytes(440)  # PulseAudio: one call, then nothing for ~1 s
    clock.now += 0.9
    for _ in range(STEADY):
        clock.now += 0.01
        assert pull.send(220) == bytes(440)
    assert asked == [] and not stream.steady
    clock.now += 0.01
    assert pull.send(220) == b"\x01\x00" * 220  # steady: the mixer is asked from now on
    assert stream.steady and asked == [220]


def test_each_callback_pulls_exactly_the_frames_the_device_asks_for(fake):
    clock, asked = FakeClock(), []
    stream = CallbackStream(lambda n: asked.append(n) or bytes(2 * n), R, clock=clock)
    steady(stream, clock)
    for frames in (220, 1, 441, 220):
        assert len(stream.device.pull.send(frames)) == 2 * frames
    assert asked == [220, 220, 1, 441, 220]
    config = stream.device.config
    assert config["nchannels"] == 1 and config["sample_rate"] == R
    assert config["buffersize_msec"] == audio_miniaudio.PERIOD_MS == 10
    assert "null" not in str(config["backends"]).lower()
    assert config["thread_prio"].name == "REALTIME"  # where allowed: ignored elsewhere


def test_a_render_that_raises_plays_silence_and_the_stream_goes_on(fake):
    clock = FakeClock()
    calls = []

    def render(n: int) -> bytes:
        calls.append(n)
        if len(calls) == 2:
            raise ValueError("boom")
        return b"\x02\x00" * n

    stream = CallbackStream(render, R, clock=clock)
    steady(stream, clock)
    pull = stream.device.pull
    assert pull.send(10) == bytes(20) and stream.error == "ValueError: boom"
    assert pull.send(10) == b"\x02\x00" * 10


def test_pulseaudio_is_asked_for_the_queue_while_the_stream_connects(fake, monkeypatch):
    """miniaudio 0.11 asks PulseAudio for one period (5 ms buffered here): the variable libpulse
    reads when a stream connects asks for ``QUEUE_MS``, and is not left for child processes."""
    stream = CallbackStream(lambda n: bytes(2 * n), R)
    assert stream.device.pulse_env == str(audio_miniaudio.QUEUE_MS)
    assert PULSE_ENV not in os.environ
    monkeypatch.setenv(PULSE_ENV, "80")  # the player's own setting wins, and stays
    stream = CallbackStream(lambda n: bytes(2 * n), R)
    assert stream.device.pulse_env == "80" and os.environ[PULSE_ENV] == "80"


def test_no_output_but_the_null_backend_is_no_output(monkeypatch):
    monkeypatch.setitem(sys.modules, "miniaudio", fake_miniaudio(backend="Null"))
    with pytest.raises(NoOutput, match="no audio output"):
        CallbackStream(lambda n: bytes(2 * n), R)
    assert sys.modules["miniaudio"].PlaybackDevice.opened[-1].closed
    monkeypatch.setitem(sys.modules, "miniaudio", fake_miniaudio(fail=True))
    with pytest.raises(NoOutput, match="no audio output"):
        CallbackStream(lambda n: bytes(2 * n), R)


def test_the_bank_plays_through_the_callback_driver_and_says_so(fake, monkeypatch, config):
    monkeypatch.setattr(audio_driver, "_ours", [("miniaudio",)])
    bank = SoundBank(config)
    try:
        assert bank.available and bank.notice is None
        assert bank.report.startswith("sound: miniaudio driver (PulseAudio), 10 ms periods, "
                                      "30 ms queue, each cue on its tick's sample, 20 ms")
        assert bank.queue_s == 0.03
        slack = bank.mixer.clock_map.underrun_slack
        assert slack == pytest.approx(UNDERRUN_SLACK_S + audio_miniaudio.held_s())
        assert bank.mixer.clock_map.lead_window_s == audio_miniaudio.LEAD_WINDOW_S
        clock = FakeClock()
        bank._player._clock = clock
        steady(bank._player, clock)
        bank.on_event(ev.Heartbeat(1, 9))
        pcm = np.frombuffer(bank._player.device.pull.send(2048), dtype=np.int16)
        assert pcm.size == 2048 and np.abs(pcm).max() > 0  # the beat, through the callback
    finally:
        bank.close()
    assert fake.PlaybackDevice.opened[-1].closed


def test_the_options_screen_says_which_driver_plays_and_its_latency(fake, monkeypatch,
                                                                     config):
    from asteroids.app.audio_service import AudioService

    monkeypatch.setattr(audio_driver, "_ours", [("miniaudio",)])
    audio = AudioService(config)
    try:
        assert audio.state_text() == "ON (MINIAUDIO 50 MS)"  # 30 ms queue + 20 ms room
        audio.set_muted(True)
        assert audio.state_text() == "OFF"
    finally:
        audio.bank.close()


def test_without_the_package_the_bank_falls_back_and_says_why(monkeypatch, config):
    monkeypatch.setattr(audio_driver, "_ours", [("miniaudio",)])
    monkeypatch.setattr(audio_miniaudio, "available", lambda: False)
    bank = SoundBank(config, allow_silent=True)  # pyglet's driver, silent where no device
    try:
        assert bank.available
        assert not bank.report.startswith("sound: miniaudio")
        assert bank.report.endswith("(miniaudio is not installed: pip install "
                                    "'asteroids[audio]' for a shorter lag)")
        assert bank.driver == bank.report.split()[1] and bank.driver != "miniaudio"
    finally:
        bank.close()


def test_without_an_output_the_bank_falls_back_and_says_why(monkeypatch, config):
    monkeypatch.setitem(sys.modules, "miniaudio", fake_miniaudio(fail=True))
    monkeypatch.setattr(audio_driver, "_ours", [("miniaudio",)])
    bank = SoundBank(config, allow_silent=True)
    try:
        assert bank.available and "(miniaudio: miniaudio found no audio output" in bank.report
        assert bank.mixer.clock_map.underrun_slack == UNDERRUN_SLACK_S  # pyglet's queue
        assert bank.mixer.clock_map.lead_window_s == WINDOW_S
    finally:
        bank.close()


def test_each_choice_tries_its_own_drivers_first_and_pyglet_holds_none_meanwhile():
    """In fresh processes (the choice is made once, before arcade loads): where drivers of
    ours come first pyglet is set to open its silent driver (two OpenAL devices would both
    play), and its own order waits as the fallback."""
    code = ("import sys\nfrom asteroids.app import audio_driver\n"
            "import pyglet\naudio_driver.choose(sys.argv[1])\n"
            "print(audio_driver.ours(), tuple(pyglet.options['audio'])[0],"
            " audio_driver._fallback[0][:1])\n")

    def after(name: str, env: str | None) -> str:
        environ = {k: v for k, v in os.environ.items() if k != "ARCADE_SOUND_BACKENDS"}
        if env is not None:
            environ["ARCADE_SOUND_BACKENDS"] = env
        done = subprocess.run([sys.executable, "-c", code, name], capture_output=True,
                              text=True, env=environ, timeout=60, check=True)
        return done.stdout.strip()

    assert after("miniaudio", None) == "('miniaudio',) silent ('openal',)"
    assert after("auto", None) == "('miniaudio', 'openal') silent ('openal',)"
    assert after("auto", "silent") == "() silent ()"  # the variable names pyglet's drivers
    assert after("pulse", None) == "('miniaudio-pulse',) silent ('pulse',)"
    assert after("openal", None) == "('openal',) silent ('openal',)"
    assert after("pyglet-pulse", None) == "() pulse ()"
    assert after("pyglet-openal", None) == "() openal ()"
    assert after("silent", None) == "() silent ()"


needs_miniaudio_and_pulse = pytest.mark.skipif(
    not sound_capture.has_miniaudio(),
    reason="needs the miniaudio package (pip install 'asteroids[audio]') and PulseAudio "
    "(apt-get install pulseaudio pulseaudio-utils)")


def longest_silence(pcm: np.ndarray) -> int:
    """The longest run of zero samples."""
    zero = np.concatenate(([0], (pcm == 0).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(zero))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0


@needs_miniaudio_and_pulse
@pytest.mark.slow  # a PulseAudio server of its own, then 3 s of real time through it
def test_a_1_s_game_stall_leaves_no_gap_through_the_callback_driver(config, tmp_path):
    """The game thread stalls for 1 s holding the interpreter (a pure-Python busy loop, the
    worst kind: the device's thread gets it only at Python's switch interval) while the thrust
    loops; what the null sink played has no silence longer than the latency the driver
    states (its queue and the mixer's room, 50 ms). Quiet, it had none longer than a sample;
    once, with the slow suite running beside it at a load of 2.6 on 2 cores, 27 ms."""
    from asteroids.app.sound_null_sink import Recorder, null_sink

    server, env = null_sink(tmp_path / "pulse")
    saved = {k: os.environ.get(k) for k in env if k.startswith("PULSE")}
    os.environ.update({k: v for k, v in env.items() if k.startswith("PULSE")})
    stamps: list[tuple[float, int]] = []
    recorder = Recorder(env, stamps)
    reader = threading.Thread(target=recorder.read, daemon=True)
    reader.start()
    bank, wanted = None, audio_driver._ours[0]
    try:
        audio_driver._ours[0] = ("miniaudio",)
        bank = SoundBank(config)
        assert bank.report.startswith("sound: miniaudio driver (PulseAudio)"), bank.report
        deadline = time.monotonic() + 5
        while not bank._player.steady and time.monotonic() < deadline:
            time.sleep(0.01)
        bank.loop("thrust", True)
        time.sleep(0.5)
        start = time.monotonic()
        mark = len(stamps)
        while time.monotonic() - start < 1.0:  # the stall: no sleep, no cue
            sum(range(200))
        time.sleep(0.5)
        bank.loop("thrust", False)
        time.sleep(0.2)
    finally:
        audio_driver._ours[0] = wanted
        if bank is not None:
            bank.close()
        pcm = np.frombuffer(recorder.stop(), dtype=np.int16)
        reader.join(5)
        recorder.close()
        server.terminate()
        server.communicate(timeout=10)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    # from the recording's read just before the stall to 1.4 s later (thrust loops on)
    first = stamps[mark][1] // 2 if mark < len(stamps) else 0
    played = pcm[first: first + round(1.4 * R)]
    assert played.size > R and np.abs(played).max() > 0
    assert longest_silence(played) < bank.latency_ms / 1000 * R
    assert bank.mixer.underruns <= 2


@needs_miniaudio_and_pulse
@pytest.mark.slow  # a PulseAudio server of its own, then 6 s through it
def test_a_bot_game_through_the_callback_driver_is_on_time_within_60_ms(tmp_path):
    """``--audio pulse`` is this driver on PulseAudio (``--audio miniaudio``: on whichever
    output miniaudio finds first, PulseAudio here)."""
    from tests.app.test_sound_capture import capture, on_time

    report = capture("5", "--audio", "pulse", "--out", str(tmp_path / "c.wav"))
    on_time(report, "pulse", 8)  # within 60 ms where nothing underran
    assert report["report"].startswith("sound: miniaudio driver (PulseAudio), 10 ms periods")
    assert Path(tmp_path / "c.wav").stat().st_size > 5 * R * 2
    assert report["sink_buffer_ms"] is None or report["sink_buffer_ms"] <= 20


def beats_on_a_callback_device(lead_window_s: float) -> np.ndarray:
    """30 s of a beat every 0.5 s, sent on time, through a device that calls back for 10 ms
    every 10 ms, except that every 3 s one callback comes 5 ms late and PulseAudio asks for
    the next 1 ms after it: each beat's start against its time (samples)."""
    from asteroids.app.mixer import Mixer

    clock = FakeClock()
    mixer = Mixer({"fire": np.ones(40)}, R, clock=clock)
    mixer.clock_map.lead_window_s = lead_window_s
    period = 220
    beats = [0.25 + 0.5 * i for i in range(60)]
    pending, out, k = list(beats), [], 0
    while k * period < 30.5 * R:
        due = k * period / R
        jitter = 0.005 if k % 300 == 150 else -0.004 if k % 300 == 151 else 0.0
        clock.now = due + jitter
        while pending and pending[0] <= clock.now:
            at = pending.pop(0)
            mixer.play("fire", at=at, sent=at)
        out.append(mixer.render(period))
        k += 1
    pcm = np.concatenate(out)
    sounding = pcm != 0
    starts = np.flatnonzero(sounding & ~np.concatenate(([False], sounding[:-1])))
    assert starts.size == len(beats) and mixer.late_cues == 0 and mixer.underruns == 0
    return starts - np.array(beats) * R


def test_the_map_reads_a_callback_device_s_fullest_queue_over_8_s():
    """An early callback after a late one raises the queue's envelope for as long as the map
    looks back: over 2 s the beats moved with it and back every 3 s; over
    ``LEAD_WINDOW_S`` it stays put once the first is seen."""
    from asteroids.app.audio_clock import DEADBAND_S

    steady_map = beats_on_a_callback_device(audio_miniaudio.LEAD_WINDOW_S)
    assert np.abs(np.diff(steady_map[8:])).max() <= 1  # from 4 s on
    moving = beats_on_a_callback_device(WINDOW_S)
    assert np.ptp(moving[8:]) > DEADBAND_S * R
