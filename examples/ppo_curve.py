"""The learning curve of an ``examples/ppo.py`` run: return and game length against env steps.

Reads the run's CSV (one row per finished game) and draws the mean over bins of env steps,
with the novice persona's median (``python -m asteroids.env.evaluation --persona novice``)
and the random policy's mean (``asteroids.env.evaluation.RANDOM``) for scale::

    python examples/ppo_curve.py docs/researchers/ppo-classic.csv docs/img/ppo-classic.png \\
        --novice 1880
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

RANDOM_CLASSIC = 361.0
"""asteroids.env.evaluation.RANDOM["classic"], copied so this needs no gymnasium."""


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", type=Path)
    p.add_argument("png", type=Path)
    p.add_argument("--bins", type=int, default=50, help="bins of env steps")
    p.add_argument("--novice", type=float, help="the novice persona's median, drawn as a line")
    p.add_argument("--title", default="PPO (examples/ppo.py) on asteroids/Classic-v1")
    args = p.parse_args(argv)
    with args.csv.open() as f:
        rows = list(csv.DictReader(f))
    steps = np.array([float(r["env_steps"]) for r in rows])
    returns = np.array([float(r["return"]) for r in rows])
    lengths = np.array([float(r["length"]) for r in rows])
    edges = np.linspace(0, steps.max(), args.bins + 1)
    which = np.clip(np.digitize(steps, edges) - 1, 0, args.bins - 1)
    has = np.bincount(which, minlength=args.bins) > 0
    mid = ((edges[:-1] + edges[1:]) / 2)[has]

    def binned(values: np.ndarray) -> np.ndarray:
        total = np.bincount(which, values, minlength=args.bins)
        return (total / np.maximum(np.bincount(which, minlength=args.bins), 1))[has]

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    top.plot(mid / 1e6, binned(returns), color="tab:blue", label="PPO, mean return per bin")
    top.axhline(RANDOM_CLASSIC, color="grey", ls=":",
                label=f"random policy, mean ({RANDOM_CLASSIC:.0f})")
    if args.novice is not None:
        top.axhline(args.novice, color="tab:red", ls="--",
                    label=f"novice persona, median ({args.novice:.0f})")
    top.set_ylabel("return (game score)")
    top.legend(loc="upper left", fontsize=8)
    top.set_title(args.title, fontsize=10)
    bottom.plot(mid / 1e6, binned(lengths), color="tab:green")
    bottom.set_ylabel("game length (env steps)")
    bottom.set_xlabel("env steps (millions; 4 ticks each)")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    fig.tight_layout()
    args.png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.png, dpi=100)
    print(f"{args.png}: {len(rows)} games, {steps.max():.0f} env steps")


if __name__ == "__main__":
    main()
