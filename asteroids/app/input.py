"""Keyboard and gamepad to input bits: bindings from ``config.keys``, fed into an InputLatch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import arcade

from asteroids.app.stepper import InputLatch
from asteroids.config import Config
from asteroids.core import InputFrame
from asteroids.profile.options import DEFAULT_PAD
from asteroids.profile.settings import PAD_BUTTON_NAMES, pad_button_name

__all__ = ["ACTION_BITS", "PAD_BUTTON_NAMES", "KeyBindings", "MenuPad", "PlayerInput",
           "first_gamepad", "open_gamepad", "pad_button_down", "pad_button_name"]

ACTION_BITS: dict[str, int] = {
    "thrust": int(InputFrame.THRUST),
    "left": int(InputFrame.LEFT),
    "right": int(InputFrame.RIGHT),
    "fire": int(InputFrame.FIRE),
    "hyperspace": int(InputFrame.HYPERSPACE),
    "shield": int(InputFrame.SHIELD),
}
"""Config action name -> core input bit."""

PAD_DEAD_ZONE = 0.4
"""Stick deflection below this counts as centred."""

MENU_STICK_ON = 0.5
"""In menus, the left stick moves once when pushed past this..."""
MENU_STICK_OFF = 0.3
"""...and again only after it has come back inside this (no jitter at the edge)."""


def _codes(names: tuple[str, ...]) -> set[int]:
    codes = set()
    for name in names:
        code = getattr(arcade.key, name, None)
        if isinstance(code, int):
            codes.add(code)
    return codes


class KeyBindings:
    """Key codes of every action, resolved once from ``config.keys``.

    Args:
        config: the settings; unknown names (the loader refuses them) are ignored here.
        pad: gamepad buttons per action (``asteroids.profile.options.pad_bindings``);
            None: ``DEFAULT_PAD``.
    """

    def __init__(self, config: Config,
                 pad: Mapping[str, tuple[str, ...]] | None = None) -> None:
        keys = config.keys
        self.pad: dict[str, tuple[str, ...]] = dict(pad if pad is not None else DEFAULT_PAD)
        """Gamepad button names per action (the left stick steers and thrusts as well)."""
        self.bits: dict[int, int] = {}
        """Key code -> input bits it drives."""
        for action, bit in ACTION_BITS.items():
            for code in _codes(getattr(keys, action)):
                self.bits[code] = self.bits.get(code, 0) | bit
        self.pause: set[int] = _codes(keys.pause)
        """Key codes that pause and resume."""
        self.restart: set[int] = _codes(keys.restart)
        """Key codes that start the next game at once while settings wait for it."""
        self.restart_names: tuple[str, ...] = tuple(keys.restart)
        """The restart keys' names, for the screen."""

    def bits_of(self, key: int) -> int:
        """Input bits driven by one key (0 if unbound)."""
        return self.bits.get(key, 0)

    def keys_for(self, action: str) -> set[int]:
        """Key codes bound to ``action`` (a name of ``ACTION_BITS``)."""
        bit = ACTION_BITS[action]
        return {code for code, bits in self.bits.items() if bits & bit}


def first_gamepad() -> Any | None:
    """The first connected game controller, or None (always None when headless)."""
    get = getattr(arcade, "get_controllers", None)  # not exported in headless mode
    if get is None:
        return None
    try:
        pads = get()
    except Exception:  # no devices, no backend: play on with the keyboard
        return None
    return pads[0] if pads else None


def open_gamepad(pad: Any | None) -> Any | None:
    """Open ``pad`` once for the whole session; None when there is none or it will not open.

    A pyglet Controller refuses a second ``open()`` ("Device is already open"), so views
    share the one opened here (``Game.gamepad``) and never open it themselves.
    """
    if pad is None:
        return None
    try:
        pad.open()
    except Exception:  # a pad that will not open is simply not used
        return None
    return pad


def _safe_bits(pad: Any, buttons: Mapping[str, tuple[str, ...]] = DEFAULT_PAD) -> int:
    try:
        return _pad_bits(pad, buttons)
    except Exception:
        return 0


def pad_button_down(pad: Any, button: str) -> bool:
    """Whether a gamepad button (a pyglet Controller attribute name) is held; the triggers
    count past half-way."""
    value = getattr(pad, button, False)
    if isinstance(value, bool):
        return value
    return float(value or 0.0) > 0.5


def _pad_bits(pad: Any, buttons: Mapping[str, tuple[str, ...]] = DEFAULT_PAD) -> int:
    """Bits from a pyglet Controller's current state: the left stick, and the buttons each
    action is bound to."""
    bits = 0
    x = float(getattr(pad, "leftx", 0.0) or 0.0)
    y = float(getattr(pad, "lefty", 0.0) or 0.0)
    if x < -PAD_DEAD_ZONE:
        bits |= ACTION_BITS["left"]
    if x > PAD_DEAD_ZONE:
        bits |= ACTION_BITS["right"]
    if y > PAD_DEAD_ZONE:
        bits |= ACTION_BITS["thrust"]
    for action, names in buttons.items():
        if any(pad_button_down(pad, name) for name in names):
            bits |= ACTION_BITS[action]
    return bits


class PlayerInput:
    """Turns key events (and an optional gamepad) into one latched mask per tick.

    Several keys may drive the same bit (Up and W): a bit is released only when none of its
    keys is still down.

    Args:
        bindings: the resolved key bindings.
        latch: the latch to feed; a new one when None.
        gamepad: an opened pyglet Controller (``open_gamepad``); None for keyboard only.
            Buttons already held when the view starts (the A that started the game) count
            as held, not pressed: they act only once released and pressed again.
    """

    def __init__(self, bindings: KeyBindings, latch: InputLatch | None = None,
                 gamepad: Any | None = None) -> None:
        self.bindings = bindings
        self.latch = latch or InputLatch()
        self.down: set[int] = set()
        """Bound keys that are down now."""
        self.pad = gamepad
        self._pad_held = _safe_bits(gamepad, bindings.pad) if gamepad is not None else 0

    def _key_bits(self) -> int:
        bits = 0
        for key in self.down:
            bits |= self.bindings.bits_of(key)
        return bits

    def key_press(self, key: int) -> bool:
        """A key went down; True if it is bound to a game action."""
        bits = self.bindings.bits_of(key)
        if not bits:
            return False
        self.down.add(key)
        self.latch.press(bits)
        return True

    def key_release(self, key: int) -> bool:
        """A key went up; True if it is bound to a game action."""
        bits = self.bindings.bits_of(key)
        if not bits:
            return False
        self.down.discard(key)
        self.latch.release(bits & ~(self._key_bits() | self._pad_held))
        return True

    def poll_pad(self) -> None:
        """Read the gamepad once per frame (before ticks run)."""
        if self.pad is None:
            return
        try:
            bits = _pad_bits(self.pad, self.bindings.pad)
        except Exception:  # unplugged mid-game
            self.pad = None
            bits = 0
        keys = self._key_bits()
        self.latch.press(bits & ~self._pad_held)
        self.latch.release(self._pad_held & ~bits & ~keys)
        self._pad_held = bits

    def take(self) -> int:
        """The mask for the next tick."""
        return self.latch.take()

    def clear(self) -> None:
        """Forget every key (focus lost, view changed)."""
        self.down.clear()
        self._pad_held = 0
        self.latch.clear()


class MenuPad:
    """Menu moves from a gamepad, read by polling once per frame like ``PlayerInput``.

    ``poll()`` returns the moves that began since the last poll, each once per push:
    ``"left"`` / ``"right"`` / ``"up"`` / ``"down"`` (d-pad, or the left stick past
    ``MENU_STICK_ON``), ``"fire"`` (A), ``"start"`` (Start), ``"back"`` (B), ``"alt"``
    (Y: a two-player game on the title) and ``"options"`` (Back / Select: the options
    screen). Whatever is already held when the menu opens is not
    a move.

    Args:
        gamepad: an opened pyglet Controller (``open_gamepad``), or None (polls give
            nothing).
    """

    MOVES = ("left", "right", "up", "down", "fire", "start", "back", "alt", "options")
    """Every move ``poll`` can return, in the order it returns them."""

    _AXES = (("left", "leftx", -1.0, "dpleft"), ("right", "leftx", 1.0, "dpright"),
             ("up", "lefty", 1.0, "dpup"), ("down", "lefty", -1.0, "dpdown"))
    _BUTTONS = (("fire", "a"), ("start", "start"), ("back", "b"), ("alt", "y"),
                ("options", "back"))

    def __init__(self, gamepad: Any | None) -> None:
        self.pad = gamepad
        self._held: set[str] = set()
        self._held = self._read()

    def _read(self) -> set[str]:
        pad = self.pad
        if pad is None:
            return set()
        try:
            held = set()
            for move, axis, sign, dpad in self._AXES:
                value = float(getattr(pad, axis, 0.0) or 0.0)
                limit = MENU_STICK_OFF if move in self._held else MENU_STICK_ON
                if value * sign > limit or getattr(pad, dpad, False):
                    held.add(move)
            for move, button in self._BUTTONS:
                if getattr(pad, button, False):
                    held.add(move)
        except Exception:  # unplugged
            self.pad = None
            return set()
        return held

    def poll(self) -> list[str]:
        """The moves begun since the last poll, in ``MOVES`` order."""
        now = self._read()
        began = now - self._held
        self._held = now
        return [m for m in self.MOVES if m in began]
