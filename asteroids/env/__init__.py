"""The game as a Gymnasium environment (the optional ``[rl]`` extra).

``import asteroids.env`` registers three environments::

    import gymnasium as gym
    import asteroids.env  # noqa: F401

    env = gym.make("asteroids/Classic-v0")                  # the 1979 rules
    env = gym.make("asteroids/Default-v0", config="my.toml")  # any TOML (or preset name)
    env = gym.make("asteroids/Arena-v0", render_mode="rgb_array", max_ticks=3600)
    envs = gym.make_vec("asteroids/Classic-v0", num_envs=64,
                        vectorization_mode="vector_entry_point")  # B games as one env

Observation, actions, reward and episode ends: ``asteroids.env.environment`` and
``asteroids.env.observation``; the vector environment: ``asteroids.env.vector``.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError:  # pragma: no cover - exercised by a test that hides gymnasium
    raise ImportError(
        "asteroids.env needs gymnasium, which comes with the optional [rl] extra: "
        "python -m pip install 'asteroids[rl]' (from a source checkout: "
        "python -m pip install '.[rl]')") from None

from asteroids.env.environment import AsteroidsEnv
from asteroids.env.observation import ACTION_NAMES, ACTIONS
from asteroids.env.vector import AsteroidsVectorEnv

__all__ = ["ACTIONS", "ACTION_NAMES", "ENV_IDS", "AsteroidsEnv", "AsteroidsVectorEnv"]

ENV_IDS = {"asteroids/Classic-v0": "classic", "asteroids/Default-v0": "default",
           "asteroids/Arena-v0": "arena"}
"""The registered environments and the preset each starts from (``config=`` replaces it)."""

for _id, _preset in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="asteroids.env.environment:AsteroidsEnv",
                           vector_entry_point="asteroids.env.vector:AsteroidsVectorEnv",
                           kwargs={"config": _preset})
