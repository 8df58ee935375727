"""The game's settings as frozen, typed dataclasses: the one source of truth for every knob.

Each field carries its documentation in ``metadata`` (unit, allowed range or values, help
text). The loader validates TOML against these declarations, ``config/default.toml`` is
checked against the defaults here, and the built-in defaults need no file on disk, so an
installed game runs from any folder.

Units: positions and lengths in world pixels (px), time in seconds (s), speeds in px/s,
accelerations in px/s^2, angles in degrees. The simulation converts seconds to integer
ticks once, when it compiles a config (see ``asteroids.core.params``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
    "MatchConfig",
    "MonitorConfig",
    "Obstacle",
    "SaucersConfig",
    "ScoringConfig",
    "PALETTES",
    "ShieldConfig",
    "ShipConfig",
    "ShotsConfig",
    "StorageConfig",
    "WorldConfig",
    "knob",
]

BORDER_MODES = ("wrap", "bounce")


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
) -> Any:
    """Declare one tunable: its default, what it does, its unit and its allowed values.

    Args:
        default: the built-in value (tuples for fixed-length lists).
        doc: one line for ``default.toml`` and for error messages.
        unit: the unit, e.g. ``"px/s"``; empty for plain counts and flags.
        lo: smallest allowed value (inclusive unless ``lo_open``).
        hi: largest allowed value (inclusive).
        lo_open: whether ``lo`` itself is excluded (e.g. a lifetime must be > 0).
        choices: the allowed strings, for enumerations.
        length: the required length, for fixed-length lists.
    """
    meta = {
        "doc": doc,
        "unit": unit,
        "lo": lo,
        "hi": hi,
        "lo_open": lo_open,
        "choices": choices,
        "length": length,
    }
    if isinstance(default, (list, tuple)):
        value = tuple(default)
        return field(default_factory=lambda: value, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class WorldConfig:
    """The playfield and the simulation clock."""

    width_px: float = knob(1280.0, "playfield width", unit="px", lo=200.0, hi=20000.0)
    height_px: float = knob(720.0, "playfield height", unit="px", lo=200.0, hi=20000.0)
    tick_hz: float = knob(
        60.0, "simulation ticks per second (the classic machine ran at 62.5)", unit="Hz",
        lo=10.0, hi=480.0,
    )


@dataclass(frozen=True, slots=True)
class BordersConfig:
    """What each kind of object does at the playfield's edge."""

    asteroids: str = knob("wrap", "asteroids at the edge", choices=BORDER_MODES)
    ship: str = knob("wrap", "the ship at the edge", choices=BORDER_MODES)
    shots: str = knob("wrap", "shots at the edge (bounce = ricochet)", choices=BORDER_MODES)
    saucers: str = knob(
        "wrap", "saucers at the top/bottom edge (they always leave after one crossing)",
        choices=BORDER_MODES,
    )


@dataclass(frozen=True, slots=True)
class HyperspaceConfig:
    """Vanish and reappear somewhere else, at a risk."""

    enabled: bool = knob(True, "whether the hyperspace button works")
    duration_s: float = knob(0.77, "time spent in hyperspace", unit="s", lo=0.0, hi=10.0,
                             lo_open=True)
    risky: bool = knob(
        True, "classic risk of exploding on re-entry, rising as fewer asteroids remain"
    )
    edge_margin: float = knob(
        0.1, "re-entry keeps this fraction of the playfield away from each edge",
        lo=0.0, hi=0.45,
    )


@dataclass(frozen=True, slots=True)
class ShieldConfig:
    """Deluxe-style shield: a circle that bounces asteroids while energy lasts."""

    enabled: bool = knob(False, "whether the shield button works")
    energy_s: float = knob(4.0, "how long a full shield can be held", unit="s", lo=0.0,
                           hi=60.0, lo_open=True)
    radius_px: float = knob(26.0, "shield radius", unit="px", lo=1.0, hi=500.0)
    restitution: float = knob(1.0, "bounciness of asteroids off the shield (1 = elastic)",
                              lo=0.0, hi=1.5)
    refill_per_wave: bool = knob(True, "refill the shield at each new wave and new ship")


@dataclass(frozen=True, slots=True)
class ShipConfig:
    """The player's ship: handling, size and what happens when it dies."""

    length_px: float = knob(24.0, "ship length, nose to tail", unit="px", lo=4.0, hi=200.0)
    thrust_px_per_s2: float = knob(300.0, "acceleration while thrusting", unit="px/s^2",
                                   lo=0.0, hi=20000.0)
    turn_deg_per_s: float = knob(270.0, "turn rate", unit="deg/s", lo=0.0, hi=3600.0)
    drag_per_s: float = knob(
        0.25, "fraction of speed lost per second while coasting (0 = none)", unit="1/s",
        lo=0.0, hi=10.0,
    )
    max_speed_px_per_s: float = knob(500.0, "top speed", unit="px/s", lo=1.0, hi=20000.0)
    speed_limit: str = knob(
        "radial", "how top speed is enforced: radial (a circle) or axis (the 1979 square)",
        choices=("radial", "axis"),
    )
    respawn_delay_s: float = knob(2.06, "wait after a death before the ship may return",
                                  unit="s", lo=0.0, hi=30.0)
    safe_radius_px: float = knob(
        128.0, "the ship returns only when nothing is this close to the centre", unit="px",
        lo=0.0, hi=5000.0,
    )
    hyperspace: HyperspaceConfig = field(default_factory=HyperspaceConfig)
    shield: ShieldConfig = field(default_factory=ShieldConfig)


@dataclass(frozen=True, slots=True)
class ShotsConfig:
    """The ship's shots: line segments with a head and a tail."""

    speed_px_per_s: float = knob(600.0, "muzzle speed relative to the shooter", unit="px/s",
                                 lo=1.0, hi=100000.0)
    inherit_velocity: bool = knob(True, "shots add the shooter's velocity")
    max_axis_speed_px_per_s: float = knob(
        0.0, "clamp each axis of a shot's velocity (0 = no clamp; the 1979 cap is ~868)",
        unit="px/s", lo=0.0, hi=100000.0,
    )
    length_px: float = knob(8.0, "drawn length of a shot, tail to head", unit="px",
                            lo=0.0, hi=200.0)
    lifetime_s: float = knob(1.1, "how long a shot flies", unit="s", lo=0.0, hi=30.0,
                             lo_open=True)
    max_alive: int = knob(4, "the ship's shots alive at once", lo=1, hi=1000)
    autofire: bool = knob(False, "holding fire keeps firing (off = one shot per press)")
    autofire_interval_s: float = knob(0.15, "time between autofire shots", unit="s",
                                      lo=0.0, hi=10.0, lo_open=True)
    at_obstacles: str = knob("stop", "what a shot does when it meets an obstacle",
                             choices=("stop", "ricochet"))


@dataclass(frozen=True, slots=True)
class AsteroidsConfig:
    """The rocks: sizes, shapes, speeds and how they split."""

    radius_px: tuple[float, float, float] = knob(
        (44.0, 22.0, 11.0), "outer radius of large, medium, small asteroids", unit="px",
        lo=1.0, hi=2000.0, lo_open=False, length=3,
    )
    shapes: str = knob(
        "generated", "outlines: generated (seeded, jagged) or classic (the 4 rock shapes)",
        choices=("generated", "classic"),
    )
    vertices_min: int = knob(8, "fewest outline points of a generated asteroid", lo=3, hi=64)
    vertices_max: int = knob(14, "most outline points of a generated asteroid", lo=3, hi=64)
    jaggedness: float = knob(
        0.35, "how far outline points dip inside the radius (0 = round, 0.9 = spiky)",
        lo=0.0, hi=0.9,
    )
    speed_min_px_per_s: float = knob(40.0, "slowest asteroid speed per axis", unit="px/s",
                                     lo=0.0, hi=10000.0)
    speed_max_px_per_s: float = knob(160.0, "fastest asteroid speed per axis", unit="px/s",
                                     lo=0.0, hi=10000.0)
    spin_max_deg_per_s: float = knob(60.0, "fastest spin either way (0 = no spin)",
                                     unit="deg/s", lo=0.0, hi=3600.0)
    split_children: int = knob(2, "fragments when a large or medium asteroid breaks",
                               lo=0, hi=8)
    split_kick_px_per_s: float = knob(
        125.0, "random velocity added to each fragment, per axis, up to", unit="px/s",
        lo=0.0, hi=10000.0,
    )
    max_alive: int = knob(27, "cap on live asteroids; a split makes fewer fragments at the cap",
                          lo=1, hi=20000)
    collide: bool = knob(False, "asteroids bounce off each other (elastic, mass ~ area)")
    restitution: float = knob(1.0, "bounciness of asteroid-asteroid hits (1 = elastic)",
                              lo=0.0, hi=1.0)


@dataclass(frozen=True, slots=True)
class SaucersConfig:
    """Flying saucers: when they come, how they fly and how they shoot."""

    enabled: bool = knob(True, "whether saucers appear")
    first_interval_s: float = knob(9.34, "wait before the first saucer of a wave", unit="s",
                                   lo=0.0, hi=600.0, lo_open=True)
    interval_step_s: float = knob(0.38, "each saucer shortens the wait by this", unit="s",
                                  lo=0.0, hi=600.0)
    min_interval_s: float = knob(2.05, "the wait never drops below this", unit="s",
                                 lo=0.0, hi=600.0, lo_open=True)
    lurk_s: float = knob(
        5.12, "a saucer waits only while an asteroid was broken within this time", unit="s",
        lo=0.0, hi=600.0,
    )
    lurk_min_asteroids: int = knob(
        5, "...and at least this many asteroids remain (+1 per wave)", lo=0, hi=1000,
    )
    lurk_min_asteroids_max: int = knob(11, "cap on the growing asteroid count above",
                                       lo=0, hi=1000)
    always_large_count: int = knob(3, "the first saucers of a game are always large",
                                   lo=0, hi=1000)
    small_score: int = knob(30000, "from this score on, only small saucers come", lo=0,
                            hi=10_000_000)
    speed_px_per_s: float = knob(125.0, "horizontal speed", unit="px/s", lo=1.0, hi=10000.0)
    zigzag_interval_s: float = knob(2.05, "time between changes of vertical direction",
                                    unit="s", lo=0.0, hi=600.0, lo_open=True)
    large_radius_px: float = knob(20.0, "large saucer half-width", unit="px", lo=1.0,
                                  hi=1000.0)
    small_radius_px: float = knob(10.0, "small saucer half-width", unit="px", lo=1.0,
                                  hi=1000.0)
    fire_interval_s: float = knob(0.64, "time between saucer shots", unit="s", lo=0.0,
                                  hi=600.0, lo_open=True)
    max_shots: int = knob(2, "saucer shots alive at once", lo=0, hi=100)
    shot_speed_px_per_s: float = knob(500.0, "saucer shot speed", unit="px/s", lo=1.0,
                                      hi=100000.0)
    shot_lifetime_s: float = knob(1.1, "how long a saucer shot flies", unit="s", lo=0.0,
                                  hi=30.0, lo_open=True)
    aim_error_deg: float = knob(22.5, "small saucer aim error, either way", unit="deg",
                                lo=0.0, hi=180.0)
    aim_error_expert_deg: float = knob(11.25, "small saucer aim error at high scores",
                                       unit="deg", lo=0.0, hi=180.0)
    expert_score: int = knob(35000, "score from which the expert aim error applies", lo=0,
                             hi=10_000_000)


@dataclass(frozen=True, slots=True)
class ScoringConfig:
    """Points and extra lives."""

    asteroid: tuple[int, int, int] = knob(
        (20, 50, 100), "points for a large, medium, small asteroid", lo=0, hi=1_000_000,
        length=3,
    )
    saucer: tuple[int, int] = knob(
        (200, 1000), "points for a large, small saucer (the 1979 ROM gave 990)", lo=0,
        hi=1_000_000, length=2,
    )
    ramming_scores: bool = knob(True, "the ship scores for what it rams")
    extra_life_every: int = knob(10000, "an extra ship every this many points (0 = never)",
                                 lo=0, hi=100_000_000)


@dataclass(frozen=True, slots=True)
class HeartbeatConfig:
    """The two-tone 'thump' whose tempo rises as the wave goes on and asteroids dwindle."""

    start_interval_s: float = knob(0.77, "time between beats at the start of a wave",
                                   unit="s", lo=0.0, hi=10.0, lo_open=True)
    min_interval_s: float = knob(0.13, "fastest time between beats", unit="s", lo=0.0,
                                 hi=10.0, lo_open=True)
    quicken_every_s: float = knob(1.02, "the interval shrinks one step this often", unit="s",
                                  lo=0.0, hi=600.0, lo_open=True)
    quicken_step_s: float = knob(0.016, "how much one step shrinks the interval", unit="s",
                                 lo=0.0, hi=10.0)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Lives, waves and pacing."""

    lives: int = knob(3, "ships at the start of a game", lo=1, hi=99)
    max_lives: int = knob(0, "cap on spare ships (0 = no cap; Deluxe capped at 9)", lo=0,
                          hi=1000)
    first_wave_asteroids: int = knob(4, "large asteroids in the first wave", lo=0, hi=10000)
    wave_increment: int = knob(2, "each wave adds this many large asteroids", lo=0, hi=1000)
    max_wave_asteroids: int = knob(11, "cap on large asteroids in a wave", lo=0, hi=10000)
    next_wave_delay_s: float = knob(2.03, "pause between a cleared wave and the next",
                                    unit="s", lo=0.0, hi=60.0)
    spawn_clearance_px: float = knob(
        200.0, "new-wave asteroids appear at least this far from the ship", unit="px",
        lo=0.0, hi=10000.0,
    )
    heartbeat: HeartbeatConfig = field(default_factory=HeartbeatConfig)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Two-player games, the players taking turns as on the 1979 cabinet (one-player games
    never read this table, and one-player replays leave it out)."""

    turn_banner_s: float = knob(
        2.0, "\"PLAYER N\" shows this long before each turn; neither player's game runs "
        "meanwhile", unit="s", lo=0.0, hi=10.0,
    )


@dataclass(frozen=True, slots=True)
class Obstacle:
    """A static polygon (world coordinates, any winding) that things bounce off."""

    points: tuple[tuple[float, float], ...] = knob(
        (), "outline points [x, y] in world px, at least 3", unit="px",
    )


@dataclass(frozen=True, slots=True)
class AudioConfig:
    """Sound levels."""

    volume: float = knob(0.7, "master volume", lo=0.0, hi=1.0)
    effects_volume: float = knob(1.0, "shots, explosions, saucers (times master)", lo=0.0,
                                 hi=1.0)
    heartbeat_volume: float = knob(0.8, "the thump (times master)", lo=0.0, hi=1.0)
    muted: bool = knob(False, "start with sound off")


PALETTES = ("vector", "white", "green", "amber", "colour", "high_contrast", "colour_blind")
"""Names of the line palettes (``display.palette``); their colours are in
``asteroids.app.palettes``."""


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
    show_fps: bool = knob(False, "show frames per second")
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

    world: WorldConfig = field(default_factory=WorldConfig)
    borders: BordersConfig = field(default_factory=BordersConfig)
    ship: ShipConfig = field(default_factory=ShipConfig)
    shots: ShotsConfig = field(default_factory=ShotsConfig)
    asteroids: AsteroidsConfig = field(default_factory=AsteroidsConfig)
    saucers: SaucersConfig = field(default_factory=SaucersConfig)
    scoring: ScoringConfig = field(default_factory=ScoringConfig)
    game: GameConfig = field(default_factory=GameConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    obstacles: tuple[Obstacle, ...] = knob((), "static polygons; [[obstacles]] tables")
    audio: AudioConfig = field(default_factory=AudioConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keys: KeysConfig = field(default_factory=KeysConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
