"""``asteroids screenshot`` renders the real game to a PNG without a window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.gl
def test_screenshot_command_writes_a_png_of_the_game(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "screenshot", str(out), "--ticks", "30",
         "--size", "320x180", "--seed", "4"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    if done.returncode != 0 and "OpenGL" in done.stderr:
        pytest.skip(f"no OpenGL here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    with Image.open(out) as image:
        assert image.size == (320, 180)
        lit = sum(1 for px in image.convert("L").getdata() if px > 64)
    assert lit > 50, "the frame shows the game's lines"


def test_screenshot_refuses_a_bad_size_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "screenshot", str(tmp_path / "x.png"), "--size",
         "huge"], cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--size must be WIDTHxHEIGHT" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.gl
def test_screenshot_renders_a_palette_and_the_monitor_look(tmp_path: Path) -> None:
    out = tmp_path / "green.png"
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "screenshot", str(out), "--ticks", "40",
         "--size", "320x180", "--seed", "4", "--palette", "green", "--monitor", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    if done.returncode != 0 and "OpenGL" in done.stderr:
        pytest.skip(f"no OpenGL here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    import numpy as np
    from PIL import Image

    with Image.open(out) as image:
        px = np.asarray(image.convert("RGB")).astype(int)
    lit = px.max(axis=2) > 64
    assert lit.sum() > 50
    # A green monitor: green is the brightest channel of every lit pixel.
    assert (px[lit][:, 1] >= px[lit].max(axis=1)).all()


def test_screenshot_refuses_an_unknown_palette_in_one_paragraph(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "screenshot", str(tmp_path / "x.png"),
         "--palette", "purple"], cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "display.palette" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.png").exists()
