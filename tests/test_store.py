"""The player's-files store (asteroids/profile/store.py) under scores.json and settings.json:
migrations as a list of upgrades, newer and read-only files never written, bad fields copied
aside before the next write with unknown fields and good neighbours kept, settings checked
against the config schema's own declarations, saves merged under the lock, symbolic links
kept."""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from pathlib import Path
from typing import Any

import filelock
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asteroids.config.knobs import describe
from asteroids.profile import ScoreBook, ScoreEntry, Settings
from asteroids.profile.scores import SCORES_FORMAT, dump_scores
from asteroids.profile.settings import SCHEMA_FIELDS, SETTINGS_SCHEMA_VERSION, schema_knob
from asteroids.profile.store import FileFormat, Store, StoreFileError, lock_path


def entry(score: int, initials: str = "ABC") -> ScoreEntry:
    return ScoreEntry(initials, score, 2, "2026-01-02T03:04:05Z", 90.0, None)


def files(folder: Path) -> list[str]:
    """The files in ``folder`` but the saves' lock files (empty, kept for the next save)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))


# --- migrations: a list of upgrades, one per schema change ----------------------------------

def _counter_format(version: int, upgrades: tuple[Any, ...]) -> FileFormat[dict[str, Any]]:
    def parse(doc: dict[str, Any], v: int, name: str) -> tuple[dict[str, Any], list[str]]:
        if v <= version and "count" not in doc:
            raise StoreFileError(name, "no count")
        return doc, []

    return FileFormat(noun="counter file", what="counts", fresh="starting at nothing",
                      item=("bad count", "bad counts"), version=version, upgrades=upgrades,
                      max_bytes=4096, parse=parse,
                      dump=lambda doc: json.dumps(doc).encode())


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """v2 renamed ``n`` to ``count``."""
    doc["count"] = doc.pop("n")
    return doc


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """v3 counts in halves."""
    doc["count"] *= 2
    doc.setdefault("log", []).append("v3")
    return doc


@pytest.mark.parametrize("start", [1, 2, 3])
def test_an_old_file_is_upgraded_step_by_step_and_saved_at_the_current_version(
        tmp_path: Path, start: int) -> None:
    path = tmp_path / "counts.json"
    old = {1: {"schema_version": 1, "n": 5, "note": "mine"},
           2: {"schema_version": 2, "count": 5, "note": "mine"},
           3: {"schema_version": 3, "count": 10, "note": "mine", "log": ["v3"]}}[start]
    path.write_text(json.dumps(old))
    store = Store(path, _counter_format(3, (_v1_to_v2, _v2_to_v3)))
    reading = store.load()
    assert reading.version == start and reading.notes == [] and reading.read_only is None
    assert reading.value == {"schema_version": 3, "count": 10, "note": "mine", "log": ["v3"]}
    assert path.read_text() == json.dumps(old)               # loading writes nothing
    assert store.save(lambda r: r.value).problem is None
    assert json.loads(path.read_text()) == reading.value


def test_a_format_needs_exactly_one_upgrade_per_older_version() -> None:
    with pytest.raises(ValueError, match="needs 2 upgrades; got 1"):
        _counter_format(3, (_v1_to_v2,))


def test_a_newer_file_is_read_and_never_written(tmp_path: Path) -> None:
    path = tmp_path / "counts.json"
    text = json.dumps({"schema_version": 4, "count": 1, "future": [1, 2]})
    path.write_text(text)
    store = Store(path, _counter_format(3, (_v1_to_v2, _v2_to_v3)))
    reading = store.load()
    assert reading.value == json.loads(text) and reading.version == 4
    assert reading.read_only is not None and "newer version" in reading.read_only
    result = store.save(lambda r: {"schema_version": 3, "count": 0})
    assert result.read_only and result.problem == reading.read_only
    assert path.read_text() == text and files(tmp_path) == ["counts.json"]


def test_an_older_game_meeting_a_newer_settings_file_overwrites_nothing(tmp_path: Path) -> None:
    # What this version does with a file from the next one is what a game of this version
    # will do when it meets the next schema: read what it knows, write nothing.
    path = tmp_path / "settings.json"
    doc = {"schema_version": SETTINGS_SCHEMA_VERSION + 1, "palette": "amber", "muted": True,
           "master_volume": 7, "haptics": {"rumble": 0.5}}
    path.write_text(json.dumps(doc))
    s = Settings.load(path)
    assert (s.palette, s.muted, s.master_volume) == ("amber", True, None)
    assert len(s.warnings) == 1 and "newer version" in s.warnings[0]
    s.palette = "green"
    assert "newer version" in (s.save() or "")
    assert json.loads(path.read_text()) == doc and files(tmp_path) == ["settings.json"]


# --- settings: bad fields set aside, unknown fields and good neighbours kept ----------------

GOOD = {"schema_version": 2, "window_width": 1024, "muted": False, "palette": "green",
        "keys": {"fire": ["F"], "thrust": ["UP", "W"]}, "hud_scale": 1.5}


@pytest.mark.parametrize(("bad", "kept"), [
    ({"keys": {"fire": ["F"], "thrust": ["UP", "NOT_A_KEY"]}}, {"keys": {"fire": ["F"]}}),
    ({"keys": {"fire": ["F"], "dance": ["D"]}}, {"keys": {"fire": ["F"]}}),
    ({"master_volume": 1.5}, {}),
    ({"master_volume": float("nan")}, {}),
    ({"effects_volume": "<5000 digits>"}, {}),
], ids=["unknown key", "unknown action", "volume 1.5", "volume NaN", "5000 digits"])
def test_a_bad_setting_is_copied_aside_before_anything_is_written(
        tmp_path: Path, bad: dict[str, Any], kept: dict[str, Any]) -> None:
    path = tmp_path / "settings.json"
    doc = {**GOOD, **bad, "my note": "left keys for the arcade stick"}
    text = json.dumps(doc, allow_nan=True).replace('"<5000 digits>"', "9" * 5000)
    path.write_text(text)
    s = Settings.load(path)
    assert path.read_text() == text and files(tmp_path) == ["settings.json"]   # untouched
    assert s.window_width == 1024 and s.palette == "green" and s.hud_scale == 1.5
    assert s.keys == kept.get("keys", GOOD["keys"])
    assert s.master_volume is None and s.effects_volume is None
    assert len(s.warnings) == 2 and "1 bad setting left out" in s.warnings[0]
    assert "copied aside" in s.warnings[0] and "'my note'" in s.warnings[1]
    s.window_x = 40
    assert s.save() is None
    (aside,) = tmp_path.glob("settings.json.corrupt-*")
    assert aside.read_text() == text                           # the original, byte for byte
    written = json.loads(path.read_text())
    assert written["my note"] == "left keys for the arcade stick"     # the player's note
    assert written["keys"] == s.keys and written["window_x"] == 40
    assert (written["window_width"], written["palette"]) == (1024, "green")
    again = Settings.load(path)
    assert again == s and len(again.warnings) == 1             # only the note's line
    assert again.save() is None and len(list(tmp_path.glob("settings.json.corrupt-*"))) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("bad", [False, True])
def test_a_read_only_settings_file_is_used_and_left_alone(tmp_path: Path, bad: bool) -> None:
    path = tmp_path / "settings.json"
    doc = {**GOOD, "master_volume": 1.5 if bad else 0.5}
    path.write_text(json.dumps(doc))
    path.chmod(0o444)
    s = Settings.load(path)
    assert s.palette == "green" and s.master_volume == (None if bad else 0.5)
    assert any("settings.json is read-only" in w for w in s.warnings)
    assert all("\n" not in w for w in s.warnings)
    s.palette = "amber"
    problem = s.save()
    assert problem == "settings not saved: settings.json is read-only; it is left as it is"
    assert json.loads(path.read_text()) == doc and files(tmp_path) == ["settings.json"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


def test_remembered_options_are_checked_by_the_config_schema(tmp_path: Path) -> None:
    # Each remembered option takes exactly what its config setting's declaration allows:
    # the bounds themselves, and nothing one step past them.
    path = tmp_path / "settings.json"
    for name, dotted in SCHEMA_FIELDS.items():
        knob = schema_knob(dotted)
        meta = knob.meta
        if knob.kind == "bool":
            good, bad = [True, False], [0, "true"]
        elif knob.kind == "str":
            good, bad = list(meta["choices"]), ["no such " + name, 3]
        else:
            step = 1 if knob.kind == "int" else 1e-9
            good = [meta["lo"], meta["hi"]]
            bad = [meta["lo"] - step, meta["hi"] + step]
            if knob.kind == "int":
                bad.append(meta["lo"] + 0.5)
        for value in good:
            path.write_text(json.dumps({"schema_version": 2, name: value}))
            s = Settings.load(path)
            assert getattr(s, name) == value and s.warnings == [], (name, value)
        for value in bad:
            path.write_text(json.dumps({"schema_version": 2, name: value}))
            s = Settings.load(path)
            assert getattr(s, name) is None, (name, value)
            assert f"{name} must be {describe(knob)}" in s.warnings[0]


def test_two_windows_saving_settings_keep_each_others_changes(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    Settings(path=path, palette="green", muted=False, master_volume=0.5).save()
    one, two = Settings.load(path), Settings.load(path)
    one.palette = "amber"                                   # the options screen of one window
    assert one.save() is None
    two.muted, two.window_width = True, 900                 # the other window: mute, resize
    assert two.save() is None
    assert (two.palette, two.muted) == ("amber", True)      # it now holds what the file holds
    one.master_volume = 0.25
    assert one.save() is None                               # does not undo two's changes
    final = Settings.load(path)
    assert (final.palette, final.muted, final.window_width, final.master_volume) == \
        ("amber", True, 900, 0.25)
    two.palette = None                                      # "reset to defaults" forgets it
    assert two.save() is None and Settings.load(path).palette is None


json_leaf = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
             | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                          max_leaves=8)
setting_docs = st.dictionaries(
    st.sampled_from(["window_width", "window_x", "muted", "master_volume", "palette",
                     "hud_scale", "keys", "pad", "ruleset", "note", "future", "x"]),
    json_value | st.sampled_from([1280, 0.5, "amber", {"fire": ["F"]}, {"fire": ["a"]}]),
    max_size=8)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setting_docs)
def test_fuzz_settings_load_save_load_keeps_every_good_value(tmp_path: Path,
                                                             doc: dict[str, Any]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        path = Path(folder) / "settings.json"
        text = json.dumps({"schema_version": 2, **doc}, allow_nan=True)
        path.write_text(text)
        first = Settings.load(path)
        assert path.read_text() == text
        assert first.save() is None
        again = Settings.load(path)
        assert again == first
        assert not any("left out" in w for w in again.warnings)   # nothing bad remains
        written = json.loads(path.read_text())
        for key, value in doc.items():                        # unknown fields stay as written
            if key in ("note", "future", "x") and _plain(value):
                assert written[key] == value
        backups = list(Path(folder).glob("settings.json.corrupt-*"))
        assert len(backups) == (1 if any("left out" in w for w in first.warnings) else 0)
        assert all(b.read_text() == text for b in backups)


def _plain(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return True


# --- scores: numbers bounded, unknown fields kept, links kept, the lock ---------------------

def test_an_over_long_number_costs_one_entry_not_the_file(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    book = ScoreBook.load(path)
    book.add("classic", entry(100))
    book.add("classic", entry(90))
    assert book.save() is None
    text = path.read_text().replace('"score": 90', '"score": ' + "9" * 5000)
    path.write_text(text)
    book = ScoreBook.load(path)
    assert [e.score for e in book.table("classic")] == [100]
    assert "5000-digit number" in book.warnings[0] and "\n" not in book.warnings[0]
    path.write_text('{"schema_version": ' + "1" * 5000 + ', "tables": {}}')
    book = ScoreBook.load(path)
    assert book.keys() == [] and "moved aside" in book.warnings[0]


def test_unknown_fields_of_a_scores_file_are_written_back(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    path.write_text(json.dumps({"schema_version": 1, "tables": {},
                                "owner": {"name": "Ada", "since": 2026}}))
    book = ScoreBook.load(path)
    assert book.warnings == []
    book.add("arena", entry(70))
    assert book.save() is None
    doc = json.loads(path.read_text())
    assert doc["owner"] == {"name": "Ada", "since": 2026} and len(doc["tables"]["arena"]) == 1


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32",
                    reason="POSIX symbolic links")
@pytest.mark.parametrize("target", ["dangling", "a file", "a damaged file"])
def test_a_symlinked_scores_file_is_refused_not_followed(tmp_path: Path, target: str) -> None:
    real = tmp_path / "elsewhere" / "my-scores.json"
    real.parent.mkdir()
    if target != "dangling":
        real.write_bytes(b"{broken" if target == "a damaged file" else dump_scores({}))
    before = real.read_bytes() if real.exists() else None
    data = tmp_path / "data"
    data.mkdir()
    link = data / "scores.json"
    link.symlink_to(real)
    book = ScoreBook.load(link)
    assert book.warnings == [f"{link}: it is {'a dangling' if target == 'dangling' else 'a'} "
                             "symbolic link; links inside the data folder are not followed "
                             "(replace it with a regular file or folder): not read, and high "
                             "scores are not saved"]
    book.add("classic", entry(100))
    assert book.save() == (f"high scores not saved: {link} is a symbolic link; links inside "
                           "the data folder are not followed")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert (real.read_bytes() if real.exists() else None) == before
    assert [p.name for p in real.parent.iterdir()] == ([] if before is None else [real.name])


def test_a_save_waits_for_the_lock_and_gives_up_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "scores.json"
    book = ScoreBook.load(path)
    book.add("classic", entry(100))
    assert book.save() is None
    before = path.read_bytes()
    store = Store(path, SCORES_FORMAT, lock_timeout=0.2)
    with filelock.FileLock(lock_path(path)):    # another game in the middle of its save
        result = store.save(lambda reading: reading.value)  # type: ignore[arg-type,return-value]
    assert result.problem == ("high scores not saved: scores.json stayed locked by another "
                              "game for 0.2 s (the next save tries again)")
    assert path.read_bytes() == before and not result.read_only
    book.add("classic", entry(200))
    assert book.save() is None                  # released: the next save goes through
    assert [e.score for e in ScoreBook.load(path).table("classic")] == [200, 100]


score_entries = st.fixed_dictionaries({
    "initials": st.sampled_from(["ABC", "???", "abc"]),
    "score": st.integers(-1, 10**6) | st.sampled_from([True, 1.5]),
    "wave": st.integers(0, 3),
    "date": st.sampled_from(["2026-01-01T00:00:00Z", "2026-02-03T04:05:06Z", "yesterday"]),
    "play_seconds": st.floats(-1, 100, allow_nan=False),
    "replay": st.none() | st.sampled_from(["a.replay", "../b.replay"]),
}, optional={"medal": st.just("gold")})
score_docs = st.fixed_dictionaries(
    {"schema_version": st.just(1),
     "tables": st.dictionaries(st.sampled_from(["classic", "arena:assisted", "No Way"]),
                               st.lists(score_entries, max_size=12), max_size=3)},
    optional={"owner": json_value})


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(score_docs)
def test_fuzz_scores_load_save_load_keeps_every_good_entry(tmp_path: Path,
                                                           doc: dict[str, Any]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        path = Path(folder) / "scores.json"
        text = json.dumps(doc, allow_nan=True)
        path.write_text(text)
        first = ScoreBook.load(path)
        bad = len(first.warnings)                             # one line for all bad entries
        assert path.read_text() == text and bad <= 1
        assert first.save() is None
        again = ScoreBook.load(path)
        assert again.tables() == first.tables() and again.warnings == []
        if "owner" in doc and _plain(doc["owner"]):
            assert json.loads(path.read_text())["owner"] == doc["owner"]
        backups = list(Path(folder).glob("scores.json.corrupt-*"))
        assert len(backups) == bad                            # copied aside iff anything bad
        assert all(b.read_text() == text for b in backups)
