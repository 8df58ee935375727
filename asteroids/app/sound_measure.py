"""Measurements of rendered sound: peak, RMS, A-weighted and K-weighted (LUFS) loudness,
spectral centroid, pitch.

Pure numpy; used by ``asteroids sounds`` and by the tests, so the numbers the README prints
are the numbers the tests check. Levels are dB relative to full scale (1.0): a full-scale
sine has a peak of 0 dB and an RMS of -3 dB.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asteroids.app import dsp

__all__ = ["LOUDNESS_WINDOW_S", "SMALL_SPEAKER_HZ", "a_weighted", "a_weighting_db",
           "band_peak_hz", "centroid_hz", "db", "first_null_hz", "gate_rate_hz", "k_weighting",
           "loudness_dba", "loudness_lufs", "peak_dbfs", "period_s", "pitch_track", "rms_dbfs",
           "small_speaker", "strongest_hz", "warble_hz"]

LOUDNESS_WINDOW_S = 0.4
"""Loudness is the A-weighted RMS of the loudest window this long (the length of EBU
R 128's momentary loudness), so a 64 ms thump and a 4 s siren are compared fairly."""


def db(value: float) -> float:
    """20 log10 of an amplitude; -inf for 0."""
    return float(20.0 * np.log10(value)) if value > 0 else float("-inf")


def peak_dbfs(x: np.ndarray) -> float:
    """The highest absolute sample, in dB re full scale."""
    return db(float(np.abs(x).max())) if x.size else float("-inf")


def rms_dbfs(x: np.ndarray) -> float:
    """The RMS of the whole signal, in dB re full scale."""
    return db(float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))) if x.size else float("-inf")


def a_weighting_db(f: np.ndarray) -> np.ndarray:
    """The A-weighting curve of IEC 61672-1 in dB (0 dB at 1 kHz) at frequencies ``f`` Hz."""
    f2 = np.square(np.asarray(f, dtype=np.float64))
    num = 12194.0 ** 2 * f2 * f2
    den = ((f2 + 20.6 ** 2) * np.sqrt((f2 + 107.7 ** 2) * (f2 + 737.9 ** 2))
           * (f2 + 12194.0 ** 2))
    with np.errstate(divide="ignore"):
        return 20.0 * np.log10(np.maximum(num / den, 1e-30)) + 2.0


def _filtered(x: np.ndarray, rate: int, response: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``x`` through ``response(f)`` (applied in the frequency domain)."""
    n = x.size
    spectrum = np.fft.rfft(np.asarray(x, dtype=np.float64), 2 * n)
    f = np.fft.rfftfreq(2 * n, 1.0 / rate)
    return np.fft.irfft(spectrum * response(f), 2 * n)[:n]


def _loudest_mean_square(x: np.ndarray, rate: int, window_s: float) -> float:
    """The mean square of the loudest ``window_s`` of ``x``, windows every 10 ms (the whole
    signal when shorter, counted as if padded with silence to the window)."""
    w = max(1, round(window_s * rate))
    power = np.concatenate(([0.0], np.cumsum(np.square(x))))
    if x.size <= w:
        return float(power[-1] / w)
    hop = max(1, round(0.01 * rate))
    starts = np.arange(0, x.size - w + 1, hop)
    return float((power[starts + w] - power[starts]).max() / w)


def a_weighted(x: np.ndarray, rate: int) -> np.ndarray:
    """``x`` through the A-weighting curve (applied in the frequency domain, zero phase)."""
    return _filtered(x, rate, lambda f: 10.0 ** (a_weighting_db(f) / 20.0))


def loudness_dba(x: np.ndarray, rate: int, window_s: float = LOUDNESS_WINDOW_S) -> float:
    """Loudness in dB(A) re full scale: the A-weighted RMS over the loudest ``window_s``
    (the whole signal when shorter, counted as if padded with silence to the window)."""
    if not x.size:
        return float("-inf")
    return db(float(np.sqrt(_loudest_mean_square(a_weighted(x, rate), rate, window_s))))


def k_weighting(f: np.ndarray) -> np.ndarray:
    """The K-weighting of ITU-R BS.1770-4 as a complex response at ``f`` Hz: its +4 dB high
    shelf (1682 Hz, Q 0.707) and its RLB high-pass (38 Hz, Q 0.500), as the analog
    prototypes of the standard's two biquads (so it holds at any sample rate)."""
    s = 1j * np.asarray(f, dtype=np.float64) / 1681.97
    vh, q = 10.0 ** (4.0 / 20.0), 0.7072
    shelf = (vh * s * s + np.sqrt(vh) * s / q + 1.0) / (s * s + s / q + 1.0)
    h = 1j * np.asarray(f, dtype=np.float64) / 38.135
    return shelf * (h * h) / (h * h + h / 0.5003 + 1.0)


def loudness_lufs(x: np.ndarray, rate: int, window_s: float = LOUDNESS_WINDOW_S) -> float:
    """Momentary loudness in LUFS (BS.1770: -0.691 + 10 log10 of the K-weighted mean square)
    of the loudest ``window_s``, windows every 10 ms; a shorter signal counts as if padded
    with silence. Differences between two of these are LU."""
    if not x.size:
        return float("-inf")
    mean_square = _loudest_mean_square(_filtered(x, rate, k_weighting), rate, window_s)
    return -0.691 + 10.0 * float(np.log10(mean_square)) if mean_square > 0 else float("-inf")


SMALL_SPEAKER_HZ = 200.0
"""A laptop or phone speaker, roughly: little below this (a second-order high-pass)."""


def small_speaker(x: np.ndarray, rate: int) -> np.ndarray:
    """``x`` as a small speaker would give it: through a 12 dB/octave high-pass at
    ``SMALL_SPEAKER_HZ``."""
    edge = dsp.highpass(SMALL_SPEAKER_HZ)
    return dsp.filter_oneshot(np.asarray(x, dtype=np.float64), rate, edge, edge,
                              tail_s=0.0)[: x.size]


def centroid_hz(x: np.ndarray, rate: int) -> float:
    """The spectral centroid: the power-weighted mean frequency of the whole signal."""
    if not x.size:
        return 0.0
    power = np.square(np.abs(np.fft.rfft(np.asarray(x, dtype=np.float64))))
    f = np.fft.rfftfreq(x.size, 1.0 / rate)
    total = float(power.sum())
    return float((f * power).sum() / total) if total > 0 else 0.0


def period_s(x: np.ndarray, rate: int, lo_hz: float, hi_hz: float) -> float:
    """The strongest period of ``x`` between ``1 / hi_hz`` and ``1 / lo_hz`` seconds, by
    autocorrelation with a parabolic fit around the peak (a pitch estimate)."""
    x = np.asarray(x, dtype=np.float64) - float(np.mean(x))
    n = x.size
    spectrum = np.fft.rfft(x, 2 * n)
    corr = np.fft.irfft(np.abs(spectrum) ** 2, 2 * n)[:n]
    corr = corr / np.maximum(np.arange(n, 0, -1), 1)  # unbiased: longer lags have fewer terms
    lo = max(1, int(rate / hi_hz))
    hi = min(n - 2, int(np.ceil(rate / lo_hz)))
    window = corr[lo: hi + 1]
    # the first peak nearly as high as the highest: multiples of the period score as high
    peaks = [i for i in range(1, window.size - 1)
             if window[i] >= window[i - 1] and window[i] >= window[i + 1]]
    best = float(window.max())
    lag = lo + next((i for i in peaks if window[i] >= 0.9 * best), int(np.argmax(window)))
    a, b, c = corr[lag - 1], corr[lag], corr[lag + 1]
    shift = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
    return (lag + shift) / rate


def pitch_track(x: np.ndarray, rate: int) -> tuple[np.ndarray, np.ndarray]:
    """Instantaneous frequency from upward zero crossings: (times in s, Hz)."""
    x = np.asarray(x, dtype=np.float64)
    below = np.signbit(x)
    up = np.nonzero(~below[1:] & below[:-1])[0]
    t = (up + x[up] / (x[up] - x[up + 1])) / rate
    return t[:-1] + np.diff(t) / 2, 1.0 / np.diff(t)


def warble_hz(x: np.ndarray, rate: int) -> float:
    """How fast the pitch of ``x`` swings (a siren's warble): the strongest rate of its
    pitch track, resampled every 2 ms."""
    t, hz = pitch_track(x, rate)
    grid = np.arange(t[0], t[-1], 0.002)
    track = np.interp(grid, t, hz) - hz.mean()
    return float(np.fft.rfftfreq(grid.size, 0.002)[np.argmax(np.abs(np.fft.rfft(track)))])


def strongest_hz(x: np.ndarray, rate: int) -> float:
    """The frequency of the strongest spectral line of ``x``."""
    spectrum = np.abs(np.fft.rfft(np.asarray(x, dtype=np.float64)))
    return float(np.fft.rfftfreq(x.size, 1.0 / rate)[np.argmax(spectrum)])


def band_peak_hz(x: np.ndarray, rate: int, smooth_hz: float = 5.0) -> float:
    """Where the power of a noise ``x`` peaks (its spectrum averaged over ``smooth_hz``): the
    centre of a band-pass."""
    power = np.abs(np.fft.rfft(np.asarray(x, dtype=np.float64))) ** 2
    f = np.fft.rfftfreq(x.size, 1.0 / rate)
    k = max(1, int(smooth_hz / f[1]))
    return float(f[np.argmax(np.convolve(power, np.ones(k) / k, mode="same"))])


def first_null_hz(x: np.ndarray, rate: int, below_hz: float, rc_hz: float = 52.3) -> float:
    """The deepest notch of a sample-and-hold noise's spectrum between 300 Hz and
    ``below_hz``: the hold's sinc has its nulls at the clock and its multiples, so this is
    the clock. The low-pass at ``rc_hz`` after the hold is divided out first."""
    power = np.abs(np.fft.rfft(np.asarray(x, dtype=np.float64))) ** 2
    f = np.fft.rfftfreq(x.size, 1.0 / rate)
    k = max(1, int(50.0 / f[1]))
    smooth = np.convolve(power, np.ones(k) / k, mode="same") * (1 + (f / rc_hz) ** 2)
    band = (f > 300.0) & (f < below_hz)
    return float(f[band][np.argmin(smooth[band])])


def gate_rate_hz(x: np.ndarray, rate: int, smooth_s: float = 0.004) -> float:
    """How often a tone of ``x`` is switched on (beeps per second): the strongest rate of
    its envelope."""
    k = max(1, round(smooth_s * rate))
    env = np.convolve(np.abs(np.asarray(x, dtype=np.float64)), np.ones(k) / k, mode="same")
    return strongest_hz(env - env.mean(), rate)
