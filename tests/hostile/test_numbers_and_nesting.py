"""Numbers too long to convert and values nested too deeply, wherever text is read.

Python refuses to turn more than 4 300 decimal digits into an int (``ValueError``), builds a
hexadecimal int of any size that then cannot be printed, overflows converting a 400-digit
int to a float, and runs out of stack on 2 000 nested arrays. Each case puts one of them in
a replay header, a replay's embedded settings or its recorded changes, a settings file or a
``--set``, and runs the command a player would: one paragraph, exit 2, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hostile.harness import EXIT_BAD_INPUT, GOLDEN, reseal, run_cli, with_line

HEX = "0x" + "f" * 4000
"""16 000 bits: tomllib builds it; printing it raises ValueError."""
DECIMAL = "9" * 5000
"""Over Python's 4 300-digit limit: tomllib raises ValueError (not TOMLDecodeError)."""
WIDE = "9" * 400
"""Converts to int, but not to float (OverflowError)."""
ARRAYS = "[" * 2000 + "]" * 2000
TABLES = "{a = " * 2000 + "1" + "}" * 2000
LONG = "numbers longer than 1000 characters are refused"
DEEP = "nested more than 32 deep"

ONE = (GOLDEN / "shield.replay").read_text()
TWO = (GOLDEN / "two-players.replay").read_text()
LIVE = (GOLDEN / "archive" / "0.1.0" / "live" / "window-live.replay").read_text()


def _change(text: str, old: str, new: str) -> bytes:
    assert text.count(old) >= 1, old
    return reseal(text.replace(old, new, 1))


@dataclass(frozen=True)
class Case:
    """One attack: the files to write, the command, what stderr must say."""

    id: str
    files: dict[str, Callable[[], bytes]]
    args: tuple[str, ...]
    says: str


def _replay(id: str, make: Callable[[], bytes], says: str) -> Case:
    return Case(id, {f"{id}.replay": make}, ("verify",), says)


def _toml(id: str, text: str, says: str) -> Case:
    return Case(id, {f"{id}.toml": lambda: text.encode()}, ("config", "check"), says)


def _override(id: str, setting: str, says: str) -> Case:
    return Case(id, {}, ("config", "show", "--set", setting), says)


FILE_CASES = [
    # Replay headers, decimal and hexadecimal.
    _replay("header-seed-hex", lambda: with_line(ONE, "seed", HEX), LONG),
    _replay("header-seed-decimal", lambda: with_line(ONE, "seed", DECIMAL), LONG),
    _replay("header-ticks-decimal", lambda: with_line(ONE, "ticks", DECIMAL), LONG),
    _replay("header-tick_hz-400-digits", lambda: with_line(ONE, "tick_hz", WIDE),
            "differs from the settings' world.tick_hz"),
    _replay("header-tick_hz-hex", lambda: with_line(ONE, "tick_hz", HEX), LONG),
    _replay("header-final_score-hex", lambda: with_line(ONE, "final_score", HEX), LONG),
    _replay("header-checkpoint_every-negative-hex",
            lambda: with_line(ONE, "checkpoint_every", "-" + HEX), LONG),
    _replay("header-seed-nested-arrays", lambda: with_line(ONE, "seed", ARRAYS), DEEP),
    _replay("header-seed-nested-tables", lambda: with_line(ONE, "seed", TABLES), DEEP),
    _replay("header-final_scores-hex",
            lambda: with_line(TWO, "final_scores", f"[{HEX}, 1]"), LONG),
    # The settings inside a replay, and its recorded changes.
    _replay("embedded-config-lives-hex", lambda: with_line(ONE, "lives", HEX), LONG),
    _replay("embedded-config-lives-decimal", lambda: with_line(ONE, "lives", DECIMAL), LONG),
    _replay("embedded-config-nested", lambda: with_line(ONE, "lives", ARRAYS), DEEP),
    _replay("change-tick-hex", lambda: _change(LIVE, "{tick = 197,", f"{{tick = {HEX},"),
            LONG),
    _replay("change-value-nested",
            lambda: _change(LIVE, "'ship.thrust_px_per_s2=420.0'",
                            "'ship.thrust_px_per_s2=" + "[" * 60 + "]" * 60 + "'"),
            DEEP),
    # Settings files.
    _toml("toml-lives-hex", f"[game]\nlives = {HEX}\n", ":2:9: error[too-large]"),
    _toml("toml-lives-decimal", f"[game]\nlives = {DECIMAL}\n", ":2:9: error[too-large]"),
    _toml("toml-float-5000-digits", f"[ship]\nthrust_px_per_s2 = 1.{'0' * 5000}\n",
          ":2:20: error[too-large]"),
    _toml("toml-nested-arrays", f"[game]\nlives = {ARRAYS}\n", ":2:41: error[too-large]"),
    _toml("toml-nested-tables", f"[game]\nlives = {TABLES}\n", ":2:169: error[too-large]"),
    _toml("toml-dotted-key-2000-parts", "game" + ".a" * 2000 + " = 1\n",
          ":1:1: error[too-large]: keys are nested"),
]
"""Files: each command's files are checked in one run (``verify`` and ``config check`` take
many, each on its own); each file must get its own paragraph."""

COMMAND_CASES = [
    Case("watch-header-seed-hex", {"x.replay": lambda: with_line(ONE, "seed", HEX)},
         ("watch", "x.replay"), LONG),
    Case("watch-embedded-config-nested", {"x.replay": lambda: with_line(ONE, "lives", ARRAYS)},
         ("watch", "x.replay"), DEEP),
    Case("play-config-lives-hex", {"x.toml": lambda: f"[game]\nlives = {HEX}\n".encode()},
         ("--config", "x.toml"), "x.toml:2:9: error[too-large]"),
    _override("set-decimal", f"game.lives={DECIMAL}", LONG),
    _override("set-hex", f"game.lives={HEX}", LONG),
    _override("set-nested-arrays", f"game.lives={ARRAYS}", DEEP),
    _override("set-nested-tables", f"game.lives={TABLES}", DEEP),
    _override("set-key-2000-parts", "game" + ".a" * 2000 + "=1", "more than 32 parts"),
    Case("record-set-hex", {}, ("record", "--bot", "aimer", "--seed", "1", "--ticks", "10",
                                "--out", "r.replay", "--set", f"game.lives={HEX}"), LONG),
]
"""Commands that take one input: one run each."""


@pytest.fixture(scope="module")
def file_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every file case's stderr paragraph(s), by case id, from one run per command."""
    folder = tmp_path_factory.mktemp("files")
    said: dict[str, str] = {}
    for command in {c.args for c in FILE_CASES}:
        cases = [c for c in FILE_CASES if c.args == command]
        names = []
        for case in cases:
            for name, make in case.files.items():
                (folder / name).write_bytes(make())
                names.append(name)
        out = run_cli(*command, *names, expect=EXIT_BAD_INPUT, cwd=folder)
        lines = out.stderr.splitlines()
        for case, name in zip(cases, names, strict=True):
            said[case.id] = "\n".join(line for line in lines
                                      if line.startswith((f"asteroids: {name}: ", f"{name}:")))
    return said


@pytest.mark.parametrize("case", FILE_CASES, ids=[c.id for c in FILE_CASES])
def test_a_file_past_the_bounds_is_one_paragraph_of_its_own(case: Case,
                                                            file_runs: dict[str, str]) -> None:
    paragraph = file_runs[case.id]
    assert case.says in paragraph and len(paragraph.splitlines()) == 1, paragraph


@pytest.mark.parametrize("case", COMMAND_CASES, ids=[c.id for c in COMMAND_CASES])
def test_a_number_or_nesting_past_the_bounds_is_one_paragraph_and_exit_2(
        case: Case, tmp_path: Path) -> None:
    for name, make in case.files.items():
        (tmp_path / name).write_bytes(make())
    out = run_cli(*case.args, expect=EXIT_BAD_INPUT, cwd=tmp_path)
    assert case.says in out.stderr, out.stderr
    assert not (tmp_path / "r.replay").exists()
