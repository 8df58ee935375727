"""What must hold after every tick, whatever happened: the soak tests' referee."""

from __future__ import annotations

import numpy as np

from asteroids.core.params import Params
from asteroids.core.world import SHOOTER_SAUCER, SHOOTER_SHIP, World

EPS = 1e-9


def check_world(world: World, p: Params, prev: World | None = None) -> None:
    """Raise AssertionError naming the first broken invariant."""
    for name in ("ast_pos", "ast_vel", "ast_radius", "ast_local", "shot_pos", "shot_vel"):
        assert np.isfinite(getattr(world, name)).all(), f"tick {world.tick}: {name} not finite"
    for name in ("ship_x", "ship_y", "ship_vx", "ship_vy", "saucer_x", "saucer_y"):
        value = getattr(world, name)
        assert np.isfinite(value), f"tick {world.tick}: {name} = {value}"
    _inside(world, p)
    n = world.ast_id.shape[0]
    cap = p.asteroids_max_alive
    assert n <= cap, f"tick {world.tick}: {n} asteroids > cap {cap}"
    assert int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP)) <= p.shots_max_alive
    assert int(np.count_nonzero(world.shot_owner == SHOOTER_SAUCER)) <= p.saucers_max_shots
    assert (world.shot_ttl > 0).all()
    assert world.ast_offsets[0] == 0 and world.ast_offsets[-1] == world.ast_local.shape[0]
    assert world.ast_offsets.shape[0] == n + 1
    assert (np.diff(world.ast_offsets) >= 3).all()
    for ids in (world.ast_id, world.shot_id):
        assert (np.diff(ids) > 0).all(), f"tick {world.tick}: ids out of order"
        assert ids.shape[0] == 0 or ids[-1] < world.next_id
    assert world.lives >= 0
    if prev is not None:
        assert world.tick == prev.tick + 1
        assert world.score >= prev.score, f"tick {world.tick}: score went down"
        assert world.next_id >= prev.next_id


def _inside(world: World, p: Params) -> None:
    t = world.tick
    if world.ast_id.shape[0]:
        pos = world.ast_pos
        if p.wrap_asteroids:
            assert ((pos >= 0.0) & (pos < p.size)).all(), f"tick {t}: asteroid outside"
        else:
            r = world.ast_radius[:, None]
            assert ((pos >= r - EPS) & (pos <= p.size - r + EPS)).all(), f"tick {t}: asteroid"
    if world.shot_id.shape[0]:
        pos = world.shot_pos
        if p.wrap_shots:
            assert ((pos >= 0.0) & (pos < p.size)).all(), f"tick {t}: shot outside"
        else:
            assert ((pos >= -EPS) & (pos <= p.size + EPS)).all(), f"tick {t}: shot outside"
    x, y = world.ship_x, world.ship_y
    assert -EPS <= x <= p.width + EPS and -EPS <= y <= p.height + EPS, f"tick {t}: ship {x},{y}"
    if world.saucer_alive:
        assert 0.0 <= world.saucer_x <= p.width and 0.0 <= world.saucer_y <= p.height


class OverlapWatch:
    """Counts, per asteroid pair, how many ticks in a row their collision circles overlap."""

    def __init__(self, p: Params, slop: float = 0.5) -> None:
        self.p = p
        self.slop = slop
        self.runs: dict[tuple[int, int], int] = {}
        self.worst = 0

    def update(self, world: World) -> None:
        from asteroids.core.contacts import circle_pairs

        n = world.ast_id.shape[0]
        if n < 2:
            self.runs = {}
            return
        radius = world.ast_radius * (1.0 - 0.5 * self.p.asteroids_jaggedness)
        ws = (self.p.width, self.p.height) if self.p.wrap_asteroids else None
        i, j = circle_pairs(world.ast_pos, np.maximum(radius - 0.5 * self.slop, 0.0),
                            world_size=ws)
        runs = {}
        for a, b in zip(world.ast_id[i].tolist(), world.ast_id[j].tolist(), strict=True):
            runs[(a, b)] = self.runs.get((a, b), 0) + 1
        self.runs = runs
        if runs:
            self.worst = max(self.worst, max(runs.values()))
