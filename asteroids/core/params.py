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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from asteroids.config.declare import Convert
from asteroids.config.knobs import knobs
from asteroids.config.schema import MATCH_TABLES, RULE_TABLES, Config
from asteroids.core.tables import HEADING_STEPS, SHIP_OUTLINE

__all__ = ["DERIVED_PARAMS", "KNOB_PARAMS", "Params", "compile_params", "convert", "params_for",
           "per_tick"]


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


KNOB_PARAMS: tuple[tuple[str, str], ...] = (
    ("rules_version", "rules_version"),
    ("ship_length", "ship.length_px"),
    ("thrust", "ship.thrust_px_per_s2"),
    ("turn_steps", "ship.turn_deg_per_s"),
    ("max_speed", "ship.max_speed_px_per_s"),
    ("respawn_ticks", "ship.respawn_delay_s"),
    ("safe_radius", "ship.safe_radius_px"),
    ("hyper_enabled", "ship.hyperspace.enabled"),
    ("hyper_ticks", "ship.hyperspace.duration_s"),
    ("hyper_risky", "ship.hyperspace.risky"),
    ("hyper_margin", "ship.hyperspace.edge_margin"),
    ("shield_enabled", "ship.shield.enabled"),
    ("shield_ticks", "ship.shield.energy_s"),
    ("shield_radius", "ship.shield.radius_px"),
    ("shield_restitution", "ship.shield.restitution"),
    ("shield_refill", "ship.shield.refill_per_wave"),
    ("shot_speed", "shots.speed_px_per_s"),
    ("shot_inherit", "shots.inherit_velocity"),
    ("shot_axis_cap", "shots.max_axis_speed_px_per_s"),
    ("shot_ticks", "shots.lifetime_s"),
    ("shot_max", "shots.max_alive"),
    ("autofire", "shots.autofire"),
    ("autofire_ticks", "shots.autofire_interval_s"),
    ("vertices_min", "asteroids.vertices_min"),
    ("vertices_max", "asteroids.vertices_max"),
    ("jaggedness", "asteroids.jaggedness"),
    ("ast_speed_min", "asteroids.speed_min_px_per_s"),
    ("ast_speed_max", "asteroids.speed_max_px_per_s"),
    ("spin_max_steps", "asteroids.spin_max_deg_per_s"),
    ("split_children", "asteroids.split_children"),
    ("split_kick", "asteroids.split_kick_px_per_s"),
    ("ast_max", "asteroids.max_alive"),
    ("ast_collide", "asteroids.collide"),
    ("ast_restitution", "asteroids.restitution"),
    ("saucers", "saucers.enabled"),
    ("saucer_first_ticks", "saucers.first_interval_s"),
    ("saucer_step_ticks", "saucers.interval_step_s"),
    ("saucer_min_ticks", "saucers.min_interval_s"),
    ("lurk_ticks", "saucers.lurk_s"),
    ("lurk_min", "saucers.lurk_min_asteroids"),
    ("lurk_min_max", "saucers.lurk_min_asteroids_max"),
    ("always_large", "saucers.always_large_count"),
    ("small_score", "saucers.small_score"),
    ("saucer_speed", "saucers.speed_px_per_s"),
    ("zigzag_ticks", "saucers.zigzag_interval_s"),
    ("saucer_fire_ticks", "saucers.fire_interval_s"),
    ("saucer_max_shots", "saucers.max_shots"),
    ("saucer_shot_speed", "saucers.shot_speed_px_per_s"),
    ("saucer_shot_ticks", "saucers.shot_lifetime_s"),
    ("aim_error_steps", "saucers.aim_error_deg"),
    ("aim_error_expert_steps", "saucers.aim_error_expert_deg"),
    ("expert_score", "saucers.expert_score"),
    ("ramming_scores", "scoring.ramming_scores"),
    ("extra_life_every", "scoring.extra_life_every"),
    ("lives", "game.lives"),
    ("max_lives", "game.max_lives"),
    ("first_wave", "game.first_wave_asteroids"),
    ("wave_increment", "game.wave_increment"),
    ("max_wave", "game.max_wave_asteroids"),
    ("wave_delay_ticks", "game.next_wave_delay_s"),
    ("spawn_clearance", "game.spawn_clearance_px"),
    ("beat_start_ticks", "game.heartbeat.start_interval_s"),
    ("beat_min_ticks", "game.heartbeat.min_interval_s"),
    ("beat_quicken_ticks", "game.heartbeat.quicken_every_s"),
    ("beat_step_ticks", "game.heartbeat.quicken_step_s"),
)
"""The Params fields that are one knob's per-tick value as it is (``per_tick[knob]``), each
with its knob: the whole mapping, read by ``compile_params``. Where a field's name is not
its knob's, the name changes between layers; renaming those fields (across the core's
modules) to their knob's name would leave this table a list of knob names."""


def _borders(t: Mapping[str, Any]) -> tuple[str, ...]:
    return (t["borders.asteroids"], t["borders.ship"], t["borders.shots"], t["borders.saucers"])


def _obstacle_points(config: Config) -> np.ndarray:
    pts = [(float(x), float(y)) for obstacle in config.obstacles for x, y in obstacle.points]
    return _frozen(np.array(pts, dtype=np.float64).reshape(-1, 2))


def _obstacle_offsets(config: Config) -> np.ndarray:
    offsets = [0]
    for obstacle in config.obstacles:
        offsets.append(offsets[-1] + len(obstacle.points))
    return _frozen(np.array(offsets, dtype=np.int64))


DERIVED_PARAMS: tuple[tuple[str, Callable[[Mapping[str, Any], Config], Any]], ...] = (
    ("width", lambda t, c: t["world.width_px"]),
    ("height", lambda t, c: t["world.height_px"]),
    ("size", lambda t, c: _frozen(np.array([t["world.width_px"], t["world.height_px"]],
                                           dtype=np.float64))),
    ("wrap_any", lambda t, c: "wrap" in _borders(t)),
    ("wrap_size", lambda t, c: (t["world.width_px"], t["world.height_px"])
     if "wrap" in _borders(t) else None),
    ("wrap_asteroids", lambda t, c: t["borders.asteroids"] == "wrap"),
    ("wrap_ship", lambda t, c: t["borders.ship"] == "wrap"),
    ("wrap_shots", lambda t, c: t["borders.shots"] == "wrap"),
    ("wrap_saucers", lambda t, c: t["borders.saucers"] == "wrap"),
    ("ship_radius", lambda t, c: t["ship.length_px"] * _SHIP_EXTENT),
    ("drag_keep", lambda t, c: max(0.0, 1.0 - t["ship.drag_per_s"])),
    ("axis_speed_limit", lambda t, c: t["ship.speed_limit"] == "axis"),
    ("shots_ricochet_obstacles", lambda t, c: t["shots.at_obstacles"] == "ricochet"),
    ("radius", lambda t, c: tuple(float(r) for r in t["asteroids.radius_px"])),
    ("classic_shapes", lambda t, c: t["asteroids.shapes"] == "classic"),
    ("saucer_radius", lambda t, c: (t["saucers.large_radius_px"], t["saucers.small_radius_px"])),
    ("asteroid_points", lambda t, c: tuple(t["scoring.asteroid"])),
    ("saucer_points", lambda t, c: tuple(t["scoring.saucer"])),
    ("obstacle_points", lambda t, c: _obstacle_points(c)),
    ("obstacle_offsets", lambda t, c: _obstacle_offsets(c)),
)
"""The Params fields worked out from knobs (and the obstacle tables), each as a function of
the per-tick numbers ``t`` and the Config: the only other way a Params field is made."""


def compile_params(config: Config) -> Params:
    """Convert a Config to per-tick Params (pure): ``KNOB_PARAMS`` and ``DERIVED_PARAMS``."""
    t = per_tick(config)
    fields_ = {name: t[knob] for name, knob in KNOB_PARAMS}
    fields_.update((name, make(t, config)) for name, make in DERIVED_PARAMS)
    return Params(config=config, per_tick=t, **fields_)


def params_for(rules: Config | Params) -> Params:
    """``rules`` as Params: compiled when it is a Config (each call compiles: hold the
    result, or the World that carries it, where a loop needs it), as it is when it already
    is Params."""
    return rules if isinstance(rules, Params) else compile_params(rules)
