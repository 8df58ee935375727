"""Issue 39, what a newcomer still trips on (the title, the controls card, the spare ships),
in the real (headless) arcade window: keys go through the window's event dispatch, drawing is
read back as pixels or as the boxes of the lines the frame drew (``WorldView.text_lines``).

- Escape on the title asks before it quits (a second Escape quits; any other key stays).
- The title's text keeps clear of the attract ship's spawn, has air under the big title, sets
  no line larger than the one above it, and the attract game is dimmed behind it.
- The no-audio notice sits beside the options hint, and the options screen agrees.
- The controls card keeps clear of the ship and the HUD; the first ship's blink says SAFE.
- Spare-ship icons are apart, not touching.
"""

from __future__ import annotations

import arcade
import numpy as np
import pytest

from asteroids.app import audio_stream, play_view, title_view
from asteroids.app.play_view import CARD_TITLE, PlayView
from asteroids.app.router import open_shell
from asteroids.app.scene import Segments
from asteroids.app.text import Frame, overlaps
from asteroids.app.title_view import OPTIONS_HINT
from asteroids.config.rulesets import ruleset_choices
from asteroids.core import new_world
from asteroids.profile.options import ITEMS

pytestmark = pytest.mark.gl

SIZES = ((800, 600), (1280, 720), (1920, 1080))
"""Window sizes the issue's player met the title in (1920 x 1080: full screen)."""


def tap(window, symbol: int) -> None:
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_events()
    window.dispatch_event("on_key_release", symbol, 0)
    window.dispatch_events()


def frames(window, n: int) -> None:
    for _ in range(n):
        window.current_view.on_update(1 / 60)


def picture() -> np.ndarray:
    return np.asarray(arcade.get_image(components=3)).astype(int)


def ship_box(game, x: float, y: float) -> tuple[float, float, float, float]:
    """Where the ship is drawn (a ship length either way: any heading, the blink)."""
    half = game.rules.params.ship_length_px
    return (x - half, y - half, x + half, y + half)


def title_in(window, rules: str):
    choices = ruleset_choices()
    labels = [r.label for r in choices.rulesets]
    index = labels.index(rules)
    game = open_shell(window, choices.rulesets[index].config, seed=21, sound=False,
                      rulesets=choices.rulesets, ruleset_index=index, profile=True)
    game.screen.frame_time_s = 1 / 60
    game.nav.title()
    frames(window, 2)
    return game, window.current_view


# --- Escape on the title ------------------------------------------------------------------


def test_escape_on_the_title_asks_once_then_quits(window, config, monkeypatch):
    game = open_shell(window, config, seed=3, sound=False)
    quits = []
    monkeypatch.setattr(game, "quit", lambda: quits.append(True))
    game.nav.title()
    title = window.current_view
    hint = title.hud.values["hint"]
    tap(window, arcade.key.ESCAPE)
    assert quits == [], "the first Escape quit at once"
    assert "ESC AGAIN TO QUIT" in title.hud.values["hint"]
    tap(window, arcade.key.X)                  # any other key: it stops asking
    assert title.hud.values["hint"] == hint
    tap(window, arcade.key.ESCAPE)
    frames(window, int(getattr(title_view, "QUIT_CONFIRM_S", 3.0) * 60) + 2)
    assert title.hud.values["hint"] == hint    # it stops asking after a while, too
    tap(window, arcade.key.ESCAPE)
    assert quits == []
    tap(window, arcade.key.ESCAPE)             # Escape twice: quit
    assert quits == [True]


# --- the title's text and the attract game ------------------------------------------------


@pytest.mark.parametrize("rules", ["default", "classic"])
def test_the_title_text_keeps_clear_of_the_spawn_with_even_sizes_and_air(window, rules):
    game, title = title_in(window, rules)
    width, height = game.rules.width, game.rules.height
    for demo in title.demos:                   # every attract ship spawns at the centre
        start = new_world(demo.config, demo.seed)
        assert (float(start.ship_x), float(start.ship_y)) == (width / 2, height / 2)
    ship = ship_box(game, width / 2, height / 2)
    bad = []
    for ww, wh in SIZES:
        px = min(ww / width, wh / height)
        lines, _ = title.text_lines(Frame(width, height, px, 1.0))
        where = f"{rules} {ww}x{wh}"
        under = [line.text for line in lines if overlaps(line.box, ship)]
        if under:
            bad.append(f"{where}: the attract ship spawns under {under}")
        bands = title.hud.layout(Frame(width, height, px, 1.0))
        middle = [line for line in lines if line.box[1] > bands.bottom
                  and line.box[3] < bands.top]
        middle.sort(key=lambda line: -line.box[3])
        big, first = middle[0], middle[1]
        assert big.text == "ASTEROIDS"
        air = (big.box[1] - first.box[3]) * px
        if air < 0.25 * big.size * px:
            bad.append(f"{where}: {air:.1f} px under the {big.size * px:.0f} px title")
        sizes = [round(line.size * px, 1) for line in middle[1:]]
        if sizes != sorted(sizes, reverse=True):
            bad.append(f"{where}: a line larger than the one above it: {sizes} px")
    assert not bad, "\n".join(bad)


def test_the_attract_game_is_dimmed_behind_the_titles_text(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    game.screen.frame_time_s = 1 / 60
    game.nav.title()
    title = window.current_view
    frames(window, 30)
    title.hud.hidden = True                    # the attract game alone
    title.on_draw()
    world = picture().max(axis=2)
    title.hud.hidden = False
    title.showing_table = True                 # the title's text alone (no attract game)
    title.on_draw()
    text = picture().max(axis=2)
    title.showing_table = False
    # The typical lit pixel (line ends where two segments meet are brighter: not those).
    world_lit, text_lit = np.median(world[world > 20]), np.median(text[text > 20])
    assert (world > 20).sum() > 100, "the attract game drew nothing"
    assert world_lit <= 0.55 * text_lit, \
        f"the attract game ({world_lit}) is about as bright as the text ({text_lit})"


# --- the no-audio notice --------------------------------------------------------------------


def test_no_audio_device_shows_beside_the_options_hint_and_the_options_agree(window, config,
                                                                             monkeypatch):
    monkeypatch.setattr(audio_stream, "has_device", lambda: False)
    game = open_shell(window, config, seed=3, sound=True, profile=True)
    game.nav.title()
    title = window.current_view
    frames(window, 2)
    status = title.hud.values["status"]
    assert status.startswith(OPTIONS_HINT) and "no audio device" in status.lower(), status
    frames(window, 120)                        # the whole visit
    assert title.hud.values["status"] == status
    title.open_options()
    menu = title.options
    [muted] = [item for item in ITEMS if item.key == "muted"]
    assert menu.value_text(muted) != "ON"
    assert "NO DEVICE" in menu.value_text(muted)


# --- the controls card and the first ship's grace -----------------------------------------


def test_the_card_keeps_clear_of_the_ship_and_the_blink_says_safe(window, config):
    game = open_shell(window, config, seed=3, sound=False, profile=True)
    game.screen.frame_time_s = 1 / 60
    game.nav.play()
    play = window.current_view
    assert isinstance(play, PlayView)
    frames(window, 2)
    play.on_draw()
    lines = play.drawn_lines
    card = [line for line in lines if line.text == CARD_TITLE]
    assert card, "no controls card"
    world = play.world
    ship = ship_box(game, float(world.ship_x), float(world.ship_y))
    card_lines = [line for line in lines
                  if line.text in [CARD_TITLE, *play.hud.values["controls"].split("\n")]]
    under = [line.text for line in card_lines if overlaps(line.box, ship)]
    assert not under, f"the card is drawn over the ship: {under}"
    shown = [line for line in lines if line.text.strip()]
    for a in card_lines:                       # nor over the HUD
        for b in shown:
            if b not in card_lines:
                assert not overlaps(a.box, b.box), (a.text, b.text)
    word = getattr(play_view, "GRACE_WORD", "SAFE")
    [safe] = [line for line in lines if line.text == word] or [None]
    assert safe is not None, "nothing explains the first ship's blink"
    assert safe.box[3] <= float(world.ship_y) and \
        abs((safe.box[0] + safe.box[2]) / 2 - float(world.ship_x)) < 1e-6  # under the ship
    assert not any(overlaps(safe.box, b.box) for b in shown if b is not safe)
    frames(window, int(game.rules.config.ship.grace_s * 60) + 2)
    play.on_draw()
    assert world.ship_grace > 0 and play.world.ship_grace == 0
    assert not [line for line in play.drawn_lines if line.text == word]  # gone with the blink
    tap(window, arcade.key.LEFT)               # the first input: the card fades
    frames(window, 60)
    assert play.hud.values["controls"] == ""


# --- the spare ships ------------------------------------------------------------------------


def test_spare_ship_icons_are_drawn_apart(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    screen = game.screen
    screen.fit_camera()
    scale = 1.6                                # the HUD's 0.8 at 1280 x 720, in pixels
    length = game.rules.params.ship_length_px * scale
    x, y = 100.0, 360.0
    segs = Segments()
    game.rules.scene.life_icons(3, x, y, segs, scale=scale)
    screen.draw_frame(game.config.display, segs)
    image = picture()
    px = screen.px_per_unit
    rows = image[int(360 - (y + length) * px):int(360 - (y - length) * px) + 1]
    lit = rows.max(axis=(0, 2)) > 40
    runs, gaps, start, last = [], [], None, None
    for col in np.nonzero(lit)[0]:
        if last is None or col > last + 1:
            if last is not None:
                runs.append((start, last))
                gaps.append(col - last - 1)
            start = col
        last = col
    runs.append((start, last))
    assert len(runs) == 3, f"the 3 icons touch: lit runs {runs}"
    width = max(b - a + 1 for a, b in runs)
    assert min(gaps) >= 0.35 * width, f"gaps {gaps} px between icons {width} px wide"
