"""Bot play for many ticks with every invariant checked every tick.

The CI share is 100 000 ticks over several seeds of the classic and arena presets (under a
minute); ``pytest -m soak`` runs a million more.
"""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.core import new_world, step
from asteroids.core.bot import bot_input
from asteroids.core.params import params_for
from tests.core.bot_game import preset
from tests.core.invariants import OverlapWatch, check_world


def soak(name: str, seed: int, ticks: int, style: int) -> dict[str, int]:
    """Play ``ticks`` ticks (new games after game over); return some coverage counts."""
    cfg = preset(name)
    p = params_for(cfg)
    world = new_world(p, seed)
    watch = OverlapWatch(p) if p.asteroids_collide else None
    seen = {"games": 1, "max_wave": 1, "max_asteroids": 0, "saucers": 0}
    with np.errstate(all="raise"):
        for _ in range(ticks):
            prev = world
            world, events = step(world, bot_input(world, p.width, p.height, style), p)
            check_world(world, p, prev)
            if watch is not None:
                watch.update(world)
                assert watch.worst <= 10, f"seed {seed}: an asteroid pair stuck overlapping"
            seen["max_wave"] = max(seen["max_wave"], world.wave)
            seen["max_asteroids"] = max(seen["max_asteroids"], world.asteroid_count)
            seen["saucers"] += sum(type(e).__name__ == "SaucerSpawned" for e in events)
            if world.game_over and world.tick - prev.tick and world.lives == 0:
                seed += 1000
                world = new_world(p, seed)
                seen["games"] += 1
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name,seed,style", [
    ("classic", 1, 0), ("classic", 2, 1), ("arena", 3, 0), ("arena", 4, 2),
])
def test_soak_ci(name: str, seed: int, style: int) -> None:
    seen = soak(name, seed, 25_000, style)
    assert seen["saucers"] > 0 or name == "arena"
    assert seen["max_asteroids"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("name", ["default", "classic", "arena"])
@pytest.mark.parametrize("seed", [11, 12])
def test_soak_long(name: str, seed: int) -> None:
    soak(name, seed, 200_000, seed % 3)
