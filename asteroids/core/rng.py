"""PCG32: the simulation's only source of chance, on plain Python integers.

numpy's generators and distributions may change between numpy versions, and Python's
``random`` only guarantees ``random()``. A PCG32 (O'Neill, pcg-random.org, ``pcg32_random_r``)
written with integer arithmetic gives the same stream on every machine and Python version.
Its whole state is two integers that live in the world and go into the state hash.
"""

from __future__ import annotations

import numpy as np

__all__ = ["JUMP_DRAWS", "DrawQueue", "Pcg32", "Pcg32Batch", "seed_state"]

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_TWO32 = 4294967296.0


def seed_state(seed: int, stream: int = 54) -> tuple[int, int]:
    """The (state, increment) pair that ``pcg32_srandom_r(seed, stream)`` produces."""
    inc = ((stream << 1) | 1) & _MASK64
    state = (inc + (seed & _MASK64)) & _MASK64
    state = (state * _MULT + inc) & _MASK64
    return state, inc


class Pcg32:
    """A mutable PCG32 used inside one ``step``; its state is copied back into the world.

    >>> r = Pcg32(*seed_state(42, 54))
    >>> hex(r.u32()), hex(r.u32())
    ('0xa15c02b7', '0x7b47f409')
    """

    __slots__ = ("inc", "state")

    def __init__(self, state: int, inc: int) -> None:
        self.state = state
        self.inc = inc

    def u32(self) -> int:
        """The next 32-bit output."""
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """An integer in ``[0, n)`` by multiply-shift, ``(u32 * n) >> 32`` (Lemire).

        One draw per call when ``n > 1``; ``n <= 1`` gives 0 without drawing (replays pin
        this: a batched draw must skip those calls too). The bias is below ``n / 2**32``
        (under 1e-6 for the game's n).
        """
        return (self.u32() * n) >> 32 if n > 1 else 0

    def u32_array(self, count: int) -> np.ndarray:
        """The next ``count`` outputs at once, as uint64: exactly what ``count`` calls of
        ``u32()`` would give, computed with PCG's jump-ahead (state_k = A_k*s + B_k*inc)."""
        if count <= 0:
            return np.zeros(0, dtype=np.uint64)
        inc = self.inc
        parts: list[np.ndarray] = []
        todo = count
        while todo:  # blocks of at most _JUMP draws, each jumped to from the block's start
            k = min(todo, _JUMP)
            with np.errstate(over="ignore"):
                parts.append(_A_NP[:k] * np.uint64(self.state) + _B_NP[:k] * np.uint64(inc))
            self.state = (_A[k] * self.state + _B[k] * inc) & _MASK64
            todo -= k
        return _output(parts[0] if len(parts) == 1 else np.concatenate(parts))

    def peek(self, count: int) -> np.ndarray:
        """The next ``count`` outputs (``u32_array``'s) without moving past them: for a rule
        that knows how many it may use but learns how many it uses from their values
        (``skip`` then moves past those)."""
        return Pcg32(self.state, self.inc).u32_array(count)

    def skip(self, count: int) -> None:
        """Move past the next ``count`` outputs (as ``count`` calls of ``u32`` would)."""
        while count > 0:
            k = min(count, _JUMP)
            self.state = (_A[k] * self.state + _B[k] * self.inc) & _MASK64
            count -= k

    def below_array(self, n: np.ndarray | int, count: int) -> np.ndarray:
        """``count`` draws of ``below(n)`` at once (n may be an int64 array of length count):
        the same values and stream as ``count`` calls of ``below`` only when every n > 1,
        since ``below(n <= 1)`` draws nothing."""
        u = self.u32_array(count)
        return ((u * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)).astype(np.int64)

    def unit_array(self, count: int) -> np.ndarray:
        """``count`` draws of ``unit()`` at once, float64 in [0, 1)."""
        return self.u32_array(count).astype(np.float64) / _TWO32

    def between(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both ends included)."""
        return lo + self.below(hi - lo + 1)

    def unit(self) -> float:
        """A float in ``[0, 1)`` with 32 random bits (exact: u32 / 2**32)."""
        return self.u32() / _TWO32

    def uniform(self, lo: float, hi: float) -> float:
        """A float in ``[lo, hi)``, computed with one multiply and one add."""
        return lo + (hi - lo) * self.unit()

    def sign(self) -> float:
        """-1.0 or +1.0 with equal odds."""
        return -1.0 if self.u32() & 1 else 1.0


class Pcg32Batch:
    """B independent PCG32 generators, one per game of a batch: ``state`` and ``inc`` are
    ``(B,)`` uint64 arrays (wrapping arithmetic). Every draw takes ``when``, the games that
    draw (the others keep their state and get 0), so each game consumes exactly the stream
    its one-game ``Pcg32`` would, call for call (tests/core/test_rng.py)."""

    __slots__ = ("inc", "state")

    def __init__(self, state: np.ndarray, inc: np.ndarray) -> None:
        self.state = np.asarray(state, dtype=np.uint64)
        self.inc = np.asarray(inc, dtype=np.uint64)

    def u32(self, when: np.ndarray) -> np.ndarray:
        """One 32-bit output per game of ``when`` (uint64; 0 elsewhere)."""
        old = self.state
        with np.errstate(over="ignore"):
            new = old * np.uint64(_MULT) + self.inc
        self.state = np.where(when, new, old)
        return np.where(when, _output(old), np.uint64(0))

    def below(self, n: np.ndarray | int, when: np.ndarray) -> np.ndarray:
        """``Pcg32.below(n)`` per game of ``when`` (int64; 0 elsewhere): no draw where
        ``n <= 1``, as there."""
        n = np.asarray(n, dtype=np.int64)
        draws = when & (n > 1)
        u = self.u32(draws)
        return np.where(draws, (u * n.astype(np.uint64)) >> np.uint64(32),
                        np.uint64(0)).astype(np.int64)

    def between(self, lo: np.ndarray | int, hi: np.ndarray | int,
                when: np.ndarray) -> np.ndarray:
        """``Pcg32.between(lo, hi)`` per game of ``when`` (``lo`` elsewhere)."""
        return lo + self.below(np.asarray(hi) - lo + 1, when)

    def uniform(self, lo: np.ndarray | float, hi: np.ndarray | float,
                when: np.ndarray) -> np.ndarray:
        """``Pcg32.uniform(lo, hi)`` per game of ``when`` (``lo`` elsewhere)."""
        return np.where(when, lo + (hi - lo) * (self.u32(when).astype(np.float64) / _TWO32),
                        lo)

    def runs(self, counts: np.ndarray, game: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """``counts[g]`` consecutive outputs of each game g, packed game after game (uint64):
        what ``Pcg32.u32_array(counts[g])`` gives game g; every state moves past its draws.
        ``game`` and ``rank`` say, for each packed draw, its game and its place in that
        game's run (``batch_rows.segments(counts)``)."""
        out = self.ahead(game, rank)
        self.skip(counts)
        return out

    def ahead(self, game: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The output ``rank`` draws on of each ``game``'s stream, without moving it
        (``Pcg32.peek`` for many games; ``skip`` moves past what was used). A rank of one
        jump table (``JUMP_DRAWS``) or more is reached in rounds of a whole table, as
        ``Pcg32.u32_array`` draws in blocks: the same states, so the same outputs."""
        state, inc = self.state[game], self.inc[game]
        with np.errstate(over="ignore"):
            if rank.size and int(rank.max()) >= _JUMP:
                state, rank = _rounds(state, inc, rank, _JUMP - 1)
            return _output(_A_NP[rank] * state + _B_NP[rank] * inc)

    def skip(self, counts: np.ndarray) -> None:
        """Move each game's stream past ``counts[g]`` outputs (any number: beyond one jump
        table in rounds of a whole table)."""
        state = self.state
        with np.errstate(over="ignore"):
            if counts.size and int(counts.max()) > _JUMP:
                state, counts = _rounds(state, self.inc, counts, _JUMP)
            self.state = _A_ALL[counts] * state + _B_ALL[counts] * self.inc


def _rounds(state: np.ndarray, inc: np.ndarray, steps: np.ndarray,
            most: int) -> tuple[np.ndarray, np.ndarray]:
    """``state`` moved on by whole jump tables (``_JUMP`` draws a round, the same
    ``A_k * s + B_k * inc`` as a table's last row) until at most ``most`` ``steps`` are left
    (``most`` below ``_JUMP`` for ``ahead``'s tables, ``_JUMP`` for ``skip``'s), and the
    steps left; ``state``, ``inc`` and ``steps`` broadcast together."""
    a, b = np.uint64(_A[_JUMP]), np.uint64(_B[_JUMP])
    far = steps > most
    while far.any():
        state = np.where(far, a * state + b * inc, state)
        steps = np.where(far, steps - _JUMP, steps)
        far = steps > most
    return state, steps


class DrawQueue:
    """Draws made beforehand, handed out call by call: the ``rng`` a rule written for one
    game's ``Pcg32`` (``u32_array``, ``unit_array``) sees when it runs over the rows of many
    games at once, each call getting every game's draws for it, game after game, as that
    game's own stream would give them (``Pcg32Batch.runs``, then split per call)."""

    __slots__ = ("calls",)

    def __init__(self, calls: list[np.ndarray]) -> None:
        self.calls = list(calls)

    def u32_array(self, count: int) -> np.ndarray:
        """The next call's draws (there must be ``count``)."""
        draws = self.calls.pop(0)
        if draws.shape[0] != count:
            raise ValueError(f"{count} draws asked for, {draws.shape[0]} prepared")
        return draws

    def unit_array(self, count: int) -> np.ndarray:
        """The next call's draws as floats in [0, 1), as ``Pcg32.unit_array``."""
        return self.u32_array(count).astype(np.float64) / _TWO32

    def below_array(self, n: np.ndarray | int, count: int) -> np.ndarray:
        """The next call's draws as ``Pcg32.below_array(n, count)`` gives them."""
        u = self.u32_array(count)
        return ((u * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)).astype(np.int64)


def _output(old: np.ndarray) -> np.ndarray:
    """PCG32's output (XSH RR) of the states ``old``, as uint64."""
    xorshifted = (((old >> np.uint64(18)) ^ old) >> np.uint64(27)) & np.uint64(0xFFFFFFFF)
    rot = old >> np.uint64(59)
    left = (np.uint64(32) - rot) & np.uint64(31)
    return ((xorshifted >> rot) | (xorshifted << left)) & np.uint64(0xFFFFFFFF)


_JUMP = 4096
"""Draws ``u32_array`` makes from one state in one numpy pass; more come in blocks."""
JUMP_DRAWS = _JUMP
"""Draws one jump table reaches from a state; ``Pcg32Batch`` goes farther in rounds of it."""


def _jump_tables(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A_k = mult**k and B_k = sum of mult**i for i < k (mod 2**64), for k <= n."""
    a, b = [1], [0]
    for _ in range(n):
        a.append((a[-1] * _MULT) & _MASK64)
        b.append((b[-1] * _MULT + 1) & _MASK64)
    return tuple(a), tuple(b)


def _frozen(values: tuple[int, ...]) -> np.ndarray:
    out = np.array(values, dtype=np.uint64)
    out.flags.writeable = False
    return out


_A, _B = _jump_tables(_JUMP)
"""The jump-ahead constants for 0.._JUMP steps, built once at import."""
_A_NP, _B_NP = _frozen(_A[:_JUMP]), _frozen(_B[:_JUMP])
"""The same for 0.._JUMP - 1 steps as uint64 arrays: row k gives the state k draws on."""
_A_ALL, _B_ALL = _frozen(_A), _frozen(_B)
"""The same for 0.._JUMP steps."""
