"""What happened during one tick, as plain values for the shell's sound, HUD and particles.

The shell reacts to these and never needs to know a rule: a split asteroid says its size and
place, a heartbeat says its tone and tempo.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AsteroidDestroyed",
    "CraftDestroyed",
    "CraftLeft",
    "CraftSpawned",
    "Event",
    "ExtraLife",
    "GameOver",
    "Heartbeat",
    "HyperspaceEntered",
    "HyperspaceExited",
    "SaucerDestroyed",
    "SaucerLeft",
    "SaucerSpawned",
    "ShieldChanged",
    "ShipDestroyed",
    "ShipSpawned",
    "ShotFired",
    "ThrustChanged",
    "WaveCleared",
    "WaveStarted",
]

SHOOTER_SHIP = "ship"
SHOOTER_SAUCER = "saucer"


@dataclass(frozen=True, slots=True)
class ShotFired:
    """A shot left the ship or a saucer (``shooter`` is "ship" or "saucer")."""

    shooter: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class AsteroidDestroyed:
    """An asteroid broke. ``size`` 0 = large, 1 = medium, 2 = small; ``children`` fragments.

    ``by`` says what broke it: "ship-shot", "saucer-shot", "ship" (rammed) or "saucer".
    ``points`` is what the player scored for it (0 when a saucer broke it).
    """

    size: int
    x: float
    y: float
    children: int
    by: str
    points: int


@dataclass(frozen=True, slots=True)
class ShipDestroyed:
    """The ship exploded; ``cause`` is "asteroid", "saucer", "saucer-shot" or "hyperspace"."""

    x: float
    y: float
    cause: str
    lives_left: int


@dataclass(frozen=True, slots=True)
class ShipSpawned:
    """A new ship appeared at the centre (the area was clear)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class HyperspaceEntered:
    """The ship vanished into hyperspace."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class HyperspaceExited:
    """The ship came back; if ``survived`` is false a ShipDestroyed follows."""

    x: float
    y: float
    survived: bool


@dataclass(frozen=True, slots=True)
class SaucerSpawned:
    """A saucer entered; ``small`` tells the siren to play."""

    small: bool
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class SaucerDestroyed:
    """A saucer exploded; ``by`` is "ship-shot", "ship" or "asteroid"."""

    small: bool
    x: float
    y: float
    by: str
    points: int


@dataclass(frozen=True, slots=True)
class SaucerLeft:
    """A saucer finished its crossing and left."""

    small: bool


@dataclass(frozen=True, slots=True)
class ExtraLife:
    """``count`` bonus ships were awarded this tick (more than one when a single tick's
    points pass several thresholds); ``lives`` is the count after them."""

    lives: int
    count: int = 1


@dataclass(frozen=True, slots=True)
class WaveStarted:
    """A new wave of ``asteroids`` large rocks appeared."""

    wave: int
    asteroids: int


@dataclass(frozen=True, slots=True)
class WaveCleared:
    """The last asteroid of a wave was destroyed."""

    wave: int


@dataclass(frozen=True, slots=True)
class ThrustChanged:
    """The engine started or stopped (for the thrust sound and flame)."""

    on: bool


@dataclass(frozen=True, slots=True)
class ShieldChanged:
    """The shield went up or down; ``energy`` is the fraction left in [0, 1]."""

    on: bool
    energy: float


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """One beat of the two-tone thump; ``interval_ticks`` until the next."""

    tone: int
    interval_ticks: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The last ship is gone."""

    score: int


@dataclass(frozen=True, slots=True)
class CraftSpawned:
    """A craft of a kind declared in ``asteroids.core.bodies.ENEMIES`` came into play;
    ``kind`` is its name ("mine")."""

    kind: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class CraftDestroyed:
    """A craft of a declared kind (``kind``, its name) was destroyed; ``by`` is what claimed
    it, as ``ShipDestroyed.cause`` says it, and ``points`` what the player scored."""

    kind: str
    x: float
    y: float
    by: str
    points: int


@dataclass(frozen=True, slots=True)
class CraftLeft:
    """A craft of a declared kind (``kind``, its name) left play without being destroyed."""

    kind: str


Event = (
    ShotFired | AsteroidDestroyed | ShipDestroyed | ShipSpawned | HyperspaceEntered
    | HyperspaceExited | SaucerSpawned | SaucerDestroyed | SaucerLeft | ExtraLife
    | WaveStarted | WaveCleared | ThrustChanged | ShieldChanged | Heartbeat | GameOver
    | CraftSpawned | CraftDestroyed | CraftLeft
)
"""Any event a step can return."""
