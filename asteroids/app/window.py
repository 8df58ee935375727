"""The desktop game window: the top of the shell's import graph (window -> router -> screens
-> game -> services)."""

from __future__ import annotations

import ctypes
import os
import time
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

import arcade
import pyglet

from asteroids.app.replay_view import ReplayView
from asteroids.app.router import open_shell
from asteroids.config import Config
from asteroids.config.rulesets import Ruleset
from asteroids.profile import Settings

if TYPE_CHECKING:
    from asteroids.app.live import LiveSpec
    from asteroids.replay import Replay

__all__ = ["FRAME_RATE", "KEY_UP_WAIT_S", "GameWindow", "keys_up", "release_held_keys",
           "wait_keys_up", "window_geometry"]

FRAME_RATE = 120.0
"""Frames per second the window asks pyglet for (vsync may hold it to the display's)."""

MIN_SIZE = (320, 240)
"""The smallest window, in pixels."""

KEY_UP_WAIT_S = 0.3
"""The longest a full-screen switch waits for the keys that asked for it to be let go."""


def window_geometry(config: Config, settings: Settings | None,
                    pinned: Collection[str] = ()) -> tuple[int, int, bool]:
    """The window's starting width, height and full screen.

    The player's ``[display]`` is the default; what the window remembers from the last run
    (``Settings``) wins over it, except for a value the command line gave (``pinned``, e.g.
    ``display.fullscreen`` from ``--set``), which wins for this run.

    >>> from asteroids.config import load_config
    >>> window_geometry(load_config(), Settings(window_width=900, window_height=600))
    (900, 600, False)
    >>> window_geometry(load_config(), Settings(window_width=900, fullscreen=True),
    ...                 pinned={"display.window_width_px"})
    (1280, 720, True)
    """
    d = config.display
    width, height, full = d.window_width_px, d.window_height_px, d.fullscreen
    if settings is not None:
        if settings.window_width is not None and "display.window_width_px" not in pinned:
            width = max(int(settings.window_width), MIN_SIZE[0])
        if settings.window_height is not None and "display.window_height_px" not in pinned:
            height = max(int(settings.window_height), MIN_SIZE[1])
        if settings.fullscreen is not None and "display.fullscreen" not in pinned:
            full = bool(settings.fullscreen)
    return width, height, full


def release_held_keys(window: arcade.Window, held: Collection[int]) -> None:
    """Release ``held`` in ``window``: dispatch ``on_key_release`` for each and drop it from
    pyglet's auto-repeat filter (``pressed_keys``, present on X11 only).

    Args:
        window: the window whose keys are released.
        held: the key codes to release.
    """
    pressed = getattr(window, "pressed_keys", None)
    for symbol in sorted(held):
        if isinstance(pressed, set):
            pressed.discard(symbol)
        window.dispatch_event("on_key_release", symbol, 0)


def _keymap(window: arcade.Window) -> bytes | None:
    """The X server's keyboard now (32 bytes, a bit per key code); None without X11."""
    x_display = getattr(window, "_x_display", None)
    if x_display is None:
        return None
    from pyglet.libs.x11 import xlib  # X11 only

    keymap = (ctypes.c_char * 32)()
    xlib.XQueryKeymap(x_display, keymap)
    return bytes(keymap)


def keys_up(window: arcade.Window, symbols: Collection[int]) -> set[int]:
    """Those of ``symbols`` (X keysyms, as pyglet's key codes are) whose key is up on the X
    server now; all of them where that cannot be asked (no X display, a symbol no key
    gives)."""
    bits = _keymap(window)
    if bits is None:
        return set(symbols)
    from pyglet.libs.x11 import xlib  # X11 only

    up = set()
    for symbol in symbols:
        code = xlib.XKeysymToKeycode(window._x_display, symbol) if symbol < 1 << 29 else 0
        if not code or not bits[code >> 3] & 1 << (code & 7):
            up.add(symbol)
    return up


def wait_keys_up(window: arcade.Window, timeout_s: float = KEY_UP_WAIT_S) -> None:
    """Wait (at most ``timeout_s``) until the X server has no key down; at once without X11."""
    deadline = time.monotonic() + timeout_s
    while any(_keymap(window) or b"") and time.monotonic() < deadline:
        time.sleep(0.005)


class GameWindow(arcade.Window):
    """The desktop window: configured size, full screen and vsync; resizable, letterboxed.

    Shows the title screen, or with ``replay`` the replay viewer. Closing the window, however
    it happens, hides the current view first, so a game in progress saves its replay.

    Playing (not watching), the window keeps the player's profile (``Game.open(profile=
    True)``): high scores, and the remembered size, position, full screen, mute, volume and
    rules. It opens at the remembered size and position (``window_geometry``; a position off
    every screen is ignored), notes every resize and move, and saves them when it closes.
    Watching, it shows the replay with the remembered look (palette, monitor look, HUD
    scale) and saves nothing.

    Args:
        config: the settings.
        seed: the first game's seed (None: from the clock).
        sound: build the sound bank.
        record: save a replay of every game played.
        record_to: save replays to this file instead of the user's replay folder.
        replay: watch this replay instead of playing (nothing is recorded then).
        speed: the replay's starting speed (1, 2, 4 or 8).
        rulesets: the rules the title screen offers (None: only ``config``).
        ruleset_index: the selected one; its config is ``config``.
        pinned: settings the command line gave (``Game.open``'s ``pinned``): remembered
            values do not replace them at start.
        live: the settings files to watch (``--live``; ``Game.open``'s ``live``).
        player: the settings those files gave at start (default: ``config``).
    """

    def __init__(self, config: Config, seed: int | None = None, sound: bool = True, *,
                 record: bool = True, record_to: str | os.PathLike[str] | None = None,
                 replay: Replay | None = None, speed: int = 1,
                 rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0,
                 pinned: Collection[str] = (), live: LiveSpec | None = None,
                 player: Config | None = None) -> None:
        d = config.display
        title = "Asteroids" if replay is None else "Asteroids replay"
        playing = replay is None
        settings = Settings.load(tidy=playing)  # a replay window writes nothing
        width, height, full = window_geometry(config, settings if playing else None, pinned)
        placed = (playing and not full and settings.window_x is not None
                  and settings.window_y is not None)
        super().__init__(
            width, height, title, fullscreen=full,
            resizable=True, vsync=d.vsync, update_rate=1 / FRAME_RATE,
            draw_rate=1 / FRAME_RATE, center_window=not full and not placed,
        )
        self.set_minimum_size(*MIN_SIZE)
        if placed:
            self._place(int(settings.window_x or 0), int(settings.window_y or 0))
        recording = playing and (record or record_to is not None)
        self.game = open_shell(self, config, seed=seed, sound=sound, record=recording,
                               record_to=record_to if playing else None,
                               rulesets=rulesets if playing else None,
                               ruleset_index=ruleset_index if playing else 0,
                               profile=playing, pinned=pinned, settings=settings, live=live,
                               player=player)
        if replay is None:
            self.game.nav.title()  # type: ignore[union-attr]
        else:
            self.show_view(ReplayView(self.game, replay, speed=speed))

    def _place(self, x: int, y: int) -> None:
        """Move the window to ``(x, y)`` when that corner is on a screen (a remembered
        position from a monitor no longer attached is ignored: the window stays centred)."""
        try:
            screens = self.display.get_screens()
            if any(s.x <= x < s.x + s.width - 40 and s.y <= y < s.y + s.height - 40
                   for s in screens):
                self.set_location(x, y)
            else:
                self.center_window()
        except Exception:  # a platform that cannot place windows: leave it where it is
            pass

    def set_fullscreen(self, fullscreen: bool = True, screen=None,  # type: ignore[no-untyped-def]
                       mode=None, width: float | None = None,
                       height: float | None = None) -> None:
        """Switch full screen as ``arcade.Window`` does, so that the keys that asked for it
        (F11, Alt+Enter) work again on their next press, on any X11 window manager or none.

        On X11 pyglet re-creates the window to switch, and the release of a key pressed
        before goes to the destroyed window. pyglet's key handler also adds the pressed key
        to its auto-repeat filter (``pressed_keys``) only *after* ``on_key_press`` returns,
        i.e. after the switch. So F11 stayed "held" in the new window and its next press
        was dropped as a repeat: the toggle worked on every second press only. (xdotool's
        ``key --window`` also stopped half-way, on the destroyed window, leaving the key
        down in the X server.) Now the switch first waits until the X server has no key down
        (``wait_keys_up``, at most ``KEY_UP_WAIT_S``: a key press lasts about 0.1 s), and
        afterwards, each frame until none is left, releases (``on_key_release``) the keys
        pyglet counts as held that the server says are up. A key still down stays held,
        so its auto-repeat does not switch again.
        """
        x11 = isinstance(getattr(self, "pressed_keys", None), set)
        if x11 and bool(fullscreen) != bool(self.fullscreen):
            wait_keys_up(self)
        super().set_fullscreen(fullscreen, screen, mode, width, height)
        if x11:
            pyglet.clock.unschedule(self._release_lost_keys)
            pyglet.clock.schedule_interval(self._release_lost_keys, 1 / 60)

    def _release_lost_keys(self, _dt: float = 0.0) -> None:
        """Release the keys pyglet counts as held that are up (their release went to the
        window that was re-created); stop once none is left."""
        pressed: set[int] = getattr(self, "pressed_keys", set())
        if not self.closed and pressed:
            release_held_keys(self, keys_up(self, pressed))
        if self.closed or not pressed:
            pyglet.clock.unschedule(self._release_lost_keys)

    def on_resize(self, width: int, height: int) -> None:
        """Refit the letterbox to the new window size; remember a windowed size."""
        if hasattr(self, "game"):
            self.game.screen.fit_camera()
            settings = self.game.profile.settings
            if settings is not None and not self.fullscreen:
                settings.window_width = max(int(width), MIN_SIZE[0])
                settings.window_height = max(int(height), MIN_SIZE[1])

    def on_move(self, x: int, y: int) -> None:
        """Remember where a windowed window is (saved when it closes)."""
        game = getattr(self, "game", None)
        settings = game.profile.settings if game is not None else None
        if settings is not None and not self.fullscreen:
            settings.window_x, settings.window_y = x, y

    def close(self) -> None:
        """Hide the current view (a game saves its replay), save the remembered settings,
        then close."""
        if not self.closed:
            self.hide_view()
            if hasattr(self, "game"):
                self.game.profile.save_settings()
        super().close()
