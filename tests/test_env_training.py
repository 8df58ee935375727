"""Training on the env (marker ``rl``): the persona figures by the evaluation protocol, and a
short smoke of examples/ppo.py and its curve (skipped without torch, the [rl-train] extra)."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
import asteroids.env  # noqa: E402,F401
from asteroids.env.evaluation import EVAL_SEEDS, evaluate_pilot  # noqa: E402
from asteroids.lab.game import play_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.rl


def test_a_persona_plays_each_evaluation_seeds_own_game_to_the_cap():
    env = gym.make("asteroids/Classic-v1")
    result = evaluate_pilot("novice", episodes=2, cap=300)
    assert len(result.scores) == 2
    for seed, score, length in zip(EVAL_SEEDS, result.scores, result.lengths, strict=False):
        game_seed = env.reset(seed=seed)[1]["game_seed"]
        game, _ = play_game(env.unwrapped.config, game_seed, "novice", 300 * 4)
        assert score == game.score
        assert length == -(-game.ticks // 4) <= 300
    with pytest.raises(ValueError, match="episodes"):
        evaluate_pilot("novice", episodes=0)


def test_the_ppo_example_trains_saves_evaluates_and_draws_its_curve(tmp_path):
    pytest.importorskip("torch", reason="the [rl-train] extra (torch) is not installed")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = [sys.executable, str(ROOT / "examples" / "ppo.py"), "--total-steps", "512",
           "--num-envs", "4", "--num-steps", "32", "--max-episode-steps", "20",
           "--csv", str(tmp_path / "run.csv"), "--save", str(tmp_path / "w.pt"),
           "--eval-episodes", "1", "--frame-stack", "2", "--ent-coef-final", "0.001"]
    out = subprocess.run(run, capture_output=True, text=True, env=env, timeout=240)
    assert out.returncode == 0, out.stderr
    played = int(re.search(r"trained (\d+) env steps", out.stdout).group(1))
    assert 400 <= played < 512  # 4 games x 128 steps, less the restart steps
    assert "ppo: median" in out.stdout and "novice persona: median" in out.stdout
    with (tmp_path / "run.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert rows and all(1 <= int(r["length"]) <= 20 for r in rows)
    again = subprocess.run([sys.executable, str(ROOT / "examples" / "ppo.py"), "--evaluate",
                            str(tmp_path / "w.pt"), "--eval-episodes", "1"],
                           capture_output=True, text=True, env=env, timeout=240)
    assert again.returncode == 0, again.stderr
    line = next(x for x in out.stdout.splitlines() if "ppo: median" in x)
    assert line in again.stdout  # the saved weights (and their stack) evaluate as trained
    curve = subprocess.run([sys.executable, str(ROOT / "examples" / "ppo_curve.py"),
                            str(tmp_path / "run.csv"), str(tmp_path / "c.png"),
                            "--novice", "1880"], capture_output=True, text=True, env=env,
                           timeout=120)
    assert curve.returncode == 0, curve.stderr
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
