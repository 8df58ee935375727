"""The Gymnasium environment (marker ``rl``; the ``[rl]`` extra): registration, the env
checker, observation and actions, reward, episode ends, seeding, replays, rendering."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from asteroids.config import load_config
from asteroids.core import new_world, step
from asteroids.replay import load_replay, verify_replay

ROOT = Path(__file__).resolve().parent.parent


def test_without_gymnasium_the_import_says_how_to_get_it():
    code = ("import sys; sys.modules['gymnasium'] = None\n"
            "try:\n    import asteroids.env\nexcept ImportError as e:\n    print(e)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60)
    assert "pip install 'asteroids[rl]'" in out.stdout, out.stderr


gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
from asteroids.env import ACTION_NAMES, ACTIONS, ENV_IDS  # noqa: E402
from asteroids.env.observation import size  # noqa: E402

pytestmark = pytest.mark.rl


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_the_env_checker_passes(env_id):
    from gymnasium.utils.env_checker import check_env

    env = gym.make(env_id, max_ticks=300)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_any_toml_works_through_config(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("[game]\nlives = 1\n[world]\nwidth_px = 1600\n")
    env = gym.make("asteroids/Default-v0", config=str(mine))
    assert env.unwrapped.config.world.width_px == 1600
    assert env.unwrapped.config.game.lives == 1
    env = gym.make("asteroids/Default-v0", config="classic")
    assert env.unwrapped.config == load_config("classic")


def test_the_observation_holds_the_ship_and_the_nearest_rocks_in_the_documented_places():
    env = gym.make("asteroids/Classic-v0", rocks=5).unwrapped
    obs, info = env.reset(seed=1)
    assert obs.shape == (size(5),) == (8 + 6 * 5 + 12,) and obs.dtype == np.float32
    w = env.world
    assert obs[0] == pytest.approx(w.ship_x / 1024.0) and obs[1] == pytest.approx(w.ship_y / 768.0)
    assert obs[6] == 1.0 and obs[7] == 1.0  # flying, fire ready
    rocks = obs[8:8 + 30].reshape(5, 6)
    present = int(min(w.ast_id.shape[0], 5))
    assert (rocks[:present, 0] == 1.0).all() and (rocks[present:] == 0.0).all()
    dist = np.hypot(rocks[:present, 1] * 1024.0, rocks[:present, 2] * 768.0)
    assert (np.diff(dist) >= 0).all()  # nearest first
    assert (np.abs(obs) <= 1.0).all()


def test_actions_are_the_documented_button_combinations():
    assert len(ACTIONS) == 14 == len(set(ACTIONS))
    assert ACTION_NAMES[0] == "nothing" and ACTION_NAMES[11] == "right+thrust+fire"
    assert ACTION_NAMES[12:] == ("hyperspace", "shield")


def test_reward_is_the_score_and_the_game_is_the_game_of_its_seed():
    env = gym.make("asteroids/Classic-v0", max_ticks=400).unwrapped
    obs, info = env.reset(seed=4)
    world = new_world(env.config, info["game_seed"])
    total = 0.0
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.integers(len(ACTIONS)))
        obs, reward, terminated, truncated, info = env.step(action)
        world, _ = step(world, ACTIONS[action], env.config)
        total += reward
        done = terminated or truncated
    assert total == world.score == info["score"]
    assert world.tick == 400 and truncated and not terminated


def test_truncation_comes_at_max_ticks_and_not_one_tick_before():
    env = gym.make("asteroids/Default-v0", max_ticks=10).unwrapped
    env.reset(seed=0)
    for _ in range(9):
        assert env.step(0)[3] is False
    assert env.step(0)[3] is True


def test_terminated_at_game_over():
    one_ship = load_config(overrides=["game.lives=1"])
    env = gym.make("asteroids/Default-v0", config=one_ship, max_ticks=100_000).unwrapped
    env.reset(seed=2)
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, _ = env.step(0)
    assert terminated and not truncated and env.world.game_over


def test_one_episode_end_rule_for_one_game_and_for_a_batch():
    """The single env and the vector env end episodes by one text (``episode_end``): per
    lane, the vector's answer is the single env's, and both are plain bools for one game."""
    from asteroids.core.lanes import MANY
    from asteroids.env.environment import episode_end

    cases = [(over, tick, lost) for over in (False, True) for tick in (9, 10, 11)
             for lost in (False, True)]
    many = episode_end(np.array([c[0] for c in cases]), np.array([c[1] for c in cases]), 10,
                       np.array([c[2] for c in cases]), MANY)
    for i, (over, tick, lost) in enumerate(cases):
        one = episode_end(over, tick, 10, lost)
        assert type(one[0]) is bool and type(one[1]) is bool
        assert one == (over or lost, not (over or lost) and tick >= 10)
        assert (bool(many[0][i]), bool(many[1][i])) == one


def test_the_same_seed_gives_the_same_episode():
    def run(seed: int) -> list[float]:
        env = gym.make("asteroids/Arena-v0", max_ticks=200).unwrapped
        obs, _ = env.reset(seed=seed)
        out = [float(obs.sum())]
        for k in range(200):
            obs, *_ = env.step(k % len(ACTIONS))
            out.append(float(obs.sum()))
        return out

    assert run(7) == run(7) and run(7) != run(8)


def test_every_episode_can_be_saved_as_a_replay_that_verifies(tmp_path):
    env = gym.make("asteroids/Classic-v0", max_ticks=150, replay_dir=tmp_path).unwrapped
    for seed in (1, 2):
        env.reset(seed=seed)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(5)
            done = terminated or truncated
    files = sorted(tmp_path.iterdir())
    assert len(files) == 2
    replay = load_replay(files[-1])
    assert verify_replay(replay).ok
    assert (replay.seed, replay.ticks, replay.final_score) == (info["game_seed"], 150,
                                                                info["score"])


@pytest.mark.gl
def test_rgb_array_frames_come_from_the_game_renderer():
    env = gym.make("asteroids/Classic-v0", render_mode="rgb_array", max_ticks=50)
    env.reset(seed=3)
    env.step(0)
    frame = env.render()
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
    assert frame.max() > 0 and (frame == 0).mean() > 0.5  # lines on black
    env.close()


# --- the vector environment -----------------------------------------------------------

def _run_vec(envs, steps: int, seed: int) -> list[tuple]:
    """``steps`` random steps of ``envs`` from ``reset(seed=seed)``: what each step gave."""
    rng = np.random.default_rng(seed)
    obs, info = envs.reset(seed=seed)
    trace = [(obs.copy(), np.asarray(info["game_seed"]).copy())]
    for _ in range(steps):
        actions = rng.integers(0, len(ACTIONS), envs.num_envs)
        obs, reward, term, trunc, info = envs.step(actions)
        trace.append((obs.copy(), reward.copy(), term.copy(), trunc.copy(),
                      np.asarray(info["game_seed"]).copy(), np.asarray(info["score"]).copy()))
    return trace


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_make_vec_gives_the_trajectories_of_single_envs_seeded_alike(env_id):
    """vector_entry_point against Gymnasium's own SyncVectorEnv of B single envs: the same
    observations, rewards, ends, game seeds and scores at every step, through games that end
    (one life, random buttons) at different ticks, truncations and autoresets."""
    config = load_config(ENV_IDS[env_id], overrides=["game.lives=1"])
    kwargs = {"config": config, "max_ticks": 240, "frame_skip": 2}
    ours = gym.make_vec(env_id, num_envs=5, vectorization_mode="vector_entry_point", **kwargs)
    theirs = gym.make_vec(env_id, num_envs=5, vectorization_mode="sync", **kwargs)
    from asteroids.env import AsteroidsVectorEnv

    assert isinstance(ours.unwrapped, AsteroidsVectorEnv)
    a, b = _run_vec(ours, 400, seed=11), _run_vec(theirs, 400, seed=11)
    ends = sum(int(t[2].sum() + t[3].sum()) for t in a[1:])
    assert ends >= 10 and any(t[2].any() for t in a[1:])  # games ended, and were reset
    assert any(len(set(t[2].nonzero()[0])) < 5 for t in a[1:] if t[2].any())  # not together
    for step_a, step_b in zip(a, b, strict=True):
        for x, y in zip(step_a, step_b, strict=True):
            np.testing.assert_array_equal(x, y)
    ours.close()
    theirs.close()


def test_the_vector_env_keeps_to_its_spaces_and_reads_any_toml(tmp_path):
    toml = tmp_path / "mine.toml"
    toml.write_text("[game]\nlives = 2\n")
    envs = gym.make_vec("asteroids/Default-v0", num_envs=3,
                        vectorization_mode="vector_entry_point", config=str(toml))
    obs, _ = envs.reset(seed=1)
    assert obs.shape == (3, size(envs.unwrapped.observer.rocks)) and obs.dtype == np.float32
    assert envs.observation_space.contains(obs)
    assert envs.unwrapped.batch.lives.tolist() == [2] * 3
    obs, reward, term, trunc, _ = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(obs) and reward.shape == term.shape == (3,)
    with pytest.raises(ValueError, match="2 seeds for 3 games"):
        envs.reset(seed=[1, 2])
    envs.close()
