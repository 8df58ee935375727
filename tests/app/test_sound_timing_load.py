"""Sound on time in a window under load (issue 37): frames that come late for seconds at a
time leave the clock map where it was, the map still follows a lasting change of the game's
clock, and a room grown for slow frames holds instead of following every slow second.

Each test plays a window: frames at 60 a second (or slower, or late) drive the game's own
``FixedStepper``; each cue carries its tick's time ``at`` (tick / rate and the time the
stepper dropped, as ``WorldView.sound_time``), when it was sent, and when its tick was due
on the wall clock (``due``: the frame's start less how far the game's clock had passed the
tick, as ``WorldView.sound_clock`` and ``SoundBank.game_clock`` work it out). A driver asks
for 256 samples 20 ms before it plays them. Wall clock and sample clock are fakes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from asteroids.app import audio_clock, synth
from asteroids.app.mixer import DEADBAND_S, SLEW, Mixer
from asteroids.app.stepper import FixedStepper
from tests.app.test_sound_timing import CLICK, FakeClock

R = synth.RATE
HZ = 60.0


def window(seconds: float, late: Callable[[float], float] = lambda t: 0.0, *,
           gap: Callable[[float], float | None] = lambda t: None,
           behind: Callable[[float], float] = lambda t: 0.0, every: int = 15,
           step_s: float = 0.0003, fps: float = HZ,
           with_due: bool = True) -> tuple[np.ndarray, np.ndarray, Mixer]:
    """Play ``seconds`` of a window and return each cue's ``at``, the sample it was
    scheduled on, and the mixer.

    Args:
        late: how late the frame due at wall time t comes (a loaded machine).
        gap: the time to the next frame after one at t (None: the next 60th of a second).
        behind: how far the game's clock has fallen behind the wall clock at t, unseen by
            the stepper (what the map must follow).
        every: a cue every this many ticks.
        step_s: how long each tick's step takes (its cues are sent after it).
        fps: the frame rate (off the tick rate, a frame's lateness sweeps a whole tick).
        with_due: send ``due``; False: only when the cue was sent (the map before).
    """
    rng = np.random.default_rng(3)
    clock = FakeClock()
    mixer = Mixer({"fire": CLICK}, R, clock=clock)
    stepper = FixedStepper(HZ)
    ats, starts = [], []
    tick, last, k = 0, 0.0, 1
    frame = 1 / fps + late(0.0) + rng.uniform(0, 0.001)
    while frame <= seconds:
        block = mixer.samples / R - 0.02
        if block <= frame:  # the driver's turn
            clock.now = max(block, 0.0)
            mixer.render(256)
            continue
        clock.now = frame
        n = stepper.frame(frame - last)
        last = frame
        now = (tick + n) / HZ + (stepper.dropped_ns + stepper.acc_ns) / 1e9  # sound_clock
        for j in range(n):
            tick += 1
            at = tick / HZ + stepper.dropped_ns / 1e9  # sound_time
            if tick % every == 0:
                sent = frame + step_s * (j + 1) + behind(frame)
                due = frame - (now - at) + behind(frame)
                starts.append(mixer.schedule(at, sent, due if with_due else None))
                ats.append(at)
        slow = gap(frame)
        if slow is None:
            k += 1
            nxt = k / fps + late(k / fps)
        else:
            nxt = frame + slow
            k = int(nxt * fps)
        frame = max(nxt + rng.uniform(0, 0.001), frame + 0.001)
    return np.array(ats), np.array(starts), mixer


def lag_ms(ats: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Each cue's start against its tick's time, in ms."""
    return (starts - np.floor(ats * R + 0.5)) / R * 1000.0


def test_frames_late_for_seconds_leave_the_map_where_it_was():
    """Under load (2 cores, busy processes beside the game) the window's frames came 5-12 ms
    late for seconds at a time: the earliest a cue was sent against its tick rose with
    them, the map followed it up and back, and the heartbeat moved 3-5 ms. When each tick
    was due does not move with the frames: against it the map stays put."""
    def loaded(t: float) -> float:
        return 0.005 + 0.007 * ((t * 37.0) % 1.0) if 3.0 <= t < 6.0 else 0.0

    ats, starts, mixer = window(10.0, loaded)
    lag = lag_ms(ats, starts)[ats > 1.0]
    assert lag.max() - lag.min() <= 1.0
    assert mixer.late_cues == 0 and mixer.anchors == 1
    ats, starts, _ = window(10.0, loaded, with_due=False)  # the map as it was
    lag = lag_ms(ats, starts)[ats > 1.0]
    assert lag.max() - lag.min() > 3.0


def test_the_map_still_follows_a_lasting_change_of_the_games_clock():
    """The game's clock falls 15 ms behind the wall clock and stays there: the map follows
    once the earliest envelope has let go of the old timing, at ``SLEW``, without jumps."""
    ats, starts, mixer = window(12.0, behind=lambda t: 0.015 if t >= 4.0 else 0.0)
    lag = lag_ms(ats, starts)
    before, after = lag[(ats > 1.0) & (ats < 4.0)], lag[ats > 9.0]
    assert before.max() - before.min() <= 0.1 and after.max() - after.min() <= 0.1
    assert abs(after.mean() - before.mean() - 15.0) <= 1.0
    gaps = np.diff(starts)
    assert np.all(np.abs(np.diff(lag)) / 1000.0 * R <= DEADBAND_S * R + SLEW * gaps + 1)
    assert mixer.late_cues == 0 and mixer.anchors == 1


def test_a_window_on_time_keeps_the_room_it_was_given():
    """At about 60 frames a second a cue comes up to a frame and its steps after its tick
    (here up to 19 ms: 2.5 ms a step): within the 20 ms room, so the room stays and the map
    with it (the room's guard on top of that lateness grew it to 25 ms and moved the beats
    5 ms in a quiet capture)."""
    ats, starts, mixer = window(20.0, every=5, step_s=0.0025, fps=59.7)
    lag = lag_ms(ats, starts)[ats > 1.0]  # the room is read from 1.7 s on (20 cues)
    assert lag.max() - lag.min() <= 0.1
    assert mixer.late_cues == 0


def test_a_views_first_frame_does_not_count_towards_the_room():
    """A view's first frame comes late (here 300 ms: its set-up) and its first cue with it,
    45-75 ms in every window capture; with one more hitch among the first twenty cues that
    was more than the 5 % the room may leave out, and the room grew for good. The cue the
    map is anchored on is not counted: both play at once (counted), the rest keep one lag."""
    def hitch(t: float) -> float | None:
        return 0.06 if 1.0 <= t < 1.017 else None

    ats, starts, mixer = window(10.0, lambda t: 0.3 if t < 0.02 else 0.0, gap=hitch,
                                every=3, step_s=0.0025, fps=59.7)
    lag = lag_ms(ats, starts)
    on_time = lag[np.abs(lag - np.median(lag)) < 10.0]
    assert on_time.size == lag.size - mixer.late_cues and mixer.late_cues <= 2
    assert on_time.max() - on_time.min() <= 0.1


def slow_spells(t: float) -> float | None:
    """Frames every 30 ms for 1.5 s, twice, 12 s apart; else at 60 a second."""
    return 0.03 if 2.0 <= t < 3.5 or 14.0 <= t < 15.5 else None


def test_a_room_grown_for_slow_frames_holds_instead_of_following_each_slow_spell(
        monkeypatch: pytest.MonkeyPatch):
    """Spells of slow frames send a share of the cues later than the 20 ms room: the room
    grows to cover them and keeps that for ``ROOM_HOLD_S``, so the map moves up once
    instead of up and down with every spell."""
    ats, starts, mixer = window(26.0, gap=slow_spells, every=5)
    lag = lag_ms(ats, starts)
    grown = lag[ats > 5.5]
    assert grown.min() - lag[ats < 2.0].max() > 5.0  # the room grew
    assert np.all(np.diff(grown) >= -0.05)  # and never came back down
    assert grown.max() - grown.min() <= 3.0
    monkeypatch.setattr(audio_clock, "ROOM_HOLD_S", 0.0)  # the room as it was: it follows
    ats, starts, _ = window(26.0, gap=slow_spells, every=5)
    grown = lag_ms(ats, starts)[ats > 5.5]
    assert grown.max() - grown.min() > 5.0


def test_a_stall_the_stepper_drops_moves_the_beats_with_the_picture():
    """A frame too long to catch up on (129 ms: 5 ticks run, the rest dropped) stalls the
    game; the ticks after it are due that much later on the game's clock (``at`` counts
    the time dropped), so the map keeps its lag instead of anchoring afresh."""
    def hitch(t: float) -> float | None:
        return 0.129 if 4.0 <= t < 4.017 else None

    ats, starts, mixer = window(8.0, gap=hitch)
    lag = lag_ms(ats, starts)[ats > 1.0]
    assert lag.max() - lag.min() <= 1.0
    assert mixer.anchors == 1 and mixer.late_cues == 0


@pytest.mark.gl
def test_the_window_says_when_each_tick_was_due_whatever_its_frames(window, config, tmp_path):
    """The replay view tells the sound bank its game clock at each frame's start; each cue's
    tick was then due a fixed time before the frame on the frame clock (the sum of the
    frames' lengths, the wall clock), whether frames come on time, late, or too long to
    catch up on (time dropped)."""
    from asteroids.app.replay_view import ReplayView
    from asteroids.app.router import open_shell
    from asteroids.replay import load_replay
    from tests.app.replays import random_masks, record

    record(config, 31, random_masks(900, 5), tmp_path / "game.replay")
    replay = load_replay(tmp_path / "game.replay")
    game = open_shell(window, replay.config, sound=False)
    view = ReplayView(game, replay)
    wall = [0.0]
    stamps: list[tuple[float, float] | None] = []
    dues: list[float] = []
    game.audio.game_clock = lambda now: stamps.append(None if now is None else (now, wall[0]))
    game.audio.on_event = lambda event, at=None: dues.append(  # as SoundBank._cue
        stamps[-1][1] - (stamps[-1][0] - at) - at)
    rng = np.random.default_rng(4)
    frames = [*rng.uniform(0.012, 0.022, 200), 0.074, 0.129, *rng.uniform(0.015, 0.04, 100),
              0.3, *rng.uniform(0.012, 0.02, 100)]
    for dt in frames:
        wall[0] += dt
        view.advance(dt)
    assert view.stepper.dropped_ns > 0.2e9  # the long frames dropped time
    assert len(dues) > 20 and max(dues) - min(dues) < 1e-6
    assert stamps[-1] is None  # cleared after each frame's ticks
