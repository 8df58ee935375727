"""Verification: re-simulate a replay from its inputs and check every recorded hash.

The fast path steps the core and hashes only at checkpoints. On the first checkpoint that
differs it re-simulates from the last good checkpoint (whose World it kept), hashing every
tick, to find the first tick whose recorded hash byte differs, and compares per-field
digests to name the World fields that differ at that checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from asteroids.core import new_world, state_hash, step
from asteroids.core.events import Event
from asteroids.core.match import Match, MatchEvent, Tagged
from asteroids.core.world import FIELD_NAMES, World
from asteroids.replay.format import Replay, field_digests

__all__ = ["VerifyResult", "verify_replay", "world_diff"]

OnStep = Callable[[World, tuple[Event, ...]], None]


@dataclass(frozen=True)
class VerifyResult:
    """What re-simulating a replay found.

    ``first_bad_checkpoint`` is the tick of the first recorded hash that differs (a checkpoint
    or the final hash); ``first_bad_tick`` the first tick whose state differs (found from the
    per-tick hash bytes; a one-byte hash can agree by chance, 1 in 256, so it may be late by
    a tick or two); ``fields`` the World fields that differ at ``first_bad_checkpoint``.
    """

    ok: bool
    ticks: int
    final_hash: str
    """The re-simulated final state hash."""
    final_score: int
    final_wave: int
    first_bad_checkpoint: int | None = None
    first_bad_tick: int | None = None
    expected_hash: str | None = None
    actual_hash: str | None = None
    fields: tuple[str, ...] = ()
    problem: str = ""
    """Empty when ``ok``; otherwise one sentence saying what differs."""


def world_diff(a: World, b: World) -> tuple[str, ...]:
    """Names of the World fields (``FIELD_NAMES`` order) whose values differ bit for bit."""
    da, db = field_digests(a), field_digests(b)
    out = []
    for name, x, y in zip(FIELD_NAMES, da, db, strict=True):
        va, vb = getattr(a, name), getattr(b, name)
        if x != y or _bits(va) != _bits(vb):
            out.append(name)
    return tuple(out)


def _bits(value: object) -> object:
    tobytes = getattr(value, "tobytes", None)
    if tobytes is not None:
        return (getattr(value, "shape", None), tobytes())
    return value


def verify_replay(replay: Replay, *, on_step: OnStep | None = None) -> VerifyResult:
    """Re-simulate ``replay`` and compare every checkpoint, the final hash, score and wave.

    Args:
        replay: a loaded (or just recorded) replay.
        on_step: called with each new World and its events, for tests that look at what
            happened (e.g. which rules a golden replay exercises). For a two-player replay:
            the active player's World and its events.
    """
    if replay.players != 1:  # a two-player match: asteroids.replay.matches
        from asteroids.replay.matches import verify_match

        if on_step is None:
            return verify_match(replay)
        world_step = on_step

        def on_match_step(match: Match, tagged: tuple[Tagged, ...]) -> None:
            world_step(match.world, tuple(e for _, e in tagged
                                          if not isinstance(e, MatchEvent)))

        return verify_match(replay, on_step=on_match_step)
    config = replay.config
    every = replay.checkpoint_every
    expected = dict(replay.checkpoints)
    world = new_world(config, replay.seed)
    changes = {c.tick: c.config for c in replay.config_changes}
    good_world, good_index = world, 0
    h = state_hash(world)
    if h != expected.get(0, h):
        return _narrow(replay, world, 0, 0, h, world)
    masks = replay.masks
    ticks = len(masks)
    for t in range(1, ticks + 1):
        if changes:
            config = changes.get(t - 1, config)
        world, events = step(world, masks[t - 1], config)
        if on_step is not None:
            on_step(world, events)
        if t % every == 0:
            h = state_hash(world)
            if h != expected[t]:
                return _narrow(replay, good_world, good_index, t, h, world)
            good_world, good_index = world, t
    h = state_hash(world) if ticks % every else h
    if h != replay.final_hash:
        return _narrow(replay, good_world, good_index, ticks, h, world)
    score, wave = int(world.score), int(world.wave)
    if (score, wave) != (replay.final_score, replay.final_wave):
        return VerifyResult(
            ok=False, ticks=ticks, final_hash=h, final_score=score, final_wave=wave,
            problem=f"every hash matches, but the game ends with score {score} and wave "
            f"{wave}; the file says score {replay.final_score} and wave {replay.final_wave}",
        )
    return VerifyResult(ok=True, ticks=ticks, final_hash=h, final_score=score,
                        final_wave=wave)


def _narrow(replay: Replay, good_world: World, good_tick: int, bad_tick: int, bad_hash: str,
            bad_world: World) -> VerifyResult:
    """Re-simulate from the last good checkpoint to the first bad one, hashing every tick."""
    config = replay.config_at(good_tick)
    changes = {c.tick: c.config for c in replay.config_changes}
    expected = replay.final_hash if bad_tick == replay.ticks and bad_tick % \
        replay.checkpoint_every else dict(replay.checkpoints)[bad_tick]
    first_bad = bad_tick
    world = good_world
    if bad_tick > 0:
        for t in range(good_tick + 1, bad_tick + 1):
            config = changes.get(t - 1, config)
            world, _ = step(world, replay.masks[t - 1], config)
            if t - 1 < len(replay.tick_hashes) and \
                    int(state_hash(world)[:2], 16) != replay.tick_hashes[t - 1]:
                first_bad = t
                break
    fields: tuple[str, ...] = ()
    digests = dict(zip((t for t, _ in replay.checkpoints), replay.checkpoint_digests,
                       strict=False))
    if bad_tick in digests and replay.field_names == FIELD_NAMES:
        got = field_digests(bad_world)
        fields = tuple(n for n, a, b in zip(FIELD_NAMES, got, digests[bad_tick], strict=True)
                       if a != b)
    where = "the final state" if bad_tick == replay.ticks and bad_tick % \
        replay.checkpoint_every else f"the checkpoint at tick {bad_tick}"
    problem = (f"{where} differs (expected {expected}, got {bad_hash}); the game first "
               f"differs at tick {first_bad}")
    if fields:
        problem += f"; fields that differ at tick {bad_tick}: {', '.join(fields)}"
    return VerifyResult(
        ok=False, ticks=replay.ticks, final_hash=bad_hash, final_score=int(bad_world.score),
        final_wave=int(bad_world.wave), first_bad_checkpoint=bad_tick, first_bad_tick=first_bad,
        expected_hash=expected, actual_hash=bad_hash, fields=fields, problem=problem,
    )
