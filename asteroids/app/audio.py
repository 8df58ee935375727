"""Sound: synthesised PCM -> in-memory WAV -> pyglet StaticSource, played per core event.

If the audio driver cannot start, the bank quietly becomes a no-op: no sound is never a
reason not to play.
"""

from __future__ import annotations

import io
import wave
from typing import Any

import numpy as np

from asteroids.app import synth
from asteroids.config import Config
from asteroids.core import events as ev

__all__ = ["SoundBank", "pcm_to_wav"]


def pcm_to_wav(pcm: np.ndarray, rate: int = synth.RATE) -> bytes:
    """Mono int16 PCM as the bytes of a WAV file."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.ascontiguousarray(pcm, dtype="<i2").tobytes())
    return buf.getvalue()


class SoundBank:
    """All the game's sounds, with master / effects / heartbeat volumes and mute.

    Args:
        config: the settings (``config.audio``).
        enabled: False builds nothing and plays nothing (tests, screenshots).
    """

    def __init__(self, config: Config, enabled: bool = True) -> None:
        audio = config.audio
        self.muted: bool = audio.muted
        self._effects_share = audio.effects_volume
        self._heartbeat_share = audio.heartbeat_volume
        self.master_volume = audio.volume
        """The master volume, 0..1 (``set_volume`` changes it)."""
        self.effects_volume = audio.volume * audio.effects_volume
        self.heartbeat_volume = audio.volume * audio.heartbeat_volume
        self.sources: dict[str, Any] = {}
        self.error: str | None = None
        """Why sound is off, if it failed to start."""
        self._media: Any = None
        self._players: list[Any] = []
        self._loops: dict[str, Any] = {}
        if enabled:
            try:
                self._load()
            except Exception as exc:  # no driver, no device: play silently
                self.error = f"{type(exc).__name__}: {exc}"
                self.sources = {}

    def _load(self) -> None:
        import pyglet.media as media

        media.get_audio_driver()
        self._media = media
        for name, pcm in synth.render_all().items():
            data = io.BytesIO(pcm_to_wav(pcm))
            self.sources[name] = media.load(f"{name}.wav", file=data, streaming=False)

    @property
    def available(self) -> bool:
        """Whether any sound can play."""
        return bool(self.sources)

    def play(self, name: str, volume: float | None = None) -> None:
        """Play a one-shot sound (ignored when muted or unavailable)."""
        source = self.sources.get(name)
        if source is None or self.muted:
            return
        try:
            self._players = [p for p in self._players if p.playing]
            if len(self._players) > 24:
                return
            player = self._media.Player()
            player.volume = self.effects_volume if volume is None else volume
            player.queue(source)
            player.play()
            self._players.append(player)
        except Exception:  # a driver hiccup must not stop the game
            return

    def loop(self, name: str, on: bool) -> None:
        """Start or stop a looping sound (thrust, saucer sirens)."""
        player = self._loops.get(name)
        if not on or self.muted:
            if player is not None:
                player.pause()
            return
        source = self.sources.get(name)
        if source is None:
            return
        try:
            if player is None:
                player = self._media.Player()
                player.loop = True
                player.queue(source)
                self._loops[name] = player
            player.volume = self.effects_volume
            if not player.playing:
                player.play()
        except Exception:
            return

    def stop_all(self) -> None:
        """Silence every loop and one-shot (pause, game over, leaving a view)."""
        for player in [*self._players, *self._loops.values()]:
            try:
                player.pause()
            except Exception:
                pass
        self._players = []

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute."""
        self.muted = muted
        if muted:
            self.stop_all()

    def set_shares(self, effects: float, heartbeat: float) -> None:
        """Set the effects' and the heartbeat's share of the master volume (0..1 each)."""
        self._effects_share = min(max(float(effects), 0.0), 1.0)
        self._heartbeat_share = min(max(float(heartbeat), 0.0), 1.0)
        self.set_volume(self.master_volume)

    def set_volume(self, master: float) -> float:
        """Set the master volume (clamped to 0..1; effects and heartbeat keep their share of
        it) and return it. Looping sounds follow at once."""
        self.master_volume = min(max(float(master), 0.0), 1.0)
        self.effects_volume = self.master_volume * self._effects_share
        self.heartbeat_volume = self.master_volume * self._heartbeat_share
        for player in self._loops.values():
            try:
                player.volume = self.effects_volume
            except Exception:
                pass
        return self.master_volume

    def on_event(self, event: ev.Event) -> None:
        """Play whatever one core event sounds like."""
        if isinstance(event, ev.ShotFired):
            self.play("fire" if event.shooter == "ship" else "saucer_fire")
        elif isinstance(event, ev.AsteroidDestroyed):
            self.play(("bang_large", "bang_medium", "bang_small")[min(max(event.size, 0), 2)])
        elif isinstance(event, ev.ShipDestroyed):
            self.play("ship_explode")
            self.loop("thrust", False)
        elif isinstance(event, ev.SaucerDestroyed):
            self.play("bang_large")
            self._saucer_off()
        elif isinstance(event, ev.SaucerLeft):
            self._saucer_off()
        elif isinstance(event, ev.SaucerSpawned):
            self.loop("saucer_small" if event.small else "saucer_large", True)
        elif isinstance(event, ev.ThrustChanged):
            self.loop("thrust", event.on)
        elif isinstance(event, ev.Heartbeat):
            self.play("beat_high" if event.tone else "beat_low", self.heartbeat_volume)
        elif isinstance(event, ev.ExtraLife):
            self.play("extra_life")
        elif isinstance(event, ev.HyperspaceEntered):
            self.play("hyperspace")
        elif isinstance(event, ev.GameOver):
            self.loop("thrust", False)
            self._saucer_off()

    def _saucer_off(self) -> None:
        self.loop("saucer_small", False)
        self.loop("saucer_large", False)
