"""The options screen: a modal overlay (an arcade Section) the title and the pause screen
open (O, or the pad's Back / Select), over the demo or the paused game, which it never steps.

Keyboard: Up / Down select, Left / Right change, Enter activates (toggles, starts a
press-to-bind, resets), Escape goes back (or cancels a press-to-bind). The pad: d-pad or
stick, A activates, B goes back; Start cancels a pad press-to-bind (Start or B a key
press-to-bind). Every change applies at once and is remembered (``Game.set_option``); what
the items are and how binding refuses a conflict is ``asteroids.profile.options``. It is an
overlay, not a View, so opening it from pause neither saves nor ends the game in progress.

A key item shows two slots, the action's primary and alternate key (``KEY_SLOTS``): Left /
Right pick the slot, Enter binds that slot only, Delete / Backspace (the pad's Y) clears the
alternate. Pad items stay one button per action, shown by name ("RIGHT TRIGGER", "D-PAD UP").
The shield's rows are listed only while the rules have a shield. "Reset to defaults" asks
once (Enter again: reset; Escape or a move: keep). The panel keeps its size while a
press-to-bind waits (``menu_layout``'s ``reserve``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade

from asteroids.app.input import pad_button_down, pad_button_name
from asteroids.app.keymap import (
    DOWN_KEYS,
    LEFT_KEYS,
    PAD_A,
    PAD_B,
    PAD_DOWN,
    PAD_LEFT,
    PAD_RIGHT,
    PAD_UP,
    PAD_Y,
    RIGHT_KEYS,
    START_KEYS,
    UP_KEYS,
    KeyRule,
    run,
)
from asteroids.app.layout import menu_layout
from asteroids.app.mixer import taper
from asteroids.app.overlay import Overlay
from asteroids.app.text import Frame, TextLine
from asteroids.config.keys import KEY_NAMES, canonical_key
from asteroids.config.player_tables import PALETTES, PLAYFIELD_BORDERS
from asteroids.profile.options import (
    HUD_SCALES,
    ITEMS,
    KEY_SLOTS,
    MONITOR_STRENGTHS,
    Item,
    bind_button,
    bind_key,
    clear_key,
    key_bindings,
    key_slots,
    step_choice,
    step_volume,
)
from asteroids.profile.settings import PAD_BUTTONS

if TYPE_CHECKING:
    from asteroids.app.world_view import WorldView
    from asteroids.config import Config

__all__ = ["OPEN_KEYS", "PROMPTS", "RESET_ASK", "OptionsMenu", "key_name", "shown_items",
           "volume_text"]

OPEN_KEYS = frozenset({arcade.key.O})
"""Keys that open the options screen from the title and from pause."""

_CLEAR = frozenset({arcade.key.DELETE, arcade.key.BACKSPACE, arcade.key.NUM_DELETE})

_ANY = type("_AnyKey", (), {"__contains__": lambda self, key: True})()
"""Every key (a press-to-bind takes whichever comes)."""

_NAMES: dict[int, str] = {}
for _name in reversed(KEY_NAMES):  # the first name of a code wins
    _NAMES[getattr(arcade.key, _name)] = canonical_key(_name)

KEY_PROMPT = "KEY?"
PAD_PROMPT = "BUTTON?"
NO_PAD = "NO PAD"
PROMPTS = (KEY_PROMPT, PAD_PROMPT, NO_PAD)
"""What a slot shows while a press-to-bind waits, short (the help line says the rest: "PRESS
A KEY FOR THE THRUST PRIMARY   ESC: CANCEL"); the panel is laid out wide enough for them from
the start, so it does not move when one appears."""

RESET_ASK = "RESET EVERY OPTION TO ITS DEFAULT?   ENTER: YES   ESC: NO"
"""The note when "reset to defaults" is chosen once."""

HELP = "\u2191 \u2193 PICK   \u2190 \u2192 CHANGE   ENTER: SET   ESC: BACK"
KEY_HELP = ("\u2191 \u2193 PICK   \u2190 \u2192 PRIMARY OR ALTERNATE   ENTER: SET   "
            "DEL (PAD Y): CLEAR ALTERNATE   ESC: BACK")
"""The help line on a key item."""


def volume_text(setting: float) -> str:
    """A volume item's value: the setting and the gain it gives (``mixer.taper``).

    >>> volume_text(0.8), volume_text(0.0)
    ('80 %  -8 DB', '0 %  SILENT')
    """
    gain = taper(setting)
    level = "SILENT" if gain <= 0.0 else f"{20.0 * math.log10(gain):.0f} DB"
    return f"{round(setting * 100)} %  {level}"


def shown_items(config: Config) -> tuple[Item, ...]:
    """The items listed under ``config``: ``ITEMS`` without the shield's key and pad rows
    when the rules have no shield."""
    if config.ship.shield.enabled:
        return ITEMS
    return tuple(item for item in ITEMS if item.key not in ("key:shield", "pad:shield"))


def key_name(symbol: int) -> str | None:
    """The ``[keys]`` name of an arcade key code (None: not a bindable key)."""
    return _NAMES.get(symbol)


class OptionsMenu(Overlay):
    """The options overlay of one screen.

    Args:
        view: the screen it is over (its game's settings are what the items change).
        close: called when the player goes back (after the overlay is taken down).
        changed: called after every change (the screen behind takes the new settings).
    """

    covers = True
    """It hides the HUD; the world around its panel shows the look's changes live."""

    def __init__(self, view: WorldView, close: Callable[[], None] | None = None,
                 changed: Callable[[], None] | None = None) -> None:
        super().__init__(view, modal=True, name="options")
        self.on_close = close
        self.changed = changed
        self.index = 0
        """The selected item (in ``items``)."""
        self.items: tuple[Item, ...] = shown_items(self.game.config)
        """The items listed (``shown_items``), taken again at every refresh."""
        self.asking = False
        """"Reset to defaults" was chosen once: Enter again resets, anything else keeps."""
        self.listening: Item | None = None
        """The control item waiting for a key or button press (None: not binding)."""
        self.slot = 0
        """The selected slot of a key item (0: primary, 1: alternate; ``KEY_SLOTS``); it
        stays when the cursor moves between key items, like a column."""
        self.message = ""
        """The last binding's outcome, shown under the items."""
        self._pad_held: set[str] = set()
        self.labels: list[str] = []
        """Each item's label as shown."""
        self.values: list[str] = []
        """Each item's value as shown (a key item's primary key)."""
        self.alternates: list[str] = []
        """A key item's alternate slot as shown; empty on the others."""
        self.help = ""
        """The help line as shown."""
        self.shown = (0, len(self.items))
        """The first item and how many were on screen at the last layout (it scrolls)."""
        self.refresh()

    def key_rules(self) -> list[KeyRule]:
        """Binding takes the next key; else Escape / B back, Delete / Y clear, the arrows
        (d-pad) move and change, Enter / Space / A activate."""
        binding = lambda: self.listening is not None  # noqa: E731
        return [
            KeyRule({arcade.key.ESCAPE, PAD_B}, run(self._keep), when=lambda: self.asking,
                    name="keep"),
            KeyRule({arcade.key.ESCAPE}, run(lambda: self._finish_binding("not changed")),
                    when=binding, name="cancel"),
            KeyRule(_ANY, self._listen_key, when=binding, name="bind"),
            KeyRule({arcade.key.ESCAPE, PAD_B}, run(self.back), name="back"),
            KeyRule(_CLEAR | {PAD_Y}, run(self.clear), name="clear"),
            KeyRule(UP_KEYS | {PAD_UP}, lambda _: self.move(-1), name="up"),
            KeyRule(DOWN_KEYS | {PAD_DOWN}, lambda _: self.move(1), name="down"),
            KeyRule(LEFT_KEYS | {PAD_LEFT}, lambda _: self.change(-1), name="left"),
            KeyRule(RIGHT_KEYS | {PAD_RIGHT}, lambda _: self.change(1), name="right"),
            KeyRule(START_KEYS | {PAD_A}, run(self.activate), name="activate"),
        ]

    def _listen_key(self, symbol: int) -> None:
        if self.listening is not None and self.listening.key.startswith("key:") \
                and symbol >= 0:
            self.bind_key(symbol)

    def back(self) -> None:
        """Go back: the overlay comes down and the screen behind takes over again."""
        self.close()
        if self.on_close is not None:
            self.on_close()

    @property
    def item(self) -> Item:
        """The selected item."""
        return self.items[self.index]

    def value_text(self, item: Item) -> str:
        """What the screen shows as ``item``'s value now."""
        game, config = self.game, self.game.config
        key = item.key
        if key == "master_volume":
            return volume_text(game.audio.master_volume)
        if key == "effects_volume":
            return volume_text(config.audio.effects_volume)
        if key == "muted":
            return game.audio.state_text()
        if key == "fullscreen":
            return "ON" if game.window.fullscreen else "OFF"
        if key == "palette":
            return config.display.palette.replace("_", " ").upper()
        if key == "monitor_strength":
            strength = config.display.monitor.strength
            return "OFF" if strength <= 0 else f"{round(strength * 100)} %"
        if key == "hud_scale":
            return f"{config.display.hud_scale:g} X"
        if key == "show_fps":
            return "ON" if config.display.show_fps else "OFF"
        if key == "border":
            return config.display.border.upper()
        if key.startswith("key:"):
            return "   ".join(self.slot_text(item, slot) for slot in range(len(KEY_SLOTS)))
        if key.startswith("pad:"):
            if self.listening == item:
                return PAD_PROMPT if game.gamepad is not None else NO_PAD
            return " / ".join(pad_button_name(b) for b in game.rules.pad_buttons[key[4:]]) \
                or "-"
        return ""

    def slot_text(self, item: Item, slot: int) -> str:
        """What a key item's slot shows: its key, ``-`` for no alternate, or the prompt while
        it waits for a key. Keys past the second are bound but not shown."""
        if self.listening == item and self.slot == slot:
            return KEY_PROMPT
        return key_slots(getattr(self.game.config.keys, item.key[4:]))[slot] or "-"

    def _changed(self) -> None:
        if self.changed is not None:
            self.changed()
        self.refresh()

    def refresh(self) -> None:
        """The texts of every line from the current settings (and the items listed: the
        selection stays on its item, or the nearest one)."""
        selected = self.items[min(self.index, len(self.items) - 1)]
        self.items = shown_items(self.game.config)
        self.index = (self.items.index(selected) if selected in self.items
                      else min(self.index, len(self.items) - 1))
        self.labels, self.values, self.alternates = [], [], []
        for item in self.items:
            self.labels.append(item.label)
            if item.key.startswith("key:"):
                self.values.append(self.slot_text(item, 0))
                self.alternates.append(self.slot_text(item, 1))
            else:
                self.values.append(self.value_text(item))
                self.alternates.append("")
        self.help = self._help()

    def text_lines(self, frame: Frame) -> tuple[list[TextLine], tuple[float, float, float,
                                                                      float] | None]:
        """The menu on its opaque panel (``asteroids.app.layout.menu_layout``)."""
        rows = list(zip(self.labels, self.values, self.alternates, strict=True))
        cell = 1 + self.slot if self.item.key.startswith("key:") else 1
        out = menu_layout(frame, "OPTIONS", rows, self.index, cell, self.message, self.help,
                          reserve=PROMPTS, reserve_help=self._helps())
        self.shown = (out.first, out.shown)
        return out.lines, out.panel

    def _helps(self) -> list[str]:
        """Every help line the selected item can show, waiting for a press or not (the
        layout keeps room for the tallest)."""
        listening = self.listening
        try:
            self.listening = None
            helps = [self._help()]
            if self.item.key.startswith(("key:", "pad:")):
                self.listening = self.item
                helps.append(self._help())
            return helps
        finally:
            self.listening = listening

    def _help(self) -> str:
        item = self.listening
        if item is not None and item.key.startswith("key:"):
            return (f"PRESS A KEY FOR THE {item.key[4:].upper()} {KEY_SLOTS[self.slot].upper()}"
                    "   ESC: CANCEL")
        if item is not None:  # a pad press-to-bind
            if self.game.gamepad is None:
                return "NO GAMEPAD PLUGGED IN   ESC: CANCEL"
            return f"PRESS A PAD BUTTON FOR {item.key[4:].upper()}   START / ESC: CANCEL"
        return KEY_HELP if self.item.key.startswith("key:") else HELP

    def move(self, step: int) -> None:
        """Select the item ``step`` lines down (wrapping)."""
        self.index = (self.index + step) % len(self.items)
        if not self.item.key.startswith("key:"):
            self.slot = 0
        self.message = ""
        self.asking = False
        self.refresh()

    def change(self, step: int) -> None:
        """Left / Right on the selected item: the next or previous value, applied at once."""
        game, config, key = self.game, self.game.config, self.item.key
        if key == "master_volume":
            game.set_option(master_volume=step_volume(game.audio.master_volume, step))
        elif key == "effects_volume":
            game.set_option(effects_volume=step_volume(config.audio.effects_volume, step))
        elif key == "muted":
            game.set_option(muted=not game.audio.muted)
        elif key == "fullscreen":
            game.toggle_fullscreen()
        elif key == "palette":
            game.set_option(palette=step_choice(PALETTES, config.display.palette, step))
        elif key == "monitor_strength":
            game.set_option(monitor_strength=step_choice(
                MONITOR_STRENGTHS, config.display.monitor.strength, step))
        elif key == "hud_scale":
            game.set_option(hud_scale=step_choice(HUD_SCALES, config.display.hud_scale, step))
        elif key == "show_fps":
            game.set_option(show_fps=not config.display.show_fps)
        elif key == "border":
            game.set_option(border=step_choice(PLAYFIELD_BORDERS, config.display.border, step))
        elif key.startswith("key:"):  # the primary (Left) or the alternate (Right) slot
            self.slot = 0 if step < 0 else 1
            self.message = ""
            self.refresh()
            return
        else:
            return
        self._changed()

    def activate(self) -> None:
        """Enter / A on the selected item."""
        key = self.item.key
        if key == "back":
            self.back()
            return
        if key == "reset":
            if not self.asking:  # ask once: a stray Enter must not undo every option
                self.asking = True
                self.message = RESET_ASK
                self.refresh()
                return
            self.asking = False
            self.game.reset_options()
            self.message = "OPTIONS RESET TO DEFAULTS"
            self._changed()
        elif key.startswith(("key:", "pad:")):
            self.listening = self.item
            self.message = ""
            self._pad_held = self._pad_buttons()
        else:
            self.change(1)
            return
        self.refresh()

    def _keep(self) -> None:
        """Escape (the pad's B) while "reset to defaults" asks: nothing is reset."""
        self.asking = False
        self.message = "NOTHING RESET"
        self.refresh()

    def _finish_binding(self, error: str | None) -> None:
        self.listening = None
        self.message = error.upper() if error else ""
        self.refresh()

    def _remember_keys(self, action: str, keys: list[str]) -> None:
        settings = self.game.profile.settings
        table = dict(settings.keys or {}) if settings else {}
        table[action] = keys
        self.game.set_option(keys=table)
        self._changed()

    def bind_key(self, symbol: int) -> None:
        """The press of a press-to-bind: put ``symbol`` in the listening action's selected
        slot, keeping its other key, unless another action has it (then say which and bind
        nothing)."""
        item = self.listening
        assert item is not None and item.key.startswith("key:")
        name = key_name(symbol)
        if name is None:
            self._finish_binding("that key cannot be bound")
            return
        action = item.key[4:]
        out = bind_key(key_bindings(self.game.config), action, name, self.slot)
        if out.error is None:
            self._remember_keys(action, out.table[action])
        where = action if self.slot == 0 else f"{action} {KEY_SLOTS[self.slot]}"
        self._finish_binding(out.error or f"{where} is {name}")

    def clear(self) -> None:
        """Delete / Backspace (the pad's Y) on a key item's alternate slot: the action keeps
        its primary key only. Refused, with the reason, on the primary slot."""
        if not self.item.key.startswith("key:"):
            return
        action = self.item.key[4:]
        out = clear_key(key_bindings(self.game.config), action, self.slot)
        if out.error is None:
            self._remember_keys(action, out.table[action])
        self.message = (out.error or f"{action} alternate cleared").upper()
        self.refresh()

    def bind_pad(self, button: str) -> None:
        """The pad's press of a press-to-bind (see ``bind_key``)."""
        item = self.listening
        assert item is not None and item.key.startswith("pad:")
        action = item.key[4:]
        out = bind_button(self.game.rules.pad_buttons, action, button)
        if out.error is None:
            settings = self.game.profile.settings
            pad = dict(settings.pad or {}) if settings else {}
            pad[action] = out.table[action]
            self.game.set_option(pad=pad)
            self._changed()
        self._finish_binding(out.error or f"{action} is pad {pad_button_name(button)}")

    def _pad_buttons(self) -> set[str]:
        pad = self.game.gamepad
        if pad is None:
            return set()
        try:
            return {b for b in (*PAD_BUTTONS, "start") if pad_button_down(pad, b)}
        except Exception:  # unplugged
            return set()

    def on_update(self, delta_time: float) -> None:
        """Once a frame: the pad's menu moves, or the button of a pad press-to-bind."""
        if self.listening is not None and self.listening.key.startswith("pad:"):
            held = self._pad_buttons()
            began = held - self._pad_held
            self._pad_held = held
            if "start" in began:
                self._finish_binding("not changed")
            else:
                pressed = [b for b in PAD_BUTTONS if b in began]
                if pressed:
                    self.bind_pad(pressed[0])
            if self.listening is None:
                self.menu.poll()  # the bound button is not also a menu move
            return
        if self.listening is not None:  # a key press-to-bind: the pad may only cancel it
            if {"back", "start"} & set(self.menu.poll()):
                self._finish_binding("not changed")
            return
        super().on_update(delta_time)

