"""How a knob is declared: ``knob()``, and what a rule knob declares besides its type and
range: when a change of it can take effect in a game in progress (``Timing``), how the core
converts it to per-tick numbers (``Convert``), and its history (the game version it arrived
in and its value before then).

``asteroids/config/rule_tables.py`` gives every rule knob these next to its default, so
adding a rule setting is one declaration: the live-reload table (``KNOB_TIMING``), the core's
per-tick numbers (``asteroids.core.params``) and ``config/default.toml`` all follow from it,
and a replay recorded before the knob existed is played with its ``before`` value. No imports
from the rest of the game: the schema's tables import this module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AS_IS",
    "BORDER",
    "CAP",
    "FIRST_VERSION",
    "LIVE",
    "NEW_ONES",
    "NEXT_GAME",
    "PER_TICK",
    "PER_TICK2",
    "PLAYER",
    "SHAPES",
    "STEP",
    "TIMER",
    "TURN_STEPS",
    "ANGLE_STEPS",
    "WORLD_LAYOUT",
    "Convert",
    "Timing",
    "knob",
    "ticks",
    "version_key",
]

FIRST_VERSION = "0.1.0"
"""The first released version of the game: every knob it had is declared ``since`` it."""

LIVE = "live"
"""A change that applies from the next tick of a game in progress."""
NEXT_GAME = "next game"
"""A change that needs a new World: it applies to the next game (``asteroids play --live``)."""


@dataclass(frozen=True)
class Timing:
    """When a changed setting can take effect in a game in progress, and why.

    Attributes:
        when: ``LIVE`` or ``NEXT_GAME``.
        why: the reason, for the docs and the notice.
        next_game_if: for a ``LIVE`` knob, the changes ``(old, new)`` that still need a new
            World (a cap lowered under what the World may hold); None: always live.
    """

    when: str
    why: str
    next_game_if: Callable[[Any, Any], bool] | None = None

    def of(self, old: Any, new: Any) -> str:
        """``LIVE`` or ``NEXT_GAME`` for the change from ``old`` to ``new``."""
        if self.when == LIVE and self.next_game_if is not None and self.next_game_if(old, new):
            return NEXT_GAME
        return self.when


def _lowered(old: Any, new: Any) -> bool:
    return bool(new < old)


STEP = Timing(LIVE, "read by every tick's rules")
NEW_ONES = Timing(LIVE, "given to what is made from now on (shots, rocks, saucers); what is "
                  "already flying keeps its values")
TIMER = Timing(LIVE, "a timer already running keeps its count; the next one uses the new time")
BORDER = Timing(LIVE, "bodies beyond the new border are folded back in on the next tick")
CAP = Timing(LIVE, "raised: at once; lowered: the World may already hold more than the new "
             "cap, so it waits for the next game", _lowered)
SHAPES = Timing(NEXT_GAME, "rock shapes: the rocks on screen were made with the old outlines, "
                "and a wave would mix two kinds of rock")
WORLD_LAYOUT = Timing(NEXT_GAME, "the World's positions, speeds and timers are laid out for it")
PLAYER = Timing(LIVE, "not a rule: the window applies it at once")


@dataclass(frozen=True)
class Convert:
    """How the core turns a knob's value into the per-tick number its rules read.

    Attributes:
        kind: ``as is`` (the value itself: counts, flags, lengths in px, choices),
            ``ticks`` (seconds to a whole number of ticks, ``round(s * hz)``), ``per tick``
            (a rate per second to per tick, ``v / hz``), ``per tick^2`` (an acceleration,
            ``v / hz / hz``), ``turn steps`` (deg/s to whole heading steps per tick) or
            ``angle steps`` (degrees to whole heading steps).
        at_least: for ``ticks``, the fewest ticks the result may be (a lifetime of 0 ticks
            would mean never alive).
    """

    kind: str
    at_least: int = 0


AS_IS = Convert("as is")
PER_TICK = Convert("per tick")
PER_TICK2 = Convert("per tick^2")
TURN_STEPS = Convert("turn steps")
ANGLE_STEPS = Convert("angle steps")


def ticks(at_least: int = 0) -> Convert:
    """Seconds to whole ticks, never fewer than ``at_least``."""
    return Convert("ticks", at_least)


def version_key(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` as ``(0, 10, 2)``, for ordering release versions (a pre-release or
    local suffix after ``-`` or ``+`` is ignored).

    Raises:
        ValueError: when the text does not start with dotted whole numbers.
    """
    core = version.split("+", 1)[0].split("-", 1)[0]
    parts = core.split(".")
    if not parts or not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise ValueError(f"not a release version: {version!r}")
    return tuple(int(p) for p in parts)


_NO_BEFORE: Any = object()
"""``before`` left out: the knob was in the first release, so every file has it."""


def knob(
    default: Any,
    doc: str,
    *,
    unit: str = "",
    lo: float | None = None,
    hi: float | None = None,
    lo_open: bool = False,
    choices: tuple[str, ...] | None = None,
    length: int | None = None,
    timing: Timing | None = None,
    tick: Convert | None = None,
    since: str = FIRST_VERSION,
    before: Any = _NO_BEFORE,
) -> Any:
    """Declare one tunable: its default, what it does, its unit and its allowed values; for a
    rule, also when a change takes effect in a running game, how the core converts it to
    per-tick numbers, and its history.

    Args:
        default: the built-in value (tuples for fixed-length lists).
        doc: one line for ``default.toml`` and for error messages.
        unit: the unit, e.g. ``"px/s"``; empty for plain counts and flags.
        lo: smallest allowed value (inclusive unless ``lo_open``).
        hi: largest allowed value (inclusive).
        lo_open: whether ``lo`` itself is excluded (e.g. a lifetime must be > 0).
        choices: the allowed strings, for enumerations.
        length: the required length, for fixed-length lists.
        timing: for a rule knob (required there), when a change of it applies during a game
            (``asteroids play --live``); ``KNOB_TIMING`` is built from these.
        tick: for a rule knob (required there), how ``asteroids.core.params`` converts it
            to the per-tick number the rules read.
        since: the game version the knob arrived in.
        before: for a knob added after the first release (required there), the value that
            plays exactly as the game did before it existed: a replay or a ruleset recorded
            by an older version, which lacks the knob, is played with this value.
    """
    meta = {
        "doc": doc,
        "unit": unit,
        "lo": lo,
        "hi": hi,
        "lo_open": lo_open,
        "choices": choices,
        "length": length,
        "timing": timing,
        "tick": tick,
        "since": since,
    }
    if before is not _NO_BEFORE:
        meta["before"] = tuple(before) if isinstance(before, list) else before
    if isinstance(default, (list, tuple)):
        value = tuple(default)
        return field(default_factory=lambda: value, metadata=meta)
    return field(default=default, metadata=meta)
