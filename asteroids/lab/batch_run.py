"""A side's games played as batches (``asteroids balance --engine batch``).

Up to ``LANES`` games run in lock-step (``asteroids.core.step_batch``); a lane whose game
ends (game over, or the tick cap) gets the next seed. The named bots decide for the whole
batch at once (``asteroids.core.bot_batch``); a persona gets one pilot per lane, a fresh one
for each game (personas remember what they saw), as ``play_game`` gives each game its own.
Each game's ``GameResult`` is counted from the event columns by the definitions ``lab.game``
gives, so it equals ``play_game``'s, field for field, and a run's ``--json`` is
byte-identical on every engine (tests/test_balance_batch.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from asteroids.config import Config
from asteroids.core.batch import Batch, new_batch, reset_lanes, step_batch, take_lanes
from asteroids.core.bot_batch import BATCH_BOTS
from asteroids.core.event_columns import EventColumns, EventKind
from asteroids.core.kinds import BY_SHIP, Cause
from asteroids.core.params import params_for
from asteroids.lab.game import DEATH_CAUSES, GameResult
from asteroids.replay.record import get_bot
from asteroids.runtime import tune_malloc

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["LANES", "BatchTask", "can_batch", "play_batch", "run_batch_task"]

LANES = 1024
"""Games in flight at once (a lane that finishes takes the next game)."""

_SHIP_SHOT = int(Cause.SHIP_SHOT)
# As plain ints: numpy compares an array with an IntEnum member five times as slowly.
_FIRED, _WAVE_CLEARED = int(EventKind.SHOT_FIRED), int(EventKind.WAVE_CLEARED)
_ROCK_DOWN, _SAUCER_DOWN = int(EventKind.ASTEROID_DESTROYED), int(EventKind.SAUCER_DESTROYED)
_EXTRA_LIFE, _SHIP_DOWN = int(EventKind.EXTRA_LIFE), int(EventKind.SHIP_DESTROYED)


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


class _Tallies:
    """What each lane's game has counted so far (``play_game``'s counters): the counts that
    change most ticks as (lanes,) arrays, the rare events (deaths, waves reached) as lists."""

    def __init__(self, waves: np.ndarray) -> None:
        lanes = waves.shape[0]
        self.wave = waves.astype(np.int64)
        self.shots = np.zeros(lanes, dtype=np.int64)
        self.kills = np.zeros(lanes, dtype=np.int64)
        self.waves = np.zeros(lanes, dtype=np.int64)
        self.extra = np.zeros(lanes, dtype=np.int64)
        self.deaths = [dict.fromkeys(DEATH_CAUSES, 0) for _ in range(lanes)]
        self.death_ticks: list[list[int]] = [[] for _ in range(lanes)]
        self.wave_ticks: list[list[int]] = [[] for _ in range(lanes)]

    def restart(self, lane: int, wave: int) -> None:
        """Lane ``lane`` starts a new game (at ``wave``)."""
        self.wave[lane] = wave
        for counts in (self.shots, self.kills, self.waves, self.extra):
            counts[lane] = 0
        self.deaths[lane] = dict.fromkeys(DEATH_CAUSES, 0)
        self.death_ticks[lane], self.wave_ticks[lane] = [], []

    def keep(self, lanes: list[int]) -> None:
        """Only these lanes go on, in this order."""
        index = np.asarray(lanes, dtype=np.int64)
        for name in ("wave", "shots", "kills", "waves", "extra"):
            setattr(self, name, getattr(self, name)[index])
        for name in ("deaths", "death_ticks", "wave_ticks"):
            setattr(self, name, [getattr(self, name)[lane] for lane in lanes])


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
    tallies = _Tallies(batch.wave)
    next_game = width
    while batch.size:
        masks = pilot.decide(batch, config)
        batch, events = step_batch(batch, masks, p)
        _count(events, batch.tick, tallies, batch.size)
        waves = batch.wave
        for lane in np.flatnonzero(waves != tallies.wave).tolist():
            tallies.wave[lane] = waves[lane]
            tallies.wave_ticks[lane].append(int(batch.tick[lane]))
        ended = np.flatnonzero((batch.tick >= max_ticks) | batch.game_over).tolist()
        if not ended:
            continue
        restart, fresh = [], []
        for lane in ended:
            results[game_of[lane]] = GameResult(
                seed=seeds[game_of[lane]], ticks=int(batch.tick[lane]), tick_hz=tick_hz,
                game_over=bool(batch.game_over[lane]), score=int(batch.score[lane]),
                final_wave=int(batch.wave[lane]), waves_cleared=int(tallies.waves[lane]),
                deaths=tallies.deaths[lane], shots_fired=int(tallies.shots[lane]),
                kills=int(tallies.kills[lane]), extra_lives=int(tallies.extra[lane]),
                lives_left=int(batch.lives[lane]),
                death_ticks=tuple(tallies.death_ticks[lane]),
                wave_ticks=tuple(tallies.wave_ticks[lane]))
            if next_game < len(seeds):
                restart.append(lane)
                fresh.append(seeds[next_game])
                game_of[lane] = next_game
                next_game += 1
        batch = reset_lanes(batch, restart, fresh)
        for lane in restart:
            tallies.restart(lane, int(batch.wave[lane]))
            pilot.restart(lane)
        done = set(ended) - set(restart)
        if done:
            keep = [lane for lane in range(batch.size) if lane not in done]
            batch = take_lanes(batch, keep) if keep else batch
            game_of = [game_of[lane] for lane in keep]
            pilot.keep(keep)
            tallies.keep(keep)
            if not keep:
                break
    return [r for r in results if r is not None]


def _count(events: EventColumns, ticks: np.ndarray, tallies: _Tallies, size: int) -> None:
    """Add one step's events to each game's counters, by ``play_game``'s definitions."""
    if not events.size:
        return
    kind, game = events.kind, events.game
    tallies.shots += np.bincount(game[(kind == _FIRED) & (events.i0 == BY_SHIP)],
                                 minlength=size)
    broke = (kind == _ROCK_DOWN) | (kind == _SAUCER_DOWN)
    tallies.kills += np.bincount(game[broke & (events.i2 == _SHIP_SHOT)], minlength=size)
    tallies.waves += np.bincount(game[kind == _WAVE_CLEARED], minlength=size)
    extra_rows = kind == _EXTRA_LIFE
    if extra_rows.any():
        tallies.extra += np.bincount(game[extra_rows], weights=events.i1[extra_rows],
                                     minlength=size).astype(np.int64)
    for row in np.flatnonzero(kind == _SHIP_DOWN).tolist():
        lane = int(game[row])
        cause = Cause(int(events.i0[row])).label
        deaths = tallies.deaths[lane]
        deaths[cause] = deaths.get(cause, 0) + 1
        tallies.death_ticks[lane].append(int(ticks[lane]))
