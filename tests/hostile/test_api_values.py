"""The reporter's bad values against the batch API and the Gymnasium environment, in a child
process under the suite's caps (768 MiB of address space, 20 s).

Each value must be refused with the documented exception (``ValueError``; for the
environment ``TypeError`` for a value of the wrong type) in one line of at most 600
characters, before a game is built or a tick is played: never played as another value
(``step(-1)`` as the last action, seed ``2**64`` as seed 0), never an ``OverflowError`` or
``IndexError`` from deep inside. The unit tests of each rule are
``tests/core/test_batch_values.py`` and ``tests/test_env_values.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.hostile.harness import MAX_LINE, MEMORY_CAP_MB, ROOT, TIME_LIMIT_S, capped

TRY = textwrap.dedent("""
    import json, sys
    import numpy as np
    out = []
    def attempt(what, call):
        try:
            call()
        except (ValueError, TypeError) as exc:
            out.append([what, type(exc).__name__, str(exc)])
        except BaseException as exc:  # an undocumented exception: the test names it
            out.append([what, type(exc).__name__, str(exc)[:2000]])
        else:
            out.append([what, "accepted", ""])
""")

BATCH = TRY + textwrap.dedent("""
    from asteroids.config import load_config
    from asteroids.core import new_batch, step_batch
    config = load_config("classic")
    batch = new_batch(config, [1, 2, 3, 4])
    for name, seeds in [("seed 1.5", [1.5]), ("seed '7'", ["7"]), ("seed True", [True]),
                        ("seed 2**64", [2**64]), ("seed 2**200", [2**200]),
                        ("seed -2**63-1", [-2**63 - 1]), ("seeds 'abc'", "abc"),
                        ("seeds float array", np.array([1.0, 2.0]))]:
        attempt(name, lambda s=seeds: new_batch(config, s))
    for name, masks in [("uint8 masks of 255", np.full(4, 255, np.uint8)),
                        ("masks of -1", [-1] * 4), ("masks of 64", [64] * 4),
                        ("float masks", [1.9] * 4), ("NaN masks", [float("nan")] * 4),
                        ("three masks", [0, 0, 0]), ("ragged masks", [[0], 0, 0, 0])]:
        attempt(name, lambda m=masks: step_batch(batch, m))
    print(json.dumps(out))
""")

ENV = TRY + textwrap.dedent("""
    import gymnasium as gym
    import asteroids.env  # registers the ids
    env = gym.make("asteroids/Classic-v0")
    env.reset(seed=1)
    for action in [-1, -14, 14, 1.7, "3", True, float("nan"), None, [3]]:
        attempt(f"step({action!r})", lambda a=action: env.step(a))
    for seed in [1.9, True, "7", -1, 2**63, 2**200]:
        attempt(f"reset game_seed {seed!r}", lambda s=seed: env.reset(options={"game_seed": s}))
    attempt("reset unknown option", lambda: env.reset(options={"lives": 99}))
    vec = gym.make_vec("asteroids/Classic-v0", num_envs=4,
                       vectorization_mode="vector_entry_point")
    vec.reset(seed=1)
    for actions in [[-1] * 4, [1.9] * 4, [float("nan")] * 4, [14] * 4, [1, 2, 3]]:
        attempt(f"vector step {actions!r}", lambda a=actions: vec.step(np.array(a)))
    print(json.dumps(out))
""")


def _run(script: str) -> list[list[str]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=TIME_LIMIT_S, preexec_fn=capped(MEMORY_CAP_MB))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _refused_in_one_short_line(results: list[list[str]]) -> None:
    for what, kind, message in results:
        assert kind in ("ValueError", "TypeError"), (what, kind, message)
        assert message and "\n" not in message and len(message) <= MAX_LINE, (what, message)


def test_the_batch_api_refuses_the_reported_seeds_and_masks() -> None:
    results = _run(BATCH)
    assert len(results) == 15
    assert all(kind == "ValueError" for _, kind, _ in results), results
    _refused_in_one_short_line(results)


@pytest.mark.rl
def test_the_environment_refuses_the_reported_actions_and_options() -> None:
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    results = _run(ENV)
    assert len(results) == 21
    _refused_in_one_short_line(results)
    kinds = dict((what, kind) for what, kind, _ in results)
    assert kinds["step(-1)"] == kinds["step(14)"] == "ValueError"
    assert kinds["step(1.7)"] == kinds["step('3')"] == kinds["step(True)"] == "TypeError"
