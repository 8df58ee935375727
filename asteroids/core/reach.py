"""Whether any shot can reach anything this tick: the check that lets the shot sweep skip its
query on most ticks of a real game (shots fly in the open).

The answer is conservative: "no" only when the query would find nothing, so skipping it
changes nothing but the time a tick takes (``tests/core/test_reach_check.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from asteroids.core.batch_rows import any_per_game, flat_rows, pairs_in_games
from asteroids.core.bodies import CRAFT, SHOT_TARGETS
from asteroids.core.craft import SAFE, Craft, CraftRows
from asteroids.core.kinds import Kind, Shooter
from asteroids.core.lanes import MANY, ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.world import Draft

__all__ = ["REACH_MAX_PAIRS", "beyond", "craft_in_reach", "craft_reach", "reach_margin",
           "rock_reach", "shots_may_hit", "shots_may_hit_rows"]


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
        far = beyond(gap, p.size, rock_reach(d.ast_radius, d.ast_vel, margin)[:, None])
        if not bool((far[:, :, 0] | far[:, :, 1]).all()):
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
        if owner == shooter and craft_in_reach(ONE, cx, cy, x, y, limit, w, h):
            return True
    return False


def craft_in_reach(L: Lanes, cx: Any, cy: Any, x: Any, y: Any, limit: Any, w: float,
                   h: float) -> Any:
    """Whether a shot starting at (x, y) may reach the craft at (cx, cy) this tick: within
    ``limit`` (``craft_reach``) in the nearest image (NaN: yes, the query reports it). One
    shot's floats (``ONE``), or per shot row (``MANY``); shared by both drivers."""
    nearest = np.round if L.many else round  # both round half to even
    dx = cx - x
    dy = cy - y
    dx = dx - w * nearest(dx / w, 0)  # nearest image (NaN stays NaN)
    dy = dy - h * nearest(dy / h, 0)
    return (dx * dx + dy * dy > limit * limit) ^ True


def shots_may_hit_rows(d: BatchDraft, p: Params, shot_game: np.ndarray, ast_game: np.ndarray,
                       crafts: Mapping[Kind, CraftRows], lanes: int
                       ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``shots_may_hit`` for every game's rows at once (a wrapping world without obstacles):
    (B,) where a shot may reach something this tick, by the same bounds (``reach_margin``,
    ``rock_reach``, ``beyond``, ``craft_reach``, ``craft_in_reach``); and the (shot row, rock
    row) pairs within those bounds, shot-major (the bound is per pair: a rock no shot of its
    game can reach cannot be hit, so the query leaves it out). ``crafts``: each kind's
    columns (``CraftRows``)."""
    vel = d.shot_vel
    v2 = vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1]
    may = np.zeros(lanes, dtype=bool)
    travel2 = np.zeros(lanes)
    np.maximum.at(travel2, shot_game, np.where(np.isfinite(v2), v2, 0.0))
    margin = reach_margin(MANY, travel2, p)
    near_s = near_r = np.zeros(0, dtype=np.int64)
    if d.ast_id.shape[0]:
        s, r = pairs_in_games(shot_game, d.ast_rows)
        if s.shape[0]:
            # Each rock's reach once (its game's margin), then per pair: the differences as
            # complex rows (one take and one subtraction for x and y), then x and y apart.
            reach = rock_reach(d.ast_radius, d.ast_vel, margin[ast_game]).take(r)
            delta = flat_rows(d.ast_pos).take(r) - flat_rows(d.shot_pos).take(s)
            near = beyond(np.abs(delta.real), p.size[0], reach)
            near |= beyond(np.abs(delta.imag), p.size[1], reach)
            near ^= True
            may |= any_per_game(near, shot_game.take(s), lanes)
            near = near.nonzero()[0]
            near_s, near_r = s.take(near), r.take(near)
    for shooter, kinds in SHOT_TARGETS.items():  # the craft each side's shots can hit
        for kind in kinds:
            craft = crafts[kind]
            rows = ((d.shot_owner == shooter) & craft.present[shot_game]).nonzero()[0]
            if rows.shape[0] == 0:
                continue
            g = shot_game[rows]
            limit = craft_reach(MANY, craft.radius[g], craft.vx[g], craft.vy[g], margin[g])
            near = craft_in_reach(MANY, craft.x[g], craft.y[g], d.shot_pos[rows, 0],
                                  d.shot_pos[rows, 1], limit, p.width, p.height)
            may |= any_per_game(near, g, lanes)
    return may, (near_s, near_r)


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


def beyond(gap: np.ndarray, size: Any, reach: Any) -> np.ndarray:
    """Whether a rock lies beyond ``reach`` of a shot along an axis of length ``size`` where
    they are ``gap`` apart (``|difference|`` on that axis): the nearer image's distance
    exceeds it (conservative). Elementwise: one game's (shot, rock, axis) grid, or every
    game's pairs an axis at a time; shared by both drivers."""
    return np.minimum(gap, size - gap) > reach
