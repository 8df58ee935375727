"""A new enemy is one rules module, one line in ``bodies.ENEMIES``, its state, its settings
table and its look: proved the way test_adding_a_rule.py proves a knob.

In a scratch copy of the package (tests/enemy_scratch.py) a later version adds a drifting
mine that explodes on contact, touching at most five files. In that copy, run in a
subprocess: the mine plays one game at a time and batched with every game's state and
events identical after every tick on every preset, and does what a mine does (drifts in,
is shot for points, takes the ship that touches it, the shield sets it off safely); the
scene and the pixel observation draw it and the sound bank plays its own sound; a game
recorded with mines verifies;
and every archived, golden and demo replay still verifies, since a game whose rules predate
the mine never sees one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.enemy_scratch import ROOT, files_touched, later_with_mine

pytestmark = pytest.mark.slow

CHECK = r'''
import collections, json, sys
import numpy as np
from asteroids.config.loader import load_preset
from asteroids.core import new_world, state_hash, step
from asteroids.core import events as ev
from asteroids.core.batch import BATCHED_PASS_MIN, new_batch, step_batch
from asteroids.core.params import params_for

out = {}
for preset in ("classic", "default", "arena"):
    cfg = load_preset(preset, overrides=["game.mines.every_s=1.5", "game.mines.radius_px=30"])
    p = params_for(cfg)
    lanes, ticks = max(24, BATCHED_PASS_MIN), 900
    seeds = list(range(1, lanes + 1))
    masks = np.random.default_rng(7).integers(0, 64, size=(ticks, lanes)) & ~0x10
    masks[:, ::3] &= ~0x20  # a third of the games never raise the shield
    worlds = [new_world(p, s) for s in seeds]
    batch = new_batch(p, seeds)
    seen = collections.Counter()
    for t in range(ticks):
        batch, cols = step_batch(batch, masks[t], p)
        for i in range(lanes):
            worlds[i], events = step(worlds[i], int(masks[t, i]), p)
            if state_hash(batch.world(i)) != state_hash(worlds[i]):
                sys.exit(f"{preset}: game {i} differs after tick {t + 1}")
            if cols.of(i) != events:
                sys.exit(f"{preset}: game {i}'s events differ at tick {t + 1}")
            for e in events:
                if isinstance(e, ev.CraftSpawned):
                    seen[f"{e.kind} came"] += 1
                elif isinstance(e, ev.CraftDestroyed):
                    seen[f"{e.kind} by {e.by} for {e.points}"] += 1
                elif isinstance(e, ev.ShipDestroyed):
                    seen[f"ship by {e.cause}"] += 1
    # Directed: a still mine on the ship's centre (no grace), half the games shielded.
    from dataclasses import replace
    from asteroids.core.batch import pack
    start = [replace(w, mine_alive=True, mine_x=w.ship_x + 3.0, mine_y=w.ship_y, mine_vx=0.0,
                     mine_vy=0.0, ship_grace=0, ship_state=0, game_over=False)
             for w in (new_world(p, s) for s in seeds)]
    shield = np.where(np.arange(lanes) % 2 == 1, 0x20, 0)
    batch, cols = step_batch(pack(start, p, seeds), shield, p)
    for i in range(lanes):
        world, events = step(start[i], int(shield[i]), p)
        if state_hash(batch.world(i)) != state_hash(world) or cols.of(i) != events:
            sys.exit(f"{preset}: the directed game {i} differs")
        for e in events:
            if isinstance(e, ev.CraftDestroyed):
                seen[f"touched: {e.kind} by {e.by}, shield {bool(shield[i])}"] += 1
            elif isinstance(e, ev.ShipDestroyed):
                seen[f"touched: ship by {e.cause}, shield {bool(shield[i])}"] += 1
    out[preset] = dict(seen)
    out[preset + " has shields"] = bool(p.ship_shield_enabled)

# The app: the scene draws a mine in play, the bank has its sound and plays it.
from asteroids.app.audio import cues
from asteroids.app.scene import SceneBuilder
from asteroids.app.synth import render_set
cfg = load_preset("classic", overrides=["game.mines.every_s=0.1"])
p = params_for(cfg)
world = new_world(p, 3)
before = len(SceneBuilder(cfg).build(world, world, 0.5))
while not world.mine_alive:
    world, _ = step(world, 0, p)
after = len(SceneBuilder(cfg).build(world, world, 0.5))
out["scene"] = [before, after]
out["cue"] = list(cues(ev.CraftDestroyed("mine", 1.0, 2.0, "ship-shot", 300)))
out["voice"] = "enemy_mine" in render_set("cabinet")
print(json.dumps(out))
'''


def _run(pkg: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pkg), "ASTEROIDS_DATA_DIR": str(pkg / "data"),
           "ARCADE_HEADLESS": "1"}
    cmd = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m",
                                                                 "asteroids", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=pkg, timeout=600,
                          check=False)


def test_the_mine_touches_at_most_five_files() -> None:
    touched = files_touched()
    assert len(touched) <= 5, touched
    assert "core/mine.py" in touched and "core/bodies.py" in touched


def test_a_mine_plays_one_game_and_batched_alike_and_is_drawn_and_heard(
        tmp_path: Path) -> None:
    pkg = later_with_mine(tmp_path)
    done = _run(pkg, code=CHECK)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    out = json.loads(done.stdout)
    for preset in ("classic", "default", "arena"):
        seen = out[preset]
        assert seen.get("mine came", 0) >= 10, (preset, seen)
        assert seen.get("mine by ship-shot for 300", 0) >= 1, (preset, seen)
        half = 12
        # Touching it unshielded: both go; shielded: the mine goes, the ship stays (a
        # preset without shields loses every ship).
        assert seen.get("touched: ship by mine, shield False") == half, (preset, seen)
        assert seen.get("touched: mine by ship, shield False") == half, (preset, seen)
        assert seen.get("touched: mine by ship, shield True") == half, (preset, seen)
        shielded_lost = seen.get("touched: ship by mine, shield True", 0)
        assert shielded_lost == (0 if out[preset + " has shields"] else half), (preset, seen)
    before, after = out["scene"]
    assert after >= before + 8 + 4, out["scene"]  # its octagon and four spikes
    assert out["cue"] == [["play", "enemy_mine"]]
    assert out["voice"] is True


PIXELS = r'''
from dataclasses import replace
from asteroids.config.loader import load_preset
from asteroids.core import new_world, step
from asteroids.core.batch import pack
from asteroids.core.params import params_for
from asteroids.env.pixels import Rasteriser
cfg = load_preset("classic", overrides=["game.mines.every_s=0.1"])
p = params_for(cfg)
world = new_world(p, 3)
while not world.mine_alive:
    world, _ = step(world, 0, p)
raster = Rasteriser(cfg)
frame = raster.world_frame(world)
batch = pack([world] * 2, p, [3, 3])
print(bool((frame != raster.world_frame(replace(world, mine_alive=False))).any()),
      bool((raster.frames(batch.columns())[1] == frame).all()))
'''


def test_the_pixel_observation_draws_a_mine(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    done = _run(later_with_mine(tmp_path), code=PIXELS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["True", "True"]  # a mine shows; a batch draws it alike


def test_every_old_replay_verifies_and_a_mine_game_replays(tmp_path: Path) -> None:
    from tests.test_adding_a_rule import REPLAYS

    pkg = later_with_mine(tmp_path)
    done = _run(pkg, "verify", "--jobs", "2", "--json", *map(str, REPLAYS))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    files = json.loads(done.stdout)["files"]
    assert len(files) == len(REPLAYS) and all(f["status"] == "ok" for f in files)

    game = tmp_path / "mines.replay"
    done = _run(pkg, "record", "--bot", "aimer", "--seed", "5", "--ticks", "1200",
                "--set", "game.mines.every_s=1", "--out", str(game))
    assert done.returncode == 0, done.stderr
    assert _run(pkg, "verify", str(game)).returncode == 0
    # This build (no mines) meeting the newer version's game says which version wrote it.
    here = subprocess.run([sys.executable, "-m", "asteroids", "verify", str(game)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert here.returncode != 0 and "0.3.0" in here.stderr, here.stderr
