"""Issue 22, item 2: every screen's text fits, at every size.

Each screen is staged in the real (headless) window as a player meets it, with its longest
real strings (a 7-digit score, the longest replay name, the live-rules note, the widest key
names, the two-player HUD, the live panel), on the default and the classic rules (the two
aspects the presets have). Then its text is laid out for every window from 640 x 480 to
3840 x 2160 and every ``display.hud_scale`` from 0.5 to 3, exactly as a frame would be
(``WorldView.text_lines``): no line leaves the playfield, no two lines' boxes overlap, every
letter is at least ``MIN_LETTER_PX`` high on screen, and every character has a glyph.
"""

from __future__ import annotations

import itertools

import pytest

from asteroids.app.font import GLYPHS
from asteroids.app.layout import hud_layout, menu_layout
from asteroids.app.recording import short_name
from asteroids.app.sheet import LONG_REPLAY, SCREENS, stage
from asteroids.app.text import MIN_LETTER_PX, Frame, TextLine, overlaps
from asteroids.config import load_config
from asteroids.config.keys import KEY_NAMES
from asteroids.config.rulesets import ruleset_choices

pytestmark = pytest.mark.gl

WINDOWS = ((640, 480), (800, 600), (1280, 720), (1366, 768), (1920, 1080), (2560, 1080),
           (1080, 1920), (3840, 2160))
"""Window sizes, landscape, ultrawide and portrait."""
SCALES = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
"""``display.hud_scale`` from its smallest to its largest."""

EPS = 1e-6


def frames(width: float, height: float) -> list[Frame]:
    """The playfield of a world of ``width`` x ``height`` letterboxed into every window, at
    every HUD scale."""
    return [Frame(width, height, min(ww / width, wh / height), scale)
            for (ww, wh), scale in itertools.product(WINDOWS, SCALES)]


def problems(lines: list[TextLine], frame: Frame) -> list[str]:
    """What is wrong with a frame's lines: out of the playfield, overlapping, too small,
    without a glyph."""
    bad = []
    for line in lines:
        left, bottom, right, top = line.box
        if left < -EPS or bottom < -EPS or right > frame.width + EPS or \
                top > frame.height + EPS:
            bad.append(f"leaves the playfield: {line.text!r} {line.box}")
        if line.size * frame.px < MIN_LETTER_PX - EPS:
            bad.append(f"{line.size * frame.px:.1f} px high: {line.text!r}")
        missing = {c for c in line.text if c not in GLYPHS and c.upper() not in GLYPHS}
        if missing:
            bad.append(f"no glyph for {sorted(missing)} in {line.text!r}")
    shown = [line for line in lines if line.text.strip()]
    for a, b in itertools.combinations(shown, 2):
        if overlaps(a.box, b.box):
            bad.append(f"overlap: {a.text!r} / {b.text!r}")
    return bad


def long_keys():
    """Settings whose key bindings are the widest names there are (each used once)."""
    widest = sorted(KEY_NAMES, key=len, reverse=True)
    actions = ("thrust", "left", "right", "fire", "hyperspace", "shield", "pause")
    sets = [f'keys.{a}=["{widest[2 * i]}", "{widest[2 * i + 1]}"]'
            for i, a in enumerate(actions)]
    return sets


@pytest.fixture(scope="module")
def staged(gl_window, tmp_path_factory):
    """Every screen of ``SCREENS`` (and a two-player game, and the options with the widest
    keys bound) staged on the default and the classic rules."""
    import os

    choices = ruleset_choices()
    labels = [r.label for r in choices.rulesets]
    live_file = tmp_path_factory.mktemp("live") / "my.toml"
    live_file.write_text("[ship]\nthrust_px_per_s2 = 420\n")
    saved = os.environ.get("ASTEROIDS_DATA_DIR")
    out = []
    try:
        for rules in ("default", "classic"):
            index = labels.index(rules)
            config = choices.rulesets[index].config
            for name in SCREENS:
                os.environ["ASTEROIDS_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
                view = stage(gl_window, config, name, rulesets=choices.rulesets, index=index,
                             live_file=live_file)
                view.on_update(1 / 60)
                out.append((f"{rules}: {name}", view))
                gl_window.hide_view()
            os.environ["ASTEROIDS_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
            keyed = load_config(rules, overrides=long_keys())
            view = stage(gl_window, keyed, "options")
            out.append((f"{rules}: options, widest keys", view))
            gl_window.hide_view()
    finally:
        if saved is None:
            os.environ.pop("ASTEROIDS_DATA_DIR", None)
        else:
            os.environ["ASTEROIDS_DATA_DIR"] = saved
    return out


def test_every_screen_fits_every_window_and_hud_scale(staged) -> None:
    bad = []
    for name, view in staged:
        rules = view.game.rules
        for frame in frames(rules.width, rules.height):
            lines, _ = view.text_lines(frame)
            assert lines, name
            bad += [f"{name} at {frame}: {p}" for p in problems(lines, frame)]
    assert bad == []


def test_the_staged_screens_hold_the_longest_strings(staged) -> None:
    """The fit test above checks what it should: the long strings are on those screens."""
    texts = {name: " ".join(view.hud.values.values()) for name, view in staged}
    assert "9999999" in texts["default: game over"]
    assert short_name(LONG_REPLAY) in texts["default: game over"]  # shown cut (issue 39)
    assert "RULES CHANGED DURING THE GAME" in texts["default: game over"]
    widest = max(KEY_NAMES, key=len)
    options = dict(staged)["default: options, widest keys"].options
    assert widest in options.values + options.alternates


def test_the_two_player_hud_with_7_digit_scores_fits() -> None:
    values = {"score": "9999999", "score2": "9999999", "tag1": "PLAYER 1", "tag2": "PLAYER 2",
              "best": "9999999", "wave": "WAVE 99", "title": "PLAYER 2",
              "hint": "GAME OVER", "status": "1 SETTING WAITS FOR THE NEXT GAME: R STARTS IT NOW",
              "fps": "144 FPS", "sound": "VOLUME 100 % (SOUND OFF)"}
    bad = []
    for world in ((1280.0, 720.0), (1024.0, 768.0)):
        for frame in frames(*world):
            for active in (0, 1):
                out = hud_layout(frame, values, two_players=True, active=active, icon=16.0,
                                 lives=True)
                bad += [f"{frame}: {p}" for p in problems(out.lines, frame)]
    assert bad == []


def test_letters_are_at_least_12_px_at_640x480_even_at_the_smallest_hud_scale() -> None:
    for world in ((1280.0, 720.0), (1024.0, 768.0)):
        frame = Frame(*world, min(640 / world[0], 480 / world[1]), 0.5)
        out = hud_layout(frame, {"score": "10", "title": "GAME OVER", "status": "X"})
        assert min(line.size * frame.px for line in out.lines) == pytest.approx(MIN_LETTER_PX)


def test_a_long_line_shrinks_then_wraps_and_never_leaves_the_playfield() -> None:
    frame = Frame(1280.0, 720.0, 0.5, 1.0)  # a 640 x 360 playfield
    note = "REPLAY SAVED: " + LONG_REPLAY
    out = hud_layout(frame, {"title": "GAME OVER", "note": note})
    notes = [line for line in out.lines if line.text != "GAME OVER"]
    assert len(notes) > 1                                   # wrapped
    assert "".join(line.text for line in notes).replace(" ", "") == note.replace(" ", "")
    assert problems(out.lines, frame) == []


def test_the_options_list_scrolls_when_it_does_not_fit_and_keeps_the_pick_on_screen() -> None:
    rows = [(f"ITEM {i}", "VALUE", "") for i in range(40)]
    frame = Frame(1280.0, 720.0, 0.5, 3.0)
    for selected in (0, 20, 39):
        out = menu_layout(frame, "OPTIONS", rows, selected, 1)
        assert out.shown < len(rows)
        assert out.first <= selected < out.first + out.shown
        assert any(line.text == f"> ITEM {selected}" for line in out.lines)
        assert problems(out.lines, frame) == []


def test_the_checks_find_each_kind_of_fault() -> None:
    frame = Frame(1280.0, 720.0, 0.5, 1.0)
    ok = TextLine("SCORE", 100.0, 100.0, 30.0)
    assert problems([ok], frame) == []
    assert problems([ok, TextLine("OVER", 120.0, 110.0, 30.0)], frame)[0].startswith("overlap")
    assert problems([TextLine("WIDE", 1250.0, 100.0, 30.0)], frame)[0].startswith("leaves")
    assert problems([TextLine("TINY", 100.0, 100.0, 20.0)], frame)[0].startswith("10.0 px")
    assert problems([TextLine("\u00e9", 100.0, 100.0, 30.0)], frame)[0].startswith("no glyph")
