"""Links in the data folder, through the real command line under the caps.

``scores.json`` or its lock as a link to a file outside the folder (a stand-in for
/etc/passwd), a dangling link and a link loop: the listing (``scores --json``) changes no
byte anywhere and names the link; ``scores --import`` refuses in one paragraph (exit 2) and
writes nothing outside. A link could otherwise send the game's write anywhere (issue 34).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asteroids.profile import ScoreEntry
from asteroids.profile.scores import dump_scores
from tests.hostile.harness import EXIT_BAD_INPUT, EXIT_OK, run_cli
from tests.test_data_folder import SECRET, snapshot

EXPORT = dump_scores({"classic": [ScoreEntry("ABC", 100, 2, "2026-01-02T03:04:05Z", 90.0,
                                             None)]})


@pytest.mark.parametrize("kind", ["outside", "dangling", "loop"])
@pytest.mark.parametrize("name", ["scores.json", ".scores.json.lock"])
def test_a_linked_scores_file_or_lock(tmp_path: Path, name: str, kind: str) -> None:
    data, outside = tmp_path / "data", tmp_path / "outside"
    data.mkdir()
    outside.mkdir()
    (outside / "passwd").write_bytes(SECRET)
    link = data / name
    target = {"outside": outside / "passwd", "dangling": outside / "gone" / "x.json",
              "loop": link}[kind]
    link.symlink_to(target)
    (tmp_path / "in.json").write_bytes(EXPORT)
    before = snapshot(tmp_path)
    listed = run_cli("scores", "--json", expect=EXIT_OK, cwd=tmp_path)
    assert snapshot(tmp_path) == before                   # listing writes nothing at all
    if name == "scores.json":
        assert f"{link}: it is a" in listed.stderr and "symbolic link" in listed.stderr
    imported = run_cli("scores", "--import", str(tmp_path / "in.json"), expect=EXIT_BAD_INPUT,
                       cwd=tmp_path)
    assert f"{link}" in imported.stderr and "symbolic link" in imported.stderr
    assert "nothing was imported" in imported.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["passwd"]
    assert (outside / "passwd").read_bytes() == SECRET
    assert os.readlink(link) == str(target)
