"""Score, wave, messages and FPS: arcade.Text objects in one pyglet Batch.

Text is laid out in world units (the play camera scales it with the playfield) and a label's
text is assigned only when its value changes, because re-layout is the expensive part.
"""

from __future__ import annotations

import arcade
import pyglet

from asteroids.app.screens import player_name
from asteroids.core.match import Match
from asteroids.core.world import World

TABLE_ROWS = 10
"""Rows of the title screen's high-score table (the profile keeps the top 10)."""

SELECTED = (255, 220, 60, 255)
"""Colour of the selected table row (and the letter being entered)."""

__all__ = ["CABINET_SCORE_WRAP", "DIM", "FONT", "Hud", "MatchHud", "ScoreTable", "TABLE_ROWS",
           "load_fonts", "score_wrap"]

CABINET_SCORE_WRAP = 100_000
"""The 1979 cabinet showed five digits: its score rolled over at 100 000."""


def score_wrap(setting: int, ruleset_key: str) -> int:
    """Where the shown score rolls over (0 = never) for ``display.score_wrap`` and the rules'
    high-score key (``asteroids.profile.ruleset_key``): -1 means as the cabinet did, with the
    classic rules only.

    >>> score_wrap(-1, "classic"), score_wrap(-1, "default"), score_wrap(0, "classic")
    (100000, 0, 0)
    >>> score_wrap(5000, "arena")
    5000
    """
    if setting >= 0:
        return setting
    return CABINET_SCORE_WRAP if ruleset_key == "classic" else 0

FONT: tuple[str, ...] = ("Kenney Future", "arial", "calibri")
"""Preferred font names, first found wins (Kenney Future ships with arcade)."""

_fonts_loaded = False


def load_fonts() -> None:
    """Register arcade's bundled fonts once (harmless if they cannot be loaded)."""
    global _fonts_loaded
    if _fonts_loaded:
        return
    _fonts_loaded = True
    try:
        # Read the bytes ourselves: pyglet's add_file(path) leaves the file open.
        path = arcade.resources.resolve(":system:fonts/ttf/Kenney/Kenney_Future.ttf")
        pyglet.font.add_file(path.read_bytes())
    except Exception:  # fall back to system fonts
        pass


class Hud:
    """The heads-up display of one view.

    Args:
        width: world width (labels are placed in world units).
        height: world height.
        show_fps: show the frames-per-second counter.
        scale: size of the text (``display.hud_scale``; 1 = normal).
    """

    def __init__(self, width: float, height: float, show_fps: bool = False,
                 scale: float = 1.0) -> None:
        load_fonts()
        self.batch = pyglet.graphics.Batch()
        self.show_fps = show_fps
        self.scale = scale
        self.values: dict[str, str] = {}
        """The text each label shows now (what tests read)."""
        self.score_wrap = 0
        """The score and best score shown roll over at this (0 = never): ``score_wrap``."""
        self.text_color: tuple[int, int, int, int] = (255, 255, 255, 255)
        """The colour of every label but the selected letter (``tint``)."""
        big, mid, small = (height * 0.085 * scale, height * 0.042 * scale,
                           height * 0.028 * scale)
        margin = height * 0.03
        top = height - margin
        white = arcade.color.WHITE

        def label(name: str, x: float, y: float, size: float, anchor_x: str = "left",
                  anchor_y: str = "top") -> arcade.Text:
            self.values[name] = ""
            return arcade.Text("", x, y, white, size, font_name=FONT, anchor_x=anchor_x,
                               anchor_y=anchor_y, batch=self.batch)

        self.labels: dict[str, arcade.Text] = {
            "score": label("score", margin * 1.5, top, mid),
            "wave": label("wave", width - margin * 1.5, top, small, anchor_x="right"),
            "title": label("title", width / 2, height * 0.62, big, anchor_x="center",
                           anchor_y="center"),
            "hint": label("hint", width / 2, height * 0.42, small, anchor_x="center",
                          anchor_y="center"),
            "fps": label("fps", width - margin, margin, small * 0.8, anchor_x="right",
                         anchor_y="bottom"),
            "note": label("note", width / 2, height * 0.30, small * 0.8, anchor_x="center",
                          anchor_y="center"),
            "status": label("status", margin * 1.5, margin, small * 0.8, anchor_y="bottom"),
            "best": label("best", width / 2, top, small, anchor_x="center"),
        }
        for i in range(3):
            self.labels[f"letter{i}"] = label(f"letter{i}", width * (0.45 + 0.05 * i),
                                              height * 0.495, big, anchor_x="center",
                                              anchor_y="center")
        self._cursor: int | None = None
        self.lives_xy = (margin * 1.5 + height * 0.012 * scale, top - mid * 1.9)
        """Where the first spare-ship icon goes (world units)."""

    def set(self, name: str, text: str) -> None:
        """Show ``text`` in one label; a no-op when it already does."""
        if self.values[name] != text:
            self.values[name] = text
            self.labels[name].text = text

    def shown(self, score: int) -> int:
        """``score`` as the HUD shows it (rolled over at ``score_wrap``)."""
        return score % self.score_wrap if self.score_wrap > 0 else score

    def show_world(self, world: World) -> None:
        """Score and wave of a game in progress."""
        self.set("score", f"{self.shown(world.score):02d}")
        self.set("wave", f"WAVE {max(world.wave, 1)}")

    def best(self, score: int | None) -> None:
        """The high score of the rules being played, top centre as in the 1979 game (None
        hides it)."""
        self.set("best", "" if score is None else f"{self.shown(score):02d}")

    def tint(self, color: tuple[int, int, int, int]) -> None:
        """Draw the labels in ``color`` (the palette's text colour); a no-op when they are."""
        if tuple(color) == self.text_color:
            return
        self.text_color = tuple(color)  # type: ignore[assignment]
        for name, label in self.labels.items():
            if not (name.startswith("letter") and int(name[-1]) == self._cursor):
                label.color = self.text_color

    def initials(self, letters: list[str], cursor: int | None) -> None:
        """The three letters of the initials entry, the one at ``cursor`` in ``SELECTED``
        (empty letters hide them)."""
        for i, letter in enumerate(letters[:3]):
            self.set(f"letter{i}", letter)
        if cursor != self._cursor:
            self._cursor = cursor
            for i in range(3):
                self.labels[f"letter{i}"].color = (SELECTED if i == cursor
                                                   else self.text_color)

    def message(self, title: str = "", hint: str = "") -> None:
        """The big centred message and the line under it (empty strings hide them)."""
        self.set("title", title)
        self.set("hint", hint)

    def note(self, text: str = "") -> None:
        """A small line under the message (replay saved, replay out of sync, ...)."""
        self.set("note", text)

    def status(self, text: str = "") -> None:
        """The bottom-left status line (a replay's tick, time and speed)."""
        self.set("status", text)

    def fps(self, value: float) -> None:
        """Update the FPS counter (whole numbers only, so it rarely re-lays out)."""
        self.set("fps", f"{value:.0f} FPS" if self.show_fps else "")

    def draw(self) -> None:
        """Draw every label in one batch."""
        self.batch.draw()


class ScoreTable:
    """The title screen's high-score table: a heading, ``TABLE_ROWS`` rows of rank, initials,
    score, wave and date, and a footer; the selected row is drawn in ``SELECTED``.

    Labels are made once (in their own batch) and only changed text is re-laid out.

    Args:
        width: world width.
        height: world height.
    """

    def __init__(self, width: float, height: float) -> None:
        load_fonts()
        self.batch = pyglet.graphics.Batch()
        size = height * 0.030
        white = arcade.color.WHITE
        self.values: dict[str, str] = {}
        """Text of every label, by name (``heading``, ``footer``, ``r0c0`` ...): what tests
        read."""

        def label(name: str, x: float, y: float, anchor_x: str, scale: float = 1.0) -> arcade.Text:
            self.values[name] = ""
            return arcade.Text("", x, y, white, size * scale, font_name=FONT,
                               anchor_x=anchor_x, anchor_y="center", batch=self.batch)

        self.labels: dict[str, arcade.Text] = {
            "heading": label("heading", width / 2, height * 0.86, "center", 1.4),
            "footer": label("footer", width / 2, height * 0.20, "center", 0.8),
        }
        columns = ((0.24, "right"), (0.27, "left"), (0.50, "right"), (0.54, "left"),
                   (0.70, "left"))
        for row in range(TABLE_ROWS):
            y = height * (0.77 - 0.045 * row)
            for col, (fx, anchor) in enumerate(columns):
                name = f"r{row}c{col}"
                self.labels[name] = label(name, width * fx, y, anchor)
        self.selected: int | None = None

    def set(self, name: str, text: str) -> None:
        """Show ``text`` in one label; a no-op when it already does."""
        if self.values[name] != text:
            self.values[name] = text
            self.labels[name].text = text

    def show(self, heading: str, rows: list[tuple[str, str, str, str, str]],
             selected: int | None, footer: str) -> None:
        """Fill the table: ``rows`` (at most ``TABLE_ROWS``) of five column texts."""
        self.set("heading", heading)
        self.set("footer", footer)
        for r in range(TABLE_ROWS):
            cells = rows[r] if r < len(rows) else ("",) * 5
            for c, text in enumerate(cells):
                self.set(f"r{r}c{c}", text)
        if selected != self.selected:
            self.selected = selected
            for r in range(TABLE_ROWS):
                colour = SELECTED if r == selected else arcade.color.WHITE
                for c in range(5):
                    self.labels[f"r{r}c{c}"].color = colour

    def row(self, r: int) -> tuple[str, ...]:
        """The texts of row ``r`` (for tests)."""
        return tuple(self.values[f"r{r}c{c}"] for c in range(5))

    def draw(self) -> None:
        """Draw the table in one batch."""
        self.batch.draw()


DIM = (120, 120, 120, 255)
"""Colour of the waiting player's score and tag."""

class MatchHud:
    """The labels a two-player game adds to a view's ``Hud`` (in the Hud's batch, so they
    are drawn with it, at the sizes and places its own labels use).

    Args:
        hud: the view's HUD; its ``score`` label becomes player 1's score.
        width: world width.
    """

    def __init__(self, hud: Hud, width: float) -> None:
        self.hud = hud
        score = hud.labels["score"]
        size = float(score.font_size)
        margin = float(score.x)
        self.width = width
        self.values: dict[str, str] = {}
        """Text of each label (``score2``, ``tag1``, ``tag2``, ``wave``): what tests read."""
        tag_y = hud.lives_xy[1] - size * 0.55
        small = size * 0.6

        def label(name: str, x: float, y: float, font: float, anchor_x: str) -> arcade.Text:
            self.values[name] = ""
            return arcade.Text("", x, y, arcade.color.WHITE, font, font_name=score.font_name,
                               anchor_x=anchor_x, anchor_y="top", batch=hud.batch)

        self.labels = {
            "score2": label("score2", width - margin, float(score.y), size, "right"),
            "tag1": label("tag1", margin, tag_y, small, "left"),
            "tag2": label("tag2", width - margin, tag_y, small, "right"),
            "wave": label("wave", width / 2, float(score.y) - size * 1.3, small, "center"),
        }
        self.active: int | None = None
        """Whose score and tag are lit (None until the first ``show``)."""
        # The Hud's score and wave labels are the match's now: the view's one-player
        # ``show_world`` (the active World's score) would fight ``show`` every frame.
        hud.show_world = _leave_to_the_match  # type: ignore[method-assign]

    def set(self, name: str, text: str) -> None:
        """Show ``text`` in one label; a no-op when it already does."""
        if self.values[name] != text:
            self.values[name] = text
            self.labels[name].text = text

    def show(self, match: Match) -> None:
        """Both scores, the tags, the active player's wave (the Hud's own wave label, top
        right, makes way for player 2's score)."""
        self.show_scores(tuple(match.scores), int(match.active), int(match.world.wave))

    def show_scores(self, scores: tuple[int, ...], active: int, wave: int) -> None:
        """Both scores and tags, ``active``'s lit, and the wave on screen."""
        s1, s2 = scores
        self.hud.set("score", f"{s1:02d}")
        self.hud.set("wave", "")
        self.set("score2", f"{s2:02d}")
        self.set("tag1", player_name(0))
        self.set("tag2", player_name(1))
        self.set("wave", f"WAVE {max(wave, 1)}")
        if active != self.active:
            self.active = active
            lit = (arcade.color.WHITE, SELECTED)
            for player, (score, tag) in enumerate((("score", "tag1"), ("score2", "tag2"))):
                label = self.hud.labels[score] if score == "score" else self.labels[score]
                label.color = lit[0] if player == active else DIM
                self.labels[tag].color = lit[1] if player == active else DIM

    def colour(self, name: str) -> tuple[int, ...]:
        """The RGBA colour of one label (``score1`` is the Hud's score label), for tests."""
        label = self.hud.labels["score"] if name == "score1" else self.labels[name]
        return tuple(label.color)


def _leave_to_the_match(world: object) -> None:
    """``Hud.show_world`` of a two-player view: nothing (``MatchHud.show`` sets them)."""
