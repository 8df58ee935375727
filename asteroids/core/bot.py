"""A simple deterministic pilot: for soak tests, benchmarks, golden replays and attract mode.

It reads only the World and answers with an input mask, using cross and dot products (no
trigonometry), so a bot game is as reproducible as a recorded one.
"""

from __future__ import annotations

import numpy as np

from asteroids.core.geometry import wrap_delta
from asteroids.core.inputs import InputFrame
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, World

__all__ = ["bot_input"]

_COS = COS.tolist()
_SIN = SIN.tolist()


def bot_input(world: World, width: float, height: float, style: int = 0) -> int:
    """The bot's buttons for this tick.

    It turns toward the nearest asteroid (across the wrap seam), fires in bursts when
    roughly aligned, thrusts now and then, and jumps to hyperspace when a rock is about to
    hit. ``style`` varies its habits so soak runs cover more of the rules (1 = more thrust
    and hyperspace, 2 = holds the shield).
    """
    if world.ship_state != SHIP_FLYING or world.game_over:
        return 0
    mask = 0
    tick = world.tick
    if world.ast_id.shape[0]:
        delta = wrap_delta(world.ast_pos - np.array([world.ship_x, world.ship_y]),
                           np.array([width, height]))
        dist2 = delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1]
        k = int(np.argmin(dist2))
        dx, dy = float(delta[k, 0]), float(delta[k, 1])
        h = world.ship_heading % HEADING_STEPS
        cx, cy = _COS[h], _SIN[h]
        cross = cx * dy - cy * dx
        dot = cx * dx + cy * dy
        if cross > 0.05 * abs(dot):
            mask |= InputFrame.LEFT
        elif cross < -0.05 * abs(dot):
            mask |= InputFrame.RIGHT
        if dot > 0 and tick % 6 < 3:
            mask |= InputFrame.FIRE
        reach = float(world.ast_radius[k]) + 30.0
        if dist2[k] < reach * reach:
            if style == 2:
                mask |= InputFrame.SHIELD
            elif tick % 4 == 0:
                mask |= InputFrame.HYPERSPACE
    if (tick // 40) % (3 if style == 1 else 5) == 0:
        mask |= InputFrame.THRUST
    if style == 1 and tick % 97 == 0:
        mask |= InputFrame.HYPERSPACE
    return mask
