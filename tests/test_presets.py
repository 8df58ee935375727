"""Bundled presets: chosen by name from any install, identical to the documented files."""

from __future__ import annotations

from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import ConfigError, load_config
from asteroids.config.bundled import preset_bytes, preset_description, preset_names

ROOT = Path(__file__).resolve().parent.parent
CONFIG_DIR = ROOT / "config"
SYNC = "cp config/*.toml asteroids/config/presets/"


def test_every_documented_preset_ships_in_the_package():
    assert set(preset_names()) == {p.stem for p in CONFIG_DIR.glob("*.toml")}
    assert preset_names()[:3] == ("default", "classic", "arena")


@pytest.mark.parametrize("name", sorted(p.stem for p in CONFIG_DIR.glob("*.toml")))
def test_package_carries_the_same_bytes_as_config_folder(name):
    assert preset_bytes(name) == (CONFIG_DIR / f"{name}.toml").read_bytes(), (
        f"config/{name}.toml and the packaged copy differ; after editing config/, run: {SYNC}")


@pytest.mark.parametrize("name", ["default", "classic", "arena"])
def test_a_preset_by_name_is_the_preset_file(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no config/ folder here: the name must come from the package
    assert load_config(name) == load_config(CONFIG_DIR / f"{name}.toml")


def test_named_presets_differ_from_the_defaults():
    assert load_config("classic").world.width_px == 1024.0
    assert load_config("arena") != load_config()
    assert load_config("default") == load_config()


def test_a_file_wins_over_a_preset_of_the_same_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("classic").write_text("[game]\nlives = 9\n")
    assert load_config("classic").game.lives == 9
    assert load_config("classic").world.width_px == load_config().world.width_px


def test_overrides_apply_on_top_of_a_named_preset():
    cfg = load_config("arena", overrides=["game.lives=5"])
    assert cfg.game.lives == 5
    assert cfg.borders == load_config("arena").borders


@pytest.mark.parametrize(("given", "hint"), [
    ("clasic", "did you mean 'classic'?"),
    ("ARENA", "did you mean 'arena'?"),
    ("zzz", "the presets are default, classic, arena"),
])
def test_unknown_preset_name_lists_presets(given, hint, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as err:
        load_config(given)
    (issue,) = err.value.errors
    assert issue.code == "unknown-preset"
    assert given in issue.message and hint in issue.message
    assert "default, classic, arena" in issue.message


def test_a_missing_toml_path_points_at_the_preset_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as err:
        load_config("classic.toml")
    (issue,) = err.value.errors
    assert issue.code == "unreadable"
    assert "No such file" in issue.message and "did you mean 'classic'?" in issue.message


def test_a_folder_is_not_a_settings_file(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert "folder" in err.value.errors[0].message


@pytest.mark.parametrize("argv", [
    ["config", "check", "nosuchpreset"],
    ["config", "show", "--config", "nosuchpreset"],
    ["config", "show", "--config", "."],
    ["play", "--config", "clasic"],
])
def test_bad_preset_or_folder_exits_2_with_one_paragraph(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "presets" in err or "preset name" in err


def test_config_presets_lists_each_with_a_description(capsys):
    assert cli.main(["config", "presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(preset_names())
    for line, name in zip(lines, preset_names(), strict=True):
        assert line.endswith(preset_description(name))
        assert preset_description(name).endswith(".")


def test_config_show_of_a_preset_starts_a_custom_file(tmp_path, capsys):
    assert cli.main(["config", "show", "--config", "arena"]) == 0
    mine = tmp_path / "my.toml"
    mine.write_text(capsys.readouterr().out)
    assert load_config(mine) == load_config("arena")
