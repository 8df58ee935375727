"""The player's ship: turning, thrust, shield, hyperspace, firing, dying and coming back."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from asteroids.core import events as ev
from asteroids.core.craft import Craft
from asteroids.core.inputs import InputFrame
from asteroids.core.kinds import DEAD, FLYING, Cause, Kind
from asteroids.core.lanes import ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.tables import COS_TABLE, HEADING_STEPS, SHIP_OUTLINE, SIN_TABLE
from asteroids.core.world import (
    SHIP_DEAD,
    SHIP_FLYING,
    SHIP_HYPERSPACE,
    SHOOTER_SHIP,
    START_HEADING,
    Draft,
)

__all__ = [
    "START_HEADING",
    "Buttons",
    "add_shot",
    "control_ship",
    "fly",
    "hyperspace_death_chance",
    "kill_ship",
    "read_buttons",
    "rocks_clear_of_centre",
    "ship_clock",
    "ship_craft",
    "ship_outline",
    "ship_outline_points",
    "ship_present",
    "shot_from_nose",
    "trigger",
    "update_ship_timers",
]

_OUTLINE = tuple(map(tuple, SHIP_OUTLINE.tolist()))

_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER, _SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)


class Buttons(NamedTuple):
    """This tick's buttons as the ship reads them (Python bools for one game, ``(B,)`` bool
    arrays for a batch)."""

    fire: Any
    fire_pressed: Any
    hyper_pressed: Any
    flying: Any
    """The ship is in play (flying, game not over)."""
    thrust: Any
    shield: Any
    """The shield is up this tick."""


def ship_outline_points(L: Lanes, p: Params, x: Any, y: Any, heading: Any
                        ) -> list[tuple[Any, Any]]:
    """The ship's outline in the world, point by point: (x, y) of each vertex, for one
    ship or, through ``MANY``, one per game (shared by both drivers)."""
    k = heading % HEADING_STEPS
    c, s = L.take(COS_TABLE, k), L.take(SIN_TABLE, k)
    length = p.ship_length
    return [(x + (c * u - s * v) * length, y + (s * u + c * v) * length) for u, v in _OUTLINE]


def ship_outline(p: Params, x: float, y: float, heading: int) -> np.ndarray:
    """(4, 2) world-space outline of a ship at (x, y) with an integer heading."""
    return np.array(ship_outline_points(ONE, p, x, y, heading))


def ship_present(d: Draft | BatchDraft) -> Any:
    """Whether the contact and shot phases see the ship: flying, the game on, its grace over
    (one game's bool, or each game's); shared by both drivers."""
    return (d.ship_state == SHIP_FLYING) & (d.game_over ^ True) & (d.ship_grace == 0)


def ship_craft(d: Draft, p: Params) -> Craft | None:
    """The ship as the contact and shot phases see it, or None while nothing can touch it:
    exploded, in hyperspace, after game over, or in its grace (``ship_present``)."""
    if not ship_present(d):
        return None
    x, y, heading = d.ship_x, d.ship_y, d.ship_heading
    return Craft(Kind.SHIP, x, y, d.ship_vx, d.ship_vy, p.ship_radius,
                 lambda: ship_outline(p, x, y, heading),
                 p.shield_radius if d.shield_on else None, p.shield_restitution)


def add_shot(d: Draft, owner: int, x: float, y: float, vx: float, vy: float, ttl: int) -> None:
    """Append one shot whose head is at (x, y)."""
    d.shot_id = np.append(d.shot_id, np.int64(d.next_id))
    d.next_id += 1
    d.shot_owner = np.append(d.shot_owner, np.int64(owner))
    d.shot_pos = np.concatenate([d.shot_pos, np.array([[x, y]])])
    d.shot_vel = np.concatenate([d.shot_vel, np.array([[vx, vy]])])
    d.shot_ttl = np.append(d.shot_ttl, np.int64(ttl))


def shot_from_nose(L: Lanes, d: Draft | BatchDraft, p: Params) -> tuple[Any, Any, Any, Any]:
    """Where a shot of the ship starts (its nose) and its velocity: (x, y, vx, vy); shared
    by both drivers."""
    k = d.ship_heading % HEADING_STEPS
    c, s = L.take(COS_TABLE, k), L.take(SIN_TABLE, k)
    nose_x = d.ship_x + c * 0.5 * p.ship_length
    nose_y = d.ship_y + s * 0.5 * p.ship_length
    vx, vy = c * p.shot_speed, s * p.shot_speed
    if p.shot_inherit:
        vx, vy = vx + d.ship_vx, vy + d.ship_vy
    cap = p.shot_axis_cap
    if cap > 0.0:
        vx, vy = L.clip(vx, -cap, cap), L.clip(vy, -cap, cap)
    return nose_x, nose_y, vx, vy


def _fire(d: Draft, p: Params, events: list[ev.Event]) -> None:
    live = int(np.count_nonzero(d.shot_owner == SHOOTER_SHIP))
    if live >= p.shot_max:
        return
    x, y, vx, vy = shot_from_nose(ONE, d, p)
    add_shot(d, SHOOTER_SHIP, x, y, vx, vy, p.shot_ticks)
    events.append(ev.ShotFired("ship", x, y))


def trigger(L: Lanes, d: Draft | BatchDraft, p: Params, b: Buttons) -> Any:
    """Whether a flying ship fires this tick: on the press, or when autofire's timer runs
    out while fire is held (both restart the timer); shared by both drivers."""
    pressed = b.flying & b.fire_pressed
    held = b.flying & (b.fire_pressed ^ True) & b.fire & p.autofire
    timer = L.where(held, d.autofire_timer - 1, d.autofire_timer)
    shoot = pressed | (held & (timer <= 0))
    d.autofire_timer = L.where(shoot, p.autofire_ticks, timer)
    return shoot


def read_buttons(L: Lanes, d: Draft | BatchDraft, p: Params, mask: Any) -> Buttons:
    """This tick's buttons against last tick's (a press is the tick a button goes down),
    recorded as held; what the ship may do with them (shared by both drivers)."""
    fire = (mask & _FIRE) != 0
    hyper = (mask & _HYPER) != 0
    fire_pressed = fire & (d.fire_held ^ True)
    hyper_pressed = hyper & (d.hyper_held ^ True)
    d.fire_held, d.hyper_held = fire, hyper
    flying = (d.ship_state == FLYING) & (d.game_over ^ True)
    thrust = flying & ((mask & _THRUST) != 0)
    shield = flying & ((mask & _SHIELD) != 0) & (d.shield_energy > 0)
    if not p.shield_enabled:
        shield = shield & False
    return Buttons(fire, fire_pressed, hyper_pressed, flying, thrust, shield)


def fly(L: Lanes, d: Draft | BatchDraft, p: Params, mask: Any, b: Buttons) -> None:
    """A flying ship's tick of flight: shield energy, turn, thrust or drag, the speed limit
    (every game where ``b.flying``; shared by both drivers)."""
    flying = b.flying
    d.shield_energy = L.where(b.shield, d.shield_energy - 1, d.shield_energy)
    turn = L.where((mask & _LEFT) != 0, p.turn_steps, 0)
    turn = L.where((mask & _RIGHT) != 0, turn - p.turn_steps, turn)
    heading = (d.ship_heading + turn) % HEADING_STEPS
    d.ship_heading = L.where(flying, heading, d.ship_heading)
    vx, vy = d.ship_vx, d.ship_vy
    thrust = b.thrust
    vx = L.where(thrust, vx + L.take(COS_TABLE, heading) * p.thrust, vx * p.drag_keep)
    vy = L.where(thrust, vy + L.take(SIN_TABLE, heading) * p.thrust, vy * p.drag_keep)
    if p.axis_speed_limit:
        vx = L.clip(vx, -p.max_speed, p.max_speed)
        vy = L.clip(vy, -p.max_speed, p.max_speed)
    else:
        speed2 = vx * vx + vy * vy
        over = speed2 > p.max_speed * p.max_speed
        if over is not False:  # a Python False: one game under the limit, nothing to scale
            scale = p.max_speed / L.sqrt(L.where(over, speed2, 1.0))
            vx, vy = L.where(over, vx * scale, vx), L.where(over, vy * scale, vy)
    d.ship_vx = L.where(flying, vx + 0.0, d.ship_vx)
    d.ship_vy = L.where(flying, vy + 0.0, d.ship_vy)


def control_ship(d: Draft, p: Params, mask: int, rng: Pcg32, events: list[ev.Event]) -> None:
    """Apply one tick of input to a flying ship: turn, thrust, shield, hyperspace, fire.

    Firing and hyperspace act on the press (the tick the button goes down), so holding fire
    gives one shot unless autofire is on.
    """
    b = read_buttons(ONE, d, p, mask)
    if b.thrust != d.thrusting:
        d.thrusting = b.thrust
        events.append(ev.ThrustChanged(b.thrust))
    if b.shield != d.shield_on:
        d.shield_on = b.shield
        events.append(ev.ShieldChanged(b.shield, d.shield_energy / p.shield_ticks))
    if not b.flying:
        return
    fly(ONE, d, p, mask, b)
    if b.hyper_pressed and p.hyper_enabled:
        _enter_hyperspace(d, p, rng, events)
        return
    if trigger(ONE, d, p, b):
        _fire(d, p, events)


def _power_down(d: Draft, p: Params, events: list[ev.Event]) -> None:
    """Stop the ship: no motion, engine and shield off (with their events)."""
    d.ship_vx = d.ship_vy = 0.0
    if d.thrusting:
        d.thrusting = False
        events.append(ev.ThrustChanged(False))
    if d.shield_on:
        d.shield_on = False
        events.append(ev.ShieldChanged(False, d.shield_energy / p.shield_ticks))


def _enter_hyperspace(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    events.append(ev.HyperspaceEntered(d.ship_x, d.ship_y))
    d.ship_state = SHIP_HYPERSPACE
    d.ship_timer = p.hyper_ticks
    _power_down(d, p, events)
    # 1979 (EnterHyprspc): a 5-bit roll; below 24 is safe, otherwise the jump fails when
    # (r & 7) * 2 + 4 >= the number of asteroids: riskiest on a near-empty screen.
    d.ship_doomed = False
    if p.hyper_risky:
        r = rng.below(32)
        d.ship_doomed = r >= 24 and (r & 7) * 2 + 4 >= d.ast_id.shape[0]


def hyperspace_death_chance(asteroids: int) -> float:
    """The classic chance that a jump fails with ``asteroids`` rocks on screen (for docs/tests)."""
    fails = [r for r in range(24, 32) if (r & 7) * 2 + 4 >= asteroids]
    return len(fails) / 32


def kill_ship(d: Draft, p: Params, cause: Cause, events: list[ev.Event]) -> None:
    """Explode the ship (by ``cause``): one life gone, the respawn timer set, or the game
    over."""
    d.ship_state = SHIP_DEAD
    d.lives -= 1
    d.ship_timer = p.respawn_ticks
    _power_down(d, p, events)
    events.append(ev.ShipDestroyed(d.ship_x, d.ship_y, cause.label, d.lives))
    if d.lives <= 0:
        d.lives = 0
        d.game_over = True
        events.append(ev.GameOver(d.score))


def rocks_clear_of_centre(pos: np.ndarray, radius: np.ndarray, p: Params) -> np.ndarray:
    """(N,) for each rock (rows: one game's or a batch's), whether it stays out of the
    ``safe_radius`` around the centre, where a ship respawns (shared by both drivers)."""
    delta = pos - np.array([0.5 * p.width, 0.5 * p.height])
    reach = radius + p.safe_radius
    dx, dy = delta[:, 0], delta[:, 1]
    return (dx * dx + dy * dy) > reach * reach


def _area_clear(d: Draft, p: Params) -> bool:
    """True when no asteroid comes within ``safe_radius`` of the centre and no saucer flies."""
    if d.saucer_alive:
        return False
    if d.ast_id.shape[0] == 0:
        return True
    return bool(rocks_clear_of_centre(d.ast_pos, d.ast_radius, p).all())


def ship_clock(L: Lanes, d: Draft | BatchDraft) -> Any:
    """Count down the grace, the respawn and the hyperspace timers (not after game over);
    True where the ship may come back this tick: its respawn is due (if the centre is clear)
    or it leaves hyperspace. Shared by both drivers."""
    live = d.game_over ^ True
    d.ship_grace = L.where(live & (d.ship_grace > 0), d.ship_grace - 1, d.ship_grace)
    dead = live & (d.ship_state == DEAD)
    hyper = live & (d.ship_state == SHIP_HYPERSPACE)
    timer = d.ship_timer
    timer = d.ship_timer = L.where(hyper | (dead & (timer > 0)), timer - 1, timer)
    return (dead & (timer == 0)) | (hyper & (timer <= 0))


def update_ship_timers(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    """Count down respawn, hyperspace and the grace; bring the ship back when it may
    return (with a new grace)."""
    if not ship_clock(ONE, d):
        return
    if d.ship_state == SHIP_DEAD:
        if _area_clear(d, p):
            d.ship_state = SHIP_FLYING
            d.ship_x, d.ship_y = 0.5 * p.width, 0.5 * p.height
            d.ship_vx = d.ship_vy = 0.0
            d.ship_heading = START_HEADING
            d.ship_grace = p.per_tick["ship.grace_s"]
            if p.shield_refill:
                d.shield_energy = p.shield_ticks
            events.append(ev.ShipSpawned(d.ship_x, d.ship_y))
        return
    m = p.hyper_margin
    d.ship_x = rng.uniform(m * p.width, (1.0 - m) * p.width)
    d.ship_y = rng.uniform(m * p.height, (1.0 - m) * p.height)
    d.ship_state = SHIP_FLYING
    survived = not d.ship_doomed
    d.ship_doomed = False
    events.append(ev.HyperspaceExited(d.ship_x, d.ship_y, survived))
    if not survived:
        kill_ship(d, p, Cause.HYPERSPACE, events)
