"""The options screen's pure part (asteroids.profile.options) and the settings it remembers."""

from __future__ import annotations

import doctest
import json

import pytest

from asteroids.config import load_config
from asteroids.profile import Settings
from asteroids.profile import options as opt
from asteroids.profile.settings import SETTINGS_SCHEMA_VERSION
from asteroids.replay.format import rules_fingerprint


def test_doctests() -> None:
    assert doctest.testmod(opt).failed == 0


def test_volume_steps_stop_at_the_ends() -> None:
    assert opt.step_volume(0.9, 1) == 1.0
    assert opt.step_volume(1.0, 1) == 1.0
    assert opt.step_volume(0.1, -1) == 0.0
    assert opt.step_volume(0.0, -1) == 0.0


def test_choices_wrap_and_a_toml_value_between_choices_moves_to_its_neighbour() -> None:
    assert opt.step_choice(opt.MONITOR_STRENGTHS, 1.0, 1) == 0.0
    assert opt.step_choice(opt.MONITOR_STRENGTHS, 0.0, -1) == 1.0
    assert opt.step_choice(opt.MONITOR_STRENGTHS, 0.3, 1) == 0.5
    assert opt.step_choice(opt.MONITOR_STRENGTHS, 0.3, -1) == 0.25
    assert opt.step_choice(opt.HUD_SCALES, 3.0, 1) == 0.75


def test_a_key_of_another_action_is_refused_and_named() -> None:
    table = opt.key_bindings(load_config())
    out = opt.bind_key(table, "fire", "UP")
    assert out.error == "UP is already THRUST: not bound"
    assert out.table == table
    # An alias of a bound key is the same key.
    table["pause"] = ["ENTER"]
    assert opt.bind_key(table, "fire", "RETURN").error == "RETURN is already PAUSE: not bound"
    assert opt.bind_key(table, "fire", "F11").error == "F11 is the full screen key: not bound"


def test_binding_replaces_the_actions_keys_and_its_own_key_is_fine() -> None:
    table = opt.key_bindings(load_config())
    out = opt.bind_key(table, "thrust", "W")
    assert out.error is None and out.table["thrust"] == ["W"]
    out = opt.bind_key(table, "fire", "F")
    assert out.table["fire"] == ["F"] and table["fire"] == ["SPACE"]  # input untouched


def test_pad_buttons_bind_with_conflicts_refused() -> None:
    out = opt.bind_button(opt.DEFAULT_PAD, "fire", "b")
    assert out.error == "pad B is already THRUST: not bound"
    out = opt.bind_button(opt.DEFAULT_PAD, "fire", "rightshoulder")
    assert out.error is None and out.table["fire"] == ["rightshoulder"]
    assert opt.bind_button(opt.DEFAULT_PAD, "fire", "guide").error == "pad guide cannot be bound"


def test_remembered_options_apply_over_the_toml_unless_pinned_and_never_touch_rules() -> None:
    config = load_config()
    s = Settings(palette="amber", monitor_strength=0.5, hud_scale=2.0, effects_volume=0.3,
                 master_volume=0.4, muted=True, keys={"fire": ["F"]})
    out = opt.apply_options(config, s)
    assert out.display.palette == "amber"
    assert out.display.monitor.strength == 0.5
    assert out.display.hud_scale == 2.0
    assert (out.audio.volume, out.audio.effects_volume, out.audio.muted) == (0.4, 0.3, True)
    assert out.keys.fire == ("F",) and out.keys.thrust == config.keys.thrust
    assert rules_fingerprint(out) == rules_fingerprint(config)
    pinned = opt.apply_options(config, s, {"display.palette", "keys.fire"})
    assert pinned.display.palette == config.display.palette
    assert pinned.keys.fire == config.keys.fire
    assert pinned.display.hud_scale == 2.0
    assert opt.apply_options(config, Settings()) is config
    assert opt.apply_options(config, None) is config


def test_options_round_trip_through_the_settings_file(tmp_path) -> None:
    path = tmp_path / "settings.json"
    s = Settings(path=path, palette="green", monitor_strength=0.75, hud_scale=1.5,
                 effects_volume=0.5, keys={"fire": ["F"]}, pad={"fire": ["rightshoulder"]})
    assert s.save() is None
    back = Settings.load(path)
    assert back == s and not back.warnings
    assert json.loads(path.read_text())["schema_version"] == SETTINGS_SCHEMA_VERSION
    assert opt.pad_bindings(back)["fire"] == ("rightshoulder",)
    assert opt.pad_bindings(back)["thrust"] == opt.DEFAULT_PAD["thrust"]


def test_an_old_settings_file_still_loads(tmp_path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"schema_version": 1, "muted": True, "master_volume": 0.5,
                                "fullscreen": True, "ruleset": "CLASSIC"}))
    s = Settings.load(path)
    assert (s.muted, s.master_volume, s.fullscreen, s.ruleset) == (True, 0.5, True, "CLASSIC")
    assert s.palette is None and s.keys is None and not s.warnings and s.read_only is None
    assert s.save() is None  # and is upgraded when saved
    assert json.loads(path.read_text())["schema_version"] == SETTINGS_SCHEMA_VERSION


@pytest.mark.parametrize("field,value", [
    ("palette", "purple"), ("hud_scale", 3.5), ("monitor_strength", -0.1),
    ("keys", {"fire": ["NOT_A_KEY"]}), ("keys", {"jump": ["SPACE"]}),
    ("pad", {"fire": ["guide"]}), ("keys", {"fire": "SPACE"}),
])
def test_a_bad_option_is_dropped_with_a_warning(tmp_path, field, value) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"schema_version": 2, field: value, "muted": True}))
    s = Settings.load(path)
    assert getattr(s, field) is None and s.muted is True
    assert len(s.warnings) == 1 and field in s.warnings[0]
