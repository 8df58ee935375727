"""A side's games played as batches (``asteroids balance --engine batch``).

Up to ``LANES`` games run in lock-step (``asteroids.core.step_batch``); a lane whose game
ends (game over, or the tick cap) gets the next seed. The named bots decide for the whole
batch at once (``asteroids.core.bot_batch``); a persona gets one pilot per lane, a fresh one
for each game (personas remember what they saw), as ``play_game`` gives each game its own.
Each game's ``GameResult`` is counted from the event columns by ``lab.game``'s one counter
(``Tally``, which ``play_game`` runs on its batch of one), so it equals ``play_game``'s,
field for field, and a run's ``--json`` is byte-identical on every engine
(tests/test_balance_batch.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from asteroids.config import Config
from asteroids.core.batch import Batch, new_batch, reset_lanes, step_batch, take_lanes
from asteroids.core.bot_batch import BATCH_BOTS
from asteroids.core.params import params_for
from asteroids.lab.game import GameResult, Tally
from asteroids.replay.record import get_bot
from asteroids.runtime import tune_malloc

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["LANES", "BatchTask", "can_batch", "play_batch", "run_batch_task"]

LANES = 1024
"""Games in flight at once (a lane that finishes takes the next game)."""

def can_batch(pilot: object, record: bool) -> bool:
    """Whether these games can be played as a batch: any pilot, when no replay is recorded
    (recorded games are played one at a time)."""
    return not record


@dataclass(frozen=True)
class BatchTask:
    """Consecutive games of one side for one worker: games ``first``... with ``seeds``."""

    side: int
    first: int
    seeds: tuple[int, ...]
    config: Config
    bot: str | Persona
    max_ticks: int


def run_batch_task(task: BatchTask) -> list[GameResult]:
    """``play_batch`` for a ``BatchTask``: what pool workers run."""
    return play_batch(task.config, task.seeds, task.bot, task.max_ticks)


class _Pilots:
    """Who decides each lane: a batched bot for all lanes at once, or one pilot per lane."""

    def __init__(self, bot: str | Persona, lanes: int) -> None:
        self.batched = BATCH_BOTS.get(bot) if isinstance(bot, str) else None
        self.bot = bot
        self.own: list[Callable[..., int]] = (
            [] if self.batched is not None else [get_bot(bot) for _ in range(lanes)])

    def decide(self, batch: Batch, config: Config) -> np.ndarray:
        if self.batched is not None:
            return self.batched(batch, config)
        return np.array([pilot(w, config) for w, pilot in zip(batch.worlds(), self.own,
                                                               strict=True)],
                        dtype=np.int64)

    def restart(self, lane: int) -> None:
        if self.batched is None:
            self.own[lane] = get_bot(self.bot)

    def keep(self, lanes: list[int]) -> None:
        if self.batched is None:
            self.own = [self.own[i] for i in lanes]


def play_batch(config: Config, seeds: Sequence[int], bot: str | Persona, max_ticks: int, *,
               lanes: int = LANES) -> list[GameResult]:
    """Play one game per seed with ``bot`` (a bot or persona name, a persona file or a
    ``Persona``), to game over or ``max_ticks``, as batches.

    Returns:
        The results in the order of ``seeds``, each equal to ``play_game``'s for its seed.

    Raises:
        ValueError: for a tick cap below 1.
        KeyError: for an unknown bot.
    """
    if max_ticks < 1:
        raise ValueError(f"max_ticks must be 1 or more; got {max_ticks}")
    seeds = [int(s) for s in seeds]
    tune_malloc()  # ~5 % faster: each tick's temporaries reuse the last tick's pages
    results: list[GameResult | None] = [None] * len(seeds)
    if not seeds:
        return []
    p = params_for(config)
    tick_hz = float(config.world.tick_hz)
    width = min(lanes, len(seeds))
    pilot = _Pilots(bot, width)
    batch = new_batch(p, seeds[:width])
    game_of = list(range(width))
    tally = Tally(batch.wave)
    next_game = width
    while batch.size:
        masks = pilot.decide(batch, config)
        batch, events = step_batch(batch, masks, p)
        tally.add(events, batch.tick, batch.wave)
        ended = np.flatnonzero((batch.tick >= max_ticks) | batch.game_over).tolist()
        if not ended:
            continue
        restart, fresh = [], []
        for lane in ended:
            results[game_of[lane]] = tally.result(
                lane, seeds[game_of[lane]], tick_hz, ticks=batch.tick[lane],
                game_over=batch.game_over[lane], score=batch.score[lane],
                wave=batch.wave[lane], lives=batch.lives[lane])
            if next_game < len(seeds):
                restart.append(lane)
                fresh.append(seeds[next_game])
                game_of[lane] = next_game
                next_game += 1
        batch = reset_lanes(batch, restart, fresh)
        for lane in restart:
            tally.restart(lane, int(batch.wave[lane]))
            pilot.restart(lane)
        done = set(ended) - set(restart)
        if done:
            keep = [lane for lane in range(batch.size) if lane not in done]
            batch = take_lanes(batch, keep) if keep else batch
            game_of = [game_of[lane] for lane in keep]
            pilot.keep(keep)
            tally.keep(keep)
            if not keep:
                break
    return [r for r in results if r is not None]

