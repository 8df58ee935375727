"""What ``new_batch``, ``step_batch`` and ``reset_lanes`` take (issue 34, item 5): masks of
any integer dtype in [0, ALL_BUTTONS] and seeds that are integers in ``SEED_RANGE``; every
other value is refused with the documented ValueError, one line of at most 600 characters,
before a game is made or a tick is played. Each boundary is tried with the value one past."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.config.loader import load_preset
from asteroids.core import batch as batch_module
from asteroids.core import new_world, state_hash
from asteroids.core.batch import SEED_RANGE, new_batch, reset_lanes, step_batch
from asteroids.core.inputs import ALL_BUTTONS
from asteroids.messages import MAX_LINE

LOWEST, HIGHEST = -(2**63), 2**64 - 1
"""The ends of SEED_RANGE (the replay format's seed range)."""


@pytest.fixture(scope="module")
def classic():
    return load_preset("classic")


@pytest.fixture(params=["one by one", "batched pass"])
def small_batch(request, classic, monkeypatch):
    """Three games, stepped each by ``step`` or by the batched pass (both drivers check)."""
    if request.param == "batched pass":
        monkeypatch.setattr(batch_module, "BATCHED_PASS_MIN", 1)
    return new_batch(classic, [1, 2, 3])


def _refused(call, *args, **kwargs) -> str:
    """The ValueError ``call`` raises: one line of at most 600 characters."""
    with pytest.raises(ValueError) as info:
        call(*args, **kwargs)
    text = str(info.value)
    assert "\n" not in text and len(text) <= MAX_LINE, text
    return text


def test_the_buttons_are_the_low_bits_so_a_range_check_is_a_bit_check():
    """check_masks compares masks with [0, ALL_BUTTONS] (two reductions, not a bitwise
    pass); that equals 'no bit outside ALL_BUTTONS' only while the buttons are bits 0..k."""
    assert ALL_BUTTONS & (ALL_BUTTONS + 1) == 0
    assert ALL_BUTTONS == 0x3F


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_masks_of_every_integer_dtype_take_all_buttons_and_refuse_one_more(small_batch,
                                                                           dtype):
    after, _ = step_batch(small_batch, np.array([ALL_BUTTONS, 0, 1], dtype=dtype))
    assert after.tick.tolist() == [1, 1, 1]
    text = _refused(step_batch, small_batch, np.array([0, ALL_BUTTONS + 1, 0], dtype=dtype))
    assert "0x40 of game 1" in text
    top = np.iinfo(dtype).max  # 127 for int8, 255 for uint8 (an OverflowError before)
    assert f"{top:#x} of game 2" in _refused(step_batch, small_batch,
                                             np.array([0, 0, top], dtype=dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_negative_masks_are_refused_in_every_signed_dtype(small_batch, dtype):
    assert "-0x1 of game 0" in _refused(step_batch, small_batch,
                                        np.array([-1, 0, 0], dtype=dtype))
    low = np.iinfo(dtype).min
    _refused(step_batch, small_batch, np.array([0, low, 0], dtype=dtype))


def test_the_uint8_mask_255_from_the_report_is_a_value_error(small_batch):
    text = _refused(step_batch, small_batch, np.full(3, 255, dtype=np.uint8))
    assert "0xff of game 0 has bits outside 0x3f" in text


@pytest.mark.parametrize("masks", [
    [True, False, True], np.ones(3, dtype=bool), [1.0, 0.0, 0.0], np.zeros(3),
    np.array([0, 0, 0], dtype=object), ["1", "0", "0"], [0, 0, 2**64], [0, 0, 2**70],
    [0, 0], [0, 0, 0, 0], np.zeros((3, 1), dtype=np.int64), 0, None, [[0], [0, 1], [0]],
    np.zeros(3, dtype=np.complex128),
], ids=repr)
def test_masks_of_the_wrong_dtype_or_shape_are_refused(small_batch, masks):
    _refused(step_batch, small_batch, masks)


def test_a_refused_mask_plays_no_tick(small_batch):
    _refused(step_batch, small_batch, [0, 64, 0])
    assert small_batch.tick.tolist() == [0, 0, 0]


@pytest.mark.parametrize("active", [[1, 0, 1], np.array([1, 0, 1]), [1.0, 0.0, 1.0],
                                    ["yes", "", "yes"], [True, False]], ids=repr)
def test_active_must_be_bools(small_batch, active):
    _refused(step_batch, small_batch, [0, 0, 0], active=active)


def test_active_as_a_bool_list_or_array_holds_the_others_still(small_batch):
    for active in ([True, False, True], np.array([True, False, True])):
        after, _ = step_batch(small_batch, [0, 0, 0], active=active)
        assert after.tick.tolist() == [1, 0, 1]


def test_seed_range_is_the_replay_formats():
    from asteroids.replay.header import SEED_RANGE as REPLAY_SEEDS

    assert (SEED_RANGE.start, SEED_RANGE.stop - 1) == REPLAY_SEEDS == (LOWEST, HIGHEST)


def test_both_ends_of_the_seed_range_make_their_games_and_one_past_each_is_refused(classic):
    batch = new_batch(classic, [LOWEST, HIGHEST, 0, -1])
    assert batch.seeds == (LOWEST, HIGHEST, 0, -1)
    assert state_hash(batch.world(1)) == state_hash(new_world(classic, HIGHEST))
    assert "outside [-2**63, 2**64)" in _refused(new_batch, classic, [0, HIGHEST + 1])
    assert "of game 1" in _refused(new_batch, classic, [0, LOWEST - 1])


@pytest.mark.parametrize("seed", [
    1.5, 1.0, float("nan"), "7", b"7", True, False, np.True_, np.float64(3.0), None, 2**64,
    2**200, -(2**63) - 1, 10**5000, [1], 1 + 0j,
], ids=lambda s: type(s).__name__ + ("" if isinstance(s, int) and s > 2**64 else
                                        f"-{s!r}"[:20]))
def test_seeds_that_are_not_integers_of_the_range_are_refused(classic, seed):
    text = _refused(new_batch, classic, [3, seed])
    assert "seed" in text and "of game 1" in text


@pytest.mark.parametrize("seeds", [
    np.array([1.0, 2.0]), np.array([True, False]), np.array([[1, 2]]), np.array(5),
    np.array(["1", "2"]), np.array([1, 2], dtype=object), "12", b"12", 5, None,
], ids=repr)
def test_seed_collections_of_the_wrong_kind_are_refused(classic, seeds):
    _refused(new_batch, classic, seeds)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint32, np.uint64])
def test_a_numpy_integer_array_of_seeds_is_taken_as_python_ints(classic, dtype):
    seeds = np.array([0, 5, np.iinfo(dtype).max], dtype=dtype)
    batch = new_batch(classic, seeds)
    assert batch.seeds == tuple(int(s) for s in seeds)
    assert all(type(s) is int for s in batch.seeds)
    assert new_batch(classic, [np.int64(5), np.uint64(HIGHEST)]).seeds == (5, HIGHEST)


def test_a_hostile_seed_still_gets_a_short_message(classic):
    class Loud:
        def __repr__(self) -> str:
            raise RuntimeError("no repr for you")

    assert "(a Loud)" in _refused(new_batch, classic, [Loud()])
    assert "(an integer of 16610 bits)" in _refused(new_batch, classic, [10**5000])
    assert len(_refused(new_batch, classic, ["x" * 100_000])) < 200


def test_reset_lanes_checks_seeds_as_new_batch_does(small_batch):
    assert reset_lanes(small_batch, [2], [HIGHEST]).seeds == (1, 2, HIGHEST)
    assert reset_lanes(small_batch, np.array([0]), np.array([7], dtype=np.uint8)).seeds[0] == 7
    for bad in (HIGHEST + 1, LOWEST - 1, 1.5, True, "7", None):
        _refused(reset_lanes, small_batch, [2], [bad])
    _refused(reset_lanes, small_batch, [2], np.array([1.5]))


def _hyperspace(batch):
    """Hyperspace on every other tick (risky jumps end one-ship games soon)."""
    return [16 * (int(t) % 2) for t in batch.tick]


@pytest.mark.parametrize("pass_min", [1, 16], ids=["batched pass", "one by one"])
def test_auto_reset_checks_each_seed_it_takes(monkeypatch, pass_min):
    monkeypatch.setattr(batch_module, "BATCHED_PASS_MIN", pass_min)
    cfg = load_preset("classic", overrides=["game.lives=1"])
    batch = new_batch(cfg, [3, 11, 12])
    for _ in range(1500):  # to the tick before the first game over
        after, _ = step_batch(batch, _hyperspace(batch), cfg)
        if after.game_over.any():
            break
        batch = after
    ended = int(after.game_over.nonzero()[0][0])
    text = _refused(step_batch, batch, _hyperspace(batch), cfg, auto_reset=iter([2.5]))
    assert f"seed 2.5 of game {ended}" in text  # not played as seed 2
    _refused(step_batch, batch, _hyperspace(batch), cfg, auto_reset=iter([HIGHEST + 1]))
    restarted, _ = step_batch(batch, _hyperspace(batch), cfg, auto_reset=iter([HIGHEST]))
    assert restarted.seeds[ended] == HIGHEST
