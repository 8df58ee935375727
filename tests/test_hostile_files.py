"""Issue 20, the player's files as hostile input: each case runs ``asteroids scores`` (or a
settings load) in a real process under a memory cap (RLIMIT_AS 512 MiB) and a time limit
(20 s), and must end in its documented exit code (0: shown, with one note line per problem;
2: unusable input, one paragraph) without a traceback, leaving the player's files as the
case says: a named pipe, device or folder is neither read nor replaced (nothing blocks), a
symbolic link stays a link, and nothing readable is lost.

The replay and config side of the hostile-input suite lives beside the replay tests."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from asteroids.profile import ScoreBook, ScoreEntry
from asteroids.profile.scores import MAX_FILE_BYTES, dump_scores

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: named pipes, rlimit")

ROOT = Path(__file__).resolve().parent.parent
MEMORY_CAP = 512 << 20
TIME_LIMIT_S = 20.0

ENTRY = ScoreEntry("ABC", 100, 2, "2026-01-02T03:04:05Z", 90.0, None)
EXPORT = dump_scores({"arena": [ENTRY]})


def _cap() -> None:  # pragma: no cover - runs in the child before exec
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float


def run(args: list[str], data: Path, stdin: bytes = b"") -> Outcome:
    """``python -m asteroids ARGS`` with ``data`` as the data folder, capped."""
    env = dict(os.environ, ASTEROIDS_DATA_DIR=str(data),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "asteroids", *args], input=stdin,
                          capture_output=True, env=env, timeout=TIME_LIMIT_S,
                          preexec_fn=_cap)
    return Outcome(done.returncode, done.stdout.decode(errors="replace"),
                   done.stderr.decode(errors="replace"), time.perf_counter() - started)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _device(tmp: Path) -> str:
    """A character device that a write may target without harm: as root (who could replace
    /dev/null, had the code a bug) a null device node of the test's own; otherwise
    /dev/null, which an unprivileged process cannot replace."""
    if os.geteuid() != 0:
        return os.devnull
    node = tmp / "null-device"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:  # root without CAP_MKNOD (some containers)
        pytest.skip("cannot make a device node here, and /dev/null is not to be risked")
    return str(node)


def _device_path(tmp: Path) -> str:
    return str(tmp / "null-device") if os.geteuid() == 0 else os.devnull


def _is_device(path: str | Path) -> bool:
    return stat.S_ISCHR(os.stat(path).st_mode)


def _saved_book(data: Path) -> None:
    book = ScoreBook.load(data / "scores.json")
    book.add("classic", ENTRY)
    assert book.save() is None


@dataclass
class Case:
    """One hostile setup: ``setup(data, tmp)`` makes the files and returns the arguments;
    ``check(data, tmp, outcome)`` says what must be left."""

    setup: Callable[[Path, Path], list[str]]
    code: int
    needle: str
    check: Callable[[Path, Path, Outcome], None] = lambda data, tmp, outcome: None
    stdin: bytes = b""


def _is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


CASES: dict[str, Case] = {
    # scores.json itself
    "scores.json is a named pipe": Case(
        lambda data, tmp: (_fifo(data / "scores.json"), ["scores"])[1], 0,
        "note: scores.json is a named pipe, not a regular file: not read, left as it is",
        lambda data, tmp, o: _assert(_is_fifo(data / "scores.json"))),
    "import into a named-pipe scores.json": Case(
        lambda data, tmp: (_fifo(data / "scores.json"), (tmp / "in.json").write_bytes(EXPORT),
                           ["scores", "--import", str(tmp / "in.json")])[2], 2,
        "high scores not saved: scores.json is a named pipe, not a regular file",
        lambda data, tmp, o: _assert(_is_fifo(data / "scores.json"))),
    "scores.json links to a device": Case(
        lambda data, tmp: ((data / "scores.json").symlink_to(_device(tmp)),
                           ["scores", "--clear", "--yes"])[1], 0,
        "scores.json: it is a symbolic link; links inside the data folder are not followed",
        lambda data, tmp, o: _assert((data / "scores.json").is_symlink()
                                     and _is_device(data / "scores.json")
                                     and "no high scores to clear" in o.out)),
    "scores.json is a folder": Case(
        lambda data, tmp: ((data / "scores.json").mkdir(), ["scores", "--json"])[1], 0,
        "scores.json is a folder, not a regular file",
        lambda data, tmp, o: _assert((data / "scores.json").is_dir()
                                     and json.loads(o.out)["tables"] == {})),
    "scores.json is 64 MiB": Case(
        lambda data, tmp: (os.truncate(_touch(data / "scores.json"), 64 << 20),
                           ["scores"])[1], 0,
        "scores.json: the file is too large (67108864 bytes; the limit is 1048576); not used, "
        "and left as it is",
        lambda data, tmp, o: _assert(sorted(p.name for p in data.iterdir()) == ["scores.json"]
                                     and (data / "scores.json").stat().st_size == 64 << 20)),
    "import beside a 64 MiB scores.json": Case(
        lambda data, tmp: (os.truncate(_touch(data / "scores.json"), 64 << 20),
                           (tmp / "in.json").write_bytes(EXPORT),
                           ["scores", "--import", str(tmp / "in.json")])[2], 0,
        "scores.json: the file is too large (67108864 bytes; the limit is 1048576); moved aside",
        lambda data, tmp, o: _assert(len(list(data.glob("scores.json.corrupt-*"))) == 1)),
    "scores.json nested 100 000 deep": Case(
        lambda data, tmp: ((data / "scores.json").write_bytes(b"[" * 100_000 + b"]" * 100_000),
                           ["scores"])[1], 0,
        "scores.json: not a scores file: nested too deeply; not used, and left as it is"),
    "a 5000-digit score": Case(
        lambda data, tmp: (_saved_book(data), (data / "scores.json").write_text(
            (data / "scores.json").read_text().replace('"score": 100', '"score": ' + "9" * 5000)),
            ["scores"])[2], 0,
        "scores.json: 1 bad entry left out (table 'classic' entry 1: score must be a whole "
        "number in [0, 2**63-1]; got <a 5000-digit number>)"),
    "scores.json links elsewhere": Case(
        lambda data, tmp: ((data / "scores.json").symlink_to(tmp / "mine.json"),
                           (tmp / "in.json").write_bytes(EXPORT),
                           ["scores", "--import", str(tmp / "in.json")])[2], 2,
        "scores.json is a symbolic link; links inside the data folder are not followed; "
        "nothing was imported",
        lambda data, tmp, o: _assert((data / "scores.json").is_symlink() and
                                     sorted(p.name for p in tmp.iterdir()) == ["data", "in.json"])),
    # --import
    "import a named pipe": Case(
        lambda data, tmp: ["scores", "--import", str(_fifo(tmp / "pipe"))], 2,
        "not read: it is a named pipe, not a regular file (to read from a pipe, give '-'"),
    "import a device": Case(lambda data, tmp: ["scores", "--import", "/dev/zero"], 2,
                            "not read: it is a device, not a regular file"),
    "import a folder": Case(lambda data, tmp: ["scores", "--import", str(tmp)], 2,
                            "not read: it is a folder, not a regular file"),
    "import from standard input": Case(
        lambda data, tmp: ["scores", "--import", "-"], 0, "",
        lambda data, tmp, o: _assert("imported 1 new entry of 1 from <stdin>" in o.out),
        stdin=EXPORT),
    "import too much from standard input": Case(
        lambda data, tmp: ["scores", "--import", "-"], 2,
        f"--import -: the file is too large (over {MAX_FILE_BYTES} bytes); nothing was "
        "imported", stdin=b" " * (MAX_FILE_BYTES + 1)),
    "import a 5000-digit schema_version": Case(
        lambda data, tmp: ((tmp / "in.json").write_text(
            '{"schema_version": ' + "7" * 5000 + ', "tables": {}}'),
            ["scores", "--import", str(tmp / "in.json")])[1], 2,
        "schema_version must be a whole number 1 or more; got <a 5000-digit number>."),
    # --export
    "export onto a named pipe": Case(
        lambda data, tmp: (_saved_book(data),
                           ["scores", "--export", str(_fifo(tmp / "pipe"))])[1], 2,
        "not written: it is a named pipe, not a regular file",
        lambda data, tmp, o: _assert(_is_fifo(tmp / "pipe"))),
    "export onto a device": Case(
        lambda data, tmp: (_saved_book(data), ["scores", "--export", _device(tmp)])[1], 2,
        "not written: it is a device, not a regular file",
        lambda data, tmp, o: _assert(_is_device(_device_path(tmp)))),
    "export onto a symbolic link": Case(
        lambda data, tmp: (_saved_book(data), (tmp / "link.json").symlink_to(tmp / "out.json"),
                           ["scores", "--export", str(tmp / "link.json")])[2], 0, "",
        lambda data, tmp, o: _assert((tmp / "link.json").is_symlink() and
                                     ScoreBook.load(tmp / "out.json").table("classic")
                                     == [ENTRY])),
}


def _touch(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def _assert(condition: bool) -> None:
    assert condition


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_player_file(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    data = tmp_path / "data"
    data.mkdir()
    args = case.setup(data, tmp_path)
    outcome = run(args, data, case.stdin)
    assert "Traceback" not in outcome.err, outcome.err
    assert outcome.code == case.code, (outcome.code, outcome.err)
    assert case.needle in outcome.err, outcome.err
    if case.code == 2:                                     # one paragraph (besides notes)
        assert len([line for line in outcome.err.splitlines()
                    if not line.startswith("asteroids: note: ")]) == 1
    assert all(line.startswith("asteroids: ") for line in outcome.err.splitlines())
    case.check(data, tmp_path, outcome)


SETTINGS_LOAD = r"""
from asteroids.profile import Settings
s = Settings.load()
s.muted = True
print(s.save())
print("\n".join(s.warnings))
"""


@pytest.mark.parametrize("kind", ["named pipe", "device"])
def test_a_special_settings_file_is_not_read_and_left_alone(tmp_path: Path, kind: str) -> None:
    # What `asteroids play` does first: with a named pipe it froze the window.
    path = tmp_path / "settings.json"
    if kind == "named pipe":
        os.mkfifo(path)
    else:
        path.symlink_to(_device(tmp_path))
    env = dict(os.environ, ASTEROIDS_DATA_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", SETTINGS_LOAD], capture_output=True, text=True,
                          env=env, timeout=TIME_LIMIT_S, preexec_fn=_cap)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    saved, warning = done.stdout.splitlines()
    kind_text = "a named pipe" if kind == "named pipe" else "a device"
    if kind == "named pipe":
        assert saved == (f"settings not saved: settings.json is {kind_text}, not a regular "
                         "file; it is left as it is")
        assert warning.startswith(f"settings.json is {kind_text}, not a regular file")
    else:  # a link to it: not followed out of the data folder
        assert saved == (f"settings not saved: {path} is a symbolic link; links inside the "
                         "data folder are not followed")
        assert warning.startswith(f"{path}: it is a symbolic link")
    assert _is_fifo(path) if kind == "named pipe" else path.is_symlink() and _is_device(path)
