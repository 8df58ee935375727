"""The batch's layout: packing Worlds and reading them back, lane resets, masks, memory."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.config.loader import load_preset
from asteroids.core import new_world, state_hash, step
from asteroids.core.batch import (
    SCALAR_FIELDS,
    Batch,
    new_batch,
    pack,
    reset_lanes,
    step_batch,
    take_lanes,
)
from asteroids.core.bot import aimer_bot
from asteroids.core.event_columns import EventKind, encode
from asteroids.core.events import AsteroidDestroyed, ShipDestroyed, ShotFired
from asteroids.core.hashing import value_bytes
from asteroids.core.params import params_for
from asteroids.core.world import FIELD_NAMES

from .test_batch_identity import batched_pass_for_any_size

__all__ = ["batched_pass_for_any_size"]  # the fixture: every test here takes the batched pass


@pytest.fixture(scope="module")
def classic():
    return load_preset("classic")


def mid_game_worlds(cfg, seeds, ticks):
    """Real mid-game Worlds of aimer games: rocks of every size, shots, a saucer."""
    out = []
    p = params_for(cfg)  # compiled once, passed every tick
    for s in seeds:
        w = new_world(p, s)
        for _ in range(ticks):
            w, _ = step(w, aimer_bot(w, p), p)
        out.append(w)
    return out


def test_pack_then_world_gives_back_every_field_bit_for_bit(classic):
    worlds = mid_game_worlds(classic, [1, 2, 3], 400)
    worlds.append(new_world(classic, 9))
    batch = pack(worlds, params_for(classic), [1, 2, 3, 9], keep_worlds=False)
    assert batch.ast_rows[-1] == sum(w.asteroid_count for w in worlds)
    assert sum(w.shot_id.shape[0] for w in worlds) > 0, "the scene should hold shots"
    for i, w in enumerate(worlds):
        back = batch.world(i)
        for name in FIELD_NAMES:
            assert value_bytes(getattr(back, name)) == value_bytes(getattr(w, name)), name
            assert type(getattr(back, name)) is type(getattr(w, name)) or name.startswith(
                ("ast_", "shot_")), name
        assert state_hash(back) == state_hash(w)


def test_rows_are_packed_game_after_game_in_id_order(classic):
    batch = pack(mid_game_worlds(classic, [4, 5], 300), params_for(classic), [4, 5],
                 keep_worlds=False)
    for g in range(batch.size):
        ids = batch.ast_id[batch.ast_rows[g]:batch.ast_rows[g + 1]]
        assert np.all(np.diff(ids) > 0)
    assert np.all(np.diff(batch.ast_rows) >= 0) and batch.ast_rows[0] == 0
    assert batch.ast_offsets[-1] == batch.ast_local.shape[0]


def test_scalars_are_one_array_per_field_and_the_batch_is_read_only(classic):
    batch = new_batch(classic, range(5))
    for name in SCALAR_FIELDS:
        assert getattr(batch, name).shape == (5,), name
    assert batch.rng_state.dtype == np.uint64
    with pytest.raises(ValueError):
        batch.score[0] = 1
    with pytest.raises(AttributeError):
        batch.score = np.zeros(5)
    with pytest.raises(AttributeError, match="no field"):
        _ = batch.no_such_field
    with pytest.raises(IndexError):
        batch.world(5)


def test_masks_are_checked_like_step_checks_one(classic):
    batch = new_batch(classic, range(3))
    with pytest.raises(ValueError, match="3 integers"):
        step_batch(batch, [0, 0], classic)
    with pytest.raises(ValueError, match="game 1"):
        step_batch(batch, [0, 64, 0], classic)
    with pytest.raises(ValueError, match="game 2"):
        step_batch(batch, [0, 0, -1], classic)
    with pytest.raises(ValueError, match="integers"):
        step_batch(batch, np.zeros(3), classic)
    step_batch(batch, [63, 0, 1], classic)  # every defined button is accepted


def test_reset_lanes_starts_new_games_and_leaves_the_others(classic):
    batch = new_batch(classic, [1, 2, 3])
    for _ in range(50):
        batch, _ = step_batch(batch, [8, 0, 8], classic)
    kept = state_hash(batch.world(0)), state_hash(batch.world(2))
    reset = reset_lanes(batch, [1], [42])
    assert state_hash(reset.world(1)) == state_hash(new_world(classic, 42))
    assert (state_hash(reset.world(0)), state_hash(reset.world(2))) == kept
    assert reset.seeds == (1, 42, 3)
    assert reset_lanes(batch, [], []) is batch
    with pytest.raises(ValueError):
        reset_lanes(batch, [0, 1], [5])
    with pytest.raises(IndexError):
        reset_lanes(batch, [-1], [5])
    with pytest.raises(IndexError):
        reset_lanes(batch, [3], [5])


def test_take_lanes_keeps_the_games_asked_for_in_that_order(classic):
    batch = new_batch(classic, [1, 2, 3])
    for _ in range(20):
        batch, _ = step_batch(batch, [1, 2, 4], classic)
    two = take_lanes(batch, [2, 0])
    assert two.size == 2 and two.seeds == (3, 1)
    assert state_hash(two.world(0)) == state_hash(batch.world(2))
    assert state_hash(two.world(1)) == state_hash(batch.world(0))


def test_every_seed_of_the_range_seeds_a_lane_as_new_world_takes_it(classic):
    """Both ends of SEED_RANGE (the replay format's) and a negative seed; past the ends is
    refused (tests/core/test_batch_values.py)."""
    batch = new_batch(classic, [2**64 - 1, -(2**63), -5])
    assert batch.seeds == (2**64 - 1, -(2**63), -5)
    assert state_hash(batch.world(0)) == state_hash(new_world(classic, 2**64 - 1))
    assert state_hash(batch.world(1)) == state_hash(new_world(classic, -(2**63)))


def test_memory_per_classic_game_stays_far_under_20_kB(classic):
    worlds = mid_game_worlds(classic, [1, 2], 600)
    batch = pack(worlds * 32, params_for(classic), [1, 2] * 32)
    assert isinstance(batch, Batch)
    assert batch.nbytes / batch.size < 20_000


def test_event_columns_give_back_each_games_events_in_order():
    per_game = [
        (ShotFired("ship", 1.5, 2.5), AsteroidDestroyed(0, 3.0, 4.0, 2, "ship-shot", 20)),
        (),
        (ShipDestroyed(5.0, 6.0, "saucer-shot", 2), ShotFired("saucer", -0.0, 7.25)),
    ]
    columns = encode(per_game)
    assert columns.size == 4
    assert [columns.of(g) for g in range(3)] == [tuple(e) for e in per_game]
    assert columns.count(EventKind.SHOT_FIRED).tolist() == [1, 0, 1]
    assert columns.game.tolist() == [0, 0, 2, 2]


def test_worlds_equal_world_lane_by_lane(classic):
    worlds = mid_game_worlds(classic, [6, 7], 250) + [new_world(classic, 8)]
    batch = pack(worlds, params_for(classic), [6, 7, 8], keep_worlds=False)
    for i, w in enumerate(batch.worlds()):
        one = batch.world(i)
        for name in FIELD_NAMES:
            a, b = getattr(w, name), getattr(one, name)
            assert value_bytes(a) == value_bytes(b) and type(a) is type(b), name
            if isinstance(a, np.ndarray):
                assert not a.flags.writeable and a.shape == b.shape, name
    kept = pack(worlds, params_for(classic), [6, 7, 8])
    assert [state_hash(w) for w in kept.worlds()] == [state_hash(w) for w in batch.worlds()]


def test_inactive_games_hold_still_and_report_nothing(classic):
    batch = new_batch(classic, [1, 2, 3])
    before = [state_hash(w) for w in batch.worlds()]
    after, events = step_batch(batch, [8, 8, 8], classic, active=[True, False, True])
    assert state_hash(after.world(1)) == before[1]
    assert after.tick.tolist() == [1, 0, 1]
    assert events.of(1) == () and events.of(0) != ()
    with pytest.raises(ValueError, match="3 bools"):
        step_batch(batch, [0, 0, 0], classic, active=[True])


def test_auto_reset_starts_a_new_game_in_the_lane_of_one_that_ended():
    cfg = load_preset("classic", overrides=["game.lives=1"])
    batch = new_batch(cfg, [3, 11, 12])
    seeds = iter([100, 101])
    restarted = []
    for _ in range(1500):
        before = batch.seeds
        # Hyperspace, pressed on every other tick: risky jumps end one-ship games soon.
        batch, events = step_batch(batch, [16 * (batch.tick[0] % 2), 0, 16 * (batch.tick[2] % 2)],
                                   cfg, auto_reset=seeds)
        for lane in range(3):
            if batch.seeds[lane] != before[lane]:
                assert any(type(e).__name__ == "GameOver" for e in events.of(lane))
                assert state_hash(batch.world(lane)) == state_hash(
                    new_world(cfg, batch.seeds[lane]))
                restarted.append(lane)
    assert len(restarted) == 2, "both seeds are used, then ended games stay over"
    assert batch.game_over.any(), "with the seeds gone, a game that ends stays over"
