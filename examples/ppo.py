"""PPO on the batched vector env, in one file (CleanRL style; torch the only heavy dependency).

Trains an MLP actor-critic on ``asteroids/Classic-v1`` (the ALE v5 protocol: frame skip 4,
sticky actions 0.25) with B games in one ``AsteroidsVectorEnv`` (``gym.make_vec(...,
vectorization_mode="vector_entry_point")``), logs every finished game (env steps, wall time,
return, length) to a CSV, saves the weights, then evaluates the policy by the protocol of
``asteroids.env.evaluation`` (EVAL_SEEDS, EVAL_CAP, human-normalised score). Needs the
``[rl-train]`` extra (``torch``; see docs/researchers/training.md for a CPU-only install)::

    python examples/ppo.py --total-steps 2000000 --csv runs/ppo.csv --save runs/ppo.pt
    python examples/ppo.py --evaluate runs/ppo.pt          # the protocol only

Differences from CleanRL's ppo.py, each for this env: Gymnasium's "next step" autoreset (a
step after a game ended only starts the next game: its action is ignored and its
transition is left out of the loss, ``valid``); a truncated game bootstraps from its last
observation (the next step's observation, before the restart); a lost life ends the value's
horizon (``--life-loss-terminal``, as ALE's EpisodicLifeEnv, while the game goes on);
rewards are the score times ``--reward-scale``, less ``--life-penalty`` for a lost life.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import asteroids.env  # noqa: F401  (registers the ids)
from asteroids.env.evaluation import (
    EVAL_CAP,
    EVAL_SEEDS,
    evaluate,
    evaluate_pilot,
    human_normalised,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env-id", default="asteroids/Classic-v1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-steps", type=int, default=2_000_000, help="env steps, all games")
    p.add_argument("--num-envs", type=int, default=64, help="games in the batch (B)")
    p.add_argument("--num-steps", type=int, default=64, help="steps per game per rollout")
    p.add_argument("--lr", type=float, default=2.5e-4, help="Adam's, annealed to 0")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--ent-coef-final", type=float,
                   help="anneal the entropy coefficient linearly to this (default: constant)")
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=256, help="units in each of 2 layers")
    p.add_argument("--reward-scale", type=float, default=0.01)
    p.add_argument("--life-loss-terminal", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--life-penalty", type=float, default=0.0,
                   help="subtracted from the (scaled) reward of a step that loses a life")
    p.add_argument("--max-episode-steps", type=int, default=EVAL_CAP,
                   help="training games are cut here (the evaluation's cap)")
    p.add_argument("--frame-stack", type=int, default=1,
                   help="the env's frame_stack: the last k observations, flattened (1: none)")
    p.add_argument("--max-wall-s", type=float,
                   help="stop after this many seconds of training (annealing follows the "
                        "larger of the step and the time fraction), then save and evaluate")
    p.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    p.add_argument("--csv", type=Path, help="one row per finished game")
    p.add_argument("--save", type=Path, help="the trained weights (torch state dict)")
    p.add_argument("--evaluate", type=Path, metavar="WEIGHTS",
                   help="no training: evaluate these weights by the protocol")
    p.add_argument("--no-eval", action="store_true", help="skip the evaluation after training")
    p.add_argument("--eval-episodes", type=int, default=len(EVAL_SEEDS),
                   help="the first N of EVAL_SEEDS (the protocol: all)")
    p.add_argument("--greedy", action="store_true",
                   help="evaluate the most likely action instead of a sampled one")
    return p.parse_args(argv)


def layer(n_in: int, n_out: int, std: float = 2**0.5) -> nn.Linear:
    out = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(out.weight, std)
    nn.init.constant_(out.bias, 0.0)
    return out


class Agent(nn.Module):
    """Separate actor and critic MLPs (two tanh layers each), orthogonal init."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer(n_obs, hidden), nn.Tanh(), layer(hidden, hidden),
                                    nn.Tanh(), layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(n_obs, hidden), nn.Tanh(), layer(hidden, hidden),
                                   nn.Tanh(), layer(hidden, n_actions, 0.01))

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        """The actor's logits; a stacked observation (B, k, n) is flattened to (B, k * n)."""
        return self.actor(x.flatten(1))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x.flatten(1)).squeeze(-1)

    def act(self, x: torch.Tensor, action: torch.Tensor | None = None):
        dist = Categorical(logits=self.logits(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(x)


class TorchPolicy:
    """The trained actor as an evaluation policy: actions sampled from its distribution by a
    generator seeded with each episode's seed (so an evaluation is reproducible), or the
    most likely action (``greedy``)."""

    def __init__(self, agent: Agent, greedy: bool = False) -> None:
        self.agent, self.gen = agent, torch.Generator().manual_seed(0)
        self.greedy = greedy

    def reset(self, seed: int) -> None:
        self.gen.manual_seed(seed)

    @torch.no_grad()
    def __call__(self, obs: np.ndarray, env: object) -> int:
        logits = self.agent.logits(torch.as_tensor(obs)[None])[0]
        if self.greedy:
            return int(logits.argmax())
        return int(torch.multinomial(torch.softmax(logits, -1), 1, generator=self.gen))


def run_evaluation(agent: Agent, env_id: str, episodes: int = len(EVAL_SEEDS),
                   greedy: bool = False, frame_stack: int = 1) -> None:
    """The trained policy and the novice persona by the protocol (asteroids.env.evaluation);
    a policy trained on stacked observations sees the same stack (the env's option)."""
    started = time.perf_counter()
    stack = {"frame_stack": frame_stack} if frame_stack > 1 else {}
    ours = evaluate(TorchPolicy(agent, greedy), env_id, episodes=episodes, **stack)
    novice = evaluate_pilot("novice", env_id, episodes=episodes)
    print(f"evaluation ({env_id}, seeds {EVAL_SEEDS[0]}..{EVAL_SEEDS[episodes - 1]}, "
          f"cap {EVAL_CAP} steps, {time.perf_counter() - started:.0f} s):")
    for name, e in (("ppo" + " (greedy)" * greedy, ours), ("novice persona", novice)):
        print(f"  {name}: median {e.median:.0f}, mean {e.mean:.1f} (human-normalised "
              f"{human_normalised(e.mean):.4f}), sd {e.std:.0f}, mean length "
              f"{e.mean_length:.0f} steps; scores {[round(s) for s in e.scores]}")


def train(args: argparse.Namespace, agent: Agent, envs: gym.vector.VectorEnv) -> int:
    """Train ``agent`` in place; returns the env steps played (restart steps not counted)."""
    n, steps = args.num_envs, args.num_steps
    batch = n * steps
    updates = max(1, args.total_steps // batch)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    shape = envs.single_observation_space.shape
    obs_buf = torch.zeros((steps + 1, n, *shape))
    act_buf = torch.zeros((steps, n), dtype=torch.long)
    logp_buf, val_buf, rew_buf = (torch.zeros((steps, n)) for _ in range(3))
    cut_buf, term_buf, valid_buf = (torch.zeros((steps, n)) for _ in range(3))

    writer = None
    if args.csv:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        out = args.csv.open("w", newline="")
        writer = csv.writer(out)
        writer.writerow(["env_steps", "wall_s", "return", "length", "wave"])
    obs, info = envs.reset(seed=args.seed)
    lives = info["lives"].copy()
    valid = np.ones(n, dtype=bool)          # False: this step only restarts an ended game
    ret, length = np.zeros(n), np.zeros(n, dtype=np.int64)
    global_step, started, recent = 0, time.perf_counter(), []
    ent_final = args.ent_coef if args.ent_coef_final is None else args.ent_coef_final
    for update in range(1, updates + 1):
        done = (update - 1) / updates
        if args.max_wall_s:
            done = max(done, (time.perf_counter() - started) / args.max_wall_s)
            if done >= 1.0:
                print(f"stopped by --max-wall-s after {update - 1} updates", flush=True)
                break
        for g in opt.param_groups:
            g["lr"] = args.lr * (1.0 - done)
        ent_coef = args.ent_coef + (ent_final - args.ent_coef) * done
        for t in range(steps):
            obs_buf[t] = torch.as_tensor(obs)
            valid_buf[t] = torch.as_tensor(valid)
            with torch.no_grad():
                action, logp, _, value = agent.act(obs_buf[t])
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            global_step += int(valid.sum())
            lost = valid & (info["lives"] < lives)
            lives = info["lives"].copy()
            ended = terminated | truncated
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            rew_buf[t] = torch.as_tensor(reward * args.reward_scale - lost * args.life_penalty,
                                         dtype=torch.float32)
            lost &= args.life_loss_terminal
            term_buf[t] = torch.as_tensor(terminated | lost, dtype=torch.float32)
            cut_buf[t] = torch.as_tensor(ended | lost | ~valid, dtype=torch.float32)
            ret += np.where(valid, reward, 0.0)
            length += valid
            for i in np.flatnonzero(ended & valid):
                recent.append(ret[i])
                if writer is not None:
                    writer.writerow([global_step, round(time.perf_counter() - started, 1),
                                     int(ret[i]), int(length[i]), int(info["wave"][i])])
            ret[ended], length[ended] = 0.0, 0
            valid = ~ended
        obs_buf[steps] = torch.as_tensor(obs)

        with torch.no_grad():   # GAE; a transition's "next value" is the next step's obs
            values = torch.cat([val_buf, agent.value(obs_buf[steps])[None]])
            adv = torch.zeros((steps, n))
            last = torch.zeros(n)
            for t in reversed(range(steps)):
                delta = rew_buf[t] + args.gamma * values[t + 1] * (1 - term_buf[t]) - values[t]
                last = delta + args.gamma * args.gae_lambda * (1 - cut_buf[t]) * last
                adv[t] = last * valid_buf[t]
            returns = adv + val_buf

        keep = valid_buf.reshape(-1).bool()
        b_obs = obs_buf[:steps].reshape(-1, *shape)[keep]
        b_act, b_logp = act_buf.reshape(-1)[keep], logp_buf.reshape(-1)[keep]
        b_adv, b_ret = adv.reshape(-1)[keep], returns.reshape(-1)[keep]
        for _ in range(args.epochs):
            for idx in torch.randperm(b_obs.shape[0]).tensor_split(args.minibatches):
                _, logp, entropy, value = agent.act(b_obs[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg - ent_coef * entropy.mean() + args.vf_coef * v_loss
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                opt.step()
        if update % 10 == 0 or update == updates:
            wall = time.perf_counter() - started
            mean = f"{np.mean(recent):.0f}" if recent else "-"
            print(f"update {update}/{updates}: {global_step} env steps, {wall:.0f} s, "
                  f"{global_step / wall:.0f} steps/s, mean return of {len(recent)} games {mean}, "
                  f"value loss {v_loss.item():.3f}, entropy {entropy.mean().item():.2f}",
                  flush=True)
            recent = []
            if writer is not None:
                out.flush()
    if writer is not None:
        out.close()
    return global_step


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.evaluate:
        state = torch.load(args.evaluate, map_location="cpu")
        agent = Agent(state["n_obs"], state["n_actions"], state["hidden"])
        agent.load_state_dict(state["weights"])
        run_evaluation(agent, state["env_id"], args.eval_episodes, args.greedy,
                       state.get("frame_stack", 1))
        return
    envs = gym.make_vec(args.env_id, num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point",
                        max_episode_steps=args.max_episode_steps,
                        **({"frame_stack": args.frame_stack} if args.frame_stack > 1 else {}))
    n_obs = int(np.prod(envs.single_observation_space.shape))
    n_actions = int(envs.single_action_space.n)
    agent = Agent(n_obs, n_actions, args.hidden)
    started = time.perf_counter()
    played = train(args, agent, envs)
    print(f"trained {played} env steps in {time.perf_counter() - started:.0f} s "
          f"(pid {os.getpid()})", flush=True)
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"weights": agent.state_dict(), "n_obs": n_obs, "n_actions": n_actions,
                    "hidden": args.hidden, "env_id": args.env_id,
                    "frame_stack": args.frame_stack}, args.save)
    if not args.no_eval:
        run_evaluation(agent, args.env_id, args.eval_episodes, args.greedy, args.frame_stack)


if __name__ == "__main__":
    main()
