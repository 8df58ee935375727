"""The player's ship: turning, thrust, shield, hyperspace, firing, dying and coming back."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from asteroids.core import events as ev
from asteroids.core.batch_rows import any_per_game
from asteroids.core.craft import Craft, CraftRows
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.inputs import InputFrame
from asteroids.core.kinds import DEAD, FLYING, Cause, Kind
from asteroids.core.lanes import MANY, ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32, Pcg32Batch
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
    "enter_hyperspace",
    "fly",
    "hyperspace_death_chance",
    "jump_many",
    "kill_ship",
    "leave_hyperspace",
    "lose_ship",
    "lose_ships",
    "power_down",
    "read_buttons",
    "respawn",
    "rocks_clear_of_centre",
    "ship_clock",
    "ship_craft",
    "ship_timers_many",
    "ship_outline",
    "ship_outline_points",
    "ship_present",
    "ship_rows",
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
    length = p.ship_length_px
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
                 p.ship_shield_radius_px if d.shield_on else None, p.ship_shield_restitution)


def ship_rows(d: BatchDraft, p: Params) -> CraftRows:
    """The ship in every game as the batched pass's contact and shot phases see it, where
    it is now (what ``ship_craft`` is to one game)."""
    x, y, heading = d.ship_x, d.ship_y, d.ship_heading

    def outlines(games: np.ndarray) -> np.ndarray:
        points = ship_outline_points(MANY, p, x[games], y[games], heading[games])
        out = np.empty((games.shape[0], len(points), 2))
        for v, (px, py) in enumerate(points):
            out[:, v, 0] = px
            out[:, v, 1] = py
        return out

    return CraftRows(ship_present(d), x, y, d.ship_vx, d.ship_vy,
                     np.full(x.shape[0], p.ship_radius), outlines, d.shield_on,
                     p.ship_shield_radius_px, p.ship_shield_restitution)


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
    nose_x = d.ship_x + c * 0.5 * p.ship_length_px
    nose_y = d.ship_y + s * 0.5 * p.ship_length_px
    vx, vy = c * p.shots_speed_px_per_tick, s * p.shots_speed_px_per_tick
    if p.shots_inherit_velocity:
        vx, vy = vx + d.ship_vx, vy + d.ship_vy
    cap = p.shots_max_axis_speed_px_per_tick
    if cap > 0.0:
        vx, vy = L.clip(vx, -cap, cap), L.clip(vy, -cap, cap)
    return nose_x, nose_y, vx, vy


def _fire(d: Draft, p: Params, events: list[ev.Event]) -> None:
    live = int(np.count_nonzero(d.shot_owner == SHOOTER_SHIP))
    if live >= p.shots_max_alive:
        return
    x, y, vx, vy = shot_from_nose(ONE, d, p)
    add_shot(d, SHOOTER_SHIP, x, y, vx, vy, p.shots_lifetime_ticks)
    events.append(ev.ShotFired("ship", x, y))


def trigger(L: Lanes, d: Draft | BatchDraft, p: Params, b: Buttons) -> Any:
    """Whether a flying ship fires this tick: on the press, or when autofire's timer runs
    out while fire is held (both restart the timer); shared by both drivers."""
    pressed = b.flying & b.fire_pressed
    held = b.flying & (b.fire_pressed ^ True) & b.fire & p.shots_autofire
    timer = L.where(held, d.autofire_timer - 1, d.autofire_timer)
    shoot = pressed | (held & (timer <= 0))
    d.autofire_timer = L.where(shoot, p.shots_autofire_interval_ticks, timer)
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
    if not p.ship_shield_enabled:
        shield = shield & False
    return Buttons(fire, fire_pressed, hyper_pressed, flying, thrust, shield)


def fly(L: Lanes, d: Draft | BatchDraft, p: Params, mask: Any, b: Buttons) -> None:
    """A flying ship's tick of flight: shield energy, turn, thrust or drag, the speed limit
    (every game where ``b.flying``; shared by both drivers)."""
    flying = b.flying
    d.shield_energy = L.where(b.shield, d.shield_energy - 1, d.shield_energy)
    turn = L.where((mask & _LEFT) != 0, p.ship_turn_steps_per_tick, 0)
    turn = L.where((mask & _RIGHT) != 0, turn - p.ship_turn_steps_per_tick, turn)
    heading = (d.ship_heading + turn) % HEADING_STEPS
    d.ship_heading = L.where(flying, heading, d.ship_heading)
    vx, vy = d.ship_vx, d.ship_vy
    thrust = b.thrust
    vx = L.where(thrust, vx + L.take(COS_TABLE, heading) * p.ship_thrust_px_per_tick2,
                 vx * p.drag_keep)
    vy = L.where(thrust, vy + L.take(SIN_TABLE, heading) * p.ship_thrust_px_per_tick2,
                 vy * p.drag_keep)
    if p.axis_speed_limit:
        vx = L.clip(vx, -p.ship_max_speed_px_per_tick, p.ship_max_speed_px_per_tick)
        vy = L.clip(vy, -p.ship_max_speed_px_per_tick, p.ship_max_speed_px_per_tick)
    else:
        speed2 = vx * vx + vy * vy
        over = speed2 > p.ship_max_speed_px_per_tick * p.ship_max_speed_px_per_tick
        if over is not False:  # a Python False: one game under the limit, nothing to scale
            scale = p.ship_max_speed_px_per_tick / L.sqrt(L.where(over, speed2, 1.0))
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
        events.append(ev.ShieldChanged(b.shield, d.shield_energy / p.ship_shield_energy_ticks))
    if not b.flying:
        return
    fly(ONE, d, p, mask, b)
    if b.hyper_pressed and p.ship_hyperspace_enabled:
        events.append(ev.HyperspaceEntered(d.ship_x, d.ship_y))
        _power_events(d, p, enter_hyperspace(ONE, d, p, rng, True, d.ast_id.shape[0]), events)
        return
    if trigger(ONE, d, p, b):
        _fire(d, p, events)


def power_down(L: Lanes, d: Draft | BatchDraft, when: Any) -> tuple[Any, Any]:
    """Stop the ship where ``when``: no motion, engine and shield off. Returns where the
    engine and where the shield went off (each driver reports them, in that order, as
    ``ThrustChanged(False)`` and ``ShieldChanged(False, energy)``); shared by both drivers."""
    d.ship_vx = L.where(when, 0.0, d.ship_vx)
    d.ship_vy = L.where(when, 0.0, d.ship_vy)
    thrust_off = when & d.thrusting
    shield_off = when & d.shield_on
    d.thrusting = d.thrusting & (when ^ True)
    d.shield_on = d.shield_on & (when ^ True)
    return thrust_off, shield_off


def _power_events(d: Draft, p: Params, off: tuple[bool, bool], events: list[ev.Event]) -> None:
    """The events of ``power_down``'s answer for one game."""
    if off[0]:
        events.append(ev.ThrustChanged(False))
    if off[1]:
        events.append(ev.ShieldChanged(False, d.shield_energy / p.ship_shield_energy_ticks))


def enter_hyperspace(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, jump: Any,
                     rocks: Any) -> tuple[Any, Any]:
    """The ship jumps where ``jump`` (``rocks``: the rocks in its game): into hyperspace for
    ``hyper_ticks``, powered down, and, when jumps are risky, doomed or not by one draw
    from the game's stream. Returns ``power_down``'s answer; each driver reports
    ``HyperspaceEntered`` at the ship's place before it. Shared by both drivers."""
    d.ship_state = L.where(jump, SHIP_HYPERSPACE, d.ship_state)
    d.ship_timer = L.where(jump, p.ship_hyperspace_duration_ticks, d.ship_timer)
    off = power_down(L, d, jump)
    # 1979 (EnterHyprspc): a 5-bit roll; below 24 is safe, otherwise the jump fails when
    # (r & 7) * 2 + 4 >= the number of asteroids: riskiest on a near-empty screen.
    doomed: Any = False
    if p.ship_hyperspace_risky:
        r = L.below(rng, 32, jump)
        doomed = (r >= 24) & ((r & 7) * 2 + 4 >= rocks)
    d.ship_doomed = L.where(jump, doomed, d.ship_doomed)
    return off


def hyperspace_death_chance(asteroids: int) -> float:
    """The classic chance that a jump fails with ``asteroids`` rocks on screen (for docs/tests)."""
    fails = [r for r in range(24, 32) if (r & 7) * 2 + 4 >= asteroids]
    return len(fails) / 32


def lose_ship(L: Lanes, d: Draft | BatchDraft, p: Params, when: Any
              ) -> tuple[Any, Any, Any, Any]:
    """The ship explodes where ``when``: one life gone, the respawn timer set, powered
    down, or the game over when no life is left. Returns (``power_down``'s answer, the
    lives left as ``ShipDestroyed`` reports them, where the game ends); each driver reports
    the power-down, ``ShipDestroyed`` and ``GameOver`` in that order. Shared by both
    drivers."""
    d.ship_state = L.where(when, SHIP_DEAD, d.ship_state)
    left = d.lives - 1
    d.lives = L.where(when, left, d.lives)
    d.ship_timer = L.where(when, p.ship_respawn_delay_ticks, d.ship_timer)
    thrust_off, shield_off = power_down(L, d, when)
    over = when & (left <= 0)
    d.lives = L.where(over, 0, d.lives)
    d.game_over = d.game_over | over
    return thrust_off, shield_off, left, over


def kill_ship(d: Draft, p: Params, cause: str, events: list[ev.Event]) -> None:
    """Explode the ship (by ``cause``, its label): one life gone, the respawn timer set, or
    the game over (``lose_ship``), with its events."""
    thrust_off, shield_off, left, over = lose_ship(ONE, d, p, True)
    _power_events(d, p, (thrust_off, shield_off), events)
    events.append(ev.ShipDestroyed(d.ship_x, d.ship_y, cause, left))
    if over:
        events.append(ev.GameOver(d.score))


def rocks_clear_of_centre(pos: np.ndarray, radius: np.ndarray, p: Params) -> np.ndarray:
    """(N,) for each rock (rows: one game's or a batch's), whether it stays out of the
    ``safe_radius`` around the centre, where a ship respawns (shared by both drivers)."""
    delta = pos - np.array([0.5 * p.width, 0.5 * p.height])
    reach = radius + p.ship_safe_radius_px
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


def respawn(L: Lanes, d: Draft | BatchDraft, p: Params, when: Any) -> None:
    """The ship comes back where ``when``: at the centre, still, heading up, with a new
    grace (and a full shield when it refills); each driver reports ``ShipSpawned``. Shared
    by both drivers."""
    d.ship_state = L.where(when, SHIP_FLYING, d.ship_state)
    d.ship_x = L.where(when, 0.5 * p.width, d.ship_x)
    d.ship_y = L.where(when, 0.5 * p.height, d.ship_y)
    d.ship_vx = L.where(when, 0.0, d.ship_vx)
    d.ship_vy = L.where(when, 0.0, d.ship_vy)
    d.ship_heading = L.where(when, START_HEADING, d.ship_heading)
    d.ship_grace = L.where(when, p.per_tick["ship.grace_s"], d.ship_grace)
    if p.ship_shield_refill_per_wave:
        d.shield_energy = L.where(when, p.ship_shield_energy_ticks, d.shield_energy)


def leave_hyperspace(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, when: Any) -> Any:
    """The ship comes out of hyperspace where ``when``, at a random place inside the
    ``hyper_margin`` (two draws from the game's stream: x, then y). Returns whether it
    survived (a doomed jump kills it: ``lose_ship``); each driver reports
    ``HyperspaceExited``. Shared by both drivers."""
    m = p.ship_hyperspace_edge_margin
    d.ship_x = L.where(when, L.uniform(rng, m * p.width, (1.0 - m) * p.width, when), d.ship_x)
    d.ship_y = L.where(when, L.uniform(rng, m * p.height, (1.0 - m) * p.height, when),
                       d.ship_y)
    d.ship_state = L.where(when, SHIP_FLYING, d.ship_state)
    survived = d.ship_doomed ^ True
    d.ship_doomed = d.ship_doomed & (when ^ True)
    return survived


def update_ship_timers(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    """Count down respawn, hyperspace and the grace; bring the ship back when it may
    return (with a new grace)."""
    if not ship_clock(ONE, d):
        return
    if d.ship_state == SHIP_DEAD:
        if _area_clear(d, p):
            respawn(ONE, d, p, True)
            events.append(ev.ShipSpawned(d.ship_x, d.ship_y))
        return
    survived = leave_hyperspace(ONE, d, p, rng, True)
    events.append(ev.HyperspaceExited(d.ship_x, d.ship_y, survived))
    if not survived:
        kill_ship(d, p, Cause.HYPERSPACE.label, events)


# The batched drivers of the rules above: every game of a batch at once (``MANY``), each
# game drawing from its own stream, the events logged in each game's one-game order.

def _log_power_down(d: BatchDraft, p: Params, off: tuple[Any, Any], log: EventLog) -> None:
    log.emit(EventKind.THRUST_CHANGED, off[0], i0=0)
    log.emit(EventKind.SHIELD_CHANGED, off[1], i0=0, f=d.shield_energy / p.ship_shield_energy_ticks)


def jump_many(d: BatchDraft, p: Params, b: Buttons, rocks: np.ndarray, log: EventLog
              ) -> Buttons:
    """``control_ship``'s jump for every game of a batch (``rocks``: each game's count):
    where a flying ship's hyperspace is pressed, ``enter_hyperspace`` and its events.
    Returns the buttons with the jumping ships no longer flying (they do not fire)."""
    jump = b.flying & b.hyper_pressed & p.ship_hyperspace_enabled
    if not jump.any():
        return b
    log.emit(EventKind.HYPERSPACE_ENTERED, jump, x=d.ship_x, y=d.ship_y)
    rng = Pcg32Batch(d.rng_state, d.rng_inc)
    _log_power_down(d, p, enter_hyperspace(MANY, d, p, rng, jump, rocks), log)
    d.rng_state = rng.state
    return b._replace(flying=b.flying & ~jump)


def lose_ships(d: BatchDraft, p: Params, when: np.ndarray, cause: Cause | np.ndarray,
               log: EventLog) -> None:
    """``kill_ship`` for every game of ``when`` (by ``cause``: one, or each game's):
    ``lose_ship`` and its events."""
    thrust_off, shield_off, left, over = lose_ship(MANY, d, p, when)
    _log_power_down(d, p, (thrust_off, shield_off), log)
    log.emit(EventKind.SHIP_DESTROYED, when,
             i0=cause if isinstance(cause, np.ndarray) else int(cause), i1=left, x=d.ship_x,
             y=d.ship_y)
    log.emit(EventKind.GAME_OVER, over, i0=d.score)


def ship_timers_many(d: BatchDraft, p: Params, ast_game: np.ndarray, log: EventLog) -> None:
    """``update_ship_timers`` for every game of a batch (``ast_game``: the game of each
    rock): the clocks, then a respawn where the centre is clear and a hyperspace exit,
    each with its events."""
    back = ship_clock(MANY, d)
    if not back.any():
        return
    dead = back & (d.ship_state == DEAD)
    if dead.any():
        rows = dead[ast_game].nonzero()[0]  # the rocks of those games: ``_area_clear``
        near = ~rocks_clear_of_centre(d.ast_pos.take(rows, axis=0), d.ast_radius.take(rows), p)
        spawn = dead & ~d.saucer_alive & ~any_per_game(near, ast_game.take(rows),
                                                       back.shape[0])
        if spawn.any():
            respawn(MANY, d, p, spawn)
            log.emit(EventKind.SHIP_SPAWNED, spawn, x=d.ship_x, y=d.ship_y)
    out = back & ~dead
    if out.any():
        rng = Pcg32Batch(d.rng_state, d.rng_inc)
        survived = leave_hyperspace(MANY, d, p, rng, out)
        d.rng_state = rng.state
        log.emit(EventKind.HYPERSPACE_EXITED, out, i0=survived, x=d.ship_x, y=d.ship_y)
        lost = out & ~survived
        if lost.any():
            lose_ships(d, p, lost, Cause.HYPERSPACE, log)
