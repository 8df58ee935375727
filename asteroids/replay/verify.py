"""Verification: re-simulate a replay from its inputs and check every recorded hash.

The fast path steps the core and hashes only at checkpoints. On the first checkpoint that
differs it re-simulates from the last good checkpoint (whose World it kept), hashing every
tick, to find the first tick whose recorded hash byte differs, and compares per-field
digests to name the World fields that differ at that checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from asteroids.config import Config
from asteroids.core import new_world, state_hash, step
from asteroids.core.events import Event
from asteroids.core.match import Match, MatchEvent, Tagged
from asteroids.core.world import FIELD_NAMES, World
from asteroids.replay.format import Replay, field_digests

__all__ = ["WORLD_SIMULATION", "Simulation", "VerifyResult", "verify_replay", "verify_with",
           "world_diff"]

OnStep = Callable[[World, tuple[Event, ...]], None]
S = TypeVar("S")


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


@dataclass(frozen=True)
class Simulation(Generic[S]):
    """What ``verify_with`` needs to re-simulate one kind of replay: a one-player game
    (``WORLD_SIMULATION``, state a World) or a two-player match
    (``asteroids.replay.matches.MATCH_SIMULATION``, state a Match)."""

    noun: str
    """What the state is called in a problem sentence ("game", "match")."""
    start: Callable[[Replay], S]
    """The state at tick 0."""
    step: Callable[[S, int, Config], tuple[S, tuple[Any, ...]]]
    """One tick: state, input mask and config in; state and events out."""
    hasher: Callable[[], Callable[[S], str]]
    """A fresh state-hash function for one pass over the ticks (it may cache)."""
    field_names: Callable[[Replay], tuple[str, ...]]
    """The names of the per-field digests this kind of replay's checkpoints hold."""
    field_digests: Callable[[S], bytes]
    outcome: Callable[[S], tuple[int, int]]
    """The final score and wave the file records."""
    end_problem: Callable[[Replay, S], str]
    """Empty when the final state's scores agree with the file, else the problem."""


def verify_with(replay: Replay, sim: Simulation[S],
                on_step: Callable[[S, tuple[Any, ...]], None] | None = None) -> VerifyResult:
    """Re-simulate ``replay`` as ``sim`` says; compare every checkpoint, the final hash and
    the final scores (``verify_replay`` and ``verify_match`` are this loop)."""
    config = replay.config
    every = replay.checkpoint_every
    expected = dict(replay.checkpoints)
    changes = {c.tick: c.config for c in replay.config_changes}
    step_state, hasher = sim.step, sim.hasher()
    state = sim.start(replay)
    good, good_tick = state, 0
    h = hasher(state)
    if h != expected.get(0, h):
        return _narrow(replay, sim, state, 0, 0, h, state)
    masks = replay.masks
    ticks = len(masks)
    for t in range(1, ticks + 1):
        if changes:
            config = changes.get(t - 1, config)
        state, events = step_state(state, masks[t - 1], config)
        if on_step is not None:
            on_step(state, events)
        if t % every == 0:
            h = hasher(state)
            if h != expected[t]:
                return _narrow(replay, sim, good, good_tick, t, h, state)
            good, good_tick = state, t
    h = hasher(state) if ticks % every else h
    if h != replay.final_hash:
        return _narrow(replay, sim, good, good_tick, ticks, h, state)
    score, wave = sim.outcome(state)
    problem = sim.end_problem(replay, state)
    return VerifyResult(ok=not problem, ticks=ticks, final_hash=h, final_score=score,
                        final_wave=wave, problem=problem)


def _narrow(replay: Replay, sim: Simulation[S], good: S, good_tick: int, bad_tick: int,
            bad_hash: str, bad: S) -> VerifyResult:
    """Re-simulate from the last good checkpoint to the first bad one, hashing every tick."""
    config = replay.config_at(good_tick)
    changes = {c.tick: c.config for c in replay.config_changes}
    last_is_final = bad_tick == replay.ticks and bad_tick % replay.checkpoint_every != 0
    expected = replay.final_hash if last_is_final else dict(replay.checkpoints)[bad_tick]
    first_bad = bad_tick
    state = good
    hasher = sim.hasher()
    for t in range(good_tick + 1, bad_tick + 1):
        config = changes.get(t - 1, config)
        state, _ = sim.step(state, replay.masks[t - 1], config)
        if t - 1 < len(replay.tick_hashes) and \
                int(hasher(state)[:2], 16) != replay.tick_hashes[t - 1]:
            first_bad = t
            break
    fields: tuple[str, ...] = ()
    digests = dict(zip((t for t, _ in replay.checkpoints), replay.checkpoint_digests,
                       strict=False))
    names = sim.field_names(replay)
    if bad_tick in digests and replay.field_names == names:
        got = sim.field_digests(bad)
        fields = tuple(n for n, a, b in zip(names, got, digests[bad_tick], strict=True)
                       if a != b)
    where = "the final state" if last_is_final else f"the checkpoint at tick {bad_tick}"
    problem = (f"{where} differs (expected {expected}, got {bad_hash}); the {sim.noun} first "
               f"differs at tick {first_bad}")
    if fields:
        problem += f"; fields that differ at tick {bad_tick}: {', '.join(fields)}"
    score, wave = sim.outcome(bad)
    return VerifyResult(
        ok=False, ticks=replay.ticks, final_hash=bad_hash, final_score=score, final_wave=wave,
        first_bad_checkpoint=bad_tick, first_bad_tick=first_bad, expected_hash=expected,
        actual_hash=bad_hash, fields=fields, problem=problem,
    )


def _world_outcome(world: World) -> tuple[int, int]:
    return int(world.score), int(world.wave)


def _world_end_problem(replay: Replay, world: World) -> str:
    score, wave = _world_outcome(world)
    if (score, wave) == (replay.final_score, replay.final_wave):
        return ""
    return (f"every hash matches, but the game ends with score {score} and wave {wave}; the "
            f"file says score {replay.final_score} and wave {replay.final_wave}")


WORLD_SIMULATION: Simulation[World] = Simulation(
    noun="game",
    start=lambda replay: new_world(replay.config, replay.seed),
    step=step,
    hasher=lambda: state_hash,
    field_names=lambda replay: FIELD_NAMES,
    field_digests=field_digests,
    outcome=_world_outcome,
    end_problem=_world_end_problem,
)
"""A one-player replay: the state is the World."""


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
    return verify_with(replay, WORLD_SIMULATION, on_step)
