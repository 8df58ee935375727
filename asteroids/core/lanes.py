"""One rule text for one game and for B games: the few operations a shared rule needs.

A rule shared by the one-game ``step`` and the batched tick (``asteroids.core.batch_tick``)
is written once against a *lanes* namespace that the driver passes in:

- ``ONE``: Python scalars, one game (``where`` is a conditional expression, ``clip`` is
  ``min(max(...))``): what ``step`` has always computed, at about the cost it always had;
- ``MANY``: ``(B,)`` numpy arrays, one element per game (``np.where``, ``np.minimum``).

Per-game values (``d.ship_x``, ``d.beat_timer``) are Python numbers in a ``Draft`` and
``(B,)`` arrays in a ``BatchDraft``; the arithmetic operators work on both, so only
selections, clamps, table lookups and the border maths go through here. Both give the same
bits: IEEE ``+ - * /`` and ``%`` (Python's float ``%`` and ``np.remainder`` share the
floored ``fmod``) agree, and every clamp ends in ``+ 0.0`` where the rules need no ``-0.0``
(tests/core/test_batch_tick.py checks each helper on both).

A branch on a per-game condition is written as ``L.where(cond, then, else)``, both sides
computed (cheap for the scalar rules that use it); a branch that does work only some games
need (a draw, an event, new rows) stays out of the shared text: the one-game driver does it
after the shared part, and the batched tick hands those games to the one-game driver.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from asteroids.core.geometry.bounce import bounce_positions
from asteroids.core.geometry.wrap import wrap_delta, wrap_positions
from asteroids.core.scalar import bounce1, min_image1, wrap1

__all__ = ["MANY", "ONE", "BatchDraft", "Lanes", "Table"]


class Table(tuple):
    """A constant lookup table for ``Lanes.take``: a tuple of Python floats for ``ONE`` and,
    made once with it, the same values as an array for ``MANY`` (converting a 256-entry
    tuple on every lookup cost more than the lookup)."""

    array: np.ndarray

    def __new__(cls, values: Any) -> Table:
        table = super().__new__(cls, np.asarray(values, dtype=np.float64).tolist())
        table.array = np.array(table, dtype=np.float64)
        table.array.flags.writeable = False
        return table


@dataclass(frozen=True)
class Lanes:
    """The operations of a shared rule (see the module's docstring); ``ONE`` and ``MANY``
    (stateless: a frozen value)."""

    many: bool
    """True for ``(B,)`` arrays, False for one game's Python scalars."""

    def where(self, cond: Any, then: Any, other: Any) -> Any:
        raise NotImplementedError

    def clip(self, x: Any, lo: float, hi: float) -> Any:
        """``min(max(x, lo), hi)`` (NaN stays NaN)."""
        raise NotImplementedError

    def maximum(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def minimum(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def take(self, table: tuple[float, ...] | np.ndarray, index: Any) -> Any:
        """``table[index]`` (index in range)."""
        raise NotImplementedError

    def sqrt(self, x: Any) -> Any:
        raise NotImplementedError

    def wrap(self, x: Any, size: float) -> Any:
        """One coordinate into ``[0, size)`` (``scalar.wrap1``)."""
        raise NotImplementedError

    def bounce(self, x: Any, v: Any, lo: float, hi: float) -> tuple[Any, Any]:
        """One coordinate folded into ``[lo, hi]`` and its velocity (``scalar.bounce1``)."""
        raise NotImplementedError

    def min_image(self, delta: Any, size: float) -> Any:
        """The short way across a wrapping axis (``scalar.min_image1``)."""
        raise NotImplementedError

    # Chance: ``rng`` is the game's ``Pcg32`` (ONE) or the batch's ``Pcg32Batch`` (MANY);
    # only the games where ``when`` holds draw, each as its one-game rule would.
    def below(self, rng: Any, n: Any, when: Any) -> Any:
        """``rng.below(n)`` where ``when``, else 0 without a draw."""
        raise NotImplementedError

    def between(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        """``rng.between(lo, hi)`` where ``when``, else ``lo`` without a draw."""
        raise NotImplementedError

    def uniform(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        """``rng.uniform(lo, hi)`` where ``when``, else ``lo`` without a draw."""
        raise NotImplementedError


@dataclass(frozen=True)
class _One(Lanes):

    def where(self, cond: Any, then: Any, other: Any) -> Any:
        return then if cond else other

    def clip(self, x: Any, lo: float, hi: float) -> Any:
        return min(max(x, lo), hi)

    def maximum(self, a: Any, b: Any) -> Any:
        return max(a, b)

    def minimum(self, a: Any, b: Any) -> Any:
        return min(a, b)

    def take(self, table: tuple[float, ...] | np.ndarray, index: Any) -> Any:
        return table[index]

    def sqrt(self, x: Any) -> Any:
        return math.sqrt(x)

    def wrap(self, x: Any, size: float) -> Any:
        return wrap1(x, size)

    def bounce(self, x: Any, v: Any, lo: float, hi: float) -> tuple[Any, Any]:
        return bounce1(x, v, lo, hi)

    def min_image(self, delta: Any, size: float) -> Any:
        return min_image1(delta, size)

    def below(self, rng: Any, n: Any, when: Any) -> Any:
        return rng.below(n) if when else 0

    def between(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        return rng.between(lo, hi) if when else lo

    def uniform(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        return rng.uniform(lo, hi) if when else lo


@dataclass(frozen=True)
class _Many(Lanes):

    def where(self, cond: Any, then: Any, other: Any) -> Any:
        return np.where(cond, then, other)

    # Python's max(a, b) is b only when b > a, else a (so max(-0.0, 0.0) is -0.0 and
    # max(nan, 1.0) is nan, where np.maximum gives 0.0 and nan): the same selections here.
    def clip(self, x: Any, lo: float, hi: float) -> Any:
        return self.minimum(self.maximum(x, lo), hi)

    def maximum(self, a: Any, b: Any) -> Any:
        return np.where(b > a, b, a)

    def minimum(self, a: Any, b: Any) -> Any:
        return np.where(b < a, b, a)

    def take(self, table: tuple[float, ...] | np.ndarray, index: Any) -> Any:
        values = table.array if isinstance(table, Table) else np.asarray(table)
        return values.take(index)

    def sqrt(self, x: Any) -> Any:
        return np.sqrt(x)

    # The border maths are the vectorised geometry's own (elementwise, any shape).
    def wrap(self, x: Any, size: Any) -> Any:
        return wrap_positions(x, size)

    def bounce(self, x: Any, v: Any, lo: Any, hi: Any) -> tuple[Any, Any]:
        return bounce_positions(x, v, lo, hi)

    def min_image(self, delta: Any, size: Any) -> Any:
        return wrap_delta(delta, size)

    def below(self, rng: Any, n: Any, when: Any) -> Any:
        return rng.below(n, when)

    def between(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        return rng.between(lo, hi, when)

    def uniform(self, rng: Any, lo: Any, hi: Any, when: Any) -> Any:
        return rng.uniform(lo, hi, when)


ONE: Lanes = _One(many=False)
"""One game, Python scalars."""
MANY: Lanes = _Many(many=True)
"""B games, ``(B,)`` numpy arrays."""


class BatchDraft:
    """A batch's columns by name while the batched tick computes the next ones (what a
    ``Draft`` is to one game): every World field, a ``(B,)`` array per game value and packed
    rows, plus ``ast_rows`` and ``shot_rows``. Rules replace arrays and never write into
    them, so the batch's own (read-only) arrays are shared."""

    def __init__(self, columns: Mapping[str, np.ndarray]) -> None:
        self.__dict__.update(columns)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"a batch has no column {name!r}")
