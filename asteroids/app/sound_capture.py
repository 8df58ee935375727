"""``asteroids sounds --capture SECONDS``: what a player hears, measured (issue 37, item 5).

A child process plays a game in real time (60 ticks a second on the wall clock: a bot's, or
a saved replay's inputs) through the game's own sound chain: core events ->
``SoundBank.on_event(event, at=tick / tick_hz)`` -> the mixer -> pyglet's driver -> the
output, captured as it is played:

- ``openal``: OpenAL Soft, whose ``wave`` driver writes what it mixes to a WAV file in real
  time (``ALSOFT_CONF``), one ``PERIOD`` at a time (23 ms: OpenAL Soft's default period of
  1 024 frames at 44.1 kHz; at 22 050 Hz it would otherwise keep 1 024 frames, 46 ms).
- ``pulse``: a PulseAudio server of the capture's own playing into a null sink, whose
  monitor ``parec`` records.
- ``miniaudio``: our own callback driver (``audio_miniaudio``), whose PulseAudio backend
  plays into the same kind of null sink, recorded the same way.

The game runs in one of two ways. By default a child process steps the core as
``asteroids.lab.game.play_game`` does and sends each event's cue with its tick time, as
``world_view`` does (no window: the sound path alone). With ``window``, the game itself
plays: ``asteroids watch REPLAY --audio DRIVER --time-limit SECONDS`` on a fresh Xvfb screen
(the bot's game is recorded first when no replay is given), its window, views and frames
sending the cues as a player's do. Either way the game's sound bank logs each cue (tick
time, name, wall time sent, the sample the mixer scheduled it on) and what the mixer
rendered (``sound_log``), and this process times the output as it arrives: the WAV file's
growth (OpenAL Soft's writes, through C stdio's 4 KiB buffer) or ``parec``'s reads. From
those it fits the output's clock (``output_clock``): the wall time at which each captured
sample is played, and the output's real rate (a null sink's clock is not the wall clock:
1 700 ppm fast here).

The parent aligns the capture with the mix as a whole (FFT cross-correlation), finds each
heartbeat's onset with a matched filter (the mix's first 40 ms from the beat's scheduled
sample, normalised cross-correlation, within ``SEARCH_S`` of where the alignment puts it),
and reports the cue-to-sound lag (when the onset is played, on the wall clock, minus when
the cue was sent), the tick-to-sound lag (minus when its tick was due: the game's clock
put on the wall clock where it ran earliest, so the game's own lateness in sending, a
frame's worth in a window, is left out) and the heartbeat interval error (onset intervals
on the output's clock minus the game's tick-time intervals).
"""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from asteroids.app.sound_null_sink import Recorder, SinkLatency, has_pulse, null_sink

__all__ = ["DRIVERS", "NO_MINIAUDIO", "NO_OPENAL", "NO_PULSE", "NO_XVFB", "PERIOD", "Report",
           "analyse", "has_miniaudio", "has_openal_soft", "has_pulse", "has_xvfb", "missing",
           "output_clock",
           "read_wav", "run_capture"]

DRIVERS = ("openal", "pulse", "miniaudio", "pyglet-openal", "pyglet-pulse")
NULL_SINK_DRIVERS = ("pulse", "miniaudio", "pyglet-pulse")
WAVE_DRIVERS = ("openal", "pyglet-openal")
"""The drivers captured from OpenAL Soft's wave writer."""
REPORTS = {"openal": "sound: openal driver (", "pulse": "sound: miniaudio driver (PulseAudio)",
           "miniaudio": "sound: miniaudio driver", "pyglet-openal": "sound: openal driver,",
           "pyglet-pulse": "sound: pulse driver,"}
"""How the game's report line starts when the driver asked for is the one that played."""
"""The drivers captured from a PulseAudio null sink of the capture's own."""
NO_OPENAL = ("--capture needs OpenAL Soft (Debian: apt-get install libopenal1), whose wave "
             "driver writes what it plays to a file; it is not installed here")
NO_XVFB = ("--capture --window needs Xvfb (Debian: apt-get install xvfb) to show the game's "
           "window on; it is not installed here")
NO_MINIAUDIO = ("--capture --audio pulse or miniaudio needs the miniaudio package (pip install "
                "'asteroids[audio]') and PulseAudio with its tools (Debian: apt-get install "
                "pulseaudio pulseaudio-utils); they are not all installed here")
NO_PULSE = ("--capture --audio pyglet-pulse needs PulseAudio and its tools (Debian: apt-get "
            "install pulseaudio pulseaudio-utils); they are not installed here")
SEARCH_S = 0.15
"""How far from the mixer's scheduled position an onset is searched for (the capture is
aligned with the mix as a whole, then followed from beat to beat)."""
SLIP_S = 0.6
"""How far it is searched for when not found there: an underrun pauses the driver's stream,
so everything after it plays later (what a player hears, and reported as such)."""
PERIOD = 512
"""OpenAL Soft's wave writer mixes this many frames at a time (``period_size``)."""
WARM_S = 0.5
"""The stream plays this long before the game starts, as the title screen does."""
PULSE_WARM_S = 11.0
"""Through PulseAudio, this long: the mixer fits a driver's drift once 10 s of its blocks
are seen (``audio_clock.DRIFT_SPAN_S``), and a null sink's clock is 1 700 ppm off the wall
clock here, 8.5 ms in 5 s. A player's game has been on the title screen at least as long."""
CONF = """[general]
drivers = wave
frequency = {rate}
channels = mono
sample-type = int16
{period}[wave]
file = {out}
"""

Report = dict[str, Any]


def has_openal_soft() -> bool:
    """Whether OpenAL Soft's library can be found (its wave driver comes with it)."""
    return ctypes.util.find_library("openal") is not None or any(
        Path(d, "libopenal.so.1").exists()
        for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"))


def has_xvfb() -> bool:
    """Whether a virtual X screen can be started here for the game's window."""
    return shutil.which("Xvfb") is not None


def has_miniaudio() -> bool:
    """Whether our miniaudio driver can be captured here: the package and a PulseAudio server
    to start (its backend plays into the null sink)."""
    from asteroids.app import audio_miniaudio

    return audio_miniaudio.available() and has_pulse()


def missing(driver: str, window: bool = False) -> str | None:
    """What a capture through ``driver`` (in a ``window``) needs and this machine lacks
    (``NO_OPENAL``, ``NO_PULSE``, ``NO_MINIAUDIO``, ``NO_XVFB``); None when it has it all."""
    if driver in WAVE_DRIVERS and not has_openal_soft():
        return NO_OPENAL
    if driver == "pyglet-pulse" and not has_pulse():
        return NO_PULSE
    if driver in ("pulse", "miniaudio") and not has_miniaudio():
        return NO_MINIAUDIO
    if window and not has_xvfb():
        return NO_XVFB
    return None


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """Mono float samples and the rate of a WAV file, WAVE_FORMAT_EXTENSIBLE included (OpenAL
    Soft writes it; Python's ``wave`` refuses it). 16-bit or 32-bit float; channels averaged.
    A data chunk whose size was never written (the writer was cut off) runs to the end."""
    raw = path.read_bytes()
    if raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise ValueError(f"{path}: not a WAV file")
    pos, fmt = 12, None
    while pos + 8 <= len(raw):
        tag, size = raw[pos:pos + 4], int.from_bytes(raw[pos + 4:pos + 8], "little")
        body = raw[pos + 8:pos + 8 + size] if tag != b"data" else raw[pos + 8:]
        if tag == b"fmt ":
            fmt = body
        elif tag == b"data":
            if fmt is None:
                raise ValueError(f"{path}: data before fmt")
            channels = int.from_bytes(fmt[2:4], "little")
            rate = int.from_bytes(fmt[4:8], "little")
            bits = int.from_bytes(fmt[14:16], "little")
            kind = int.from_bytes(fmt[0:2], "little")
            if kind == 0xFFFE:
                kind = int.from_bytes(fmt[24:26], "little")
            if size and size < len(body):
                body = body[:size]
            if kind == 3 and bits == 32:
                x = np.frombuffer(body[: len(body) // 4 * 4], "<f4").astype(np.float64)
            elif bits == 16:
                x = np.frombuffer(body[: len(body) // 2 * 2], "<i2") / 32768.0
            else:
                raise ValueError(f"{path}: {bits}-bit format {kind} not read")
            x = x[: x.size // channels * channels].reshape(-1, channels).mean(axis=1)
            return x, rate
        pos += 8 + size + (size & 1)
    raise ValueError(f"{path}: no data chunk")


def _games(bot: str, seed: int, replay: str | None) -> tuple[Any, Any, Any]:
    """(config, first world, next mask) of the game to play: the replay's, or the bot's."""
    from asteroids.config import Config
    from asteroids.core import new_world
    from asteroids.replay.record import get_bot

    if replay is not None:
        from asteroids.replay import load_replay

        saved = load_replay(Path(replay))
        masks = saved.masks
        return (saved.config, new_world(saved.config, saved.seed),
                lambda world, config: masks[world.tick] if world.tick < len(masks) else 0)
    config = Config()
    return config, new_world(config, seed), get_bot(bot)


class _Probe:
    """When the output's samples arrive: the WAV file's size, or ``parec``'s reads (and the
    null sink's own buffer, ``sink_ms``)."""

    def __init__(self, driver: str, wav: Path, env: dict[str, str]) -> None:
        self.stamps: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._rec: Recorder | None = None
        self._sink: SinkLatency | None = None
        self.sink_ms: float | None = None
        """The sink's buffer under the game's stream (median, ms; None: not a null sink)."""
        if driver in NULL_SINK_DRIVERS:
            self._rec = Recorder(env, self.stamps)
            self._sink = SinkLatency(env)
            target = self._rec.read
        else:
            target = lambda: self._poll(wav)  # noqa: E731
        self._thread = threading.Thread(target=target, daemon=True)
        self._thread.start()

    def _poll(self, wav: Path) -> None:
        last = -1
        while not self._stop.is_set():
            size = wav.stat().st_size if wav.exists() else -1
            if size != last:
                self.stamps.append((time.monotonic(), size))
                last = size
            time.sleep(0.0005)

    def stop(self) -> bytes:
        """Stop; the PCM ``parec`` read (empty for the WAV file)."""
        self._stop.set()
        pcm = self._rec.stop() if self._rec is not None else b""
        self._thread.join(5)
        if self._rec is not None:
            self._rec.close()
        if self._sink is not None:
            self.sink_ms = self._sink.stop()
        return pcm


def _child(seconds: float, bot: str, seed: int, driver: str = "openal",
           replay: str | None = None) -> None:
    """Play ``seconds`` of the game in real time through the sound bank (its log goes where
    ``ASTEROIDS_SOUND_LOG`` says); exit 1 when the driver would not play."""
    import pyglet

    pyglet.options["headless"] = True  # before pyglet.media (arcade would set it later)
    from asteroids.app import audio_driver

    audio_driver.choose(driver)
    from asteroids.app.audio import SoundBank
    from asteroids.core import step
    from asteroids.core.params import params_for

    config, world, pilot = _games(bot, seed, replay)
    rules = params_for(config)  # compiled once: a Config given to step compiles every tick
    bank = SoundBank(config)
    if bank.mixer is None:
        sys.exit(f"{driver} did not play: {bank.error}")
    time.sleep(PULSE_WARM_S if driver in NULL_SINK_DRIVERS else WARM_S)
    hz = float(config.world.tick_hz)
    start = time.monotonic()
    while time.monotonic() - start < seconds and not world.game_over:
        world, events = step(world, pilot(world, rules), rules)
        for event in events:
            bank.on_event(event, at=world.tick / hz)
        wait = start + world.tick / hz - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    time.sleep(0.5)  # the last cues' tails
    bank.close()  # and its log


def _record(bot: str, seed: int, seconds: float, path: Path) -> Path:
    """Record ``seconds`` of the bot's game (at least) as a replay for the window to show."""
    from asteroids.config import Config
    from asteroids.lab.game import play_game
    from asteroids.replay.files import save_replay

    config = Config()
    _, replay = play_game(config, seed, bot, round(seconds * config.world.tick_hz) + 120,
                          record=True)
    assert replay is not None
    save_replay(replay, path)
    return path


def _in_window(seconds: float, replay: Path, driver: str, env: dict[str, str],
               data: Path) -> subprocess.CompletedProcess[str]:
    """``asteroids watch REPLAY --audio DRIVER --time-limit SECONDS`` in a real window on a
    fresh Xvfb screen: the game's window, views and sound as a player runs them.

    Raises:
        RuntimeError: Xvfb is not installed (``NO_XVFB``).
    """
    if not has_xvfb():
        raise RuntimeError(NO_XVFB)
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0",
                             "1024x768x24", "-nolisten", "tcp"], pass_fds=(write_fd,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            display = ":" + pipe.readline().strip()
        env = {k: v for k, v in env.items() if k != "ARCADE_HEADLESS"}
        env.update(DISPLAY=display, ASTEROIDS_DATA_DIR=str(data))
        return subprocess.run(
            [sys.executable, "-m", "asteroids", "watch", str(replay), "--audio", driver,
             "--time-limit", f"{seconds:g}"], env=env, capture_output=True, text=True,
            timeout=seconds + 180)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def output_clock(stamps: list[tuple[float, int]], driver: str, rate: int,
                 header: int = 0, period: int = 0) -> tuple[float, float]:
    """``(t0, r)``: captured sample ``i`` is played at wall time ``t0 + i / r``.

    ``stamps`` are (wall time, bytes seen so far). OpenAL Soft mixes ``PERIOD`` frames once
    the wall clock reaches its end and writes them through stdio's 4 KiB buffer, so the
    file grows by 4 KiB while it mixes the period holding that byte; that period is
    played from then on (a device with one period queued): ``t0`` is the lower envelope of
    (growth time - end of that period). A null sink's monitor hands ``parec`` its samples
    as the sink plays them: ``r`` is fitted to the reads (the sink's clock is its own) and
    ``t0`` is their lower envelope. ``period``: the wave writer's period in frames
    (``PERIOD`` unless the driver asked OpenAL Soft for its own: ``period_frames`` in the
    log).
    """
    t = np.array([w for w, n in stamps if n > header], dtype=np.float64)
    size = np.array([n for _, n in stamps if n > header], dtype=np.float64)
    if t.size < 2:
        raise ValueError("the output was not seen growing")
    if driver in WAVE_DRIVERS:
        period = period or PERIOD
        done = np.floor((size - header) / (2 * period)) + 1  # periods mixed by that write
        return float(np.min(t - done * period / rate) + period / rate), float(rate)
    frames = size / 2
    r = float(np.polyfit(t, frames, 1)[0]) if t[-1] - t[0] > 1.0 else float(rate)
    return float(np.min(t - frames / r)), r


def _stats(values: np.ndarray) -> dict[str, float]:
    ms = np.asarray(values, dtype=np.float64) * 1000.0
    if ms.size == 0:
        return {"n": 0}
    return {"n": int(ms.size), "median_ms": round(float(np.median(ms)), 2),
            "min_ms": round(float(ms.min()), 2), "max_ms": round(float(ms.max()), 2),
            "spread_ms": round(float(ms.max() - ms.min()), 2)}


def _onset(x: np.ndarray, ref: np.ndarray, guess: int, reach: int) -> int | None:
    """The sample where ``ref`` best matches ``x`` within ``reach`` of ``guess`` (normalised
    cross-correlation), or None when nothing there looks like it."""
    lo, hi = max(0, guess - reach), min(x.size - ref.size, guess + reach)
    if hi <= lo:
        return None
    seg = x[lo:hi + ref.size]
    corr = np.correlate(seg, ref, mode="valid")
    energy = np.sqrt(np.convolve(seg * seg, np.ones(ref.size), mode="valid")) + 1e-12
    score = corr / (energy * np.linalg.norm(ref))
    best = int(np.argmax(score))
    return lo + best if score[best] > 0.9 else None


def _shift(capture: np.ndarray, mix: np.ndarray) -> int:
    """Where ``mix`` sits in ``capture`` (the capture index of the mix's first sample), by
    FFT cross-correlation."""
    size = 1 << int(np.ceil(np.log2(capture.size + mix.size)))
    corr = np.fft.irfft(np.fft.rfft(capture, size) * np.conj(np.fft.rfft(mix, size)), size)
    best = int(np.argmax(corr))
    return best if best < size - mix.size else best - size


def analyse(log: dict[str, Any], capture: np.ndarray, cap_rate: int,
            mix: np.ndarray, clock: tuple[float, float]) -> Report:
    """Onsets of the logged heartbeat cues in ``capture`` -> the report.

    ``mix`` is what the mixer rendered (from mixer sample ``log["stream_start"]``): the
    capture is aligned with it as a whole, then each beat's first 40 ms of the mix is found
    in the capture near that place (matched filter), so each onset is the sample the driver
    chain played it on; ``clock`` (``output_clock``) says when that sample was played.

    Raises:
        ValueError: the capture's rate is not the mixer's.
    """
    rate = int(log["rate"])
    if cap_rate != rate:
        raise ValueError(f"capture at {cap_rate} Hz, mixer at {rate} Hz")
    t0, out_rate = clock
    base = int(log["stream_start"])
    beats = [c for c in log["cues"] if c["name"] in ("beat_low", "beat_high")
             and c["sample"] is not None and c["at"] is not None]
    shift = _shift(capture, mix) - base  # capture index = mixer sample + shift
    reach, width = round(SEARCH_S * rate), round(0.04 * rate)
    found: list[tuple[dict[str, Any], int]] = []
    for cue in beats:
        ref = mix[cue["sample"] - base: cue["sample"] - base + width].astype(np.float64)
        if ref.size < width or cue["sample"] < base:
            continue
        hit = _onset(capture, ref, cue["sample"] + shift, reach)
        if hit is None:  # an underrun slipped the stream: look further
            hit = _onset(capture, ref, cue["sample"] + shift, round(SLIP_S * rate))
        if hit is not None:
            found.append((cue, hit))
            shift = hit - cue["sample"]  # the stream since the last slip
    played = np.array([t0 + hit / out_rate for _, hit in found])
    sent = np.array([cue["sent"] for cue, _ in found])
    at = np.array([cue["at"] for cue, _ in found])
    # each tick on the wall clock: when it was due, where the window says (``due``), else
    # the game's clock put on the wall clock where it ran earliest
    due = np.array([np.nan if cue.get("due") is None else cue["due"] for cue, _ in found],
                   dtype=np.float64)
    tick = np.where(np.isnan(due), at + (np.min(sent - at) if len(found) else 0.0), due)
    sample = np.array([cue["sample"] for cue, _ in found], dtype=np.float64)
    hits = np.array([hit for _, hit in found], dtype=np.float64)
    interval_error = (np.abs(np.diff(played) - np.diff(at)) if len(found) > 1
                      else np.zeros(0))
    return {
        "rate": rate, "output_rate": round(out_rate, 1),
        "cues": len(log["cues"]), "heartbeats_cued": len(beats),
        "heartbeats_found": len(found), "late_cues": log["late_cues"],
        "late_heartbeats": sum(bool(cue.get("late")) for cue in beats),
        "underruns": log["underruns"],
        "room_ms": round(log["latency_samples"] / rate * 1000.0, 1),
        "queue_ms_at_end": log.get("queue_ms"),
        "drift_ppm_followed": log.get("drift_ppm"),
        "cue_to_sound_lag": _stats(played - sent),
        "tick_to_sound_lag": _stats(played - tick),
        "heartbeat_interval_error": _stats(interval_error),
        # how late after its tick was due the game sent each cue (a window's frames)
        "game_lateness": _stats(sent - tick),
        # where it came from: the mixer's map moving beats (scheduled against the game's
        # intervals), or the stream slipping under them (heard against scheduled)
        "interval_error_from_map": _stats(np.abs(np.diff(sample) / rate - np.diff(at))),
        "interval_error_from_stream": _stats(np.abs(np.diff(hits) - np.diff(sample)) / rate),
    }


def run_capture(seconds: float, out: Path, bot: str = "aimer", seed: int = 1, *,
                driver: str = "openal", replay: Path | None = None,
                window: bool = False) -> Report:
    """Capture ``seconds`` of a game (the bot's, or ``replay``'s) through ``driver`` into
    ``out`` (a WAV file) and measure it; ``window``: in the game's real window (under a
    fresh Xvfb screen), else in a child that steps the core without one.

    Raises:
        RuntimeError: a tool is missing (``NO_OPENAL``, ``NO_PULSE``, ``NO_XVFB``), or the
            game failed.
        KeyError: an unknown driver.
    """
    from asteroids.app import synth
    from asteroids.app.audio import pcm_to_wav
    from asteroids.app.sound_log import ENV, read_log

    if driver not in DRIVERS:
        raise KeyError(f"no capture through {driver!r}: choose one of {', '.join(DRIVERS)}")
    lacking = missing(driver, window)
    if lacking is not None:
        raise RuntimeError(lacking)
    out = out.resolve()
    out.unlink(missing_ok=True)
    server = None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            conf, folder = Path(tmp, "alsoft.conf"), Path(tmp, "log")
            conf.write_text(CONF.format(rate=synth.RATE, out=out, period=(
                f"period_size = {PERIOD}\n" if driver == "pyglet-openal" else "")))
            env = dict(os.environ)
            if driver in NULL_SINK_DRIVERS:
                server, env = null_sink(Path(tmp, "pulse"))
            env.update(ALSOFT_CONF=str(conf), ARCADE_HEADLESS="1", **{ENV: str(folder)})
            env.pop("ARCADE_SOUND_BACKENDS", None)
            probe = _Probe(driver, out, env)
            try:
                if window:
                    shown = replay or _record(bot, seed, seconds, Path(tmp, "game.replay"))
                    done = _in_window(seconds, shown, driver, env, Path(tmp, "data"))
                else:
                    code = (f"from asteroids.app.sound_capture import _child; _child("
                            f"{float(seconds)!r}, {bot!r}, {int(seed)!r}, {driver!r}, "
                            f"{None if replay is None else str(replay)!r})")
                    done = subprocess.run([sys.executable, "-c", code], env=env,
                                          capture_output=True, text=True,
                                          timeout=seconds + PULSE_WARM_S + 120)
            finally:
                pcm = probe.stop()
            if done.returncode not in (0, 2) or not (folder / "meta.json").exists():
                raise RuntimeError(f"the capture's game failed: {done.stderr.strip()[-800:]}")
            log, mix = read_log(folder)
    finally:
        if server is not None:
            server.terminate()
            server.communicate(timeout=10)  # and closes its stderr
    report_line = log.get("report") or ""
    if not report_line.startswith(REPORTS[driver]):
        raise RuntimeError(f"{driver} did not play ({report_line or 'no sound'})")
    if driver in NULL_SINK_DRIVERS:
        out.write_bytes(pcm_to_wav(np.frombuffer(pcm, "<i2")))
    capture, cap_rate = read_wav(out)
    raw = out.read_bytes()
    header = raw.find(b"data") + 8 if driver in WAVE_DRIVERS else 0
    clock = output_clock(probe.stamps, driver, cap_rate, header,
                         int(log.get("period_frames") or 0))
    report = analyse(log, capture, cap_rate, mix, clock)
    report["driver"], report["window"], report["report"] = driver, window, report_line
    if probe.sink_ms is not None:  # what a card would add (``sound_null_sink``)
        report["sink_buffer_ms"] = probe.sink_ms
    return report
