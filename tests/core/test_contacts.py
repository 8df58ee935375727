"""Contacts (``core/touch.py`` over ``core/bodies.py``): which rock the ship or the saucer
breaks, bounding circles touching exactly, across the seam only when something wraps, and
who is claimed first."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from asteroids.config.rule_tables import Obstacle
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import step
from asteroids.core.bodies import CONTACTS, CRAFT, HIT_OF, KIND_HIT, SHOT_CAUSE, SHOT_TARGETS
from asteroids.core.frame import NO_CLAIM, Frame
from asteroids.core.kinds import Cause, Kind, Shooter
from asteroids.core.params import params_for
from asteroids.core.ship import ship_outline
from asteroids.core.spawn import NewRock
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.touch import near_rows, rocks_near
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SAUCER,
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, with_shots, world_with

W, H = P.width, P.height
CX, CY = 0.5 * P.width, 0.5 * P.height


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


def below(x: float) -> float:
    return math.nextafter(x, -math.inf)


def above(x: float) -> float:
    return math.nextafter(x, math.inf)


def ball(x: float, y: float, vx: float = 0.0, vy: float = 0.0, r: float = 10.0, *,
         cfg: Config = CFG, size: int = 2, **kw) -> NewRock:
    """A round (12-gon) rock; small by default so that breaking it leaves no fragments."""
    return rock(size, x, y, vx, vy, round_radius=r, cfg=cfg, **kw)


def far_rock(cfg: Config = CFG) -> NewRock:
    """A still rock out of everyone's way (keeps the wave going)."""
    return ball(100.0, 100.0, r=5.0, cfg=cfg)


def _saucer(cfg: Config, x: float, y: float, vx: float, vy: float, **fields):
    """A saucer (large unless told) in flight whose timers will not run out in a few ticks."""
    fields.setdefault("saucer_small", False)
    rocks = fields.pop("rocks", [far_rock(cfg)])
    return world_with(cfg, rocks, saucer_alive=True, saucer_x=x,
                      saucer_y=y, saucer_vx=vx, saucer_vy=vy, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100, **fields)


SQUARE = ((580.0, 180.0), (620.0, 180.0), (620.0, 220.0), (580.0, 220.0))


def pillars(*obstacles: tuple[tuple[float, float], ...], borders: str = "wrap",
            saucers: bool = False) -> Config:
    """Shots ricochet off ``obstacles`` (default: SQUARE); borders wrap or bounce."""
    cfg = config_with(obstacles=tuple(Obstacle(points=o) for o in obstacles or (SQUARE,)),
                      shots={"at_obstacles": "ricochet"},
                      borders={"asteroids": borders, "ship": borders, "shots": borders,
                               "saucers": borders})
    return cfg if saucers else quiet(cfg)


def far(cfg: Config):
    return rock(0, 1000.0, 600.0, round_radius=10.0, cfg=cfg)


BOUNCE_ALL = quiet(config_with(borders={"asteroids": "bounce", "ship": "bounce",
                                        "shots": "bounce", "saucers": "bounce"}))


@pytest.mark.parametrize("borders,rock,centre,found", [
    ("wrap", (125.0, 300.0), (100.0, 300.0), True),
    ("wrap", (above(125.0), 300.0), (100.0, 300.0), False),
    ("wrap", (115.0, 320.0), (100.0, 300.0), True),  # 15 by 20: 25 apart
    ("wrap", (115.0, above(320.0)), (100.0, 300.0), False),
    ("wrap", (W - 25.0, 300.0), (0.0, 300.0), True),  # across the seam
    ("wrap", (below(W - 25.0), 300.0), (0.0, 300.0), False),
    ("wrap", (300.0, H - 25.0), (300.0, 0.0), True),
    ("wrap", (300.0, below(H - 25.0)), (300.0, 0.0), False),
    ("bounce", (125.0, 300.0), (100.0, 300.0), True),
    ("bounce", (above(125.0), 300.0), (100.0, 300.0), False),
    ("bounce", (W - 25.0, 300.0), (0.0, 300.0), False),  # no seam when nothing wraps
    ("bounce", (300.0, H - 25.0), (300.0, 0.0), False),
])
def test_near_counts_bounding_circles_touching_exactly(borders: str, rock, centre,
                                                       found: bool) -> None:
    # A rock of radius 10 against a circle of radius 15: they touch at 25 apart.
    cfg = quiet_with(borders={k: borders for k in ("asteroids", "ship", "shots", "saucers")})
    world = world_with(cfg, [ball(*rock, cfg=cfg)])
    near = rocks_near(Draft(world), params_for(cfg), centre, 15.0)
    assert near.tolist() == ([0] if found else [])


def test_ship_touching_two_rocks_breaks_the_lowest_index_only() -> None:
    world = world_with(CFG, [ball(CX + 5.0, CY), ball(CX - 5.0, CY), far_rock()])
    world, events = step(world, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(e.x, e.by) for e in broken] == [(CX + 5.0, "ship")]
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.ast_pos[:, 0].tolist() == [CX - 5.0, 100.0]


def test_rock_claimed_by_a_shot_is_not_claimed_again_by_the_ship() -> None:
    # A shot from the right breaks rock 0 this tick; the ship, touching both, breaks rock 1.
    world = world_with(CFG, [ball(CX + 5.0, CY), ball(CX - 5.0, CY), far_rock()])
    world = with_shots(world, [(SHOOTER_SHIP, CX + 40.0, CY, -30.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    broken = of(events, ev.AsteroidDestroyed)
    assert [(e.x, e.by) for e in broken] == [(CX + 5.0, "ship-shot"), (CX - 5.0, "ship")]
    assert of(events, ev.ShipDestroyed)[0].cause == "asteroid"
    assert world.ast_pos[:, 0].tolist() == [100.0]


def test_ship_breaks_the_rock_whose_outline_it_touches_not_the_nearer_circle() -> None:
    # The ship points +x: its outline reaches y = 364.8 above the centre at x = CX. Rock 0
    # (radius 4, 14 above) has its bounding circle inside the ship's but its outline clear of
    # it; rock 1 (radius 30, 30 below) reaches up to the centre line.
    world = world_with(CFG, [ball(CX, CY + 14.0, r=4.0), ball(CX, CY - 30.0, r=30.0),
                             far_rock()], ship_heading=0)
    world, events = step(world, 0, CFG)
    assert [(e.x, e.y) for e in of(events, ev.AsteroidDestroyed)] == [(CX, CY - 30.0)]
    assert world.ast_pos[:, 1].tolist() == [CY + 14.0, 100.0]


@pytest.mark.parametrize("rock_x,hit", [(W - 3.0, True), (W - 20.0, False)])
def test_ship_meets_a_rock_across_the_seam(rock_x: float, hit: bool) -> None:
    # The ship points up at x = 5, its tail corners 9.6 to either side (x = -4.6 is W - 4.6).
    # A rock of radius 10 at W - 3 overlaps it across the seam; at W - 20 its bounding circle
    # still reaches the ship's but its outline stops short of the tail.
    world = world_with(CFG, [ball(rock_x, CY), far_rock()], ship_x=5.0)
    _, events = step(world, 0, CFG)
    assert bool(of(events, ev.ShipDestroyed)) == hit
    assert len(of(events, ev.AsteroidDestroyed)) == int(hit)


@pytest.mark.parametrize("borders,hit", [("wrap", True), ("bounce", False)])
def test_ship_meets_a_saucer_at_the_far_edge_only_across_a_seam(borders: str, hit: bool) -> None:
    # A large saucer (half-width 20) at x = W, the ship (pointing up) at x = 16: its tail
    # corners at x = 6.4 are 13.6 px inside the saucer across the border, which is a seam only
    # when something wraps.
    cfg = config_with(borders={k: borders for k in ("asteroids", "ship", "shots", "saucers")})
    world = _saucer(cfg, W, CY, 0.0, 0.0, ship_x=16.0)
    _, events = step(world, 0, cfg)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == (["ship"] if hit else [])
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == (["saucer"] if hit else [])


@pytest.mark.parametrize("fields", [
    {"ship_state": SHIP_DEAD, "ship_timer": 100},
    {"ship_state": SHIP_HYPERSPACE, "ship_timer": 100},
    {"ship_state": SHIP_FLYING, "game_over": True},
])
def test_ship_out_of_play_is_not_hit_by_a_rock(fields) -> None:
    world = world_with(CFG, [ball(CX, CY), far_rock()], **fields)
    world, events = step(world, 0, CFG)
    assert not of(events, ev.AsteroidDestroyed) and not of(events, ev.ShipDestroyed)
    assert world.asteroid_count == 2


def test_a_rock_shot_while_it_touches_the_ship_does_not_kill_it() -> None:
    # The rock over the ship's nose is broken by a shot this tick; with that rock claimed,
    # no rock touches the ship, so it flies on and the far rock stays whole.
    cfg = quiet(Config())
    near = rock(2, 650.0, 360.0, round_radius=5.0, cfg=cfg)
    w = world_with(cfg, [near, far(cfg)], ship_heading=0)
    world, events = step(with_shots(w, [(SHOOTER_SHIP, 665.0, 360.0, -12.0, 0.0, 30)]), 0, cfg)
    assert [(b.x, b.y, b.by) for b in of(events, ev.AsteroidDestroyed)] == [
        (650.0, 360.0, "ship-shot")]
    assert world.ship_state == SHIP_FLYING and not of(events, ev.ShipDestroyed)


def test_a_ship_tail_corner_half_a_pixel_into_the_saucer_tip_rams_it() -> None:
    # The ship's farthest points are its tail corners, ship_radius = 15.37 px from its
    # centre; the saucer's are its tips, 20 px. Turned so a tail corner points along +x,
    # the ship meets the large saucer's left tip 0.5 px deep: 34.87 px apart, within the
    # sum of the two radii (35.37) but not within that sum less 1 px (34.37).
    cfg = pillars(saucers=True)
    cfg = dataclasses.replace(cfg, obstacles=())
    p = params_for(cfg)
    heading = round(-math.atan2(9.6, -12.0) / (2 * math.pi) * HEADING_STEPS) % HEADING_STEPS
    corner = max(ship_outline(p, 640.0, 360.0, heading).tolist())
    assert corner[0] - 640.0 == pytest.approx(p.ship_radius, abs=1e-3)
    w = world_with(cfg, [far(cfg)], ship_heading=heading, saucer_alive=True, saucer_small=False,
                   saucer_x=corner[0] + 19.5, saucer_y=corner[1], saucer_vx=0.0, saucer_vy=0.0,
                   saucer_ticks_left=100, saucer_fire_timer=100, saucer_zig_timer=100)
    world, events = step(w, 0, cfg)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == ["ship"]
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]


def test_ship_and_saucer_do_not_touch_across_a_border_that_does_not_wrap() -> None:
    # The saucer enters at the right edge while the ship sits at the left edge: 20 px apart
    # across the seam, but nothing wraps, so they are a screen apart.
    cfg = BOUNCE_ALL
    p = params_for(cfg)
    w = world_with(cfg, [rock(0, 640.0, 600.0, round_radius=10.0, cfg=cfg)],
                   ship_x=15.0, ship_y=300.0, saucer_alive=True, saucer_small=False,
                   saucer_x=p.width - 5.0, saucer_y=300.0, saucer_ticks_left=100,
                   saucer_fire_timer=100, saucer_zig_timer=100)
    world, events = step(w, 0, cfg)
    assert not of(events, ev.ShipDestroyed) and not of(events, ev.SaucerDestroyed)
    assert world.saucer_alive and world.ship_state == SHIP_FLYING
    # The same two, 20 px apart on the screen, do touch.
    near = world_with(cfg, [rock(0, 640.0, 600.0, round_radius=10.0, cfg=cfg)],
                      ship_x=615.0, ship_y=300.0, saucer_alive=True, saucer_small=False,
                      saucer_x=635.0, saucer_y=300.0, saucer_ticks_left=100,
                      saucer_fire_timer=100, saucer_zig_timer=100)
    _, events = step(near, 0, cfg)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]


def test_the_saucer_meets_a_rock_in_the_tick_a_saucer_shot_kills_the_ship() -> None:
    # The ship is claimed by a saucer shot before the contacts are decided; the saucer, over a
    # rock across the screen, still breaks it and dies of it in the same tick.
    world = _saucer(CFG, 300.0, 200.0, 0.0, 0.0,
                    rocks=[ball(320.0, 200.0, r=15.0, size=0), far_rock()])
    world = with_shots(world, [(SHOOTER_SAUCER, CX + 12.0, CY, -12.0, 0.0, 30)])
    world, events = step(world, 0, CFG)
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer-shot"]
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == ["asteroid"]
    assert [(e.x, e.by) for e in of(events, ev.AsteroidDestroyed)] == [(320.0, "saucer")]
    assert not world.saucer_alive


@pytest.mark.parametrize("rocks", [0, 1])
def test_ship_rams_the_saucer_with_or_without_rocks_on_the_screen(rocks: int) -> None:
    # Between waves the screen can be empty of rocks while the saucer flies: the ship and the
    # saucer still meet.
    world = _saucer(CFG, CX + 20.0, CY, 0.0, 0.0, rocks=[far_rock()] * rocks)
    world, events = step(world, 0, CFG)
    assert [e.by for e in of(events, ev.SaucerDestroyed)] == ["ship"]
    assert [e.cause for e in of(events, ev.ShipDestroyed)] == ["saucer"]


# --- the tables of who meets whom ------------------------------------------------------------


def test_every_kind_of_craft_is_in_the_tables() -> None:
    """``bodies.py`` is where a kind of body is declared: every kind but the rocks is a craft
    with a view, meets something, can be hit and is named in a shot-sweep record."""
    craft = set(Kind) - {Kind.ROCK}
    assert set(CRAFT) == craft == set(HIT_OF)
    assert {KIND_HIT[HIT_OF[k]] for k in craft} == craft
    assert craft <= {c.craft for c in CONTACTS} | {c.other for c in CONTACTS}
    assert set(SHOT_TARGETS) == set(SHOT_CAUSE) == set(Shooter)
    assert set().union(*SHOT_TARGETS.values()) == craft
    assert all(c.craft != Kind.ROCK and c.craft != c.other for c in CONTACTS)


def test_contacts_are_decided_in_table_order() -> None:
    """The ship is decided against the rocks before the saucer is, and the ship and the saucer
    meet last: a ship that rams a rock cannot also ram the saucer in the same tick."""
    assert [(c.craft, c.other) for c in CONTACTS] == [
        (Kind.SHIP, Kind.ROCK), (Kind.SAUCER, Kind.ROCK), (Kind.SHIP, Kind.SAUCER)]


# --- the tick's claims -----------------------------------------------------------------------


@pytest.mark.parametrize("first", list(Cause))
def test_the_first_claim_on_a_craft_or_a_rock_wins_whatever_its_cause(first: Cause) -> None:
    """``Frame`` keeps the first claim on each target, a ship shot's (``Cause`` 0) included:
    a later claim in the same tick (a rock the saucer flies into after a ship shot hit it)
    changes neither what claimed the target nor what the events will name."""
    frame = Frame(rocks=3)
    assert not frame.claimed(Kind.SAUCER) and frame.rock_by is None
    frame.claim(Kind.SAUCER, first)
    frame.claim_rock(1, first)
    for later in Cause:
        frame.claim(Kind.SAUCER, later)
        frame.claim_rock(1, later)
    assert frame.claimed(Kind.SAUCER) and frame.cause(Kind.SAUCER) is first
    assert not frame.claimed(Kind.SHIP)
    assert frame.rock_by.tolist() == [NO_CLAIM, first, NO_CLAIM]
    assert frame.unclaimed(np.arange(3)).tolist() == [0, 2]


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
def test_near_rows_of_many_games_equal_each_games_own(borders: str) -> None:
    """The batch asks about hundreds of rocks at once (x and y apart), a game about its own
    few (as rows): the same answers, circles touching exactly and the seam included."""
    cfg = quiet_with(borders={k: borders for k in ("asteroids", "ship", "shots", "saucers")})
    p = params_for(cfg)
    rng = np.random.default_rng(5)
    n = 400
    pos = rng.uniform(0.0, 1.0, (n, 2)) * p.size
    radius = rng.choice([8.0, 16.0, 32.0], n)
    centre = rng.uniform(0.0, 1.0, (n, 2)) * p.size
    centre[:40] = pos[:40] + np.array([radius[:40] + 15.0, np.zeros(40)]).T  # touching
    centre[40:80] = pos[40:80] - [p.size[0] - 1.0, 0.0]  # across the seam
    many = near_rows(pos, radius, centre, 15.0, p)
    one = np.concatenate([near_rows(pos[i:i + 8], radius[i:i + 8], centre[i:i + 8], 15.0, p)
                          for i in range(0, n, 8)])
    assert many.tolist() == one.tolist()
    assert many[:40].all()
