"""Synthesised sounds (pure numpy) and the sound bank on pyglet's silent driver."""

from __future__ import annotations

import hashlib
import io
import wave

import numpy as np
import pytest

from asteroids.app import synth
from asteroids.app.audio import SoundBank, pcm_to_wav
from asteroids.core import events as ev

EXPECTED_SECONDS = {
    "fire": 0.14, "bang_large": 0.9, "bang_medium": 0.6, "bang_small": 0.35,
    "ship_explode": 1.3, "beat_low": 0.11, "beat_high": 0.11, "saucer_large": 1.0,
    "saucer_small": 0.5, "extra_life": 0.28, "hyperspace": 0.25,
}


@pytest.mark.parametrize("name", synth.SOUND_NAMES)
def test_each_sound_is_audible_mono_int16(name):
    pcm = synth.render_sound(name)
    assert pcm.dtype == np.int16 and pcm.ndim == 1
    assert 0.05 * synth.RATE < pcm.shape[0] < 2.0 * synth.RATE
    assert np.abs(pcm.astype(np.int32)).max() > 2000
    if name in EXPECTED_SECONDS:
        assert pcm.shape[0] == pytest.approx(EXPECTED_SECONDS[name] * synth.RATE, abs=2)


def test_sounds_are_deterministic():
    digest = {n: hashlib.sha256(p.tobytes()).hexdigest() for n, p in synth.render_all().items()}
    again = {n: hashlib.sha256(p.tobytes()).hexdigest() for n, p in synth.render_all().items()}
    assert digest == again


def test_sample_rate_scales_length():
    assert synth.render_sound("fire", 44100).shape[0] == 2 * synth.render_sound("fire").shape[0]


def test_loops_start_and_end_near_silence_or_match():
    for name in synth.LOOPING:
        pcm = synth.render_sound(name).astype(np.int32)
        assert abs(pcm[0] - pcm[-1]) < 20000  # no full-scale click at the loop point


def test_unknown_sound_is_a_key_error():
    with pytest.raises(KeyError):
        synth.render_sound("kazoo")


def test_wav_bytes_round_trip():
    pcm = synth.render_sound("beat_low")
    with wave.open(io.BytesIO(pcm_to_wav(pcm))) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, synth.RATE)
        assert np.array_equal(np.frombuffer(w.readframes(w.getnframes()), "<i2"), pcm)


ALL_EVENTS = [
    ev.ShotFired("ship", 1.0, 2.0), ev.ShotFired("saucer", 1.0, 2.0),
    ev.AsteroidDestroyed(0, 1.0, 1.0, 2, "ship-shot", 20),
    ev.AsteroidDestroyed(2, 1.0, 1.0, 0, "ship", 100),
    ev.ShipDestroyed(1.0, 1.0, "asteroid", 2), ev.SaucerSpawned(True, 0.0, 5.0),
    ev.SaucerDestroyed(True, 1.0, 1.0, "ship-shot", 1000), ev.SaucerSpawned(False, 0.0, 5.0),
    ev.SaucerLeft(False), ev.ThrustChanged(True), ev.ThrustChanged(False),
    ev.Heartbeat(0, 50), ev.Heartbeat(1, 50), ev.ExtraLife(4), ev.HyperspaceEntered(1.0, 1.0),
    ev.WaveStarted(2, 5), ev.GameOver(1230),
]


def test_bank_plays_every_event_on_the_silent_driver(config):
    bank = SoundBank(config)
    assert bank.available, bank.error
    for event in ALL_EVENTS:
        bank.on_event(event)
    bank.set_muted(True)
    bank.on_event(ALL_EVENTS[0])
    assert bank._players == []
    bank.stop_all()


def test_disabled_bank_is_a_silent_no_op(config):
    bank = SoundBank(config, enabled=False)
    assert not bank.available
    for event in ALL_EVENTS:
        bank.on_event(event)
