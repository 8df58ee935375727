"""The game's sounds, synthesised with numpy as mono int16 PCM: pure and deterministic.

No files and no audio library here, so every sound can be checked by shape and hash in a
test. ``audio.py`` turns these arrays into playable sources.
"""

from __future__ import annotations

import numpy as np

__all__ = ["LOOPING", "RATE", "SOUND_NAMES", "render_all", "render_sound"]

RATE = 22050
"""Sample rate in Hz: plenty for these buzzes and thumps, and quick to build."""

_PEAK = 0.8 * 32767


def _t(seconds: float, rate: int) -> np.ndarray:
    return np.arange(round(seconds * rate)) / rate


def _envelope(n: int, rate: int, attack_s: float = 0.004, decay: float = 0.0) -> np.ndarray:
    """A short linear attack, then exponential decay at ``decay`` per second (0 = flat)."""
    t = np.arange(n) / rate
    env = np.minimum(t / max(attack_s, 1e-6), 1.0)
    if decay:
        env = env * np.exp(-decay * t)
    tail = min(n, round(0.004 * rate))  # no click at the end
    if tail:
        env[n - tail:] *= np.linspace(1.0, 0.0, tail)
    return env


def _square(phase: np.ndarray) -> np.ndarray:
    return np.where((phase % 1.0) < 0.5, 1.0, -1.0)


def _sweep(f0: float, f1: float, seconds: float, rate: int) -> np.ndarray:
    """Phase (in cycles) of a tone gliding exponentially from f0 to f1 Hz."""
    t = _t(seconds, rate)
    freq = f0 * (f1 / f0) ** (t / seconds)
    return np.cumsum(freq) / rate


def _noise(seconds: float, rate: int, seed: int, smooth: int) -> np.ndarray:
    """White noise low-passed by a moving average of ``smooth`` samples (darker when larger)."""
    n = round(seconds * rate)
    white = np.random.default_rng(seed).uniform(-1.0, 1.0, n + smooth)
    kernel = np.ones(smooth) / smooth
    out = np.convolve(white, kernel, mode="valid")[:n]
    return out / max(float(np.abs(out).max()), 1e-9)


def _fire(rate: int) -> np.ndarray:
    s = 0.14
    wave = _square(_sweep(1400.0, 300.0, s, rate))
    return wave * _envelope(wave.shape[0], rate, decay=14.0) * 0.45


def _bang(rate: int, seconds: float, smooth: int, seed: int) -> np.ndarray:
    wave = _noise(seconds, rate, seed, smooth)
    return wave * _envelope(wave.shape[0], rate, 0.002, decay=4.5 / seconds)


def _thrust(rate: int) -> np.ndarray:
    # A loop: flat level, and the noise is made periodic by cross-fading its ends.
    wave = _noise(0.6, rate, 7, 24)
    n = wave.shape[0]
    fade = round(0.05 * rate)
    ramp = np.linspace(0.0, 1.0, fade)
    wave[:fade] = wave[:fade] * ramp + wave[n - fade:] * (1.0 - ramp)
    return wave[: n - fade] * 0.35


def _beat(rate: int, freq: float) -> np.ndarray:
    s = 0.11
    t = _t(s, rate)
    wave = np.sin(2.0 * np.pi * freq * t) + 0.3 * _square(freq * t)
    return wave * _envelope(t.shape[0], rate, 0.002, decay=20.0) * 0.9


def _siren(rate: int, low: float, high: float, period_s: float) -> np.ndarray:
    # Whole periods of the warble so the loop is seamless.
    t = _t(period_s * 2, rate)
    freq = low + (high - low) * (0.5 - 0.5 * np.cos(2.0 * np.pi * t / period_s))
    phase = np.cumsum(freq) / rate
    return _square(phase) * 0.22


def _extra_life(rate: int) -> np.ndarray:
    parts = []
    for freq in (1046.5, 1318.5, 1568.0, 2093.0):
        t = _t(0.07, rate)
        parts.append(_square(freq * t) * _envelope(t.shape[0], rate, decay=10.0) * 0.35)
    return np.concatenate(parts)


def _hyperspace(rate: int) -> np.ndarray:
    wave = np.sin(2.0 * np.pi * _sweep(200.0, 1600.0, 0.25, rate))
    return wave * _envelope(wave.shape[0], rate, decay=6.0) * 0.5


_BUILDERS = {
    "fire": _fire,
    "saucer_fire": lambda r: _fire(r) * 0.8,
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

SOUND_NAMES: tuple[str, ...] = tuple(_BUILDERS)
"""Every sound the game plays."""

LOOPING: frozenset[str] = frozenset({"thrust", "saucer_large", "saucer_small"})
"""Sounds built to loop seamlessly."""


def render_sound(name: str, rate: int = RATE) -> np.ndarray:
    """One sound as mono int16 PCM.

    Args:
        name: one of ``SOUND_NAMES``.
        rate: sample rate in Hz.

    Returns:
        (n,) int16 samples; the same for the same name and rate on every run.

    Raises:
        KeyError: for an unknown name.
    """
    wave = np.clip(_BUILDERS[name](rate), -1.0, 1.0)
    return np.round(wave * _PEAK).astype(np.int16)


def render_all(rate: int = RATE) -> dict[str, np.ndarray]:
    """Every sound by name."""
    return {name: render_sound(name, rate) for name in SOUND_NAMES}
