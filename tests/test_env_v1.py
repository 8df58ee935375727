"""The v1 ids and the ALE v5 options (marker ``rl``): sticky actions from the env's seed, frame
skip, episodic life, the step cap, the extended observation, and the evaluation protocol."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
from asteroids.config import load_config  # noqa: E402
from asteroids.core import new_world, step  # noqa: E402
from asteroids.core.world import SHOOTER_SHIP  # noqa: E402
from asteroids.env import ACTIONS, V1_OPTIONS  # noqa: E402
from asteroids.env.evaluation import RandomPolicy, action_for_mask, evaluate, human_normalised  # noqa: E402
from asteroids.env.observation import STATUS, Observer, size  # noqa: E402

pytestmark = pytest.mark.rl


def _played(env, seed: int, steps: int) -> list[int]:
    """The action each step played (the last action the env kept), random actions given."""
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(steps):
        env.step(int(rng.integers(len(ACTIONS))))
        out.append(env.unwrapped.last_action)
    return out


def test_v1_ids_carry_the_ale_v5_protocol_and_v0_keeps_its_defaults():
    env = gym.make("asteroids/Classic-v1")
    u = env.unwrapped
    assert (u.frame_skip, u.repeat_action_probability, u.terminal_on_life_loss) == (4, 0.25, False)
    assert u.max_ticks == V1_OPTIONS["max_episode_steps"] * 4 == 108_000
    assert u.observation_space.shape == (size(8, 4),) == (size(8) + STATUS + 24,)
    v0 = gym.make("asteroids/Classic-v0").unwrapped
    assert (v0.frame_skip, v0.repeat_action_probability, v0.observation_space.shape) == (
        1, 0.0, (68,))


def test_sticky_draws_follow_the_seed_and_repeat_about_a_quarter_of_the_time():
    env = gym.make("asteroids/Classic-v1", config=load_config("classic",
                                                               overrides=["game.lives=50"]))
    a, b = _played(env, 7, 400), _played(env, 7, 400)
    assert a == b
    assert _played(env, 8, 400) != a
    rng = np.random.default_rng(0)
    given = [int(rng.integers(len(ACTIONS))) for _ in range(400)]
    kept = sum(x != g for x, g in zip(a, given, strict=True))
    assert 40 < kept < 140  # about 0.25 * 400 * 13 / 14 differ from the action given


def test_frame_skip_4_plays_4_ticks_a_step_and_max_episode_steps_truncates():
    env = gym.make("asteroids/Classic-v1", max_episode_steps=5, repeat_action_probability=0.0)
    _, info = env.reset(seed=1)
    world = new_world(env.unwrapped.config, info["game_seed"])
    for n in range(1, 6):
        _, _, term, trunc, info = env.step(0)
        for _ in range(4):
            world, _ = step(world, 0, env.unwrapped.config)
        assert info["tick"] == 4 * n and info["score"] == world.score
        assert trunc == (n == 5) and not term


def test_terminal_on_life_loss_ends_the_episode_at_the_first_life_lost():
    config = load_config("classic")
    kwargs = {"config": config, "terminal_on_life_loss": True}
    env = gym.make("asteroids/Classic-v1", **kwargs)
    _, info = env.reset(seed=3)
    lives, done, steps = info["lives"], False, 0
    while not done:
        _, _, term, trunc, info = env.step(4 * 2 + 2)  # right + thrust: it crashes soon
        done, steps = term or trunc, steps + 1
    assert term and not trunc and info["lives"] == lives - 1
    envs = gym.make_vec("asteroids/Classic-v1", num_envs=2,
                        vectorization_mode="vector_entry_point", **kwargs)
    envs.reset(seed=3)
    for _ in range(steps - 1):
        _, _, term, _, _ = envs.step(np.array([10, 10]))
        assert not term[0]
    _, _, term, _, info = envs.step(np.array([10, 10]))
    assert term[0] and info["lives"][0] == lives - 1


def test_the_extended_observation_is_built_for_a_batch_and_for_one_game_alike():
    config = load_config("classic")
    env = gym.make("asteroids/Classic-v1", config=config, repeat_action_probability=0.0)
    obs, _ = env.reset(seed=2)
    for i in range(12):
        obs, *_ = env.step(i % 2)  # fire, release: the ship's own shots fill their slots
    o = Observer(config, extended=True)
    at = size(8)
    assert obs[at] == pytest.approx(env.unwrapped.world.lives / o.lives)
    own = env.unwrapped.world.shot_owner == SHOOTER_SHIP
    assert obs[at + STATUS::6][:4].sum() == min(int(own.sum()), 4) > 0
    np.testing.assert_array_equal(obs[:at], Observer(config).observe(env.unwrapped.world))
    envs = gym.make_vec("asteroids/Classic-v1", num_envs=3, config=config,
                        vectorization_mode="vector_entry_point", repeat_action_probability=0.0)
    envs.reset(seed=[5, 2, 9])
    for i in range(12):
        batch_obs, *_ = envs.step(np.full(3, i % 2))
    np.testing.assert_array_equal(batch_obs[1], obs)  # the batch's lane 1 is that game


def test_evaluate_is_deterministic_and_the_normalised_score_is_anchored():
    a = evaluate(RandomPolicy(), "asteroids/Classic-v1", episodes=2, cap=200)
    b = evaluate(RandomPolicy(), "asteroids/Classic-v1", episodes=2, cap=200)
    assert a == b and len(a.scores) == 2 and max(a.lengths) <= 200
    from asteroids.env.evaluation import EXPERT, RANDOM

    assert human_normalised(RANDOM["classic"]) == 0.0
    assert human_normalised(EXPERT["classic"]) == 1.0
    assert [action_for_mask(m) for m in ACTIONS] == list(range(len(ACTIONS)))
