"""Hyperspace: how long the jump lasts, powering down, where the ship comes back, the 1979
risk roll at its thresholds, jumping once per press, and hyperspace switched off."""

from __future__ import annotations

import functools

import pytest

from asteroids.config.schema import Config
from asteroids.core import InputFrame, state_hash, step
from asteroids.core import events as ev
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.ship import hyperspace_death_chance
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
)
from tests.core.worlds import CFG, SHIELD, THRUST, P, config_with, of, quiet, rock, world_with
from tests.core.worlds import run as run_inputs

HYPER = int(InputFrame.HYPERSPACE)


def far_rock(cfg: Config = CFG):
    """A still rock far from the centre and from the ship's line of fire (keeps the wave on)."""
    return rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def run(world, cfg, inputs):
    """Step through ``inputs`` (``cfg`` compiled once); return the last world and one event
    tuple per tick."""
    ticks = []
    p = params_for(cfg)
    for mask in inputs:
        world, events = step(world, mask, p)
        ticks.append(events)
    return world, ticks


SHIELDED = quiet_with(ship={"shield": {"enabled": True}})
PS = params_for(SHIELDED)
SAFE_HYPER = quiet_with(ship={"hyperspace": {"risky": False}})


@functools.cache
def _rng_first_roll(r: int) -> tuple[int, int]:
    """An rng (state, inc) whose first ``below(32)`` is ``r``."""
    for seed in range(10_000):
        state, inc = seed_state(seed)
        if Pcg32(state, inc).below(32) == r:
            return state, inc
    raise AssertionError(r)


def _rocks(n: int, cfg: Config = CFG):
    # Small still rocks along the top edge: outside the re-entry area and far from the centre.
    return [rock(2, 40.0 + 64.0 * i, 30.0, round_radius=5.0, cfg=cfg) for i in range(n)]


def test_hyperspace_lasts_exactly_hyper_ticks() -> None:
    w = world_with(SAFE_HYPER, [far_rock(SAFE_HYPER)])
    world, _ = run(w, SAFE_HYPER, [HYPER] + [0] * (P.ship_hyperspace_duration_ticks - 2))
    assert world.ship_state == SHIP_HYPERSPACE
    world, events = step(world, 0, SAFE_HYPER)
    assert world.ship_state == SHIP_FLYING
    assert [e.survived for e in of(events, ev.HyperspaceExited)] == [True]


def test_hyperspace_entry_powers_down_engine_and_shield() -> None:
    cfg = quiet_with(ship={"shield": {"enabled": True}})
    w = world_with(cfg, [far_rock(cfg)], ship_vx=1.0, ship_x=500.0, ship_y=300.0)
    world, events = step(w, THRUST | SHIELD | HYPER, cfg)
    n = PS.ship_shield_energy_ticks
    kinds = (ev.ThrustChanged, ev.ShieldChanged, ev.HyperspaceEntered)
    assert [e for e in events if isinstance(e, kinds)] == [
        ev.ThrustChanged(True), ev.ShieldChanged(True, 1.0), ev.HyperspaceEntered(500.0, 300.0),
        ev.ThrustChanged(False), ev.ShieldChanged(False, (n - 1) / n)]
    assert world.ship_state == SHIP_HYPERSPACE
    assert world.thrusting is False and world.shield_on is False
    assert (world.ship_vx, world.ship_vy) == (0.0, 0.0)
    _, events = step(world, THRUST | SHIELD, cfg)
    assert not of(events, ev.ThrustChanged) and not of(events, ev.ShieldChanged)


def test_hyperspace_reentry_is_drawn_inside_the_margins() -> None:
    cfg = quiet_with(ship={"hyperspace": {"risky": False, "edge_margin": 0.45}})
    p = params_for(cfg)
    world, _ = run(world_with(cfg, [far_rock(cfg)]), cfg,
                   [HYPER] + [0] * (p.ship_hyperspace_duration_ticks - 2))
    # Nothing else draws in the re-entry tick: x then y, uniform within the margins.
    rng = Pcg32(world.rng_state, world.rng_inc)
    x = rng.uniform(0.45 * p.width, 0.55 * p.width)
    y = rng.uniform(0.45 * p.height, 0.55 * p.height)
    world, events = step(world, 0, cfg)
    assert of(events, ev.HyperspaceExited) == [ev.HyperspaceExited(x, y, True)]
    assert (world.ship_x, world.ship_y) == (x, y)
    assert 0.45 * p.width <= x <= 0.55 * p.width and 0.45 * p.height <= y <= 0.55 * p.height


# The 1979 rule: roll r in [0, 32); the jump fails when r >= 24 and (r & 7) * 2 + 4 >= rocks.
@pytest.mark.parametrize("r,rocks,doomed", [
    (23, 1, False), (24, 1, True),     # the roll threshold
    (24, 4, True), (24, 5, False),     # r = 24: 0 * 2 + 4 = 4 rocks
    (25, 6, True), (25, 7, False),     # r = 25: 1 * 2 + 4 = 6 rocks
    (31, 18, True), (31, 19, False),   # r = 31: 7 * 2 + 4 = 18 rocks
])
def test_hyperspace_risk_at_the_rock_count_and_roll_thresholds(r: int, rocks: int,
                                                                doomed: bool) -> None:
    state, inc = _rng_first_roll(r)
    w = world_with(CFG, _rocks(rocks), rng_state=state, rng_inc=inc, lives=3)
    world, _ = step(w, HYPER, CFG)
    assert world.ship_doomed is doomed
    world, ticks = run(world, CFG, [0] * (P.ship_hyperspace_duration_ticks - 1))
    assert [e.survived for e in of(ticks[-1], ev.HyperspaceExited)] == [not doomed]
    if doomed:
        assert [e.cause for e in of(ticks[-1], ev.ShipDestroyed)] == ["hyperspace"]
        assert world.ship_state == SHIP_DEAD and world.lives == 2
    else:
        assert world.ship_state == SHIP_FLYING and world.lives == 3


@pytest.mark.parametrize("rocks,fatal_rolls", [(4, 8), (5, 7), (18, 1), (19, 0)])
def test_hyperspace_death_chance_matches_the_game_at_the_thresholds(rocks: int,
                                                                    fatal_rolls: int) -> None:
    doomed = 0
    for r in range(32):
        state, inc = _rng_first_roll(r)
        world, _ = step(world_with(P, _rocks(rocks), rng_state=state, rng_inc=inc), HYPER, P)
        doomed += world.ship_doomed
    assert doomed == fatal_rolls
    assert hyperspace_death_chance(rocks) == fatal_rolls / 32


def test_riskless_hyperspace_never_kills_even_on_a_fatal_roll() -> None:
    state, inc = _rng_first_roll(24)
    w = world_with(SAFE_HYPER, _rocks(1, SAFE_HYPER), rng_state=state, rng_inc=inc)
    world, _ = step(w, HYPER, SAFE_HYPER)
    assert world.ship_doomed is False
    state_hash(world)  # a replay hashes every tick
    world, ticks = run(world, SAFE_HYPER, [0] * (P.ship_hyperspace_duration_ticks - 1))
    assert [e.survived for e in of(ticks[-1], ev.HyperspaceExited)] == [True]
    assert world.ship_state == SHIP_FLYING


def test_holding_hyperspace_jumps_once() -> None:
    w = world_with(SAFE_HYPER, [far_rock(SAFE_HYPER)])
    world, ticks = run(w, SAFE_HYPER, [HYPER] * (P.ship_hyperspace_duration_ticks + 3))
    assert len(of([e for t in ticks for e in t], ev.HyperspaceEntered)) == 1
    assert world.ship_state == SHIP_FLYING


def test_hyperspace_disabled_does_nothing() -> None:
    cfg = quiet_with(ship={"hyperspace": {"enabled": False}})
    world, events = step(world_with(cfg, [far_rock(cfg)]), HYPER, cfg)
    assert world.ship_state == SHIP_FLYING and not of(events, ev.HyperspaceEntered)


@pytest.mark.parametrize("count,chance", [(1, 0.25), (4, 0.25), (5, 7 / 32), (10, 5 / 32),
                                          (18, 1 / 32), (19, 0.0), (27, 0.0)])
def test_hyperspace_risk_follows_the_1979_formula(count: int, chance: float) -> None:
    assert hyperspace_death_chance(count) == pytest.approx(chance)


def test_hyperspace_jumps_fail_at_the_classic_rate() -> None:
    deaths = 0
    jumps = 400
    for seed in range(jumps):
        w = world_with(P, [rock(0, 100.0, 100.0, round_radius=10.0)], seed=seed)
        w, events = step(w, int(InputFrame.HYPERSPACE), P)
        assert w.ship_state == SHIP_HYPERSPACE and of(events, ev.HyperspaceEntered)
        w, events = run_inputs(w, P, [0] * P.ship_hyperspace_duration_ticks)
        exits = of(events, ev.HyperspaceExited)
        assert len(exits) == 1
        margin = P.ship_hyperspace_edge_margin
        assert margin * P.width <= exits[0].x <= (1 - margin) * P.width
        deaths += not exits[0].survived
        if not exits[0].survived:
            assert of(events, ev.ShipDestroyed)[0].cause == "hyperspace"
    # One rock on screen: 8 of 32 rolls fail. 400 jumps: expect 100, sd ~8.7.
    assert 65 <= deaths <= 135


def test_hyperspace_without_risk_never_kills() -> None:
    cfg = params_for(config_with(ship={"hyperspace": {"risky": False}},
                                 saucers={"enabled": False}))
    for seed in range(40):
        w = world_with(cfg, [rock(0, 100.0, 100.0, round_radius=10.0, cfg=cfg)], seed=seed)
        w, events = run_inputs(w, cfg, [int(InputFrame.HYPERSPACE)] + [0] * 60)
        assert not of(events, ev.ShipDestroyed)
