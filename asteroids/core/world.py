"""The whole game as one immutable value: struct-of-arrays for the many, scalars for the few.

Every array in a World is read-only, so a rule that tried to change the old state in place
would fail loudly instead of corrupting a replay. ``step`` builds the next World from a
mutable ``Draft`` copy.

Rows of every array are kept in id order (new objects are appended, removals keep order),
so the order itself is deterministic and part of the state.

``World``'s body is the one table of the game's state: each field is declared there once, on
one line, with how it is held (``per_game``: one number per game; ``rows``: one row per
rock, shot or outline point, with the dtype and trailing shape) and what a new game starts
with. Everything else that lists the fields is read from that table (``FIELDS``): ``Draft``
and its ``freeze``, ``starting_world`` (so ``new_world``), ``NEUTRAL`` and the hashes, and a
Batch's columns, their dtypes and their packing (``asteroids.core.batch``,
``batch_rows.ROW_KINDS``). tests/core/test_world.py adds a field to a scratch copy by that
one line and follows it through all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, get_type_hints

import numpy as np

from asteroids.core.kinds import ShipState, Shooter
from asteroids.core.params import Params
from asteroids.core.tables import HEADING_STEPS

__all__ = [
    "FIELDS",
    "FIELD_NAMES",
    "NEUTRAL",
    "ROW_LAYOUTS",
    "SEEDED",
    "SHIP_DEAD",
    "SHIP_FLYING",
    "SHIP_HYPERSPACE",
    "SHOOTER_SAUCER",
    "SHOOTER_SHIP",
    "START_HEADING",
    "Draft",
    "FieldSpec",
    "World",
    "empty_f64",
    "empty_i64",
    "per_game",
    "rows",
    "starting_world",
]

SHIP_FLYING = ShipState.FLYING
SHIP_DEAD = ShipState.DEAD
SHIP_HYPERSPACE = ShipState.HYPERSPACE
SHOOTER_SHIP = Shooter.SHIP
SHOOTER_SAUCER = Shooter.SAUCER

START_HEADING = HEADING_STEPS // 4
"""A new ship points up the screen (+y)."""


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


class _From(Enum):
    SEEDED = "the seed"


SEEDED: Any = _From.SEEDED
"""A field's new-game value that ``new_world`` takes from the seed (the PCG32 pair)."""
_SPEC = "asteroids.world"
"""The dataclass metadata key under which ``per_game`` and ``rows`` leave a declaration."""
ROW_LAYOUTS = ("ast", "shot", "points", "offsets")
"""The ``rows`` kinds: a row per rock or per shot, outline points (owned through
``ast_offsets``) and the (N + 1,) start of each rock's points."""


def per_game(new: Any, *, dtype: Any = None, neutral: Any = None) -> Any:
    """Declare a World field that holds one number per game (a ``(B,)`` column in a Batch).

    Args:
        new: what a new game starts with: the value, ``SEEDED``, or a function of the game's
            ``Params`` (``lambda p: p.game_lives``).
        dtype: the Batch column's dtype; default from the annotation (bool, int64, float64).
        neutral: for a field added after the first release, the value it holds in every game
            whose rules do not use it (the dataclass default; ``NEUTRAL``); None for a field
            of the first release.
    """
    spec = {"rows": None, "shape": (), "new": new, "dtype": dtype, "neutral": neutral}
    if neutral is None:
        return field(metadata={_SPEC: spec})
    return field(default=neutral, metadata={_SPEC: spec})


def rows(kind: str, dtype: Any, *shape: int, neutral: Any = None) -> Any:
    """Declare a World field of rows (packed game after game in a Batch): ``kind`` one of
    ``ROW_LAYOUTS``, each row of ``dtype`` and trailing ``shape``. A new game has none
    (``offsets``: the single 0). ``neutral``: for rows added after the first release, the
    element value that leaves them out of the hash while every element has it (no rows:
    always); the dataclass default is then no rows."""
    if kind not in ROW_LAYOUTS:
        raise ValueError(f"rows of an unknown kind {kind!r}")
    spec = {"rows": kind, "shape": shape, "new": None, "dtype": dtype, "neutral": neutral}
    if neutral is None:
        return field(metadata={_SPEC: spec})
    return field(default_factory=lambda: _no_rows(dtype, shape), metadata={_SPEC: spec})


def _no_rows(dtype: Any, shape: tuple[int, ...]) -> np.ndarray:
    a = np.zeros((0, *shape), dtype=dtype)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class World:
    """One tick of the game. Lengths in px, velocities in px per tick, times in ticks.

    Compare worlds with ``state_hash``, not ``==``. Each field is declared once, here
    (``per_game`` or ``rows``, and what a new game starts with): see the module's docstring.
    """

    tick: int = per_game(0)
    """Ticks since the game began."""
    rng_state: int = per_game(SEEDED, dtype=np.uint64)
    """PCG32 state (64-bit); with ``rng_inc`` the only source of chance."""
    rng_inc: int = per_game(SEEDED, dtype=np.uint64)
    next_id: int = per_game(1)
    """Id for the next object created; ids only grow."""

    # Asteroids: N rows; outlines packed, body i owns ast_local[ast_offsets[i]:ast_offsets[i+1]].
    ast_id: np.ndarray = rows("ast", np.int64)
    """(N,) int64 ids."""
    ast_size: np.ndarray = rows("ast", np.int64)
    """(N,) int64: 0 large, 1 medium, 2 small."""
    ast_pos: np.ndarray = rows("ast", np.float64, 2)
    """(N, 2) centres."""
    ast_vel: np.ndarray = rows("ast", np.float64, 2)
    """(N, 2) px per tick."""
    ast_angle: np.ndarray = rows("ast", np.int64)
    """(N,) int64 rotation in heading steps."""
    ast_spin: np.ndarray = rows("ast", np.int64)
    """(N,) int64 heading steps per tick."""
    ast_radius: np.ndarray = rows("ast", np.float64)
    """(N,) bounding radius: the farthest outline point from the centre."""
    ast_local: np.ndarray = rows("points", np.float64, 2)
    """(V, 2) outline points relative to the centre, unrotated."""
    ast_offsets: np.ndarray = rows("offsets", np.int64)
    """(N + 1,) int64 start of each asteroid's points in ``ast_local``."""

    # Shots: K rows, the ship's and the saucers'.
    shot_id: np.ndarray = rows("shot", np.int64)
    shot_owner: np.ndarray = rows("shot", np.int64)
    """(K,) int64: SHOOTER_SHIP or SHOOTER_SAUCER."""
    shot_pos: np.ndarray = rows("shot", np.float64, 2)
    """(K, 2) head of each shot."""
    shot_vel: np.ndarray = rows("shot", np.float64, 2)
    """(K, 2) px per tick."""
    shot_ttl: np.ndarray = rows("shot", np.int64)
    """(K,) int64 ticks left to fly."""

    # The ship.
    ship_state: ShipState = per_game(ShipState.FLYING)
    """SHIP_FLYING, SHIP_DEAD or SHIP_HYPERSPACE."""
    ship_x: float = per_game(lambda p: 0.5 * p.width)
    ship_y: float = per_game(lambda p: 0.5 * p.height)
    ship_vx: float = per_game(0.0)
    ship_vy: float = per_game(0.0)
    ship_heading: int = per_game(START_HEADING)
    """Heading steps; 0 points along +x."""
    ship_timer: int = per_game(0)
    """Ticks to respawn (dead) or to re-entry (hyperspace)."""
    ship_doomed: bool = per_game(False)
    """Set on entering hyperspace when the jump will fail."""
    thrusting: bool = per_game(False)
    shield_on: bool = per_game(False)
    shield_energy: int = per_game(lambda p: p.ship_shield_energy_ticks)
    """Ticks of shield left."""
    fire_held: bool = per_game(False)
    """Fire was held last tick (one shot per press)."""
    hyper_held: bool = per_game(False)
    autofire_timer: int = per_game(0)

    # The saucer (one at a time, as in 1979).
    saucer_alive: bool = per_game(False)
    saucer_small: bool = per_game(False)
    saucer_x: float = per_game(0.0)
    saucer_y: float = per_game(0.0)
    saucer_vx: float = per_game(0.0)
    saucer_vy: float = per_game(0.0)
    saucer_ticks_left: int = per_game(0)
    """Ticks until it has crossed the screen and leaves."""
    saucer_fire_timer: int = per_game(0)
    saucer_zig_timer: int = per_game(0)

    # Game flow.
    score: int = per_game(0)
    lives: int = per_game(lambda p: p.game_lives)
    """Ships left, counting the one in play."""
    next_extra_life: int = per_game(lambda p: p.scoring_extra_life_every)
    """Score at which the next bonus ship comes (0 = never)."""
    wave: int = per_game(0)
    wave_timer: int = per_game(0)
    """Ticks until the next wave; -1 while a wave is being played."""
    wave_weight: int = per_game(1)
    """Hits needed to clear the wave as it started (large = 7): the heartbeat's yardstick."""
    saucer_timer: int = per_game(lambda p: p.saucers_first_interval_ticks)
    saucer_interval: int = per_game(lambda p: p.saucers_first_interval_ticks)
    saucers_this_game: int = per_game(0)
    """Saucers that came so far this game (the first ``always_large_count`` are large)."""
    since_break: int = per_game(0)
    """Ticks since the player last broke an asteroid (anti-lurking)."""
    beat_timer: int = per_game(lambda p: p.game_heartbeat_start_interval_ticks)
    beat_interval: int = per_game(lambda p: p.game_heartbeat_start_interval_ticks)
    beat_quicken_timer: int = per_game(lambda p: p.game_heartbeat_quicken_every_ticks)
    beat_tone: int = per_game(0)
    game_over: bool = per_game(False)
    ship_grace: int = per_game(lambda p: p.per_tick["ship.grace_s"], neutral=0)
    """Ticks left in which rocks, saucers and saucer shots pass through the ship
    (``ship.grace_s``, from a new game and each return; new in 0.2.0, so neutral 0)."""

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


@dataclass(frozen=True)
class FieldSpec:
    """One World field as ``World``'s body declares it (``per_game`` or ``rows``)."""

    name: str
    kind: type
    """The Python type of a per-game value (``int``, ``float``, ``bool``, ``ShipState``), or
    ``np.ndarray`` for rows."""
    dtype: np.dtype
    """The dtype of the field's Batch column (a per-game value) or of its rows."""
    rows: str | None
    """None for one value per game, else the kind of rows (``ROW_LAYOUTS``)."""
    shape: tuple[int, ...]
    """The trailing shape of one row (``(2,)`` for a position); ``()`` for a per-game value."""
    new: Any
    """A new game's value: a constant, ``SEEDED``, or a function of the game's Params (rows:
    None, for none)."""
    neutral: Any
    """The neutral value of a field added after the first release (``NEUTRAL``); None for
    a field of the first release."""

    def start(self, params: Params) -> Any:
        """This field's value in a new game under ``params`` (not for ``SEEDED`` fields)."""
        if self.rows == "offsets":
            a = np.zeros(1, dtype=self.dtype)
            a.flags.writeable = False
            return a
        if self.rows is not None:
            return _no_rows(self.dtype, self.shape)
        new = self.new
        return new(params) if callable(new) else new


def _spec(name: str, kind: Any, declared: Mapping[str, Any]) -> FieldSpec:
    dtype = declared["dtype"]
    if dtype is None:
        dtype = (np.bool_ if kind is bool else np.int64 if issubclass(kind, int)
                 else np.float64)
    return FieldSpec(name=name, kind=kind, dtype=np.dtype(dtype), rows=declared["rows"],
                     shape=declared["shape"], new=declared["new"], neutral=declared["neutral"])


FIELDS: tuple[FieldSpec, ...] = tuple(
    _spec(f.name, kind, f.metadata[_SPEC])
    for f, kind in zip(fields(World), get_type_hints(World).values(), strict=True)
    if _SPEC in f.metadata)
"""The table: every field that makes the game's state, in declaration order."""

FIELD_NAMES: tuple[str, ...] = tuple(s.name for s in FIELDS)
"""The fields that make the game's state, in declaration order: what ``state_hash`` hashes,
a replay's checkpoints digest and ``Draft`` copies."""

NEUTRAL: Mapping[str, Any] = MappingProxyType(
    {s.name: s.neutral for s in FIELDS if s.neutral is not None})
"""World fields added after the first release, each with its neutral value: what it holds
in every game whose rules do not use it (the field's default). ``state_hash`` leaves such a
field out while it holds that value (an array: while every element does), so the games of
older versions, which never had the field, hash exactly as they did. docs/adding-a-rule.md."""
_ARRAY_FIELDS = tuple(s.name for s in FIELDS if s.rows is not None)
_STARTS = tuple((s.name, s) for s in FIELDS if s.new is not SEEDED)

_set_field = object.__setattr__
_new_object = object.__new__


def starting_world(params: Params, rng_state: int, rng_inc: int) -> World:
    """A new game's World before its first wave: every field at its declared new-game value
    under ``params``, the PCG32 pair (the ``SEEDED`` fields) from ``new_world``'s seed."""
    state = {name: spec.start(params) for name, spec in _STARTS}
    return World(**state, rng_state=rng_state, rng_inc=rng_inc)


class Draft:
    """A mutable copy of a World's fields while one step computes the next.

    Arrays are shared with the old World, which keeps them read-only: rules replace arrays
    (``d.ast_pos = d.ast_pos + d.ast_vel``) and never write into them.

    Every World field is readable and writable by the same name; the annotations are
    ``World``'s own (set below from the table), so the two lists cannot differ.

    Copying in and out is on every tick's path, so both are single C-level passes over the
    fields instead of a ``getattr``/``setattr`` per field.
    """

    if TYPE_CHECKING:  # a checker reads a rule's fields through these (any World field)
        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def __init__(self, world: World) -> None:
        fields_ = self.__dict__
        fields_.update(world.__dict__)
        # The old World's arrays, already read-only.
        self._shared = tuple(map(fields_.__getitem__, _ARRAY_FIELDS))

    def freeze(self) -> World:
        """The new World.

        Equivalent to ``World(**fields)``: arrays the step replaced are made
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
        world = _new_object(World)
        _set_field(world, "__dict__", state)
        return world


Draft.__annotations__ = {s.name: World.__annotations__[s.name] for s in FIELDS}
