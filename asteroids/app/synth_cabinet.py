"""The "cabinet" sound set: voices modelled on the 1979 Asteroids sound board.

Where the numbers come from:

- **Circuit** values are MAME's discrete sound model of the board,
  ``src/mame/atari/asteroid_a.cpp`` (mamedev/mame): the thump's 555 and its DAC ladder, the
  explosion's sample-and-hold clock and 3042 ohm / 1 uF filter, the thrust's 2200 ohm / 1 uF
  RC, 89.5 Hz band-pass (Q 7.6) and 160 Hz low-pass, the saucer's 5.75 / 8.25 Hz warble and
  its 500-1420 / 750-1670 Hz range, both fire sweeps and the 3 kHz extra-life tone.
- **ROM** timings are from the annotated disassembly (nmikstas/asteroids-disassembly, as in
  computerarcheology's Asteroids pages), at 62.5 frames per second: the thump is on for 4
  frames (``ThumpSFXOn``, $75B2); an explosion's timer counts 62 frames down and its top four
  bits are the volume (``ChkExplTimer``, $75BF), its pitch bits pick the clock by size
  (``ObjHitSFX``, $6B4A, read after ``BreakAsteroid`` shrank the rock); the fire sounds last
  16 frames (``StartSFXTimer``, $75CD); the extra-life tone toggles every 4 frames for 176
  half-frame steps (``UpdateSlamSFX``, $7BA9, in the 250 Hz NMI).
- The hyperspace jump has no sound on the board, so this set has none.

Each builder returns the voice's shape with its peak at 1.0; ``LEVELS_DB`` (the mix levels)
gives the balance, in the cabinet's order (``CIRCUIT_GAIN``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from asteroids.app import dsp

__all__ = ["BUILDERS", "CIRCUIT_GAIN", "EXPLOSION_CLOCK_HZ", "FIRE_SWEEP", "FRAME_S",
           "LEVELS_DB", "LIFE_HZ", "LOOP_SECONDS", "SAUCER_FIRE_SWEEP", "SIREN", "THRUST",
           "thump_555"]

FRAME_S = 1.0 / 62.5
"""One game frame of the 1979 board (the NMI ran at 250 Hz, a frame every 4th)."""

CIRCUIT_GAIN = {"explosion": 1000.0, "thrust": 600.0, "thump": 131.6, "life": 100.0,
                "saucer": 76.1, "ship_fire": 53.0, "saucer_fire": 49.5}
"""The board's relative mixer gains (asteroid_a.cpp's gain table)."""

# --- thump: a 555 in constant-current mode, its current set by a 4-bit DAC --------------


def thump_555(dac: int) -> tuple[float, float]:
    """Frequency (Hz) and duty of the thump's 555 for DAC value ``dac`` (0..15).

    The R1 ladder (220k, 100k, 47k, 22k from 3.5 V CMOS outputs, 6.8k to 4.3 V, 47k to
    ground) sets a PNP current source (22k emitter resistor, Vbe 0.8 V) that charges 0.22 uF
    from 1/3 to 2/3 of 5 V; the 18k discharge resistor empties it while the source still
    feeds it. The ROM alternates DAC 0 and 4 (``EOR #$14``): 81.6 and 87.5 Hz.
    """
    ladder = (220e3, 100e3, 47e3, 22e3)
    conductance = 1 / 6.8e3 + 1 / 47e3 + sum(1 / r for r in ladder)
    current_in = 4.3 / 6.8e3 + sum(3.5 / r for bit, r in enumerate(ladder) if dac >> bit & 1)
    v_dac = current_in / conductance
    current = (5.0 - (v_dac + 0.8)) / 22e3
    cap, r_dis = 0.22e-6, 18e3
    t_high = cap * (5.0 / 3.0) / current
    v_end = current * r_dis
    t_low = r_dis * cap * math.log((10.0 / 3.0 - v_end) / (5.0 / 3.0 - v_end))
    return 1.0 / (t_high + t_low), t_high / (t_high + t_low)


THUMP_ON_S = 4 * FRAME_S
"""64 ms per beat."""
THUMP_FILTER_HZ = 1.0 / (2 * math.pi * 3.3e3 * 0.1e-6)
"""The 3.3k / 0.1 uF smoothing after the 555 (482 Hz)."""


def _thump(rate: int, dac: int) -> np.ndarray:
    freq, duty = thump_555(dac)
    n = round(THUMP_ON_S * rate)
    phase = freq * dsp.seconds(n, rate)
    h = dsp.lowpass(THUMP_FILTER_HZ)

    def coefficients(k: int) -> tuple[float, float]:
        # the pulse's k-th harmonic through the RC filter, as a gain and a phase shift
        c = 2.0 / (math.pi * k)
        a, b = c * math.sin(2 * math.pi * k * duty), c * (1 - math.cos(2 * math.pi * k * duty))
        g = complex(h(np.array([k * freq]))[0])
        z = complex(a, -b) * g
        return z.real, -z.imag

    wave = dsp.harmonics(phase, freq, rate, coefficients)
    return dsp.fade_edges(wave, rate, 0.002, 0.004)


# --- explosions: noise sampled and held, volume stepping down, an RC low-pass ------------

EXPLOSION_CLOCK_HZ = {"bang_large": 1000.0, "bang_medium": 2400.0, "bang_small": 4000.0,
                      "ship_explode": 1000.0}
"""The sample-and-hold clock: 12 kHz divided by 12, 5 or 3 (``explode_w``), picked by the
pitch bits ``ObjHitSFX`` sets from the size the rock shrank to (large -> $3F, medium ->
$FF, small -> $BF); the ship uses hyperspace's $3E."""
EXPLOSION_FRAMES = {"bang_large": 62, "bang_medium": 62, "bang_small": 62, "ship_explode": 61}
"""Frames with volume > 0: the timer is set to $3F ($3E for the ship) and steps down 1 a
frame, volume = its bits 5..2."""
EXPLOSION_TAU_S = 3042 * 1e-6
"""The output RC (52 Hz)."""
_NOISE_OFFSET = {"bang_large": 0, "bang_medium": 9001, "bang_small": 17003, "ship_explode": 25007}


def _explosion(rate: int, name: str) -> np.ndarray:
    frames = EXPLOSION_FRAMES[name]
    length_s = (frames + 1) * FRAME_S
    edges, held = dsp.sample_and_hold(EXPLOSION_CLOCK_HZ[name], length_s, _NOISE_OFFSET[name])
    timer = frames + 1 - np.arange(frames + 1)  # written after the first decrement
    frame_edges = np.arange(frames + 1) * FRAME_S
    volume = ((timer - 1) >> 2) / 15.0
    all_edges = np.union1d(edges, frame_edges)
    value = (held[np.searchsorted(edges, all_edges, side="right") - 1]
             * volume[np.searchsorted(frame_edges, all_edges, side="right") - 1])
    n = round((length_s + 8 * EXPLOSION_TAU_S) * rate)
    wave = dsp.rc_hold(all_edges, value, EXPLOSION_TAU_S, n, rate)
    return dsp.fade_edges(wave, rate, 0.0, 0.004)


# --- thrust: gated noise, RC, band-pass, low-pass ----------------------------------------

THRUST = {"rc_hz": 1.0 / (2 * math.pi * 2200 * 1e-6), "band_hz": 89.5, "q": 7.6,
          "lowpass_hz": 160.0}
"""The thrust filter chain (72 Hz RC, 89.5 Hz band-pass of Q 7.6, 160 Hz active low-pass)."""


def _thrust(rate: int) -> np.ndarray:
    seq = dsp.lfsr_sequence()
    n = round(seq.size * rate / 12000.0)  # one period of the register: 2.73 s
    noise = seq[(np.arange(n) * seq.size) // n]
    return dsp.filter_periodic(noise, rate, dsp.lowpass(THRUST["rc_hz"]),
                               dsp.bandpass(THRUST["band_hz"], THRUST["q"]),
                               dsp.lowpass(THRUST["lowpass_hz"]))


# --- saucers: a triangle VCO swept by a triangle warble ----------------------------------

SIREN = {"saucer_large": (500.0, 1420.0, 5.75), "saucer_small": (750.0, 1670.0, 8.25)}
"""(lowest Hz, highest Hz, warble Hz): the slow 555 warbles 0..920 Hz over 750 Hz, 250 Hz
lower for the large saucer (``SAUCER_SEL``), at 8.25 Hz less 2.5 Hz for the large one."""
LOOP_SECONDS = 4.0
"""Both warbles fit whole periods in 4 s (23 and 33), and so does the carrier."""


def _siren(rate: int, name: str) -> np.ndarray:
    low, high, warble = SIREN[name]
    t = dsp.seconds(round(LOOP_SECONDS * rate), rate)
    w = np.mod(t * warble, 1.0)
    sweep = np.where(w < 0.5, 2.0 * w, 2.0 - 2.0 * w)  # triangle 0..1..0
    freq = low + (high - low) * sweep
    phase = dsp.periodic_phase(freq, rate)
    return dsp.triangle(phase, freq, rate)


# --- the fire sounds: a 555 whose frequency and amplitude decay --------------------------

FIRE_SWEEP = (820.0, 110.0, 0.28, 0.081)
"""Ship fire: from 820 Hz falling (820 - 110) / 0.28 Hz per second (floor 110), amplitude
7 + 46 exp(-t / 81 ms) (``DISCRETE_RAMP`` and ``DISCRETE_RCDISC``)."""
SAUCER_FIRE_SWEEP = (830.0, 630.0, 0.28, 0.3)
"""Saucer fire: 830 Hz falling (830 - 630) / 0.28 Hz per second, amplitude
7 + 42.5 exp(-t / 0.3 s): slower and higher, so the two are told apart."""
FIRE_ON_S = 16 * FRAME_S
"""Both fire sounds are gated for 16 frames (256 ms)."""
SAUCER_FIRE_FILTER_HZ = 1.0 / (2 * math.pi * 2.0 * 1e-5)


def _fire(rate: int, sweep: tuple[float, float, float, float], start_amp: float) -> np.ndarray:
    f0, f1, ramp_s, tau = sweep
    t = dsp.seconds(round(FIRE_ON_S * rate), rate)
    freq = np.maximum(f0 - (f0 - f1) / ramp_s * t, f1)
    duty = np.minimum(4500.0 / freq + 67.0, 99.0) / 100.0  # the 555's duty, in percent
    amp = (7.0 + (start_amp - 7.0) * np.exp(-t / tau)) / start_amp
    wave = dsp.pulse(dsp.sweep_phase(freq, rate), freq, rate, duty) * amp
    return dsp.fade_edges(wave, rate, 0.001, 0.006)


def _saucer_fire(rate: int) -> np.ndarray:
    wave = _fire(rate, SAUCER_FIRE_SWEEP, 49.5)
    return dsp.filter_oneshot(wave, rate, dsp.lowpass(SAUCER_FIRE_FILTER_HZ), tail_s=0.0)


# --- extra life: a 3 kHz tone switched every 4 frames ------------------------------------

LIFE_HZ = 3000.0
LIFE_GATE_S = 4 * FRAME_S
"""On 64 ms, off 64 ms."""
LIFE_SECONDS = 176 * FRAME_S / 2
"""0xB0 steps, two per frame: 1.408 s, 11 beeps."""


def _extra_life(rate: int) -> np.ndarray:
    n = round(LIFE_SECONDS * rate)
    gate_n = round(LIFE_GATE_S * rate)
    beep = dsp.fade_edges(dsp.square(LIFE_HZ * dsp.seconds(gate_n, rate), LIFE_HZ, rate),
                          rate, 0.001, 0.001)
    out = np.zeros(n)
    for start in range(0, n, 2 * gate_n):
        part = beep[: n - start]
        out[start: start + part.size] = part
    return out


BUILDERS: dict[str, Callable[[int], np.ndarray]] = {
    "fire": lambda r: _fire(r, FIRE_SWEEP, 53.0),
    "saucer_fire": _saucer_fire,
    "bang_large": lambda r: _explosion(r, "bang_large"),
    "bang_medium": lambda r: _explosion(r, "bang_medium"),
    "bang_small": lambda r: _explosion(r, "bang_small"),
    "ship_explode": lambda r: _explosion(r, "ship_explode"),
    "thrust": _thrust,
    "beat_low": lambda r: _thump(r, 0),
    "beat_high": lambda r: _thump(r, 4),
    "saucer_large": lambda r: _siren(r, "saucer_large"),
    "saucer_small": lambda r: _siren(r, "saucer_small"),
    "extra_life": _extra_life,
}
"""Every voice of the set: ``rate -> samples`` (any peak; ``synth`` normalises)."""

LEVELS_DB: dict[str, float] = {
    "bang_large": 0.0, "bang_medium": 0.0, "bang_small": 0.0, "ship_explode": 0.0,
    "thrust": -8.5, "beat_low": -17.3, "beat_high": -17.3, "extra_life": -32.6,
    "saucer_large": -32.3, "saucer_small": -32.9, "fire": -26.2, "saucer_fire": -31.0,
}
"""Each voice's peak in the mix, dB under the loudest, set so that its loudness relative
to the large explosion (BS.1770 momentary, ``sound_measure.loudness_lufs``, at the default
volumes, the heartbeat at its fastest) is the board's mixer gain relative to the
explosion's (``CIRCUIT_GAIN``: thrust -4.4 dB, thump -17.6, extra life -20, saucer -22.4,
fire -25.5, saucer fire -26.1); ``sound_checks.balance_checks`` measures each, within 2 dB.
Thrust (-8.5 dB) and the thump (-17.3 dB, then -8 dB of heartbeat volume) stay under the
limiter's knee alone and together."""
