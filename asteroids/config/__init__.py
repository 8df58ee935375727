"""Settings: typed, immutable, layered from built-in defaults, TOML files and overrides.

``load_config()`` gives the built-in defaults; ``load_config("a.toml", "b.toml",
overrides=["ship.thrust_px_per_s2=400"])`` layers files, then overrides, in that order, and
raises ``ConfigError`` listing every problem found. The package never imports arcade.
"""

from __future__ import annotations

from asteroids.config.errors import ERROR_CODES, ConfigError, ConfigIssue
from asteroids.config.keys import KEY_NAMES
from asteroids.config.loader import load_config, load_config_text
from asteroids.config.overrides import parse_override
from asteroids.config.player_tables import AudioConfig, DisplayConfig, KeysConfig, StorageConfig
from asteroids.config.reading import MAX_FILE_BYTES
from asteroids.config.render import render_default_toml, render_toml
from asteroids.config.rule_tables import (
    AsteroidsConfig,
    BordersConfig,
    GameConfig,
    HeartbeatConfig,
    HyperspaceConfig,
    MatchConfig,
    Obstacle,
    SaucersConfig,
    ScoringConfig,
    ShieldConfig,
    ShipConfig,
    ShotsConfig,
    WorldConfig,
)
from asteroids.config.schema import Config

__all__ = [
    "AsteroidsConfig",
    "AudioConfig",
    "BordersConfig",
    "Config",
    "ConfigError",
    "ConfigIssue",
    "DisplayConfig",
    "ERROR_CODES",
    "GameConfig",
    "HeartbeatConfig",
    "HyperspaceConfig",
    "KEY_NAMES",
    "KeysConfig",
    "MAX_FILE_BYTES",
    "MatchConfig",
    "Obstacle",
    "SaucersConfig",
    "ScoringConfig",
    "ShieldConfig",
    "ShipConfig",
    "ShotsConfig",
    "StorageConfig",
    "WorldConfig",
    "load_config",
    "load_config_text",
    "parse_override",
    "render_default_toml",
    "render_toml",
]
