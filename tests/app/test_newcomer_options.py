"""Issue 39, item 2: the options screen as a newcomer meets it, through the real (headless)
window. The help lines on a key item have room between them; the panel stays put while a
press-to-bind waits; pad buttons have names ("RIGHT TRIGGER", "D-PAD UP"); the shield's
rows are listed only while the rules have a shield; "reset to defaults" asks once.

Before: the two help lines' glyph boxes touched (0 px), the panel went from x 152-1128 to
100-1180 at "PRESS A KEY", the pad showed "RIGHTTRIGGER" and "DPUP", a shield key was listed
with the shield off, and one Enter reset everything.
"""

from __future__ import annotations

import arcade
import pytest

from asteroids.app.options_overlay import KEY_HELP, RESET_ASK
from asteroids.app.text import Frame
from asteroids.config import load_config
from asteroids.profile import Settings
from tests.app.test_options_gl import pad_title, press, tap, title

pytestmark = pytest.mark.gl

SCALES = (0.5, 1.0, 3.0)
"""Pixels per world unit: 640x360, 1280x720 and 3840x2160 windows."""


def goto(window, menu, key: str) -> None:
    """Move the options cursor down to the item ``key``."""
    for _ in range(len(menu.items)):
        if menu.item.key == key:
            return
        tap(window, arcade.key.DOWN)
    raise AssertionError(f"no item {key}")


def test_wrapped_help_and_note_lines_have_room_between_them(window, config):
    game, view = title(window, config)
    tap(window, arcade.key.O)
    menu = view.options
    goto(window, menu, "key:thrust")
    wrapped = 0
    for px in SCALES:
        for ask in (False, True):
            menu.message = RESET_ASK if ask else ""
            lines, _ = menu.text_lines(Frame(game.rules.width, game.rules.height, px))
            for group in ([x for x in lines if x.text and x.text in KEY_HELP],
                          [x for x in lines if x.text and x.text in RESET_ASK]):
                for upper, lower in zip(group, group[1:], strict=False):
                    wrapped += 1
                    room = upper.box[1] - lower.box[3]
                    assert room >= 0.25 * upper.size, (px, upper.text, lower.text, room)
    assert wrapped >= 2  # the help does wrap somewhere
    view.on_draw()
    assert window.ctx.error is None


def _rows_and_panel(menu, frame: Frame) -> tuple[list, tuple]:
    """Where every line but the help's is (rows start with "  " or "> "), and the panel."""
    lines, panel = menu.text_lines(frame)
    return [(x.text[:2], round(x.x, 3), round(x.y, 3)) for x in lines
            if x.text.startswith(("  ", "> ")) or x.text not in menu.help], panel


@pytest.mark.parametrize("plugged", [False, True])
def test_the_panel_stays_put_while_a_press_to_bind_waits(window, config, plugged):
    game, view, _pad = pad_title(window, config)
    if not plugged:
        game.gamepad = None
    tap(window, arcade.key.O)
    menu = view.options
    for key in ("key:thrust", "key:pause", "pad:fire"):
        goto(window, menu, key)
        if key == "key:pause":
            tap(window, arcade.key.RIGHT)             # the alternate slot
        frames = [Frame(game.rules.width, game.rules.height, px) for px in SCALES]
        before = [_rows_and_panel(menu, f) for f in frames]
        tap(window, arcade.key.ENTER)                 # press-to-bind: waiting
        assert menu.listening is not None
        during = [_rows_and_panel(menu, f) for f in frames]
        for (rows0, panel0), (rows1, panel1) in zip(before, during, strict=True):
            assert panel1 == panel0, key
            assert [r[1:] for r in rows1] == [r[1:] for r in rows0], key
        view.on_draw()
        tap(window, arcade.key.ESCAPE)                # cancel
        assert menu.listening is None


def test_pad_buttons_are_shown_by_name(window, config):
    Settings(pad={"fire": ["righttrigger", "dpup"], "thrust": ["leftshoulder"]}).save()
    game, view, pad = pad_title(window, config)
    tap(window, arcade.key.O)
    menu = view.options
    shown = dict(zip(menu.labels, menu.values, strict=True))
    assert shown["PAD  FIRE"] == "RIGHT TRIGGER / D-PAD UP"
    assert shown["PAD  THRUST"] == "LEFT SHOULDER"
    raw = ("RIGHTTRIGGER", "LEFTTRIGGER", "LEFTSHOULDER", "DPUP", "DPDOWN", "DPLEFT", "DPRIGHT")
    assert not any(r in v for v in menu.values for r in raw)
    goto(window, menu, "pad:hyperspace")
    press(view, pad, "a")                             # press-to-bind ...
    press(view, pad, "lefttrigger")                   # ... the left trigger
    assert game.rules.pad_buttons["hyperspace"] == ("lefttrigger",)
    assert menu.message == "HYPERSPACE IS PAD LEFT TRIGGER"
    assert "LEFT TRIGGER" in menu.values[menu.index]


def test_the_shield_rows_only_while_the_rules_have_a_shield(window, config):
    assert not config.ship.shield.enabled
    _game, view = title(window, config)
    tap(window, arcade.key.O)
    keys = [item.key for item in view.options.items]
    assert "key:shield" not in keys and "pad:shield" not in keys
    assert not any("SHIELD" in label for label in view.options.labels)
    tap(window, arcade.key.ESCAPE)

    shielded = load_config(overrides=["ship.shield.enabled=true"])
    _game, view = title(window, shielded)
    tap(window, arcade.key.O)
    keys = [item.key for item in view.options.items]
    assert "key:shield" in keys and "pad:shield" in keys
    assert "KEY  SHIELD" in view.options.labels


def test_reset_to_defaults_asks_once(window, config):
    Settings(palette="green", muted=True).save()
    game, view = title(window, config)
    tap(window, arcade.key.O)
    menu = view.options
    goto(window, menu, "reset")
    tap(window, arcade.key.ENTER)                     # asks; nothing reset yet
    assert menu.message == RESET_ASK
    assert game.config.display.palette == "green" and Settings.load().palette == "green"
    view.on_draw()
    tap(window, arcade.key.ESCAPE)                    # no: still in the options
    assert view.options is menu and menu.message == "NOTHING RESET"
    assert Settings.load().palette == "green"
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.UP)                        # moving away also keeps
    tap(window, arcade.key.DOWN)
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.ENTER)                     # asked, and yes
    assert menu.message == "OPTIONS RESET TO DEFAULTS"
    assert game.config.display.palette == config.display.palette
    assert Settings.load().palette is None and Settings.load().muted is None
