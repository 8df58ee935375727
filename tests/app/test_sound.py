"""The sound bank: what each core event sounds like, the stream pyglet plays, and what the game
says when there is no audio device (CI runs with ``ARCADE_SOUND_BACKENDS=silent``)."""

from __future__ import annotations

import io
import time
import wave

import numpy as np
import pytest

from asteroids.app import audio_stream, synth
from asteroids.app.audio import NO_DEVICE, SoundBank, cues, pcm_to_wav
from asteroids.app.mixer import CEILING
from asteroids.config import load_config
from asteroids.config.loader import load_preset
from asteroids.core import events as ev

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


@pytest.mark.parametrize(("event", "expected"), [
    (ev.ShotFired("ship", 0, 0), (("play", "fire"),)),
    (ev.ShotFired("saucer", 0, 0), (("play", "saucer_fire"),)),
    (ev.AsteroidDestroyed(0, 0, 0, 2, "ship-shot", 20), (("play", "bang_large"),)),
    (ev.AsteroidDestroyed(1, 0, 0, 2, "ship-shot", 50), (("play", "bang_medium"),)),
    (ev.AsteroidDestroyed(2, 0, 0, 0, "ship-shot", 100), (("play", "bang_small"),)),
    (ev.SaucerDestroyed(True, 0, 0, "ship-shot", 1000),
     (("play", "bang_medium"), ("loop_off", "saucer_small"), ("loop_off", "saucer_large"))),
    (ev.SaucerDestroyed(False, 0, 0, "ship-shot", 200),
     (("play", "bang_large"), ("loop_off", "saucer_small"), ("loop_off", "saucer_large"))),
    (ev.ShipDestroyed(0, 0, "asteroid", 1), (("play", "ship_explode"), ("loop_off", "thrust"))),
    (ev.SaucerSpawned(False, 0, 0), (("loop_on", "saucer_large"),)),
    (ev.ThrustChanged(True), (("loop_on", "thrust"),)),
    (ev.Heartbeat(0, 9), (("play", "beat_low"),)),
    (ev.Heartbeat(1, 9), (("play", "beat_high"),)),
    (ev.WaveStarted(1, 4), ()),
])
def test_each_event_has_its_cues(event, expected):
    assert cues(event) == expected


def test_every_cue_names_a_known_sound():
    for event in ALL_EVENTS:
        assert {name for _, name in cues(event)} <= set(synth.SOUND_NAMES)


def test_wav_bytes_round_trip():
    pcm = np.array([0, 1, -1, 32767, -32767], dtype=np.int16)
    with wave.open(io.BytesIO(pcm_to_wav(pcm))) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, synth.RATE)
        assert np.array_equal(np.frombuffer(w.readframes(w.getnframes()), "<i2"), pcm)


# --- no audio device -------------------------------------------------------------------

def test_without_a_device_the_bank_says_so_and_plays_nothing(config):
    assert not audio_stream.has_device()  # CI: ARCADE_SOUND_BACKENDS=silent
    bank = SoundBank(config)
    assert not bank.available and bank.mixer is None
    assert bank.notice == bank.error == NO_DEVICE == "no audio device: sound off"
    for event in ALL_EVENTS:  # no errors, nothing to hear
        bank.on_event(event)
    bank.set_volume(0.3)
    bank.set_sound_set("modern")
    bank.stop_all()
    assert bank.master_volume == 0.3 and bank.sound_set == "modern"


def test_a_disabled_bank_says_nothing(config):
    bank = SoundBank(config, enabled=False)
    assert not bank.available and bank.notice is None
    for event in ALL_EVENTS:
        bank.on_event(event)


@pytest.mark.gl
def test_the_game_says_no_audio_device_once(window, config, capsys):
    from asteroids.app.router import open_shell
    from asteroids.app.title_view import TitleView

    game = open_shell(window, config, seed=3, sound=True)
    assert game.profile.notices.count(NO_DEVICE) == 1
    assert capsys.readouterr().err.count(f"asteroids: {NO_DEVICE}") == 1
    assert not game.audio.bank.available
    title = TitleView(game)
    assert NO_DEVICE in title.notice
    assert NO_DEVICE not in TitleView(game).notice  # said once


# --- the stream (on the silent driver, as if it were a device) ---------------------------

def test_the_source_gives_exactly_what_is_asked_and_never_ends():
    calls = []

    def render(n: int) -> bytes:
        calls.append(n)
        return bytes(2 * n)

    source = audio_stream.MixerSource(render, synth.RATE)
    assert source.is_precise() and source.audio_format.sample_rate == synth.RATE
    for asked in (4410, 4411, 1, 0, 1 << 16):
        data = source.get_audio_data(asked)
        assert data is not None and data.length == max(2, asked - asked % 2)
    assert calls == [2205, 2205, 1, 1, 1 << 15]


def wait_for(predicate, seconds: float = 3.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_the_stream_plays_asking_for_no_more_than_its_latency():
    asked = []
    player = audio_stream.open_stream(lambda n: asked.append(n) or bytes(2 * n), synth.RATE,
                                      allow_silent=True)
    try:
        assert wait_for(lambda: len(asked) >= 3)  # pyglet's worker keeps pulling
        assert player.tuned  # this pyglet still has the settings tune() changes
        # never more than LATENCY_S asked at once (pyglet's own default: 0.9 s)
        assert max(asked) <= round(audio_stream.LATENCY_S * synth.RATE)
    finally:
        player.pause()
        player.delete()


def test_without_a_device_open_stream_refuses():
    with pytest.raises(audio_stream.NoAudioDevice):
        audio_stream.open_stream(lambda n: bytes(2 * n), synth.RATE)


@pytest.fixture
def live_bank(config):
    bank = SoundBank(config, allow_silent=True)
    yield bank
    bank.close()


def test_the_bank_streams_the_mixer(live_bank):
    assert live_bank.available and live_bank.notice is None
    for event in ALL_EVENTS:
        live_bank.on_event(event)
    live_bank.render(0)  # the render thread takes the game's commands at its next block
    assert "beat_high" in live_bank.mixer.voices
    assert wait_for(lambda: "beat_high" not in live_bank.mixer.voices)  # the stream ran
    pcm = np.frombuffer(live_bank.render(512), dtype=np.int16)
    assert pcm.size == 512 and np.abs(pcm.astype(np.int32)).max() <= round(CEILING * 32767)


def test_muting_fades_out_and_keeps_quiet(live_bank):
    live_bank.on_event(ev.ThrustChanged(True))
    live_bank.render(0)
    assert live_bank.mixer.looping("thrust")
    live_bank.set_muted(True)
    live_bank.on_event(ev.ShotFired("ship", 0, 0))
    live_bank.on_event(ev.ThrustChanged(True))
    live_bank.render(0)
    assert not live_bank.mixer.looping("thrust") and "fire" not in live_bank.mixer.voices
    live_bank.set_muted(False)
    live_bank.on_event(ev.ShotFired("ship", 0, 0))
    live_bank.render(0)
    assert "fire" in live_bank.mixer.voices


def test_the_sound_set_switches_while_playing(live_bank):
    assert live_bank.sound_set == "cabinet" and not live_bank.mixer.has("hyperspace")
    live_bank.on_event(ev.ThrustChanged(True))
    live_bank.set_sound_set("modern")
    live_bank.render(0)
    assert live_bank.mixer.has("hyperspace") and live_bank.mixer.voices == []
    live_bank.render(1000)  # the cabinet's thrust fades out under the new set
    with pytest.raises(KeyError):
        live_bank.set_sound_set("kazoo")
    assert live_bank.sound_set == "modern"


def test_the_classic_preset_and_the_defaults_pick_the_cabinet():
    assert load_config().audio.sound_set == "cabinet"
    assert load_preset("classic").audio.sound_set == "cabinet"
    assert load_config(overrides=["audio.sound_set=modern"]).audio.sound_set == "modern"


def test_after_an_underrun_the_stream_keeps_more_queued_up_to_a_bound():
    """A driver thread starved for longer than the queue will be again on that machine:
    each underrun grows the queue by half, as a PulseAudio server raises its latency."""
    player = audio_stream.open_stream(lambda n: bytes(2 * n), synth.RATE, allow_silent=True)
    try:
        assert player.tuned and player.queue_s == audio_stream.LATENCY_S
        fmt = player.source.audio_format
        sizes = []
        for _ in range(8):
            player.grow()
            sizes.append(player._audio_player._buffered_data_ideal_size)
        assert sizes[0] == fmt.align(round(0.06 * fmt.bytes_per_second))
        assert player.queue_s == audio_stream.MAX_QUEUE_S
        assert sizes[-1] == fmt.align(round(audio_stream.MAX_QUEUE_S * fmt.bytes_per_second))
    finally:
        player.pause()
        player.delete()


def test_the_bank_grows_the_queue_when_its_mixer_counts_an_underrun(config):
    bank = SoundBank(config, enabled=False)
    bank.mixer = bank._build_mixer(bank.sound_set)
    grown = []

    class Player:
        def grow(self) -> float:
            grown.append(1)
            return 0.06 * len(grown)

    bank._player = Player()
    now = [0.0]
    bank.mixer.clock_map.clock = lambda: now[0]
    for k in range(6):
        now[0] = k * 0.01 + (0.5 if k >= 3 else 0.0)  # a 0.5 s stall before block 3
        bank.render(220)
    assert bank.mixer.underruns == 1 and grown == [1] and bank.queue_s == 0.06
