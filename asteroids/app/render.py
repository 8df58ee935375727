"""One dynamic vertex buffer of coloured line segments, drawn as instanced quads.

Every segment of a frame (rocks, ship, shots, particles, HUD icons) goes into one buffer and
one draw call; a second, wider and fainter pass with additive blending gives the optional
vector-monitor glow. Segments are in world units: the active Camera2D maps them to the
letterboxed viewport.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from arcade.gl import BufferDescription

if TYPE_CHECKING:
    from arcade.context import ArcadeContext

__all__ = ["LineRenderer"]

_VS = """#version 330
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform float half_width;
in vec2 in_vert;
in vec4 in_seg;
in vec4 in_color;
out vec4 v_color;
void main() {
    vec2 a = in_seg.xy;
    vec2 b = in_seg.zw;
    vec2 d = b - a;
    float len = length(d);
    vec2 t = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-t.y, t.x) * half_width;
    vec2 ext = t * half_width;                  // square caps close the joints
    vec2 corners[4] = vec2[4](a - ext + n, a - ext - n, b + ext + n, b + ext - n);
    v_color = in_color;
    gl_Position = window.projection * window.view * vec4(corners[gl_VertexID % 4], 0.0, 1.0);
}
"""

_FS = """#version 330
uniform float alpha_scale;
in vec4 v_color;
out vec4 frag;
void main() { frag = vec4(v_color.rgb, v_color.a * alpha_scale); }
"""

_BYTES_PER_SEGMENT = 32  # in_seg 4 f4 + in_color 4 f4


class LineRenderer:
    """Draws (S, 2, 2) segments with (S, 4) colours in one instanced call (two with glow).

    Args:
        ctx: the window's arcade context.
        capacity: segments the buffer holds at first; it grows by doubling.
    """

    def __init__(self, ctx: ArcadeContext, capacity: int = 4096) -> None:
        self.ctx = ctx
        self.capacity = max(16, int(capacity))
        self.count = 0
        """Segments written by the last ``update``."""
        self._buf = ctx.buffer(reserve=self.capacity * _BYTES_PER_SEGMENT)
        quad = ctx.buffer(data=np.zeros(8, dtype="f4"))
        self._geo = ctx.geometry(
            [
                BufferDescription(quad, "2f", ["in_vert"]),
                BufferDescription(self._buf, "4f 4f", ["in_seg", "in_color"], instanced=True),
            ],
            mode=ctx.TRIANGLE_STRIP,
        )
        self._prog = ctx.program(vertex_shader=_VS, fragment_shader=_FS)

    def update(self, segs: np.ndarray, colors: np.ndarray) -> None:
        """Upload this frame's segments (world units) and colours (RGBA in 0..1)."""
        n = int(segs.shape[0])
        if n > self.capacity:
            while self.capacity < n:
                self.capacity *= 2
            self._buf.orphan(self.capacity * _BYTES_PER_SEGMENT)
        else:
            self._buf.orphan()
        if n:
            data = np.empty((n, 8), dtype="f4")
            data[:, :4] = segs.reshape(n, 4)
            data[:, 4:] = colors
            self._buf.write(data)
        self.count = n

    def draw(self, width: float, glow: bool = False) -> None:
        """Draw the uploaded segments.

        Args:
            width: line width in world units (convert from pixels with the camera scale).
            glow: add a wide, faint, additive halo pass under the lines.
        """
        if self.count == 0:
            return
        ctx = self.ctx
        ctx.enable(ctx.BLEND)
        old_blend = ctx.blend_func
        try:
            if glow:
                ctx.blend_func = ctx.BLEND_ADDITIVE
                self._prog["half_width"] = width * 2.0
                self._prog["alpha_scale"] = 0.16
                self._geo.render(self._prog, instances=self.count)
            ctx.blend_func = ctx.BLEND_DEFAULT
            self._prog["half_width"] = width * 0.5
            self._prog["alpha_scale"] = 1.0
            self._geo.render(self._prog, instances=self.count)
        finally:
            ctx.blend_func = old_blend
