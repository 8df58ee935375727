"""Fixed-tick timing and input latching for the shell: pure Python, no arcade.

The window delivers frames of varying length; the core wants whole ticks of a fixed length,
each with exactly one input mask. ``FixedStepper`` turns frame times into tick counts with an
integer-nanosecond accumulator (no float drift), and ``InputLatch`` turns key events into one
mask per tick so that a tap shorter than a tick is still seen by the core exactly once.
"""

from __future__ import annotations

__all__ = ["MAX_FRAME_NS", "MAX_STEPS", "FixedStepper", "InputLatch"]

MAX_FRAME_NS = 250_000_000
"""Longest frame counted, in ns: a longer stall (debugger, window drag) is cut to 0.25 s."""

MAX_STEPS = 5
"""Most ticks run in one frame; any backlog beyond that is dropped, not replayed later."""


class FixedStepper:
    """Accumulates real frame time and says how many fixed ticks to run.

    Args:
        tick_hz: simulation ticks per second (60, or 62.5 for the classic machine).

    Raises:
        ValueError: if ``tick_hz`` is not positive.
    """

    def __init__(self, tick_hz: float) -> None:
        if not tick_hz > 0:
            raise ValueError(f"tick_hz must be positive, got {tick_hz!r}")
        self.tick_ns: int = round(1e9 / tick_hz)
        """Length of one tick in integer nanoseconds."""
        self.acc_ns: int = 0
        """Time owed to the simulation, always in ``[0, tick_ns)`` after ``frame``."""
        self.dropped_ns: int = 0
        """Total time dropped by the frame clamp and the step cap (for diagnostics)."""

    def frame(self, frame_dt: float) -> int:
        """Add one frame of real time; return how many ticks to run now.

        Args:
            frame_dt: the frame's length in seconds; negatives count as 0.

        Returns:
            Ticks to run, in ``[0, MAX_STEPS]``.
        """
        ns = max(round(frame_dt * 1e9), 0)
        if ns > MAX_FRAME_NS:
            self.dropped_ns += ns - MAX_FRAME_NS
            ns = MAX_FRAME_NS
        self.acc_ns += ns
        n = min(self.acc_ns // self.tick_ns, MAX_STEPS)
        self.acc_ns -= n * self.tick_ns
        if self.acc_ns >= self.tick_ns:
            # Drop the backlog but keep the phase, so interpolation stays smooth.
            kept = self.acc_ns % self.tick_ns
            self.dropped_ns += self.acc_ns - kept
            self.acc_ns = kept
        return n

    def reset(self) -> None:
        """Forget owed time (after a pause, so the game does not jump forward)."""
        self.acc_ns = 0

    @property
    def alpha(self) -> float:
        """How far real time is between the last tick and the next, in ``[0, 1)``."""
        return min(self.acc_ns / self.tick_ns, 0.999999)


class InputLatch:
    """Held bits plus bits pressed since the last tick; one mask per tick.

    A key pressed and released between two ticks still shows as held for one tick, so the
    core (which fires on the press edge) sees every tap exactly once.
    """

    def __init__(self) -> None:
        self.held: int = 0
        """Bits whose keys are down now."""
        self.pressed: int = 0
        """Bits pressed since the last ``take``."""

    def press(self, bits: int) -> None:
        """Some bits went down."""
        self.held |= bits
        self.pressed |= bits

    def release(self, bits: int) -> None:
        """Some bits went up (a tap already latched in ``pressed`` is kept)."""
        self.held &= ~bits

    def set_held(self, bits: int) -> None:
        """Make exactly ``bits`` held, pressing the new ones (for polled devices)."""
        self.press(bits & ~self.held)
        self.held = bits

    def take(self) -> int:
        """The mask for the next tick; clears the pressed bits."""
        mask = self.held | self.pressed
        self.pressed = 0
        return mask

    def clear(self) -> None:
        """Release everything (on focus loss, or when a new game starts)."""
        self.held = 0
        self.pressed = 0
