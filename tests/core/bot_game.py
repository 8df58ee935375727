"""A seeded bot game, hashed as it goes: the workload of the determinism and golden tests.

Run as ``python -m tests.core.bot_game PRESET SEED TICKS EVERY`` to print the hash stream as
JSON (the determinism test compares these across processes and CPU feature sets).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from asteroids.config import Config, load_config
from asteroids.core import new_world, state_hash, step
from asteroids.core.bot import bot_input
from asteroids.core.params import params_for

ROOT = Path(__file__).resolve().parents[2]


def preset(name: str) -> Config:
    """The built-in defaults ("default") or a preset from config/."""
    return load_config() if name == "default" else load_config(ROOT / "config" / f"{name}.toml")


def bot_game_hashes(name: str, seed: int, ticks: int, every: int, style: int = 0) -> list[str]:
    """State hashes every ``every`` ticks (and at the end) of a bot game."""
    cfg = preset(name)
    w, h = cfg.world.width_px, cfg.world.height_px
    p = params_for(cfg)  # compiled once, passed every tick
    world = new_world(p, seed)
    hashes = [state_hash(world)]
    for tick in range(1, ticks + 1):
        world, _ = step(world, bot_input(world, w, h, style), p)
        if tick % every == 0 or tick == ticks:
            hashes.append(state_hash(world))
    return hashes


if __name__ == "__main__":
    name, seed, ticks, every = sys.argv[1], *map(int, sys.argv[2:5])
    print(json.dumps(bot_game_hashes(name, seed, ticks, every)))
