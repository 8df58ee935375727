"""Other ways to draw the rocks: ``asteroids bench render_methods``.

``benchmarks/render.py`` measures the game's renderer against arcade's own drawing. This one
asks what a different renderer would buy: the rocks of the same crowd scene (N in {300, 1000,
5000}, 1920x1080, headless) drawn by six methods, interleaved frame by frame, each from the
same two Worlds and interpolation fraction, in the game's line width:

* **per-asteroid**: ``arcade.draw_polygon_outline`` per rock (the render benchmark's baseline);
* **quads**: the game's ``LineRenderer``, one instanced quad (4 vertices, 2 triangles) per edge,
  from the world-space outlines numpy builds (how the game drew rocks before
  ``asteroids.app.outlines``, which is "fragment-by-angle" below with the game's styles);
* **gl-lines**: the same buffer drawn as instanced ``GL_LINES`` (2 vertices per edge), wide
  through ``glLineWidth``;
* **line-strips**: one closed ``GL_LINE_STRIP`` per rock (shared vertices, primitive restart),
  wide through ``glLineWidth``;
* **fragment**: one quad per rock, transformed in the vertex shader; the fragment shader tests
  each pixel against the rock's edges (outline points in a float texture), so the CPU submits
  N quads whatever the edge count;
* **fragment-by-angle**: the same, testing only the three edges around the pixel's angle from
  the rock's centre (generated outlines have their points in angular order, a jitter under a
  third of the even spacing: ``asteroids.core.spawn.make_rocks``).

``glLineWidth`` above 1 px is not core OpenGL: Mesa accepts it, a forward-compatible context
(macOS) refuses it; the run says what the driver reports. Reported per method: CPU submit and
whole frame (medians, as in the render benchmark), the submit ratio per-asteroid / method, and
how close its picture is to the quads': its lit pixels over theirs (line width) and the share
of each one's lit pixels that have a lit pixel of the other within 1 px (both ways).
``--json FILE`` writes every number.
"""

from __future__ import annotations

import argparse
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

from asteroids.app.scene import closed_loops  # noqa: E402
from asteroids.core.world import World  # noqa: E402
from benchmarks._util import cpu_name  # noqa: E402
from benchmarks.render import WARMUP, WINDOW, Methods, crowd_scene  # noqa: E402
from benchmarks.step import crowd_config  # noqa: E402

SIZES = (300, 1000, 5000)
FRAMES = {300: 12, 1000: 8, 5000: 5}
NAMES = ("per-asteroid", "quads", "gl-lines", "line-strips", "fragment",
         "fragment-by-angle")
_GREY = (0.8, 0.8, 0.8, 1.0)
_TEX_WIDTH = 4096

_LINES_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
in vec4 in_seg;
in vec4 in_color;
in vec2 in_style;
out vec4 v_color;
void main() {
    v_color = in_color;
    vec2 p = (gl_VertexID % 2) == 0 ? in_seg.xy : in_seg.zw;
    gl_Position = window.projection * window.view * vec4(p, 0.0, 1.0);
}
"""
_STRIP_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform vec4 color;
in vec2 in_pos;
out vec4 v_color;
void main() {
    v_color = color;
    gl_Position = window.projection * window.view * vec4(in_pos, 0.0, 1.0);
}
"""
_FLAT_FS = """#version 330
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
"""
_FRAGMENT_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform float half_width;
in vec2 in_corner;
in vec4 in_pose;     // x, y, cos, sin
in vec4 in_shape;    // first point, point count, bounding radius, unused
out vec2 v_local;
flat out int v_first;
flat out int v_count;
void main() {
    vec2 l = in_corner * (in_shape.z + half_width + 1.0);
    vec2 c = in_pose.zw;
    vec2 w = in_pose.xy + vec2(c.x * l.x - c.y * l.y, c.y * l.x + c.x * l.y);
    v_local = l;
    v_first = int(in_shape.x);
    v_count = int(in_shape.y);
    gl_Position = window.projection * window.view * vec4(w, 0.0, 1.0);
}
"""
_FRAGMENT_FS = """#version 330
uniform sampler2D points;
uniform float half_width;
uniform vec4 color;
in vec2 v_local;
flat in int v_first;
flat in int v_count;
out vec4 frag;
vec2 point(int i) { return texelFetch(points, ivec2(i % 4096, i / 4096), 0).xy; }
void main() {
    vec2 a = point(v_first);
    vec2 first = a;
    bool hit = false;
#ifdef BY_ANGLE
    float gap = 6.283185307179586 / float(v_count);
    float phi = atan(v_local.y, v_local.x);
    int k = int(floor((phi < 0.0 ? phi + 6.283185307179586 : phi) / gap));
    for (int j = -1; j <= 1 && !hit; ++j) {
        int e = (k + j + v_count) % v_count;
        a = point(v_first + e);
        vec2 b = point(v_first + (e + 1) % v_count);
#else
    for (int i = 1; i <= v_count && !hit; ++i) {
        vec2 b = i == v_count ? first : point(v_first + i);
#endif
        vec2 d = b - a;
        float len = length(d);
        vec2 t = len > 1e-6 ? d / len : vec2(1.0, 0.0);
        vec2 q = v_local - a;
        float u = dot(q, t);
        hit = u >= -half_width && u <= len + half_width
              && abs(dot(q, vec2(-t.y, t.x))) <= half_width;   // the quads' square caps
        a = b;
    }
    if (!hit) discard;
    frag = color;
}
"""


class RockMethods:
    """The five ways to draw the rocks of a frame, sharing the render benchmark's window."""

    def __init__(self, methods: Methods) -> None:
        from arcade.gl import BufferDescription
        from pyglet import gl

        self.gl = gl
        self.m = methods
        self.ctx = ctx = methods.ctx
        self.game = methods.game
        self.width = self.game.screen.line_width(self.game.config.display)
        """The line width in world units (as the game's renderer takes it)..."""
        world_w = float(self.game.config.world.width_px)
        self.width_px = self.width * self.game.screen.camera.viewport.width / world_w
        """...and in pixels, as ``glLineWidth`` takes it."""
        self.lines_prog = ctx.program(vertex_shader=_LINES_VS, fragment_shader=_FLAT_FS)
        self.strip_prog = ctx.program(vertex_shader=_STRIP_VS, fragment_shader=_FLAT_FS)
        self.frag_prog = ctx.program(vertex_shader=_FRAGMENT_VS, fragment_shader=_FRAGMENT_FS)
        by_angle = _FRAGMENT_FS.replace("#version 330\n", "#version 330\n#define BY_ANGLE 1\n", 1)
        self.angle_prog = ctx.program(vertex_shader=_FRAGMENT_VS, fragment_shader=by_angle)
        self.seg_buf = ctx.buffer(reserve=40)
        self.strip_buf = ctx.buffer(reserve=8)
        self.strip_idx = ctx.buffer(reserve=4)
        self.pose_buf = ctx.buffer(reserve=32)
        dummy = ctx.buffer(data=np.zeros(4, np.float32))
        corners = ctx.buffer(data=np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32))
        self.lines_geo = ctx.geometry(
            [BufferDescription(dummy, "2f", ["in_vert"]),
             BufferDescription(self.seg_buf, "4f 4f 2f", ["in_seg", "in_color", "in_style"],
                               instanced=True)], mode=ctx.LINES)
        self.strip_geo = ctx.geometry([BufferDescription(self.strip_buf, "2f", ["in_pos"])],
                                      index_buffer=self.strip_idx, mode=ctx.LINE_STRIP)
        self.frag_geo = ctx.geometry(
            [BufferDescription(corners, "2f", ["in_corner"]),
             BufferDescription(self.pose_buf, "4f 4f", ["in_pose", "in_shape"],
                               instanced=True)], mode=ctx.TRIANGLE_STRIP)
        self.points_tex: Any = None
        for prog in (self.strip_prog, self.frag_prog, self.angle_prog):
            prog["color"] = _GREY
        for prog in (self.frag_prog, self.angle_prog):
            prog["half_width"] = 0.5 * self.width
        ctx.primitive_restart_index = -1

    def calls(self) -> dict[str, Callable[[World, World], None]]:
        return {"per-asteroid": self.per_asteroid, "quads": self.quads,
                "gl-lines": self.gl_lines, "line-strips": self.line_strips,
                "fragment": self.fragment,
                "fragment-by-angle": lambda prev, cur: self.fragment(prev, cur, by_angle=True)}

    def _clear(self) -> None:
        self.ctx.scissor = None
        self.m.window.clear(color=(0, 0, 0, 255))
        self.game.screen.camera.use()
        self.ctx.enable(self.ctx.BLEND)

    def _packed(self, prev: World, cur: World) -> np.ndarray:
        pts, offsets = self.m.scene.asteroid_points(prev, cur, 0.5)
        segs = closed_loops(pts, offsets)
        packed = np.empty((segs.shape[0], 10), np.float32)
        packed[:, :4] = segs.reshape(-1, 4)
        packed[:, 4:8] = _GREY
        packed[:, 8:] = (1.0, 0.0)
        return packed

    def per_asteroid(self, prev: World, cur: World) -> None:
        import arcade

        pts, offsets = self.m.scene.asteroid_points(prev, cur, 0.5)
        color = tuple(round(255 * c) for c in _GREY)
        self._clear()
        for i in range(len(offsets) - 1):
            arcade.draw_polygon_outline(pts[offsets[i]:offsets[i + 1]].tolist(), color,
                                        self.width)

    def quads(self, prev: World, cur: World) -> None:
        packed = self._packed(prev, cur)
        self._clear()
        self.game.screen.lines.upload(packed)
        self.game.screen.lines.draw(self.width)

    def gl_lines(self, prev: World, cur: World) -> None:
        packed = self._packed(prev, cur)
        self._clear()
        self.seg_buf.orphan(size=max(packed.nbytes, 40))
        self.seg_buf.write(packed)
        self.gl.glLineWidth(self.width_px)
        self.lines_geo.render(self.lines_prog, instances=packed.shape[0], vertices=2)
        self.gl.glLineWidth(1.0)

    def line_strips(self, prev: World, cur: World) -> None:
        pts, offsets = self.m.scene.asteroid_points(prev, cur, 0.5)
        rocks = offsets.shape[0] - 1
        counts = np.diff(offsets)
        index = np.full(pts.shape[0] + 2 * rocks, -1, np.int32)  # each loop closed, restart
        index[np.arange(pts.shape[0]) + 2 * np.repeat(np.arange(rocks), counts)] = \
            np.arange(pts.shape[0])
        index[offsets[1:] + 2 * np.arange(rocks)] = offsets[:-1]
        verts = pts.astype(np.float32)
        self._clear()
        self.strip_buf.orphan(size=max(verts.nbytes, 8))
        self.strip_buf.write(verts)
        self.strip_idx.orphan(size=max(index.nbytes, 4))
        self.strip_idx.write(index)
        self.gl.glLineWidth(self.width_px)
        self.strip_geo.render(self.strip_prog, vertices=index.shape[0])
        self.gl.glLineWidth(1.0)

    def fragment(self, prev: World, cur: World, by_angle: bool = False) -> None:
        pos, cos_sin = self.m.scene.asteroid_poses(prev, cur, 0.5)
        offsets = cur.ast_offsets
        data = np.empty((pos.shape[0], 8), np.float32)
        data[:, :2] = pos
        data[:, 2:4] = cos_sin
        data[:, 4] = offsets[:-1]
        data[:, 5] = np.diff(offsets)
        data[:, 6] = cur.ast_radius
        data[:, 7] = 0.0
        local = cur.ast_local
        rows = max(1, -(-local.shape[0] // _TEX_WIDTH))
        texels = np.zeros((rows * _TEX_WIDTH, 2), np.float32)
        texels[:local.shape[0]] = local
        if self.points_tex is None or self.points_tex.height != rows:
            self.points_tex = self.ctx.texture((_TEX_WIDTH, rows), components=2, dtype="f4",
                                               filter=(self.ctx.NEAREST, self.ctx.NEAREST))
        self.points_tex.write(texels)
        self._clear()
        self.pose_buf.orphan(size=max(data.nbytes, 32))
        self.pose_buf.write(data)
        prog = self.angle_prog if by_angle else self.frag_prog
        self.points_tex.use(0)
        prog["points"] = 0
        self.frag_geo.render(prog, instances=data.shape[0])

    def lit(self) -> np.ndarray:
        """Which pixels of the window are lit (the last frame)."""
        w, h = self.m.window.get_framebuffer_size()
        img = np.frombuffer(self.ctx.screen.read(components=1), np.uint8)
        return img.reshape(h, w) > 0


def near(a: np.ndarray, b: np.ndarray) -> float:
    """The share of ``a``'s lit pixels that have a lit pixel of ``b`` within 1 px."""
    grown = b.copy()
    grown[1:] |= b[:-1]
    grown[:-1] |= b[1:]
    wide = grown.copy()
    wide[:, 1:] |= grown[:, :-1]
    wide[:, :-1] |= grown[:, 1:]
    return float((a & wide).sum() / max(int(a.sum()), 1))


def time_size(rocks: RockMethods, n: int, frames: int, names: Sequence[str]
              ) -> dict[str, dict[str, float]]:
    """Median submit and frame ms of each method at N, and its picture against the quads'."""
    scene = crowd_scene(n, frames)
    calls = rocks.calls()
    samples: dict[str, tuple[list[float], list[float]]] = {m: ([], []) for m in names}
    ctx = rocks.ctx
    pictures: dict[str, np.ndarray] = {}
    for i in range(frames + WARMUP):
        prev, cur = scene.worlds[i], scene.worlds[i + 1]
        k = i % len(names)
        for name in list(names[k:]) + list(names[:k]):
            ctx.finish()
            gc.collect()
            t0 = time.perf_counter()
            calls[name](prev, cur)
            t1 = time.perf_counter()
            ctx.finish()
            t2 = time.perf_counter()
            if i >= WARMUP:
                samples[name][0].append(t1 - t0)
                samples[name][1].append(t2 - t0)
            if i == frames + WARMUP - 1:
                pictures[name] = rocks.lit()
    out = {}
    ref = pictures.get("quads")
    for name, (sub, frame) in samples.items():
        row = {"submit_ms": 1e3 * statistics.median(sub),
               "frame_ms": 1e3 * statistics.median(frame)}
        if ref is not None:
            row["near_quads"] = near(pictures[name], ref)
            row["quads_near"] = near(ref, pictures[name])
            row["lit_ratio"] = float(pictures[name].sum() / max(int(ref.sum()), 1))
        out[name] = row
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison; print a markdown table (and write JSON with ``--json``)."""
    parser = argparse.ArgumentParser(prog="asteroids bench render_methods", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--frames", type=int, default=None,
                        help="timed frames per method (default: by N)")
    parser.add_argument("--methods", nargs="+", choices=NAMES, default=list(NAMES))
    parser.add_argument("--size", default=f"{WINDOW[0]}x{WINDOW[1]}", metavar="WxH")
    parser.add_argument("--json", metavar="FILE", default=None)
    args = parser.parse_args(argv)
    try:
        wsize = tuple(int(v) for v in args.size.lower().split("x"))
        if len(wsize) != 2:
            raise ValueError
    except ValueError:
        print(f"bench render_methods: --size must be WIDTHxHEIGHT, got {args.size!r}",
              file=sys.stderr)
        return 2
    names = [m for m in NAMES if m in args.methods]

    import arcade

    window = arcade.Window(*wsize, "asteroids bench render_methods", visible=False,
                           vsync=False, antialiasing=False)
    rocks = RockMethods(Methods(window, crowd_config(False)))
    gl = rocks.gl
    widths = (gl.GLfloat * 2)()
    gl.glGetFloatv(gl.GL_ALIASED_LINE_WIDTH_RANGE, widths)
    renderer = window.ctx.info.RENDERER
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__};"
          f" GL: {renderer}; window {wsize[0]}x{wsize[1]}; line width {rocks.width_px:g} px "
          f"(driver's aliased line widths {widths[0]:g}..{widths[1]:g})")
    results: dict[str, Any] = {"machine": cpu_name(), "gl_renderer": renderer,
                               "window": list(wsize), "line_width_px": rocks.width_px,
                               "line_width_range": [widths[0], widths[1]], "rows": []}
    table = {}
    for n in args.sizes:
        frames = args.frames or FRAMES.get(n, 5)
        table[n] = time_size(rocks, n, frames, names)
        for name, row in table[n].items():
            results["rows"].append({"n": n, "method": name, **row})
        print(f"measured N = {n}", file=sys.stderr, flush=True)
    error = gl.glGetError()
    window.close()
    print("\n## Rocks only, medians per frame (ms)\n")
    print("| N | method | submit | frame | submit per-asteroid ÷ method | "
          "lit pixels ÷ quads' | its lit near quads' | quads' lit near its |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for n, rows in table.items():
        base = rows.get("per-asteroid")
        for name, row in rows.items():
            ratio = f"{base['submit_ms'] / row['submit_ms']:.1f}×" if base else "-"
            near_q = f"{100 * row['near_quads']:.2f} %" if "near_quads" in row else "-"
            q_near = f"{100 * row['quads_near']:.2f} %" if "quads_near" in row else "-"
            lit = f"{row['lit_ratio']:.3f}" if "lit_ratio" in row else "-"
            print(f"| {n} | {name} | {row['submit_ms']:.2f} | {row['frame_ms']:.2f} | "
                  f"{ratio} | {lit} | {near_q} | {q_near} |")
    if error:
        print(f"\nGL error {error:#x} after the run: a method's drawing is not valid here")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 1 if error else 0


if __name__ == "__main__":
    raise SystemExit(main())
