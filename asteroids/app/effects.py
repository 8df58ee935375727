"""Cosmetic particles (explosion sparks and ship debris) driven by core events.

They use their own numpy Generator, never the simulation's, and nothing here feeds back into
the game: removing this module would change how the game looks, not how it plays.
"""

from __future__ import annotations

import math

import numpy as np

from asteroids.app.scene import Segments
from asteroids.core import events as ev

__all__ = ["Particles"]

_MAX = 2000


class Particles:
    """Short-lived line particles, advanced once per simulation tick.

    Args:
        width: world width (particles wrap around it).
        height: world height.
        tick_hz: ticks per second, to express lifetimes in seconds.
        seed: seed of the cosmetic generator.
    """

    def __init__(self, width: float, height: float, tick_hz: float, seed: int = 0) -> None:
        self.size = np.array([width, height], dtype=np.float64)
        self.tick_hz = tick_hz
        self.rng = np.random.default_rng(seed)
        self.pos = np.zeros((0, 2))
        self.vel = np.zeros((0, 2))
        self.half = np.zeros((0, 2))
        """Half of each particle's segment (a spark is nearly a dot, debris a short line)."""
        self.spin = np.zeros(0)
        """Radians per tick that the segment turns."""
        self.ttl = np.zeros(0)
        self.ttl0 = np.zeros(0)

    def __len__(self) -> int:
        return int(self.ttl.shape[0])

    def _append(self, pos: np.ndarray, vel: np.ndarray, half: np.ndarray, spin: np.ndarray,
                ttl: np.ndarray) -> None:
        self.pos = np.concatenate([self.pos, pos])[-_MAX:]
        self.vel = np.concatenate([self.vel, vel])[-_MAX:]
        self.half = np.concatenate([self.half, half])[-_MAX:]
        self.spin = np.concatenate([self.spin, spin])[-_MAX:]
        self.ttl = np.concatenate([self.ttl, ttl])[-_MAX:]
        self.ttl0 = np.concatenate([self.ttl0, ttl])[-_MAX:]

    def burst(self, x: float, y: float, count: int, speed_px_s: float, life_s: float) -> None:
        """Sparks flying out from (x, y) in random directions."""
        rng = self.rng
        angle = rng.uniform(0.0, 2.0 * math.pi, count)
        speed = rng.uniform(0.2, 1.0, count) * speed_px_s / self.tick_hz
        direction = np.stack([np.cos(angle), np.sin(angle)], axis=1)
        pos = np.array([x, y]) + direction * rng.uniform(0.0, 6.0, (count, 1))
        ttl = rng.uniform(0.5, 1.0, count) * life_s * self.tick_hz
        self._append(pos, direction * speed[:, None], direction * 0.8, np.zeros(count), ttl)

    def debris(self, x: float, y: float, count: int, length: float, life_s: float) -> None:
        """Tumbling line pieces (a broken ship)."""
        rng = self.rng
        angle = rng.uniform(0.0, 2.0 * math.pi, count)
        direction = np.stack([np.cos(angle), np.sin(angle)], axis=1)
        speed = rng.uniform(10.0, 40.0, count) / self.tick_hz
        turn = rng.uniform(0.0, 2.0 * math.pi, count)
        half = np.stack([np.cos(turn), np.sin(turn)], axis=1) * (length * 0.5)
        spin = rng.uniform(-0.08, 0.08, count)
        ttl = rng.uniform(0.7, 1.0, count) * life_s * self.tick_hz
        self._append(np.array([x, y]) + direction * 4.0, direction * speed[:, None], half,
                     spin, ttl)

    def on_event(self, event: ev.Event, ship_length: float = 20.0) -> None:
        """Spawn particles for one core event (others are ignored)."""
        if isinstance(event, ev.AsteroidDestroyed):
            count = (24, 16, 10)[min(max(event.size, 0), 2)]
            self.burst(event.x, event.y, count, 90.0 + 40.0 * event.size, 0.7)
        elif isinstance(event, ev.ShipDestroyed):
            self.debris(event.x, event.y, 6, ship_length * 0.5, 2.0)
            self.burst(event.x, event.y, 20, 80.0, 1.0)
        elif isinstance(event, ev.SaucerDestroyed):
            self.burst(event.x, event.y, 30, 120.0, 0.9)
        elif isinstance(event, ev.HyperspaceEntered):
            self.burst(event.x, event.y, 8, 40.0, 0.3)

    def tick(self) -> None:
        """Advance one simulation tick, dropping expired particles."""
        if not len(self):
            return
        self.pos = (self.pos + self.vel) % self.size
        c, s = np.cos(self.spin), np.sin(self.spin)
        hx, hy = self.half[:, 0], self.half[:, 1]
        self.half = np.stack([c * hx - s * hy, s * hx + c * hy], axis=1)
        self.ttl = self.ttl - 1.0
        live = self.ttl > 0
        if not live.all():
            for name in ("pos", "vel", "half", "spin", "ttl", "ttl0"):
                setattr(self, name, getattr(self, name)[live])

    def segments(self, alpha: float, out: Segments,
                 color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0),
                 style: tuple[float, float] = (1.0, 0.0)) -> None:
        """Append the particles' segments at ``alpha`` of the way to the next tick, in
        ``color`` (its alpha fading with each particle's age) and a line ``style``."""
        if not len(self):
            return
        centre = self.pos + self.vel * alpha
        segs = np.stack([centre - self.half, centre + self.half], axis=1)
        fade = np.clip(self.ttl / np.maximum(self.ttl0, 1.0), 0.0, 1.0)
        cols = np.empty((len(self), 4), np.float32)
        cols[:, :3] = color[:3]
        cols[:, 3] = fade * color[3]
        out.add(segs, cols, style)

    def clear(self) -> None:
        """Remove every particle."""
        keep = np.zeros(len(self), bool)
        for name in ("pos", "vel", "half", "spin", "ttl", "ttl0"):
            setattr(self, name, getattr(self, name)[keep])
