"""One dynamic vertex buffer of coloured line segments, drawn as instanced quads.

Every segment of a frame but the rocks (ship, shots, particles, HUD icons, obstacles) goes
into one buffer and one draw call; the rocks are drawn before them in every pass by
``asteroids.app.outlines.OutlineRenderer``, one quad per rock (an edge per quad costs too
much CPU on a software rasteriser: README, "Benchmarks: rendering"). A second, wider and
fainter pass with additive blending gives the plain look's glow. Segments are in world units:
the active Camera2D maps them to the letterboxed viewport.

Each segment carries its colour and a style: a width factor and a dash length (palettes use
them to tell kinds apart without hue). The fragment shader can also brighten the ends of each
segment, where a vector monitor's beam dwelt, and scale the brightness (flicker); both are off
(exactly 1.0) in the plain look, which then draws the same pixels as before styles existed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from arcade.gl import BufferDescription

from asteroids.app.outlines import (
    GLOW_ALPHA,
    GLOW_WIDTH,
    NO_HOLE,
    OutlineRenderer,
    pass_width_and_alpha,
)
from asteroids.app.scene import FLOATS_PER_SEGMENT

if TYPE_CHECKING:
    from arcade.context import ArcadeContext

    from asteroids.app.scene import RockOutlines

__all__ = ["GLOW_ALPHA", "GLOW_WIDTH", "LineRenderer"]

_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform float half_width;
uniform float dash_unit;
in vec2 in_vert;
in vec4 in_seg;
in vec4 in_color;
in vec2 in_style;
out vec4 v_color;
out float v_along;
out float v_len;
out float v_dash;
out vec2 v_world;
void main() {
    vec2 a = in_seg.xy;
    vec2 b = in_seg.zw;
    vec2 d = b - a;
    float len = length(d);
    vec2 t = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    float hw = half_width * in_style.x;
    vec2 n = vec2(-t.y, t.x) * hw;
    vec2 ext = t * hw;                          // square caps close the joints
    vec2 corners[4] = vec2[4](a - ext + n, a - ext - n, b + ext + n, b + ext - n);
    float along[4] = float[4](-hw, -hw, len + hw, len + hw);
    int k = gl_VertexID % 4;
    v_color = in_color;
    v_along = along[k];
    v_len = len;
    v_dash = in_style.y * dash_unit;
    v_world = corners[k];
    gl_Position = window.projection * window.view * vec4(corners[k], 0.0, 1.0);
}
"""

_FS = """#version 330
uniform float alpha_scale;
uniform float dwell;
uniform float dwell_len;
uniform float brightness;
uniform vec4 hole;
in vec4 v_color;
in float v_along;
in float v_len;
in float v_dash;
in vec2 v_world;
out vec4 frag;
void main() {
    if (v_world.x > hole.x && v_world.x < hole.z && v_world.y > hole.y && v_world.y < hole.w)
        discard;
    if (v_dash > 0.0 && mod(v_along, 2.0 * v_dash) >= v_dash) discard;
    float boost = 1.0;
    if (dwell > 0.0) {
        float end = min(abs(v_along), abs(v_len - v_along));
        boost += dwell * exp(-end / dwell_len);
    }
    frag = vec4(v_color.rgb * (boost * brightness), v_color.a * alpha_scale);
}
"""

_BYTES_PER_SEGMENT = FLOATS_PER_SEGMENT * 4


class LineRenderer:
    """Draws segments with per-segment colours and styles in one instanced call (two with
    the glow).

    Args:
        ctx: the window's arcade context.
        capacity: segments the buffer holds at first; it grows by doubling.
    """

    def __init__(self, ctx: ArcadeContext, capacity: int = 4096) -> None:
        self.ctx = ctx
        self.capacity = max(16, int(capacity))
        self.count = 0
        """Segments written by the last ``update`` / ``upload``."""
        self._buf = ctx.buffer(reserve=self.capacity * _BYTES_PER_SEGMENT)
        quad = ctx.buffer(data=np.zeros(8, dtype="f4"))
        self._geo = ctx.geometry(
            [
                BufferDescription(quad, "2f", ["in_vert"]),
                BufferDescription(self._buf, "4f 4f 2f", ["in_seg", "in_color", "in_style"],
                                  instanced=True),
            ],
            mode=ctx.TRIANGLE_STRIP,
        )
        self._prog = ctx.program(vertex_shader=_VS, fragment_shader=_FS)
        self.outlines = OutlineRenderer(ctx)
        """Draws the rocks, one quad each, before the segments of every pass."""
        self.glow_scale = 1.0
        """The glow pass's width, times the plain look's (text glows tighter: 0.5)."""

    def upload(self, packed: np.ndarray, rocks: RockOutlines | None = None) -> None:
        """Upload this frame's segments as one (S, ``FLOATS_PER_SEGMENT``) float32 array
        (``Segments.packed(rocks=False)``): ends in world units, RGBA in 0..1, width factor,
        dash; and the rocks (``Segments.rocks``) for ``outlines`` to draw (None: none)."""
        self.outlines.upload(rocks)
        n = int(packed.shape[0])
        if n > self.capacity:
            while self.capacity < n:
                self.capacity *= 2
            self._buf.orphan(self.capacity * _BYTES_PER_SEGMENT)
        else:
            self._buf.orphan()
        if n:
            self._buf.write(np.ascontiguousarray(packed, dtype="f4"))
        self.count = n

    def update(self, segs: np.ndarray, colors: np.ndarray) -> None:
        """Upload (S, 2, 2) segments (world units) and (S, 4) colours (RGBA in 0..1), all
        plain solid lines."""
        n = int(segs.shape[0])
        data = np.empty((n, FLOATS_PER_SEGMENT), dtype="f4")
        data[:, :4] = segs.reshape(n, 4)
        data[:, 4:8] = colors
        data[:, 8] = 1.0
        data[:, 9] = 0.0
        self.upload(data)

    def draw(self, width: float, glow: bool = False, *, dwell: float = 0.0,
             dwell_length: float = 1.0, brightness: float = 1.0,
             hole: tuple[float, float, float, float] = NO_HOLE) -> None:
        """Draw the uploaded rocks and segments: the glow pass (rocks, then segments), then
        the crisp one (rocks, then segments).

        Args:
            width: line width in world units (convert from pixels with the camera scale);
                a segment's width factor multiplies it, and its dash length is in these units.
            glow: add a wide, faint, additive halo pass under the lines.
            dwell: extra brightness at each segment's ends (0 = none).
            dwell_length: how far along the segment the bright end reaches (world units).
            brightness: multiplies every colour (1 = as given).
            hole: a world rectangle (left, bottom, right, top) left empty: under an opaque
                panel (``NO_HOLE``: none).
        """
        for halo in ((True, False) if glow else (False,)):
            self.outlines.draw_pass(width, halo, dwell=dwell, dwell_length=dwell_length,
                                    brightness=brightness, hole=hole)
            if self.count:
                self._draw_segments(width, halo, dwell, dwell_length, brightness, hole)

    def _draw_segments(self, width: float, halo: bool, dwell: float, dwell_length: float,
                       brightness: float,
                       hole: tuple[float, float, float, float] = NO_HOLE) -> None:
        """One pass over the segments: the additive glow halo, or the crisp lines."""
        ctx = self.ctx
        prog = self._prog
        ctx.enable(ctx.BLEND)
        old_blend = ctx.blend_func
        prog["dash_unit"] = width
        prog["dwell"] = dwell
        prog["dwell_len"] = max(dwell_length, 1e-6)
        prog["brightness"] = brightness
        prog["hole"] = hole
        multiple, alpha = pass_width_and_alpha(halo)
        if halo:
            multiple *= self.glow_scale
        try:
            ctx.blend_func = ctx.BLEND_ADDITIVE if halo else ctx.BLEND_DEFAULT
            prog["half_width"] = width * multiple * 0.5
            prog["alpha_scale"] = alpha
            self._geo.render(prog, instances=self.count)
        finally:
            ctx.blend_func = old_blend
