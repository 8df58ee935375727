"""Making asteroids: outlines, new waves and the fragments of a broken rock.

All chance comes from the world's PCG32 and all maths is IEEE ``+ - * / sqrt``, so the
same seed makes the same rocks everywhere.
"""

from __future__ import annotations

import math

import numpy as np

from asteroids.core.params import Params
from asteroids.core.rng import Pcg32
from asteroids.core.tables import CLASSIC_ROCKS, COS, HEADING_STEPS, SIN
from asteroids.core.world import Draft

__all__ = ["NewRock", "append_rocks", "make_outline", "split_rock", "spawn_wave", "wave_size"]

_COS = COS.tolist()
_SIN = SIN.tolist()
_CLASSIC = tuple(
    (rock.tolist(), max(math.sqrt(x * x + y * y) for x, y in rock.tolist()))
    for rock in CLASSIC_ROCKS
)


class NewRock:
    """An asteroid about to join the world (appended after the tick's hits are resolved)."""

    __slots__ = ("angle", "outline", "radius", "size", "spin", "vx", "vy", "x", "y")

    def __init__(self, size: int, x: float, y: float, vx: float, vy: float, angle: int,
                 spin: int, outline: list[tuple[float, float]], radius: float) -> None:
        self.size, self.x, self.y, self.vx, self.vy = size, x, y, vx, vy
        self.angle, self.spin, self.outline, self.radius = angle, spin, outline, radius


def make_outline(rng: Pcg32, p: Params, size: int) -> tuple[list[tuple[float, float]], float]:
    """A rock outline (counter-clockwise, relative to its centre) and its bounding radius."""
    r = p.radius[size]
    if p.classic_shapes:
        points, extent = _CLASSIC[rng.below(len(_CLASSIC))]
        scale = r / extent
        outline = [(x * scale, y * scale) for x, y in points]
    else:
        k = rng.between(p.vertices_min, p.vertices_max)
        jitter = max(1, HEADING_STEPS // (3 * k))
        outline = []
        for i in range(k):
            # Evenly spaced angles plus a jitter below a third of the gap keep the points in
            # angular order, so the outline never crosses itself.
            a = (i * HEADING_STEPS) // k + rng.below(jitter)
            rr = r * (1.0 - p.jaggedness * rng.unit())
            outline.append((_COS[a] * rr, _SIN[a] * rr))
    radius = max(math.sqrt(x * x + y * y) for x, y in outline)
    return outline, radius


def _axis_speed(rng: Pcg32, p: Params) -> float:
    return rng.sign() * rng.uniform(p.ast_speed_min, p.ast_speed_max)


def _clamp_axis(v: float, lo: float, hi: float) -> float:
    """Clamp |v| into [lo, hi], keeping the sign (the 1979 rule for fragment speeds)."""
    mag = v if v >= 0.0 else -v
    mag = min(max(mag, lo), hi)
    return mag if v >= 0.0 else -mag


def _new_rock(rng: Pcg32, p: Params, size: int, x: float, y: float, vx: float,
              vy: float) -> NewRock:
    outline, radius = make_outline(rng, p, size)
    angle = rng.below(HEADING_STEPS)
    spin = rng.between(-p.spin_max_steps, p.spin_max_steps) if p.spin_max_steps else 0
    return NewRock(size, x, y, vx, vy, angle, spin, outline, radius)


def wave_size(p: Params, wave: int) -> int:
    """Large asteroids in wave ``wave`` (1-based): first, +increment each wave, capped."""
    return min(p.first_wave + p.wave_increment * (wave - 1), p.max_wave, p.ast_max)


def spawn_wave(d: Draft, p: Params, rng: Pcg32, count: int) -> list[NewRock]:
    """``count`` large rocks on the playfield's edges, kept away from the ship.

    Each rock tries a few random edge points and takes the first at least
    ``spawn_clearance`` from the ship (measured across the wrap seam when the ship wraps);
    if none is far enough it takes the farthest it tried.
    """
    rocks = []
    r = p.radius[0]
    w, h = p.width, p.height
    inset = 0.0 if p.wrap_asteroids else r
    for _ in range(count):
        best: tuple[float, float] | None = None
        best_d2 = -1.0
        for _attempt in range(8):
            if rng.below(2):
                x = inset if rng.below(2) else w - inset
                y = rng.uniform(inset, h - inset)
            else:
                x = rng.uniform(inset, w - inset)
                y = inset if rng.below(2) else h - inset
            if p.wrap_asteroids:
                x, y = (0.0 if x >= w else x), (0.0 if y >= h else y)  # [0, W) x [0, H)
            dx, dy = x - d.ship_x, y - d.ship_y
            if p.wrap_ship or p.wrap_asteroids:
                dx = _min_image(dx, w)
                dy = _min_image(dy, h)
            d2 = dx * dx + dy * dy
            if d2 > best_d2:
                best, best_d2 = (x, y), d2
            if d2 >= p.spawn_clearance * p.spawn_clearance:
                break
        assert best is not None
        rocks.append(_new_rock(rng, p, 0, best[0], best[1], _axis_speed(rng, p),
                               _axis_speed(rng, p)))
    return rocks


def _min_image(dx: float, size: float) -> float:
    if dx > 0.5 * size:
        return dx - size
    if dx < -0.5 * size:
        return dx + size
    return dx


def split_rock(rng: Pcg32, p: Params, size: int, x: float, y: float, vx: float, vy: float,
               room: int) -> list[NewRock]:
    """The fragments of a broken rock: up to ``split_children`` of the next size.

    Each inherits the parent's place and velocity plus a random kick per axis, clamped as in
    1979 so no fragment is too slow or too fast on either axis. ``room`` is how many more
    asteroids the cap allows; at the cap a split makes fewer fragments or none.
    """
    if size >= 2:
        return []
    n = min(p.split_children, max(0, room))
    kids = []
    for _ in range(n):
        kvx = _clamp_axis(vx + rng.uniform(-p.split_kick, p.split_kick), p.ast_speed_min,
                          p.ast_speed_max)
        kvy = _clamp_axis(vy + rng.uniform(-p.split_kick, p.split_kick), p.ast_speed_min,
                          p.ast_speed_max)
        kids.append(_new_rock(rng, p, size + 1, x, y, kvx, kvy))
    return kids


def append_rocks(d: Draft, rocks: list[NewRock]) -> None:
    """Add new rocks at the end of the asteroid arrays, with fresh ids."""
    if not rocks:
        return
    n = len(rocks)
    ids = np.arange(d.next_id, d.next_id + n, dtype=np.int64)
    d.next_id += n
    local = [pt for rock in rocks for pt in rock.outline]
    counts = np.array([len(rock.outline) for rock in rocks], dtype=np.int64)
    base = d.ast_offsets[-1] if d.ast_offsets.shape[0] else 0
    d.ast_id = np.concatenate([d.ast_id, ids])
    d.ast_size = np.concatenate([d.ast_size, np.array([k.size for k in rocks], dtype=np.int64)])
    d.ast_pos = np.concatenate([d.ast_pos, np.array([(k.x, k.y) for k in rocks])])
    d.ast_vel = np.concatenate([d.ast_vel, np.array([(k.vx, k.vy) for k in rocks])])
    d.ast_angle = np.concatenate([d.ast_angle, np.array([k.angle for k in rocks],
                                                        dtype=np.int64)])
    d.ast_spin = np.concatenate([d.ast_spin, np.array([k.spin for k in rocks], dtype=np.int64)])
    d.ast_radius = np.concatenate([d.ast_radius, np.array([k.radius for k in rocks])])
    d.ast_local = np.concatenate([d.ast_local, np.array(local, dtype=np.float64)])
    starts = d.ast_offsets if d.ast_offsets.shape[0] else np.zeros(1, dtype=np.int64)
    d.ast_offsets = np.concatenate([starts, base + np.cumsum(counts)])
