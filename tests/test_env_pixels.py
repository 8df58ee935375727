"""Pixel observations (``obs_type``, ``obs_size``, ``frame_stack``; marker ``rl``): spaces,
``check_env``, the vector env's frames equal to single envs', and frame stacking."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.config import load_config
from asteroids.core import new_world

pytestmark = pytest.mark.rl
gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import asteroids.env  # noqa: E402,F401
from asteroids.env.pixels import Rasteriser  # noqa: E402

SHAPES = [("grayscale", 84, 1, (84, 84)), ("rgb", (64, 48), 1, (48, 64, 3)),
          ("grayscale", 84, 4, (4, 84, 84)), ("vector", 84, 2, (2, 68))]


@pytest.mark.parametrize(("obs_type", "size", "stack", "shape"), SHAPES)
def test_spaces_and_check_env(obs_type: str, size: object, stack: int,
                              shape: tuple[int, ...]) -> None:
    env = gym.make("asteroids/Classic-v0", obs_type=obs_type, obs_size=size,
                   frame_stack=stack, max_ticks=100)
    assert env.observation_space.shape == shape
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)


def test_a_reset_frame_is_the_first_world_drawn() -> None:
    config = load_config("classic")
    env = gym.make("asteroids/Classic-v0", obs_type="grayscale")
    obs, info = env.reset(seed=5)
    world = new_world(config, info["game_seed"])
    assert np.array_equal(obs, Rasteriser(config).world_frame(world))
    assert obs.max() > 0


@pytest.mark.parametrize("obs_type", ["grayscale", "rgb"])
def test_vector_env_frames_equal_single_envs(obs_type: str) -> None:
    kwargs = {"obs_type": obs_type, "frame_stack": 3, "max_ticks": 40}
    vec = gym.make_vec("asteroids/Arena-v0", num_envs=3,
                       vectorization_mode="vector_entry_point", **kwargs)
    sync = gym.make_vec("asteroids/Arena-v0", num_envs=3, vectorization_mode="sync",
                        **kwargs)
    a, _ = vec.reset(seed=9)
    b, _ = sync.reset(seed=9)
    assert np.array_equal(a, b)
    rng = np.random.default_rng(2)
    for _ in range(90):  # past two autoresets
        actions = rng.integers(0, 14, 3)
        a, *_ = vec.step(actions)
        b, *_ = sync.step(actions)
        assert np.array_equal(a, b)


def test_frame_stack_holds_the_latest_frames_oldest_first() -> None:
    env = gym.make("asteroids/Classic-v0", obs_type="grayscale", frame_stack=4)
    first, _ = env.reset(seed=1)
    assert all(np.array_equal(first[0], first[i]) for i in range(4))
    frames = [first[-1]]
    for _ in range(6):
        obs, *_ = env.step(2)  # thrust: the ship moves
        frames.append(obs[-1])
        assert np.array_equal(obs, np.stack(frames[-4:] if len(frames) >= 4 else
                                            [frames[0]] * (4 - len(frames)) + frames))


def test_bad_options_are_refused() -> None:
    for kwargs in ({"obs_type": "ram"}, {"frame_stack": 0}, {"obs_size": 0}):
        with pytest.raises(ValueError):
            gym.make("asteroids/Classic-v0", **kwargs)
