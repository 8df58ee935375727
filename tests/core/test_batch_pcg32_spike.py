"""The spike's vectorised PCG32 (benchmarks/batch_spike.py, issue 25) draws exactly what
``asteroids.core.rng.Pcg32`` draws, game by game: one 64-bit state per game in a numpy
uint64 array, masked single draws, per-game runs of draws and jumps ahead."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.core.rng import Pcg32, seed_state
from benchmarks.batch_spike import BatchPcg32, check_pcg32, check_wave_places

SEEDS = (0, 1, 2, 3, 42, 54, 12345, 2**32 + 1, 2**63 + 7, 2**64 - 1)


def _pair(seeds: tuple[int, ...]) -> tuple[list[Pcg32], BatchPcg32]:
    pairs = [seed_state(s) for s in seeds]
    one = [Pcg32(s, i) for s, i in pairs]
    many = BatchPcg32(np.array([s for s, _ in pairs], dtype=np.uint64),
                      np.array([i for _, i in pairs], dtype=np.uint64))
    return one, many


def test_u32_equals_pcg32_for_every_seed() -> None:
    one, many = _pair(SEEDS)
    for _ in range(500):
        got = many.u32().tolist()
        assert got == [g.u32() for g in one]
    assert many.state.tolist() == [g.state for g in one]


def test_masked_draws_leave_the_other_games_alone() -> None:
    one, many = _pair(SEEDS)
    rng = np.random.default_rng(5)
    for _ in range(300):
        active = rng.random(len(SEEDS)) < 0.3
        got = many.u32(active)
        for g, gen in enumerate(one):
            if active[g]:
                assert int(got[g]) == gen.u32()
        assert many.state.tolist() == [g.state for g in one]


@pytest.mark.parametrize("n", [2, 3, 4, 32, 256, 1000, 2**31])
def test_below_equals_pcg32_below(n: int) -> None:
    one, many = _pair(SEEDS)
    for _ in range(100):
        assert many.below(n).tolist() == [g.below(n) for g in one]


def test_below_one_or_zero_draws_nothing_as_in_pcg32() -> None:
    """``Pcg32.below(n)`` makes no draw when n <= 1; the batch must skip those games too, or
    every later draw of the game would shift."""
    one, many = _pair(SEEDS)
    rng = np.random.default_rng(2)
    for _ in range(200):
        n = rng.choice([0, 1, 2, 3, 32, 1000], len(SEEDS))
        active = rng.random(len(SEEDS)) < 0.7
        got = many.below(n, active)
        for g, gen in enumerate(one):
            if active[g]:
                assert int(got[g]) == gen.below(int(n[g]))
        assert many.state.tolist() == [g.state for g in one]


def test_per_game_runs_of_draws_and_jumps() -> None:
    one, many = _pair(SEEDS)
    rng = np.random.default_rng(9)
    for _ in range(50):
        counts = rng.integers(0, 70, len(SEEDS))
        got, game = many.draws(counts)
        for g, gen in enumerate(one):
            assert got[game == g].tolist() == [gen.u32() for _ in range(int(counts[g]))]
        k = rng.integers(0, 5000, len(SEEDS))
        many.advance(k)
        for g, gen in enumerate(one):
            for _ in range(int(k[g])):
                gen.u32()
        assert many.state.tolist() == [g.state for g in one]


def test_the_spikes_own_check_passes() -> None:
    check_pcg32()


def test_a_wave_spawned_for_many_games_at_once_draws_what_spawn_wave_draws() -> None:
    """The hardest draw site: ``spawn.spawn_wave``'s rejection loop, done for many games at
    once with speculative attempts, gives every game the one-game places, velocities and
    PCG32 state (``check_wave_places`` compares them game by game)."""
    rocks, attempts = check_wave_places(games=12)
    assert rocks > 0 and attempts > rocks  # some rocks needed several attempts
