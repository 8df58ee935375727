"""A persona at the controls: a pilot with human limits, deciding one tick at a time.

``PersonaPilot(persona)`` is called like any bot, ``pilot(world, config) -> mask``, once per
tick from the game's first tick. Unlike the core's bots it remembers: what it saw (it acts
on the world as it was ``reaction`` ago), what it aims at, how its thrust burst goes. A
World that does not follow the last one (tick 0, or any jump) starts a new game, so one
pilot object can play game after game.

Its chance comes from ``asteroids.pilots.noise``, keyed on the game's starting PCG32 state:
the same seed gives the same persona game, on every machine, and the World's own stream is
never drawn from. Its arithmetic is ``+ - * /`` and ``sqrt`` on numpy arrays over the rocks
it sees, with the heading tables of the core (no libm), so a whole batch of games can later
decide at once by adding a leading axis.

What each parameter does (``asteroids.pilots.persona.PARAMS``):

* **reaction_ms, reaction_jitter_ms**: every glance (``GLANCE_S``) draws a delay; the rocks,
  the saucer and their shots are seen as they were that long ago (never going backwards).
  The pilot's own ship is seen as it is: a player feels the controls they hold.
* **attention**: only the nearest ``attention`` rocks (the saucer counts as one, and so does
  each declared enemy: ``asteroids.core.sight``) are seen.
* **target**: the tracked rock that will hit soonest (contact within ``THREAT_S``), else
  the nearest; aimed at with a lead on its seen velocity, plus an **aim error** drawn once per
  target.
* **turn_overshoot_deg**: when a turn toward the aim stops, it runs on by an overshoot
  drawn once per target (mean ``turn_overshoot_deg``), then turns back.
* **fire_discipline**: a press (at most one per ``TAP_S``, on the press edge, under the shot
  cap) when the aim is on the target and it is in range; otherwise, with chance
  ``(1 - fire_discipline) * SPRAY_CHANCE`` per such moment, a press anyway.
* **thrust_share**: thrust in bursts of ``BURST_S`` on average, started at random so that
  this share of flying time is spent thrusting.
* **hyperspace_panic**: each time a tracked rock comes within ``PANIC_S`` of contact, this
  chance of pressing hyperspace (or holding the shield for ``SHIELD_S``, when the rules have
  one and it has energy).
"""

from __future__ import annotations

import math
from collections import deque
from typing import NamedTuple

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import World
from asteroids.core.inputs import InputFrame
from asteroids.core.params import Params, params_for
from asteroids.core.sight import craft_seen
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SHIP
from asteroids.pilots import noise
from asteroids.pilots.persona import Persona

__all__ = ["BURST_S", "CONTACT_MARGIN_PX", "GLANCE_S", "MAX_DELAY_S", "PANIC_S", "SHIELD_S",
           "SPRAY_CHANCE", "TAP_S", "THREAT_S", "PersonaPilot", "Rules", "Sighted",
           "contact_times", "sighted"]

GLANCE_S = 0.25
"""How often a new reaction delay is drawn (a glance at the screen)."""
MAX_DELAY_S = 2.0
"""No delay drawn is longer (the pilot keeps this much of what it saw)."""
THREAT_S = 1.0
"""A rock that will touch the ship within this time (flying straight) is a threat."""
PANIC_S = 0.25
"""A threat this close to contact may set off hyperspace (``hyperspace_panic``)."""
CONTACT_MARGIN_PX = 6.0
"""Clearance beyond the two radii that still counts as contact (a near miss is a threat)."""
TAP_S = 0.1
"""The fastest a person taps fire: one press per this much time."""
SPRAY_CHANCE = 0.15
"""Chance, per moment fire is ready and not aimed, that an undisciplined pilot presses."""
BURST_S = 0.5
"""Mean length of a thrust burst."""
SHIELD_S = 0.5
"""How long a panicking pilot holds the shield."""

_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER, _SHIELD = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE), int(InputFrame.SHIELD)
_COS, _SIN = COS.tolist(), SIN.tolist()
_DEG_TO_RAD = 0.017453292519943295
_STEP_DEG = 360.0 / HEADING_STEPS
_MEAN_ABS_NORMAL = 0.80829
"""E|z| of ``noise.normal`` (Irwin-Hall of four, scaled): ``|z| / this`` has mean 1."""
_NEVER = -1_000_000_000
"""The tick of a press that never happened (long before any game's first tick)."""
_NO_TARGET = _NEVER
"""The target id while none is aimed at (rocks' ids are never negative, craft's are -1 for
the saucer, -2, -3... for declared enemies: ``sight.CraftSeen.ids``)."""

# Draw slots (``noise.SLOTS``): one purpose each, so no two decisions share a number.
_SLOT_DELAY, _SLOT_AIM, _SLOT_OVERSHOOT, _SLOT_SPRAY, _SLOT_THRUST, _SLOT_PANIC = range(6)


class Rules:
    """The per-config numbers a pilot reads every tick (from the core's ``Params``)."""

    __slots__ = ("burst_ticks", "glance_ticks", "half_step_tan", "hz", "max_delay", "p",
                 "panic_ticks", "shield_ticks", "size", "start_chance_scale", "tap_ticks",
                 "threat_ticks", "turn_deg")

    def __init__(self, config: Config | Params) -> None:
        p = params_for(config)
        self.p: Params = p
        self.hz = float(p.config.world.tick_hz)
        self.size = p.size if p.wrap_any else None
        self.glance_ticks = max(1, round(GLANCE_S * self.hz))
        self.max_delay = round(MAX_DELAY_S * self.hz)
        self.threat_ticks = THREAT_S * self.hz
        self.panic_ticks = PANIC_S * self.hz
        self.tap_ticks = max(2, round(TAP_S * self.hz))
        self.burst_ticks = max(1.0, BURST_S * self.hz)
        self.shield_ticks = max(1, round(SHIELD_S * self.hz))
        half = max(p.ship_turn_steps_per_tick // 2, 1)
        self.half_step_tan = _SIN[half] / _COS[half]
        """Aligned: the aim is within half a tick's turn of the heading (tan of that)."""
        self.turn_deg = max(p.ship_turn_steps_per_tick, 1) * _STEP_DEG
        self.start_chance_scale = 1.0 / self.burst_ticks

    def wrap(self, d: np.ndarray) -> np.ndarray:
        """Shortest displacements when the world wraps (the core's minimum image)."""
        if self.size is None:
            return d
        half = 0.5 * self.size
        return (d + half) % self.size - half


def contact_times(rel: np.ndarray, relv: np.ndarray, reach: np.ndarray,
                  horizon: float) -> np.ndarray:
    """Ticks until each mover first comes within ``reach`` of the ship, flying straight;
    ``inf`` when it does not within ``horizon`` ticks.

    Args:
        rel: ``(n, 2)`` positions relative to the ship.
        relv: ``(n, 2)`` velocities relative to the ship, px per tick.
        reach: ``(n,)`` contact distances (both radii and the margin).
        horizon: ticks to look ahead.
    """
    rx, ry, vx, vy = rel[:, 0], rel[:, 1], relv[:, 0], relv[:, 1]
    vv = vx * vx + vy * vy
    tca = -(rx * vx + ry * vy) / np.maximum(vv, 1e-12)
    tca = np.minimum(np.maximum(tca, 0.0), horizon)
    mx, my = rx + vx * tca, ry + vy * tca
    miss2 = mx * mx + my * my
    inside = np.sqrt(np.maximum(reach * reach - miss2, 0.0) / np.maximum(vv, 1e-12))
    start = np.maximum(tca - inside, 0.0)
    return np.where(miss2 < reach * reach, start, np.inf)


class Sighted(NamedTuple):
    """Every rock and craft one World shows a pilot (rocks, then ``sight.SEEN``: the saucer,
    declared enemies), relative to a ship: ``(n, 2)`` positions and velocities, ``(n,)``
    radii, ids (a rock's ``ast_id``; a craft's ``sight.CraftSeen.ids``), whether each is a
    target (the ship's shots can hit it) and whether it can take the ship."""

    rel: np.ndarray
    vel: np.ndarray
    rad: np.ndarray
    ids: np.ndarray
    aimable: np.ndarray
    harms: np.ndarray


def sighted(seen: World, ship: World, rules: Rules) -> Sighted:
    """What ``seen`` shows, relative to ``ship``'s ship (the pilot's own ship is seen as it
    is, the rest as it was a reaction time ago)."""
    craft = craft_seen(seen, rules.p)
    n, c = seen.ast_id.shape[0], craft.rad.shape[0]
    pos, vel, rad, ids = seen.ast_pos, seen.ast_vel, seen.ast_radius, seen.ast_id
    if c:
        pos = np.concatenate([pos, craft.pos])
        vel = np.concatenate([vel, craft.vel])
        rad = np.concatenate([rad, craft.rad])
        ids = np.concatenate([ids, craft.ids])
    aimable = np.concatenate([np.ones(n, dtype=bool), np.arange(c) < craft.aimed])
    harms = np.concatenate([np.ones(n, dtype=bool), craft.harms])
    rel = rules.wrap(pos - np.array([ship.ship_x, ship.ship_y]))
    return Sighted(rel, vel, rad, ids, aimable, harms)


class PersonaPilot:
    """A persona flying one game after another (see the module docstring).

    Args:
        persona: its parameters.
    """

    def __init__(self, persona: Persona) -> None:
        self.persona = persona
        self._config: Config | None = None
        self._rules: Rules | None = None
        self._history: deque[World] = deque()
        self._last_tick = -2
        self._key = np.zeros(1, dtype=np.uint64)
        self._perceived = 0
        self._target = _NO_TARGET
        self._aim_offset = 0.0
        self._turn = 0
        self._overshoot_left = 0
        self._overshoot_done = False
        self._thrusting = False
        self._last_press = _NEVER
        self._shield_left = 0
        self._panicked = np.zeros(0, dtype=np.int64)

    # --- game bookkeeping -----------------------------------------------------------------

    def _rules_for(self, config: Config | Params) -> Rules:
        """The numbers of ``config``'s rules, derived again only when the rules change: a
        Config compared by value (a Params by the Config it was compiled from), never by
        which object it is."""
        rules = config.config if isinstance(config, Params) else config
        if self._rules is None or rules != self._config:
            self._rules = Rules(config)
            self._config = rules
        return self._rules

    def _new_game(self, world: World, rules: Rules) -> None:
        self._history = deque(maxlen=rules.max_delay + 1)
        self._key = np.array([noise.game_key(world.rng_state, world.rng_inc)], dtype=np.uint64)
        self._perceived = world.tick
        self._target = _NO_TARGET
        self._turn = 0
        self._overshoot_left = 0
        self._thrusting = False
        self._last_press = _NEVER
        self._shield_left = 0
        self._panicked = np.zeros(0, dtype=np.int64)

    def _draw(self, tick: int, slot: int, sub: int = 0) -> float:
        return float(noise.uniform(self._key, tick, slot, sub)[0])

    def _normal(self, tick: int, slot: int) -> float:
        return float(noise.normal(self._key, tick, slot)[0])

    # --- one tick ---------------------------------------------------------------------------

    def __call__(self, world: World, config: Config | Params) -> int:
        """The buttons for this tick of ``world`` (an ``InputFrame`` bit mask)."""
        rules = self._rules_for(config)
        if world.tick != self._last_tick + 1 or not self._history:
            self._new_game(world, rules)
        self._history.append(world)
        self._last_tick = world.tick
        if world.ship_state != SHIP_FLYING or world.game_over:
            self._turn = 0
            self._target = _NO_TARGET
            self._thrusting = False
            return 0
        seen = self._perceive(world, rules)
        return self._decide(world, seen, rules)

    def _perceive(self, world: World, rules: Rules) -> World:
        """The world as the pilot sees it now: ``delay`` ticks old, never going backwards."""
        t = world.tick
        persona = self.persona
        z = self._normal(t // rules.glance_ticks, _SLOT_DELAY)
        delay_ms = persona.reaction_ms + persona.reaction_jitter_ms * z
        delay = min(max(round(delay_ms * rules.hz / 1000.0), 0), rules.max_delay)
        oldest = self._history[0].tick
        self._perceived = min(max(self._perceived, t - delay, oldest), t)
        return self._history[self._perceived - oldest]

    def _decide(self, world: World, seen: World, rules: Rules) -> int:
        persona, p, t = self.persona, rules.p, world.tick
        mask = 0
        ship_v = np.array([world.ship_vx, world.ship_vy])
        # What is seen: rocks, then the craft; the nearest ``attention`` of them are tracked.
        rel, vel, rad, ids, aimable, harms = sighted(seen, world, rules)
        dist2 = rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1]
        tracked = np.argsort(dist2, kind="stable")[:persona.attention]
        rel, vel, rad, ids = rel[tracked], vel[tracked], rad[tracked], ids[tracked]
        aimable, harms = aimable[tracked], harms[tracked]
        relv = vel - ship_v
        contact = np.where(harms, contact_times(rel, relv, rad + p.ship_radius
                                                + CONTACT_MARGIN_PX, rules.threat_ticks),
                           np.inf)  # a craft that cannot take the ship is no threat

        turn = 0
        if ids.shape[0]:
            if aimable.any():  # the target that will hit soonest, else the nearest
                soon = np.where(aimable, contact, np.inf)
                k = int(np.argmin(soon)) if np.isfinite(soon).any() else int(np.argmax(aimable))
                turn, mask = self._aim_and_fire(world, rules, rel[k], relv[k], vel[k],
                                                float(rad[k]), int(ids[k]))
            mask |= self._panic(world, rules, ids, contact)
            if mask & _HYPER:
                return _HYPER
        elif self._shield_left > 0:
            self._shield_left -= 1
            mask |= _SHIELD
        if turn > 0:
            mask |= _LEFT
        elif turn < 0:
            mask |= _RIGHT
        self._turn = turn
        if self._thrust(t, rules):
            mask |= _THRUST
        return mask

    def _aim_and_fire(self, world: World, rules: Rules, d: np.ndarray, relv: np.ndarray,
                      vel: np.ndarray, radius: float, target: int) -> tuple[int, int]:
        """The turn toward the target's lead point, and fire when aimed (or by spray)."""
        persona, p, t = self.persona, rules.p, world.tick
        if target != self._target:
            self._target = target
            self._aim_offset = (persona.aim_error_deg * _DEG_TO_RAD
                                * self._normal(t, _SLOT_AIM))
            self._overshoot_done = False
            self._overshoot_left = 0
        dx, dy = float(d[0]), float(d[1])
        wx, wy = (float(relv[0]), float(relv[1])) if p.shots_inherit_velocity else \
            (float(vel[0]), float(vel[1]))
        s = p.shots_speed_px_per_tick
        a = wx * wx + wy * wy - s * s
        b = dx * wx + dy * wy
        c = dx * dx + dy * dy
        if a < -1e-9:
            fly = (-b - math.sqrt(max(b * b - a * c, 0.0))) / a
        else:
            fly = math.sqrt(c) / s
        ax, ay = dx + wx * fly, dy + wy * fly
        e = self._aim_offset
        ax, ay = ax - e * ay, ay + e * ax
        h = world.ship_heading % HEADING_STEPS
        hx, hy = _COS[h], _SIN[h]
        cross = hx * ay - hy * ax
        dot = hx * ax + hy * ay
        aligned = dot > 0.0 and abs(cross) <= dot * rules.half_step_tan
        want = 0 if aligned else (1 if cross > 0.0 else -1)
        turn = want
        if self._overshoot_left > 0:
            self._overshoot_left -= 1
            turn = self._turn
        elif self._turn != 0 and want != self._turn and not self._overshoot_done:
            self._overshoot_done = True
            extra = (abs(self._normal(t, _SLOT_OVERSHOOT)) / _MEAN_ABS_NORMAL
                     * persona.turn_overshoot_deg / rules.turn_deg)
            self._overshoot_left = round(extra)
            if self._overshoot_left > 0:
                self._overshoot_left -= 1
                turn = self._turn

        mask = 0
        mine = int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP))
        ready = (not world.fire_held and mine < p.shots_max_alive
                 and t - self._last_press >= rules.tap_ticks)
        if ready:
            aimed = dot > 0.0 and abs(cross) < 0.7 * radius and fly < p.shots_lifetime_ticks - 1
            spray = 1.0 - persona.fire_discipline
            if aimed or (spray > 0.0 and self._draw(t, _SLOT_SPRAY) < spray * SPRAY_CHANCE):
                mask |= _FIRE
                self._last_press = t
        return turn, mask

    def _panic(self, world: World, rules: Rules, ids: np.ndarray, contact: np.ndarray) -> int:
        """Hyperspace (or the shield) when a tracked rock newly comes within ``PANIC_S``."""
        p, t = rules.p, world.tick
        close = ids[contact < rules.panic_ticks]
        new = close[~np.isin(close, self._panicked)]
        self._panicked = close
        mask = 0
        if self._shield_left > 0:
            self._shield_left -= 1
            mask |= _SHIELD
        chance = self.persona.hyperspace_panic
        if new.shape[0] == 0 or chance <= 0.0:
            return mask
        # One draw per rock newly close (up to four a tick; more is one crowd anyway).
        draws = noise.uniform(self._key, t, _SLOT_PANIC, np.minimum(np.arange(new.shape[0]), 3))
        if not (draws < chance).any():
            return mask
        if p.ship_shield_enabled and world.shield_energy > 0:
            self._shield_left = rules.shield_ticks - 1
            return mask | _SHIELD
        if p.ship_hyperspace_enabled and not world.hyper_held:
            return mask | _HYPER
        return mask

    def _thrust(self, t: int, rules: Rules) -> bool:
        """The thrust habit: bursts of ``BURST_S`` on average, ``thrust_share`` of the time."""
        share = self.persona.thrust_share
        if share <= 0.0:
            self._thrusting = False
            return False
        u = self._draw(t, _SLOT_THRUST)
        if self._thrusting:
            self._thrusting = u >= rules.start_chance_scale
        else:
            self._thrusting = u < share / (1.0 - share) * rules.start_chance_scale
        return self._thrusting
