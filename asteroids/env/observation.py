"""The Gymnasium environment's observation and actions, as plain numpy (no gymnasium here).

**Observation**: a float32 vector of ``size(k)`` numbers, each clipped to [-1, 1]. Positions
are relative to the ship (the shortest way round when the world wraps) over the world's
width or height; velocities are px per tick over ``SPEED_SCALE`` times the shot speed;
flags are 0 or 1. In order:

=====  ====================================================================================
index  meaning
=====  ====================================================================================
0-7    the ship: x / width, y / height, vx, vy, cos and sin of the heading, flying (1) or
       not (exploded, in hyperspace, game over), fire ready (not held last tick and a shot
       free under the cap)
8..    the nearest ``k`` rocks, nearest first, 6 numbers each: present (1; 0 and zeros for
       a missing one), dx, dy, vx, vy, radius / the largest rock's radius
+6     the saucer: present, dx, dy, vx, vy, small (1) or large (0)
+6     shots: the ship's shots in flight / the shot cap, then the nearest saucer shot:
       present, dx, dy, vx, vy
+5     each kind of craft ``asteroids.core.bodies.ENEMIES`` declares, in its order (none in
each   the shipped game): present, dx, dy, vx, vy, from its view in the bodies tables
       (``bodies.CRAFT`` for one game, ``bodies.CRAFT_ROWS`` for a batch)
=====  ====================================================================================

With ``extended=True`` (the v1 environments) ``STATUS`` more numbers follow: lives / the
most lives (``game.max_lives``, or the starting lives if more), wave / ``WAVE_SCALE``, and the
ship's, the wave's and the saucer's timers (ticks over ``TIMER_SCALE_S`` seconds of ticks);
then the ship's own shots, ``shots.max_alive`` slots of 6 in the batch's row order (oldest
first): present, dx, dy, vx, vy, ticks left / the shot lifetime. ``size(k, shot_max)`` is
then ``size(k) + STATUS + 6 * shot_max``: the extended observation begins with the plain one.

**Actions** (``ACTIONS``): every combination of turning (none, left, right), thrust (off,
on) and fire (off, on), numbered ``turn * 4 + thrust * 2 + fire`` (0 to 11), then 12
hyperspace and 13 the shield (nothing, in rules without one). Fire shoots on the press, as
in the game: holding it fires once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from asteroids.config.schema import Config
from asteroids.core import World
from asteroids.core.batch import Batch
from asteroids.core.bodies import CRAFT, CRAFT_ROWS, ENEMIES
from asteroids.core.craft import Craft, CraftRows
from asteroids.core.inputs import InputFrame
from asteroids.core.lanes import BatchDraft
from asteroids.core.params import params_for
from asteroids.core.tables import COS, HEADING_STEPS, SIN
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP
from asteroids.env.pixels import columns_of_world

__all__ = ["ACTIONS", "ACTION_NAMES", "CRAFT_BLOCK", "DEFAULT_ROCKS", "SPEED_SCALE", "STATUS",
           "TIMER_SCALE_S", "WAVE_SCALE", "Observer", "Seen", "size"]

DEFAULT_ROCKS = 8
"""Rocks in the observation unless ``rocks=`` says otherwise."""
SPEED_SCALE = 1.5
"""Velocities are divided by this many times the ship's shot speed."""
STATUS = 5
"""The extended observation's status numbers: lives, wave and three timers."""
WAVE_SCALE = 20.0
"""The extended observation's wave is divided by this (and clipped at 1)."""
TIMER_SCALE_S = 10.0
"""The extended observation's timers are divided by this many seconds of ticks."""
CRAFT_BLOCK = 5
"""Numbers per declared enemy: present, dx, dy, vx, vy."""


def _actions() -> tuple[tuple[int, str], ...]:
    out = []
    for turn, turn_name in ((0, ""), (int(InputFrame.LEFT), "left"),
                            (int(InputFrame.RIGHT), "right")):
        for thrust in (0, int(InputFrame.THRUST)):
            for fire in (0, int(InputFrame.FIRE)):
                names = [n for n, on in ((turn_name, turn), ("thrust", thrust),
                                         ("fire", fire)) if on]
                out.append((turn | thrust | fire, "+".join(names) or "nothing"))
    out.append((int(InputFrame.HYPERSPACE), "hyperspace"))
    out.append((int(InputFrame.SHIELD), "shield"))
    return tuple(out)


_TABLE = _actions()
ACTIONS: tuple[int, ...] = tuple(mask for mask, _ in _TABLE)
"""The input mask of each action number."""
ACTION_NAMES: tuple[str, ...] = tuple(name for _, name in _TABLE)
"""What each action number presses, e.g. ``left+thrust+fire``."""


def size(rocks: int, shot_max: int | None = None) -> int:
    """The observation's length with ``rocks`` rocks (and, extended, ``shot_max`` shots)."""
    base = 8 + 6 * rocks + 6 + 6 + CRAFT_BLOCK * len(ENEMIES)
    return base if shot_max is None else base + STATUS + 6 * shot_max


class Seen(NamedTuple):
    """One kind of craft in B games as the observation reads it: ``(B,)`` columns (a
    ``craft.CraftRows`` is one; ``Seen.of`` makes one of a one-game ``Craft``)."""

    present: np.ndarray
    x: np.ndarray
    y: np.ndarray
    vx: np.ndarray
    vy: np.ndarray

    @classmethod
    def of(cls, craft: Craft | None) -> Seen:
        """One game's craft (None: out of play) as a batch of one."""
        if craft is None:
            return cls(np.zeros(1, dtype=bool), *(np.zeros(1) for _ in range(4)))
        return cls(np.ones(1, dtype=bool), *(np.array([v], dtype=np.float64)
                                             for v in (craft.x, craft.y, craft.vx, craft.vy)))


class Observer:
    """Builds observations of one config's Worlds.

    Args:
        config: the settings the game runs under.
        rocks: how many of the nearest rocks the observation holds.
        extended: add lives, wave, timers and the ship's own shots (the v1 observation).
    """

    def __init__(self, config: Config, rocks: int = DEFAULT_ROCKS,
                 extended: bool = False) -> None:
        p = params_for(config)
        self.p = p
        self.rocks = rocks
        self.extended = extended
        self.size = size(rocks, p.shots_max_alive if extended else None)
        self.columns = _COLUMNS + (_EXTENDED if extended else ())
        self._world_fields = ((_SCALARS + _EXTENDED_SCALARS, _ROWS + ("shot_ttl",))
                              if extended else (_SCALARS, _ROWS))
        self.lives = float(max(p.game_max_lives, p.game_lives, 1))
        self.timer = max(TIMER_SCALE_S * float(config.world.tick_hz), 1.0)
        self.scale = np.array([p.width, p.height])
        self.wrap = p.size if p.wrap_any else None
        self.speed = SPEED_SCALE * max(p.shots_speed_px_per_tick, 1e-9)
        self.radius = max(max(p.radius), 1e-9)

    def _rel(self, pos: np.ndarray, ship: np.ndarray) -> np.ndarray:
        """``pos`` relative to ``ship`` (rows alike), the short way round, over the size."""
        d = pos - ship
        if self.wrap is not None:
            half = 0.5 * self.wrap
            d = (d + half) % self.wrap - half
        return d / self.scale

    def observe(self, world: World) -> np.ndarray:
        """The observation of ``world`` (a new float32 array): ``observe_columns`` on the
        world as a batch of one, each declared enemy seen through its one-game view."""
        crafts = [Seen.of(CRAFT[e.kind](world, self.p)) for e in ENEMIES]
        return self.observe_columns(columns_of_world(world, *self._world_fields), crafts)[0]

    def observe_batch(self, batch: Batch) -> np.ndarray:
        """The ``(B, size)`` float32 observations of a batch's games, in lane order."""
        crafts = [CRAFT_ROWS[e.kind](batch, self.p) for e in ENEMIES]  # type: ignore[arg-type]
        return self.observe_columns({name: getattr(batch, name) for name in self.columns},
                                    crafts)

    def observe_columns(self, c: Mapping[str, np.ndarray],
                        crafts: Sequence[Seen | CraftRows] | None = None) -> np.ndarray:
        """The ``(B, size)`` float32 observations of B games given as a batch's columns
        (``_COLUMNS``: ``(B,)`` per-game arrays, rock and shot rows packed game after game
        with ``ast_rows`` and ``shot_rows``), in one pass over the rows: no loop over games.
        ``crafts``: each declared enemy's ``Seen`` (a ``CraftRows``) in ``bodies.ENEMIES``
        order; None reads them from ``c`` (which then holds the World fields they read).

        The float operations are the one-game observation's, element by element (tested
        against it value for value): the nearest rocks are a stable sort of each game's
        rows by squared distance (a padded ``(B, most rocks)`` array sorted along its rows),
        the nearest saucer shot the first of the least."""
        p = self.p
        games = c["ship_x"].shape[0]
        out = np.zeros((games, self.size), dtype=np.float64)
        ship = np.stack([c["ship_x"], c["ship_y"]], axis=1)
        h = c["ship_heading"] % HEADING_STEPS
        owner = c["shot_owner"]
        shot_game = _game_of_rows(c["shot_rows"])
        mine = np.bincount(shot_game[owner == SHOOTER_SHIP], minlength=games)
        out[:, 0] = c["ship_x"] / p.width
        out[:, 1] = c["ship_y"] / p.height
        out[:, 2] = c["ship_vx"] / self.speed
        out[:, 3] = c["ship_vy"] / self.speed
        out[:, 4] = COS[h]
        out[:, 5] = SIN[h]
        out[:, 6] = (c["ship_state"] == SHIP_FLYING) & ~c["game_over"]
        out[:, 7] = ~c["fire_held"] & (mine < p.shots_max_alive)
        at = 8
        rows = c["ast_rows"]
        if rows[-1]:
            rock_game = _game_of_rows(rows)
            rel = self._rel(c["ast_pos"], ship[rock_game])
            counts = np.diff(rows)
            # each game's squared distances in a row of their own, padded with inf; a
            # stable sort of each row puts its rocks nearest first, ties in row order
            local = np.arange(rows[-1]) - rows[rock_game]
            square = np.full((games, int(counts.max())), np.inf)
            square[rock_game, local] = rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1]
            nearest = np.argsort(square, axis=1, kind="stable")[:, :self.rocks]
            real = nearest < counts[:, None]
            game, rank = real.nonzero()
            order = rows[game] + nearest[real]
            # a view of out (the slice's last axis is contiguous): written in place
            block = out[:, at:at + 6 * self.rocks].reshape(games, self.rocks, 6)
            block[game, rank, 0] = 1.0
            block[game, rank, 1:3] = rel[order]
            block[game, rank, 3:5] = c["ast_vel"][order] / self.speed
            block[game, rank, 5] = c["ast_radius"][order] / self.radius
        at += 6 * self.rocks
        alive = np.flatnonzero(c["saucer_alive"])
        if alive.size:
            saucer = np.stack([c["saucer_x"][alive], c["saucer_y"][alive]], axis=1)
            rel = self._rel(saucer, ship[alive])
            out[alive, at] = 1.0
            out[alive, at + 1:at + 3] = rel
            out[alive, at + 3] = c["saucer_vx"][alive] / self.speed
            out[alive, at + 4] = c["saucer_vy"][alive] / self.speed
            out[alive, at + 5] = c["saucer_small"][alive]
        at += 6
        out[:, at] = mine / max(p.shots_max_alive, 1)
        enemy = np.flatnonzero(owner == SHOOTER_SAUCER)
        if enemy.size:
            game = shot_game[enemy]
            rel = self._rel(c["shot_pos"][enemy], ship[game])
            order = np.lexsort((rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1], game))
            first = np.ones(order.shape[0], dtype=bool)
            first[1:] = game[order[1:]] != game[order[:-1]]
            k = order[first]
            g = game[k]
            out[g, at + 1] = 1.0
            out[g, at + 2:at + 4] = rel[k]
            out[g, at + 4:at + 6] = c["shot_vel"][enemy[k]] / self.speed
        at += 6
        if crafts is None:
            crafts = [CRAFT_ROWS[e.kind](BatchDraft(c), p) for e in ENEMIES]
        for seen in crafts:
            self._craft(out, at, seen, ship)
            at += CRAFT_BLOCK
        if self.extended:
            self._status(c, out, size(self.rocks), ship, shot_game, owner)
        return np.clip(out, -1.0, 1.0).astype(np.float32)


    def _craft(self, out: np.ndarray, at: int, seen: Seen | CraftRows,
               ship: np.ndarray) -> None:
        """A declared enemy's block from ``at`` where it is in play: present, its position
        relative to the ship, its velocity (as the saucer's block, less its size)."""
        alive = np.flatnonzero(seen.present)
        if alive.size:
            pos = np.stack([seen.x[alive], seen.y[alive]], axis=1)
            out[alive, at] = 1.0
            out[alive, at + 1:at + 3] = self._rel(pos, ship[alive])
            out[alive, at + 3] = seen.vx[alive] / self.speed
            out[alive, at + 4] = seen.vy[alive] / self.speed

    def _status(self, c: Mapping[str, np.ndarray], out: np.ndarray, at: int, ship: np.ndarray,
                shot_game: np.ndarray, owner: np.ndarray) -> None:
        """The extended block from ``at``: lives, wave, timers, then the ship's own shots in
        row order (each game's first ``shot_max``), for all games in one pass."""
        p = self.p
        games = out.shape[0]
        out[:, at] = c["lives"] / self.lives
        out[:, at + 1] = c["wave"] / WAVE_SCALE
        out[:, at + 2] = c["ship_timer"] / self.timer
        out[:, at + 3] = c["wave_timer"] / self.timer
        out[:, at + 4] = c["saucer_timer"] / self.timer
        at += STATUS
        own = np.flatnonzero(owner == SHOOTER_SHIP)
        if not own.size or not p.shots_max_alive:
            return
        game = shot_game[own]  # non-decreasing: rows are packed game after game
        rank = np.arange(own.size) - np.searchsorted(game, game, side="left")
        keep = rank < p.shots_max_alive
        own, game, rank = own[keep], game[keep], rank[keep]
        block = out[:, at:at + 6 * p.shots_max_alive].reshape(games, p.shots_max_alive,
                                                              6)  # a view of out
        block[game, rank, 0] = 1.0
        block[game, rank, 1:3] = self._rel(c["shot_pos"][own], ship[game])
        block[game, rank, 3:5] = c["shot_vel"][own] / self.speed
        block[game, rank, 5] = c["shot_ttl"][own] / max(p.shots_lifetime_ticks, 1)


def _game_of_rows(rows: np.ndarray) -> np.ndarray:
    """Each packed row's game, from the ``(B + 1,)`` offsets ``rows``."""
    return np.repeat(np.arange(rows.shape[0] - 1), np.diff(rows))


_SCALARS = ("ship_x", "ship_y", "ship_vx", "ship_vy", "ship_heading", "ship_state",
            "game_over", "fire_held", "saucer_alive", "saucer_x", "saucer_y", "saucer_vx",
            "saucer_vy", "saucer_small")
"""The per-game fields an observation reads."""
_ROWS = ("ast_pos", "ast_vel", "ast_radius", "shot_owner", "shot_pos", "shot_vel")
"""The row fields an observation reads."""
_COLUMNS = (*_SCALARS, *_ROWS, "ast_rows", "shot_rows")
"""Every column ``observe_columns`` reads."""
_EXTENDED_SCALARS = ("lives", "wave", "ship_timer", "wave_timer", "saucer_timer")
"""The per-game fields the extended observation adds."""
_EXTENDED = (*_EXTENDED_SCALARS, "shot_ttl")
"""The columns the extended observation adds."""
