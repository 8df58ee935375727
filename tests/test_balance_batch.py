"""``asteroids balance --engine batch``: its games are the pool's, result for
result, and its ``--json`` is byte-identical to the pool engine's."""

from __future__ import annotations

from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config.loader import load_preset
from asteroids.core import batch as batch_module
from asteroids.lab.batch_run import play_batch
from asteroids.lab.game import play_game


def json_of(tmp_path: Path, engine: str, *argv: str) -> bytes:
    out = tmp_path / f"{engine}.json"
    assert cli.main(["balance", *argv, "--engine", engine, "--json", str(out)]) == 0
    return out.read_bytes()


@pytest.fixture
def batched(monkeypatch):
    """Batches of any size take the batched pass and the lab's batch engine (a real run
    does from ``BATCHED_PASS_MIN`` games a worker on)."""
    monkeypatch.setattr(batch_module, "BATCHED_PASS_MIN", 1)


def test_batch_and_pool_write_the_same_json_bytes(tmp_path, batched):
    argv = ("--config", "classic", "--sweep", "game.lives=1,2", "--bot", "spinner", "--games",
            "10", "--ticks", "500", "--jobs", "1")
    assert json_of(tmp_path, "batch", *argv) == json_of(tmp_path, "pool", *argv)


@pytest.mark.slow
def test_batch_over_two_processes_writes_the_same_json_as_the_pool(tmp_path, batched):
    argv = ("--config", "classic", "--against", "default", "--bot", "aimer", "--games", "6",
            "--ticks", "400", "--jobs", "2")
    assert json_of(tmp_path, "batch", *argv) == json_of(tmp_path, "pool", *argv)


@pytest.mark.parametrize("batched_from", [1, 10_000])
def test_lanes_that_finish_take_the_next_game_and_results_keep_seed_order(monkeypatch,
                                                                          batched_from):
    # Both sides of step_batch's crossover: the batched pass, and each game one by one.
    monkeypatch.setattr(batch_module, "BATCHED_PASS_MIN", batched_from)
    cfg = load_preset("classic", overrides=["game.lives=1"])
    seeds = list(range(30, 41))
    # 3 lanes for 11 games: lanes end at different ticks (game over or the cap) and restart.
    batched = play_batch(cfg, seeds, "spinner", 900, lanes=3)
    single = [play_game(cfg, s, "spinner", 900)[0] for s in seeds]
    assert batched == single
    assert len({r.ticks for r in single}) > 2, "the games should end at different ticks"
    assert any(r.game_over for r in single) and any(r.deaths["asteroid"] for r in single)


def test_personas_play_batched_with_a_fresh_pilot_per_game(batched):
    cfg = load_preset("classic")
    seeds = [5, 6, 7]
    got = play_batch(cfg, seeds, "novice", 500, lanes=2)
    assert got == [play_game(cfg, s, "novice", 500)[0] for s in seeds]


def test_play_batch_refuses_a_tick_cap_below_one_and_an_unknown_bot():
    with pytest.raises(ValueError, match="max_ticks"):
        play_batch(load_preset("classic"), [1], "idle", 0)
    with pytest.raises(KeyError):
        play_batch(load_preset("classic"), [1], "nobody", 10)
