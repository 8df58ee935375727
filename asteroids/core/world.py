"""The whole game as one immutable value: struct-of-arrays for the many, scalars for the few.

Every array in a World is read-only, so a rule that tried to change the old state in place
would fail loudly instead of corrupting a replay. ``step`` builds the next World from a
mutable ``Draft`` copy.

Rows of every array are kept in id order (new objects are appended, removals keep order),
so the order itself is deterministic and part of the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

import numpy as np

from asteroids.core.kinds import ShipState, Shooter
from asteroids.core.params import Params

__all__ = [
    "Draft",
    "FIELD_NAMES",
    "NEUTRAL",
    "SHIP_DEAD",
    "SHIP_FLYING",
    "SHIP_HYPERSPACE",
    "SHOOTER_SAUCER",
    "SHOOTER_SHIP",
    "World",
    "empty_f64",
    "empty_i64",
]

SHIP_FLYING = ShipState.FLYING
SHIP_DEAD = ShipState.DEAD
SHIP_HYPERSPACE = ShipState.HYPERSPACE
SHOOTER_SHIP = Shooter.SHIP
SHOOTER_SAUCER = Shooter.SAUCER


def empty_f64(*shape: int) -> np.ndarray:
    """A read-only empty float64 array of the given trailing shape."""
    a = np.zeros((0, *shape), dtype=np.float64)
    a.flags.writeable = False
    return a


def empty_i64() -> np.ndarray:
    """A read-only empty int64 array."""
    a = np.zeros(0, dtype=np.int64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class World:
    """One tick of the game. Lengths in px, velocities in px per tick, times in ticks.

    Compare worlds with ``state_hash``, not ``==``.
    """

    tick: int
    """Ticks since the game began."""
    rng_state: int
    """PCG32 state (64-bit); with ``rng_inc`` the only source of chance."""
    rng_inc: int
    next_id: int
    """Id for the next object created; ids only grow."""

    # Asteroids: N rows; outlines packed, body i owns ast_local[ast_offsets[i]:ast_offsets[i+1]].
    ast_id: np.ndarray
    """(N,) int64 ids."""
    ast_size: np.ndarray
    """(N,) int64: 0 large, 1 medium, 2 small."""
    ast_pos: np.ndarray
    """(N, 2) centres."""
    ast_vel: np.ndarray
    """(N, 2) px per tick."""
    ast_angle: np.ndarray
    """(N,) int64 rotation in heading steps."""
    ast_spin: np.ndarray
    """(N,) int64 heading steps per tick."""
    ast_radius: np.ndarray
    """(N,) bounding radius: the farthest outline point from the centre."""
    ast_local: np.ndarray
    """(V, 2) outline points relative to the centre, unrotated."""
    ast_offsets: np.ndarray
    """(N + 1,) int64 start of each asteroid's points in ``ast_local``."""

    # Shots: K rows, the ship's and the saucers'.
    shot_id: np.ndarray
    shot_owner: np.ndarray
    """(K,) int64: SHOOTER_SHIP or SHOOTER_SAUCER."""
    shot_pos: np.ndarray
    """(K, 2) head of each shot."""
    shot_vel: np.ndarray
    """(K, 2) px per tick."""
    shot_ttl: np.ndarray
    """(K,) int64 ticks left to fly."""

    # The ship.
    ship_state: int
    """SHIP_FLYING, SHIP_DEAD or SHIP_HYPERSPACE."""
    ship_x: float
    ship_y: float
    ship_vx: float
    ship_vy: float
    ship_heading: int
    """Heading steps; 0 points along +x."""
    ship_timer: int
    """Ticks to respawn (dead) or to re-entry (hyperspace)."""
    ship_doomed: bool
    """Set on entering hyperspace when the jump will fail."""
    thrusting: bool
    shield_on: bool
    shield_energy: int
    """Ticks of shield left."""
    fire_held: bool
    """Fire was held last tick (one shot per press)."""
    hyper_held: bool
    autofire_timer: int

    # The saucer (one at a time, as in 1979).
    saucer_alive: bool
    saucer_small: bool
    saucer_x: float
    saucer_y: float
    saucer_vx: float
    saucer_vy: float
    saucer_ticks_left: int
    """Ticks until it has crossed the screen and leaves."""
    saucer_fire_timer: int
    saucer_zig_timer: int

    # Game flow.
    score: int
    lives: int
    """Ships left, counting the one in play."""
    next_extra_life: int
    """Score at which the next bonus ship comes (0 = never)."""
    wave: int
    wave_timer: int
    """Ticks until the next wave; -1 while a wave is being played."""
    wave_weight: int
    """Hits needed to clear the wave as it started (large = 7): the heartbeat's yardstick."""
    saucer_timer: int
    saucer_interval: int
    saucers_this_game: int
    """Saucers that came so far this game (the first ``always_large_count`` are large)."""
    since_break: int
    """Ticks since the player last broke an asteroid (anti-lurking)."""
    beat_timer: int
    beat_interval: int
    beat_quicken_timer: int
    beat_tone: int
    game_over: bool
    ship_grace: int = 0
    """Ticks left in which rocks, saucers and saucer shots pass through the ship
    (``ship.grace_s``, from a new game and each return; new in 0.2.0, so in ``NEUTRAL``)."""
    params: Params | None = field(default=None, repr=False, compare=False)
    """Not part of the state: the compiled rules this World was made or last stepped under
    (never hashed, recorded or compared; not in ``FIELD_NAMES``), so that ``step`` given the
    same Config again does not compile it again. None for a World built by hand."""

    def __post_init__(self) -> None:
        for name in _ARRAY_FIELDS:
            getattr(self, name).flags.writeable = False

    @property
    def asteroid_count(self) -> int:
        """Live asteroids."""
        return int(self.ast_id.shape[0])

    @property
    def ship_pos(self) -> tuple[float, float]:
        """The ship's centre."""
        return (self.ship_x, self.ship_y)

    @property
    def ship_visible(self) -> bool:
        """Whether the ship is in play (not exploded, not in hyperspace)."""
        return self.ship_state == SHIP_FLYING and not self.game_over


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(World) if f.name != "params")
"""The fields that make the game's state, in declaration order: what ``state_hash`` hashes,
a replay's checkpoints digest and ``Draft`` copies."""

NEUTRAL: Mapping[str, Any] = MappingProxyType({"ship_grace": 0})
"""World fields added after the first release, each with its neutral value: what it holds
in every game whose rules do not use it (the field's default). ``state_hash`` leaves such a
field out while it holds that value (an array: while every element does), so the games of
older versions, which never had the field, hash exactly as they did. docs/adding-a-rule.md."""
_ARRAY_FIELDS = tuple(n for n in FIELD_NAMES if n.startswith(("ast_", "shot_")))

_N_FIELDS = len(FIELD_NAMES)
_set_field = object.__setattr__
_new_object = object.__new__


class Draft:
    """A mutable copy of a World's fields while one step computes the next.

    Arrays are shared with the old World, which keeps them read-only: rules replace arrays
    (``d.ast_pos = d.ast_pos + d.ast_vel``) and never write into them.

    Copying in and out is on every tick's path, so both are single C-level passes over the
    fields instead of a ``getattr``/``setattr`` per field.
    """

    # Every World field, readable and writable (the same names and types as ``World``'s, in
    # the same order; tests/core/test_world.py keeps the two lists equal).
    tick: int
    rng_state: int
    rng_inc: int
    next_id: int
    ast_id: np.ndarray
    ast_size: np.ndarray
    ast_pos: np.ndarray
    ast_vel: np.ndarray
    ast_angle: np.ndarray
    ast_spin: np.ndarray
    ast_radius: np.ndarray
    ast_local: np.ndarray
    ast_offsets: np.ndarray
    shot_id: np.ndarray
    shot_owner: np.ndarray
    shot_pos: np.ndarray
    shot_vel: np.ndarray
    shot_ttl: np.ndarray
    ship_state: int
    ship_x: float
    ship_y: float
    ship_vx: float
    ship_vy: float
    ship_heading: int
    ship_timer: int
    ship_doomed: bool
    thrusting: bool
    shield_on: bool
    shield_energy: int
    fire_held: bool
    hyper_held: bool
    autofire_timer: int
    saucer_alive: bool
    saucer_small: bool
    saucer_x: float
    saucer_y: float
    saucer_vx: float
    saucer_vy: float
    saucer_ticks_left: int
    saucer_fire_timer: int
    saucer_zig_timer: int
    score: int
    lives: int
    next_extra_life: int
    wave: int
    wave_timer: int
    wave_weight: int
    saucer_timer: int
    saucer_interval: int
    saucers_this_game: int
    since_break: int
    beat_timer: int
    beat_interval: int
    beat_quicken_timer: int
    beat_tone: int
    game_over: bool
    ship_grace: int

    def __init__(self, world: World) -> None:
        fields_ = self.__dict__
        fields_.update(world.__dict__)
        # The old World's arrays, already read-only.
        self._shared = tuple(map(fields_.__getitem__, _ARRAY_FIELDS))
        self._params = fields_.pop("params")

    def freeze(self, params: Params | None = None) -> World:
        """The new World, carrying ``params`` (by default the old World's).

        Equivalent to ``World(**fields, params=...)``: arrays the step replaced are made
        read-only (those still shared with the old World already are), and the fields are
        stored as one dict copy instead of through the dataclass ``__init__`` (a frozen
        dataclass pays an ``object.__setattr__`` per field there).
        """
        fields_ = self.__dict__
        for new, old in zip(map(fields_.__getitem__, _ARRAY_FIELDS), self._shared, strict=True):
            if new is not old:
                new.setflags(write=False)
        state = fields_.copy()
        del state["_shared"]
        held = state.pop("_params")
        state["params"] = held if params is None else params
        world = _new_object(World)
        _set_field(world, "__dict__", state)
        return world
