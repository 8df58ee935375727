"""Two-player matches in the batch (asteroids.core.match_batch): every match of a batch,
after every tick, has ``step_match``'s match hash and tagged events for the same seed and
inputs, the active players' Worlds stepped by the batched pass (no game handed to the
one-game step), the waiting ones untouched, and the turns passed by the one text of the
rules of turns (``match.turn``) that ``step_match`` runs too."""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.config.loader import load_preset
from asteroids.core import batch as batch_module
from asteroids.core import events as ev
from asteroids.core import state_hash
from asteroids.core.inputs import ALL_BUTTONS, InputFrame
from asteroids.core.match import MatchOver, TurnStarted, match_hash, new_match, step_match
from asteroids.core.match_batch import new_matches, step_matches
from asteroids.core.params import params_for

from .test_batch_identity import batched_pass_for_any_size, one_game_steps

__all__ = ["batched_pass_for_any_size"]  # the fixture, used here too

PRESETS = ("classic", "default", "arena")
QUICK = ["game.lives=2", "match.turn_banner_s=0.3", "ship.respawn_delay_s=0.4",
         "ship.hyperspace.duration_s=0.1"]
"""Matches whose turns pass every few seconds."""


def play_matches(cfg, seeds, ticks: int, masks_for, players: int = 2) -> set:
    """Step a batch of matches and, beside it, each match by ``step_match`` with the same
    masks; fail at the first tick and match where the hash or the events differ, or where a
    game left the batched pass. Returns the kinds of events seen, with the match's own."""
    p = params_for(cfg)
    batch = new_matches(p, seeds, players)
    matches = [new_match(p, s, players) for s in seeds]
    seen: set = set()
    for i, match in enumerate(matches):
        assert match_hash(batch.match(i)) == match_hash(match), f"new match {i}"
    for tick in range(ticks):
        masks = masks_for(tick, len(seeds))
        with one_game_steps() as handed:
            batch, events = step_matches(batch, masks, p)
        assert handed == [0], f"tick {tick + 1}: {handed[0]} games left the batched pass"
        for i in range(len(seeds)):
            matches[i], want = step_match(matches[i], int(masks[i]), p)
            assert match_hash(batch.match(i)) == match_hash(matches[i]), (
                f"seed {seeds[i]}, tick {tick + 1}")
            assert events.of(i) == want, f"seed {seeds[i]}, tick {tick + 1}: events"
            seen.update(type(e) for _, e in want)
    return seen


def random_masks(seed: int, hyper: float = 0.05):
    """Buttons held a few ticks at a time, hyperspace now and then (jumps lose ships, so
    turns pass often)."""
    rng = np.random.default_rng(seed)
    held: list[np.ndarray] = []

    def masks(tick: int, size: int) -> np.ndarray:
        if tick % 4 == 0 or not held:
            m = rng.integers(0, ALL_BUTTONS + 1, size=size) & ~int(InputFrame.HYPERSPACE)
            jump = rng.random(size) < hyper
            held[:] = [m | np.where(jump, int(InputFrame.HYPERSPACE), 0)]
        return held[0]

    return masks


@pytest.mark.parametrize("preset", PRESETS)
def test_batched_matches_hash_as_step_match_every_tick(preset):
    # Ships come back soon and jumps are short, so turns pass a few times in every match
    # and most matches end within the run.
    cfg = load_preset(preset, overrides=QUICK)
    seen = play_matches(cfg, list(range(8)), 700, random_masks(1, hyper=0.2))
    assert {TurnStarted, MatchOver, ev.ShipDestroyed} <= seen, seen


def test_matches_without_a_banner_and_matches_that_end_at_different_ticks():
    cfg = load_preset("classic", overrides=["game.lives=1", "match.turn_banner_s=0"])
    seen = play_matches(cfg, [3, 11, 12, 40, 41, 77], 600, random_masks(2, hyper=0.1))
    assert {TurnStarted, MatchOver} <= seen


def test_one_player_matches_in_the_batch():
    cfg = load_preset("default", overrides=QUICK)
    seen = play_matches(cfg, list(range(5)), 500, random_masks(3, hyper=0.2), players=1)
    assert TurnStarted not in seen and MatchOver in seen


def test_the_waiting_players_world_holds_still_in_the_batch():
    # Only the active player's World moves; the other keeps every bit until its turn.
    p = params_for(load_preset("classic", overrides=QUICK))
    batch = new_matches(p, range(4))
    masks = random_masks(4, hyper=0.2)
    passed = 0
    for tick in range(600):
        before = batch
        batch, events = step_matches(batch, masks(tick, 4), p)
        for i in range(4):
            waiting = 1 - int(before.active[i])
            old = before.worlds.world(2 * i + waiting)
            new = batch.worlds.world(2 * i + waiting)
            assert state_hash(old) == state_hash(new), (tick, i)
            passed += bool(events.started[i])
    assert passed >= 4


def test_step_matches_refuses_bad_masks():
    p = params_for(load_preset("classic"))
    batch = new_matches(p, range(3))
    for bad in ([0, 1], np.array([0.0, 1.0, 2.0]), [0, 0, 0x40], [0, -1, 0]):
        with pytest.raises(ValueError):
            step_matches(batch, bad, p)
    with pytest.raises(ValueError):
        new_matches(p, range(3), players=3)


@pytest.mark.soak
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("preset", PRESETS)
def test_soak_batched_matches(preset):
    assert batch_module.BATCHED_PASS_MIN == 1  # the fixture: every batch takes the pass
    cfg = load_preset(preset, overrides=["game.lives=3"])
    play_matches(cfg, list(range(64)), 3000, random_masks(5, hyper=0.1))
