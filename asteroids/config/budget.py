"""The work budget of one tick: what a set of rules can make a single step cost, known before
the game starts.

Every rule setting that scales the work of a tick has a bound here, counted in the worst
placement the rules allow (every rock within reach of every shot and of every other rock:
rocks can pile up where they spawn, split or stand still), so the count does not depend on
how a game goes. ``TickWork.of`` counts it; ``TickWork.over_budget`` says whether it may
exceed ``BUDGET_MS`` or ``BUDGET_MB`` on the reference machine, using unit costs measured
there by ``asteroids bench limits``. The loader refuses such rules (a cross-field error) and
the replay reader refuses a recorded change that makes them, so an over-budget game is never
discovered mid-game. ``docs/limits.md`` gives the budget, the bounds and how they were
measured.

Rocks alive are bounded by the rules, not by ``asteroids.max_alive`` alone: a new wave
comes only when the last one is cleared, so at most the largest wave's rocks, each broken
into ``split_children`` and those again, are alive at once. Settings changed during a game
(``asteroids play --live``) can raise that bound for the rest of the game: ``Carry`` holds
what earlier settings of the same game allowed.

No arcade and no core imports here (the core imports the config).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["BUDGET_MB", "BUDGET_MS", "CLASSIC_VERTICES", "SHOT_PIECES", "UNIT_COSTS", "Carry",
           "TickWork", "UnitCosts", "rules_getter"]

BUDGET_MS = 50.0
"""Most CPU time one tick of any accepted game may take on the reference machine (an Intel
Xeon with 2 logical CPUs: ``docs/limits.md``), in ms: three ticks of real time at 60 Hz, so
the worst accepted game slows down but never stalls ``watch`` or ``verify``."""
BUDGET_MB = 256.0
"""Most memory one tick of any accepted game may allocate at its peak, in MiB."""

CLASSIC_VERTICES = 11
"""Most points of a classic rock outline (``asteroids.core.tables.CLASSIC_ROCKS``; a test
keeps the two equal)."""
SHOT_PIECES = 3
"""Most straight pieces a shot's path is tested in per tick when it can ricochet
(``asteroids.core.simulation.MAX_SHOT_PIECES``; a test keeps the two equal): the first with
every other shot, the rest one shot at a time."""
CRAFT_POINTS = 8
"""Most points of a craft's outline (the saucer's; the ship's has 4): a target of shots."""
_BASE_EVENTS = 16
"""Events a tick can return besides one per shot hit (waves, heartbeat, ship, saucer...)."""


@dataclass(frozen=True)
class UnitCosts:
    """What one unit of each kind of work costs on the reference machine: the slowest of
    ``asteroids bench limits`` there (its worst placements), rounded up."""

    base_ns: float = 1_000_000.0
    """A tick's fixed part: the ship, the saucer, timers, events."""
    shot_pair_ns: float = 600.0
    """One straight piece of one shot's path against one target body it may reach."""
    shot_row_ns: float = 40.0
    """...against one edge of such a body (every body is padded to the most edges)."""
    point_ns: float = 2_500.0
    """One rock outline point: moved, hashed, and met edge by edge by the ship, its shield
    and the saucer."""
    pair_ns: float = 2_200.0
    """One pair of touching rocks, resolved in up to 64 rounds."""
    obstacle_row_ns: float = 150.0
    """One rock (or the ship) against one obstacle edge."""
    wave_rock_ns: float = 30_000.0
    """One rock of a new wave (up to 8 tries for a place away from the ship)."""
    turn_ns: float = 120_000.0
    """One piece of one shot's path after a ricochet (tested on its own, a query of its
    own)..."""
    turn_point_ns: float = 20.0
    """...and per target outline point (the targets are moved to where the piece begins)."""
    base_b: float = 4 * 2**20
    shot_pair_b: float = 200.0
    point_b: float = 1_800.0
    pair_b: float = 400.0
    obstacle_row_b: float = 150.0
    wave_rock_b: float = 1_000.0
    wave_point_b: float = 100.0
    """...and what each allocates at the tick's peak, in bytes (a new rock: ``wave_rock_b``
    and ``wave_point_b`` per point of its outline)."""


UNIT_COSTS = UnitCosts()
"""The unit costs the budget is judged with."""


@dataclass(frozen=True)
class Carry:
    """What settings in force earlier in the same game allow: rocks already flying were made
    under them. ``None`` where a game starts."""

    wave: int
    """The largest wave any of them could start."""
    split: int
    """The most fragments any of them gave a broken rock."""

    def then(self, get: Callable[[str], Any]) -> Carry:
        """This carry after the settings ``get`` reads came into force as well."""
        return Carry(max(self.wave, _largest_wave(get)), max(self.split, _split(get)))

    @staticmethod
    def of(get: Callable[[str], Any]) -> Carry:
        """What the settings ``get`` reads allow, for the settings that follow them."""
        return Carry(_largest_wave(get), _split(get))


def _largest_wave(get: Callable[[str], Any]) -> int:
    """The most large rocks a wave can have (``asteroids.core.spawn.wave_size`` over every
    wave): waves grow by ``wave_increment`` up to ``max_wave_asteroids`` and never past
    ``asteroids.max_alive``."""
    first, step = get("game.first_wave_asteroids"), get("game.wave_increment")
    most = get("game.max_wave_asteroids") if step > 0 else min(first,
                                                                get("game.max_wave_asteroids"))
    return min(most, get("asteroids.max_alive"))


def _split(get: Callable[[str], Any]) -> int:
    return int(get("asteroids.split_children"))


def rules_getter(config: Any) -> Callable[[str], Any]:
    """A getter of dotted keys (``asteroids.max_alive``) on a ``Config``."""
    def get(key: str) -> Any:
        node = config
        for part in key.split("."):
            node = getattr(node, part)
        return node
    return get


@dataclass(frozen=True)
class TickWork:
    """The most work one tick can take under some rules, counted in the worst placement."""

    rocks: int
    """Most rocks alive at once."""
    vertices: int
    """Most points of one rock's outline."""
    shots: int
    """Most shots alive: the ship's and the saucer's."""
    turns: int
    """Pieces of a shot's path tested one shot at a time after a ricochet, per tick."""
    obstacles: int
    """Obstacles (each is a body shots test)."""
    obstacle_points: int
    """Points of the largest obstacle."""
    obstacle_edges: int
    """Edges of all the obstacles."""
    rock_pairs: int
    """Pairs of rocks to resolve when rocks collide (every pair touching), else 0."""
    wave: int
    """Most rocks a new wave brings in one tick."""

    @staticmethod
    def of(get: Callable[[str], Any], carry: Carry | None = None) -> TickWork:
        """The work of the rules ``get`` reads (dotted keys), after ``carry``'s."""
        wave = _largest_wave(get)
        split = _split(get)
        if carry is not None:
            wave, split = max(wave, carry.wave), max(split, carry.split)
        rocks = min(get("asteroids.max_alive"), wave * max(1, split) ** 2)
        classic = get("asteroids.shapes") == "classic"
        vertices = CLASSIC_VERTICES if classic else get("asteroids.vertices_max")
        shots = get("shots.max_alive") + (get("saucers.max_shots") if get("saucers.enabled")
                                          else 0)
        obstacles = get("obstacles")
        sizes = [len(o.points) for o in obstacles]
        ricochet = get("borders.shots") == "bounce" or (
            bool(obstacles) and get("shots.at_obstacles") == "ricochet")
        pairs = rocks * (rocks - 1) // 2 if get("asteroids.collide") else 0
        return TickWork(rocks=rocks, vertices=vertices, shots=shots,
                        turns=SHOT_PIECES - 1 if ricochet else 0, obstacles=len(obstacles),
                        obstacle_points=max(sizes, default=0), obstacle_edges=sum(sizes),
                        rock_pairs=pairs, wave=_largest_wave(get))

    @property
    def points(self) -> int:
        """Rock outline points alive."""
        return self.rocks * self.vertices

    @property
    def shot_pairs(self) -> int:
        """(Shot, target body) pairs of a tick's shot query: rocks, obstacles and the other
        side's craft."""
        return self.shots * (self.rocks + self.obstacles + 1)

    @property
    def shot_rows(self) -> int:
        """(Shot, edge) tests of that query: each body padded to the most edges of any."""
        return self.shot_pairs * max(self.vertices, self.obstacle_points, CRAFT_POINTS)

    @property
    def turned_pieces(self) -> int:
        """Pieces of shot paths tested one shot at a time after ricochets."""
        return self.shots * self.turns

    @property
    def obstacle_rows(self) -> int:
        """(Rock or ship, obstacle edge) tests."""
        return (self.rocks + 1) * self.obstacle_edges

    @property
    def events(self) -> int:
        """Most events one tick returns: one per shot that hits, a few more."""
        return self.shots + 2 + _BASE_EVENTS

    def terms(self, costs: UnitCosts = UNIT_COSTS) -> dict[str, tuple[float, float]]:
        """Each kind of work's share: name -> (ns, bytes) on the reference machine."""
        c = costs
        return {
            "base": (c.base_ns, c.base_b),
            "shots": (self.shot_pairs * c.shot_pair_ns + self.shot_rows * c.shot_row_ns,
                      self.shot_pairs * c.shot_pair_b),
            "ricochets": (self.turned_pieces * (
                c.turn_ns + (self.points + self.obstacle_edges + CRAFT_POINTS)
                * c.turn_point_ns), 0.0),
            "points": (self.points * c.point_ns, self.points * c.point_b),
            "collisions": (self.rock_pairs * c.pair_ns, self.rock_pairs * c.pair_b),
            "obstacles": (self.obstacle_rows * c.obstacle_row_ns,
                          self.obstacle_rows * c.obstacle_row_b),
            "wave": (self.wave * c.wave_rock_ns,
                     self.wave * (c.wave_rock_b + self.vertices * c.wave_point_b)),
        }

    def cost(self, costs: UnitCosts = UNIT_COSTS) -> tuple[float, float]:
        """(ms, MiB) the worst tick may take on the reference machine."""
        terms = self.terms(costs).values()
        return (sum(t for t, _ in terms) / 1e6, sum(b for _, b in terms) / 2**20)

    def over_budget(self, costs: UnitCosts = UNIT_COSTS) -> bool:
        """Whether the worst tick may take more than ``BUDGET_MS`` or ``BUDGET_MB``."""
        ms, mb = self.cost(costs)
        return not (ms <= BUDGET_MS and mb <= BUDGET_MB)

    def largest(self, costs: UnitCosts = UNIT_COSTS) -> str:
        """The kind of work with the largest share of the budget (time or memory)."""
        shares = {name: max(t / (BUDGET_MS * 1e6), b / (BUDGET_MB * 2**20))
                  for name, (t, b) in self.terms(costs).items() if name != "base"}
        return max(shares, key=lambda name: shares[name])

    def explain(self) -> tuple[str, tuple[str, ...]]:
        """What makes the largest share, in words with what would fit, and the settings that
        bound it (dotted keys)."""
        kind = self.largest()
        rocks = _count(self.rocks, "rock")
        some_rocks = ("rocks (asteroids.max_alive, game.max_wave_asteroids, "
                      "asteroids.split_children)")
        rock_keys = ("asteroids.max_alive", "game.max_wave_asteroids",
                     "game.first_wave_asteroids", "game.wave_increment",
                     "asteroids.split_children")
        if kind == "ricochets":
            return (f"{_count(self.shots, 'shot')} may each ricochet {self.turns} times in a "
                    f"tick, each piece tested on its own against {rocks} of up to "
                    f"{_count(self.vertices, 'point')}; fewer shots (shots.max_alive, "
                    f"saucers.max_shots), {some_rocks}, or shots that do not ricochet "
                    "(borders.shots, shots.at_obstacles) would fit",
                    ("shots.max_alive", "saucers.max_shots", "saucers.enabled",
                     "borders.shots", "shots.at_obstacles", *rock_keys,
                     "asteroids.vertices_max", "asteroids.shapes", "obstacles"))
        if kind == "shots":
            edges = max(self.vertices, self.obstacle_points, CRAFT_POINTS)
            return (f"{_count(self.shots, 'shot')} may each test {rocks}, "
                    f"{_count(self.obstacles, 'obstacle')} and a craft of up to "
                    f"{_count(edges, 'edge')} each; fewer shots (shots.max_alive, "
                    f"saucers.max_shots), {some_rocks} or smaller outlines would fit",
                    ("shots.max_alive", "saucers.max_shots", "saucers.enabled", *rock_keys,
                     "asteroids.vertices_max", "asteroids.shapes", "obstacles"))
        if kind == "collisions":
            return (f"{rocks} may all touch, {_count(self.rock_pairs, 'pair')} to resolve; "
                    f"fewer {some_rocks} or asteroids.collide = false would fit",
                    ("asteroids.collide", *rock_keys))
        if kind == "obstacles":
            return (f"{rocks} and the ship may each meet "
                    f"{_count(self.obstacle_edges, 'obstacle edge')}; fewer obstacle points "
                    f"or fewer {some_rocks} would fit", ("obstacles", *rock_keys))
        if kind == "wave":
            return (f"a wave of {_count(self.wave, 'rock')} is placed in one tick; a smaller "
                    "game.max_wave_asteroids would fit",
                    ("game.max_wave_asteroids", "game.first_wave_asteroids",
                     "game.wave_increment", "asteroids.max_alive"))
        return (f"{rocks} of up to {_count(self.vertices, 'point')} may all meet the ship, "
                f"its shield and the saucer; fewer {some_rocks} or a smaller "
                "asteroids.vertices_max would fit",
                (*rock_keys, "asteroids.vertices_max", "asteroids.shapes"))

    def message(self) -> str:
        """One sentence: what the worst tick may cost against the budget, why, and what
        would fit."""
        ms, mb = self.cost()
        what, _ = self.explain()
        return (f"these rules could make one tick take about {_count(math.ceil(ms), 'ms')} "
                f"and {_count(math.ceil(mb), 'MiB')} on the reference machine, over "
                f"the budget of {BUDGET_MS:g} ms and {BUDGET_MB:g} MiB (docs/limits.md): "
                f"{what}")


def _count(n: int, noun: str) -> str:
    """``12 345 rocks``: thousands apart, the noun plural unless one."""
    text = f"{n:,}".replace(",", " ")
    if noun in ("ms", "MiB"):
        return f"{text} {noun}"
    return f"{text} {noun}{'' if n == 1 else 's'}"
