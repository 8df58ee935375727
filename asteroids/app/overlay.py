"""What a screen puts over itself: ``Overlay``, an arcade Section that takes the screen's keys
while it is up (modal: pause, options) or only watches them (not modal: the controls card).

A ``WorldView`` hosts its overlays (``asteroids.app.world_view``: it updates and draws them
itself, and only keys go through the sections). No game rule lives here.
"""

from __future__ import annotations

from typing import Protocol

import arcade

from asteroids.app.game import Game
from asteroids.app.input import MenuPad
from asteroids.app.keymap import KeyRule, KeyTable, alt_enter_rule, common_rules, pad_key
from asteroids.app.text import Frame, TextLine

__all__ = ["Overlay", "OverlayHost"]


class OverlayHost(Protocol):
    """The screen an overlay is over (a ``WorldView``)."""

    game: Game

    def close_overlay(self, overlay: Overlay) -> None:
        """Take ``overlay`` down."""


class Overlay(arcade.Section):
    """Something drawn over a screen that takes its keys while it is up (modal: pause,
    options), or that only watches them (not modal: the controls card).

    Subclasses give ``key_rules`` (their key table) and ``draw_overlay``.
    """

    def __init__(self, view: OverlayHost, *, modal: bool = True, name: str = "") -> None:
        window = view.game.window
        super().__init__(0, 0, window.width, window.height, name=name or type(self).__name__,
                         modal=modal, accept_mouse_events=False,
                         prevent_dispatch={True} if modal else {False},
                         prevent_dispatch_view={True} if modal else {False})
        self.owner = view
        """The screen it is over."""
        self.game = view.game
        self.menu = MenuPad(view.game.gamepad)
        """Its own reading of the pad: buttons held when it opens are not moves."""
        self.stale: set[int] = set(view.game.held_keys)
        """Keys held when it opened: they act only once released and pressed again."""
        self._table: KeyTable | None = None

    @property
    def keys(self) -> KeyTable:
        """This overlay's key table (built on first use): a modal overlay's ends with the
        keys every screen shares (``common_rules``), Alt+Enter first."""
        if self._table is None:
            rules = self.key_rules()
            if self.modal:
                rules = [alt_enter_rule(self.game), *rules, *common_rules(self.game)]
            self._table = KeyTable(rules)
        return self._table

    def key_rules(self) -> list[KeyRule]:
        """The overlay's keys (none: it only watches)."""
        return []

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Through the key table (not a key held since before it opened); a modal overlay
        takes every key."""
        self.game.held_keys.add(symbol)
        if symbol not in self.stale:
            self.keys.press(symbol, modifiers)
        return True if self.modal else None

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        """A key let go (it may act again); a modal overlay takes every key."""
        self.game.held_keys.discard(symbol)
        self.stale.discard(symbol)
        return True if self.modal else None

    def press(self, symbol: int, modifiers: int = 0) -> bool:
        """A key (or pad move, ``pad_key``) through the table; True when handled."""
        return self.keys.press(symbol, modifiers)

    def on_update(self, delta_time: float) -> None:
        """Once a frame while it is up: the pad's menu moves through the key table (a modal
        overlay reads the pad itself; the screen under it does not)."""
        if self.modal:
            for move in self.menu.poll():
                self.press(pad_key(move))
                if self.view is None:
                    return  # the move closed it

    covers = False
    """Whether it hides the screen's HUD (it has a panel of its own)."""

    def text_lines(self, frame: Frame) -> tuple[list[TextLine], tuple[float, float, float,
                                                                      float] | None]:
        """Its text on ``frame``, and the opaque panel the world is not drawn under (None:
        it has none)."""
        return [], None

    def close(self) -> None:
        """Take it off its screen."""
        self.owner.close_overlay(self)
