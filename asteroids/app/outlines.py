"""The rocks drawn as one quad each, their outlines tested in the fragment shader.

``LineRenderer`` draws every edge as its own instanced quad; llvmpipe (Mesa's software
rasteriser) bins those on the calling thread, so a crowd of rocks costs CPU per edge. Here a
rock is one quad, rotated and moved in the vertex shader, and the fragment shader lights a
pixel when an edge of the rock's outline covers it, with the same square-capped, dashed,
dwell-brightened lines as ``LineRenderer`` (``benchmarks/render_methods.py``'s
"fragment-by-angle": the same pixels for a 40-66x smaller CPU submit than per-asteroid
drawing; on llvmpipe the fragment work costs frame time instead: README, "Benchmarks:
rendering").

The outline points live in an RG32F texture (uploaded only when the world's ``ast_local``
array changes). Generated outlines keep their points in angular order, each within a third of
the even spacing of its angle (``asteroids.core.spawn.make_rocks``), so a pixel only needs
the edges around its polar angle from the rock's centre: the vertex shader works out how far
in angle the line's half width can reach (from the rock's inner radius, the closest its
outline comes to its centre), and the fragment shader tests the edges whose angles come
that close to the pixel's. An outline that is not in that order (classic shapes) has
its inner radius negated here, which makes the shader test every edge. Pixels inside the
outline's hole (closer to the centre than the inner radius less the reach of a line) or past
its bounding radius are discarded before any edge is fetched.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from arcade.gl import BufferDescription

if TYPE_CHECKING:
    from arcade.context import ArcadeContext

    from asteroids.app.scene import RockOutlines

__all__ = ["FLOATS_PER_ROCK", "GLOW_ALPHA", "GLOW_WIDTH", "NO_HOLE", "TEX_WIDTH", "OutlineRenderer",
           "angular_inner_radius", "pass_width_and_alpha", "rock_instances"]

NO_HOLE = (0.0, 0.0, -1.0, -1.0)
"""A ``hole`` no point is inside: everything is drawn."""

GLOW_WIDTH = 4.0
"""The plain look's glow is this many line widths wide..."""
GLOW_ALPHA = 0.16
"""...and this opaque, added on top of what is under it."""


def pass_width_and_alpha(halo: bool) -> tuple[float, float]:
    """A drawing pass's line-width multiple and opacity: the glow halo's, or the crisp
    lines' (1, 1)."""
    return (GLOW_WIDTH, GLOW_ALPHA) if halo else (1.0, 1.0)


TEX_WIDTH = 4096
"""Outline points per texture row."""
FLOATS_PER_ROCK = 8
"""A rock instance: centre (2), cos and sin (2), first point, point count, bounding radius,
inner radius."""
_ANGLE_SLACK = 2e-3
"""Radians a point's angle may fall outside its even slot (in the check and in the shader):
generated angles are whole heading steps (2 pi / 4096 = 1.5e-3), the even angle floored."""

_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform float half_width;
in vec2 in_corner;
in vec4 in_pose;     // x, y, cos, sin
in vec4 in_shape;    // first point, point count, bounding radius, inner radius
out vec2 v_local;
out vec2 v_world;
flat out int v_first;
flat out int v_count;
flat out float v_ext;   // how far past its own angles an edge can light (-1: test all)
flat out vec2 v_ring;   // squared radii no covered pixel is inside of / outside of
const float ANGLE_SLACK = %r;
void main() {
    float hw = half_width;
    int count = int(in_shape.y);
    // A covered pixel is within hw * sqrt(2) (a square cap's corner) of a point of an edge,
    // which is at least the inner radius from the centre: that bounds its angle from the edge.
    float r_in = abs(in_shape.w);                    // negative: not in angular order
    float reach = 1.4142136 * hw;
    float s = reach / max(r_in, 1e-6);
    float ext = -1.0;                                // -1: test every edge
    float inner = max(r_in - reach, 0.0);
    float outer = in_shape.z + reach;
    v_ring = vec2(inner * inner, outer * outer);
    if (in_shape.w > 0.0 && s < 1.0 && count > 4) {
        ext = asin(s) + 1.5 * ANGLE_SLACK;   // float error on top of the check
    }
    vec2 l = in_corner * (in_shape.z + 1.5 * hw + 1e-3);
    vec2 c = in_pose.zw;
    vec2 w = in_pose.xy + vec2(c.x * l.x - c.y * l.y, c.y * l.x + c.x * l.y);
    v_local = l;
    v_world = w;
    v_first = int(in_shape.x);
    v_count = count;
    v_ext = ext;
    gl_Position = window.projection * window.view * vec4(w, 0.0, 1.0);
}
"""

_FS = """#version 330
uniform sampler2D points;
uniform float half_width;
uniform float dash;
uniform vec4 color;
uniform float alpha_scale;
uniform float dwell;
uniform float dwell_len;
uniform float brightness;
uniform int additive;   // 1: the glow pass (each covering edge adds), 0: crisp (brightest)
uniform vec4 hole;      // world rectangle (left, bottom, right, top) nothing is drawn in
in vec2 v_local;
in vec2 v_world;
flat in int v_first;
flat in int v_count;
flat in float v_ext;
flat in vec2 v_ring;
out vec4 frag;
vec2 point(int i) { return texelFetch(points, ivec2(i % 4096, i / 4096), 0).xy; }
void main() {
    if (v_world.x > hole.x && v_world.x < hole.z && v_world.y > hole.y && v_world.y < hole.w)
        discard;                                     // under an opaque panel
    float r2 = dot(v_local, v_local);
    if (r2 < v_ring.x || r2 > v_ring.y) discard;    // inside the outline's hole, or past it
    int n = v_count;
    int lo = 0;
    int m = n;
    if (v_ext >= 0.0) {
        // Point e lies at an angle in [e, e + 1/3) * gap, so edge e spans at most the angles
        // e * gap .. (e + 4/3) * gap, and lights pixels up to v_ext past them.
        float gap = 6.283185307179586 / float(n);
        float phi = atan(v_local.y, v_local.x);
        if (phi < 0.0) phi += 6.283185307179586;
        int first = int(ceil((phi - v_ext) / gap - 1.3333334));
        int last = int(floor((phi + v_ext) / gap));
        if (last - first + 1 < n) {
            lo = first + 2 * n;
            m = last - first + 1;
        }
    }
    float hw = half_width;
    int hits = 0;
    float best = 0.0;
    float total = 0.0;
    int e = lo % n;
    vec2 b = point(v_first + e);
    for (int j = 0; j < m; ++j) {
        vec2 a = b;
        e = e + 1 == n ? 0 : e + 1;
        b = point(v_first + e);
        vec2 d = b - a;
        float len = length(d);
        vec2 t = len > 1e-6 ? d / len : vec2(1.0, 0.0);
        vec2 q = v_local - a;
        float u = dot(q, t);
        if (u < -hw || u > len + hw || abs(dot(q, vec2(-t.y, t.x))) > hw) continue;
        if (dash > 0.0 && mod(u, 2.0 * dash) >= dash) continue;
        float boost = 1.0;
        if (dwell > 0.0) boost += dwell * exp(-min(abs(u), abs(len - u)) / dwell_len);
        hits += 1;
        best = max(best, boost);
        total += boost;
        if (additive == 0 && dwell <= 0.0) break;   // lit, and no brighter end to find
    }
    if (hits == 0) discard;
    if (additive == 1) {
        frag = vec4(color.rgb * (total * brightness), color.a * alpha_scale * float(hits));
    } else {
        frag = vec4(color.rgb * (best * brightness), color.a * alpha_scale);
    }
}
"""


def angular_inner_radius(local: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each outline's inner radius (the closest any edge comes to its centre), negated where
    the points are not in even angular order (point ``e`` of ``n`` at an angle in
    ``[e, e + 1/3) * 2 pi / n``, give or take ``_ANGLE_SLACK``), which the shader's neighbour
    search needs: those rocks have every edge tested.

    >>> sq = np.array([[1., 0.], [0., 1.], [-1., 0.], [0., -1.]])
    >>> angular_inner_radius(sq, np.array([0, 4])).round(4).tolist()
    [0.7071]
    >>> angular_inner_radius(sq[::-1], np.array([0, 4])).round(4).tolist()  # clockwise
    [-0.7071]
    """
    offsets = np.asarray(offsets, np.int64)
    rocks = offsets.shape[0] - 1
    if rocks <= 0 or local.shape[0] == 0:
        return np.zeros(max(rocks, 0))
    counts = np.diff(offsets)
    owner = np.repeat(np.arange(rocks), counts)
    idx = np.arange(local.shape[0]) - offsets[owner]
    nxt = np.where(idx + 1 == counts[owner], offsets[owner], np.arange(local.shape[0]) + 1)
    a = local.astype(np.float64)
    b = a[nxt]
    d = b - a
    len2 = np.einsum("ij,ij->i", d, d)
    t = np.clip(-np.einsum("ij,ij->i", a, d) / np.maximum(len2, 1e-300), 0.0, 1.0)
    closest = a + d * t[:, None]
    dist = np.hypot(closest[:, 0], closest[:, 1])
    keep = counts > 0
    inner = np.zeros(rocks)
    inner[keep] = np.minimum.reduceat(dist, offsets[:-1][keep])
    gap = 2.0 * math.pi / np.maximum(counts, 1)
    phi = np.arctan2(a[:, 1], a[:, 0]) - idx * gap[owner]
    phi = (phi + math.pi) % (2.0 * math.pi) - math.pi     # the offset from the even angle
    ok = (phi >= -_ANGLE_SLACK) & (phi < gap[owner] / 3.0 + _ANGLE_SLACK)
    bad = np.zeros(rocks, bool)
    np.logical_or.at(bad, owner, ~ok)
    inner[bad] = -inner[bad]
    return inner


def rock_instances(rocks: RockOutlines, inner: np.ndarray, margin: float) -> np.ndarray:
    """(M, ``FLOATS_PER_ROCK``) float32 instances: every rock, then the copies shifted by the
    world's width or height (and both) of those whose circle (radius + ``margin``) crosses a
    border, when the rocks wrap."""
    n = len(rocks)
    data = np.empty((n, FLOATS_PER_ROCK), np.float32)
    data[:, :2] = rocks.pos
    data[:, 2:4] = rocks.cos_sin
    data[:, 4] = rocks.offsets[:-1]
    data[:, 5] = np.diff(rocks.offsets)
    data[:, 6] = rocks.radius
    data[:, 7] = inner
    if not rocks.wraps or n == 0:
        return data
    w, h = float(rocks.size[0]), float(rocks.size[1])
    r = np.asarray(rocks.radius, np.float64) + margin
    x, y = rocks.pos[:, 0], rocks.pos[:, 1]
    sx = np.where(x - r < 0.0, 1.0, 0.0) - np.where(x + r > w, 1.0, 0.0)
    sy = np.where(y - r < 0.0, 1.0, 0.0) - np.where(y + r > h, 1.0, 0.0)
    parts = [data]
    for use, dx, dy in ((sx != 0, sx * w, 0.0 * sy), (sy != 0, 0.0 * sx, sy * h),
                        ((sx != 0) & (sy != 0), sx * w, sy * h)):
        if use.any():
            ghost = data[use].copy()
            ghost[:, 0] += dx[use]
            ghost[:, 1] += dy[use]
            parts.append(ghost)
    return np.concatenate(parts) if len(parts) > 1 else data


class OutlineRenderer:
    """Draws a frame's rocks (``RockOutlines``) as one instanced quad each, with
    ``LineRenderer``'s widths, dashes, dwell, brightness and glow.

    Args:
        ctx: the window's arcade context.
    """

    def __init__(self, ctx: ArcadeContext) -> None:
        self.ctx = ctx
        self.rocks: RockOutlines | None = None
        """The rocks of the last ``upload`` (None: nothing to draw)."""
        self.instances = 0
        """Quads the last ``draw`` submitted (rocks plus wrap copies)."""
        self._capacity = 256
        self._buf = ctx.buffer(reserve=self._capacity * FLOATS_PER_ROCK * 4)
        corners = ctx.buffer(data=np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32))
        self._geo = ctx.geometry(
            [BufferDescription(corners, "2f", ["in_corner"]),
             BufferDescription(self._buf, "4f 4f", ["in_pose", "in_shape"], instanced=True)],
            mode=ctx.TRIANGLE_STRIP)
        self._prog = ctx.program(vertex_shader=_VS % _ANGLE_SLACK, fragment_shader=_FS)
        self._tex = ctx.texture((TEX_WIDTH, 1), components=2, dtype="f4",
                                filter=(ctx.NEAREST, ctx.NEAREST))
        self._local: np.ndarray | None = None
        self._offsets: np.ndarray | None = None
        self._inner = np.zeros(0)
        self._margin = -1.0
        self.texture_uploads = 0
        """How many times the points texture was written (tests: only when ``ast_local``
        changes)."""

    @property
    def texture_rows(self) -> int:
        """Rows of ``TEX_WIDTH`` points the outline texture has now."""
        return int(self._tex.height)

    def upload(self, rocks: RockOutlines | None) -> None:
        """Take this frame's rocks (None or empty: none); the points texture is written only
        when ``rocks.local`` is not the array it was last time."""
        self.rocks = rocks if rocks is not None and len(rocks) else None
        self._margin = -1.0
        if self.rocks is None:
            return
        local, offsets = self.rocks.local, self.rocks.offsets
        if local is not self._local or offsets is not self._offsets:
            self._write_points(local)
            self._inner = angular_inner_radius(local, offsets)
            self._local, self._offsets = local, offsets

    def _write_points(self, local: np.ndarray) -> None:
        rows = max(1, -(-local.shape[0] // TEX_WIDTH))
        texels = np.zeros((rows * TEX_WIDTH, 2), np.float32)
        texels[:local.shape[0]] = local
        if self._tex.height != rows:
            self._tex.resize((TEX_WIDTH, rows))
        self._tex.write(texels)
        self.texture_uploads += 1

    def _instances(self, margin: float) -> int:
        """Write the instances (wrap copies for ``margin``) unless already written for at
        least that margin; their count."""
        assert self.rocks is not None
        if margin <= self._margin:
            return self.instances
        data = rock_instances(self.rocks, self._inner, margin)
        n = data.shape[0]
        if n > self._capacity:
            while self._capacity < n:
                self._capacity *= 2
            self._buf.orphan(self._capacity * FLOATS_PER_ROCK * 4)
        self._buf.write(data)
        self._margin = margin
        self.instances = n
        return n

    def draw_pass(self, width: float, halo: bool, *, dwell: float = 0.0,
                  dwell_length: float = 1.0, brightness: float = 1.0,
                  hole: tuple[float, float, float, float] = NO_HOLE) -> None:
        """One pass over the uploaded rocks, as ``LineRenderer`` draws one over its segments
        (same arguments): the additive glow halo (``halo``), or the crisp lines; nothing
        inside ``hole`` (left, bottom, right, top, world units)."""
        rocks = self.rocks
        if rocks is None:
            return
        factor, dash = float(rocks.style[0]), float(rocks.style[1])
        multiple, alpha = pass_width_and_alpha(halo)
        half_width = width * factor * multiple * 0.5
        n = self._instances(half_width * 1.5)
        ctx = self.ctx
        prog = self._prog
        ctx.enable(ctx.BLEND)
        old_blend = ctx.blend_func
        self._tex.use(0)
        prog["points"] = 0
        prog["color"] = tuple(float(c) for c in rocks.color)
        prog["dash"] = dash * width
        prog["dwell"] = dwell
        prog["dwell_len"] = max(dwell_length, 1e-6)
        prog["brightness"] = brightness
        prog["hole"] = hole
        try:
            ctx.blend_func = ctx.BLEND_ADDITIVE if halo else ctx.BLEND_DEFAULT
            prog["half_width"] = half_width
            prog["alpha_scale"] = alpha
            prog["additive"] = int(halo)
            self._geo.render(prog, instances=n)
        finally:
            ctx.blend_func = old_blend
