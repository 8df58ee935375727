"""The arena in the batched pass: rocks and the ship bouncing off the pillars and the walls,
rocks colliding, shots folding at the walls and ricocheting off the pillars (up to
``MAX_SHOT_PIECES`` pieces a tick), all by the rules' own texts over every game's rows, and
every game, after every tick, the one-game core's World and events.
"""

from __future__ import annotations

import pytest

from asteroids.config.loader import load_preset
from asteroids.core import sweep
from asteroids.core.bot_batch import batch_bot_for

from .test_batch_identity import batched_pass_for_any_size, play_both, random_masks
from .test_batch_tick import one_game_share

__all__ = ["batched_pass_for_any_size"]  # the fixture, used here too

VARIANTS = {
    "arena": [],
    "shots stop at pillars": ["shots.at_obstacles=stop"],
    "wrapping shots among pillars": ["borders.shots=wrap"],
    "bouncing shots, no pillars": ["borders.shots=bounce"],
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_arena_games_with_random_inputs_stay_identical(variant):
    preset = "default" if variant == "bouncing shots, no pillars" else "arena"
    cfg = load_preset(preset, overrides=VARIANTS[variant])
    play_both(cfg, list(range(5)), 300, random_masks(11))


@pytest.mark.parametrize("seed", [1, 2])
def test_arena_aimer_games_stay_identical(seed):
    cfg = load_preset("arena")
    decide = batch_bot_for("aimer")
    play_both(cfg, list(range(seed * 10, seed * 10 + 4)), 300,
              lambda tick, batch: decide(batch, cfg))


def test_shots_that_turn_several_times_a_tick_are_followed_together(monkeypatch):
    # Many games' turned shots share each piece's query: count the pieces asked of
    # several shots at once, so the identity above covers them.
    seen = []
    follow = sweep._follow_shots

    def counting(hits, rows, turned, first, tg, p):
        seen.append(turned.shape[0])
        return follow(hits, rows, turned, first, tg, p)

    monkeypatch.setattr(sweep, "_follow_shots", counting)
    cfg = load_preset("arena", overrides=["shots.speed_px_per_s=2400"])
    play_both(cfg, list(range(8)), 150, random_masks(12))
    assert max(seen) >= 2, seen


def test_arena_games_stay_in_the_batched_pass():
    arena = load_preset("arena")
    assert one_game_share(arena, "aimer", 8, 200) == 0


@pytest.mark.soak
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("variant", VARIANTS)
def test_soak_arena_games(variant):
    preset = "default" if variant == "bouncing shots, no pillars" else "arena"
    cfg = load_preset(preset, overrides=VARIANTS[variant])
    play_both(cfg, list(range(64)), 2000, random_masks(13))
