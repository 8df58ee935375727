"""Two-player replays: one input stream drives a whole ``Match`` (``asteroids.core.match``).

A two-player game is recorded like a one-player one, one mask per match tick (banner ticks
included: their masks are kept and ignored), into the same file format with two more
header lines (``players = 2``, ``final_scores``; see ``docs/replay-format.md``). What
differs is the state the hashes describe: every checkpoint and tick hash is a
``match_hash`` (the match's own fields, then both Worlds), and the per-field digests cover
``MATCH_FIELD_NAMES`` (the match's fields, then ``p1_`` and ``p2_`` and each World field).

``MatchRecorder`` and ``record_bot_match`` record; ``verify_match`` re-simulates, and
``verify_replay`` hands two-player files to it. Pure: no arcade.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from asteroids import __version__
from asteroids.config import Config
from asteroids.core.hashing import state_hash
from asteroids.core.inputs import as_mask
from asteroids.core.match import (
    MATCH_FIELDS,
    MAX_PLAYERS,
    Match,
    Tagged,
    match_hash,
    new_match,
    step_match,
)
from asteroids.core.world import FIELD_NAMES, World
from asteroids.replay.format import (
    CHECKPOINT_EVERY,
    MAX_TICKS,
    Replay,
    field_digests,
    rules_fingerprint,
)
from asteroids.replay.record import TickLog, check_seed_and_interval
from asteroids.replay.verify import Simulation, VerifyResult, verify_with

__all__ = ["MATCH_FIELD_NAMES", "MATCH_SIMULATION", "MatchRecorder", "OnMatchStep",
           "match_field_digests", "match_field_names", "record_bot_match", "verify_match"]

OnMatchStep = Callable[[Match, tuple[Tagged, ...]], None]
"""Called with each new Match and its tagged events during a verification."""


def match_field_names(players: int = 2) -> tuple[str, ...]:
    """The names of the per-field digests of a ``players``-player match: ``MATCH_FIELDS``,
    then ``p1_<World field>`` ... for each player."""
    return MATCH_FIELDS + tuple(f"p{k + 1}_{name}" for k in range(players)
                                for name in FIELD_NAMES)


MATCH_FIELD_NAMES = match_field_names(MAX_PLAYERS)
"""The digest names of a two-player replay's checkpoints."""


def match_field_digests(match: Match) -> bytes:
    """One byte per ``match_field_names(match.players)`` entry: the match's own fields, then
    each World's ``field_digests``."""
    out = bytearray()
    for name in MATCH_FIELDS:
        data = int(getattr(match, name)).to_bytes(16, "little", signed=True)
        out.append(hashlib.blake2b(data, digest_size=1).digest()[0])
    for world in match.worlds:
        out += field_digests(world)
    return bytes(out)


class _Hasher:
    """``match_hash`` that hashes a waiting World once, not on every tick of the other's
    turn (only the active World changes during a step)."""

    def __init__(self) -> None:
        self._worlds: list[World | None] = []
        self._hashes: list[str] = []

    def __call__(self, match: Match) -> str:
        if len(self._worlds) != match.players:
            self._worlds = [None] * match.players
            self._hashes = [""] * match.players
        for k, world in enumerate(match.worlds):
            if world is not self._worlds[k]:
                self._worlds[k] = world
                self._hashes[k] = state_hash(world)
        return match_hash(match, tuple(self._hashes))


class MatchRecorder:
    """Feed it every match tick's mask and the Match after it; ``finish`` gives the Replay.

    Args:
        config: the settings the match runs under.
        seed: the match seed given to ``new_match``.
        every: ticks between full checkpoints.

    Raises:
        ValueError: for a seed or interval a replay cannot hold.
    """

    def __init__(self, config: Config, seed: int, *, every: int = CHECKPOINT_EVERY) -> None:
        check_seed_and_interval(seed, every)
        self.config = config
        self.seed = seed
        self.every = every
        self.players = MAX_PLAYERS
        start = new_match(config, seed, self.players)
        self._hash = _Hasher()
        self._log = TickLog(self._hash(start), match_field_digests(start), every)

    @property
    def ticks(self) -> int:
        """Match ticks recorded so far."""
        return self._log.ticks

    def add(self, mask: int, match_after: Match) -> None:
        """Record one ``step_match``: the mask it was given and the Match it returned.

        Raises:
            ValueError: if the mask is not a valid input mask, or ``match_after`` is not the
                next tick.
        """
        mask = as_mask(mask)
        self._log.next_tick("MatchRecorder.add", "match", match_after.tick)
        self._log.append(mask, self._hash(match_after),
                         lambda: match_field_digests(match_after))

    def finish(self, match: Match, *, created_at: str | None = None) -> Replay:
        """The replay of the match so far; ``match`` is the last Match recorded."""
        from asteroids.replay.record import utc_now

        if match.tick != self.ticks:
            raise ValueError(f"MatchRecorder.finish: the match is at tick {match.tick}, but "
                             f"{self.ticks} ticks were recorded")
        score, wave = _match_outcome(match)
        return Replay(
            seed=self.seed, config=self.config, **self._log.fields(),
            final_score=score, final_wave=wave,
            created_at=created_at or utc_now(), game_version=__version__,
            rules=rules_fingerprint(self.config, self.players),
            tick_hz=float(self.config.world.tick_hz),
            field_names=match_field_names(self.players), players=self.players,
            final_scores=match.scores,
        )


def record_bot_match(config: Config, seed: int, bot: Callable[[World, Config], int],
                     ticks: int, *, every: int = CHECKPOINT_EVERY,
                     created_at: str | None = None, stop_at_over: bool = True) -> Replay:
    """Play a two-player match of up to ``ticks`` ticks with one bot flying both players'
    turns (it sees the active player's World) and record it; stops when the match is over."""
    if not 0 <= ticks <= MAX_TICKS:
        raise ValueError(f"ticks must be in [0, {MAX_TICKS}]; got {ticks}")
    recorder = MatchRecorder(config, seed, every=every)
    match = new_match(config, seed)
    for _ in range(ticks):
        if stop_at_over and match.over:
            break
        mask = bot(match.world, config)
        match, _ = step_match(match, mask, config)
        recorder.add(mask, match)
    return recorder.finish(match, created_at=created_at)


def _match_outcome(match: Match) -> tuple[int, int]:
    return max(match.scores), max(int(w.wave) for w in match.worlds)


def _match_end_problem(replay: Replay, match: Match) -> str:
    score, wave = _match_outcome(match)
    if match.scores == replay.final_scores and (score, wave) == (replay.final_score,
                                                                 replay.final_wave):
        return ""
    return (f"every hash matches, but the match ends with scores {list(match.scores)} and "
            f"wave {wave}; the file says {list(replay.final_scores)} and wave "
            f"{replay.final_wave}")


MATCH_SIMULATION: Simulation[Match] = Simulation(
    noun="match",
    start=lambda replay: new_match(replay.config, replay.seed, replay.players),
    step=step_match,
    hasher=_Hasher,
    field_names=lambda replay: match_field_names(replay.players),
    field_digests=match_field_digests,
    outcome=_match_outcome,
    end_problem=_match_end_problem,
)
"""A two-player replay: the state is the Match, hashed with ``match_hash``."""


def verify_match(replay: Replay, *, on_step: OnMatchStep | None = None) -> VerifyResult:
    """Re-simulate a two-player ``replay`` and compare every checkpoint, the final hash and
    every player's final score (``verify_replay`` for a match).

    Args:
        replay: a loaded (or just recorded) two-player replay.
        on_step: called with each new Match and its tagged events.
    """
    return verify_with(replay, MATCH_SIMULATION, on_step)
