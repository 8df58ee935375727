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


def test_binding_a_slot_replaces_only_that_slots_key_and_keeps_the_other() -> None:
    table = opt.key_bindings(load_config())
    assert table["thrust"] == ["UP", "W"]
    out = opt.bind_key(table, "thrust", "K")                # the primary by default
    assert out.error is None and out.table["thrust"] == ["K", "W"]
    out = opt.bind_key(table, "thrust", "K", 1)
    assert out.error is None and out.table["thrust"] == ["UP", "K"]
    assert table["thrust"] == ["UP", "W"]                   # input untouched
    assert {a: v for a, v in out.table.items() if a != "thrust"} == \
        {a: v for a, v in table.items() if a != "thrust"}


def test_an_empty_alternate_gets_the_key_as_a_second_one() -> None:
    table = opt.key_bindings(load_config())
    assert opt.key_slots(table["fire"]) == ("SPACE", None)
    out = opt.bind_key(table, "fire", "F", 1)
    assert out.error is None and out.table["fire"] == ["SPACE", "F"]
    assert opt.key_slots(out.table["fire"]) == ("SPACE", "F")
    out = opt.bind_key(table, "fire", "F", 0)
    assert out.table["fire"] == ["F"]


def test_clearing_the_alternate_leaves_one_key_and_the_primary_is_never_cleared() -> None:
    table = opt.key_bindings(load_config())
    out = opt.clear_key(table, "thrust", 1)
    assert out.error is None and out.table["thrust"] == ["UP"]
    assert table["thrust"] == ["UP", "W"]
    again = opt.clear_key(out.table, "thrust", 1)
    assert again.error == "THRUST has no alternate key" and again.table == out.table
    refused = opt.clear_key(table, "thrust", 0)
    assert refused.error == "THRUST keeps its primary key: not cleared"
    assert refused.table == table
    assert opt.clear_key(opt.clear_key(table, "fire", 1).table, "fire", 0).table["fire"] == \
        ["SPACE"]


def test_the_alternate_slot_refuses_other_actions_and_reserved_keys_too() -> None:
    table = opt.key_bindings(load_config())
    out = opt.bind_key(table, "fire", "W", 1)
    assert out.error == "W is already THRUST: not bound" and out.table == table
    assert opt.bind_key(table, "thrust", "ESCAPE", 1).error == \
        "ESCAPE is the back / cancel key: not bound"
    assert opt.bind_key(table, "thrust", "F11", 1).error == "F11 is the full screen key: not bound"
    table["fire"] = ["SPACE", "ENTER"]                      # an alias of another's alternate
    assert opt.bind_key(table, "thrust", "RETURN", 1).error == \
        "RETURN is already FIRE: not bound"


def test_a_key_the_action_already_has_swaps_places_and_never_duplicates() -> None:
    table = opt.key_bindings(load_config())
    out = opt.bind_key(table, "thrust", "W", 0)             # the alternate into the primary
    assert out.error is None and out.table["thrust"] == ["W", "UP"]
    out = opt.bind_key(table, "thrust", "UP", 1)            # the primary into the alternate
    assert out.error is None and out.table["thrust"] == ["W", "UP"]
    for slot, key in ((0, "UP"), (1, "W")):                 # a key into its own slot
        same = opt.bind_key(table, "thrust", key, slot)
        assert same.error is None and same.table == table
    # The primary into an empty alternate would leave no primary: refused.
    out = opt.bind_key(table, "fire", "SPACE", 1)
    assert out.error == "SPACE is already the FIRE primary key: not bound"
    assert out.table == table
    table["fire"] = ["ENTER", "F"]                          # aliases are the same key
    assert opt.bind_key(table, "fire", "RETURN", 1).table["fire"] == ["F", "ENTER"]


def test_keys_past_the_second_are_kept_but_not_shown() -> None:
    table = opt.key_bindings(load_config())
    table["thrust"] = ["UP", "W", "NUM_8", "I"]             # a player's TOML may give four
    assert opt.key_slots(table["thrust"]) == ("UP", "W")
    assert opt.bind_key(table, "thrust", "K", 0).table["thrust"] == ["K", "W", "NUM_8", "I"]
    assert opt.bind_key(table, "thrust", "K", 1).table["thrust"] == ["UP", "K", "NUM_8", "I"]
    # A hidden key of the same action swaps into view; nothing is lost or doubled.
    assert opt.bind_key(table, "thrust", "I", 1).table["thrust"] == ["UP", "I", "NUM_8", "W"]
    # A hidden key of another action is that action's key all the same.
    assert opt.bind_key(table, "fire", "NUM_8", 1).error == "NUM_8 is already THRUST: not bound"
    # Clearing the alternate shows the next key rather than hiding a bound one.
    assert opt.clear_key(table, "thrust", 1).table["thrust"] == ["UP", "NUM_8", "I"]


@pytest.mark.parametrize("slot", [-1, 2])
def test_there_are_two_slots(slot) -> None:
    table = opt.key_bindings(load_config())
    with pytest.raises(ValueError, match="slot must be 0"):
        opt.bind_key(table, "thrust", "K", slot)
    with pytest.raises(ValueError, match="slot must be 0"):
        opt.clear_key(table, "thrust", slot)


def test_pad_buttons_bind_with_conflicts_refused() -> None:
    out = opt.bind_button(opt.DEFAULT_PAD, "fire", "b")
    assert out.error == "pad B is already THRUST: not bound"
    out = opt.bind_button(opt.DEFAULT_PAD, "fire", "rightshoulder")
    assert out.error is None and out.table["fire"] == ["rightshoulder"]
    assert opt.bind_button(opt.DEFAULT_PAD, "fire", "guide").error == "pad guide cannot be bound"
    # A conflict names the button as the screens do, not pyglet's attribute name.
    assert opt.bind_button(opt.DEFAULT_PAD, "thrust", "righttrigger").error == \
        "pad RIGHT TRIGGER is already FIRE: not bound"


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


def test_two_keys_per_action_round_trip_and_apply(tmp_path) -> None:
    path = tmp_path / "settings.json"
    config = load_config()
    table = opt.bind_key(opt.key_bindings(config), "thrust", "K", 1).table
    table = opt.bind_key(table, "fire", "F", 1).table
    keys = {a: table[a] for a in ("thrust", "fire")}
    keys["left"] = ["LEFT", "A", "J"]
    s = Settings(path=path, keys=keys)
    assert s.save() is None
    back = Settings.load(path)
    assert back.keys == {"thrust": ["UP", "K"], "fire": ["SPACE", "F"],
                         "left": ["LEFT", "A", "J"]} and not back.warnings
    out = opt.apply_options(config, back)
    assert (out.keys.thrust, out.keys.fire, out.keys.left) == \
        (("UP", "K"), ("SPACE", "F"), ("LEFT", "A", "J"))
    assert out.keys.right == config.keys.right


@pytest.mark.parametrize("count,kept", [(8, True), (9, False)])
def test_a_remembered_action_holds_up_to_eight_keys(tmp_path, count, kept) -> None:
    path = tmp_path / "settings.json"
    names = ["A", "B", "C", "D", "E", "F", "G", "H", "I"][:count]
    path.write_text(json.dumps({"schema_version": SETTINGS_SCHEMA_VERSION,
                                "keys": {"thrust": names}}))
    s = Settings.load(path)
    assert (s.keys == {"thrust": names}) is kept
    assert bool(s.warnings) is not kept


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
