"""The aimer's decision steps, written once for one game and for a batch.

The aimer (``bot.aimer_bot`` for one game, ``bot_batch.aimer_batch`` for many) decides in
the steps its docstring numbers; every rule of those steps is a function here, called by
both drivers:

- per-row rules (``passes``, ``threats``, ``intercepts``, ``target_costs``, ``in_time``)
  are elementwise over the rows they are given: one game's targets or dangers with the
  ship's values as numbers, or every game's rows packed game after game with the ship's
  values gathered per row. A row gets the same bits either way (plain IEEE ``+ - * /``,
  ``sqrt`` and the aimer's geometry, ``asteroids.core.aim``);
- per-game rules (``next_shot``, ``turn_toward``, ``may_fire``, ``buttons``) are written
  against ``asteroids.core.lanes``: ``ONE`` for one game's Python values, ``MANY`` for
  ``(B,)`` arrays.

What the drivers keep apart is only how rows are gathered (one game's arrays; rows packed by
game) and how each game's rows are reduced to one answer (``any``, the earliest, the
cheapest with numpy's ``argmin`` tie rule): one block for one game, every block at once
for a batch (``batch_rows.any_per_game``, ``bot_batch._first_argmin``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.aim import DANGER_MARGIN, HIT_SHARE, HYPER_TICKS, AimKit, future
from asteroids.core.geometry.wrap import floor_mod
from asteroids.core.inputs import InputFrame
from asteroids.core.lanes import Lanes
from asteroids.core.params import Params
from asteroids.core.tables import COS_TABLE, HEADING_STEPS, SIN_TABLE

__all__ = ["buttons", "hit_radius", "in_time", "intercepts", "may_fire", "next_shot", "passes",
           "reach_radius", "target_costs", "threats", "turn_toward"]

_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER, _SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)

OUT_OF_RANGE_COST = 400.0
"""Ticks added to a target a shot cannot reach before it expires."""
TAKEN_COST = 2000.0
"""Ticks added to a target a shot in flight is already meant for."""
URGENT_BONUS = 1000.0
"""Ticks taken off a target on a collision course that can be shot first."""


def hit_radius(rad: Any) -> Any:
    """How close a shot must pass a target's centre to count as a hit: ``HIT_SHARE`` of its
    bounding radius (rock outlines are jagged: the bounding circle overstates them)."""
    return HIT_SHARE * rad


def reach_radius(p: Params, rad: Any) -> Any:
    """How close a danger's centre may come to the ship's before it counts as a collision
    course: the two radii and ``DANGER_MARGIN``."""
    return rad + p.ship_radius + DANGER_MARGIN


def passes(miss: np.ndarray, rad: np.ndarray) -> np.ndarray:
    """(1), (4) Whether a shot passing ``miss`` px from each target's centre hits it."""
    return miss < hit_radius(rad)


def next_shot(lanes: Lanes, p: Params, x: Any, y: Any, vx: Any, vy: Any, heading: Any,
              turn: Any) -> tuple[Any, Any, Any, Any]:
    """(1), (4) The shot the ship would fire next tick after ``turn`` (1 left, 0 none, -1
    right): where it starts (the nose) and its velocity, the ship's velocity after a tick's
    drag inherited when the rules say so, each axis capped. ``heading`` in
    ``[0, HEADING_STEPS)``."""
    h1 = (heading + turn * p.ship_turn_steps_per_tick) % HEADING_STEPS
    c, s = lanes.take(COS_TABLE, h1), lanes.take(SIN_TABLE, h1)
    svx, svy = c * p.shots_speed_px_per_tick, s * p.shots_speed_px_per_tick
    if p.shots_inherit_velocity:
        svx, svy = svx + vx * p.drag_keep, svy + vy * p.drag_keep
    if p.shots_max_axis_speed_px_per_tick > 0.0:
        cap = p.shots_max_axis_speed_px_per_tick
        svx, svy = lanes.clip(svx, -cap, cap), lanes.clip(svy, -cap, cap)
    return x + c * 0.5 * p.ship_length_px, y + s * 0.5 * p.ship_length_px, svx, svy


def threats(p: Params, rad: np.ndarray, miss: np.ndarray, t: np.ndarray, vel: np.ndarray,
            ship_vx: Any, ship_vy: Any, harms: np.ndarray | None = None
            ) -> tuple[np.ndarray, np.ndarray]:
    """(1) Which dangers are on a collision course with the ship (their closest approach
    ``miss`` at ``t`` within the reach radius), and when contact begins (``inf`` for the
    others): not the closest approach, which for a rock flying straight at the ship is when
    it would be dead centre. ``vel``: ``(N, 2)`` each danger's velocity; ``ship_vx,
    ship_vy``: the ship's (numbers for one game, or per danger); ``harms``: which rows can
    take the ship (a target that cannot is never a threat; None: every row)."""
    reach_r = reach_radius(p, rad)
    threat = miss < reach_r
    if harms is not None:
        threat &= harms
    if not threat.any():
        return threat, np.full(threat.shape, np.inf)
    wx, wy = vel[:, 0] - ship_vx, vel[:, 1] - ship_vy
    speed = np.sqrt(wx * wx + wy * wy)
    inside = np.sqrt(np.maximum(reach_r * reach_r - miss * miss, 0.0))
    contact = np.maximum(t - inside / np.where(speed > 0.0, speed, 1.0), 0.0)
    return threat, np.where(threat, contact, np.inf)


def intercepts(kit: AimKit, rel: np.ndarray, vel: np.ndarray, here: np.ndarray,
               ship_v: np.ndarray, hx: Any, hy: Any, pos: np.ndarray | None,
               rad: np.ndarray | None, wraps: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(2) For every target, the heading that meets it: the ship turns first (``n`` ticks),
    then its shot flies ``t`` ticks to where the target will be (its motion led, across the
    wrap seam by the nearest image, bounce borders folded). Two rounds: the turn ticks
    toward where the target is now give a first meeting point, the turn toward that one
    the answer.

    Rows are x and y: ``(2, N)`` arrays, so each operation is one call for both axes.

    Args:
        kit: the aimer's numbers for these rules.
        rel: ``(2, N)`` each target's position relative to the ship now (nearest image).
        vel: ``(2, N)`` each target's velocity.
        here, ship_v: the ship's position and velocity, ``(2, 1)`` for one game or
            ``(2, N)`` per target.
        hx, hy: the ship's heading vector (numbers, or ``(N,)`` per target).
        pos, rad, wraps: ``(N, 2)`` each target's position, its radius and whether it
            wraps: read only where some target bounces (``kit.all_wrap`` false).

    Returns:
        ``(n, t, left)``: turn ticks, flight ticks, and whether the turn is to the left.
    """
    p = kit.p
    rv = vel - ship_v
    w = rv if p.shots_inherit_velocity else vel
    ww = w * w
    # |d + w t| = shot speed * t, i.e. a t^2 + 2 b t + c = 0; the positive root where the
    # shot outruns the target (always, unless the ship flies fast).
    a = ww[0] + ww[1] - p.shots_speed_px_per_tick * p.shots_speed_px_per_tick
    slow = a < -1e-9
    a_safe = np.where(slow, a, -1.0)
    bouncing = not kit.all_wrap
    n = _turn_ticks(kit, rel, hx, hy)
    for _ in range(2):
        if bouncing:
            at = here + ship_v * n
            d = future(pos, vel.T, n, rad, wraps, p).T - at  # type: ignore[arg-type]
        else:
            d = rel + rv * n
        if kit.size is not None:
            d = _nearest_rows(d, kit)
        dw = d * w
        b = dw[0] + dw[1]
        dd = d * d
        c2 = dd[0] + dd[1]
        root = np.sqrt(np.maximum(b * b - a * c2, 0.0))
        t = np.where(slow, (-b - root) / a_safe, np.sqrt(c2) / p.shots_speed_px_per_tick)
        aim = d + w * t
        if bouncing:  # a bouncing target: aim where the walls will send it
            later = future(pos, vel.T, n + t, rad, wraps, p).T - at  # type: ignore[arg-type]
            if p.shots_inherit_velocity:
                later = later - ship_v * t
            aim = np.where(wraps, aim, later)
        n = _turn_ticks(kit, aim, hx, hy)
    return n, t, hx * aim[1] - hy * aim[0] > 0.0


def _turn_ticks(kit: AimKit, d: np.ndarray, hx: Any, hy: Any) -> np.ndarray:
    """Turn ticks to face each point of ``d`` ((2, N)) from heading vector (hx, hy):
    round(angle / turn), from the cosine of the angle and the table of cos((k + 1/2)
    turns) (no arc tangent needed)."""
    dd = d * d
    return np.searchsorted(kit.turn_half_cos, -(d[0] * hx + d[1] * hy)
                           / np.maximum(np.sqrt(dd[0] + dd[1]), 1e-9))


_FEW_ROWS = 256
"""Up to this many, ``_nearest_rows`` wraps both axes in one ``%``; from it on, each axis
by ``floor_mod`` (its fast path takes one size): the same bits either way."""


def _nearest_rows(d: np.ndarray, kit: AimKit) -> np.ndarray:
    """The minimum image of ``(2, N)`` displacements in a wrapping world."""
    if d.shape[1] <= _FEW_ROWS:
        return (d + kit.half_col) % kit.size_col - kit.half_col
    out = np.empty_like(d)
    for axis in (0, 1):
        out[axis] = floor_mod(d[axis] + kit.half[axis], kit.size[axis]) - kit.half[axis]
    return out


def in_time(ticks: np.ndarray, threat_t: np.ndarray, spare: float) -> np.ndarray:
    """(3), (5) Whether a shot meets a threat ``spare`` ticks or more before it reaches the
    ship: 1 for a shot in flight (``ticks``: when it meets the threat), 2 for the shot the
    aimer would turn and fire (``ticks``: turn and flight)."""
    return ticks + spare < threat_t


def target_costs(p: Params, n: np.ndarray, t: np.ndarray, taken: np.ndarray,
                 saucer: np.ndarray, small: Any, threat: np.ndarray, threat_t: np.ndarray
                 ) -> np.ndarray:
    """(3) Each target's cost in ticks: turning and flight, more when out of range or
    already taken by a shot in flight, less for the saucer (twice less for the small one),
    and far less when it is on a collision course and can be shot first (earliest first).
    The aimer turns to the cheapest."""
    cost = n + t + (t >= p.shots_lifetime_ticks - 1) * OUT_OF_RANGE_COST + taken * TAKEN_COST
    cost = np.where(saucer, cost - np.where(small, 80.0, 40.0), cost)
    if not threat.any():
        return cost
    urgent = threat & in_time(n + t, threat_t, 2.0) & ~taken
    return np.where(urgent, cost - URGENT_BONUS + 4.0 * threat_t, cost)


def turn_toward(lanes: Lanes, n: Any, left: Any) -> Any:
    """(3) The turn toward the chosen target: none once it is faced (``n`` turn ticks 0)."""
    return lanes.where(n > 0, lanes.where(left, 1, -1), 0)


def may_fire(lanes: Lanes, p: Params, targets: Any, fire_held: Any, shots: Any) -> Any:
    """(4) Whether the ship may fire next tick: a target to fire at, fire released last
    tick (the core fires on the press edge), and fewer than the cap of shots in flight."""
    return lanes.where(fire_held, False, (targets > 0) & (shots < p.shots_max_alive))


def buttons(lanes: Lanes, p: Params, turn: Any, thrust: Any, first: Any, shield_energy: Any,
            hyper_held: Any, fire: Any) -> Any:
    """(4), (5) The input mask: the turn, thrust and fire chosen; when every escape still
    collides within ``HYPER_TICKS`` (``first``: ticks to the first contact of the best one),
    the shield where the rules have one and it has energy, else hyperspace where allowed
    (on the press edge), which alone is pressed."""
    cornered = first <= HYPER_TICKS
    shield = lanes.where(cornered, shield_energy > 0, False) if p.ship_shield_enabled else False
    jump = lanes.where(shield | hyper_held, False, cornered) if p.ship_hyperspace_enabled else False
    mask = (lanes.where(turn > 0, _LEFT, lanes.where(turn < 0, _RIGHT, 0))
            | lanes.where(thrust, _THRUST, 0) | lanes.where(shield, _SHIELD, 0)
            | lanes.where(fire, _FIRE, 0))
    return lanes.where(jump, _HYPER, mask)
