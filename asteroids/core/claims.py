"""Claims (the shot sweep's): the earliest hit claims a target, one text for one game and
every game of a batch.

A shot that hits a rock or a craft claims it for its shooter's cause (``bodies.SHOT_CAUSE``);
the first claim on a target wins, in order of the hit's time along the tick, then shot row; a
craft with its shield up is not claimed, though the shot ends there. The one-game sweep
(``sweep._apply_shot_hits``) asks these as a batch of one and writes the answer into its
frame; the batched pass asks them over every game's rows at once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from asteroids.core.batch_rows import first_of_each
from asteroids.core.bodies import HIT_OF, SHOT_CAUSE
from asteroids.core.kinds import Kind, Shooter

__all__ = ["craft_claims", "rock_claims"]


def rock_claims(owner: np.ndarray, rows: np.ndarray, rock: np.ndarray, t: np.ndarray,
                rocks: int) -> np.ndarray:
    """(N,) the cause that claimed each rock, or -1, from the hits of shot ``rows`` (on rock
    ``rock`` at ``t``; ``owner``: every shot row's shooter): hits in order of ``t``, then
    shot row; the first claim on a rock wins. One game's frame and every game of a batch at
    once (the batched pass) claim by it."""
    rock_by = np.full(rocks, -1, dtype=np.int64)
    on_rock = (rock >= 0).nonzero()[0]
    order = on_rock[np.lexsort((rows[on_rock], t[on_rock]))]
    target, first = first_of_each(rock[order])
    rock_by[target] = _CAUSE_OF_SHOOTER[owner[rows[order[first]]]]
    return rock_by


def craft_claims(owner: np.ndarray, kind: np.ndarray, t: np.ndarray, shot_game: np.ndarray,
                 shielded: Mapping[Kind | int, np.ndarray], lanes: int
                 ) -> dict[Kind | int, np.ndarray]:
    """Per kind of craft of ``shielded``, (B,) the cause that claimed it in each game, or -1:
    the earliest hit on it (by ``t``, then shot row) claims it, unless its shield is up there
    (``shielded``), though the shot ends there. ``kind`` and ``t``: each shot row's hit
    (``ShotHits``); ``shot_game``: each shot row's game. One text for one game (a batch of
    one) and every game of a batch."""
    out = {}
    for craft, shield in shielded.items():
        by = np.full(lanes, -1, dtype=np.int64)
        hit = (kind == HIT_OF[craft]).nonzero()[0]
        if hit.shape[0]:
            order = hit[np.lexsort((hit, t[hit]))]
            games, first = first_of_each(shot_game[order])
            cause = _CAUSE_OF_SHOOTER[owner[order[first]]]
            by[games] = np.where(shield[games], -1, cause)
        out[craft] = by
    return out


_CAUSE_OF_SHOOTER = np.array([int(SHOT_CAUSE[s]) for s in Shooter], dtype=np.int64)
"""``SHOT_CAUSE`` by shooter value (read-only)."""
_CAUSE_OF_SHOOTER.flags.writeable = False
