"""``AsteroidsVectorEnv``: B games as one Gymnasium vector environment (the ``[rl]`` extra).

``gym.make_vec("asteroids/Classic-v0", num_envs=B, vectorization_mode="vector_entry_point")``
makes one. It gives exactly what B single environments seeded alike give through
``SyncVectorEnv`` (the same observations, rewards, ends and game seeds; a test compares
them), with the same conventions: ``reset(seed=S)`` seeds game i's generator with S + i, and
a game that ended is reset by the next ``step`` (Gymnasium's "next step" autoreset: that
step returns its first observation with reward 0).

The games live in one ``Batch`` of the batched core (``asteroids.core.batch``) and advance
together by ``step_batch``; a game that ended holds still while the others finish their
frame skip (``active``), and a reset replaces its lane (``reset_lanes``). The observations
are built from the batch's columns in one pass (``Observer.observe_batch``), the single
env's by the same code on a batch of one.

The v1 options are ``AsteroidsEnv``'s, lane for lane: lane i's sticky-action draw comes from
lane i's own generator (the one its game seeds come from), drawn in lane order for the lanes
that play the step, so the lanes are B single environments seeded alike.
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
from asteroids.core.batch import Batch, new_batch, reset_lanes, step_batch
from asteroids.core.lanes import MANY
from asteroids.core.params import params_for
from asteroids.env.checks import action_indices, game_seed_option
from asteroids.env.environment import (
    config_for,
    episode_end,
    game_seed_from,
    max_ticks_for,
    sticky_probability,
)
from asteroids.env.observation import ACTION_NAMES, ACTIONS, DEFAULT_ROCKS, Observer
from asteroids.env.pixels import Observations

__all__ = ["AsteroidsVectorEnv"]


class AsteroidsVectorEnv(VectorEnv):
    """``num_envs`` games of one ruleset, stepped together.

    Args:
        num_envs: how many games.
        config: as for ``AsteroidsEnv``, the same for every game.
        max_ticks: as for ``AsteroidsEnv``.
        rocks: as for ``AsteroidsEnv``.
        frame_skip: as for ``AsteroidsEnv``.
        obs_type: as for ``AsteroidsEnv``.
        obs_size: as for ``AsteroidsEnv``.
        frame_stack: as for ``AsteroidsEnv``.
        repeat_action_probability: as for ``AsteroidsEnv`` (each lane draws from its own
            generator, in lane order).
        max_episode_steps: as for ``AsteroidsEnv``.
        terminal_on_life_loss: as for ``AsteroidsEnv``.
        extended_obs: as for ``AsteroidsEnv``.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1,
                 config: Config | str | os.PathLike[str] | None = None, *,
                 max_ticks: int | None = None, rocks: int = DEFAULT_ROCKS,
                 obs_type: str = "vector", obs_size: int | tuple[int, int] = 84,
                 frame_stack: int = 1,
                 frame_skip: int = 1, repeat_action_probability: float = 0.0,
                 max_episode_steps: int | None = None, terminal_on_life_loss: bool = False,
                 extended_obs: bool = False) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be 1 or more; got {num_envs}")
        if frame_skip < 1 or rocks < 1:
            raise ValueError("frame_skip and rocks must be 1 or more")
        self.num_envs = num_envs
        self.repeat_action_probability = sticky_probability(repeat_action_probability)
        self.terminal_on_life_loss = bool(terminal_on_life_loss)
        self.config = config_for(config)
        self.max_ticks = max_ticks_for(self.config, max_ticks, max_episode_steps, frame_skip)
        self.frame_skip = frame_skip
        self.observer = Observer(self.config, rocks, extended_obs)
        self.obs = Observations(self.config, self.observer, obs_type, obs_size, frame_stack)
        self.single_observation_space = spaces.Box(self.obs.low, self.obs.high,
                                                   self.obs.shape, self.obs.dtype)
        self.single_action_space = spaces.Discrete(len(ACTIONS))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.action_names = ACTION_NAMES
        self.metadata = {**self.metadata,
                         "render_fps": float(self.config.world.tick_hz) / frame_skip}
        self.params = params_for(self.config)
        self.batch: Batch | None = None
        self.game_seeds = np.zeros(num_envs, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._ended = np.zeros(num_envs, dtype=bool)
        self._last = np.zeros(num_envs, dtype=np.int64)
        self._masks = np.array(ACTIONS, dtype=np.int64)

    def _game_seed(self, i: int, seed: int | None, chosen: int | None) -> int:
        if seed is not None or self._rngs[i] is None:
            self._rngs[i], _ = seeding.np_random(seed)
        rng = self._rngs[i]
        assert rng is not None
        game_seed = game_seed_from(rng) if chosen is None else chosen
        self.game_seeds[i] = game_seed
        return game_seed

    def _sticky(self, indices: np.ndarray, playing: np.ndarray) -> np.ndarray:
        """The actions played: each playing lane repeats its last action with probability
        ``repeat_action_probability``, one draw from its own generator in lane order (as B
        single envs draw); a lane that restarts this step has last action 0."""
        lanes = np.flatnonzero(playing)
        draws = np.fromiter((self._rngs[i].random() for i in lanes),  # type: ignore[union-attr]
                            dtype=np.float64, count=lanes.size)
        stick = np.zeros(self.num_envs, dtype=bool)
        stick[lanes] = draws < self.repeat_action_probability
        played = np.where(stick, self._last, indices)
        self._last = np.where(playing, played, 0)
        return played

    def _observe(self, batch: Batch, fresh: np.ndarray) -> np.ndarray:
        """Every game's observation, built from the batch's columns in one pass
        (``fresh``: the lanes whose games just started)."""
        return self.obs.observe_batch(batch, fresh)

    def _info(self) -> dict[str, Any]:
        b = self.batch
        assert b is not None
        return {"game_seed": self.game_seeds.copy(), "tick": b.tick.copy(),
                "score": b.score.copy(), "lives": b.lives.copy(), "wave": b.wave.copy()}

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: game i's generator is seeded with ``seed + i`` (or ``seed[i]``;
        None keeps it, or seeds it at random the first time). ``options={"game_seed": G}``
        plays game G in every lane, as ``SyncVectorEnv`` passes the options to each env.

        Raises:
            TypeError, ValueError: for options ``AsteroidsEnv.reset`` refuses.
        """
        chosen = game_seed_option(options)
        seeds = ([None] * self.num_envs if seed is None else
                 [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else
                 list(seed))
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} games")
        game_seeds = [self._game_seed(i, s, chosen) for i, s in enumerate(seeds)]
        self.batch = new_batch(self.params, game_seeds)
        self._ended[:] = False
        self._last[:] = 0
        return self._observe(self.batch, np.ones(self.num_envs, bool)), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Press each game's buttons for ``frame_skip`` ticks; a game that ended at the last
        step starts again instead (reward 0, not ended).

        Raises:
            TypeError: for actions of the wrong type or dtype (bools, floats).
            ValueError: for actions of a shape other than ``(num_envs,)`` or out of range.
        """
        indices = action_indices(self.action_space, actions)
        batch = self.batch
        if batch is None:
            raise RuntimeError("call reset() before step()")
        restart = np.flatnonzero(self._ended)
        if restart.size:
            batch = reset_lanes(batch, restart,
                                [self._game_seed(int(i), None, None) for i in restart])
        playing = ~self._ended
        if self.repeat_action_probability:
            indices = self._sticky(indices, playing)
        masks = self._masks[indices]
        score = batch.score
        lost = np.zeros(self.num_envs, dtype=bool)
        for _ in range(self.frame_skip):
            moving = playing & ~batch.game_over & (batch.tick < self.max_ticks) & ~lost
            if not moving.any():
                break
            lives = batch.lives if self.terminal_on_life_loss else None
            batch, _ = step_batch(batch, masks, self.params, active=moving)
            if lives is not None:
                lost |= batch.lives < lives
        self.batch = batch
        rewards = np.where(playing, batch.score - score, 0).astype(np.float64)
        terminated, truncated = episode_end(batch.game_over, batch.tick, self.max_ticks, lost,
                                            MANY)
        terminated, truncated = terminated & playing, truncated & playing
        self._ended = terminated | truncated
        return self._observe(batch, restart), rewards, terminated, truncated, self._info()

    def restart(self, lanes: np.ndarray | list[int]) -> tuple[np.ndarray, dict[str, Any]]:
        """Start the next games of ``lanes``, whose games ended at the last step, now instead
        of at the next step: the "same step" autoreset that Stable-Baselines3 expects
        (``asteroids.env.sb3``). Each lane draws its game seed from its own generator, as the
        next step would. Returns the lanes' first observations, ``(len(lanes), *shape)``,
        and the info of every lane.

        Raises:
            ValueError: for a lane whose game has not ended.
        """
        if self.batch is None:
            raise RuntimeError("call reset() before restart()")
        lanes = np.asarray(lanes, dtype=np.int64).reshape(-1)
        if not self._ended[lanes].all():
            raise ValueError("only lanes whose games ended at the last step can restart")
        self.batch = reset_lanes(self.batch, lanes,
                                 [self._game_seed(int(i), None, None) for i in lanes])
        self._ended[lanes] = False
        self._last[lanes] = 0
        return self.obs.restart_lanes(self.batch, lanes), self._info()
