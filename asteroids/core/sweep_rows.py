"""The shot sweep over many games' packed rows (the batched tick's phase 3 where shots bounce
off the walls or obstacles stand): every game's shots, rocks, craft and the shared obstacles
as one ``sweep.Targets`` whose pairs keep each shot to its own game, asked of the sweep's own
``shot_hits`` (the query, the walls, the ricochets and the pieces after them: one text for
one game and many); the claims are the sweep's own (``sweep.rock_claims``,
``sweep.craft_claims``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from asteroids.core.batch_rows import distinct, offsets_of, pairs_in_games, xy_rows
from asteroids.core.bodies import HIT_OF, SHOT_TARGETS
from asteroids.core.craft import CraftRows
from asteroids.core.kinds import Hit, Kind, Shooter
from asteroids.core.lanes import BatchDraft
from asteroids.core.outlines import rock_outlines_of
from asteroids.core.params import Params
from asteroids.core.sweep import ShotHits, Targets, shot_hits, shots_after

__all__ = ["sweep_rows"]

def _batch_targets(d: BatchDraft, p: Params, rows: np.ndarray, shot_game: np.ndarray,
                   crafts: Mapping[Kind, CraftRows],
                   near: tuple[np.ndarray, np.ndarray] | None) -> Targets:
    """What shots ``rows`` can hit, each in its own game (``sweep._targets`` for every
    game): the rocks of their games (of those, with ``near``, only the (shot row, rock row)
    pairs given: the others cannot be hit), the craft of ``SHOT_TARGETS`` in play in their
    game, the obstacles; bodies rocks first, then craft, then obstacles, as one game lists
    them."""
    lanes = next(iter(crafts.values())).present.shape[0]
    games = shot_game.take(rows)
    if near is None:
        asked = np.zeros(lanes, dtype=bool)
        asked[games] = True
        counts = (d.ast_rows[1:] - d.ast_rows[:-1]) * asked
        rocks = np.arange(d.ast_id.shape[0])[asked.repeat(d.ast_rows[1:] - d.ast_rows[:-1])]
        a, b = pairs_in_games(games, offsets_of(counts))
    else:  # the pairs in reach of the shots asked (``rows`` ascending)
        slot = np.full(shot_game.shape[0], -1, dtype=np.int64)
        slot[rows] = np.arange(rows.shape[0])
        mine = (slot.take(near[0]) >= 0).nonzero()[0]
        near_s, near_r = near[0].take(mine), near[1].take(mine)
        rocks = distinct(near_r, d.ast_id.shape[0])
        a, b = slot.take(near_s), np.searchsorted(rocks, near_r)
    points, offsets = rock_outlines_of(d, rocks)  # type: ignore[arg-type]
    parts, offs, moves = [points], [offsets], [d.ast_vel.take(rocks, axis=0)]
    kinds = [np.full(rocks.shape[0], int(Hit.ROCK), dtype=np.int64)]
    index = [rocks]
    pair_a, pair_b = [a], [b]
    n_bodies = rocks.shape[0]
    owner = d.shot_owner.take(rows)
    for shooter in (Shooter.SHIP, Shooter.SAUCER):
        for kind in SHOT_TARGETS[shooter]:
            craft = crafts[kind]
            mine = ((owner == shooter) & craft.present.take(games)).nonzero()[0]
            if mine.shape[0] == 0:
                continue
            craft_games = distinct(games.take(mine), lanes)
            outline = craft.outlines(craft_games)
            n, v = outline.shape[0], outline.shape[1]
            parts.append(outline.reshape(n * v, 2))
            offs.append(offs[-1][-1] + v * np.arange(1, n + 1))
            moves.append(xy_rows(craft.vx.take(craft_games), craft.vy.take(craft_games)))
            kinds.append(np.full(n, int(HIT_OF[kind]), dtype=np.int64))
            index.append(np.full(n, -1, dtype=np.int64))
            pair_a.append(mine)
            pair_b.append(n_bodies + np.searchsorted(craft_games, games.take(mine)))
            n_bodies += n
    n_obstacles = p.obstacle_offsets.shape[0] - 1
    if n_obstacles:
        parts.append(p.obstacle_points)
        offs.append(offs[-1][-1] + p.obstacle_offsets[1:])
        moves.append(np.zeros((n_obstacles, 2)))
        kinds.append(np.full(n_obstacles, int(Hit.OBSTACLE), dtype=np.int64))
        index.append(np.arange(n_obstacles, dtype=np.int64))
        pair_a.append(np.arange(rows.shape[0]).repeat(n_obstacles))
        pair_b.append(np.tile(np.arange(n_bodies, n_bodies + n_obstacles), rows.shape[0]))
    return Targets(np.concatenate(parts), np.concatenate(offs), np.concatenate(moves),
                   np.concatenate(kinds), np.concatenate(index),
                   (np.concatenate(pair_a), np.concatenate(pair_b)))


def sweep_rows(d: BatchDraft, p: Params, asked: np.ndarray, shot_game: np.ndarray,
               crafts: Mapping[Kind, CraftRows],
               near: tuple[np.ndarray, np.ndarray] | None = None) -> ShotHits:
    """``sweep_shots``' hits for every shot of the games ``asked`` ((B,) bools) at once,
    by the sweep's own ``shot_hits`` (rows of other games hit nothing here); then every
    shot row moved by ``sweep.shots_after`` (``d.shot_pos``, ``d.shot_vel``) and aged.

    Args:
        d: the batch's columns.
        p: the rules.
        asked: (B,) the games whose shots are swept.
        shot_game: the game of each shot row.
        crafts: each kind of craft's columns (where it is in play, where, its motion, its
            outlines in given games).
        near: None, or the only (shot row, rock row) pairs that may hit (the reach
            check's, ``reach.shots_may_hit_rows``).
    """
    rows = asked.take(shot_game).nonzero()[0]
    hits = ShotHits(d.shot_id.shape[0])
    if rows.shape[0]:
        tg = _batch_targets(d, p, rows, shot_game, crafts, near)
        hits = shot_hits(d.shot_pos, d.shot_vel, [(rows, tg)], p)
    d.shot_pos, d.shot_vel = shots_after(d.shot_pos, d.shot_vel, hits, p)
    d.shot_ttl = d.shot_ttl - 1
    return hits
