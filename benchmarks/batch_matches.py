"""Two-player matches with random inputs, batched against one at a time: the ``--matches``
rows of ``asteroids bench batch`` (``benchmarks.batch``).

For each preset, ``match_batch.step_matches`` over B new matches (seeds 1..B) from their
first tick, with uniformly random input masks, for ``--batch-ticks`` ticks or at most the
row's seconds; then ``step_match`` one match at a time over the same ticks of up to
``--games`` matches. The rate is match-ticks per second: a match tick steps the active
player's World (none under a banner), so it is comparable with a one-player game-tick.
The share of World-ticks the batched pass handed to the one-game ``step`` is counted as in
the one-player rows.
"""

from __future__ import annotations

import time

import numpy as np

from asteroids.config import load_config
from asteroids.core.match import new_match, step_match
from asteroids.core.match_batch import new_matches, step_matches
from asteroids.core.params import params_for
from benchmarks.batch import PresetRow, _counting_one_game_steps, _random_masks

__all__ = ["match_row"]


def match_row(name: str, matches: int, games: int, ticks: int, seconds: float) -> PresetRow:
    """Preset ``name``'s two-player matches under random inputs: ``step_matches`` at
    B = ``matches`` against ``step_match`` over the same ticks of up to ``games`` matches."""
    p = params_for(load_config(name))
    rng = np.random.default_rng(0)
    batch = new_matches(p, range(1, matches + 1))
    steps = 0
    with _counting_one_game_steps() as count:
        start = time.perf_counter()
        while steps < 2 or (steps < ticks and time.perf_counter() - start < seconds):
            batch, _ = step_matches(batch, _random_masks(rng, matches), p)
            steps += 1
        elapsed = time.perf_counter() - start
    masks = _random_masks(rng, games * steps).tolist()
    played = 0
    start = time.perf_counter()
    for game in range(games):
        match = new_match(p, game + 1)
        for t in range(steps):
            match, _ = step_match(match, masks[game * steps + t], p)
            played += 1
            if played > 1 and time.perf_counter() - start >= seconds:
                break
        if played > 1 and time.perf_counter() - start >= seconds:
            break
    one = played / (time.perf_counter() - start)
    return PresetRow(f"{name}, two-player matches", one, steps * matches / elapsed, matches,
                     count[0] / (steps * matches),
                     note=f"match-ticks/s; ticks 1-{steps}; one at a time: {played} "
                     "match-ticks")
