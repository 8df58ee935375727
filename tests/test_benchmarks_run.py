"""The benchmarks behind README numbers still run (tiny sizes; nothing here times anything)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_step_benchmark_runs_and_prints_its_tables() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "step", "--sizes", "10", "--ticks", "3",
         "--runs", "1", "--classic-ticks", "200"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "| 10 | off |" in done.stdout
    assert "Classic preset" in done.stdout
