"""Contacts over many games' packed rows (the batched tick's phase 5): which games' craft
touch a rock or each other, by the contact rules' own texts (``touch.near_rows``,
``touch.rocks_overlapping``, ``touch.crafts_near``, ``touch.outlines_overlap``) asked once
for every game's rows; what ``touch`` asks of one game's rows, gathered for all of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.batch_rows import any_per_game, distinct, xy_rows
from asteroids.core.craft import CraftRows
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.params import Params
from asteroids.core.touch import crafts_near, near_rows, outlines_overlap, rocks_overlapping

__all__ = ["craft_meets_rocks", "crafts_meet", "near_rocks"]


def near_rocks(d: BatchDraft, p: Params, present: np.ndarray, cx: np.ndarray,
               cy: np.ndarray, radius: Any, ast_game: np.ndarray) -> np.ndarray:
    """The rocks (global rows, ascending) whose bounding circle touches the circle of their
    game's craft where ``present`` (``radius``: one, or per game): ``touch.rocks_near`` for
    every game at once."""
    rows = present[ast_game].nonzero()[0]
    if rows.shape[0] == 0:
        return rows
    g = ast_game[rows]
    reach = radius[g] if isinstance(radius, np.ndarray) else radius
    return rows[near_rows(d.ast_pos.take(rows, axis=0), d.ast_radius[rows],
                          xy_rows(cx[g], cy[g]), reach, p)]


def craft_meets_rocks(d: BatchDraft, p: Params, craft: CraftRows, present: np.ndarray,
                      ast_game: np.ndarray, lanes: int) -> np.ndarray:
    """(B,) where ``craft``, in the games ``present``, touches a rock: ``touch._first_overlap``
    for every game at once (bounding circles, then the outlines of the candidates; no rock
    is claimed before the contacts in a tick the batched pass keeps)."""
    cand = near_rocks(d, p, present, craft.x, craft.y, craft.radius, ast_game)
    if cand.shape[0] == 0:
        return np.zeros(lanes, dtype=bool)
    g = ast_game[cand]
    games = distinct(g, lanes)
    hit = rocks_overlapping(d, p, cand, craft.outlines(games), np.searchsorted(games, g))
    return any_per_game(hit, g, lanes)


def crafts_meet(p: Params, a: CraftRows, b: CraftRows) -> np.ndarray:
    """(B,) where craft ``a`` touches craft ``b``: ``touch._crafts_touch`` for every game at
    once (a's shield's circle where it is up, else both bounding circles and then the
    outlines)."""
    both = a.present & b.present
    if not both.any():
        return both
    near = both & crafts_near(MANY, p, (a.x, a.y), a.radius, a.shield, a.shield_radius,
                              (b.x, b.y), b.radius)
    shielded = near & a.shield
    games = (near & ~a.shield).nonzero()[0]
    if games.shape[0] == 0:
        return shielded
    hit = outlines_overlap(p, a.outlines(games), b.outlines(games))
    shielded[games[hit]] = True
    return shielded
