"""The sound's claims, measured from what the game renders: the cabinet set against the 1979
board's numbers, and the loops played through the mixer.

``asteroids sounds`` prints both tables, so anyone can rerun the measurements behind the
README's "within 10 % of the circuit" and "gapless" claims; the tests assert every row.
The circuit numbers are written here as the board and the ROM give them (MAME's
``src/mame/atari/asteroid_a.cpp`` and the disassembly, at 62.5 frames per second), not read
back from the synthesiser's own settings, so a voice that drifts from the board fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from asteroids.app import synth
from asteroids.app.mixer import KNEE, LOOP_FADE_S
from asteroids.app.sound_measure import (
    band_peak_hz,
    first_null_hz,
    gate_rate_hz,
    loudness_lufs,
    period_s,
    pitch_track,
    strongest_hz,
    warble_hz,
)
from asteroids.app.sound_scenes import FASTEST_BEAT_S, Step, mixer_for, render_scene
from asteroids.config.player_tables import AudioConfig

__all__ = ["BALANCE_TOLERANCE_DB", "BOARD_GAIN", "BalanceCheck", "CIRCUIT_TOLERANCE",
           "CircuitCheck", "LoopCheck", "balance_checks", "balance_table", "balance_take",
           "circuit_checks", "circuit_table", "loop_check", "loop_checks", "loop_table"]

CIRCUIT_TOLERANCE = 0.10
"""How far a measured pitch, rate or length may be from the board's number (issue 23)."""

FRAME_S = 1.0 / 62.5
"""One frame of the 1979 game: its sound timers count these."""


class CircuitCheck(NamedTuple):
    """One number of the board, and the same number measured from the rendered voice."""

    sound: str
    what: str
    circuit: float
    measured: float
    unit: str

    @property
    def error(self) -> float:
        """The measured number's distance from the circuit's, as a fraction of it."""
        return abs(self.measured - self.circuit) / self.circuit

    @property
    def ok(self) -> bool:
        return self.error <= CIRCUIT_TOLERANCE


def _audible_s(x: np.ndarray, rate: int, floor: float = 0.01) -> float:
    loud = np.nonzero(np.abs(x) > floor)[0]
    return float(loud[-1] - loud[0]) / rate if loud.size else 0.0


def _sweep_hz(x: np.ndarray, rate: int, at_s: float) -> float:
    part = x[round((at_s - 0.0075) * rate): round((at_s + 0.0075) * rate)]
    return 1.0 / period_s(part, rate, 80.0, 2000.0)


# (sound, what, the board's number, unit, how to measure it from the rendered voice)
_CHECKS: tuple[tuple[str, str, float, str, Callable[[np.ndarray, int], float]], ...] = (
    ("beat_low", "pitch", 81.6, "Hz", lambda x, r: 1.0 / period_s(x, r, 40.0, 200.0)),
    ("beat_low", "length", 4 * FRAME_S, "s", lambda x, r: x.size / r),
    ("beat_high", "pitch", 87.5, "Hz", lambda x, r: 1.0 / period_s(x, r, 40.0, 200.0)),
    ("beat_high", "length", 4 * FRAME_S, "s", lambda x, r: x.size / r),
    ("bang_large", "noise clock", 1000.0, "Hz", lambda x, r: first_null_hz(x, r, 1100.0)),
    ("bang_medium", "noise clock", 2400.0, "Hz", lambda x, r: first_null_hz(x, r, 2640.0)),
    ("bang_small", "noise clock", 4000.0, "Hz", lambda x, r: first_null_hz(x, r, 4400.0)),
    ("ship_explode", "noise clock", 1000.0, "Hz", lambda x, r: first_null_hz(x, r, 1100.0)),
    *((name, "length", 62 * FRAME_S, "s", _audible_s)
      for name in ("bang_large", "bang_medium", "bang_small", "ship_explode")),
    ("thrust", "band centre", 89.5, "Hz", band_peak_hz),
    ("saucer_large", "lowest pitch", 500.0, "Hz", lambda x, r: float(pitch_track(x, r)[1].min())),
    ("saucer_large", "highest pitch", 1420.0, "Hz",
     lambda x, r: float(pitch_track(x, r)[1].max())),
    ("saucer_large", "warble rate", 5.75, "Hz", warble_hz),
    ("saucer_small", "lowest pitch", 750.0, "Hz", lambda x, r: float(pitch_track(x, r)[1].min())),
    ("saucer_small", "highest pitch", 1670.0, "Hz",
     lambda x, r: float(pitch_track(x, r)[1].max())),
    ("saucer_small", "warble rate", 8.25, "Hz", warble_hz),
    *((name, f"pitch at {round(1000 * at)} ms", start - (start - end) / 0.28 * at, "Hz",
       lambda x, r, at=at: _sweep_hz(x, r, at))
      for name, start, end in (("fire", 820.0, 110.0), ("saucer_fire", 830.0, 630.0))
      for at in (0.01, 0.1, 0.2)),
    ("fire", "length", 16 * FRAME_S, "s", lambda x, r: x.size / r),
    ("saucer_fire", "length", 16 * FRAME_S, "s", lambda x, r: x.size / r),
    ("extra_life", "pitch", 3000.0, "Hz", strongest_hz),
    ("extra_life", "beeps per second", 1.0 / (8 * FRAME_S), "Hz", gate_rate_hz),
    ("extra_life", "length", 88 * FRAME_S, "s", lambda x, r: x.size / r),
)


def circuit_checks(rate: int = synth.RATE,
                   voices: dict[str, np.ndarray] | None = None) -> list[CircuitCheck]:
    """Every board number the cabinet set models, measured from its rendered voices (or from
    ``voices``, to check other renders)."""
    voices = voices if voices is not None else synth.render_set("cabinet", rate)
    return [CircuitCheck(sound, what, circuit, float(measure(voices[sound], rate)), unit)
            for sound, what, circuit, unit, measure in _CHECKS]


def circuit_table(checks: list[CircuitCheck]) -> str:
    """The checks as a Markdown table."""
    lines = ["| sound | what | circuit | measured | error | within 10 % |",
             "|---|---|---:|---:|---:|---|"]
    for c in checks:
        digits = 3 if c.unit == "s" else (2 if c.circuit < 20 else 1)
        lines.append(f"| {c.sound} | {c.what} | {c.circuit:.{digits}f} {c.unit} | "
                     f"{c.measured:.{digits}f} {c.unit} | {100 * c.error:.1f} % | "
                     f"{'yes' if c.ok else 'NO'} |")
    return "\n".join(lines)


class LoopCheck(NamedTuple):
    """A loop played through the mixer for several lengths of its buffer, in the odd-sized
    blocks a sound driver asks for."""

    sound_set: str
    sound: str
    periods: float
    longest_silence_ms: float
    """The longest run of silent samples after the fade-in (a gap would show here)."""
    mismatch: float
    """The largest difference from the buffer repeated sample for sample, after the
    fade-in (0: every wrap is seamless)."""
    largest_step: float
    """The largest jump between two output samples, fade-in and wraps included."""
    inside_step: float
    """The largest jump between two samples inside the buffer itself."""

    @property
    def ok(self) -> bool:
        return self.mismatch <= 2e-6 and self.largest_step <= self.inside_step + 1e-6


def loop_check(sound_set: str, sound: str, periods: int = 3,
               rate: int = synth.RATE) -> LoopCheck:
    """Switch ``sound`` on in a fresh mixer and compare ``periods`` lengths of its output
    with its buffer."""
    buffer = synth.render_set(sound_set, rate)[sound].astype(np.float64) * KNEE
    mixer = mixer_for(sound_set, rate=rate)
    mixer.loop(sound, True)
    chunks, total = [], 0
    while total < periods * buffer.size + 5000:
        n = 1021 + (total % 977)
        chunks.append(mixer.render(n))
        total += n
    out = np.concatenate(chunks).astype(np.float64)
    fade = round(LOOP_FADE_S * rate) + 1
    steady = out[fade:]
    silent = np.abs(steady) < 1e-9
    edges = np.diff(np.concatenate(([0], silent.astype(np.int8), [0])))
    runs = np.nonzero(edges == -1)[0] - np.nonzero(edges == 1)[0]
    return LoopCheck(
        sound_set, sound, total / buffer.size,
        1000.0 * (int(runs.max()) if runs.size else 0) / rate,
        float(np.abs(steady - np.resize(buffer, total)[fade:]).max()),
        float(np.abs(np.diff(np.append(0.0, out))).max()),
        float(np.abs(np.diff(buffer)).max()))


def loop_checks() -> list[LoopCheck]:
    """Every loop of every sound set."""
    return [loop_check(s, n) for s in synth.SOUND_SETS for n in sorted(synth.LOOPING)]


def loop_table(checks: list[LoopCheck]) -> str:
    """The loop checks as a Markdown table."""
    lines = ["| set | loop | lengths played | longest silence | largest difference from the "
             "buffer | largest step (inside the buffer) | gapless |",
             "|---|---|---:|---:|---:|---:|---|"]
    lines += [f"| {c.sound_set} | {c.sound} | {c.periods:.1f} | {c.longest_silence_ms:.1f} ms "
              f"| {c.mismatch:.1e} | {c.largest_step:.4f} ({c.inside_step:.4f}) | "
              f"{'yes' if c.ok else 'NO'} |" for c in checks]
    return "\n".join(lines)


# --- the balance: each voice's loudness against the explosions, as the board mixes them ---

BALANCE_TOLERANCE_DB = 2.0
"""How far a voice's loudness relative to the large explosion may be from the board's
mixer gain relative to the explosion's (issue 37)."""

BOARD_GAIN: dict[str, tuple[float, tuple[str, ...]]] = {
    "explosion": (1000.0, ("bang_large", "bang_medium", "bang_small", "ship_explode")),
    "thrust": (600.0, ("thrust",)),
    "thump": (131.6, ("heartbeat",)),
    "extra life": (100.0, ("extra_life",)),
    "saucer": (76.1, ("saucer_large", "saucer_small")),
    "ship fire": (53.0, ("fire",)),
    "saucer fire": (49.5, ("saucer_fire",)),
}
"""The board's mixer gains (MAME's ``asteroid_a.cpp`` gain table; research/classic-1979.md
quotes explosion, thrust, thump and fire) and the voices each one mixes. ``heartbeat`` is
the fastest heartbeat: ``beat_low`` and ``beat_high`` alternating every 128 ms."""


class BalanceCheck(NamedTuple):
    """One voice's loudness relative to the large explosion, against the board's gain."""

    sound: str
    source: str
    board_db: float
    """20 log10 of the source's gain over the explosion's."""
    measured_lu: float
    """Its momentary loudness (``loudness_lufs``) less the large explosion's, in LU."""

    @property
    def error(self) -> float:
        return self.measured_lu - self.board_db

    @property
    def ok(self) -> bool:
        return abs(self.error) <= BALANCE_TOLERANCE_DB


def balance_take(sound: str, sound_set: str = "cabinet", rate: int = synth.RATE) -> np.ndarray:
    """``sound`` as the balance hears it, through the mixer at the default volumes: a loop
    on for 3 s, a one-shot to 2 s, ``heartbeat`` the fastest beat for 3 s."""
    audio = AudioConfig()
    mixer = mixer_for(sound_set, audio.volume, audio.effects_volume, audio.heartbeat_volume,
                      rate=rate)
    if sound == "heartbeat":
        steps = [Step(float(t), ("play", ("beat_low", "beat_high")[i % 2]))
                 for i, t in enumerate(np.arange(0.0, 3.0, FASTEST_BEAT_S))]
        return render_scene(mixer, steps, 3.0)
    if sound in synth.LOOPING:
        return render_scene(mixer, [Step(0.0, ("loop_on", sound))], 3.0)
    return render_scene(mixer, [Step(0.0, ("play", sound))], 2.0)


def balance_checks(rate: int = synth.RATE) -> list[BalanceCheck]:
    """Every cabinet voice's loudness relative to the large explosion, in LU, against the
    board's mixer gain relative to the explosion's."""
    ref = loudness_lufs(balance_take("bang_large", rate=rate), rate)
    explosion = BOARD_GAIN["explosion"][0]
    return [BalanceCheck(sound, source, 20.0 * float(np.log10(gain / explosion)),
                         loudness_lufs(balance_take(sound, rate=rate), rate) - ref)
            for source, (gain, sounds) in BOARD_GAIN.items() for sound in sounds]


def balance_table(checks: list[BalanceCheck]) -> str:
    """The balance checks as a Markdown table."""
    lines = ["| sound | board's mixer | board dB | measured LU | difference | within 2 dB |",
             "|---|---|---:|---:|---:|---|"]
    gains = {source: gain for source, (gain, _) in BOARD_GAIN.items()}
    lines += [f"| {c.sound} | {c.source} {gains[c.source]:g} | {c.board_db:.1f} | "
              f"{c.measured_lu:.1f} | {c.error:+.1f} | {'yes' if c.ok else 'NO'} |"
              for c in checks]
    return "\n".join(lines)
