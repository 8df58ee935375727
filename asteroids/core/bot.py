"""A simple deterministic pilot: for soak tests, benchmarks, golden replays and attract mode.

It reads only the World and answers with an input mask, using cross and dot products (no
trigonometry), so a bot game is as reproducible as a recorded one.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TypeVar

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.aim import (
    DANGER_MARGIN,
    DANGER_TICKS,
    HIT_SHARE,
    HYPER_TICKS,
    MAX_PLAIN,
    AimKit,
    Scene,
    all_handled,
    closest,
    escape,
    future,
    nearest,
    shot_velocity,
)
from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.inputs import InputFrame
from asteroids.core.params import Params
from asteroids.core.simulation import rules_of
from asteroids.core.tables import COS_TABLE, HEADING_STEPS, SIN_TABLE
from asteroids.core.world import SHIP_FLYING, SHOOTER_SHIP, World

__all__ = ["BOTS", "Bot", "aimer_bot", "bot_for", "bot_input", "idle_bot", "named", "spin",
           "spinner_bot"]



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
        delta = wrap_delta(world.ast_pos - np.array([world.ship_x, world.ship_y]),
                           np.array([width, height]))
        dist2 = delta[:, 0] * delta[:, 0] + delta[:, 1] * delta[:, 1]
        k = int(np.argmin(dist2))
        dx, dy = float(delta[k, 0]), float(delta[k, 1])
        h = world.ship_heading % HEADING_STEPS
        cx, cy = COS_TABLE[h], SIN_TABLE[h]
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

def idle_bot(world: World, config: Config) -> int:
    """Presses nothing: the ship waits and the rocks come (a baseline and a test workload)."""
    return 0


def spinner_bot(world: World, config: Config) -> int:
    """Turns left for ever and fires whenever it can.

    The core fires on the press edge, so fire is pressed on every tick after a tick without
    it (read from ``world.fire_held``): one shot every other tick, up to the shot cap.
    """
    return int(spin(world.fire_held))


def spin(fire_held: bool | np.ndarray) -> int | np.ndarray:
    """The spinner's buttons given whether fire was held last tick: one game's (a bool) or a
    batch's (an array of them, ``asteroids.core.bot_batch``)."""
    return _LEFT | _FIRE * (1 - fire_held)


def aimer_bot(world: World, config: Config | Params) -> int:
    """A competent pilot: leads its shots, shoots threats first, dodges, jumps as a last resort.

    Each tick it (1) marks targets its shots in flight will already hit, and finds what is on
    a collision course with the ship within a second; (2) finds for every other target the
    heading that meets it (turning time included, the target's motion led, across the wrap
    seam by the nearest image, bounce borders folded); (3) turns toward the cheapest target,
    where rocks on a collision course that can be shot in time come first, then the saucer;
    (4) fires on the press edge when a shot from the heading it will have would hit a target
    no shot is already meant for, within the shot cap; and (5) when a collision is not being
    shot away, picks the turn and thrust that keep it clear longest, pressing hyperspace (or
    the shield, when the rules have one) only when every escape still collides within a few
    ticks.
    """
    if world.ship_state != SHIP_FLYING or world.game_over:
        return 0
    kit = AimKit(rules_of(world, config))
    p = kit.p
    sc = Scene(world, p)
    m = sc.pos.shape[0]
    nd = sc.danger_pos.shape[0]
    if nd == 0:
        return 0
    sx, sy, vx, vy = world.ship_x, world.ship_y, world.ship_vx, world.ship_vy
    h = world.ship_heading % HEADING_STEPS
    hit_r = HIT_SHARE * sc.rad

    # (1) One query for every mover that matters: the ship's shots in flight, the shot it
    # would fire next tick after turning left, not turning or turning right, and the ship.
    mine = world.shot_owner == SHOOTER_SHIP
    k = int(np.count_nonzero(mine))
    nvx, nvy = vx * p.drag_keep, vy * p.drag_keep
    extra = []
    for turn in (1, 0, -1):
        h1 = (h + turn * p.turn_steps) % HEADING_STEPS
        c, s = COS_TABLE[h1], SIN_TABLE[h1]
        svx, svy = shot_velocity(p, h1, nvx, nvy)
        reach_ticks = p.shot_ticks - 1.0
        extra.append((sx + c * 0.5 * p.ship_length, sy + s * 0.5 * p.ship_length, svx, svy,
                      reach_ticks))
    extra.append((sx, sy, vx, vy, float(DANGER_TICKS)))
    more = np.array(extra)
    if k:
        if k == mine.shape[0]:  # no saucer shots: take the arrays whole
            spos, svel, sttl = world.shot_pos, world.shot_vel, world.shot_ttl
        else:
            spos, svel, sttl = world.shot_pos[mine], world.shot_vel[mine], world.shot_ttl[mine]
        rows_pos_a = np.concatenate([spos, more[:, 0:2]])
        rows_vel_a = np.concatenate([svel, more[:, 2:4]])
        horizon = np.concatenate([sttl, more[:, 4]])
    else:
        rows_pos_a, rows_vel_a, horizon = more[:, 0:2], more[:, 2:4], more[:, 4]
    rel_all = nearest(sc.danger_pos[None, :, :] - rows_pos_a[:, None, :], kit)
    t_all, miss_all = closest(rel_all, sc.danger_vel[None, :, :] - rows_vel_a[:, None, :],
                               horizon[:, None], kit.images)
    taken = miss_all[:k, :m] < hit_r
    free = ~taken.any(axis=0) if k else np.ones(m, dtype=bool)
    # Threats: contact within the horizon; threat_t is when contact begins (not the closest
    # approach, which for a rock flying straight at the ship is when it would be dead centre).
    reach_r = sc.danger_rad + p.ship_radius + DANGER_MARGIN
    miss_ship = miss_all[-1]
    threat = miss_ship < reach_r
    threat_t = kit.no_threat[:nd] if nd <= MAX_PLAIN else np.full(nd, np.inf)
    in_danger = bool(threat.any())
    if in_danger:
        wx_, wy_ = sc.danger_vel[:, 0] - vx, sc.danger_vel[:, 1] - vy
        speed = np.sqrt(wx_ * wx_ + wy_ * wy_)
        inside = np.sqrt(np.maximum(reach_r * reach_r - miss_ship * miss_ship, 0.0))
        contact = np.maximum(t_all[-1] - inside / np.where(speed > 0.0, speed, 1.0), 0.0)
        threat_t = np.where(threat, contact, np.inf)

    # (2) Intercepts: turn first (n ticks), then the shot flies t ticks.
    mask = 0
    aim_turn = 0
    target = -1
    reach = kit.no_threat[:0]
    if m:
        # Rows are x and y: (2, m) arrays, so each step is one array operation.
        vel = sc.vel.T
        ship_v = np.array([[vx], [vy]])
        rv = vel - ship_v
        w = rv if p.shot_inherit else vel
        ww = w * w
        a = ww[0] + ww[1] - p.shot_speed * p.shot_speed
        slow = a < -1e-9  # the shot outruns the target (always, unless the ship flies fast)
        all_slow = bool(slow.all())
        a_safe = a if all_slow else np.where(slow, a, -1.0)
        hx, hy = COS_TABLE[h], SIN_TABLE[h]
        bouncing = not kit.all_wrap
        # First guess of the turn ticks: toward where the target is now (from the query).
        r = rel_all[-1, :m].T
        rr = r * r
        n = np.searchsorted(kit.turn_half_cos,
                            -(r[0] * hx + r[1] * hy) / np.maximum(np.sqrt(rr[0] + rr[1]), 1e-9))
        for _ in range(2):
            if bouncing:
                here = np.array([[sx], [sy]]) + ship_v * n
                d = future(sc.pos, sc.vel, n, sc.rad, sc.wraps, p).T - here
            else:
                d = r + rv * n
            if kit.size is not None:
                d = (d + kit.half_col) % kit.size_col - kit.half_col
            # |d + w t| = shot speed * t, i.e. a t^2 + 2 b t + c = 0; the positive root.
            dw = d * w
            b = dw[0] + dw[1]
            dd = d * d
            c2 = dd[0] + dd[1]
            root = np.sqrt(np.maximum(b * b - a * c2, 0.0))
            if all_slow:
                t = (-b - root) / a
            else:
                t = np.where(slow, (-b - root) / a_safe, np.sqrt(c2) / p.shot_speed)
            aim = d + w * t
            if bouncing:  # a bouncing target: aim where the walls will send it
                later = future(sc.pos, sc.vel, n + t, sc.rad, sc.wraps, p).T - here
                if p.shot_inherit:
                    later = later - ship_v * t
                aim = np.where(sc.wraps, aim, later)
            # Turn ticks to face the aim point: round(angle / turn), from the cosine of the
            # angle and the table of cos((k + 1/2) turns) (no arc tangent needed).
            aa = aim * aim
            n = np.searchsorted(kit.turn_half_cos, -(aim[0] * hx + aim[1] * hy)
                                / np.maximum(np.sqrt(aa[0] + aa[1]), 1e-9))
        ax, ay = aim[0], aim[1]
        left = hx * ay - hy * ax > 0.0
        reach = n + t
        # Out of range costs 400 ticks, a target a shot is already meant for 2000.
        cost = reach + (t >= p.shot_ticks - 1) * 400.0 + taken.any(axis=0) * 2000.0
        if sc.saucer >= 0:
            cost[sc.saucer] -= 80.0 if world.saucer_small else 40.0
        # (3) A target on a collision course that can be shot first comes first, earliest first.
        if in_danger:
            t_threat = threat_t[:m]
            urgent = threat[:m] & (reach + 2.0 < t_threat) & free
            cost = np.where(urgent, cost - 1000.0 + 4.0 * t_threat, cost)
        target = int(cost.argmin())
        if n[target] > 0:
            aim_turn = 1 if left[target] else -1

    # (5) Dodge what is not being shot away; jump only when nothing else works.
    turn, thrust = aim_turn, 0
    if in_danger and not all_handled(threat, threat_t, t_all, taken, k, m, target, reach):
        turn, thrust, first = escape(world, kit, sc, aim_turn)
        if first <= HYPER_TICKS:
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

    # (4) Fire on the press edge if next tick's shot would hit a target no shot is meant for.
    if m and not world.fire_held and k < p.shot_max:
        row = k + 1 - turn
        if ((miss_all[row, :m] < hit_r) & free).any():
            mask |= _FIRE
    return mask


BOTS: Mapping[str, Bot] = MappingProxyType({
    "idle": idle_bot,
    "spinner": spinner_bot,
    "aimer": aimer_bot,
})
"""The named bots, for ``asteroids record --bot NAME``, golden replays and benchmarks."""


def bot_for(name: str) -> Bot:
    """The bot called ``name``.

    Raises:
        ValueError: for an unknown name; the message lists the known ones and the closest.
    """
    return named(BOTS, name, "unknown bot", "known bots")


T = TypeVar("T")


def named(table: Mapping[str, T], name: str, missing: str, listing: str) -> T:
    """``table[name]``, or a ValueError that says ``missing NAME``, the closest name, and
    ``listing: every name`` (bot tables: ``bot_for``, ``bot_batch.batch_bot_for``)."""
    try:
        return table[name]
    except KeyError:
        pass
    known = ", ".join(sorted(table))
    close = difflib.get_close_matches(str(name), sorted(table), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"{missing} {name!r}{hint}; {listing}: {known}")
