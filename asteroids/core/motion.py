"""Motion (phase 4 of a tick): bodies move and meet the borders, push off obstacles, and rocks
collide with each other (the impulse solver).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.batch_rows import row_games
from asteroids.core.contacts import circle_pairs, circle_pairs_in_games, circle_segment_contacts
from asteroids.core.geometry.bounce import bounce_positions, reflect
from asteroids.core.geometry.wrap import wrap_delta, wrap_positions
from asteroids.core.kinds import FLYING
from asteroids.core.lanes import ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.world import Draft

__all__ = ["bounce_off_obstacles", "collide_asteroids", "keep_inside", "kept_inside",
           "move_bodies", "move_craft", "move_rocks", "push_and_reflect"]


def move_bodies(d: Draft, p: Params) -> None:
    """Move asteroids, the ship and the saucer one tick and apply each kind's border rule."""
    if d.ast_id.shape[0]:
        move_rocks(d, p)
    move_craft(ONE, d, p)


def move_rocks(d: Draft | BatchDraft, p: Params) -> None:
    """Every rock moves, turns and meets the border: row by row, so the same code moves one
    game's rocks or a batch's packed rows (shared by both drivers)."""
    pos = d.ast_pos + d.ast_vel
    d.ast_angle = (d.ast_angle + d.ast_spin) % HEADING_STEPS
    if p.wrap_asteroids:
        d.ast_pos = wrap_positions(pos, p.size)
    else:
        r = d.ast_radius[:, None]
        d.ast_pos, d.ast_vel = bounce_positions(pos, d.ast_vel, r, p.size - r)


def move_craft(L: Lanes, d: Draft | BatchDraft, p: Params) -> None:
    """The ship (while in play) and the saucer (while alive) move and meet their borders
    (shared by both drivers)."""
    flying = (d.ship_state == FLYING) & (d.game_over ^ True)
    if L.many or flying:
        x, y = d.ship_x + d.ship_vx, d.ship_y + d.ship_vy
        if p.wrap_ship:
            x, y = L.wrap(x, p.width), L.wrap(y, p.height)
            vx, vy = d.ship_vx, d.ship_vy
        else:
            rad = p.ship_radius
            x, vx = L.bounce(x, d.ship_vx, rad, p.width - rad)
            y, vy = L.bounce(y, d.ship_vy, rad, p.height - rad)
        d.ship_x, d.ship_y = L.where(flying, x, d.ship_x), L.where(flying, y, d.ship_y)
        d.ship_vx, d.ship_vy = L.where(flying, vx, d.ship_vx), L.where(flying, vy, d.ship_vy)
    alive = d.saucer_alive
    if not (L.many or alive):
        return
    x = d.saucer_x + d.saucer_vx
    y = d.saucer_y + d.saucer_vy
    vy = d.saucer_vy
    if p.wrap_saucers:
        y = L.wrap(y, p.height)
    else:
        large, small = p.saucer_radius
        rad = L.where(d.saucer_small, small, large)
        y, vy = L.bounce(y, vy, rad, p.height - rad)
    d.saucer_x = L.where(alive, L.clip(x, 0.0, p.width), d.saucer_x)
    d.saucer_y = L.where(alive, y, d.saucer_y)
    d.saucer_vy = L.where(alive, vy, d.saucer_vy)


def push_and_reflect(pos: np.ndarray, vel: np.ndarray, normal: np.ndarray, depth: np.ndarray,
                      restitution: float) -> tuple[np.ndarray, np.ndarray]:
    """Move bodies out along ``normal`` by ``depth`` and reflect velocity if approaching."""
    return (pos + normal * depth[:, None],
            reflect(vel, normal, restitution, approaching_only=True))


def bounce_off_obstacles(d: Draft | BatchDraft, p: Params, L: Lanes = ONE) -> None:
    """Asteroids and the ship bounce off static obstacles (circle against each edge): one
    game's (``ONE``, a ``Draft``) or every game's at once (``MANY``, a ``BatchDraft``: the
    obstacles are the same for every game, so each rock and each ship is one circle of one
    query; a circle's contacts do not depend on the other circles)."""
    pts, offs = p.obstacle_points, p.obstacle_offsets
    if d.ast_id.shape[0]:
        c = circle_segment_contacts(d.ast_pos, d.ast_radius, pts, offs)
        if c.circle.shape[0]:
            pick = _deepest_per_circle(c.circle, c.depth)  # one obstacle a tick per rock
            i = c.circle[pick]
            c_normal, c_depth = c.normal[pick], c.depth[pick]
            pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
            pos[i], vel[i] = push_and_reflect(pos[i], vel[i], c_normal, c_depth, 1.0)
            d.ast_pos, d.ast_vel = kept_inside(pos, vel, d.ast_radius, p, p.wrap_asteroids,
                                               _rows_of_games(L, d, i))
    flying = (d.ship_state == FLYING) & (d.game_over ^ True)
    if not (flying.any() if L.many else flying):
        return
    games = flying.nonzero()[0] if L.many else None
    centre = _craft_rows(L, d.ship_x, d.ship_y, games)
    c = circle_segment_contacts(centre, np.full(centre.shape[0], p.ship_radius), pts, offs)
    if c.circle.shape[0]:
        pick = _deepest_per_circle(c.circle, c.depth)
        i = c.circle[pick]
        pos, vel = push_and_reflect(centre.take(i, axis=0),
                                     _craft_rows(L, d.ship_vx, d.ship_vy, games).take(i, axis=0),
                                     c.normal[pick], c.depth[pick], 1.0)
        pos, vel = keep_inside(pos, vel, np.array([p.ship_radius]), p, p.wrap_ship)
        if L.many:
            g = games.take(i)
            d.ship_x, d.ship_y = _put(d.ship_x, g, pos[:, 0]), _put(d.ship_y, g, pos[:, 1])
            d.ship_vx, d.ship_vy = _put(d.ship_vx, g, vel[:, 0]), _put(d.ship_vy, g, vel[:, 1])
        else:
            d.ship_x, d.ship_y = float(pos[0, 0]), float(pos[0, 1])
            d.ship_vx, d.ship_vy = float(vel[0, 0]), float(vel[0, 1])


def _craft_rows(L: Lanes, x: Any, y: Any, games: np.ndarray | None) -> np.ndarray:
    """(N, 2) rows of a craft's (x, y): one game's one row, or the rows of ``games``."""
    if not L.many:
        return np.array([[x, y]])
    out = np.empty((games.shape[0], 2))  # type: ignore[union-attr]
    out[:, 0] = x[games]
    out[:, 1] = y[games]
    return out


def _put(column: np.ndarray, games: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A copy of the (B,) ``column`` with ``values`` at ``games`` (columns are read-only)."""
    out = column.copy()
    out[games] = values
    return out


def _rows_of_games(L: Lanes, d: Draft | BatchDraft, rows: np.ndarray) -> np.ndarray | None:
    """The rock rows of every game that has one of ``rows`` (a rule's border pass runs on a
    whole game's rocks when any of them moved): None for one game (all its rows)."""
    if not L.many:
        return None
    game = row_games(d.ast_rows)
    touched = np.zeros(d.ast_rows.shape[0] - 1, dtype=bool)
    touched[game.take(rows)] = True
    return touched.take(game).nonzero()[0]


def kept_inside(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, p: Params, wrap: bool,
                rows: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``keep_inside`` on ``rows`` of ``pos`` and ``vel`` (None: all of them; both are the
    caller's own copies): a rule that moved some rocks keeps their games' rocks inside."""
    if rows is None:
        return keep_inside(pos, vel, radius[:, None], p, wrap)
    if rows.shape[0]:
        pos[rows], vel[rows] = keep_inside(pos.take(rows, axis=0), vel.take(rows, axis=0),
                                           radius.take(rows)[:, None], p, wrap)
    return pos, vel


def _deepest_per_circle(circle: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Index of the deepest contact of each circle (ties: the first obstacle in config order),
    given contacts sorted by (circle, body); one row per circle, in circle order."""
    order = np.lexsort((-depth, circle))  # stable: equal depths keep body order
    first = np.ones(order.shape[0], dtype=bool)
    first[1:] = circle[order[1:]] != circle[order[:-1]]
    return order[first]


def keep_inside(pos: np.ndarray, vel: np.ndarray, radius: np.ndarray, p: Params,
                 wrap: bool) -> tuple[np.ndarray, np.ndarray]:
    if wrap:
        return wrap_positions(pos, p.size), vel
    return bounce_positions(pos, vel, radius, p.size - radius)


def collide_asteroids(d: Draft | BatchDraft, p: Params, L: Lanes = ONE) -> None:
    """Elastic asteroid-asteroid collisions, mass proportional to area: one game's rocks
    (``ONE``) or every game's packed rows at once (``MANY``; pairs only within a game).

    Contacts are resolved in rounds; each round takes, in (i, j) order, pairs that share no
    asteroid with an earlier pair of the round, so every contact is solved exactly once per
    round and the outcome does not depend on anything but the pair order. Impulses apply
    only to approaching pairs; overlap is then removed along the centre line. Pairs of
    different games share no asteroid, so a batch's round k is round k of each of its games.
    """
    radius = d.ast_radius * (1.0 - 0.5 * p.asteroids_jaggedness)
    world = (p.width, p.height) if p.wrap_asteroids else None
    if L.many:
        i_all, j_all = circle_pairs_in_games(d.ast_pos, radius, d.ast_rows, world_size=world)
    else:
        i_all, j_all = circle_pairs(d.ast_pos, radius, world_size=world)
    if i_all.shape[0] == 0:
        return
    pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
    mass = radius * radius
    e = p.asteroids_restitution
    n_bodies = pos.shape[0]
    remaining = np.arange(i_all.shape[0])
    for _ in range(64):
        if remaining.shape[0] == 0:
            break
        i, j = i_all[remaining], j_all[remaining]
        first = np.full(n_bodies, remaining.shape[0], dtype=np.int64)
        order = np.arange(remaining.shape[0])
        np.minimum.at(first, i, order)
        np.minimum.at(first, j, order)
        now = (first[i] == order) & (first[j] == order)
        i, j = i[now], j[now]
        remaining = remaining[~now]
        delta = pos[j] - pos[i]
        if p.wrap_asteroids:
            delta = wrap_delta(delta, p.size)
        dist = np.sqrt(delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1])
        safe = dist > 0.0
        inv = np.where(safe, 1.0 / np.where(safe, dist, 1.0), 0.0)
        nx = np.where(safe, delta[:, 0] * inv, 1.0)
        ny = np.where(safe, delta[:, 1] * inv, 0.0)
        mi, mj = mass[i], mass[j]
        rel_x = vel[j, 0] - vel[i, 0]
        rel_y = vel[j, 1] - vel[i, 1]
        vn = rel_x * nx + rel_y * ny
        impulse = np.where(vn < 0.0, -(1.0 + e) * vn / (1.0 / mi + 1.0 / mj), 0.0)
        vel[i, 0] -= impulse / mi * nx
        vel[i, 1] -= impulse / mi * ny
        vel[j, 0] += impulse / mj * nx
        vel[j, 1] += impulse / mj * ny
        overlap = np.maximum(radius[i] + radius[j] - dist, 0.0)
        share_i = overlap * mj / (mi + mj)
        share_j = overlap * mi / (mi + mj)
        pos[i, 0] -= share_i * nx
        pos[i, 1] -= share_i * ny
        pos[j, 0] += share_j * nx
        pos[j, 1] += share_j * ny
    d.ast_pos, d.ast_vel = kept_inside(pos, vel, d.ast_radius, p, p.wrap_asteroids,
                                       _rows_of_games(L, d, i_all))
