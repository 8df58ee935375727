"""Deterministic benchmark scenes: jagged asteroid outlines and short shot segments."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Scene", "make_scene"]

WORLD = (1920.0, 1080.0)
"""The benchmark world, width and height in pixels."""


@dataclass(frozen=True)
class Scene:
    """One benchmark scene: packed outlines plus shots, and the pose data that produced them."""

    centers: np.ndarray
    """(N, 2) asteroid centers."""
    cos_sin: np.ndarray
    """(N, 2) rotation of each asteroid."""
    local: np.ndarray
    """(V, 2) outline points relative to their center (12 per asteroid)."""
    offsets: np.ndarray
    """(N + 1,) packed offsets."""
    points: np.ndarray
    """(V, 2) world outline points."""
    velocity: np.ndarray
    """(N, 2) asteroid displacement per tick (used to advance the scene between repetitions)."""
    starts: np.ndarray
    """(S, 2) shot starts."""
    ends: np.ndarray
    """(S, 2) shot ends."""


def make_scene(n: int, s: int, seed: int = 0, *, aimed: float = 0.8, m: int = 12) -> Scene:
    """N asteroids of ``m`` irregular (generally non-convex) points, radius 10-40 px, vertices
    at 0.65-1 of the radius, and S shots of 10-30 px; ``aimed`` of the shots cross an edge.
    """
    rng = np.random.default_rng(seed)
    w, h = WORLD
    centers = np.column_stack([rng.uniform(0, w, n), rng.uniform(0, h, n)])
    radius = rng.uniform(10.0, 40.0, n)
    ang = np.linspace(0.0, 2.0 * np.pi, m, endpoint=False)[None, :] + rng.uniform(
        -0.2, 0.2, (n, m)
    )
    rr = radius[:, None] * rng.uniform(0.65, 1.0, (n, m))
    local = np.stack([rr * np.cos(ang), rr * np.sin(ang)], axis=-1).reshape(n * m, 2)
    theta = rng.uniform(0.0, 2.0 * np.pi, n)
    cos_sin = np.column_stack([np.cos(theta), np.sin(theta)])
    offsets = np.arange(0, n * m + 1, m, dtype=np.int64)
    rep = np.repeat(np.arange(n), m)
    c, sn = cos_sin[rep, 0], cos_sin[rep, 1]
    points = np.column_stack([
        centers[rep, 0] + c * local[:, 0] - sn * local[:, 1],
        centers[rep, 1] + sn * local[:, 0] + c * local[:, 1],
    ])
    speed = rng.uniform(0.5, 2.0, n)
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    velocity = np.column_stack([speed * np.cos(heading), speed * np.sin(heading)])
    length = rng.uniform(10.0, 30.0, s)
    direction = rng.uniform(0.0, 2.0 * np.pi, s)
    dvec = np.column_stack([np.cos(direction), np.sin(direction)]) * length[:, None]
    starts = np.column_stack([rng.uniform(0, w, s), rng.uniform(0, h, s)])
    if n:
        n_aim = int(round(aimed * s))
        # Aim a shot across a random edge: its midpoint is a point on that edge.
        e = rng.integers(0, n * m, n_aim)
        nxt = np.where((e + 1) % m == 0, e + 1 - m, e + 1)
        u = rng.uniform(0.0, 1.0, n_aim)[:, None]
        on_edge = points[e] + u * (points[nxt] - points[e])
        starts[:n_aim] = on_edge - rng.uniform(0.1, 0.9, n_aim)[:, None] * dvec[:n_aim]
    ends = starts + dvec
    return Scene(centers, cos_sin, local, offsets, points, velocity, starts, ends)
