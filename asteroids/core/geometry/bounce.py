"""Bounce maths: positions folded into a box, reflections off surfaces, and a straight move
split into the pieces it travels between wall bounces. Kernels: float64 arrays in, no checks
(see ``checks``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asteroids.core.geometry.checks import BoolArray, F64Array

__all__ = ["WallBounce", "bounce_positions", "reflect", "remaining_travel",
           "segment_wall_bounce"]


def bounce_positions(
    p: F64Array, v: F64Array, lo: F64Array, hi: F64Array
) -> tuple[F64Array, F64Array]:
    """Fold positions back into an axis-aligned box, for any overshoot (triangle wave).

    Each axis is folded independently: a position that went ``k`` box widths past a wall is
    reflected ``k`` times, and its velocity on that axis flips sign when ``k`` is odd.

    Args:
        p: ``(N, 2)`` proposed positions (after moving this tick), world units.
        v: ``(N, 2)`` velocities that produced them, world units per tick.
        lo: ``(2,)`` lower corner of the box (or ``(N, 1)``/``(N, 2)``: a box per row).
        hi: ``(2,)`` upper corner of the box; finite, ``hi > lo``.

    Returns:
        ``(positions, velocities)``, both ``(N, 2)``; positions lie in ``[lo, hi]`` (NaN where
        the input is not finite).

    >>> pos, vel = bounce_positions(np.array([[-806.7, 5.0]]), np.array([[-1667.0, 0.0]]),
    ...                             np.array([20.0, 0.0]), np.array([780.0, 10.0]))
    >>> round(float(pos[0, 0]), 6), float(vel[0, 0])  # two walls crossed: same sign
    (713.3, -1667.0)
    """
    span = hi - lo
    k, rem = np.divmod(p - lo, span)
    odd = (k % 2.0) != 0.0
    pos = np.where(odd, hi - rem, lo + rem)
    pos = np.minimum(np.maximum(pos, lo), hi) + 0.0
    vel = np.where(odd, -v, v) + 0.0
    return pos, vel


def reflect(
    v: F64Array, n: F64Array, restitution: float = 1.0, *, approaching_only: bool = False
) -> F64Array:
    """Reflect velocities off unit normals: ``v - (1 + e) (v . n) n``.

    Args:
        v: ``(N, 2)`` velocities (any unit).
        n: ``(N, 2)`` unit normals (or ``(2,)``, broadcast).
        restitution: ``e >= 0``, finite (as the schema's ranges are); scales the normal
            component after the bounce (1 = elastic mirror, 0 = slide along the surface,
            above 1 a bouncy surface that adds speed, as ``ship.shield.restitution`` up to
            1.5 asks). The tangential part is kept.
        approaching_only: if True, rows moving away from the surface (``v . n >= 0``) are
            returned unchanged, so touching bodies that already separate do not stick.

    Returns:
        ``(N, 2)`` reflected velocities.

    >>> reflect(np.array([[3.0, -4.0]]), np.array([[0.0, 1.0]])).tolist()
    [[3.0, 4.0]]
    """
    e = float(restitution)
    vn = v[..., 0] * n[..., 0] + v[..., 1] * n[..., 1]
    k = (1.0 + e) * vn
    if approaching_only:
        k = np.where(vn < 0.0, k, 0.0)
    out = np.empty(np.broadcast_shapes(v.shape, n.shape), dtype=np.float64)
    out[..., 0] = v[..., 0] - k * n[..., 0]
    out[..., 1] = v[..., 1] - k * n[..., 1]
    return out + 0.0


def remaining_travel(
    point: F64Array,
    t: F64Array,
    displacement: F64Array,
    normal: F64Array,
    restitution: float = 1.0,
) -> tuple[F64Array, F64Array]:
    """Continue a move that bounced part-way through a tick.

    An object moving by ``displacement`` this tick touched a surface with unit ``normal`` at
    tick fraction ``t`` (``point``). It spends the remaining ``1 - t`` of the tick moving along
    the reflected displacement, so a fast object ends the tick where it should be instead of
    stopping at the wall.

    Args:
        point: ``(N, 2)`` contact positions (e.g. ``Hits.point``).
        t: ``(N,)`` tick fractions of the contact, in ``[0, 1]``.
        displacement: ``(N, 2)`` displacement per tick before the bounce.
        normal: ``(N, 2)`` unit surface normals (e.g. from :func:`edge_normals`).
        restitution: as in :func:`reflect`.

    Returns:
        ``(end, new_displacement)``: ``(N, 2)`` end-of-tick positions and ``(N, 2)`` the
        displacement per tick after the bounce (the new velocity).

    >>> end, d = remaining_travel(np.array([[10.0, 0.0]]), np.array([0.25]),
    ...                           np.array([[0.0, -8.0]]), np.array([[0.0, 1.0]]))
    >>> end.tolist(), d.tolist()
    ([[10.0, 6.0]], [[0.0, 8.0]])
    """
    new_d = reflect(displacement, normal, restitution)
    rest = 1.0 - t
    end = np.empty_like(new_d)
    end[..., 0] = point[..., 0] + rest * new_d[..., 0]
    end[..., 1] = point[..., 1] + rest * new_d[..., 1]
    return end + 0.0, new_d


@dataclass(frozen=True, slots=True)
class WallBounce:
    """A straight move folded into an axis-aligned box, as a polyline of at most K pieces.

    Piece ``k`` of row ``i`` runs from ``starts[i, k]`` to ``ends[i, k]`` during the tick
    fractions ``[t0[i, k], t1[i, k]]``; pieces are in time order and ``valid`` marks the ones
    that exist (zero-length pieces, e.g. at a corner hit, are not valid). Test each valid piece
    for hits in order: the first hit along the polyline is the first hit of the move, at tick
    fraction ``t0 + t_piece * (t1 - t0)``.
    """

    starts: F64Array
    """(N, K, 2) piece start points, inside the box."""
    ends: F64Array
    """(N, K, 2) piece end points, inside the box."""
    t0: F64Array
    """(N, K) tick fraction at which each piece starts."""
    t1: F64Array
    """(N, K) tick fraction at which each piece ends."""
    valid: BoolArray
    """(N, K) True where the piece exists (``t1 > t0``)."""
    end: F64Array
    """(N, 2) exact end-of-tick position (triangle-wave fold), even when truncated."""
    displacement: F64Array
    """(N, 2) displacement per tick after the bounces (signs flipped per axis on an odd number
    of wall crossings): the new velocity."""
    truncated: BoolArray
    """(N,) True where the move crossed walls more than ``K - 1`` times: the last piece is then a
    chord, not the true path (``end`` and ``displacement`` are still exact)."""


def segment_wall_bounce(
    start: F64Array,
    displacement: F64Array,
    lo: F64Array,
    hi: F64Array,
    *,
    max_pieces: int = 4,
) -> WallBounce:
    """Split a straight move into the pieces it travels between wall bounces within one tick.

    The move is unfolded (``start + s * displacement`` for ``s`` in ``[0, 1]``) and each axis
    folded back into the box with a triangle wave, so ricochets off the border keep the exact
    remaining travel. Vectorised over N moves.

    Args:
        start: ``(N, 2)`` positions at the start of the tick, inside ``[lo, hi]``.
        displacement: ``(N, 2)`` displacement this tick, world units.
        lo: ``(2,)`` lower box corner.
        hi: ``(2,)`` upper box corner, finite, ``hi > lo``.
        max_pieces: K >= 1, the number of pieces returned per move (K - 1 bounces).

    Returns:
        A :class:`WallBounce`.

    >>> wb = segment_wall_bounce(np.array([[90.0, 50.0]]), np.array([[20.0, 0.0]]),
    ...                          np.array([0.0, 0.0]), np.array([100.0, 100.0]), max_pieces=2)
    >>> wb.ends[0].tolist(), wb.t1[0].tolist(), wb.end.tolist(), wb.displacement.tolist()
    ([[100.0, 50.0], [90.0, 50.0]], [0.5, 1.0], [[90.0, 50.0]], [[-20.0, 0.0]])
    """
    d = displacement
    n = start.shape[0]
    k_pieces = int(max_pieces)
    span = hi - lo
    # Unit coordinates: walls sit at the integers.
    u0 = (start - lo) / span  # (N, 2)
    m = np.arange(1, k_pieces + 1, dtype=np.float64)  # K candidate crossings per axis
    pos_dir = d > 0.0
    base = np.where(pos_dir, np.floor(u0), np.ceil(u0))  # last integer at or behind u0
    sgn = np.where(pos_dir, 1.0, -1.0)
    walls = lo[None, :, None] + (base[:, :, None] + sgn[:, :, None] * m) * span[None, :, None]
    ahead = walls - start[:, :, None]
    dd = np.broadcast_to(d[:, :, None], ahead.shape)
    # Only walls reached this tick (|ahead| <= |d|): the division then cannot overflow.
    reach = (np.abs(ahead) <= np.abs(dd)) & (dd != 0.0)
    times = np.full(ahead.shape, np.inf)
    np.divide(ahead, dd, out=times, where=reach)
    times = np.where(times <= 0.0, np.inf, times)
    times = np.sort(times.reshape(n, 2 * k_pieces), axis=1)
    truncated = times[:, k_pieces - 1] <= 1.0 if k_pieces >= 1 else np.zeros(n, bool)
    inner = np.minimum(times[:, : k_pieces - 1], 1.0)
    bounds = np.empty((n, k_pieces + 1), dtype=np.float64)
    bounds[:, 0] = 0.0
    bounds[:, 1:k_pieces] = inner
    bounds[:, k_pieces] = 1.0
    # Fold the unfolded points at every boundary; the fold is linear between wall crossings.
    ux = start[:, None, :] + bounds[:, :, None] * d[:, None, :]  # (N, K + 1, 2)
    k, rem = np.divmod(ux - lo, span)
    odd = (k % 2.0) != 0.0
    folded = np.minimum(np.maximum(np.where(odd, hi - rem, lo + rem), lo), hi) + 0.0
    end, new_d = bounce_positions(start + d, d, lo, hi)
    return WallBounce(
        starts=folded[:, :-1],
        ends=folded[:, 1:],
        t0=bounds[:, :-1],
        t1=bounds[:, 1:],
        valid=bounds[:, 1:] > bounds[:, :-1],
        end=end,
        displacement=new_d,
        truncated=truncated,
    )

