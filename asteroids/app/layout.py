"""Where every word of a screen goes, laid out against the actual playfield.

The playfield is split into bands: the top one (scores, best, wave, spare ships), the bottom
one (status line, FPS, the live notice) and the middle (the screen's message, the initials,
or the live problem panel). Each band shrinks its text, then wraps it, then cuts it (with an
ellipsis) until it fits, so no text leaves the playfield and no two lines overlap, at any
window size, aspect and HUD scale; no letter is ever below ``MIN_LETTER_PX``. Pure: the
layout tests call these with every screen's longest strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from asteroids.app.font import CAP, LINE
from asteroids.app.text import Frame, TextLine, fit, text_width, truncate

__all__ = ["HudLayout", "MenuLayout", "STACK", "below", "hud_layout", "line_pitch", "menu_layout"]

STACK = ("title", "hint", "controls", "letters", "note", "sound")
"""The middle band's items, top to bottom."""

_FRACTIONS = {"score": 0.042, "best": 0.03, "wave": 0.028, "tag": 0.024, "title": 0.085,
              "hint": 0.028, "controls": 0.024, "letters": 0.085, "note": 0.022,
              "sound": 0.028, "status": 0.022, "fps": 0.022, "notice": 0.021,
              "problem": 0.021}
"""Cap heights as fractions of the playfield's height (times the HUD scale)."""

_UNSCALED = frozenset({"notice", "problem"})
"""The live panel's text does not follow the HUD scale (file paths are long)."""


def line_pitch(size: float) -> float:
    """Baseline to baseline of wrapped lines at cap height ``size``."""
    return size * LINE / CAP


def below(edge: float, size: float) -> float:
    """The baseline of a line at cap height ``size`` whose box's top is at ``edge``."""
    return edge - size - size / CAP


@dataclass
class HudLayout:
    """A laid-out HUD: its lines and where the rest goes."""

    lines: list[TextLine] = field(default_factory=list)
    lives_xy: tuple[float, float] = (0.0, 0.0)
    """Centre of the first spare-ship icon (player 1's)."""
    lives2_xy: tuple[float, float] | None = None
    """Right end of player 2's spare-ship icons (two players), else None."""
    top: float = 0.0
    """The lowest the top band reaches."""
    bottom: float = 0.0
    """The highest the bottom band reaches."""
    panel: tuple[float, float, float, float] | None = None
    """The live problem panel's backdrop (left, bottom, right, top), when it is up."""


def size_of_small(frame: Frame) -> float:
    """The cap height of the HUD's small lines (status, FPS)."""
    return frame.size(_FRACTIONS["status"])


def _shrink(sizes: list[float], widths: list[float], room: float, floor: float) -> list[float]:
    """``sizes`` scaled down together (never below ``floor``) so ``widths`` fit ``room``."""
    total = sum(widths)
    if total <= room or total <= 0:
        return sizes
    k = room / total
    return [max(floor, s * k) for s in sizes]


def hud_layout(frame: Frame, values: Mapping[str, str], *, cursor: int | None = None,
               two_players: bool = False, active: int = 0, icon: float = 0.0,
               lives: bool = False, notices: Sequence[tuple[str, str, float]] = (),
               problems: Sequence[str] = (), fade: Mapping[str, float] | None = None,
               clear: tuple[float, float] | None = None) -> HudLayout:
    """Lay out a HUD.

    Args:
        frame: the playfield.
        values: the texts by name (``score``, ``best``, ``wave``, ``score2``, ``tag1``,
            ``tag2``, ``title``, ``hint``, ``controls``, ``letter0``..``letter2``, ``note``,
            ``sound``, ``status``, ``fps``); missing or empty ones take no room.
        cursor: the initials letter being entered (drawn selected).
        two_players: both players' scores, player 2's at the right.
        active: whose score and tag are lit (two players); the other's are dimmed.
        icon: a spare-ship icon's height, world units (room is kept under the score).
        lives: keep room for the spare ships.
        notices: the live notice, (text, role, alpha) per line, top to bottom.
        problems: the live problem panel's lines (it takes the middle band).
        fade: the opacity of middle-band items, by name (1 when not given).
        clear: a band of heights (bottom, top) the middle band's text keeps clear of (the
            ship's spawn on the title and under the controls card); None: none.
    """
    out = HudLayout()
    w, h, m = frame.width, frame.height, frame.margin
    floor = frame.min_size
    gap = max(floor * 0.8, 0.5 * size_of_small(frame))
    room = w - 2 * m

    def size(name: str) -> float:
        return frame.size(_FRACTIONS[name], scaled=name not in _UNSCALED)

    def v(name: str) -> str:
        return values.get(name, "") or ""

    # --- the top band -------------------------------------------------------------------
    top = h - m
    if two_players:
        left, right, middle = [v("score"), v("tag1")], [v("score2"), v("tag2")], \
            [v("best"), v("wave")]
        s_score, s_tag, s_best, s_wave = size("score"), size("tag"), size("best"), size("wave")
        widths = [max(text_width(left[0], s_score), text_width(left[1], s_tag)),
                  max(text_width(middle[0], s_best), text_width(middle[1], s_wave)),
                  max(text_width(right[0], s_score), text_width(right[1], s_tag))]
        s_score, s_tag, s_best, s_wave = _shrink([s_score, s_tag, s_best, s_wave],
                                                 widths, room - 2 * gap, floor)
        roles = ("text", "dim") if active == 0 else ("dim", "text")
        tag_roles = ("selected", "dim") if active == 0 else ("dim", "selected")
        y1 = below(top, s_score)
        y2 = below(y1 - s_score / CAP - gap, s_tag)
        yb = below(top, s_best)
        yw = below(yb - s_best / CAP - gap, s_wave)
        out.lines += [
            TextLine.placed(left[0], m, y1, s_score, role=roles[0]),
            TextLine.placed(right[0], w - m, y1, s_score, "right", roles[1]),
            TextLine.placed(left[1], m, y2, s_tag, role=tag_roles[0]),
            TextLine.placed(right[1], w - m, y2, s_tag, "right", tag_roles[1]),
            TextLine.placed(middle[0], w / 2, yb, s_best, "center"),
            TextLine.placed(middle[1], w / 2, yw, s_wave, "center"),
        ]
        low = min(y2 - s_tag / CAP, yw - s_wave / CAP)
        icon_y = low - gap - icon / 2
        out.lives_xy = (m + icon / 2, icon_y)
        out.lives2_xy = (w - m - icon / 2, icon_y)
        if lives or icon > 0:
            low = icon_y - icon / 2
    else:
        s_score, s_best, s_wave = size("score"), size("best"), size("wave")
        texts = [v("score"), v("best"), v("wave")]
        s_score, s_best, s_wave = _shrink(
            [s_score, s_best, s_wave],
            [text_width(t, s) for t, s in zip(texts, (s_score, s_best, s_wave), strict=True)],
            room - 2 * gap, floor)
        score = TextLine.placed(texts[0], m, below(top, s_score), s_score)
        wave = TextLine.placed(texts[2], w - m, below(top, s_wave), s_wave, "right")
        wb = text_width(texts[1], s_best)
        bx = min(max(w / 2 - wb / 2, score.box[2] + gap), wave.box[0] - gap - wb)
        best = TextLine(texts[1], bx, below(top, s_best), s_best)
        out.lines += [score, best, wave]
        low = min(line.box[1] for line in (score, best, wave))
        icon_y = low - gap - icon / 2
        out.lives_xy = (m + icon / 2, icon_y)
        if lives:
            low = icon_y - icon / 2
    out.top = low

    # --- the bottom band ----------------------------------------------------------------
    s_fps, s_status, s_notice = size("fps"), size("status"), size("notice")
    fps = v("fps")
    fps_w = text_width(fps, s_fps)
    highest = m
    if fps:
        line = TextLine.placed(fps, w - m, m + s_fps / CAP, s_fps, "right")
        out.lines.append(line)
        highest = line.box[3]
    status_room = room - (fps_w + gap if fps else 0.0)
    status, s_status = fit([v("status")] if v("status") else [], s_status, floor, status_room,
                           max_lines=3)
    y = m + s_status / CAP
    for text in reversed(status):
        line = TextLine(text, m, y, s_status)
        out.lines.append(line)
        highest = max(highest, line.box[3])
        y += line_pitch(s_status)
    if notices:
        s_notice = fit([t for t, _, _ in notices], s_notice, floor, room)[1]
        rows = [(piece, role, alpha) for text, role, alpha in notices
                for piece in fit([text], s_notice, s_notice, room)[0]]
        y = highest + gap + s_notice / CAP
        limit = out.top - gap - s_notice - s_notice / CAP
        fits = max(0, int((limit - y) // line_pitch(s_notice)) + 1) if limit >= y else 0
        for text, role, alpha in reversed(rows[len(rows) - fits:] if fits else []):
            line = TextLine(truncate(text, s_notice, room), m, y, s_notice, role, alpha)
            out.lines.append(line)
            highest = line.box[3]
            y += line_pitch(s_notice)
    out.bottom = highest

    # --- the middle band ------------------------------------------------------------------
    lo, hi = out.bottom + gap, out.top - gap
    if problems:
        _problem_panel(out, frame, problems, lo, hi, size("problem"))
    else:
        _middle(out, frame, values, cursor, lo, hi, size, fade or {}, clear)
    return out


def _problem_panel(out: HudLayout, frame: Frame, problems: Sequence[str], lo: float,
                   hi: float, s: float) -> None:
    """The live problem panel in the middle band, on a backdrop; lines that do not fit end
    in an ellipsis line."""
    m, floor = frame.margin, frame.min_size
    room = frame.width - 2 * m - 2 * floor
    lines, s = fit(list(problems), s, floor, room)
    pitch = line_pitch(s)
    fits = max(1, int((hi - lo - s - 2 * s / CAP) // pitch) + 1)
    if len(lines) > fits:
        lines = [*lines[: fits - 1], "\u2026"]
    y = hi - s - s / CAP
    for line in lines:
        if y - s / CAP < lo:
            break
        out.lines.append(TextLine(line, m + floor, y, s, "problem"))
        y -= pitch
    out.panel = (m, y + pitch - s / CAP - floor * 0.5, frame.width - m, hi)


def _item_gap(above: float, below_s: float) -> float:
    """The space between two stacked items of cap heights ``above`` and ``below_s``: set by
    the larger (a big title gets air under it, not just a small line's worth)."""
    return max(0.6 * below_s, 0.3 * above)


def _middle(out: HudLayout, frame: Frame, values: Mapping[str, str], cursor: int | None,
            lo: float, hi: float, size_of: Callable[[str], float],
            fade: Mapping[str, float], clear: tuple[float, float] | None = None) -> None:
    """The message stack (``STACK``), centred in [lo, hi]: shrunk, then wrapped, then cut.

    An item is never set larger than the one above it (a hint that had to shrink does not
    sit over bigger controls). With ``clear`` (a band of heights: the ship's spawn) the stack
    is split round it, the first items above and the rest below, at the split that shrinks
    least and balances best (however much: text over the ship is what the band prevents);
    only when no split keeps every item does the stack ignore the band."""
    w, m, floor = frame.width, frame.margin, frame.min_size
    room = w - 2 * m
    letters = [values.get(f"letter{i}", "") or "" for i in range(3)]
    present = [name for name in STACK
               if (name == "letters" and any(letters)) or (name != "letters"
                                                          and values.get(name))]
    if not present or hi <= lo:
        return
    base = {name: size_of(name) for name in present}
    Items = list[tuple[str, list[str], float]]

    def build(names: Sequence[str], k: float, max_lines: int | None) -> Items:
        items: Items = []
        cap = float("inf")
        for name in names:
            s = max(floor, min(base[name] * k, cap))
            if name == "letters":
                items.append((name, letters, s))
                continue
            lines, s = fit(values[name].split("\n"), s, floor, room, max_lines=max_lines)
            items.append((name, lines, s))
            if name != "title":
                cap = s  # what follows the title is never larger than the line above
        return items

    def height(items: Items) -> float:
        total = 0.0
        for i, (name, lines, s) in enumerate(items):
            rows = 1 if name == "letters" else len(lines)
            total += s + (rows - 1) * line_pitch(s) + 2 * s / CAP
            if i:
                total += _item_gap(items[i - 1][2], s)
        return total

    def fitted(names: Sequence[str], room_h: float) -> tuple[Items, float]:
        """The items shrunk, wrapped and cut to ``room_h``, and the factor they shrank by."""
        if not names:
            return [], 1.0
        k = 1.0
        items = build(names, k, None)
        for _ in range(12):
            if height(items) <= room_h:
                break
            k *= max(0.5, min(0.95, room_h / max(height(items), 1e-9)))
            items = build(names, k, None)
        limit = 8
        while height(items) > room_h and limit > 1:
            limit -= 1
            items = build(names, k, limit)
        while height(items) > room_h and len(items) > 1:
            items = items[:-1]  # the last items go first (the sound notice, the note)
        return items, k

    def place(items: Items, top: float) -> None:
        y = top
        for i, (name, lines, s) in enumerate(items):
            if i:
                y -= _item_gap(items[i - 1][2], s)
            y -= s + s / CAP
            if name == "letters":
                pitch = s * 1.6
                for j, letter in enumerate(lines):
                    here = j == cursor
                    out.lines.append(TextLine.placed(letter, w / 2 + (j - 1) * pitch, y, s,
                                                     "center", "selected" if here else "text",
                                                     underline=here))
                y -= s / CAP
                continue
            for n, line in enumerate(lines):
                if n:
                    y -= line_pitch(s)
                out.lines.append(TextLine(line, w / 2 - text_width(line, s) / 2, y, s,
                                          alpha=fade.get(name, 1.0)))
            y -= s / CAP

    whole, _ = fitted(present, hi - lo)
    if clear is not None and lo < clear[1] and clear[0] < hi:
        gap = 0.5 * floor
        up_lo, down_hi = max(lo, clear[1] + gap), min(hi, clear[0] - gap)
        best: tuple[tuple[float, ...], Items, Items] | None = None
        for split in range(len(present) + 1):
            up, up_k = fitted(present[:split], hi - up_lo)
            down, down_k = fitted(present[split:], down_hi - lo)
            if len(up) + len(down) < len(present) or height(up) > hi - up_lo + 1e-6 or \
                    height(down) > down_hi - lo + 1e-6:
                continue  # this split loses an item, or a side does not hold its items
            score = (round(min(up_k, down_k), 3), -abs(height(up) - height(down)), -split)
            if best is None or score > best[0]:
                best = (score, up, down)
        if best is not None:  # clear of the ship, even if smaller (never below the floor)
            _, up, down = best
            place(up, (up_lo + hi) / 2 + height(up) / 2)
            place(down, (lo + down_hi) / 2 + height(down) / 2)
            return
    place(whole, (lo + hi) / 2 + height(whole) / 2)


@dataclass
class MenuLayout:
    """A laid-out menu panel (the options screen)."""

    lines: list[TextLine] = field(default_factory=list)
    panel: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """The opaque panel (left, bottom, right, top): the world is not drawn under it."""
    first: int = 0
    """The first row shown (the list scrolls to keep the selected row on screen)."""
    shown: int = 0
    """How many rows are shown."""


def menu_layout(frame: Frame, title: str, rows: Sequence[tuple[str, str, str]], selected: int,
                cell: int, note: str = "", help_text: str = "",
                reserve: Sequence[str] = (), reserve_help: Sequence[str] = ()) -> MenuLayout:
    """A menu on an opaque panel: a title, rows of (label, value, alternate), a note and a
    help line. The selected row's label and its ``cell`` (1: value, 2: alternate) are drawn
    selected. Letters shrink to fit the width (never below the minimum), long values are cut;
    rows that do not fit the height scroll, with an arrow where more are above or below.
    ``reserve``: values a cell may show later (a press-to-bind's prompt); the columns are as
    wide as they need from the start, so the panel does not jump when one appears;
    ``reserve_help``: help texts that may replace ``help_text`` (room is kept for the tallest,
    so the rows do not scroll when one appears)."""
    out = MenuLayout()
    w, h, m, floor = frame.width, frame.height, frame.margin, frame.min_size
    s = frame.size(0.034)
    pad = 2 * floor
    room = w - 2 * m - 2 * pad
    marked = [("  " + a, "  " + b if b else "", "  " + c if c else "") for a, b, c in rows]
    gap_k = 1.5

    def cols(size: float) -> list[float]:
        """Label, value and alternate widths: the alternate starts right after the widest
        value of the rows that have one (a key's), so the panel stays narrow and the screen
        behind shows round it."""
        label = max(text_width(r[0], size) for r in marked)
        paired = [r for r in marked if r[2]]
        later = max((text_width("  " + t, size) for t in reserve), default=0.0)
        first = max([text_width(r[1], size) for r in paired] + [later], default=0.0)
        alt = max([text_width(r[2], size) for r in paired] + [later], default=0.0)
        single = max([text_width(r[1], size) for r in marked if not r[2]] + [later])
        return [label, max(first, single - alt - gap_k * size) if paired else single, alt]

    def total(size: float) -> float:
        c = cols(size)
        return c[0] + c[1] + c[2] + (2 if c[2] else 1) * size * gap_k

    if total(s) > room:
        s = max(floor, s * room / total(s))
    cw = cols(s)
    gap = gap_k * s
    if total(s) > room + 1e-6:  # at the minimum size: cut the values to what is left
        spare = max(room - cw[0] - 2 * gap, 2 * floor)
        cw[1], cw[2] = spare * 0.6, spare * 0.4
    title_s = max(floor, min(s * 1.4, frame.size(0.06)))
    titles, title_s = fit([title], title_s, floor, room, max_lines=1)
    note_s, help_s = max(floor, s * 0.8), max(floor, s * 0.7)
    # The note and the help wrap to the rows' width: the panel is no wider than its items,
    # so the screen behind shows round it (a palette change previews there at once).
    body = min(room, max(cw[0] + cw[1] + cw[2] + 2 * gap, text_width(title, title_s)))
    notes, note_s = fit([note] if note else [], note_s, floor, body, max_lines=2)
    help_0 = help_s
    helps, help_s = fit([help_text] if help_text else [], help_0, floor, body, max_lines=3)
    help_h = len(helps) * line_pitch(help_s)
    for text in reserve_help:
        more, size = fit([text], help_0, floor, body, max_lines=3)
        help_h = max(help_h, len(more) * line_pitch(size))
    pitch = line_pitch(s)
    fixed = (title_s + 2 * title_s / CAP + 0.5 * s
             + (len(notes) * line_pitch(note_s) + 0.4 * s if notes else 0.0) + help_h)
    avail = h - 2 * m - 2 * floor - fixed
    fits = max(1, int((avail - s - 2 * s / CAP) // pitch) + 1)
    n = len(rows)
    if fits >= n:
        first, shown = 0, n
    else:
        shown = max(1, fits - 2)  # a row each for the arrows
        first = min(max(selected - shown // 2, 0), n - shown)
    width = max(cw[0] + cw[1] + cw[2] + 2 * gap, text_width(titles[0] if titles else "",
                                                            title_s))
    width = max([width, *(text_width(t, note_s) for t in notes),
                 *(text_width(t, help_s) for t in helps)])
    x0 = w / 2 - width / 2
    top = h - m - floor
    y = below(top, title_s)
    for text in titles:
        out.lines.append(TextLine.placed(text, w / 2, y, title_s, "center"))
    y -= title_s / CAP + 0.5 * s
    arrows = shown < n
    slots: list[int | str] = list(range(first, first + shown))
    if arrows:
        slots = ["\u25b2" if first > 0 else "", *slots,
                 "\u25bc" if first + shown < n else ""]
    y0 = below(y, s)
    xs = (x0, x0 + cw[0] + gap, x0 + cw[0] + gap + cw[1] + gap)
    for i, slot in enumerate(slots):
        yb = y0 - i * pitch
        if isinstance(slot, str):
            if slot:
                out.lines.append(TextLine.placed(slot, w / 2, yb, s, "center"))
            continue
        row = rows[slot]
        for c in range(3):
            if not row[c]:
                continue
            here = slot == selected and (c == 0 or c == cell)
            text = ("> " if here else "  ") + row[c]
            limit = cw[c] if c != 1 or row[2] else cw[1] + (gap + cw[2] if cw[2] else 0.0)
            if text_width(text, s) > limit + 1e-6:
                text = truncate(text, s, limit)
            out.lines.append(TextLine(text, xs[c], yb, s, "selected" if here else "text"))
    y = y0 - (len(slots) - 1) * pitch - s / CAP
    y -= 0.4 * s
    for texts, size in ((notes, note_s), (helps, help_s)):  # wrapped lines a pitch apart
        for n, text in enumerate(texts):
            yb = below(y, size) - n * line_pitch(size)
            out.lines.append(TextLine.placed(text, w / 2, yb, size, "center"))
        if texts:
            y = below(y, size) - (len(texts) - 1) * line_pitch(size) - size / CAP
    left = max(m, x0 - pad)
    right = min(w - m, x0 + width + pad)
    out.panel = (left, m, right, h - m)
    out.first, out.shown = first, shown
    return out
