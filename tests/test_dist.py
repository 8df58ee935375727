"""The one-file desktop build starts with no Python: version, a preset check, a screenshot.

Builds with PyInstaller (minutes), so it is marked ``dist`` and left out of the quick suite:
``python -m pip install '.[dist]' && python -m pytest -m dist``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from asteroids import __version__

pytestmark = pytest.mark.dist


@pytest.fixture(scope="module")
def exe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("PyInstaller", reason="needs the dist extra: pip install '.[dist]'")
    from asteroids.dist import build

    return build(tmp_path_factory.mktemp("dist"))


def run(exe: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The built binary in a bare environment: no PYTHONPATH, no virtualenv, own HOME."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "ARCADE_HEADLESS": "1",
           "ARCADE_SOUND_BACKENDS": "silent", "LANG": os.environ.get("LANG", "C.UTF-8")}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def test_built_binary_reports_its_version(exe, tmp_path):
    out = run(exe, "--version", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"asteroids {__version__}"


def test_built_binary_finds_its_presets(exe, tmp_path):
    out = run(exe, "config", "check", "classic", "arena", "default", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["classic: ok", "arena: ok", "default: ok"]


def test_built_binary_renders_a_headless_screenshot(exe, tmp_path):
    out = run(exe, "screenshot", "--config", "classic", "--ticks", "60", "--size", "320x240",
              "shot.png", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "shot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_built_binary_rejects_an_unknown_preset_with_exit_2(exe, tmp_path):
    out = run(exe, "config", "check", "clasic", cwd=tmp_path)
    assert out.returncode == 2
    assert "did you mean 'classic'?" in out.stderr and "Traceback" not in out.stderr


def test_built_binary_verifies_a_demo_replay(exe, tmp_path):
    from importlib.resources import files

    demo = next(p for p in files("asteroids.replay").joinpath("demos").iterdir()
                if p.name.endswith(".replay"))
    (tmp_path / "demo.replay").write_bytes(demo.read_bytes())
    out = run(exe, "verify", "--jobs", "1", "demo.replay", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1 ok" in out.stdout
