"""A Config compiled once into per-tick numbers: the only form the tick path reads.

Seconds become integer ticks and per-second rates become per-tick rates here, with IEEE
``+ - * /`` and ``round`` only, so the same config gives the same numbers on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.tables import HEADING_STEPS, SHIP_OUTLINE

__all__ = ["Params", "compile_params", "params_for"]


@dataclass(frozen=True, slots=True)
class Params:
    """Per-tick rule numbers derived from a Config (lengths in px, time in ticks)."""

    config: Config
    width: float
    height: float
    size: np.ndarray
    """(2,) world width and height."""
    wrap_any: bool
    """True when any kind of object wraps: collision queries must then be wrap-aware."""
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


_SHIP_EXTENT = max(math.sqrt(x * x + y * y) for x, y in SHIP_OUTLINE.tolist())
"""Farthest point of the ship outline from its centre, in ship lengths."""


def _ticks(seconds: float, hz: float, at_least: int = 0) -> int:
    return max(at_least, round(seconds * hz))


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def compile_params(config: Config) -> Params:
    """Convert a Config to per-tick Params (pure; cached by ``params_for``)."""
    hz = config.world.tick_hz
    w, h = config.world.width_px, config.world.height_px
    b = config.borders
    s, sh, a, sc, g = config.ship, config.shots, config.asteroids, config.saucers, config.game
    deg_to_steps = HEADING_STEPS / 360.0
    max_ticks = _ticks(sh.lifetime_s, hz, 1)
    pts: list[tuple[float, float]] = []
    offsets = [0]
    for obstacle in config.obstacles:
        pts.extend((float(x), float(y)) for x, y in obstacle.points)
        offsets.append(len(pts))
    return Params(
        config=config,
        width=w,
        height=h,
        size=_frozen(np.array([w, h], dtype=np.float64)),
        wrap_any="wrap" in (b.asteroids, b.ship, b.shots, b.saucers),
        wrap_asteroids=b.asteroids == "wrap",
        wrap_ship=b.ship == "wrap",
        wrap_shots=b.shots == "wrap",
        wrap_saucers=b.saucers == "wrap",
        ship_length=s.length_px,
        ship_radius=s.length_px * _SHIP_EXTENT,
        thrust=s.thrust_px_per_s2 / hz / hz,
        turn_steps=round(s.turn_deg_per_s / hz * deg_to_steps),
        drag_keep=max(0.0, 1.0 - s.drag_per_s / hz),
        max_speed=s.max_speed_px_per_s / hz,
        axis_speed_limit=s.speed_limit == "axis",
        respawn_ticks=_ticks(s.respawn_delay_s, hz),
        safe_radius=s.safe_radius_px,
        hyper_enabled=s.hyperspace.enabled,
        hyper_ticks=_ticks(s.hyperspace.duration_s, hz, 1),
        hyper_risky=s.hyperspace.risky,
        hyper_margin=s.hyperspace.edge_margin,
        shield_enabled=s.shield.enabled,
        shield_ticks=_ticks(s.shield.energy_s, hz, 1),
        shield_radius=s.shield.radius_px,
        shield_restitution=s.shield.restitution,
        shield_refill=s.shield.refill_per_wave,
        shot_speed=sh.speed_px_per_s / hz,
        shot_inherit=sh.inherit_velocity,
        shot_axis_cap=sh.max_axis_speed_px_per_s / hz,
        shot_ticks=max_ticks,
        shot_max=sh.max_alive,
        autofire=sh.autofire,
        autofire_ticks=_ticks(sh.autofire_interval_s, hz, 1),
        shots_ricochet_obstacles=sh.at_obstacles == "ricochet",
        radius=tuple(float(r) for r in a.radius_px),  # type: ignore[arg-type]
        classic_shapes=a.shapes == "classic",
        vertices_min=a.vertices_min,
        vertices_max=a.vertices_max,
        jaggedness=a.jaggedness,
        ast_speed_min=a.speed_min_px_per_s / hz,
        ast_speed_max=a.speed_max_px_per_s / hz,
        spin_max_steps=round(a.spin_max_deg_per_s / hz * deg_to_steps),
        split_children=a.split_children,
        split_kick=a.split_kick_px_per_s / hz,
        ast_max=a.max_alive,
        ast_collide=a.collide,
        ast_restitution=a.restitution,
        saucers=sc.enabled,
        saucer_first_ticks=_ticks(sc.first_interval_s, hz, 1),
        saucer_step_ticks=_ticks(sc.interval_step_s, hz),
        saucer_min_ticks=_ticks(sc.min_interval_s, hz, 1),
        lurk_ticks=_ticks(sc.lurk_s, hz),
        lurk_min=sc.lurk_min_asteroids,
        lurk_min_max=sc.lurk_min_asteroids_max,
        always_large=sc.always_large_count,
        small_score=sc.small_score,
        saucer_speed=sc.speed_px_per_s / hz,
        zigzag_ticks=_ticks(sc.zigzag_interval_s, hz, 1),
        saucer_radius=(sc.large_radius_px, sc.small_radius_px),
        saucer_fire_ticks=_ticks(sc.fire_interval_s, hz, 1),
        saucer_max_shots=sc.max_shots,
        saucer_shot_speed=sc.shot_speed_px_per_s / hz,
        saucer_shot_ticks=_ticks(sc.shot_lifetime_s, hz, 1),
        aim_error_steps=round(sc.aim_error_deg * deg_to_steps),
        aim_error_expert_steps=round(sc.aim_error_expert_deg * deg_to_steps),
        expert_score=sc.expert_score,
        asteroid_points=tuple(config.scoring.asteroid),  # type: ignore[arg-type]
        saucer_points=tuple(config.scoring.saucer),  # type: ignore[arg-type]
        ramming_scores=config.scoring.ramming_scores,
        extra_life_every=config.scoring.extra_life_every,
        lives=g.lives,
        max_lives=g.max_lives,
        first_wave=g.first_wave_asteroids,
        wave_increment=g.wave_increment,
        max_wave=g.max_wave_asteroids,
        wave_delay_ticks=_ticks(g.next_wave_delay_s, hz),
        spawn_clearance=g.spawn_clearance_px,
        beat_start_ticks=_ticks(g.heartbeat.start_interval_s, hz, 2),
        beat_min_ticks=_ticks(g.heartbeat.min_interval_s, hz, 2),
        beat_quicken_ticks=_ticks(g.heartbeat.quicken_every_s, hz, 1),
        beat_step_ticks=_ticks(g.heartbeat.quicken_step_s, hz),
        obstacle_points=_frozen(np.array(pts, dtype=np.float64).reshape(-1, 2)),
        obstacle_offsets=_frozen(np.array(offsets, dtype=np.int64)),
    )


_cache: list[tuple[Config, Params]] = []


def params_for(config: Config) -> Params:
    """The compiled Params of ``config``, reused while the same Config object is passed."""
    for cfg, params in _cache:
        if cfg is config:
            return params
    params = compile_params(config)
    _cache.insert(0, (config, params))
    del _cache[8:]
    return params
