"""Fixtures for the arcade shell's tests: one real headless window for the whole session.

The root ``tests/conftest.py`` has already set ``ARCADE_HEADLESS=1`` and
``ARCADE_SOUND_BACKENDS=silent``. GL tests are marked ``gl`` and skip, with the reason, when
no OpenGL context can be made; set ``ASTEROIDS_REQUIRE_GL=1`` to make that a failure (CI).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from asteroids.config import Config, load_config

WINDOW_SIZE = (640, 360)
"""Small, so llvmpipe stays quick; 16:9 like the default world."""


@pytest.fixture(scope="session")
def gl_window() -> Iterator[object]:
    """The one real (headless) arcade window of the run; never closed by a test."""
    arcade = pytest.importorskip("arcade")
    try:
        window = arcade.Window(*WINDOW_SIZE, "asteroids tests", vsync=False,
                               antialiasing=False)
    except Exception as exc:  # no EGL / no OpenGL 3.3
        if os.environ.get("ASTEROIDS_REQUIRE_GL") == "1":
            raise
        pytest.skip(f"no OpenGL context could be made ({type(exc).__name__}: {exc}); "
                    "set ASTEROIDS_REQUIRE_GL=1 to fail instead")
    yield window
    window.close()


@pytest.fixture
def window(gl_window):  # type: ignore[no-untyped-def]
    """The shared window, reset: no view, default camera, no scissor, cleared to black."""
    w = gl_window
    w.switch_to()
    w.hide_view()
    w.dispatch_events()
    w.ctx.scissor = None
    w.default_camera.use()
    w.clear(color=(0, 0, 0, 255))
    yield w
    w.hide_view()
    w.dispatch_events()
    w.ctx.scissor = None
    w.ctx.gc()


@pytest.fixture(scope="session")
def config() -> Config:
    """The default settings (1280 x 720 world: exactly half scale in the test window)."""
    return load_config()


@pytest.fixture(scope="session")
def config_4_3() -> Config:
    """An 800 x 600 world, letterboxed into the 16:9 test window."""
    return load_config(overrides=["world.width_px=800", "world.height_px=600"])


@pytest.fixture(autouse=True)
def data_dir(tmp_path_factory, monkeypatch):  # type: ignore[no-untyped-def]
    """A fresh user data folder per test (``ASTEROIDS_DATA_DIR``): no test writes replays
    into the real one."""
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(path))
    return path
