"""Verification: re-simulate a replay from its inputs and check every recorded hash.

The fast path steps the core and hashes only at checkpoints, each compared as soon as its
tick is reached. A file whose checkpoints are more than ``MAX_HASH_GAP`` ticks apart (none
that asteroids writes) has every tick's hash byte compared instead, so a replay that does
not match (a forgery) fails within ``MAX_HASH_GAP`` ticks however long it says it is (a
wrong byte agrees by chance 1 time in 256, so k wrong ticks pass with odds 256**-k). On the
first checkpoint that differs it
re-simulates from the last good checkpoint (whose World it kept), hashing every tick, to
find the first tick whose recorded hash byte differs, and compares per-field digests to name
the World fields that differ at that checkpoint.

The work is bounded and stated (``asteroids.replay.work``): the rate is measured on the
first ticks and reported when the whole would take more than ``NOTICE_S`` seconds, and a
``Deadline`` (``--time-limit``) stops the re-simulation where it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asteroids.core.events import Event
from asteroids.core.hashing import field_digests
from asteroids.core.params import params_for
from asteroids.core.play import Play, play_for
from asteroids.core.world import FIELD_NAMES, World
from asteroids.replay.format import MAX_HASH_GAP, Replay
from asteroids.replay.work import CALIBRATE_S, CHECK_EVERY, NOTICE_S, Deadline, time_limit_problem

__all__ = ["OnRate", "OnStep", "VerifyResult", "verify_replay", "world_diff"]

OnStep = Callable[[World, tuple[Event, ...]], None]
"""Called with each new World on screen and its events during a verification."""
_FIELDS_SHOWN = 12
"""World fields named in a mismatch's line; more are counted (the line stays short)."""
OnRate = Callable[[float], None]
"""Called once with the measured ticks per second when the whole verification would take
more than ``NOTICE_S`` seconds at that rate."""


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
    """Empty when ``ok``; otherwise one sentence saying what differs (or where the time
    limit stopped it)."""
    stopped_at: int | None = None
    """The tick the ``Deadline`` stopped the re-simulation at (the replay is then neither
    confirmed nor refuted); None when it ran to its end."""

    @property
    def stopped(self) -> bool:
        """Whether the time limit stopped the verification before it could decide."""
        return self.stopped_at is not None


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


def _stopped(replay: Replay, play: Play[Any], state: Any, tick: int,
             deadline: Deadline) -> VerifyResult:
    """The result of a verification the time limit stopped at ``tick``."""
    score, wave = _outcome(play, state)
    return VerifyResult(ok=False, ticks=replay.ticks, final_hash="", final_score=score,
                        final_wave=wave, stopped_at=tick,
                        problem=time_limit_problem(deadline.limit_s, tick, replay.ticks))


def _verify(replay: Replay, play: Play[Any],
            on_step: Callable[[Any, tuple[Any, ...]], None] | None = None,
            deadline: Deadline | None = None, on_rate: OnRate | None = None) -> VerifyResult:
    """Re-simulate ``replay`` as ``play`` says; compare every checkpoint as soon as it is
    reached, the final hash and the final scores; look at the clock every ``CHECK_EVERY``
    ticks (the deadline, and the rate on the first ``CALIBRATE_S`` seconds)."""
    config = replay.config
    every = replay.checkpoint_every
    expected = dict(replay.checkpoints)
    changes = {c.tick: params_for(c.config) for c in replay.config_changes}
    rules = params_for(config)  # compiled once (and once per change), passed every tick
    step_state, hasher = play.step, play.hasher()
    deadline = deadline if deadline is not None else Deadline()
    timed = deadline.at is not None
    if timed and deadline.passed():
        return _stopped(replay, play, play.start(rules, replay.seed), 0, deadline)
    state = play.start(rules, replay.seed)
    good, good_tick = state, 0
    h = hasher(state)
    if h != expected.get(0, h):
        return _narrow(replay, play, state, 0, 0, h, state, deadline)
    masks = replay.masks
    ticks = len(masks)
    began = time.perf_counter()
    measuring = on_rate is not None
    sparse = every > MAX_HASH_GAP  # then every tick's hash byte is compared
    tick_bytes = replay.tick_hashes
    for t in range(1, ticks + 1):
        if changes:
            rules = changes.get(t - 1, rules)
        state, events = step_state(state, masks[t - 1], rules)
        if on_step is not None:
            on_step(state, events)
        if sparse:
            h = hasher(state)
            if int(h[:2], 16) != tick_bytes[t - 1]:
                return _stream_mismatch(replay, play, t, h, state)
            if t % MAX_HASH_GAP == 0:
                good, good_tick = state, t
        if t % every == 0:
            h = h if sparse else hasher(state)
            if h != expected[t]:
                return _narrow(replay, play, good, good_tick, t, h, state, deadline)
            good, good_tick = state, t
        if t % CHECK_EVERY == 0 and (timed or measuring):
            if timed and deadline.passed():
                return _stopped(replay, play, state, t, deadline)
            if measuring:
                spent = time.perf_counter() - began
                if spent >= CALIBRATE_S:
                    measuring = False
                    rate = t / spent
                    if ticks / rate > NOTICE_S:
                        on_rate(rate)  # type: ignore[misc]
    h = hasher(state) if ticks % every else h
    if h != replay.final_hash:
        return _narrow(replay, play, good, good_tick, ticks, h, state, deadline)
    score, wave = _outcome(play, state)
    problem = _end_problem(replay, play, state)
    return VerifyResult(ok=not problem, ticks=ticks, final_hash=h, final_score=score,
                        final_wave=wave, problem=problem)


def _stream_mismatch(replay: Replay, play: Play[Any], tick: int, got: str,
                     state: Any) -> VerifyResult:
    """A replay with sparse checkpoints whose hash byte at ``tick`` differs."""
    noun = "game" if play.players == 1 else "match"
    problem = (f"the {noun} first differs at tick {tick}: its state hash begins {got[:2]}, the "
               f"file says {replay.tick_hashes[tick - 1]:02x} (the file's checkpoints are "
               f"{replay.checkpoint_every} ticks apart, more than {MAX_HASH_GAP}, so every "
               "tick's hash byte is compared)")
    score, wave = _outcome(play, state)
    return VerifyResult(ok=False, ticks=replay.ticks, final_hash=got, final_score=score,
                        final_wave=wave, first_bad_tick=tick, problem=problem)


def _narrow(replay: Replay, play: Play[Any], good: Any, good_tick: int, bad_tick: int,
            bad_hash: str, bad: Any, deadline: Deadline) -> VerifyResult:
    """Re-simulate from the last good checkpoint to the first bad one, hashing every tick
    (at most ``checkpoint_every`` ticks; a tick whose hash byte differs ends it)."""
    rules = params_for(replay.config_at(good_tick))
    changes = {c.tick: params_for(c.config) for c in replay.config_changes}
    last_is_final = bad_tick == replay.ticks and bad_tick % replay.checkpoint_every != 0
    expected = replay.final_hash if last_is_final else dict(replay.checkpoints)[bad_tick]
    first_bad = bad_tick
    state = good
    hasher = play.hasher()
    timed = deadline.at is not None
    for t in range(good_tick + 1, bad_tick + 1):
        if timed and t % CHECK_EVERY == 0 and deadline.passed():
            return _stopped(replay, play, state, t - 1, deadline)
        rules = changes.get(t - 1, rules)
        state, _ = play.step(state, replay.masks[t - 1], rules)
        if t - 1 < len(replay.tick_hashes) and \
                int(hasher(state)[:2], 16) != replay.tick_hashes[t - 1]:
            first_bad = t
            break
    fields: tuple[str, ...] = ()
    digests = dict(zip((t for t, _ in replay.checkpoints), replay.checkpoint_digests,
                       strict=False))
    names = play.field_names
    if bad_tick in digests and replay.field_names == names:
        got = play.field_digests(bad)
        fields = tuple(n for n, a, b in zip(names, got, digests[bad_tick], strict=True)
                       if a != b)
    where = "the final state" if last_is_final else f"the checkpoint at tick {bad_tick}"
    noun = "game" if play.players == 1 else "match"
    problem = (f"{where} differs (expected {expected}, got {bad_hash}); the {noun} first "
               f"differs at tick {first_bad}")
    if fields:
        shown = ", ".join(fields[:_FIELDS_SHOWN])
        more = len(fields) - _FIELDS_SHOWN
        problem += (f"; fields that differ at tick {bad_tick}: {shown}"
                    + (f" and {more} more" if more > 0 else ""))
    score, wave = _outcome(play, bad)
    return VerifyResult(
        ok=False, ticks=replay.ticks, final_hash=bad_hash, final_score=score, final_wave=wave,
        first_bad_checkpoint=bad_tick, first_bad_tick=first_bad, expected_hash=expected,
        actual_hash=bad_hash, fields=fields, problem=problem,
    )


def _outcome(play: Play[Any], state: Any) -> tuple[int, int]:
    """The final score and wave a file records: the best of the players'."""
    return max(play.scores(state)), max(play.waves(state))


def _end_problem(replay: Replay, play: Play[Any], state: Any) -> str:
    """Empty when the final state's scores agree with the file, else the problem."""
    score, wave = _outcome(play, state)
    if play.players == 1:
        if (score, wave) == (replay.final_score, replay.final_wave):
            return ""
        return (f"every hash matches, but the game ends with score {score} and wave {wave}; "
                f"the file says score {replay.final_score} and wave {replay.final_wave}")
    scores = play.scores(state)
    if scores == replay.final_scores and (score, wave) == (replay.final_score,
                                                          replay.final_wave):
        return ""
    return (f"every hash matches, but the match ends with scores {list(scores)} and "
            f"wave {wave}; the file says {list(replay.final_scores)} and wave "
            f"{replay.final_wave}")


def verify_replay(replay: Replay, *, on_step: OnStep | None = None,
                  on_state: Callable[[Any, tuple[Any, ...]], None] | None = None,
                  deadline: Deadline | None = None, on_rate: OnRate | None = None
                  ) -> VerifyResult:
    """Re-simulate ``replay`` and compare every checkpoint, the final hash, score and wave
    (every player's score, for a two-player replay).

    Args:
        replay: a loaded (or just recorded) replay.
        on_step: called with each new World on screen and its events, for tests that look
            at what happened (e.g. which rules a golden replay exercises). For a two-player
            replay: the active player's World and its events.
        on_state: called with each new state (a World, or a Match for two players) and the
            step's events as the core returned them.
        deadline: stop where the re-simulation is once it passes (``--time-limit``); the
            result is then ``stopped``, neither ok nor a mismatch.
        on_rate: called once with the ticks per second measured on the first
            ``CALIBRATE_S`` seconds, when the whole would take more than ``NOTICE_S``
            seconds (``verify`` states the work then).
    """
    play = play_for(replay.players)
    if on_step is None:
        return _verify(replay, play, on_state, deadline, on_rate)
    world_step = on_step

    def both(state: Any, events: tuple[Any, ...]) -> None:
        world_step(play.world(state), play.world_events(events))
        if on_state is not None:
            on_state(state, events)

    return _verify(replay, play, both, deadline, on_rate)
