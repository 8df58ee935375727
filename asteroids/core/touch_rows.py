"""Contacts over many games' packed rows (the batched tick's phase 5): which games' craft
touch a rock or each other, by the contact rules' own texts (``touch.near_rows``,
``touch.rocks_overlapping``, ``touch.crafts_near``, ``touch.outlines_overlap``) asked once
for every game's rows; what ``touch`` asks of one game's rows, gathered for all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from asteroids.core.batch_rows import any_per_game, distinct, xy_rows
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.params import Params
from asteroids.core.touch import crafts_near, near_rows, outlines_overlap, rocks_overlapping

__all__ = ["craft_meets_rocks", "crafts_meet", "near_rocks"]

Shape = Callable[[np.ndarray], np.ndarray]
"""A craft's outlines in the games asked: (n, v, 2) points for (n,) games."""


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


def craft_meets_rocks(d: BatchDraft, p: Params, present: np.ndarray, cx: np.ndarray,
                      cy: np.ndarray, radius: Any, outline: Shape, ast_game: np.ndarray,
                      lanes: int) -> np.ndarray:
    """(B,) where a present craft touches a rock: ``touch._first_overlap`` for every game at
    once (bounding circles, then the outlines of the candidates; no rock is claimed before
    the contacts in a tick the batched pass keeps)."""
    cand = near_rocks(d, p, present, cx, cy, radius, ast_game)
    if cand.shape[0] == 0:
        return np.zeros(lanes, dtype=bool)
    g = ast_game[cand]
    games = distinct(g, lanes)
    hit = rocks_overlapping(d, p, cand, outline(games), np.searchsorted(games, g))
    return any_per_game(hit, g, lanes)


def crafts_meet(d: BatchDraft, p: Params, ship: np.ndarray, ship_outline: Shape,
                saucer_outline: Shape) -> np.ndarray:
    """(B,) where the ship (present where ``ship``) touches the saucer: ``touch._crafts_touch``
    for every game at once (the shield's circle, or both bounding circles and then the
    outlines)."""
    both = ship & d.saucer_alive
    if not both.any():
        return both
    large, small = p.saucer_radius
    near = both & crafts_near(MANY, p, (d.ship_x, d.ship_y), p.ship_radius, d.shield_on,
                              p.shield_radius, (d.saucer_x, d.saucer_y),
                              np.where(d.saucer_small, small, large))
    shielded = near & d.shield_on
    games = (near & ~d.shield_on).nonzero()[0]
    if games.shape[0] == 0:
        return shielded
    hit = outlines_overlap(p, ship_outline(games), saucer_outline(games))
    shielded[games[hit]] = True
    return shielded
