"""Many two-player matches stepped together by the batched pass: ``new_matches``,
``step_matches``, ``MatchBatch.match``.

Layout: the matches' Worlds are one ``Batch`` of ``players * B`` games, match m's player k
in lane ``m * players + k``; the Match's own fields (``active``, ``banner_ticks``,
``handover_ticks``, ``tick``, ``over``) are ``(B,)`` columns. A tick steps, in one
``step_batch``, only the lanes of the active players of the matches where no banner shows
(``active=``: the waiting Worlds are left out of the pass and keep every column bit for
bit), then runs the rules of turns, ``match.turn``, the very text ``step_match`` runs on one
match, over the columns (``lanes.MANY``). ``MatchBatch.match(i)`` is match i as a ``Match``,
and its ``match_hash`` is ``step_match``'s for the same seed and inputs after every tick
(tests/core/test_match_batch.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.batch import Batch, check_masks, check_seeds, new_batch, rules_for, step_batch
from asteroids.core.event_columns import EventColumns, EventKind
from asteroids.core.lanes import MANY
from asteroids.core.match import (
    MAX_PLAYERS,
    Match,
    MatchOver,
    Tagged,
    TurnStarted,
    banner_ticks,
    player_seed,
    turn,
)
from asteroids.core.params import Params, params_for
from asteroids.core.world import SHIP_DEAD

__all__ = ["MatchBatch", "MatchEvents", "new_matches", "step_matches"]

_DEAD = int(SHIP_DEAD)
"""The dead ship's state as a plain int (an array compared with an IntEnum member costs
five times as much)."""


@dataclass(frozen=True, eq=False)
class MatchBatch:
    """B matches of one ruleset between ticks (read-only arrays, like a ``Batch``)."""

    worlds: Batch
    """Every player's World: match m's player k is lane ``m * players + k``."""
    players: int
    """Players per match (1 or 2)."""
    active: np.ndarray
    """(B,) int64: whose turn it is (``Match.active``)."""
    banner_ticks: np.ndarray
    """(B,) int64: ``Match.banner_ticks``."""
    handover_ticks: np.ndarray
    """(B,) int64: ``Match.handover_ticks``."""
    tick: np.ndarray
    """(B,) int64: ``Match.tick``."""
    over: np.ndarray
    """(B,) bool: ``Match.over``."""
    seeds: tuple[int, ...]
    """Each match's seed (``new_match``'s)."""

    def __post_init__(self) -> None:
        for name in ("active", "banner_ticks", "handover_ticks", "tick", "over"):
            getattr(self, name).setflags(write=False)

    @property
    def size(self) -> int:
        """B, the number of matches."""
        return len(self.seeds)

    def __len__(self) -> int:
        return self.size

    @property
    def params(self) -> Params:
        """The matches' rules."""
        return self.worlds.params

    def lanes(self, k: int) -> np.ndarray:
        """(B,) the lane of each match's player ``k`` in ``worlds``."""
        return np.arange(self.size, dtype=np.int64) * self.players + k

    def match(self, i: int) -> Match:
        """Match ``i`` as a ``Match`` (its Worlds read from the batch)."""
        if not 0 <= i < self.size:
            raise IndexError(f"match {i} outside a batch of {self.size}")
        n = self.players
        return Match(worlds=tuple(self.worlds.worlds_of(range(i * n, i * n + n))),
                     active=int(self.active[i]), banner_ticks=int(self.banner_ticks[i]),
                     handover_ticks=int(self.handover_ticks[i]), tick=int(self.tick[i]),
                     over=bool(self.over[i]))


@dataclass(frozen=True, eq=False)
class MatchEvents:
    """A tick's events of every match: the Worlds' as columns, and the turns'."""

    worlds: EventColumns
    """The events of every World (lanes as ``MatchBatch.worlds``): only the active
    players' Worlds that moved have any."""
    players: int
    moved: np.ndarray
    """(B,) int64: the player whose World moved (the active player before the tick)."""
    active: np.ndarray
    """(B,) int64: the active player after the tick."""
    started: np.ndarray
    """(B,) bool: the turn passed to ``active`` (``TurnStarted``)."""
    ended: np.ndarray
    """(B,) bool: the match ended (``MatchOver``)."""
    scores: np.ndarray
    """(B, players) int64: every player's score after the tick."""

    def of(self, i: int) -> tuple[Tagged, ...]:
        """Match ``i``'s events as ``(player, event)`` pairs, equal to ``step_match``'s."""
        moved, active = int(self.moved[i]), int(self.active[i])
        out: list[Tagged] = [(moved, e) for e in
                             self.worlds.of(i * self.players + moved)]
        if self.started[i]:
            out.append((active, TurnStarted(active)))
        if self.ended[i]:
            out.append((active, MatchOver(tuple(int(s) for s in self.scores[i]))))
        return tuple(out)


def new_matches(config: Config | Params, seeds: Iterable[int] | np.ndarray,
                players: int = MAX_PLAYERS) -> MatchBatch:
    """B new matches, match i from ``seeds[i]``: each equal to ``new_match``'s.

    Raises:
        ValueError: for no seeds, a seed ``new_batch`` refuses, or a player count outside
            [1, ``MAX_PLAYERS``].
    """
    if isinstance(players, bool) or not isinstance(players, int) or \
            not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"a match has 1 to {MAX_PLAYERS} players; got {players!r}")
    p = params_for(config)
    seeds = check_seeds(seeds)
    worlds = new_batch(p, [player_seed(s, k) for s in seeds for k in range(players)])
    size = len(seeds)
    return MatchBatch(worlds=worlds, players=players,
                      active=np.zeros(size, dtype=np.int64),
                      banner_ticks=np.full(size, banner_ticks(p), dtype=np.int64),
                      handover_ticks=np.full(size, -1, dtype=np.int64),
                      tick=np.zeros(size, dtype=np.int64), over=np.zeros(size, dtype=bool),
                      seeds=tuple(seeds))


def step_matches(matches: MatchBatch, masks: np.ndarray | Sequence[int],
                 config: Config | Params | None = None) -> tuple[MatchBatch, MatchEvents]:
    """Advance every match by one tick, match i under ``masks[i]`` (what ``step_match``
    does to each, with the batched pass).

    Args:
        matches: the matches (never modified).
        masks: (B,) input masks, one per match, as ``step_batch`` takes them.
        config: their ruleset; None: the batch's own.

    Raises:
        ValueError: for masks ``step_batch`` refuses.
    """
    p = rules_for(matches.worlds, config)
    size, n = matches.size, matches.players
    m = check_masks(masks, size)
    lane = np.arange(size, dtype=np.int64) * n + matches.active
    moving = np.zeros(size * n, dtype=bool)
    moving[lane[matches.banner_ticks <= 0]] = True
    world_masks = np.zeros(size * n, dtype=np.int64)
    world_masks[lane] = m
    worlds, events = step_batch(matches.worlds, world_masks, p, active=moving)
    lost = events.count(EventKind.SHIP_DESTROYED)[lane] > 0
    outs = worlds.game_over.reshape(size, n)
    t = turn(MANY, matches, lost, worlds.ship_state[lane] == _DEAD,
             worlds.ship_timer[lane], [outs[:, k] for k in range(n)], banner_ticks(p))
    after = MatchBatch(worlds=worlds, players=n, active=np.asarray(t.active, dtype=np.int64),
                       banner_ticks=np.asarray(t.banner_ticks, dtype=np.int64),
                       handover_ticks=np.asarray(t.handover_ticks, dtype=np.int64),
                       tick=np.asarray(t.tick, dtype=np.int64),
                       over=np.asarray(t.over, dtype=bool), seeds=matches.seeds)
    return after, MatchEvents(worlds=events, players=n, moved=matches.active,
                              active=after.active, started=np.asarray(t.started, dtype=bool),
                              ended=np.asarray(t.ended, dtype=bool),
                              scores=worlds.score.reshape(size, n))
