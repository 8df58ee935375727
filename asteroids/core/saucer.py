"""Flying saucers: when they come (with anti-lurking pressure), how they fly and aim.

Numbers follow the 1979 ROM (see shared research, classic-1979.md): a spawn interval that
shrinks with each saucer of the wave, a saucer that comes anyway when the player stops
breaking rocks, large saucers that fire at random and small ones that aim at the ship
(across the wrap seam) with an error that shrinks at high scores.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from asteroids.core import events as ev
from asteroids.core.craft import Craft, CraftRows
from asteroids.core.event_columns import EventKind, EventLog
from asteroids.core.kinds import Kind
from asteroids.core.lanes import MANY, ONE, BatchDraft, Lanes
from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.scoring import player_points
from asteroids.core.ship import add_shot
from asteroids.core.tables import COS_TABLE, HEADING_STEPS, SAUCER_OUTLINE, SIN_TABLE
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, Draft

__all__ = ["SaucerClock", "SaucerTurn", "aim_direction", "aim_toward", "break_saucer",
           "destroy_saucer", "destroy_saucers", "lurker_busy", "saucer_arrives", "saucer_clock",
           "saucer_craft", "saucer_outline", "saucer_rows", "saucer_shot", "saucer_turn",
           "update_saucer", "zigzag"]

_OUTLINE = SAUCER_OUTLINE


def saucer_outline(p: Params, x: Any, y: Any, small: Any) -> np.ndarray:
    """(8, 2) world-space outline of a saucer centred at (x, y); for (n,) arrays (one
    saucer per game), (n, 8, 2)."""
    if isinstance(x, np.ndarray):
        large, little = p.saucer_radius
        radii = np.where(small, little, large)[:, None, None]
        return np.stack([x, y], axis=1)[:, None, :] + _OUTLINE * radii
    r = p.saucer_radius[1 if small else 0]
    return np.array([x, y]) + _OUTLINE * r


def saucer_craft(d: Draft, p: Params) -> Craft | None:
    """The saucer as the contact and shot phases see it, or None when there is none."""
    if not d.saucer_alive:
        return None
    x, y, small = d.saucer_x, d.saucer_y, d.saucer_small
    return Craft(Kind.SAUCER, x, y, d.saucer_vx, d.saucer_vy, p.saucer_radius[1 if small else 0],
                 lambda: saucer_outline(p, x, y, small))


def saucer_rows(d: BatchDraft, p: Params) -> CraftRows:
    """The saucer in every game as the batched pass's contact and shot phases see it, where
    it is now (what ``saucer_craft`` is to one game)."""
    x, y, small = d.saucer_x, d.saucer_y, d.saucer_small
    large_r, small_r = p.saucer_radius
    return CraftRows(d.saucer_alive, x, y, d.saucer_vx, d.saucer_vy,
                     np.where(small, small_r, large_r),
                     lambda games: saucer_outline(p, x[games], y[games], small[games]),
                     np.zeros(x.shape[0], dtype=bool))


def destroy_saucer(d: Draft, p: Params, cause: int, label: str, scoring: bool,
                   events: list[ev.Event]) -> None:
    """The saucer breaks (claimed by ``cause``, called ``label``); the player scores it for a
    shot of the ship, or for ramming it when ``scoring.ramming_scores`` is on, unless
    ``scoring`` is off (after game over)."""
    points = break_saucer(ONE, d, p, True, cause, scoring)
    events.append(ev.SaucerDestroyed(d.saucer_small, d.saucer_x, d.saucer_y, label, points))


def break_saucer(L: Lanes, d: Draft | BatchDraft, p: Params, when: Any, cause: Any,
                 scoring: Any) -> Any:
    """The saucer breaks where ``when`` (claimed by ``cause``): gone, and scored for the
    player (``scoring.player_points``). Returns the points (0 elsewhere); each driver
    reports ``SaucerDestroyed``. Shared by both drivers."""
    points = L.where(when, player_points(L, p, p.saucer_points, L.where(d.saucer_small, 1, 0),
                                         cause, scoring), 0)
    d.score = d.score + points
    d.saucer_alive = d.saucer_alive & (when ^ True)
    return points


def destroy_saucers(d: BatchDraft, p: Params, cause: np.ndarray, log: EventLog) -> None:
    """``resolve``'s saucer for every game of a batch: where ``cause`` claimed a saucer
    still flying, ``break_saucer`` (scoring while the game is on) and its event."""
    when = (cause >= 0) & d.saucer_alive
    if when.any():
        points = break_saucer(MANY, d, p, when, cause, ~d.game_over)
        log.emit(EventKind.SAUCER_DESTROYED, when, i0=d.saucer_small, i2=cause, i3=points,
                 x=d.saucer_x, y=d.saucer_y)


def aim_direction(p: Params, sx: float, sy: float, tx: float, ty: float,
                  error_steps: int) -> tuple[float, float]:
    """Unit vector from the saucer at (sx, sy) toward (tx, ty), turned by ``error_steps``.

    When shots wrap, the target is its nearest image, so a saucer aims across the seam: the
    shot travels, so the shots' border rule decides, not the ship's.
    """
    return aim_toward(ONE, p, sx, sy, tx, ty, error_steps)


def aim_toward(L: Lanes, p: Params, sx: Any, sy: Any, tx: Any, ty: Any,
               error_steps: Any) -> tuple[Any, Any]:
    """``aim_direction`` for one game or, through ``MANY``, every game (shared)."""
    dx, dy = tx - sx, ty - sy
    if p.wrap_shots:
        dx, dy = L.min_image(dx, p.width), L.min_image(dy, p.height)
    dist = L.sqrt(dx * dx + dy * dy)
    zero = dist == 0.0
    if L.many:
        safe = L.where(zero, 1.0, dist)
        ux, uy = L.where(zero, 1.0, dx / safe), L.where(zero, 0.0, dy / safe)
    else:
        ux, uy = (1.0, 0.0) if zero else (dx / dist, dy / dist)
    k = error_steps % HEADING_STEPS
    c, s = L.take(COS_TABLE, k), L.take(SIN_TABLE, k)
    return c * ux - s * uy, s * ux + c * uy


def lurker_busy(L: Lanes, d: Draft | BatchDraft, p: Params, rocks: Any) -> Any:
    """Whether the player broke a rock within ``lurk_ticks`` and enough rocks remain, so a
    saucer that is due waits another interval (shared)."""
    lurk_min = L.minimum(p.saucers_lurk_min_asteroids + d.wave - 1,
                         p.saucers_lurk_min_asteroids_max)
    return (d.since_break < p.saucers_lurk_ticks) & (rocks >= lurk_min)


def saucer_arrives(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, when: Any) -> None:
    """A saucer comes where ``when``: large for the first ``always_large`` of a game, small
    from ``small_score`` on, else small with a chance that grows as the interval shrinks;
    from the left or right, at a random height in the middle band (draws, in this order:
    the size when chance decides it, the side, the height); shared by both drivers."""
    large_first = d.saucers_this_game < p.saucers_always_large_count
    expert = d.score >= p.saucers_small_score
    undecided = when & (large_first ^ True) & (expert ^ True)
    # The shorter the interval has become, the likelier a small saucer.
    span = max(1, p.saucers_first_interval_ticks - p.saucers_min_interval_ticks)
    roll = L.below(rng, span, undecided)
    small = L.where(large_first, False,
                    L.where(expert, True,
                            roll < p.saucers_first_interval_ticks - d.saucer_interval))
    large_r, small_r = p.saucer_radius
    r = L.where(small, small_r, large_r)
    from_left = L.below(rng, 2, when) == 0
    # The middle 70 % of the height, kept a radius from the top and bottom; a saucer too big
    # for that band (radius > 0.35 H) comes in at mid-height.
    lo, hi = L.maximum(0.15 * p.height, r), L.minimum(0.85 * p.height, p.height - r)
    squeezed = lo > hi
    lo = L.where(squeezed, 0.5 * p.height, lo)
    hi = L.where(squeezed, 0.5 * p.height, hi)
    y = L.uniform(rng, lo, hi, when)
    d.saucer_alive = d.saucer_alive | when
    d.saucer_small = L.where(when, small, d.saucer_small)
    d.saucer_x = L.where(when, L.where(from_left, 0.0, p.width), d.saucer_x)
    d.saucer_y = L.where(when, y, d.saucer_y)
    d.saucer_vx = L.where(when, L.where(from_left, p.saucers_speed_px_per_tick,
                                        -p.saucers_speed_px_per_tick),
                          d.saucer_vx)
    d.saucer_vy = L.where(when, 0.0, d.saucer_vy)
    d.saucer_ticks_left = L.where(when, math.ceil(p.width / p.saucers_speed_px_per_tick),
                                  d.saucer_ticks_left)
    d.saucer_fire_timer = L.where(when, p.saucers_fire_interval_ticks, d.saucer_fire_timer)
    d.saucer_zig_timer = L.where(when, p.saucers_zigzag_interval_ticks, d.saucer_zig_timer)
    d.saucers_this_game = L.where(when, d.saucers_this_game + 1, d.saucers_this_game)
    interval = L.maximum(p.saucers_min_interval_ticks,
                         d.saucer_interval - p.saucers_interval_step_ticks)
    d.saucer_interval = L.where(when, interval, d.saucer_interval)
    d.saucer_timer = L.where(when, interval, d.saucer_timer)


def zigzag(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, when: Any) -> None:
    """A new vertical speed where ``when``: down, level, level or up (one draw; level flight
    twice as likely, the ROM's ScrYSpeedTbl); shared."""
    choice = L.below(rng, 4, when)
    d.saucer_zig_timer = L.where(when, p.saucers_zigzag_interval_ticks, d.saucer_zig_timer)
    speeds = (-p.saucers_speed_px_per_tick, 0.0, 0.0, p.saucers_speed_px_per_tick)
    d.saucer_vy = L.where(when, L.take(speeds, choice), d.saucer_vy)


def saucer_shot(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, when: Any
                ) -> tuple[Any, Any, Any, Any]:
    """The shot a saucer fires where ``when`` (a game with room for it): (x, y, vx, vy). A
    small saucer aims at where the ship will be next tick, off by a drawn error; a large
    one fires at a drawn heading. Shared by both drivers."""
    aiming = when & d.saucer_small & (d.ship_state == SHIP_FLYING) & (d.game_over ^ True)
    err = L.where(d.score >= p.saucers_expert_score, p.saucers_aim_error_expert_steps,
                  p.saucers_aim_error_steps)
    error = L.between(rng, -err, err, aiming & (err != 0))
    k = L.below(rng, HEADING_STEPS, when & (aiming ^ True))
    if L.many or aiming:
        # Aim where the ship will be next tick (the ROM's GetScrShpDistance).
        ux, uy = aim_toward(L, p, d.saucer_x, d.saucer_y, d.ship_x + d.ship_vx,
                            d.ship_y + d.ship_vy, error)
        ux = L.where(aiming, ux, L.take(COS_TABLE, k))
        uy = L.where(aiming, uy, L.take(SIN_TABLE, k))
    else:
        ux, uy = COS_TABLE[k], SIN_TABLE[k]
    speed = p.saucers_shot_speed_px_per_tick
    return d.saucer_x, d.saucer_y, ux * speed + 0.0, uy * speed + 0.0


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


def saucer_clock(L: Lanes, d: Draft | BatchDraft) -> SaucerClock:
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
    if not p.saucers_enabled:
        return
    turn = saucer_turn(ONE, d, p, rng, d.ast_id.shape[0],
                       lambda: int(np.count_nonzero(d.shot_owner == SHOOTER_SAUCER)))
    if turn.arrived:
        events.append(ev.SaucerSpawned(d.saucer_small, d.saucer_x, d.saucer_y))
    elif turn.left:
        events.append(ev.SaucerLeft(d.saucer_small))
    elif turn.fired:
        x, y, vx, vy = turn.shot
        add_shot(d, SHOOTER_SAUCER, x, y, vx, vy, p.saucers_shot_lifetime_ticks)
        events.append(ev.ShotFired("saucer", x, y))


class SaucerTurn(NamedTuple):
    """What the saucer did this tick, per game (``saucer_turn``): each driver reports it and
    adds the shot to its rows."""

    arrived: Any
    """A saucer came (``SaucerSpawned``)."""
    left: Any
    """The saucer crossed the screen and left (``SaucerLeft``)."""
    fired: Any
    """The saucer fired ``shot`` (``ShotFired``)."""
    shot: tuple[Any, Any, Any, Any] | None
    """(x, y, vx, vy) of the shot where ``fired`` (None where no game fired)."""


def saucer_turn(L: Lanes, d: Draft | BatchDraft, p: Params, rng: Any, rocks: Any,
                shots_alive: Callable[[], Any]) -> SaucerTurn:
    """Phase 2 of the saucer (saucers on), one text for one game and many: its timers
    (``saucer_clock``); when the spawn timer runs out a saucer comes, unless the player is
    busy (``lurker_busy``: the timer starts again); a saucer that has crossed leaves; a
    flying one zig-zags and fires when their timers run out (the fire timer starts again
    even with ``max_shots`` of its shots in flight, when it holds its fire). The draws, in
    each game's order: arriving, or the zig-zag then the shot. ``rocks``: the rocks in each
    game; ``shots_alive()``: its shots in flight in each game (asked only when one fires)."""
    due, leaving, zig, fire = saucer_clock(L, d)
    busy = due & lurker_busy(L, d, p, rocks)
    d.saucer_timer = L.where(busy, d.saucer_interval, d.saucer_timer)
    arrive = due & (busy ^ True)
    # Each rule changes (and draws for) only the games its mask names: where it names none,
    # skipping it changes nothing.
    if _any(L, arrive):
        saucer_arrives(L, d, p, rng, arrive)
    d.saucer_alive = d.saucer_alive & (leaving ^ True)
    if _any(L, zig):
        zigzag(L, d, p, rng, zig)
    d.saucer_fire_timer = L.where(fire, p.saucers_fire_interval_ticks, d.saucer_fire_timer)
    fired = fire & (shots_alive() < p.saucers_max_shots) if _any(L, fire) else fire
    shot = saucer_shot(L, d, p, rng, fired) if _any(L, fired) else None
    return SaucerTurn(arrive, leaving, fired, shot)


def _any(L: Lanes, mask: Any) -> bool:
    """Whether ``mask`` names a game (one game's bool, or any of a batch's)."""
    return bool(mask.any()) if L.many else bool(mask)
