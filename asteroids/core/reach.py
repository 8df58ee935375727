"""Whether any shot can reach anything this tick: the check that lets the shot sweep skip its
query on most ticks of a real game (shots fly in the open).

The answer is conservative: "no" only when the query would find nothing, so skipping it
changes nothing but the time a tick takes (``tests/core/test_reach_check.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.bodies import CRAFT, SHOT_TARGETS
from asteroids.core.craft import SAFE, Craft
from asteroids.core.kinds import Shooter
from asteroids.core.lanes import ONE, Lanes
from asteroids.core.params import Params
from asteroids.core.world import Draft

__all__ = ["REACH_MAX_PAIRS", "craft_reach", "reach_margin", "rock_reach", "shots_may_hit"]


REACH_MAX_PAIRS = 512
"""``shots_may_hit`` answers up to this many (shot, rock) pairs (a classic game has at most
~6 x 27); beyond it the check would cost more than it saves."""


def shots_may_hit(d: Draft, p: Params) -> bool:
    """False only when no shot can reach any target this tick, so the shot query would find
    nothing; then it is skipped (most ticks of a real game: shots fly in the open).

    Conservative bounds in a wrapping world, from the query's own broad phase (boxes): a
    shot's swept box lies within its travel ``|v|`` of its start; a target's swept, padded box
    within ``r + |motion|`` of its centre on each axis and within ``sqrt(2) r + |motion|`` in
    distance (``r`` its bounding radius: ``ast_radius``, ``ship_radius``, the saucer's
    radius), in the nearest image. Bounds get a relative and a 1 px margin, far above the
    broad phase's padding and any rounding here, so the answer never differs from the query.
    A craft counts for the other side's shots (as in ``_targets``). Worlds with obstacles,
    and crowds of more than ``REACH_MAX_PAIRS`` (shot, rock) pairs, always query.
    """
    if p.obstacle_offsets.shape[0] > 1 or not p.wrap_any:
        return True
    if d.shot_id.shape[0] * d.ast_id.shape[0] > REACH_MAX_PAIRS:
        return True  # a crowd: something is near anyway, and the query's grid is cheaper
    if d.shot_id.shape[0] <= 16:
        travel2 = 0.0
        for vx, vy in d.shot_vel.tolist():
            v2 = vx * vx + vy * vy
            if not v2 <= travel2 and travel2 == travel2:  # NaN wins and stays: the
                travel2 = v2                                 # query runs and reports it
    else:
        vel = d.shot_vel
        travel2 = float((vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1]).max())  # NaN wins too
    margin = reach_margin(ONE, travel2, p)
    if d.ast_id.shape[0]:
        # Rocks, per axis (their boxes, not circles): a rock's swept box lies within r + |v|
        # of its centre on each axis, a shot's within its travel of its start.
        gap = d.ast_pos[None, :, :] - d.shot_pos[:, None, :]
        np.abs(gap, out=gap)
        np.minimum(gap, p.size - gap, out=gap)  # nearest image per axis (conservative)
        if not bool(_apart(gap, rock_reach(d.ast_radius, d.ast_vel, margin)).all()):
            return True
    owners = d.shot_owner.tolist()
    starts = None
    w, h = p.width, p.height
    for shooter, kinds in SHOT_TARGETS.items():  # the craft each side's shots can hit
        if shooter not in owners:
            continue
        for kind in kinds:
            craft = CRAFT[kind](d, p)
            if craft is None:
                continue
            if starts is None:
                starts = d.shot_pos.tolist()
            if _craft_in_reach(craft, shooter, starts, owners, margin, w, h):
                return True
    return False


def _craft_in_reach(craft: Craft, shooter: Shooter, starts: list[list[float]],
                    owners: list[int], margin: float, w: float, h: float) -> bool:
    """Whether a shot of ``shooter`` may reach ``craft`` this tick (see ``shots_may_hit``)."""
    cx, cy = craft.x, craft.y
    limit = craft_reach(ONE, craft.radius, craft.vx, craft.vy, margin)
    for (x, y), owner in zip(starts, owners, strict=True):
        if owner != shooter:
            continue
        dx = cx - x
        dy = cy - y
        dx -= w * round(dx / w, 0)  # nearest image (NaN stays NaN)
        dy -= h * round(dy / h, 0)
        if not dx * dx + dy * dy > limit * limit:  # NaN: query (it reports the NaN)
            return True
    return False


def reach_margin(L: Lanes, travel2: Any, p: Params) -> Any:
    """The shots' margin: their longest travel this tick (``travel2``, squared), the safety
    factor, a pixel and a rounding allowance (one game's, or each game's)."""
    return L.sqrt(travel2) * SAFE + 1.0 + 1e-6 * (p.width + p.height)


def craft_reach(L: Lanes, r: Any, vx: Any, vy: Any, margin: Any) -> Any:
    """How near a shot's start a craft of bounding radius ``r`` moving at (vx, vy) must be
    for the shot to reach it this tick (one game's, or each game's)."""
    return (1.5 * r + L.sqrt(vx * vx + vy * vy)) * SAFE + margin


def rock_reach(radius: np.ndarray, vel: np.ndarray, margin: Any) -> np.ndarray:
    """(N,) how far each rock's swept box may reach from its centre on either axis this tick,
    with the safety factor and the shot's ``margin`` (one, or one per rock):
    ``(r + |v|) * SAFE + margin``."""
    sq = vel * vel
    reach = sq[:, 0] + sq[:, 1]
    np.sqrt(reach, out=reach)
    reach += radius
    reach *= SAFE
    reach += margin
    return reach


def _apart(gap: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """(K, N) whether shot k and rock n are farther apart than the rock's reach on an axis."""
    far = gap[:, :, 0] > reach
    far |= gap[:, :, 1] > reach
    return far
