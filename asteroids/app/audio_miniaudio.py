"""Our own output driver (issue 37): a miniaudio device that calls back for each period.

pyglet's drivers keep a queue that a worker thread polls and refills; to cover OpenAL Soft's
23 ms period and a late poll it needs 40 ms (60 ms for PulseAudio), and a cue's lag came to
76-84 ms. A callback driver asks for exactly the frames the device is about to need, one
period at a time, from the device's own thread: with 10 ms periods the queue ahead of the
card is a few periods, not a poll's worth of slack.

``miniaudio`` (PyPI ``miniaudio``: pyminiaudio, which bundles the single-file C library
miniaudio and ships wheels) is optional: ``pip install 'asteroids[audio]'``. Without it, or
without an output it can open, the sound bank falls back to pyglet's drivers and says so.

Threads: the device's thread runs ``render`` (``SoundBank.render``) and nothing else: it
takes the game's commands from a queue and never waits on the game thread (only on Python's
GIL, as pyglet's worker does: the interpreter hands it over at least every 5 ms). miniaudio
asks for a real-time thread (SCHED_FIFO where the process may, as root or with rtkit's
limits; an ordinary thread elsewhere), so a busy machine does not make it wait its turn
behind other processes. An exception in ``render`` plays silence for that period and is kept
(``error``) instead of stopping the stream for good.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["INSTALL", "LEAD_WINDOW_S", "NAME", "PERIODS", "PERIOD_MS", "PULSE_ENV", "QUEUE_MS",
           "STEADY", "STEADY_GAP", "CallbackStream", "NoOutput", "available", "backends",
           "held_s", "pulse_only"]

NAME = "miniaudio"
"""The driver's name in ``--audio`` and in the game's report line."""
INSTALL = "pip install 'asteroids[audio]'"
"""How to get it."""
PERIOD_MS = 10
"""The device calls back for this much audio at a time."""
QUEUE_MS = 30
"""The audio kept between the callback and the card: ``PERIODS`` of ``PERIOD_MS`` where the
backend keeps periods (ALSA, WASAPI, Core Audio); through PulseAudio, the latency asked of
the server (``PULSE_LATENCY_MSEC``, which libpulse reads when a stream connects): miniaudio
0.11 asks PulseAudio for one period only (measured: 5 ms in the stream's buffer and 2.5 ms in
the sink's), and every callback that came 10 ms late underran and slipped the stream. With
30 ms a cue sounded 50-54 ms after its tick (an underrun in about one capture in four under
a load of 3 on 2 cores); 40 ms measured 55-61 ms, too close to issue 37's 60."""
PERIODS = QUEUE_MS // PERIOD_MS
"""Periods the device keeps, where its backend has periods."""
LEAD_WINDOW_S = 8.0
"""The mixer reads how far this driver's queue runs ahead of the wall clock at its fullest
over this long (``ClockMap.lead_window_s``; pyglet's: 2 s). After a callback that came
late PulseAudio asks for the next one early, which raises that envelope for as long as it
looks back, then lets it fall: over 2 s the map moved 2.5-2.9 ms with it in two captures
of three (the game's own lateness under 1 ms); over 8 s, 0.05 ms in six of seven."""
PULSE_ENV = "PULSE_LATENCY_MSEC"
"""libpulse's own variable: the latency a stream asks for (``QUEUE_MS`` unless set)."""
STEADY = 3
"""The mixer is first asked for audio once this many callbacks in a row came within
``STEADY_GAP`` periods of the one before: PulseAudio (through miniaudio) calls back once,
then not for 0.9-1.9 s, then every period. The mixer would count that as an underrun and
cues sent meanwhile would start late; they wait in the bank's queue instead, and the
device plays silence."""
STEADY_GAP = 3.0
"""... in periods."""


class NoOutput(RuntimeError):
    """miniaudio is not installed, or found no real output (only its null backend)."""


def available() -> bool:
    """Whether the ``miniaudio`` package is installed (nothing is opened)."""
    return "miniaudio" in sys.modules or importlib.util.find_spec("miniaudio") is not None


def held_s(period_ms: int = PERIOD_MS, queue_ms: int = QUEUE_MS) -> float:
    """What the device holds beyond the period it asks for, in seconds, less one period for
    the card's own share (PulseAudio keeps 5 of the 30 ms in its sink): a callback may come
    that much late before the stream runs dry (``ClockMap.underrun_slack``)."""
    return max(queue_ms - 2 * period_ms, 0) / 1000.0


def pulse_only() -> list[Any]:
    """PulseAudio alone (``--audio pulse``; PipeWire serves it too)."""
    import miniaudio

    return [miniaudio.Backend.PULSEAUDIO]


def backends(platform: str = sys.platform) -> list[Any] | None:
    """The outputs tried, in order: on Linux PulseAudio (PipeWire serves it too), then ALSA,
    then JACK; elsewhere miniaudio's own order (WASAPI, Core Audio, ...). Never its null
    backend, which plays nothing."""
    import miniaudio

    if platform.startswith("linux"):
        return [miniaudio.Backend.PULSEAUDIO, miniaudio.Backend.ALSA, miniaudio.Backend.JACK]
    return None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 goes to /dev/null meanwhile: the C libraries miniaudio opens
    (libasound above all) write their own lines there when no card is found, where the game
    says one line of its own instead (``SoundBank.report``)."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to quiet
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class CallbackStream:
    """A miniaudio playback device pulling mono 16-bit samples from ``render(n) -> bytes``.

    Args:
        render: ``n`` -> ``n`` samples as 16-bit bytes; called from the device's thread.
        rate: sample rate in Hz.
        period_ms: how much audio each callback asks for.
        queue_ms: how much audio the device keeps queued (``QUEUE_MS``).
        only: the backends to try (``miniaudio.Backend`` members); None: ``backends()``.
        clock: wall-clock seconds (tests pass their own), for ``STEADY``.

    Raises:
        NoOutput: miniaudio is missing or opened nothing but its null backend.
    """

    tuned = True
    """The queue is ours (``periods`` of ``period_ms``), as ``StreamPlayer.tuned`` says for
    pyglet's."""

    def __init__(self, render: Callable[[int], bytes], rate: int, *,
                 period_ms: int = PERIOD_MS, queue_ms: int = QUEUE_MS,
                 only: Sequence[Any] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        try:
            import miniaudio
        except ImportError as exc:
            raise NoOutput(f"{NAME} is not installed ({INSTALL})") from exc
        self.rate = rate
        self.period_ms = period_ms
        self.queue_s = queue_ms / 1000.0
        """The audio kept queued ahead of the card (fixed: a device's periods are set when
        it opens)."""
        self.calls = 0
        """Callbacks so far."""
        self.steady = False
        """Whether the device calls back steadily (``STEADY``): ``render`` is asked from
        then on, silence played before."""
        self._clock = clock
        self.error: str | None = None
        """The last exception ``render`` raised (its period played silence)."""
        self._lock = threading.Lock()
        asked = os.environ.get(PULSE_ENV)
        if asked is None:  # the player's own setting wins
            os.environ[PULSE_ENV] = str(queue_ms)
        try:
            with _quiet_stderr():  # libasound prints a dozen lines per missing card
                self.device = miniaudio.PlaybackDevice(
                    output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                    sample_rate=rate, buffersize_msec=period_ms,
                    callback_periods=max(2, queue_ms // period_ms),
                    backends=list(only) if only is not None else backends(),
                    thread_prio=miniaudio.ThreadPriority.REALTIME, app_name="asteroids")
        except miniaudio.MiniaudioError as exc:
            raise NoOutput(f"{NAME} found no audio output ({exc})") from exc
        finally:
            if asked is None:  # read when the stream connected: not passed to children
                os.environ.pop(PULSE_ENV, None)
        self.backend: str = self.device.backend
        """The output miniaudio opened (``PulseAudio``, ``ALSA``, ``WASAPI``, ...)."""
        if self.backend.lower() == "null":
            self.device.close()
            raise NoOutput(f"{NAME} found no audio output (only its null backend)")
        pull = self._pull(render)
        next(pull)
        self.device.start(pull)

    def _pull(self, render: Callable[[int], bytes]) -> Any:
        """The generator the device sends each period's frame count to."""
        frames = yield b""
        last, run = None, 0
        while not self.steady:
            now = self._clock()
            gap = STEADY_GAP * self.period_ms / 1000.0
            run = run + 1 if last is not None and now - last <= gap else 0
            last = now
            self.steady = run >= STEADY
            if not self.steady:
                self.calls += 1
                frames = yield bytes(2 * int(frames))
        while True:
            try:
                data = render(int(frames))
            except Exception as exc:  # never let one bad period stop the device for good
                self.error = f"{type(exc).__name__}: {exc}"
                data = bytes(2 * int(frames))
            self.calls += 1
            frames = yield data

    def grow(self) -> float:
        """After an underrun: the queue stays (a device's periods are fixed once open; the
        clock map is anchored afresh instead). Returns it, in seconds."""
        return self.queue_s

    def pause(self) -> None:
        """Stop calling back (the stream is closing)."""
        with self._lock:
            if self.device is not None:
                self.device.stop()

    def delete(self) -> None:
        """Close the device for good."""
        with self._lock:
            device, self.device = self.device, None
        if device is not None:
            device.close()

    def describe(self) -> str:
        """The driver, its output and its queue, for the game's report line."""
        return (f"{NAME} driver ({self.backend}), {self.period_ms} ms periods, "
                f"{round(self.queue_s * 1000)} ms queue")
