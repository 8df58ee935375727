"""The World's fields, declared once in its body: every layer that lists them (Draft, new
games, the hashes, a Batch's columns and packing) lists exactly those, and a new field is one
line there; the named kinds keep the ints a World holds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from asteroids.config.schema import Config
from asteroids.core import new_world, state_hash, step
from asteroids.core.batch import ARRAY_FIELDS, SCALAR_FIELDS, new_batch
from asteroids.core.batch_rows import ROW_KINDS
from asteroids.core.hashing import field_digests
from asteroids.core.kinds import Cause, Hit, Kind, ShipState, Shooter
from asteroids.core.params import params_for
from asteroids.core.world import FIELD_NAMES, FIELDS, NEUTRAL, Draft, World

ROOT = Path(__file__).resolve().parents[2]


def test_draft_declares_every_world_field_with_its_type() -> None:
    world = dict(World.__annotations__)
    assert tuple(world) == FIELD_NAMES
    assert Draft.__annotations__ == world


def test_every_layer_lists_exactly_the_tables_fields() -> None:
    """World's body is the one list: a new game, a Draft, the hashes and a Batch's columns
    (per game and rows, with the table's dtypes) hold exactly its fields, in its order."""
    assert FIELD_NAMES == tuple(s.name for s in FIELDS) and len(FIELD_NAMES) == 57
    world = new_world(Config(), 3)
    assert tuple(vars(world)) == FIELD_NAMES
    assert tuple(n for n in vars(Draft(world)) if not n.startswith("_")) == FIELD_NAMES
    assert len(field_digests(world)) == len(FIELD_NAMES)
    assert (*SCALAR_FIELDS, *ARRAY_FIELDS) == tuple(
        [s.name for s in FIELDS if s.rows is None] + [s.name for s in FIELDS if s.rows])
    assert set(ROW_KINDS["ast"]) | set(ROW_KINDS["shot"]) | {"ast_local", "ast_offsets"} == set(
        ARRAY_FIELDS)
    batch = new_batch(Config(), [1, 2])
    assert tuple(batch.columns()) == (*FIELD_NAMES, "ast_rows", "shot_rows")
    for spec in FIELDS:
        column = getattr(batch, spec.name)
        assert column.dtype == spec.dtype, spec.name
        if spec.rows is None:
            assert column.shape == (2,) and type(getattr(world, spec.name)) is spec.kind
        else:
            assert column.shape[1:] == spec.shape, spec.name
    assert dict(NEUTRAL) == {"ship_grace": 0}


NEW_FIELD = "    bonus_ticks: int = per_game(0, neutral=0)\n"
"""The one line a new World field takes (added after the first release, so with a neutral
value that keeps every older game's hashes)."""

FOLLOW_THE_FIELD = """
import json
import numpy as np
from asteroids.config.schema import Config
from asteroids.core import new_world, state_hash, step
from asteroids.core.batch import pack, step_batch
from asteroids.core.hashing import field_digests
from asteroids.core.params import params_for
from asteroids.core.world import FIELD_NAMES, NEUTRAL, Draft

p = params_for(Config())
world = new_world(p, 5)
worlds, values = [], list(range(16))
for k in values:
    d = Draft(world)
    d.bonus_ticks = k
    worlds.append(d.freeze())
moved = [step(w, 8, p)[0] for w in worlds]
batch = pack(worlds, p, range(16), keep_worlds=False)
after, _ = step_batch(batch, np.full(16, 8), p)
print(json.dumps({
    "listed": "bonus_ticks" in FIELD_NAMES, "neutral": NEUTRAL.get("bonus_ticks"),
    "digests": len(field_digests(world)), "new": world.bonus_ticks,
    "hash": state_hash(world), "hash_3": state_hash(worlds[3]),
    "stepped": [w.bonus_ticks for w in moved],
    "column": [str(batch.bonus_ticks.dtype), batch.bonus_ticks.tolist()],
    "unpacked": [[type(w.bonus_ticks).__name__, w.bonus_ticks] for w in batch.worlds()],
    "batched": after.bonus_ticks.tolist(),
    "same": [state_hash(a) == state_hash(b) for a, b in zip(after.worlds(), moved)],
}))
"""


def test_a_new_field_is_one_line(tmp_path: Path) -> None:
    """In a scratch copy of the package, one line in World's body gives a field that a new
    game starts at its declared value, a Draft reads and writes, a step carries, a Batch packs
    into a column of the declared dtype, reads back, and steps in its batched pass, and the
    hash takes in (left out at its neutral value, so today's games keep their hashes)."""
    pkg = tmp_path / "later"
    shutil.copytree(ROOT / "asteroids", pkg / "asteroids",
                    ignore=shutil.ignore_patterns("__pycache__", "demos", "presets"))
    shutil.copytree(ROOT / "asteroids" / "config" / "presets",
                    pkg / "asteroids" / "config" / "presets")
    path = pkg / "asteroids" / "core" / "world.py"
    text = path.read_text("utf-8")
    anchor = "    game_over: bool = per_game(False)\n"
    assert text.count(anchor) == 1, "the anchor moved; update this test"
    path.write_text(text.replace(anchor, anchor + NEW_FIELD), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(pkg)}
    done = subprocess.run([sys.executable, "-c", FOLLOW_THE_FIELD], capture_output=True,
                          text=True, env=env, cwd=pkg, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert got["listed"] and got["neutral"] == 0 and got["new"] == 0
    assert got["digests"] == len(FIELD_NAMES) + 1
    assert got["hash"] == state_hash(new_world(Config(), 5))  # neutral: left out
    assert got["hash_3"] != got["hash"]
    assert got["stepped"] == list(range(16))
    assert got["column"] == ["int64", list(range(16))]
    assert got["unpacked"] == [["int", k] for k in range(16)]
    assert got["batched"] == list(range(16)) and all(got["same"])


def test_named_kinds_keep_the_ints_a_world_holds() -> None:
    """The values ``state_hash`` hashes are the ints they were before the kinds had names."""
    assert [int(s) for s in ShipState] == [0, 1, 2]
    assert [int(s) for s in Shooter] == [0, 1]
    assert [int(h) for h in Hit] == [0, 1, 2, 3, 4]
    assert [int(k) for k in Kind] == [0, 1, 2]
    assert [c.label for c in Cause] == ["ship-shot", "saucer-shot", "ship", "saucer",
                                        "asteroid", "hyperspace"]


def test_a_world_carries_no_rules() -> None:
    """The compiled rules are passed, never carried: a World holds only its state, and
    stepping with a Config (compiled on the call) or with its Params gives the same World."""
    cfg = Config()
    world = new_world(cfg, 3)
    assert set(vars(world)) == set(FIELD_NAMES)
    p = params_for(cfg)
    by_config, _ = step(world, 8, cfg)
    by_params, _ = step(world, 8, p)
    assert set(vars(by_params)) == set(FIELD_NAMES)
    again, _ = step(new_world(p, 3), 8, p)
    assert state_hash(by_config) == state_hash(by_params) == state_hash(again)
