"""Resolve's rocks over many games' packed rows (the batched tick's phase 6): the rocks claimed
this tick break, score and split in every game at once, by the rules' own texts (scoring's
``player_points`` and ``player_broke``, spawn's ``fragment_counts`` and ``split_rocks``, each
game's draws from its own stream); what ``resolve`` does with one game's rows, gathered for
all of them.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.batch_rows import any_per_game, rebuild_rocks, segments
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.params import Params
from asteroids.core.rng import DrawQueue, Pcg32Batch
from asteroids.core.scoring import player_broke, player_points
from asteroids.core.spawn import draws_per_rock, fragment_counts, split_rocks

__all__ = ["break_rocks"]


def break_rocks(d: BatchDraft, p: Params, rock_by: np.ndarray, ast_game: np.ndarray,
                lanes: int, log: EventLog) -> None:
    """``resolve``'s rocks for every game at once: each claimed rock scores
    (``player_points``) and splits (``split_rocks``, the draws of each game from its own
    stream, however many: ``Pcg32Batch.runs`` goes beyond one jump table in rounds) within
    its game's room under the cap, a break by the player restarts its game's
    ``since_break``, its event is logged, the rest keep their order and the fragments join
    at the end of their game's rocks with the next ids."""
    broken = (rock_by >= 0).nonzero()[0]
    bg = ast_game[broken]
    sizes = d.ast_size[broken]
    counts = d.ast_rows[1:] - d.ast_rows[:-1]
    room = p.asteroids_max_alive - (counts - np.bincount(bg, minlength=lanes))
    got = fragment_counts(p, sizes, room[bg], bg)
    fragments = np.zeros(lanes, dtype=np.int64)
    np.add.at(fragments, bg, got)
    per = draws_per_rock(p)
    draws = fragments * (2 + per)
    rng = Pcg32Batch(d.rng_state, d.rng_inc)
    game, rank = segments(draws)
    run = rng.runs(draws, game, rank)
    kick = rank < 2 * fragments[game]
    kids, got = split_rocks(DrawQueue([run[kick], run[~kick]]), p, sizes,
                            d.ast_pos.take(broken, axis=0), d.ast_vel.take(broken, axis=0),
                            room[bg], bg)
    d.rng_state = rng.state
    causes = rock_by[broken]
    points = player_points(MANY, p, p.asteroid_points, sizes, causes, d.game_over[bg] ^ True)
    score = d.score.copy()
    np.add.at(score, bg, points)
    d.score = score
    d.since_break = np.where(any_per_game(player_broke(causes), bg, lanes), 0, d.since_break)
    pos = d.ast_pos.take(broken, axis=0)
    log.emit_rows(EventKind.ASTEROID_DESTROYED, bg, i0=sizes, i1=got, i2=causes, i3=points,
                  x=pos[:, 0], y=pos[:, 1])
    keep = np.ones(d.ast_id.shape[0], dtype=bool)
    keep[broken] = False
    rebuild_rocks(d, keep, ast_game, kids, np.repeat(bg, got), fragments, lanes)
