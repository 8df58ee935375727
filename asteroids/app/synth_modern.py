"""The "modern" sound set: the game's voices before the cabinet set (asteroids 0.1.0), kept
as they sounded, with their defects fixed.

Fixed, not changed: squares are band-limited (they aliased at about -15 dB); the noise is
low-passed by a Butterworth filter at the moving average's -3 dB point (the average put comb
nulls into the explosions); the heartbeat is scaled instead of clipped (it peaked at 1.08 and
lost 50 samples of its first crest); the loops are exactly periodic (thrust was cross-faded).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asteroids.app import dsp

__all__ = ["BUILDERS", "LEVELS_DB"]


def _envelope(n: int, rate: int, attack_s: float = 0.004, decay: float = 0.0) -> np.ndarray:
    """A short linear attack, exponential decay at ``decay`` per second, 4 ms fade-out."""
    t = dsp.seconds(n, rate)
    env = np.minimum(t / max(attack_s, 1e-6), 1.0)
    if decay:
        env = env * np.exp(-decay * t)
    return dsp.fade_edges(env, rate, 0.0, 0.004)


def _sweep_square(f0: float, f1: float, seconds: float, rate: int) -> np.ndarray:
    t = dsp.seconds(round(seconds * rate), rate)
    freq = f0 * (f1 / f0) ** (t / seconds)
    return dsp.square(dsp.sweep_phase(freq, rate), freq, rate)


def _noise(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, n)


def _smoothing_hz(samples: int, rate: int) -> float:
    """The -3 dB point of the old ``samples``-long moving average."""
    return 0.443 * rate / samples


def _fire(rate: int) -> np.ndarray:
    wave = _sweep_square(1400.0, 300.0, 0.14, rate)
    return wave * _envelope(wave.size, rate, decay=14.0)


def _bang(rate: int, seconds: float, smooth: int, seed: int) -> np.ndarray:
    n = round(seconds * rate)
    wave = dsp.filter_oneshot(_noise(n, seed), rate,
                              dsp.lowpass2(_smoothing_hz(smooth, rate)), tail_s=0.0)
    return wave * _envelope(n, rate, 0.002, decay=4.5 / seconds)


def _thrust(rate: int) -> np.ndarray:
    n = round(0.6 * rate)
    return dsp.filter_periodic(_noise(n, 7), rate, dsp.lowpass2(_smoothing_hz(24, rate)))


def _beat(rate: int, freq: float) -> np.ndarray:
    t = dsp.seconds(round(0.11 * rate), rate)
    wave = np.sin(2.0 * np.pi * freq * t) + 0.3 * dsp.square(freq * t, freq, rate)
    return wave * _envelope(t.size, rate, 0.002, decay=20.0)


def _siren(rate: int, low: float, high: float, period_s: float) -> np.ndarray:
    t = dsp.seconds(round(period_s * 2 * rate), rate)
    freq = low + (high - low) * (0.5 - 0.5 * np.cos(2.0 * np.pi * t / period_s))
    return dsp.square(dsp.periodic_phase(freq, rate), freq, rate)


def _extra_life(rate: int) -> np.ndarray:
    parts = []
    for freq in (1046.5, 1318.5, 1568.0, 2093.0):
        t = dsp.seconds(round(0.07 * rate), rate)
        parts.append(dsp.square(freq * t, freq, rate) * _envelope(t.size, rate, decay=10.0))
    return np.concatenate(parts)


def _hyperspace(rate: int) -> np.ndarray:
    t = dsp.seconds(round(0.25 * rate), rate)
    freq = 200.0 * (1600.0 / 200.0) ** (t / 0.25)
    wave = np.sin(2.0 * np.pi * dsp.sweep_phase(freq, rate))
    return wave * _envelope(wave.size, rate, decay=6.0)


BUILDERS: dict[str, Callable[[int], np.ndarray]] = {
    "fire": _fire,
    "saucer_fire": _fire,
    "bang_large": lambda r: _bang(r, 0.9, 40, 1),
    "bang_medium": lambda r: _bang(r, 0.6, 24, 2),
    "bang_small": lambda r: _bang(r, 0.35, 12, 3),
    "ship_explode": lambda r: _bang(r, 1.3, 60, 4),
    "thrust": _thrust,
    "beat_low": lambda r: _beat(r, 55.0),
    "beat_high": lambda r: _beat(r, 62.0),
    "saucer_large": lambda r: _siren(r, 300.0, 420.0, 0.5),
    "saucer_small": lambda r: _siren(r, 700.0, 1000.0, 0.25),
    "extra_life": _extra_life,
    "hyperspace": _hyperspace,
}
"""Every voice of the set: ``rate -> samples`` (any peak; ``synth`` normalises)."""

LEVELS_DB: dict[str, float] = {
    "bang_large": 0.0, "bang_medium": 0.0, "bang_small": 0.0, "ship_explode": 0.0,
    "thrust": -11.0, "beat_low": 0.0, "beat_high": 0.0, "extra_life": -24.0,
    "saucer_large": -26.0, "saucer_small": -26.0, "fire": -23.0, "saucer_fire": -25.0,
    "hyperspace": -14.0,
}
"""Each voice's peak in the mix, dB under the loudest, set so that the A-weighted loudness
(``sound_measure.loudness_dba``) puts every explosion above everything else and at least 8 dB
above the shots (0.1.0 had its shots 8-12 dB louder than any explosion)."""
