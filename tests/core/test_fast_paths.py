"""The hot path's shortcuts give exactly what the general code gives.

``step`` runs tens of thousands of times per replay verification, so a few of its pieces skip
work the general functions do (validation the caller already guarantees, copies of unchanged
fields). Each shortcut is compared here with the general function it stands for, on many
random scenes, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from asteroids.core import new_world, reach, state_hash, step, sweep, touch
from asteroids.core.bot import bot_input
from asteroids.core.craft import SAFE
from asteroids.core.frame import Frame
from asteroids.core.kinds import Kind
from asteroids.core.outlines import rock_outlines, rock_outlines_of
from asteroids.core.overlap import polygons_overlap
from asteroids.core.params import params_for
from asteroids.core.saucer import saucer_outline
from asteroids.core.ship import ship_outline
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.world import (
    _ARRAY_FIELDS,
    FIELD_NAMES,
    Draft,
    World,
)

from .bot_game import preset
from .worlds import shot_query_finds_hit


def _bot_worlds(name: str, seed: int, ticks: int) -> list[World]:
    cfg = preset(name)
    p = params_for(cfg)  # compiled once, passed every tick
    w = new_world(p, seed)
    out = [w]
    for _ in range(ticks):
        w, _ = step(w, bot_input(w, cfg.world.width_px, cfg.world.height_px), p)
        out.append(w)
    return out


@pytest.mark.parametrize("name", ["classic", "arena"])
def test_draft_freeze_is_the_dataclass_constructor(name: str) -> None:
    """``Draft.freeze`` stores fields without the dataclass ``__init__``: the World it builds
    has the same fields (same objects) as ``World(**fields)`` and every array read-only, so a
    rule that wrote into an old state would still fail loudly."""
    for world in _bot_worlds(name, 3, 300):
        d = Draft(world)
        d.ast_pos = d.ast_pos + 0.0  # one replaced (writeable) array, the rest shared
        fast = d.freeze()
        slow = World(**{n: getattr(d, n) for n in FIELD_NAMES})
        assert all(getattr(fast, n) is getattr(slow, n) for n in FIELD_NAMES)
        assert state_hash(fast) == state_hash(slow)
        for n in _ARRAY_FIELDS:
            assert not getattr(fast, n).flags.writeable, n
        with pytest.raises(ValueError, match="read-only"):
            fast.ast_pos[...] = np.zeros_like(fast.ast_pos)


@pytest.mark.parametrize("name", ["classic", "default", "arena"])
def test_outlines_of_some_rocks_are_those_rows_of_all(name: str) -> None:
    """``rock_outlines_of`` (the rocks near the ship, the saucer or the shield) gives the very
    rows of ``rock_outlines`` for those rocks, bit for bit, with their offsets."""
    rng = np.random.default_rng(5)
    for world in _bot_worlds(name, 11, 400)[::7]:
        d = Draft(world)
        n = d.ast_id.shape[0]
        if n == 0:
            continue
        every = rock_outlines(d)
        index = np.flatnonzero(rng.random(n) < 0.5)
        pts, offs = rock_outlines_of(d, index)
        counts = np.diff(d.ast_offsets)[index]
        assert offs.tolist() == [0, *np.cumsum(counts).tolist()]
        rows = np.concatenate([np.arange(d.ast_offsets[i], d.ast_offsets[i + 1])
                               for i in index] or [np.zeros(0, dtype=np.int64)])
        assert pts.tobytes() == every[rows].tobytes()


@pytest.mark.parametrize("name", ["classic", "default"])
def test_skipped_shot_queries_would_find_nothing(name: str) -> None:
    """``_shots_may_hit`` lets the step skip the shot query; whenever it says no, the query
    (``first_hits`` on the same targets) finds no hit. Shots are thrown at random around
    rocks and craft, many just outside their reach, across the wrap seam too."""
    cfg = preset(name)
    p = params_for(cfg)
    rng = np.random.default_rng(17)
    skipped = queried = near = 0
    for world in _bot_worlds(name, 21, 900)[::10]:
        d = Draft(world)
        centers = [*d.ast_pos.tolist(), [d.ship_x, d.ship_y]]
        radii = [*d.ast_radius.tolist(), p.ship_radius]
        for _ in range(60):
            k = int(rng.integers(1, 3))
            pick = rng.integers(len(centers), size=k)
            ang = rng.uniform(0.0, 2.0 * np.pi, k)
            dist = np.array(radii)[pick] * rng.uniform(0.5, 4.0, k) + rng.uniform(0, 12, k)
            if rng.integers(2):  # along an axis, just around the reach of the rock's box
                ang = rng.integers(4, size=k) * (0.5 * np.pi) + rng.normal(0.0, 0.02, k)
                dist = np.array(radii)[pick] * rng.uniform(0.95, 1.1, k) + rng.uniform(0, 16, k)
            pos = np.array(centers)[pick] + dist[:, None] * np.stack([np.cos(ang), np.sin(ang)], 1)
            speed = rng.uniform(0.0, 14.0, k)
            turn = ang + np.pi + rng.normal(0.0, 0.6, k)  # mostly toward the target
            d.shot_pos = pos % p.size
            d.shot_vel = speed[:, None] * np.stack([np.cos(turn), np.sin(turn)], 1)
            d.shot_owner = rng.integers(2, size=k)
            d.saucer_alive = bool(rng.integers(2))
            d.saucer_x, d.saucer_y = float(pos[0, 0]) + 30.0, float(pos[0, 1])
            may = reach.shots_may_hit(d, p)
            many = Draft(d.freeze())  # the same shots 17 times: the many-shot branch agrees
            many.shot_pos = np.tile(d.shot_pos, (17, 1))
            many.shot_vel = np.tile(d.shot_vel, (17, 1))
            many.shot_owner = np.tile(d.shot_owner, 17)
            many.shot_id = np.arange(17 * k)
            crowd = 17 * k * d.ast_id.shape[0] > reach.REACH_MAX_PAIRS
            assert reach.shots_may_hit(many, p) == (may or crowd)  # crowds always query
            any_hit = shot_query_finds_hit(d, p)
            assert may or not any_hit
            skipped += not may
            queried += may
            near += may and not any_hit
    assert skipped > 1000 and queried > 1000 and near > 500


@pytest.mark.parametrize("name", ["classic", "default"])
def test_ship_saucer_circle_precheck_never_hides_an_overlap(name: str) -> None:
    """The step tests the ship's and the saucer's outlines only when their (slightly grown)
    bounding circles touch; whenever they do not, the outlines do not overlap either, at
    every distance around the boundary, any heading, both saucer sizes, across the seam."""
    p = params_for(preset(name))
    rng = np.random.default_rng(23)
    far_count = close_calls = overlaps = 0
    for _ in range(3000):
        small = bool(rng.integers(2))
        r = p.saucer_radius[1 if small else 0]
        sx, sy = rng.uniform(0.0, p.width), rng.uniform(0.0, p.height)
        if rng.integers(4) == 0:  # straddle a border
            sx = float(rng.choice([0.0, p.width - 1e-9])) + rng.uniform(-3.0, 3.0)
            sx %= p.width
        ang = rng.uniform(0.0, 2.0 * np.pi)
        dist = (p.ship_radius + r) * rng.uniform(0.6, 1.3)
        x = (sx + dist * np.cos(ang)) % p.width
        y = (sy + dist * np.sin(ang)) % p.height
        heading = int(rng.integers(HEADING_STEPS))
        ship = ship_outline(p, x, y, heading)
        saucer = saucer_outline(p, sx, sy, small)
        overlap = bool(polygons_overlap(ship, [0, ship.shape[0]], saucer, [0, saucer.shape[0]],
                                        [0], [0], world_size=(p.width, p.height))[0])
        far = not touch.circles_touch(
            (x, y), SAFE * p.ship_radius + 1.0, (sx, sy), SAFE * r, p)
        assert not (far and overlap)
        far_count += far
        close_calls += (not far) and not overlap
        overlaps += overlap
    assert far_count > 500 and close_calls > 200 and overlaps > 200


@pytest.mark.parametrize("name", ["classic", "default"])
def test_unhit_shots_fly_as_apply_shot_hits_moves_them(name: str) -> None:
    """When nothing is in reach the step moves shots with ``_fly_unhit_shots``: the same
    shot arrays (bit for bit) and claims as ``_apply_shot_hits`` with no hit recorded, for
    shots about to expire, straddling the seam and fresh."""
    cfg = preset(name)
    p = params_for(cfg)
    assert p.wrap_shots  # the only case the step uses it for
    rng = np.random.default_rng(29)
    seen = 0
    for world in _bot_worlds(name, 5, 900):
        k = world.shot_id.shape[0]
        if k == 0:
            continue
        fast, slow = Draft(world), Draft(world)
        if rng.integers(3) == 0:  # some shots at the last tick of their life, some on a seam
            ttl = world.shot_ttl.copy()
            ttl[rng.random(k) < 0.5] = 1
            pos = world.shot_pos.copy()
            pos[rng.random(k) < 0.3, 0] = p.width - 1e-12
            fast.shot_ttl = slow.shot_ttl = ttl
            fast.shot_pos = slow.shot_pos = pos
        claims = Frame(world.ast_id.shape[0])
        sweep._apply_shot_hits(slow, p, claims, sweep.ShotHits(k))
        sweep._fly_unhit_shots(fast, p)
        assert claims.rock_by is None
        assert not claims.claimed(Kind.SAUCER) and not claims.claimed(Kind.SHIP)
        for n in ("shot_id", "shot_owner", "shot_pos", "shot_vel", "shot_ttl"):
            a, b = getattr(fast, n), getattr(slow, n)
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), n
        seen += 1
    assert seen > 300
