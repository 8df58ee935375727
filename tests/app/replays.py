"""Shared helpers for the app's replay tests: record a pure-core game to a file."""

from __future__ import annotations

import random
from pathlib import Path

from asteroids.config import Config
from asteroids.core import new_world, state_hash, step
from asteroids.replay import Recorder, Replay, save_replay


def random_masks(n: int, seed: int) -> list[int]:
    """Held turn/thrust that changes now and then, fire taps."""
    rng = random.Random(seed)
    masks, held = [], 0
    for _ in range(n):
        if rng.random() < 0.1:
            held = rng.choice([0, 1, 2, 4, 1 | 2, 1 | 4])
        masks.append(held | (8 if rng.random() < 0.25 else 0))
    return masks


def record(config: Config, seed: int, masks: list[int], path: Path) -> Replay:
    """Run ``masks`` through the core with a Recorder, save to ``path``; returns the Replay."""
    rec = Recorder(config, seed)
    world = new_world(config, seed)
    for mask in masks:
        world, _ = step(world, mask, config)
        rec.add(mask, world)
        if world.game_over:
            break
    replay = rec.finish(world)
    save_replay(replay, path)
    return replay


def hashes(config: Config, seed: int, masks: bytes | list[int]) -> list[str]:
    """state_hash after 0, 1, ..., len(masks) ticks."""
    world = new_world(config, seed)
    out = [state_hash(world)]
    for mask in masks:
        world, _ = step(world, mask, config)
        out.append(state_hash(world))
    return out
