"""The named bots deciding for a whole batch at once: (B,) input masks, lane i's equal to
the one-game bot's on ``batch.world(i)`` (tests/core/test_batch_bots.py).

idle and spinner are array expressions over the batch's columns, sharing the one-game bot's
rule (``bot.spin``). The aimer decides lane by lane with the one-game ``aimer_bot`` until its
search is batched (docs/batch-design.md, section 4.4).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.batch import Batch
from asteroids.core.bot import aimer_bot, spin

__all__ = ["BATCH_BOTS", "BatchBot", "aimer_batch", "batch_bot_for", "idle_batch",
           "spinner_batch"]

BatchBot = Callable[[Batch, Config], np.ndarray]
"""A batched pilot: the batch and its Config in, (B,) int64 input masks out."""


def idle_batch(batch: Batch, config: Config) -> np.ndarray:
    """Presses nothing, in every game."""
    return np.zeros(batch.size, dtype=np.int64)


def spinner_batch(batch: Batch, config: Config) -> np.ndarray:
    """Turns left for ever and fires on every press edge, in every game."""
    return np.asarray(spin(batch.fire_held), dtype=np.int64)


def aimer_batch(batch: Batch, config: Config) -> np.ndarray:
    """The aimer's buttons for every game (lane by lane, the one-game rule)."""
    return np.array([aimer_bot(batch.world(i), config) for i in range(batch.size)],
                    dtype=np.int64)


BATCH_BOTS: Mapping[str, BatchBot] = MappingProxyType({
    "idle": idle_batch,
    "spinner": spinner_batch,
    "aimer": aimer_batch,
})
"""The named bots that have a batched form (``BOTS``' names)."""


def batch_bot_for(name: str) -> BatchBot:
    """The batched bot called ``name``.

    Raises:
        ValueError: for a name without a batched form; the message lists those there are.
    """
    try:
        return BATCH_BOTS[name]
    except KeyError:
        pass
    known = ", ".join(sorted(BATCH_BOTS))
    close = difflib.get_close_matches(str(name), sorted(BATCH_BOTS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"no batched bot {name!r}{hint}; bots with a batched form: {known}")
