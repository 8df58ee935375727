"""The bots read their targets and dangers from the bodies tables: a declared enemy the
ship's shots can hit is aimed at, one that can take the ship is dodged, one game and
batched alike (asteroids.core.sight).

In a scratch copy of the package with the drifting mine of tests/enemy_scratch.py, run in a
subprocess: the aimer shoots mines down (``CraftDestroyed`` "mine" by "ship-shot"), the
batched aimer presses in every game, every tick, what the one-game aimer presses on that
game, and a game played alone by the one-game aimer presses the same masks as its lane of
the batch. Variants of the mine cover the other rows of the tables: a mine the ship's
shots cannot hit (a danger only, never aimed at) and one that cannot take the ship (a
target only, never dodged), and one declared as bouncing off the walls (its path folded).
A persona shoots mines too, and ``persona fit``'s measure counts them as kills.
The shipped game's aimer is pinned by the recorded digests of test_batch_bots.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.enemy_scratch import MINE_MODULE, later_with_mine

PLAY = r'''
import collections, json, sys
import numpy as np
from asteroids.config.loader import load_preset
from asteroids.core import new_world, step
from asteroids.core import events as ev
from asteroids.core.aim import Scene
from asteroids.core.batch import BATCHED_PASS_MIN, new_batch, step_batch
from asteroids.core.bot import aimer_bot
from asteroids.core.bot_batch import aimer_batch
from asteroids.core.params import params_for
from asteroids.core import sight

LANES, TICKS = max(16, BATCHED_PASS_MIN), int(sys.argv[2])
out = {"aimed": [int(k) for k in sight.AIMED], "avoided": [int(k) for k in sight.AVOIDED]}
for preset in sys.argv[1].split(","):
    cfg = load_preset(preset, overrides=["game.mines.every_s=1", "game.mines.radius_px=24"])
    p = params_for(cfg)
    seeds = list(range(1, LANES + 1))
    batch = new_batch(p, seeds)
    lane_masks = [[] for _ in seeds]
    seen = collections.Counter()
    for t in range(TICKS):
        masks = aimer_batch(batch, p)
        worlds = batch.worlds()
        for i, world in enumerate(worlds):
            want = aimer_bot(world, p)
            if int(masks[i]) != want:
                sys.exit(f"{preset}: game {i} tick {t}: batched {int(masks[i])}, one game {want}")
            if not world.game_over:
                lane_masks[i].append(want)
            if world.mine_alive and t % 10 == 0:
                sc = Scene(world, p)
                at = [world.mine_x, world.mine_y]
                mine = (sc.danger_pos == at).all(axis=1)
                harms = sc.harms is None or bool(sc.harms[mine].all())
                seen[f"mine a target {bool((sc.pos == at).all(axis=1).any())}"] += 1
                seen[f"mine a danger {bool(mine.any()) and harms}"] += 1
        batch, cols = step_batch(batch, masks, p)
        for i in range(LANES):
            for e in cols.of(i):
                if isinstance(e, ev.CraftDestroyed):
                    seen[f"{e.kind} by {e.by}"] += 1
                elif isinstance(e, ev.ShipDestroyed):
                    seen[f"ship by {e.cause}"] += 1
    for i, seed in enumerate(seeds[:4]):  # a game alone presses what its lane pressed
        world, alone = new_world(p, seed), []
        while world.tick < TICKS and not world.game_over:
            alone.append(aimer_bot(world, p))
            world, _ = step(world, alone[-1], p)
        if alone != lane_masks[i]:
            sys.exit(f"{preset}: game {i} alone pressed other masks than its lane")
    out[preset] = dict(seen)
print(json.dumps(out))
'''

SHOT_BY = "             shot_by=(Shooter.SHIP,))"
CONTACTS = "contacts=(Contact(Kind.SHIP, KIND, craft_by=CAUSE, other_by=Cause.SHIP),),"
VARIANTS = {
    "mine": [],
    "unshootable": [(SHOT_BY, "             shot_by=())")],
    "harmless": [(CONTACTS, "contacts=(),")],
    "bouncing": [(SHOT_BY, "             shot_by=(Shooter.SHIP,), wraps=lambda p: False)")],
}
"""Each variant's edits to the mine's module: (anchor, replacement)."""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return later_with_mine(tmp_path_factory.mktemp("enemy_bots"))


def _play(scratch: Path, variant: str, presets: str, ticks: int) -> dict:
    text = MINE_MODULE
    for anchor, new in VARIANTS[variant]:
        assert text.count(anchor) == 1, f"the mine's {anchor!r} moved; update this test"
        text = text.replace(anchor, new)
    (scratch / "asteroids" / "core" / "mine.py").write_text(text, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    run = subprocess.run([sys.executable, "-c", PLAY, presets, str(ticks)], env=env,
                         cwd=scratch, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def _shoots_and_dodges_mines(out: dict, presets: tuple[str, ...]) -> None:
    assert out["aimed"] == [2, 3] and out["avoided"] == []  # the saucer, then the mine
    for preset in presets:
        seen = out[preset]
        assert seen.get("mine by ship-shot", 0) >= 5, (preset, seen)
        assert seen.get("mine a target True", 0) > 0 and "mine a target False" not in seen
        assert seen.get("mine a danger True", 0) > 0 and "mine a danger False" not in seen


def test_the_aimer_shoots_mines_and_dodges_them_one_game_and_batched(scratch):
    _shoots_and_dodges_mines(_play(scratch, "mine", "classic", 400), ("classic",))


@pytest.mark.slow
def test_the_aimer_shoots_mines_longer_and_between_walls(scratch):
    _shoots_and_dodges_mines(_play(scratch, "mine", "classic,arena", 900), ("classic", "arena"))


@pytest.mark.slow
def test_a_mine_the_ship_cannot_shoot_is_only_dodged(scratch):
    out = _play(scratch, "unshootable", "classic", 600)
    assert out["aimed"] == [2] and out["avoided"] == [3]
    seen = out["classic"]
    assert "mine by ship-shot" not in seen
    assert seen.get("mine a danger True", 0) > 0 and "mine a target True" not in seen


@pytest.mark.slow
def test_a_mine_that_cannot_take_the_ship_is_only_shot(scratch):
    out = _play(scratch, "harmless", "classic,arena", 600)
    for preset in ("classic", "arena"):
        seen = out[preset]
        assert seen.get("mine by ship-shot", 0) >= 3, (preset, seen)
        assert seen.get("mine a target True", 0) > 0 and "mine a danger True" not in seen
        assert "ship by mine" not in seen


@pytest.mark.slow
def test_a_mine_declared_bouncing_is_led_by_its_folded_path(scratch):
    out = _play(scratch, "bouncing", "classic", 600)
    assert out["classic"].get("mine by ship-shot", 0) >= 3, out


PERSONAS = r'''
import json
from asteroids.config.loader import load_preset
from asteroids.core import new_world, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.pilots.measure import measure_game
from asteroids.replay import get_bot

cfg = load_preset("classic", overrides=["game.mines.every_s=1", "game.mines.radius_px=24"])
p = params_for(cfg)
out = {"mines shot": 0, "shot down": 0, "kills": 0}
for seed in range(1, 5):
    pilot, world, masks = get_bot("expert"), new_world(p, seed), []
    while world.tick < 1200 and not world.game_over:
        masks.append(pilot(world, p))
        world, events = step(world, masks[-1], p)
        for e in events:
            if isinstance(e, ev.CraftDestroyed) and e.by == "ship-shot":
                out["mines shot"] += 1
            if isinstance(e, ev.AsteroidDestroyed | ev.SaucerDestroyed | ev.CraftDestroyed):
                out["shot down"] += e.by == "ship-shot"
    out["kills"] += measure_game(cfg, seed, masks).kills
print(json.dumps(out))
'''


@pytest.mark.slow
def test_a_persona_shoots_mines_and_its_measure_counts_them(scratch):
    (scratch / "asteroids" / "core" / "mine.py").write_text(MINE_MODULE, "utf-8")
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    run = subprocess.run([sys.executable, "-c", PERSONAS], env=env, cwd=scratch,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["mines shot"] >= 3 and out["kills"] == out["shot down"], out
