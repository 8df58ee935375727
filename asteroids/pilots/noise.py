"""A persona's chance: a counter-based random stream keyed on the game, never global state.

Each draw is a pure function of (the game's key, the tick, a slot number), hashed with
SplitMix64 on numpy ``uint64`` arrays: no state to carry, the same numbers on every machine
(integer arithmetic, then ``+ - * /`` only), and a whole batch of games draws at once by
passing an array of keys. The key comes from the game's starting World (its seed's PCG32
state), so the same seed gives the same persona game, and the World's own stream, the
game's chance, is never touched.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SLOTS", "game_key", "normal", "uniform"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK64 = (1 << 64) - 1
_SALT = 0x70696C6F7473  # "pilots": persona streams differ from anything else keyed alike
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
_SQRT3 = 1.7320508075688772

SLOTS = 16
"""Draws available per tick and game (slot numbers ``0 .. SLOTS - 1``)."""


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (Steele, Lea and Flood 2014) on a uint64 array."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def game_key(rng_state: int, rng_inc: int) -> int:
    """The persona stream's key for a game, from its starting PCG32 state and increment."""
    z = np.array([(rng_state ^ _SALT) & _MASK64], dtype=np.uint64)
    z = _mix(_mix(z + _GOLDEN) ^ np.array([rng_inc & _MASK64], dtype=np.uint64))
    return int(z[0])


def uniform(keys: np.ndarray, tick: np.ndarray | int, slot: int,
            sub: np.ndarray | int = 0) -> np.ndarray:
    """Uniform numbers in [0, 1): one per key (a ``uint64`` array), for this tick and slot
    (``sub``, 0 to 3, numbers further draws of one slot)."""
    ticks = np.atleast_1d(np.asarray(tick, dtype=np.uint64))
    counter = ((ticks * np.uint64(SLOTS) + np.uint64(slot)) * np.uint64(4)
               + np.asarray(sub, dtype=np.uint64))
    z = _mix(keys + (counter + np.uint64(1)) * _GOLDEN)
    return (z >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def normal(keys: np.ndarray, tick: np.ndarray | int, slot: int) -> np.ndarray:
    """Standard-normal-like numbers (mean 0, standard deviation 1): the sum of four uniforms,
    centred and scaled (Irwin-Hall), so it needs no logarithm and stays within +-3.46.
    A slot drawn here is not also drawn with ``uniform``."""
    total = uniform(keys, tick, slot, 0)
    for sub in range(1, 4):
        total = total + uniform(keys, tick, slot, sub)
    return (total - 2.0) * _SQRT3
