"""Events of many games as columns: one row per event, no Python object per event.

A batch of games (``asteroids.core.batch``) reports what happened during a tick as
``EventColumns``: ``game`` (which game), ``kind`` (an ``EventKind``, one per class of
``asteroids.core.events``) and a fixed set of payload columns, four integers ``i0..i3`` and
three floats ``x, y, f``. ``LAYOUT`` says, for every event class, which field goes in which
column; the string fields (``by``, ``cause``, ``shooter``, a declared craft's ``kind``) become
the codes they come from (``Cause``, ``Shooter``, ``Kind``: built in, or declared with a kind
in ``asteroids.core.bodies.ENEMIES``; the columns carry the ``Names`` that read them).
Counting (kills, deaths by cause) then reads the columns directly, and
``EventColumns.of(game)`` rebuilds one game's events as the very objects the one-game
``step`` returns, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import IntEnum
from types import MappingProxyType
from typing import Any

import numpy as np

from asteroids.core import events as ev
from asteroids.core.batch_rows import offsets_of
from asteroids.core.kinds import BUILTIN_NAMES, Names, Shooter

__all__ = ["EventColumns", "EventKind", "EventLog", "LAYOUT", "cause_code", "encode", "events_of",
           "shooter_code"]


class EventKind(IntEnum):
    """One value per event class (``EventColumns.kind``)."""

    SHOT_FIRED = 0
    ASTEROID_DESTROYED = 1
    SHIP_DESTROYED = 2
    SHIP_SPAWNED = 3
    HYPERSPACE_ENTERED = 4
    HYPERSPACE_EXITED = 5
    SAUCER_SPAWNED = 6
    SAUCER_DESTROYED = 7
    SAUCER_LEFT = 8
    EXTRA_LIFE = 9
    WAVE_STARTED = 10
    WAVE_CLEARED = 11
    THRUST_CHANGED = 12
    SHIELD_CHANGED = 13
    HEARTBEAT = 14
    GAME_OVER = 15
    CRAFT_SPAWNED = 16
    CRAFT_DESTROYED = 17
    CRAFT_LEFT = 18


_CLASSES: tuple[type, ...] = (
    ev.ShotFired, ev.AsteroidDestroyed, ev.ShipDestroyed, ev.ShipSpawned,
    ev.HyperspaceEntered, ev.HyperspaceExited, ev.SaucerSpawned, ev.SaucerDestroyed,
    ev.SaucerLeft, ev.ExtraLife, ev.WaveStarted, ev.WaveCleared, ev.ThrustChanged,
    ev.ShieldChanged, ev.Heartbeat, ev.GameOver, ev.CraftSpawned, ev.CraftDestroyed,
    ev.CraftLeft,
)
"""The event classes, indexed by ``EventKind``."""

_INT_COLUMNS = ("i0", "i1", "i2", "i3")
_FLOAT_COLUMNS = ("x", "y", "f")

LAYOUT: Mapping[type, tuple[tuple[str, str, str], ...]] = MappingProxyType({
    ev.ShotFired: (("shooter", "i0", "shooter"), ("x", "x", "float"), ("y", "y", "float")),
    ev.AsteroidDestroyed: (("size", "i0", "int"), ("children", "i1", "int"),
                           ("by", "i2", "cause"), ("points", "i3", "int"),
                           ("x", "x", "float"), ("y", "y", "float")),
    ev.ShipDestroyed: (("cause", "i0", "cause"), ("lives_left", "i1", "int"),
                       ("x", "x", "float"), ("y", "y", "float")),
    ev.ShipSpawned: (("x", "x", "float"), ("y", "y", "float")),
    ev.HyperspaceEntered: (("x", "x", "float"), ("y", "y", "float")),
    ev.HyperspaceExited: (("survived", "i0", "bool"), ("x", "x", "float"), ("y", "y", "float")),
    ev.SaucerSpawned: (("small", "i0", "bool"), ("x", "x", "float"), ("y", "y", "float")),
    ev.SaucerDestroyed: (("small", "i0", "bool"), ("by", "i2", "cause"), ("points", "i3", "int"),
                         ("x", "x", "float"), ("y", "y", "float")),
    ev.SaucerLeft: (("small", "i0", "bool"),),
    ev.ExtraLife: (("lives", "i0", "int"), ("count", "i1", "int")),
    ev.WaveStarted: (("wave", "i0", "int"), ("asteroids", "i1", "int")),
    ev.WaveCleared: (("wave", "i0", "int"),),
    ev.ThrustChanged: (("on", "i0", "bool"),),
    ev.ShieldChanged: (("on", "i0", "bool"), ("energy", "f", "float")),
    ev.Heartbeat: (("tone", "i0", "int"), ("interval_ticks", "i1", "int")),
    ev.GameOver: (("score", "i0", "int"),),
    ev.CraftSpawned: (("kind", "i0", "kind"), ("x", "x", "float"), ("y", "y", "float")),
    ev.CraftDestroyed: (("kind", "i0", "kind"), ("by", "i2", "cause"), ("points", "i3", "int"),
                        ("x", "x", "float"), ("y", "y", "float")),
    ev.CraftLeft: (("kind", "i0", "kind"),),
})
"""Per event class: (field, column, codec) for every field; codec ``int``, ``bool``,
``float``, ``cause`` (a cause's label), ``kind`` (a kind's name) or ``shooter`` (a ``Shooter``
label)."""

_KIND_OF = MappingProxyType({cls: EventKind(k) for k, cls in enumerate(_CLASSES)})
_SHOOTER_CODES = MappingProxyType({s.label: int(s) for s in Shooter})


def cause_code(label: str, names: Names = BUILTIN_NAMES) -> int:
    """The ``Cause`` code of an event's ``by`` or ``cause`` label ("ship-shot", ...)."""
    return names.cause_code(label)


def shooter_code(label: str) -> int:
    """The ``Shooter`` code of a ``ShotFired.shooter`` label ("ship" or "saucer")."""
    return _SHOOTER_CODES[label]


def _check_layout() -> None:
    """Every field of every event class has a column, and no two share one."""
    for cls in _CLASSES:
        names = [f.name for f in fields(cls)]
        laid = LAYOUT[cls]
        if sorted(names) != sorted(n for n, _, _ in laid):
            raise AssertionError(f"LAYOUT[{cls.__name__}] does not cover its fields {names}")
        columns = [c for _, c, _ in laid]
        if len(dict.fromkeys(columns)) != len(columns):
            raise AssertionError(f"LAYOUT[{cls.__name__}] puts two fields in one column")


_check_layout()


@dataclass(frozen=True, eq=False)
class EventColumns:
    """The events of a batch step, one row per event, game-major: each game's rows are
    contiguous and in the order its one-game ``step`` would return them."""

    game: np.ndarray
    """(E,) int64: the game (lane) of each event."""
    kind: np.ndarray
    """(E,) int8: ``EventKind``."""
    i0: np.ndarray
    i1: np.ndarray
    i2: np.ndarray
    i3: np.ndarray
    """(E,) int64 payloads (see ``LAYOUT``)."""
    x: np.ndarray
    y: np.ndarray
    f: np.ndarray
    """(E,) float64 payloads (see ``LAYOUT``)."""
    rows: np.ndarray
    """(B + 1,) int64: game g's events are rows ``rows[g]:rows[g + 1]``."""
    names: Names = BUILTIN_NAMES
    """What the ``cause`` and ``kind`` codes are called (``bodies.NAMES`` for a batch)."""

    @property
    def size(self) -> int:
        """Events in all."""
        return int(self.game.shape[0])

    def count(self, kind: EventKind) -> np.ndarray:
        """(B,) how many events of ``kind`` each game had."""
        lanes = self.rows.shape[0] - 1
        return np.bincount(self.game[self.kind == kind], minlength=lanes)

    def of(self, game: int) -> tuple[ev.Event, ...]:
        """Game ``game``'s events as objects, equal to the one-game ``step``'s."""
        lo, hi = int(self.rows[game]), int(self.rows[game + 1])
        return tuple(self._event(r) for r in range(lo, hi))

    def _event(self, r: int) -> ev.Event:
        cls = _CLASSES[int(self.kind[r])]
        values: dict[str, object] = {}
        for name, column, codec in LAYOUT[cls]:
            raw = getattr(self, column)[r]
            if codec == "float":
                values[name] = float(raw)
            elif codec == "bool":
                values[name] = bool(raw)
            elif codec == "cause":
                values[name] = self.names.causes[int(raw)]
            elif codec == "kind":
                values[name] = self.names.kinds[int(raw)]
            elif codec == "shooter":
                values[name] = Shooter(int(raw)).label
            else:
                values[name] = int(raw)
        return cls(**values)


def _row_of(cls: type) -> Callable[[ev.Event, Names],
                                   tuple[int, int, int, int, float, float, float]]:
    """One event of ``cls`` as its (i0, i1, i2, i3, x, y, f) row, per ``LAYOUT``, given the
    names of the codes."""
    getters = []
    for column in (*_INT_COLUMNS, *_FLOAT_COLUMNS):
        laid = [(name, codec) for name, col, codec in LAYOUT[cls] if col == column]
        if not laid:
            getters.append(lambda e, _, zero=0.0 if column in _FLOAT_COLUMNS else 0: zero)
            continue
        name, codec = laid[0]
        if codec == "cause":
            getters.append(lambda e, names, n=name: names.cause_code(getattr(e, n)))
        elif codec == "kind":
            getters.append(lambda e, names, n=name: names.kind_code(getattr(e, n)))
        elif codec == "shooter":
            getters.append(lambda e, _, n=name: _SHOOTER_CODES[getattr(e, n)])
        elif codec == "float":
            getters.append(lambda e, _, n=name: float(getattr(e, n)))
        else:
            getters.append(lambda e, _, n=name: int(getattr(e, n)))
    fields_ = tuple(getters)
    return lambda e, names: tuple(get(e, names) for get in fields_)  # type: ignore[return-value]


_ROW_OF = MappingProxyType({cls: _row_of(cls) for cls in _CLASSES})


def encode(per_game: Sequence[Iterable[ev.Event]], names: Names = BUILTIN_NAMES
           ) -> EventColumns:
    """Columns of the events of each game, given as one sequence of events per game
    (``names``: the codes of every kind and cause they may name: ``bodies.NAMES``)."""
    lanes = len(per_game)
    game: list[int] = []
    kind: list[int] = []
    payload: list[tuple[int, int, int, int, float, float, float]] = []
    counts = [0] * lanes
    kind_of, row_of = _KIND_OF, _ROW_OF
    for g, events in enumerate(per_game):
        if not events:
            continue
        for event in events:
            cls = type(event)
            kind.append(kind_of[cls])
            payload.append(row_of[cls](event, names))
        counts[g] = len(kind) - len(game)
        game.extend([g] * counts[g])
    rows = offsets_of(counts)
    if payload:
        ints = np.array([r[:4] for r in payload], dtype=np.int64).T
        floats = np.array([r[4:] for r in payload], dtype=np.float64).T
    else:
        ints, floats = np.zeros((4, 0), dtype=np.int64), np.zeros((3, 0))
    return EventColumns(
        game=np.array(game, dtype=np.int64), kind=np.array(kind, dtype=np.int8),
        i0=ints[0], i1=ints[1], i2=ints[2], i3=ints[3], x=floats[0], y=floats[1], f=floats[2],
        rows=rows, names=names,
    )


class EventLog:
    """The events of the batched pass, phase by phase: (kind, the games, payload columns)
    in the order the one-game rules append them, so a stable sort by game gives each game's
    events in its one-game order."""

    def __init__(self) -> None:
        self.entries: list[tuple[EventKind, np.ndarray, dict[str, Any]]] = []

    def emit(self, kind: EventKind, when: np.ndarray, **payload: Any) -> None:
        """One event of ``kind`` for each game of ``when``; payload columns (i0..i3, x, y,
        f) as (B,) arrays or one value for all."""
        games = when.nonzero()[0]
        if games.shape[0]:
            self.entries.append((kind, games, {
                k: (v[games] if isinstance(v, np.ndarray) and v.ndim else v)
                for k, v in payload.items()}))

    def emit_rows(self, kind: EventKind, game: np.ndarray, **payload: Any) -> None:
        """One event of ``kind`` per row, in the row's ``game`` (several may share one, in
        row order); payload columns one value per row."""
        if game.shape[0]:
            self.entries.append((kind, game, dict(payload)))


def events_of(lanes: int, log: EventLog, routine: np.ndarray, others: Sequence[int],
              other_events: Sequence[Sequence[ev.Event]], names: Names = BUILTIN_NAMES
              ) -> EventColumns:
    """The tick's events as columns: the routine games' from the batched pass's log, the
    other games' as the one-game driver returned them (``names``: ``bodies.NAMES``)."""
    cols = encode(other_events, names)
    # Each routine entry's rows go to one slice of columns laid out once (payload columns
    # an entry leaves out stay 0), then one stable sort by game.
    entries = []
    total = cols.game.shape[0]
    for k, games, values in log.entries:
        keep = routine[games]
        n = int(np.count_nonzero(keep))
        if n == 0:
            continue
        if n == games.shape[0]:
            keep = None  # every game of the entry routine: its rows as they are
        entries.append((total, k, games if keep is None else games[keep], values, keep))
        total += n
    game = np.empty(total, dtype=np.int64)
    kind = np.empty(total, dtype=np.int8)
    out = {c: np.zeros(total, dtype=dtype) for c, dtype in _PAYLOAD_TYPES}
    n = cols.game.shape[0]
    if n:
        game[:n] = np.asarray(others, dtype=np.int64)[cols.game]
        kind[:n] = cols.kind
        for c in _PAYLOAD:
            out[c][:n] = getattr(cols, c)
    for lo, k, games, values, keep in entries:
        hi = lo + games.shape[0]
        game[lo:hi] = games
        kind[lo:hi] = k
        for c, v in values.items():
            if c in out:
                out[c][lo:hi] = v if keep is None or not np.ndim(v) else np.asarray(v)[keep]
    order = np.argsort(game, kind="stable")
    rows = offsets_of(np.bincount(game, minlength=lanes))
    return EventColumns(game=game.take(order), kind=kind.take(order),
                        **{c: out[c].take(order) for c in _PAYLOAD}, rows=rows, names=names)


_PAYLOAD = ("i0", "i1", "i2", "i3", "x", "y", "f")
_PAYLOAD_TYPES = tuple((c, np.float64 if c in ("x", "y", "f") else np.int64) for c in _PAYLOAD)
