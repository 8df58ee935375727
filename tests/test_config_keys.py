"""The config package's hard-coded key names match arcade.key exactly."""

from __future__ import annotations

import arcade.key

from asteroids.config import KEY_NAMES, KeysConfig
from asteroids.config.keys import KEY_ALIASES, canonical_key


def _arcade_keys() -> dict[str, int]:
    return {
        name: value
        for name, value in vars(arcade.key).items()
        if name.isupper() and isinstance(value, int)
        and not name.startswith(("MOD_", "MOTION_"))
    }


def test_every_listed_name_exists_in_arcade_key():
    missing = [name for name in KEY_NAMES if not isinstance(getattr(arcade.key, name, None), int)]
    assert not missing, f"not in arcade.key: {missing}"


def test_every_arcade_key_is_listed_once():
    assert len(KEY_NAMES) == len(set(KEY_NAMES))
    assert set(KEY_NAMES) == set(_arcade_keys())


def test_aliases_are_exactly_the_names_sharing_a_key_code():
    codes = _arcade_keys()
    for alias, canonical in KEY_ALIASES.items():
        assert codes[alias] == codes[canonical]
    by_code: dict[int, set[str]] = {}
    for name, code in codes.items():
        by_code.setdefault(code, set()).add(canonical_key(name))
    assert all(len(names) == 1 for names in by_code.values()), by_code


def test_default_bindings_are_valid_key_names():
    for action in ("thrust", "left", "right", "fire", "hyperspace", "shield", "pause"):
        for name in getattr(KeysConfig(), action):
            assert name in KEY_NAMES
