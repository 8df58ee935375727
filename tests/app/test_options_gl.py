"""Item 3 of issue 12: the options screen, through the real (headless) window.

Keys are pressed through the window's event dispatch, as a player's would arrive; the data
folder is a fresh tmp dir per test (``ASTEROIDS_DATA_DIR``, tests/app/conftest.py).
"""

from __future__ import annotations

import arcade
import pytest

from asteroids.app.game import Game
from asteroids.app.input import ACTION_BITS, PlayerInput
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config
from asteroids.config.keys import KEY_NAMES
from asteroids.core import state_hash
from asteroids.profile import Settings
from asteroids.profile.options import ITEMS
from asteroids.replay import load_replay, verify_replay
from asteroids.replay.format import rules_fingerprint
from tests.app.test_view_ticks import ScriptedSource, core_stream, scripted_masks

pytestmark = pytest.mark.gl

FIRE = ACTION_BITS["fire"]
THRUST = ACTION_BITS["thrust"]


def tap(window, symbol: int, modifiers: int = 0) -> None:
    window.dispatch_event("on_key_press", symbol, modifiers)
    window.dispatch_events()
    window.dispatch_event("on_key_release", symbol, modifiers)
    window.dispatch_events()


def select(window, view, key: str) -> None:
    """Move the options cursor down to the item ``key`` with the Down key."""
    for _ in range(len(ITEMS)):
        if view.options.item.key == key:
            return
        tap(window, arcade.key.DOWN)
    raise AssertionError(f"no item {key}")


def title(window, config) -> tuple[Game, TitleView]:
    game = open_shell(window, config, seed=5, sound=False, profile=True)
    view = TitleView(game)
    window.show_view(view)
    return game, view


def test_rebind_a_key_with_the_keyboard_and_it_survives_a_restart(window, config, data_dir):
    game, view = title(window, config)
    assert "O: OPTIONS" in view.hud.values["status"]
    tap(window, arcade.key.O)
    assert view.options is not None
    select(window, view, "key:fire")
    tap(window, arcade.key.ENTER)                   # press-to-bind ...
    assert view.options.listening is not None
    tap(window, arcade.key.F)                       # ... F
    assert view.options.listening is None
    assert game.config.keys.fire == ("F",)
    assert game.rules.bindings.bits_of(arcade.key.F) == FIRE
    assert game.rules.bindings.bits_of(arcade.key.SPACE) == 0
    assert Settings.load().keys == {"fire": ["F"]}
    assert not list(data_dir.rglob("*.toml"))       # the player's TOML is never written
    tap(window, arcade.key.ESCAPE)                  # back: the title starts again
    assert isinstance(window.current_view, TitleView) and window.current_view.options is None

    # A restart: a new Game on the same (unchanged) TOML settings reads the saved options.
    again = open_shell(window, config, seed=6, sound=False, profile=True)
    assert again.config.keys.fire == ("F",)
    play = PlayView(again, 6)
    window.show_view(play)
    window.dispatch_event("on_key_press", arcade.key.F, 0)
    window.dispatch_events()
    assert play.tick_mask() & FIRE


def test_a_conflicting_bind_is_refused_and_says_which_action_has_the_key(window, config):
    game, view = title(window, config)
    tap(window, arcade.key.O)
    select(window, view, "key:fire")
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.W)                       # W is a thrust key
    assert view.options.message == "W IS ALREADY THRUST: NOT BOUND"
    assert game.config.keys.fire == config.keys.fire
    assert game.rules.bindings.bits_of(arcade.key.W) == ACTION_BITS["thrust"]
    assert Settings.load().keys is None
    # Escape cancels a press-to-bind; it does not close the screen.
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.ESCAPE)
    assert view.options is not None and view.options.listening is None
    assert game.config.keys.fire == config.keys.fire


def test_palette_volume_and_monitor_look_apply_at_once_from_pause(window, config):
    game = open_shell(window, config, seed=8, sound=False, profile=True)
    view = PlayView(game, 8)
    window.show_view(view)
    view.on_update(0.2)
    tap(window, arcade.key.P)
    assert view.paused and "O: OPTIONS" in view.hud.values["hint"]
    tap(window, arcade.key.O)
    assert view.options is not None
    tick = view.world.tick

    volume = game.audio.master_volume
    select(window, view, "master_volume")
    tap(window, arcade.key.LEFT)
    assert game.audio.master_volume == pytest.approx(volume - 0.1)
    assert Settings.load().master_volume == pytest.approx(volume - 0.1)

    select(window, view, "palette")
    tap(window, arcade.key.RIGHT)
    assert game.config.display.palette != config.display.palette
    assert view.config.display.palette == game.config.display.palette
    assert Settings.load().palette == game.config.display.palette

    select(window, view, "monitor_strength")
    tap(window, arcade.key.RIGHT)
    assert game.config.display.monitor.strength == 0.25
    view.on_draw()
    assert game.screen.monitor is not None                 # the next frame is drawn with the look
    assert window.ctx.error is None

    select(window, view, "hud_scale")
    tap(window, arcade.key.RIGHT)
    assert view.hud.scale == 1.25 and view.hud.values["title"] == "PAUSED"
    view.on_draw()
    assert window.ctx.error is None

    select(window, view, "reset")
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.ENTER)                   # it asks once
    assert game.config.display.palette == config.display.palette
    assert game.config.display.monitor.strength == config.display.monitor.strength
    assert game.audio.master_volume == pytest.approx(config.audio.volume)
    assert Settings.load().palette is None
    view.on_draw()
    assert game.screen.monitor is None

    tap(window, arcade.key.ESCAPE)                  # back to the pause screen
    assert view.options is None and view.paused and window.current_view is view
    assert view.world.tick == tick                  # the menu never stepped the game
    tap(window, arcade.key.P)
    view.on_update(0.1)
    assert view.world.tick > tick


def test_options_changed_mid_game_leave_the_tick_stream_and_the_replay_alone(
        window, config, tmp_path):
    seed, n = 31, 400
    script = scripted_masks(n, 3)
    game = open_shell(window, config, seed=seed, sound=False, profile=True,
                record_to=tmp_path / "g.replay")
    source = ScriptedSource(script)
    view = PlayView(game, seed, source=source)
    window.show_view(view)
    for frame in range(n + 20):
        if frame == 150:
            tap(window, arcade.key.P)
            tap(window, arcade.key.O)
            for item in ("palette", "monitor_strength", "hud_scale", "effects_volume"):
                select(window, view, item)
                tap(window, arcade.key.RIGHT)
            select(window, view, "key:hyperspace")
            tap(window, arcade.key.ENTER)
            tap(window, arcade.key.H)
            tap(window, arcade.key.ESCAPE)
            tap(window, arcade.key.P)
        view.on_update(1 / 60)
        if frame % 30 == 0:
            view.on_draw()
        if len(view.masks) >= n:
            break
    assert view.config.keys.hyperspace == ("H", "RSHIFT")   # the primary only
    after = [h for _, h in source.asked[1:]] + [state_hash(view.world)]
    assert list(zip(view.masks, after, strict=True))[:n] == core_stream(config, seed, script)
    assert rules_fingerprint(view.config) == rules_fingerprint(config)
    window.hide_view()
    replay = load_replay(view.saved.path)
    assert replay.config_changes == ()               # options are not rule changes
    assert replay.masks[:n] == bytes(script)
    assert verify_replay(replay).ok


def row(view, key: str) -> tuple[str, str]:
    """What the options screen shows in a key item's primary and alternate slot (the
    selected slot of the selected item marked "> ")."""
    menu = view.options
    i = [item.key for item in menu.items].index(key)

    def mark(slot: int) -> str:
        return "> " if menu.index == i and menu.slot == slot else "  "

    return mark(0) + menu.values[i], mark(1) + menu.alternates[i]


def held(play, symbol: int) -> int:
    """The tick mask while ``symbol`` is held (then released and the latch drained)."""
    play.window.dispatch_event("on_key_press", symbol, 0)
    play.window.dispatch_events()
    mask = play.tick_mask()
    play.window.dispatch_event("on_key_release", symbol, 0)
    play.window.dispatch_events()
    play.tick_mask()
    return mask


def test_rebind_thrusts_alternate_and_after_a_restart_both_slots_work(window, config):
    game, view = title(window, config)
    tap(window, arcade.key.O)
    select(window, view, "key:thrust")
    assert row(view, "key:thrust") == ("> UP", "  W")      # two slots, the primary selected
    tap(window, arcade.key.RIGHT)                           # the alternate slot
    assert view.options.slot == 1 and row(view, "key:thrust") == ("  UP", "> W")
    tap(window, arcade.key.ENTER)
    assert row(view, "key:thrust")[1] == "> KEY?"
    tap(window, arcade.key.K)
    assert view.options.message == "THRUST ALTERNATE IS K"
    assert row(view, "key:thrust") == ("  UP", "> K")
    assert game.config.keys.thrust == ("UP", "K")
    assert Settings.load().keys == {"thrust": ["UP", "K"]}
    select(window, view, "key:left")                        # the column stays on key items
    assert row(view, "key:left") == ("  LEFT", "> A")
    tap(window, arcade.key.ESCAPE)

    again = open_shell(window, config, seed=6, sound=False, profile=True)
    assert again.config.keys.thrust == ("UP", "K")
    play = PlayView(again, 6)
    window.show_view(play)
    assert held(play, arcade.key.W) & THRUST == 0           # the old alternate: nothing
    assert held(play, arcade.key.UP) & THRUST               # the primary still thrusts
    assert held(play, arcade.key.K) & THRUST                # and the new alternate
    assert held(play, arcade.key.SPACE) & FIRE              # other actions untouched


def test_clear_the_alternate_swap_the_slots_and_reset_both(window, config):
    game, view = title(window, config)
    tap(window, arcade.key.O)
    select(window, view, "key:thrust")
    tap(window, arcade.key.DELETE)                          # on the primary: refused
    assert view.options.message == "THRUST KEEPS ITS PRIMARY KEY: NOT CLEARED"
    assert game.config.keys.thrust == ("UP", "W")
    tap(window, arcade.key.RIGHT)
    tap(window, arcade.key.BACKSPACE)
    assert view.options.message == "THRUST ALTERNATE CLEARED"
    assert game.config.keys.thrust == ("UP",) and row(view, "key:thrust") == ("  UP", "> -")
    assert game.rules.bindings.bits_of(arcade.key.W) == 0
    assert Settings.load().keys == {"thrust": ["UP"]}
    tap(window, arcade.key.ENTER)                           # the primary into the alternate
    tap(window, arcade.key.UP)
    assert view.options.message == "UP IS ALREADY THE THRUST PRIMARY KEY: NOT BOUND"
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.W)
    assert game.config.keys.thrust == ("UP", "W")
    tap(window, arcade.key.LEFT)                            # W into the primary: a swap
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.W)
    assert game.config.keys.thrust == ("W", "UP") and row(view, "key:thrust") == ("> W", "  UP")
    tap(window, arcade.key.RIGHT)
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.SPACE)                           # fire's key: refused
    assert view.options.message == "SPACE IS ALREADY FIRE: NOT BOUND"
    assert game.config.keys.thrust == ("W", "UP")
    select(window, view, "reset")
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.ENTER)                   # it asks once
    assert game.config.keys.thrust == ("UP", "W") and Settings.load().keys is None
    select(window, view, "key:thrust")
    assert row(view, "key:thrust") == ("> UP", "  W")


def test_keys_past_the_second_stay_bound_when_a_slot_is_rebound(window):
    config = load_config(overrides=['keys.thrust=["UP", "W", "NUM_8"]'])
    game, view = title(window, config)
    tap(window, arcade.key.O)
    select(window, view, "key:thrust")
    assert row(view, "key:thrust") == ("> UP", "  W")       # the first two are shown
    tap(window, arcade.key.RIGHT)
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.K)
    assert game.config.keys.thrust == ("UP", "K", "NUM_8")
    assert game.rules.bindings.bits_of(arcade.key.NUM_8) == THRUST
    tap(window, arcade.key.DELETE)                          # the third moves into view
    assert row(view, "key:thrust") == ("  UP", "> NUM_8")


def test_the_widest_key_names_fit_their_slots(window, config):
    from asteroids.app.layout import menu_layout
    from asteroids.app.text import Frame, overlaps

    game, view = title(window, config)
    tap(window, arcade.key.O)
    menu = view.options
    widest = max(KEY_NAMES, key=len)
    rows = [(label, widest if v else "", widest if a else "")
            for label, v, a in zip(menu.labels, menu.values, menu.alternates, strict=True)]
    i = [item.key for item in ITEMS].index("key:hyperspace")
    for px in (0.5, 1.0, 3.0):                      # 640x360 .. 3840x2160 windows
        out = menu_layout(Frame(game.rules.width, game.rules.height, px), "OPTIONS", rows, i, 2)
        row = [line for line in out.lines if abs(line.y - out.lines[1].y) < 1e-6]
        boxes = [line.box for line in out.lines]
        assert all(not overlaps(a, b) for n, a in enumerate(boxes) for b in boxes[n + 1:])
        left, _, right, _ = out.panel
        assert all(left <= b[0] and b[2] <= right for b in boxes)
        assert row


class FakePad:
    """A pyglet Controller's state as the game reads it (attributes only)."""

    def __init__(self) -> None:
        for name in ("a", "b", "x", "y", "back", "start", "leftshoulder", "rightshoulder",
                     "dpup", "dpdown", "dpleft", "dpright"):
            setattr(self, name, False)
        self.leftx = self.lefty = self.lefttrigger = self.righttrigger = 0.0


def press(view, pad: FakePad, button: str) -> None:
    """Hold ``button`` for one frame, then let it go for one."""
    setattr(pad, button, True)
    view.on_update(1 / 60)
    setattr(pad, button, False)
    view.on_update(1 / 60)


def pad_title(window, config) -> tuple[Game, TitleView, FakePad]:
    """The title screen of a game with a (fake) gamepad plugged in."""
    game = open_shell(window, config, seed=9, sound=False, profile=True)
    pad = FakePad()
    game.gamepad = pad
    view = TitleView(game)
    window.show_view(view)
    return game, view, pad


def test_the_pad_drives_the_options_and_binds_a_button(window, config):
    game, view, pad = pad_title(window, config)
    press(view, pad, "back")                        # Back / Select opens the options
    assert view.options is not None
    while view.options.item.key != "pad:fire":
        press(view, pad, "dpdown")
    press(view, pad, "a")                           # A: press-to-bind ...
    assert view.options.listening is not None
    press(view, pad, "b")                           # ... B is thrust's: refused
    assert view.options.message == "PAD B IS ALREADY THRUST: NOT BOUND"
    press(view, pad, "a")
    press(view, pad, "rightshoulder")               # ... the right shoulder: bound
    assert game.rules.pad_buttons["fire"] == ("rightshoulder",)
    assert Settings.load().pad == {"fire": ["rightshoulder"]}
    player = PlayerInput(game.rules.bindings, gamepad=pad)
    pad.rightshoulder = True
    player.poll_pad()
    assert player.take() & FIRE
    while view.options.item.key != "palette":
        press(view, pad, "dpup")
    before = game.config.display.palette
    press(view, pad, "dpright")
    assert game.config.display.palette != before
    press(view, pad, "b")                           # B: back
    assert window.current_view.options is None


def test_the_pad_picks_a_key_slot_clears_it_and_cancels_a_key_bind(window, config):
    game, view, pad = pad_title(window, config)
    press(view, pad, "back")
    while view.options.item.key != "key:thrust":
        press(view, pad, "dpdown")
    press(view, pad, "dpright")                             # the alternate slot
    assert view.options.slot == 1
    press(view, pad, "y")                                   # Y clears it
    assert game.config.keys.thrust == ("UP",)
    assert view.options.message == "THRUST ALTERNATE CLEARED"
    press(view, pad, "a")                                   # a key press-to-bind ...
    assert view.options.listening is not None
    press(view, pad, "dpdown")                              # ... the d-pad does not move it
    press(view, pad, "b")                                   # ... B cancels it, nothing more
    assert view.options is not None and view.options.listening is None
    assert view.options.item.key == "key:thrust" and view.options.message == "NOT CHANGED"
    press(view, pad, "a")
    tap(window, arcade.key.K)                               # the key comes from the keyboard
    assert game.config.keys.thrust == ("UP", "K")
    press(view, pad, "dpleft")
    press(view, pad, "y")                                   # the primary: refused
    assert game.config.keys.thrust == ("UP", "K")
    assert view.options.message == "THRUST KEEPS ITS PRIMARY KEY: NOT CLEARED"


def test_a_pinned_option_wins_at_start_until_the_player_changes_it(window, config):
    Settings(palette="green").save()
    game = open_shell(window, config, seed=2, sound=False, profile=True, pinned={"display.palette"})
    assert game.config.display.palette == config.display.palette   # --set wins at start
    view = TitleView(game)
    window.show_view(view)
    tap(window, arcade.key.O)
    select(window, view, "palette")
    tap(window, arcade.key.RIGHT)
    assert game.config.display.palette != config.display.palette   # the player's pick wins now
    assert Settings.load().palette == game.config.display.palette
