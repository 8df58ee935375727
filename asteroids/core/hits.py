"""The shot query's answer: each shot's closest hit (``Hits``), and the per-shot reduction
that both of the query's paths end with (smallest ``t``, then lowest body, then lowest edge).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asteroids.core.geometry.checks import BoolArray, F64Array, I64Array

__all__ = ["Found", "Hits", "join_found", "no_hits", "reduce_hits"]


@dataclass(frozen=True, slots=True)
class Hits:
    """Closest hit of each shot (result of :func:`first_hits`).

    A shot with no hit has ``body == edge == -1``, ``t == inf`` and ``point == (nan, nan)``.
    A shot that *starts inside* a body's polygon hits it at ``t == 0`` with ``point == start``
    and ``edge`` the body's edge closest to the start (never -1 for a hit).
    """

    body: I64Array
    """(S,) index of the body hit, -1 for no hit."""
    edge: I64Array
    """(S,) edge within that body (edge i runs from point i to point i + 1, wrapping), -1 for
    no hit."""
    t: F64Array
    """(S,) fraction of the shot's travel (of the tick) at the hit, in [0, 1]; inf for no hit."""
    point: F64Array
    """(S, 2) where the shot is at the hit, ``start + t * (end - start)``, wrapped into
    [0, W) x [0, H) in a wrapping world; NaN for no hit."""

    @property
    def hit(self) -> BoolArray:
        """(S,) True where the shot hit something."""
        return self.body >= 0


def no_hits(n: int) -> Hits:
    """The answer for ``n`` shots that hit nothing."""
    return Hits(
        body=np.full(n, -1, dtype=np.int64),
        edge=np.full(n, -1, dtype=np.int64),
        t=np.full(n, np.inf),
        point=np.full((n, 2), np.nan),
    )


Found = tuple[I64Array, I64Array, I64Array, F64Array]
"""Hit rows before the per-shot reduction: (shot, body, edge, t)."""


def join_found(parts: list[Found]) -> Found | None:
    """The hit rows of several parts in one, or None when there are none."""
    if not parts:
        return None
    if len(parts) == 1:
        out = parts[0]
    else:
        out = (
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]),
        )
    return out if out[0].shape[0] else None


def reduce_hits(
    found: Found, s: F64Array, d: F64Array, world: F64Array | None, counts: I64Array
) -> Hits:
    """Winner per shot from the hit rows, and the output arrays."""
    n_shots = s.shape[0]
    shot, body, edge, t = found
    # Winner per shot: smallest t, then lowest body, then lowest edge.
    if shot.shape[0] <= 4096:
        order = np.lexsort((edge, body, t, shot))
        so = shot[order]
        first = np.ones(so.shape[0], dtype=bool)
        first[1:] = so[1:] != so[:-1]
        win = order[first]
    else:
        tmin = np.full(n_shots, np.inf)
        np.minimum.at(tmin, shot, t)
        tie = (t == tmin[shot]).nonzero()[0]
        key = body[tie] * (int(counts.max()) + 1) + edge[tie]
        kmin = np.full(n_shots, np.iinfo(np.int64).max)
        np.minimum.at(kmin, shot[tie], key)
        win = tie[key == kmin[shot[tie]]]
    ws = shot[win]
    tw = t[win]
    out_body = np.full(n_shots, -1, dtype=np.int64)
    out_edge = np.full(n_shots, -1, dtype=np.int64)
    out_t = np.full(n_shots, np.inf)
    out_pt = np.full((n_shots, 2), np.nan)
    out_body[ws] = body[win]
    out_edge[ws] = edge[win]
    out_t[ws] = tw
    hx = s[:, 0][ws] + tw * d[:, 0][ws]
    hy = s[:, 1][ws] + tw * d[:, 1][ws]
    if world is not None:
        hx = _wrap1(hx, float(world[0]))
        hy = _wrap1(hy, float(world[1]))
    out_pt[ws, 0] = hx
    out_pt[ws, 1] = hy
    return Hits(body=out_body, edge=out_edge, t=out_t, point=out_pt)


def _wrap1(x: F64Array, w: float) -> F64Array:
    """One axis of :func:`asteroids.core.geometry.wrap.wrap_positions`."""
    y = x % w
    return np.where(y >= w, 0.0, y) + 0.0
