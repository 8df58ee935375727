"""The Gymnasium environment's observation and actions, as plain numpy (no gymnasium here).

**Observation**: a float32 vector of ``size(k)`` numbers, each clipped to [-1, 1]. Positions
are relative to the ship (the shortest way round when the world wraps) over the world's
width or height; velocities are px per tick over ``SPEED_SCALE`` times the shot speed;
flags are 0 or 1. In order:

=====  ====================================================================================
index  meaning
=====  ====================================================================================
0-7    the ship: x / width, y / height, vx, vy, cos and sin of the heading, flying (1) or
       not (exploded, in hyperspace, game over), fire ready (not held last tick and a shot
       free under the cap)
8..    the nearest ``k`` rocks, nearest first, 6 numbers each: present (1; 0 and zeros for
       a missing one), dx, dy, vx, vy, radius / the largest rock's radius
+6     the saucer: present, dx, dy, vx, vy, small (1) or large (0)
+6     shots: the ship's shots in flight / the shot cap, then the nearest saucer shot:
       present, dx, dy, vx, vy
=====  ====================================================================================

**Actions** (``ACTIONS``): every combination of turning (none, left, right), thrust (off,
on) and fire (off, on), numbered ``turn * 4 + thrust * 2 + fire`` (0 to 11), then 12
hyperspace and 13 the shield (nothing, in rules without one). Fire shoots on the press, as
in the game: holding it fires once.
"""

from __future__ import annotations

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import World
from asteroids.core.inputs import InputFrame
from asteroids.core.params import params_for
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP

__all__ = ["ACTIONS", "ACTION_NAMES", "DEFAULT_ROCKS", "SPEED_SCALE", "Observer", "size"]

DEFAULT_ROCKS = 8
"""Rocks in the observation unless ``rocks=`` says otherwise."""
SPEED_SCALE = 1.5
"""Velocities are divided by this many times the ship's shot speed."""


def _actions() -> tuple[tuple[int, str], ...]:
    out = []
    for turn, turn_name in ((0, ""), (int(InputFrame.LEFT), "left"),
                            (int(InputFrame.RIGHT), "right")):
        for thrust in (0, int(InputFrame.THRUST)):
            for fire in (0, int(InputFrame.FIRE)):
                names = [n for n, on in ((turn_name, turn), ("thrust", thrust),
                                         ("fire", fire)) if on]
                out.append((turn | thrust | fire, "+".join(names) or "nothing"))
    out.append((int(InputFrame.HYPERSPACE), "hyperspace"))
    out.append((int(InputFrame.SHIELD), "shield"))
    return tuple(out)


_TABLE = _actions()
ACTIONS: tuple[int, ...] = tuple(mask for mask, _ in _TABLE)
"""The input mask of each action number."""
ACTION_NAMES: tuple[str, ...] = tuple(name for _, name in _TABLE)
"""What each action number presses, e.g. ``left+thrust+fire``."""


def size(rocks: int) -> int:
    """The observation's length with ``rocks`` rocks."""
    return 8 + 6 * rocks + 6 + 6


class Observer:
    """Builds observations of one config's Worlds.

    Args:
        config: the settings the game runs under.
        rocks: how many of the nearest rocks the observation holds.
    """

    def __init__(self, config: Config, rocks: int = DEFAULT_ROCKS) -> None:
        p = params_for(config)
        self.p = p
        self.rocks = rocks
        self.size = size(rocks)
        self.scale = np.array([p.width, p.height])
        self.wrap = p.size if p.wrap_any else None
        self.speed = SPEED_SCALE * max(p.shot_speed, 1e-9)
        self.radius = max(max(p.radius), 1e-9)

    def _rel(self, pos: np.ndarray, world: World) -> np.ndarray:
        d = pos - np.array([world.ship_x, world.ship_y])
        if self.wrap is not None:
            half = 0.5 * self.wrap
            d = (d + half) % self.wrap - half
        return d / self.scale

    def observe(self, world: World) -> np.ndarray:
        """The observation of ``world`` (a new float32 array)."""
        p = self.p
        out = np.zeros(self.size, dtype=np.float64)
        h = world.ship_heading % HEADING_STEPS
        mine = int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP))
        flying = world.ship_state == SHIP_FLYING and not world.game_over
        out[0:8] = (world.ship_x / p.width, world.ship_y / p.height,
                    world.ship_vx / self.speed, world.ship_vy / self.speed, COS[h], SIN[h],
                    float(flying), float(not world.fire_held and mine < p.shot_max))
        at = 8
        n = world.ast_id.shape[0]
        if n:
            rel = self._rel(world.ast_pos, world)
            order = np.argsort(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1],
                               kind="stable")[:self.rocks]
            k = order.shape[0]
            block = np.zeros((self.rocks, 6))
            block[:k, 0] = 1.0
            block[:k, 1:3] = rel[order]
            block[:k, 3:5] = world.ast_vel[order] / self.speed
            block[:k, 5] = world.ast_radius[order] / self.radius
            out[at:at + 6 * self.rocks] = block.ravel()
        at += 6 * self.rocks
        if world.saucer_alive:
            rel = self._rel(np.array([[world.saucer_x, world.saucer_y]]), world)[0]
            out[at:at + 6] = (1.0, rel[0], rel[1], world.saucer_vx / self.speed,
                              world.saucer_vy / self.speed, float(world.saucer_small))
        at += 6
        out[at] = mine / max(p.shot_max, 1)
        enemy = world.shot_owner == SHOOTER_SAUCER
        if enemy.any():
            rel = self._rel(world.shot_pos[enemy], world)
            k = int(np.argmin(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1]))
            vel = world.shot_vel[enemy][k] / self.speed
            out[at + 1:at + 6] = (1.0, rel[k, 0], rel[k, 1], vel[0], vel[1])
        return np.clip(out, -1.0, 1.0).astype(np.float32)
