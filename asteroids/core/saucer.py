"""Flying saucers: when they come (with anti-lurking pressure), how they fly and aim.

Numbers follow the 1979 ROM (see shared research, classic-1979.md): a spawn interval that
shrinks with each saucer of the wave, a saucer that comes anyway when the player stops
breaking rocks, large saucers that fire at random and small ones that aim at the ship
(across the wrap seam) with an error that shrinks at high scores.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from asteroids.core import events as ev
from asteroids.core.craft import Craft
from asteroids.core.kinds import Cause, Kind
from asteroids.core.lanes import ONE, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.scalar import min_image1
from asteroids.core.ship import add_shot
from asteroids.core.tables import COS, HEADING_STEPS, SAUCER_OUTLINE, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, Draft

__all__ = ["SaucerClock", "aim_direction", "destroy_saucer", "saucer_clock", "saucer_craft",
           "saucer_outline", "update_saucer"]

_COS = tuple(COS.tolist())
_SIN = tuple(SIN.tolist())
_OUTLINE = SAUCER_OUTLINE


def saucer_outline(p: Params, x: Any, y: Any, small: Any) -> np.ndarray:
    """(8, 2) world-space outline of a saucer centred at (x, y); for (n,) arrays (one
    saucer per game), (n, 8, 2)."""
    if isinstance(x, np.ndarray):
        large, little = p.saucer_radius
        r = np.where(small, little, large)[:, None, None]
        return np.stack([x, y], axis=1)[:, None, :] + _OUTLINE * r
    r = p.saucer_radius[1 if small else 0]
    return np.array([x, y]) + _OUTLINE * r


def saucer_craft(d: Draft, p: Params) -> Craft | None:
    """The saucer as the contact and shot phases see it, or None when there is none."""
    if not d.saucer_alive:
        return None
    x, y, small = d.saucer_x, d.saucer_y, d.saucer_small
    return Craft(Kind.SAUCER, x, y, d.saucer_vx, d.saucer_vy, p.saucer_radius[1 if small else 0],
                 lambda: saucer_outline(p, x, y, small))


def destroy_saucer(d: Draft, p: Params, cause: Cause, scoring: bool,
                   events: list[ev.Event]) -> None:
    """The saucer breaks (claimed by ``cause``); the player scores it for a shot of the ship,
    or for ramming it when ``scoring.ramming_scores`` is on, unless ``scoring`` is off (after
    game over)."""
    by_player = cause == Cause.SHIP_SHOT or (cause == Cause.SHIP and p.ramming_scores)
    points = p.saucer_points[1 if d.saucer_small else 0] if by_player and scoring else 0
    d.score += points
    d.saucer_alive = False
    events.append(ev.SaucerDestroyed(d.saucer_small, d.saucer_x, d.saucer_y, cause.label,
                                     points))


def aim_direction(p: Params, sx: float, sy: float, tx: float, ty: float,
                  error_steps: int) -> tuple[float, float]:
    """Unit vector from the saucer at (sx, sy) toward (tx, ty), turned by ``error_steps``.

    When shots wrap, the target is its nearest image, so a saucer aims across the seam: the
    shot travels, so the shots' border rule decides, not the ship's.
    """
    dx, dy = tx - sx, ty - sy
    if p.wrap_shots:
        dx, dy = min_image1(dx, p.width), min_image1(dy, p.height)
    dist = math.sqrt(dx * dx + dy * dy)
    if dist == 0.0:
        ux, uy = 1.0, 0.0
    else:
        ux, uy = dx / dist, dy / dist
    k = error_steps % HEADING_STEPS
    c, s = _COS[k], _SIN[k]
    return c * ux - s * uy, s * ux + c * uy


def _spawn(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    if d.saucers_this_game < p.always_large:
        small = False
    elif d.score >= p.small_score:
        small = True
    else:
        # The shorter the interval has become, the likelier a small saucer.
        span = max(1, p.saucer_first_ticks - p.saucer_min_ticks)
        shrunk = p.saucer_first_ticks - d.saucer_interval
        small = rng.below(span) < shrunk
    r = p.saucer_radius[1 if small else 0]
    from_left = rng.below(2) == 0
    d.saucer_alive = True
    d.saucer_small = small
    d.saucer_x = 0.0 if from_left else p.width
    # The middle 70 % of the height, kept a radius from the top and bottom; a saucer too big
    # for that band (radius > 0.35 H) comes in at mid-height.
    lo, hi = max(0.15 * p.height, r), min(0.85 * p.height, p.height - r)
    if lo > hi:
        lo = hi = 0.5 * p.height
    d.saucer_y = rng.uniform(lo, hi)
    d.saucer_vx = p.saucer_speed if from_left else -p.saucer_speed
    d.saucer_vy = 0.0
    d.saucer_ticks_left = math.ceil(p.width / p.saucer_speed)
    d.saucer_fire_timer = p.saucer_fire_ticks
    d.saucer_zig_timer = p.zigzag_ticks
    d.saucers_this_game += 1
    events.append(ev.SaucerSpawned(small, d.saucer_x, d.saucer_y))


def _fire(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    live = int(np.count_nonzero(d.shot_owner == SHOOTER_SAUCER))
    if live >= p.saucer_max_shots:
        return
    if d.saucer_small and d.ship_state == SHIP_FLYING and not d.game_over:
        err = p.aim_error_expert_steps if d.score >= p.expert_score else p.aim_error_steps
        error = rng.between(-err, err) if err else 0
        # Aim where the ship will be next tick (the ROM's GetScrShpDistance).
        ux, uy = aim_direction(p, d.saucer_x, d.saucer_y, d.ship_x + d.ship_vx,
                               d.ship_y + d.ship_vy, error)
    else:
        k = rng.below(HEADING_STEPS)
        ux, uy = _COS[k], _SIN[k]
    speed = p.saucer_shot_speed
    add_shot(d, SHOOTER_SAUCER, d.saucer_x, d.saucer_y, ux * speed + 0.0, uy * speed + 0.0,
             p.saucer_shot_ticks)
    events.append(ev.ShotFired("saucer", d.saucer_x, d.saucer_y))


class SaucerClock(NamedTuple):
    """What the saucer's timers call for this tick, per game (see ``saucer_clock``)."""

    due: Any
    """The spawn timer ran out (a saucer comes unless the player is busy)."""
    leaving: Any
    """The saucer has crossed the screen."""
    zig: Any
    """Time to pick a new vertical speed (a draw)."""
    fire: Any
    """Time to fire (a draw)."""


def saucer_clock(L: Lanes, d: Draft) -> SaucerClock:
    """Count down the saucer's timers: the spawn timer while none flies during a wave; a
    flying saucer's time left, then (unless it leaves) its zig-zag and fire timers. What is
    due is left to the caller (shared by both drivers)."""
    alive = d.saucer_alive
    waiting = (alive ^ True) & (d.wave_timer < 0)
    timer = d.saucer_timer = L.where(waiting, d.saucer_timer - 1, d.saucer_timer)
    left = d.saucer_ticks_left = L.where(alive, d.saucer_ticks_left - 1, d.saucer_ticks_left)
    leaving = alive & (left <= 0)
    flying = alive & (leaving ^ True)
    zig = d.saucer_zig_timer = L.where(flying, d.saucer_zig_timer - 1, d.saucer_zig_timer)
    fire = d.saucer_fire_timer = L.where(flying, d.saucer_fire_timer - 1, d.saucer_fire_timer)
    return SaucerClock(waiting & (timer <= 0), leaving, flying & (zig <= 0), flying & (fire <= 0))


def update_saucer(d: Draft, p: Params, rng: Pcg32, events: list[ev.Event]) -> None:
    """One tick of saucer life: the spawn timer, the zig-zag, firing, leaving.

    The spawn timer runs during a wave. When it expires a saucer comes, unless the player
    broke a rock within ``lurk_ticks`` and enough rocks remain; an idle player (a "lurker")
    therefore gets saucers at an ever shorter interval.
    """
    if not p.saucers:
        return
    due, leaving, zig, fire = saucer_clock(ONE, d)
    if due:
        lurk_min = min(p.lurk_min + d.wave - 1, p.lurk_min_max)
        busy = d.since_break < p.lurk_ticks and d.ast_id.shape[0] >= lurk_min
        if busy:
            d.saucer_timer = d.saucer_interval
            return
        _spawn(d, p, rng, events)
        d.saucer_interval = max(p.saucer_min_ticks, d.saucer_interval - p.saucer_step_ticks)
        d.saucer_timer = d.saucer_interval
        return
    if leaving:
        d.saucer_alive = False
        events.append(ev.SaucerLeft(d.saucer_small))
        return
    if zig:
        d.saucer_zig_timer = p.zigzag_ticks
        choice = rng.below(4)  # {-1, 0, 0, +1}: level flight twice as likely (ScrYSpeedTbl)
        d.saucer_vy = (-p.saucer_speed, 0.0, 0.0, p.saucer_speed)[choice]
    if fire:
        d.saucer_fire_timer = p.saucer_fire_ticks
        _fire(d, p, rng, events)
