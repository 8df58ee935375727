"""Issue 22 in the real (headless) window: the letterbox and its border (item 3), presses that
never cross screens (item 5), a game that teaches itself (item 6), the options on an opaque
panel that previews the look live (item 7) and "reset to defaults" (item 8).

Keys go through the window's event dispatch, as a player's would; the data folder is a fresh
temporary folder per test (tests/app/conftest.py)."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from asteroids.app.audio_service import NOTICE_S
from asteroids.app.game_over_view import ENTRY_DELAY_S, GAME_OVER_MIN_S, GameOverView
from asteroids.app.initials import InitialsView
from asteroids.app.input import ACTION_BITS
from asteroids.app.play_view import CARD_FADE_S, CARD_TITLE, PlayView
from asteroids.app.profile_service import REMEMBERED_FIELDS
from asteroids.app.router import open_shell
from asteroids.app.screen import Screen
from asteroids.app.screens import FinishedGame
from asteroids.app.title_view import OPTIONS_HINT, TitleView
from asteroids.config import load_config
from asteroids.config.rulesets import ruleset_choices
from asteroids.core.world import Draft
from asteroids.profile import ScoreBook, Settings
from asteroids.profile.options import ITEMS
from tests.app.test_title_rules import StubPad

pytestmark = pytest.mark.gl

FIRE = ACTION_BITS["fire"]


def press(window, symbol: int) -> None:
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_events()


def release(window, symbol: int) -> None:
    window.dispatch_event("on_key_release", symbol, 0)
    window.dispatch_events()


def tap(window, symbol: int) -> None:
    press(window, symbol)
    release(window, symbol)


def frames(window, n: int, dt: float = 1 / 60) -> None:
    for _ in range(n):
        window.current_view.on_update(dt)


def picture() -> np.ndarray:
    return np.asarray(arcade.get_image(components=3)).astype(int)


def ended(game, play: PlayView, slot: bool) -> FinishedGame:
    """``play``'s game over now, with a place in the table (its entry made) when ``slot``."""
    draft = Draft(play.world)
    draft.score, draft.lives, draft.game_over = 1234, 0, True
    world = draft.freeze()
    made = game.enter_score(world, play.config, None) if slot else None
    assert (made is not None) == slot
    return FinishedGame((world,), play.config, play.seed,
                        slots=[(0, made)] if made is not None else [])


# --- item 3: the letterbox and the border ------------------------------------------------


def classic_game(window):
    """A game on the classic rules (a 4:3 world) in the 16:9 test window: bars left and
    right; the monitor look on."""
    choices = ruleset_choices(overrides=["display.monitor.strength=1.0"])
    labels = [r.label for r in choices.rulesets]
    game = open_shell(window, choices.rulesets[choices.selected].config, seed=3, sound=False,
                      rulesets=choices.rulesets, ruleset_index=choices.selected)
    game.screen.frame_time_s = 1 / 60
    return game, labels.index("classic")


def test_the_bars_stay_black_under_the_monitor_look_when_the_rules_change(window):
    game, classic = classic_game(window)
    title = TitleView(game)
    window.show_view(title)
    for _ in range(20):                      # an afterglow across the whole 16:9 window
        frames(window, 1)
        window.current_view.on_draw()
    assert picture()[:, :40].max() > 60      # the demo lit the left edge
    restarts = game.screen.afterglow_restarts
    game.select_ruleset(classic)             # a 4:3 playfield: bars left and right
    game.nav.title()
    vp = game.screen.camera.viewport
    assert game.screen.letterboxed and vp.left > 0
    for i in range(12):
        frames(window, 1)
        window.current_view.on_draw()
        image = picture()
        bar = int(vp.left) - 1
        assert image[:, :bar].max() == 0, f"frame {i}: the left bar is lit"
        assert image[:, -bar:].max() == 0, f"frame {i}: the right bar is lit"
    assert game.screen.afterglow_restarts == restarts + 1
    assert window.ctx.error is None


@pytest.mark.parametrize("setting, letterboxed, shown", [
    ("auto", True, True), ("auto", False, False), ("on", False, True), ("off", True, False)])
def test_the_playfield_border_is_on_by_default_when_letterboxed(window, setting, letterboxed,
                                                                shown):
    world = "world.width_px=1024" if letterboxed else "world.width_px=1280"
    config = load_config(overrides=[world, f"display.border={setting}"])
    game = open_shell(window, config, seed=1, sound=False)
    screen: Screen = game.screen
    assert screen.letterboxed == letterboxed
    assert screen.shows_border(config.display) == shown
    view = TitleView(game)
    window.show_view(view)
    view.world = view.prev = Draft(view.world).freeze()
    view.showing_table = True                # nothing but the HUD: the edges are clear
    view.hud.message()
    view.hud.status("")
    view.on_draw()
    image = picture()
    vp = screen.camera.viewport
    left, top = int(vp.left), 360 - int(vp.top)
    column = image[top + 40:top + int(vp.height) - 40, left + 1]
    assert (column.max(axis=1) > 0).mean() > 0.9 if shown else column.max() == 0
    if shown:
        assert column.max() < 140            # faint
    if left > 1:
        assert image[:, :left - 1].max() == 0  # the bars stay black


# --- item 5: presses never cross screens --------------------------------------------------


def test_the_game_over_screen_shows_at_least_its_minimum_whatever_is_pressed(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    play = PlayView(game, 3)
    window.show_view(play)
    frames(window, 2)
    game.nav.game_over(ended(game, play, slot=False))
    over = window.current_view
    assert isinstance(over, GameOverView)
    frames(window, int(GAME_OVER_MIN_S * 60) - 1)
    assert not over.ready
    for key in (arcade.key.SPACE, arcade.key.ENTER, arcade.key.ESCAPE):
        tap(window, key)
        assert window.current_view is over, key
    frames(window, 1)                        # exactly GAME_OVER_MIN_S
    assert over.ready and "PLAY AGAIN" in over.hud.values["hint"]
    tap(window, arcade.key.ESCAPE)
    assert isinstance(window.current_view, TitleView)


def test_fire_held_or_mashed_through_game_over_never_spoils_the_initials(window, config,
                                                                         data_dir):
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    play = PlayView(game, 3)
    window.show_view(play)
    press(window, arcade.key.SPACE)          # fire held as the last ship goes
    frames(window, 2)
    game.nav.game_over(ended(game, play, slot=True))
    over = window.current_view
    frames(window, int(GAME_OVER_MIN_S * 60) + 2)
    press(window, arcade.key.SPACE)          # still the same press (an auto-repeat)
    assert window.current_view is over
    release(window, arcade.key.SPACE)
    for _ in range(int((ENTRY_DELAY_S - GAME_OVER_MIN_S) * 60) + 2):
        if window.current_view is not over:
            break
        frames(window, 1)
    entry = window.current_view
    assert isinstance(entry, InitialsView)
    assert entry.cursor == 0 and entry.hud.cursor == 0     # it starts on the first letter
    entry.on_draw()
    [first] = [line for line in entry.drawn_lines if line.underline]
    assert first.text == "?" and first.x < entry.game.rules.width / 2
    for _ in range(6):                        # fire mashed on: no "?" is skipped
        tap(window, arcade.key.SPACE)
    assert entry.cursor == 0 and entry.initials == "???"
    for letter in (arcade.key.A, arcade.key.B, arcade.key.C):
        tap(window, letter)
    tap(window, arcade.key.ENTER)
    assert [e.initials for e in ScoreBook.load().table(game.score_key())] == ["ABC"]


def test_a_key_held_into_the_next_screen_acts_only_when_pressed_again(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    game.nav.title()
    press(window, arcade.key.SPACE)          # title -> game, Space still down
    play = window.current_view
    assert isinstance(play, PlayView)
    press(window, arcade.key.SPACE)          # an auto-repeat of the same press
    assert not play.tick_mask() & FIRE
    release(window, arcade.key.SPACE)
    press(window, arcade.key.SPACE)          # a new press: it fires
    assert play.tick_mask() & FIRE
    release(window, arcade.key.SPACE)
    press(window, arcade.key.P)              # pause -> options with O ...
    release(window, arcade.key.P)
    press(window, arcade.key.O)
    assert play.options is not None
    press(window, arcade.key.ENTER)          # (Enter on the first item changes it)
    release(window, arcade.key.ENTER)
    before = game.audio.master_volume
    press(window, arcade.key.O)              # ... O repeating does nothing in the options
    assert play.options is not None and game.audio.master_volume == before


def test_enter_held_from_game_over_through_the_initials_to_the_table(window, config):
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    play = PlayView(game, 3)
    window.show_view(play)
    game.nav.game_over(ended(game, play, slot=True))
    frames(window, int(GAME_OVER_MIN_S * 60) + 1)
    press(window, arcade.key.ENTER)          # game over -> initials
    entry = window.current_view
    assert isinstance(entry, InitialsView)
    press(window, arcade.key.ENTER)          # the same press, repeating
    assert window.current_view is entry and not entry.done
    release(window, arcade.key.ENTER)
    press(window, arcade.key.ENTER)          # initials -> the table, Enter still down
    title = window.current_view
    assert isinstance(title, TitleView) and title.showing_table
    press(window, arcade.key.ENTER)          # repeating: the title neither plays nor watches
    assert window.current_view is title
    release(window, arcade.key.ENTER)
    tap(window, arcade.key.ESCAPE)           # leave the entry's selection: Enter plays
    tap(window, arcade.key.ENTER)
    assert isinstance(window.current_view, PlayView)


# --- item 6: a game that teaches itself ---------------------------------------------------


def test_the_title_teaches_the_actual_keys_and_the_pad(window, config):
    Settings(keys={"fire": ["F"], "thrust": ["J", "W"]}).save()
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.nav.title()
    controls = window.current_view.hud.values["controls"]
    assert "FIRE: F" in controls and "THRUST: J / W" in controls and "PAD" not in controls
    game.gamepad = StubPad()
    game.nav.title()
    controls = window.current_view.hud.values["controls"]
    assert "PAD: STICK" in controls and "FIRE: A / RIGHT TRIGGER" in controls


def test_a_new_players_first_game_shows_the_controls_card_until_the_first_input(window,
                                                                               config):
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    assert game.profile.is_new
    game.nav.play()
    play = window.current_view
    frames(window, 120)                      # no input: the card stays
    assert play.hud.values["controls"].startswith(CARD_TITLE)
    assert play.hud.fade["controls"] == 1.0
    tap(window, arcade.key.LEFT)             # the first input: it fades ...
    frames(window, int(CARD_FADE_S * 60 / 2))
    assert 0.0 < play.hud.fade["controls"] < 1.0
    frames(window, int(CARD_FADE_S * 60 / 2) + 2)
    assert play.hud.values["controls"] == ""  # ... and is gone
    game.nav.play()                          # the next game: no card
    frames(window, 2)
    assert window.current_view.hud.values["controls"] == ""
    # A player who has played before (the files exist: the window saved its size when it
    # closed) gets none.
    Settings(window_width=800, window_height=600).save()
    again = open_shell(window, config, seed=3, sound=False, profile=True)
    assert not again.profile.is_new
    again.nav.play()
    frames(window, 2)
    assert window.current_view.hud.values["controls"] == ""


def test_m_says_sound_off_and_on(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    now = [100.0]
    game.audio.clock = lambda: now[0]
    game.nav.play()
    play = window.current_view
    tap(window, arcade.key.M)
    frames(window, 1)
    assert play.hud.values["sound"] == "SOUND OFF"
    now[0] += NOTICE_S - 0.01
    frames(window, 1)
    assert play.hud.values["sound"] == "SOUND OFF"
    now[0] += 0.02
    frames(window, 1)
    assert play.hud.values["sound"] == ""
    tap(window, arcade.key.M)
    frames(window, 1)
    assert play.hud.values["sound"] == "SOUND ON"


def test_the_f11_hint_shows_only_in_a_window(window, config, monkeypatch):
    game = open_shell(window, config, seed=3, sound=False)
    game.nav.title()
    assert window.current_view.hud.values["status"] == OPTIONS_HINT
    monkeypatch.setattr(Screen, "fullscreen", property(lambda self: True))
    frames(window, 1)
    assert window.current_view.hud.values["status"] == "O: OPTIONS"


def test_the_options_screen_turns_the_fps_counter_on(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    game.nav.title()
    view = window.current_view
    tap(window, arcade.key.O)
    while view.options.item.key != "show_fps":
        tap(window, arcade.key.DOWN)
    tap(window, arcade.key.ENTER)
    assert game.config.display.show_fps
    tap(window, arcade.key.ESCAPE)
    frames(window, 3)
    assert window.current_view.hud.values["fps"].endswith(" FPS")


# --- item 7: the options on an opaque panel, previewed live --------------------------------


def test_the_options_panel_is_opaque_and_a_palette_change_shows_round_it(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    game.nav.title()
    title = window.current_view
    frames(window, 60)
    tap(window, arcade.key.O)
    title.on_draw()
    lines, panel = title.text_lines(game.screen.frame(game.config.display.hud_scale))
    assert panel is not None
    left, bottom, right, top = panel
    assert 0 < left and right < game.rules.width         # the demo shows at the sides
    image = picture()
    k = game.screen.px_per_unit
    inside = np.ones(image.shape[:2], bool)
    inside[:, :int(left * k) + 3] = inside[:, int(right * k) - 3:] = False
    inside[:int(360 - top * k) + 3] = inside[int(360 - bottom * k) - 3:] = False
    for line in lines:                                   # leave out the text itself
        x0, y0, x1, y1 = line.box
        inside[max(0, int(360 - y1 * k) - 2):int(360 - y0 * k) + 3,
               max(0, int(x0 * k) - 2):int(x1 * k) + 3] = False
    assert image[inside].max() == 0                      # no rock shows through
    while title.options.item.key != "palette":
        tap(window, arcade.key.DOWN)
    while game.config.display.palette != "amber":
        tap(window, arcade.key.RIGHT)
    sides = []
    for _ in range(30):                                  # the demo flies on beside the panel
        frames(window, 2)
        title.on_draw()
        image = picture()
        sides += [image[:, :int(left * k) - 2].reshape(-1, 3),
                  image[:, int(right * k) + 2:].reshape(-1, 3)]
    side = np.concatenate(sides)
    lit = side[side.max(axis=1) > 60]
    assert lit.shape[0] > 20                             # the demo's rocks, ...
    assert ((lit[:, 0] >= lit[:, 1]) & (lit[:, 1] > lit[:, 2])).mean() > 0.9  # ... in amber


# --- item 8: reset to defaults ------------------------------------------------------------


def test_reset_to_defaults_forgets_every_remembered_value_full_screen_included(window, config):
    Settings(window_width=900, window_height=600, window_x=10, window_y=20, fullscreen=True,
             muted=True, master_volume=0.3, ruleset="classic", effects_volume=0.5,
             palette="green", monitor_strength=0.5, hud_scale=2.0, show_fps=True,
             border="on", keys={"fire": ["F"]}, pad={"fire": ["x"]}).save()
    remembered = Settings.load()
    assert all(getattr(remembered, name) is not None for name in REMEMBERED_FIELDS)
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    assert game.config.display.palette == "green" and game.config.display.fullscreen
    game.nav.title()
    view = window.current_view
    tap(window, arcade.key.O)
    while view.options.item.key != "reset":
        tap(window, arcade.key.DOWN)
    tap(window, arcade.key.ENTER)
    tap(window, arcade.key.ENTER)  # it asks once
    after = Settings.load()
    assert {name: getattr(after, name) for name in REMEMBERED_FIELDS} == \
        dict.fromkeys(REMEMBERED_FIELDS)
    assert game.config.display == config.display and not game.audio.muted
    assert [item.key for item in ITEMS].index("reset") >= 0


def test_the_pad_buttons_by_name_fit_on_the_title_and_the_card(window, config):
    """The longer names ("RIGHT TRIGGER", "D-PAD UP") still fit every window size and HUD
    scale, on the title and on a new player's controls card."""
    from tests.app.test_layout_fits import frames as layout_frames
    from tests.app.test_layout_fits import problems

    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.gamepad = StubPad()
    bad = []
    for screen in ("title", "play"):
        getattr(game.nav, screen)()
        view = window.current_view
        view.on_update(1 / 60)
        assert "RIGHT TRIGGER" in view.hud.values["controls"], screen
        for frame in layout_frames(game.rules.width, game.rules.height):
            lines, _ = view.text_lines(frame)
            bad += [f"{screen} at {frame}: {p}" for p in problems(lines, frame)]
    assert bad == []
