"""What to draw, as numpy line segments: pure, vectorised, no arcade (testable without GL).

Each frame the shell draws the state between the previous and the current tick: positions
are interpolated across the wrap seam (``prev + wrap_delta(cur - prev) * alpha``), objects new
this tick are drawn where they are, and anything straddling an edge of a wrapping world is
drawn again shifted by the world's width or height (a "ghost"). Nothing here feeds back into
the simulation.

The rocks are the exception to "segments": they stay one ``RockOutlines`` record (poses and
the world's outline points), which the renderer draws as one quad per rock; ``Segments``
expands them into segments (with their ghosts) only for code that asks for segments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from asteroids.app.enemy_looks import look_of, segments_of
from asteroids.app.palettes import PLAIN, VECTOR, Palette
from asteroids.app.scene_wrap import (
    ALL_SHIFTS,
    VERTICAL_SHIFTS,
    circle,
    closed_loops,
    ghost_index,
    lerp_angle,
    lerp_positions,
    loop,
    match_ids,
    wrap_ghosts,
)
from asteroids.config import Config
from asteroids.core.bodies import ENEMIES
from asteroids.core.geometry import transform_outlines, wrap_delta
from asteroids.core.params import Params, params_for
from asteroids.core.saucer import saucer_outline
from asteroids.core.ship import ship_outline
from asteroids.core.tables import HEADING_STEPS, SHIP_OUTLINE
from asteroids.core.world import SHOOTER_SAUCER, World

__all__ = [
    "FLOATS_PER_SEGMENT",
    "GRACE_BLINK_TICKS",
    "ICON_PITCH",
    "RockOutlines",
    "SceneBuilder",
    "Segments",
    "closed_loops",
    "ghost_index",
    "lerp_positions",
    "match_ids",
    "protected",
    "wall_segments",
    "wrap_ghosts",
]

ICON_PITCH = 1.8
"""Spare-ship icons sit this many icon lengths apart, centre to centre: an icon's outline is
0.8 of a length wide, and drawn wider by its line, so about half an icon's width of black
separates them (at 0.9 they touched and read as "AAA")."""

GRACE_BLINK_TICKS = 6
"""While its grace lasts (``World.ship_grace``) the ship blinks: shown for this many ticks,
hidden for as many."""

_STEP_RAD = 2.0 * math.pi / HEADING_STEPS
FLOATS_PER_SEGMENT = 10
"""A packed segment (``Segments.packed``): its two ends (4), RGBA (4), width factor and dash
length (2), as ``asteroids.app.render.LineRenderer`` uploads it."""
_JUMP_PX = 60.0
"""A move longer than this in one tick is a teleport (respawn, hyperspace): not interpolated."""


@dataclass(eq=False)
class RockOutlines:
    """A frame's rocks as poses and outlines, not segments: ``OutlineRenderer`` draws them as
    one quad each; ``segments`` expands them for whoever wants plain segments.

    Attributes:
        pos: (N, 2) centres, world units.
        cos_sin: (N, 2) rotations as cosines and sines.
        local: (V, 2) packed outline points relative to each centre (the world's
            ``ast_local``: the renderer keys its points texture on this array's identity).
        offsets: (N + 1,) where each rock's points start.
        radius: (N,) bounding radii (``World.ast_radius``).
        color: RGBA in 0..1.
        style: (width factor, dash length), as the palette gives it.
        wraps: whether the rocks wrap at the world's edges (drawn again across the seam).
        size: (2,) world width and height.
    """

    pos: np.ndarray
    cos_sin: np.ndarray
    local: np.ndarray
    offsets: np.ndarray
    radius: np.ndarray
    color: tuple[float, ...]
    style: tuple[float, float]
    wraps: bool
    size: np.ndarray
    _segments: np.ndarray | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return int(self.pos.shape[0])

    def segments(self) -> np.ndarray:
        """The rocks as (S, 2, 2) world segments: every edge, then the wrap ghosts
        (``ghost_index`` order), as the segment path drew them (computed once)."""
        if self._segments is None:
            pts = transform_outlines(self.pos, self.cos_sin, self.local, self.offsets)
            segs = closed_loops(pts, self.offsets)
            if self.wraps:
                idx, moves = ghost_index(segs, self.size)
                if idx.shape[0]:
                    segs = np.concatenate([segs, segs[idx] + moves])
            self._segments = segs
        return self._segments


class Segments:
    """A growing list of coloured, styled segments, packed once per frame.

    The rocks are kept as one ``RockOutlines`` record (``add_rocks``) where they were added:
    ``packed(rocks=False)`` leaves them out for the renderer, which draws them itself;
    everything else (``arrays``, ``styles``, ``len``, ``packed()``) counts them as the
    segments they expand to, in the order they were added.
    """

    def __init__(self) -> None:
        self._segs: list[np.ndarray | RockOutlines] = []
        self._cols: list[np.ndarray] = []
        self._styles: list[tuple[float, float] | np.ndarray] = []
        self.rocks: RockOutlines | None = None
        """The frame's rocks (None: none added)."""

    def add(self, segs: np.ndarray, color: tuple[float, ...] | np.ndarray,
            style: tuple[float, float] | np.ndarray = PLAIN) -> None:
        """Append (S, 2, 2) segments in one colour (4,) or per-segment colours (S, 4), all
        with one ``(width factor, dash length)`` style (or (S, 2) per-segment styles)."""
        if segs.shape[0] == 0:
            return
        col = np.asarray(color, dtype=np.float32)
        self._segs.append(np.asarray(segs).reshape(-1, 2, 2))
        self._cols.append(col)
        self._styles.append(style)

    def add_rocks(self, rocks: RockOutlines) -> None:
        """Append the frame's rocks (at most one record per frame)."""
        if self.rocks is not None:
            raise ValueError("Segments holds one RockOutlines record per frame")
        if len(rocks) == 0:
            return
        self.rocks = rocks
        self._segs.append(rocks)
        self._cols.append(np.asarray(rocks.color, dtype=np.float32))
        self._styles.append(rocks.style)

    def _parts(self, rocks: bool) -> list[tuple[np.ndarray, np.ndarray,
                                                tuple[float, float] | np.ndarray]]:
        parts = []
        for segs, col, style in zip(self._segs, self._cols, self._styles, strict=True):
            if isinstance(segs, RockOutlines):
                if not rocks:
                    continue
                segs = segs.segments()
            parts.append((segs, col, style))
        return parts

    def __len__(self) -> int:
        return sum(s.shape[0] for s, _, _ in self._parts(True))

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(S, 2, 2) float32 segment ends and (S, 4) float32 colours (rocks included)."""
        packed = self.packed()
        return (np.ascontiguousarray(packed[:, :4]).reshape(-1, 2, 2),
                np.ascontiguousarray(packed[:, 4:8]))

    def styles(self) -> np.ndarray:
        """(S, 2) float32 width factors and dash lengths (rocks included)."""
        return np.ascontiguousarray(self.packed()[:, 8:])

    def packed(self, rocks: bool = True) -> np.ndarray:
        """Everything as one (S, ``FLOATS_PER_SEGMENT``) float32 array, ready to upload:
        ends (4), RGBA (4), width factor, dash length.

        Args:
            rocks: include the rocks as segments; ``False`` for a renderer that draws
                ``self.rocks`` itself (``LineRenderer.upload``).
        """
        parts = self._parts(rocks)
        total = sum(s.shape[0] for s, _, _ in parts)
        out = np.empty((total, FLOATS_PER_SEGMENT), np.float32)
        i = 0
        for segs, col, style in parts:
            j = i + segs.shape[0]
            out[i:j, :4] = segs.reshape(-1, 4)
            out[i:j, 4:8] = col
            out[i:j, 8:] = style
            i = j
        return out


WALL_INSET = 1.0
"""How far inside the playfield the walls are drawn (world units), so a wide line stays whole
inside it."""


def wall_segments(params: Params, inset: float = WALL_INSET) -> np.ndarray:
    """The playfield's walls, (S, 2, 2) world units: an edge gets a wall when something
    bounces off it under the rules' ``[borders]`` (the ship, rocks or shots: all four edges;
    saucers only at the top and bottom); none when everything wraps.

    >>> from asteroids.config import load_config
    >>> from asteroids.core.params import compile_params
    >>> wall_segments(compile_params(load_config())).shape
    (0, 2, 2)
    >>> arena = load_config(overrides=["borders.saucers=bounce"])
    >>> wall_segments(compile_params(arena), 0.0)[:, :, 1].tolist()
    [[0.0, 0.0], [720.0, 720.0]]
    """
    sides = not (params.wrap_ship and params.wrap_asteroids and params.wrap_shots)
    ends = sides or not params.wrap_saucers
    x0, y0, x1, y1 = inset, inset, params.width - inset, params.height - inset
    segs = []
    if ends:
        segs += [((x0, y0), (x1, y0)), ((x0, y1), (x1, y1))]
    if sides:
        segs += [((x0, y0), (x0, y1)), ((x1, y0), (x1, y1))]
    return np.array(segs, np.float64).reshape(-1, 2, 2)


def protected(world: World) -> bool:
    """Whether the ship cannot be hit now: the grace a game's start or a return gives
    (``ship.grace_s``; ``World.ship_grace`` ticks are left)."""
    return world.ship_grace > 0


class SceneBuilder:
    """Builds a frame's segments from two consecutive Worlds.

    Args:
        config: the settings the game runs under (read for sizes and border modes only).
    """

    def __init__(self, config: Config) -> None:
        self.params: Params = params_for(config)
        p = self.params
        self.size = np.array([p.width, p.height], dtype=np.float64)
        self.shot_length = float(config.shots.length_px)
        obstacles = closed_loops(p.obstacle_points, p.obstacle_offsets) \
            if p.obstacle_points.shape[0] else np.zeros((0, 2, 2))
        self._obstacles = np.concatenate([wall_segments(p), obstacles])
        """The walls where borders bounce (``wall_segments``) and the obstacles: drawn alike,
        as what the ship and rocks rebound from."""

    def _size_if(self, wraps: bool) -> np.ndarray | None:
        return self.size if wraps else None

    def _add_wrapped(self, out: Segments, segs: np.ndarray, palette: Palette, kind: str,
                     wraps: bool, shifts: tuple[tuple[int, int], ...] = ALL_SHIFTS) -> None:
        color, style = palette.color(kind), palette.style(kind)
        out.add(segs, color, style)
        if wraps:
            idx, moves = ghost_index(segs, self.size, shifts)
            if idx.shape[0]:
                out.add(segs[idx] + moves, color, style)

    def build(self, prev: World, cur: World, alpha: float, out: Segments | None = None,
              palette: Palette = VECTOR) -> Segments:
        """All segments of the playfield at ``alpha`` of the way from ``prev`` to ``cur``.

        Args:
            prev: the world one tick before ``cur`` (``cur`` itself when there is none).
            cur: the latest world.
            alpha: interpolation fraction in [0, 1].
            out: a list to append to; a new one when None.
            palette: the colours and line styles of each kind.
        """
        out = out if out is not None else Segments()
        out.add(self._obstacles, palette.obstacle, palette.style("obstacle"))
        self._asteroids(prev, cur, alpha, out, palette)
        self._ship(prev, cur, alpha, out, palette)
        self._saucer(prev, cur, alpha, out, palette)
        self._enemies(prev, cur, alpha, out, palette)
        self._shots(prev, cur, alpha, out, palette)
        return out

    def asteroid_points(self, prev: World, cur: World, alpha: float
                        ) -> tuple[np.ndarray, np.ndarray]:
        """The rocks' outlines at ``alpha``: (V, 2) packed world points and (N + 1,) offsets
        (no wrap ghosts)."""
        pos, cos_sin = self.asteroid_poses(prev, cur, alpha)
        return transform_outlines(pos, cos_sin, cur.ast_local, cur.ast_offsets), cur.ast_offsets

    def asteroid_poses(self, prev: World, cur: World, alpha: float
                       ) -> tuple[np.ndarray, np.ndarray]:
        """The rocks' centres (N, 2) and rotations as (N, 2) cosines and sines at ``alpha``
        (a rock born this tick is where it was born)."""
        p = self.params
        pos = np.array(cur.ast_pos, dtype=np.float64)
        angle = cur.ast_angle.astype(np.float64)
        idx, found = match_ids(prev.ast_id, cur.ast_id)
        if found.any():
            src = idx[found]
            pos[found] = lerp_positions(prev.ast_pos[src], cur.ast_pos[found], alpha,
                                        self._size_if(p.wrap_asteroids))
            angle[found] = lerp_angle(prev.ast_angle[src].astype(np.float64),
                                       angle[found], alpha)
        theta = angle * _STEP_RAD
        return pos, np.stack([np.cos(theta), np.sin(theta)], axis=1)

    def _asteroids(self, prev: World, cur: World, alpha: float, out: Segments,
                   palette: Palette = VECTOR) -> None:
        if cur.ast_id.shape[0] == 0:
            return
        pos, cos_sin = self.asteroid_poses(prev, cur, alpha)
        out.add_rocks(RockOutlines(
            pos=pos, cos_sin=cos_sin, local=cur.ast_local, offsets=cur.ast_offsets,
            radius=cur.ast_radius, color=tuple(palette.color("asteroid")),
            style=palette.style("asteroid"), wraps=self.params.wrap_asteroids,
            size=self.size))

    def ship_pose(self, prev: World, cur: World, alpha: float) -> tuple[float, float, float]:
        """Interpolated ship (x, y, heading in steps); no interpolation across a teleport."""
        x, y, h = cur.ship_x, cur.ship_y, float(cur.ship_heading)
        if prev.ship_visible:
            delta = np.array([cur.ship_x - prev.ship_x, cur.ship_y - prev.ship_y])
            if self.params.wrap_ship:
                delta = wrap_delta(delta, self.size)
            if abs(delta[0]) + abs(delta[1]) < _JUMP_PX:
                x = prev.ship_x + float(delta[0]) * alpha
                y = prev.ship_y + float(delta[1]) * alpha
                h = float(lerp_angle(np.float64(prev.ship_heading), np.float64(h), alpha))
        return x, y, h

    def _ship(self, prev: World, cur: World, alpha: float, out: Segments,
              palette: Palette = VECTOR) -> None:
        if not cur.ship_visible:
            return
        if protected(cur) and (cur.ship_grace // GRACE_BLINK_TICKS) % 2:
            return  # blinking: nothing can hit the ship while its grace lasts
        p = self.params
        x, y, h = self.ship_pose(prev, cur, alpha)
        hull = ship_outline(p, x, y, round(h) % HEADING_STEPS)
        self._add_wrapped(out, loop(hull), palette, "ship", p.wrap_ship)
        if cur.thrusting and cur.tick % 3 != 0:
            c, s = math.cos(h * _STEP_RAD), math.sin(h * _STEP_RAD)
            flame = np.array([(-0.42, 0.2), (-0.85, 0.0), (-0.42, -0.2)]) * p.ship_length_px
            world = np.stack([x + c * flame[:, 0] - s * flame[:, 1],
                              y + s * flame[:, 0] + c * flame[:, 1]], axis=1)
            segs = np.stack([world[:-1], world[1:]], axis=1)
            self._add_wrapped(out, segs, palette, "flame", p.wrap_ship)
        if cur.shield_on:
            self._add_wrapped(out, circle(x, y, p.ship_shield_radius_px), palette, "shield",
                              p.wrap_ship)

    def _saucer(self, prev: World, cur: World, alpha: float, out: Segments,
                palette: Palette = VECTOR) -> None:
        if not cur.saucer_alive:
            return
        p = self.params
        x, y = cur.saucer_x, cur.saucer_y
        if prev.saucer_alive:
            delta = np.array([cur.saucer_x - prev.saucer_x, cur.saucer_y - prev.saucer_y])
            if p.wrap_saucers:
                delta = wrap_delta(delta, self.size)
            if abs(delta[0]) + abs(delta[1]) < _JUMP_PX:
                x = prev.saucer_x + float(delta[0]) * alpha
                y = prev.saucer_y + float(delta[1]) * alpha
        pts = saucer_outline(p, x, y, cur.saucer_small)
        # Hull outline plus the two classic cross lines (rim and dome base).
        segs = np.concatenate([loop(pts), np.stack([pts[[0, 7]], pts[[3, 4]]], axis=1)])
        self._add_wrapped(out, segs, palette, "saucer", p.wrap_saucers, VERTICAL_SHIFTS)

    def _enemies(self, prev: World, cur: World, alpha: float, out: Segments,
                 palette: Palette = VECTOR) -> None:
        """Each declared enemy in play (``bodies.ENEMIES``) as its look draws it
        (``enemy_looks``), moved to where it is at ``alpha``, with its wrap ghosts."""
        p = self.params
        for enemy in ENEMIES:
            craft = enemy.craft(cur, p)
            if craft is None:
                continue
            segs = segments_of(enemy.label, craft)
            before = enemy.craft(prev, p)
            if before is not None:
                delta = wrap_delta(np.array([craft.x - before.x, craft.y - before.y]), self.size)
                if abs(delta[0]) + abs(delta[1]) < _JUMP_PX:
                    segs = segs - delta * (1.0 - alpha)
            self._add_wrapped(out, segs, palette, look_of(enemy.label).palette_kind, True)

    def shot_segments(self, prev: World, cur: World, alpha: float) -> np.ndarray:
        """Every shot as a (S, 2, 2) tail-to-head segment at ``alpha`` (no wrap ghosts)."""
        p = self.params
        head = np.array(cur.shot_pos, dtype=np.float64)
        idx, found = match_ids(prev.shot_id, cur.shot_id)
        if found.any():
            src = idx[found]
            moved = lerp_positions(prev.shot_pos[src], cur.shot_pos[found], alpha,
                                   self._size_if(p.wrap_shots))
            # A shot that ricocheted this tick jumps; draw it where it is.
            jump = np.abs(moved - cur.shot_pos[found]).max(axis=1) > _JUMP_PX
            head[found] = np.where(jump[:, None], cur.shot_pos[found], moved)
        vel = cur.shot_vel
        speed = np.sqrt(vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1])
        unit = vel / np.maximum(speed, 1e-9)[:, None]
        length = max(self.shot_length, 1.0)
        tail = head - unit * length
        return np.stack([tail, head], axis=1)

    def _shots(self, prev: World, cur: World, alpha: float, out: Segments,
               palette: Palette = VECTOR) -> None:
        if cur.shot_id.shape[0] == 0:
            return
        p = self.params
        segs = self.shot_segments(prev, cur, alpha)
        saucers = (cur.shot_owner == SHOOTER_SAUCER)[:, None]
        cols = np.where(saucers, np.asarray(palette.shot_saucer, np.float32),
                        np.asarray(palette.shot_ship, np.float32)).astype(np.float32)
        ship_style, saucer_style = palette.style("shot_ship"), palette.style("shot_saucer")
        styles: tuple[float, float] | np.ndarray = ship_style
        if saucer_style != ship_style:
            styles = np.where(saucers, np.asarray(saucer_style, np.float32),
                              np.asarray(ship_style, np.float32))
        out.add(segs, cols, styles)
        if p.wrap_shots:
            idx, moves = ghost_index(segs, self.size)
            if idx.shape[0]:
                out.add(segs[idx] + moves, cols[idx],
                        styles[idx] if isinstance(styles, np.ndarray) else styles)

    def life_icons(self, lives: int, x: float, y: float, out: Segments, scale: float = 0.8,
                   palette: Palette = VECTOR) -> None:
        """Spare-ship icons pointing up, left to right from (x, y) (their centres)."""
        length = self.params.ship_length_px * scale
        gap = length * ICON_PITCH
        shape = SHIP_OUTLINE[:, ::-1] * np.array([-1.0, 1.0]) * length  # rotate to point up
        style = palette.style("icon")
        for i in range(max(0, min(lives, 12))):
            out.add(loop(shape + np.array([x + i * gap, y])), palette.icon, style)
