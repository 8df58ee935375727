"""Env-steps per second of the vector environment: ``python -m benchmarks.env`` or
``asteroids bench env``.

``AsteroidsVectorEnv`` (what ``gym.make_vec(..., vectorization_mode="vector_entry_point")``
makes) at B = 1, 64, 1 024 and 4 096 games, random actions, frame skip 1 by default:
env-steps per second (B per ``step``) over ``--steps`` steps after ``--warmup`` unmeasured
ones, and the share of the step's time spent building observations (the env's ``_observe``,
timed around each call). The games start from their first tick, so the rates are those of
the early waves.

Wall clock on a machine that may be busy: run it on an idle machine and quote the machine
line it prints.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmarks._util import cpu_name, tune_malloc

__all__ = ["env_row", "main"]

SIZES = (1, 64, 1024, 4096)
"""The batch sizes issue 36 asks for."""
TARGETS = ("issue 36's targets at B = 4 096, classic, frame skip 1: at least 150 000 "
           "env-steps/s, observations at most 15 % of a vector step")


def env_row(preset: str, games: int, steps: int, warmup: int, frame_skip: int,
            seed: int = 0, obs_type: str = "vector") -> tuple[float, float]:
    """``(env-steps per second, share of the time in observations)`` of a vector env of
    ``games`` games of ``preset`` stepped ``steps`` times with random actions
    (``obs_type``: ``"grayscale"`` and ``"rgb"`` time 84 x 84 frames)."""
    from asteroids.env.vector import AsteroidsVectorEnv

    env = AsteroidsVectorEnv(games, preset, frame_skip=frame_skip, max_ticks=10**9,
                             obs_type=obs_type)
    observe = env._observe
    spent = [0.0]

    def timed(*args: Any, **kwargs: Any) -> np.ndarray:
        t0 = time.perf_counter()
        out = observe(*args, **kwargs)
        spent[0] += time.perf_counter() - t0
        return out

    env._observe = timed  # type: ignore[method-assign]
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = rng.integers(0, env.single_action_space.n, size=(warmup + steps, games))
    for a in actions[:warmup]:
        env.step(a)
    spent[0] = 0.0
    t0 = time.perf_counter()
    for a in actions[warmup:]:
        env.step(a)
    total = time.perf_counter() - t0
    return games * steps / total, spent[0] / total


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="asteroids bench env", description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--presets", nargs="+", default=["classic"])
    parser.add_argument("--steps", type=int, default=200, help="measured steps per size")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured steps first")
    parser.add_argument("--frame-skip", type=int, default=1)
    parser.add_argument("--obs-type", default="vector", choices=["vector", "grayscale", "rgb"],
                        help="observations: the vector, or 84 x 84 frames")
    args = parser.parse_args(argv)
    tune_malloc()
    print(f"machine: {cpu_name()}")
    print(f"{args.steps} steps after {args.warmup}, frame skip {args.frame_skip}, "
          f"random actions, {args.obs_type} observations\n")
    print("| preset | B | env-steps/s | observations, share of a step |")
    print("|---|---:|---:|---:|")
    for preset in args.presets:
        for games in args.sizes:
            rate, share = env_row(preset, games, args.steps, args.warmup, args.frame_skip,
                                  obs_type=args.obs_type)
            print(f"| {preset} | {games} | {rate:,.0f} | {100 * share:.1f} % |", flush=True)
    print(f"\n{TARGETS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
