"""Loading settings: defaults, layering order, type conversion, immutability, overrides."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config import (
    Config,
    ConfigError,
    Obstacle,
    load_config,
    parse_override,
    render_toml,
)
from asteroids.config.knobs import knobs

ROOT = Path(__file__).resolve().parent.parent


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_sources_gives_the_built_in_defaults():
    assert load_config() == Config()


def test_partial_file_changes_only_its_keys(tmp_path):
    path = _write(tmp_path, "a.toml", "[ship]\nthrust_px_per_s2 = 400\n")
    cfg = load_config(path)
    assert cfg.ship.thrust_px_per_s2 == 400.0
    assert cfg.ship.turn_deg_per_s == Config().ship.turn_deg_per_s
    assert dataclasses.replace(cfg, ship=Config().ship) == Config()


def test_later_file_wins_and_overrides_win_over_files(tmp_path):
    a = _write(tmp_path, "a.toml", "[ship]\nthrust_px_per_s2 = 100\n[game]\nlives = 5\n")
    b = _write(tmp_path, "b.toml", "[ship]\nthrust_px_per_s2 = 200\n")
    assert load_config(a, b).ship.thrust_px_per_s2 == 200.0
    assert load_config(b, a).ship.thrust_px_per_s2 == 100.0
    cfg = load_config(a, b, overrides=["ship.thrust_px_per_s2=300", "ship.thrust_px_per_s2=350"])
    assert cfg.ship.thrust_px_per_s2 == 350.0
    assert cfg.game.lives == 5  # set only by a.toml, kept through b.toml


def test_int_is_accepted_for_float_and_converted(tmp_path):
    cfg = load_config(_write(tmp_path, "a.toml", "[world]\nwidth_px = 1000\n"))
    assert cfg.world.width_px == 1000.0
    assert type(cfg.world.width_px) is float
    assert type(load_config(overrides=["asteroids.radius_px=[40, 20, 10]"])
                .asteroids.radius_px[0]) is float


def test_int_fields_stay_int():
    cfg = load_config(overrides=["game.lives=4", "scoring.saucer=[200, 990]"])
    assert type(cfg.game.lives) is int
    assert cfg.scoring.saucer == (200, 990)


def test_config_is_frozen_and_uses_tuples(tmp_path):
    cfg = load_config(_write(tmp_path, "a.toml", '[keys]\nfire = ["SPACE", "F"]\n'))
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.ship.thrust_px_per_s2 = 1.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.ship = Config().ship  # type: ignore[misc]
    assert cfg.keys.fire == ("SPACE", "F")
    assert isinstance(cfg.asteroids.radius_px, tuple)
    hash(cfg)  # fully immutable, so hashable


def test_obstacles_parse_to_tuples_of_points_and_later_file_replaces_them(tmp_path):
    a = _write(tmp_path, "a.toml", "[[obstacles]]\npoints = [[100, 100], [200, 100], [150, 200]]\n"
               "[[obstacles]]\npoints = [[300, 300], [400, 300], [350, 400], [300, 350]]\n")
    cfg = load_config(a)
    assert cfg.obstacles == (
        Obstacle(points=((100.0, 100.0), (200.0, 100.0), (150.0, 200.0))),
        Obstacle(points=((300.0, 300.0), (400.0, 300.0), (350.0, 400.0), (300.0, 350.0))),
    )
    b = _write(tmp_path, "b.toml", "obstacles = []\n")
    assert load_config(a, b).obstacles == ()


def test_nested_tables_dotted_keys_and_inline_tables(tmp_path):
    a = _write(tmp_path, "a.toml",
               "ship.hyperspace.enabled = false\n[game]\nheartbeat = { min_interval_s = 0.1 }\n")
    cfg = load_config(a)
    assert cfg.ship.hyperspace.enabled is False
    assert cfg.game.heartbeat.min_interval_s == 0.1
    assert load_config(overrides=["ship.hyperspace={duration_s = 1}"]).ship.hyperspace \
        .duration_s == 1.0


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("ship.thrust_px_per_s2=400", "ship.thrust_px_per_s2", 400),
        ("ship.thrust_px_per_s2 = 12.5", "ship.thrust_px_per_s2", 12.5),
        ('borders.ship="bounce"', "borders.ship", "bounce"),
        ("borders.ship=bounce", "borders.ship", "bounce"),
        ("audio.muted=true", "audio.muted", True),
        ('keys.fire=["SPACE", "F"]', "keys.fire", ["SPACE", "F"]),
        ("world.tick_hz=nan", "world.tick_hz", math.nan),
    ],
)
def test_parse_override(text, key, value):
    got_key, got_value = parse_override(text)
    assert got_key == key
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(got_value)
    else:
        assert got_value == value and type(got_value) is type(value)


@pytest.mark.parametrize("text", ["noequals", "=5", "ship..x=1", "a b=1", "x=[1,", "x=1 2"])
def test_parse_override_rejects(text):
    with pytest.raises(ValueError):
        parse_override(text)


def test_bare_word_override_applies():
    cfg = load_config(overrides=["borders.ship=bounce", "asteroids.shapes=classic"])
    assert cfg.borders.ship == "bounce"
    assert cfg.asteroids.shapes == "classic"


def test_contradiction_fixed_by_a_later_layer_is_fine(tmp_path):
    a = _write(tmp_path, "a.toml", "[asteroids]\nvertices_min = 20\n")
    with pytest.raises(ConfigError):
        load_config(a)
    assert load_config(a, overrides=["asteroids.vertices_max=30"]).asteroids.vertices_max == 30


def test_lo_open_accepts_values_just_above_the_bound():
    assert load_config(overrides=["shots.lifetime_s=0.001"]).shots.lifetime_s == 0.001


def test_error_summary_singular_and_plural(tmp_path):
    with pytest.raises(ConfigError) as one:
        load_config(overrides=["game.lives=0"])
    assert str(one.value).endswith("\n1 error. The game will not start with a broken config.")
    with pytest.raises(ConfigError) as two:
        load_config(overrides=["game.lives=0", "game.lives=100"])
    assert str(two.value).splitlines()[-1] == "2 errors. The game will not start with a broken " \
        "config."


def _valid_value(knob):
    meta = knob.meta
    lo, hi = meta["lo"], meta["hi"]
    if knob.kind == "bool":
        return st.booleans()
    if knob.kind == "str":
        return st.sampled_from(meta["choices"])
    if knob.kind == "int":
        return st.integers(int(lo), min(int(hi), 10**6))
    if knob.kind == "float":
        return st.floats(lo, hi, exclude_min=meta["lo_open"], allow_nan=False)
    return None


def _scalar_knobs():
    out = []

    def walk(cls, prefix):
        for k in knobs(cls):
            if k.kind == "table":
                walk(k.cls, (*prefix, k.name))
            elif _valid_value(k) is not None:
                out.append(((*prefix, k.name), k))
    walk(Config, ())
    return out


SCALARS = _scalar_knobs()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_render_then_load_round_trips(data):
    """Any single valid scalar setting survives render_toml -> TOML file -> load_config."""
    path, knob = data.draw(st.sampled_from(SCALARS))
    value = data.draw(_valid_value(knob))
    try:
        cfg = load_config(overrides=[f"{'.'.join(path)}={_toml(value)}"])
    except ConfigError:
        return  # a valid single value can still contradict another default (cross-field)
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "c.toml"
        file.write_text(render_toml(cfg, with_comments=False))
        assert load_config(file) == cfg


def _toml(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def test_config_package_does_not_import_arcade():
    code = "import sys, asteroids.config, asteroids.cli; print('arcade' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
