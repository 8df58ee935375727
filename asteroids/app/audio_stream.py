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
"""

from __future__ import annotations

from collections.abc import Callable

import arcade  # noqa: F401  (first: it sets pyglet's headless mode and ARCADE_SOUND_BACKENDS)
import pyglet.media as media
from pyglet.media.codecs import AudioData, AudioFormat

__all__ = ["LATENCY_S", "MixerSource", "NoAudioDevice", "StreamPlayer", "open_stream"]

LATENCY_S = 0.08
"""Audio queued ahead of the sound card: a sound starts 50-80 ms after its event. pyglet's
worker thread refills every 20 ms, so this leaves room for a slow frame."""


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

    def _create_audio_player(self) -> None:
        super()._create_audio_player()
        self.tuned = tune(self._audio_player,
                          self.source.audio_format if self.source else None)


def tune(audio_player: object, audio_format: AudioFormat | None) -> bool:
    """Set a driver's audio player to ``LATENCY_S`` and no drift correction; returns False
    (leaving pyglet's defaults) when this pyglet has no such settings."""
    names = ("_buffered_data_ideal_size", "_buffered_data_comfortable_limit",
             "desync_bytes_critical", "desync_bytes_minor")
    if audio_player is None or audio_format is None:
        return False
    if not all(hasattr(audio_player, n) for n in names):
        return False
    ideal = audio_format.align(round(LATENCY_S * audio_format.bytes_per_second))
    audio_player._buffered_data_ideal_size = ideal  # type: ignore[attr-defined]
    audio_player._buffered_data_comfortable_limit = ideal * 2 // 3  # type: ignore[attr-defined]
    audio_player.desync_bytes_critical = 1 << 62  # type: ignore[attr-defined]
    audio_player.desync_bytes_minor = 1 << 62  # type: ignore[attr-defined]
    return True


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
