"""The game's settings as one frozen, typed tree: ``Config``, the one source of truth for every
knob, and what the game needs to know of it as a whole.

``Config`` gathers the tables: the rule tables (``asteroids.config.rule_tables``: what
changes how the game plays) and the player's (``asteroids.config.player_tables``: sound,
window, keys, files). Each field carries its documentation in ``metadata`` (unit, allowed
range or values, help text); a rule knob also declares when a change of it takes effect in a
running game, how the core converts it to per-tick numbers, and, when it arrived after the
first release, its ``before`` value (``knob`` in ``asteroids.config.declare``;
``check_declarations`` here refuses a rule knob without them at import). This module says
which tables are rules (``RULE_TABLES``, ``MATCH_TABLES``, ``NON_RULE_TABLES``) and the
newest rules version (``RULES_VERSION``). The loader validates TOML against these
declarations, ``config/default.toml`` is generated from them, the live-reload table
(``KNOB_TIMING``) and the core's per-tick numbers follow from them, and the built-in
defaults need no file on disk, so an installed game runs from any folder.
docs/adding-a-rule.md walks through adding one.

Units: positions and lengths in world pixels (px), time in seconds (s), speeds in px/s,
accelerations in px/s^2, angles in degrees. The simulation converts seconds to integer
ticks once, when it compiles a config (see ``asteroids.core.params``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asteroids.config.declare import (
    AS_IS,
    FIRST_VERSION,
    NEXT_GAME,
    Convert,
    Timing,
    knob,
    version_key,
)
from asteroids.config.player_tables import AudioConfig, DisplayConfig, KeysConfig, StorageConfig
from asteroids.config.rule_tables import (
    AsteroidsConfig,
    BordersConfig,
    GameConfig,
    MatchConfig,
    Obstacle,
    SaucersConfig,
    ScoringConfig,
    ShipConfig,
    ShotsConfig,
    WorldConfig,
)

__all__ = [
    "Config",
    "MATCH_TABLES",
    "NON_RULE_TABLES",
    "RULES_VERSION",
    "RULE_TABLES",
    "check_declarations",
]

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

_PILLARS = Timing(NEXT_GAME, "pillars are part of the world: a rock or the ship inside a new "
                  "pillar would be trapped in it")
_RULES_VERSION = Timing(NEXT_GAME, "a game plays one rules version from start to end")


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
