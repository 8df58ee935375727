"""PCG32: the simulation's only source of chance, on plain Python integers.

numpy's generators and distributions may change between numpy versions, and Python's
``random`` only guarantees ``random()``. A PCG32 (O'Neill, pcg-random.org, ``pcg32_random_r``)
written with integer arithmetic gives the same stream on every machine and Python version.
Its whole state is two integers that live in the world and go into the state hash.
"""

from __future__ import annotations

__all__ = ["Pcg32", "seed_state"]

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
        """A uniform integer in ``[0, n)`` without modulo bias (rejection, as pcg32_boundedrand)."""
        if n <= 1:
            return 0
        threshold = (0x100000000 - n) % n
        while True:
            r = self.u32()
            if r >= threshold:
                return r % n

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
