"""Two players taking turns, as on the 1979 cabinet: a layer over the one-player core.

A ``Match`` holds one ``World`` per player (each with its own score, ships, wave and rock
field) and whose turn it is. ``step_match`` steps only the active player's World with the
one input mask of the tick; the other World waits, untouched, until its turn comes back.
The one-player core is not changed by any of this: a World in a match is stepped by the
same ``step`` as a one-player game.

The rules of turns:

- Before every turn, the first one included, ``PLAYER N`` shows for
  ``match.turn_banner_s`` (``banner_ticks``); meanwhile neither World advances (the tick's
  mask is taken and ignored).
- The turn passes when the active player loses a ship and another player still has ships,
  at the moment the cabinet passed it: after the explosion, when the lost ship would come
  back (``SwapRAM`` runs when the respawn timer ``ShipSpawnTmr`` runs out). A ship lost
  with the respawn timer at ``T`` ticks after its step would be tried again on the step
  that takes the timer from 1 to 0, so the turn passes ``T - 1`` ticks later, before that
  step: the waiting World keeps its dead ship and the timer at 1 (or 0 while the centre
  was not clear), and its ship returns on its player's first step after the banner. A
  player's last ship passes the turn the same way: their World keeps running, game over,
  until ``T - 1`` ticks after the loss (it no longer counts its timer down; the match does).
- A player who is out (game over) is skipped; with no other player left in, a lost ship
  comes back as in a one-player game, with no banner.
- The match is over when every player is out.

Seeds: player 1's World is ``new_world(config, seed)``, the very game a one-player game of
that seed starts with; player ``k + 1``'s seed is ``(seed + k * 0x9E3779B97F4A7C15) mod
2**64`` (``player_seed``: the 64-bit golden-ratio step, so nearby match seeds give unrelated
rock fields).

The rules of turns are one text, ``turn``, written against ``asteroids.core.lanes``:
``step_match`` runs it on one match's Python values (``ONE``), ``match_batch.step_matches``
on ``(B,)`` columns of many matches (``MANY``), each after its driver stepped the active
players' Worlds.

Events are ``(player, event)`` pairs, ``player`` the 0-based index: the World events of the
active player's step, tagged with that player, and the match's own ``TurnStarted`` and
``MatchOver``. The first turn's banner is in the new match's state (``banner_ticks``); no
event announces it.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core.hashing import digest_byte, field_digests, state_hash, value_bytes
from asteroids.core.inputs import InputFrame
from asteroids.core.lanes import ONE, Lanes
from asteroids.core.params import Params, params_for
from asteroids.core.simulation import new_world, step
from asteroids.core.world import FIELD_NAMES, SHIP_DEAD, World

__all__ = [
    "MATCH_FIELDS",
    "MATCH_FIELD_NAMES",
    "MAX_PLAYERS",
    "Match",
    "MatchEvent",
    "MatchOver",
    "Tagged",
    "Turn",
    "TurnStarted",
    "banner_ticks",
    "match_field_digests",
    "match_field_names",
    "match_hash",
    "new_match",
    "next_in",
    "player_seed",
    "step_match",
    "turn",
]

MAX_PLAYERS = 2
"""Players a match can have (the cabinet's two)."""

_SEED_STEP = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """The turn passed to ``player`` (0-based): their ``PLAYER N`` banner starts now."""

    player: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    """Every player is out; ``scores`` in player order."""

    scores: tuple[int, ...]


MatchEvent = TurnStarted | MatchOver
"""An event of the match itself (not of one player's World)."""

Tagged = tuple[int, ev.Event | MatchEvent]
"""``(player, event)``: whose it is (0-based) and what happened."""


@dataclass(frozen=True, slots=True, eq=False)
class Match:
    """A two-player game between ticks. Compare matches with ``match_hash``.

    Every field is a plain value; the Worlds are immutable, so a Match is too.
    """

    worlds: tuple[World, ...]
    """One World per player, in player order."""
    active: int
    """Whose turn it is (0-based index into ``worlds``)."""
    banner_ticks: int
    """Ticks of the active player's ``PLAYER N`` banner still to show (0: the turn is on)."""
    handover_ticks: int
    """After the active player lost a ship while another player is in: steps of their
    World until the turn passes (0: it passes after this step); -1 when none is due."""
    tick: int
    """Ticks since the match began, banners included: one per input mask."""
    over: bool
    """Every player is out."""

    @property
    def world(self) -> World:
        """The active player's World (the one shown)."""
        return self.worlds[self.active]

    @property
    def players(self) -> int:
        """How many players the match has."""
        return len(self.worlds)

    @property
    def scores(self) -> tuple[int, ...]:
        """Every player's score, in player order."""
        return tuple(int(w.score) for w in self.worlds)


MATCH_FIELDS = ("active", "banner_ticks", "handover_ticks", "tick", "over")
"""The Match's own fields (besides the Worlds), in hashing order."""


def player_seed(seed: int, player: int) -> int:
    """The seed of ``player``'s World (0-based) in a match of ``seed``.

    Player 0 plays ``seed`` itself; the others step it by the 64-bit golden ratio (mod 2**64).

    >>> player_seed(42, 0), player_seed(42, 1) == (42 + 0x9E3779B97F4A7C15) % 2**64
    (42, True)
    """
    if player == 0:
        return int(seed)
    return (int(seed) + player * _SEED_STEP) & _MASK64


def banner_ticks(config: Config | Params) -> int:
    """Ticks of the ``PLAYER N`` banner: ``match.turn_banner_s`` at the tick rate, rounded."""
    if isinstance(config, Params):
        config = config.config
    return max(0, round(config.match.turn_banner_s * config.world.tick_hz))


def new_match(config: Config | Params, seed: int, players: int = 2) -> Match:
    """A new match: every player's first wave ready, player 1's banner showing.

    Args:
        config: the resolved settings (the same rules for every player).
        seed: the match seed (``player_seed`` derives each World's).
        players: 1 or 2.

    Raises:
        ValueError: for a player count outside [1, ``MAX_PLAYERS``].
    """
    if isinstance(players, bool) or not isinstance(players, int) or \
            not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"a match has 1 to {MAX_PLAYERS} players; got {players!r}")
    p = params_for(config)
    worlds = tuple(new_world(p, player_seed(seed, k)) for k in range(players))
    return Match(worlds=worlds, active=0, banner_ticks=banner_ticks(p),
                 handover_ticks=-1, tick=0, over=False)


def next_in(L: Lanes, active: Any, outs: Sequence[Any]) -> Any:
    """The next player after ``active`` (in turn order) who is still in, -1 when none.

    Args:
        L: ``ONE`` or ``MANY``.
        active: whose turn it is (0-based).
        outs: one value per player, in player order: whether they are out (game over).
    """
    n = len(outs)
    nxt: Any = -1
    for k in range(n - 1, 0, -1):  # the nearest last, so it wins
        other = (active + k) % n
        out = outs[0]
        for j in range(1, n):
            out = L.where(other == j, outs[j], out)
        nxt = L.where(out, nxt, other)
    return nxt


class Turn(NamedTuple):
    """A match's own fields after a tick (``Match``'s names), and what the tick announced."""

    active: Any
    banner_ticks: Any
    handover_ticks: Any
    tick: Any
    over: Any
    started: Any
    """The turn passed (to ``active``): ``TurnStarted``."""
    ended: Any
    """The match is over this tick: ``MatchOver``."""


def turn(L: Lanes, match: Any, lost: Any, ship_dead: Any, ship_timer: Any,
         outs: Sequence[Any], banner: int) -> Turn:
    """The rules of turns (the module's docstring) for one tick, after the driver stepped
    the active player's World where no banner shows.

    Args:
        L: ``ONE`` (a ``Match``'s Python values) or ``MANY`` (``(B,)`` columns of many
            matches, ``match_batch``).
        match: the fields before the tick: ``active``, ``banner_ticks``,
            ``handover_ticks``, ``tick``, ``over``.
        lost: the active player lost a ship this tick (False under a banner).
        ship_dead: the active player's ship is dead after the tick.
        ship_timer: the active player's ship timer after the tick.
        outs: each player's game over after the tick, in player order.
        banner: ``banner_ticks(rules)``.
    """
    waiting = match.banner_ticks > 0  # a banner: no World moved, only its count runs
    handover = L.where(match.handover_ticks > 0, match.handover_ticks - 1,
                       match.handover_ticks)
    nxt = next_in(L, match.active, outs)
    # The lost ship is tried again on the step that takes its timer from 1 to 0: the turn
    # passes just before that step (at once if the ship is back already).
    due = (match.over ^ True) & lost & (nxt >= 0)
    handover = L.where(due, L.where(ship_dead, L.maximum(ship_timer - 1, 0), 0), handover)
    all_out = outs[0]
    for out in outs[1:]:
        all_out = all_out & out
    over = match.over | all_out
    passing = handover == 0
    started = passing & (nxt >= 0) & (waiting ^ True)
    return Turn(
        active=L.where(started, nxt, match.active),
        banner_ticks=L.where(waiting, match.banner_ticks - 1, L.where(started, banner, 0)),
        handover_ticks=L.where(waiting, match.handover_ticks, L.where(passing, -1, handover)),
        tick=match.tick + 1,
        over=L.where(waiting, match.over, over),
        started=started,
        ended=over & (match.over ^ True) & (waiting ^ True),
    )


def step_match(match: Match, inputs: InputFrame | int,
               config: Config | Params) -> tuple[Match, tuple[Tagged, ...]]:
    """Advance the match by one tick.

    During a banner the mask is ignored and no World moves. Otherwise the active player's
    World takes one ``step`` with the mask, and the turn passes when it is due (``turn``,
    see the module docstring). After the match is over the last player's World keeps
    running (the rocks drift behind GAME OVER, as in a one-player game).

    Args:
        match: the current state (never modified).
        inputs: this tick's buttons, as for ``step``.
        config: the rules every World runs under: their Params, as a loop passes them (a
            Config is compiled on every call, as ``step`` does).

    Returns:
        The next Match and what happened, as ``(player, event)`` pairs in order.
    """
    p = params_for(config)
    active = match.active
    worlds = match.worlds
    tagged: list[Tagged] = []
    lost = False
    if match.banner_ticks <= 0:
        world, events = step(worlds[active], inputs, p)
        worlds = worlds[:active] + (world,) + worlds[active + 1:]
        tagged = [(active, e) for e in events]
        lost = any(isinstance(e, ev.ShipDestroyed) for e in events)
    world = worlds[active]
    t = turn(ONE, match, lost, world.ship_state == SHIP_DEAD, world.ship_timer,
             [w.game_over for w in worlds], banner_ticks(p))
    if t.started:
        tagged.append((t.active, TurnStarted(t.active)))
    if t.ended:
        tagged.append((t.active, MatchOver(tuple(int(w.score) for w in worlds))))
    return Match(worlds=worlds, active=t.active, banner_ticks=t.banner_ticks,
                 handover_ticks=t.handover_ticks, tick=t.tick, over=t.over), tuple(tagged)


def match_hash(match: Match, world_hashes: tuple[str, ...] | None = None) -> str:
    """A 32-hex-digit digest of the whole match: its own fields, then every World's
    ``state_hash`` in player order.

    Args:
        match: the match.
        world_hashes: the Worlds' ``state_hash`` values when the caller has them already
            (a waiting World does not change, so a recorder hashes it once per turn).
    """
    hashes = world_hashes if world_hashes is not None else tuple(
        state_hash(w) for w in match.worlds)
    if len(hashes) != len(match.worlds):
        raise ValueError("match_hash: one World hash per player is needed")
    h = hashlib.blake2b(digest_size=16, person=b"asteroids-match")
    h.update(struct.pack("<q", len(match.worlds)))
    for name in MATCH_FIELDS:
        h.update(value_bytes(getattr(match, name)))
    for world_hash in hashes:
        h.update(bytes.fromhex(world_hash))
    return h.hexdigest()


def match_field_names(players: int = MAX_PLAYERS) -> tuple[str, ...]:
    """The names of the per-field digests of a ``players``-player match: ``MATCH_FIELDS``,
    then ``p1_<World field>`` ... for each player."""
    return MATCH_FIELDS + tuple(f"p{k + 1}_{name}" for k in range(players)
                                for name in FIELD_NAMES)


MATCH_FIELD_NAMES = match_field_names(MAX_PLAYERS)
"""The digest names of a two-player replay's checkpoints."""


def match_field_digests(match: Match) -> bytes:
    """One byte per ``match_field_names(match.players)`` entry: the match's own fields (as
    ``match_hash`` encodes them), then each World's ``field_digests``."""
    out = bytearray(digest_byte(value_bytes(getattr(match, name))) for name in MATCH_FIELDS)
    for world in match.worlds:
        out += field_digests(world)
    return bytes(out)
