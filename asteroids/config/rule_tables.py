"""The rule tables: the settings that change how the game plays, one frozen dataclass per
TOML table (``[world]``, ``[borders]``, ``[ship]``, ``[shots]``, ``[asteroids]``,
``[saucers]``, ``[scoring]``, ``[game]``, ``[match]`` and the ``[[obstacles]]`` entries).

Every knob here declares, next to its default and allowed values, when a change of it takes
effect in a running game (``timing=``), how the core converts it to per-tick numbers
(``tick=``) and, when it arrived after the first release, its ``before`` value (``knob`` in
``asteroids.config.declare``); a timing only these knobs use is defined here beside them.
Adding a rule setting is one declaration in the table it belongs to
(docs/adding-a-rule.md); ``Config`` in ``asteroids.config.schema`` gathers the tables, lists
them in ``RULE_TABLES`` and ``MATCH_TABLES`` and checks every declaration at import.
Units as in ``asteroids.config.schema``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asteroids.config.declare import (
    ANGLE_STEPS,
    AS_IS,
    BORDER,
    CAP,
    LIVE,
    NEW_ONES,
    NEXT_GAME,
    PER_TICK,
    PER_TICK2,
    SHAPES,
    STEP,
    TIMER,
    TURN_STEPS,
    WORLD_LAYOUT,
    Timing,
    knob,
    ticks,
)

__all__ = [
    "AsteroidsConfig",
    "BORDER_MODES",
    "BordersConfig",
    "GameConfig",
    "HeartbeatConfig",
    "HyperspaceConfig",
    "MatchConfig",
    "Obstacle",
    "SaucersConfig",
    "ScoringConfig",
    "ShieldConfig",
    "ShipConfig",
    "ShotsConfig",
    "WorldConfig",
]

BORDER_MODES = ("wrap", "bounce")
"""What a kind of object may do at the playfield's edge (the ``[borders]`` choices)."""


def _switched_off(old: Any, new: Any) -> bool:
    return bool(old) and not new


def _switched_on_from_0(old: Any, new: Any) -> bool:
    return bool(old == 0 and new != 0)


NEXT_WAVE = Timing(LIVE, "the size of the next wave")
_TICK_RATE = Timing(NEXT_GAME, "every speed and timer in the World is counted in ticks of the "
                    "old rate")
_SAUCERS_ON_OFF = Timing(LIVE, "switched on: at once; switched off: a saucer in flight would "
                         "stop its timers and never leave, so it waits for the next game",
                         _switched_off)
_SAUCER_SPEED = Timing(LIVE, "a saucer in flight keeps its speed across; the zig-zag and the "
                       "next saucer use the new one")
_EXTRA_LIFE_EVERY = Timing(
    LIVE, "the next extra ship still comes at the score already due, later ones every new "
    "amount; switched on from 0 (never), the World holds no due score and every missed ship "
    "would come at once, so that waits for the next game", _switched_on_from_0)
_LIVES_CAP = Timing(LIVE, "ships already in hand are kept; no more are given above the new cap")
_BANNER = Timing(NEXT_GAME, "a two-player game keeps the banner it started with (its replay "
                 "records no change)")
_WAVE_PLACES = Timing(LIVE, "where the next wave's rocks appear and head")


@dataclass(frozen=True, slots=True)
class WorldConfig:
    """The playfield and the simulation clock."""

    width_px: float = knob(
        1280.0, "playfield width", unit="px", lo=200.0, hi=20000.0, timing=WORLD_LAYOUT,
        tick=AS_IS,
    )
    height_px: float = knob(
        720.0, "playfield height", unit="px", lo=200.0, hi=20000.0, timing=WORLD_LAYOUT,
        tick=AS_IS,
    )
    tick_hz: float = knob(
        60.0, "simulation ticks per second (the classic machine ran at 62.5)", unit="Hz", lo=10.0,
        hi=480.0,
        timing=_TICK_RATE,
        tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class BordersConfig:
    """What each kind of object does at the playfield's edge."""

    asteroids: str = knob(
        "wrap", "asteroids at the edge", choices=BORDER_MODES, timing=BORDER, tick=AS_IS,
    )
    ship: str = knob(
        "wrap", "the ship at the edge", choices=BORDER_MODES, timing=BORDER, tick=AS_IS,
    )
    shots: str = knob(
        "wrap", "shots at the edge (bounce = ricochet)", choices=BORDER_MODES, timing=BORDER,
        tick=AS_IS,
    )
    saucers: str = knob(
        "wrap", "saucers at the top/bottom edge (they always leave after one crossing)",
        choices=BORDER_MODES, timing=BORDER, tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class HyperspaceConfig:
    """Vanish and reappear somewhere else, at a risk."""

    enabled: bool = knob(
        True, "whether the hyperspace button works",
        timing=Timing(LIVE, "a jump under way still ends as it began"), tick=AS_IS,
    )
    duration_s: float = knob(
        0.77, "time spent in hyperspace", unit="s", lo=0.0, hi=10.0, lo_open=True, timing=TIMER,
        tick=ticks(1),
    )
    risky: bool = knob(
        True, "classic risk of exploding on re-entry, rising as fewer asteroids remain",
        timing=Timing(LIVE, "decided when the next jump starts"), tick=AS_IS,
    )
    edge_margin: float = knob(
        0.1, "re-entry keeps this fraction of the playfield away from each edge", lo=0.0, hi=0.45,
        timing=STEP, tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class ShieldConfig:
    """Deluxe-style shield: a circle that bounces asteroids while energy lasts."""

    enabled: bool = knob(
        False, "whether the shield button works",
        timing=Timing(LIVE, "switched off, a raised shield drops on the next tick"), tick=AS_IS,
    )
    energy_s: float = knob(
        4.0, "how long a full shield can be held", unit="s", lo=0.0, hi=60.0, lo_open=True,
        timing=Timing(LIVE, "the energy left is kept; a refill gives the new amount"),
        tick=ticks(1),
    )
    radius_px: float = knob(
        26.0, "shield radius", unit="px", lo=1.0, hi=500.0, timing=STEP, tick=AS_IS,
    )
    restitution: float = knob(
        1.0, "bounciness of asteroids off the shield (1 = elastic)", lo=0.0, hi=1.5, timing=STEP,
        tick=AS_IS,
    )
    refill_per_wave: bool = knob(
        True, "refill the shield at each new wave and new ship", timing=STEP, tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class ShipConfig:
    """The player's ship: handling, size and what happens when it dies."""

    length_px: float = knob(
        24.0, "ship length, nose to tail", unit="px", lo=4.0, hi=200.0, timing=STEP, tick=AS_IS,
    )
    thrust_px_per_s2: float = knob(
        300.0, "acceleration while thrusting", unit="px/s^2", lo=0.0, hi=20000.0, timing=STEP,
        tick=PER_TICK2,
    )
    turn_deg_per_s: float = knob(
        270.0, "turn rate", unit="deg/s", lo=0.0, hi=3600.0, timing=STEP, tick=TURN_STEPS,
    )
    drag_per_s: float = knob(
        0.25, "fraction of speed lost per second while coasting (0 = none)", unit="1/s", lo=0.0,
        hi=10.0, timing=STEP, tick=PER_TICK,
    )
    max_speed_px_per_s: float = knob(
        500.0, "top speed", unit="px/s", lo=1.0, hi=20000.0,
        timing=Timing(LIVE, "a ship above the new top speed is slowed to it on " "the next tick"),
        tick=PER_TICK,
    )
    speed_limit: str = knob(
        "radial", "how top speed is enforced: radial (a circle) or axis (the 1979 square)",
        choices=("radial", "axis"), timing=STEP, tick=AS_IS,
    )
    respawn_delay_s: float = knob(
        2.06, "wait after a death before the ship may return", unit="s", lo=0.0, hi=30.0,
        timing=TIMER, tick=ticks(),
    )
    safe_radius_px: float = knob(
        128.0, "the ship returns only when nothing is this close to the centre", unit="px", lo=0.0,
        hi=5000.0, timing=STEP, tick=AS_IS,
    )
    grace_s: float = knob(
        3.0, "after the ship appears (a new game, each return) rocks, saucers and their shots "
        "pass through it this long (0 = never, as in 1979)", unit="s", lo=0.0, hi=30.0,
        timing=TIMER, tick=ticks(), since="0.2.0", before=0.0,
    )
    hyperspace: HyperspaceConfig = field(default_factory=HyperspaceConfig)
    shield: ShieldConfig = field(default_factory=ShieldConfig)


@dataclass(frozen=True, slots=True)
class ShotsConfig:
    """The ship's shots: line segments with a head and a tail."""

    speed_px_per_s: float = knob(
        600.0, "muzzle speed relative to the shooter", unit="px/s", lo=1.0, hi=100000.0,
        timing=NEW_ONES, tick=PER_TICK,
    )
    inherit_velocity: bool = knob(
        True, "shots add the shooter's velocity", timing=NEW_ONES, tick=AS_IS,
    )
    max_axis_speed_px_per_s: float = knob(
        0.0, "clamp each axis of a shot's velocity (0 = no clamp; the 1979 cap is ~868)",
        unit="px/s", lo=0.0, hi=100000.0, timing=NEW_ONES, tick=PER_TICK,
    )
    length_px: float = knob(
        8.0, "drawn length of a shot, tail to head", unit="px", lo=0.0, hi=200.0,
        timing=Timing(LIVE, "only drawn"), tick=AS_IS,
    )
    lifetime_s: float = knob(
        1.1, "how long a shot flies", unit="s", lo=0.0, hi=30.0, lo_open=True, timing=NEW_ONES,
        tick=ticks(1),
    )
    max_alive: int = knob(
        4, "the ship's shots alive at once", lo=1, hi=1000, timing=CAP, tick=AS_IS,
    )
    autofire: bool = knob(
        False, "holding fire keeps firing (off = one shot per press)", timing=STEP, tick=AS_IS,
    )
    autofire_interval_s: float = knob(
        0.15, "time between autofire shots", unit="s", lo=0.0, hi=10.0, lo_open=True, timing=TIMER,
        tick=ticks(1),
    )
    at_obstacles: str = knob(
        "stop", "what a shot does when it meets an obstacle", choices=("stop", "ricochet"),
        timing=STEP, tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class AsteroidsConfig:
    """The rocks: sizes, shapes, speeds and how they split."""

    radius_px: tuple[float, float, float] = knob(
        (44.0, 22.0, 11.0), "outer radius of large, medium, small asteroids", unit="px", lo=1.0,
        hi=2000.0, lo_open=False, length=3, timing=SHAPES, tick=AS_IS,
    )
    shapes: str = knob(
        "generated", "outlines: generated (seeded, jagged) or classic (the 4 rock shapes)",
        choices=("generated", "classic"), timing=SHAPES, tick=AS_IS,
    )
    vertices_min: int = knob(
        8, "fewest outline points of a generated asteroid", lo=3, hi=64, timing=SHAPES, tick=AS_IS,
    )
    vertices_max: int = knob(
        14, "most outline points of a generated asteroid", lo=3, hi=64, timing=SHAPES, tick=AS_IS,
    )
    jaggedness: float = knob(
        0.35, "how far outline points dip inside the radius (0 = round, 0.9 = spiky)", lo=0.0,
        hi=0.9, timing=SHAPES, tick=AS_IS,
    )
    speed_min_px_per_s: float = knob(
        40.0, "slowest asteroid speed per axis", unit="px/s", lo=0.0, hi=10000.0, timing=NEW_ONES,
        tick=PER_TICK,
    )
    speed_max_px_per_s: float = knob(
        160.0, "fastest asteroid speed per axis", unit="px/s", lo=0.0, hi=10000.0, timing=NEW_ONES,
        tick=PER_TICK,
    )
    spin_max_deg_per_s: float = knob(
        60.0, "fastest spin either way (0 = no spin)", unit="deg/s", lo=0.0, hi=3600.0,
        timing=NEW_ONES, tick=TURN_STEPS,
    )
    split_children: int = knob(
        2, "fragments when a large or medium asteroid breaks", lo=0, hi=8, timing=NEW_ONES,
        tick=AS_IS,
    )
    split_kick_px_per_s: float = knob(
        125.0, "random velocity added to each fragment, per axis, up to", unit="px/s", lo=0.0,
        hi=10000.0, timing=NEW_ONES, tick=PER_TICK,
    )
    max_alive: int = knob(
        27, "cap on live asteroids; a split makes fewer fragments at the cap", lo=1, hi=20000,
        timing=CAP, tick=AS_IS,
    )
    collide: bool = knob(
        False, "asteroids bounce off each other (elastic, mass ~ area)", timing=STEP, tick=AS_IS,
    )
    restitution: float = knob(
        1.0, "bounciness of asteroid-asteroid hits (1 = elastic)", lo=0.0, hi=1.0, timing=STEP,
        tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class SaucersConfig:
    """Flying saucers: when they come, how they fly and how they shoot."""

    enabled: bool = knob(
        True, "whether saucers appear",
        timing=_SAUCERS_ON_OFF,
        tick=AS_IS,
    )
    first_interval_s: float = knob(
        9.34, "wait before the first saucer of a wave", unit="s", lo=0.0, hi=600.0, lo_open=True,
        timing=TIMER, tick=ticks(1),
    )
    interval_step_s: float = knob(
        0.38, "each saucer shortens the wait by this", unit="s", lo=0.0, hi=600.0, timing=TIMER,
        tick=ticks(),
    )
    min_interval_s: float = knob(
        2.05, "the wait never drops below this", unit="s", lo=0.0, hi=600.0, lo_open=True,
        timing=TIMER, tick=ticks(1),
    )
    lurk_s: float = knob(
        5.12, "a saucer waits only while an asteroid was broken within this time", unit="s",
        lo=0.0, hi=600.0, timing=STEP, tick=ticks(),
    )
    lurk_min_asteroids: int = knob(
        5, "...and at least this many asteroids remain (+1 per wave)", lo=0, hi=1000, timing=STEP,
        tick=AS_IS,
    )
    lurk_min_asteroids_max: int = knob(
        11, "cap on the growing asteroid count above", lo=0, hi=1000, timing=STEP, tick=AS_IS,
    )
    always_large_count: int = knob(
        3, "the first saucers of a game are always large", lo=0, hi=1000, timing=STEP, tick=AS_IS,
    )
    small_score: int = knob(
        30000, "from this score on, only small saucers come", lo=0, hi=10_000_000, timing=STEP,
        tick=AS_IS,
    )
    speed_px_per_s: float = knob(
        125.0, "horizontal speed", unit="px/s", lo=1.0, hi=10000.0,
        timing=_SAUCER_SPEED,
        tick=PER_TICK,
    )
    zigzag_interval_s: float = knob(
        2.05, "time between changes of vertical direction", unit="s", lo=0.0, hi=600.0,
        lo_open=True, timing=TIMER, tick=ticks(1),
    )
    large_radius_px: float = knob(
        20.0, "large saucer half-width", unit="px", lo=1.0, hi=1000.0, timing=STEP, tick=AS_IS,
    )
    small_radius_px: float = knob(
        10.0, "small saucer half-width", unit="px", lo=1.0, hi=1000.0, timing=STEP, tick=AS_IS,
    )
    fire_interval_s: float = knob(
        0.64, "time between saucer shots", unit="s", lo=0.0, hi=600.0, lo_open=True, timing=TIMER,
        tick=ticks(1),
    )
    max_shots: int = knob(
        2, "saucer shots alive at once", lo=0, hi=100, timing=CAP, tick=AS_IS,
    )
    shot_speed_px_per_s: float = knob(
        500.0, "saucer shot speed", unit="px/s", lo=1.0, hi=100000.0, timing=NEW_ONES,
        tick=PER_TICK,
    )
    shot_lifetime_s: float = knob(
        1.1, "how long a saucer shot flies", unit="s", lo=0.0, hi=30.0, lo_open=True,
        timing=NEW_ONES, tick=ticks(1),
    )
    aim_error_deg: float = knob(
        22.5, "small saucer aim error, either way", unit="deg", lo=0.0, hi=180.0, timing=STEP,
        tick=ANGLE_STEPS,
    )
    aim_error_expert_deg: float = knob(
        11.25, "small saucer aim error at high scores", unit="deg", lo=0.0, hi=180.0, timing=STEP,
        tick=ANGLE_STEPS,
    )
    expert_score: int = knob(
        35000, "score from which the expert aim error applies", lo=0, hi=10_000_000, timing=STEP,
        tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """Points and extra lives."""

    asteroid: tuple[int, int, int] = knob(
        (20, 50, 100), "points for a large, medium, small asteroid", lo=0, hi=1_000_000, length=3,
        timing=STEP, tick=AS_IS,
    )
    saucer: tuple[int, int] = knob(
        (200, 1000), "points for a large, small saucer (the 1979 ROM gave 990)", lo=0,
        hi=1_000_000, length=2, timing=STEP, tick=AS_IS,
    )
    ramming_scores: bool = knob(
        True, "the ship scores for what it rams", timing=STEP, tick=AS_IS,
    )
    extra_life_every: int = knob(
        10000, "an extra ship every this many points (0 = never)", lo=0, hi=100_000_000,
        timing=_EXTRA_LIFE_EVERY,
        tick=AS_IS,
    )


@dataclass(frozen=True, slots=True)
class HeartbeatConfig:
    """The two-tone 'thump' whose tempo rises as the wave goes on and asteroids dwindle."""

    start_interval_s: float = knob(
        0.77, "time between beats at the start of a wave", unit="s", lo=0.0, hi=10.0, lo_open=True,
        timing=TIMER, tick=ticks(2),
    )
    min_interval_s: float = knob(
        0.13, "fastest time between beats", unit="s", lo=0.0, hi=10.0, lo_open=True, timing=STEP,
        tick=ticks(2),
    )
    quicken_every_s: float = knob(
        1.02, "the interval shrinks one step this often", unit="s", lo=0.0, hi=600.0, lo_open=True,
        timing=TIMER, tick=ticks(1),
    )
    quicken_step_s: float = knob(
        0.016, "how much one step shrinks the interval", unit="s", lo=0.0, hi=10.0, timing=STEP,
        tick=ticks(),
    )


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Lives, waves and pacing."""

    lives: int = knob(
        3, "ships at the start of a game", lo=1, hi=99,
        timing=Timing(NEXT_GAME, "counted once, when a game starts"), tick=AS_IS,
    )
    max_lives: int = knob(
        0, "cap on spare ships (0 = no cap; Deluxe capped at 9)", lo=0, hi=1000,
        timing=_LIVES_CAP,
        tick=AS_IS,
    )
    first_wave_asteroids: int = knob(
        4, "large asteroids in the first wave", lo=0, hi=10000, timing=NEXT_WAVE, tick=AS_IS,
    )
    wave_increment: int = knob(
        2, "each wave adds this many large asteroids", lo=0, hi=1000, timing=NEXT_WAVE, tick=AS_IS,
    )
    max_wave_asteroids: int = knob(
        11, "cap on large asteroids in a wave", lo=0, hi=10000, timing=NEXT_WAVE, tick=AS_IS,
    )
    next_wave_delay_s: float = knob(
        2.03, "pause between a cleared wave and the next", unit="s", lo=0.0, hi=60.0, timing=TIMER,
        tick=ticks(),
    )
    spawn_clearance_px: float = knob(
        200.0, "new-wave asteroids appear at least this far from the ship", unit="px", lo=0.0,
        hi=10000.0, timing=_WAVE_PLACES, tick=AS_IS,
    )
    spawn_clearance_s: float = knob(
        3.0, "...and head so that none can reach a still ship sooner than this (0 = any "
        "heading, as in 1979)", unit="s", lo=0.0, hi=30.0, timing=_WAVE_PLACES, tick=ticks(),
        since="0.2.0", before=0.0,
    )
    heartbeat: HeartbeatConfig = field(default_factory=HeartbeatConfig)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Two-player games, the players taking turns as on the 1979 cabinet (one-player games
    never read this table, and one-player replays leave it out)."""

    turn_banner_s: float = knob(
        2.0, "\"PLAYER N\" shows this long before each turn; neither player's game runs meanwhile",
        unit="s", lo=0.0, hi=10.0,
        timing=_BANNER,
        tick=ticks(),
    )


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A static polygon (world coordinates, any winding) that things bounce off."""

    points: tuple[tuple[float, float], ...] = knob(
        (), "outline points [x, y] in world px, at least 3", unit="px",
    )
