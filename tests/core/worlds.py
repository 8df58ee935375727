"""Building hand-made worlds for rule tests: a real new_world, then exact placements."""

from __future__ import annotations

import dataclasses

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import new_world, step, sweep
from asteroids.core.inputs import InputFrame
from asteroids.core.outlines import rock_outlines
from asteroids.core.params import Params, params_for
from asteroids.core.rng import Pcg32
from asteroids.core.shots import first_hits
from asteroids.core.spawn import NewRock, append_rocks, make_outline, remove_all_rocks
from asteroids.core.world import SHOOTER_SAUCER, SHOOTER_SHIP, Draft, World


def config_with(**sections: dict) -> Config:
    """A Config with some fields of some sections replaced, e.g. ship={"thrust_px_per_s2": 0}."""
    cfg = Config()
    for name, changes in sections.items():
        if name == "obstacles":
            cfg = dataclasses.replace(cfg, obstacles=changes)
            continue
        section = getattr(cfg, name)
        nested = {}
        for key, value in changes.items():
            if isinstance(value, dict):
                nested[key] = dataclasses.replace(getattr(section, key), **value)
            else:
                nested[key] = value
        cfg = dataclasses.replace(cfg, **{name: dataclasses.replace(section, **nested)})
    return cfg


def quiet(cfg: Config) -> Config:
    """No saucers, so a rule test sees only what it set up."""
    return dataclasses.replace(cfg, saucers=dataclasses.replace(cfg.saucers, enabled=False))


CFG = quiet(Config())
"""The default rules without saucers: what most rule tests start from."""
P = params_for(CFG)
"""``CFG`` compiled."""
THRUST, LEFT, RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
FIRE, SHIELD = int(InputFrame.FIRE), int(InputFrame.SHIELD)
"""Buttons as plain int masks."""


def rock(size: int, x: float, y: float, vx: float = 0.0, vy: float = 0.0, *,
         cfg: Config | Params | None = None, round_radius: float | None = None, spin: int = 0,
         angle: int = 0, seed: int = 5) -> NewRock:
    """A rock; ``round_radius`` gives a regular 12-gon of that radius instead of a jagged one
    (the rules are compiled only for a jagged one: its outline follows them)."""
    if round_radius is not None:
        from asteroids.core.tables import COS, HEADING_STEPS, SIN
        step = HEADING_STEPS // 12
        outline = [(float(COS[i * step]) * round_radius, float(SIN[i * step]) * round_radius)
                   for i in range(12)]
        radius = round_radius
    else:
        outline, radius = make_outline(Pcg32(seed, 1), params_for(cfg or Config()), size)
    return NewRock(size, x, y, vx, vy, angle, spin, outline, radius)


def world_with(cfg: Config | Params, rocks: list[NewRock], *, seed: int = 1,
               **fields) -> World:
    """new_world(cfg, seed) with its asteroids replaced by ``rocks`` and ``fields`` set.

    The ship starts without the grace of a new game (``ship_grace`` 0, unless ``fields`` set
    it): a hand-made world tests one rule at a time, and the grace has tests of its own.
    """
    base = new_world(cfg, seed)
    d = Draft(base)
    d.ship_grace = 0
    remove_all_rocks(d)
    append_rocks(d, rocks)
    d.wave_weight = max(1, sum((7, 3, 1)[r.size] for r in rocks))
    for key, value in fields.items():
        setattr(d, key, value)
    return d.freeze()


def with_shots(world: World, shots: list[tuple[int, float, float, float, float, int]]) -> World:
    """Add shots (owner, x, y, vx, vy, ttl) to a world."""
    d = Draft(world)
    from asteroids.core.ship import add_shot
    for owner, x, y, vx, vy, ttl in shots:
        add_shot(d, owner, x, y, vx, vy, ttl)
    return d.freeze()


def shot_query_finds_hit(d: Draft, p: Params) -> bool:
    """Whether the full shot query (every shooter's shots against its targets) finds any hit
    this tick: what the step's reach check must never hide."""
    for owner in (SHOOTER_SHIP, SHOOTER_SAUCER):
        mine = np.flatnonzero(d.shot_owner == owner)
        if mine.shape[0] == 0:
            continue
        rocks = rock_outlines(d)
        points, offsets, motion, _ = sweep._targets(d, p, owner, rocks)
        if offsets.shape[0] == 1:
            continue
        starts = d.shot_pos[mine]
        hits = first_hits(starts, starts + d.shot_vel[mine], points, offsets,
                          world_size=(p.width, p.height), body_motion=motion)
        if (hits.body >= 0).any():
            return True
    return False


def run(world: World, cfg: Config | Params, inputs: list[int]) -> tuple[World, list]:
    """Step through ``inputs`` (``cfg`` compiled once); return the last world and all
    events."""
    out = []
    p = params_for(cfg)
    for mask in inputs:
        world, events = step(world, mask, p)
        out.extend(events)
    return world, out


def of(events: list, kind: type) -> list:
    """The events of one kind, in order."""
    return [e for e in events if isinstance(e, kind)]
