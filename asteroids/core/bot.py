"""A simple deterministic pilot: for soak tests, benchmarks, golden replays and attract mode.

It reads only the World and answers with an input mask, using cross and dot products (no
trigonometry), so a bot game is as reproducible as a recorded one.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.geometry import wrap_delta
from asteroids.core.inputs import InputFrame
from asteroids.core.params import Params, params_for
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP, World

__all__ = ["BOTS", "Bot", "aimer_bot", "bot_for", "bot_input", "idle_bot", "spinner_bot"]

_COS = COS.tolist()
_SIN = SIN.tolist()


def bot_input(world: World, width: float, height: float, style: int = 0) -> int:
    """The bot's buttons for this tick.

    It turns toward the nearest asteroid (across the wrap seam), fires in bursts when
    roughly aligned, thrusts now and then, and jumps to hyperspace when a rock is about to
    hit. ``style`` varies its habits so soak runs cover more of the rules (1 = more thrust
    and hyperspace, 2 = holds the shield).
    """
    if world.ship_state != SHIP_FLYING or world.game_over:
        return 0
    mask = 0
    tick = world.tick
    if world.ast_id.shape[0]:
        delta = world.ast_pos - np.array([world.ship_x, world.ship_y])
        delta = delta - np.array([width, height]) * np.floor(delta / [width, height] + 0.5)
        dist2 = delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1]
        k = int(np.argmin(dist2))
        dx, dy = float(delta[k, 0]), float(delta[k, 1])
        h = world.ship_heading % HEADING_STEPS
        cx, cy = _COS[h], _SIN[h]
        cross = cx * dy - cy * dx
        dot = cx * dx + cy * dy
        if cross > 0.05 * abs(dot):
            mask |= InputFrame.LEFT
        elif cross < -0.05 * abs(dot):
            mask |= InputFrame.RIGHT
        if dot > 0 and tick % 6 < 3:
            mask |= InputFrame.FIRE
        reach = float(world.ast_radius[k]) + 30.0
        if dist2[k] < reach * reach:
            if style == 2:
                mask |= InputFrame.SHIELD
            elif tick % 4 == 0:
                mask |= InputFrame.HYPERSPACE
    if (tick // 40) % (3 if style == 1 else 5) == 0:
        mask |= InputFrame.THRUST
    if style == 1 and tick % 97 == 0:
        mask |= InputFrame.HYPERSPACE
    return mask


# --- Named bots: world + config -> mask, for recording, golden replays and benchmarks ---------
#
# Every bot below is a pure function of (World, Config): no random state, no clock and no
# memory between ticks, so the same world always gets the same buttons. What a pilot would
# "remember" (was fire held last tick?) is read from the World, which records it.

Bot = Callable[[World, Config], int]
"""A pilot: the buttons (an ``InputFrame`` bit mask) for this tick of this world."""

_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER, _SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)
_HALF_TURN = HEADING_STEPS // 2
_STEPS_PER_RADIAN = HEADING_STEPS / 6.283185307179586


def idle_bot(world: World, config: Config) -> int:
    """Presses nothing: the ship waits and the rocks come (a baseline and a test workload)."""
    return 0


def spinner_bot(world: World, config: Config) -> int:
    """Turns left for ever and fires whenever it can.

    The core fires on the press edge, so fire is pressed on every tick after a tick without
    it (read from ``world.fire_held``): one shot every other tick, up to the shot cap.
    """
    return _LEFT | (0 if world.fire_held else _FIRE)


# --- the aimer's geometry (plain IEEE + - * / and sqrt, so its answers are the same everywhere)


def _atan_steps(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Heading in steps (float, in [0, HEADING_STEPS)) of the vectors (x, y).

    An odd polynomial for atan on [0, 1] (max error about 1e-5 rad, well under one heading
    step of 1.5e-3 rad) and octant reflections: no libm, so the same bits on every machine.
    """
    ax, ay = np.abs(x), np.abs(y)
    big = np.maximum(ax, ay)
    z = np.minimum(ax, ay) / np.where(big > 0.0, big, 1.0)
    z2 = z * z
    a = z * (0.99997726 + z2 * (-0.33262347 + z2 * (0.19354346 + z2 * (
        -0.11643287 + z2 * (0.05265332 + z2 * -0.01172120)))))
    a = np.where(ay > ax, 1.5707963267948966 - a, a)
    a = np.where(x < 0.0, 3.141592653589793 - a, a)
    a = np.where(y < 0.0, 6.283185307179586 - a, a)
    return (a * _STEPS_PER_RADIAN) % HEADING_STEPS


def _turn_delta(target: np.ndarray, heading: int) -> np.ndarray:
    """Signed steps from ``heading`` to each ``target`` heading, in [-half turn, half turn)."""
    return (target - heading + _HALF_TURN) % HEADING_STEPS - _HALF_TURN


def _fold(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Where a point moving freely to ``x`` ends up when it bounces between ``lo`` and ``hi``."""
    span = np.maximum(hi - lo, 1e-9)
    y = (x - lo) % (2.0 * span)
    return lo + np.where(y > span, 2.0 * span - y, y)


def _closest(rel: np.ndarray, vel: np.ndarray, horizon: np.ndarray | float,
             size: np.ndarray | None, chunk: float = 16.0) -> tuple[np.ndarray, np.ndarray]:
    """Time and distance of closest approach of relative motions ``rel + vel * t``.

    ``t`` runs over [0, horizon]. In a wrapping world (``size`` given) the nearest image is
    taken afresh every ``chunk`` ticks, so a path that crosses the seam (or is longer than half
    the world) is followed image by image instead of measured the long way.

    Args:
        rel: ``(..., 2)`` relative positions now.
        vel: ``(..., 2)`` relative velocities, px per tick.
        horizon: ticks to look ahead (scalar or broadcastable to ``rel[..., 0]``).
        size: ``(2,)`` world size when the relative motion wraps, else None.
        chunk: ticks per nearest-image re-evaluation.

    Returns:
        ``(t, miss)`` arrays of shape ``rel.shape[:-1]``.
    """
    horizon = np.broadcast_to(np.asarray(horizon, dtype=np.float64), rel.shape[:-1])
    vv = vel[..., 0] * vel[..., 0] + vel[..., 1] * vel[..., 1]
    vv_safe = np.where(vv > 0.0, vv, 1.0)
    best_t = np.zeros(rel.shape[:-1])
    best_d2 = np.full(rel.shape[:-1], np.inf)
    start = 0.0
    top = float(horizon.max()) if horizon.size else 0.0
    while start <= top:
        t0 = np.minimum(start, horizon)
        r = rel + vel * t0[..., None]
        if size is not None:
            r = wrap_delta(r, size)
        span = np.clip(horizon - t0, 0.0, chunk)
        tau = np.clip(-(r[..., 0] * vel[..., 0] + r[..., 1] * vel[..., 1]) / vv_safe, 0.0, span)
        m = r + vel * tau[..., None]
        d2 = m[..., 0] * m[..., 0] + m[..., 1] * m[..., 1]
        better = d2 < best_d2
        best_d2 = np.where(better, d2, best_d2)
        best_t = np.where(better, t0 + tau, best_t)
        start += chunk
    return best_t, np.sqrt(best_d2)


class _Scene:
    """What the aimer sees this tick: targets, dangers, its own shots (all as arrays)."""

    __slots__ = ("danger_pos", "danger_rad", "danger_vel", "n_rocks", "pos", "rad", "saucer",
                 "vel", "wraps")

    def __init__(self, world: World, p: Params) -> None:
        pos, vel, rad = [world.ast_pos], [world.ast_vel], [world.ast_radius]
        n = world.ast_id.shape[0]
        wraps = [np.full(n, p.wrap_asteroids)]
        self.saucer = -1
        if world.saucer_alive:
            self.saucer = n
            pos.append(np.array([[world.saucer_x, world.saucer_y]]))
            vel.append(np.array([[world.saucer_vx, world.saucer_vy]]))
            rad.append(np.array([p.saucer_radius[1 if world.saucer_small else 0]]))
            wraps.append(np.array([p.wrap_saucers]))
        self.n_rocks = n
        self.pos = np.concatenate(pos)
        self.vel = np.concatenate(vel)
        self.rad = np.concatenate(rad)
        self.wraps = np.concatenate(wraps)
        enemy = world.shot_owner == SHOOTER_SAUCER
        self.danger_pos = np.concatenate([self.pos, world.shot_pos[enemy]])
        self.danger_vel = np.concatenate([self.vel, world.shot_vel[enemy]])
        self.danger_rad = np.concatenate([self.rad, np.full(int(np.count_nonzero(enemy)), 1.0)])


def _future(pos: np.ndarray, vel: np.ndarray, t: np.ndarray, rad: np.ndarray, wraps: np.ndarray,
            p: Params) -> np.ndarray:
    """Positions after ``t`` ticks of straight flight, wrapped or bounced by each one's rule."""
    q = pos + vel * t[:, None]
    if wraps.all():
        return q
    folded = _fold(q, rad[:, None], p.size - rad[:, None])
    return np.where(wraps[:, None], q, folded)


def _shot_velocity(p: Params, heading: int, vx: float, vy: float) -> tuple[float, float]:
    """Velocity of a ship shot fired at ``heading`` from a ship moving at (vx, vy)."""
    c, s = _COS[heading % HEADING_STEPS], _SIN[heading % HEADING_STEPS]
    svx, svy = c * p.shot_speed, s * p.shot_speed
    if p.shot_inherit:
        svx, svy = svx + vx, svy + vy
    if p.shot_axis_cap > 0.0:
        cap = p.shot_axis_cap
        svx, svy = min(max(svx, -cap), cap), min(max(svy, -cap), cap)
    return svx, svy


_HIT_SHARE = 0.7
"""A shot counts as a hit when it passes this share of a target's bounding radius from its
centre (rock outlines are jagged: the bounding circle overstates them)."""
_DANGER_TICKS = 60
"""How far ahead the aimer looks for collisions (about a second)."""
_DANGER_MARGIN = 6.0
"""Extra px of clearance that still counts as a near miss worth acting on."""
_HYPER_TICKS = 3
"""Hyperspace only when every escape still collides within this many ticks."""


@lru_cache(maxsize=8)
def _coast_table(config: Config) -> tuple[np.ndarray, np.ndarray]:
    """Drag factors keep**k and their running sums for k = 1.._DANGER_TICKS (per config)."""
    keep = params_for(config).drag_keep
    powers = [keep]
    for _ in range(_DANGER_TICKS - 1):
        powers.append(powers[-1] * keep)
    factors = np.array(powers)
    sums = np.cumsum(factors)
    return factors, sums


def _escape(world: World, p: Params, config: Config, sc: _Scene, aim_turn: int,
            size: np.ndarray | None) -> tuple[int, int, int]:
    """The safest (turn, thrust) for the next second, and ticks to the first contact under it.

    Candidates hold one choice for ``_DANGER_TICKS`` ticks: the aim turn or no turn or either
    turn, each with and without thrust; dangers fly straight. The first candidate with the
    latest first contact (then the widest clearance) wins, so without danger the aim stands.
    """
    turns = [aim_turn] + [t for t in (0, 1, -1) if t != aim_turn]
    cands = [(t, thr) for thr in (0, 1) for t in turns]
    dirs = np.array([t for t, _ in cands], dtype=np.int64)
    thrust = np.array([thr for _, thr in cands], dtype=bool)
    ks = np.arange(1, _DANGER_TICKS + 1, dtype=np.int64)
    heads = (world.ship_heading + dirs[:, None] * p.turn_steps * ks[None, :]) % HEADING_STEPS
    acc = np.stack([COS[heads], SIN[heads]], axis=-1) * p.thrust
    v0 = np.array([world.ship_vx, world.ship_vy])
    factors, _ = _coast_table(config)
    vel = np.where(thrust[:, None, None], v0 + np.cumsum(acc, axis=1),
                   v0 * factors[None, :, None])
    if p.axis_speed_limit:
        vel = np.clip(vel, -p.max_speed, p.max_speed)
    path = np.array([world.ship_x, world.ship_y]) + np.cumsum(vel, axis=1)
    if not p.wrap_ship:
        r = p.ship_radius
        path = _fold(path, np.full(2, r), p.size - r)
    danger = sc.danger_pos[None, :, :] + sc.danger_vel[None, :, :] * ks[:, None, None]
    rel = danger[None, :, :, :] - path[:, :, None, :]
    if size is not None:
        rel = wrap_delta(rel, size)
    dist = np.sqrt(rel[..., 0] * rel[..., 0] + rel[..., 1] * rel[..., 1])
    gap = dist - (0.85 * sc.danger_rad + 0.7 * p.ship_radius)[None, None, :]
    gap_by_tick = gap.min(axis=2) if gap.shape[2] else np.full(gap.shape[:2], np.inf)
    hit = gap_by_tick < 0.0
    first = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, _DANGER_TICKS + 1)
    clearance = gap_by_tick.min(axis=1)
    best = 0
    for i in range(1, len(cands)):
        if (first[i], clearance[i]) > (first[best], clearance[best]):
            best = i
    turn, thr = cands[best]
    return turn, thr, int(first[best])


def aimer_bot(world: World, config: Config) -> int:
    """A competent pilot: leads its shots, shoots threats first, dodges, jumps as a last resort.

    Each tick it (1) marks targets its shots in flight will already hit, (2) finds for every
    other target the heading that meets it (turning time included, the target's motion led,
    across the wrap seam by the nearest image, bounce borders folded), (3) turns toward the
    cheapest target, where rocks on a collision course and the saucer come first, (4) fires
    on the press edge when a shot from the heading it will have would hit something, within
    the shot cap, and (5) when a collision within a second is not already being shot away,
    picks the turn and thrust that keep it clear longest, pressing hyperspace (or the shield,
    when the rules have one) only when every escape still collides within a few ticks.
    """
    if world.ship_state != SHIP_FLYING or world.game_over:
        return 0
    p = params_for(config)
    sc = _Scene(world, p)
    m = sc.pos.shape[0]
    if m == 0 and sc.danger_pos.shape[0] == 0:
        return 0
    size = p.size if p.wrap_any else None
    sx, sy, vx, vy = world.ship_x, world.ship_y, world.ship_vx, world.ship_vy
    ship = np.array([sx, sy])
    ship_v = np.array([vx, vy])
    h = world.ship_heading % HEADING_STEPS
    hit_r = _HIT_SHARE * sc.rad

    # (1) Targets already taken care of by a shot in flight, and when.
    mine = world.shot_owner == SHOOTER_SHIP
    n_mine = int(np.count_nonzero(mine))
    taken_at = np.full(m, np.inf)
    if n_mine and m:
        spos, svel = world.shot_pos[mine], world.shot_vel[mine]
        rel = sc.pos[None, :, :] - spos[:, None, :]
        t, miss = _closest(rel, sc.vel[None, :, :] - svel[:, None, :],
                           world.shot_ttl[mine][:, None].astype(np.float64), size)
        t = np.where(miss < hit_r[None, :], t, np.inf)
        taken_at = t.min(axis=0)
    free = ~np.isfinite(taken_at)

    # Dangers: anything on a collision course within the horizon.
    rel = sc.danger_pos - ship
    t_hit, miss = _closest(rel, sc.danger_vel - ship_v, float(_DANGER_TICKS), size)
    threat = miss < sc.danger_rad + p.ship_radius + _DANGER_MARGIN
    threat_t = np.where(threat, t_hit, np.inf)

    # (2) Intercepts: turn first (n ticks), then the shot flies t ticks.
    turn_to = np.zeros(m)
    cost = np.full(m, np.inf)
    reach = np.full(m, np.inf)
    if m:
        n = np.zeros(m)
        w = sc.vel - ship_v if p.shot_inherit else sc.vel
        s2 = p.shot_speed * p.shot_speed
        for _ in range(2):
            here = ship + ship_v * n[:, None]
            there = _future(sc.pos, sc.vel, n, sc.rad, sc.wraps, p)
            d = there - here
            if size is not None:
                d = wrap_delta(d, size)
            a = w[:, 0] * w[:, 0] + w[:, 1] * w[:, 1] - s2
            b = 2.0 * (d[:, 0] * w[:, 0] + d[:, 1] * w[:, 1])
            c = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
            disc = np.maximum(b * b - 4.0 * a * c, 0.0)
            slow = a < -1e-9
            t = np.where(slow, (-b - np.sqrt(disc)) / np.where(slow, 2.0 * a, 1.0),
                         np.sqrt(c) / p.shot_speed)
            aim = d + w * t[:, None]
            if not sc.wraps.all():  # a bouncing target: aim where the walls will send it
                later = _future(sc.pos, sc.vel, n + t, sc.rad, sc.wraps, p)
                aim = np.where(sc.wraps[:, None], aim, later - here
                               - (ship_v * t[:, None] if p.shot_inherit else 0.0))
            turn_to = _turn_delta(_atan_steps(aim[:, 1], aim[:, 0]), h)
            n = np.floor(np.abs(turn_to) / p.turn_steps)
        reach = n + t
        cost = reach + np.where(t < p.shot_ticks - 1, 0.0, 400.0)
        if sc.saucer >= 0:
            cost[sc.saucer] -= 80.0 if world.saucer_small else 40.0
        # (3) A rock on a collision course that can be shot first comes first, earliest first.
        t_threat = threat_t[:m]
        urgent = np.isfinite(t_threat) & (reach + 2.0 < t_threat) & free
        cost = np.where(urgent, cost - 1000.0 + 4.0 * t_threat, cost)
        cost = np.where(free, cost, cost + 2000.0)

    mask = 0
    aim_turn = 0
    target = -1
    if m:
        target = int(np.argmin(cost))
        delta = float(turn_to[target])
        if 2.0 * abs(delta) > p.turn_steps:
            aim_turn = 1 if delta > 0.0 else -1

    # (5) Dodge what is not being shot away; jump only when nothing else works.
    handled = np.zeros(threat_t.shape[0], dtype=bool)
    handled[:m] = taken_at + 1.0 < threat_t[:m]
    if target >= 0:
        handled[target] |= bool(reach[target] + 2.0 < threat_t[target])
    turn, thrust = aim_turn, 0
    if (np.isfinite(threat_t) & ~handled).any():
        turn, thrust, first = _escape(world, p, config, sc, aim_turn, size)
        if first <= _HYPER_TICKS:
            if p.shield_enabled and world.shield_energy > 0:
                mask |= _SHIELD
            elif p.hyper_enabled and not world.hyper_held:
                return mask | _HYPER
    if turn > 0:
        mask |= _LEFT
    elif turn < 0:
        mask |= _RIGHT
    if thrust:
        mask |= _THRUST

    # (4) Fire on the press edge if a shot from next tick's heading would hit a free target.
    if m and not world.fire_held and n_mine < p.shot_max and free.any():
        h1 = (h + turn * p.turn_steps) % HEADING_STEPS
        c, s = _COS[h1], _SIN[h1]
        nvx, nvy = (vx + c * p.thrust, vy + s * p.thrust) if thrust else (
            vx * p.drag_keep, vy * p.drag_keep)
        svx, svy = _shot_velocity(p, h1, nvx, nvy)
        nose = np.array([sx + c * 0.5 * p.ship_length, sy + s * 0.5 * p.ship_length])
        t, miss = _closest(sc.pos - nose, sc.vel - np.array([svx, svy]),
                           float(p.shot_ticks - 1), size)
        if ((miss < hit_r) & free).any():
            mask |= _FIRE
    return mask


BOTS: dict[str, Bot] = {
    "idle": idle_bot,
    "spinner": spinner_bot,
    "aimer": aimer_bot,
}
"""The named bots, for ``asteroids record --bot NAME``, golden replays and benchmarks."""


def bot_for(name: str) -> Bot:
    """The bot called ``name``.

    Raises:
        ValueError: for an unknown name; the message lists the known ones and the closest.
    """
    try:
        return BOTS[name]
    except KeyError:
        pass
    known = ", ".join(sorted(BOTS))
    close = difflib.get_close_matches(str(name), sorted(BOTS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown bot {name!r}{hint}; known bots: {known}")
