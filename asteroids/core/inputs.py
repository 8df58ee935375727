"""One tick of player input as bit flags: the small language of bots, tests and replays."""

from __future__ import annotations

from enum import IntFlag

__all__ = ["ALL_BUTTONS", "InputFrame", "as_mask"]


class InputFrame(IntFlag):
    """Buttons held during one tick. An ``int`` with the same bits works everywhere too."""

    NONE = 0
    THRUST = 1 << 0
    LEFT = 1 << 1
    RIGHT = 1 << 2
    FIRE = 1 << 3
    HYPERSPACE = 1 << 4
    SHIELD = 1 << 5


ALL_BUTTONS = int(
    InputFrame.THRUST | InputFrame.LEFT | InputFrame.RIGHT | InputFrame.FIRE
    | InputFrame.HYPERSPACE | InputFrame.SHIELD
)
"""Every defined bit; anything above is refused, so a corrupt replay cannot pass as input."""


def as_mask(inputs: InputFrame | int) -> int:
    """The plain bit mask of one tick's input.

    Raises:
        ValueError: if the value is not an int or has bits outside ``ALL_BUTTONS``.
    """
    if isinstance(inputs, bool) or not isinstance(inputs, int):
        raise ValueError(f"input must be an int bit mask or InputFrame, got {inputs!r}")
    mask = int(inputs)
    if mask < 0 or mask & ~ALL_BUTTONS:
        raise ValueError(f"input mask {mask:#x} has bits outside {ALL_BUTTONS:#x}")
    return mask
