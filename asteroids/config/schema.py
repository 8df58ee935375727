"""The game's settings as frozen, typed dataclasses: the one source of truth for every knob.

Each field carries its documentation in ``metadata`` (unit, allowed range or values, help
text); a rule knob also declares when a change of it takes effect in a running game, how the
core converts it to per-tick numbers, and, when it arrived after the first release, its
``before`` value (``knob``; ``check_declarations`` refuses a rule knob without them at
import). The loader validates TOML against these declarations, ``config/default.toml`` is
generated from them, the live-reload table (``KNOB_TIMING``) and the core's per-tick numbers
follow from them, and the built-in defaults need no file on disk, so an installed game runs
from any folder. docs/adding-a-rule.md walks through adding one.

Units: positions and lengths in world pixels (px), time in seconds (s), speeds in px/s,
accelerations in px/s^2, angles in degrees. The simulation converts seconds to integer
ticks once, when it compiles a config (see ``asteroids.core.params``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asteroids.config.declare import (
    ANGLE_STEPS,
    AS_IS,
    BORDER,
    CAP,
    FIRST_VERSION,
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
    Convert,
    Timing,
    ticks,
    version_key,
)

__all__ = [
    "AsteroidsConfig",
    "AudioConfig",
    "BORDER_MODES",
    "BordersConfig",
    "Config",
    "DisplayConfig",
    "GameConfig",
    "HeartbeatConfig",
    "HyperspaceConfig",
    "KeysConfig",
    "MATCH_TABLES",
    "MatchConfig",
    "MonitorConfig",
    "NON_RULE_TABLES",
    "Obstacle",
    "PALETTES",
    "PLAYFIELD_BORDERS",
    "RULES_VERSION",
    "RULE_TABLES",
    "SOUND_SETS",
    "SaucersConfig",
    "ScoringConfig",
    "ShieldConfig",
    "ShipConfig",
    "ShotsConfig",
    "StorageConfig",
    "WorldConfig",
    "check_declarations",
    "knob",
]

BORDER_MODES = ("wrap", "bounce")

RULES_VERSION = 1
"""The newest rules version (compatibility level) this build plays; new games use it. Bump it
for a rules change that is not a new knob (a rule's bug fixed, a collision detail changed),
and keep the old behaviour reachable where ``params.rules_version`` is older (see
docs/replay-format.md, "Compatibility")."""

RULE_TABLES = ("rules_version", "world", "borders", "ship", "shots", "asteroids", "saucers",
               "scoring", "game", "obstacles")
"""Top-level settings that change how the game plays: they go into a replay's rules
fingerprint, and every knob in them declares its live timing and per-tick conversion."""

MATCH_TABLES = ("match",)
"""Config tables that change only two-player games (the "PLAYER N" banner between turns):
rules there, so they go into a two-player replay's rules fingerprint and settings, but a
one-player game never reads them and its replay leaves them out (so one-player replays and
their fingerprints are what they were before two-player games existed)."""

NON_RULE_TABLES = ("audio", "display", "keys", "storage")
"""Config tables that never touch the simulation (a test keeps the three lists complete)."""

_NO_BEFORE: Any = object()
"""``before`` left out: the knob was in the first release, so every file has it."""


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
_PILLARS = Timing(NEXT_GAME, "pillars are part of the world: a rock or the ship inside a new "
                  "pillar would be trapped in it")
_WAVE_PLACES = Timing(LIVE, "where the next wave's rocks appear and head")
_RULES_VERSION = Timing(NEXT_GAME, "a game plays one rules version from start to end")


def knob(
    default: Any,
    doc: str,
    *,
    unit: str = "",
    lo: float | None = None,
    hi: float | None = None,
    lo_open: bool = False,
    choices: tuple[str, ...] | None = None,
    length: int | None = None,
    timing: Timing | None = None,
    tick: Convert | None = None,
    since: str = FIRST_VERSION,
    before: Any = _NO_BEFORE,
) -> Any:
    """Declare one tunable: its default, what it does, its unit and its allowed values; for a
    rule, also when a change takes effect in a running game, how the core converts it to
    per-tick numbers, and its history.

    Args:
        default: the built-in value (tuples for fixed-length lists).
        doc: one line for ``default.toml`` and for error messages.
        unit: the unit, e.g. ``"px/s"``; empty for plain counts and flags.
        lo: smallest allowed value (inclusive unless ``lo_open``).
        hi: largest allowed value (inclusive).
        lo_open: whether ``lo`` itself is excluded (e.g. a lifetime must be > 0).
        choices: the allowed strings, for enumerations.
        length: the required length, for fixed-length lists.
        timing: for a rule knob (required there), when a change of it applies during a game
            (``asteroids play --live``); ``KNOB_TIMING`` is built from these.
        tick: for a rule knob (required there), how ``asteroids.core.params`` converts it
            to the per-tick number the rules read.
        since: the game version the knob arrived in.
        before: for a knob added after the first release (required there), the value that
            plays exactly as the game did before it existed: a replay or a ruleset recorded
            by an older version, which lacks the knob, is played with this value.
    """
    meta = {
        "doc": doc,
        "unit": unit,
        "lo": lo,
        "hi": hi,
        "lo_open": lo_open,
        "choices": choices,
        "length": length,
        "timing": timing,
        "tick": tick,
        "since": since,
    }
    if before is not _NO_BEFORE:
        meta["before"] = tuple(before) if isinstance(before, list) else before
    if isinstance(default, (list, tuple)):
        value = tuple(default)
        return field(default_factory=lambda: value, metadata=meta)
    return field(default=default, metadata=meta)


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


SOUND_SETS = ("cabinet", "modern")
"""Names of the sound sets (``audio.sound_set``); their voices are in ``asteroids.app.synth``."""


@dataclass(frozen=True, slots=True)
class AudioConfig:
    """Sound levels and voices. Never affects the simulation."""

    volume: float = knob(0.7, "master volume: 0 = silent, 1 = full; each 0.1 is 4 dB",
                         lo=0.0, hi=1.0)
    effects_volume: float = knob(1.0, "shots, explosions, saucers (on top of master; each 0.1 "
                                 "is 4 dB)", lo=0.0, hi=1.0)
    heartbeat_volume: float = knob(0.8, "the thump (on top of master; each 0.1 is 4 dB)",
                                   lo=0.0, hi=1.0)
    muted: bool = knob(False, "start with sound off")
    sound_set: str = knob(
        "cabinet", "the voices: cabinet = modelled on the 1979 circuits, modern = the "
        "brighter sounds of asteroids 0.1.0", choices=SOUND_SETS,
    )


PALETTES = ("vector", "white", "green", "amber", "colour", "high_contrast", "colour_blind")
"""Names of the line palettes (``display.palette``); their colours are in
``asteroids.app.palettes``."""

PLAYFIELD_BORDERS = ("auto", "on", "off")
"""Choices of ``display.border``: the faint playfield border when the playfield is
letterboxed (``auto``), always, or never."""


@dataclass(frozen=True, slots=True)
class MonitorConfig:
    """The vector-monitor look: phosphor afterglow, bloom, bright line ends, flicker."""

    strength: float = knob(
        0.0, "how strong the look is: 0 = off (the plain look, no extra cost), 1 = full",
        lo=0.0, hi=1.0,
    )
    persistence_s: float = knob(
        0.08, "afterglow: time for a line that moved on to fade to a tenth (0 = none)",
        unit="s", lo=0.0, hi=2.0,
    )
    bloom: float = knob(0.9, "brightness of the halo around bright lines (0 = none)",
                        lo=0.0, hi=4.0)
    bloom_radius_px: float = knob(6.0, "reach of the halo", unit="px", lo=1.0, hi=32.0)
    beam_dwell: float = knob(
        0.7, "extra brightness at line ends, where the beam dwelt (0 = none)", lo=0.0, hi=4.0,
    )
    dwell_length_px: float = knob(3.0, "how far the bright end reaches along a line",
                                  unit="px", lo=0.5, hi=20.0)
    flicker: float = knob(0.04, "frame-to-frame brightness wobble (0 = steady)", lo=0.0,
                          hi=0.5)


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """The window and how lines look. Never affects the simulation."""

    window_width_px: int = knob(1280, "window width", unit="px", lo=320, hi=16384)
    window_height_px: int = knob(720, "window height", unit="px", lo=240, hi=16384)
    fullscreen: bool = knob(False, "start full screen")
    vsync: bool = knob(True, "wait for the display's refresh")
    glow: bool = knob(True, "soft glow around lines in the plain look")
    line_width_px: float = knob(1.5, "width of drawn lines", unit="px", lo=0.5, hi=10.0)
    show_fps: bool = knob(False, "show frames per second (also on the options screen)")
    border: str = knob(
        "auto", "a faint line where the playfield ends: auto = when the window's shape "
        "leaves black bars beside or above it, on = always, off = never",
        choices=PLAYFIELD_BORDERS,
    )
    palette: str = knob(
        "vector", "line colours (white, green, amber: monochrome; colour_blind also tells "
        "kinds apart by line width and dashes)",
        choices=PALETTES,
    )
    hud_scale: float = knob(1.0, "size of the score and messages (1 = normal)", lo=0.5,
                            hi=3.0)
    score_wrap: int = knob(
        -1, "the score shown rolls over at this many points (0 = never; -1 = as the cabinet "
        "did: at 100000 with the classic rules, else never); extra ships and high scores "
        "count the real score", lo=-1, hi=1_000_000_000,
    )
    monitor: MonitorConfig = field(default_factory=MonitorConfig)


@dataclass(frozen=True, slots=True)
class KeysConfig:
    """Key bindings: each action lists one or more key names (as in arcade.key)."""

    thrust: tuple[str, ...] = knob(("UP", "W"), "thrust")
    left: tuple[str, ...] = knob(("LEFT", "A"), "turn left")
    right: tuple[str, ...] = knob(("RIGHT", "D"), "turn right")
    fire: tuple[str, ...] = knob(("SPACE",), "fire")
    hyperspace: tuple[str, ...] = knob(("LSHIFT", "RSHIFT"), "hyperspace")
    shield: tuple[str, ...] = knob(("DOWN", "S"), "shield")
    pause: tuple[str, ...] = knob(("P", "ESCAPE"), "pause / resume")
    restart: tuple[str, ...] = knob(
        ("R",), "start a new game at once, while a settings change waits for the next game "
        "(asteroids play --live)",
    )


@dataclass(frozen=True, slots=True)
class StorageConfig:
    """The player's files in the data folder. Never affects the simulation."""

    keep_replays: int = knob(
        200, "recorded games kept besides high-score replays (the oldest go first; "
        "a high-score entry's replay is never deleted)",
        lo=1, hi=1_000_000,
    )


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the game can be tuned by. Immutable; build one with ``load_config``."""

    rules_version: int = knob(
        RULES_VERSION, "compatibility level of the rules (1 = those of asteroids 0.1.0); a "
        "replay keeps the one it was recorded with, new games use the newest", lo=1,
        hi=RULES_VERSION, timing=_RULES_VERSION, tick=AS_IS, since="0.2.0", before=1,
    )
    world: WorldConfig = field(default_factory=WorldConfig)
    borders: BordersConfig = field(default_factory=BordersConfig)
    ship: ShipConfig = field(default_factory=ShipConfig)
    shots: ShotsConfig = field(default_factory=ShotsConfig)
    asteroids: AsteroidsConfig = field(default_factory=AsteroidsConfig)
    saucers: SaucersConfig = field(default_factory=SaucersConfig)
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    game: GameConfig = field(default_factory=GameConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    obstacles: tuple[Obstacle, ...] = knob(
        (), "static polygons; [[obstacles]] tables", timing=_PILLARS, tick=AS_IS,
    )
    audio: AudioConfig = field(default_factory=AudioConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keys: KeysConfig = field(default_factory=KeysConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)


def check_declarations(cls: type = Config, path: str = "", rule: bool = False) -> None:
    """Refuse a schema whose rule knobs lack what the game needs from them: a live timing
    and a per-tick conversion for every knob of ``RULE_TABLES`` and ``MATCH_TABLES``, and a
    ``before`` value (inside the knob's own range) for every knob added after the first
    release. Run at import, so a knob declared without them fails at once.

    Raises:
        TypeError: naming the knob and what it lacks.
    """
    import dataclasses
    import typing

    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        key = f"{path}.{f.name}" if path else f.name
        is_rule = rule or (not path and f.name in RULE_TABLES + MATCH_TABLES)
        if dataclasses.is_dataclass(hints[f.name]):
            check_declarations(hints[f.name], key, is_rule)
            continue
        meta = f.metadata
        if not meta:
            raise TypeError(f"config schema: {key} is not declared with knob()")
        since = meta["since"]
        version_key(since)
        if is_rule and not isinstance(meta["timing"], Timing):
            raise TypeError(f"config schema: rule knob {key} declares no timing= (when a "
                            "change of it applies during a game)")
        if is_rule and not isinstance(meta["tick"], Convert):
            raise TypeError(f"config schema: rule knob {key} declares no tick= (how the core "
                            "converts it to per-tick numbers)")
        if since != FIRST_VERSION and "before" not in meta:
            raise TypeError(f"config schema: {key} arrived in {since}, after the first release, "
                            "so it must declare before= (the value that plays as the game did "
                            "without it)")
        if "before" in meta:
            before, lo, hi = meta["before"], meta["lo"], meta["hi"]
            values = before if isinstance(before, tuple) else (before,)
            for v in values:
                if isinstance(v, (int, float)) and not isinstance(v, bool) and (
                        (lo is not None and v < lo) or (hi is not None and v > hi)):
                    raise TypeError(f"config schema: {key}'s before={before!r} is outside its "
                                    f"own range")


check_declarations()
