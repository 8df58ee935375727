"""Pixel observations: every game of a batch drawn at once by a numpy line rasteriser.

No OpenGL, no window and no gymnasium here: ``Rasteriser.frames`` takes a batch's columns
(``asteroids.core.batch``: ``(B,)`` per-game arrays, rock and shot rows packed with
``ast_rows`` and ``shot_rows``) and returns ``(B, H, W)`` grayscale or ``(B, H, W, 3)`` RGB
uint8 frames of the playfield the game draws (``asteroids.app.scene.SceneBuilder.build``
at ``alpha = 1``), without the HUD: the walls and obstacles, the rocks' outlines, the ship
(hidden while it blinks in its grace; its flame on the ticks the game shows it; its shield),
the saucer with its two cross lines, and every shot as a tail-to-head line of
``shots.length_px``.

Geometry. The whole world is fitted into the ``width`` x ``height`` frame keeping its
aspect, centred, with black bars on the other axis (as the game's window letterboxes it):
a 1280 x 720 world in 84 x 84 is a band 84 px wide and 47.25 px high. Every segment is
sampled at most ``SPACING`` px apart (``np.repeat`` by its length in px) and each sample
lights the pixel it falls in. A kind that wraps has its samples taken modulo the world's
size, which draws a segment that crosses an edge on both sides of the seam, as the game's
ghosts do (the saucer wraps top to bottom only, as the game draws it); a kind that does not
wrap loses the samples outside the world, as the game's scissor does.

Colours are the palette's (``VECTOR``: the game's own look), over black, alpha applied;
grayscale is their luma (0.299 R + 0.587 G + 0.114 B, as ALE and OpenCV compute it). Where
lines of two kinds share a pixel the brighter kind's colour shows (kinds are drawn in order
of luma, so the result does not depend on the order of the rows).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from asteroids.app.palettes import VECTOR, Palette
from asteroids.config.schema import Config
from asteroids.core.batch import take_lanes
from asteroids.core.bodies import CRAFT_ROWS, ENEMIES
from asteroids.core.craft import CraftRows
from asteroids.core.geometry import transform_outlines
from asteroids.core.lanes import MANY, BatchDraft
from asteroids.core.params import params_for
from asteroids.core.saucer import saucer_outline
from asteroids.core.ship import ship_outline_points
from asteroids.core.tables import HEADING_STEPS
from asteroids.core.world import FIELDS, SHIP_FLYING, SHOOTER_SAUCER, World

__all__ = ["COLUMNS", "GRACE_BLINK_TICKS", "OBS_TYPES", "SPACING", "Observations", "Rasteriser",
           "columns_of_world"]

SPACING = 0.25
"""The longest gap between two samples of a segment, in px."""
GRACE_BLINK_TICKS = 6
"""The ship blinks in its grace as the game draws it (``asteroids.app.scene``)."""
_STEP_RAD = 2.0 * math.pi / HEADING_STEPS
_LUMA = np.array([0.299, 0.587, 0.114])
_CIRCLE_SIDES = 20
_FLAME = np.array([(-0.42, 0.2), (-0.85, 0.0), (-0.42, -0.2)])
"""The flame's points in ship lengths (``SceneBuilder._ship``)."""

_SCALARS = ("ship_x", "ship_y", "ship_heading", "ship_state", "ship_grace", "game_over",
            "thrusting", "shield_on", "tick", "saucer_alive", "saucer_x", "saucer_y",
            "saucer_small")
_ROWS = ("ast_pos", "ast_angle", "ast_local", "ast_offsets", "shot_owner", "shot_pos",
         "shot_vel")
COLUMNS = (*_SCALARS, *_ROWS, "ast_rows", "shot_rows")
"""Every column ``Rasteriser.frames`` reads (all of them ``Batch`` attributes)."""


def columns_of_world(world: World, scalars: tuple[str, ...] = _SCALARS,
                     rows: tuple[str, ...] = _ROWS) -> dict[str, np.ndarray]:
    """``world`` as the columns of a batch of one: the per-game fields ``scalars`` as
    ``(1,)`` arrays (every per-game field where ``bodies.ENEMIES`` declares a kind: its
    view reads its own), the row fields ``rows`` as they are, and the row offsets."""
    if ENEMIES:
        scalars = (*scalars, *(f.name for f in FIELDS if f.rows is None and f.name not in scalars))
    columns = {name: np.array([getattr(world, name)]) for name in scalars}
    columns.update({name: getattr(world, name) for name in rows})
    columns["ast_rows"] = np.array([0, world.ast_id.shape[0]])
    columns["shot_rows"] = np.array([0, world.shot_owner.shape[0]])
    return columns


def _loops(points: np.ndarray) -> np.ndarray:
    """(B, n, 2) closed polygons -> (B * n, 2, 2) segments, game after game."""
    return np.stack([points, np.roll(points, -1, axis=1)], axis=2).reshape(-1, 2, 2)


class Rasteriser:
    """Draws the games of one config into ``width`` x ``height`` frames.

    Args:
        config: the rules (world size, wrapping, outlines, shot length).
        width: frame width in px.
        height: frame height in px.
        rgb: (B, H, W, 3) colour frames; else (B, H, W) grayscale.
        palette: the colour of each kind of line.
    """

    def __init__(self, config: Config, width: int = 84, height: int = 84, *,
                 rgb: bool = False, palette: Palette = VECTOR) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"a frame needs at least 1 x 1 px; got {width} x {height}")
        p = params_for(config)
        self.params = p
        self.width, self.height, self.rgb = int(width), int(height), rgb
        self.world_size = np.array([p.width, p.height])
        self.scale = min(width / p.width, height / p.height)
        """Pixels per world unit."""
        self.origin = np.array([(width - p.width * self.scale) / 2.0,
                                (height - p.height * self.scale) / 2.0])
        """Where the world's left and top edges fall in the frame, px."""
        self.shot_length = max(float(config.shots.length_px), 1.0)
        kinds = ("asteroid", "ship", "flame", "shield", "saucer", "shot_ship",
                 "shot_saucer", "obstacle")
        rgba = np.array([palette.color(k) for k in kinds], dtype=np.float64)
        colour = np.clip(rgba[:, :3] * rgba[:, 3:], 0.0, 1.0)
        self.colours = dict(zip(kinds, np.rint(colour * 255).astype(np.uint8), strict=True))
        self.lumas = dict(zip(kinds, np.rint(colour @ _LUMA * 255).astype(np.uint8),
                              strict=True))
        from asteroids.app.scene import closed_loops, wall_segments  # pure numpy, no arcade

        obstacles = closed_loops(p.obstacle_points, p.obstacle_offsets) \
            if p.obstacle_points.shape[0] else np.zeros((0, 2, 2))
        self._static = np.concatenate([wall_segments(p), obstacles])

    @property
    def shape(self) -> tuple[int, ...]:
        """One frame's shape: (H, W) or (H, W, 3)."""
        return (self.height, self.width, 3) if self.rgb else (self.height, self.width)

    def world_frame(self, world: World) -> np.ndarray:
        """One World's frame (``frames`` on it as a batch of one)."""
        return self.frames(columns_of_world(world))[0]

    def frames(self, c: Mapping[str, np.ndarray],
               crafts: Sequence[CraftRows] | None = None) -> np.ndarray:
        """The frames of the B games given as a batch's columns (``COLUMNS``), one pass over
        all their segments: no loop over games. ``crafts``: each declared enemy's view
        (``bodies.CRAFT_ROWS``) in the order of ``bodies.ENEMIES``; None: read from ``c``."""
        games = int(c["ship_x"].shape[0])
        parts: list[tuple[str, np.ndarray, np.ndarray, str]] = []
        """(kind, (S, 2, 2) world segments, (S,) games, wrap: 'both', 'y' or 'none')."""
        if self._static.shape[0]:
            parts.append(("obstacle", np.tile(self._static, (games, 1, 1)),
                          np.repeat(np.arange(games), self._static.shape[0]), "none"))
        self._rocks(c, games, parts)
        self._ship(c, parts)
        self._saucer(c, parts)
        self._enemies(c, parts, crafts)
        self._shots(c, parts)
        return self._draw(parts, games)

    def _rocks(self, c: Mapping[str, np.ndarray], games: int, parts: list) -> None:
        rows = c["ast_rows"]
        if not rows[-1]:
            return
        theta = c["ast_angle"].astype(np.float64) * _STEP_RAD
        cos_sin = np.stack([np.cos(theta), np.sin(theta)], axis=1)
        offsets = c["ast_offsets"]
        pts = transform_outlines(c["ast_pos"], cos_sin, c["ast_local"], offsets)
        n = pts.shape[0]
        nxt = np.arange(1, n + 1)
        nxt[offsets[1:] - 1] = offsets[:-1]  # each outline closes on its first point
        segs = np.stack([pts, pts[nxt]], axis=1)
        rock_game = np.repeat(np.arange(games), np.diff(rows))
        parts.append(("asteroid", segs, np.repeat(rock_game, np.diff(offsets)),
                      "both" if self.params.wrap_asteroids else "none"))

    def _ship(self, c: Mapping[str, np.ndarray], parts: list) -> None:
        p = self.params
        grace = c["ship_grace"]
        shown = np.flatnonzero((c["ship_state"] == SHIP_FLYING) & ~c["game_over"]
                               & ~((grace > 0) & ((grace // GRACE_BLINK_TICKS) % 2 == 1)))
        if not shown.size:
            return
        wrap = "both" if p.wrap_ship else "none"
        x, y, h = c["ship_x"][shown], c["ship_y"][shown], c["ship_heading"][shown]
        hull = np.stack([np.stack(xy, axis=-1)
                         for xy in ship_outline_points(MANY, p, x, y, h)], axis=1)
        parts.append(("ship", _loops(hull), np.repeat(shown, hull.shape[1]), wrap))
        theta = h.astype(np.float64) * _STEP_RAD
        cos, sin = np.cos(theta)[:, None], np.sin(theta)[:, None]
        flaming = (c["thrusting"][shown] & (c["tick"][shown] % 3 != 0))
        if flaming.any():
            f = _FLAME * p.ship_length_px
            pts = np.stack([x[:, None] + cos * f[:, 0] - sin * f[:, 1],
                            y[:, None] + sin * f[:, 0] + cos * f[:, 1]], axis=2)[flaming]
            segs = np.stack([pts[:, :-1], pts[:, 1:]], axis=2).reshape(-1, 2, 2)
            parts.append(("flame", segs, np.repeat(shown[flaming], 2), wrap))
        shielded = c["shield_on"][shown]
        if shielded.any():
            t = np.arange(_CIRCLE_SIDES) * (2.0 * math.pi / _CIRCLE_SIDES)
            ring = np.stack([np.cos(t), np.sin(t)], axis=1) * p.ship_shield_radius_px
            centres = np.stack([x, y], axis=1)[shielded]
            parts.append(("shield", _loops(centres[:, None, :] + ring),
                          np.repeat(shown[shielded], _CIRCLE_SIDES), wrap))

    def _saucer(self, c: Mapping[str, np.ndarray], parts: list) -> None:
        alive = np.flatnonzero(c["saucer_alive"])
        if not alive.size:
            return
        pts = saucer_outline(self.params, c["saucer_x"][alive].astype(np.float64),
                             c["saucer_y"][alive].astype(np.float64),
                             c["saucer_small"][alive])
        cross = np.stack([pts[:, [0, 7]], pts[:, [3, 4]]], axis=1)  # rim and dome base
        segs = np.concatenate([np.stack([pts, np.roll(pts, -1, axis=1)], axis=2), cross],
                              axis=1)
        parts.append(("saucer", segs.reshape(-1, 2, 2), np.repeat(alive, segs.shape[1]),
                      "y" if self.params.wrap_saucers else "none"))

    def _enemies(self, c: Mapping[str, np.ndarray], parts: list,
                 crafts: Sequence[CraftRows] | None) -> None:
        """Each declared enemy in play, its outline in the saucer's colour (the game draws
        the same outline unless its look draws more: ``app.enemy_looks``), wrapping."""
        if not ENEMIES:
            return
        if crafts is None:
            crafts = [CRAFT_ROWS[e.kind](BatchDraft(c), self.params) for e in ENEMIES]
        for shown in crafts:
            alive = np.flatnonzero(shown.present)
            if alive.size:
                pts = np.asarray(shown.outlines(alive), dtype=np.float64)
                parts.append(("saucer", _loops(pts), np.repeat(alive, pts.shape[1]), "both"))

    def _shots(self, c: Mapping[str, np.ndarray], parts: list) -> None:
        rows = c["shot_rows"]
        if not rows[-1]:
            return
        head = c["shot_pos"]
        vel = c["shot_vel"]
        speed = np.sqrt(vel[:, 0] * vel[:, 0] + vel[:, 1] * vel[:, 1])
        tail = head - vel / np.maximum(speed, 1e-9)[:, None] * self.shot_length
        segs = np.stack([tail, head], axis=1)
        game = np.repeat(np.arange(rows.shape[0] - 1), np.diff(rows))
        wrap = "both" if self.params.wrap_shots else "none"
        saucer = c["shot_owner"] == SHOOTER_SAUCER
        for kind, which in (("shot_ship", ~saucer), ("shot_saucer", saucer)):
            if which.any():
                parts.append((kind, segs[which], game[which], wrap))

    def _draw(self, parts: list, games: int) -> np.ndarray:
        """Sample every segment, light the pixels, brightest kind last."""
        h, w = self.height, self.width
        out = np.zeros((games * h * w, 3) if self.rgb else games * h * w, np.uint8)
        size, scale, origin = self.world_size, self.scale, self.origin
        for kind, segs, game, wrap in sorted(parts, key=lambda part: self.lumas[part[0]]):
            a, b = segs[:, 0], segs[:, 1]
            d = b - a
            length = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) * scale
            count = np.ceil(length / SPACING).astype(np.int64) + 1
            seg = np.repeat(np.arange(segs.shape[0]), count)
            first = np.cumsum(count) - count
            step = np.arange(seg.shape[0]) - np.repeat(first, count)
            t = step / np.maximum(count - 1, 1)[seg]
            pts = a[seg] + d[seg] * t[:, None]
            if wrap == "both":
                pts = pts % size
            elif wrap == "y":
                pts[:, 1] %= size[1]
            inside = ((pts[:, 0] >= 0.0) & (pts[:, 0] < size[0]) & (pts[:, 1] >= 0.0)
                      & (pts[:, 1] < size[1]))
            if wrap != "both" and not inside.all():
                pts, seg = pts[inside], seg[inside]
            col = np.clip((origin[0] + pts[:, 0] * scale).astype(np.int64), 0, w - 1)
            row = np.clip((origin[1] + (size[1] - pts[:, 1]) * scale).astype(np.int64),
                          0, h - 1)
            flat = (game[seg] * h + row) * w + col
            out[flat] = self.colours[kind] if self.rgb else self.lumas[kind]
        return out.reshape(games, *self.shape)


OBS_TYPES = ("vector", "grayscale", "rgb")
"""What an environment's observation can be (``obs_type``)."""


class Observations:
    """An environment's observations under ``obs_type``, ``obs_size`` and ``frame_stack``.

    ``"vector"`` is ``observer``'s float32 vector; ``"grayscale"`` an (H, W) and ``"rgb"`` an
    (H, W, 3) uint8 frame of a ``Rasteriser`` (``obs_size``: width and height in px, or one
    number for a square, 84 by default as ``AtariPreprocessing``). ``frame_stack`` k > 1
    stacks the k latest observations on a new leading axis, oldest first, as Gymnasium's
    ``FrameStackObservation``: (k, H, W) for grayscale; a new game starts with its first
    observation k times (its "reset" padding).

    Args:
        config: the rules.
        observer: the vector observation's ``Observer``.
        obs_type: one of ``OBS_TYPES``.
        obs_size: the frame's (width, height) in px, or one int for both.
        frame_stack: how many observations each one holds (1: no stack axis).

    Raises:
        ValueError: for an unknown ``obs_type``, a size under 1 px or a stack under 1.
    """

    def __init__(self, config: Config, observer: Any, obs_type: str = "vector",
                 obs_size: int | tuple[int, int] = 84, frame_stack: int = 1) -> None:
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {OBS_TYPES}; got {obs_type!r}")
        if isinstance(frame_stack, bool) or not isinstance(frame_stack, int) \
                or frame_stack < 1:
            raise ValueError(f"frame_stack must be an int, 1 or more; got {frame_stack!r}")
        width, height = (obs_size, obs_size) if isinstance(obs_size, int) else obs_size
        if width < 1 or height < 1:
            raise ValueError(f"obs_size must be 1 px or more each way; got {obs_size!r}")
        self.obs_type, self.stack = obs_type, frame_stack
        self.observer = observer
        self.raster = None if obs_type == "vector" else Rasteriser(
            config, int(width), int(height), rgb=obs_type == "rgb")
        one: tuple[int, ...] = (observer.size,) if self.raster is None else self.raster.shape
        self.shape = one if frame_stack == 1 else (frame_stack, *one)
        """One observation's shape."""
        self.dtype = np.dtype(np.float32 if self.raster is None else np.uint8)
        self.low, self.high = (-1.0, 1.0) if self.raster is None else (0, 255)
        self._held: np.ndarray | None = None

    def observe_world(self, world: World, fresh: bool) -> np.ndarray:
        """One game's observation (``fresh``: its first, after a reset)."""
        frame = (self.observer.observe(world)[None] if self.raster is None
                 else self.raster.frames(columns_of_world(world)))
        return self._stacked(frame, np.array([fresh]))[0]

    def observe_batch(self, batch: Any, fresh: np.ndarray) -> np.ndarray:
        """The ``(B, *shape)`` observations of a batch's games; ``fresh``: the lanes whose
        games just started (a bool mask or lane indices)."""
        return self._stacked(self._frames(batch), fresh)

    def restart_lanes(self, batch: Any, lanes: np.ndarray) -> np.ndarray:
        """The first observations of the new games just put in ``lanes`` of ``batch``, after
        this step's ``observe_batch``: what the next ``observe_batch`` would give them as
        fresh, now (their stacks start again; the other lanes' stacks are kept). Returns
        ``(len(lanes), *shape)``."""
        frame = self._frames(take_lanes(batch, lanes))
        if self.stack == 1:
            return frame
        assert self._held is not None, "observe_batch comes first"
        self._held[lanes] = frame[:, None]
        return np.repeat(frame[:, None], self.stack, axis=1)

    def _frames(self, batch: Any) -> np.ndarray:
        """Each game's observation before stacking (no state kept)."""
        if self.raster is None:
            return self.observer.observe_batch(batch)
        crafts = [CRAFT_ROWS[e.kind](batch, self.raster.params) for e in ENEMIES]
        return self.raster.frames({name: getattr(batch, name) for name in COLUMNS}, crafts)

    def _stacked(self, frame: np.ndarray, fresh: np.ndarray) -> np.ndarray:
        if self.stack == 1:
            return frame
        held = self._held
        if held is None or held.shape[0] != frame.shape[0]:
            held = np.repeat(frame[:, None], self.stack, axis=1)
        else:
            held[:, :-1] = held[:, 1:]
            held[:, -1] = frame
            held[fresh] = frame[fresh][:, None]
        self._held = held
        return held.copy()
