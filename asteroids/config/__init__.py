"""Settings: typed, immutable, layered from built-in defaults, TOML files and overrides."""

from asteroids.config.schema import Config

__all__ = ["Config", "ConfigError", "load_config"]


class ConfigError(Exception):
    """Placeholder until the loader lands."""


def load_config(*paths: object, overrides: object = ()) -> Config:
    """Placeholder: the built-in defaults."""
    return Config()
