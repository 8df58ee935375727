"""The on-screen side of ``--live``: a short notice of what a reload changed, and a panel of
every problem in a broken settings file.

The notice sits bottom left, above the status line, for ``NOTICE_S`` seconds and then fades
out over ``FADE_S``; a new reload replaces it. The problem panel stays until the file is
fixed (the game goes on underneath, on the last good settings); it takes the middle of the
screen, on a backdrop. Both are laid out with the HUD (``asteroids.app.layout``), in the
game's vector font, so they never overlap it and never leave the playfield (long problems
wrap; what does not fit ends in an ellipsis line). No arcade, no game rule here.
"""

from __future__ import annotations

__all__ = ["FADE_S", "MAX_CHARS", "MAX_NOTICE_LINES", "MAX_PROBLEM_LINES", "NOTICE_S",
           "LivePanel"]

NOTICE_S = 6.0
"""Seconds a reload's notice stays fully visible..."""
FADE_S = 1.5
"""...then it fades out over this long."""
MAX_NOTICE_LINES = 8
"""Lines of the notice (header, changes, the next-game line); longer lists end "+N more"."""
MAX_PROBLEM_LINES = 12
"""Problems listed in the panel; more end in "+N more"."""
MAX_CHARS = 150
"""A longer notice line is cut (with "...") before it is laid out."""


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 3] + "..."


class LivePanel:
    """The reload notice and the problem panel (what they say; ``Hud.layout`` places them).

    Tests read ``notice_lines``, ``problem_lines`` and ``visible``.
    """

    def __init__(self) -> None:
        self.notice_lines: list[str] = []
        """What the notice says now (empty: no notice)."""
        self.problem_lines: list[str] = []
        """What the problem panel says now (empty: no panel)."""
        self.notice_age = 0.0
        """Seconds the notice has been up."""
        self._waiting: set[int] = set()

    @property
    def visible(self) -> bool:
        """Whether the notice is on screen (not yet faded out)."""
        return bool(self.notice_lines) and self.notice_age < NOTICE_S + FADE_S

    @property
    def alpha(self) -> float:
        """The notice's opacity now (it fades out at the end)."""
        if self.notice_age <= NOTICE_S:
            return 1.0
        return max(0.0, 1.0 - (self.notice_age - NOTICE_S) / FADE_S)

    def show_notice(self, lines: list[str], waiting: set[int] | None = None) -> None:
        """Put up a notice (the first line a header); ``waiting`` lines are drawn in the
        colour of settings that wait for the next game."""
        if len(lines) > MAX_NOTICE_LINES:
            lines = [*lines[: MAX_NOTICE_LINES - 1], f"+{len(lines) - MAX_NOTICE_LINES + 1} more"]
        self.notice_lines = [_cut(line) for line in lines]
        self._waiting = set(waiting or ())
        self.notice_age = 0.0

    def show_problems(self, lines: list[str]) -> None:
        """Put up the problem panel: a header, then one line per problem, each exactly as
        given (wrapped on screen when longer than the screen is wide)."""
        if len(lines) > MAX_PROBLEM_LINES + 1:
            rest = len(lines) - MAX_PROBLEM_LINES
            lines = [*lines[:MAX_PROBLEM_LINES], f"+{rest} more (asteroids config check FILE "
                                                 "lists them all)"]
        self.problem_lines = list(lines)

    def clear_problems(self) -> None:
        """Take the problem panel down (the file is fixed)."""
        self.problem_lines = []

    def update(self, delta_time: float) -> None:
        """Age the notice; it is gone once faded out."""
        if not self.notice_lines:
            return
        self.notice_age += max(delta_time, 0.0)
        if self.notice_age >= NOTICE_S + FADE_S:
            self.notice_lines = []

    def notice_rows(self) -> list[tuple[str, str, float]]:
        """The notice as (text, role, alpha) lines, top to bottom, for the layout."""
        if not self.visible:
            return []
        alpha = self.alpha
        return [(line, "wait" if i in self._waiting else "notice", alpha)
                for i, line in enumerate(self.notice_lines)]
