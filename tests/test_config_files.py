"""The shipped TOML files: default.toml mirrors the schema exactly; presets are valid."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from asteroids.config import Config, load_config, render_default_toml
from asteroids.config.knobs import knobs

ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = ROOT / "config"
DEFAULT = CONFIG_DIR / "default.toml"
REGENERATE = "python -m asteroids config show > config/default.toml"


def test_default_toml_loads_to_exactly_the_defaults():
    assert load_config(DEFAULT) == Config()


def test_default_toml_is_the_generated_text():
    committed = DEFAULT.read_text(encoding="utf-8")
    assert committed == render_default_toml(), (
        "config/default.toml is out of date with the schema (asteroids/config/schema.py and "
        f"its tables); regenerate it with:  {REGENERATE}"
    )


def test_default_toml_documents_every_knob_with_a_comment_line():
    lines = DEFAULT.read_text(encoding="utf-8").splitlines()
    data = tomllib.loads("\n".join(lines))

    def walk(cls, table, path):
        for knob in knobs(cls):
            if knob.kind == "table":
                walk(knob.cls, table[knob.name], f"{path}{knob.name}.")
            elif knob.kind == "tables":
                assert any(f"[[{knob.name}]]" in line for line in lines)
            else:
                assert knob.name in table, f"{path}{knob.name} missing from default.toml"
                index = next(i for i, line in enumerate(lines)
                             if line.startswith(f"{knob.name} = ")
                             and lines[i - 1].startswith(f"# {knob.meta['doc']}"))
                assert lines[index - 1].startswith("# ")
    walk(Config, data, "")


def test_default_toml_tables_are_in_schema_order():
    lines = DEFAULT.read_text(encoding="utf-8").splitlines()
    headers = [line.strip("[]") for line in lines if line.startswith("[")]
    top = [h.split(".")[0] for h in headers]
    order = [k.name for k in knobs(Config) if k.kind == "table"]
    assert list(dict.fromkeys(top)) == order


@pytest.mark.parametrize("name", ["default.toml", "classic.toml", "arena.toml"])
def test_preset_is_valid_and_every_line_is_commented(name):
    path = CONFIG_DIR / name
    load_config(path)
    if name != "default.toml":
        for line in path.read_text(encoding="utf-8").splitlines():
            if "=" in line and not line.startswith(("#", " ")):
                assert "#" in line, f"{name}: no comment on {line!r}"


def test_classic_preset_has_the_1979_numbers():
    c = load_config(CONFIG_DIR / "classic.toml")
    frame = 1 / 62.5
    assert c.world.tick_hz == 62.5
    assert (c.world.width_px, c.world.height_px) == (1024.0, 768.0)
    assert c.shots.max_alive == 4
    assert c.shots.lifetime_s == pytest.approx(72 * frame)
    assert c.shots.speed_px_per_s == pytest.approx(490, abs=5)
    assert c.shots.inherit_velocity is True
    assert c.shots.max_axis_speed_px_per_s == pytest.approx(868, abs=1)
    assert c.shots.autofire is False
    assert c.ship.speed_limit == "axis"
    assert c.ship.max_speed_px_per_s == pytest.approx(494, abs=3)
    assert c.ship.turn_deg_per_s == pytest.approx(3 / 256 * 360 * 62.5)
    assert c.ship.drag_per_s == pytest.approx(62.5 / 256)
    assert c.ship.max_speed_px_per_s / c.ship.thrust_px_per_s2 == pytest.approx(2.0, abs=0.1)
    assert c.ship.hyperspace.duration_s == pytest.approx(48 * frame)
    assert c.ship.hyperspace.risky is True
    assert c.ship.shield.enabled is False
    assert c.ship.respawn_delay_s == pytest.approx(129 * frame)
    assert c.ship.safe_radius_px == 128.0
    assert c.asteroids.radius_px == (33.0, 18.0, 10.5)
    assert c.asteroids.shapes == "classic"
    assert c.asteroids.spin_max_deg_per_s == 0.0
    assert c.asteroids.split_kick_px_per_s == 125.0
    assert c.asteroids.speed_min_px_per_s == pytest.approx(47, abs=0.5)
    assert c.asteroids.speed_max_px_per_s == pytest.approx(242, abs=0.5)
    assert c.asteroids.max_alive == 27
    assert c.asteroids.collide is False
    assert c.saucers.first_interval_s == pytest.approx(146 * 4 * frame)
    assert c.saucers.interval_step_s == pytest.approx(6 * 4 * frame)
    assert c.saucers.min_interval_s == pytest.approx(32 * 4 * frame)
    assert c.saucers.lurk_s == pytest.approx(80 * 4 * frame)
    assert c.scoring.asteroid == (20, 50, 100)
    assert c.scoring.saucer == (200, 1000)
    assert c.scoring.extra_life_every == 10000
    assert c.game.lives == 3
    assert (c.game.first_wave_asteroids, c.game.wave_increment,
            c.game.max_wave_asteroids) == (4, 2, 11)
    assert c.game.next_wave_delay_s == pytest.approx(127 * frame)
    hb = c.game.heartbeat
    assert (hb.start_interval_s, hb.min_interval_s) == pytest.approx((48 * frame, 8 * frame))
    assert (hb.quicken_every_s, hb.quicken_step_s) == pytest.approx((64 * frame, frame))


def test_arena_preset_is_a_closed_box_with_hexagons_away_from_the_centre():
    c = load_config(CONFIG_DIR / "arena.toml")
    assert {c.borders.asteroids, c.borders.ship, c.borders.shots, c.borders.saucers} == {"bounce"}
    assert c.asteroids.collide is True
    assert c.asteroids.restitution == 1.0
    assert c.shots.at_obstacles == "ricochet"
    assert 3 <= len(c.obstacles) <= 4
    cx, cy = c.world.width_px / 2, c.world.height_px / 2
    for obstacle in c.obstacles:
        pts = obstacle.points
        assert len(pts) == 6
        mx = sum(x for x, _ in pts) / 6
        my = sum(y for _, y in pts) / 6
        radii = [math.hypot(x - mx, y - my) for x, y in pts]
        sides = [math.dist(pts[i], pts[(i + 1) % 6]) for i in range(6)]
        assert max(radii) - min(radii) < 0.01 and max(sides) - min(sides) < 0.01  # regular
        nearest = min(math.hypot(x - cx, y - cy) for x, y in pts)
        assert nearest > c.ship.safe_radius_px + c.asteroids.radius_px[0]
