"""``AsteroidsVecEnv``: the batched vector env as a Stable-Baselines3 ``VecEnv`` (the
``[rl-train]`` extra).

SB3 can only wrap single envs (``DummyVecEnv``: B envs stepped one by one in Python). This
adapter gives it one ``AsteroidsVectorEnv`` instead: B games in one batch of the batched
core, stepped together::

    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor
    from asteroids.env.sb3 import AsteroidsVecEnv

    venv = VecMonitor(AsteroidsVecEnv("asteroids/Classic-v1", num_envs=64))
    PPO("MlpPolicy", venv, seed=0).learn(100_000)

It follows SB3's conventions, and gives what ``DummyVecEnv`` over the same single envs gives
(a test compares them step by step): a game that ends restarts in the same step (its first
observation is returned, the last one is ``info["terminal_observation"]``, and
``info["TimeLimit.truncated"]`` says a truncation); ``seed(S)`` seeds game i with S + i at
the next ``reset``; rewards are float32. The games share one env, so ``get_attr`` gives the
vector env's attribute for each game asked (``game_seed`` per game), and ``set_attr`` and
``env_method`` act on every game at once or refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError:  # pragma: no cover - exercised by a test that hides stable_baselines3
    raise ImportError(
        "asteroids.env.sb3 needs stable-baselines3, which comes with the optional [rl-train] "
        "extra: python -m pip install 'asteroids[rl-train]' (from a source checkout: "
        "python -m pip install '.[rl-train]')") from None

import asteroids.env  # noqa: F401  (registers the ids)
from asteroids.env.vector import AsteroidsVectorEnv

__all__ = ["AsteroidsVecEnv"]

_INFO_KEYS = ("game_seed", "tick", "score", "lives", "wave")


class AsteroidsVecEnv(VecEnv):
    """``num_envs`` games of one env id (or one ``AsteroidsVectorEnv``) as an SB3 ``VecEnv``.

    Args:
        env: a registered id (``asteroids/Classic-v1``) or an ``AsteroidsVectorEnv``.
        num_envs: how many games (only with an id).
        **kwargs: the env's options (``frame_skip``, ``obs_type``, ...; only with an id),
            over the id's own.
    """

    def __init__(self, env: str | AsteroidsVectorEnv = "asteroids/Classic-v1",
                 num_envs: int = 8, **kwargs: Any) -> None:
        if isinstance(env, str):
            env = gym.make_vec(env, num_envs=num_envs, vectorization_mode="vector_entry_point",
                               **kwargs)
        elif kwargs:
            raise TypeError("options go with an env id, not with an AsteroidsVectorEnv")
        if not isinstance(env, AsteroidsVectorEnv):
            raise TypeError(f"need an asteroids env id or an AsteroidsVectorEnv; got {env!r}")
        self.venv = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self.metadata = {**env.metadata, "render_modes": []}

    def reset(self) -> np.ndarray:
        """Start every game: game i with the seed ``seed()`` set (S + i), else drawn on."""
        options = self._options[0]
        if any(o != options for o in self._options):
            raise ValueError("the games share one env: give every game the same options")
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, info = self.venv.reset(seed=seeds, options=options or None)
        self.reset_infos = _infos(info, range(self.num_envs))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """One step of every game; a game that ended restarts at once (SB3's convention)."""
        if self._actions is None:
            raise RuntimeError("call step_async() before step_wait()")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        infos = _infos(info, range(self.num_envs))
        for i, info_i in enumerate(infos):
            info_i["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        ended = np.flatnonzero(dones)
        if ended.size:
            first, fresh = self.venv.restart(ended)
            for j, lane in enumerate(ended):
                infos[lane]["terminal_observation"] = obs[lane].copy()
                obs[lane] = first[j]
            for lane, reset_info in zip(ended, _infos(fresh, ended), strict=True):
                self.reset_infos[lane] = reset_info
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The vector env's attribute, once for each game asked (``game_seed``: each
        game's own)."""
        lanes = list(self._get_indices(indices))
        if attr_name == "game_seed":
            return [int(self.venv.game_seeds[i]) for i in lanes]
        if attr_name == "render_mode":
            return [None] * len(lanes)
        value = getattr(self.venv, attr_name)
        return [value] * len(lanes)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set the vector env's attribute: only for every game at once (they share it)."""
        self._all(indices, "set_attr")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """Call the vector env's method once, for every game at once; its result is given
        for each game."""
        self._all(indices, "env_method")
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result] * self.num_envs

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Any = None
                       ) -> list[bool]:
        """No game is wrapped by a Gymnasium wrapper (there is one vector env)."""
        return [False] * len(list(self._get_indices(indices)))

    def _all(self, indices: Any, what: str) -> None:
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError(f"{what}: the games share one env; it acts on all of them "
                             "(indices=None)")


def _infos(info: dict[str, Any], lanes: Iterable[int] | Sequence[int]) -> list[dict[str, Any]]:
    """The vector env's info (one array per key) as one dict per lane, as single envs give."""
    return [{key: info[key][i].item() for key in _INFO_KEYS} for i in lanes]
