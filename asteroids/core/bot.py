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
from asteroids.core.aim import DANGER_TICKS, AimKit, Scene, closest, escape, nearest
from asteroids.core.aim_steps import (
    buttons,
    in_time,
    intercepts,
    may_fire,
    next_shot,
    passes,
    target_costs,
    threats,
    turn_toward,
)
from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.inputs import InputFrame
from asteroids.core.lanes import ONE
from asteroids.core.params import Params, params_for
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

_LEFT, _FIRE = int(InputFrame.LEFT), int(InputFrame.FIRE)

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

    Its targets are the rocks and the craft the ship's shots can hit, its dangers the rocks,
    the craft that can take the ship and the saucer's shots, all read from the bodies tables
    (``asteroids.core.sight``): a declared enemy is aimed at and dodged like the saucer,
    without the saucer's bonus.

    The rules of each step are ``asteroids.core.aim_steps``, which the batched aimer
    (``bot_batch.aimer_batch``) runs too; here they run on one game's rows.
    """
    if world.ship_state != SHIP_FLYING or world.game_over:
        return 0
    kit = AimKit(params_for(config))
    p = kit.p
    sc = Scene(world, p)
    m = sc.pos.shape[0]
    if sc.danger_pos.shape[0] == 0:
        return 0
    sx, sy, vx, vy = world.ship_x, world.ship_y, world.ship_vx, world.ship_vy
    h = world.ship_heading % HEADING_STEPS

    # (1) One query for every mover that matters: the ship's shots in flight, the shot it
    # would fire next tick after turning left, not turning or turning right, and the ship.
    mine = world.shot_owner == SHOOTER_SHIP
    k = int(np.count_nonzero(mine))
    extra = [(*next_shot(ONE, p, sx, sy, vx, vy, h, turn), p.shots_lifetime_ticks - 1.0)
             for turn in (1, 0, -1)]
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
    taken = passes(miss_all[:k, :m], sc.rad)
    taken_any = taken.any(axis=0)
    threat, threat_t = threats(p, sc.danger_rad, miss_all[-1], t_all[-1], sc.danger_vel, vx,
                               vy, sc.harms)

    # (2), (3) Intercepts, and the cheapest target.
    aim_turn = 0
    target = -1
    reach = np.zeros(0)
    if m:
        bouncing = not kit.all_wrap
        n, t, left = intercepts(kit, rel_all[-1, :m].T, sc.vel.T, np.array([[sx], [sy]]),
                                np.array([[vx], [vy]]), COS_TABLE[h], SIN_TABLE[h],
                                sc.pos if bouncing else None, sc.rad if bouncing else None,
                                sc.wraps if bouncing else None)
        reach = n + t
        cost = target_costs(p, n, t, taken_any, np.arange(m) == sc.saucer,
                            world.saucer_small, threat[:m], threat_t[:m])
        target = int(cost.argmin())
        aim_turn = turn_toward(ONE, n[target], left[target])

    # (5) Dodge what is not being shot away; jump only when nothing else works.
    turn, thrust, first = aim_turn, 0, DANGER_TICKS + 1
    if threat.any():
        handled = np.zeros(threat.shape[0], dtype=bool)
        if k:
            taken_at = np.where(taken, t_all[:k, :m], np.inf).min(axis=0)
            handled[:m] = in_time(taken_at, threat_t[:m], 1.0)
        if target >= 0:
            handled[target] |= bool(in_time(reach[target], threat_t[target], 2.0))
        if (threat & ~handled).any():
            turn, thrust, first = escape(world, kit, sc, aim_turn)

    # (4) Fire on the press edge if next tick's shot would hit a target no shot is meant for.
    fire = False
    if may_fire(ONE, p, m, world.fire_held, k):
        row = k + 1 - turn  # the candidate shot of the turn taken
        fire = bool((passes(miss_all[row, :m], sc.rad) & ~taken_any).any())
    return buttons(ONE, p, turn, thrust, first, world.shield_energy, world.hyper_held, fire)


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
