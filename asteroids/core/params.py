"""A Config compiled once into per-tick numbers: the only form the tick path reads.

Seconds become integer ticks and per-second rates become per-tick rates here, with IEEE
``+ - * /`` and ``round`` only, so the same config gives the same numbers on every machine.

Compiling takes tens of microseconds, far more than a tick may spend on it, so it happens
once per game and per change of rules, by whoever runs the game: it passes the ``Params`` to
every ``new_world`` and ``step`` (as Gymnasium passes its params). A World carries no rules
and nothing here keeps state between calls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from asteroids.config.declare import Convert
from asteroids.config.knobs import knobs
from asteroids.config.schema import MATCH_TABLES, RULE_TABLES, Config
from asteroids.core.tables import HEADING_STEPS, SHIP_OUTLINE

__all__ = ["Params", "compile_params", "convert", "params_for", "per_tick"]


@dataclass(frozen=True, slots=True)
class Params:
    """Per-tick rule numbers derived from a Config (lengths in px, time in ticks)."""

    config: Config
    per_tick: Mapping[str, Any]
    """Every rule knob by dotted name, converted as its schema declaration says
    (``per_tick``); the named fields below are the ones the rules have always read."""
    rules_version: int
    """The rules version (compatibility level) to play: a rule changed in a later version
    keeps its old behaviour where this is older (docs/replay-format.md)."""
    width: float
    height: float
    size: np.ndarray
    """(2,) world width and height."""
    wrap_any: bool
    """True when any kind of object wraps: collision queries must then be wrap-aware."""
    wrap_size: tuple[float, float] | None
    """``(width, height)`` for the collision queries' ``world_size`` when anything wraps,
    else None."""
    wrap_asteroids: bool
    wrap_ship: bool
    wrap_shots: bool
    wrap_saucers: bool
    # ship
    ship_length: float
    ship_radius: float
    thrust: float
    turn_steps: int
    drag_keep: float
    max_speed: float
    axis_speed_limit: bool
    respawn_ticks: int
    safe_radius: float
    hyper_enabled: bool
    hyper_ticks: int
    hyper_risky: bool
    hyper_margin: float
    shield_enabled: bool
    shield_ticks: int
    shield_radius: float
    shield_restitution: float
    shield_refill: bool
    # shots
    shot_speed: float
    shot_inherit: bool
    shot_axis_cap: float
    shot_ticks: int
    shot_max: int
    autofire: bool
    autofire_ticks: int
    shots_ricochet_obstacles: bool
    # asteroids
    radius: tuple[float, float, float]
    classic_shapes: bool
    vertices_min: int
    vertices_max: int
    jaggedness: float
    ast_speed_min: float
    ast_speed_max: float
    spin_max_steps: int
    split_children: int
    split_kick: float
    ast_max: int
    ast_collide: bool
    ast_restitution: float
    # saucers
    saucers: bool
    saucer_first_ticks: int
    saucer_step_ticks: int
    saucer_min_ticks: int
    lurk_ticks: int
    lurk_min: int
    lurk_min_max: int
    always_large: int
    small_score: int
    saucer_speed: float
    zigzag_ticks: int
    saucer_radius: tuple[float, float]
    saucer_fire_ticks: int
    saucer_max_shots: int
    saucer_shot_speed: float
    saucer_shot_ticks: int
    aim_error_steps: int
    aim_error_expert_steps: int
    expert_score: int
    # scoring and flow
    asteroid_points: tuple[int, int, int]
    saucer_points: tuple[int, int]
    ramming_scores: bool
    extra_life_every: int
    lives: int
    max_lives: int
    first_wave: int
    wave_increment: int
    max_wave: int
    wave_delay_ticks: int
    spawn_clearance: float
    beat_start_ticks: int
    beat_min_ticks: int
    beat_quicken_ticks: int
    beat_step_ticks: int
    # obstacles: packed world-space outlines
    obstacle_points: np.ndarray
    obstacle_offsets: np.ndarray

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its Config, compiled again when unpickled (``per_tick`` is a read-only
        mapping, which does not pickle)."""
        return (compile_params, (self.config,))


_SHIP_EXTENT = max(math.sqrt(x * x + y * y) for x, y in SHIP_OUTLINE.tolist())
"""Farthest point of the ship outline from its centre, in ship lengths."""


def _ticks(seconds: float, hz: float, at_least: int = 0) -> int:
    return max(at_least, round(seconds * hz))


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


_DEG_TO_STEPS = HEADING_STEPS / 360.0


def convert(how: Convert, value: Any, hz: float) -> Any:
    """One knob's value as the per-tick number its rules read, as its schema declaration
    (``tick=``) says: ticks are whole, rates are per tick, angles are heading steps."""
    kind = how.kind
    if kind == "as is":
        return value
    if kind == "ticks":
        return _ticks(value, hz, how.at_least)
    if kind == "per tick":
        return value / hz
    if kind == "per tick^2":
        return value / hz / hz
    if kind == "turn steps":
        return round(value / hz * _DEG_TO_STEPS)
    if kind == "angle steps":
        return round(value * _DEG_TO_STEPS)
    raise ValueError(f"unknown per-tick conversion {kind!r}")


def _walk(out: dict[str, Any], cls: type, obj: Any, prefix: str, hz: float) -> None:
    for knob in knobs(cls):
        key = f"{prefix}.{knob.name}" if prefix else knob.name
        value = getattr(obj, knob.name)
        if knob.kind == "table" and knob.cls is not None:
            _walk(out, knob.cls, value, key, hz)
        else:
            out[key] = convert(knob.meta["tick"], value, hz)


def per_tick(config: Config) -> Mapping[str, Any]:
    """Every rule knob of ``config`` (``RULE_TABLES`` and ``MATCH_TABLES``) by dotted name,
    converted to per-tick numbers as the schema declares. A rule added as a new knob reads
    its number here (``params.per_tick["game.some_knob_s"]``); nothing else is needed."""
    hz = config.world.tick_hz
    by_name = {k.name: k for k in knobs(Config)}
    out: dict[str, Any] = {}
    for name in RULE_TABLES + MATCH_TABLES:
        knob = by_name[name]
        value = getattr(config, name)
        if knob.kind == "table" and knob.cls is not None:
            _walk(out, knob.cls, value, name, hz)
        else:
            out[name] = convert(knob.meta["tick"], value, hz)
    return MappingProxyType(out)


def compile_params(config: Config) -> Params:
    """Convert a Config to per-tick Params (pure)."""
    t = per_tick(config)
    w, h = config.world.width_px, config.world.height_px
    b = config.borders
    pts: list[tuple[float, float]] = []
    offsets = [0]
    for obstacle in config.obstacles:
        pts.extend((float(x), float(y)) for x, y in obstacle.points)
        offsets.append(len(pts))
    return Params(
        config=config,
        per_tick=t,
        rules_version=t["rules_version"],
        width=w,
        height=h,
        size=_frozen(np.array([w, h], dtype=np.float64)),
        wrap_any="wrap" in (b.asteroids, b.ship, b.shots, b.saucers),
        wrap_size=(w, h) if "wrap" in (b.asteroids, b.ship, b.shots, b.saucers) else None,
        wrap_asteroids=b.asteroids == "wrap",
        wrap_ship=b.ship == "wrap",
        wrap_shots=b.shots == "wrap",
        wrap_saucers=b.saucers == "wrap",
        ship_length=t["ship.length_px"],
        ship_radius=t["ship.length_px"] * _SHIP_EXTENT,
        thrust=t["ship.thrust_px_per_s2"],
        turn_steps=t["ship.turn_deg_per_s"],
        drag_keep=max(0.0, 1.0 - t["ship.drag_per_s"]),
        max_speed=t["ship.max_speed_px_per_s"],
        axis_speed_limit=t["ship.speed_limit"] == "axis",
        respawn_ticks=t["ship.respawn_delay_s"],
        safe_radius=t["ship.safe_radius_px"],
        hyper_enabled=t["ship.hyperspace.enabled"],
        hyper_ticks=t["ship.hyperspace.duration_s"],
        hyper_risky=t["ship.hyperspace.risky"],
        hyper_margin=t["ship.hyperspace.edge_margin"],
        shield_enabled=t["ship.shield.enabled"],
        shield_ticks=t["ship.shield.energy_s"],
        shield_radius=t["ship.shield.radius_px"],
        shield_restitution=t["ship.shield.restitution"],
        shield_refill=t["ship.shield.refill_per_wave"],
        shot_speed=t["shots.speed_px_per_s"],
        shot_inherit=t["shots.inherit_velocity"],
        shot_axis_cap=t["shots.max_axis_speed_px_per_s"],
        shot_ticks=t["shots.lifetime_s"],
        shot_max=t["shots.max_alive"],
        autofire=t["shots.autofire"],
        autofire_ticks=t["shots.autofire_interval_s"],
        shots_ricochet_obstacles=t["shots.at_obstacles"] == "ricochet",
        radius=tuple(float(r) for r in t["asteroids.radius_px"]),  # type: ignore[arg-type]
        classic_shapes=t["asteroids.shapes"] == "classic",
        vertices_min=t["asteroids.vertices_min"],
        vertices_max=t["asteroids.vertices_max"],
        jaggedness=t["asteroids.jaggedness"],
        ast_speed_min=t["asteroids.speed_min_px_per_s"],
        ast_speed_max=t["asteroids.speed_max_px_per_s"],
        spin_max_steps=t["asteroids.spin_max_deg_per_s"],
        split_children=t["asteroids.split_children"],
        split_kick=t["asteroids.split_kick_px_per_s"],
        ast_max=t["asteroids.max_alive"],
        ast_collide=t["asteroids.collide"],
        ast_restitution=t["asteroids.restitution"],
        saucers=t["saucers.enabled"],
        saucer_first_ticks=t["saucers.first_interval_s"],
        saucer_step_ticks=t["saucers.interval_step_s"],
        saucer_min_ticks=t["saucers.min_interval_s"],
        lurk_ticks=t["saucers.lurk_s"],
        lurk_min=t["saucers.lurk_min_asteroids"],
        lurk_min_max=t["saucers.lurk_min_asteroids_max"],
        always_large=t["saucers.always_large_count"],
        small_score=t["saucers.small_score"],
        saucer_speed=t["saucers.speed_px_per_s"],
        zigzag_ticks=t["saucers.zigzag_interval_s"],
        saucer_radius=(t["saucers.large_radius_px"], t["saucers.small_radius_px"]),
        saucer_fire_ticks=t["saucers.fire_interval_s"],
        saucer_max_shots=t["saucers.max_shots"],
        saucer_shot_speed=t["saucers.shot_speed_px_per_s"],
        saucer_shot_ticks=t["saucers.shot_lifetime_s"],
        aim_error_steps=t["saucers.aim_error_deg"],
        aim_error_expert_steps=t["saucers.aim_error_expert_deg"],
        expert_score=t["saucers.expert_score"],
        asteroid_points=tuple(t["scoring.asteroid"]),  # type: ignore[arg-type]
        saucer_points=tuple(t["scoring.saucer"]),  # type: ignore[arg-type]
        ramming_scores=t["scoring.ramming_scores"],
        extra_life_every=t["scoring.extra_life_every"],
        lives=t["game.lives"],
        max_lives=t["game.max_lives"],
        first_wave=t["game.first_wave_asteroids"],
        wave_increment=t["game.wave_increment"],
        max_wave=t["game.max_wave_asteroids"],
        wave_delay_ticks=t["game.next_wave_delay_s"],
        spawn_clearance=t["game.spawn_clearance_px"],
        beat_start_ticks=t["game.heartbeat.start_interval_s"],
        beat_min_ticks=t["game.heartbeat.min_interval_s"],
        beat_quicken_ticks=t["game.heartbeat.quicken_every_s"],
        beat_step_ticks=t["game.heartbeat.quicken_step_s"],
        obstacle_points=_frozen(np.array(pts, dtype=np.float64).reshape(-1, 2)),
        obstacle_offsets=_frozen(np.array(offsets, dtype=np.int64)),
    )


def params_for(rules: Config | Params) -> Params:
    """``rules`` as Params: compiled when it is a Config (each call compiles: hold the
    result, or the World that carries it, where a loop needs it), as it is when it already
    is Params."""
    return rules if isinstance(rules, Params) else compile_params(rules)
