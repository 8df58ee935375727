"""The data folder is a boundary: no link inside it is followed, and listing writes nothing.

Every file the game keeps there (scores.json, settings.json, their locks, temporary and
quarantine files, the replays folder and its games) is tried as a link to a file outside
(a stand-in for /etc/passwd), a dangling link and a link loop; every writer (the game's
saves, ``scores --import`` and ``--clear``, the replay saver, pruning) must leave the outside
byte for byte as it was, create nothing there, and say which link it refused. Read-only
commands change no byte of the folder. With root and ``unshare``, the same is tried against
the real /etc/passwd inside a private mount namespace.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from asteroids.app.recording import ReplaySaver
from asteroids.datafolder import LinkRefused, make_folder, refuse_links
from asteroids.profile import ScoreBook, ScoreEntry, Settings
from asteroids.profile.replays import prune_replays
from asteroids.profile.scores import dump_scores
from asteroids.replay import load_replay

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "symlink"),
                                reason="POSIX symbolic links")

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = next((ROOT / "tests" / "replays").glob("*.replay"))
ENTRY = ScoreEntry("ABC", 100, 2, "2026-01-02T03:04:05Z", 90.0, None)
EXPORT = dump_scores({"classic": [ENTRY]})
SECRET = b"root:x:0:0:root:/root:/bin/bash\n"
"""What the stand-in for /etc/passwd holds."""


def snapshot(folder: Path) -> dict[str, object]:
    """Every name under ``folder`` (links as their text, not followed) with its bytes' hash."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_file():
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                out[rel] = "folder"
    return out


def _link(kind: str, at: Path, outside: Path) -> None:
    if kind == "outside":
        at.symlink_to(outside / "passwd")
    elif kind == "dangling":
        at.symlink_to(outside / "missing" / "nothing.json")
    else:  # a loop
        at.symlink_to(at)


KINDS = ["outside", "dangling", "loop"]


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(data folder, a folder outside it holding the passwd stand-in)."""
    data, outside = tmp_path / "data", tmp_path / "outside"
    data.mkdir()
    outside.mkdir()
    (outside / "passwd").write_bytes(SECRET)
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(data))
    return data, outside


def _outside_unchanged(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["passwd"]
    assert (outside / "passwd").read_bytes() == SECRET


# --- the player's JSON files, their locks and their side files --------------------------------

def _save_scores(data: Path) -> str | None:
    book = ScoreBook.load()
    book.add("classic", ENTRY)
    return book.save()


def _save_settings(data: Path) -> str | None:
    settings = Settings.load()
    settings.muted = True
    return settings.save()


SAVES: dict[str, Callable[[Path], str | None]] = {"scores.json": _save_scores,
                                                   "settings.json": _save_settings}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["scores.json", "settings.json"])
def test_a_link_as_the_file_is_refused_by_the_games_save(place: tuple[Path, Path], name: str,
                                                          kind: str) -> None:
    data, outside = place
    _link(kind, data / name, outside)
    problem = SAVES[name](data)
    assert problem is not None and f"{data / name} is a symbolic link" in problem
    _outside_unchanged(outside)
    assert (data / name).is_symlink()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["scores.json", "settings.json"])
def test_a_link_as_the_lock_is_refused_and_not_truncated(place: tuple[Path, Path], name: str,
                                                         kind: str) -> None:
    data, outside = place
    _link(kind, data / f".{name}.lock", outside)
    problem = SAVES[name](data)
    assert problem is not None and f".{name}.lock: it is a" in problem
    assert "symbolic link" in problem
    _outside_unchanged(outside)
    assert not (data / name).exists()


@pytest.mark.parametrize("name", ["scores.json", "settings.json"])
def test_a_damaged_file_is_moved_aside_past_a_link_holding_the_quarantine_name(
        place: tuple[Path, Path], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data, outside = place
    (data / name).write_bytes(b"{damaged")
    from datetime import UTC, datetime

    from asteroids import storage
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    (data / f"{name}.corrupt-{stamp}").symlink_to(outside / "passwd")
    monkeypatch.setattr(storage, "datetime", type("Frozen", (), {
        "now": staticmethod(lambda tz=None: datetime.strptime(stamp, "%Y%m%dT%H%M%SZ")
                            .replace(tzinfo=UTC))}))
    assert SAVES[name](data) is None
    _outside_unchanged(outside)
    assert (data / f"{name}.corrupt-{stamp}").is_symlink()
    assert (data / f"{name}.corrupt-{stamp}-2").read_bytes() == b"{damaged"


def test_a_link_at_the_temporary_name_is_never_written_through(place: tuple[Path, Path],
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    data, outside = place
    import tempfile

    made: list[str] = []
    real_mkstemp = tempfile.mkstemp

    def mkstemp(**kw: object) -> tuple[int, str]:
        # Plant a link at a name mkstemp might pick: O_EXCL makes it choose another.
        fd, path = real_mkstemp(**kw)  # type: ignore[arg-type]
        os.close(fd)
        os.unlink(path)
        os.symlink(outside / "passwd", path)
        made.append(path)
        return real_mkstemp(**kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    assert _save_scores(data) is None
    _outside_unchanged(outside)
    assert made and all(Path(p).is_symlink() for p in made)


@pytest.mark.parametrize("kind", KINDS)
def test_scores_import_refuses_a_linked_scores_file_and_writes_nowhere(
        place: tuple[Path, Path], kind: str) -> None:
    data, outside = place
    _link(kind, data / "scores.json", outside)
    (data.parent / "in.json").write_bytes(EXPORT)
    before = snapshot(data)
    done = _cli(data, "scores", "--import", str(data.parent / "in.json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{data / 'scores.json'} is a symbolic link" in done.stderr
    assert "nothing was imported" in done.stderr
    _outside_unchanged(outside)
    after = snapshot(data)
    assert {k: v for k, v in after.items() if k != ".scores.json.lock"} == before


# --- read-only commands change no byte --------------------------------------------------------

def _cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, ASTEROIDS_DATA_DIR=str(data),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "asteroids", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def test_listing_commands_change_no_byte_of_the_data_folder(place: tuple[Path, Path]) -> None:
    data, outside = place
    (data / "scores.json").write_bytes(b"\x89PNG damaged")         # would be moved aside
    (data / "settings.json").write_bytes(b"{broken")
    (data / ".scores.json.99999999.abc.tmp").write_bytes(b"stale")  # would be removed
    (data / "replays").mkdir()
    (data / "replays" / "link.replay").symlink_to(outside / "passwd")
    (data / "settings-link.json").symlink_to(outside / "missing")
    before = snapshot(data)
    for args in (["scores"], ["scores", "--json"], ["scores", "--ruleset", "classic"],
                 ["config", "show"], ["verify", str(GOLDEN)]):
        done = _cli(data, *args)
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert snapshot(data) == before
    _outside_unchanged(outside)
    reading = Settings.load(tidy=False)                           # what `watch` reads
    assert reading.warnings and snapshot(data) == before


def test_the_scores_listing_does_not_follow_a_link_as_a_replay(place: tuple[Path, Path]) -> None:
    data, outside = place
    (data / "replays").mkdir()
    (data / "replays" / "a.replay").symlink_to(GOLDEN)
    book = ScoreBook.load()
    book.add("classic", ScoreEntry("ABC", 100, 2, "2026-01-02T03:04:05Z", 90.0, "a.replay"))
    assert book.save() is None
    done = _cli(data, "scores")
    assert "a.replay (missing)" in done.stdout


# --- replays ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_a_linked_replays_folder_gets_no_replay_and_loses_nothing(place: tuple[Path, Path],
                                                                  kind: str) -> None:
    data, outside = place
    _link(kind, data / "replays", outside)
    result = ReplaySaver().save(load_replay(GOLDEN))
    assert not result.ok and "symbolic link" in (result.error or "")
    assert str(data / "replays") in (result.error or "")
    _outside_unchanged(outside)
    with pytest.raises(LinkRefused):
        prune_replays(data / "replays", 0, set(), root=data)
    _outside_unchanged(outside)


def test_a_replay_name_taken_by_a_link_is_skipped_and_a_link_is_never_pruned(
        place: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    data, outside = place
    from datetime import UTC, datetime

    from asteroids.app import recording
    when = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
    monkeypatch.setattr(recording, "datetime", type("Frozen", (), {
        "now": staticmethod(lambda tz=None: when)}))
    saver = ReplaySaver()
    replay = load_replay(GOLDEN)
    first = saver.target(replay)
    first.parent.mkdir()
    first.symlink_to(outside / "passwd")
    result = saver.save(replay)
    assert result.ok and result.path is not None and result.path.name != first.name
    _outside_unchanged(outside)
    assert prune_replays(data / "replays", 0, set(), root=data) == [result.path]
    assert first.is_symlink()
    _outside_unchanged(outside)


def test_a_link_below_the_folder_is_named_and_the_top_may_be_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real-data"
    real.mkdir()
    top = tmp_path / "data"
    top.symlink_to(real)                                  # the player's own choice: followed
    assert make_folder(top / "replays", top) == top / "replays"
    assert (real / "replays").is_dir()
    (real / "deep").symlink_to(tmp_path)
    with pytest.raises(LinkRefused) as caught:
        refuse_links(top / "deep" / "x" / "scores.json", top)
    assert caught.value.filename == str(top / "deep")
    assert "symbolic link" in caught.value.strerror


def test_a_dangling_data_folder_link_creates_nothing_where_it_points(
        place: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, outside = place
    top = tmp_path / "linked-data"
    top.symlink_to(outside / "usb-stick" / "asteroids")
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(top))
    assert "does not exist" in (_save_scores(top) or "")
    assert "does not exist" in (_save_settings(top) or "")
    assert not ReplaySaver().save(load_replay(GOLDEN)).ok
    _outside_unchanged(outside)


# --- the real /etc/passwd, in a private mount namespace ----------------------------------------

NAMESPACE = r"""
set -e
mount --bind "$STAND_IN" /etc/passwd
for f in scores.json settings.json .scores.json.lock; do ln -sf /etc/passwd "$DATA/$f"; done
python -m asteroids scores --import "$IMPORT" || true
python -m asteroids scores || true
python -c 'from asteroids.profile import Settings as S; s = S.load(); s.muted = 1; print(s.save())'
rm "$DATA/scores.json"
python -m asteroids scores --import "$IMPORT" || true
"""


@pytest.mark.skipif(os.name != "posix" or not hasattr(os, "geteuid") or os.geteuid() != 0
                    or shutil.which("unshare") is None, reason="needs root and unshare")
def test_links_to_the_real_etc_passwd_in_a_private_namespace(tmp_path: Path) -> None:
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no private mount namespace here")
    real_before = hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest()
    data = tmp_path / "data"
    data.mkdir()
    stand_in = tmp_path / "passwd"
    stand_in.write_bytes(SECRET)
    (tmp_path / "in.json").write_bytes(EXPORT)
    env = dict(os.environ, ASTEROIDS_DATA_DIR=str(data), STAND_IN=str(stand_in),
               DATA=str(data), IMPORT=str(tmp_path / "in.json"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", NAMESPACE],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "is a symbolic link" in done.stderr and "symbolic link" in done.stdout
    assert stand_in.read_bytes() == SECRET                 # what /etc/passwd was in there
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "in.json", "passwd"]
    assert hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest() == real_before
