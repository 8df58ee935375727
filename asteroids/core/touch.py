"""Contacts (phase 5 of a tick): the ship, its shield and the saucer against the rocks and each
other. What touches is claimed in the tick's frame, as the shot sweep's hits are.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asteroids.core.contacts import circle_segment_contacts
from asteroids.core.frame import Frame
from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.kinds import Cause, ShipState
from asteroids.core.motion import keep_inside, push_and_reflect
from asteroids.core.outlines import rock_outlines_of
from asteroids.core.overlap import polygons_overlap
from asteroids.core.params import Params
from asteroids.core.reach import SAFE
from asteroids.core.saucer import saucer_outline
from asteroids.core.ship import ship_outline
from asteroids.core.world import Draft

__all__ = ["circles_touch", "rocks_near", "touch"]


def touch(d: Draft, p: Params, frame: Frame) -> None:
    """Ship, shield and saucer against asteroids and each other."""
    n = d.ast_id.shape[0]
    ws = p.wrap_size
    ship_in_play = (d.ship_state == ShipState.FLYING and not d.game_over
                    and not frame.ship_claimed and not d.ship_grace)
    if ship_in_play and n:
        if d.shield_on:
            _shield_bounce(d, p)
        else:
            hit = _first_overlap(lambda: ship_outline(p, d.ship_x, d.ship_y, d.ship_heading),
                                 (d.ship_x, d.ship_y), p.ship_radius, d, p, frame)
            if hit >= 0:
                frame.claim_rock(hit, Cause.SHIP)
                frame.claim_ship(Cause.ROCK)
    if d.saucer_alive and not frame.saucer_claimed:
        saucer = saucer_outline(p, d.saucer_x, d.saucer_y, d.saucer_small)
        r = p.saucer_radius[1 if d.saucer_small else 0]
        if n:
            hit = _first_overlap(lambda: saucer, (d.saucer_x, d.saucer_y), r, d, p, frame)
            if hit >= 0:
                frame.claim_rock(hit, Cause.SAUCER)
                frame.claim_saucer(Cause.ROCK)
        if ship_in_play and not frame.saucer_claimed and not frame.ship_claimed:
            if d.shield_on:
                touching = circles_touch((d.ship_x, d.ship_y), p.shield_radius,
                                          (d.saucer_x, d.saucer_y), r, p)
            elif not circles_touch((d.ship_x, d.ship_y), SAFE * p.ship_radius + 1.0,
                                    (d.saucer_x, d.saucer_y), SAFE * r, p):
                touching = False  # out of each other's bounding circles: the outlines cannot
            else:
                ship = ship_outline(p, d.ship_x, d.ship_y, d.ship_heading)
                touching = bool(polygons_overlap(
                    ship, np.array([0, ship.shape[0]]), saucer, np.array([0, saucer.shape[0]]),
                    np.array([0]), np.array([0]), world_size=ws)[0])
            if touching:
                frame.claim_saucer(Cause.SHIP)
                if not d.shield_on:
                    frame.claim_ship(Cause.SAUCER)


def circles_touch(a: tuple[float, float], ra: float, b: tuple[float, float], rb: float,
                   p: Params) -> bool:
    """Whether two circles touch (distance <= ra + rb), across the seam when anything wraps."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if p.wrap_any:
        dx, dy = wrap_delta(np.array([dx, dy]), p.size).tolist()
    return dx * dx + dy * dy <= (ra + rb) * (ra + rb)


def rocks_near(d: Draft, p: Params, center: tuple[float, float], radius: float) -> np.ndarray:
    """Indices (ascending) of asteroids whose bounding circle touches a circle (min image).

    The cheap first test before an outline test (ship and saucer against rocks); public so
    its boundary (circles touching exactly, across the seam) is tested directly."""
    delta = d.ast_pos - np.array(center)
    if p.wrap_any:
        delta = wrap_delta(delta, p.size)
    dx, dy = delta[:, 0], delta[:, 1]
    reach = d.ast_radius + radius
    return (dx * dx + dy * dy <= reach * reach).nonzero()[0]


def _first_overlap(make_outline: Callable[[], np.ndarray], center: tuple[float, float],
                   radius: float, d: Draft, p: Params, frame: Frame) -> int:
    """Index of the lowest unclaimed asteroid whose outline overlaps ``make_outline()``, or -1
    (the outline is made only when a rock is near)."""
    cand = rocks_near(d, p, center, radius)
    if cand.shape[0] == 0:
        return -1
    cand = cand[frame.rock_by[cand] < 0]
    if cand.shape[0] == 0:
        return -1
    rocks, offsets = rock_outlines_of(d, cand)
    outline = make_outline()
    hit = polygons_overlap(outline, np.array([0, outline.shape[0]]), rocks, offsets,
                           np.zeros(cand.shape[0], dtype=np.int64), np.arange(cand.shape[0]),
                           world_size=p.wrap_size)
    found = cand[hit]
    return int(found[0]) if found.shape[0] else -1


def _shield_bounce(d: Draft, p: Params) -> None:
    """Asteroids touching the shield circle bounce off it, reflected off their own edge."""
    center = np.array([[d.ship_x, d.ship_y]])
    near = rocks_near(d, p, (d.ship_x, d.ship_y), p.shield_radius)
    if near.shape[0] == 0:
        return
    rocks, offsets = rock_outlines_of(d, near)
    c = circle_segment_contacts(center, np.array([p.shield_radius]), rocks, offsets,
                                world_size=p.wrap_size)
    if c.body.shape[0] == 0:
        return
    i = near[c.body]
    ship_v = np.array([d.ship_vx, d.ship_vy])
    away = -c.normal  # the contact normal points from the rock's edge to the ship
    pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
    rel = vel[i] - ship_v
    new_pos, new_rel = push_and_reflect(pos[i], rel, away, c.depth, p.shield_restitution)
    pos[i], vel[i] = new_pos, new_rel + ship_v
    d.ast_pos, d.ast_vel = keep_inside(pos, vel, d.ast_radius[:, None], p, p.wrap_asteroids)
