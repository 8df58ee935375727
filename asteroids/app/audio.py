"""Sound: core events -> cues -> the mixer -> a driver of ours or a pyglet stream.

``cues`` says what an event sounds like; ``SoundBank`` keeps the mixer (``mixer.Mixer``) fed
with the chosen set's voices (``synth.render_set``) and streams it: through our own drivers
(``audio_miniaudio``, ``audio_openal``) in the order ``audio_driver`` gives, the first that
opens an output, else through pyglet's (``audio_stream``). With no audio device the bank says so
once (``notice``), reports itself unavailable and plays nothing: no sound is never a reason
not to play.

Threads: the render thread (the miniaudio device's, our OpenAL feeder, or pyglet's worker)
owns the mixer. The game thread never touches it: each cue, volume change, stop or set
switch is appended to a queue (``collections.deque``: appends and pops are atomic) that the
render thread drains at the start of each block. So the render never waits on the game:
when the game stalls, loops and tails play on.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
import wave
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from asteroids.app import synth
from asteroids.app.enemy_looks import sound_name as enemy_sound
from asteroids.app.mixer import Mixer, soft_clip
from asteroids.config import Config
from asteroids.core import events as ev

__all__ = ["NO_DEVICE", "Cue", "SoundBank", "cues", "pcm_to_wav"]

SWITCH_INTERVAL_S = 0.002
"""While a driver of ours plays, Python hands its lock to a thread that waits for it after
this long at most (its default: 5 ms). Our drivers' threads need the lock for each buffer
(``audio_openal``) or period (``audio_miniaudio``); while the game thread runs Python they
waited up to 5 ms for it at every turn, two or three times a refill: in a 1 s pure-Python
stall our OpenAL feeder's refills came 11-16 ms apart and its source ran dry 3-7 times. At
2 ms: at most 8-10 ms apart, none ran dry (at 1 ms, the same)."""

NO_DEVICE = "no audio device: sound off"
"""What the game says, once, when there is nothing to play sound on."""

Cue = tuple[str, str]
"""``("play", name)``, ``("loop_on", name)`` or ``("loop_off", name)``."""

_SIRENS = ("saucer_small", "saucer_large")
_BANGS = ("bang_large", "bang_medium", "bang_small")


def cues(event: ev.Event) -> tuple[Cue, ...]:
    """What one core event sounds like (sound names of ``synth.SOUND_NAMES``).

    A destroyed saucer bangs like a rock of its size (the 1979 board reused the rock's
    explosion: a large saucer like a large rock, a small one like a medium).
    """
    if isinstance(event, ev.ShotFired):
        return (("play", "fire" if event.shooter == ev.SHOOTER_SHIP else "saucer_fire"),)
    if isinstance(event, ev.AsteroidDestroyed):
        return (("play", _BANGS[min(max(event.size, 0), 2)]),)
    if isinstance(event, ev.ShipDestroyed):
        return (("play", "ship_explode"), ("loop_off", "thrust"))
    if isinstance(event, ev.SaucerDestroyed):
        bang = "bang_medium" if event.small else "bang_large"
        return (("play", bang), *(("loop_off", s) for s in _SIRENS))
    if isinstance(event, ev.SaucerLeft):
        return tuple(("loop_off", s) for s in _SIRENS)
    if isinstance(event, ev.SaucerSpawned):
        return (("loop_on", "saucer_small" if event.small else "saucer_large"),)
    if isinstance(event, ev.ThrustChanged):
        return (("loop_on" if event.on else "loop_off", "thrust"),)
    if isinstance(event, ev.Heartbeat):
        return (("play", "beat_high" if event.tone else "beat_low"),)
    if isinstance(event, ev.ExtraLife):
        return (("play", "extra_life"),)
    if isinstance(event, ev.HyperspaceEntered):
        return (("play", "hyperspace"),)
    if isinstance(event, ev.GameOver):
        return (("loop_off", "thrust"), *(("loop_off", s) for s in _SIRENS))
    if isinstance(event, ev.CraftDestroyed):  # a declared enemy: its own sound, if it has one
        return (("play", enemy_sound(event.kind)),)
    return ()


def apply_cue(mixer: Mixer, cue: Cue, at: float | None = None,
              sent: float | None = None, due: float | None = None) -> None:
    """Do one cue on ``mixer`` (the bank and the offline renders share this); a one-shot
    starts at game time ``at`` (``Mixer.play``), loops switch at once."""
    action, name = cue
    if action == "play":
        mixer.play(name, at=at, sent=sent, due=due)
    else:
        mixer.loop(name, action == "loop_on")


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
    """The game's sound: the mixer, its stream, volumes, mute and the sound set.

    Args:
        config: the settings (``config.audio``).
        enabled: False builds nothing and plays nothing (tests, screenshots), and says
            nothing.
        allow_silent: stream to pyglet's silent driver too, as if it were a device (tests of
            the stream on machines without one).
    """

    def __init__(self, config: Config, enabled: bool = True, *,
                 allow_silent: bool = False) -> None:
        audio = config.audio
        self.muted: bool = audio.muted
        self.master_volume: float = _unit(audio.volume)
        """The master volume setting, 0..1 (``set_volume`` changes it)."""
        self._effects = _unit(audio.effects_volume)
        self._heartbeat = _unit(audio.heartbeat_volume)
        self.sound_set: str = audio.sound_set
        """The voices in use (``audio.sound_set``)."""
        self.error: str | None = None
        """Why sound is off, if it is (no device, or the driver failed)."""
        self.notice: str | None = None
        """One line for the player about sound being off, to be said once (``Game`` does)."""
        self.report: str | None = None
        """One line on the driver that plays and its latency (``Game`` prints it)."""
        self.driver: str | None = None
        """The driver that plays (``miniaudio``, ``openal``, ``pulse``, ...; None: none)."""
        self.latency_ms: int | None = None
        """The queue asked of the driver plus the mixer's room: how long after its tick a
        cue is meant to sound, less what the driver adds on its own (OpenAL Soft's period);
        None where the driver keeps its own queue."""
        self.mixer: Mixer | None = None
        """The mixer (None while sound is off)."""
        self._render_lock = threading.Lock()  # two renders at once (tests); never the game's
        self._commands: deque[Callable[[Mixer], object]] = deque(maxlen=1 << 14)
        self._player: Any = None
        self._outgoing: Mixer | None = None
        self._log: Any = None
        self._underruns = 0
        self._dry = 0  # the underruns a driver has told of (``audio_openal``)
        self._switch_s: float | None = None  # Python's switch interval before ours played
        self._held_s = 0.0  # what the driver holds beyond the block it asks for
        self._lead_window_s: float | None = None  # how far back the mixer reads its queue
        self._frame: tuple[float, float] | None = None  # (the game's clock, the wall clock)
        self.queue_s = 0.0
        """The audio the driver keeps queued now, in seconds (it grows after underruns)."""
        if enabled:
            self._start(allow_silent)

    def _start(self, allow_silent: bool) -> None:
        from asteroids.app import audio_driver

        fallback = ""
        for name in audio_driver.ours():
            fallback += self._start_ours(name)
            if self._player is not None:
                return
        try:
            from asteroids.app import audio_stream

            audio_driver.open_fallback()
            if not allow_silent and not audio_stream.has_device():
                self.error = self.notice = NO_DEVICE
                return
            self.mixer = self._build_mixer(self.sound_set)
            self._player = audio_stream.open_stream(self.render, synth.RATE,
                                                    allow_silent=allow_silent)
            self.queue_s = getattr(self._player, "queue_s", 0.0)
            self.report = self._describe(audio_stream) + fallback
            if self._log is not None:
                self._log.report, self._log.queue_s = self.report, self.queue_s
        except Exception as exc:  # a driver that fails to start: play silently
            self.mixer = None
            self.error = f"{type(exc).__name__}: {exc}"
            self.notice = f"sound off: {self.error}"

    def _start_ours(self, name: str) -> str:
        """Start our own driver ``name`` (``audio_driver.OURS``); returns "" when it plays,
        else why not, as the tail of the report line of the driver that plays instead."""
        from asteroids.app import audio_driver, audio_miniaudio, audio_openal

        module: Any = audio_openal if name == "openal" else audio_miniaudio
        if module is audio_openal and audio_driver.current_if_open() == "openal":
            return " (openal: pyglet's OpenAL driver is open already)"  # one context at a time
        if not module.available():
            if module is audio_openal:
                return " (openal: OpenAL is not installed)"
            return (f" ({audio_miniaudio.NAME} is not installed: {audio_miniaudio.INSTALL} "
                    "for a shorter lag)")
        self._held_s = module.held_s()
        self._lead_window_s = module.LEAD_WINDOW_S
        self.mixer = self._build_mixer(self.sound_set)
        try:
            if module is audio_openal:
                self._player = audio_openal.OpenALStream(self.render, synth.RATE)
            else:
                only = audio_miniaudio.pulse_only() if name == "miniaudio-pulse" else None
                self._player = audio_miniaudio.CallbackStream(self.render, synth.RATE,
                                                              only=only)
        except Exception as exc:  # no output it can open: the next driver may have one
            self.mixer = None  # (its log, if any, is attached to the next mixer)
            self._held_s, self._lead_window_s = 0.0, None
            return f" ({module.NAME}: {exc})"
        self.queue_s = self._player.queue_s
        self._switch_s = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_s, SWITCH_INTERVAL_S))
        room = round(self.mixer.latency / synth.RATE * 1000)
        self.driver = module.NAME
        self.latency_ms = round((self.queue_s + getattr(self._player, "period_s", 0.0))
                                * 1000) + room
        self.report = (f"sound: {self._player.describe()}, each cue on its tick's sample, "
                       f"{room} ms after the queue at its fullest")
        if self._log is not None:
            self._log.report, self._log.queue_s = self.report, self.queue_s
            self._log.driver = self._player
        return ""

    def _describe(self, audio_stream: Any) -> str:
        """Which pyglet driver plays, the queue asked of it and the cues' latency."""
        from asteroids.app import audio_driver

        tuned = getattr(self._player, "tuned", False)
        queue = (f"{round(audio_stream.queue_s() * 1000)} ms queue" if tuned
                 else "the driver's own queue")
        room = round(self.mixer.latency / synth.RATE * 1000) if self.mixer else 0
        self.driver = audio_driver.current()
        self.latency_ms = round(audio_stream.queue_s() * 1000) + room if tuned else None
        return (f"sound: {self.driver} driver, {queue}, each cue on its tick's "
                f"sample, {room} ms after the queue at its fullest")

    def _build_mixer(self, sound_set: str) -> Mixer:
        mixer = Mixer(synth.render_set(sound_set), synth.RATE, synth.LOOPING,
                      clock=time.monotonic)
        mixer.set_volumes(self.master_volume, self._effects, self._heartbeat)
        mixer.snap_volumes()
        mixer.clock_map.underrun_slack += self._held_s
        if self._lead_window_s is not None:  # a driver of ours (``_start_ours``)
            mixer.clock_map.lead_window_s = self._lead_window_s
        folder = os.environ.get("ASTEROIDS_SOUND_LOG")  # sound_log.ENV: a capture measures
        if folder:
            from asteroids.app.sound_log import SoundLog

            self._log = self._log or SoundLog(Path(folder))
            self._log.attach(mixer)
        return mixer

    def render(self, n: int) -> bytes:
        """The next ``n`` samples of the stream as 16-bit bytes (pyglet's worker thread asks;
        silence while sound is off). Drains the game's commands first."""
        with self._render_lock:
            while self._commands:
                command = self._commands.popleft()
                if self.mixer is not None:
                    command(self.mixer)
            if self.mixer is None:
                return bytes(2 * n)
            dry = getattr(self._player, "underruns", None)  # a driver that sees its own
            if dry is not None and dry > self._dry:
                self._dry = dry
                self.mixer.clock_map.underran()
            mix = self.mixer.render(n)
            if self.mixer.underruns > self._underruns:  # starved: keep more queued from now
                self._underruns = self.mixer.underruns
                if self._player is not None:
                    self.queue_s = self._player.grow()
                    if self._log is not None:
                        self._log.queue_s = self.queue_s
            if self._outgoing is not None:  # the last set's voices fading out
                mix = soft_clip(mix + self._outgoing.render(n))
                if not self._outgoing.voices:
                    self._outgoing = None
            return np.round(mix * 32767.0).astype(np.int16).tobytes()

    @property
    def available(self) -> bool:
        """Whether sound is playing on a device."""
        return self.mixer is not None and self._player is not None

    @property
    def effects_volume(self) -> float:
        """The effects' volume setting (0..1, on top of the master)."""
        return self._effects

    @property
    def heartbeat_volume(self) -> float:
        """The heartbeat's volume setting (0..1, on top of the master)."""
        return self._heartbeat

    def play(self, name: str, at: float | None = None) -> None:
        """Play a one-shot sound (ignored when muted, unavailable or not in the set), at game
        time ``at`` (``Mixer.play``; None: at the next block)."""
        if not self.muted:
            self._cue(("play", name), at)

    def loop(self, name: str, on: bool) -> None:
        """Start or stop a looping sound (thrust, saucer sirens); muted, only stops."""
        if on and self.muted:
            return
        self._cue(("loop_on" if on else "loop_off", name))

    def _send(self, command: Callable[[Mixer], object]) -> None:
        """Hand ``command`` to the render thread: it is called with the mixer at the start
        of the next block."""
        if self.mixer is not None:
            self._commands.append(command)

    def _cue(self, cue: Cue, at: float | None = None) -> None:
        sent = time.monotonic()
        frame = self._frame
        due = None if frame is None or at is None else frame[1] - max(frame[0] - at, 0.0)
        self._send(lambda mixer: apply_cue(mixer, cue, at, sent, due))

    def game_clock(self, now: float | None) -> None:
        """The game's clock (the one ``at`` is on) reads ``now`` at this moment: a window
        says so at the start of each frame, before it runs the frame's ticks, and None
        after them. Each timed cue sent meanwhile carries when its tick was due on the
        wall clock (``Mixer.play``'s ``due``), so the mixer's map keeps to the game's clock
        however late the frames come; only the room (``audio_clock``) sees that lateness."""
        self._frame = None if now is None else (now, time.monotonic())

    def on_event(self, event: ev.Event, at: float | None = None) -> None:
        """Play whatever one core event sounds like; ``at`` is the time of the tick that
        caused it on the game's clock (``Mixer.play``)."""
        for action, name in cues(event):
            if action == "play":
                self.play(name, at)
            else:
                self.loop(name, action == "loop_on")

    def stop_all(self) -> None:
        """Fade out every loop and one-shot (pause, game over, leaving a view)."""
        self._send(Mixer.stop_all)

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute (muting fades out what is playing)."""
        self.muted = bool(muted)
        if self.muted:
            self.stop_all()

    def set_shares(self, effects: float, heartbeat: float) -> None:
        """Set the effects' and the heartbeat's volume settings (0..1 each, on top of the
        master, each through the dB taper)."""
        self._effects = _unit(effects)
        self._heartbeat = _unit(heartbeat)
        self._push_volumes()

    def set_volume(self, master: float) -> float:
        """Set the master volume setting (clamped to 0..1) and return it; what is playing
        follows at once, gliding over 20 ms."""
        self.master_volume = _unit(master)
        self._push_volumes()
        return self.master_volume

    def set_sound_set(self, sound_set: str) -> None:
        """Switch to another set of voices (``synth.SOUND_SETS``); what plays is cut.

        Raises:
            KeyError: for an unknown set.
        """
        if sound_set == self.sound_set:
            return
        synth.voice_names(sound_set)  # KeyError for an unknown set, before anything changes
        self.sound_set = sound_set
        if self.mixer is not None:
            new = self._build_mixer(sound_set)
            self._send(lambda old: self._swap(old, new))

    def _swap(self, old: Mixer, new: Mixer) -> None:
        """Render thread: the new set's mixer takes over; the old one fades out."""
        old.stop_all()
        self._outgoing, self.mixer = old, new

    def _push_volumes(self) -> None:
        volumes = (self.master_volume, self._effects, self._heartbeat)
        self._send(lambda mixer: mixer.set_volumes(*volumes))

    def close(self) -> None:
        """Stop the stream for good (the window is closing)."""
        player, self._player = self._player, None
        log, self._log = self._log, None
        if player is not None:
            try:
                player.pause()
                player.delete()
            except Exception:  # the driver may already be gone at exit
                pass
        if self._switch_s is not None:  # what it was before a driver of ours played
            sys.setswitchinterval(self._switch_s)
            self._switch_s = None
        if log is not None:
            log.close()


def _unit(value: float) -> float:
    return min(max(float(value), 0.0), 1.0)
