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

__all__ = ["DERIVED_PARAMS", "KNOB_PARAMS", "Params", "compile_params", "convert", "param_name",
           "params_for", "per_tick"]


@dataclass(frozen=True, slots=True)
class Params:
    """Per-tick rule numbers derived from a Config (lengths in px, time in ticks)."""

    config: Config
    per_tick: Mapping[str, Any]
    """Every rule knob by dotted name, converted as its schema declaration says
    (``per_tick``). The fields below that hold one knob's number are named after it
    (``param_name``: ``saucers.speed_px_per_s`` is ``saucers_speed_px_per_tick``); the others
    are worked out from knobs (``DERIVED_PARAMS``)."""
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
    ship_length_px: float
    ship_radius: float
    ship_thrust_px_per_tick2: float
    ship_turn_steps_per_tick: int
    drag_keep: float
    ship_max_speed_px_per_tick: float
    axis_speed_limit: bool
    ship_respawn_delay_ticks: int
    ship_safe_radius_px: float
    ship_hyperspace_enabled: bool
    ship_hyperspace_duration_ticks: int
    ship_hyperspace_risky: bool
    ship_hyperspace_edge_margin: float
    ship_shield_enabled: bool
    ship_shield_energy_ticks: int
    ship_shield_radius_px: float
    ship_shield_restitution: float
    ship_shield_refill_per_wave: bool
    # shots
    shots_speed_px_per_tick: float
    shots_inherit_velocity: bool
    shots_max_axis_speed_px_per_tick: float
    shots_lifetime_ticks: int
    shots_max_alive: int
    shots_autofire: bool
    shots_autofire_interval_ticks: int
    shots_ricochet_obstacles: bool
    # asteroids
    radius: tuple[float, float, float]
    classic_shapes: bool
    asteroids_vertices_min: int
    asteroids_vertices_max: int
    asteroids_jaggedness: float
    asteroids_speed_min_px_per_tick: float
    asteroids_speed_max_px_per_tick: float
    asteroids_spin_max_steps_per_tick: int
    asteroids_split_children: int
    asteroids_split_kick_px_per_tick: float
    asteroids_max_alive: int
    asteroids_collide: bool
    asteroids_restitution: float
    # saucers
    saucers_enabled: bool
    saucers_first_interval_ticks: int
    saucers_interval_step_ticks: int
    saucers_min_interval_ticks: int
    saucers_lurk_ticks: int
    saucers_lurk_min_asteroids: int
    saucers_lurk_min_asteroids_max: int
    saucers_always_large_count: int
    saucers_small_score: int
    saucers_speed_px_per_tick: float
    saucers_zigzag_interval_ticks: int
    saucer_radius: tuple[float, float]
    saucers_fire_interval_ticks: int
    saucers_max_shots: int
    saucers_shot_speed_px_per_tick: float
    saucers_shot_lifetime_ticks: int
    saucers_aim_error_steps: int
    saucers_aim_error_expert_steps: int
    saucers_expert_score: int
    # scoring and flow
    asteroid_points: tuple[int, int, int]
    saucer_points: tuple[int, int]
    scoring_ramming_scores: bool
    scoring_extra_life_every: int
    game_lives: int
    game_max_lives: int
    game_first_wave_asteroids: int
    game_wave_increment: int
    game_max_wave_asteroids: int
    game_next_wave_delay_ticks: int
    game_spawn_clearance_px: float
    game_heartbeat_start_interval_ticks: int
    game_heartbeat_min_interval_ticks: int
    game_heartbeat_quicken_every_ticks: int
    game_heartbeat_quicken_step_ticks: int
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


KNOB_PARAMS: tuple[str, ...] = (
    "rules_version",
    "ship.length_px",
    "ship.thrust_px_per_s2",
    "ship.turn_deg_per_s",
    "ship.max_speed_px_per_s",
    "ship.respawn_delay_s",
    "ship.safe_radius_px",
    "ship.hyperspace.enabled",
    "ship.hyperspace.duration_s",
    "ship.hyperspace.risky",
    "ship.hyperspace.edge_margin",
    "ship.shield.enabled",
    "ship.shield.energy_s",
    "ship.shield.radius_px",
    "ship.shield.restitution",
    "ship.shield.refill_per_wave",
    "shots.speed_px_per_s",
    "shots.inherit_velocity",
    "shots.max_axis_speed_px_per_s",
    "shots.lifetime_s",
    "shots.max_alive",
    "shots.autofire",
    "shots.autofire_interval_s",
    "asteroids.vertices_min",
    "asteroids.vertices_max",
    "asteroids.jaggedness",
    "asteroids.speed_min_px_per_s",
    "asteroids.speed_max_px_per_s",
    "asteroids.spin_max_deg_per_s",
    "asteroids.split_children",
    "asteroids.split_kick_px_per_s",
    "asteroids.max_alive",
    "asteroids.collide",
    "asteroids.restitution",
    "saucers.enabled",
    "saucers.first_interval_s",
    "saucers.interval_step_s",
    "saucers.min_interval_s",
    "saucers.lurk_s",
    "saucers.lurk_min_asteroids",
    "saucers.lurk_min_asteroids_max",
    "saucers.always_large_count",
    "saucers.small_score",
    "saucers.speed_px_per_s",
    "saucers.zigzag_interval_s",
    "saucers.fire_interval_s",
    "saucers.max_shots",
    "saucers.shot_speed_px_per_s",
    "saucers.shot_lifetime_s",
    "saucers.aim_error_deg",
    "saucers.aim_error_expert_deg",
    "saucers.expert_score",
    "scoring.ramming_scores",
    "scoring.extra_life_every",
    "game.lives",
    "game.max_lives",
    "game.first_wave_asteroids",
    "game.wave_increment",
    "game.max_wave_asteroids",
    "game.next_wave_delay_s",
    "game.spawn_clearance_px",
    "game.heartbeat.start_interval_s",
    "game.heartbeat.min_interval_s",
    "game.heartbeat.quicken_every_s",
    "game.heartbeat.quicken_step_s",
)
"""The knobs whose per-tick number is a Params field as it is, named by ``param_name``:
the whole mapping, read by ``compile_params``."""

_UNIT_IN_TICKS = MappingProxyType({
    "ticks": ("_s", "_ticks"), "per tick": ("_per_s", "_per_tick"),
    "per tick^2": ("_per_s2", "_per_tick2"), "turn steps": ("_deg_per_s", "_steps_per_tick"),
    "angle steps": ("_deg", "_steps")})
"""How a knob's unit suffix reads once its declared conversion (``tick=``) has been made."""


def param_name(knob: str) -> str:
    """The Params field of ``knob``: its dotted name joined by underscores, its unit suffix
    the per-tick one its conversion gives (``ship.respawn_delay_s`` -> ``ship_respawn_delay_ticks``:
    a number of ticks), so one name follows a knob through every layer without lying about
    its unit."""
    how = _declared(knob).kind
    name = knob.replace(".", "_")
    if how in _UNIT_IN_TICKS:
        old, new = _UNIT_IN_TICKS[how]
        if not name.endswith(old):
            raise TypeError(f"{knob}: a {how!r} knob's name must end in {old!r}")
        name = name[: -len(old)] + new
    return name


def _declared(knob: str) -> Convert:
    """The per-tick conversion ``knob`` declares (``tick=``)."""
    cls: Any = Config
    for part in knob.split("."):
        found = {k.name: k for k in knobs(cls)}[part]
        if found.kind == "table" and found.cls is not None:
            cls = found.cls
        else:
            return found.meta["tick"]  # type: ignore[no-any-return]
    raise TypeError(f"{knob} is a table, not a knob")


_KNOB_FIELDS: tuple[tuple[str, str], ...] = tuple((param_name(k), k) for k in KNOB_PARAMS)
"""``(field, knob)`` for every knob of ``KNOB_PARAMS``, derived once at import."""


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
    fields_ = {name: t[knob] for name, knob in _KNOB_FIELDS}
    fields_.update((name, make(t, config)) for name, make in DERIVED_PARAMS)
    return Params(config=config, per_tick=t, **fields_)


def params_for(rules: Config | Params) -> Params:
    """``rules`` as Params: compiled when it is a Config (each call compiles: hold the
    result, or the World that carries it, where a loop needs it), as it is when it already
    is Params."""
    return rules if isinstance(rules, Params) else compile_params(rules)
