"""The vector-monitor look (``[display.monitor]``): phosphor afterglow, bloom, bright line
ends and a faint flicker, drawn through offscreen framebuffers.

Each frame, with the look on:

1. This frame's lines are drawn into a small buffer (1/``DOWNSCALE`` of the window's width
   and height), brighter at their ends, where the beam dwelt.
   Before them go the lines of the ticks the frame stepped over (``draw_past``, at most
   ``MAX_PAST_TICKS``, each dimmed by ``fade`` of its age): at a low frame rate a moving
   rock leaves a streak of its positions tick by tick, not a few copies a frame apart.
2. One pass at that size updates the afterglow, the brighter of those lines and the last
   afterglow faded by ``fade(dt)`` = ``0.1 ** (dt / persistence)`` less ``floor_loss(dt)``
   (``FADE_FLOOR_PER_S``, fading as it is taken, so a trail always reaches black). Both
   follow the real time between frames, exactly (the fade of a long frame is the fades of
   the short ones multiplied, and so is the floor's), and the buffer holds half floats (no
   8-bit step stalls a slow fade), so the glow after a given time is the same at 8, 28, 60
   or 120 frames a second.
3. Bloom: this frame's afterglow is blurred at half that size again (one pass of 9 bilinear
   taps) over ``bloom_radius_px``. The blur is linear, so the halo follows the afterglow at
   any frame rate. (It used to blur the last frame's afterglow for the next frame and fade
   it by ``dt``: at 8 FPS, 125 ms on, the lines drawn now had almost no halo, and a moving
   rock's picture was 0.6 of the 60 FPS one; at 120 FPS 1.2.)
4. The bars are cleared to black and the afterglow plus its bloom are scaled up over the
   playfield only (the letterbox stays black under the look), and the lines are drawn crisp
   on top, a little dimmer than in the plain look so their ends can be brighter.
5. The text (HUD, menus, the border) is drawn last, crisp, and never goes into the afterglow
   or the bloom: at a low frame rate a changing number left the last frame's digits glowing
   under the new ones ("35 FPS" read as "85 PPS"), and a thick stroke over its own glow read
   as a hollow double outline (a dimmer core between two bright edges).

The brightness of each frame wobbles by a factor taken from the frame count (deterministic:
no random state). A full-window pass costs a lot on a software rasteriser, so step 4's is the
only one; the others touch 1/16 and 1/64 of the pixels (the afterglow is soft anyway). Off
(strength 0) none of this runs and no buffer exists: ``Game.draw_frame`` draws the plain look.
Settings are read from the config on every frame, so a live reload applies at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from arcade.gl.geometry import quad_2d_fs

from asteroids.config.player_tables import MonitorConfig

if TYPE_CHECKING:
    from arcade import Camera2D
    from arcade.context import ArcadeContext
    from arcade.gl import Framebuffer, Program, Texture2D

__all__ = ["FADE_FLOOR_PER_S", "MAX_PAST_TICKS", "LinePass", "VectorMonitor", "fade",
           "flicker_factor", "floor_loss"]

_QUAD_VS = """#version 330
in vec2 in_vert;
in vec2 in_uv;
out vec2 uv;
void main() { uv = in_uv; gl_Position = vec4(in_vert, 0.0, 1.0); }
"""

_PERSIST_FS = """#version 330
uniform sampler2D prev;
uniform sampler2D now;
uniform float decay;
uniform float floor_step;
in vec2 uv;
out vec4 trail;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 old = texelFetch(prev, p, 0).rgb * decay - floor_step;
    trail = vec4(max(max(old, texelFetch(now, p, 0).rgb), 0.0), 1.0);
}
"""

_BLUR_FS = """#version 330
uniform sampler2D src;
uniform vec2 step;
in vec2 uv;
out vec4 frag;
void main() {
    // One pass, 9 bilinear taps (each already averages 4 texels): centre, 4 diagonal at one
    // step, 4 straight at two steps, weighted like a Gaussian of about a step's sigma.
    vec2 d = step;
    vec2 e = vec2(step.x, -step.y);
    vec3 c = texture(src, uv).rgb * 0.20;
    c += (texture(src, uv + d).rgb + texture(src, uv - d).rgb
        + texture(src, uv + e).rgb + texture(src, uv - e).rgb) * 0.125;
    c += (texture(src, uv + vec2(2.0 * step.x, 0.0)).rgb
        + texture(src, uv - vec2(2.0 * step.x, 0.0)).rgb
        + texture(src, uv + vec2(0.0, 2.0 * step.y)).rgb
        + texture(src, uv - vec2(0.0, 2.0 * step.y)).rgb) * 0.075;
    frag = vec4(c, 1.0);
}
"""

_SHOW_FS = """#version 330
uniform sampler2D trail;
uniform sampler2D halo;
uniform float trail_gain;
uniform float halo_gain;
in vec2 uv;
out vec4 frag;
void main() {
    frag = vec4(texture(trail, uv).rgb * trail_gain + texture(halo, uv).rgb * halo_gain, 1.0);
}
"""

TRAIL_GAIN = 0.55
"""The afterglow shows at this gain (times strength and flicker) under the crisp lines."""
TRAIL_WIDTH = 0.75
"""Lines go into the small buffer this many line widths wide, times ``DOWNSCALE`` (so they
stay about one texel wide there)."""
CRISP_DIM = 0.2
"""Crisp lines are dimmed by this much at full strength, so their ends can be brighter."""
FADE_FLOOR_PER_S = 60.0 / 255.0
"""Besides fading by ``fade``, the afterglow loses this much brightness a second (1/255 a
60 FPS frame), so a faint trail ends instead of fading for ever; a frame takes
``floor_loss`` of it (a little less, as what is taken early would have faded anyway)."""
MAX_PAST_TICKS = 8
"""Most ticks a frame draws into the afterglow besides its own (the cost stays bounded when
a slow frame or a fast replay steps over many)."""


def fade(age_s: float, persistence_s: float) -> float:
    """What is left of a line ``age_s`` seconds old: 0.1 after ``persistence_s`` (0: none).

    >>> round(fade(0.16, 0.08), 6)
    0.01
    >>> fade(0.1, 0.0)
    0.0
    """
    if persistence_s <= 0.0:
        return 0.0
    return 0.1 ** (max(age_s, 0.0) / persistence_s)


def floor_loss(dt_s: float, persistence_s: float) -> float:
    """What the floor takes off a line over ``dt_s`` seconds while it fades: the floor lost at
    ``FADE_FLOOR_PER_S``, each bit of it fading with the line for the rest of the interval
    (``FADE_FLOOR_PER_S * (1 - fade(dt)) / k`` with ``fade(t) = exp(-k t)``). Taking the whole
    ``FADE_FLOOR_PER_S * dt`` after the fade instead took too much on a long frame: 15 % more
    at 8 FPS with a 1 s persistence, and a trail 16 % too dark after 1 s.

    >>> round(floor_loss(1 / 60, 2.0) / (FADE_FLOOR_PER_S / 60), 3)  # short frame: about f dt
    0.99
    >>> floor_loss(0.1, 0.0)
    0.0
    """
    if persistence_s <= 0.0 or dt_s <= 0.0:
        return 0.0  # nothing is left to take from
    k = math.log(10.0) / persistence_s
    return FADE_FLOOR_PER_S * -math.expm1(-k * dt_s) / k


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

    DOWNSCALE = 4
    """The afterglow buffers have 1/DOWNSCALE of the window's width and height (the bloom
    half of that)."""

    def __init__(self, ctx: ArcadeContext) -> None:
        self.ctx = ctx
        self.frame_count = 0
        """Frames drawn with the look (the flicker's clock)."""
        self._size: tuple[int, int] = (0, 0)
        self._now: tuple[Framebuffer, Texture2D] | None = None
        self._trails: list[tuple[Framebuffer, Texture2D]] = []
        """Afterglow ping-pong: [this frame's target, the last frame's]."""
        self._halo: tuple[Framebuffer, Texture2D] | None = None
        self._quad = quad_2d_fs()
        self._persist = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_PERSIST_FS)
        self._persist["prev"] = 0
        self._persist["now"] = 1
        self._blur = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_BLUR_FS)
        self._blur["src"] = 0
        self._show = ctx.program(vertex_shader=_QUAD_VS, fragment_shader=_SHOW_FS)
        self._show["trail"] = 0
        self._show["halo"] = 1

    def _texture(self, size: tuple[int, int], dtype: str = "f1") -> Texture2D:
        ctx = self.ctx
        return ctx.texture(size, components=4, dtype=dtype, filter=(ctx.LINEAR, ctx.LINEAR),
                           wrap_x=ctx.CLAMP_TO_EDGE, wrap_y=ctx.CLAMP_TO_EDGE)

    def _fbo(self, *textures: Texture2D) -> Framebuffer:
        fbo = self.ctx.framebuffer(color_attachments=list(textures))
        fbo.clear(color=(0, 0, 0, 255))
        return fbo

    def _ensure(self, size: tuple[int, int]) -> None:
        if size == self._size and self._now is not None:
            return
        self.release()
        k = self.DOWNSCALE
        small = (max(1, -(-size[0] // k)), max(1, -(-size[1] // k)))
        smaller = (max(1, (small[0] + 1) // 2), max(1, (small[1] + 1) // 2))
        # Half floats: a line's bright ends (dwell) go over 1; clamped at 1 in 8 bits, a 60
        # FPS frame lost them while a slow frame's past ticks, dimmed first, kept them
        # (a moving rock 6-10 % brighter at 8 FPS).
        now = self._texture(small, "f2")
        self._now = (self._fbo(now), now)
        for _ in range(2):
            trail = self._texture(small, "f2")
            self._trails.append((self._fbo(trail), trail))
        halo = self._texture(smaller)
        self._halo = (self._fbo(halo), halo)
        self._size = size

    def release(self) -> None:
        """Free the offscreen buffers (the look was turned off or the window resized)."""
        self._now = self._halo = None
        self._trails = []
        self._size = (0, 0)

    @property
    def allocated(self) -> bool:
        """Whether the offscreen buffers exist."""
        return self._now is not None

    def _pass(self, target: Framebuffer, program: Program, *textures: Texture2D) -> None:
        target.use()
        self.ctx.viewport = (0, 0, *target.size)
        for unit, tex in enumerate(textures):
            tex.use(unit)
        self._quad.render(program)

    def frame(self, look: MonitorConfig, camera: Camera2D, size: tuple[int, int], dt: float,
              draw_lines: Callable[[LinePass], None],
              draw_text: Callable[[LinePass], None] | None = None,
              draw_past: Callable[[LinePass], None] | None = None) -> None:
        """Draw one frame with the look: ``draw_lines`` draws this frame's lines with the
        camera in use, as the ``LinePass`` asks: once into the small buffer, once into the
        window; ``draw_past`` draws the stepped-over ticks' lines into the small buffer only,
        before them; ``draw_text`` draws the text once, crisp, on top (no afterglow, no
        bloom).

        Args:
            look: the settings (``display.monitor``), read now.
            camera: the letterboxed play camera (its viewport is in window pixels).
            size: the window's framebuffer size in pixels.
            dt: seconds since the last frame (how far the afterglow fades).
            draw_lines: draws this frame's lines.
            draw_text: draws this frame's text (None: no text).
            draw_past: draws the lines of the ticks this frame stepped over, each already
                dimmed by ``fade`` of its age (None: none).
        """
        ctx = self.ctx
        size = (int(size[0]), int(size[1]))
        self._ensure(size)
        assert self._now is not None  # made by _ensure
        assert self._halo is not None
        s = look.strength
        self.frame_count += 1
        flicker = flicker_factor(self.frame_count, look.flicker * s)
        persistence = look.persistence_s * s
        dt = max(dt, 0.0)
        decay = fade(dt, persistence)
        dwell = look.beam_dwell * s
        (trail_fbo, trail_tex), (_, prev_tex) = self._trails
        now_fbo, now_tex = self._now
        halo_fbo, halo_tex = self._halo
        old_blend = ctx.blend_func
        try:
            # 1. This frame's lines, small.
            now_fbo.use()
            ctx.scissor = None
            now_fbo.clear(color=(0, 0, 0, 255))
            camera.use()
            vx, vy, vw, vh = camera.viewport.lbwh_int
            k = self.DOWNSCALE
            ctx.viewport = (vx // k, vy // k, -(-vw // k), -(-vh // k))
            ctx.scissor = ctx.viewport
            small = LinePass(TRAIL_WIDTH * k, dwell, look.dwell_length_px, 1.0)
            if draw_past is not None:
                draw_past(small)
            draw_lines(small)
            ctx.scissor = None
            ctx.disable(ctx.BLEND)
            # 2. Afterglow.
            self._persist["decay"] = decay
            self._persist["floor_step"] = floor_loss(dt, persistence)
            self._pass(trail_fbo, self._persist, prev_tex, now_tex)
            # 3. Bloom of this frame's afterglow: half the radius per step, at half the size.
            texel = look.bloom_radius_px / (2.0 * self.DOWNSCALE) / 2.0
            self._blur["step"] = (texel / halo_tex.width, texel / halo_tex.height)
            self._pass(halo_fbo, self._blur, trail_tex)
            # 4. Black bars, the glow over the playfield only, then the crisp lines.
            ctx.screen.use()
            ctx.viewport = (0, 0, *size)
            ctx.scissor = None
            ctx.screen.clear(color=(0, 0, 0, 255))
            ctx.scissor = (vx, vy, vw, vh)
            self._show["trail_gain"] = TRAIL_GAIN * s * flicker
            self._show["halo_gain"] = look.bloom * s * flicker
            trail_tex.use(0)
            halo_tex.use(1)
            self._quad.render(self._show)
            ctx.scissor = None
        finally:
            ctx.blend_func = old_blend
            ctx.enable(ctx.BLEND)
        camera.use()
        draw_lines(LinePass(1.0, dwell, look.dwell_length_px, flicker * (1.0 - CRISP_DIM * s)))
        if draw_text is not None:
            draw_text(LinePass(1.0, 0.0, look.dwell_length_px, flicker))
        self._trails.reverse()
