"""Asteroid-asteroid collisions: elastic, mass ~ area, only when approaching, never stuck."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.core import step
from asteroids.core.params import params_for
from tests.core.worlds import config_with, rock, world_with

CFG = config_with(asteroids={"collide": True, "jaggedness": 0.0},
                  saucers={"enabled": False})
P = params_for(CFG)


def _momentum_energy(world) -> tuple[np.ndarray, float]:
    m = (world.ast_radius * (1.0 - 0.5 * P.jaggedness)) ** 2
    p = (m[:, None] * world.ast_vel).tolist()
    momentum = np.array([math.fsum(v[0] for v in p), math.fsum(v[1] for v in p)])
    energy = math.fsum((0.5 * m * (world.ast_vel ** 2).sum(axis=1)).tolist())
    return momentum, energy


def _pair(r1, r2, gap, v1, v2, offset_y=0.0):
    x1, y = 300.0, 300.0
    x2 = x1 + r1 + r2 + gap
    return world_with(CFG, [rock(0, x1, y, *v1, round_radius=r1, cfg=CFG),
                            rock(0, x2, y + offset_y, *v2, round_radius=r2, cfg=CFG)],
                      ship_x=1000.0, ship_y=600.0)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    r1=st.floats(5.0, 40.0), r2=st.floats(5.0, 40.0),
    vx1=st.floats(0.5, 5.0), vx2=st.floats(-5.0, -0.5),
    vy1=st.floats(-2.0, 2.0), vy2=st.floats(-2.0, 2.0),
    offset=st.floats(-0.9, 0.9),
)
def test_collisions_conserve_momentum_and_energy(r1, r2, vx1, vx2, vy1, vy2, offset) -> None:
    world = _pair(r1, r2, -0.5, (vx1, vy1), (vx2, vy2), offset * min(r1, r2))
    m0, e0 = _momentum_energy(world)
    after, _ = step(world, 0, CFG)
    m1, e1 = _momentum_energy(after)
    scale = max(float(np.abs(m0).max()), 1e-12)
    assert np.abs(m1 - m0).max() <= 1e-9 * scale
    assert abs(e1 - e0) <= 1e-9 * e0
    if after.ast_vel.tolist() != world.ast_vel.tolist():
        # They touched: now they separate along the line of centres.
        d = after.ast_pos[1] - after.ast_pos[0]
        rel = after.ast_vel[1] - after.ast_vel[0]
        assert d[0] * rel[0] + d[1] * rel[1] >= -1e-9


def test_equal_masses_swap_velocities_head_on() -> None:
    world = _pair(20.0, 20.0, -1.0, (3.0, 0.0), (-1.0, 0.0))
    after, _ = step(world, 0, CFG)
    assert after.ast_vel[0, 0] == pytest.approx(-1.0, abs=1e-12)
    assert after.ast_vel[1, 0] == pytest.approx(3.0, abs=1e-12)


def test_separating_pairs_get_no_impulse_but_are_pushed_apart() -> None:
    world = _pair(20.0, 20.0, -4.0, (-1.0, 0.0), (1.0, 0.0))
    after, _ = step(world, 0, CFG)
    assert after.ast_vel.tolist() == world.ast_vel.tolist()
    gap = float(after.ast_pos[1, 0] - after.ast_pos[0, 0])
    assert gap >= 40.0 - 1e-9


def test_heavier_rock_barely_slows() -> None:
    world = _pair(40.0, 10.0, -0.5, (2.0, 0.0), (-2.0, 0.0))
    after, _ = step(world, 0, CFG)
    assert 0.0 < after.ast_vel[0, 0] < 2.0
    assert after.ast_vel[1, 0] > 2.0


def test_coincident_centres_do_not_make_nan() -> None:
    world = world_with(CFG, [rock(0, 300.0, 300.0, 1.0, 0.0, round_radius=20.0, cfg=CFG),
                             rock(0, 300.0, 300.0, -1.0, 0.0, round_radius=20.0, cfg=CFG)])
    after, _ = step(world, 0, CFG)
    assert np.isfinite(after.ast_pos).all() and np.isfinite(after.ast_vel).all()
    assert after.ast_pos[0, 0] != after.ast_pos[1, 0]


def test_collisions_off_means_rocks_pass_through() -> None:
    cfg = config_with(asteroids={"collide": False}, saucers={"enabled": False})
    world = world_with(cfg, [rock(0, 300.0, 300.0, 2.0, 0.0, round_radius=20.0, cfg=cfg),
                             rock(0, 339.0, 300.0, -2.0, 0.0, round_radius=20.0, cfg=cfg)])
    after, _ = step(world, 0, cfg)
    assert after.ast_vel.tolist() == world.ast_vel.tolist()
