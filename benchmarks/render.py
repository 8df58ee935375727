"""Render budget: ``asteroids bench render`` (or ``python -m benchmarks.render``).

The same scene, N asteroids (N in {30, 300, 1000, 5000}) with 100 live shots, the ship and a
burst of explosion debris in a 1920x1080 world, is drawn headless (EGL; Mesa's llvmpipe on a
machine without a GPU) by three methods, interleaved frame by frame in one run:

* **ours**: the game's renderer, exactly as a frame is drawn in play (``SceneBuilder`` +
  particles -> ``Segments`` -> ``Screen.draw_frame``: the rocks as one instanced quad each,
  their outlines tested in the fragment shader (``asteroids.app.outlines``), then one
  instanced quad per line for everything else, one buffer upload and draw call each);
* **per-asteroid**: ``arcade.draw_polygon_outline`` per asteroid (and for the ship), and
  ``arcade.draw_line`` per shot and per debris line;
* **ShapeElementList**: an ``arcade.shape_list.ShapeElementList`` rebuilt each frame (the
  rocks move) from ``create_line_loop`` per outline and ``create_line`` per line, then drawn.

Every method starts from the same two Worlds and interpolation fraction, and draws the same
lines in the same colours and width (the world-space outlines of the arcade methods come
from the game's own vectorised transform, timed as part of each method's frame; ours moves
the rocks in its vertex shader). The plain look is drawn
without the optional glow pass (``display.glow = false``), so all three draw exactly one
line per segment; with the vector-monitor look on (``display.monitor.strength = 1``) every
method draws through the same ``VectorMonitor`` (each has its own buffers). Ours is also
timed in the plain look as shipped, with the glow pass (``display.glow = true``).

Per frame it reports the **CPU time to build and submit** (wall time before
``ctx.finish()``; on llvmpipe this includes Mesa's vertex work on the calling thread) and the
**whole frame** (after ``ctx.finish()``), as medians over the frames, and their ratios. On a
software rasteriser frame rates say little, so the targets are ratios:

* CPU submit, per-asteroid / ours: at least 20x at N = 1000 and 40x at N = 5000;
* the Python-side build of a classic frame (a classic-preset game in progress, built and
  packed for upload, the rock instances included, before any GL call): at most 1 ms;
* the vector-monitor look adds at most 50 % to our whole frame at N = 300, over the plain
  look as the game ships it (``display.glow = true``: the monitor look's bloom replaces that
  glow pass); the run also prints what it adds over the lines alone.

``--quick`` runs a small grid in a small window for CI (a test checks only that the ratios
point the right way); ``--json FILE`` writes every number.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")
os.environ.setdefault("ARCADE_SOUND_BACKENDS", "silent")

import numpy as np  # noqa: E402

from asteroids.config import Config, load_config  # noqa: E402
from asteroids.core import events as ev  # noqa: E402
from asteroids.core import new_world, step  # noqa: E402
from asteroids.core.bot import bot_input  # noqa: E402
from asteroids.core.params import params_for  # noqa: E402
from asteroids.core.rng import Pcg32, seed_state  # noqa: E402
from asteroids.core.ship import ship_outline  # noqa: E402
from asteroids.core.tables import HEADING_STEPS  # noqa: E402
from asteroids.core.world import World  # noqa: E402
from benchmarks._util import cpu_name  # noqa: E402
from benchmarks.step import crowd_config, crowd_world, top_up_shots  # noqa: E402

SIZES = (30, 300, 1000, 5000)
QUICK_SIZES = (30, 300)
FRAMES = {30: 60, 300: 30, 1000: 12, 5000: 5}
"""Timed frames per method and look (fewer where the per-asteroid method takes long)."""
WINDOW = (1920, 1080)
QUICK_WINDOW = (640, 360)
WARMUP = 2
"""Untimed frames per method before timing (shader compiles, buffer growth)."""
SUBMIT_TARGETS = {1000: 20.0, 5000: 40.0}
"""CPU submit, per-asteroid / ours, at least."""
BUILD_TARGET_MS = 1.0
MONITOR_TARGET = 0.5
"""The monitor look may add at most this fraction to our whole frame..."""
MONITOR_AT = 300
"""...at this N."""
METHODS = ("ours", "per-asteroid", "ShapeElementList")
LOOKS = ("plain", "monitor")


@dataclasses.dataclass
class Scene:
    """The frames of one N: consecutive world pairs, and the debris of each frame."""

    config: Config
    worlds: list[World]
    particles: list[Any]


def crowd_scene(n: int, frames: int) -> Scene:
    """N rocks, 100 shots kept topped up and a burst of debris, for ``frames`` + 1 ticks."""
    from asteroids.app.effects import Particles

    cfg = crowd_config(False)
    p = params_for(cfg)  # compiled once for every tick of the scene
    world = crowd_world(cfg, n, seed=100)
    rng = Pcg32(*seed_state(7))
    world = top_up_shots(world, p, rng)
    parts = Particles(cfg.world.width_px, cfg.world.height_px, cfg.world.tick_hz, seed=1)
    burst = np.random.default_rng(5)
    for _ in range(8):
        x, y = burst.uniform(100, 1800), burst.uniform(100, 1000)
        parts.on_event(ev.AsteroidDestroyed(size=0, x=x, y=y, children=2, by="ship-shot",
                                            points=20))
    parts.on_event(ev.ShipDestroyed(x=960.0, y=540.0, cause="asteroid", lives_left=2))
    worlds, snaps = [world], []
    for _ in range(frames + WARMUP + 1):
        world, _ = step(world, 0, p)
        worlds.append(top_up_shots(world, p, rng))
        parts.tick()
        snap = Particles(cfg.world.width_px, cfg.world.height_px, cfg.world.tick_hz)
        for name in ("pos", "vel", "half", "spin", "ttl", "ttl0"):
            setattr(snap, name, getattr(parts, name).copy())
        snaps.append(snap)
    return Scene(cfg, worlds, snaps)


def classic_world(ticks: int = 900, seed: int = 8) -> tuple[Config, World, World]:
    """A classic-preset game in progress (the bot plays), as two consecutive Worlds."""
    cfg = load_config("classic")
    p = params_for(cfg)  # compiled once, passed every tick
    world = new_world(p, seed)
    prev = world
    for _ in range(ticks):
        prev = world
        world, _ = step(world, bot_input(world, cfg.world.width_px, cfg.world.height_px), p)
    return cfg, prev, world


def _rgba255(color: Sequence[float]) -> tuple[int, int, int, int]:
    return tuple(int(round(c * 255)) for c in color)  # type: ignore[return-value]


class Methods:
    """The three ways to draw one frame, sharing one headless window."""

    def __init__(self, window: Any, config: Config) -> None:
        import arcade

        from asteroids.app.monitor import VectorMonitor
        from asteroids.app.router import open_shell

        self.arcade = arcade
        self.window = window
        self.ctx = window.ctx
        self.game = open_shell(window, config, seed=0, sound=False)
        self.game.screen.frame_time_s = 1.0 / config.world.tick_hz
        self.scene = self.game.rules.scene
        self.monitors = {m: VectorMonitor(self.ctx) for m in METHODS[1:]}
        self.configs = {look: self._look(config, look) for look in (*LOOKS, "glow")}

    @staticmethod
    def _look(config: Config, look: str) -> Config:
        monitor = dataclasses.replace(config.display.monitor,
                                      strength=1.0 if look == "monitor" else 0.0)
        display = dataclasses.replace(config.display, glow=look == "glow", monitor=monitor)
        return dataclasses.replace(config, display=display)

    def ours(self, prev: World, cur: World, parts: Any, look: str) -> None:
        """The game's renderer, as ``WorldView.on_draw`` draws a frame."""
        game = self.game
        game.rules.config = self.configs[look]
        palette = game.screen.palette(game.config.display)
        segs = self.scene.build(prev, cur, 0.5, palette=palette)
        parts.segments(0.5, segs, palette.particle)
        game.screen.draw_frame(game.config.display, segs)

    def _lines(self, prev: World, cur: World, parts: Any) -> tuple[Any, ...]:
        """What the arcade methods draw: outlines as point lists, lines as end points."""
        scene = self.scene
        pts, offsets = scene.asteroid_points(prev, cur, 0.5)
        rocks = [pts[offsets[i]:offsets[i + 1]].tolist() for i in range(len(offsets) - 1)]
        ship = None
        if cur.ship_visible:
            x, y, h = scene.ship_pose(prev, cur, 0.5)
            ship = ship_outline(scene.params, x, y, round(h) % HEADING_STEPS).tolist()
        shots = scene.shot_segments(prev, cur, 0.5).reshape(-1, 4).tolist()
        debris = []
        if len(parts):
            centre = parts.pos + parts.vel * 0.5
            debris = np.concatenate([centre - parts.half, centre + parts.half], axis=1).tolist()
        return rocks, ship, shots, debris

    def _frame(self, method: str, draw: Callable[[float], None], look: str) -> None:
        game = self.game
        width = game.screen.line_width(game.config.display)
        if look == "monitor":
            cfg = self.configs[look]
            self.monitors[method].frame(cfg.display.monitor, game.screen.camera,
                                        self.window.get_framebuffer_size(),
                                        game.screen.frame_time_s or 0.0,
                                        lambda line: draw(width * line.width))
        else:
            self.ctx.scissor = None
            self.window.clear(color=(0, 0, 0, 255))
            game.screen.camera.use()
            draw(width)

    def per_asteroid(self, prev: World, cur: World, parts: Any, look: str) -> None:
        """``draw_polygon_outline`` per outline, ``draw_line`` per line."""
        arcade = self.arcade
        palette = self.game.screen.palette(self.game.config.display)
        rocks, ship, shots, debris = self._lines(prev, cur, parts)
        rock_c, ship_c = _rgba255(palette.asteroid), _rgba255(palette.ship)
        shot_c, debris_c = _rgba255(palette.shot_ship), _rgba255(palette.particle)

        def draw(width: float) -> None:
            for points in rocks:
                arcade.draw_polygon_outline(points, rock_c, width)
            if ship is not None:
                arcade.draw_polygon_outline(ship, ship_c, width)
            for x0, y0, x1, y1 in shots:
                arcade.draw_line(x0, y0, x1, y1, shot_c, width)
            for x0, y0, x1, y1 in debris:
                arcade.draw_line(x0, y0, x1, y1, debris_c, width)

        self._frame("per-asteroid", draw, look)

    def shape_list(self, prev: World, cur: World, parts: Any, look: str) -> None:
        """One ``ShapeElementList`` rebuilt from the frame's lines, then drawn."""
        from arcade import shape_list as sl

        palette = self.game.screen.palette(self.game.config.display)
        rocks, ship, shots, debris = self._lines(prev, cur, parts)
        rock_c, ship_c = _rgba255(palette.asteroid), _rgba255(palette.ship)
        shot_c, debris_c = _rgba255(palette.shot_ship), _rgba255(palette.particle)

        def draw(width: float) -> None:
            shapes: sl.ShapeElementList = sl.ShapeElementList()
            for points in rocks:
                shapes.append(sl.create_line_loop(points, rock_c, width))
            if ship is not None:
                shapes.append(sl.create_line_loop(ship, ship_c, width))
            for x0, y0, x1, y1 in shots:
                shapes.append(sl.create_line(x0, y0, x1, y1, shot_c, width))
            for x0, y0, x1, y1 in debris:
                shapes.append(sl.create_line(x0, y0, x1, y1, debris_c, width))
            shapes.draw()

        self._frame("ShapeElementList", draw, look)


def time_size(methods: Methods, n: int, frames: int, looks: Sequence[str]
              ) -> dict[tuple[str, str], dict[str, float]]:
    """Median submit and frame ms of every (method, look) at N, interleaved frame by frame."""
    scene = crowd_scene(n, frames)
    calls = {"ours": methods.ours, "per-asteroid": methods.per_asteroid,
             "ShapeElementList": methods.shape_list}
    variants = [(m, look) for look in looks for m in METHODS]
    if "plain" in looks:
        variants.append(("ours", "glow"))
    samples: dict[tuple[str, str], tuple[list[float], list[float]]] = {
        v: ([], []) for v in variants}
    ctx = methods.ctx
    for i in range(frames + WARMUP):
        prev, cur, parts = scene.worlds[i], scene.worlds[i + 1], scene.particles[i]
        k = i % len(variants)
        for method, look in variants[k:] + variants[:k]:
            ctx.finish()
            gc.collect()
            t0 = time.perf_counter()
            calls[method](prev, cur, parts, look)
            t1 = time.perf_counter()
            ctx.finish()
            t2 = time.perf_counter()
            if i >= WARMUP:
                samples[(method, look)][0].append(t1 - t0)
                samples[(method, look)][1].append(t2 - t0)
    return {v: {"submit_ms": 1e3 * statistics.median(s), "frame_ms": 1e3 * statistics.median(f)}
            for v, (s, f) in samples.items()}


def time_classic_build(reps: int) -> dict[str, float]:
    """Median and 90th percentile ms to build and pack a classic frame (no GL)."""
    from asteroids.app.effects import Particles
    from asteroids.app.outlines import angular_inner_radius, rock_instances
    from asteroids.app.palettes import VECTOR
    from asteroids.app.scene import SceneBuilder

    cfg, prev, cur = classic_world()
    scene = SceneBuilder(cfg)
    # The renderer works this out once per change of the outlines, not per frame.
    inner = angular_inner_radius(cur.ast_local, cur.ast_offsets)
    parts = Particles(cfg.world.width_px, cfg.world.height_px, cfg.world.tick_hz, seed=1)
    parts.on_event(ev.AsteroidDestroyed(size=0, x=500.0, y=400.0, children=2, by="ship-shot",
                                        points=20))
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        segs = scene.build(prev, cur, 0.5, palette=VECTOR)
        parts.segments(0.5, segs, VECTOR.particle)
        scene.life_icons(cur.lives, 30.0, 700.0, segs)
        segs.packed(rocks=False)
        if segs.rocks is not None:
            rock_instances(segs.rocks, inner, 4.0)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return {"median_ms": 1e3 * ts[len(ts) // 2], "p90_ms": 1e3 * ts[int(0.9 * (len(ts) - 1))],
            "asteroids": int(cur.ast_id.shape[0]), "segments": int(len(segs)),
            "segments_without_rocks": int(segs.packed(rocks=False).shape[0])}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the render benchmark; print markdown tables (and write JSON with ``--json``)."""
    parser = argparse.ArgumentParser(prog="asteroids bench render", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=None,
                        help=f"asteroid counts (default {' '.join(map(str, SIZES))})")
    parser.add_argument("--frames", type=int, default=None,
                        help="timed frames per method and look (default: by N)")
    parser.add_argument("--size", default=None, metavar="WxH",
                        help=f"window size in px (default {WINDOW[0]}x{WINDOW[1]})")
    parser.add_argument("--looks", nargs="+", choices=LOOKS, default=list(LOOKS))
    parser.add_argument("--quick", action="store_true",
                        help="a small grid in a small window, for CI")
    parser.add_argument("--json", metavar="FILE", default=None, help="write the numbers here")
    args = parser.parse_args(argv)
    sizes = tuple(args.sizes) if args.sizes else (QUICK_SIZES if args.quick else SIZES)
    wsize = QUICK_WINDOW if args.quick else WINDOW
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            print(f"bench render: --size must be WIDTHxHEIGHT, got {args.size!r}",
                  file=sys.stderr)
            return 2
        wsize = (w, h)

    def frames_for(n: int) -> int:
        if args.frames:
            return args.frames
        return max(3, FRAMES.get(n, 5) // (4 if args.quick else 1))

    import arcade

    window = arcade.Window(*wsize, "asteroids bench render", visible=False, vsync=False,
                           antialiasing=False)
    renderer = window.ctx.info.RENDERER
    config = crowd_config(False)
    methods = Methods(window, config)
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__};"
          f" GL: {renderer}; window {wsize[0]}x{wsize[1]}")
    results: dict[str, Any] = {
        "machine": cpu_name(), "gl_renderer": renderer, "window": list(wsize),
        "command": "asteroids bench render " + " ".join(argv if argv is not None
                                                        else sys.argv[1:]),
        "rows": [], "targets": {},
    }
    table: dict[tuple[int, str, str], dict[str, float]] = {}
    for n in sizes:
        for (method, look), row in time_size(methods, n, frames_for(n), args.looks).items():
            table[(n, method, look)] = row
            results["rows"].append({"n": n, "method": method, "look": look, **row})
        print(f"measured N = {n}", file=sys.stderr, flush=True)
    window.close()

    print("\n## Render, N asteroids + 100 shots + debris, medians per frame (ms)\n")
    print("| N | look | ours submit | ours frame | per-asteroid submit | per-asteroid frame | "
          "ShapeElementList submit | ShapeElementList frame | submit per-asteroid ÷ ours | "
          "submit ShapeElementList ÷ ours | frame per-asteroid ÷ ours |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        for look in args.looks:
            o, p, s = (table[(n, m, look)] for m in METHODS)
            print(f"| {n} | {look} | {o['submit_ms']:.2f} | {o['frame_ms']:.2f} | "
                  f"{p['submit_ms']:.2f} | {p['frame_ms']:.2f} | {s['submit_ms']:.2f} | "
                  f"{s['frame_ms']:.2f} | {p['submit_ms'] / o['submit_ms']:.1f}× | "
                  f"{s['submit_ms'] / o['submit_ms']:.1f}× | "
                  f"{p['frame_ms'] / o['frame_ms']:.1f}× |")
    if "plain" in args.looks:
        print("\nOurs in the plain look as shipped (`display.glow = true`: a second, wide, "
              "additive pass under the lines), ms submit / frame: "
              + "; ".join(f"N = {n}: {table[(n, 'ours', 'glow')]['submit_ms']:.2f} / "
                          f"{table[(n, 'ours', 'glow')]['frame_ms']:.2f}" for n in sizes))
    build = time_classic_build(300 if not args.quick else 50)
    results["classic_build"] = build
    print("\n## Targets\n")
    for n, target in SUBMIT_TARGETS.items():
        if (n, "ours", "plain") in table:
            ratio = table[(n, "per-asteroid", "plain")]["submit_ms"] / \
                table[(n, "ours", "plain")]["submit_ms"]
            ok = ratio >= target
            results["targets"][f"submit_ratio_{n}"] = {"value": ratio, "target": target,
                                                       "met": ok}
            print(f"- CPU submit per-asteroid ÷ ours at N = {n}: {ratio:.1f}× "
                  f"(target ≥ {target:g}×: {'met' if ok else 'MISSED'})")
    ok = build["median_ms"] <= BUILD_TARGET_MS
    results["targets"]["classic_build_ms"] = {"value": build["median_ms"],
                                              "target": BUILD_TARGET_MS, "met": ok}
    print(f"- Python-side build of a classic frame ({build['asteroids']} rocks as quads, "
          f"{build['segments_without_rocks']} other segments): median {build['median_ms']:.3f} ms, "
          f"p90 {build['p90_ms']:.3f} ms (target ≤ {BUILD_TARGET_MS:g} ms: "
          f"{'met' if ok else 'MISSED'})")
    if (MONITOR_AT, "ours", "monitor") in table and (MONITOR_AT, "ours", "glow") in table:
        on = table[(MONITOR_AT, "ours", "monitor")]["frame_ms"]
        off = table[(MONITOR_AT, "ours", "glow")]["frame_ms"]
        lines = table[(MONITOR_AT, "ours", "plain")]["frame_ms"]
        extra = on / off - 1.0
        ok = extra <= MONITOR_TARGET
        results["targets"]["monitor_extra_300"] = {
            "value": extra, "target": MONITOR_TARGET, "met": ok,
            "over_lines_only": on / lines - 1.0}
        print(f"- The monitor look adds {100 * extra:.0f} % to our frame at N = {MONITOR_AT}, "
              f"over the plain look as shipped, glow on ({off:.2f} -> {on:.2f} ms; target "
              f"≤ {100 * MONITOR_TARGET:.0f} %: {'met' if ok else 'MISSED'}); "
              f"{100 * (on / lines - 1.0):.0f} % over lines alone ({lines:.2f} ms)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
