"""Time per simulation tick: ``python -m benchmarks.step`` or ``asteroids bench step``.

Two workloads, both through the real ``asteroids.core.step()`` with every collision on:

* **Crowd**: N asteroids (N in {10, 100, 1000, 5000}) in a 1920x1080 world with 100 live ship
  shots kept topped up, the ship in play. Rules are the defaults (asteroid-asteroid
  collisions off, as in the default and classic presets); ``--collide`` adds a row set with
  them on (the arena rule).
* **Classic replay**: a 10-minute game of the classic preset (37 500 ticks at 62.5 Hz) played
  by the bot, recorded, then re-simulated from its inputs alone, as replay verification
  does, ``--classic-repeats`` times. Reports the median tick, the whole re-simulation time
  and its throughput in ticks/s (median over the repeats) against the target: at least
  6 000 ticks/s on one core, aiming for 10 000. For just this workload:
  ``python -m benchmarks.step --sizes --classic-ticks 37500``.

Times are medians of per-tick wall-clock samples (``time.perf_counter_ns``); absolute values
move with the machine and its load, so the README quotes the machine and the command.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import math
import platform
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from asteroids.config import Config, load_config
from asteroids.core import new_world, step, sweep
from asteroids.core.bot import bot_input
from asteroids.core.params import Params, params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.ship import add_shot
from asteroids.core.spawn import NewRock, append_rocks, make_outline, remove_all_rocks
from asteroids.core.tables import COS, SIN
from asteroids.core.world import SHOOTER_SHIP, Draft, World
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "config" / "classic.toml"
SIZES = (10, 100, 1000, 5000)
SHOTS = 100
TARGETS_MS = {1000: 2.0, 5000: 16.0}
CLASSIC_TARGET_TPS = 6000.0
"""Replay verification must re-simulate at least this many classic ticks per second (one core)."""
CLASSIC_AIM_TPS = 10000.0


def crowd_config(collide: bool) -> Config:
    """Default rules in a 1920x1080 world with room for the crowd and 100 long-lived shots."""
    cfg = Config()
    return dataclasses.replace(
        cfg,
        world=dataclasses.replace(cfg.world, width_px=1920.0, height_px=1080.0),
        asteroids=dataclasses.replace(cfg.asteroids, max_alive=20000, collide=collide),
        shots=dataclasses.replace(cfg.shots, max_alive=SHOTS, lifetime_s=30.0),
        saucers=dataclasses.replace(cfg.saucers, enabled=False),
    )


def crowd_world(cfg: Config, n: int, seed: int) -> World:
    """A world of ``n`` asteroids of mixed sizes at random places, moving at random."""
    p = params_for(cfg)
    rng = Pcg32(*seed_state(seed))
    d = Draft(new_world(p, seed))
    remove_all_rocks(d)
    rocks = []
    for _ in range(n):
        size = rng.below(3)
        outline, radius = make_outline(rng, p, size)
        x = rng.uniform(0.0, p.width)
        y = rng.uniform(0.0, p.height)
        if abs(x - 0.5 * p.width) < 60 and abs(y - 0.5 * p.height) < 60:
            x += 120.0  # leave the ship a moment to live
        vx = rng.uniform(-p.asteroids_speed_max_px_per_tick, p.asteroids_speed_max_px_per_tick)
        vy = rng.uniform(-p.asteroids_speed_max_px_per_tick, p.asteroids_speed_max_px_per_tick)
        rocks.append(NewRock(size, x, y, vx, vy, rng.below(4096), rng.between(-8, 8), outline,
                             radius))
    append_rocks(d, rocks)
    return d.freeze()


def top_up_shots(world: World, cfg: Config | Params, rng: Pcg32) -> World:
    """Add ship shots at random places until SHOTS are alive (outside the timed step)."""
    missing = SHOTS - int(world.shot_id.shape[0])
    if missing <= 0:
        return world
    p = params_for(cfg)
    d = Draft(world)
    for _ in range(missing):
        k = rng.below(4096)
        add_shot(d, SHOOTER_SHIP, rng.uniform(0.0, p.width), rng.uniform(0.0, p.height),
                 float(COS[k]) * p.shots_speed_px_per_tick,
                 float(SIN[k]) * p.shots_speed_px_per_tick, p.shots_lifetime_ticks)
    return d.freeze()


def time_crowd(n: int, collide: bool, ticks: int, runs: int) -> tuple[float, float, float]:
    """Median and 90th percentile tick time in ms, and the mean asteroid count seen."""
    cfg = crowd_config(collide)
    p = params_for(cfg)  # compiled once, as a game does: the timed step is the tick alone
    samples = []
    counts = []
    for run in range(runs):
        world = crowd_world(cfg, n, seed=100 + run)
        rng = Pcg32(*seed_state(7 + run))
        for tick in range(ticks):
            world = top_up_shots(world, p, rng)
            mask = 0 if tick % 7 else 8  # fire now and then, like a player
            t0 = time.perf_counter_ns()
            world, _ = step(world, mask, p)
            samples.append(time.perf_counter_ns() - t0)
            counts.append(world.asteroid_count)
    samples.sort()
    median = statistics.median(samples) / 1e6
    p90 = samples[int(0.9 * (len(samples) - 1))] / 1e6
    return median, p90, statistics.fmean(counts)


Recording = list[tuple[int, list[int]]]
"""Recorded games: (seed, input mask of every tick) for each."""


def resimulate(cfg: Config, games: Recording) -> list[int]:
    """Re-simulate recorded games from their inputs alone, as replay verification does;
    returns the wall time of every tick in ns."""
    p = params_for(cfg)  # compiled once, as replay verification does
    samples = []
    for game_seed, inputs in games:
        world = new_world(p, game_seed)
        for mask in inputs:
            t0 = time.perf_counter_ns()
            world, _ = step(world, mask, p)
            samples.append(time.perf_counter_ns() - t0)
    return samples


def classic_replay(cfg: Config, ticks: int, seed: int,
                   repeats: int = 1) -> tuple[float, list[float], int, Recording]:
    """Record bot games of the classic preset, then time re-simulating them from inputs alone,
    ``repeats`` times.

    A game that ends before ``ticks`` is followed by a new one (next seed), as a player
    would; the recording is a list of (seed, inputs) games.

    Returns the median tick in µs (over every repeat), the whole re-simulation time of each
    repeat in s, the most asteroids seen, and the recording.
    """
    p = params_for(cfg)
    games: Recording = [(seed, [])]
    world = new_world(p, seed)
    most = 0
    for _ in range(ticks):
        if world.game_over:
            seed += 1
            games.append((seed, []))
            world = new_world(p, seed)
        mask = bot_input(world, p.width, p.height)
        games[-1][1].append(mask)
        world, _ = step(world, mask, p)
        most = max(most, world.asteroid_count)
    samples: list[int] = []
    totals = []
    for _ in range(max(1, repeats)):
        gc.collect()
        t_all = time.perf_counter()
        samples += resimulate(cfg, games)
        totals.append(time.perf_counter() - t_all)
    return statistics.median(samples) / 1e3, totals, most, games


def classic_first_hits(cfg: Config, games: Recording) -> tuple[float, int, str]:
    """Re-simulate the recorded games once more with the simulation's ``first_hits`` wrapped
    in a timer: the shot query as replay verification calls it, inside real ticks.

    Returns the median µs per call, the number of calls, and the most bodies and the most
    shots in one query.
    """
    real = sweep.first_hits
    calls: list[int] = []
    most_bodies = most_shots = 0

    def timed(starts, ends, points, offsets, **kw):  # type: ignore[no-untyped-def]
        nonlocal most_bodies, most_shots
        t0 = time.perf_counter_ns()
        out = real(starts, ends, points, offsets, **kw)
        calls.append(time.perf_counter_ns() - t0)
        most_bodies = max(most_bodies, len(offsets) - 1)
        most_shots = max(most_shots, len(starts))
        return out

    sweep.first_hits = timed
    try:
        resimulate(cfg, games)
    finally:
        sweep.first_hits = real
    if not calls:
        return math.nan, 0, "-"
    scene = f"up to {most_bodies} bodies and {most_shots} shots"
    return statistics.median(calls) / 1e3, len(calls), scene


SEED = 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the step benchmark and print markdown tables."""
    parser = argparse.ArgumentParser(prog="asteroids bench step", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES),
                        help="crowd sizes (none: skip the crowd table)")
    parser.add_argument("--ticks", type=int, default=40, help="timed ticks per run")
    parser.add_argument("--runs", type=int, default=3, help="fresh scenes per size")
    parser.add_argument("--collide", action="store_true",
                        help="also time with asteroid-asteroid collisions on")
    parser.add_argument("--classic-ticks", type=int, default=37_500,
                        help="length of the classic replay (37 500 = 10 min at 62.5 Hz)")
    parser.add_argument("--classic-repeats", type=int, default=3,
                        help="timed re-simulations of the classic replay (median reported)")
    parser.add_argument("--no-malloc-tuning", action="store_true",
                        help="leave glibc's allocator as it is (the game tunes it at start)")
    args = parser.parse_args(argv)
    tuned = False if args.no_malloc_tuning else tune_malloc()
    gc.collect()
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}, "
          f"malloc tuning {'on' if tuned else 'off'}")
    modes = [False, True] if args.collide else [False]
    if args.sizes:
        print(f"\n## Tick time, N asteroids + {SHOTS} live shots, 1920x1080\n")
        print("| N | asteroid-asteroid | mean N during run | median ms/tick | p90 ms/tick | "
              "target |")
        print("|---:|:---:|---:|---:|---:|---|")
    for collide in modes if args.sizes else []:
        for n in args.sizes:
            median, p90, mean_n = time_crowd(n, collide, args.ticks, args.runs)
            target = TARGETS_MS.get(n)
            verdict = "" if target is None or collide else (
                f"≤ {target:g} ms: {'met' if median <= target else 'MISSED'}")
            print(f"| {n} | {'on' if collide else 'off'} | {mean_n:.0f} | {median:.3f} | "
                  f"{p90:.3f} | {verdict} |")
    if args.classic_ticks:
        classic = load_config(CLASSIC)
        tick_us, totals, most, games = classic_replay(classic, args.classic_ticks, SEED,
                                                      args.classic_repeats)
        total_s = statistics.median(totals)
        tps = args.classic_ticks / total_s
        print(f"\n## Classic preset: {args.classic_ticks} recorded bot ticks re-simulated"
              f" ({len(totals)}x)\n")
        print("| median µs/tick | whole re-simulation (median) | ticks/s | most asteroids | "
              "target |")
        print("|---:|---:|---:|---:|---|")
        verdict = "met" if tps >= CLASSIC_TARGET_TPS else "MISSED"
        aim = "reached" if tps >= CLASSIC_AIM_TPS else "not reached"
        print(f"| {tick_us:.0f} | {total_s:.2f} s | {tps:,.0f} | {most} | "
              f"≥ {CLASSIC_TARGET_TPS:,.0f} ticks/s: {verdict} "
              f"(aim {CLASSIC_AIM_TPS:,.0f}: {aim}) |")
        print("\nEach re-simulation: " + ", ".join(f"{t:.2f} s" for t in totals) + ".")
        hits_us, n_calls, scenes = classic_first_hits(classic, games)
        print("\nShot query inside the same replay (a second pass, `first_hits` wrapped in a"
              f" timer): median {hits_us:.0f} µs per call over {n_calls} calls, scenes of"
              f" {scenes}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
