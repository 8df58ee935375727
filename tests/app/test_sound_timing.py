"""Sound on time (issue 37): cues start at the sample their tick maps to, whatever blocks the
driver asks for; the clock map follows drift without jumps; late cues are counted; and the
render thread never waits on the game thread."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from asteroids.app import synth
from asteroids.app.audio import SoundBank
from asteroids.app.mixer import BLOCK, DEADBAND_S, JUMP_S, LOOKAHEAD, SLEW, WINDOW_S, Mixer
from asteroids.core import events as ev

R = synth.RATE
HZ = 60.0
CLICK = np.ones(40)
"""A test sound: non-zero from its first sample, shorter than a tick."""


class FakeClock:
    """Wall-clock seconds that the test sets."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def onsets(out: np.ndarray) -> list[int]:
    """Where the output goes from silence to sound."""
    sounding = out != 0
    return [int(i) for i in np.flatnonzero(sounding & ~np.concatenate(([False],
                                                                        sounding[:-1])))]


def run(mixer: Mixer, clock: FakeClock, cues: list[tuple[float, float]], seconds: float,
        blocks: np.random.Generator, largest: int) -> np.ndarray:
    """Render ``seconds`` in random blocks of 1..``largest`` samples, each asked for just in
    time (the wall clock at the block's start is its first sample's time); before each
    block, the cues ``(game time, wall time sent)`` sent by then go to the mixer."""
    total = round(seconds * R)
    parts = []
    pending = sorted(cues, key=lambda c: c[1])
    while mixer.samples < total:
        clock.now = mixer.samples / R
        while pending and pending[0][1] <= clock.now:
            at, sent = pending.pop(0)
            mixer.play("fire", at=at, sent=sent)
        parts.append(mixer.render(int(blocks.integers(1, largest + 1))))
    return np.concatenate(parts)[:total]


def scheduled(mixer: Mixer) -> list[int]:
    """Every sample ``mixer.schedule`` hands out from now on, in order."""
    out: list[int] = []
    schedule = mixer.schedule

    def spy(at: float, sent: float | None = None, due: float | None = None) -> int:
        out.append(schedule(at, sent, due))
        return out[-1]

    mixer.schedule = spy  # type: ignore[method-assign]
    return out


def test_each_cue_starts_on_its_exact_sample_whatever_the_block_sizes():
    rng = np.random.default_rng(37)
    clock = FakeClock()
    # room for the largest block: the envelope of the queue may grow by that much at once
    mixer = Mixer({"fire": CLICK}, R, latency_s=8192 / R, clock=clock)
    starts = scheduled(mixer)
    ticks = np.sort(rng.choice(np.arange(1, 1200), size=200, replace=False))
    cues = [(t / HZ, t / HZ) for t in ticks]  # each sent when its tick ran
    out = run(mixer, clock, cues, 21.0, rng, 8192)
    assert onsets(out) == starts and len(starts) == 200
    assert mixer.late_cues == 0 and mixer.anchors == 1 and mixer.underruns == 0
    assert any(e % 64 for e in starts)  # not on any block grid
    # the driver's queue (here up to a block of 8 192) and the room are the latency
    lag = np.array(starts) - np.floor(ticks / HZ * R + 0.5)
    assert lag.min() >= 1 and lag.max() <= 2 * 8192


def test_the_map_stays_put_under_driver_polling_and_frame_jitter():
    """pyglet refills 1 024 samples when its 20 ms poll finds the queue under 2/3 of
    80 ms, and the game sends each tick's cues at the next frame (0-16 ms late). The map
    takes the envelopes of both: after the first window every cue keeps one offset, so
    intervals are exact and the lag is constant (0.2 chased each reading: 7-9 ms of
    spread)."""
    rng = np.random.default_rng(11)
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, clock=clock)
    starts = scheduled(mixer)
    frames = np.cumsum(rng.uniform(0.012, 0.0167, 2000))  # frame times, jittering
    ticks = np.arange(1, 600, 7)
    sends = [float(frames[np.searchsorted(frames, t / HZ)]) for t in ticks]
    pending = sorted(zip(ticks / HZ, sends, strict=True), key=lambda c: c[1])
    played, queued, parts, poll = 0.0, 0, [], 0.0
    while poll < 10.5:
        poll += 0.020 + rng.uniform(0, 0.002)
        played = poll * R  # the card plays on the wall clock
        clock.now = poll
        while pending and pending[0][1] <= poll:
            at, sent = pending.pop(0)
            mixer.play("fire", at=at, sent=sent)
        if queued - played < 2 / 3 * 0.08 * R:
            n = int(0.08 * R - (queued - played))
            parts.append(mixer.render(n))
            queued += n
    out = np.concatenate(parts)
    assert onsets(out) == starts and mixer.late_cues == 0
    lag = np.array(starts) - np.floor(ticks / HZ * R + 0.5)
    steady = lag[ticks / HZ > WINDOW_S]
    assert steady.max() - steady.min() <= DEADBAND_S * R  # the envelopes' wander is ignored
    assert np.all(np.abs(np.diff(lag)) <= DEADBAND_S * R + SLEW * 7 / HZ * R)


def test_without_a_clock_cues_follow_the_sample_clock():
    mixer = Mixer({"fire": CLICK}, R, latency_s=0.01)
    mixer.play("fire", at=5.0)  # anchored: sample 0 + latency
    mixer.play("fire", at=5.1)
    out = mixer.render(R)
    assert onsets(out) == [round(0.01 * R), round(0.01 * R) + round(0.1 * R)]
    mixer.play("fire")  # no time: the next block's first sample
    assert onsets(mixer.render(100)) == [0]


def test_slow_frames_widen_the_room_instead_of_playing_cues_late():
    """A window drawn at 12 frames a second sends each tick's cues up to 83 ms after the
    tick, far past the 20 ms room: the room grows to cover them, so after the first cues
    they keep one lag instead of landing on the driver's blocks."""
    rng = np.random.default_rng(12)
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, clock=clock)
    starts = scheduled(mixer)
    frames = np.cumsum(rng.uniform(0.07, 0.083, 200))
    ticks = np.arange(1, 900, 5)
    sends = [float(frames[np.searchsorted(frames, t / HZ)]) for t in ticks]
    pending = sorted(zip(ticks / HZ, sends, strict=True), key=lambda c: c[1])
    queued, parts, poll = 0, [], 0.0
    while poll < 15.5:
        poll += 0.005
        clock.now = poll
        while pending and pending[0][1] <= poll:
            at, sent = pending.pop(0)
            mixer.play("fire", at=at, sent=sent)
        if queued - poll * R < 0.02 * R:
            parts.append(mixer.render(1024))
            queued += 1024
    assert onsets(np.concatenate(parts)) == starts
    lag = np.array(starts) - np.floor(ticks / HZ * R + 0.5)
    steady = lag[ticks / HZ > 6]  # the room read, the map slewed to it
    assert steady.max() - steady.min() <= 0.003 * R  # the bar for the lag
    assert 0.06 * R < steady.min() - 1024 < 0.12 * R  # the room: most of a frame's lateness
    assert mixer.late_cues < 30  # only while the room was still being read


def test_the_map_follows_a_fast_game_clock_slowly_and_never_jumps():
    rng = np.random.default_rng(5)
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, clock=clock)  # default latency, 50 ms
    fast = 1.005  # the game's clock runs 0.5 % fast against the sound card's
    ticks = np.arange(8, 60 * 60, 8)  # a beat every 8 ticks for a minute
    cues = [(t / HZ, t / HZ / fast) for t in ticks]
    out = run(mixer, clock, cues, 61.0, rng, 1024)
    starts = np.array(onsets(out))
    assert starts.size == ticks.size
    assert mixer.late_cues == 0 and mixer.anchors == 1
    # against the game's clock the cues slide (the map follows the card) ...
    slide = starts - ticks / HZ * R
    gaps = np.diff(starts)
    assert np.all(np.abs(np.diff(slide)) <= SLEW * (gaps + 1024) + 1)
    assert slide[0] - slide[-1] > 0.004 * 60 * R
    # ... and against the wall clock they keep the latency (the driver's 1 024-sample
    # blocks and the room), within the dead band
    wall = starts - ticks / HZ / fast * R
    assert np.all(np.abs(wall[20:] - mixer.latency - 1024) <= DEADBAND_S * R + SLEW * 1024 + 2)


def test_a_cue_whose_sample_has_gone_plays_at_once_and_is_counted():
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, latency_s=0.05, clock=clock)
    mixer.play("fire", at=0.0, sent=0.0)
    mixer.render(4096)
    clock.now = 4096 / R
    mixer.play("fire", at=0.01, sent=0.09)  # a slow frame: sent 80 ms after its tick
    assert mixer.late_cues == 1
    out = mixer.render(512)
    assert out[0] != 0  # at once: the block's first sample
    assert mixer.anchors == 1  # under JUMP_S: the map only slews


def test_a_jump_of_the_game_clock_anchors_the_map_afresh():
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, latency_s=0.05, clock=clock)
    mixer.play("fire", at=100.0, sent=0.0)
    mixer.render(2048)
    clock.now = 2048 / R
    mixer.play("fire", at=0.0, sent=clock.now)  # a new game: tick 0 again
    assert mixer.anchors == 2 and mixer.late_cues == 0
    # now + the room: the only block so far was queued before anything played, so it
    # says nothing of the driver's queue
    assert onsets(mixer.render(4096)) == [round(0.05 * R)]
    assert JUMP_S * R < 100 * R


def test_a_voice_stolen_for_a_later_cue_plays_until_that_cue_starts():
    clock = FakeClock()
    mixer = Mixer({"beat_low": np.ones(4000)}, R, latency_s=0.05, clock=clock)
    mixer.play("beat_low", at=0.0, sent=0.0)  # starts at 1102
    mixer.play("beat_low", at=0.1, sent=0.0)  # the heartbeat group holds one: cut at 3307
    out = mixer.render(8000)
    start = round(0.05 * R)
    assert onsets(out) == [start]
    # whole until then, bar the limiter, which starts down LOOKAHEAD before the overlap
    assert np.all(out[start:start + 2205 - LOOKAHEAD - 2 * BLOCK] > 0.6)
    assert mixer.steals == 1


def test_an_underrun_is_counted_and_the_stream_goes_on_where_it_was():
    clock = FakeClock()
    buffers = {"thrust": np.sin(np.arange(2205) * 2 * np.pi * 100 / R) + 1.5}
    mixer = Mixer(buffers, R, {"thrust"}, clock=clock)
    mixer.loop("thrust", True)
    parts = []
    for k in range(40):
        clock.now = mixer.samples / R + (1.0 if k >= 20 else 0.0)  # a 1 s stall at k = 20
        parts.append(mixer.render(1024))
    out = np.concatenate(parts)
    assert mixer.underruns == 1
    assert np.all(out[1024:] != 0)  # no gap in what the mixer made
    mixer.play("fire", at=0.0)  # unknown: ignored, but the map is due a fresh anchor
    assert mixer.offset is None


def longest_silence(pcm: np.ndarray) -> int:
    """The longest run of zero samples."""
    zero = np.concatenate(([0], (pcm == 0).astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(zero))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0


def test_a_stalled_game_thread_leaves_no_gap(config):
    bank = SoundBank(config, enabled=False)
    bank.mixer = bank._build_mixer(bank.sound_set)  # a mixer, no pyglet stream
    bank.loop("thrust", True)
    block = 512
    out: list[bytes] = []
    worst = [0.0]
    stop = threading.Event()

    def render_thread() -> None:  # the driver: a block every 23 ms, on time
        start = time.monotonic()
        done = 0
        while not stop.is_set():
            wait = start + done / R - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            t0 = time.monotonic()
            out.append(bank.render(block))
            worst[0] = max(worst[0], time.monotonic() - t0)
            done += block

    thread = threading.Thread(target=render_thread)
    thread.start()
    try:
        time.sleep(0.2)
        bank.on_event(ev.Heartbeat(0, 8), at=0.0)
        time.sleep(1.0)  # the game thread stalls
        bank.loop("thrust", False)
        time.sleep(0.2)
    finally:
        stop.set()
        thread.join()
    pcm = np.frombuffer(b"".join(out), dtype=np.int16)
    sounding = pcm[round(0.05 * R): round(1.2 * R)]  # after the fade-in, before the stop
    assert longest_silence(sounding) < bank.mixer.latency
    assert worst[0] < 0.05


@pytest.mark.gl
def test_the_replay_view_sends_each_tick_time_with_its_sounds(window, config, tmp_path):
    from asteroids.app.replay_view import ReplayView
    from asteroids.app.router import open_shell
    from asteroids.replay import load_replay
    from tests.app.replays import random_masks, record

    record(config, 31, random_masks(400, 5), tmp_path / "game.replay")
    replay = load_replay(tmp_path / "game.replay")
    game = open_shell(window, replay.config, sound=False)
    view = ReplayView(game, replay)
    sent: list[tuple[int, float | None]] = []
    game.audio.on_event = lambda event, at=None: sent.append((view.world.tick, at))
    hz = replay.config.world.tick_hz
    for _ in range(300):
        view.run_tick(view.tick_mask())
    assert len(sent) > 10 and all(at == tick / hz for tick, at in sent)
    view.speed, sent[:] = 2, []
    for _ in range(100):
        view.run_tick(view.tick_mask())
    assert sent and all(at is None for _, at in sent)  # faster than 1x: at the next block


def _driver_after(audio: str, env: str | None) -> str:
    """The pyglet driver a fresh process opens after ``choose(audio)`` then ``import
    arcade`` (the order ``asteroids.app.main`` runs them in)."""
    import os
    import subprocess
    import sys

    code = ("from asteroids.app import audio_driver\n"
            f"audio_driver.choose({audio!r})\n"
            "import arcade, pyglet\n"
            "print(tuple(pyglet.options['audio']), audio_driver.current())\n")
    environ = {k: v for k, v in os.environ.items() if k != "ARCADE_SOUND_BACKENDS"}
    environ["ARCADE_HEADLESS"] = "1"
    if env is not None:
        environ["ARCADE_SOUND_BACKENDS"] = env
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_the_audio_choice_reaches_pyglet_before_arcade_opens_a_driver():
    assert _driver_after("silent", None) == "('silent',) silent"
    # without the fix pyglet opened its default order whatever was asked: here every
    # real driver fails to open (no device), so the order is what shows the choice
    assert _driver_after("pyglet-pulse", None).startswith("('pulse',)")
    assert _driver_after("auto", "silent") == "('silent',) silent"
    assert _driver_after("pyglet-openal", None).startswith("('openal',)")
    # our drivers first: pyglet holds no device of its own (arcade's order is cosmetic)
    for ours_first in ("auto", "openal", "pulse", "miniaudio"):
        assert _driver_after(ours_first, None).endswith(") silent"), ours_first


def test_the_audio_choice_says_when_it_comes_too_late():
    import arcade  # noqa: F401  (headless; it opens pyglet's audio driver)

    from asteroids.app import audio_driver

    with pytest.raises(audio_driver.TooLate):
        audio_driver.choose("pyglet-pulse" if audio_driver.current() != "pulse"
                            else "pyglet-openal")


def test_play_hands_the_audio_choice_to_run_game(monkeypatch):
    import sys
    import types

    from asteroids import cli

    calls: list[str] = []
    fake = types.ModuleType("asteroids.app.main")
    fake.run_game = lambda config, audio="auto", **kw: calls.append(audio)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "asteroids.app.main", fake)
    assert cli.main(["play", "--audio", "pulse"]) == 0
    assert cli.main(["play"]) == 0
    assert calls == ["pulse", "auto"]


def _driver_after_cli(argv: list[str]) -> str:
    """The exit code and the pyglet driver a fresh, headless process has opened after
    ``asteroids ARGV`` (no window can open, so it stops once arcade has loaded)."""
    import os
    import subprocess
    import sys

    code = ("import sys\nfrom asteroids import cli\n"
            f"code = cli.main({argv!r})\n"
            "import pyglet\nfrom asteroids.app import audio_driver\n"
            "print(code, tuple(pyglet.options['audio']), audio_driver.current())\n")
    environ = {k: v for k, v in os.environ.items() if k != "ARCADE_SOUND_BACKENDS"}
    environ["ARCADE_HEADLESS"] = "1"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_the_audio_driver_setting_chooses_the_driver_and_the_flag_wins(tmp_path):
    from pathlib import Path

    settings = tmp_path / "sound.toml"
    settings.write_text('[audio]\ndriver = "silent"\n')
    replay = str(Path(__file__).parents[1] / "replays" / "default.replay")
    # 3: ARCADE_HEADLESS, no window; the driver was chosen before arcade loaded
    assert _driver_after_cli(["play", "-c", str(settings)]) == "3 ('silent',) silent"
    assert _driver_after_cli(["play", "-s", "audio.driver=silent"]) == "3 ('silent',) silent"
    assert _driver_after_cli(["watch", replay, "-c", str(settings)]) == "3 ('silent',) silent"
    # every real driver fails to open here (no device), so the order shows the choice
    assert _driver_after_cli(["play", "-c", str(settings), "--audio", "pyglet-pulse"]
                             ).startswith("3 ('pulse',)")
    assert _driver_after_cli(["watch", replay, "-c", str(settings), "--audio", "pyglet-openal"]
                             ).startswith("3 ('openal',)")
    assert _driver_after_cli(["play", "-s", "audio.driver=pulse", "--audio", "silent"]) == (
        "3 ('silent',) silent")
    assert _driver_after_cli(["play", "-s", "audio.driver=pyglet-pulse"]).startswith(
        "3 ('pulse',)")
    # given, auto wins too: ours first, so pyglet opened its silent driver (arcade's own
    # order is what its options say then)
    assert _driver_after_cli(["play", "-s", "audio.driver=silent", "--audio", "auto"]
                             ) == "3 ('openal', 'xaudio2', 'directsound', 'pulse', 'silent') silent"


def test_the_setting_and_the_flag_offer_the_drivers_the_chooser_knows():
    from asteroids.app import audio_driver
    from asteroids.config.player_tables import AUDIO_DRIVERS

    assert set(AUDIO_DRIVERS) == set(audio_driver.CHOICES)


def play_on_a_card(fast: float) -> tuple[Mixer, np.ndarray, np.ndarray]:
    """40 s of a beat every 13 ticks, the game on the wall clock, the card ``fast`` times
    as fast, its queue refilled with 1 024 samples when a 5 ms poll finds it under 20 ms:
    (the mixer, each beat's start on the card's clock in seconds, the ticks)."""
    clock = FakeClock()
    card = R * fast
    mixer = Mixer({"fire": CLICK}, R, clock=clock)
    starts = scheduled(mixer)
    ticks = np.arange(8, 60 * 40, 13)
    pending = [(t / HZ, t / HZ) for t in ticks]
    queued, poll = 0, 0.0
    while poll < 40.5:
        poll += 0.005
        clock.now = poll
        while pending and pending[0][1] <= poll:
            at, sent = pending.pop(0)
            mixer.play("fire", at=at, sent=sent)
        if queued - poll * card < 0.02 * R:  # the card has eaten into the queue
            mixer.render(1024)
            queued += 1024
    assert mixer.late_cues == 0 and mixer.underruns == 0
    return mixer, np.array(starts) / card, ticks


def test_the_map_follows_a_card_whose_clock_runs_fast():
    """A PulseAudio null sink here plays 1 700 ppm fast against the wall clock. The map
    fits that drift to the blocks the driver asks for and moves with it between cues, so
    the beats keep the game's intervals and one lag on the card's own clock."""
    mixer, heard, ticks = play_on_a_card(1.0017)
    assert abs(mixer.clock_map.drift - 0.0017) < 0.0001
    late = ticks / HZ > 15  # once the drift is fitted (10 s of blocks)
    lag = heard[late] - ticks[late] / HZ
    assert lag.max() - lag.min() < 0.001
    assert np.abs(np.diff(heard[late]) - np.diff(ticks[late]) / HZ).max() < 0.0005


def test_a_card_within_a_sound_cards_tolerance_is_left_to_the_envelopes():
    mixer, heard, ticks = play_on_a_card(1.00005)  # 50 ppm
    assert mixer.clock_map.drift == 0.0
    lag = heard - ticks / HZ
    assert lag.max() - lag.min() < DEADBAND_S + 0.001


def beats_after_a_late_first_cue(mixer: Mixer, clock: FakeClock) -> np.ndarray:
    """A game whose first cue is sent 75 ms after its tick (a window's first frames after a
    view opens), every later one on time, a beat every 30 ticks: each beat's start against
    its tick (samples)."""
    rng = np.random.default_rng(8)
    ticks = np.arange(6, 60 * 8, 30)
    cues = [(t / HZ, t / HZ + (0.075 if i == 0 else 0.0)) for i, t in enumerate(ticks)]
    starts = np.array(onsets(run(mixer, clock, cues, 8.5, rng, 512)))
    assert starts.size == ticks.size and mixer.late_cues == 0
    return starts - ticks / HZ * R


def test_a_late_first_cue_is_left_behind_before_the_heartbeat_has_a_rhythm(monkeypatch):
    """The map anchored on a late cue comes down to the game's own timing within 1 s
    (``SETTLE_SLEW``), so the beats after it keep their intervals; slewing at ``SLEW`` put
    every beat of the next 7 s 5-8 ms off in the real window."""
    from asteroids.app import audio_clock

    clock = FakeClock()
    slide = beats_after_a_late_first_cue(Mixer({"fire": CLICK}, R, clock=clock), clock)
    settled = slide[2:]  # from 1.1 s on
    assert np.abs(np.diff(settled)).max() <= DEADBAND_S * R + 1
    assert slide[0] - settled.mean() > 0.06 * R  # the first one was 75 ms late
    monkeypatch.setattr(audio_clock, "SETTLE_SLEW", 1.0)  # without it: 7 s of drift
    clock = FakeClock()
    slow = beats_after_a_late_first_cue(Mixer({"fire": CLICK}, R, clock=clock), clock)
    assert np.abs(np.diff(slow[2:])).max() > 0.004 * R
