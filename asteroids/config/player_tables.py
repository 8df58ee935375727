"""The player's tables: settings that never touch the simulation (``NON_RULE_TABLES`` in
``asteroids.config.schema``): ``[audio]``, ``[display]`` (with ``[display.monitor]``),
``[keys]`` and ``[storage]``, one frozen dataclass per TOML table.

Their knobs declare a default, a doc line and allowed values (``knob`` in
``asteroids.config.declare``) but no live timing or per-tick conversion: they never touch
the World, and no replay's rules fingerprint holds them, so rebinding a key or turning the
volume down never changes a game. ``Config`` in ``asteroids.config.schema`` gathers them
with the rule tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asteroids.config.declare import knob

__all__ = [
    "AUDIO_DRIVERS",
    "AudioConfig",
    "DisplayConfig",
    "KeysConfig",
    "MonitorConfig",
    "PALETTES",
    "PLAYFIELD_BORDERS",
    "SOUND_SETS",
    "StorageConfig",
]

SOUND_SETS = ("cabinet", "modern")
"""Names of the sound sets (``audio.sound_set``); their voices are in ``asteroids.app.synth``."""

AUDIO_DRIVERS = ("auto", "miniaudio", "openal", "pulse", "pyglet-openal", "pyglet-pulse",
                 "silent")
"""Choices of ``audio.driver`` and ``--audio``: the keys of
``asteroids.app.audio_driver.CHOICES``."""


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
    driver: str = knob(
        "auto", "the audio driver, chosen when the game starts (--audio wins over it): auto = "
        "miniaudio (the [audio] extra), else openal, else pyglet's (or ARCADE_SOUND_BACKENDS "
        "when set); openal = our OpenAL driver; pulse = our callback driver on PulseAudio "
        "(the [audio] extra); miniaudio = our callback driver on any output; pyglet-openal, "
        "pyglet-pulse = pyglet's own drivers (a longer lag); silent = none",
        choices=AUDIO_DRIVERS, since="0.2.0", before="auto",
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
