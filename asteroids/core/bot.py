"""A simple deterministic pilot: for soak tests, benchmarks, golden replays and attract mode.

It reads only the World and answers with an input mask, using cross and dot products (no
trigonometry), so a bot game is as reproducible as a recorded one.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.geometry.wrap import wrap_delta
from asteroids.core.inputs import InputFrame
from asteroids.core.params import Params
from asteroids.core.simulation import rules_of
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP, World

__all__ = ["BOTS", "Bot", "aimer_bot", "bot_for", "bot_input", "idle_bot", "spin",
           "spinner_bot"]

_COS = tuple(COS.tolist())
_SIN = tuple(SIN.tolist())


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


_HIT_SHARE = 0.7
"""A shot counts as a hit when it passes this share of a target's bounding radius from its
centre (rock outlines are jagged: the bounding circle overstates them)."""
_DANGER_TICKS = 60
"""How far ahead the aimer looks for collisions (about a second)."""
_DANGER_MARGIN = 6.0
"""Extra px of clearance that still counts as a near miss worth acting on."""
_HYPER_TICKS = 3
"""Hyperspace only when every escape still collides within this many ticks."""
_MAX_PLAIN = 64
"""Up to this many dangers, a shared read-only "no threat" row is sliced instead of built."""


def idle_bot(world: World, config: Config) -> int:
    """Presses nothing: the ship waits and the rocks come (a baseline and a test workload)."""
    return 0


def spinner_bot(world: World, config: Config) -> int:
    """Turns left for ever and fires whenever it can.

    The core fires on the press edge, so fire is pressed on every tick after a tick without
    it (read from ``world.fire_held``): one shot every other tick, up to the shot cap.
    """
    return spin(world.fire_held)


def spin(fire_held: bool | np.ndarray) -> int | np.ndarray:
    """The spinner's buttons given whether fire was held last tick: one game's (a bool) or a
    batch's (an array of them, ``asteroids.core.bot_batch``)."""
    return _LEFT | _FIRE * (1 - fire_held)


# --- the aimer's geometry (plain IEEE + - * / and sqrt, so its answers are the same everywhere)


def _fold(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Where a point moving freely to ``x`` ends up when it bounces between ``lo`` and ``hi``."""
    span = np.maximum(hi - lo, 1e-9)
    y = (x - lo) % (2.0 * span)
    return lo + np.where(y > span, 2.0 * span - y, y)


def _closest(rel: np.ndarray, vel: np.ndarray, horizon: np.ndarray,
             images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Time and distance of closest approach of relative motions ``rel + vel * t``.

    ``t`` runs over [0, horizon]. Each motion is tried against every image offset in
    ``images`` (in a wrapping world: the nearest image now and its eight neighbours, so a
    path that crosses the seam is followed into the next copy of the world instead of being
    measured the long way); the nearest pass wins.

    Args:
        rel: ``(..., 2)`` relative positions now (nearest images, when the world wraps).
        vel: ``(..., 2)`` relative velocities, px per tick.
        horizon: ticks to look ahead, broadcastable to ``rel[..., 0]``.
        images: ``(I, 2)`` offsets to add to ``rel``; ``[[0, 0]]`` when nothing wraps.

    Returns:
        ``(t, miss)`` arrays of shape ``rel.shape[:-1]``.
    """
    r = rel[..., None, :] + images
    v = vel[..., None, :]
    rv = r * v
    vv = vel * vel
    tau = (rv[..., 0] + rv[..., 1]) / np.maximum(vv[..., 0] + vv[..., 1], 1e-300)[..., None]
    tau = np.minimum(np.maximum(-tau, 0.0), np.asarray(horizon)[..., None])
    m = r + v * tau[..., None]
    mm = m * m
    d2 = mm[..., 0] + mm[..., 1]
    if images.shape[0] == 1:
        return tau[..., 0], np.sqrt(d2[..., 0])
    best = d2.min(axis=-1)
    return np.where(d2 == best[..., None], tau, np.inf).min(axis=-1), np.sqrt(best)


_NO_THREAT = np.full(_MAX_PLAIN, np.inf)
_NO_THREAT.flags.writeable = False
_STEPS = np.arange(1, _DANGER_TICKS + 1, dtype=np.int64)
_STEPS.flags.writeable = False
_IMAGE_STEPS = np.array([(i, j) for i in (0.0, -1.0, 1.0) for j in (0.0, -1.0, 1.0)])
"""The nearest image and its eight neighbours, in world sizes."""
_IMAGE_STEPS.flags.writeable = False


class _Kit:
    """The numbers the aimer needs this tick that follow from the rules alone."""

    __slots__ = ("all_wrap", "coast", "half", "half_col", "images", "no_threat", "p", "size",
                 "size_col", "steps", "turn_half_cos")

    def __init__(self, p: Params) -> None:
        self.p = p
        # Distances are wrap-aware whenever anything wraps, as in the core's collision tests.
        self.size = p.size if p.wrap_any else None
        self.half = 0.5 * p.size
        self.half_col = self.half[:, None]
        self.size_col = p.size[:, None]
        self.all_wrap = p.wrap_asteroids and p.wrap_saucers
        """Every target wraps (nothing to fold off a wall)."""
        self.no_threat = _NO_THREAT
        self.images = _IMAGE_STEPS * p.size if p.wrap_any else np.zeros((1, 2))
        self.coast = np.multiply.accumulate(np.full(_DANGER_TICKS, p.drag_keep))
        """Drag factors keep**k for k = 1.._DANGER_TICKS (one product after another)."""
        self.steps = _STEPS
        self.turn_half_cos = np.zeros(0)
        """-cos((k + 1/2) turn steps) for k = 0, 1, ...: ascending, for ``searchsorted``.
        Empty when a turn rate under half a heading step per tick rounds to no turn at all:
        then no target costs turn ticks, and none is turned to."""
        if p.turn_steps > 0:
            half_steps = np.arange(p.turn_steps // 2, _HALF_TURN + p.turn_steps, p.turn_steps)
            self.turn_half_cos = -COS[np.minimum(half_steps, _HALF_TURN)]


def _nearest(d: np.ndarray, kit: _Kit) -> np.ndarray:
    """Shortest displacements (the minimum image) when the world wraps, else ``d``.

    The same rule as ``geometry.wrap_delta``, without its input checks (the aimer's inputs
    come from a valid World, and it runs several times a tick).
    """
    if kit.size is None:
        return d
    return (d + kit.half) % kit.size - kit.half


class _Scene:
    """What the aimer sees this tick: targets (rocks, then the saucer) and dangers (targets,
    then the saucer's shots)."""

    __slots__ = ("danger_pos", "danger_rad", "danger_vel", "pos", "rad", "saucer", "vel",
                 "wraps")

    def __init__(self, world: World, p: Params) -> None:
        n = world.ast_id.shape[0]
        enemy = world.shot_owner == SHOOTER_SAUCER
        n_enemy = int(np.count_nonzero(enemy))
        self.saucer = n if world.saucer_alive else -1
        pos, vel, rad = world.ast_pos, world.ast_vel, world.ast_radius
        wraps = np.full(n, p.wrap_asteroids)
        if world.saucer_alive:
            pos = np.concatenate([pos, [[world.saucer_x, world.saucer_y]]])
            vel = np.concatenate([vel, [[world.saucer_vx, world.saucer_vy]]])
            rad = np.append(rad, p.saucer_radius[1 if world.saucer_small else 0])
            wraps = np.append(wraps, p.wrap_saucers)
        self.pos, self.vel, self.rad, self.wraps = pos, vel, rad, wraps
        if n_enemy:
            self.danger_pos = np.concatenate([pos, world.shot_pos[enemy]])
            self.danger_vel = np.concatenate([vel, world.shot_vel[enemy]])
            self.danger_rad = np.concatenate([rad, np.ones(n_enemy)])
        else:
            self.danger_pos, self.danger_vel, self.danger_rad = pos, vel, rad


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


def _escape(world: World, kit: _Kit, sc: _Scene, aim_turn: int) -> tuple[int, int, int]:
    """The safest (turn, thrust) for the next second, and ticks to the first contact under it.

    Candidates hold one choice for ``_DANGER_TICKS`` ticks: the aim turn or no turn or either
    turn, each with and without thrust; dangers fly straight. The first candidate with the
    latest first contact (then the widest clearance) wins, so without danger the aim stands.
    """
    p = kit.p
    turns = [aim_turn] + [t for t in (0, 1, -1) if t != aim_turn]
    cands = [(t, thr) for thr in (0, 1) for t in turns]
    dirs = np.array([t for t, _ in cands], dtype=np.int64)
    thrust = np.array([thr for _, thr in cands], dtype=bool)
    ks = kit.steps
    heads = (world.ship_heading + dirs[:, None] * p.turn_steps * ks[None, :]) % HEADING_STEPS
    acc = np.stack([COS[heads], SIN[heads]], axis=-1) * p.thrust
    v0 = np.array([world.ship_vx, world.ship_vy])
    vel = np.where(thrust[:, None, None], v0 + np.cumsum(acc, axis=1),
                   v0 * kit.coast[None, :, None])
    if p.axis_speed_limit:
        vel = np.clip(vel, -p.max_speed, p.max_speed)
    path = np.array([world.ship_x, world.ship_y]) + np.cumsum(vel, axis=1)
    if not p.wrap_ship:
        r = p.ship_radius
        path = _fold(path, np.full(2, r), p.size - r)
    danger = sc.danger_pos[None, :, :] + sc.danger_vel[None, :, :] * ks[:, None, None]
    rel = _nearest(danger[None, :, :, :] - path[:, :, None, :], kit)
    dist = np.sqrt(rel[..., 0] * rel[..., 0] + rel[..., 1] * rel[..., 1])
    gap = dist - (0.85 * sc.danger_rad + 0.7 * p.ship_radius)[None, None, :]
    gap_by_tick = gap.min(axis=2)
    hit = gap_by_tick < 0.0
    first = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, _DANGER_TICKS + 1)
    clearance = gap_by_tick.min(axis=1)
    best = 0
    for i in range(1, len(cands)):
        if (first[i], clearance[i]) > (first[best], clearance[best]):
            best = i
    turn, thr = cands[best]
    return turn, thr, int(first[best])


def _all_handled(threat: np.ndarray, threat_t: np.ndarray, t_all: np.ndarray,
                 taken: np.ndarray, k: int, m: int, target: int, reach: np.ndarray) -> bool:
    """Whether every threat is being shot away in time: by a shot in flight, or by the shot
    the aimer is turning to fire at it."""
    handled = np.zeros(threat.shape[0], dtype=bool)
    if k:
        taken_at = np.where(taken, t_all[:k, :m], np.inf).min(axis=0)
        handled[:m] = taken_at + 1.0 < threat_t[:m]
    if target >= 0:
        handled[target] |= bool(reach[target] + 2.0 < threat_t[target])
    return not (threat & ~handled).any()


def aimer_bot(world: World, config: Config) -> int:
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
    kit = _Kit(rules_of(world, config))
    p = kit.p
    sc = _Scene(world, p)
    m = sc.pos.shape[0]
    nd = sc.danger_pos.shape[0]
    if nd == 0:
        return 0
    sx, sy, vx, vy = world.ship_x, world.ship_y, world.ship_vx, world.ship_vy
    h = world.ship_heading % HEADING_STEPS
    hit_r = _HIT_SHARE * sc.rad

    # (1) One query for every mover that matters: the ship's shots in flight, the shot it
    # would fire next tick after turning left, not turning or turning right, and the ship.
    mine = world.shot_owner == SHOOTER_SHIP
    k = int(np.count_nonzero(mine))
    nvx, nvy = vx * p.drag_keep, vy * p.drag_keep
    extra = []
    for turn in (1, 0, -1):
        h1 = (h + turn * p.turn_steps) % HEADING_STEPS
        c, s = _COS[h1], _SIN[h1]
        svx, svy = _shot_velocity(p, h1, nvx, nvy)
        reach_ticks = p.shot_ticks - 1.0
        extra.append((sx + c * 0.5 * p.ship_length, sy + s * 0.5 * p.ship_length, svx, svy,
                      reach_ticks))
    extra.append((sx, sy, vx, vy, float(_DANGER_TICKS)))
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
    rel_all = _nearest(sc.danger_pos[None, :, :] - rows_pos_a[:, None, :], kit)
    t_all, miss_all = _closest(rel_all, sc.danger_vel[None, :, :] - rows_vel_a[:, None, :],
                               horizon[:, None], kit.images)
    taken = miss_all[:k, :m] < hit_r
    free = ~taken.any(axis=0) if k else np.ones(m, dtype=bool)
    # Threats: contact within the horizon; threat_t is when contact begins (not the closest
    # approach, which for a rock flying straight at the ship is when it would be dead centre).
    reach_r = sc.danger_rad + p.ship_radius + _DANGER_MARGIN
    miss_ship = miss_all[-1]
    threat = miss_ship < reach_r
    threat_t = kit.no_threat[:nd] if nd <= _MAX_PLAIN else np.full(nd, np.inf)
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
        hx, hy = _COS[h], _SIN[h]
        bouncing = not kit.all_wrap
        # First guess of the turn ticks: toward where the target is now (from the query).
        r = rel_all[-1, :m].T
        rr = r * r
        n = np.searchsorted(kit.turn_half_cos,
                            -(r[0] * hx + r[1] * hy) / np.maximum(np.sqrt(rr[0] + rr[1]), 1e-9))
        for _ in range(2):
            if bouncing:
                here = np.array([[sx], [sy]]) + ship_v * n
                d = _future(sc.pos, sc.vel, n, sc.rad, sc.wraps, p).T - here
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
                later = _future(sc.pos, sc.vel, n + t, sc.rad, sc.wraps, p).T - here
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
    if in_danger and not _all_handled(threat, threat_t, t_all, taken, k, m, target, reach):
        turn, thrust, first = _escape(world, kit, sc, aim_turn)
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
    try:
        return BOTS[name]
    except KeyError:
        pass
    known = ", ".join(sorted(BOTS))
    close = difflib.get_close_matches(str(name), sorted(BOTS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown bot {name!r}{hint}; known bots: {known}")
