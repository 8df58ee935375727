"""A declared enemy is counted and observed from the bodies tables, with no edit to the lab or
the env: in a scratch copy of the package with the mine added (tests/enemy_scratch.py), run
in a subprocess,

- the balance counters (``lab.game.Tally``, for ``play_game`` and ``play_batch``) count the
  mines the ship's shots destroy as kills and a ship lost to a mine under the cause "mine"
  (``DEATH_CAUSES`` ends with it; the summary and the report carry it), as the events say;
- the vector observation has the mine's block (present, dx, dy, vx, vy) after the shots
  block, where the mine is; the vector env gives the single envs' observations (Gymnasium's
  ``SyncVectorEnv``: one-game ``Craft`` views) value for value, mine block included, as
  does ``observe_columns`` reading the mine from a batch's columns; and the extended (v1)
  observation still begins with the plain one.

The shipped game (no enemy) is held unchanged by tests/test_balance*.py (``--json``
byte-identical on both engines) and tests/test_env*.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.enemy_scratch import later_with_mine

MINES_OFTEN = ["game.mines.every_s=0.2", "game.mines.radius_px=100",
               "game.mines.speed_px_per_s=300"]
"""Mines that come soon, big and fast: the spinner shoots some and is lost to some within
short games."""

COUNTERS = '''
import json, sys
from collections import Counter
from asteroids.config import load_config
from asteroids.config.loader import load_config_over
from asteroids.core import events as ev, new_world, step
from asteroids.core.bodies import NAMES
from asteroids.core.event_columns import encode
from asteroids.core.params import params_for
from asteroids.lab.batch_run import play_batch
from asteroids.lab.game import DEATH_CAUSES, Tally, play_game
from asteroids.lab.stats import summarize
from asteroids.replay import get_bot
import numpy as np

cfg = load_config_over(load_config("classic"), sys.argv[1:], source="test")
seeds, cap = list(range(16)), 1200
batched = play_batch(cfg, seeds, "spinner", cap)  # 16 lanes: the batched pass
one = [play_game(cfg, s, "spinner", cap)[0] for s in seeds]
p, bot = params_for(cfg), get_bot("spinner")
counted = []
for s in seeds:  # the same games counted from the one-game step's event objects
    w, kills, mines, deaths = new_world(p, s), 0, 0, Counter()
    while w.tick < cap and not w.game_over:
        w, events = step(w, bot(w, p), p)
        for e in events:
            broke = isinstance(e, ev.AsteroidDestroyed | ev.SaucerDestroyed | ev.CraftDestroyed)
            kills += broke and e.by == "ship-shot"
            mines += isinstance(e, ev.CraftDestroyed) and e.kind == "mine" and e.by == "ship-shot"
            if isinstance(e, ev.ShipDestroyed):
                deaths[e.cause] += 1
    counted.append({"kills": kills, "mines": mines, "deaths": dict(deaths)})
tally = Tally(np.array([1]))
tally.add(encode([[ev.CraftDestroyed("mine", 1.0, 2.0, "ship-shot", 300),
                   ev.CraftDestroyed("mine", 1.0, 2.0, "ship", 0),
                   ev.ShipDestroyed(1.0, 2.0, "mine", 2)]], NAMES),
          np.array([5]), np.array([1]))
hand = tally.result(0, 0, 60.0, ticks=5, game_over=False, score=300, wave=1, lives=2)
summary = summarize(batched)
print(json.dumps({
    "causes": list(DEATH_CAUSES), "batched": [r.as_dict() for r in batched],
    "one": [r.as_dict() for r in one], "counted": counted,
    "hand": {"kills": hand.kills, "deaths": hand.deaths},
    "summary": summary["deaths_total"],
}))
'''

OBSERVATION = '''
import json, sys
import gymnasium as gym
import numpy as np
from asteroids.config import load_config
from asteroids.config.loader import load_config_over
from asteroids.env.observation import CRAFT_BLOCK, STATUS, Observer, size

cfg = load_config_over(load_config("classic"), ["game.lives=1", *sys.argv[1:]], source="test")
kwargs = {"config": cfg, "max_ticks": 300, "extended_obs": True}
ours = gym.make_vec("asteroids/Classic-v0", num_envs=16, vectorization_mode="vector_entry_point",
                    **kwargs)
theirs = gym.make_vec("asteroids/Classic-v0", num_envs=16, vectorization_mode="sync", **kwargs)
env = ours.unwrapped
plain, extended = Observer(cfg), env.observer
at = 8 + 6 * plain.rocks + 12  # the mine's block: after the shots block
rng = np.random.default_rng(3)
a, _ = ours.reset(seed=5)
b, _ = theirs.reset(seed=5)
same = bool((a.view(np.uint32) == b.view(np.uint32)).all())
seen = ends = misplaced = prefix = columns = 0
for _ in range(400):
    batch = env.batch
    alive = batch.mine_alive
    seen += int(alive.sum())
    misplaced += int((a[:, at] != alive).sum())
    half = 0.5 * np.array([extended.p.width, extended.p.height])
    rel = np.stack([batch.mine_x - batch.ship_x, batch.mine_y - batch.ship_y], axis=1)
    rel = ((rel + half) % (2 * half) - half) / (2 * half)
    speed = extended.speed
    want = np.clip(np.concatenate([rel, np.stack([batch.mine_vx, batch.mine_vy], 1) / speed],
                                  axis=1), -1, 1)[alive]
    misplaced += int((np.abs(a[alive, at + 1:at + 5] - want) > 1e-6).sum())
    misplaced += int((a[~alive, at:at + CRAFT_BLOCK] != 0).sum())
    prefix += int((a[:, :size(plain.rocks)] != plain.observe_batch(batch)).sum())
    columns += int((extended.observe_columns(batch.columns()) != a).sum())  # views from columns
    actions = rng.integers(0, 14, size=16)
    a, _, term, trunc, _ = ours.step(actions)
    b, _, term_b, trunc_b, _ = theirs.step(actions)
    same = same and bool((a.view(np.uint32) == b.view(np.uint32)).all())
    same = same and bool((term == term_b).all() and (trunc == trunc_b).all())
    ends += int(term.sum() + trunc.sum())
print(json.dumps({
    "same": same, "seen": seen, "ends": ends, "misplaced": misplaced, "prefix": prefix,
    "columns": columns,
    "plain": plain.size, "plain_base": size(plain.rocks) - CRAFT_BLOCK,
    "extended": extended.size,
    "extended_want": size(plain.rocks) + STATUS + 6 * extended.p.shots_max_alive,
    "space": list(ours.single_observation_space.shape),
}))
'''


@pytest.fixture(scope="module")
def later(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch copy of the package with the mine."""
    return later_with_mine(tmp_path_factory.mktemp("enemy"))


def _run(pkg: Path, code: str, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=pkg, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_the_counters_count_mine_kills_and_deaths_by_mine(later):
    from asteroids.lab.game import DEATH_CAUSES

    got = _run(later, COUNTERS, *MINES_OFTEN)
    assert got["causes"] == [*DEATH_CAUSES, "mine"]
    assert got["hand"] == {"kills": 1, "deaths": {**dict.fromkeys(got["causes"], 0), "mine": 1}}
    assert got["batched"] == got["one"]  # one counter for both engines
    for result, counted in zip(got["one"], got["counted"], strict=True):
        assert result["kills"] == counted["kills"]
        assert result["deaths"] == {**dict.fromkeys(got["causes"], 0), **counted["deaths"]}
    mines_shot = sum(c["mines"] for c in got["counted"])
    lost_to_mines = sum(r["deaths"]["mine"] for r in got["one"])
    assert mines_shot > 0 and lost_to_mines > 0, (mines_shot, lost_to_mines)
    assert got["summary"]["mine"] == lost_to_mines


@pytest.mark.slow
@pytest.mark.rl
def test_the_observation_has_the_mine_and_the_vector_env_agrees_with_single_envs(later):
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    from asteroids.env.observation import CRAFT_BLOCK, size

    got = _run(later, OBSERVATION, "game.mines.every_s=0.5")
    assert got["plain_base"] == size(8) and got["plain"] == size(8) + CRAFT_BLOCK
    assert got["extended"] == got["extended_want"] == got["space"][0]
    assert got["seen"] > 500 and got["ends"] > 0, got  # mines on screen; games that reset
    assert got["misplaced"] == 0 and got["prefix"] == 0 and got["columns"] == 0, got
    assert got["same"], "the vector env's observations are not the single envs'"
