"""The data folders of released versions (``tests/replays/archive/<version>/data/``: what that
version wrote in a real window) load with the current code through the player's-files store:
every table entry as that version's own ``asteroids scores --json`` printed it, every
entry's replay present, every remembered option applied as the file says, and loading then
saving loses nothing. The archive is copied first: it is never written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from asteroids.config import load_config
from asteroids.profile import ScoreBook, Settings, ruleset_label
from asteroids.profile.options import apply_options
from asteroids.profile.scores import entry_to_json
from asteroids.profile.settings import SCHEMA_FIELDS, SETTINGS_SCHEMA_VERSION
from asteroids.replay import load_replay

ARCHIVE = Path(__file__).resolve().parent / "archive"
VERSIONS = sorted(p.parent.name for p in ARCHIVE.glob("*/data"))


def test_the_archive_holds_a_data_folder() -> None:
    assert "0.1.0" in VERSIONS


@pytest.fixture(params=VERSIONS)
def version(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def data(version: str, tmp_path: Path) -> Path:
    """A copy of that version's data folder."""
    return Path(shutil.copytree(ARCHIVE / version / "data", tmp_path / "data"))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def test_every_table_entry_loads_with_its_replay(version: str, data: Path) -> None:
    printed = json.loads((ARCHIVE / version / f"scores-by-{version}.json").read_text())
    book = ScoreBook.load(data / "scores.json")
    assert book.warnings == [] and book.read_only is None
    assert book.keys() == sorted(printed["tables"])
    for key, table in printed["tables"].items():
        assert ruleset_label(key) == table["label"]
        assert [entry_to_json(e) for e in book.table(key)] == table["entries"]
        for entry in book.table(key):
            assert entry.replay is not None
            replay = load_replay(data / "replays" / entry.replay)
            assert entry.score in (replay.final_score, *replay.final_scores)


def test_every_remembered_setting_applies_as_the_file_says(data: Path) -> None:
    from asteroids.app.window import window_geometry

    doc: dict[str, Any] = json.loads((data / "settings.json").read_text())
    s = Settings.load(data / "settings.json")
    assert s.warnings == [] and s.read_only is None
    for name, value in doc.items():
        if name != "schema_version":
            assert getattr(s, name) == value, name
    base = load_config()
    config = apply_options(base, s)
    for name, dotted in SCHEMA_FIELDS.items():
        if doc.get(name) is None or name.startswith("window_"):
            continue
        section, *rest = dotted.split(".")
        got: Any = getattr(config, section)
        for part in rest:
            got = getattr(got, part)
        assert got == doc[name], dotted
    for action in base.keys.__dataclass_fields__:
        want = (doc.get("keys") or {}).get(action)
        assert getattr(config.keys, action) == (tuple(want) if want else
                                                getattr(base.keys, action)), action
    width, height, _ = window_geometry(base, s, ())
    assert (width, height) == (doc["window_width"], doc["window_height"])


def test_loading_and_saving_loses_nothing(data: Path) -> None:
    before = _snapshot(data)
    book = ScoreBook.load(data / "scores.json")
    assert book.save() is None
    settings = Settings.load(data / "settings.json")
    assert settings.save() is None
    after = _snapshot(data)
    assert after.keys() == before.keys()                       # no backup, no stray file
    assert after["scores.json"] == before["scores.json"]       # byte for byte
    assert json.loads(after["settings.json"]) == json.loads(before["settings.json"])
    assert {k: v for k, v in after.items() if k.startswith("replays")} == \
        {k: v for k, v in before.items() if k.startswith("replays")}


def test_a_schema_1_settings_file_is_upgraded(data: Path) -> None:
    # The archive's settings as schema 1 held them (schema 2 added the options).
    v2: dict[str, Any] = json.loads((data / "settings.json").read_text())
    v1_fields = ("window_width", "window_height", "window_x", "window_y", "fullscreen",
                 "muted", "master_volume", "ruleset")
    v1 = {"schema_version": 1, **{k: v2[k] for k in v1_fields}}
    path = data / "settings.json"
    path.write_text(json.dumps(v1))
    s = Settings.load(path)
    assert s.warnings == [] and s.read_only is None
    assert {k: getattr(s, k) for k in v1_fields} == {k: v1[k] for k in v1_fields}
    assert s.palette is None and s.keys is None
    assert s.save() is None
    upgraded = json.loads(path.read_text())
    assert upgraded["schema_version"] == SETTINGS_SCHEMA_VERSION == 2
    assert {k: upgraded[k] for k in v1_fields} == {k: v1[k] for k in v1_fields}
    assert all(upgraded[k] is None for k in upgraded if k not in v1_fields
               and k != "schema_version")
