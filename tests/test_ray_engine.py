"""The Ray engine on a local Ray instance (marker ``ray``; the ``[cluster]`` extra).

One small local Ray (2 CPUs, no dashboard) serves every test here; the engine uses a Ray
that is already running and leaves it be, and the fixture shuts it down. Without Ray these
tests are skipped; the messages for a missing Ray are tested in test_balance.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.lab.cli import split_values
from asteroids.lab.engines import ray_map

pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed: the ray tests need the [cluster] extra "
        "(python -m pip install '.[cluster]')")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    yield ray
    ray.shutdown()


def test_balance_on_ray_writes_the_same_document_as_the_pool(local_ray, tmp_path, capsys):
    argv = ["balance", "--sweep", "game.lives=1,2", "--bot", "spinner", "--games", "4",
            "--ticks", "900"]
    assert cli.main([*argv, "--jobs", "1", "--json", str(tmp_path / "pool.json")]) == 0
    assert cli.main([*argv, "--engine", "ray", "--json", str(tmp_path / "ray.json")]) == 0
    pool = (tmp_path / "pool.json").read_bytes()
    assert pool == (tmp_path / "ray.json").read_bytes()
    assert len(json.loads(pool)["sides"][1]["games"]) == 4
    assert local_ray.is_initialized()  # a Ray it did not start is left running
    assert "local ray" in capsys.readouterr().err


def test_verify_on_ray_prints_the_same_report_as_the_pool(local_ray, capsys):
    files = [str(p) for p in sorted((ROOT / "tests" / "replays").glob("*.replay"))[:4]]
    assert cli.main(["verify", "--jobs", "1", *files]) == 0
    pool = capsys.readouterr().out
    assert cli.main(["verify", "--engine", "ray", *files]) == 0
    assert capsys.readouterr().out == pool
    assert pool.count(": ok:") == 4


def test_ray_map_keeps_input_order(local_ray):
    items = [f"{i},{i + 1}" for i in range(12)]
    assert list(ray_map(split_values, items)) == [text.split(",") for text in items]

