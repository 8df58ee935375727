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
    assert "Shot query inside the same replay" in done.stdout


@pytest.mark.slow
def test_collision_benchmark_runs_checks_peers_and_reports_targets() -> None:
    """The quick grid: peers agree with first_hits before they are timed, the tick-loop and
    interleaved columns are printed, and the targets section names the classic bar."""
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "collision", "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert "| tick loop | tick loop, wrap |" in done.stdout
    assert "| classic 30 × 6, aimed |" in done.stdout
    assert "classic 30 × 6, aimed (ours_wrap_tick)" in done.stdout
    agreements = [ln for ln in done.stderr.splitlines() if "agreement" in ln]
    assert agreements, done.stderr
    for line in agreements:
        for part in line.split(":", 1)[1].split(";"):
            assert part.split(":")[1].strip().startswith("0 /"), line


@pytest.mark.slow
def test_render_benchmark_runs_and_ours_is_the_cheapest(tmp_path) -> None:
    """The quick grid: every method draws every size and look; the game's renderer takes
    less CPU to build and submit a frame than either arcade method (direction only: no
    time is asserted)."""
    import json

    out = tmp_path / "render.json"
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "render", "--quick", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    if done.returncode != 0 and "OpenGL" in done.stderr:
        pytest.skip(f"no OpenGL here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "submit per-asteroid ÷ ours" in done.stdout
    data = json.loads(out.read_text())
    rows = {(r["n"], r["method"], r["look"]): r for r in data["rows"]}
    sizes = {n for n, _, _ in rows}
    assert sizes == {30, 300}
    for n in sizes:
        for look in ("plain", "monitor"):
            ours = rows[(n, "ours", look)]["submit_ms"]
            assert rows[(n, "per-asteroid", look)]["submit_ms"] > ours
            assert rows[(n, "ShapeElementList", look)]["submit_ms"] > ours
    assert "classic_build_ms" in data["targets"]


@pytest.mark.slow
def test_render_methods_benchmark_draws_the_same_rocks_every_way(tmp_path) -> None:
    """The comparison behind the README's render-target analysis: each way of drawing the
    rocks lights about the quads' pixels (the fragment method exactly their count; wide GL
    lines round their width), and each picture lies within 1 px of the quads' both ways."""
    import json

    out = tmp_path / "methods.json"
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "render_methods", "--sizes", "30",
         "--frames", "2", "--size", "640x360", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    if done.returncode != 0 and "OpenGL" in done.stderr:
        pytest.skip(f"no OpenGL here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr + done.stdout
    rows = {r["method"]: r for r in json.loads(out.read_text())["rows"]}
    assert set(rows) == {"per-asteroid", "quads", "gl-lines", "line-strips", "fragment",
                         "fragment-by-angle"}
    for name in ("fragment", "fragment-by-angle"):
        assert rows[name]["lit_ratio"] == pytest.approx(1.0, abs=0.02), name
    for name, row in rows.items():
        assert 0.8 <= row["lit_ratio"] <= 1.3, name
        assert row["near_quads"] >= 0.98 and row["quads_near"] >= 0.98, name


@pytest.mark.slow
def test_balance_benchmark_runs_and_checks_engines_agree() -> None:
    """Tiny sizes, the local engines only (Ray is exercised by the ray-marked tests)."""
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "balance", "--games", "2", "--ticks",
         "60", "--tiny", "4", "--no-ray"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "| pool, --jobs 1 (in process) |" in done.stdout
    assert "| batch, --jobs 1 (in process) |" in done.stdout
    assert "## Overhead per game: 4 games of 1 tick" in done.stdout


def test_batch_benchmark_measures_the_one_game_core_and_says_what_the_peers_need() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "batch", "--games", "1", "--ticks", "20",
         "--hold", "2", "--ale-frames", "40", "--kessler-seconds", "0.5", "--sizes", "1,3",
         "--batch-seconds", "0"],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ours, one")]
    assert len(rows) == 2 and "game-ticks/s" in rows[0] and "kB" in rows[0]
    batched = [line for line in out.stdout.splitlines() if line.startswith("| ours, batched")]
    assert [r.split("|")[1:3] for r in batched] == [
        [" ours, batched, B = 1 ", " idle "], [" ours, batched, B = 3 ", " idle "],
        [" ours, batched, B = 1 ", " aimer "], [" ours, batched, B = 3 ", " aimer "]]
    assert all("game-ticks/s" in r and "kB" in r for r in batched)
    for peer in ("ALE Asteroids-v5", "kesslergame"):
        row = next(line for line in out.stdout.splitlines() if line.startswith(f"| {peer}"))
        assert "frames/s" in row or "pip install '.[peers]'" in row
    assert "200 000 game-ticks/s" in out.stdout
    preset = [line for line in out.stdout.splitlines() if line.startswith("| classic |")]
    assert len(preset) == 1 and "| random |" in preset[0] and "%" in preset[0]


def test_batch_benchmark_compares_each_preset_under_random_inputs() -> None:
    """``--config`` at tiny sizes: a row per preset, and with ``--matches`` one per preset's
    two-player matches; random inputs never leave the batched pass now (obstacles,
    ricochets, hyperspace, crashes and the waiting player included), so every row's share
    of one-game steps is 0 %."""
    out = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "batch", "--presets-only", "--config",
         "classic,arena", "--games", "1", "--ticks", "5", "--random-size", "16",
         "--batch-ticks", "3", "--batch-seconds", "0", "--matches"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    rows = [line.split("|")[1:-1] for line in out.stdout.splitlines()
            if line.startswith(("| classic", "| arena"))]
    assert [r[0].strip() for r in rows] == ["classic", "arena", "classic, two-player matches",
                                            "arena, two-player matches"]
    assert all(r[2].strip().endswith("x") and "game-ticks/s" in r[4] for r in rows)
    assert [r[5].strip() for r in rows] == ["0.0 %"] * 4
    assert "| ours, one game" not in out.stdout and "10x" in out.stdout


@pytest.mark.slow
def test_env_benchmark_runs_and_prints_rates_and_the_observation_share() -> None:
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "env", "--sizes", "1", "16", "--steps",
         "3", "--warmup", "1", "--single-steps", "5", "--obs-type", "vector",
         "--obs-type", "grayscale"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "observations, share" in out
    for obs in ("vector", "grayscale"):
        assert f"| ours, single env, classic | {obs} | 1 |" in out
        assert f"| ours, vector env, classic | {obs} | 16 |" in out
    # Every peer has its rows: a rate where installed, else how to install it.
    for peer, package in (("ALE Asteroids-v5", "ale-py"), ("EnvPool Asteroids-v5", "envpool"),
                          ("gymnax SpaceInvaders-MinAtar", "gymnax")):
        rows = [line for line in out.splitlines() if line.startswith(f"| {peer}")]
        assert rows, peer
        for row in rows:
            rate = row.split("|")[4].strip()
            assert rate != "-" or f"pip install {package}" in row, row
