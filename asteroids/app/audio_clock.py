"""The mixer's clock map follows envelopes, not single readings (issue 37): the earliest the
game has sent a cue against its tick, and the furthest the driver's queue has run ahead of
the wall clock, each over a moving window (``mixer.WINDOW_S``). Both are steady while the
game and the driver keep their pace, so the map, and with it every cue's lag, stays put.
"""

from __future__ import annotations

from collections import deque

__all__ = ["Envelope"]


class Envelope:
    """The lowest (or highest) value pushed within the last ``window`` samples: a
    monotonic deque, O(1) a push."""

    def __init__(self, lowest: bool) -> None:
        self._sign = 1.0 if lowest else -1.0
        self._items: deque[tuple[int, float]] = deque()

    def push(self, at: int, value: float, window: int) -> None:
        """Add ``value`` seen at sample ``at``; forget what is older than ``window``."""
        key = self._sign * value
        items = self._items
        while items and self._sign * items[-1][1] >= key:
            items.pop()
        items.append((at, value))
        while items[0][0] < at - window:
            items.popleft()

    def best(self) -> float | None:
        """The lowest (highest) value in the window; None when it is empty."""
        return self._items[0][1] if self._items else None

    def lowest(self) -> float:
        """``best`` of a window known not to be empty."""
        return self._items[0][1]

    def clear(self) -> None:
        """Forget every value."""
        self._items.clear()
