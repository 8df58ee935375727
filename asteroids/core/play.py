"""The one seam between one and two players: how a game of N players starts, steps, hashes and
reads, for whoever drives one (the replay recorder and verifier, the app, the bots).

A one-player game is a ``World`` stepped by ``step``; a two-player game is a ``Match``
(``asteroids.core.match``) stepped by ``step_match``. ``play_for(players)`` gives the
``Play`` of either, and code written against a ``Play`` works for both::

    play = play_for(replay.players)
    state = play.start(config, seed)
    state, events = play.step(state, mask, config)
    play.hasher()(state), play.world(state), play.scores(state), play.active(state)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from asteroids.config.schema import Config
from asteroids.core.events import Event
from asteroids.core.hashing import field_digests, state_hash
from asteroids.core.match import (
    MAX_PLAYERS,
    Match,
    MatchEvent,
    Tagged,
    match_field_digests,
    match_field_names,
    match_hash,
    new_match,
    step_match,
)
from asteroids.core.params import Params
from asteroids.core.simulation import new_world, step
from asteroids.core.world import FIELD_NAMES, World

__all__ = ["MATCH", "SOLO", "Play", "play_for"]

S = TypeVar("S")
Rules = Config | Params


@dataclass(frozen=True, slots=True)
class Play(Generic[S]):
    """Everything a driver needs to know about one kind of game (its state is ``S``)."""

    players: int
    noun: str
    """What the state is called in messages: "world" (one player), "match" (two)."""
    start: Callable[[Rules, int], S]
    """The state at tick 0, from the rules and the seed."""
    step: Callable[[S, int, Rules], tuple[S, tuple[Any, ...]]]
    """One tick: state, input mask and rules in; the next state and its events out."""
    hasher: Callable[[], Callable[[S], str]]
    """A fresh state-hash function for one pass over consecutive ticks (it may remember what
    the last step did not change, as a waiting player's World)."""
    field_names: tuple[str, ...]
    """The names of ``field_digests``' bytes."""
    field_digests: Callable[[S], bytes]
    """One byte per field of the state: which fields differ between two states."""
    world: Callable[[S], World]
    """The World on screen (the active player's)."""
    worlds: Callable[[S], tuple[World, ...]]
    """Every player's World, in player order."""
    tick: Callable[[S], int]
    over: Callable[[S], bool]
    """The game is over (every player is out)."""
    active: Callable[[S], int]
    """Whose turn it is: the index in ``worlds`` of the World on screen (0 for one player)."""
    banner: Callable[[S], int]
    """Ticks of the turn's ``PLAYER N`` banner still to show, when no World advances (0:
    play is on; always 0 for one player)."""
    world_events: Callable[[tuple[Any, ...]], tuple[Event, ...]]
    """The events of one step that belong to the World on screen (a match's own events and
    the players' tags left out)."""

    def scores(self, state: S) -> tuple[int, ...]:
        """Every player's score, in player order."""
        return tuple(int(w.score) for w in self.worlds(state))

    def waves(self, state: S) -> tuple[int, ...]:
        """Every player's wave, in player order."""
        return tuple(int(w.wave) for w in self.worlds(state))


def _match_world_events(tagged: tuple[Tagged, ...]) -> tuple[Event, ...]:
    return tuple(e for _, e in tagged if not isinstance(e, MatchEvent))


class _MatchHasher:
    """``match_hash`` over one pass of consecutive states that hashes a waiting World once,
    not on every tick of the other's turn. Which World a step moved is read from the state
    before it (``step_match`` moves only its active player's World, and none during its
    banner); a state that is not the tick after the last one (or has another player count)
    has every World hashed again."""

    __slots__ = ("_hashes", "_last")

    def __init__(self) -> None:
        self._hashes: list[str] = []
        self._last: tuple[int, int, int] | None = None
        """The last state's (tick, active player, banner ticks)."""

    def __call__(self, match: Match) -> str:
        last = self._last
        if last is None or match.tick != last[0] + 1 or len(self._hashes) != match.players:
            self._hashes = [state_hash(w) for w in match.worlds]
        elif last[2] == 0:
            moved = last[1]
            self._hashes[moved] = state_hash(match.worlds[moved])
        self._last = (match.tick, match.active, match.banner_ticks)
        return match_hash(match, tuple(self._hashes))


def _solo_hasher() -> Callable[[World], str]:
    return state_hash


SOLO: Play[World] = Play(
    players=1, noun="world", start=new_world, step=step, hasher=_solo_hasher,
    field_names=FIELD_NAMES, field_digests=field_digests, world=lambda w: w,
    worlds=lambda w: (w,), tick=lambda w: w.tick, over=lambda w: w.game_over,
    active=lambda w: 0, banner=lambda w: 0, world_events=lambda events: events,
)
"""One player: the state is the World."""

MATCH: Play[Match] = Play(
    players=MAX_PLAYERS, noun="match",
    start=lambda rules, seed: new_match(rules, seed, MAX_PLAYERS), step=step_match,
    hasher=_MatchHasher, field_names=match_field_names(MAX_PLAYERS),
    field_digests=match_field_digests, world=lambda m: m.world, worlds=lambda m: m.worlds,
    tick=lambda m: m.tick, over=lambda m: m.over, active=lambda m: m.active,
    banner=lambda m: m.banner_ticks, world_events=_match_world_events,
)
"""Two players taking turns: the state is the Match."""


def play_for(players: int) -> Play[Any]:
    """The ``Play`` of a game of ``players`` players (1 or 2).

    Raises:
        ValueError: for any other count.
    """
    if players == 1:
        return SOLO
    if players == MAX_PLAYERS:
        return MATCH
    raise ValueError(f"a game has 1 to {MAX_PLAYERS} players; got {players!r}")
