"""Rocks colliding with each other (``asteroids.collide``): impulses by mass and
restitution, the contact radius, coincident centres, the wrap seam, rounds of contacts;
momentum and energy kept."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config.schema import Config
from asteroids.core import step
from asteroids.core.params import params_for
from asteroids.core.spawn import NewRock
from tests.core.worlds import CFG, P, config_with, quiet, rock, world_with

W, H = P.width, P.height
CX, CY = 0.5 * P.width, 0.5 * P.height


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def above(x: float) -> float:
    return math.nextafter(x, math.inf)


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def far_rock(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def xy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_pos[i, 0]), float(world.ast_pos[i, 1])


def vxy(world, i: int = 0) -> tuple[float, float]:
    return float(world.ast_vel[i, 0]), float(world.ast_vel[i, 1])


COLLIDE = quiet_with(asteroids={"collide": True, "jaggedness": 0.0})


def collide_cfg(**asteroids) -> Config:
    return quiet_with(asteroids={"collide": True, "jaggedness": 0.0, **asteroids})


def pair(cfg: Config, a: tuple, b: tuple, r: float = 8.0, rb: float | None = None):
    """Just two round rocks (x, y, vx, vy) of radius r (and rb): two is enough to collide."""
    return world_with(cfg, [ball(*a, r=r, cfg=cfg), ball(*b, r=r if rb is None else rb, cfg=cfg)])


HAIR = 2 ** -30
COLLIDING = config_with(asteroids={"collide": True, "jaggedness": 0.0},
                  saucers={"enabled": False})
COLLIDING_P = params_for(COLLIDING)


def _momentum_energy(world) -> tuple[np.ndarray, float]:
    m = (world.ast_radius * (1.0 - 0.5 * COLLIDING_P.asteroids_jaggedness)) ** 2
    p = (m[:, None] * world.ast_vel).tolist()
    momentum = np.array([math.fsum(v[0] for v in p), math.fsum(v[1] for v in p)])
    energy = math.fsum((0.5 * m * (world.ast_vel ** 2).sum(axis=1)).tolist())
    return momentum, energy


def _pair(r1, r2, gap, v1, v2, offset_y=0.0):
    x1, y = 300.0, 300.0
    x2 = x1 + r1 + r2 + gap
    return world_with(COLLIDING_P, [rock(0, x1, y, *v1, round_radius=r1, cfg=COLLIDING),
                            rock(0, x2, y + offset_y, *v2, round_radius=r2, cfg=COLLIDING)],
                      ship_x=1000.0, ship_y=600.0)


@pytest.mark.parametrize("e,va,vb", [(1.0, -1.0, 3.0), (0.0, 1.0, 1.0), (0.5, 0.0, 2.0)])
def test_equal_rocks_head_on_exchange_momentum_by_restitution(e: float, va: float,
                                                              vb: float) -> None:
    # Masses 64 each; they end exactly touching (16 apart), closing at 4 px a tick.
    cfg = collide_cfg(restitution=e)
    world = pair(cfg, (97.0, 300.0, 3.0, 0.0), (117.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, cfg)
    assert xy(world, 0) == (100.0, 300.0) and xy(world, 1) == (116.0, 300.0)
    assert vxy(world, 0) == (va, 0.0) and vxy(world, 1) == (vb, 0.0)


def test_rocks_just_apart_do_not_collide() -> None:
    world = pair(COLLIDE, (97.0, 300.0, 3.0, 0.0), (above(116.0) + 1.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert vxy(world, 0) == (3.0, 0.0) and vxy(world, 1) == (-1.0, 0.0)
    assert xy(world, 1) == (above(116.0), 300.0)


@pytest.mark.parametrize("jaggedness,x,hit", [
    (0.5, 124.0, True), (0.5, above(124.0), False), (0.25, 128.0, True),
    (0.25, above(128.0), False),
])
def test_contact_radius_shrinks_with_jaggedness(jaggedness: float, x: float, hit: bool) -> None:
    # Rocks of radius 16 touch at 2 * 16 * (1 - jaggedness / 2) apart: 24, or 28. The first
    # ends at x = 100, the still second at x: exactly touching, or one ulp apart.
    cfg = collide_cfg(jaggedness=jaggedness)
    world = pair(cfg, (99.0, 300.0, 1.0, 0.0), (x, 300.0, 0.0, 0.0), r=16.0)
    world, _ = step(world, 0, cfg)
    assert world.ast_vel[:2, 0].tolist() == pytest.approx([0.0, 1.0] if hit else [1.0, 0.0],
                                                          abs=1e-12)
    assert xy(world, 1) == (x, 300.0), "touching is not overlapping: nothing to push"


def test_unequal_rocks_share_momentum_and_overlap_by_mass() -> None:
    # Radii 16 and 8: masses 256 and 64. They end 23 apart, 1 px overlapping.
    world = pair(COLLIDE, (100.0, 300.0, 1.0, 0.0), (125.0, 300.0, -1.0, 0.0), r=16.0, rb=8.0)
    world, _ = step(world, 0, COLLIDE)
    m1, m2, v1, v2 = 256.0, 64.0, 1.0, -1.0
    assert world.ast_vel[0, 0] == pytest.approx(((m1 - m2) * v1 + 2 * m2 * v2) / (m1 + m2),
                                                abs=1e-12)
    assert world.ast_vel[1, 0] == pytest.approx(((m2 - m1) * v2 + 2 * m1 * v1) / (m1 + m2),
                                                abs=1e-12)
    assert world.ast_pos[0, 0] == pytest.approx(101.0 - 0.2, abs=1e-12), "the heavy one: 1/5"
    assert world.ast_pos[1, 0] == pytest.approx(124.0 + 0.8, abs=1e-12), "the light one: 4/5"
    assert world.ast_pos[:, 1].tolist() == [300.0, 300.0]
    assert world.ast_vel[:2, 1].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("va,vb,va_after,vb_after", [
    ((-1.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (1.0, 0.0)),  # separating (vn = 2 > 0)
    ((0.0, 1.0), (0.0, -1.0), (0.0, 1.0), (0.0, -1.0)),  # sliding past (vn = 0)
    ((0.5, 1.0), (0.5, 1.0), (0.5, 1.0), (0.5, 1.0)),  # moving together (vn = 0)
    ((-HAIR, 0.0), (0.0, 0.0), (-HAIR, 0.0), (0.0, 0.0)),  # separating by a hair
    ((HAIR, 0.0), (0.0, 0.0), (0.0, 0.0), (HAIR, 0.0)),  # approaching by a hair: exchanged
])
def test_overlapping_rocks_exchange_momentum_only_when_approaching(va, vb, va_after,
                                                                   vb_after) -> None:
    # They end 12 apart (4 px overlap) and are pushed 2 px out each along the x axis.
    world = pair(COLLIDE, (100.0 - va[0], 300.0 - va[1], *va),
                 (112.0 - vb[0], 300.0 - vb[1], *vb))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (98.0, 300.0) and xy(world, 1) == (114.0, 300.0)
    assert vxy(world, 0) == va_after and vxy(world, 1) == vb_after


def test_coincident_rocks_part_along_x() -> None:
    # Both end at (301, 300): no centre line, so the x axis is used; equal masses, head on.
    world = pair(COLLIDE, (300.0, 300.0, 1.0, 0.0), (302.0, 300.0, -1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (293.0, 300.0) and xy(world, 1) == (309.0, 300.0)
    assert vxy(world, 0) == (-1.0, 0.0) and vxy(world, 1) == (1.0, 0.0)


def test_rocks_collide_across_the_wrap_seam() -> None:
    # They end at x = 2 and x = W - 2: 4 apart across the seam, 12 px overlapping.
    world = pair(COLLIDE, (3.0, 300.0, -1.0, 0.0), (W - 3.0, 300.0, 1.0, 0.0))
    world, _ = step(world, 0, COLLIDE)
    assert xy(world, 0) == (8.0, 300.0) and xy(world, 1) == (W - 8.0, 300.0)
    assert vxy(world, 0) == (1.0, 0.0) and vxy(world, 1) == (-1.0, 0.0)


def test_bouncing_rocks_at_opposite_walls_do_not_touch_across_the_border() -> None:
    # Each rock is 8 from its wall: 16 apart across the border, which is no seam here.
    cfg = quiet_with(asteroids={"collide": True, "jaggedness": 0.0},
                     borders={"asteroids": "bounce"})
    world = pair(cfg, (8.0, 300.0, 0.0, 0.0), (W - 9.0, 300.0, 1.0, 0.0))
    world, _ = step(world, 0, cfg)
    assert xy(world, 0) == (8.0, 300.0) and vxy(world, 0) == (0.0, 0.0)
    assert xy(world, 1) == (W - 8.0, 300.0) and vxy(world, 1) == (-1.0, 0.0)


def test_a_row_of_three_touching_rocks_passes_the_blow_to_the_far_end() -> None:
    # Newton's cradle: contacts sharing a rock are solved one after the other, not at once.
    world = world_with(COLLIDE, [ball(100.0, 300.0, 1.0, 0.0, r=8.0, cfg=COLLIDE),
                                 ball(116.0, 300.0, r=8.0, cfg=COLLIDE),
                                 ball(132.0, 300.0, r=8.0, cfg=COLLIDE), far_rock(COLLIDE)])
    world, _ = step(world, 0, COLLIDE)
    assert world.ast_vel[:3, 0].tolist() == pytest.approx([0.0, 0.0, 1.0], abs=1e-12)
    assert world.ast_pos[:3, 0].tolist() == pytest.approx([100.5, 116.25, 132.25], abs=1e-12)


@pytest.mark.parametrize("n", [64, 65])
def test_contacts_on_one_rock_are_solved_in_at_most_64_rounds(n: int) -> None:
    # n pebbles (radius 1) each 0.5 px into one big still rock (radius 44) and clear of each
    # other: every contact shares the big rock, so each needs a round of its own.
    pebbles = [ball(CX + 44.5 * math.cos(2 * math.pi * k / n),
                    CY + 44.5 * math.sin(2 * math.pi * k / n), r=1.0, cfg=COLLIDE)
               for k in range(n)]
    world = world_with(COLLIDE, [ball(CX, CY, r=44.0, cfg=COLLIDE), *pebbles], ship_x=100.0,
                       ship_y=600.0)
    world, _ = step(world, 0, COLLIDE)
    gaps = np.hypot(*(world.ast_pos[1:] - world.ast_pos[0]).T)
    assert (gaps[:64] > 44.99).all(), "the first 64 contacts were solved this tick"
    if n == 65:
        assert gaps[64] == pytest.approx(44.5, abs=0.01), "the 65th waits for the next tick"
        world, _ = step(world, 0, COLLIDE)
        assert np.hypot(*(world.ast_pos[65] - world.ast_pos[0])) > 44.99


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
    after, _ = step(world, 0, COLLIDING_P)
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
    after, _ = step(world, 0, COLLIDING)
    assert after.ast_vel[0, 0] == pytest.approx(-1.0, abs=1e-12)
    assert after.ast_vel[1, 0] == pytest.approx(3.0, abs=1e-12)


def test_separating_pairs_get_no_impulse_but_are_pushed_apart() -> None:
    world = _pair(20.0, 20.0, -4.0, (-1.0, 0.0), (1.0, 0.0))
    after, _ = step(world, 0, COLLIDING)
    assert after.ast_vel.tolist() == world.ast_vel.tolist()
    gap = float(after.ast_pos[1, 0] - after.ast_pos[0, 0])
    assert gap >= 40.0 - 1e-9


def test_heavier_rock_barely_slows() -> None:
    world = _pair(40.0, 10.0, -0.5, (2.0, 0.0), (-2.0, 0.0))
    after, _ = step(world, 0, COLLIDING)
    assert 0.0 < after.ast_vel[0, 0] < 2.0
    assert after.ast_vel[1, 0] > 2.0


def test_coincident_centres_do_not_make_nan() -> None:
    world = world_with(COLLIDING, [
        rock(0, 300.0, 300.0, 1.0, 0.0, round_radius=20.0, cfg=COLLIDING),
        rock(0, 300.0, 300.0, -1.0, 0.0, round_radius=20.0, cfg=COLLIDING)])
    after, _ = step(world, 0, COLLIDING)
    assert np.isfinite(after.ast_pos).all() and np.isfinite(after.ast_vel).all()
    assert after.ast_pos[0, 0] != after.ast_pos[1, 0]


def test_collisions_off_means_rocks_pass_through() -> None:
    cfg = config_with(asteroids={"collide": False}, saucers={"enabled": False})
    world = world_with(cfg, [rock(0, 300.0, 300.0, 2.0, 0.0, round_radius=20.0, cfg=cfg),
                             rock(0, 339.0, 300.0, -2.0, 0.0, round_radius=20.0, cfg=cfg)])
    after, _ = step(world, 0, cfg)
    assert after.ast_vel.tolist() == world.ast_vel.tolist()
