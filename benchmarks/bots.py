"""How well the named bots play: ``python -m benchmarks.bots`` or ``asteroids bench bots``.

Each bot plays N seeds of each preset headless through the real ``step()``, for at most a
time budget of game time (default 3 minutes at the preset's own tick rate), stopping early
at game over. Reported per bot and preset:

* **wave 1 cleared**: the share of seeds in which the first wave was cleared (the issue asks
  the ``aimer`` to clear wave 1 of the classic preset in most seeds; the target here is 80 %);
* the mean tick at which wave 1 was cleared (over the seeds that cleared it);
* the mean final score, ticks survived (until game over or the budget) and lives lost;
* the bot's own cost per tick in µs (median of ``perf_counter_ns`` samples around the bot
  call only), and beside it the median ``step()`` of the same games, so the ratio can be
  read even on a busy machine.

Wall times move with the machine and its load; the clear rates and scores do not (the games
are deterministic), so those can be quoted exactly.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from asteroids.config import Config, load_config
from asteroids.core import new_world, step
from asteroids.core.bot import BOTS, bot_for
from asteroids.core.params import params_for
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("classic", "default", "arena")
TARGET_CLEAR = 0.8


def preset(name: str) -> Config:
    """The built-in defaults ("default") or a preset from config/."""
    return load_config() if name == "default" else load_config(ROOT / "config" / f"{name}.toml")


@dataclass
class GameResult:
    """One bot game."""

    seed: int
    cleared_at: int | None
    """Tick at which wave 1 was cleared, or None."""
    score: int
    ticks: int
    lives_lost: int
    bot_ns: list[int]
    step_ns: list[int]


def play(bot_name: str, cfg: Config, seed: int, max_ticks: int, *, until_clear: bool = False,
         timed: bool = True) -> GameResult:
    """Play one game; stop at game over, after ``max_ticks``, or (if asked) once wave 1 clears."""
    bot = bot_for(bot_name)
    p = params_for(cfg)  # compiled once, as a game does: the times are the bot's and the tick's
    world = new_world(p, seed)
    lost = 0
    cleared_at = None
    samples: list[int] = []
    step_samples: list[int] = []
    clock = time.perf_counter_ns
    for _ in range(max_ticks):
        if world.game_over:
            break
        before = world.lives
        if timed:
            t0 = clock()
            mask = bot(world, p)
            t1 = clock()
            world, _ = step(world, mask, p)
            step_samples.append(clock() - t1)
            samples.append(t1 - t0)
        else:
            world, _ = step(world, bot(world, p), p)
        lost += max(0, before - world.lives)
        if cleared_at is None and (world.wave > 1 or world.wave_timer >= 0):
            cleared_at = world.tick  # wave 1 is gone: the pause before wave 2 has begun
            if until_clear:
                break
    return GameResult(seed, cleared_at, world.score, world.tick, lost, samples, step_samples)


def main(argv: Sequence[str] | None = None) -> int:
    """Play the bots and print a markdown table."""
    parser = argparse.ArgumentParser(prog="asteroids bench bots", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs="+", default=list(BOTS), help="bot names")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS),
                        help="presets: default or a name under config/")
    parser.add_argument("--seeds", type=int, default=20, help="seeds per bot and preset")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=3.0,
                        help="game time per seed, at each preset's tick rate")
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    args = parser.parse_args(argv)
    for name in args.bots:
        bot_for(name)  # fail early with the list of names
    tuned = tune_malloc()
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}, "
          f"malloc tuning {'on' if tuned else 'off'}")
    print(f"\n## Bots: {args.seeds} seeds from {args.first_seed}, up to {args.minutes:g} min of "
          "game time each\n")
    print("| bot | preset | wave 1 cleared | mean clear tick | mean score | mean ticks survived "
          "| mean lives lost | bot µs/tick | step µs/tick |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    verdicts = []
    for preset_name in args.presets:
        cfg = preset(preset_name)
        budget = round(args.minutes * 60.0 * cfg.world.tick_hz)
        for name in args.bots:
            games = [play(name, cfg, seed, budget)
                     for seed in range(args.first_seed, args.first_seed + args.seeds)]
            if args.verbose:
                for g in games:
                    print(f"  {name} {preset_name} seed {g.seed}: cleared at {g.cleared_at}, "
                          f"score {g.score}, ticks {g.ticks}, lives lost {g.lives_lost}")
            cleared = [g.cleared_at for g in games if g.cleared_at is not None]
            rate = len(cleared) / len(games)
            samples = [s for g in games for s in g.bot_ns]
            us = statistics.median(samples) / 1e3 if samples else float("nan")
            steps = [s for g in games for s in g.step_ns]
            step_us = statistics.median(steps) / 1e3 if steps else float("nan")
            clear_tick = f"{statistics.fmean(cleared):.0f}" if cleared else "-"
            print(f"| {name} | {preset_name} | {len(cleared)}/{len(games)} ({rate:.0%}) | "
                  f"{clear_tick} | {statistics.fmean(g.score for g in games):.0f} | "
                  f"{statistics.fmean(g.ticks for g in games):.0f} | "
                  f"{statistics.fmean(g.lives_lost for g in games):.2f} | {us:.1f} | "
                  f"{step_us:.0f} |")
            if name == "aimer" and preset_name == "classic":
                met = "met" if rate >= TARGET_CLEAR else "MISSED"
                verdicts.append(f"aimer clears wave 1 of classic in {rate:.0%} of seeds: "
                                f"target ≥ {TARGET_CLEAR:.0%} {met}")
    for line in verdicts:
        print(f"\n{line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
