"""What a pilot's games say about it: the statistics ``asteroids persona fit`` reads.

A game (a replay's seed, settings and masks) is played again tick by tick and read with the
same yardsticks the personas use (``asteroids.pilots.pilot``), so a persona's games measure
back to its parameters:

* **reaction**: a new wave is the cleanest stimulus a game offers: the field was empty, and
  the rocks appear at once. The reaction is the time from their appearance to the pilot's
  first turn or shot, over the waves met flying and not already turning or firing in the
  half second before. None later than ``RESPONSE_WINDOW_S`` counts.
* **thrust share**: ticks thrusting over ticks flying.
* **spray**: presses of fire at moments fire was ready (the press edge, under the shot cap,
  ``TAP_S`` after the last press) while no target (a rock, the saucer, a declared enemy the
  ship's shots hit) lay within ``UNAIMED_DEG`` of the heading, neither now nor a reaction
  time ago (a slow pilot still shoots at a rock it has not yet seen break); per such moment.
* **close calls** and **hyperspace**: a rock coming within ``PANIC_S`` of contact as the
  pilot sees it (the world a reaction time ago, against the ship now); jumps (hyperspace
  presses) per close call and per minute.
* **shots per kill**, and **survival per wave**: ships lost and minutes played in each wave.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import World, new_world, step
from asteroids.core.events import (
    AsteroidDestroyed,
    CraftDestroyed,
    SaucerDestroyed,
    ShipDestroyed,
    ShotFired,
)
from asteroids.core.inputs import InputFrame
from asteroids.core.params import params_for
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SHIP
from asteroids.pilots.pilot import CONTACT_MARGIN_PX, PANIC_S, Rules, contact_times, sighted

__all__ = ["QUIET_S", "RESPONSE_WINDOW_S", "UNAIMED_DEG", "GameStats", "measure_game",
           "measure_replay", "pooled"]

RESPONSE_WINDOW_S = 1.5
"""A response later than this after a wave appeared is not counted as one."""
QUIET_S = 0.5
"""A wave counts for the reaction only if the pilot neither turned nor fired this long
before it appeared (else it was not waiting for it)."""
UNAIMED_DEG = 30.0
"""A heading farther than this from every rock and the saucer is not aimed at anything."""

_THRUST, _LEFT, _RIGHT = int(InputFrame.THRUST), int(InputFrame.LEFT), int(InputFrame.RIGHT)
_FIRE, _HYPER = int(InputFrame.FIRE), int(InputFrame.HYPERSPACE)
_ACT = _LEFT | _RIGHT | _FIRE
_COS_UNAIMED = 0.8660254037844387  # cos 30 degrees


@dataclass
class GameStats:
    """The raw counts of one game (``pooled`` reads several together)."""

    hz: float
    ticks: int = 0
    flying: int = 0
    thrusting: int = 0
    reactions: list[float] = field(default_factory=list)
    """Milliseconds from each new wave's appearance to the pilot's first turn or shot."""
    ready_unaimed: int = 0
    sprayed: int = 0
    close_calls: int = 0
    jumps: int = 0
    shots: int = 0
    kills: int = 0
    wave_deaths: dict[int, int] = field(default_factory=dict)
    wave_ticks: dict[int, int] = field(default_factory=dict)


def measure_game(config: Config, seed: int, masks: Iterable[int], *, delay_ticks: int = 0,
                 configs: Callable[[int], Config] | None = None) -> GameStats:
    """Play a game again from its seed and masks, and count what it shows.

    Args:
        config: the settings it started with.
        seed: its seed.
        masks: one input mask per tick.
        delay_ticks: the pilot's reaction time, in ticks: close calls and ghost shots are
            read in the world this long ago (``pooled``'s reaction, from a first reading).
        configs: ``tick -> Config`` for games whose rules changed as they ran (a replay's
            ``config_at``); None: ``config`` throughout.
    """
    rules = Rules(config)
    out = GameStats(hz=rules.hz)
    p = rules.p
    world: World = new_world(p, seed)
    compiled_from, rules_now = config, p  # recompiled only when ``configs`` changes them
    seen: deque[World] = deque(maxlen=max(delay_ticks, 0) + 1)
    last_close = np.zeros(0, dtype=np.int64)
    last_press = last_act = -(10**9)
    wave_at: int | None = None
    quiet = QUIET_S * rules.hz
    window = RESPONSE_WINDOW_S * rules.hz
    had_rocks = world.ast_id.shape[0] > 0
    for mask in masks:
        t = world.tick
        seen.append(world)
        flying = world.ship_state == SHIP_FLYING and not world.game_over
        rocks = world.ast_id.shape[0] > 0
        if rocks and not had_rocks and flying and t - last_act > quiet:
            wave_at = t
        had_rocks = rocks
        if flying:
            out.flying += 1
            out.thrusting += bool(mask & _THRUST)
            if wave_at is not None and mask & _ACT:
                out.reactions.append((t - wave_at) * 1000.0 / rules.hz)
                wave_at = None
            close = _close(seen[0], world, rules)
            out.close_calls += int(np.setdiff1d(close, last_close).shape[0])
            last_close = close
            ready = (not world.fire_held and t - last_press >= rules.tap_ticks
                     and np.count_nonzero(world.shot_owner == SHOOTER_SHIP) < p.shots_max_alive)
            pressed = bool(mask & _FIRE) and not world.fire_held
            if ready and _unaimed(world, world, rules) and _unaimed(seen[0], world, rules):
                out.ready_unaimed += 1
                out.sprayed += pressed
            if pressed:
                last_press = t
            if mask & _HYPER and not world.hyper_held:
                out.jumps += 1
        else:
            wave_at = None
            last_close = np.zeros(0, dtype=np.int64)
        if wave_at is not None and t - wave_at > window:
            wave_at = None
        if mask & _ACT:
            last_act = t
        wave = world.wave
        if configs is not None:
            now = configs(t)
            if now is not compiled_from:
                compiled_from, rules_now = now, params_for(now)
        world, events = step(world, mask, rules_now)
        out.ticks += 1
        out.wave_ticks[wave] = out.wave_ticks.get(wave, 0) + 1
        for event in events:
            if isinstance(event, ShotFired):
                out.shots += event.shooter == "ship"
            elif isinstance(event, AsteroidDestroyed | SaucerDestroyed | CraftDestroyed):
                out.kills += event.by == "ship-shot"
            elif isinstance(event, ShipDestroyed):
                out.wave_deaths[wave] = out.wave_deaths.get(wave, 0) + 1
    return out


def _close(seen: World, ship: World, rules: Rules) -> np.ndarray:
    """Ids of what ``seen`` shows that can take ``ship``'s ship within ``PANIC_S`` of
    contact with it (the rocks and the craft of ``sight.SEEN`` that harm it)."""
    shown = sighted(seen, ship, rules)
    rel, vel, rad, ids = (a[shown.harms] for a in shown[:4])
    if ids.shape[0] == 0:
        return ids
    contact = contact_times(rel, vel - np.array([ship.ship_vx, ship.ship_vy]),
                            rad + rules.p.ship_radius + CONTACT_MARGIN_PX, rules.threat_ticks)
    return ids[contact < PANIC_S * rules.hz]


def _unaimed(seen: World, ship: World, rules: Rules) -> bool:
    """Whether no target of ``seen`` (a rock, a craft the ship's shots can hit) lies within
    ``UNAIMED_DEG`` of ``ship``'s heading."""
    shown = sighted(seen, ship, rules)
    rel = shown.rel[shown.aimable]
    if rel.shape[0] == 0:
        return False
    h = ship.ship_heading % HEADING_STEPS
    dot = rel[:, 0] * COS[h] + rel[:, 1] * SIN[h]
    norm = np.sqrt(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1])
    return not bool((dot > _COS_UNAIMED * norm).any())


def measure_replay(replay: Any, delay_ticks: int = 0) -> GameStats:
    """``measure_game`` for a one-player ``Replay``.

    Raises:
        ValueError: for a two-player replay (its masks drive a match).
    """
    if replay.players != 1:
        raise ValueError("a two-player replay (players take turns at one set of controls) "
                         "cannot be read as one pilot's game")
    configs = replay.config_at if replay.config_changes else None
    return measure_game(replay.config, replay.seed, replay.masks, delay_ticks=delay_ticks,
                        configs=configs)


def pooled(games: list[GameStats]) -> dict[str, Any]:
    """The statistics of several games together, as ``asteroids persona fit`` reports them."""
    reactions = np.array([r for g in games for r in g.reactions], dtype=np.float64)
    median = float(np.median(reactions)) if reactions.size else None
    spread = None
    if reactions.size >= 4:
        q1, q3 = np.percentile(reactions, [25, 75])
        spread = float(q3 - q1) / 1.349  # the standard deviation, were they normal
    flying = sum(g.flying for g in games)
    minutes = sum(g.flying / g.hz for g in games) / 60.0
    ready = sum(g.ready_unaimed for g in games)
    calls = sum(g.close_calls for g in games)
    jumps = sum(g.jumps for g in games)
    kills = sum(g.kills for g in games)
    waves: dict[int, list[float]] = {}
    for g in games:
        for w, ticks in g.wave_ticks.items():
            row = waves.setdefault(w, [0.0, 0.0, 0.0])
            row[0] += 1
            row[1] += g.wave_deaths.get(w, 0)
            row[2] += ticks / g.hz / 60.0
    return {
        "games": len(games),
        "minutes_flying": minutes,
        "reactions": int(reactions.size),
        "reaction_ms": median,
        "reaction_spread_ms": spread,
        "thrust_share": sum(g.thrusting for g in games) / flying if flying else None,
        "spray_per_ready": sum(g.sprayed for g in games) / ready if ready else None,
        "ready_unaimed": ready,
        "close_calls": calls,
        "jumps": jumps,
        "jumps_per_close_call": jumps / calls if calls else None,
        "jumps_per_min": jumps / minutes if minutes else None,
        "shots_per_kill": sum(g.shots for g in games) / kills if kills else None,
        "survival_s": sum(g.ticks / g.hz for g in games) / max(len(games), 1),
        "waves": {w: {"games": int(n), "deaths": int(d), "minutes": m,
                      "deaths_per_min": d / m if m else None}
                  for w, (n, d, m) in sorted(waves.items())},
    }
