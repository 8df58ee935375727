"""Schema-valid rules the kernels or bots once refused, and ``verify`` keeping files apart.

``ship.shield.restitution`` up to 1.5 is valid, but the bounce refused anything over 1: the
first shield contact raised, in the game and in ``verify``. A turn rate that rounds to no
heading step per tick made the aimer bot divide by zero in ``record`` and ``balance``. And
one such file in ``verify --jobs 2`` killed the batch: the files after it were never
reported. (``tests/test_schema_extremes.py`` walks every end of every range in-process.)
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from asteroids.config import load_config
from asteroids.core import new_world, step
from asteroids.core.bot import bot_input
from asteroids.core.inputs import InputFrame
from asteroids.core.params import params_for
from asteroids.replay import Recorder, load_replay, rules_fingerprint, save_replay
from asteroids.replay.batch import Item, Result, pooled, verify_file
from tests.hostile.harness import (
    EXIT_BAD_INPUT,
    EXIT_MISMATCH,
    EXIT_OK,
    GOLDEN,
    reseal,
    run_cli,
    with_line,
)

GOOD = GOLDEN / "idle.replay"
BOUNCY = ("ship.shield.enabled=true", "ship.shield.restitution=1.5",
          "ship.shield.radius_px=120", "game.first_wave_asteroids=8")
"""A 1.5-restitution shield, wide, among more rocks: contacts come within seconds."""


def _bouncy_game(path: Path, ticks: int = 300) -> int:
    """Record a game whose rocks bounce off the shield (held every other 25 ticks); returns
    how many ticks turned a rock (rocks fly straight otherwise: nothing else turns them)."""
    config = load_config(overrides=BOUNCY)
    p = params_for(config)  # compiled once, passed every tick
    world = new_world(p, 1)
    recorder = Recorder(config, 1)
    bounces = 0
    for t in range(ticks):
        mask = bot_input(world, config.world.width_px, config.world.height_px, 2)
        mask |= int(InputFrame.SHIELD) if t // 25 % 2 else 0
        before = world
        world, _ = step(world, mask, p)
        recorder.add(mask, world)
        same = world.ast_id.shape == before.ast_id.shape and (world.ast_id == before.ast_id).all()
        bounces += bool(same and world.shield_on and (world.ast_vel != before.ast_vel).any())
    save_replay(recorder.finish(world), path)
    return bounces


def test_a_bouncy_shield_records_and_verifies(tmp_path: Path) -> None:
    assert _bouncy_game(tmp_path / "bouncy.replay") > 0
    out = run_cli("verify", "bouncy.replay", expect=EXIT_OK, cwd=tmp_path)
    assert "bouncy.replay: ok: 300 ticks" in out.stdout


def test_the_aimer_records_and_balances_a_ship_that_cannot_turn(tmp_path: Path) -> None:
    out = run_cli("record", "--bot", "aimer", "--seed", "1", "--ticks", "300", "--out",
                  "slow.replay", "--set", "ship.turn_deg_per_s=1", expect=EXIT_OK,
                  cwd=tmp_path)
    assert "wrote slow.replay: 300 ticks" in out.stdout
    run_cli("verify", "slow.replay", expect=EXIT_OK, cwd=tmp_path)
    out = run_cli("balance", "--bot", "aimer", "--games", "2", "--ticks", "200", "--jobs", "1",
                  "--sweep", "ship.turn_deg_per_s=0,2", expect=EXIT_OK, cwd=tmp_path)
    assert "ship.turn_deg_per_s=0" in out.stdout


def test_verify_jobs_reports_every_file_around_unusable_ones(tmp_path: Path) -> None:
    text = GOOD.read_text()
    (tmp_path / "huge-seed.replay").write_bytes(with_line(text, "seed", "0x" + "f" * 4000))
    (tmp_path / "edited.replay").write_bytes(reseal(text.replace("lives = 3", "lives = 4")))
    (tmp_path / "other-end.replay").write_bytes(
        with_line(text, "final_hash", '"' + "0" * 32 + '"'))
    os.mkfifo(tmp_path / "pipe.replay")
    files = ["huge-seed.replay", str(GOOD), "pipe.replay", "edited.replay", str(GOOD),
             "other-end.replay", str(GOOD)]
    out = run_cli("verify", "--jobs", "2", *files, expect=EXIT_BAD_INPUT, cwd=tmp_path)
    lines = out.stdout.splitlines()
    unusable = "unusable (see the error above)"
    assert [line.split(": ")[1] for line in lines[:-1]] == [
        unusable, "ok", unusable, unusable, "ok", "MISMATCH", "ok"]
    assert lines[-1] == "7 files: 3 ok, 1 mismatch, 3 unusable"
    assert len(out.stderr.splitlines()) == 3  # one paragraph per unusable file


def test_verify_says_mismatch_for_a_bouncy_game_checked_with_an_elastic_shield(
        tmp_path: Path) -> None:
    assert _bouncy_game(tmp_path / "bouncy.replay") > 0
    replay = load_replay(tmp_path / "bouncy.replay")
    elastic = load_config(overrides=[s for s in BOUNCY if "restitution" not in s])
    save_replay(dataclasses.replace(replay, config=elastic, rules=rules_fingerprint(elastic)),
                tmp_path / "elastic.replay")
    out = run_cli("verify", "--jobs", "2", "elastic.replay", str(GOOD), expect=EXIT_MISMATCH,
                  cwd=tmp_path)
    assert "elastic.replay: MISMATCH: " in out.stdout and "1 ok, 1 mismatch" in out.stdout


# --- a worker that dies or raises costs one line -----------------------------------------------


def flaky(item: Item) -> Result:
    """A checker that dies on ``die``, raises on ``raise``, else verifies (for ``pooled``,
    which runs it in worker processes: it must be importable there)."""
    name = item[0]
    if name == "die":
        os._exit(9)
    if name == "raise":
        raise ValueError("a checker that raises")
    return verify_file(name)


def test_a_dying_or_raising_worker_costs_only_its_own_file() -> None:
    good = str(GOOD)
    items: list[Item] = [(good, None), ("die", None), (good, None), ("raise", None),
                         (good, None), (good, None)]
    results = list(pooled(flaky, items, 2))
    assert [r["file"] for r in results] == [name for name, _ in items]
    assert [r["status"] for r in results] == ["ok", "bad-input", "ok", "bad-input", "ok", "ok"]
    assert "die: the process checking it died" in str(results[1]["error"])
    assert "ValueError: a checker that raises" in str(results[3]["error"])
