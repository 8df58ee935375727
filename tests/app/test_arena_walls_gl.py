"""Issue 39, item 3: where the rules make things bounce at the playfield's edge, a wall is
drawn there (from ``[borders]``: ``asteroids.app.scene.wall_segments``), through the real
headless window; where everything wraps, none. Before, the arena drew no wall at the
window's edge although the ship bounced there."""

from __future__ import annotations

from pathlib import Path

import pytest

from asteroids.app.router import open_shell
from asteroids.config import Config, load_config
from tests.app.test_looks import busy_world, frame, with_display

pytestmark = pytest.mark.gl

ARENA = Path(__file__).resolve().parents[2] / "config" / "arena.toml"


def edges(config: Config, window) -> dict[str, float]:
    """The share of each window edge's 3-pixel strip that is lit, one frame of a game."""
    config = with_display(config, border="off")  # not the faint display border
    game = open_shell(window, config, seed=4, sound=False)
    prev, cur = busy_world(config, ticks=10)
    lit = frame(game, prev, cur).max(axis=2) > 60
    return {"left": lit[:, :3].any(axis=1).mean(), "right": lit[:, -3:].any(axis=1).mean(),
            "top": lit[:3, :].any(axis=0).mean(), "bottom": lit[-3:, :].any(axis=0).mean()}


def test_the_arena_draws_its_walls_and_wrapping_rules_draw_none(window, config):
    arena = load_config(ARENA)
    assert arena.borders.ship == "bounce"
    walls = edges(arena, window)
    assert min(walls.values()) > 0.95, walls
    open_edges = edges(config, window)
    assert max(open_edges.values()) < 0.3, open_edges


def test_bouncing_saucers_alone_wall_only_the_top_and_bottom(window, config):
    walls = edges(load_config(overrides=["borders.saucers=bounce"]), window)
    assert walls["top"] > 0.95 and walls["bottom"] > 0.95, walls
    assert walls["left"] < 0.3 and walls["right"] < 0.3, walls
