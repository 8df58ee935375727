"""The window's sound: the sound bank (``asteroids.app.audio``), the player's mute and
volume keys, and the short notice they put on screen (``SOUND OFF``, ``VOLUME 60 %``).

One job: what is heard, and saying so when the player changes it. Remembering the change is
the profile's: a ``remember`` callback is given. No drawing here (the HUD shows ``notice``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from asteroids.app.audio import NO_DEVICE, SoundBank
from asteroids.config import Config
from asteroids.config.player_tables import AudioConfig
from asteroids.core import events as ev

__all__ = ["NOTICE_S", "VOLUME_STEP", "AudioService"]

VOLUME_STEP = 0.1
"""How much one volume key changes the master volume."""

NOTICE_S = 1.5
"""Seconds the mute / volume notice stays on screen."""


class AudioService:
    """The sounds of the window and the keys that change them.

    Args:
        config: the settings (``config.audio``).
        enabled: build the sound bank (False: tests and screenshots play nothing).
        remember: called with ``muted=`` / ``master_volume=`` when the player changes them
            (the profile saves them); None remembers nothing.
        clock: seconds, for the notice's age (``time.monotonic``; tests pass their own).
    """

    def __init__(self, config: Config, enabled: bool = True,
                 remember: Callable[..., object] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bank = SoundBank(config, enabled=enabled)
        """The sounds themselves."""
        self.remember = remember
        self.clock = clock
        self._notice = ""
        self._notice_at = -1e9

    @property
    def muted(self) -> bool:
        """Whether the sound is off."""
        return self.bank.muted

    def state_text(self) -> str:
        """The sound as the options screen shows it: ``ON`` with the driver that plays and
        the latency asked of it (``ON (MINIAUDIO 50 MS)``; the driver alone where it keeps
        its own queue), ``OFF`` (muted), or why no sound can play whatever the mute says
        (``OFF (NO DEVICE)``, as the title's notice says; ``OFF (FAILED)`` when the driver
        would not start)."""
        error = self.bank.error
        if error is not None:
            return "OFF (NO DEVICE)" if error == NO_DEVICE else "OFF (FAILED)"
        if self.muted:
            return "OFF"
        driver, latency = self.bank.driver, self.bank.latency_ms
        if driver is None:
            return "ON"
        return f"ON ({driver.upper()}{'' if latency is None else f' {latency} MS'})"

    @property
    def master_volume(self) -> float:
        """The master volume, 0..1."""
        return self.bank.master_volume

    def apply(self, audio: AudioConfig) -> None:
        """Take the levels and mute of ``audio`` (the settings in force)."""
        self.bank.set_shares(audio.effects_volume, audio.heartbeat_volume)
        self.bank.set_volume(audio.volume)
        self.bank.set_muted(audio.muted)
        self.bank.set_sound_set(audio.sound_set)

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute (not remembered, no notice: a setting, not the player's key)."""
        self.bank.set_muted(muted)

    def set_volume(self, volume: float) -> float:
        """Set the master volume (not remembered, no notice); returns it, clamped."""
        return self.bank.set_volume(volume)

    def toggle_mute(self) -> bool:
        """The mute key: sound off or on, remembered and shown; returns the new state."""
        self.bank.set_muted(not self.bank.muted)
        if self.remember is not None:
            self.remember(muted=self.bank.muted)
        self.say("SOUND OFF" if self.bank.muted else "SOUND ON")
        return self.bank.muted

    def change_volume(self, steps: int) -> float:
        """The volume keys: ``steps`` of ``VOLUME_STEP`` up (down when negative), remembered
        and shown; returns the new volume."""
        volume = self.bank.set_volume(round(self.bank.master_volume + steps * VOLUME_STEP, 2))
        if self.remember is not None:
            self.remember(master_volume=volume)
        self.say(f"VOLUME {round(volume * 100)} %" + (" (SOUND OFF)" if self.muted else ""))
        return volume

    def say(self, text: str) -> None:
        """Put ``text`` up as the sound notice for ``NOTICE_S`` seconds."""
        self._notice = text
        self._notice_at = self.clock()

    def notice(self) -> str:
        """The sound notice on screen now (empty: none)."""
        return self._notice if self.clock() - self._notice_at < NOTICE_S else ""

    def on_event(self, event: ev.Event, at: float | None = None) -> None:
        """Play what a core event sounds like; ``at``: the time of the tick that caused it on
        the game's clock (tick / tick rate), so that it sounds on time (``Mixer.play``)."""
        self.bank.on_event(event, at)

    def game_clock(self, now: float | None) -> None:
        """The game's clock reads ``now`` at this moment (a frame starts), None: the frame's
        ticks have run (``SoundBank.game_clock``)."""
        self.bank.game_clock(now)

    def loop(self, name: str, on: bool) -> None:
        """Start or stop a looping sound."""
        self.bank.loop(name, on)

    def stop_all(self) -> None:
        """Silence everything (pause, game over, leaving a screen)."""
        self.bank.stop_all()
