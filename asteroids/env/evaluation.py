"""The evaluation protocol and the human-normalised score (the ``[rl]`` extra).

``evaluate(policy, env_id)`` plays one episode on each of ``EVAL_SEEDS`` (``reset(seed=S)``,
so the game seed and the sticky-action draws follow from S), each to its end or ``EVAL_CAP``
steps, and returns the mean, median and standard deviation of the scores and the episode
lengths. ``human_normalised(score, ruleset)`` is ``(score - RANDOM) / (EXPERT - RANDOM)``
with both figures measured by this same protocol on the ruleset's -v1 id::

    python -m asteroids.env.evaluation --policy random --env asteroids/Classic-v1
    python -m asteroids.env.evaluation --policy aimer --env asteroids/Classic-v1

The "expert" is the core's aimer bot (``asteroids.core.bot.aimer_bot``) deciding once per
step, not the expert persona: a persona pilot reads every tick's World (its reaction delay
indexes a per-tick history), which an env step of 4 ticks does not show it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

from asteroids.core.inputs import InputFrame

__all__ = ["EVAL_CAP", "EVAL_SEEDS", "EXPERT", "RANDOM", "Evaluation", "RandomPolicy",
           "action_for_mask", "bot_policy", "evaluate", "evaluate_pilot", "human_normalised"]

EVAL_SEEDS: tuple[int, ...] = tuple(range(1000, 1010))
"""The ten ``reset`` seeds of an evaluation, one episode each."""
EVAL_CAP = 4_500
"""Steps an evaluation episode may last: 18 000 ticks, 5 minutes of game at 60 Hz (the v1
ids' own cap, 27 000 steps, would make the expert's episodes six times as long)."""

Policy = Callable[[np.ndarray, Any], int]
"""``policy(observation, env) -> action``; ``env`` is the unwrapped ``AsteroidsEnv``. A
policy with a ``reset(seed)`` method has it called before each episode."""

RANDOM = {"classic": 361.0}
"""The random policy's mean score by this protocol (``RandomPolicy``, v1 id), per ruleset."""
EXPERT = {"classic": 38550.0}
"""The aimer bot's mean score by this protocol (``bot_policy("aimer")``, v1 id). Both were
measured by ``main`` above on asteroids/Classic-v1 (10 seeds, cap 4 500 steps): random mean
361.0 (median 275, sd 199, 382 steps; 4 s), aimer mean 38 550.0 (median 45 785, sd 15 250,
3 507 steps; 30 s)."""


@dataclass(frozen=True)
class Evaluation:
    """Scores and episode lengths (steps) of an evaluation, with their summaries."""

    scores: tuple[float, ...]
    lengths: tuple[int, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def median(self) -> float:
        return statistics.median(self.scores)

    @property
    def std(self) -> float:
        return statistics.pstdev(self.scores)

    @property
    def mean_length(self) -> float:
        return statistics.fmean(self.lengths)


def evaluate(policy: Policy, env_id: str = "asteroids/Classic-v1", *,
             seeds: tuple[int, ...] = EVAL_SEEDS, episodes: int | None = None,
             cap: int = EVAL_CAP, **env_kwargs: Any) -> Evaluation:
    """Play ``episodes`` episodes (default: one per seed) on ``seeds[i]``, each to its end or
    ``cap`` steps; the score is the episode's summed reward."""
    count = len(seeds) if episodes is None else episodes
    if not 1 <= count <= len(seeds):
        raise ValueError(f"episodes must be 1 to {len(seeds)}; got {count}")
    env = gym.make(env_id, **env_kwargs)
    scores, lengths = [], []
    for seed in seeds[:count]:
        obs, _ = env.reset(seed=seed)
        if hasattr(policy, "reset"):
            policy.reset(seed)
        total, steps, done = 0.0, 0, False
        while not done and steps < cap:
            obs, reward, terminated, truncated, _ = env.step(policy(obs, env.unwrapped))
            total += float(reward)
            steps += 1
            done = terminated or truncated
        scores.append(total)
        lengths.append(steps)
    env.close()
    return Evaluation(tuple(scores), tuple(lengths))


def evaluate_pilot(name: str, env_id: str = "asteroids/Classic-v1", *,
                   seeds: tuple[int, ...] = EVAL_SEEDS, episodes: int | None = None,
                   cap: int = EVAL_CAP) -> Evaluation:
    """A persona (``novice``, ``average``, ``expert``) or a core bot by the same protocol, as
    far as one can follow it: on each seed's game (the game seed ``reset(seed=S)`` draws),
    to game over or ``cap`` steps of the env's frame skip, deciding every tick as in the game
    (a persona cannot act once per env step; no sticky actions). The length is in env steps
    (ticks over the frame skip, rounded up)."""
    from asteroids.lab.game import play_game

    count = len(seeds) if episodes is None else episodes
    if not 1 <= count <= len(seeds):
        raise ValueError(f"episodes must be 1 to {len(seeds)}; got {count}")
    env = gym.make(env_id)
    unwrapped = env.unwrapped
    ticks = min(cap * unwrapped.frame_skip, unwrapped.max_ticks)
    scores, lengths = [], []
    for seed in seeds[:count]:
        _, info = env.reset(seed=seed)
        result, _ = play_game(unwrapped.config, info["game_seed"], name, ticks)
        scores.append(float(result.score))
        lengths.append(-(-result.ticks // unwrapped.frame_skip))
    env.close()
    return Evaluation(tuple(scores), tuple(lengths))


def human_normalised(score: float, ruleset: str = "classic") -> float:
    """``(score - RANDOM) / (EXPERT - RANDOM)`` of ``ruleset``: 0 plays like the random
    policy, 1 like the expert (the aimer bot) by this protocol."""
    return (score - RANDOM[ruleset]) / (EXPERT[ruleset] - RANDOM[ruleset])


class RandomPolicy:
    """Uniform over the 14 actions, from a generator seeded by each episode's seed."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, env: Any) -> int:
        return int(self.rng.integers(env.action_space.n))


def action_for_mask(mask: int) -> int:
    """The env action nearest a button mask: turn, thrust and fire kept (left and right
    together: no turn), else hyperspace, else the shield."""
    left, right = bool(mask & InputFrame.LEFT), bool(mask & InputFrame.RIGHT)
    turn = 1 if left and not right else 2 if right and not left else 0
    thrust, fire = int(bool(mask & InputFrame.THRUST)), int(bool(mask & InputFrame.FIRE))
    if turn or thrust or fire:
        return turn * 4 + thrust * 2 + fire
    return 12 if mask & InputFrame.HYPERSPACE else 13 if mask & InputFrame.SHIELD else 0


def bot_policy(name: str = "aimer") -> Policy:
    """A core bot (``asteroids.core.bot.BOTS``) as a policy: it reads the env's World once a
    step and its buttons become the nearest action."""
    from asteroids.core.bot import BOTS

    bot = BOTS[name]
    return lambda obs, env: action_for_mask(bot(env.world, env.config))


def main(argv: list[str] | None = None) -> None:
    """``python -m asteroids.env.evaluation --policy random|aimer --env ID`` (running it
    imports ``asteroids.env`` first, which registers the ids)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", choices=("random", "aimer"), default="random")
    parser.add_argument("--persona", choices=("novice", "average", "expert"),
                        help="evaluate this persona (evaluate_pilot) instead of --policy")
    parser.add_argument("--env", default="asteroids/Classic-v1")
    parser.add_argument("--episodes", type=int, default=len(EVAL_SEEDS))
    parser.add_argument("--cap", type=int, default=EVAL_CAP)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.persona:
        result = evaluate_pilot(args.persona, args.env, episodes=args.episodes, cap=args.cap)
    else:
        policy: Policy = RandomPolicy() if args.policy == "random" else bot_policy("aimer")
        result = evaluate(policy, args.env, episodes=args.episodes, cap=args.cap)
    print(f"{args.persona or args.policy} on {args.env}: "
          f"seeds {EVAL_SEEDS[0]}..{EVAL_SEEDS[args.episodes - 1]},"
          f" cap {args.cap} steps; mean {result.mean:.1f}, median {result.median:.1f}, "
          f"sd {result.std:.1f}, mean length {result.mean_length:.1f} steps; "
          f"scores {[round(s) for s in result.scores]}; "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
