"""``asteroids sounds --out DIR``: render every sound of both sets and the worst-case mix to
WAV through the game's own mixer, print their measurements, and draw a spectrogram of the
cabinet set.

Registered from ``asteroids.cli`` (``add_parser`` and ``run``). Needs no audio device;
the picture needs matplotlib (the ``[lab]`` extra), and without it the command says how to
get it and does the rest.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from asteroids.app import synth
from asteroids.app.audio import pcm_to_wav
from asteroids.app.dsp import fade_edges
from asteroids.app.mixer import Mixer
from asteroids.app.sound_capture import DRIVERS as CAPTURE_DRIVERS
from asteroids.app.sound_checks import (
    balance_checks,
    balance_table,
    circuit_checks,
    circuit_table,
    loop_checks,
    loop_table,
)
from asteroids.app.sound_measure import (
    centroid_hz,
    db,
    loudness_dba,
    peak_dbfs,
    rms_dbfs,
    small_speaker,
)
from asteroids.app.sound_scenes import mixer_for, render_scene, solo, worst_case
from asteroids.storage import atomic_write, describe_os_error

__all__ = ["EXIT_BAD_INPUT", "MATPLOTLIB_MISSING", "Row", "add_parser", "measure", "run",
           "spectrogram_png", "table"]

EXIT_BAD_INPUT = 2
WORST_CASE_S = 5.0
SPECTROGRAM = "spectrogram-cabinet.png"

MATPLOTLIB_MISSING = (
    "the spectrogram needs matplotlib, which comes with the optional [lab] extra: "
    "python -m pip install 'asteroids[lab]' (from a source checkout: "
    "python -m pip install '.[lab]'). The WAV files and the table are written without it."
)

DESCRIPTION = """\
Render every sound of both sound sets (cabinet and modern), each alone at full volume, and
a worst-case mix of each set (thrust and both saucer sirens on, the fastest heartbeat, rapid
fire, bursts of 3 and 6 explosions within 250 ms with the ship's explosion and an extra
life) to 16-bit mono WAV files at 22 050 Hz, through the game's own mixer. Prints a table:
duration, peak and RMS (dBFS), loudness (A-weighted RMS of the loudest 400 ms, dB re full
scale), the same through a 200 Hz high-pass (a small speaker) and spectral centroid
(power-weighted, Hz). Then three checks: the cabinet set's pitches, rates and lengths against
the 1979 board's numbers (within 10 %), the cabinet set's loudness relative to the large
explosion against the board's mixer gains (within 2 dB), and every loop played through
the mixer for three lengths of its buffer (no gap, no click at the wraps). Also draws a
spectrogram of the cabinet set (needs matplotlib: the [lab] extra).

With --capture SECONDS it measures what a player hears instead: a game (a bot's, a
--replay's, or the real --window's) plays in real time through OpenAL Soft's wave writer, a
PulseAudio null sink or our miniaudio driver into such a sink (--audio), what the driver
played is captured (--out), and each heartbeat's lag after its tick and the error of its
interval against the game's are reported (one line each, then the report as JSON)."""


class Row(NamedTuple):
    """One rendered sound and its measurements."""

    sound_set: str
    name: str
    seconds: float
    peak_db: float
    rms_db: float
    loudness_db: float
    speaker_db: float
    centroid_hz: float


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``sounds`` command to the ``asteroids`` sub-command parsers."""
    p = sub.add_parser("sounds", help="render every sound and a worst-case mix to WAV, "
                       "with measurements", description=DESCRIPTION)
    p.add_argument("--out", metavar="DIR",
                   help="folder for the WAV files and the spectrogram (created if needed); "
                   "with --capture, the WAV file to capture into (default capture.wav)")
    p.add_argument("--capture", type=float, metavar="SECONDS",
                   help="play SECONDS of a game in real time through an audio driver, "
                   "capture what it plays and report cue-to-sound lag and heartbeat "
                   "interval error (openal, pyglet-openal: OpenAL Soft's wave writer, needs "
                   "libopenal1; pulse, miniaudio: our callback driver into a PulseAudio null "
                   "sink, needs pulseaudio, pulseaudio-utils and the [audio] extra; "
                   "pyglet-pulse: pyglet's driver into such a sink)")
    p.add_argument("--audio", choices=CAPTURE_DRIVERS, default="openal",
                   help="with --capture: the driver to play through (default openal: ours)")
    p.add_argument("--bot", default="aimer", help="with --capture: the bot that plays "
                   "(default aimer)")
    p.add_argument("--replay", metavar="FILE", help="with --capture: play this saved "
                   "replay's game instead of a bot's")
    p.add_argument("--window", action="store_true", help="with --capture: play the game in "
                   "its real window (asteroids watch on a fresh Xvfb screen; needs xvfb), "
                   "not only the core and the sound bank")
    return p


def measure(sound_set: str, name: str, samples: np.ndarray, rate: int = synth.RATE) -> Row:
    """The table's numbers for one render."""
    return Row(sound_set, name, samples.size / rate, peak_dbfs(samples), rms_dbfs(samples),
               loudness_dba(samples, rate), loudness_dba(small_speaker(samples, rate), rate),
               centroid_hz(samples, rate))


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table (the README shows it)."""
    lines = ["| set | sound | duration s | peak dBFS | RMS dBFS | loudness dB(A) "
             "| small speaker dB(A) | centroid Hz |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r.sound_set} | {r.name} | {r.seconds:.3f} | {r.peak_db:.1f} | "
              f"{r.rms_db:.1f} | {r.loudness_db:.1f} | {r.speaker_db:.1f} | "
              f"{r.centroid_hz:.0f} |" for r in rows]
    return "\n".join(lines)


def _render_all() -> tuple[dict[str, dict[str, np.ndarray]], dict[str, tuple[np.ndarray, Mixer]]]:
    sounds = {s: {name: solo(name, s) for name in synth.voice_names(s)} for s in synth.SOUND_SETS}
    mixes = {}
    for s in synth.SOUND_SETS:
        mixer = mixer_for(s)
        mixes[s] = (render_scene(mixer, worst_case(WORST_CASE_S), WORST_CASE_S), mixer)
    return sounds, mixes


def _pcm(x: np.ndarray) -> np.ndarray:
    return np.round(np.clip(x, -1.0, 1.0) * 32767.0).astype(np.int16)


def run(args: argparse.Namespace) -> int:
    """Write the files, print the table; 0 on success, 2 when the folder cannot be written.
    With ``--capture``: capture and report (``sound_capture``); 2 without the driver's
    tools (or Xvfb for ``--window``)."""
    if getattr(args, "capture", None) is not None:
        return _run_capture(args)
    if args.out is None:
        print("asteroids: sounds: --out DIR is required (or --capture SECONDS)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"asteroids: sounds: --out {out} is a file; expected a folder to write the WAV "
              "files into (it is created when missing).", file=sys.stderr)
        return EXIT_BAD_INPUT
    sounds, mixes = _render_all()
    rows = []
    try:
        for s, renders in sounds.items():
            for name, x in renders.items():
                atomic_write(out / s / f"{name}.wav", pcm_to_wav(_pcm(x)))
                rows.append(measure(s, name, x))
        for s, (x, _) in mixes.items():
            atomic_write(out / f"worst-case-{s}.wav", pcm_to_wav(_pcm(x)))
            rows.append(measure(s, "WORST CASE MIX", x))
    except OSError as exc:
        print(f"asteroids: sounds: cannot write into {out}: {describe_os_error(exc)}; "
              "expected a folder this user can write.", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(table(rows))
    for s, (_, mixer) in mixes.items():
        print(f"\n{s} worst case: limiter cut at most {-db(mixer.lowest_gain):.1f} dB, "
              f"{mixer.steals} voices stolen for newer ones.", end="")
    circuit, loops = circuit_checks(), loop_checks()
    print("\n\nThe cabinet set against the board (MAME's asteroid_a.cpp and the ROM):\n")
    print(circuit_table(circuit))
    print(f"\n{sum(c.ok for c in circuit)} of {len(circuit)} numbers within 10 % of the board's.")
    balance = balance_checks()
    print("\nThe cabinet set's balance against the board's mixer gains (loudness relative to "
          "the large explosion, BS.1770 momentary, default volumes):\n")
    print(balance_table(balance))
    print(f"\n{sum(c.ok for c in balance)} of {len(balance)} voices within 2 dB of the board's.")
    print("\nLoops through the mixer (odd-sized blocks, as a sound driver asks):\n")
    print(loop_table(loops))
    print(f"\n{sum(c.ok for c in loops)} of {len(loops)} loops gapless and click-free.")
    print(f"\nWAV files (16-bit mono, {synth.RATE} Hz) in {out}")
    try:
        png = spectrogram_png(sounds["cabinet"])
    except ImportError:
        print(f"asteroids: sounds: note: {MATPLOTLIB_MISSING}", file=sys.stderr)
        return 0
    try:
        atomic_write(out / SPECTROGRAM, png)
    except OSError as exc:
        print(f"asteroids: sounds: cannot write {out / SPECTROGRAM}: "
              f"{describe_os_error(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"spectrogram of the cabinet set: {out / SPECTROGRAM}")
    return 0


def _run_capture(args: argparse.Namespace) -> int:
    """``--capture SECONDS``: one line per measure, the report as JSON after them."""
    import json

    from asteroids.app import sound_capture

    if args.capture <= 0:
        print("asteroids: sounds: --capture SECONDS must be above 0", file=sys.stderr)
        return EXIT_BAD_INPUT
    audio = getattr(args, "audio", "openal")
    replay = getattr(args, "replay", None)
    lacking = sound_capture.missing(audio, getattr(args, "window", False))
    if lacking is not None:
        print(f"asteroids: sounds: {lacking}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if replay is not None and not Path(replay).is_file():
        print(f"asteroids: sounds: no replay file {replay}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = Path(args.out or "capture.wav")
    try:
        report = sound_capture.run_capture(args.capture, out, bot=args.bot, driver=audio,
                                           replay=None if replay is None else Path(replay),
                                           window=getattr(args, "window", False))
    except (RuntimeError, ValueError, OSError, KeyError) as exc:
        print(f"asteroids: sounds: capture failed: {exc}", file=sys.stderr)
        return 1
    lag, err = report["cue_to_sound_lag"], report["heartbeat_interval_error"]
    game = f"the replay {replay}" if replay else f"the {args.bot} bot's game"
    where = " in its window" if report["window"] else ""
    print(f"captured {args.capture:g} s of {game}{where} through {report['driver']} into "
          f"{out}")
    print(f"heartbeats found {report['heartbeats_found']} of {report['heartbeats_cued']}; "
          f"late cues {report['late_cues']}, underruns {report['underruns']}")
    if lag.get("n"):
        print(f"cue-to-sound lag: median {lag['median_ms']} ms, min {lag['min_ms']}, max "
              f"{lag['max_ms']}, spread {lag['spread_ms']}")
    tick = report["tick_to_sound_lag"]
    if tick.get("n"):
        print(f"tick-to-sound lag: median {tick['median_ms']} ms, spread {tick['spread_ms']}")
    if report.get("sink_buffer_ms") is not None:
        print(f"the null sink's configured latency: {report['sink_buffer_ms']} ms (heard at "
              "its monitor as rendered: a card's buffer would add up to this to the lags)")
    if err.get("n"):
        print(f"heartbeat interval error: median {err['median_ms']} ms, max "
              f"{err['max_ms']} ms")
    print(json.dumps(report))
    return 0


def spectrogram_png(renders: dict[str, np.ndarray], rate: int = synth.RATE) -> bytes:
    """One spectrogram of ``renders`` played one after another (log frequency), as PNG.

    Raises:
        ImportError: without matplotlib.
    """
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    gap = np.zeros(round(0.15 * rate), dtype=np.float32)
    starts, parts, at = [], [], 0
    for name, x in renders.items():
        clip = x[: round(1.5 * rate)]
        if clip.size < x.size:  # cut short for the picture: fade, or the cut shows as a click
            clip = fade_edges(clip, rate, 0.0, 0.015)
        starts.append((at / rate, name))
        parts += [clip, gap]
        at += clip.size + gap.size
    signal = np.concatenate(parts)
    size, hop = 2048, 256
    frames = 1 + max(0, signal.size - size) // hop
    window = np.hanning(size)
    idx = np.arange(size)[None, :] + hop * np.arange(frames)[:, None]
    power = np.square(np.abs(np.fft.rfft(signal[idx] * window, axis=1))).T
    level = 10.0 * np.log10(np.maximum(power / (np.square(window.sum()) / 4.0), 1e-12))
    f = np.fft.rfftfreq(size, 1.0 / rate)
    t = (np.arange(frames) * hop + size / 2) / rate
    keep = f >= 20.0
    fig = Figure(figsize=(10.0, 4.0), layout="constrained")
    ax = fig.subplots()
    mesh = ax.pcolormesh(t, f[keep], level[keep], shading="auto", vmin=-90.0, vmax=-10.0,
                         cmap="magma")
    ax.set_yscale("log")
    ax.set_xlim(0.0, signal.size / rate)
    ax.set_ylim(20.0, rate / 2)
    ax.set_ylabel("frequency (Hz)")
    ax.set_xlabel("time (s)")
    ax.set_title("cabinet sound set, each sound alone at full volume (asteroids sounds)")
    for start, name in starts:
        ax.axvline(start, color="white", linewidth=0.5, alpha=0.5)
        ax.text(start + 0.02, 25.0, name, color="white", fontsize=7, rotation=90,
                va="bottom")
    fig.colorbar(mesh, ax=ax, label="dB re full scale")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    return buf.getvalue()
