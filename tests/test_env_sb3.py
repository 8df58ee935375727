"""The Stable-Baselines3 adapter (marker ``rl``; skipped without stable-baselines3): one batch
of games as an SB3 ``VecEnv`` gives what SB3's own ``DummyVecEnv`` over the same single envs
gives, step by step, and SB3's PPO trains on it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.rl


def test_without_sb3_the_import_names_the_extra():
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "try:\n    import asteroids.env.sb3\nexcept ImportError as e:\n    print(e)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert "pip install 'asteroids[rl-train]'" in out.stdout, out.stderr


gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
pytest.importorskip("stable_baselines3", reason="the [rl-train] extra is not installed")
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from asteroids.env.sb3 import AsteroidsVecEnv  # noqa: E402

CASES = {
    # v1: sticky actions, frame skip 4; episodes end by a lost life or 40 steps (both kinds).
    "v1-vector": ("asteroids/Classic-v1", {"terminal_on_life_loss": True,
                                            "max_episode_steps": 40}, 6, 300),
    # stacked pixels: a restart must refill the lane's stack and keep the others'.
    "v0-pixels-stack": ("asteroids/Classic-v0", {"frame_skip": 3, "max_ticks": 240,
                                                 "terminal_on_life_loss": True,
                                                 "obs_type": "grayscale", "obs_size": 24,
                                                 "frame_stack": 3}, 4, 250),
}


def _same(a, b) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.keys() == y.keys()
        for key in x:
            if key == "terminal_observation":
                np.testing.assert_array_equal(x[key], y[key])
            else:
                assert x[key] == y[key], key


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_batch_gives_what_dummy_vec_env_gives_over_single_envs(case):
    env_id, kwargs, n, steps = CASES[case]
    ours = AsteroidsVecEnv(env_id, num_envs=n, **kwargs)
    theirs = DummyVecEnv([lambda: gym.make(env_id, **kwargs) for _ in range(n)])
    ours.seed(7)
    theirs.seed(7)
    np.testing.assert_array_equal(ours.reset(), theirs.reset())
    _same(ours.reset_infos, theirs.reset_infos)
    rng = np.random.default_rng(3)
    ended = truncated = 0
    for _ in range(steps):
        actions = rng.integers(14, size=n)
        o1, r1, d1, i1 = ours.step(actions)
        o2, r2, d2, i2 = theirs.step(actions)
        np.testing.assert_array_equal(o1, o2)
        assert r1.dtype == r2.dtype == np.float32
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
        _same(i1, i2)
        _same(ours.reset_infos, theirs.reset_infos)
        ended += int(d1.sum())
        truncated += sum(info["TimeLimit.truncated"] for info in i1)
    assert ended > truncated > 0  # both ends happened, several times


def test_attributes_and_methods_act_on_the_one_env_for_every_game():
    venv = AsteroidsVecEnv("asteroids/Classic-v1", num_envs=3)
    venv.seed(11)
    venv.reset()
    assert venv.get_attr("frame_skip") == [4, 4, 4]
    assert venv.get_attr("frame_skip", indices=[1]) == [4]
    assert venv.get_attr("game_seed") == [info["game_seed"] for info in venv.reset_infos]
    assert venv.env_is_wrapped(gym.Wrapper) == [False] * 3
    assert venv.get_attr("render_mode") == [None] * 3
    venv.set_attr("repeat_action_probability", 0.0)
    assert venv.venv.repeat_action_probability == 0.0
    with pytest.raises(ValueError, match="share one env"):
        venv.set_attr("frame_skip", 2, indices=[0])
    with pytest.raises(ValueError, match="share one env"):
        venv.env_method("reset", indices=0)
    venv.set_options([{"game_seed": 5}, {}, {}])
    with pytest.raises(ValueError, match="same options"):
        venv.reset()
    venv.set_options({"game_seed": 5})
    venv.reset()
    assert venv.get_attr("game_seed") == [5, 5, 5]
    with pytest.raises(ValueError, match="ended"):
        venv.venv.restart([0])  # a game still going is not restarted


def test_sb3_ppo_trains_on_the_batch():
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(AsteroidsVecEnv("asteroids/Classic-v1", num_envs=4,
                                      max_episode_steps=30))
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=512)
    assert model.num_timesteps == 512
    episodes = list(model.ep_info_buffer)
    assert len(episodes) >= 4 * (512 // 4 // 30) and all(e["l"] <= 30 for e in episodes)
    action, _ = model.predict(venv.reset(), deterministic=True)
    assert action.shape == (4,)
