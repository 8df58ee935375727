"""How the mixer maps the game's clock to its sample clock (issue 37; ``Mixer.schedule``).

A cue of game time ``t`` starts at sample ``floor(t * rate + 0.5) + round(offset)``. The
offset is the sum of two envelopes over the last ``mixer.WINDOW_S`` and the room
``latency_s``:

- the earliest any cue's tick was due against its tick time, ``rate * (due - t)``: when
  a window says when each tick was due on the wall clock (``due``: its frame's start less
  how far its own clock had passed the tick, ``SoundBank.game_clock``), that is steady
  however late its frames come; without ``due``, the time it was sent stands for it (the
  game's frames only ever add lateness to that: a window runs a tick's step at the next
  frame, and under load its frames came 5-40 ms late for seconds at a time, which raised
  this envelope and moved the map);
- with a ``clock``, the furthest the samples rendered ran ahead of the wall clock just after
  a block: the driver's queue at its fullest (the stream's first block, queued before
  anything plays, is left out).

Both are steady while the game and the driver keep their pace, so the map, and with it every
cue's lag, stays put; the room covers a cue sent up to a frame late. 0.2's map followed each
cue's own "now" (the sample clock extrapolated from the last block's start), which jittered
by ~25 ms with pyglet's 20 ms refill polling: the 7-9 ms spread of cue lag it measured.
``Envelope`` keeps one of them.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

import numpy as np

__all__ = ["DEADBAND_S", "DRIFT_SPAN_S", "JUMP_S", "LATENCY_S", "MAX_DRIFT", "MAX_ROOM_S",
           "MIN_DRIFT", "ROOM_CUES", "ROOM_GUARD_S", "ROOM_HOLD_S", "ROOM_QUANTILE",
           "ROOM_STEP_S", "ROOM_WINDOW_S",
           "SETTLE_OFF_S", "SETTLE_S", "SETTLE_SLEW", "SLEW",
           "UNDERRUN_SLACK_S", "WINDOW_S", "ClockMap", "Envelope"]

LATENCY_S = 0.02
"""Room on top of the driver's queue: a timed cue starts this long after the earliest the
game has sent a cue against its tick and the furthest the driver's queue has run ahead. It
covers a cue sent late by up to a frame (16.7 ms at 60 frames a second); when the game's
frames come later than that, the room grows to cover most of them (``ROOM_QUANTILE``), and
the rest play at once and are counted."""
ROOM_WINDOW_S = 10.0
"""The game's lateness is read over this long when it outgrows the room."""
ROOM_QUANTILE = 0.95
"""The room in force must cover this share of the cues' lateness (the rest: hitches, played
at once), read as the lateness of the cue that many from the earliest, not a blend with the
next (one cue of the first twenty, the window's first frame, 40-60 ms late, pulled the blend
over the room) and without ``ROOM_GUARD_S`` (a window at 60 frames a second sends up to a
frame and its steps late, 17-19 ms: with the guard that asked for 25 ms and moved the map
5 ms in one quiet run of three); when it does not, the room grows to that lateness, the
guard and one ``ROOM_STEP_S`` more (so that the share's own wander as more cues come does
not set it off again)."""
ROOM_GUARD_S = 0.002
"""Added to that share's lateness (the refill's own slack)."""
ROOM_CUES = 20
"""The lateness is trusted from this many cues on."""
MAX_ROOM_S = 0.25
"""No more room than this, however slow the frames."""
ROOM_STEP_S = 0.005
"""The room grows in steps of this (the share's own wander moves the map no further)..."""
ROOM_HOLD_S = 30.0
"""... and keeps the largest it has grown to over this long: a window whose frames come
late for a few seconds at a time under load (2 cores, 2-3 busy processes beside it) made
the share rise and fall and the map with it; a room that is held moves it once."""
SLEW = 0.01
"""The clock map follows drift at most this fraction of the samples played (1 %: 10 ms a
second), so neighbouring cues never move against each other by more."""
DEADBAND_S = 0.002
"""Clock-map errors under this are left alone: the envelopes move by a little as their
window slides over the game's frames and the driver's refills."""
WINDOW_S = 2.0
"""The envelopes the clock map follows look back this far (the driver's refill pattern and
the game's frame pattern repeat well within it; drift is followed as the window moves)."""
DRIFT_SPAN_S = 30.0
"""The driver's drift is fitted over this long: a refill's 5 ms of jitter is 30 ppm there."""
MIN_DRIFT = 0.0003
"""Drift under this (300 ppm) is left to the envelopes: a sound card keeps within 100 ppm of
the wall clock, and the fit of a loaded machine's refills wanders by about that much."""
MAX_DRIFT = 0.005
"""No clock is followed further than 0.5 % off the wall clock."""
JUMP_S = 0.1
"""When a cue's send time and game time part by more than this from the earliest seen, the
map is anchored afresh instead of slewing (the game clock jumped: a new game, a seek, a
pause, a stall)."""
SETTLE_S = 2.0
"""For this long after the map is anchored it comes down towards a lower target
``SETTLE_SLEW`` times as fast as ``SLEW``: the anchor may have taken a cue that the game sent
late (a window's first frames after a view opens: 75 ms here), and slewing down from it at
``SLEW`` put every heartbeat of the next 7 s 5-8 ms off its interval. Never faster up (a cue
would sound late); like every slew it moves only with the samples played between cues, so
cues sent together keep their intervals."""
SETTLE_SLEW = 10.0
"""... this many times ``SLEW`` (10 %: 70 ms in 0.7 s, before the first heartbeat) ..."""
SETTLE_OFF_S = 0.01
"""... while the map is more than this above its target (the envelopes' own wander, a few
ms, is slewed as always)."""
UNDERRUN_SLACK_S = 0.01
"""With a ``clock``: a block asked for this much later than the audio already delivered ran
out is counted as an underrun (``ClockMap.underrun_slack``: a driver that holds more than
it was given adds that)."""



class Envelope:
    """The lowest (or highest) value pushed within the last ``window`` samples: a
    monotonic deque, O(1) a push."""

    def __init__(self, lowest: bool) -> None:
        self._sign = 1.0 if lowest else -1.0
        self._items: deque[tuple[int, float]] = deque()

    def push(self, at: int, value: float, window: int) -> None:
        """Add ``value`` seen at sample ``at``; forget what is older than ``window``."""
        key = self._sign * value
        items = self._items
        while items and self._sign * items[-1][1] >= key:
            items.pop()
        items.append((at, value))
        while items[0][0] < at - window:
            items.popleft()

    def best(self) -> float | None:
        """The lowest (highest) value in the window; None when it is empty."""
        return self._items[0][1] if self._items else None

    def lowest(self) -> float:
        """``best`` of a window known not to be empty."""
        return self._items[0][1]

    def clear(self) -> None:
        """Forget every value."""
        self._items.clear()


class ClockMap:
    """Game time -> the sample a cue starts on (the module's note says how).

    Args:
        rate: the mixer's sample rate.
        latency: the room on top of the envelopes, in samples.
        clock: wall-clock seconds (``time.monotonic``), read when each block starts; None
            (offline renders): "now" is the sample clock itself and no underruns are counted.
    """

    def __init__(self, rate: int, latency: int,
                 clock: Callable[[], float] | None = None) -> None:
        self.rate = rate
        self.latency = latency
        """The room, in samples."""
        self.clock = clock
        self.late_cues = 0
        """Timed cues whose sample had gone when they arrived (played at once)."""
        self.anchors = 0
        """How often the clock map was anchored (the first cue, then each jump)."""
        self.underruns = 0
        """Blocks asked for after the audio delivered before them had run out (``clock``)."""
        self.lead_window_s = WINDOW_S
        """How far back the driver's queue at its fullest is read (``WINDOW_S``; a callback
        driver reads further: ``audio_miniaudio.LEAD_WINDOW_S``)."""
        self.underrun_slack = UNDERRUN_SLACK_S
        """How late past that a block may be asked for before it counts, in seconds: a
        callback driver keeps periods of its own queued beyond the one it asks for
        (``audio_miniaudio``), so a callback can come that much later and nothing runs dry."""
        self.offset: float | None = None
        """The clock map: game time ``t`` sounds at sample ``floor(t * rate + 0.5) +
        round(offset)`` (None until the first timed cue)."""
        self._cue_at = 0
        self._anchored_at = 0
        self._stamp: tuple[int, float] | None = None
        self._ahead = 0.0
        self._early = Envelope(lowest=True)
        """The earliest cues' ticks were due (or, without ``due``, sent) against their tick
        time (samples), over ``WINDOW_S``."""
        self._leads = Envelope(lowest=False)
        """How far the samples rendered ran ahead of the wall clock after each block."""
        self.drift = 0.0
        """How fast the driver's clock gains on the wall clock (samples per sample, fitted to
        the blocks it asked for over ``DRIFT_SPAN_S``): the map moves with it between cues,
        so intervals stay exact on the card's own clock (a PulseAudio null sink here: 1 700
        ppm fast)."""
        self._lateness: deque[tuple[int, float]] = deque()
        """(sample, how much later than the earliest) of each cue in ``ROOM_WINDOW_S``."""
        self._rooms = Envelope(lowest=False)
        """The room each cue asked for, over ``ROOM_HOLD_S``."""
        self._stamps: deque[tuple[float, int]] = deque()
        self._fitted = 0

    def schedule(self, at: float, sent: float | None, samples: int,
                 due: float | None = None) -> int:
        """The sample a cue of game time ``at`` starts on, never before the next block (a
        late one is counted), ``samples`` being the next block's first; moves the map
        towards its target as ``SLEW`` allows. ``sent``: when the game sent it (None: now);
        ``due``: when its tick was due on the same clock (None: ``sent`` stands for it)."""
        rate = self.rate
        if self.clock is None:
            early = late = samples - at * rate
        else:
            wall = self.clock() if sent is None else sent
            late = wall * rate - at * rate
            early = late if due is None else min(due, wall) * rate - at * rate
        last = self._early.best()
        jumped = last is None or abs(early - last) > JUMP_S * rate
        if jumped:
            self._early.clear()  # the game clock jumped: what it did before says nothing
            self._lateness.clear()  # (the room it grew to is the window's, and stays)
        window = round(WINDOW_S * rate)
        self._early.push(samples, early, window)
        lowest = self._early.lowest()
        anchoring = self.offset is None or jumped
        target = lowest + self._lead(window, samples) + self._room(
            None if anchoring else late - lowest, samples)
        if anchoring:
            self.offset = float(round(target))
            self.anchors += 1
            self._anchored_at = samples
        else:
            self.offset += self.drift * (samples - self._cue_at)
            err = target - self.offset
            if abs(err) > DEADBAND_S * rate:
                settling = (err < -SETTLE_OFF_S * rate
                            and samples - self._anchored_at < SETTLE_S * rate)
                room = SLEW * (SETTLE_SLEW if settling else 1.0) * (samples - self._cue_at)
                self.offset += min(max(err, -room), room)
        self._cue_at = samples
        start = math.floor(at * rate + 0.5) + round(self.offset)
        if start < samples:
            self.late_cues += 1
            self.offset = max(self.offset, float(round(target)))
            return samples
        return start

    def _room(self, lateness: float | None, samples: int) -> float:
        """The room for this cue's lateness: ``latency``, or, once more than the share
        ``ROOM_QUANTILE`` leaves out of the cues over ``ROOM_WINDOW_S`` came later than the
        room in force (slow frames), that share's lateness, ``ROOM_GUARD_S`` and a step, in
        ``ROOM_STEP_S`` steps up to ``MAX_ROOM_S``; the largest over ``ROOM_HOLD_S``. A lag
        that covers most cues beats a stream of late ones played at the driver's block,
        and one that holds beats one that follows every slow second. ``lateness`` None:
        the cue the map is anchored on, which is not counted (the first cue of a view came
        45-75 ms late in every window capture, from the view's first frames, and with one
        more late cue among the first twenty it set the room growing)."""
        rate = self.rate
        late = self._lateness
        if lateness is not None:
            late.append((samples, lateness))
        while late and late[0][0] < samples - ROOM_WINDOW_S * rate:
            late.popleft()
        base = float(self.latency)
        held = self._rooms.best()
        room = base if held is None else held
        need = base
        if len(late) >= ROOM_CUES:
            seen = float(np.quantile([v for _, v in late], ROOM_QUANTILE,
                                     method="inverted_cdf"))
            over = seen + ROOM_GUARD_S * rate - base
            if over > 0:
                step = ROOM_STEP_S * rate
                need = min(base + (math.ceil(over / step) + 1) * step, MAX_ROOM_S * rate)
            if seen <= room:  # the room in force covers the share: it grows no further
                need = min(need, room)
        self._rooms.push(samples, need, round(ROOM_HOLD_S * rate))
        return self._rooms.lowest()  # the largest: a highest-first envelope

    def _lead(self, window: int, samples: int) -> float:
        """How far, at its fullest in the window, the driver's queue ran ahead of the wall
        clock after a block (samples; 0 without a ``clock``, where "now" is the sample
        clock itself)."""
        if self.clock is None:
            return 0.0
        lead = self._leads.best()
        return samples - self.clock() * self.rate if lead is None else lead

    def block(self, samples: int, n: int) -> None:
        """A block of ``n`` samples from sample ``samples`` is being rendered: stamp its start
        on ``clock``, note how far the samples rendered now run ahead of it, and count an
        underrun: the block was asked for after the audio delivered so far had run out. The
        stream itself goes on where it was (no gap in it); the map is anchored afresh at
        the next cue."""
        if self.clock is None:
            return
        wall = self.clock()
        if self._stamp is not None:
            self._ahead -= wall - self._stamp[1]
            if self._ahead < -self.underrun_slack:
                self.underran()
            self._ahead = max(self._ahead, 0.0)
        self._ahead += n / self.rate
        if self._stamp is not None:  # the first block is queued before anything plays
            self._leads.push(samples, samples + n - wall * self.rate,
                             round(self.lead_window_s * self.rate))
            self._follow_drift(wall, samples + n)
        self._stamp = (samples, wall)

    def underran(self) -> None:
        """The stream ran dry (seen by ``block``, or told by a driver that sees it itself:
        ``audio_openal``): count it; what was played since slipped, so the map is anchored
        afresh at the next cue and the driver's queue is read anew."""
        self.underruns += 1
        self.offset = None
        self._leads.clear()
        self._stamps.clear()

    def _follow_drift(self, wall: float, end: int) -> None:
        """Note that ``end`` samples had been rendered at ``wall``; every ``WINDOW_S``, once
        ``DRIFT_SPAN_S / 3`` is seen, fit the rate they were asked for at over the last
        ``DRIFT_SPAN_S`` (least squares over every block: one refill's jitter is one point)."""
        stamps = self._stamps
        stamps.append((wall, end))
        while wall - stamps[0][0] > DRIFT_SPAN_S:
            stamps.popleft()
        if (end - self._fitted < WINDOW_S * self.rate
                or wall - stamps[0][0] < DRIFT_SPAN_S / 3):
            return
        self._fitted = end
        t = np.array([w for w, _ in stamps]) - wall
        rate = float(np.polyfit(t, np.array([e for _, e in stamps], dtype=np.float64), 1)[0])
        drift = (rate - self.rate) / rate
        self.drift = 0.0 if abs(drift) < MIN_DRIFT else min(max(drift, -MAX_DRIFT), MAX_DRIFT)
