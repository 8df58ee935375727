"""``AsteroidsVectorEnv``: B games as one Gymnasium vector environment (the ``[rl]`` extra).

``gym.make_vec("asteroids/Classic-v0", num_envs=B, vectorization_mode="vector_entry_point")``
makes one. It gives exactly what B single environments seeded alike give through
``SyncVectorEnv`` (the same observations, rewards, ends and game seeds; a test compares
them), with the same conventions: ``reset(seed=S)`` seeds game i's generator with S + i, and
a game that ended is reset by the next ``step`` (Gymnasium's "next step" autoreset: that
step returns its first observation with reward 0).

Today it steps the B games one after another through the one-game core; the batched core
(issue 25) will step them as one array program behind the same interface and the same
trajectories.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from asteroids.config import Config
from asteroids.core import World, new_world
from asteroids.env.environment import (
    config_for,
    episode_end,
    game_seed_from,
    max_ticks_for,
    play_ticks,
)
from asteroids.env.observation import ACTION_NAMES, ACTIONS, DEFAULT_ROCKS, Observer

__all__ = ["AsteroidsVectorEnv"]


class AsteroidsVectorEnv(VectorEnv):
    """``num_envs`` games of one ruleset, stepped together.

    Args:
        num_envs: how many games.
        config, max_ticks, rocks, frame_skip: as for ``AsteroidsEnv``, the same for every
            game.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1,
                 config: Config | str | os.PathLike[str] | None = None, *,
                 max_ticks: int | None = None, rocks: int = DEFAULT_ROCKS,
                 frame_skip: int = 1) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be 1 or more; got {num_envs}")
        if frame_skip < 1 or rocks < 1:
            raise ValueError("frame_skip and rocks must be 1 or more")
        self.num_envs = num_envs
        self.config = config_for(config)
        self.max_ticks = max_ticks_for(self.config, max_ticks)
        self.frame_skip = frame_skip
        self.observer = Observer(self.config, rocks)
        self.single_observation_space = spaces.Box(-1.0, 1.0, (self.observer.size,),
                                                   np.float32)
        self.single_action_space = spaces.Discrete(len(ACTIONS))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.action_names = ACTION_NAMES
        self.metadata = {**self.metadata,
                         "render_fps": float(self.config.world.tick_hz) / frame_skip}
        self.worlds: list[World | None] = [None] * num_envs
        self.game_seeds = np.zeros(num_envs, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._ended = np.zeros(num_envs, dtype=bool)

    def _start(self, i: int, seed: int | None, options: dict[str, Any] | None) -> np.ndarray:
        if seed is not None or self._rngs[i] is None:
            self._rngs[i], _ = seeding.np_random(seed)
        rng = self._rngs[i]
        assert rng is not None
        game_seed = (int(options["game_seed"]) if options and "game_seed" in options
                     else game_seed_from(rng))
        self.game_seeds[i] = game_seed
        world = self.worlds[i] = new_world(self.config, game_seed)
        self._ended[i] = False
        return self.observer.observe(world)

    def _info(self) -> dict[str, Any]:
        worlds = [w for w in self.worlds if w is not None]
        return {"game_seed": self.game_seeds.copy(),
                "tick": np.array([w.tick for w in worlds], dtype=np.int64),
                "score": np.array([w.score for w in worlds], dtype=np.int64),
                "lives": np.array([w.lives for w in worlds], dtype=np.int64),
                "wave": np.array([w.wave for w in worlds], dtype=np.int64)}

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: game i's generator is seeded with ``seed + i`` (or ``seed[i]``;
        None keeps it, or seeds it at random the first time)."""
        seeds = ([None] * self.num_envs if seed is None else
                 [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else
                 list(seed))
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
        obs = np.stack([self._start(i, s, options) for i, s in enumerate(seeds)])
        return obs, self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Press each game's buttons for ``frame_skip`` ticks; a game that ended at the last
        step starts again instead (reward 0, not ended)."""
        actions = np.asarray(actions).reshape(self.num_envs)
        obs = np.empty((self.num_envs, self.observer.size), dtype=np.float32)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        for i in range(self.num_envs):
            world = self.worlds[i]
            if world is None:
                raise RuntimeError("call reset() before step()")
            if self._ended[i]:
                obs[i] = self._start(i, None, None)
                continue
            after, _ = play_ticks(world, ACTIONS[int(actions[i])], self.config,
                                  self.frame_skip, self.max_ticks)
            self.worlds[i] = after
            rewards[i] = float(after.score - world.score)
            terminated[i], truncated[i] = episode_end(after, self.max_ticks)
            obs[i] = self.observer.observe(after)
        self._ended = terminated | truncated
        return obs, rewards, terminated, truncated, self._info()
