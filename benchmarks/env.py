"""Env-steps per second of the environments, ours and the peers': ``python -m benchmarks.env``
or ``asteroids bench env``.

Ours: the single environment (``AsteroidsEnv``, what ``gym.make`` makes) and the vector
environment (``AsteroidsVectorEnv``, what ``gym.make_vec(...,
vectorization_mode="vector_entry_point")`` makes) at B = 1, 64, 1 024 and 4 096 games,
random actions, frame skip 1 by default, for each observation type asked (the 68-number
vector, 84 x 84 grayscale frames): env-steps per second (B per ``step``) over ``--steps``
steps after ``--warmup`` unmeasured ones, and the share of the step's time spent building
observations (the env's ``_observe``, timed around each call). The games start from their
first tick, so the rates are those of the early waves.

The peers, where installed, in the same run (each on one thread): ALE's ``Asteroids-v5``
(``pip install ale-py``: the Atari 2600 game under Stella, 4 emulator frames a step, sticky
actions 0.25; RAM and 84 x 84 grayscale observations through Gymnasium's
``AtariPreprocessing``), EnvPool's ``Asteroids-v5`` (``pip install envpool``: the same
emulator in C++ threads, 84 x 84 grayscale frames, one thread, a batch of B) and gymnax's
MinAtar ``SpaceInvaders`` (``pip install gymnax``: jax, ``jit`` of ``vmap`` over B games on
the CPU). A peer that is not installed gets a row saying how to install it.

Wall clock on a machine that may be busy: run it on an idle machine and quote the machine
line it prints.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks._util import cpu_name, tune_malloc

__all__ = ["EnvRow", "ale_rows", "env_row", "envpool_row", "gymnax_row", "main",
           "profile_vector", "single_row"]

SIZES = (1, 64, 1024, 4096)
"""The batch sizes issue 36 asks for."""
TARGETS = ("issue 36's targets at B = 4 096, classic, frame skip 1: at least 150 000 "
           "env-steps/s with vector observations, at least 30 000 with 84 x 84 grayscale "
           "pixels (15x EnvPool's per-thread pixel rate), observations at most 15 % of a "
           "vector step")


@dataclass(frozen=True)
class EnvRow:
    """One row of the table: ``rate`` None when the engine is not installed (``note`` says
    how to get it)."""

    engine: str
    observations: str
    games: int
    rate: float | None
    share: float | None = None
    note: str = ""

    def line(self) -> str:
        rate = "-" if self.rate is None else f"{self.rate:,.0f}"
        share = "" if self.share is None else f"{100 * self.share:.1f} %"
        return (f"| {self.engine} | {self.observations} | {self.games} | {rate} | {share} "
                f"| {self.note} |")


def _timed_observe(owner: Any, name: str = "_observe") -> list[float]:
    """Wrap ``owner.<name>`` (what builds the observations) to add its wall time to the
    returned one-element list."""
    observe = getattr(owner, name)
    spent = [0.0]

    def timed(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        out = observe(*args, **kwargs)
        spent[0] += time.perf_counter() - t0
        return out

    setattr(owner, name, timed)
    return spent


def env_row(preset: str, games: int, steps: int, warmup: int, frame_skip: int,
            seed: int = 0, obs_type: str = "vector") -> tuple[float, float]:
    """``(env-steps per second, share of the time in observations)`` of a vector env of
    ``games`` games of ``preset`` stepped ``steps`` times with random actions
    (``obs_type``: ``"grayscale"`` and ``"rgb"`` time 84 x 84 frames)."""
    from asteroids.env.vector import AsteroidsVectorEnv

    env = AsteroidsVectorEnv(games, preset, frame_skip=frame_skip, max_ticks=10**9,
                             obs_type=obs_type)
    spent = _timed_observe(env)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = iter(rng.integers(0, env.single_action_space.n, size=(warmup + steps, games)))
    return _rate(lambda: env.step(next(actions)), steps, warmup, games, spent)


def single_row(preset: str, steps: int, warmup: int, frame_skip: int, seed: int = 0,
               obs_type: str = "vector") -> tuple[float, float]:
    """``(env-steps per second, share in observations)`` of one ``AsteroidsEnv`` (what
    ``gym.make`` gives, without Gymnasium's checking wrappers) with random actions,
    resetting when an episode ends."""
    from asteroids.env.environment import AsteroidsEnv

    env = AsteroidsEnv(preset, frame_skip=frame_skip, max_ticks=10**9, obs_type=obs_type)
    spent = _timed_observe(env.obs, "observe_world")
    env.reset(seed=seed)
    actions = iter(np.random.default_rng(seed).integers(0, env.action_space.n,
                                                        size=warmup + steps))

    def step() -> None:
        _, _, term, trunc, _ = env.step(int(next(actions)))
        if term or trunc:
            env.reset()

    return _rate(step, steps, warmup, 1, spent)


def _missing(engine: str, observations: str, games: int, package: str) -> EnvRow:
    return EnvRow(engine, observations, games, None,
                  note=f"not installed: python -m pip install {package}")


def _rate(step: Callable[[], Any], steps: int, warmup: int, games: int,
          spent: list[float] | None = None) -> tuple[float, float]:
    """``(env-steps per second, share of the time in spent[0])`` of ``steps`` calls of
    ``step`` after ``warmup`` unmeasured ones, ``games`` env-steps a call (``spent``:
    ``_timed_observe``'s counter, zeroed when the measured calls start)."""
    for _ in range(warmup):
        step()
    if spent is not None:
        spent[0] = 0.0
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    total = time.perf_counter() - t0
    return games * steps / total, (spent[0] if spent is not None else 0.0) / total


def ale_rows(steps: int, warmup: int, seed: int = 0) -> list[EnvRow]:
    """ALE ``Asteroids-v5`` (4 frames a step, sticky actions 0.25) with random actions, one
    environment: RAM observations, and 84 x 84 grayscale through ``AtariPreprocessing``."""
    try:
        import ale_py
        import gymnasium as gym
    except ImportError:
        return [_missing("ALE Asteroids-v5", "ram, 84x84 grayscale", 1, "ale-py")]
    gym.register_envs(ale_py)
    engine = f"ALE Asteroids-v5 (ale-py {ale_py.__version__})"
    rows = []
    makers: list[tuple[str, Callable[[], Any]]] = [
        ("ram", lambda: gym.make("ALE/Asteroids-v5", obs_type="ram"))]
    try:
        import cv2  # noqa: F401  (AtariPreprocessing resizes with OpenCV)
        makers.append(("84x84 grayscale", lambda: gym.wrappers.AtariPreprocessing(
            gym.make("ALE/Asteroids-v5", frameskip=1), frame_skip=4)))
    except ImportError:
        makers.append(("210x160 grayscale (no OpenCV for 84x84)",
                       lambda: gym.make("ALE/Asteroids-v5", obs_type="grayscale")))
    for label, make in makers:
        env = make()
        env.reset(seed=seed)
        env.action_space.seed(seed)

        def step(env: Any = env) -> None:
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            if term or trunc:
                env.reset()

        rate, _ = _rate(step, steps, warmup, 1)
        env.close()
        rows.append(EnvRow(engine, label, 1, rate, note="4 frames a step"))
    return rows


def envpool_row(games: int, steps: int, warmup: int, seed: int = 0) -> EnvRow:
    """EnvPool's ``Asteroids-v5`` on one thread: B games, 84 x 84 grayscale (its default
    Atari preprocessing, frame stack 4), random actions."""
    try:
        import envpool
    except ImportError:
        return _missing("EnvPool Asteroids-v5", "84x84 grayscale", games, "envpool")
    env = envpool.make("Asteroids-v5", env_type="gymnasium", num_envs=games, batch_size=games,
                       num_threads=1, thread_affinity_offset=-1, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    n = env.action_space.n
    rate, _ = _rate(lambda: env.step(rng.integers(0, n, size=games)), steps, warmup, games)
    env.close()
    return EnvRow(f"EnvPool Asteroids-v5 (envpool {envpool.__version__}), one thread",
                  "84x84 grayscale", games, rate, note="4 frames a step")


def gymnax_row(games: int, steps: int, warmup: int, seed: int = 0) -> EnvRow:
    """gymnax's MinAtar ``SpaceInvaders`` (no Asteroids there): ``jit(vmap(step))`` over B
    games on the CPU, random actions, auto-reset inside ``step``."""
    try:
        import gymnax
        import jax
    except ImportError:
        return _missing("gymnax SpaceInvaders-MinAtar", "10x10x6 minimap", games, "gymnax")
    env, params = gymnax.make("SpaceInvaders-MinAtar")
    keys = jax.random.split(jax.random.PRNGKey(seed), games)
    _, state = jax.jit(jax.vmap(env.reset, in_axes=(0, None)))(keys, params)
    n = env.num_actions
    vstep = jax.jit(jax.vmap(env.step, in_axes=(0, 0, 0, None)))
    box = [keys, state]

    def step() -> None:
        key, act_key = jax.random.split(box[0][0])
        keys = jax.random.split(key, games)
        actions = jax.random.randint(act_key, (games,), 0, n)
        obs, box[1], *_ = vstep(keys, box[1], actions, params)
        obs.block_until_ready()
        box[0] = keys

    rate, _ = _rate(step, steps, warmup, games)
    from importlib.metadata import version

    return EnvRow(f"gymnax SpaceInvaders-MinAtar (gymnax {version('gymnax')}, jax "
                  f"{jax.__version__}, CPU)", "10x10x6 minimap", games, rate,
                  note="jit of vmap")


def profile_vector(games: int, steps: int, warmup: int, frame_skip: int,
                   obs_type: str = "vector", seed: int = 0) -> None:
    """Print cProfile's 25 costliest calls (cumulative) of ``steps`` vector-env steps of
    ``games`` classic games with random actions: where a step's time goes."""
    import cProfile
    import pstats

    from asteroids.env.vector import AsteroidsVectorEnv

    env = AsteroidsVectorEnv(games, "classic", frame_skip=frame_skip, max_ticks=10**9,
                             obs_type=obs_type)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = rng.integers(0, env.single_action_space.n, size=(warmup + steps, games))
    for a in actions[:warmup]:
        env.step(a)
    profiler = cProfile.Profile()
    profiler.enable()
    for a in actions[warmup:]:
        env.step(a)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="asteroids bench env", description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--presets", nargs="+", default=["classic"])
    parser.add_argument("--steps", type=int, default=200, help="measured steps per size")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured steps first")
    parser.add_argument("--frame-skip", type=int, default=1)
    parser.add_argument("--obs-type", dest="obs_types", action="append",
                        choices=["vector", "grayscale", "rgb"],
                        help="observations: the vector, or 84 x 84 frames (repeat the flag "
                             "for several; default: vector and grayscale)")
    parser.add_argument("--single-steps", type=int, default=2000,
                        help="measured steps of the single environments (ours and ALE)")
    parser.add_argument("--no-peers", action="store_true",
                        help="leave out ALE, EnvPool and gymnax")
    parser.add_argument("--envpool-max", type=int, default=1024,
                        help="the largest B for EnvPool (building its games takes about "
                             "0.1 s each)")
    parser.add_argument("--profile", type=int, metavar="B",
                        help="instead of the table: profile the vector env at B games")
    args = parser.parse_args(argv)
    obs_types = args.obs_types or ["vector", "grayscale"]
    if args.profile:
        profile_vector(args.profile, args.steps, args.warmup, args.frame_skip, obs_types[0])
        return 0
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false "
                          "intra_op_parallelism_threads=1")
    tune_malloc()
    print(f"machine: {cpu_name()}")
    print(f"{args.steps} steps after {args.warmup} (single environments: "
          f"{args.single_steps}), frame skip {args.frame_skip} for ours, random actions\n")
    print("| engine | observations | B | env-steps/s | observations, share of a step "
          "| note |")
    print("|---|---|---:|---:|---:|---|")
    skip = f"frame skip {args.frame_skip}"
    for preset in args.presets:
        for obs_type in obs_types:
            rate, share = single_row(preset, args.single_steps, args.warmup, args.frame_skip,
                                     obs_type=obs_type)
            print(EnvRow(f"ours, single env, {preset}", obs_type, 1, rate, share,
                         skip).line(), flush=True)
            for games in args.sizes:
                rate, share = env_row(preset, games, args.steps, args.warmup,
                                      args.frame_skip, obs_type=obs_type)
                print(EnvRow(f"ours, vector env, {preset}", obs_type, games, rate, share,
                             skip).line(), flush=True)
    if not args.no_peers:
        for row in ale_rows(args.single_steps, args.warmup):
            print(row.line(), flush=True)
        for games in args.sizes:
            if games > args.envpool_max:
                print(EnvRow("EnvPool Asteroids-v5", "84x84 grayscale", games, None,
                             note=f"not run: B over --envpool-max {args.envpool_max}").line())
                continue
            print(envpool_row(games, max(1, args.steps // 4), args.warmup).line(), flush=True)
        for games in args.sizes:
            print(gymnax_row(games, args.steps, args.warmup).line(), flush=True)
    print(f"\n{TARGETS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
