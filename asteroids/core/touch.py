"""Contacts (phase 5 of a tick): craft against the rocks and each other, pair by pair as
``asteroids.core.bodies.CONTACTS`` declares them. What touches is claimed in the tick's frame,
as the shot sweep's hits are; a raised shield pushes rocks away instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.bodies import CONTACTS, CRAFT
from asteroids.core.contacts import circle_segment_contacts
from asteroids.core.craft import SAFE, Craft
from asteroids.core.frame import Frame
from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.kinds import Kind
from asteroids.core.lanes import ONE, BatchDraft, Lanes
from asteroids.core.motion import kept_inside, push_and_reflect
from asteroids.core.outlines import rock_outlines_of
from asteroids.core.overlap import polygons_overlap
from asteroids.core.params import Params
from asteroids.core.world import Draft

__all__ = ["circles_touch", "crafts_near", "near_rows", "outlines_overlap", "rocks_near",
           "rocks_overlapping", "shield_bounce", "touch"]

_ROCK = Kind.ROCK


def touch(d: Draft, p: Params, frame: Frame) -> None:
    """Every pair of ``CONTACTS`` in order: a craft against the rocks (the lowest unclaimed
    rock its outline overlaps, or its shield bounces the rocks it touches) or against
    another craft (outlines, or its shield's circle)."""
    present: dict[Kind, Craft | None] = {}  # each craft as its rules module shows it
    claimed = frame.craft_by
    rocks = d.ast_id.shape[0]
    for contact in CONTACTS:
        kind = contact.craft
        if claimed[kind] >= 0:
            continue
        craft = present[kind] if kind in present else present.setdefault(kind, CRAFT[kind](d, p))
        if craft is None:
            continue
        if contact.other == _ROCK:
            if not rocks:
                continue
            if craft.shield is not None:
                _shield_bounce(d, p, craft, craft.shield)
                continue
            hit = _first_overlap(craft, d, p, frame)
            if hit >= 0:
                frame.claim_rock(hit, contact.other_by)
                frame.claim(kind, contact.craft_by)
            continue
        other_kind = contact.other
        if claimed[other_kind] >= 0:
            continue
        if other_kind in present:
            other = present[other_kind]
        else:
            other = present.setdefault(other_kind, CRAFT[other_kind](d, p))
        if other is not None and _crafts_touch(craft, other, p):
            frame.claim(other_kind, contact.other_by)
            if craft.shield is None:
                frame.claim(kind, contact.craft_by)


def _crafts_touch(a: Craft, b: Craft, p: Params) -> bool:
    """Whether craft ``a`` (its shield's circle while it is up) touches craft ``b``."""
    shield = a.shield is not None
    if not crafts_near(ONE, p, (a.x, a.y), a.radius, shield, a.shield, (b.x, b.y), b.radius):
        return False  # out of each other's bounding circles: the outlines cannot touch
    return shield or bool(outlines_overlap(p, a.outline()[None], b.outline()[None])[0])


def crafts_near(L: Lanes, p: Params, a: tuple[Any, Any], a_radius: Any, shield: Any,
                shield_radius: Any, b: tuple[Any, Any], b_radius: Any) -> Any:
    """Whether craft ``a`` at ``a`` may touch craft ``b``: where ``shield`` (a's shield is
    up), whether the shield's circle touches b's bounding circle (which decides it); else
    whether their bounding circles, grown by ``SAFE`` (and a pixel), touch (the outlines
    decide). One pair of craft, or one per game; shared by both drivers."""
    ra = L.where(shield, shield_radius, SAFE * a_radius + 1.0)
    rb = L.where(shield, b_radius, SAFE * b_radius)
    return circles_touch(a, ra, b, rb, p)


def outlines_overlap(p: Params, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(n,) whether outline i of ``a`` ((n, V, 2)) overlaps outline i of ``b`` ((n, W, 2)):
    one pair of craft, or one per game (the core's ``polygons_overlap``)."""
    n = a.shape[0]
    pair = np.arange(n)
    return polygons_overlap(a.reshape(-1, 2), np.arange(n + 1) * a.shape[1], b.reshape(-1, 2),
                            np.arange(n + 1) * b.shape[1], pair, pair, world_size=p.wrap_size)


def circles_touch(a: tuple[Any, Any], ra: Any, b: tuple[Any, Any], rb: Any,
                  p: Params) -> Any:
    """Whether two circles touch (distance <= ra + rb), across the seam when anything wraps:
    for one pair of floats, or per element for (n,) arrays (one pair per game of a batch)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if p.wrap_any:
        short = wrap_delta(np.array([dx, dy]).T, p.size).T
        dx, dy = (short[0], short[1]) if short.ndim == 2 else short.tolist()
    return dx * dx + dy * dy <= (ra + rb) * (ra + rb)


def rocks_near(d: Draft, p: Params, center: tuple[float, float], radius: float) -> np.ndarray:
    """Indices (ascending) of asteroids whose bounding circle touches a circle (min image).

    The cheap first test before an outline test (ship and saucer against rocks); public so
    its boundary (circles touching exactly, across the seam) is tested directly."""
    return near_rows(d.ast_pos, d.ast_radius, np.array(center), radius, p).nonzero()[0]


def near_rows(pos: np.ndarray, rock_radius: np.ndarray, center: np.ndarray, radius: Any,
              p: Params) -> np.ndarray:
    """(N,) whether each rock's bounding circle touches the circle at ``center`` (one
    centre, or one per rock: its game's craft) of ``radius`` (one, or one per rock)."""
    if pos.shape[0] < 64:  # a game's rocks: fewer calls as (N, 2) rows
        delta = pos - center
        if p.wrap_any:
            delta = wrap_delta(delta, p.size)
        dx, dy = delta[:, 0], delta[:, 1]
    else:  # many games' rocks: x and y apart (numpy runs (N, 2) by (2,) as N loops of two)
        c = np.asarray(center)
        dx, dy = pos[:, 0] - c[..., 0], pos[:, 1] - c[..., 1]
        if p.wrap_any:
            dx, dy = wrap_delta(dx, p.size[0]), wrap_delta(dy, p.size[1])
    reach = rock_radius + radius
    return dx * dx + dy * dy <= reach * reach


def _first_overlap(craft: Craft, d: Draft, p: Params, frame: Frame) -> int:
    """Index of the lowest unclaimed asteroid whose outline overlaps the craft's, or -1 (the
    outline is made only when a rock is near)."""
    cand = rocks_near(d, p, (craft.x, craft.y), craft.radius)
    if cand.shape[0] == 0:
        return -1
    cand = frame.unclaimed(cand)
    if cand.shape[0] == 0:
        return -1
    found = cand[rocks_overlapping(d, p, cand, craft.outline()[None],
                                   np.zeros(cand.shape[0], dtype=np.int64))]
    return int(found[0]) if found.shape[0] else -1


def rocks_overlapping(d: Draft | BatchDraft, p: Params, rocks: np.ndarray,
                      outlines: np.ndarray, which: np.ndarray) -> np.ndarray:
    """(K,) whether each rock of ``rocks`` (rows) overlaps outline ``which`` of ``outlines``
    ((n, V, 2): one craft's, or each game's craft): the outline test after the bounding
    circles (``near_rows``), for one game's rows or many games'."""
    points, offsets = rock_outlines_of(d, rocks)  # type: ignore[arg-type]
    n, v = outlines.shape[0], outlines.shape[1]
    return polygons_overlap(outlines.reshape(n * v, 2), np.arange(n + 1) * v, points, offsets,
                            which, np.arange(rocks.shape[0]), world_size=p.wrap_size)


def _shield_bounce(d: Draft, p: Params, craft: Craft, radius: float) -> None:
    """Asteroids touching the craft's shield circle bounce off it (``shield_bounce``)."""
    near = rocks_near(d, p, (craft.x, craft.y), radius)
    if near.shape[0] == 0:
        return
    shield_bounce(d, p, near, np.zeros(near.shape[0], dtype=np.int64),
                  np.array([[craft.x, craft.y]]), np.array([[craft.vx, craft.vy]]), radius,
                  craft.bounce, None)


def shield_bounce(d: Draft | BatchDraft, p: Params, near: np.ndarray, which: np.ndarray,
                  centres: np.ndarray, craft_v: np.ndarray, radius: float, bounce: float,
                  ast_game: np.ndarray | None) -> None:
    """The rocks ``near`` (rows, ascending) that touch shield ``which[k]`` of ``centres``
    ((K, 2): one craft's, or one per game) of ``radius`` bounce off it, reflected off their
    own edge relative to its craft's motion (``craft_v``, (K, 2)), by ``bounce``; then the
    rocks of every game where one bounced are kept inside the world (``ast_game``: the game
    of each rock, or None for one game's rows). One game's or every game's at once: a
    shield meets only its own game's rocks, and each pair's contact is its own."""
    points, offsets = rock_outlines_of(d, near)  # type: ignore[arg-type]
    c = circle_segment_contacts(centres, np.full(centres.shape[0], radius), points, offsets,
                                world_size=p.wrap_size)
    own = (c.circle == which.take(c.body)).nonzero()[0]
    if own.shape[0] == 0:
        return
    i = near.take(c.body.take(own))
    v = craft_v.take(c.circle.take(own), axis=0)
    away = -c.normal.take(own, axis=0)  # the contact normal points from the rock to the craft
    pos, vel = d.ast_pos.copy(), d.ast_vel.copy()
    new_pos, new_rel = push_and_reflect(pos[i], vel[i] - v, away, c.depth.take(own), bounce)
    pos[i], vel[i] = new_pos, new_rel + v
    rows = None
    if ast_game is not None:  # every rock of the games where one bounced
        bounced = np.zeros(int(ast_game.max()) + 1, dtype=bool)
        bounced[ast_game.take(i)] = True
        rows = bounced[ast_game].nonzero()[0]
    d.ast_pos, d.ast_vel = kept_inside(pos, vel, d.ast_radius, p, p.wrap_asteroids, rows)
