"""Contacts over many games' packed rows (the batched tick's phase 5): which games' craft
touch a rock or each other, by the contact rules' own texts (``touch.near_rows``,
``touch.rocks_overlapping``, ``touch.crafts_near``, ``touch.outlines_overlap``) asked once
for every game's rows; what ``touch`` asks of one game's rows, gathered for all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from asteroids.core.batch_rows import distinct, first_of_each, xy_rows
from asteroids.core.bodies import CONTACTS
from asteroids.core.craft import CraftRows
from asteroids.core.kinds import Kind
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.params import Params
from asteroids.core.touch import (
    crafts_near,
    near_rows,
    outlines_overlap,
    rocks_overlapping,
    shield_bounce,
)

__all__ = ["contact_claims", "crafts_meet", "first_overlaps", "near_rocks"]


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


def first_overlaps(d: BatchDraft, p: Params, craft: CraftRows, present: np.ndarray,
                   rock_by: np.ndarray, ast_game: np.ndarray, lanes: int) -> np.ndarray:
    """(B,) in each game where ``present``, the lowest unclaimed rock (``rock_by`` < 0) whose
    outline ``craft``'s overlaps, or -1: ``touch._first_overlap`` for every game at once
    (bounding circles, then the outlines of the unclaimed candidates)."""
    out = np.full(lanes, -1, dtype=np.int64)
    cand = near_rocks(d, p, present, craft.x, craft.y, craft.radius, ast_game)
    cand = cand[rock_by[cand] < 0]
    if cand.shape[0] == 0:
        return out
    g = ast_game[cand]
    games = distinct(g, lanes)
    hit = rocks_overlapping(d, p, cand, craft.outlines(games), np.searchsorted(games, g))
    first_games, first = first_of_each(g[hit])
    out[first_games] = cand[hit][first]
    return out


def contact_claims(d: BatchDraft, p: Params, crafts: Mapping[Kind, CraftRows],
                   rock_by: np.ndarray, craft_by: dict[Kind, np.ndarray],
                   ast_game: np.ndarray, lanes: int) -> None:
    """``touch.touch`` for every game at once: the pairs of ``CONTACTS`` in order, each
    claiming in ``rock_by`` and ``craft_by`` (updated in place; what the shots claimed
    first) as one game's frame does: a craft not yet claimed and in play against the lowest
    unclaimed rock it overlaps, or with its shield up bouncing the rocks it touches
    (``touch.shield_bounce``: the rocks move, and later pairs see them moved), or against
    the other craft (its shield's circle, or both outlines)."""
    for contact in CONTACTS:
        craft = crafts[contact.craft]
        free = craft.present & (craft_by[contact.craft] < 0)
        if contact.other == Kind.ROCK:
            if rock_by.shape[0] == 0:
                continue
            shielded = free & craft.shield
            if shielded.any():
                near = near_rocks(d, p, shielded, craft.x, craft.y, craft.shield_radius,
                                  ast_game)
                if near.shape[0]:
                    games = distinct(ast_game[near], lanes)
                    shield_bounce(d, p, near, np.searchsorted(games, ast_game[near]),
                                  xy_rows(craft.x[games], craft.y[games]),
                                  xy_rows(craft.vx[games], craft.vy[games]),
                                  craft.shield_radius, craft.shield_bounce, ast_game)
            hit = first_overlaps(d, p, craft, free & ~craft.shield, rock_by, ast_game, lanes)
            got = hit >= 0
            rock_by[hit[got]] = int(contact.other_by)
            craft_by[contact.craft][got] = int(contact.craft_by)
            continue
        other = crafts[contact.other]
        meet = crafts_meet(p, craft._replace(present=free & (craft_by[contact.other] < 0)),
                           other)
        craft_by[contact.other][meet] = int(contact.other_by)
        craft_by[contact.craft][meet & ~craft.shield] = int(contact.craft_by)


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
