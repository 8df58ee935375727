"""Packed rows of many games: each game's rocks and shots one block after another, in the
order its own World keeps them (``asteroids.core.batch``'s layout). Rows come and go here,
for every game at once and never in a loop over games: a shot appended at the end of a
game's block, rocks kept and fragments appended, whole games' blocks spliced in by lane.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from asteroids.core.lanes import BatchDraft
from asteroids.core.world import FIELDS, World

__all__ = ["ROW_KINDS", "any_per_game", "append_shots", "distinct", "first_of_each",
           "merge_lanes", "offsets_of", "pairs_in_games", "put_lanes", "rebuild_rocks",
           "row_games", "segments", "take_columns", "xy_rows"]

ROW_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    kind: tuple(s.name for s in FIELDS if s.rows == kind) for kind in ("ast", "shot")})
"""The row columns of each kind of packed rows (outline points aside), from World's table."""


def flat_rows(a: np.ndarray) -> np.ndarray:
    """``a`` with each row one element: an (N, 2) float64 array as an (N,) complex128 view
    of the same memory (copied first if not contiguous); other arrays as they are. numpy
    indexes and stores (N, 2) rows by an index or a mask five to ten times slower than one
    16-byte element each (a copy either way, so the bits are the same)."""
    if a.ndim == 2 and a.shape[1] == 2 and a.dtype == np.float64:
        return np.ascontiguousarray(a).view(np.complex128).reshape(a.shape[0])
    return a


def as_pairs(a: np.ndarray) -> np.ndarray:
    """The (N, 2) float64 view of ``flat_rows``' (N,) complex128 rows; other arrays as
    they are."""
    if a.dtype == np.complex128:
        return a.view(np.float64).reshape(a.shape[0], 2)
    return a


def offsets_of(counts: np.ndarray | Sequence[int]) -> np.ndarray:
    """(n + 1,) int64 offsets of ``counts`` rows packed one after another (0 first)."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def row_games(rows: np.ndarray) -> np.ndarray:
    """The game of each packed row, from the (B + 1,) row offsets ``rows``."""
    return np.arange(rows.shape[0] - 1).repeat(rows[1:] - rows[:-1])


def any_per_game(flags: np.ndarray, game: np.ndarray, lanes: int) -> np.ndarray:
    """(B,) whether any row of each game (``game``: each row's) has ``flags`` set."""
    return np.bincount(game[flags], minlength=lanes) > 0


def distinct(values: np.ndarray, size: int) -> np.ndarray:
    """The distinct values of ``values`` (ints in ``[0, size)``), ascending: ``np.unique``'s
    answer by a mask (``np.unique`` sorts, about 25 us even for a handful)."""
    seen = np.zeros(size, dtype=bool)
    seen[values] = True
    return seen.nonzero()[0]


def first_of_each(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``values``, ascending, and where each first occurs in it:
    ``np.unique(values, return_index=True)`` (the same stable sort) without its overhead."""
    order = values.argsort(kind="stable")
    ranked = values[order]
    new = np.ones(ranked.shape[0], dtype=bool)
    new[1:] = ranked[1:] != ranked[:-1]
    return ranked[new], order[new]


def xy_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(N, 2) rows of the (N,) columns ``x`` and ``y`` (``np.stack([x, y], axis=1)``,
    a third of its cost)."""
    out = np.empty((x.shape[0], 2), dtype=np.result_type(x, y))
    out[:, 0] = x
    out[:, 1] = y
    return out


def segments(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For segments of ``counts`` rows packed one after another: (the segment of each row,
    each row's rank inside its segment)."""
    ends = counts.cumsum()
    seg = np.arange(counts.shape[0]).repeat(counts)
    return seg, np.arange(seg.shape[0]) - (ends - counts)[seg]


def pairs_in_games(a_game: np.ndarray, b_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (a, b) pair of rows of the same game: ``a_game`` the game of each a row,
    ``b_rows`` the (B + 1,) row offsets of the b rows."""
    counts = (b_rows[1:] - b_rows[:-1])[a_game]
    a, rank = segments(counts)
    return a, b_rows[a_game[a]] + rank


def append_shots(d: BatchDraft, when: np.ndarray, owner: int, x: np.ndarray, y: np.ndarray,
                 vx: np.ndarray, vy: np.ndarray, ttl: int) -> None:
    """A new shot at the end of each game's shots where ``when``, with the game's next id
    (``ship.add_shot`` for every game at once)."""
    games = when.nonzero()[0]
    n = games.shape[0]
    if n == 0:
        return
    rows = d.shot_rows
    counts = rows[1:] - rows[:-1]
    added = when.astype(np.int64)
    new_rows = offsets_of(counts + added)
    total = int(rows[-1])
    keep_at = np.arange(total) + (new_rows[:-1] - rows[:-1])[row_games(rows)]
    new_at = new_rows[games + 1] - 1
    for name, value in (
            ("shot_id", d.next_id[games]), ("shot_owner", np.full(n, owner, dtype=np.int64)),
            ("shot_pos", xy_rows(x[games], y[games])),
            ("shot_vel", xy_rows(vx[games], vy[games])),
            ("shot_ttl", np.full(n, ttl, dtype=np.int64))):
        old = flat_rows(getattr(d, name))
        out = np.empty(total + n, dtype=old.dtype)
        out[keep_at] = old
        out[new_at] = flat_rows(value)
        setattr(d, name, as_pairs(out))
    d.next_id = d.next_id + added
    d.shot_rows = new_rows


def rebuild_rocks(d: BatchDraft, keep: np.ndarray, ast_game: np.ndarray, kids: Any,
                  kid_game: np.ndarray, added: np.ndarray, lanes: int) -> None:
    """Each game's rocks where ``keep``, in order, then its new rocks ``kids`` (ids from its
    ``next_id`` on): ``resolve._keep_asteroids`` and ``spawn.append_rocks`` for every game.

    Kept rows keep their order, so they fill the new rows that are not a new rock's, in
    order: boolean masks (a compress and a masked store per column) move them, which costs
    far less than an index per row."""
    kept_counts = np.bincount(ast_game[keep], minlength=lanes)
    new_rows = offsets_of(kept_counts + added)
    kid_rank = np.arange(kid_game.shape[0]) - (np.cumsum(added) - added)[kid_game]
    kid_at = new_rows[kid_game] + kept_counts[kid_game] + kid_rank
    total = int(new_rows[-1])
    is_kid = np.zeros(total, dtype=bool)
    is_kid[kid_at] = True
    is_kept = ~is_kid
    ids = d.next_id[kid_game] + kid_rank
    for name, new in (("ast_id", ids), ("ast_size", kids.size), ("ast_pos", kids.pos),
                      ("ast_vel", kids.vel), ("ast_angle", kids.angle),
                      ("ast_spin", kids.spin), ("ast_radius", kids.radius)):
        old = flat_rows(getattr(d, name))
        out = np.empty(total, dtype=old.dtype)
        out[is_kept] = old[keep]
        out[is_kid] = flat_rows(new)
        setattr(d, name, as_pairs(out))
    offsets = d.ast_offsets
    old_points = offsets[1:] - offsets[:-1]
    points = np.empty(total, dtype=np.int64)
    points[is_kept] = old_points[keep]
    points[is_kid] = kids.counts
    new_offsets = offsets_of(points)
    kid_point = np.repeat(is_kid, points)
    local = np.empty(int(new_offsets[-1]), dtype=np.complex128)
    local[~kid_point] = flat_rows(d.ast_local)[np.repeat(keep, old_points)]
    local[kid_point] = flat_rows(kids.local)
    d.ast_local, d.ast_offsets = as_pairs(local), new_offsets
    d.next_id = d.next_id + added
    d.ast_rows = new_rows


def merge_lanes(columns: Mapping[str, np.ndarray], names: Sequence[str], lanes: int,
                shot_keep: np.ndarray | None, replaced: Sequence[int],
                worlds: Sequence[World]) -> dict[str, np.ndarray]:
    """The columns of a batch whose games ``replaced`` become ``worlds`` and whose other
    games keep their rows in ``columns`` (their shots only where ``shot_keep``).

    Args:
        columns: every World field, ``ast_rows`` and ``shot_rows`` (the row offsets of the
            rows in ``columns``).
        names: the per-game field names (``(B,)`` arrays).
        lanes: B.
        shot_keep: (K,) which shot rows stay (None: all); rows of ``replaced`` games are
            dropped whatever it says.
        replaced: lanes, ascending, whose game is the matching World of ``worlds``.
        worlds: the Worlds for ``replaced``.
    """
    out = dict(columns)
    index = np.asarray(replaced, dtype=np.int64)
    if index.shape[0]:
        for name in names:
            value = columns[name].copy()
            value[index] = [getattr(w, name) for w in worlds]
            out[name] = value
    if shot_keep is not None and not shot_keep.all():
        kept = shot_keep.nonzero()[0]
        for name in ROW_KINDS["shot"]:
            out[name] = columns[name].take(kept, axis=0)
        game = row_games(columns["shot_rows"])
        out["shot_rows"] = offsets_of(np.bincount(game[kept], minlength=lanes))
    if not index.shape[0]:
        return out
    for kind in ("ast", "shot"):
        rows = out[f"{kind}_rows"]
        starts, ends = rows[index].tolist(), rows[index + 1].tolist()
        for name in ROW_KINDS[kind]:
            out[name] = _spliced(out[name], starts, ends, [getattr(w, name) for w in worlds])
        counts = rows[1:] - rows[:-1]
        counts[index] = [getattr(w, f"{kind}_id").shape[0] for w in worlds]
        out[f"{kind}_rows"] = offsets_of(counts)
        if kind == "ast":
            offsets = out["ast_offsets"]
            point_counts = _spliced(offsets[1:] - offsets[:-1], starts, ends,
                                    [w.ast_offsets[1:] - w.ast_offsets[:-1] for w in worlds])
            out["ast_local"] = _spliced(out["ast_local"], offsets[starts].tolist(),
                                        offsets[ends].tolist(), [w.ast_local for w in worlds])
            out["ast_offsets"] = offsets_of(point_counts)
    return out


def _spliced(old: np.ndarray, starts: list[int], ends: list[int],
             parts: Sequence[np.ndarray]) -> np.ndarray:
    """``old`` with its rows ``starts[j]:ends[j]`` replaced by ``parts[j]`` (ascending,
    disjoint ranges)."""
    pieces = []
    prev = 0
    for s, e, part in zip(starts, ends, parts, strict=True):
        pieces.append(old[prev:s])
        pieces.append(part)
        prev = e
    pieces.append(old[prev:])
    return np.concatenate(pieces)


def take_columns(columns: Mapping[str, np.ndarray], names: Sequence[str],
                 lanes: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of the games ``lanes`` only, in that order (``names``: the per-game
    fields)."""
    out = {name: columns[name][lanes] for name in names}
    for kind in ("ast", "shot"):
        rows = columns[f"{kind}_rows"]
        counts = (rows[1:] - rows[:-1])[lanes]
        new_rows = offsets_of(counts)
        which = np.repeat(rows[lanes] - new_rows[:-1], counts) + np.arange(int(new_rows[-1]))
        for name in ROW_KINDS[kind]:
            out[name] = columns[name].take(which, axis=0)
        out[f"{kind}_rows"] = new_rows
        if kind == "ast":
            offsets = columns["ast_offsets"]
            points = offsets[which + 1] - offsets[which]
            new_offsets = offsets_of(points)
            at = np.repeat(offsets[which] - new_offsets[:-1], points) + np.arange(
                int(new_offsets[-1]))
            out["ast_local"] = columns["ast_local"].take(at, axis=0)
            out["ast_offsets"] = new_offsets
    return out


def put_lanes(columns: Mapping[str, np.ndarray], names: Sequence[str], lanes: np.ndarray,
              sub: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The columns of a batch whose games ``lanes`` (ascending) become the games of ``sub``
    (the columns of ``len(lanes)`` games, in that order) and whose other games keep their
    values and rows in ``columns``: ``take_columns``' inverse, every row gathered by one
    index per kind (no loop over games). ``names``: the per-game fields."""
    out: dict[str, np.ndarray] = {}
    for name in names:
        value = columns[name].copy()
        value[lanes] = sub[name]
        out[name] = value
    for kind in ("ast", "shot"):
        rows, sub_rows = columns[f"{kind}_rows"], sub[f"{kind}_rows"]
        counts = rows[1:] - rows[:-1]
        start = rows[:-1].copy()  # where each game's rows start in columns' rows, then sub's
        counts[lanes] = sub_rows[1:] - sub_rows[:-1]
        start[lanes] = sub_rows[:-1] + rows[-1]
        new_rows = offsets_of(counts)
        which = (start - new_rows[:-1]).repeat(counts) + np.arange(int(new_rows[-1]))
        for name in ROW_KINDS[kind]:
            out[name] = np.concatenate([columns[name], sub[name]]).take(which, axis=0)
        out[f"{kind}_rows"] = new_rows
        if kind == "ast":
            offsets, sub_offsets = columns["ast_offsets"], sub["ast_offsets"]
            first = np.concatenate([offsets[:-1], sub_offsets[:-1] + offsets[-1]])[which]
            points = np.concatenate([offsets[1:] - offsets[:-1],
                                     sub_offsets[1:] - sub_offsets[:-1]])[which]
            new_offsets = offsets_of(points)
            at = (first - new_offsets[:-1]).repeat(points) + np.arange(int(new_offsets[-1]))
            out["ast_local"] = np.concatenate([columns["ast_local"], sub["ast_local"]]).take(
                at, axis=0)
            out["ast_offsets"] = new_offsets
    return out
