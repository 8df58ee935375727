"""Palettes, the vector-monitor look, HUD scale and the score's roll-over, drawn through the
real headless window (``Screen.draw_frame``, the path every view draws with)."""

from __future__ import annotations

import dataclasses

import arcade
import numpy as np
import pytest
from arcade.gl import BufferDescription

from asteroids.app.game import Game
from asteroids.app.palettes import PALETTES_BY_NAME, VECTOR
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.scene import Segments
from asteroids.config import Config, load_config
from asteroids.config.player_tables import PALETTES
from asteroids.core import InputFrame, World, new_world, step
from asteroids.core.bot import bot_input
from asteroids.core.world import Draft

pytestmark = pytest.mark.gl


def with_display(config: Config, **changes: object) -> Config:
    monitor = changes.pop("monitor", None)
    display = dataclasses.replace(config.display, **changes)
    if monitor is not None:
        display = dataclasses.replace(display, monitor=dataclasses.replace(
            display.monitor, **monitor))  # type: ignore[arg-type]
    return dataclasses.replace(config, display=display)


def busy_world(config: Config, ticks: int = 90) -> tuple[World, World]:
    """A game a moment in: rocks, the ship and a few of its shots in flight (the ship past its
    grace, so it is drawn on every frame)."""
    d = Draft(new_world(config, 3))
    d.ship_grace = 0
    world = d.freeze()
    prev = world
    for t in range(ticks):
        prev = world
        mask = bot_input(world, config.world.width_px, config.world.height_px)
        world, _ = step(world, mask | (InputFrame.FIRE if t % 9 == 0 else 0), config)
    assert world.shot_id.shape[0] > 0 and world.ast_id.shape[0] > 0
    return prev, world


def frame(game: Game, prev: World, cur: World) -> np.ndarray:
    """Draw one frame as the views do and read it back; no GL error allowed."""
    palette = game.screen.palette(game.config.display)
    segs = game.rules.scene.build(prev, cur, 0.5, palette=palette)
    game.screen.draw_frame(game.config.display, segs)
    assert game.window.ctx.error is None
    return np.asarray(arcade.get_image(components=3)).astype(int)


def rgb255(color: tuple[float, ...]) -> np.ndarray:
    return np.rint(np.asarray(color[:3]) * 255).astype(int)


def has_colour(img: np.ndarray, color: tuple[float, ...]) -> bool:
    return bool((np.abs(img - rgb255(color)).max(axis=2) <= 1).any())


def test_every_config_palette_has_colours_and_every_palette_a_name() -> None:
    assert tuple(PALETTES_BY_NAME) == PALETTES
    assert PALETTES_BY_NAME["vector"] is VECTOR


@pytest.mark.parametrize("name", PALETTES)
def test_every_palette_draws_a_frame_in_its_colours(window, config, name) -> None:
    cfg = with_display(config, palette=name, glow=False)
    game = open_shell(window, cfg, seed=1, sound=False)
    prev, cur = busy_world(cfg)
    img = frame(game, prev, cur)
    lit = img.max(axis=2) > 40
    assert lit.sum() > 300, "the scene is not blank"
    palette = PALETTES_BY_NAME[name]
    # Line centres are drawn opaque: the rocks' and the ship's exact colours are on screen.
    assert has_colour(img, palette.asteroid)
    assert has_colour(img, palette.ship)
    if name in ("white", "green", "amber"):
        # Monochrome: every lit pixel has the palette's hue (only its brightness varies).
        ref = rgb255(palette.asteroid).astype(float)
        px = img[lit].astype(float)
        scale = px.max(axis=1, keepdims=True) / ref.max()
        assert np.abs(px - ref * scale).max() <= 12


def test_the_colour_palette_tells_every_kind_apart() -> None:
    palette = PALETTES_BY_NAME["colour"]
    kinds = ("ship", "asteroid", "saucer", "shot_ship", "shot_saucer")
    colours = {tuple(rgb255(palette.color(k))) for k in kinds}
    assert len(colours) == len(kinds)


def test_the_colour_blind_palette_tells_shots_apart_without_hue() -> None:
    palette = PALETTES_BY_NAME["colour_blind"]
    ship_width, ship_dash = palette.style("shot_ship")
    saucer_width, saucer_dash = palette.style("shot_saucer")
    assert saucer_dash > 0 and ship_dash == 0
    assert saucer_width > ship_width
    # The plain palettes draw every kind solid at the configured width.
    assert all(VECTOR.style(k) == (1.0, 0.0) for k in ("shot_saucer", "saucer", "asteroid"))


def test_a_dashed_line_lights_fewer_pixels_than_a_solid_one(window, config) -> None:
    game = open_shell(window, with_display(config, glow=False), seed=1, sound=False)
    counts = []
    for dash in (0.0, 2.0):
        segs = Segments()
        segs.add(np.array([[[100.0, 360.0], [1100.0, 360.0]]]), (1.0, 1.0, 1.0, 1.0),
                 (2.0, dash))
        game.screen.draw_frame(game.config.display, segs)
        counts.append(int((np.asarray(arcade.get_image(components=3)).max(axis=2) > 40).sum()))
    solid, dashed = counts
    assert 0.3 * solid < dashed < 0.7 * solid


# The line renderer as it was before palettes and the monitor look (commit ddab20c): the
# plain look must still draw exactly these pixels.
_REFERENCE_VS = """#version 330
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
    vec2 ext = t * half_width;
    vec2 corners[4] = vec2[4](a - ext + n, a - ext - n, b + ext + n, b + ext - n);
    v_color = in_color;
    gl_Position = window.projection * window.view * vec4(corners[gl_VertexID % 4], 0.0, 1.0);
}
"""
_REFERENCE_FS = """#version 330
uniform float alpha_scale;
in vec4 v_color;
out vec4 frag;
void main() { frag = vec4(v_color.rgb, v_color.a * alpha_scale); }
"""


def reference_frame(game: Game, segs: Segments) -> np.ndarray:
    """The frame the renderer of commit ddab20c drew: clear, glow pass, line pass."""
    ctx = game.window.ctx
    s, c = segs.arrays()
    data = np.empty((s.shape[0], 8), "f4")
    data[:, :4] = s.reshape(-1, 4)
    data[:, 4:] = c
    geo = ctx.geometry([
        BufferDescription(ctx.buffer(data=np.zeros(8, "f4")), "2f", ["in_vert"]),
        BufferDescription(ctx.buffer(data=data), "4f 4f", ["in_seg", "in_color"],
                          instanced=True),
    ], mode=ctx.TRIANGLE_STRIP)
    prog = ctx.program(vertex_shader=_REFERENCE_VS, fragment_shader=_REFERENCE_FS)
    ctx.scissor = None
    game.window.clear(color=arcade.color.BLACK)
    game.screen.camera.use()
    width = game.screen.line_width(game.config.display)
    ctx.enable(ctx.BLEND)
    ctx.blend_func = ctx.BLEND_ADDITIVE
    prog["half_width"], prog["alpha_scale"] = width * 2.0, 0.16
    geo.render(prog, instances=s.shape[0])
    ctx.blend_func = ctx.BLEND_DEFAULT
    prog["half_width"], prog["alpha_scale"] = width * 0.5, 1.0
    geo.render(prog, instances=s.shape[0])
    return np.asarray(arcade.get_image(components=3)).astype(int)


def test_the_plain_look_draws_the_frames_it_drew_before(window, config) -> None:
    """The same pixels as commit ddab20c's renderer, bar a few where a rock meets another
    line: rocks are now drawn first, by their own shader (tests/app/test_outlines_gl.py)."""
    game = open_shell(window, config, seed=1, sound=False)
    prev, cur = busy_world(config)
    segs = game.rules.scene.build(prev, cur, 0.5)
    ours = frame(game, prev, cur)
    ref = reference_frame(game, segs)
    lit, ref_lit = ours.max(axis=2) > 0, ref.max(axis=2) > 0
    assert np.array_equal(lit, ref_lit)
    assert (ours != ref).any(axis=2).sum() <= 0.005 * ref_lit.sum()


def test_turning_the_monitor_look_off_frees_it_and_draws_the_plain_frame(window, config):
    prev, cur = busy_world(config)
    game = open_shell(window, config, seed=1, sound=False)
    plain = frame(game, prev, cur)
    game.rules.config = with_display(config, monitor={"strength": 1.0})
    looked = frame(game, prev, cur)
    assert game.screen.monitor is not None and game.screen.monitor.allocated
    assert not np.array_equal(looked, plain)
    game.rules.config = config  # read on the next frame, as a live reload would do
    again = frame(game, prev, cur)
    assert game.screen.monitor is None
    assert np.array_equal(again, plain)


@pytest.mark.parametrize("strength", [0.3, 1.0])
def test_the_monitor_look_renders_with_no_gl_error(window, config, strength) -> None:
    cfg = with_display(config, monitor={"strength": strength})
    game = open_shell(window, cfg, seed=1, sound=False)
    game.screen.frame_time_s = 1 / 60
    prev, cur = busy_world(cfg)
    for _ in range(3):
        img = frame(game, prev, cur)
    assert (img.max(axis=2) > 40).sum() > 300


def lone_shot_config(config: Config) -> Config:
    """No rocks and no saucers: a shot alone on the field."""
    return dataclasses.replace(
        config, game=dataclasses.replace(config.game, first_wave_asteroids=0),
        saucers=dataclasses.replace(config.saucers, enabled=False))


def shot_frames(config: Config) -> list[tuple[World, World]]:
    """A lone shot crossing the field, one world pair per tick (``config`` from
    ``lone_shot_config``)."""
    world = new_world(config, 5)
    pairs = []
    for mask in [InputFrame.FIRE] + [0] * 12:
        prev, (world, _) = world, step(world, mask, config)
        pairs.append((prev, world))
    return pairs


def test_the_afterglow_keeps_a_fading_trail_where_the_shot_was(window, config) -> None:
    cfg = lone_shot_config(config)
    pairs = shot_frames(cfg)
    images = {}
    for strength in (0.0, 1.0):
        game = open_shell(window, with_display(cfg, glow=False, monitor={"strength": strength}),
                    seed=1, sound=False)
        game.screen.frame_time_s = 1 / 60
        for prev, cur in pairs:
            img = frame(game, prev, cur)
        images[strength] = img
    # Where the shot was three ticks ago: dark in the plain look, still glowing in the other.
    prev, cur = pairs[-4]
    x, y = cur.shot_pos[0]
    h = window.height
    row, col = int(round(h - 1 - y * h / cfg.world.height_px)), int(round(x * window.width
                                                                          / cfg.world.width_px))
    patch = (slice(max(row - 3, 0), row + 4), slice(max(col - 3, 0), col + 4))
    assert images[0.0][patch].max() < 10
    assert images[1.0][patch].max() > 20, images[1.0][patch].max()


def test_the_monitor_look_is_the_same_on_every_run(window, config) -> None:
    """Flicker comes from the frame count, not from a random generator."""
    cfg = with_display(lone_shot_config(config), monitor={"strength": 1.0, "flicker": 0.5})
    pairs = shot_frames(cfg)
    runs = []
    for _ in range(2):
        game = open_shell(window, cfg, seed=1, sound=False)
        game.screen.frame_time_s = 1 / 60
        runs.append([frame(game, prev, cur) for prev, cur in pairs[:4]])
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)
    # ...and it does flicker: frames of the same picture differ in brightness.
    game = open_shell(window, cfg, seed=1, sound=False)
    game.screen.frame_time_s = 0.0
    prev, cur = pairs[3]
    sums = {int(frame(game, prev, cur).sum()) for _ in range(4)}
    assert len(sums) > 1


def test_the_palette_is_read_on_every_frame(window, config) -> None:
    game = open_shell(window, with_display(config, glow=False), seed=1, sound=False)
    prev, cur = busy_world(config)
    game.rules.config = with_display(config, glow=False, palette="amber")
    img = frame(game, prev, cur)
    assert has_colour(img, PALETTES_BY_NAME["amber"].asteroid)
    assert not has_colour(img, VECTOR.asteroid)


@pytest.fixture
def classic(window):
    cfg = load_config("classic")
    game = open_shell(window, cfg, seed=11, sound=False)
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    return view


@pytest.mark.parametrize(("score", "shown"), [(99_999, "99999"), (100_000, "00"),
                                              (100_001, "01"), (123_450, "23450")])
def test_the_classic_score_rolls_over_at_100000_on_screen_only(classic, score, shown):
    classic.world = classic.prev = dataclasses.replace(classic.world, score=score)
    classic.on_update(0.0)
    assert classic.hud.values["score"] == shown
    assert classic.world.score == score  # the game keeps the real score


def test_other_rules_and_a_zero_setting_never_roll_over(window, config) -> None:
    for cfg in (config, with_display(load_config("classic"), score_wrap=0)):
        game = open_shell(window, cfg, seed=11, sound=False)
        view = PlayView(game, game.rules.next_seed())
        window.show_view(view)
        view.world = view.prev = dataclasses.replace(view.world, score=100_000)
        view.on_update(0.0)
        assert view.hud.values["score"] == "100000"


def test_a_set_roll_over_applies_to_any_rules(window, config) -> None:
    game = open_shell(window, with_display(config, score_wrap=5000), seed=11, sound=False)
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    for score, shown in ((4999, "4999"), (5000, "00"), (5001, "01")):
        view.world = view.prev = dataclasses.replace(view.world, score=score)
        view.on_update(0.0)
        assert view.hud.values["score"] == shown


def test_hud_scale_makes_the_text_bigger(window, config) -> None:
    sizes = []
    for scale in (1.0, 2.0):
        game = open_shell(window, with_display(config, hud_scale=scale), seed=11, sound=False)
        view = PlayView(game, game.rules.next_seed())
        view.update_hud()
        frame = game.screen.frame(game.config.display.hud_scale)
        [score] = [line for line in view.hud.layout(frame).lines
                   if line.text == view.hud.values["score"]]
        sizes.append(score.size)
    assert sizes[1] == pytest.approx(2 * sizes[0])


def test_a_live_edit_switches_palette_and_monitor_look_at_once(window, tmp_path) -> None:
    """``asteroids play --live``: saving the settings file changes the picture on the next
    frames, in the same game, with no restart."""
    import os

    from asteroids.app.live import LiveSpec

    toml = tmp_path / "look.toml"
    toml.write_text("[display]\nglow = false\n")
    game = open_shell(window, load_config(toml), seed=11, sound=False,
                live=LiveSpec((str(toml),), interval_s=0.0))
    view = PlayView(game, game.rules.next_seed())
    window.show_view(view)
    view.on_update(1 / 60)
    view.on_draw()
    assert game.screen.monitor is None
    before = np.asarray(arcade.get_image(components=3)).astype(int)
    assert has_colour(before, VECTOR.asteroid)
    toml.write_text('[display]\nglow = false\npalette = "amber"\n[display.monitor]\n'
                    'strength = 1.0\n')
    later = toml.stat().st_mtime_ns + 10_000_000
    os.utime(toml, ns=(later, later))
    world = view.world
    for _ in range(3):
        view.on_update(1 / 60)
        view.on_draw()
    assert view.world.tick > world.tick  # the same game went on
    assert game.config.display.palette == "amber" and game.screen.monitor is not None
    after = np.asarray(arcade.get_image(components=3)).astype(int)
    lit = after[after.max(axis=2) > 60]
    assert lit.shape[0] > 100
    # Amber (the reload notice is white text, so look at the picture as a whole): red the
    # brightest channel and blue the faintest.
    amber = (lit[:, 0] >= lit[:, 1]) & (lit[:, 1] >= lit[:, 2]) & (lit[:, 0] > lit[:, 2] + 40)
    assert amber.mean() > 0.8
