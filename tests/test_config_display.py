"""The display settings of palettes, the monitor look, HUD scale and the score's roll-over:
validated like every knob, and never part of the rules (replays and high-score tables)."""

from __future__ import annotations

import pytest

from asteroids.config import ConfigError, load_config
from asteroids.config.player_tables import PALETTES
from asteroids.profile import ruleset_key
from asteroids.replay.format import rules_fingerprint

DISPLAY_ONLY = ("display.palette=green", "display.hud_scale=2.0", "display.score_wrap=0",
                "display.monitor.strength=1.0", "display.monitor.bloom=2.5")


def test_defaults_are_the_plain_look():
    d = load_config().display
    assert d.palette == "vector" and d.monitor.strength == 0.0 and d.hud_scale == 1.0
    assert d.score_wrap == -1  # the cabinet's roll-over, with the classic rules only


@pytest.mark.parametrize("override", DISPLAY_ONLY)
def test_display_settings_change_neither_the_rules_nor_the_score_table(override):
    for preset in ("default", "classic"):
        base = load_config(preset)
        changed = load_config(preset, overrides=[override])
        assert changed != base
        assert rules_fingerprint(changed) == rules_fingerprint(base)
        assert ruleset_key(changed) == ruleset_key(base) == preset


@pytest.mark.parametrize("name", PALETTES)
def test_every_palette_name_loads(name):
    assert load_config(overrides=[f"display.palette={name}"]).display.palette == name


def test_an_unknown_palette_is_refused_with_the_choices():
    with pytest.raises(ConfigError) as info:
        load_config(overrides=["display.palette=greeen"])
    text = str(info.value)
    assert "display.palette" in text and "green" in text


@pytest.mark.parametrize(("key", "bad"), [("display.monitor.strength", "1.5"),
                                          ("display.monitor.strength", "-0.1"),
                                          ("display.hud_scale", "0.2"),
                                          ("display.score_wrap", "-2"),
                                          ("display.monitor.persistence_s", "3")])
def test_out_of_range_looks_are_refused(key, bad):
    with pytest.raises(ConfigError) as info:
        load_config(overrides=[f"{key}={bad}"])
    assert key in str(info.value)


@pytest.mark.parametrize(("key", "edge"), [("display.monitor.strength", "1.0"),
                                           ("display.monitor.strength", "0.0"),
                                           ("display.hud_scale", "3.0"),
                                           ("display.score_wrap", "-1")])
def test_the_edges_of_the_ranges_load(key, edge):
    load_config(overrides=[f"{key}={edge}"])
