"""Replay verification throughput: ``python -m benchmarks.verify`` or ``asteroids bench verify``.

Three measurements, all through the real replay code:

* **One long game**: a 10-minute classic bot game (37 500 ticks at 62.5 Hz; the classic
  preset with 99 ships so one game lasts the whole time) is recorded, saved, loaded and
  verified with ``verify_replay``; reports ticks per second on one core (the issue's target
  is 6 000, aim 10 000) and the time of each phase.
* **--jobs scaling**: ``asteroids verify --jobs N`` on many shorter replays (default 8 files
  of 3 000 ticks), N = 1 and 2, wall time and speed-up.
* **--profile**: a cProfile of one verification of the long game, top 15 by own time.

Times are wall clock (``time.perf_counter``) on a machine that may be busy; the README
quotes the machine and the command.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import platform
import pstats
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from asteroids import cli
from asteroids.config import load_config
from asteroids.replay import get_bot, load_replay, record_bot_game, save_replay, verify_replay
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "config" / "classic.toml"
TARGET_TICKS_PER_S = 6000.0
AIM_TICKS_PER_S = 10000.0


def long_game(ticks: int, seed: int, folder: Path) -> Path:
    """Record the classic bot game (99 ships, so it lasts) and save it; returns the file."""
    cfg = load_config(CLASSIC, overrides=["game.lives=99"])
    replay = record_bot_game(cfg, seed, get_bot("classic"), ticks)
    return save_replay(replay, folder / "long.replay")


def time_verify(path: Path, runs: int) -> tuple[float, float, int, int]:
    """Best-of-``runs`` load and verify times in s, the ticks, and the file size."""
    best_load = best_verify = float("inf")
    ticks = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        replay = load_replay(path)
        t1 = time.perf_counter()
        result = verify_replay(replay)
        t2 = time.perf_counter()
        if not result.ok:
            raise SystemExit(f"benchmark replay does not verify: {result.problem}")
        best_load, best_verify = min(best_load, t1 - t0), min(best_verify, t2 - t1)
        ticks = replay.ticks
    return best_load, best_verify, ticks, path.stat().st_size


def time_jobs(files: list[Path], jobs: int) -> float:
    """Wall time of ``asteroids verify --jobs N`` over ``files`` (output swallowed)."""
    with contextlib.redirect_stdout(io.StringIO()):
        t0 = time.perf_counter()
        code = cli.main(["verify", "--jobs", str(jobs), *map(str, files)])
        elapsed = time.perf_counter() - t0
    if code != 0:
        raise SystemExit(f"verify --jobs {jobs} exited {code}")
    return elapsed


def profile(path: Path, top: int) -> str:
    """cProfile of one verification, the ``top`` entries by own time, as text."""
    replay = load_replay(path)
    prof = cProfile.Profile()
    prof.enable()
    verify_replay(replay)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the verify benchmark and print markdown tables."""
    parser = argparse.ArgumentParser(prog="asteroids bench verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ticks", type=int, default=37_500,
                        help="length of the long game (37 500 = 10 min at 62.5 Hz)")
    parser.add_argument("--runs", type=int, default=1, help="verifications of the long game")
    parser.add_argument("--files", type=int, default=8, help="replays for --jobs scaling")
    parser.add_argument("--file-ticks", type=int, default=3000, help="ticks per such replay")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2],
                        help="worker counts to compare")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of one verification (top 15 by own time)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tuned = tune_malloc()
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}, "
          f"malloc tuning {'on' if tuned else 'off'}")
    with tempfile.TemporaryDirectory(prefix="asteroids-bench-verify-") as tmp:
        folder = Path(tmp)
        if args.ticks:
            t0 = time.perf_counter()
            path = long_game(args.ticks, args.seed, folder)
            record_s = time.perf_counter() - t0
            load_s, verify_s, ticks, size = time_verify(path, args.runs)
            rate = ticks / verify_s
            verdict = ("aim met" if rate >= AIM_TICKS_PER_S else
                       "target met" if rate >= TARGET_TICKS_PER_S else "MISSED")
            print(f"\n## One classic bot game: {ticks} ticks re-simulated\n")
            print("| file size | record | load | verify | ticks/s | µs/tick | target |")
            print("|---:|---:|---:|---:|---:|---:|---|")
            print(f"| {size / 1000:.1f} kB | {record_s:.1f} s | {load_s * 1000:.0f} ms | "
                  f"{verify_s:.2f} s | {rate:.0f} | {1e6 / rate:.0f} | "
                  f"≥ {TARGET_TICKS_PER_S:.0f} (aim {AIM_TICKS_PER_S:.0f}): {verdict} |")
            if args.profile:
                print("\n## Where one verification spends its time (cProfile, own time)\n")
                print("```")
                print(profile(path, 15).strip())
                print("```")
        if args.files and args.jobs:
            cfg = load_config(CLASSIC, overrides=["game.lives=99"])
            files = [save_replay(record_bot_game(cfg, 100 + i, get_bot("classic"),
                                                 args.file_ticks), folder / f"f{i}.replay")
                     for i in range(args.files)]
            total = args.files * args.file_ticks
            print(f"\n## asteroids verify --jobs N: {args.files} files of "
                  f"{args.file_ticks} ticks\n")
            print("| jobs | wall time | ticks/s | speed-up |")
            print("|---:|---:|---:|---:|")
            base = None
            for jobs in args.jobs:
                elapsed = time_jobs(files, jobs)
                base = base or elapsed
                print(f"| {jobs} | {elapsed:.2f} s | {total / elapsed:.0f} | "
                      f"{base / elapsed:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
