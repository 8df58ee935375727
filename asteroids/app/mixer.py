"""The game's mixer: voices with per-sound limits, gapless loops with fades, dB-taper volume,
and a soft limiter that keeps every mix below -1 dBFS. Pure numpy, no audio library.

``audio.SoundBank`` streams ``Mixer.render`` to the sound card; ``asteroids sounds`` and the
tests call the same ``render`` offline, so what they measure is what the player hears.

- **Voice limits** (``GROUPS``): each sound belongs to a group with at most ``limit`` voices;
  a new sound steals the group's oldest voice, which fades out in ``STEAL_FADE_S``. The
  heartbeat has a group of its own: it is never dropped, a new beat replaces the last.
- **Loops** (thrust, the saucers' sirens) wrap their own buffer for as long as they are on
  and fade in and out over ``LOOP_FADE_S``; switching one on while it fades out turns the
  fade around, so it never jumps.
- **Volume** follows a dB taper (``taper``): each 0.1 of a setting is ``TAPER_DB / 10`` dB,
  0 is silence. The master volume is applied after the limiter, so the mix sounds the same at
  every volume; the effects and heartbeat volumes are applied to their voices. Changes glide
  over ``GAIN_GLIDE_S``.
- **Limiter**: the sum is brought under ``KNEE`` by a gain that looks ``LOOKAHEAD`` samples
  ahead: the mixer renders copies of its voices that far past the block (the buffers are
  known in advance, so this needs no delay line and adds no latency), and the gain ramps
  down over the look-ahead so that it is there before the peak. A cue that arrives inside
  the look-ahead is met by a gain that drops within its block, as before. The gain
  recovers with ``RELEASE_S``, slow enough that it does not duck on every heartbeat
  (issue 37: 1.7-3.1 dB on every 128 ms beat before). A soft clipper after it bends
  anything above ``KNEE`` towards ``CEILING`` (-1 dBFS), which no sample can reach.
- **Cues on time** (issue 37): ``play(name, at=t)`` takes the time ``t`` of the tick that
  caused the sound on the game's clock and starts the voice at the exact sample
  ``floor(t * rate + 0.5) + round(offset)`` of the mixer's own clock (``samples``), wherever
  it falls in a block. ``offset``, the clock map, is built from envelopes of the game's and
  the driver's timing plus ``latency_s`` of room (``audio_clock`` says how and why), moves
  at most ``SLEW`` of the samples played between cues, and is anchored afresh only when the
  game clock jumps or the stream underran. A cue whose sample has gone plays at once and is
  counted (``late_cues``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping

import numpy as np

from asteroids.app.audio_clock import (
    DEADBAND_S,
    DRIFT_SPAN_S,
    JUMP_S,
    LATENCY_S,
    MAX_DRIFT,
    SLEW,
    UNDERRUN_SLACK_S,
    WINDOW_S,
    ClockMap,
)

__all__ = ["BLOCK", "CEILING", "DEADBAND_S", "GAIN_GLIDE_S", "GROUPS", "JUMP_S", "KNEE",
           "LATENCY_S", "LOOKAHEAD", "ATTACK_DB_PER_S", "LOOP_FADE_S", "RELEASE_S", "SLEW",
           "STEAL_FADE_S", "TAPER_DB", "UNDERRUN_SLACK_S", "WINDOW_S", "DRIFT_SPAN_S",
           "MAX_DRIFT", "Mixer", "soft_clip", "taper"]

TAPER_DB = 40.0
"""The volume settings' range: 1.0 is 0 dB, 0.1 is -36 dB, 0 is silence."""
CEILING = float(np.floor(10.0 ** (-1.0 / 20.0) * 32767.0) / 32767.0)
"""No output sample reaches this: -1 dBFS, rounded down to a 16-bit step so that the PCM
stays under -1 dBFS too."""
KNEE = 10.0 ** (-4.0 / 20.0)
"""The limiter keeps the mix under this (-4 dBFS); above it the soft clipper bends. A sound
at level 0 dB (``synth.level_db``) peaks here: alone, the loudest sound is never limited."""
RELEASE_S = 0.6
"""How fast the limiter's gain recovers (time constant): from a 9 dB cut it rises 0.15 dB
per 10 ms, and it stays down across a burst instead of swelling between the beats (0.15 s
before issue 37 pumped 1.7-3.1 dB on every 128 ms beat)."""
BLOCK = 64
"""The limiter's gain follows the mix peak per block of this many samples (2.9 ms)."""
LOOKAHEAD = 8 * BLOCK
"""How far the limiter looks ahead (512 samples, 23 ms at 22 050 Hz): its gain starts down
this early, so a peak meets a gain already lowered instead of a step."""
ATTACK_DB_PER_S = 100.0
"""The limiter's gain falls at most this fast (1 dB per 10 ms): what the look-ahead cannot
reach in time is bent by the soft clipper instead of ducking everything at once."""
LOOP_FADE_S = 0.015
"""Loops fade in and out over 15 ms: no click when they start or stop."""
STEAL_FADE_S = 0.008
"""A voice stolen for a newer one, or cut by ``stop_all``, fades out over 8 ms."""
GAIN_GLIDE_S = 0.02
"""Volume changes glide over 20 ms (no zipper noise)."""
GROUPS: dict[str, tuple[int, tuple[str, ...]]] = {
    "fire": (2, ("fire",)),
    "saucer_fire": (2, ("saucer_fire",)),
    "explosion": (3, ("bang_large", "bang_medium", "bang_small")),
    "ship": (1, ("ship_explode",)),
    "extra_life": (1, ("extra_life",)),
    "hyperspace": (1, ("hyperspace",)),
    "heartbeat": (1, ("beat_low", "beat_high")),
}
"""One-shot groups: (most voices at once, the sounds in the group). Loops are one voice
each."""

_GROUP_OF = {name: group for group, (_, names) in GROUPS.items() for name in names}


def taper(setting: float) -> float:
    """The gain of a volume setting in [0, 1]: ``TAPER_DB`` dB per unit, 0 -> silence.

    >>> round(taper(1.0), 3), round(taper(0.5), 3), taper(0.0)
    (1.0, 0.1, 0.0)
    """
    v = min(max(float(setting), 0.0), 1.0)
    return 0.0 if v <= 0.0 else float(10.0 ** ((v - 1.0) * TAPER_DB / 20.0))


def soft_clip(x: np.ndarray) -> np.ndarray:
    """Identity up to ``KNEE``, then a tanh bend that approaches ``CEILING`` and never reaches
    it (slope 1 at the knee: no corner)."""
    mag = np.abs(x)
    room = CEILING - KNEE
    bent = KNEE + room * np.tanh((mag - KNEE) / room)
    return np.where(mag <= KNEE, x, np.sign(x) * np.minimum(bent, np.nextafter(CEILING, 0.0)))


class _Voice:
    __slots__ = ("buffer", "cut_in", "cut_step", "delay", "fade_step", "gain", "group", "loop",
                 "name", "pos", "serial")

    def __init__(self, name: str, buffer: np.ndarray, group: str, loop: bool, serial: int,
                 gain: float, fade_step: float, delay: int = 0) -> None:
        self.name = name
        self.delay = delay
        """Samples of silence before the voice starts (a cue scheduled inside a block)."""
        self.cut_in: int | None = None
        """Samples until a steal fade begins (a newer voice starts then); None: none due."""
        self.cut_step = 0.0
        self.buffer = buffer
        self.group = group
        self.loop = loop
        self.serial = serial
        self.pos = 0
        self.gain = gain
        """Fade level now, 0..1."""
        self.fade_step = fade_step
        """Per-sample change of ``gain`` (negative: fading out, removed at 0)."""

    @property
    def fading_out(self) -> bool:
        return self.fade_step < 0.0 or self.cut_in is not None

    def end(self, now: int) -> float:
        """The sample this voice stops on if nothing cuts it (inf for a loop)."""
        if self.loop:
            return math.inf
        return now + self.delay + self.buffer.size - self.pos

    def cut(self, cut_in: int, step: float) -> None:
        """Begin fading out (``step`` per sample) ``cut_in`` samples from now."""
        if cut_in <= 0:
            self.fade_step = step
        else:
            self.cut_in, self.cut_step = cut_in, step

    def render(self, n: int) -> tuple[np.ndarray, bool]:
        """The next ``n`` samples, and whether the voice is still alive after them."""
        cut = self.cut_in
        if cut is None or cut >= n:
            if cut is not None:
                self.cut_in = cut - n
            return self._wait_then_sound(n)
        self.cut_in = None
        out = np.zeros(n, dtype=np.float32)
        out[:cut], alive = self._wait_then_sound(cut)
        self.fade_step = self.cut_step
        if alive:
            out[cut:], alive = self._wait_then_sound(n - cut)
        return out, alive

    def _wait_then_sound(self, n: int) -> tuple[np.ndarray, bool]:
        if n <= 0:
            return np.zeros(0, dtype=np.float32), True
        if self.delay <= 0:
            return self._sound(n)
        wait = min(self.delay, n)
        self.delay -= wait
        out = np.zeros(n, dtype=np.float32)
        if wait == n:
            return out, True
        out[wait:], alive = self._sound(n - wait)
        return out, alive

    def _sound(self, n: int) -> tuple[np.ndarray, bool]:
        size = self.buffer.size
        if self.loop:
            idx = (self.pos + np.arange(n)) % size
            out = self.buffer[idx]
            self.pos = (self.pos + n) % size
            alive = True
        else:
            out = np.zeros(n, dtype=np.float32)
            part = self.buffer[self.pos: self.pos + n]
            out[: part.size] = part
            self.pos += n
            alive = self.pos < size
        if self.fade_step != 0.0 or self.gain != 1.0:
            env = self.gain + self.fade_step * np.arange(1, n + 1, dtype=np.float32)
            np.clip(env, 0.0, 1.0, out=env)
            out = out * env
            self.gain = float(env[-1])
            if self.gain >= 1.0 and self.fade_step > 0.0:
                self.fade_step = 0.0
            if self.gain <= 0.0 and self.fade_step < 0.0:
                alive = False
        return out, alive


class Mixer:
    """Voices in, one mono float32 stream out.

    Not thread-safe by itself: ``audio.SoundBank`` calls it from the render thread only, and
    the game thread hands it commands through a queue.

    Args:
        buffers: each sound's samples at its mix level (``synth.render_set``: peak 1.0 for
            level 0 dB, which the mixer puts at ``KNEE``).
        rate: sample rate in Hz.
        loops: the names in ``buffers`` that loop.
        latency_s: the room a timed cue gets on top of the envelopes (``LATENCY_S``).
        clock: wall-clock seconds (``time.monotonic``), read when each block starts; None
            (offline renders): "now" is the sample clock itself and no underruns are counted.
    """

    def __init__(self, buffers: Mapping[str, np.ndarray], rate: int,
                 loops: frozenset[str] | set[str] = frozenset(), *,
                 latency_s: float = LATENCY_S,
                 clock: Callable[[], float] | None = None) -> None:
        self.rate = rate
        self.samples = 0
        """The sample clock: samples rendered so far (the next block starts here)."""
        self.clock_map = ClockMap(rate, round(latency_s * rate), clock)
        """Game time -> this mixer's samples (``audio_clock``)."""
        self._buffers = {k: np.ascontiguousarray(np.asarray(v) * KNEE, dtype=np.float32)
                         for k, v in buffers.items()}
        self._loops = frozenset(loops)
        self._voices: list[_Voice] = []
        self._serial = 0
        self._limiter_gain = 1.0
        self._release = float(np.exp(-1.0 / (RELEASE_S * rate)))
        """The release's gain per sample (raised to the block's length)."""
        self._attack = float(10.0 ** (-ATTACK_DB_PER_S / rate / 20.0))
        """The attack's largest fall per sample (raised to the block's length)."""
        self.gain_trace: list[np.ndarray] | None = None
        """Set to a list to collect the limiter's gain, sample by sample, for each block
        rendered (tests and reports)."""
        self._gains = {"master": 1.0, "effects": 1.0, "heartbeat": 1.0}
        self._targets = dict(self._gains)
        self.steals = 0
        """How many voices were stolen for newer ones (for tests and the report)."""
        self.lowest_gain = 1.0
        """The deepest the limiter has cut, as a gain (1.0: never)."""

    # --- control ---------------------------------------------------------------------

    def set_volumes(self, master: float, effects: float, heartbeat: float) -> None:
        """Set the three volume settings (0..1 each, through ``taper``); they glide."""
        self._targets = {"master": taper(master), "effects": taper(effects),
                         "heartbeat": taper(heartbeat)}

    def snap_volumes(self) -> None:
        """Jump to the set volumes at once (offline renders that start at a level)."""
        self._gains = dict(self._targets)

    def has(self, name: str) -> bool:
        """Whether this mixer has a sound called ``name``."""
        return name in self._buffers

    def play(self, name: str, at: float | None = None, sent: float | None = None,
             due: float | None = None) -> None:
        """Start a one-shot sound; unknown names and loops are ignored. When its group is
        full the oldest voice in it fades out to make room.

        Args:
            name: the sound.
            at: the time of the tick that caused it on the game's clock (seconds); it starts
                at that time's sample on the clock map. None: at the start of the next block.
            sent: when the game sent it, on ``clock`` (None: now).
            due: when its tick was due, on ``clock`` (None: ``sent`` stands for it; a window
                whose frames come late says, ``ClockMap.schedule``).
        """
        buffer = self._buffers.get(name)
        if buffer is None or name in self._loops:
            return
        delay = 0 if at is None else self.schedule(at, sent, due) - self.samples
        group = _GROUP_OF.get(name, name)
        limit = GROUPS[group][0] if group in GROUPS else 1
        start = self.samples + delay
        live = sorted((v for v in self._voices if v.group == group and not v.fading_out
                       and v.end(self.samples) > start), key=lambda v: v.serial)
        for old in live[: max(0, len(live) - limit + 1)]:
            old.cut(delay, -1.0 / (STEAL_FADE_S * self.rate))  # as the new voice starts
            self.steals += 1
        self._voices.append(self._voice(name, buffer, group, loop=False, gain=1.0, step=0.0,
                                        delay=delay))

    def schedule(self, at: float, sent: float | None = None, due: float | None = None) -> int:
        """The sample a cue of game time ``at`` starts on (``ClockMap.schedule``)."""
        return self.clock_map.schedule(at, sent, self.samples, due)

    @property
    def latency(self) -> int:
        """The room a timed cue gets on top of the envelopes, in samples."""
        return self.clock_map.latency

    @property
    def offset(self) -> float | None:
        """The clock map (``ClockMap.offset``; None until the first timed cue)."""
        return self.clock_map.offset

    @property
    def late_cues(self) -> int:
        """Timed cues whose sample had gone when they arrived (played at once)."""
        return self.clock_map.late_cues

    @property
    def anchors(self) -> int:
        """How often the clock map was anchored (the first cue, then each jump)."""
        return self.clock_map.anchors

    @property
    def underruns(self) -> int:
        """Blocks asked for after the audio delivered before them had run out."""
        return self.clock_map.underruns

    def loop(self, name: str, on: bool) -> None:
        """Start (fading in) or stop (fading out) a looping sound; unknown names are ignored."""
        buffer = self._buffers.get(name)
        if buffer is None or name not in self._loops:
            return
        step = 1.0 / (LOOP_FADE_S * self.rate)
        voice = next((v for v in self._voices if v.loop and v.name == name), None)
        if voice is None:
            if on:
                self._voices.append(self._voice(name, buffer, name, loop=True, gain=0.0,
                                                step=step))
        else:
            voice.fade_step = step if on else -step
            if on and voice.gain >= 1.0:
                voice.fade_step = 0.0

    def looping(self, name: str) -> bool:
        """Whether ``name`` is on (not fading out)."""
        return any(v.loop and v.name == name and not v.fading_out for v in self._voices)

    def stop_all(self) -> None:
        """Fade every voice out (``STEAL_FADE_S``); cues not yet started are dropped."""
        step = -1.0 / (STEAL_FADE_S * self.rate)
        self._voices = [v for v in self._voices if v.delay <= 0]
        for voice in self._voices:
            voice.fade_step = step

    def clear(self) -> None:
        """Drop every voice at once (the stream is not playing)."""
        self._voices.clear()

    @property
    def voices(self) -> list[str]:
        """The names of the voices sounding now, oldest first (for tests)."""
        return [v.name for v in sorted(self._voices, key=lambda v: v.serial)]

    def _voice(self, name: str, buffer: np.ndarray, group: str, loop: bool, gain: float,
               step: float, delay: int = 0) -> _Voice:
        self._serial += 1
        return _Voice(name, buffer, group, loop, self._serial, gain, step, delay)

    # --- output ----------------------------------------------------------------------

    def render(self, n: int) -> np.ndarray:
        """The next ``n`` samples of the mix, float32, every one within +-``CEILING``."""
        if n <= 0:
            return np.zeros(0, dtype=np.float32)
        self.clock_map.block(self.samples, n)
        self.samples += n
        buses = {"effects": np.zeros(n, dtype=np.float32),
                 "heartbeat": np.zeros(n, dtype=np.float32)}
        alive = []
        for voice in self._voices:
            out, keep = voice.render(n)
            buses["heartbeat" if voice.group == "heartbeat" else "effects"] += out
            if keep:
                alive.append(voice)
        self._voices = alive
        mix = (buses["effects"] * self._glide("effects", n)
               + buses["heartbeat"] * self._glide("heartbeat", n))
        return (self._limit(mix, self._ahead_mix()) * self._glide("master", n)).astype(
            np.float32)

    def _ahead_mix(self) -> np.ndarray:
        """The next ``LOOKAHEAD`` samples of the mix as the voices sounding or cued now
        would make them (rendered from copies; the voices themselves do not move)."""
        ahead = np.zeros(LOOKAHEAD, dtype=np.float32)
        for voice in self._voices:
            out, _ = copy.copy(voice).render(LOOKAHEAD)
            bus = "heartbeat" if voice.group == "heartbeat" else "effects"
            ahead += out * self._targets[bus]
        return ahead

    def render_int16(self, n: int) -> np.ndarray:
        """``render`` as 16-bit PCM."""
        return np.round(self.render(n) * 32767.0).astype(np.int16)

    def _glide(self, bus: str, n: int) -> np.ndarray | float:
        start, target = self._gains[bus], self._targets[bus]
        if start == target:
            return start
        steps = max(1, round(GAIN_GLIDE_S * self.rate))
        t = np.minimum(np.arange(1, n + 1, dtype=np.float32) / steps, 1.0)
        ramp = start + (target - start) * t
        self._gains[bus] = target if n >= steps else float(ramp[-1])
        return ramp

    def _limit(self, x: np.ndarray, ahead: np.ndarray) -> np.ndarray:
        """``x`` through the limiter, which sees ``ahead`` (the mix to come), and the soft
        clipper."""
        n = x.size
        stream = np.concatenate((x, ahead))
        blocks = -(-stream.size // BLOCK)
        padded = np.zeros(blocks * BLOCK, dtype=np.float32)
        padded[: stream.size] = np.abs(stream)
        peaks = padded.reshape(blocks, BLOCK).max(axis=1).astype(np.float64)
        want = KNEE / np.maximum(peaks, KNEE)  # 1.0 at or under the knee
        reach = LOOKAHEAD // BLOCK
        out_blocks = -(-n // BLOCK)
        ends = np.empty(out_blocks, dtype=np.float64)
        g = self._limiter_gain
        for j in range(out_blocks):
            # the gain at block j's end: under block j's and the next block's need, and
            # ramping straight towards each need up to the look-ahead, where it arrives
            target = min(want[j], want[j + 1] if j + 1 < blocks else 1.0)
            for m in range(2, reach + 2):
                if j + m < blocks and want[j + m] < g:
                    target = min(target, g + (want[j + m] - g) / m)
            length = min(BLOCK, n - j * BLOCK)  # a render's last block may be short
            g = max(target, g * self._attack ** length) if target < g else (
                target + (g - target) * self._release ** length)
            ends[j] = g
        knots = np.concatenate(([0], np.minimum(np.arange(1, out_blocks + 1) * BLOCK, n)))
        gains = np.concatenate(([self._limiter_gain], ends))
        self._limiter_gain = g
        self.lowest_gain = min(self.lowest_gain, float(ends.min()))
        curve = np.interp(np.arange(1, n + 1), knots, gains)
        if self.gain_trace is not None:
            self.gain_trace.append(curve)
        return soft_clip(x * curve.astype(np.float32))
