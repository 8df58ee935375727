"""The title screen's rulesets, built from --config / --set (no arcade, no window)."""

from __future__ import annotations

import dataclasses

import pytest

from asteroids.config import ConfigError, load_config
from asteroids.config.bundled import preset_names
from asteroids.config.loader import load_preset
from asteroids.config.rulesets import PLAYER_SECTIONS, player_label, ruleset_choices
from asteroids.replay.format import NON_RULE_TABLES


def labels(choices):
    return [r.label for r in choices.rulesets]


def test_no_options_lists_the_presets_with_default_selected():
    choices = ruleset_choices()
    assert labels(choices) == list(preset_names())
    assert choices.rulesets[choices.selected].label == "default"
    assert choices.rulesets[choices.selected].config == load_config()
    assert choices.skipped == []


def test_a_preset_given_by_name_is_selected_not_listed_twice():
    choices = ruleset_choices(["classic"])
    assert labels(choices) == list(preset_names())
    assert choices.rulesets[choices.selected].label == "classic"
    assert choices.rulesets[choices.selected].config.world.tick_hz == 62.5


def test_a_file_comes_first_labelled_by_its_name(tmp_path):
    mine = tmp_path / "slow.toml"
    mine.write_text("[ship]\nthrust_px_per_s2 = 100.0\n")
    choices = ruleset_choices([mine, "arena"])
    assert labels(choices) == ["slow.toml + arena", *preset_names()]
    assert choices.selected == 0
    assert choices.rulesets[0].config == load_config(mine, "arena")


def test_sets_apply_to_every_choice_and_show_in_the_label():
    choices = ruleset_choices([], ["game.lives=5"])
    assert labels(choices) == [f"{n} (+1 --set)" for n in preset_names()]
    assert all(r.config.game.lives == 5 for r in choices.rulesets)
    assert choices.rulesets[choices.selected].config == load_config(overrides=["game.lives=5"])


def test_player_sections_come_from_the_player_in_every_choice(tmp_path):
    mine = tmp_path / "keys.toml"
    mine.write_text('[keys]\nfire = ["J"]\n[display]\nglow = false\n[audio]\nvolume = 0.25\n')
    choices = ruleset_choices([mine], ['keys.pause=["F1"]'])
    # Only player settings differ from the defaults: the default preset is selected, and
    # a key override is no rules change, so no "(+1 --set)".
    assert labels(choices) == list(preset_names())
    for r in choices.rulesets:
        assert r.config.keys.fire == ("J",) and r.config.keys.pause == ("F1",)
        assert r.config.display.glow is False and r.config.audio.volume == 0.25
    classic = choices.rulesets[labels(choices).index("classic")].config
    assert dataclasses.replace(classic, display=load_config().display,
                               audio=load_config().audio,
                               keys=load_config().keys) == load_config("classic")


def test_a_preset_the_sets_break_is_skipped_with_a_reason():
    choices = ruleset_choices([], ["world.width_px=400", "world.height_px=300"])
    assert "arena" not in " ".join(labels(choices))
    [line] = choices.skipped
    assert "'arena'" in line and "outside the world" in line


def test_broken_player_settings_raise():
    with pytest.raises(ConfigError):
        ruleset_choices([], ["game.lives=-1"])


def test_a_file_named_like_a_preset_does_not_replace_the_bundled_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "classic").write_text("[game]\nlives = 9\n")
    assert load_config("classic").game.lives == 9           # the file wins on the command line
    assert load_preset("classic").world.tick_hz == 62.5     # the list holds the real preset
    assert load_preset("classic").game.lives != 9


def test_player_sections_are_the_replay_formats_non_rule_tables():
    assert set(PLAYER_SECTIONS) == set(NON_RULE_TABLES)


def test_player_label():
    assert player_label([], []) == "default"
    assert player_label([], ["ship.thrust_px_per_s2=1"]) == "custom (+1 --set)"
    assert player_label(["a/b/x.toml", "classic"], []) == "x.toml + classic"
