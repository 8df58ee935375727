"""Baselines on the Gymnasium environment: a random agent, each persona, and a short PPO run.

Not part of the test suite (minutes of CPU). Needs the [rl] extra, and for the training run
stable-baselines3 with a CPU torch (``python -m pip install '.[rl]' torch stable-baselines3``;
on the project's machines ``pip install torch==2.13.0`` takes the local CPU build). Every
number is the mean return (the final score: the reward is the score delta) over the same
game seeds, each episode capped at ``--minutes`` of game time::

    python examples/baselines.py --episodes 20 --minutes 3 --train-steps 200000

The personas play through the same rules and seeds as the agents (``asteroids.lab.game``),
so their return is comparable: the env's return is the game's score.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import gymnasium as gym
import numpy as np

import asteroids.env  # noqa: F401  (registers the environments)
from asteroids.lab.game import play_game

ENV_ID = "asteroids/Classic-v0"


def _game_seeds(episodes: int) -> list[int]:
    return [1000 + i for i in range(episodes)]


def _run_agent(env: gym.Env, seeds: list[int], act) -> list[float]:
    returns = []
    for seed in seeds:
        obs, _ = env.reset(options={"game_seed": seed})
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(act(obs))
            total += reward
            done = terminated or truncated
        returns.append(total)
    return returns


def _line(name: str, returns: list[float], note: str = "") -> str:
    mean = statistics.fmean(returns)
    sd = statistics.stdev(returns) if len(returns) > 1 else 0.0
    return f"| {name} | {mean:,.0f} | {sd:,.0f} | {len(returns)} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--train-steps", type=int, default=200_000,
                        help="PPO steps (0: skip the training run)")
    parser.add_argument("--frame-skip", type=int, default=4, help="ticks per agent step")
    args = parser.parse_args()

    env = gym.make(ENV_ID)
    hz = float(env.unwrapped.config.world.tick_hz)
    cap = round(args.minutes * 60.0 * hz)
    seeds = _game_seeds(args.episodes)
    print(f"{ENV_ID}, {args.episodes} episodes on game seeds {seeds[0]}..{seeds[-1]}, each "
          f"to game over or {cap} ticks ({args.minutes:g} min); {platform.processor() or ''} "
          f"{platform.machine()}, Python {platform.python_version()}")
    print()
    print("| pilot | mean return | sd | episodes | note |")
    print("|---|---:|---:|---:|---|")

    env = gym.make(ENV_ID, max_ticks=cap, frame_skip=args.frame_skip)
    rng = np.random.default_rng(0)
    started = time.perf_counter()
    random_returns = _run_agent(env, seeds, lambda obs: int(rng.integers(env.action_space.n)))
    print(_line("random agent", random_returns,
                f"uniform over the 14 actions, {args.frame_skip} ticks each; "
                f"{time.perf_counter() - started:.0f} s"), flush=True)

    config = env.unwrapped.config
    for name in ("novice", "average", "expert", "perfect"):
        started = time.perf_counter()
        returns = [float(play_game(config, s, name, cap)[0].score) for s in seeds]
        print(_line(f"persona {name}", returns,
                    f"{time.perf_counter() - started:.0f} s"), flush=True)

    if args.train_steps > 0:
        try:
            from stable_baselines3 import PPO
        except ImportError:
            print("| PPO | - | - | - | stable-baselines3 is not installed |")
            return
        train_env = gym.make(ENV_ID, max_ticks=cap, frame_skip=args.frame_skip)
        model = PPO("MlpPolicy", train_env, seed=0, verbose=0, device="cpu")
        started = time.perf_counter()
        model.learn(total_timesteps=args.train_steps)
        trained_s = time.perf_counter() - started
        returns = _run_agent(env, seeds,
                             lambda obs: int(model.predict(obs, deterministic=True)[0]))
        print(_line("PPO (stable-baselines3, MlpPolicy, defaults)", returns,
                    f"{args.train_steps:,} agent steps ({args.train_steps * args.frame_skip:,} "
                    f"ticks) of training in {trained_s:.0f} s"), flush=True)


if __name__ == "__main__":
    main()
