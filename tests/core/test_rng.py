"""PCG32: the reference stream, bounds and independence from numpy/Python's generators."""

from __future__ import annotations

import numpy as np

from asteroids.core.rng import Pcg32, Pcg32Batch, seed_state


def test_matches_pcg32_reference_stream() -> None:
    # pcg32-demo (pcg-random.org): seed 42, stream 54.
    r = Pcg32(*seed_state(42, 54))
    got = [r.u32() for _ in range(6)]
    assert got == [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_below_stays_in_range_and_covers_it() -> None:
    r = Pcg32(*seed_state(7))
    seen = {r.below(5) for _ in range(500)}
    assert seen == {0, 1, 2, 3, 4}
    assert r.below(1) == 0


def test_between_and_uniform_bounds() -> None:
    r = Pcg32(*seed_state(3))
    for _ in range(2000):
        assert -3 <= r.between(-3, 3) <= 3
        u = r.uniform(2.0, 5.0)
        assert 2.0 <= u < 5.0
        assert r.sign() in (-1.0, 1.0)


def test_same_seed_same_stream_different_seed_different_stream() -> None:
    a, b, c = (Pcg32(*seed_state(s)) for s in (11, 11, 12))
    sa = [a.u32() for _ in range(20)]
    assert sa == [b.u32() for _ in range(20)]
    assert sa != [c.u32() for _ in range(20)]


def test_batch_draws_equal_one_by_one_draws() -> None:
    one, batch = Pcg32(*seed_state(42)), Pcg32(*seed_state(42))
    for count in (1, 5, 100, 3000, 7, 0):
        singles = [one.u32() for _ in range(count)]
        assert batch.u32_array(count).tolist() == singles
        assert batch.state == one.state
    assert batch.below_array(7, 50).tolist() == [one.below(7) for _ in range(50)]
    assert batch.unit_array(20).tolist() == [one.unit() for _ in range(20)]


def test_peek_reads_ahead_and_skip_moves_past_as_draws_would() -> None:
    one, other = Pcg32(*seed_state(7)), Pcg32(*seed_state(7))
    for count in (0, 1, 30, 5000):
        before = other.state
        ahead = other.peek(count)
        assert other.state == before  # peeking draws nothing
        assert ahead.tolist() == [one.u32() for _ in range(count)]
        other.skip(count)
        assert other.state == one.state
    # Many games: the output k draws on of each game's stream, without moving it; then
    # each stream moved past its own count.
    seeds = [3, 9, 27]
    many = Pcg32Batch(np.array([seed_state(s)[0] for s in seeds], dtype=np.uint64),
                      np.array([seed_state(s)[1] for s in seeds], dtype=np.uint64))
    got = many.ahead(np.arange(3)[:, None], np.arange(40)[None, :])
    counts = np.array([0, 17, 40])
    many.skip(counts)
    for g, s in enumerate(seeds):
        single = Pcg32(*seed_state(s))
        assert got[g].tolist() == single.peek(40).tolist()
        single.skip(int(counts[g]))
        assert int(many.state[g]) == single.state


def test_many_games_read_and_move_beyond_one_jump_table_as_one_game_does() -> None:
    # A crowded wave or a tick of many fragments may need more draws than one jump table
    # (JUMP_DRAWS) holds: the batched streams go on in rounds of a table, and give each
    # game what its own Pcg32 gives, draw for draw, across the table's edges.
    from asteroids.core.batch_rows import segments
    from asteroids.core.rng import JUMP_DRAWS

    seeds = [5, 6, 7, 8]
    many = Pcg32Batch(np.array([seed_state(s)[0] for s in seeds], dtype=np.uint64),
                      np.array([seed_state(s)[1] for s in seeds], dtype=np.uint64))
    far = 2 * JUMP_DRAWS + 3
    edges = np.array([0, 1, JUMP_DRAWS - 1, JUMP_DRAWS, JUMP_DRAWS + 1, far - 1])
    got = many.ahead(np.arange(4)[:, None], edges[None, :])
    counts = np.array([0, JUMP_DRAWS, JUMP_DRAWS + 1, far])
    game, rank = segments(counts)
    run = many.runs(counts, game, rank)
    for g, s in enumerate(seeds):
        single = Pcg32(*seed_state(s))
        stream = single.peek(far)
        assert got[g].tolist() == stream[edges].tolist()
        assert run[game == g].tolist() == stream[:counts[g]].tolist()
        single.skip(int(counts[g]))
        assert int(many.state[g]) == single.state
