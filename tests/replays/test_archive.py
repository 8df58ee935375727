"""Every replay a released version wrote verifies with today's code, forever.

``tests/replays/archive/<version>/`` holds what each release wrote (bot games of every preset,
custom rules, two-player matches, games tuned with ``--live``, the goldens and demos it
shipped), frozen as written, with that version's own ``asteroids verify --json`` output in
``verified-by-<version>.json``. Each file must still read, re-simulate bit for bit, and end
where that version said it ended. A failure here is a defect in the change that caused it:
it is never fixed by re-recording (docs/replay-format.md, "Compatibility").
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from asteroids.config.compat import rules_fingerprint
from asteroids.config.declare import version_key
from asteroids.replay import load_replay, verify_replay

ARCHIVE = Path(__file__).parent / "archive"
VERSIONS = sorted((p.name for p in ARCHIVE.iterdir() if p.is_dir()), key=version_key)
FILES = sorted(p.relative_to(ARCHIVE) for p in ARCHIVE.rglob("*.replay"))
_ROOT = Path(__file__).resolve().parents[2]
VERIFIED_ELSEWHERE = {p.read_bytes() for p in [*(_ROOT / "tests" / "replays").glob("*.replay"),
                                               *(_ROOT / "asteroids" / "replay" / "demos")
                                               .glob("*.replay")]}
"""The golden replays and demos as they are now: an archived copy with the same bytes is
verified by their own tests (test_golden.py, test_demos.py), not twice."""


@cache
def _expected(version: str) -> dict[str, dict[str, object]]:
    """What that version's own ``verify --json`` said of each of its files."""
    doc = json.loads((ARCHIVE / version / f"verified-by-{version}.json").read_text("utf-8"))
    return {str(Path(f["file"])): f for f in doc["files"]}


def test_every_release_has_its_folder_and_record() -> None:
    assert VERSIONS[0] == "0.1.0"
    for version in VERSIONS:
        folder = ARCHIVE / version
        assert (folder / "README.md").is_file(), f"{folder} says how it was made"
        written = {str(p.relative_to(folder)) for p in folder.rglob("*.replay")}
        assert written, f"{folder} holds no replay"
        assert set(_expected(version)) == written, (
            f"verified-by-{version}.json must list exactly the replays of {folder}")


def test_the_archive_covers_every_kind_of_game() -> None:
    """The first release's folder holds every kind of file that version could write."""
    replays = [load_replay(ARCHIVE / f) for f in FILES if f.parts[0] == "0.1.0"]
    assert {r.format for r in replays} == {1, 2}
    assert any(r.players == 2 for r in replays)
    assert any(r.config_changes for r in replays)
    worlds = {(r.config.world.width_px, r.config.world.tick_hz) for r in replays}
    assert {(1280.0, 60.0), (1024.0, 62.5)} <= worlds  # default and classic
    assert any(r.config.obstacles for r in replays)  # arena


@pytest.mark.parametrize("name", [str(f) for f in FILES])
def test_archived_replay_verifies_as_its_version_said(name: str) -> None:
    version, inside = Path(name).parts[0], str(Path(*Path(name).parts[1:]))
    replay = load_replay(ARCHIVE / name)
    assert replay.game_version == version
    assert rules_fingerprint(replay.config, replay.players) == replay.rules
    said = _expected(version)[inside]
    assert said["status"] == "ok"
    if (ARCHIVE / name).read_bytes() in VERIFIED_ELSEWHERE:
        assert (replay.ticks, replay.final_hash) == (said["ticks"], said["final_hash"])
        return
    result = verify_replay(replay)
    assert result.ok, (
        f"{name}, written by asteroids {version}, plays differently now: {result.problem} "
        "This is a defect of the change that did it: keep the old behaviour reachable "
        "(a knob's before value, or the rules version; docs/replay-format.md). Never "
        "re-record an archived replay.")
    assert (result.ticks, result.final_score, result.final_wave, result.final_hash) == (
        said["ticks"], said["final_score"], said["final_wave"], said["final_hash"])


def test_todays_games_land_in_the_tables_0_1_0_made() -> None:
    """0.1.0 played these rules in a real window and keyed their tables: the same rules
    played today go into the same tables (a custom ruleset's key is its fingerprint). Since
    0.2.0 the defaults give the ship a grace (``ship.grace_s``, ``game.spawn_clearance_s``):
    a game with them is another ruleset, and with them at their ``before`` value (0) it is
    0.1.0's."""
    from asteroids.config import load_config
    from asteroids.profile.rulesets import ruleset_key

    tables = json.loads((ARCHIVE / "0.1.0" / "data" / "scores.json").read_text("utf-8"))
    assert set(tables["tables"]) == {"classic", "custom-0c8bdbe6"}
    assert ruleset_key(load_config("classic")) == "classic"
    as_then = ["game.lives=1", "ship.grace_s=0", "game.spawn_clearance_s=0"]
    assert ruleset_key(load_config(overrides=as_then)) == "custom-0c8bdbe6"
    assert ruleset_key(load_config(overrides=["game.lives=1"])) != "custom-0c8bdbe6"
    for entry in tables["tables"]["custom-0c8bdbe6"]:
        replay = load_replay(ARCHIVE / "0.1.0" / "data" / "replays" / entry["replay"])
        assert ruleset_key(replay.config) == "custom-0c8bdbe6"
