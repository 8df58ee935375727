"""The vector-monitor look (``[display.monitor]``): phosphor afterglow, bloom, bright line
ends and a faint flicker, drawn through offscreen framebuffers.

Each frame, with the look on:

1. The afterglow buffer (half the window's resolution) keeps the last frames: it is copied
   from the previous one faded by ``0.1 ** (dt / persistence)`` (and a step of 1/255, so an
   8-bit trail always reaches black), then this frame's lines are drawn into it at half
   brightness, twice as wide, with brighter ends.
2. Bloom: that buffer is reduced to a quarter of the window and blurred (9 taps across, 9
   down) over ``bloom_radius_px``.
3. The window is painted in one pass with the afterglow plus the bloom (this replaces the
   clear; outside the letterbox it is black), flickered by a factor taken from the frame
   count (deterministic: no random state).
4. The lines are drawn crisp on top, with the beam-dwell brightening at their ends.

Off (strength 0) none of this runs and no buffer exists: ``Game.draw_frame`` draws the plain
look. Settings are read from the config on every frame, so a live reload applies at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from arcade.gl.geometry import quad_2d_fs

from asteroids.config.schema import MonitorConfig

if TYPE_CHECKING:
    from arcade import Camera2D
    from arcade.context import ArcadeContext
    from arcade.gl import Framebuffer, Texture2D

__all__ = ["LinePass", "VectorMonitor", "flicker_factor"]

_QUAD_VS = """#version 330
in vec2 in_vert;
in vec2 in_uv;
out vec2 uv;
void main() { uv = in_uv; gl_Position = vec4(in_vert, 0.0, 1.0); }
"""

_FADE_FS = """#version 330
uniform sampler2D prev;
uniform float decay;
out vec4 frag;
void main() {
    vec3 c = texelFetch(prev, ivec2(gl_FragCoord.xy), 0).rgb;
    frag = vec4(max(c * decay - 1.0 / 255.0, 0.0), 1.0);
}
"""

_DOWN_FS = """#version 330
uniform sampler2D src;
in vec2 uv;
out vec4 frag;
void main() { frag = vec4(texture(src, uv).rgb, 1.0); }
"""

_BLUR_FS = """#version 330
uniform sampler2D src;
uniform vec2 step;
in vec2 uv;
out vec4 frag;
const float W[5] = float[5](0.2270270, 0.1945946, 0.1216216, 0.0540541, 0.0162162);
void main() {
    vec3 c = texture(src, uv).rgb * W[0];
    for (int k = 1; k < 5; k++) {
        c += texture(src, uv + step * float(k)).rgb * W[k];
        c += texture(src, uv - step * float(k)).rgb * W[k];
    }
    frag = vec4(c, 1.0);
}
"""

_COMPOSITE_FS = """#version 330
uniform sampler2D trail;
uniform sampler2D halo;
uniform float trail_gain;
uniform float halo_gain;
uniform vec4 rect;
in vec2 uv;
out vec4 frag;
void main() {
    vec2 p = gl_FragCoord.xy;
    if (p.x < rect.x || p.y < rect.y || p.x > rect.x + rect.z || p.y > rect.y + rect.w) {
        frag = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    vec3 c = texture(trail, uv).rgb * trail_gain + texture(halo, uv).rgb * halo_gain;
    frag = vec4(min(c, 1.0), 1.0);
}
"""

TRAIL_INTENSITY = 0.5
"""Lines go into the afterglow buffer at this brightness, leaving headroom for bright ends."""
TRAIL_WIDTH = 2.0
"""...and this many line widths wide (the buffer is half resolution)."""
TRAIL_GAIN = 1.2
"""The afterglow buffer is added to the window at this gain (times the strength)."""
CRISP_DIM = 0.2
"""Crisp lines are dimmed by this much at full strength, so their ends can be brighter."""


class LinePass(NamedTuple):
    """How ``VectorMonitor.frame`` wants the lines drawn, once per target."""

    width: float
    """Times the configured line width."""
    dwell: float
    """Extra brightness at segment ends (``LineRenderer.draw``'s ``dwell``)."""
    dwell_length_px: float
    """How far the bright end reaches, in window pixels."""
    brightness: float
    """Multiplies every colour."""


def flicker_factor(frame: int, amount: float) -> float:
    """The brightness of frame number ``frame``: 1 minus up to ``amount``, from a hash of the
    frame count (Knuth's multiplicative hash), so it is the same on every run.

    >>> flicker_factor(7, 0.0)
    1.0
    >>> 0.9 <= flicker_factor(7, 0.1) <= 1.0
    True
    """
    h = ((frame * 2654435761) & 0xFFFFFFFF) / 4294967296.0
    return 1.0 - amount * h


class VectorMonitor:
    """Offscreen buffers and shaders of the vector-monitor look, made on first use.

    Args:
        ctx: the window's arcade context.
    """

    def __init__(self, ctx: ArcadeContext) -> None:
        self.ctx = ctx
        self.frame_count = 0
        """Frames drawn with the look (the flicker's clock)."""
        self._size: tuple[int, int] = (0, 0)
        self._trail: list[tuple[Framebuffer, Texture2D]] = []
        self._small: list[tuple[Framebuffer, Texture2D]] = []
        self._quad = quad_2d_fs()
        self._fade = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_FADE_FS)
        self._down = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_DOWN_FS)
        self._blur = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_BLUR_FS)
        self._composite = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_COMPOSITE_FS)
        self._composite["trail"] = 0
        self._composite["halo"] = 1

    def _target(self, size: tuple[int, int]) -> tuple[Framebuffer, Texture2D]:
        tex = self.ctx.texture(size, components=4, dtype="f1",
                               filter=(self.ctx.LINEAR, self.ctx.LINEAR),
                               wrap_x=self.ctx.CLAMP_TO_EDGE, wrap_y=self.ctx.CLAMP_TO_EDGE)
        fbo = self.ctx.framebuffer(color_attachments=[tex])
        fbo.clear(color=(0, 0, 0, 255))
        return fbo, tex

    def _ensure(self, size: tuple[int, int]) -> None:
        if size == self._size and self._trail:
            return
        self.release()
        half = (max(1, (size[0] + 1) // 2), max(1, (size[1] + 1) // 2))
        quarter = (max(1, (half[0] + 1) // 2), max(1, (half[1] + 1) // 2))
        self._trail = [self._target(half), self._target(half)]
        self._small = [self._target(quarter), self._target(quarter)]
        self._size = size

    def release(self) -> None:
        """Free the offscreen buffers (the look was turned off or the window resized)."""
        self._trail, self._small = [], []
        self._size = (0, 0)

    @property
    def allocated(self) -> bool:
        """Whether the offscreen buffers exist."""
        return bool(self._trail)

    def frame(self, look: MonitorConfig, camera: Camera2D, size: tuple[int, int], dt: float,
              draw_lines: Callable[[LinePass], None]) -> None:
        """Draw one frame with the look: ``draw_lines`` is called twice (the afterglow
        buffer, then the window), with the camera in use and the pass's parameters.

        Args:
            look: the settings (``display.monitor``), read now.
            camera: the letterboxed play camera (its viewport is in window pixels).
            size: the window's framebuffer size in pixels.
            dt: seconds since the last frame (how far the afterglow fades).
            draw_lines: draws this frame's lines as a ``LinePass`` asks.
        """
        ctx = self.ctx
        size = (int(size[0]), int(size[1]))
        self._ensure(size)
        s = look.strength
        self.frame_count += 1
        flicker = flicker_factor(self.frame_count, look.flicker * s)
        persistence = look.persistence_s * s
        decay = 0.1 ** (max(dt, 0.0) / persistence) if persistence > 0.0 else 0.0
        dwell = look.beam_dwell * s
        (prev_fbo, prev_tex), (trail_fbo, trail_tex) = self._trail
        (small_fbo, small_tex), (blur_fbo, blur_tex) = self._small
        old_blend = ctx.blend_func
        ctx.disable(ctx.BLEND)
        try:
            # 1. Fade the previous afterglow into the other buffer, then add this frame.
            trail_fbo.use()
            ctx.scissor = None
            ctx.viewport = (0, 0, *trail_tex.size)
            prev_tex.use(0)
            self._fade["prev"] = 0
            self._fade["decay"] = decay
            self._quad.render(self._fade)
            camera.use()
            vx, vy, vw, vh = camera.viewport.lbwh_int
            ctx.viewport = (vx // 2, vy // 2, (vw + 1) // 2, (vh + 1) // 2)
            ctx.scissor = ctx.viewport
            draw_lines(LinePass(TRAIL_WIDTH, dwell, look.dwell_length_px, TRAIL_INTENSITY))
            ctx.disable(ctx.BLEND)
            ctx.scissor = None
            # 2. Bloom: a quarter-size copy, blurred across and down.
            small_fbo.use()
            ctx.viewport = (0, 0, *small_tex.size)
            trail_tex.use(0)
            self._down["src"] = 0
            self._quad.render(self._down)
            radius = look.bloom_radius_px / 4.0 / 4.0  # quarter-size texels per tap
            for src, dst in ((small_tex, blur_fbo), (blur_tex, small_fbo)):
                dst.use()
                ctx.viewport = (0, 0, *small_tex.size)
                src.use(0)
                self._blur["src"] = 0
                across = src is small_tex
                self._blur["step"] = ((radius / small_tex.width, 0.0) if across
                                      else (0.0, radius / small_tex.height))
                self._quad.render(self._blur)
            # 3. Paint the window: afterglow plus bloom, black outside the letterbox.
            ctx.screen.use()
            ctx.viewport = (0, 0, *size)
            trail_tex.use(0)
            small_tex.use(1)
            self._composite["trail_gain"] = TRAIL_GAIN * s * flicker
            self._composite["halo_gain"] = look.bloom * s * flicker
            self._composite["rect"] = (float(vx), float(vy), float(vw), float(vh))
            self._quad.render(self._composite)
            # 4. The crisp lines on top.
            camera.use()
            draw_lines(LinePass(1.0, dwell, look.dwell_length_px,
                                flicker * (1.0 - CRISP_DIM * s)))
        finally:
            ctx.blend_func = old_blend
            ctx.enable(ctx.BLEND)
        self._trail.reverse()
