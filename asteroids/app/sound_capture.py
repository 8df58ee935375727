"""``asteroids sounds --capture SECONDS``: what a player hears, measured (issue 37, item 5).

A child process plays a bot's game in real time (60 ticks a second on the wall clock) through
the game's own sound chain: core events -> ``SoundBank.on_event(event, at=tick / tick_hz)``
-> the mixer -> pyglet's OpenAL driver -> OpenAL Soft, whose ``wave`` driver writes what it
mixes to a WAV file in real time (``ALSOFT_CONF``). The child does not open a window or the
views: it runs the core's ``step`` with the bot, as ``asteroids.lab.game.play_game`` does,
and sends each event's cue with its tick time, as ``world_view`` does. It logs each cue
(tick time, name, wall time sent, the sample the mixer scheduled it on) and the wall time the
driver was opened.

The child also keeps what the mixer rendered. The parent aligns the capture with that as a
whole (FFT cross-correlation), then finds each heartbeat's onset with a matched filter (the
mix's first 40 ms from the beat's scheduled sample, normalised cross-correlation, searched
within ``SEARCH_S`` of where the alignment puts it) and reports the cue-to-sound lag (onset
on the wall clock minus when the cue was sent) and the
heartbeat interval error (onset intervals minus the game's tick-time intervals).
"""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["NO_OPENAL", "Report", "analyse", "has_openal_soft", "read_wav", "run_capture"]

NO_OPENAL = ("--capture needs OpenAL Soft (Debian: apt-get install libopenal1), whose wave "
             "driver writes what it plays to a file; it is not installed here")
SEARCH_S = 0.15
"""How far from the mixer's scheduled position an onset is searched for."""

CONF = """[general]
drivers = wave
frequency = {rate}
channels = mono
sample-type = int16
[wave]
file = {out}
"""

Report = dict[str, Any]


def has_openal_soft() -> bool:
    """Whether OpenAL Soft's library can be found (its wave driver comes with it)."""
    return ctypes.util.find_library("openal") is not None or any(
        Path(d, "libopenal.so.1").exists()
        for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"))


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


def _child(log_path: str, seconds: float, bot: str, seed: int) -> None:
    """Play ``seconds`` of the bot's game in real time through the sound bank; write the log."""
    import pyglet

    pyglet.options["headless"] = True  # before pyglet.media (arcade would set it later)
    from asteroids.app import audio_driver

    audio_driver.choose("openal")
    from asteroids.app.audio import SoundBank
    from asteroids.config import Config
    from asteroids.core import new_world, step
    from asteroids.replay.record import get_bot

    config = Config()
    opened = time.monotonic()
    driver = audio_driver.current()
    bank = SoundBank(config)
    mixer = bank.mixer
    cues: list[dict[str, Any]] = []
    stream: list[np.ndarray] = []
    first: list[int] = []
    if mixer is not None:
        play, schedule = mixer.play, mixer.schedule
        pending: dict[str, Any] = {}

        def logged_play(name: str, at: float | None = None, sent: float | None = None) -> None:
            pending.update(name=name, at=at, sent=sent, sample=None)
            play(name, at=at, sent=sent)
            cues.append(dict(pending))

        def logged_schedule(at: float, sent: float | None = None) -> int:
            sample = schedule(at, sent)
            pending["sample"] = sample
            return sample

        mixer.play = logged_play  # type: ignore[method-assign]
        mixer.schedule = logged_schedule  # type: ignore[method-assign]
        render = mixer.render

        def logged_render(n: int) -> np.ndarray:
            if not first:
                first.append(mixer.samples)
            block = render(n)
            stream.append(block)
            return block

        mixer.render = logged_render  # type: ignore[method-assign]
    pilot = get_bot(bot)
    world = new_world(config, seed)
    hz = float(config.world.tick_hz)
    start = time.monotonic()
    while time.monotonic() - start < seconds and not world.game_over:
        world, events = step(world, pilot(world, config), config)
        for event in events:
            bank.on_event(event, at=world.tick / hz)
        wait = start + world.tick / hz - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    time.sleep(0.5)  # the last cues' tails
    stats = {"late_cues": mixer.late_cues if mixer else 0,
             "underruns": mixer.underruns if mixer else 0,
             "latency_samples": mixer.latency if mixer else 0}
    mix = np.concatenate(stream) if stream else np.zeros(0, np.float32)
    np.save(log_path + ".npy", mix.astype(np.float32))
    Path(log_path).write_text(json.dumps({"stream_start": first[0] if first else 0,
        "driver": driver, "error": bank.error, "opened": opened, "start": start,
        "tick_hz": hz, "rate": mixer.rate if mixer else 0, "cues": cues, **stats}))
    bank.close()


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
            mix: np.ndarray) -> Report:
    """Onsets of the logged heartbeat cues in ``capture`` -> the report.

    ``mix`` is what the mixer rendered (from mixer sample ``log["stream_start"]``): the
    capture is aligned with it as a whole, then each beat's first 40 ms of the mix is found
    in the capture near that place (matched filter), so each onset is the sample the driver
    chain played it on. The capture's first sample is taken as the wall time the driver was
    opened (``opened``): the absolute lag carries that uncertainty (a driver period at most),
    its spread and the intervals do not.

    Raises:
        ValueError: the capture's rate is not the mixer's.
    """
    rate = int(log["rate"])
    if cap_rate != rate:
        raise ValueError(f"capture at {cap_rate} Hz, mixer at {rate} Hz")
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
        if hit is not None:
            found.append((cue, hit))
    onset_wall = np.array([log["opened"] + hit / rate for _, hit in found])
    sent = np.array([cue["sent"] for cue, _ in found])
    at = np.array([cue["at"] for cue, _ in found])
    hits = np.array([hit for _, hit in found], dtype=np.float64)
    interval_error = (np.abs(np.diff(hits) / rate - np.diff(at)) if len(found) > 1
                      else np.zeros(0))
    return {
        "driver": log["driver"], "rate": rate, "cues": len(log["cues"]),
        "heartbeats_cued": len(beats), "heartbeats_found": len(found),
        "late_cues": log["late_cues"], "underruns": log["underruns"],
        "stated_latency_ms": round(log["latency_samples"] / rate * 1000.0, 1),
        "cue_to_sound_lag": _stats(onset_wall - sent),
        "heartbeat_interval_error": _stats(interval_error),
    }


def run_capture(seconds: float, out: Path, bot: str = "aimer", seed: int = 1) -> Report:
    """Capture ``seconds`` of a bot's game through OpenAL Soft's wave writer into ``out`` and
    measure it.

    Raises:
        RuntimeError: OpenAL Soft is missing (``NO_OPENAL``), or the child failed.
    """
    if not has_openal_soft():
        raise RuntimeError(NO_OPENAL)
    from asteroids.app import synth

    out = out.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        conf, log_path = Path(tmp, "alsoft.conf"), Path(tmp, "cues.json")
        conf.write_text(CONF.format(rate=synth.RATE, out=out))
        env = dict(os.environ, ALSOFT_CONF=str(conf), ARCADE_HEADLESS="1")
        env.pop("ARCADE_SOUND_BACKENDS", None)
        code = (f"from asteroids.app.sound_capture import _child; "
                f"_child({str(log_path)!r}, {float(seconds)!r}, {bot!r}, {int(seed)!r})")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=seconds + 120)
        if done.returncode != 0 or not log_path.exists():
            raise RuntimeError(f"the capture's game failed: {done.stderr.strip()[-800:]}")
        log = json.loads(log_path.read_text())
        mix = np.load(str(log_path) + ".npy").astype(np.float64)
    if log["driver"] != "openal" or log["error"]:
        raise RuntimeError(f"OpenAL did not play (driver {log['driver']}: {log['error']})")
    capture, cap_rate = read_wav(out)
    return analyse(log, capture, cap_rate, mix)
