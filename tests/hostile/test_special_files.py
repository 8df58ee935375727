"""Named pipes, folders, devices and sockets where a file is expected; ``-`` where asked for.

``open()`` on a named pipe waits for a writer, for ever; ``/dev/zero`` never ends. The game
opens only regular files, checks without blocking, and says in one line what it found
instead (exit 2). A pipe is read only when the user passes ``-``: standard input.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from asteroids.replay import load_replay
from tests.hostile.harness import EXIT_BAD_INPUT, EXIT_OK, GOLDEN, run_cli

GOOD = GOLDEN / "idle.replay"
GOOD_TICKS = load_replay(GOOD).ticks
"""A short golden replay (1 576 ticks of the idle bot: quick to verify)."""


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _device(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo_link(path: Path) -> None:
    os.mkfifo(path.with_name("real-pipe"))
    path.symlink_to(path.with_name("real-pipe"))


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))  # the socket file stays after the process lets go of it
    sock.close()


KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (_fifo, "it is a named pipe, not a regular file"),
    "folder": (_folder, "folder"),
    "device": (_device, "it is a device, not a regular file"),
    "link-to-fifo": (_fifo_link, "it is a named pipe, not a regular file"),
    "socket": (_socket, "it is a socket, not a regular file"),
}

COMMANDS = {
    "verify-jobs-2": ("verify", "--jobs", "2", str(GOOD), "X", str(GOOD)),
    "watch": ("watch", "X"),
    "config-show": ("config", "show", "--config", "X"),
    "play": ("--config", "X"),
    "record": ("record", "--bot", "idle", "--seed", "1", "--ticks", "5", "--out", "r.replay",
               "--config", "X"),
    "balance": ("balance", "--config", "X", "--games", "1", "--ticks", "5"),
}
"""Commands given a named pipe (they share the readers tried on every kind below)."""


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], str]:
    """(command, kind) -> the stderr line about that file, from one ``verify`` and one
    ``config check`` run over one file of each kind (each file is checked on its own)."""
    folder = tmp_path_factory.mktemp("kinds")
    for kind, (make, _) in KINDS.items():
        make(folder / kind)
    said = {}
    for command in (("verify",), ("config", "check")):
        out = run_cli(*command, *KINDS, expect=EXIT_BAD_INPUT, cwd=folder)
        for kind in KINDS:
            [line] = [line for line in out.stderr.splitlines()
                      if line.startswith((f"asteroids: {kind}: ", f"{kind}: "))]
            said[command[0], kind] = line
    return said


@pytest.mark.parametrize("command", ["verify", "config"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_readers_refuse_anything_but_a_regular_file(
        command: str, kind: str, every_kind: dict[tuple[str, str], str]) -> None:
    assert KINDS[kind][1] in every_kind[command, kind]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_named_pipe_is_refused_at_once_by_every_command(command: str,
                                                          tmp_path: Path) -> None:
    _fifo(tmp_path / "X")
    out = run_cli(*COMMANDS[command], expect=EXIT_BAD_INPUT, cwd=tmp_path)
    assert KINDS["fifo"][1] in out.stderr
    if command == "verify-jobs-2":  # the good files around it are still checked
        assert out.stdout.count(f": ok: {GOOD_TICKS} ticks") == 2
        assert "3 files: 2 ok, 0 mismatch, 1 unusable" in out.stdout


def test_a_replay_on_standard_input_is_read_when_asked_with_a_dash(tmp_path: Path) -> None:
    data = GOOD.read_bytes()
    out = run_cli("verify", "--jobs", "2", "-", str(GOOD), "-", expect=EXIT_OK, cwd=tmp_path,
                  stdin=data)
    assert out.stdout.count(f"<stdin>: ok: {GOOD_TICKS} ticks") == 2
    assert "3 files: 3 ok" in out.stdout


def test_standard_input_over_the_replay_limit_is_refused(tmp_path: Path) -> None:
    out = run_cli("verify", "-", expect=EXIT_BAD_INPUT, cwd=tmp_path,
                  stdin=b"x" * (4 * 1024 * 1024 + 1))
    assert "<stdin>: the file is too large to be a replay (more than 4194304 bytes" in out.stderr


def test_settings_on_standard_input_are_read_and_checked_with_a_dash(tmp_path: Path) -> None:
    out = run_cli("config", "show", "--no-comments", "--config", "-", expect=EXIT_OK,
                  cwd=tmp_path, stdin=b"[game]\nlives = 7\n")
    assert "\n[game]\nlives = 7\n" in out.stdout
    out = run_cli("config", "check", "-", expect=EXIT_BAD_INPUT, cwd=tmp_path,
                  stdin=b"[game]\nlives = 700\n")
    assert out.stderr.startswith("<stdin>:2:1: error[range]: game.lives must be an integer")


@pytest.mark.parametrize(("size", "expect"), [(64 * 1024, EXIT_OK),
                                              (64 * 1024 + 1, EXIT_BAD_INPUT)])
def test_settings_on_standard_input_have_the_file_limit(size: int, expect: int,
                                                        tmp_path: Path) -> None:
    text = b"[game]\nlives = 7\n"
    out = run_cli("config", "check", "-", expect=expect, cwd=tmp_path,
                  stdin=text + b"#" * (size - len(text) - 1) + b"\n")
    assert ("error[too-large]" in out.stderr) == (expect == EXIT_BAD_INPUT)


def test_standard_input_cannot_be_watched_nor_give_two_things(tmp_path: Path) -> None:
    out = run_cli("--config", "-", "--live", expect=EXIT_BAD_INPUT, cwd=tmp_path)
    assert "standard input ('--config -') cannot be watched" in out.stderr
    out = run_cli("watch", "-", "--config", "-", expect=EXIT_BAD_INPUT, cwd=tmp_path)
    assert "can give the replay or the settings, not both" in out.stderr
