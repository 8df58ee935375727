"""B games of one ruleset as one struct-of-arrays: ``new_batch``, ``step_batch``, ``Batch.world``.

Layout (docs/batch-design.md, section 2): every per-game scalar of ``World`` is a ``(B,)``
array of the same name (int64, float64, bool; the PCG32 state and increment uint64). Rocks
and shots are packed game after game, each game's rows in id order as its ``World`` keeps
them: ``ast_rows`` and ``shot_rows`` (``(B + 1,)``) say that game g owns rocks
``ast_rows[g]:ast_rows[g + 1]``; outline points are packed by one global ``ast_offsets``, the
World's own scheme over all games. ``Batch.world(i)`` is then slices, and its
``state_hash`` is the one-game core's for the same seed and inputs, after every tick
(tests/core/test_batch_identity.py).

Stepping. From ``BATCHED_PASS_MIN`` games on, ``step_batch`` advances every game in one
pass over the columns (``batch_tick.routine_tick``): no game is handed to the one-game
``step``. A smaller batch steps every game with ``step``, which is faster there (the same
rule texts, driven one game at a time); so does ``step_batch(..., reference=True)``, the
debug switch the identity tests use as the reference. Either way each game equals its
one-game run after every tick (tests/core/test_batch_identity.py). Games held still
(``active``) are left out of the pass and keep every column bit for bit (what the waiting
player of a two-player match needs, ``asteroids.core.match_batch``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from enum import Enum
from types import MappingProxyType

import numpy as np

from asteroids.config.schema import Config
from asteroids.core.batch_rows import merge_lanes, offsets_of, put_lanes, take_columns
from asteroids.core.batch_tick import refuse_broken_shots, routine_tick
from asteroids.core.bodies import NAMES
from asteroids.core.event_columns import EventColumns, EventLog, encode, events_of
from asteroids.core.inputs import ALL_BUTTONS
from asteroids.core.params import Params, params_for
from asteroids.core.simulation import new_world, step
from asteroids.core.world import FIELD_NAMES, FIELDS, World

__all__ = ["ARRAY_FIELDS", "BATCHED_PASS_MIN", "SCALAR_FIELDS", "SEED_RANGE", "Batch",
           "check_masks", "check_seeds", "new_batch", "pack", "reset_lanes", "rules_for",
           "step_batch",
           "take_lanes"]

ARRAY_FIELDS: tuple[str, ...] = tuple(s.name for s in FIELDS if s.rows is not None)
"""World fields that hold rows (packed game after game in a Batch)."""
SCALAR_FIELDS: tuple[str, ...] = tuple(s.name for s in FIELDS if s.rows is None)
"""World fields that hold one value per game (a ``(B,)`` array in a Batch)."""

_DTYPES = MappingProxyType({s.name: s.dtype.type for s in FIELDS if s.rows is None})
_NAMED_KINDS = tuple((s.name, {int(m): m for m in s.kind}.__getitem__) for s in FIELDS
                     if s.rows is None and issubclass(s.kind, Enum))
"""Per-game fields whose World value is a named kind (``ShipState``), not a plain number:
each with its member by value (a dict lookup, a fifth of the enum call's cost)."""
_new_object = object.__new__
_set_field = object.__setattr__
_SCALAR_DTYPES = tuple((name, np.dtype(_DTYPES[name])) for name in SCALAR_FIELDS)
"""Each per-game field with its dtype (numpy's builtin dtypes are singletons: ``is``)."""

SEED_RANGE = range(-(1 << 63), 1 << 64)
"""The seeds a batch takes, [-2**63, 2**64): the replay format's range
(``asteroids.replay.format``), which ``asteroids record --seed`` and ``asteroids balance
--seed`` take too. A seed outside it would play the game of its low 64 bits
(``rng.seed_state``), so it is refused, not wrapped."""
_SEED_TEXT = "[-2**63, 2**64)"
_SHOWN = 60
"""The longest repr a batch's message quotes (``asteroids.messages.QUOTED``)."""


class Batch:
    """B games of one ruleset, read-only: every ``World`` field by name (a ``(B,)`` array for
    a scalar, packed rows for an array), plus ``ast_rows``, ``shot_rows``, ``seeds`` and the
    compiled ``params``. Step it with ``step_batch``; read game i with ``world(i)``."""

    size: int
    """B, the number of games (lanes)."""
    params: Params
    ast_rows: np.ndarray
    """(B + 1,) int64: game g's rocks are rows ``ast_rows[g]:ast_rows[g + 1]``."""
    shot_rows: np.ndarray
    """(B + 1,) int64: game g's shots are rows ``shot_rows[g]:shot_rows[g + 1]``."""
    seeds: tuple[int, ...]
    """The seed each lane's current game began with (Python ints in ``SEED_RANGE``; lane
    resets change them)."""

    def __init__(self, columns: dict[str, np.ndarray], seeds: tuple[int, ...], params: Params,
                 worlds: Sequence[World] | None = None) -> None:
        """From ``columns`` (every World field, ``ast_rows`` and ``shot_rows``), or, with
        ``worlds``, of those Worlds: the batch's games are then those very Worlds (what a
        batch stepped game by game holds: ``world(i)`` costs nothing), and a column is packed
        from them each time it is read (nothing is kept: read a column once per tick)."""
        state = self.__dict__
        state.update(columns)
        state.update(size=len(seeds), params=params, seeds=seeds)
        state["_packed_from"] = tuple(worlds) if worlds is not None else None
        for value in columns.values():
            value.setflags(write=False)

    def __getattr__(self, name: str) -> np.ndarray:
        worlds = self.__dict__.get("_packed_from")
        if worlds is None or name not in _PACKERS:
            raise AttributeError(f"a Batch has no field {name!r}")
        value = _PACKERS[name](worlds)
        value.flags.writeable = False
        return value

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Batch is read-only: step_batch makes the next one")

    def __len__(self) -> int:
        return self.size

    @property
    def nbytes(self) -> int:
        """Bytes held by the batch's arrays (its resident state)."""
        total = 0
        for array in (*(getattr(self, n) for n in FIELD_NAMES), self.ast_rows, self.shot_rows):
            total += array.nbytes
        return total

    def world(self, i: int) -> World:
        """Game ``i`` as a one-game ``World``: the one the batch was packed from, or one made
        of views into the batch's arrays."""
        if not 0 <= i < self.size:
            raise IndexError(f"lane {i} outside a batch of {self.size}")
        if self._packed_from is not None:
            return self._packed_from[i]
        return self._unpack(i)

    def _unpack(self, i: int) -> World:
        return self.worlds_of([i])[0]

    def worlds_of(self, lanes: Sequence[int]) -> list[World]:
        """Games ``lanes`` as one-game Worlds (``world(i)`` for each i), read from the
        columns in one pass per field: their arrays are views into the batch's."""
        if self._packed_from is not None:
            return [self._packed_from[i] for i in lanes]
        get = self.__dict__.__getitem__
        index = np.asarray(lanes, dtype=np.int64)
        values = {name: get(name)[index].tolist() for name in SCALAR_FIELDS}
        for name, kind in _NAMED_KINDS:
            values[name] = [kind(v) for v in values[name]]
        ast_rows, shot_rows = self.ast_rows, self.shot_rows
        a_lo, a_hi = ast_rows[index].tolist(), ast_rows[index + 1].tolist()
        s_lo, s_hi = shot_rows[index].tolist(), shot_rows[index + 1].tolist()
        offsets = get("ast_offsets")
        local = get("ast_local")
        rows = [(s.name, get(s.name), s.rows == "ast") for s in FIELDS
                if s.rows in ("ast", "shot")]
        worlds = []
        for j in range(index.shape[0]):
            a, b, s, t = a_lo[j], a_hi[j], s_lo[j], s_hi[j]
            state: dict[str, object] = {name: column[j] for name, column in values.items()}
            for name, column, rock in rows:
                state[name] = column[a:b] if rock else column[s:t]
            first = offsets[a]
            state["ast_local"] = local[first:offsets[b]]
            own = offsets[a:b + 1] - first
            own.flags.writeable = False
            state["ast_offsets"] = own
            world = _new_object(World)
            _set_field(world, "__dict__", state)  # the batch's arrays are read-only already
            worlds.append(world)
        return worlds

    def columns(self) -> dict[str, np.ndarray]:
        """Every column by name: each World field, ``ast_rows`` and ``shot_rows``."""
        return {name: getattr(self, name) for name in _PACKERS}

    def worlds(self) -> list[World]:
        """Every game as a ``World``, in lane order (``world(i)`` for each i)."""
        if self._packed_from is not None:
            return list(self._packed_from)
        return self.worlds_of(range(self.size))


def pack(worlds: Sequence[World], params: Params, seeds: Iterable[int], *,
         keep_worlds: bool = True) -> Batch:
    """The Batch holding ``worlds`` (one ruleset, ``params``) in lane order.

    ``keep_worlds``: the batch holds the Worlds themselves and ``world(i)`` returns them
    (columns are packed from them when read); False packs every column now and reads every
    game back from the columns (what the tests of the layout use).

    Raises:
        ValueError: for a different number of seeds and worlds, no worlds, or a World
            holding a shot with a NaN or infinite position or velocity (only a World built
            by hand can: ``batch_tick.refuse_broken_shots``).
    """
    seeds = tuple(int(s) for s in seeds)
    if len(seeds) != len(worlds):
        raise ValueError(f"{len(worlds)} worlds but {len(seeds)} seeds")
    if not worlds:
        raise ValueError("a batch needs at least one game")
    batch = Batch({}, seeds, params, worlds)
    refuse_broken_shots({name: getattr(batch, name)
                         for name in ("shot_pos", "shot_vel", "shot_rows")})
    if keep_worlds:
        return batch
    columns = {name: getattr(batch, name) for name in _PACKERS}
    return Batch(columns, seeds, params)


def _scalar_packer(name: str) -> Callable[[Sequence[World]], np.ndarray]:
    dtype = _DTYPES[name]
    return lambda worlds: np.array([getattr(w, name) for w in worlds], dtype=dtype)


def _row_packer(name: str) -> Callable[[Sequence[World]], np.ndarray]:
    return lambda worlds: np.concatenate([getattr(w, name) for w in worlds])


def _pack_offsets(worlds: Sequence[World]) -> np.ndarray:
    point_rows = offsets_of([w.ast_local.shape[0] for w in worlds])
    starts = np.concatenate([w.ast_offsets[:-1] for w in worlds])
    rocks = [w.ast_id.shape[0] for w in worlds]
    return np.append(starts + np.repeat(point_rows[:-1], rocks), point_rows[-1])


_PACKERS: Mapping[str, Callable[[Sequence[World]], np.ndarray]] = MappingProxyType({
    **{s.name: (_scalar_packer(s.name) if s.rows is None
                else _pack_offsets if s.rows == "offsets" else _row_packer(s.name))
       for s in FIELDS},
    "ast_rows": lambda worlds: offsets_of([w.ast_id.shape[0] for w in worlds]),
    "shot_rows": lambda worlds: offsets_of([w.shot_id.shape[0] for w in worlds]),
})
"""How each column is packed from the Worlds of a batch, when first read."""


def new_batch(config: Config | Params, seeds: Iterable[int] | np.ndarray) -> Batch:
    """B new games of one ruleset, lane i from ``seeds[i]``: each equal to ``new_world``'s.

    Args:
        config: the ruleset (its Config or compiled Params).
        seeds: one seed per game: Python ints (not bools) or numpy integers in
            ``SEED_RANGE``, or a 1-D numpy integer array.

    Raises:
        ValueError: for no seeds, or a seed that is not an integer in ``SEED_RANGE`` (a
            float, a bool, a string, ``2**64``).
    """
    p = params_for(config)
    seeds = check_seeds(seeds)
    return pack([new_world(p, s) for s in seeds], p, seeds)


def _shown(value: object) -> str:
    """``value`` for a message: its repr, cut at ``_SHOWN`` characters (an int too long for
    Python's repr is given by its size, a repr that fails by the type)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"(an integer of {value.bit_length()} bits)"
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__: the message must still come out
        return f"(a {type(value).__name__})"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _check_seed(seed: object, lane: int) -> int:
    """``seed`` as a Python int, or ValueError: a bool or a float is not a seed (``True``
    and ``1.5`` would play seed 1), and one outside ``SEED_RANGE`` would wrap."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed {_shown(seed)} of game {lane} is a {type(seed).__name__}, "
                         f"not an integer in {_SEED_TEXT}")
    value = int(seed)
    if value not in SEED_RANGE:
        raise ValueError(f"seed {_shown(value)} of game {lane} is outside {_SEED_TEXT}")
    return value


def check_seeds(seeds: Iterable[int] | np.ndarray) -> list[int]:
    """``seeds`` as Python ints, each checked (``new_batch``, ``reset_lanes``).

    A 1-D numpy integer array is taken whole (any integer dtype lies in ``SEED_RANGE``);
    any other iterable is read item by item.

    Raises:
        ValueError: for an array of another dtype or shape, a value that is not iterable, or
            an item that is not an integer in ``SEED_RANGE``.
    """
    if isinstance(seeds, np.ndarray):
        if seeds.ndim != 1 or seeds.dtype.kind not in "iu":
            raise ValueError(f"seeds must be a 1-D array of integers; got shape {seeds.shape} "
                             f"of {seeds.dtype}")
        return seeds.tolist()
    if isinstance(seeds, (str, bytes)):
        raise ValueError(f"seeds must be integers, not a {type(seeds).__name__} "
                         f"{_shown(seeds)}")
    try:
        values = list(seeds)
    except TypeError:
        raise ValueError(f"seeds must be an iterable of integers; got {_shown(seeds)}"
                         ) from None
    return [_check_seed(s, i) for i, s in enumerate(values)]


def check_masks(masks: np.ndarray | Sequence[int], size: int) -> np.ndarray:
    """``masks`` as an int64 array, or ValueError. The check is two reductions over the B
    masks: ``ALL_BUTTONS`` is the low bits (0x3f), so a mask has no other bit exactly when
    it lies in [0, ALL_BUTTONS] (tests/core/test_batch_values.py holds that)."""
    try:
        m = masks if isinstance(masks, np.ndarray) else np.asarray(masks)
    except (ValueError, TypeError, OverflowError):  # ragged, or not numbers at all
        raise ValueError(f"masks must be {size} integers (one per game); got "
                         f"{_shown(masks)}") from None
    if m.shape != (size,) or m.dtype.kind not in "iu":
        raise ValueError(f"masks must be {size} integers (one per game); got shape {m.shape} "
                         f"of {m.dtype}")
    if m.max() > ALL_BUTTONS or (m.dtype.kind == "i" and m.min() < 0):
        lane = int(((m < 0) | (m > ALL_BUTTONS)).nonzero()[0][0])
        raise ValueError(f"input mask {int(m[lane]):#x} of game {lane} has bits outside "
                         f"{ALL_BUTTONS:#x}")
    return m.astype(np.int64, copy=False)


def step_batch(batch: Batch, masks: np.ndarray | Sequence[int],
               config: Config | Params | None = None, *,
               active: np.ndarray | Sequence[bool] | None = None,
               auto_reset: Iterator[int] | None = None,
               reference: bool = False) -> tuple[Batch, EventColumns]:
    """Advance every game of ``batch`` by one tick, game i under ``masks[i]``.

    Args:
        batch: the games (never modified).
        masks: (B,) input bit masks, one per game (as ``step`` takes): a numpy array of
            any integer dtype, or a sequence of ints, each in [0, ALL_BUTTONS].
        config: the batch's ruleset (its Config or Params); None: the batch's own.
        active: (B,) bools (a bool array or a sequence of bools; not 0/1 integers): only
            these games advance; the others hold still (no tick, no events, every column
            bit for bit), e.g. an environment's games that already ended inside a frame
            skip, or the waiting player of a two-player match. None: every game.
        auto_reset: seeds for new games: a game that ends this tick (game over) starts
            again at once in its lane from the next seed (its last events, ``GameOver``
            with the score among them, are in this step's events); when the seeds run out,
            ended games stay as they are. Each seed is checked as ``new_batch`` checks
            them. None: games stay over.
        reference: a debug switch: step every game with the one-game ``step`` instead of
            the batched pass (what a batch smaller than ``BATCHED_PASS_MIN`` does anyway).
            Both give the same games bit for bit; the identity tests use it as the
            reference the batched pass is held to. Slower; never needed otherwise.

    Returns:
        The next batch, and the tick's events as columns (``EventColumns.of(i)`` is game i's
        events, equal to ``step``'s).

    Raises:
        ValueError: for masks of the wrong shape or dtype (a float, a bool, an object) or
            with a bit outside ``ALL_BUTTONS`` (negative, or 64 and up: a uint8 mask of 255
            too), ``active`` of the wrong shape or not bools, an ``auto_reset`` seed that
            ``new_batch`` refuses, or a game holding a shot with a NaN or infinite position
            or velocity (which the one-game ``step`` refuses too).
    """
    p = rules_for(batch, config)
    m = check_masks(masks, batch.size)
    lanes = batch.size
    held = np.zeros(lanes, dtype=bool)
    if active is not None:
        moving = np.asarray(active)
        if moving.shape != (lanes,) or moving.dtype.kind != "b":
            raise ValueError(f"active must be {lanes} bools; got shape {moving.shape} of "
                             f"{moving.dtype}")
        held = ~moving
    if reference or lanes < BATCHED_PASS_MIN:
        return _step_each(batch, m.tolist(), p, held, auto_reset)
    columns = batch.columns()
    merged, events = _batched_pass(columns, m, p, held)
    seeds = batch.seeds
    if auto_reset is not None:
        ended = (merged["game_over"] & ~columns["game_over"]).nonzero()[0].tolist()
        restarted, seeds = _restart(ended, auto_reset, seeds)
        if restarted:
            merged = merge_lanes(merged, SCALAR_FIELDS, lanes, None, restarted,
                                 [new_world(p, seeds[i]) for i in restarted])
    return Batch(merged, seeds, p), events


def _batched_pass(columns: dict[str, np.ndarray], masks: np.ndarray, p: Params,
                  held: np.ndarray) -> tuple[dict[str, np.ndarray], EventColumns]:
    """Every game not ``held`` one tick on by the batched pass (``routine_tick``); the held
    games are left out of it and keep their columns bit for bit (``put_lanes``)."""
    lanes = masks.shape[0]
    moving = (~held).nonzero()[0] if held.any() else None
    own = columns
    if moving is not None:
        own = take_columns(columns, SCALAR_FIELDS, moving)
        masks = masks[moving]
    size = masks.shape[0]
    with np.errstate(all="ignore"):  # lanes a rule does not apply to may hold anything
        routine, shot_keep, log = routine_tick(own, masks, p) if size else (own, None, None)
    for name, dtype in _SCALAR_DTYPES:
        if routine[name].dtype is not dtype:
            routine[name] = routine[name].astype(dtype)
    if shot_keep is not None:
        routine = merge_lanes(routine, SCALAR_FIELDS, size, shot_keep, [], [])
    events = events_of(size, log if log is not None else EventLog(), np.ones(size, dtype=bool),
                       [], [], NAMES)
    if moving is None:
        return routine, events
    spread = moving[events.game]  # each event's lane in the whole batch (still game-major)
    return put_lanes(columns, SCALAR_FIELDS, moving, routine), replace(
        events, game=spread, rows=offsets_of(np.bincount(spread, minlength=lanes)))


BATCHED_PASS_MIN = 16
"""From this many games on, ``step_batch`` steps the routine games in one batched pass;
smaller batches step every game with the one-game ``step``. The batched pass costs about
0.4 ms a tick whatever B is (the batched aimer 0.6 more), some 8 to 10 one-game ticks: on
classic games of ticks 1-600 the two drivers break even at about 8 games (idle 8: 0.36
against 0.44 ms a tick; aimer deciding 8: 1.98 against 1.46 ms), and at 16 the batch is
1.4 (idle) to 2.4 (aimer) times as fast."""


def _step_each(batch: Batch, masks: list[int], p: Params, held: np.ndarray,
               auto_reset: Iterator[int] | None) -> tuple[Batch, EventColumns]:
    """``step_batch`` for a small batch, or with ``reference``: every game by the one-game
    ``step``."""
    before = batch.worlds()
    stepped = [(w, ()) if stay else step(w, mask, p)
               for w, mask, stay in zip(before, masks, held.tolist(), strict=True)]
    worlds = [w for w, _ in stepped]
    seeds = batch.seeds
    if auto_reset is not None:
        ended = [i for i, (old, new) in enumerate(zip(before, worlds, strict=True))
                 if new.game_over and not old.game_over]
        restarted, seeds = _restart(ended, auto_reset, seeds)
        for i in restarted:
            worlds[i] = new_world(p, seeds[i])
    return Batch({}, seeds, p, worlds), encode([e for _, e in stepped], NAMES)


def _restart(ended: list[int], auto_reset: Iterator[int],
             seeds: tuple[int, ...]) -> tuple[list[int], tuple[int, ...]]:
    """Auto-reset: the lanes of ``ended`` (ascending) that take the next seeds, in order
    until the seeds run out, and every lane's seed with theirs."""
    lane_seeds = list(seeds)
    restarted: list[int] = []
    for i in ended:
        seed = next(auto_reset, None)
        if seed is None:
            break
        restarted.append(i)
        lane_seeds[i] = _check_seed(seed, i)
    return restarted, tuple(lane_seeds)


def rules_for(batch: Batch, config: Config | Params | None) -> Params:
    """The Params to step ``batch`` under (or decide for it): the batch's own when ``config``
    is None, ``config`` when it is Params, else compiled from it now (every call: a loop
    passes Params, or None)."""
    if config is None:
        return batch.params
    return params_for(config)


def reset_lanes(batch: Batch, lanes: Sequence[int] | np.ndarray,
                seeds: Sequence[int] | np.ndarray) -> Batch:
    """``batch`` with each of ``lanes`` holding a new game from the matching seed (auto-reset:
    a lab or an RL loop restarts the games that ended and keeps the others).

    Raises:
        ValueError: for a different number of seeds and lanes, or a seed ``new_batch``
            refuses.
        IndexError: for a lane outside the batch.
    """
    lanes = [int(i) for i in np.asarray(lanes).reshape(-1)]
    seeds = check_seeds(seeds)
    if len(lanes) != len(seeds):
        raise ValueError(f"{len(lanes)} lanes but {len(seeds)} seeds")
    outside = [i for i in lanes if not 0 <= i < batch.size]
    if outside:
        raise IndexError(f"lane {outside[0]} outside a batch of {batch.size}")
    if not lanes:
        return batch
    lane_seeds = list(batch.seeds)
    fresh: dict[int, World] = {}
    for lane, seed in zip(lanes, seeds, strict=True):  # the last seed given for a lane wins
        fresh[lane] = new_world(batch.params, seed)
        lane_seeds[lane] = seed
    if batch.size < BATCHED_PASS_MIN:
        worlds = batch.worlds()
        for lane, world in fresh.items():
            worlds[lane] = world
        return pack(worlds, batch.params, lane_seeds)
    order = sorted(fresh)
    columns = merge_lanes(batch.columns(), SCALAR_FIELDS, batch.size, None, order,
                          [fresh[i] for i in order])
    return Batch(columns, tuple(lane_seeds), batch.params)


def take_lanes(batch: Batch, lanes: Sequence[int] | np.ndarray) -> Batch:
    """A batch of only ``lanes`` (in that order): drop games that are finished."""
    lanes = [int(i) for i in np.asarray(lanes).reshape(-1)]
    seeds = [batch.seeds[i] for i in lanes]
    if len(lanes) < BATCHED_PASS_MIN:
        return pack(batch.worlds_of(lanes), batch.params, seeds)
    return Batch(take_columns(batch.columns(), SCALAR_FIELDS, np.asarray(lanes, dtype=np.int64)),
                 tuple(seeds), batch.params)
