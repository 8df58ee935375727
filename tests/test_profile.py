"""asteroids.profile: ruleset keys and the assisted rule, the score tables, settings, pruning."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from asteroids.config import load_config
from asteroids.config.bundled import preset_names
from asteroids.profile import (
    ASSIST_RULES,
    MAX_ENTRIES,
    ScoreBook,
    ScoreEntry,
    Settings,
    closest_preset,
    is_assisted,
    prune_replays,
    ruleset_key,
    ruleset_label,
)
from asteroids.profile.rulesets import _knobs
from asteroids.replay import RULE_TABLES


def entry(score: int, initials: str = "ABC", *, replay: str | None = None,
          date: str = "2026-01-02T03:04:05Z") -> ScoreEntry:
    return ScoreEntry(initials, score, 3, date, 61.5, replay)


# --- ruleset keys and labels -----------------------------------------------------------------

@pytest.mark.parametrize("name", preset_names())
def test_a_bundled_preset_is_its_own_key_and_never_assisted(name: str) -> None:
    config = load_config(name)
    assert ruleset_key(config) == name
    assert not is_assisted(config)
    assert closest_preset(config) == name


def test_display_audio_keys_and_storage_do_not_change_the_key() -> None:
    config = load_config("classic", overrides=[
        "display.glow=false", "audio.volume=0.1", "keys.fire=['J']", "storage.keep_replays=5"])
    assert ruleset_key(config) == "classic"


def test_other_rules_are_custom_with_a_short_hash() -> None:
    key = ruleset_key(load_config("classic", overrides=["world.width_px=2000"]))
    assert key.startswith("custom-") and len(key) == len("custom-") + 8
    assert ":" not in key                                  # a bigger field is not an assist
    assert key == ruleset_key(load_config("classic", overrides=["world.width_px=2000"]))
    assert key != ruleset_key(load_config("default", overrides=["world.width_px=2000"]))


@pytest.mark.parametrize(("preset", "override"), [
    ("classic", "game.lives=4"),
    ("default", "scoring.extra_life_every=5000"),
    ("default", "ship.shield.enabled=true"),
    ("classic", "ship.hyperspace.risky=false"),
    ("default", "asteroids.speed_max_px_per_s=100"),
    ("classic", "asteroids.speed_min_px_per_s=10"),
    ("arena", "game.first_wave_asteroids=2"),
    ("default", "game.wave_increment=1"),
    ("default", "game.max_wave_asteroids=6"),
    ("default", "shots.autofire=true"),
    ("classic", "shots.lifetime_s=3"),
    ("default", "shots.max_alive=8"),
    ("default", "saucers.enabled=false"),
])
def test_each_assist_makes_an_assisted_key(preset: str, override: str) -> None:
    config = load_config(preset, overrides=[override])
    assert closest_preset(config) == preset
    assert is_assisted(config)
    assert ruleset_key(config).endswith(":assisted")
    assert override.split("=")[0] in ASSIST_RULES


@pytest.mark.parametrize("override", [
    "game.lives=2", "scoring.extra_life_every=0", "asteroids.speed_max_px_per_s=300",
    "shots.lifetime_s=0.5", "shots.max_alive=2", "game.first_wave_asteroids=8",
    "world.tick_hz=30", "scoring.asteroid=[40, 100, 200]",
])
def test_harder_or_other_changes_are_ranked_custom(override: str) -> None:
    config = load_config("default", overrides=[override])
    assert not is_assisted(config)
    assert ruleset_key(config).startswith("custom-")
    assert not ruleset_key(config).endswith(":assisted")


def test_every_assist_rule_names_a_rule_knob() -> None:
    knobs = _knobs(load_config())
    for name in ASSIST_RULES:
        assert name in knobs and name.split(".")[0] in RULE_TABLES


def test_labels() -> None:
    assert ruleset_label("classic") == "CLASSIC"
    assert ruleset_label("custom-1a2b3c4d") == "CUSTOM 1A2B3C4D"
    assert ruleset_label("classic:assisted") == "CLASSIC (ASSISTED)"
    assert ruleset_label("custom-1a2b3c4d:assisted") == "CUSTOM 1A2B3C4D (ASSISTED)"


# --- the score book --------------------------------------------------------------------------

def test_top_ten_best_first_and_ties_keep_the_earlier_game(tmp_path: Path) -> None:
    book = ScoreBook.load(tmp_path / "scores.json")
    assert book.table("classic") == [] and book.best("classic") == 0
    assert not book.qualifies("classic", 0)
    for score in range(100, 1100, 100):
        assert book.add("classic", entry(score)) >= 0
    assert [e.score for e in book.table("classic")] == list(range(1000, 0, -100))
    assert book.best("classic") == 1000
    assert not book.qualifies("classic", 100)              # equal to the 10th: no
    assert book.add("classic", entry(100, "XYZ")) == -1
    assert book.add("classic", entry(500, "NEW")) == 6     # below the earlier 500
    table = book.table("classic")
    assert len(table) == MAX_ENTRIES and table[6].initials == "NEW"
    assert table[-1].score == 200
    assert book.table("default") == []                     # tables never mix


def test_set_initials_and_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    book = ScoreBook.load(path)
    rank = book.add("arena:assisted", entry(70, "???", replay="a.replay"))
    book.set_initials("arena:assisted", rank, "ZED")
    with pytest.raises(ValueError):
        book.set_initials("arena:assisted", rank, "ab")
    with pytest.raises(IndexError):
        book.set_initials("arena:assisted", 5, "ABC")
    assert book.save() is None
    again = ScoreBook.load(path)
    assert again.warnings == []
    assert again.table("arena:assisted") == [entry(70, "ZED", replay="a.replay")]
    assert again.referenced_replays() == {"a.replay"}
    assert json.loads(path.read_text())["schema_version"] == 1


def test_add_refuses_malformed_entries(tmp_path: Path) -> None:
    book = ScoreBook(tmp_path / "s.json")
    with pytest.raises(ValueError):
        book.add("classic", entry(10, "abc"))
    with pytest.raises(ValueError):
        book.add("Not A Key", entry(10))
    assert book.add("classic", entry(10, replay="../x.replay")) == 0   # a path: no link
    assert book.table("classic")[0].replay is None
    assert book.add("classic", entry(9, replay="My game 2.replay")) == 1
    assert book.referenced_replays() == {"My game 2.replay"}


def test_bad_entries_are_dropped_and_the_original_kept(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    good = {"initials": "ABC", "score": 10, "wave": 1, "date": "2026-01-01T00:00:00Z",
            "play_seconds": 5, "replay": None}
    doc = {"schema_version": 1, "tables": {
        "classic": [good, dict(good, score=-1), dict(good, initials="a"), dict(good, wave=True)],
        "BAD KEY": [good], "arena": "nope"}}
    path.write_text(json.dumps(doc))
    book = ScoreBook.load(path)
    assert book.table("classic") == [ScoreEntry("ABC", 10, 1, "2026-01-01T00:00:00Z", 5.0, None)]
    assert book.keys() == ["classic"]
    assert len(book.warnings) == 1 and "5 bad entries left out" in book.warnings[0]
    assert not list(tmp_path.glob("scores.json.corrupt-*"))   # nothing written yet
    assert book.save() is None                                 # copied aside, then written
    backups = list(tmp_path.glob("scores.json.corrupt-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == doc
    assert "kept as scores.json.corrupt-" in book.warnings[-1]
    assert book.save() is None                                 # nothing bad left: no copy
    assert len(list(tmp_path.glob("scores.json.corrupt-*"))) == 1
    assert ScoreBook.load(path).warnings == []


# --- settings --------------------------------------------------------------------------------

def test_settings_round_trip_and_bad_fields_dropped(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert Settings.load(path) == Settings()
    s = Settings.load(path)
    s.window_width, s.window_height, s.window_x, s.window_y = 1024, 600, -1200, 40
    s.fullscreen, s.muted, s.master_volume, s.ruleset = True, False, 0.25, "CLASSIC"
    assert s.save() is None
    loaded = Settings.load(path)
    assert loaded == s and loaded.warnings == []
    doc = json.loads(path.read_text())
    doc.update(window_width=5, master_volume=2.0, muted="yes", extra=1)
    path.write_text(json.dumps(doc))
    loaded = Settings.load(path)
    assert loaded.window_width is None and loaded.master_volume is None and loaded.muted is None
    assert loaded.window_height == 600 and loaded.ruleset == "CLASSIC"
    assert len(loaded.warnings) == 2 and "3 bad settings left out" in loaded.warnings[0]
    assert "('extra') kept as written" in loaded.warnings[1]     # an unknown field is kept


def test_settings_save_refuses_values_that_would_not_load(tmp_path: Path) -> None:
    s = Settings(window_width=10, path=tmp_path / "settings.json")
    assert "window_width" in (s.save() or "")
    assert not (tmp_path / "settings.json").exists()


def test_settings_from_a_newer_version_are_read_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    text = json.dumps({"schema_version": 9, "muted": True, "future_thing": [1, 2]})
    path.write_text(text)
    s = Settings.load(path)
    assert s.muted is True and len(s.warnings) == 1 and "newer version" in s.warnings[0]
    s.muted = False
    assert "newer version" in (s.save() or "")
    assert path.read_text() == text


# --- pruning ---------------------------------------------------------------------------------

def test_prune_keeps_referenced_and_the_newest(tmp_path: Path) -> None:
    names = [f"2026-01-{d:02d}T00-00-00Z-seed1-score{d}.replay" for d in range(1, 8)]
    for i, name in enumerate(names):
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (1_000_000 + i, 1_000_000 + i))
    (tmp_path / "notes.txt").write_text("keep me")
    (tmp_path / f".{names[0]}.999999999.abc.tmp").write_text("stale")
    referenced = {names[0], names[2]}
    deleted = prune_replays(tmp_path, 2, referenced)
    assert [p.name for p in deleted] == [names[1], names[3], names[4]]   # oldest first
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([names[0], names[2], names[5], names[6], "notes.txt"])
    assert prune_replays(tmp_path, 2, referenced) == []
    assert prune_replays(tmp_path / "missing", 2, set()) == []
    with pytest.raises(ValueError):
        prune_replays(tmp_path, -1, set())
