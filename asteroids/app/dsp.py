"""Signal building blocks for the synthesised sounds: band-limited oscillators, the cabinet's
noise register, filters given by their analog response, and envelopes. Pure numpy.

Why these shapes:

- Oscillators are additive: every harmonic is a sine, and harmonics fade out between
  ``ROLLOFF_START`` and ``ROLLOFF_END`` of the sample rate, so no partial ever folds back
  below Nyquist (a naive square at 3 kHz aliases at about -15 dB; these stay below -40 dB,
  which ``tests/app/test_synth.py`` measures).
- Filters are applied in the frequency domain with the analog circuit's own response
  ``H(f)``: a periodic signal filtered this way is exactly periodic (a seamless loop), and a
  one-shot is zero-padded first so the filter's ring-out is kept.
- The 1979 sample-and-hold noise is rendered as the exact response of an RC low-pass to a
  piecewise-constant input, so the held steps do not alias either.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

__all__ = [
    "ROLLOFF_END", "ROLLOFF_START", "Response", "bandpass", "fade_edges", "filter_oneshot",
    "filter_periodic", "harmonics", "highpass", "lfsr_sequence", "lowpass", "lowpass2",
    "periodic_phase", "pulse", "rc_hold", "sample_and_hold", "seconds", "square",
    "sweep_phase", "triangle",
]

ROLLOFF_START = 0.40
"""Harmonics above this fraction of the sample rate start to fade out..."""
ROLLOFF_END = 0.45
"""...and are gone at this fraction (Nyquist is 0.5)."""

Response = Callable[[np.ndarray], np.ndarray]
"""An analog filter's complex response ``H(f)`` at frequencies ``f`` in Hz."""


def seconds(n: int, rate: int) -> np.ndarray:
    """The times of ``n`` samples from 0, in seconds."""
    return np.arange(n) / rate


def sweep_phase(freq: np.ndarray, rate: int) -> np.ndarray:
    """Phase in cycles of an oscillator whose frequency (Hz) changes sample by sample; the
    first sample is at phase 0."""
    phase = np.cumsum(freq) / rate
    return phase - phase[0] if phase.size else phase


def periodic_phase(freq: np.ndarray, rate: int) -> np.ndarray:
    """Like ``sweep_phase`` for a loop: the phase is nudged by less than a cycle over the
    whole buffer so that it ends on a whole number of cycles (a seamless wrap)."""
    phase = sweep_phase(freq, rate)
    total = (phase[-1] + freq[-1] / rate) if phase.size else 0.0
    drift = total - round(total)
    return phase - drift * np.arange(phase.size) / max(phase.size, 1)


def harmonics(phase: np.ndarray, freq: np.ndarray | float, rate: int,
              coefficients: Callable[[int], tuple[np.ndarray | float, np.ndarray | float]],
              odd_only: bool = False) -> np.ndarray:
    """A band-limited periodic wave: ``sum_k w_k (a_k cos 2 pi k phase + b_k sin 2 pi k phase)``.

    Args:
        phase: phase in cycles, per sample.
        freq: the fundamental in Hz, per sample (or one number).
        rate: sample rate in Hz.
        coefficients: ``k -> (a_k, b_k)``, numbers or per-sample arrays.
        odd_only: only odd harmonics (squares, triangles).

    Returns:
        The wave; harmonic ``k`` is faded out where ``k * freq`` passes ``ROLLOFF_START`` of
        ``rate`` and absent from ``ROLLOFF_END`` on.
    """
    freq_arr = np.broadcast_to(np.asarray(freq, dtype=np.float64), phase.shape)
    out = np.zeros(phase.shape, dtype=np.float64)
    if not phase.size:
        return out
    lo, hi = ROLLOFF_START * rate, ROLLOFF_END * rate
    top = int(hi / max(float(freq_arr.min()), 1.0)) + 1
    frac = np.mod(phase, 1.0)
    for k in range(1, top + 1, 2 if odd_only else 1):
        weight = np.clip((hi - k * freq_arr) / (hi - lo), 0.0, 1.0)
        if not weight.any():
            continue
        a, b = coefficients(k)
        angle = 2.0 * np.pi * k * frac
        out += weight * (a * np.cos(angle) + b * np.sin(angle))
    return out


def pulse(phase: np.ndarray, freq: np.ndarray | float, rate: int,
          duty: np.ndarray | float = 0.5) -> np.ndarray:
    """A band-limited pulse wave, +1 for the first ``duty`` of each cycle and -1 after, less
    its mean (the circuits' outputs are AC-coupled)."""
    d = np.asarray(duty, dtype=np.float64)

    def coefficients(k: int) -> tuple[np.ndarray, np.ndarray]:
        c = 2.0 / (np.pi * k)
        return c * np.sin(2.0 * np.pi * k * d), c * (1.0 - np.cos(2.0 * np.pi * k * d))

    return harmonics(phase, freq, rate, coefficients)


def square(phase: np.ndarray, freq: np.ndarray | float, rate: int) -> np.ndarray:
    """A band-limited square wave (peaks about +-1.18 where its Gibbs ripple is)."""
    return harmonics(phase, freq, rate, lambda k: (0.0, 4.0 / (np.pi * k)), odd_only=True)


def triangle(phase: np.ndarray, freq: np.ndarray | float, rate: int) -> np.ndarray:
    """A band-limited triangle wave, peaks +-1, rising through 0 at phase 0."""
    return harmonics(phase, freq, rate,
                     lambda k: (0.0, (-1.0) ** ((k - 1) // 2) * 8.0 / (np.pi * k) ** 2),
                     odd_only=True)


@functools.cache
def lfsr_sequence() -> np.ndarray:
    """One period (32 767 steps) of the cabinet's noise register, as +-1.

    MAME's ``asteroid_lfsr``: 16 bits from 0, the new bit is XNOR of bits 6 and 14, shifted
    in at bit 0, and the output is that new bit. Clocked at 12 kHz on the board. Computed once
    (about 15 ms) and read-only.
    """
    reg = 0
    bits = np.empty(32767, dtype=np.float64)
    for i in range(bits.size):
        fb = 1 - (((reg >> 6) ^ (reg >> 14)) & 1)
        reg = ((reg << 1) | fb) & 0xFFFF
        bits[i] = fb
    out = 2.0 * bits - 1.0
    out.setflags(write=False)
    return out


def sample_and_hold(clock_hz: float, duration_s: float, offset: int = 0,
                    source_hz: float = 12000.0) -> tuple[np.ndarray, np.ndarray]:
    """The cabinet's explosion noise before its filter: the noise register (clocked at
    ``source_hz``) sampled and held at ``clock_hz``.

    Returns:
        ``(edges, values)``: the hold starts in seconds (``edges[0] == 0``) and the held +-1
        values; value ``i`` lasts from ``edges[i]`` to ``edges[i + 1]`` (the last to the end).
    """
    seq = lfsr_sequence()
    n = int(np.ceil(duration_s * clock_hz))
    edges = np.arange(n) / clock_hz
    taps = (offset + np.floor(edges * source_hz).astype(np.int64)) % seq.size
    return edges, seq[taps]


def rc_hold(edges: np.ndarray, values: np.ndarray, tau_s: float, n: int,
            rate: int) -> np.ndarray:
    """The exact output of an RC low-pass (time constant ``tau_s``, starting at 0) fed a
    piecewise-constant input, sampled at ``rate``: no step is ever sampled, so none aliases.

    Args:
        edges: where each constant piece starts, in seconds, increasing, ``edges[0] == 0``.
        values: each piece's level.
        tau_s: R * C.
        n: samples to return.
        rate: sample rate in Hz.
    """
    state = np.zeros(values.size, dtype=np.float64)  # filter output at each edge
    keep = np.exp(-np.diff(edges) / tau_s)
    y = 0.0
    for i in range(values.size - 1):
        state[i] = y
        y = values[i] + (y - values[i]) * keep[i]
    if values.size:
        state[-1] = y
    t = seconds(n, rate)
    piece = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, max(values.size - 1, 0))
    since = t - edges[piece]
    return values[piece] + (state[piece] - values[piece]) * np.exp(-since / tau_s)


def lowpass(fc: float) -> Response:
    """A first-order RC low-pass at ``fc`` Hz."""
    return lambda f: 1.0 / (1.0 + 1j * f / fc)


def lowpass2(fc: float) -> Response:
    """A second-order Butterworth low-pass at ``fc`` Hz (no comb nulls, unlike a moving
    average)."""
    def response(f: np.ndarray) -> np.ndarray:
        s = 1j * f / fc
        return 1.0 / (s * s + np.sqrt(2.0) * s + 1.0)
    return response


def highpass(fc: float) -> Response:
    """A first-order RC high-pass at ``fc`` Hz (a coupling capacitor)."""
    return lambda f: (1j * f / fc) / (1.0 + 1j * f / fc)


def bandpass(f0: float, q: float) -> Response:
    """A second-order band-pass centred on ``f0`` Hz, gain 1 there, quality ``q``."""
    def response(f: np.ndarray) -> np.ndarray:
        s = 1j * f / f0
        return (s / q) / (s * s + s / q + 1.0)
    return response


def _apply(x: np.ndarray, rate: int, responses: tuple[Response, ...]) -> np.ndarray:
    spectrum = np.fft.rfft(x)
    f = np.fft.rfftfreq(x.size, 1.0 / rate)
    for response in responses:
        spectrum = spectrum * response(f)
    return np.fft.irfft(spectrum, x.size)


def filter_periodic(x: np.ndarray, rate: int, *responses: Response) -> np.ndarray:
    """``x`` as one period of a periodic signal, through the filters in turn: the steady
    state, which is itself exactly periodic (a loop with no seam)."""
    return _apply(np.asarray(x, dtype=np.float64), rate, responses)


def filter_oneshot(x: np.ndarray, rate: int, *responses: Response,
                   tail_s: float = 0.5) -> np.ndarray:
    """``x`` (silence before it) through the filters in turn, keeping ``tail_s`` seconds of
    ring-out after it."""
    n = x.size + round(tail_s * rate)
    padded = np.zeros(2 * n, dtype=np.float64)  # room for the response's wrap to die out
    padded[: x.size] = x
    return _apply(padded, rate, responses)[:n]


def fade_edges(x: np.ndarray, rate: int, fade_in_s: float = 0.002,
               fade_out_s: float = 0.005) -> np.ndarray:
    """``x`` with raised-cosine fades at both ends, so that it starts and stops without a
    click."""
    out = np.array(x, dtype=np.float64)
    for length, sl in ((round(fade_in_s * rate), slice(None)),
                       (round(fade_out_s * rate), slice(None, None, -1))):
        length = min(length, out.size)
        if length:
            ramp = 0.5 - 0.5 * np.cos(np.pi * np.arange(length) / length)
            view = out[sl]
            view[:length] *= ramp
    return out
