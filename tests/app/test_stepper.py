"""FixedStepper and InputLatch: pure timing and latching, no window."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.app.stepper import MAX_FRAME_NS, MAX_STEPS, FixedStepper, InputLatch

FIRE, LEFT, THRUST = 8, 2, 1


def run(stepper: FixedStepper, dts: np.ndarray) -> list[int]:
    return [stepper.frame(float(dt)) for dt in dts]


def jittered(fps: float, frames: int, sd_s: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(1.0 / fps + rng.normal(0.0, sd_s, frames), 0.0005, None)


@pytest.mark.parametrize("tick_hz", [60.0, 62.5])
@pytest.mark.parametrize("fps", [30.0, 60.0, 144.0])
@pytest.mark.parametrize("sd_ms", [0.0, 0.5, 2.0])
def test_total_ticks_do_not_depend_on_frame_timing(tick_hz, fps, sd_ms):
    dts = jittered(fps, 3000, sd_ms / 1000.0, seed=int(fps * 10 + sd_ms))
    stepper = FixedStepper(tick_hz)
    counts = run(stepper, dts)
    assert max(counts) <= MAX_STEPS and stepper.dropped_ns == 0
    expected = math.floor(float(dts.sum()) * tick_hz)
    assert abs(sum(counts) - expected) <= 1
    # In integer nanoseconds the count is exact.
    total_ns = sum(max(round(float(dt) * 1e9), 0) for dt in dts)
    assert sum(counts) == total_ns // stepper.tick_ns
    assert stepper.acc_ns == total_ns % stepper.tick_ns


def test_exact_frames_at_the_tick_rate_give_one_tick_each():
    stepper = FixedStepper(60.0)
    assert run(stepper, np.full(36_000, 1.0 / 60.0)) == [1] * 36_000


def test_slow_frames_run_several_ticks_fast_frames_none():
    stepper = FixedStepper(60.0)
    counts = run(stepper, np.full(10, 1.0 / 30.0))
    # 1/30 s is a nanosecond short of two 60 Hz ticks, so the first frame runs one.
    assert counts == [1] + [2] * 9
    stepper = FixedStepper(60.0)
    counts = run(stepper, np.full(12, 1.0 / 144.0))
    assert set(counts) == {0, 1} and sum(counts) == 4  # 12/144 s is just under 5 ticks


def test_a_stall_is_clamped_capped_and_its_backlog_dropped():
    stepper = FixedStepper(60.0)
    assert stepper.frame(1.0) == MAX_STEPS
    assert 0 <= stepper.acc_ns < stepper.tick_ns
    assert stepper.dropped_ns > 0
    # No fast-forward afterwards: the next normal frame runs one tick.
    assert stepper.frame(1.0 / 60.0) == 1


def test_a_quarter_second_hitch_is_capped_too():
    stepper = FixedStepper(60.0)
    assert stepper.frame(MAX_FRAME_NS / 1e9) == MAX_STEPS
    assert stepper.frame(1 / 60) == 1


def test_phase_is_kept_when_the_backlog_is_dropped():
    stepper = FixedStepper(60.0)
    stepper.frame(0.5 / 60.0)
    before = stepper.acc_ns
    assert stepper.frame(0.2) == MAX_STEPS  # about 12 ticks owed
    # Whole ticks were dropped; the fraction of a tick owed carries on.
    assert stepper.acc_ns == (before + 200_000_000) % stepper.tick_ns


def test_negative_and_zero_frames_run_nothing():
    stepper = FixedStepper(60.0)
    assert stepper.frame(-1.0) == 0
    assert stepper.frame(0.0) == 0
    assert stepper.acc_ns == 0


@pytest.mark.parametrize("seed", range(5))
def test_alpha_stays_in_zero_one(seed):
    rng = np.random.default_rng(seed)
    stepper = FixedStepper(62.5)
    for dt in rng.exponential(0.02, 2000):
        stepper.frame(float(dt))
        assert 0.0 <= stepper.alpha < 1.0


def test_alpha_is_the_fraction_of_a_tick_owed():
    stepper = FixedStepper(50.0)
    stepper.frame(0.005)
    assert stepper.alpha == pytest.approx(0.25)
    stepper.reset()
    assert stepper.alpha == 0.0


@pytest.mark.parametrize("bad", [0.0, -60.0, float("nan")])
def test_tick_rate_must_be_positive(bad):
    with pytest.raises(ValueError):
        FixedStepper(bad)


# --- InputLatch ---------------------------------------------------------------------------


def test_a_tap_shorter_than_a_tick_is_seen_exactly_once():
    latch = InputLatch()
    latch.press(FIRE)
    latch.release(FIRE)
    assert latch.take() == FIRE
    assert latch.take() == 0


def test_held_bits_stay_until_released():
    latch = InputLatch()
    latch.press(LEFT)
    assert [latch.take() for _ in range(3)] == [LEFT] * 3
    latch.release(LEFT)
    assert latch.take() == 0


def test_bits_combine_and_release_independently():
    latch = InputLatch()
    latch.press(THRUST)
    latch.press(LEFT)
    latch.press(FIRE)
    latch.release(FIRE)
    assert latch.take() == THRUST | LEFT | FIRE
    latch.release(THRUST)
    assert latch.take() == LEFT


def test_two_taps_before_one_tick_are_one_press():
    latch = InputLatch()
    for _ in range(2):
        latch.press(FIRE)
        latch.release(FIRE)
    assert [latch.take(), latch.take()] == [FIRE, 0]


def test_set_held_presses_new_bits_and_releases_old():
    latch = InputLatch()
    latch.set_held(LEFT | FIRE)
    assert latch.take() == LEFT | FIRE
    latch.set_held(LEFT)
    assert latch.take() == LEFT


def test_clear_forgets_everything():
    latch = InputLatch()
    latch.press(FIRE | LEFT)
    latch.clear()
    assert latch.take() == 0


@pytest.mark.parametrize("seed", range(4))
def test_every_press_reaches_a_tick_and_nothing_else_does(seed):
    """Random key events between ticks: each press is in the next mask; bits come only
    from a press or a held key."""
    rng = np.random.default_rng(seed)
    latch = InputLatch()
    held = 0
    for _ in range(2000):
        pressed = 0
        for _ in range(int(rng.integers(0, 4))):
            bit = 1 << int(rng.integers(0, 6))
            if rng.random() < 0.5:
                latch.press(bit)
                held |= bit
                pressed |= bit
            else:
                latch.release(bit)
                held &= ~bit
        mask = latch.take()
        assert mask & pressed == pressed
        assert mask == held | pressed
