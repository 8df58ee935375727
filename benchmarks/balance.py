"""Balance-run throughput: ``python -m benchmarks.balance`` or ``asteroids bench balance``.

Bot games per second of ``asteroids balance`` on the classic preset with the aimer, every
game the same length (99 ships, so no game ends before the tick cap), through the real
``asteroids.lab.run.run_balance``:

* each local engine (``--engines``: ``pool``, one game per task, and ``batch``, each
  worker's games as one batch) with ``--jobs 1`` (in this process) and ``--jobs N`` for
  every core, and ``--engine ray`` on a local Ray with every core, on the same games; the
  results of all are checked equal before anything is printed;
* Ray's overhead, measured apart: starting and stopping the local Ray, and the cost per
  game of a task that does almost nothing (games of 1 tick), beside the pool's.

Times are wall clock on a machine that may be busy; the README quotes the machine, its
load and the command.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from asteroids.config import load_config
from asteroids.lab.game import GameResult
from asteroids.lab.run import Side, run_balance
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name


def _side(ticks: int) -> Side:
    config = load_config("classic", overrides=["game.lives=99"])
    return Side("A", "classic, game.lives=99", config, ticks, ("classic",), ("game.lives=99",))


def _timed(side: Side, games: int, seed: int, *, engine: str = "pool",
           jobs: int | None = None) -> tuple[float, list[GameResult]]:
    t0 = time.perf_counter()
    run = run_balance([side], bot="aimer", games=games, seed=seed, engine=engine, jobs=jobs)
    return time.perf_counter() - t0, run.results[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print markdown tables."""
    parser = argparse.ArgumentParser(prog="asteroids bench balance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=16, help="games per engine")
    parser.add_argument("--ticks", type=int, default=3000,
                        help="ticks per game (3000 = 48 s of classic game time)")
    parser.add_argument("--tiny", type=int, default=200,
                        help="1-tick games for the per-game overhead (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-ray", action="store_true", help="leave Ray out")
    parser.add_argument("--engines", default="pool,batch",
                        help="local engines to time, comma-separated (default %(default)s; "
                        "Ray is added unless --no-ray)")
    args = parser.parse_args(argv)
    tuned = tune_malloc()
    cores = os.cpu_count() or 1
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    ray: Any = None
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            print("(Ray is not installed: python -m pip install '.[cluster]'; left out)")
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}, "
          f"malloc tuning {'on' if tuned else 'off'}; load average at start {load}"
          + (f"; Ray {ray.__version__}" if ray else ""))

    side = _side(args.ticks)
    rows: list[tuple[str, float, str | None]] = []
    base_s = float("nan")
    base = None
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        for jobs in (1, cores):
            seconds, results = _timed(side, args.games, args.seed, engine=engine, jobs=jobs)
            if base is None:
                base_s, base = seconds, results
            assert results == base, f"{engine} --jobs {jobs} gives other results"
            where = " (in process)" if jobs == 1 else ""
            rows.append((f"{engine}, --jobs {jobs}{where}", seconds, None))
    ray_start = ray_stop = float("nan")
    if ray:
        t0 = time.perf_counter()
        ray.init(address="local", num_cpus=cores, include_dashboard=False,
                 log_to_driver=False, logging_level="ERROR")
        ray_start = time.perf_counter() - t0
        ray_s, on_ray = _timed(side, args.games, args.seed, engine="ray")
        assert on_ray == base, "Ray's results differ from --jobs 1"
        rows.append((f"--engine ray (local, {cores} CPUs)", ray_s,
                     f"+ {ray_start:.1f} s to start Ray"))

    total_ticks = args.games * args.ticks
    print(f"\n## {args.games} aimer games of classic, {args.ticks} ticks each "
          f"({args.ticks / side.config.world.tick_hz:g} s of game time)\n")
    print("| engine | wall time | games/s | ticks/s | speed-up | note |")
    print("|---|---:|---:|---:|---:|---|")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.2f} s | {args.games / seconds:.2f} | "
              f"{total_ticks / seconds:.0f} | {base_s / seconds:.2f}x | {note or ''} |")

    if args.tiny:
        tiny = _side(1)
        pool_tiny, _ = _timed(tiny, args.tiny, args.seed, jobs=cores)
        print(f"\n## Overhead per game: {args.tiny} games of 1 tick\n")
        print("| engine | wall time | per game |")
        print("|---|---:|---:|")
        print(f"| pool, --jobs {cores} (incl. starting {cores} workers) | {pool_tiny:.2f} s | "
              f"{pool_tiny / args.tiny * 1e3:.1f} ms |")
        if ray:
            ray_tiny, _ = _timed(tiny, args.tiny, args.seed, engine="ray")
            print(f"| --engine ray (Ray already running) | {ray_tiny:.2f} s | "
                  f"{ray_tiny / args.tiny * 1e3:.1f} ms |")
    if ray:
        t0 = time.perf_counter()
        ray.shutdown()
        ray_stop = time.perf_counter() - t0
        print(f"\nStarting the local Ray took {ray_start:.1f} s and stopping it "
              f"{ray_stop:.1f} s (once per run, on top of the games).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
