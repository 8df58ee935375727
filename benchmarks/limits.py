"""The work budget of a tick, measured: ``python -m benchmarks.limits`` or
``asteroids bench limits``.

``asteroids.config.budget`` refuses rules whose worst tick could pass ``BUDGET_MS`` or
``BUDGET_MB`` on the reference machine, from counts (rocks, outline points, shots, pairs,
obstacle edges, wave size) and unit costs. This checks both halves on the machine it runs on:

* **Unit costs**: scenes where one kind of work dominates, each in the worst placement the
  budget assumes (every rock piled on one spot, with the ship, its shield and the saucer in
  it, every shot crossing it); the model's estimate for the scene's own counts against the
  measured median tick and tracemalloc peak. The model is an upper bound where the ratio
  measured / estimate stays at or below 1.
* **Worst accepted corners**: for each kind of work, the largest setting the validator
  still accepts (the rest set to make it worst), in its worst placement: the measured tick
  and peak against the budget. Then every preset with each rule knob at the end of its
  documented range (all accepted), the worst of them measured.
* **Extra-life flood**: one ship per point and a million points a rock: the tick of a kill.
* **Replay load**: a replay holding ``MAX_CHANGES`` settings changes, read and checked.

A scene is one World, stepped again and again from the same state (each step is the worst
tick); times are medians of those steps in CPU time of this process (``time.process_time``:
other processes on a shared machine do not count), memory the tracemalloc peak of one step.
Times move with the machine; ``docs/limits.md`` quotes the machine and the command.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from asteroids.config import Config, ConfigError, load_config
from asteroids.config.budget import BUDGET_MB, BUDGET_MS, TickWork, UnitCosts, rules_getter
from asteroids.config.knobs import knobs
from asteroids.config.loader import load_preset
from asteroids.config.overrides import parse_override
from asteroids.config.rule_tables import Obstacle
from asteroids.config.rulesets import RULE_TABLES
from asteroids.core import new_world, step
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.ship import add_shot
from asteroids.core.spawn import append_rocks, make_rocks, remove_all_rocks
from asteroids.core.world import SHOOTER_SAUCER, SHOOTER_SHIP, Draft, World
from benchmarks._util import cpu_name

__all__ = ["CORNERS", "PLACES", "PRESETS", "Corner", "knob_extremes", "largest_accepted", "main",
           "measure", "worst_tick", "worst_world"]


# --------------------------------------------------------------------------- worst placement


PLACES = ("centre", "corner", "ricochet", "wave")
"""Where ``worst_world`` piles everything up: the middle of the world (or an obstacle's
corner), the world's corner (a wrapping world then has every image of every rock), that
corner with every shot flying into it (where shots bounce, each then ricochets twice in
the tick), or nowhere: no rocks, and the next step starts a wave."""


def worst_world(config: Config, place: str = "centre", seed: int = 1) -> World:
    """The worst state ``config`` allows, as the budget counts it, piled at ``place``.

    ``TickWork.rocks`` large rocks with the most outline points the rules allow, standing
    still within a few px of one spot; the ship there with its shield up (when it has one)
    and the saucer too (when saucers come); every shot alive (ship's and saucer's) starting
    just before the spot and flying through it. With obstacles the centre is on the largest
    one's first corner.
    """
    work = TickWork.of(rules_getter(config))
    p = params_for(config)
    d = Draft(new_world(p, seed))
    remove_all_rocks(d)
    if place == "ricochet":
        if p.wrap_shots:
            raise ValueError("shots ricochet off the border only where they bounce")
        x = y = p.radius[0] + 1.0
    elif place == "corner":
        x, y = 0.0, 0.0
    elif p.obstacle_offsets.shape[0] > 1:
        sizes = np.diff(p.obstacle_offsets)
        x, y = p.obstacle_points[p.obstacle_offsets[int(np.argmax(sizes))]].tolist()
    else:
        x, y = 0.5 * p.width, 0.5 * p.height
    if place == "wave":
        d.wave_timer = 1
        return d.freeze()
    n = work.rocks
    rng = Pcg32(*seed_state(seed))
    # Every outline with the most points the rules allow (the scene only; the rules stay).
    shaped = dataclasses.replace(p, asteroids_vertices_min=p.asteroids_vertices_max)
    i = np.arange(n)
    pos = np.column_stack([x + 0.5 * (i % 7), y + 0.5 * (i % 5)]).astype(np.float64)
    append_rocks(d, make_rocks(rng, shaped, np.zeros(n, dtype=np.int64), pos,
                               np.zeros((n, 2))))
    d.ship_x, d.ship_y, d.ship_vx, d.ship_vy = x, y, 0.0, 0.0
    if p.ship_shield_enabled:
        d.shield_on, d.shield_energy = True, max(d.shield_energy, 2)
    if p.saucers_enabled:
        d.saucer_alive, d.saucer_small, d.saucer_x, d.saucer_y = True, False, x, y
        d.saucer_ticks_left = d.saucer_fire_timer = d.saucer_zig_timer = 10_000
    ship_shots = p.shots_max_alive
    diagonal = p.shots_speed_px_per_tick * 0.5**0.5
    for k in range(work.shots):
        owner = SHOOTER_SHIP if k < ship_shots else SHOOTER_SAUCER
        if place == "ricochet":  # into the corner: off both walls within the tick
            add_shot(d, owner, 0.4 * diagonal + 1e-3 * k, 0.5 * diagonal + 1e-3 * k,
                     -diagonal, -diagonal, p.shots_lifetime_ticks)
        else:
            add_shot(d, owner, (x - 2.0 - (k % 3)) % p.width, y + 0.5 * (k % 5),
                     p.shots_speed_px_per_tick, 0.0, p.shots_lifetime_ticks)
    return d.freeze()


def measure(config: Config, world: World, ticks: int = 5) -> tuple[float, float]:
    """Median ms of ``ticks`` steps from ``world`` (the same state each time) and the
    tracemalloc peak of one, in MiB. Times are this process's CPU time, so other work on a
    shared machine does not count (on an idle core it is the wall time)."""
    p = params_for(config)  # compiled once, outside the timed steps (as a game does)
    step(world, 0, p)  # warm: first-call costs
    times = []
    for _ in range(ticks):
        t0 = time.process_time()
        step(world, 0, p)
        times.append(time.process_time() - t0)
    gc.collect()
    tracemalloc.start()
    try:
        step(world, 0, p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return statistics.median(times) * 1e3, peak / 2**20


def worst_tick(config: Config, ticks: int = 5,
               places: Sequence[str] = PLACES) -> tuple[float, float, str]:
    """The worst tick of ``config`` over ``places``: (median ms, peak MiB, its place)."""
    worst = (0.0, 0.0, "")
    for place in places:
        if place == "ricochet" and config.borders.shots != "bounce":
            continue
        ms, mb = measure(config, worst_world(config, place), ticks)
        if ms > worst[0]:
            worst = (ms, max(mb, worst[1]), place)
        else:
            worst = (worst[0], max(mb, worst[1]), worst[2])
    return worst


# --------------------------------------------------------------------------- corners


@dataclasses.dataclass(frozen=True)
class Corner:
    """The rules that make one kind of work largest, with one number left to search."""

    name: str
    overrides: tuple[str, ...]
    """The rest of the rules, set to make this kind of work worst."""
    knobs: Callable[[int], list[str]]
    """The overrides for the searched number."""
    hi: int
    """The largest number the schema accepts."""
    preset: str = "default"
    """The preset the overrides apply to."""

    def config(self, k: int) -> Config:
        """The rules with the number ``k`` (ConfigError when the validator refuses them)."""
        return load_preset(self.preset, overrides=[*self.overrides, *self.knobs(k)])


def _rocks(k: int) -> list[str]:
    return [f"asteroids.max_alive={k}", f"game.first_wave_asteroids={k}",
            f"game.max_wave_asteroids={k}"]


def _cap(k: int) -> list[str]:
    return [f"asteroids.max_alive={max(1, k)}"]


def _shots(k: int) -> list[str]:
    return [f"shots.max_alive={max(1, k)}"]


def _obstacle(k: int) -> list[str]:
    """One obstacle of ``k`` points: a regular polygon inside the default world."""
    angles = np.linspace(0.0, 2.0 * np.pi, max(3, k), endpoint=False)
    pts = ", ".join(f"[{640.0 + 300.0 * np.cos(a):.3f}, {360.0 + 300.0 * np.sin(a):.3f}]"
                    for a in angles)
    return [f"obstacles=[{{points = [{pts}]}}]"]


_STILL = ("asteroids.speed_min_px_per_s=0", "asteroids.speed_max_px_per_s=0",
          "asteroids.split_kick_px_per_s=0", "asteroids.split_children=0",
          "game.wave_increment=0")
"""Rocks that stay where they are made, and waves of one fixed size."""

CORNERS = (
    Corner("rock outlines (shield, ship, saucer)",
           (*_STILL[:3], "asteroids.split_children=8", "game.first_wave_asteroids=11",
            "ship.shield.enabled=true", "ship.shield.energy_s=60",
            "asteroids.vertices_min=64", "asteroids.vertices_max=64"), _cap, 20_000),
    Corner("colliding rocks", (*_STILL, "asteroids.collide=true"), _rocks, 20_000),
    Corner("shots", (*_STILL, "shots.max_alive=1000", "saucers.max_shots=100",
                     "shots.lifetime_s=30"), _rocks, 20_000),
    Corner("ricocheting shots (arena)", (), _shots, 1000, "arena"),
    Corner("obstacle points", ("shots.at_obstacles=ricochet",), _obstacle, 20_000),
    Corner("wave size", (*_STILL, "game.spawn_clearance_px=10000",
                         "asteroids.vertices_min=64", "asteroids.vertices_max=64"),
           _rocks, 10_000),
)
"""One corner per kind of work the budget counts."""


def accepts(corner: Corner, k: int) -> bool:
    """Whether the validator accepts ``corner`` with the number ``k``."""
    try:
        corner.config(k)
    except ConfigError:
        return False
    return True


def largest_accepted(corner: Corner) -> int:
    """The largest number of ``corner`` the validator accepts (0 if none): a bisection, as
    acceptance only falls as the number grows."""
    lo, hi = 0, corner.hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if accepts(corner, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


PRESETS = ("default", "classic", "arena")


def knob_extremes() -> tuple[list[tuple[str, str, Config]], list[tuple[str, str, str]]]:
    """Every preset with each rule knob at either end of its documented range (a list at
    both ends, every element alike; every choice of a choice; both values of a switch).

    Returns the accepted ones as (preset, override, config) and the refused ones as
    (preset, override, first error): other checks refuse some (a rock wider than the
    world), and the budget refuses the combinations ``docs/limits.md`` names.
    """
    accepted, refused = [], []
    for preset in PRESETS:
        for table in RULE_TABLES:
            for text in _extreme_overrides(table):
                try:
                    accepted.append((preset, text, load_preset(preset, overrides=[text])))
                except ConfigError as exc:
                    refused.append((preset, text, exc.errors[0].message))
    return accepted, refused


def _extreme_overrides(table: str) -> list[str]:
    """``KEY=VALUE`` texts setting each knob of ``table`` to the ends of its range."""
    node = getattr(Config(), table)
    if not dataclasses.is_dataclass(node):
        return []
    out: list[str] = []

    def num(value: float, kind: type) -> str:
        return repr(kind(value))

    def walk(cls: type, prefix: str) -> None:
        for k in knobs(cls):
            key = f"{prefix}.{k.name}"
            lo, hi = k.meta.get("lo"), k.meta.get("hi")
            ends = [v for v in (None if k.meta.get("lo_open") else lo, hi) if v is not None]
            if k.kind == "table" and k.cls is not None:
                walk(k.cls, key)
            elif k.kind in ("int", "float"):
                kind = int if k.kind == "int" else float
                out.extend(f"{key}={num(v, kind)}" for v in ends)
            elif k.kind == "list":
                kind = int if k.elem is int else float
                size = k.meta.get("length") or 1
                out.extend(f"{key}=[{', '.join([num(v, kind)] * size)}]" for v in ends)
            elif k.kind == "bool":
                out.extend(f"{key}={v}" for v in ("true", "false"))
            elif k.kind == "str" and k.meta.get("choices"):
                out.extend(f'{key}="{c}"' for c in k.meta["choices"])
    walk(type(node), table)
    return out


# --------------------------------------------------------------------------- unit costs


_UNIT_SCENES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("1000 shots x 27 rocks x 14", ("shots.max_alive=1000", "saucers.enabled=false")),
    ("200 shots x 1000 rocks x 14", ("shots.max_alive=200", "saucers.enabled=false",
                                     *_rocks(1000), *_STILL)),
    ("100 shots x 100 rocks x 64", ("shots.max_alive=100", "saucers.enabled=false",
                                    *_rocks(100), *_STILL, "asteroids.vertices_min=64",
                                    "asteroids.vertices_max=64")),
    ("4000 rocks x 64, shield", ("ship.shield.enabled=true", *_rocks(4000), *_STILL,
                                 "asteroids.vertices_min=64", "asteroids.vertices_max=64")),
    ("300 colliding rocks", ("asteroids.collide=true", *_rocks(300), *_STILL)),
    ("27 rocks x 4000-point obstacle", (*_obstacle(4000), "saucers.enabled=false")),
    ("2000-rock wave", ("game.spawn_clearance_px=10000", *_rocks(2000), *_STILL)),
)
"""Scenes where one kind of work dominates (checked with ``_unchecked``: over budget is the
point)."""


def _unchecked(overrides: Sequence[str]) -> Config:
    """The default rules with ``overrides``, without the loader's checks (a unit scene is
    meant to pass the budget): values are only converted to the schema's types."""
    config = Config()
    for text in overrides:
        key, value = parse_override(text)
        config = _set(config, key, value)
    return config


def _set(node: Any, key: str, value: Any) -> Any:
    head, _, rest = key.partition(".")
    if rest:
        return dataclasses.replace(node, **{head: _set(getattr(node, head), rest, value)})
    old = getattr(node, head)
    if head == "obstacles":
        value = tuple(Obstacle(points=tuple((float(x), float(y)) for x, y in o["points"]))
                      for o in value)
    elif isinstance(old, tuple):
        value = tuple(type(old[0])(v) for v in value)
    elif isinstance(old, float):
        value = float(value)
    return dataclasses.replace(node, **{head: value})


def unit_rows(costs: UnitCosts | None = None) -> list[tuple[str, str, float, float, float,
                                                               float]]:
    """(scene, its worst place, estimated ms, measured ms, estimated MiB, measured MiB) of
    each unit scene."""
    rows = []
    for name, overrides in _UNIT_SCENES:
        config = _unchecked(overrides)
        est_ms, est_mb = TickWork.of(rules_getter(config)).cost(costs or UnitCosts())
        ms, mb, place = worst_tick(config, ticks=3)
        rows.append((name, place, est_ms, ms, est_mb, mb))
    return rows


# --------------------------------------------------------------------------- floods, loads


def extra_life_flood() -> tuple[float, int, int]:
    """ms of the tick where a shot breaks a rock worth a million points with an extra ship
    every point; the events of that tick and the ships it gave."""
    config = load_config(overrides=["scoring.asteroid=[1000000, 1000000, 1000000]",
                                    "scoring.extra_life_every=1", "saucers.enabled=false"])
    p = params_for(config)
    world = new_world(p, 1)
    d = Draft(world)
    x, y = world.ast_pos[0].tolist()
    add_shot(d, SHOOTER_SHIP, x - 2.0, y, p.shots_speed_px_per_tick, 0.0, p.shots_lifetime_ticks)
    world = d.freeze()
    t0 = time.perf_counter()
    after, events = step(world, 0, p)
    ms = (time.perf_counter() - t0) * 1e3
    return ms, len(events), int(after.lives - world.lives)


def changes_replay(n: int) -> bytes:
    """A replay of ``n + 1`` ticks whose ship thrust changes every tick (``n`` changes)."""
    from asteroids.replay.format import encode_replay
    from asteroids.replay.record import Recorder

    base = load_preset("default")
    other = dataclasses.replace(base, ship=dataclasses.replace(base.ship,
                                                               thrust_px_per_s2=301.0))
    recorder = Recorder(base, 1)
    p_base, p_other = params_for(base), params_for(other)  # compiled once each
    world = new_world(p_base, 1)
    for tick in range(n + 1):
        config, p = (other, p_other) if tick % 2 else (base, p_base)
        world, _ = step(world, 0, p)
        recorder.add(0, world, config)
    return encode_replay(recorder.finish(world))


def replay_load(n: int) -> tuple[int, float, float]:
    """Bytes of a replay with ``n`` changes, and the best of 3 loads in s, with its peak
    MiB."""
    from asteroids.replay.format import decode_replay

    data = changes_replay(n)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        decode_replay(data, "changes.replay")
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    try:
        decode_replay(data, "changes.replay")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return len(data), best, peak / 2**20


# --------------------------------------------------------------------------- report


def _verdict(ms: float, mb: float) -> str:
    return "met" if ms <= BUDGET_MS and mb <= BUDGET_MB else "MISSED"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the budget benchmark and print markdown tables."""
    parser = argparse.ArgumentParser(prog="asteroids bench limits", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ticks", type=int, default=5, help="timed steps per scene")
    parser.add_argument("--changes", type=int, default=10_000,
                        help="settings changes in the replay-load test")
    parser.add_argument("--quick", action="store_true",
                        help="corners, the flood and the replay load only (no unit scenes, "
                        "no preset sweep)")
    args = parser.parse_args(argv)
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}")
    print(f"Budget: {BUDGET_MS:g} ms and {BUDGET_MB:g} MiB a tick.")
    if not args.quick:
        print("\n## Unit costs: the model against scenes where one kind of work dominates\n")
        print("| scene | worst place | estimated ms | measured ms | measured / estimated | "
              "estimated MiB | measured MiB | measured / estimated |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for name, place, est_ms, ms, est_mb, mb in unit_rows():
            print(f"| {name} | {place} | {est_ms:.1f} | {ms:.1f} | {ms / est_ms:.2f} | "
                  f"{est_mb:.1f} | {mb:.1f} | {mb / est_mb:.2f} |")
    print("\n## Worst accepted corners, in their worst placement\n")
    print("| corner | largest accepted | estimated ms | measured ms | estimated MiB | "
          "measured MiB | budget |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for corner in CORNERS:
        k = largest_accepted(corner)
        config = corner.config(k)
        est_ms, est_mb = TickWork.of(rules_getter(config)).cost()
        ms, mb, _ = worst_tick(config, args.ticks)
        print(f"| {corner.name} | {k} | {est_ms:.1f} | {ms:.1f} | {est_mb:.1f} | {mb:.1f} | "
              f"{_verdict(ms, mb)} |")
    if not args.quick:
        accepted, refused = knob_extremes()
        slowest = largest = (0.0, "")
        for preset, text, config in accepted:
            ms, mb, _ = worst_tick(config, 2)
            slowest = max(slowest, (ms, f"{preset} with {text}"))
            largest = max(largest, (mb, f"{preset} with {text}"))
        print(f"\nEvery preset with each rule knob at either end of its range: "
              f"{len(accepted)} accepted; in its worst placement the slowest ({slowest[1]}) "
              f"takes {slowest[0]:.1f} ms, the largest ({largest[1]}) {largest[0]:.1f} MiB "
              f"({_verdict(slowest[0], largest[0])}). Refused by the budget:")
        for preset, text, message in refused:
            if "budget" in message:
                print(f"- {preset} with {text}: {message}")
    ms, n_events, lives = extra_life_flood()
    print(f"\nExtra-life flood (a ship every point, 1 000 000 points a rock): the kill's tick "
          f"took {ms:.2f} ms, returned {n_events} events and gave {lives} ships.")
    size, load_s, load_mb = replay_load(args.changes)
    print(f"\nReplay load: {args.changes} settings changes ({size / 1024:.0f} KiB) read and "
          f"checked in {load_s:.2f} s (best of 3), peak {load_mb:.0f} MiB.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
