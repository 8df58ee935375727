"""Key bindings from the config and the key -> latch path (arcade imported, no window)."""

from __future__ import annotations

import arcade

from asteroids.app.input import ACTION_BITS, KeyBindings, PlayerInput, first_gamepad
from asteroids.config import load_config
from asteroids.core import InputFrame


def test_default_bindings_match_the_readme(config):
    keys = KeyBindings(config)
    assert keys.bits_of(arcade.key.UP) == keys.bits_of(arcade.key.W) == InputFrame.THRUST
    assert keys.bits_of(arcade.key.LEFT) == InputFrame.LEFT
    assert keys.bits_of(arcade.key.D) == InputFrame.RIGHT
    assert keys.bits_of(arcade.key.SPACE) == InputFrame.FIRE
    assert keys.bits_of(arcade.key.RSHIFT) == InputFrame.HYPERSPACE
    assert keys.bits_of(arcade.key.S) == InputFrame.SHIELD
    assert keys.pause == {arcade.key.P, arcade.key.ESCAPE}
    assert keys.bits_of(arcade.key.Z) == 0


def test_rebinding_from_config():
    keys = KeyBindings(load_config(overrides=['keys.fire=["SPACE", "J"]', 'keys.pause=["F1"]']))
    assert keys.bits_of(arcade.key.J) == InputFrame.FIRE
    assert keys.pause == {arcade.key.F1}


def test_action_bits_are_the_core_bits():
    assert sorted(ACTION_BITS.values()) == [1, 2, 4, 8, 16, 32]


def test_a_bit_stays_held_while_any_of_its_keys_is_down(config):
    player = PlayerInput(KeyBindings(config))
    assert player.key_press(arcade.key.UP)
    player.key_press(arcade.key.W)
    player.key_release(arcade.key.UP)
    assert player.take() == InputFrame.THRUST
    player.key_release(arcade.key.W)
    assert player.take() == 0
    assert not player.key_press(arcade.key.Z)


def test_a_quick_tap_reaches_one_tick(config):
    player = PlayerInput(KeyBindings(config))
    player.key_press(arcade.key.SPACE)
    player.key_release(arcade.key.SPACE)
    assert [player.take(), player.take()] == [InputFrame.FIRE, 0]


def test_no_gamepad_when_headless():
    assert first_gamepad() is None


def test_keys_for_an_action(config):
    keys = KeyBindings(config)
    assert keys.keys_for("left") == {arcade.key.LEFT, arcade.key.A}
    assert keys.keys_for("right") == {arcade.key.RIGHT, arcade.key.D}
