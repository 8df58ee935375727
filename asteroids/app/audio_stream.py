"""The mixer's way to the sound card: one pyglet player on a source that never ends.

Importing this module opens pyglet's audio driver, so ``audio.SoundBank`` imports it only
when it wants sound. Checked against pyglet 2.1 (``pyglet/media/drivers/base.py``):

- ``MixerSource.get_audio_data`` renders exactly the bytes asked for and never returns None,
  so the stream never reaches end-of-stream and never goes back through the main loop
  (``Player.loop`` restarts a source only after it ran out: the 4-44 ms gaps of 0.1.0).
- pyglet keeps 0.9 s queued and at least 32 KiB (0.74 s of this format): far too late for a
  shot. ``StreamPlayer`` keeps ``LATENCY_S`` queued instead, and switches off pyglet's
  drift correction, which pads or skips up to 12 ms to follow the wall clock: this stream is
  its own clock.
- pyglet's worker refills every 20 ms; ``NAP_S`` makes it 5 ms, so the queue can be short.
- PulseAudio: pyglet's player hands its sizes to the server (``tlength``, ``minreq``) inside
  its ``__init__``, before any setting made afterwards: 0.2 tuned it too late and got
  blocks of 6 620 samples (300 ms) and cues over a second late. ``_pulse_player`` builds
  pyglet's own player with ``LATENCY_S`` already in place.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade  # noqa: F401  (first: it sets pyglet's headless mode and ARCADE_SOUND_BACKENDS)
import pyglet.media as media
from pyglet.media.codecs import AudioData, AudioFormat

__all__ = ["GROWTH", "LATENCY_S", "MAX_QUEUE_S", "NAP_S", "PULSE_LATENCY_S", "MixerSource",
           "NoAudioDevice", "StreamPlayer", "open_stream", "queue_s"]

LATENCY_S = 0.04
"""Audio queued ahead of the sound card. OpenAL Soft mixes a period (23 ms at its defaults)
at a time and pyglet's worker looks every ``NAP_S``: 40 ms covers a period and a late look
(30 ms did not: the queue ran dry and cues moved)."""
PULSE_LATENCY_S = 0.06
"""The same for PulseAudio, where pyglet splits it between the server's buffer and its own:
at 40 ms (20 ms with the server) a loaded machine underran every few hundred ms."""
GROWTH = 1.5
"""After an underrun the queue grows by this factor (``StreamPlayer.grow``)..."""
MAX_QUEUE_S = 0.2
"""... up to this."""
NAP_S = 0.005
"""How often pyglet's worker thread looks whether the stream needs refilling (pyglet: 20 ms)."""


class NoAudioDevice(Exception):
    """pyglet found no audio output (it fell back to its silent driver)."""


class MixerSource(media.StreamingSource):
    """A never-ending mono 16-bit source whose samples come from ``render(n) -> bytes``."""

    def __init__(self, render: Callable[[int], bytes], rate: int) -> None:
        self.audio_format = AudioFormat(channels=1, sample_size=16, sample_rate=rate)
        self._render = render

    def is_precise(self) -> bool:
        """Exactly the bytes asked for, every time (pyglet then needs no buffer of its own)."""
        return True

    def seek(self, timestamp: float) -> None:
        """A live stream has no position to seek to."""

    def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> AudioData:
        """The next ``num_bytes`` (rounded down to whole samples, at least one) of the mix."""
        data = self._render(max(1, int(num_bytes) // 2))
        return AudioData(data, len(data))


class StreamPlayer(media.Player):
    """A pyglet player that keeps ``LATENCY_S`` queued and never pads or skips."""

    tuned = False
    """Whether the driver's player took ``tune`` (False: pyglet's defaults apply)."""
    queue_s = LATENCY_S
    """The queue kept now (``grow`` lengthens it after underruns)."""

    def grow(self) -> float:
        """Keep ``GROWTH`` times as much queued, up to ``MAX_QUEUE_S``, after an underrun:
        the driver's thread was starved for longer than the queue lasted, as it will be
        again on a machine that busy (as a PulseAudio server raises its latency). Returns
        the queue now, in seconds. Called from the driver's thread (``render``)."""
        audio_player, source = self._audio_player, self.source
        if not self.tuned or audio_player is None or source is None:
            return self.queue_s
        self.queue_s = min(self.queue_s * GROWTH, MAX_QUEUE_S)
        fmt = source.audio_format
        ideal = int(fmt.align(round(self.queue_s * fmt.bytes_per_second)))
        buffer = getattr(audio_player, "_audio_data_buffer", None)
        if buffer is not None:  # PulseAudio: pyglet's half (the server's was fixed at start)
            buffer._ideal_size = ideal // 2
            buffer._comfortable_limit = ideal // 3
        else:
            audio_player._buffered_data_ideal_size = ideal
            audio_player._buffered_data_comfortable_limit = ideal * 2 // 3
        return self.queue_s

    def _create_audio_player(self) -> None:
        driver = media.get_audio_driver()
        pulse = _pulse_player(driver)
        if pulse is not None and self.source is not None:
            self._audio_player = pulse(self.source, self, driver)
            driver._players.add(self._audio_player)  # type: ignore[union-attr]
        else:
            super()._create_audio_player()
        self.tuned = tune(self._audio_player,
                          self.source.audio_format if self.source else None)
        self.queue_s = PULSE_LATENCY_S if pulse is not None else LATENCY_S
        worker = getattr(driver, "worker", None)
        if self.tuned and hasattr(worker, "_nap_time"):
            worker._nap_time = NAP_S  # type: ignore[union-attr]


def _pulse_player(driver: object) -> type | None:
    """pyglet's PulseAudio player with ``PULSE_LATENCY_S`` in place before its ``__init__``
    hands the sizes to the server; None for another driver (or a pyglet without it)."""
    try:
        from pyglet.media.drivers.pulse.adaptation import PulseAudioDriver, PulseAudioPlayer
    except ImportError:
        return None
    if not isinstance(driver, PulseAudioDriver):
        return None

    class TunedPulseAudioPlayer(PulseAudioPlayer):  # type: ignore[misc, valid-type]
        """Reads its ideal size as ``PULSE_LATENCY_S`` whatever pyglet's base class sets."""

        @property
        def _buffered_data_ideal_size(self) -> int:
            fmt = self.source.audio_format
            return int(fmt.align(round(PULSE_LATENCY_S * fmt.bytes_per_second)))

        @_buffered_data_ideal_size.setter
        def _buffered_data_ideal_size(self, value: int) -> None:
            pass  # pyglet's 0.9 s (at least 32 KiB): ignored

    return TunedPulseAudioPlayer


def tune(audio_player: object, audio_format: AudioFormat | None) -> bool:
    """Set a driver's audio player to ``LATENCY_S`` and no drift correction; returns False
    (leaving pyglet's defaults) when this pyglet has no such settings."""
    names = ("_buffered_data_ideal_size", "_buffered_data_comfortable_limit",
             "desync_bytes_critical", "desync_bytes_minor")
    if audio_player is None or audio_format is None:
        return False
    if not all(hasattr(audio_player, n) for n in names):
        return False
    if _pulse_player(getattr(audio_player, "driver", None)) is None:  # else set in __init__
        ideal = audio_format.align(round(LATENCY_S * audio_format.bytes_per_second))
        audio_player._buffered_data_ideal_size = ideal  # type: ignore[attr-defined]
        audio_player._buffered_data_comfortable_limit = (  # type: ignore[attr-defined]
            ideal * 2 // 3)
    audio_player.desync_bytes_critical = 1 << 62  # type: ignore[attr-defined]
    audio_player.desync_bytes_minor = 1 << 62  # type: ignore[attr-defined]
    return True


def queue_s() -> float:
    """The queue the open driver keeps (``LATENCY_S``, or ``PULSE_LATENCY_S``)."""
    return PULSE_LATENCY_S if _pulse_player(media.get_audio_driver()) else LATENCY_S


def has_device() -> bool:
    """Whether pyglet opened a real audio output (not its silent fallback, not none)."""
    from pyglet.media.drivers.silent.adaptation import SilentDriver

    driver = media.get_audio_driver()
    return driver is not None and not isinstance(driver, SilentDriver)


def open_stream(render: Callable[[int], bytes], rate: int, *,
                allow_silent: bool = False) -> StreamPlayer:
    """Start playing ``render``'s stream.

    Args:
        render: ``n -> n`` 16-bit mono samples as bytes; called from pyglet's worker thread.
        rate: sample rate in Hz.
        allow_silent: play on pyglet's silent driver too (tests of the stream itself).

    Raises:
        NoAudioDevice: there is no audio output (and ``allow_silent`` is false).
    """
    if not allow_silent and not has_device():
        raise NoAudioDevice("no audio device")
    player = StreamPlayer()
    player.queue(MixerSource(render, rate))
    player.play()
    return player
