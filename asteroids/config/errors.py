"""Config problems: one record per bad key, and the exception that carries all of them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from asteroids.messages import clip, count, one_line

__all__ = ["ERROR_CODES", "MAX_SHOWN", "ConfigError", "ConfigIssue", "OVERRIDE_SOURCE"]

ERROR_CODES = (
    "syntax",
    "type",
    "range",
    "non-finite",
    "unknown-key",
    "choice",
    "length",
    "cross-field",
    "too-large",
    "unreadable",
    "unknown-preset",
)
"""The stable short codes an issue can carry (shown as ``error[code]``)."""

OVERRIDE_SOURCE = "--set"
"""The ``source`` of issues found in command-line overrides."""

_OVERRIDE_SHOWN = 80
"""A ``--set`` text longer than this is shortened in messages (it is still one line)."""

_SOURCE_SHOWN = 200
"""A file name longer than this is shortened in the middle in messages."""

MAX_SHOWN = 50
"""The most problems ``str(ConfigError)`` lists one per line; the rest are counted by code."""


@dataclass(frozen=True)
class ConfigIssue:
    """One problem in one place: printable as a single ``file:line:col: error[code]: ...`` line.

    Attributes:
        source: the file path as given, or ``"--set"`` for a command-line override.
        line: 1-based line in the file (for ``--set``: the override's 1-based index), or None.
        col: 1-based column of the key in the file, or None when unknown or for ``--set``.
        key: dotted key path, e.g. ``ship.thrust_px_per_s2``, ``asteroids.radius_px[1]``,
            ``obstacles[2].points``; empty when the problem is the whole file.
        code: one of ``ERROR_CODES``.
        message: the human sentence after ``error[code]:``.
        expected: what would have been accepted, e.g. ``a number in [0, 20000] (px/s^2)``.
        got: the value found, e.g. ``-5 (int)``; empty when there is no value.
        order: position of the source in the layering order (files first, then overrides).
        override: for ``--set``, the override text as typed; else empty.
    """

    source: str
    line: int | None
    col: int | None
    key: str
    code: str
    message: str
    expected: str = ""
    got: str = ""
    order: int = 0
    override: str = ""

    @property
    def location(self) -> str:
        """``file:line:col`` (or less when unknown); ``--set #N (text)`` for overrides."""
        if self.source == OVERRIDE_SOURCE:
            return f"{OVERRIDE_SOURCE} #{self.line} ({clip(self.override, _OVERRIDE_SHOWN)})"
        source = self.source
        if len(source) > _SOURCE_SHOWN:
            half = (_SOURCE_SHOWN - 3) // 2
            source = f"{source[:half]}...{source[-half:]}"
        parts = [source]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def sort_key(self) -> tuple[int, int, int]:
        """Order issues by source (layering order), then line, then column."""
        return (self.order, self.line or 0, self.col or 0)

    def __str__(self) -> str:
        """One line of at most ``asteroids.messages.MAX_LINE`` characters."""
        return one_line(f"{self.location}: error[{self.code}]: {self.message}")


class ConfigError(Exception):
    """The config is broken; ``errors`` lists every problem found, in source and line order.

    ``str()`` gives one line per problem (the first ``MAX_SHOWN``; the others counted by
    code) and a final summary line, ready for a terminal; no line is over
    ``asteroids.messages.MAX_LINE`` characters.
    """

    def __init__(self, errors: Iterable[ConfigIssue]) -> None:
        self.errors: list[ConfigIssue] = sorted(errors, key=ConfigIssue.sort_key)
        """Every problem found, sorted by (source order, line, column)."""
        super().__init__(self.errors)

    @property
    def summary(self) -> str:
        """The closing line: how many errors, and that the game will not start."""
        n = len(self.errors)
        return (f"{count(n)} error{'' if n == 1 else 's'}. The game will not start with a "
                "broken config.")

    def __str__(self) -> str:
        lines = [str(e) for e in self.errors[:MAX_SHOWN]]
        rest = self.errors[MAX_SHOWN:]
        if rest:
            codes = Counter(e.code for e in rest)
            by_code = ", ".join(f"{count(n)} {code}" for code, n in codes.most_common())
            lines.append(f"... and {count(len(rest))} more, not shown ({by_code})")
        return "\n".join([*lines, self.summary])
