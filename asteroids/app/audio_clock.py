"""How the mixer maps the game's clock to its sample clock (issue 37; ``Mixer.schedule``).

A cue of game time ``t`` starts at sample ``floor(t * rate + 0.5) + round(offset)``. The
offset is the sum of two envelopes over the last ``mixer.WINDOW_S`` and the room
``latency_s``:

- the earliest any cue was sent against its tick time, ``rate * (sent - t)``: the game's
  frames only ever add lateness to that (a window runs a tick's step at the next frame);
- with a ``clock``, the furthest the samples rendered ran ahead of the wall clock just after
  a block: the driver's queue at its fullest (the stream's first block, queued before
  anything plays, is left out).

Both are steady while the game and the driver keep their pace, so the map, and with it every
cue's lag, stays put; the room covers a cue sent up to a frame late. 0.2's map followed each
cue's own "now" (the sample clock extrapolated from the last block's start), which jittered
by ~25 ms with pyglet's 20 ms refill polling: the 7-9 ms spread of cue lag it measured.
``Envelope`` keeps one of them.
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
