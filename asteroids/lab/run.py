"""A balance run: the same seeds played by a bot on every side (config), in game order.

Game i of every side uses seed ``seed + i``, so each game can be replayed alone with
``asteroids record --bot BOT --seed SEED --ticks CAP --config ...``, and a difference
between sides is the config's, not the luck of different seeds.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from asteroids.config import Config
from asteroids.core import batch as core_batch
from asteroids.lab.batch_run import BatchTask, can_batch, run_batch_task
from asteroids.lab.engines import ordered_map, pool_map
from asteroids.lab.game import GameResult, GameTask, run_task
from asteroids.replay.files import save_replay
from asteroids.replay.format import Replay

if TYPE_CHECKING:
    from asteroids.pilots import Persona

__all__ = ["BalanceRun", "Side", "plan", "run_balance", "side_name"]


def side_name(index: int) -> str:
    """``A``, ``B``, ... ``Z``, then ``S27``, ``S28``, ...: short column names."""
    return chr(ord("A") + index) if index < 26 else f"S{index + 1}"


@dataclass(frozen=True)
class Side:
    """One config of a run and where it came from."""

    name: str
    """Column name in the report (``A``, ``B``, ...)."""
    label: str
    """What the side is, e.g. ``classic`` or ``classic, ship.thrust_px_per_s2=400``."""
    config: Config
    max_ticks: int
    """The tick cap of each of its games."""
    sources: tuple[str, ...] = ()
    """The ``--config`` files or presets, in order (empty: the built-in defaults)."""
    overrides: tuple[str, ...] = ()
    """The ``KEY=VALUE`` overrides applied on top, in order."""
    pilot: str | Persona | None = None
    """Who plays this side's games (``balance --persona``); None: the run's bot."""
    pilot_name: str = ""
    """The pilot's name for the report (a persona file's persona name)."""


@dataclass
class BalanceRun:
    """Every game of a run, per side in seed order, and the replays kept (if any)."""

    sides: tuple[Side, ...]
    bot: str
    games: int
    seed: int
    results: list[list[GameResult]]
    """``results[side][i]``: game i (seed ``seed + i``) of that side."""
    replays: dict[tuple[int, int], str] = field(default_factory=dict)
    """(side, game) -> the kept replay's file name, when replays were kept."""


def plan(sides: Sequence[Side], *, bot: str, games: int, seed: int,
         record: bool = False) -> list[GameTask]:
    """Every game of the run, interleaved by seed (game 0 of each side, then game 1, ...), so
    a run stopped early has compared as many seeds as possible."""
    return [GameTask(side=s, index=i, seed=seed + i, config=side.config,
                     bot=side.pilot if side.pilot is not None else bot,
                     max_ticks=side.max_ticks, record=record)
            for i in range(games) for s, side in enumerate(sides)]


def run_balance(sides: Sequence[Side], *, bot: str, games: int, seed: int,
                engine: str = "batch", jobs: int | None = None, address: str | None = None,
                keep_replays: str | os.PathLike[str] | None = None,
                on_done: Callable[[], None] | None = None) -> BalanceRun:
    """Play ``games`` games per side and collect the results in game order.

    Args:
        sides: the configs; the first is what the others are compared with.
        bot: the bot's name (for the sides without a pilot of their own).
        games: games per side.
        seed: game i of every side uses seed ``seed + i``.
        engine: ``batch`` (the default: this machine, each side's games as batches; kept
            replays are recorded one game at a time in the pool), ``pool`` (this machine,
            one game per task) or ``ray``.
        jobs: pool workers (None: every core); CPUs of a local Ray.
        address: a Ray cluster's address (``ray`` only).
        keep_replays: a folder to save every game's replay in, as ``SIDE-seedSEED.replay``.
        on_done: called once per finished game (a progress bar).

    Raises:
        EngineUnavailable: for ``ray`` without Ray.
        OSError: when a replay cannot be saved.
    """
    tasks = plan(sides, bot=bot, games=games, seed=seed, record=keep_replays is not None)
    run = BalanceRun(sides=tuple(sides), bot=bot, games=games, seed=seed,
                     results=[[] for _ in sides])
    outputs: Iterable[tuple[GameResult, Replay | None]]
    if engine == "batch":
        by_side = [iter(x) for x in _run_batches(sides, tasks, jobs=jobs, on_done=on_done)]
        outputs = [next(by_side[t.side]) for t in tasks]
    else:
        outputs = ordered_map(run_task, tasks, engine=engine, jobs=jobs, address=address,
                              on_done=on_done)
    for task, (result, replay) in zip(tasks, outputs, strict=True):
        run.results[task.side].append(result)
        if keep_replays is not None and replay is not None:
            name = f"{sides[task.side].name}-seed{task.seed}.replay"
            save_replay(replay, Path(keep_replays) / name)
            run.replays[(task.side, task.index)] = name
    return run


def _run_batches(sides: Sequence[Side], tasks: list[GameTask], *, jobs: int | None,
                 on_done: Callable[[], None] | None
                 ) -> list[list[tuple[GameResult, Replay | None]]]:
    """Every side's games in game order: as batches split over ``jobs`` processes where the
    pilot has a batched form and each worker gets at least ``BATCHED_PASS_MIN`` games, else
    one game per task in the pool (a smaller batch plays game by game anyway, and the
    pool's tasks balance better over the workers)."""
    workers = max(1, jobs or os.cpu_count() or 1)
    chunks: list[BatchTask] = []
    single: list[GameTask] = []
    for s, side in enumerate(sides):
        mine = [t for t in tasks if t.side == s]
        # One batch per worker: the wider a batch, the cheaper each of its game-ticks.
        size = -(-len(mine) // workers)
        small = size < core_batch.BATCHED_PASS_MIN
        if not mine or small or not can_batch(mine[0].bot, mine[0].record):
            single += mine
            continue
        for at in range(0, len(mine), size):
            part = mine[at:at + size]
            chunks.append(BatchTask(side=s, first=part[0].index,
                                    seeds=tuple(t.seed for t in part), config=side.config,
                                    bot=part[0].bot, max_ticks=side.max_ticks))
    out: list[list[tuple[GameResult, Replay | None]]] = [[] for _ in sides]
    for chunk, results in zip(chunks, pool_map(run_batch_task, chunks, jobs=workers),
                              strict=True):
        for result in results:
            out[chunk.side].append((result, None))
            if on_done is not None:
                on_done()
    ordered = ordered_map(run_task, single, engine="pool", jobs=jobs, on_done=on_done)
    for task, output in zip(single, ordered, strict=True):
        out[task.side].append(output)
    return out
