"""Score, wave, messages and FPS, and the title's high-score table, in the vector font.

A ``Hud`` holds the texts a screen shows (``values``, what tests read) and lays them out
against the playfield on demand (``asteroids.app.layout.hud_layout``, cached until a text or
the playfield changes); the lines become segments that the line renderer draws with the
world's looks (``asteroids.app.text.text_ink``). No arcade here: no fonts, no batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asteroids.app.font import CAP
from asteroids.app.layout import HudLayout, below, hud_layout, line_pitch
from asteroids.app.screens import player_name
from asteroids.app.text import Frame, TextLine, fit, text_width
from asteroids.core.play import Play
from asteroids.core.world import World

__all__ = ["CABINET_SCORE_WRAP", "DIM", "SELECTED", "TABLE_ROWS", "Hud",
           "MatchHud", "ScoreTable", "role_colors", "score_wrap", "spawn_band"]

TABLE_ROWS = 10
"""Rows of the title screen's high-score table (the profile keeps the top 10)."""

SELECTED = (255, 220, 60, 255)
"""Colour of the selected table row (and the letter being entered)."""

DIM = (120, 120, 120, 255)
"""Colour of the waiting player's score and tag."""

NOTICE = (150, 255, 170, 255)
WAIT = (255, 220, 60, 255)
PROBLEM = (255, 130, 110, 255)
"""The live panel's colours: a reload's notice, what waits for the next game, a problem."""

CABINET_SCORE_WRAP = 100_000
"""The 1979 cabinet showed five digits: its score rolled over at 100 000."""


def spawn_band(height: float, ship_length: float) -> tuple[float, float]:
    """The band of heights (bottom, top) round the ship's spawn point (the playfield's
    centre) that the middle text keeps clear of: the ship with room for a word under it.

    >>> spawn_band(720.0, 24.0)
    (309.6, 410.4)
    """
    half = max(1.5 * ship_length, 0.07 * height)
    return (round(height / 2 - half, 6), round(height / 2 + half, 6))


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


def role_colors(text: Sequence[int], mono: bool = False) -> dict[str, tuple[int, int, int, int]]:
    """RGBA (0..255) of every line role (``asteroids.app.text.ROLES``), the palette's text
    colour ``text`` for plain lines; on a monochrome palette (``mono``) every role is a shade
    of it (the selection is marked by more than colour: "> ", an underline)."""
    t = (int(text[0]), int(text[1]), int(text[2]), int(text[3]) if len(text) > 3 else 255)
    half = (t[0] // 2, t[1] // 2, t[2] // 2, t[3])
    faint = (t[0], t[1], t[2], 45)
    if mono:
        return {"text": t, "selected": t, "dim": half, "notice": t, "wait": t, "problem": t,
                "faint": faint}
    return {"text": t, "selected": SELECTED, "dim": DIM, "notice": NOTICE, "wait": WAIT,
            "problem": PROBLEM, "faint": faint}


class Hud:
    """The heads-up display of one view.

    Args:
        width: world width (text is laid out in world units).
        height: world height.
        show_fps: show the frames-per-second counter.
        scale: size of the text (``display.hud_scale``; 1 = normal).
    """

    NAMES = ("score", "best", "wave", "title", "hint", "controls", "note", "sound", "status",
             "fps", "letter0", "letter1", "letter2", "score2", "tag1", "tag2")
    """Every text a HUD shows."""

    def __init__(self, width: float, height: float, show_fps: bool = False,
                 scale: float = 1.0) -> None:
        self.width, self.height = float(width), float(height)
        self.show_fps = show_fps
        self.scale = scale
        self.values: dict[str, str] = dict.fromkeys(self.NAMES, "")
        """The text each item shows now (what tests read)."""
        self.score_wrap = 0
        """The score and best score shown roll over at this (0 = never): ``score_wrap``."""
        self.cursor: int | None = None
        """The initials letter being entered (drawn selected)."""
        self.two_players = False
        """Both players' scores (``MatchHud``)."""
        self.active = 0
        """Whose score is lit (two players)."""
        self.icon = 0.0
        """A spare-ship icon's height, world units (room is kept under the score)."""
        self.lives = False
        """Keep room for the spare ships."""
        self.hidden = False
        """Draw nothing (an overlay covers the screen)."""
        self.fade: dict[str, float] = {}
        """Items drawn fainter, by name (the controls card fading out)."""
        self.clear: tuple[float, float] | None = None
        """A band of heights (bottom, top) the middle text keeps clear of: where the ship
        appears (the title's attract game, the controls card); None: none."""
        self._key: object = None
        self._layout: HudLayout | None = None
        self.lives_xy: tuple[float, float] = (self.height * 0.03, self.height * 0.85)
        """Where the first spare-ship icon goes (world units), from the last layout."""
        self.lives2_xy: tuple[float, float] = (self.width - self.height * 0.03,
                                               self.height * 0.85)
        """Where player 2's last spare-ship icon goes (two players), from the last layout."""

    def set(self, name: str, text: str) -> None:
        """Show ``text`` in one item; a no-op when it already does."""
        if self.values[name] != text:
            self.values[name] = text
            self._layout = None

    def shown(self, score: int) -> int:
        """``score`` as the HUD shows it (rolled over at ``score_wrap``)."""
        return score % self.score_wrap if self.score_wrap > 0 else score

    def show_world(self, world: World) -> None:
        """Score and wave of a game in progress (player 1's in a two-player HUD)."""
        self.set("score", f"{self.shown(world.score):02d}")
        if not self.two_players:
            self.set("wave", f"WAVE {max(world.wave, 1)}")

    def best(self, score: int | None) -> None:
        """The high score of the rules being played, top centre as in the 1979 game (None
        hides it)."""
        self.set("best", "" if score is None else f"{self.shown(score):02d}")

    def initials(self, letters: list[str], cursor: int | None) -> None:
        """The three letters of the initials entry, the one at ``cursor`` selected (empty
        letters hide them)."""
        for i, letter in enumerate(letters[:3]):
            self.set(f"letter{i}", letter)
        if cursor != self.cursor:
            self.cursor = cursor
            self._layout = None

    def message(self, title: str = "", hint: str = "") -> None:
        """The big centred message and the line under it (empty strings hide them)."""
        self.set("title", title)
        self.set("hint", hint)

    def note(self, text: str = "") -> None:
        """Small lines under the message (replay saved, out of sync...; one per "\\n")."""
        self.set("note", text)

    def controls(self, text: str = "") -> None:
        """The controls under the title's hint (one line per "\\n")."""
        self.set("controls", text)

    def sound(self, text: str = "") -> None:
        """The sound notice (``SOUND OFF``, ``VOLUME 60 %``)."""
        self.set("sound", text)

    def status(self, text: str = "") -> None:
        """The bottom-left status line (a replay's tick, time and speed)."""
        self.set("status", text)

    def fps(self, value: float) -> None:
        """Update the FPS counter (whole numbers only, so it rarely re-lays out)."""
        self.set("fps", f"{value:.0f} FPS" if self.show_fps else "")

    def layout(self, frame: Frame, notices: Sequence[tuple[str, str, float]] = (),
               problems: Sequence[str] = ()) -> HudLayout:
        """The HUD laid out on ``frame`` with the live panel's notice and problems (cached
        until something changes)."""
        key = (frame, tuple(notices), tuple(problems), self.two_players, self.active,
               self.icon, self.lives, self.hidden, tuple(sorted(self.fade.items())), self.clear)
        if self._layout is None or key != self._key:
            if self.hidden:
                self._layout = HudLayout()
            else:
                self._layout = hud_layout(frame, self.values, cursor=self.cursor,
                                          two_players=self.two_players, active=self.active,
                                          icon=self.icon, lives=self.lives, notices=notices,
                                          problems=problems, fade=self.fade,
                                          clear=self.clear)
                self.lives_xy = self._layout.lives_xy
                if self._layout.lives2_xy is not None:
                    self.lives2_xy = self._layout.lives2_xy
            self._key = key
        return self._layout


class MatchHud:
    """What a two-player game adds to a view's ``Hud``: both scores (player 1 top left,
    player 2 top right), each player's tag under it, the active player's lit and the waiting
    one's dimmed, and the wave under the best score.

    Args:
        hud: the view's HUD (it becomes a two-player HUD).
        width: world width.
    """

    def __init__(self, hud: Hud, width: float) -> None:
        self.hud = hud
        self.width = width
        hud.two_players = True
        hud.lives = True
        hud.set("wave", "")
        self.active: int | None = None
        """Whose score and tag are lit (None until the first ``show``)."""

    @property
    def values(self) -> dict[str, str]:
        """The two-player texts (``score2``, ``tag1``, ``tag2``, ``wave``): what tests read."""
        v = self.hud.values
        return {"score2": v["score2"], "tag1": v["tag1"], "tag2": v["tag2"], "wave": v["wave"]}

    def show(self, play: Play[Any], state: Any, moment: bool) -> None:
        """Both scores, the tags and the active player's wave of ``state`` (a game of
        ``play``); with ``moment``, the turn's moment as the message: ``PLAYER N`` during its
        banner, ``GAME OVER`` for a player who is out while another plays on."""
        active = play.active(state)
        world = play.world(state)
        self.show_scores(play.scores(state), active, int(world.wave))
        if not moment:
            return
        if play.banner(state) > 0:
            self.hud.message(player_name(active), "")
        elif world.game_over and not play.over(state):
            self.hud.message("GAME OVER", player_name(active))

    def show_scores(self, scores: tuple[int, ...], active: int, wave: int) -> None:
        """Both scores and tags, ``active``'s lit, and the wave on screen."""
        hud = self.hud
        hud.set("score", f"{scores[0]:02d}")
        hud.set("score2", f"{scores[1]:02d}")
        hud.set("tag1", player_name(0))
        hud.set("tag2", player_name(1))
        hud.set("wave", f"WAVE {max(wave, 1)}")
        self.active = active
        hud.active = active

    def colour(self, name: str) -> tuple[int, ...]:
        """The RGBA colour a label is drawn in (``score1``, ``score2``, ``tag1``, ``tag2``)
        with the white text colour, for tests."""
        player = int(name[-1]) - 1
        lit = self.active == player
        if name.startswith("tag"):
            return SELECTED if lit else DIM
        return (255, 255, 255, 255) if lit else DIM


class ScoreTable:
    """The title screen's high-score table: a heading, ``TABLE_ROWS`` rows of rank, initials,
    score, wave and date, and a footer; the selected row is drawn selected.

    Args:
        width: world width.
        height: world height.
    """

    COLUMNS = 5

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = float(width), float(height)
        self.values: dict[str, str] = {"heading": "", "footer": ""}
        """Text of every cell, by name (``heading``, ``footer``, ``r0c0`` ...): what tests
        read."""
        for r in range(TABLE_ROWS):
            for c in range(self.COLUMNS):
                self.values[f"r{r}c{c}"] = ""
        self.selected: int | None = None

    def show(self, heading: str, rows: list[tuple[str, str, str, str, str]],
             selected: int | None, footer: str) -> None:
        """Fill the table: ``rows`` (at most ``TABLE_ROWS``) of five column texts."""
        self.values["heading"] = heading
        self.values["footer"] = footer
        for r in range(TABLE_ROWS):
            cells = rows[r] if r < len(rows) else ("",) * self.COLUMNS
            for c, text in enumerate(cells):
                self.values[f"r{r}c{c}"] = text
        self.selected = selected

    def row(self, r: int) -> tuple[str, ...]:
        """The texts of row ``r`` (for tests)."""
        return tuple(self.values[f"r{r}c{c}"] for c in range(self.COLUMNS))

    def layout(self, frame: Frame, lo: float, hi: float) -> list[TextLine]:
        """The table between heights ``lo`` and ``hi``: columns as wide as their widest cell,
        the whole table shrunk to fit the playfield's width and the band's height (the
        heading and footer wrap, then are cut)."""
        m, floor = frame.margin, frame.min_size
        room = frame.width - 2 * m
        rows = [self.row(r) for r in range(TABLE_ROWS)]

        def widths(size: float) -> list[float]:
            return [max(text_width(row[c], size) for row in rows) for c in range(self.COLUMNS)]

        def table_w(size: float) -> float:
            return sum(widths(size)) + (self.COLUMNS - 1) * 1.5 * size

        def block(n: int, size: float) -> float:
            return 0.0 if n == 0 else size + (n - 1) * line_pitch(size) + 2 * size / CAP

        k, max_lines = 1.0, 2
        for _ in range(16):
            s = max(floor, frame.size(0.03) * k)
            if table_w(s) > room:
                s = max(floor, s * room / table_w(s))
            head = max(floor, frame.size(0.042) * k)
            foot = max(floor, frame.size(0.024) * k)
            heading, head = fit([self.values["heading"]], head, floor, room, max_lines)
            footer, foot = fit([self.values["footer"]], foot, floor, room, max_lines)
            total = (block(len(heading), head) + 0.4 * s + block(TABLE_ROWS, s) + 0.4 * s
                     + block(len(footer), foot))
            if total <= hi - lo:
                break
            if s <= floor and head <= floor and foot <= floor:
                if max_lines == 1:
                    break
                max_lines = 1
            k *= max(0.5, min(0.95, (hi - lo) / total))
        out: list[TextLine] = []
        y = hi
        base = below(hi, head)
        for text in heading:
            out.append(TextLine.placed(text, frame.width / 2, base, head, "center"))
            y = base - head / CAP
            base -= line_pitch(head)
        y -= 0.4 * s
        cols = widths(s)
        x0 = frame.width / 2 - table_w(s) / 2
        anchors = ("right", "left", "right", "left", "left")
        for r, row in enumerate(rows):
            y = below(y, s) if r == 0 else y - line_pitch(s)
            if y - s / CAP < lo:
                break
            role = "selected" if r == self.selected else "text"
            x = x0
            for c, text in enumerate(row):
                if text:
                    right = anchors[c] == "right"
                    out.append(TextLine.placed(text, x + (cols[c] if right else 0.0), y, s,
                                               anchors[c], role))
                x += cols[c] + 1.5 * s
        y -= s / CAP + 0.4 * s
        base = below(y, foot)
        for text in footer:
            if base - foot / CAP < lo:
                break
            out.append(TextLine.placed(text, frame.width / 2, base, foot, "center"))
            base -= line_pitch(foot)
        return out
