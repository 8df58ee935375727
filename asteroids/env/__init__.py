"""The game as a Gymnasium environment (the optional ``[rl]`` extra).

``import asteroids.env`` registers six environments::

    import gymnasium as gym
    import asteroids.env  # noqa: F401

    env = gym.make("asteroids/Classic-v0")                  # the 1979 rules
    env = gym.make("asteroids/Classic-v1")  # the same under the ALE v5 protocol (V1_OPTIONS)
    env = gym.make("asteroids/Default-v0", config="my.toml")  # any TOML (or preset name)
    env = gym.make("asteroids/Arena-v0", render_mode="rgb_array", max_ticks=3600)
    envs = gym.make_vec("asteroids/Classic-v0", num_envs=64,
                        vectorization_mode="vector_entry_point")  # B games as one env

Evaluation (fixed seeds, episodes and cap) and the human-normalised score:
``asteroids.env.evaluation`` (``evaluate``, ``human_normalised``).
Observation, actions, reward and episode ends: ``asteroids.env.environment`` and
``asteroids.env.observation``; the vector environment: ``asteroids.env.vector``.
"""

from __future__ import annotations

import warnings

try:
    import gymnasium
except ImportError:  # pragma: no cover - exercised by a test that hides gymnasium
    raise ImportError(
        "asteroids.env needs gymnasium, which comes with the optional [rl] extra: "
        "python -m pip install 'asteroids[rl]' (from a source checkout: "
        "python -m pip install '.[rl]')") from None

from asteroids.env.environment import AsteroidsEnv
from asteroids.env.evaluation import EVAL_CAP, EVAL_SEEDS, evaluate, human_normalised
from asteroids.env.observation import ACTION_NAMES, ACTIONS
from asteroids.env.vector import AsteroidsVectorEnv

__all__ = ["ACTIONS", "ACTION_NAMES", "ENV_IDS", "EVAL_CAP", "EVAL_SEEDS",
           "V1_MAX_EPISODE_STEPS", "V1_OPTIONS", "AsteroidsEnv", "AsteroidsVectorEnv", "evaluate",
           "human_normalised"]

ENV_IDS = {"asteroids/Classic-v0": "classic", "asteroids/Default-v0": "default",
           "asteroids/Arena-v0": "arena", "asteroids/Classic-v1": "classic",
           "asteroids/Default-v1": "default", "asteroids/Arena-v1": "arena"}
"""The registered environments and the preset each starts from (``config=`` replaces it)."""

V1_MAX_EPISODE_STEPS = 27_000
"""The v1 episode cap: ALE v5's 108 000 frames (30 minutes at 60 Hz) in steps of 4 ticks."""
V1_OPTIONS = {"frame_skip": 4, "repeat_action_probability": 0.25,
              "max_episode_steps": V1_MAX_EPISODE_STEPS, "terminal_on_life_loss": False,
              "extended_obs": True}
"""What the ``-v1`` ids add to their preset: the ALE v5 protocol, and the extended
observation. The ``-v0`` ids keep the defaults (one tick a step, no sticky actions, 5
minutes, the 68-number observation)."""

# Gymnasium calls a -v0 id "out of date" once a -v1 exists; here v0 is a protocol kept on
# purpose (the game at one tick a step), so its users are not told to upgrade.
warnings.filterwarnings("ignore", message=r".*asteroids/\w+-v0 is out of date",
                        category=DeprecationWarning)

for _id, _preset in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="asteroids.env.environment:AsteroidsEnv",
                           vector_entry_point="asteroids.env.vector:AsteroidsVectorEnv",
                           kwargs={"config": _preset,
                                   **(V1_OPTIONS if _id.endswith("-v1") else {})})
