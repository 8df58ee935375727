"""Resolve (phase 6 of a tick): what was claimed this tick breaks. Rocks split and score, the
saucer and every declared enemy (``bodies.ENEMIES``) score, extra lives are awarded, the ship
is lost; the fragments join last, so one shot cannot break them too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core import events as ev
from asteroids.core.bodies import ENEMIES, NAMES
from asteroids.core.frame import Frame
from asteroids.core.kinds import Kind
from asteroids.core.lanes import ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.saucer import destroy_saucer
from asteroids.core.scoring import player_broke, player_points
from asteroids.core.ship import kill_ship
from asteroids.core.spawn import append_rocks, split_rocks
from asteroids.core.world import Draft

__all__ = ["extra_lives", "resolve"]

_SAUCER, _SHIP = Kind.SAUCER, Kind.SHIP


def resolve(d: Draft, p: Params, rng: Pcg32, frame: Frame, events: list[ev.Event]) -> None:
    """Destroy what was claimed this tick: score it, split it, award extra lives."""
    kids = None
    scoring = not d.game_over  # a shot still in flight after game over scores nothing
    by = frame.rock_by
    if by is not None:  # a rock was claimed
        broken = (by >= 0).nonzero()[0]
        causes = by[broken]
        sizes = d.ast_size[broken]
        room = p.asteroids_max_alive - (d.ast_id.shape[0] - broken.shape[0])
        kids, got = split_rocks(rng, p, sizes, d.ast_pos[broken], d.ast_vel[broken], room)
        for cause, size, (x, y), children in zip(causes.tolist(), sizes.tolist(),
                                                 d.ast_pos[broken].tolist(), got.tolist(),
                                                 strict=True):
            points = player_points(ONE, p, p.asteroid_points, size, cause, scoring)
            if player_broke(cause):
                d.since_break = 0
            d.score += points
            events.append(ev.AsteroidDestroyed(size, x, y, children, NAMES.causes[cause],
                                               points))
        _keep_asteroids(d, by < 0)
    if frame.claimed(_SAUCER) and d.saucer_alive:
        cause = frame.cause(_SAUCER)
        destroy_saucer(d, p, cause, NAMES.causes[cause], scoring, events)
    for enemy in ENEMIES:
        if frame.claimed(enemy.kind):
            craft = enemy.craft(d, p)
            if craft is not None:
                cause = frame.cause(enemy.kind)
                points = enemy.destroy(ONE, d, p, True, cause, scoring)
                events.append(ev.CraftDestroyed(enemy.label, craft.x, craft.y,
                                                NAMES.causes[cause], points))
    # The points of this tick earn their extra life before the ship's loss is counted, so a
    # life earned on the tick the last ship dies keeps the game going.
    _award_extra_lives(d, p, events)
    if frame.claimed(_SHIP):
        kill_ship(d, p, NAMES.causes[frame.cause(_SHIP)], events)
    if kids is not None:
        append_rocks(d, kids)


def _keep_asteroids(d: Draft, keep: np.ndarray) -> None:
    """Drop the asteroids where ``keep`` is False, keeping order (and so ids ascending)."""
    index = np.flatnonzero(keep)
    counts = np.diff(d.ast_offsets)
    # take() with indices: boolean-mask indexing of an (V, 2) array is ~10x slower.
    d.ast_local = d.ast_local.take(np.flatnonzero(np.repeat(keep, counts)), axis=0)
    d.ast_offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(counts[index])])
    d.ast_id = d.ast_id.take(index)
    d.ast_size = d.ast_size.take(index)
    d.ast_pos = d.ast_pos.take(index, axis=0)
    d.ast_vel = d.ast_vel.take(index, axis=0)
    d.ast_angle = d.ast_angle.take(index)
    d.ast_spin = d.ast_spin.take(index)
    d.ast_radius = d.ast_radius.take(index)


def _award_extra_lives(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """Every extra ship the score has reached, at once: one event however many are due.

    The same lives and next threshold as awarding them one by one (each due ship is given
    unless the game is over or ``max_lives`` is reached), in constant time, so a rule of one
    ship per point with a million points a rock costs no more than one ship.
    """
    if p.scoring_extra_life_every <= 0 or d.score < d.next_extra_life:
        return
    granted = extra_lives(ONE, d, p)
    if granted:
        events.append(ev.ExtraLife(d.lives, granted))


def extra_lives(L: Lanes, d: Draft | BatchDraft, p: Params) -> Any:
    """Where the score has reached the next extra ship (``extra_life_every`` > 0): the
    threshold moves past the score and the ships due are given, none after game over and
    none past ``max_lives``. Returns the ships given (0: none); shared by both drivers."""
    reached = d.score >= d.next_extra_life
    due = L.where(reached, (d.score - d.next_extra_life) // p.scoring_extra_life_every + 1, 0)
    d.next_extra_life = d.next_extra_life + due * p.scoring_extra_life_every
    granted = due if not p.game_max_lives else L.maximum(0, L.minimum(due,
                                                                      p.game_max_lives - d.lives))
    granted = L.where(d.game_over, 0, granted)
    d.lives = d.lives + granted
    return granted
