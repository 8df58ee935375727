"""No ship is lost before the player can act: a grace when the ship appears, and a new wave's
rocks heading clear of it (``ship.grace_s`` and ``game.spawn_clearance_s``, new in 0.2.0).

The classic preset keeps the 1979 game (no grace, any heading), and every replay recorded
before these knobs existed plays with both at 0 (their ``before`` value).
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ProcessPoolExecutor

import pytest

from asteroids.config import load_config
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, step
from asteroids.core.params import params_for
from asteroids.core.ship import START_HEADING
from asteroids.core.world import SHIP_DEAD, SHOOTER_SAUCER
from tests.core.worlds import CFG, config_with, of, rock, run, with_shots, world_with

CX, CY = 640.0, 360.0
GRACE = params_for(CFG).per_tick["ship.grace_s"]
THREE_S = 180
"""3 s at the default 60 Hz."""


def test_the_default_grace_is_3_s_and_classic_has_none() -> None:
    assert GRACE == THREE_S
    assert new_world(CFG, 1).ship_grace == GRACE
    classic = load_config("classic")
    assert new_world(classic, 1).ship_grace == 0
    assert params_for(classic).per_tick["game.spawn_clearance_s"] == 0


def test_a_rock_on_the_ship_passes_through_for_exactly_the_grace() -> None:
    on_ship = [rock(0, CX, CY, round_radius=30.0)]
    world = world_with(CFG, on_ship, ship_grace=GRACE)
    world, events = run(world, CFG, [0] * GRACE)
    assert not of(events, ev.ShipDestroyed) and world.ship_grace == 0
    world, events = step(world, 0, CFG)  # one tick past the grace
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["asteroid"]


def test_no_grace_is_the_1979_game() -> None:
    cfg = config_with(ship={"grace_s": 0.0}, saucers={"enabled": False})
    world = new_world(cfg, 1)
    assert world.ship_grace == 0
    world = world_with(cfg, [rock(0, CX, CY, round_radius=30.0)])
    world, events = step(world, 0, cfg)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["asteroid"]


def test_each_return_brings_a_new_grace() -> None:
    world = world_with(CFG, [rock(0, 100.0, 100.0)], ship_state=SHIP_DEAD, ship_timer=1)
    world, events = step(world, 0, CFG)
    assert of(events, ev.ShipSpawned) and world.ship_grace == GRACE


@pytest.mark.parametrize(("grace", "dies"), [(1, False), (0, True)])
def test_saucer_shots_pass_through_a_ship_in_its_grace(grace: int, dies: bool) -> None:
    # A still saucer shot 4 px below the nose of a ship moving down into it this tick.
    world = world_with(CFG, [rock(0, 100.0, 100.0)], ship_vx=0.0, ship_vy=8.0,
                       ship_heading=START_HEADING, ship_grace=grace)
    world = with_shots(world, [(SHOOTER_SAUCER, CX, CY + 16.0, 0.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == (["saucer-shot"] if dies else [])


def _lost_within(cfg: Config, seeds: range, ticks: int) -> list[int]:
    """The seeds whose ship, never touching a control, is lost within ``ticks``."""
    lost = []
    p = params_for(cfg)  # compiled once for every seed's every tick
    for seed in seeds:
        world = new_world(p, seed)
        for _ in range(ticks):
            world, events = step(world, 0, p)
            if of(events, ev.ShipDestroyed):
                lost.append(seed)
                break
    return lost


def test_wave_rocks_head_clear_of_a_still_ship() -> None:
    """Without the grace, the headings alone keep an idle ship for 3 s; without them (as in
    0.1.0) some ships are rammed in that time."""
    no_grace = dataclasses.replace(CFG, ship=dataclasses.replace(CFG.ship, grace_s=0.0))
    as_before = dataclasses.replace(no_grace, game=dataclasses.replace(
        no_grace.game, spawn_clearance_s=0.0))
    seeds = range(200)
    assert _lost_within(no_grace, seeds, THREE_S) == []
    assert len(_lost_within(as_before, seeds, THREE_S)) >= 3


def _idle_losses(job: tuple[str, int, int]) -> list[int]:
    name, start, stop = job
    return _lost_within(load_config(name), range(start, stop), THREE_S)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["default", "arena"])
def test_an_idle_ship_is_never_lost_in_its_first_3_s(name: str) -> None:
    """Issue 22's bar: 1 000 seeds of the shipped rules, saucers and all."""
    jobs = [(name, 0, 500), (name, 500, 1000)]
    with ProcessPoolExecutor(2) as pool:
        lost = [seed for part in pool.map(_idle_losses, jobs) for seed in part]
    assert lost == []
