"""The commands the documentation shows are run, not only parsed.

``tests/test_docs.py`` parses every command in a code block with the program it names. Here
the cheap and safe ones are run: ``RUNS`` lists each by its page and its text (a comment
after ``#`` and repeated spaces left out), with the smaller variant actually run where the
page's would take minutes (fewer games, fewer ticks) and the exit code the page documents.
Each block's commands run in order, in a copy of the repository's tracked files in a
temporary folder, with ``ASTEROIDS_DATA_DIR`` and ``HOME`` there too, so a command that
writes (``config show > config/default.toml``, ``--out a.replay``, ``scores --import``) writes
into the copy. The quick test holds the list to the pages: every command of a block without a
``<!-- not run: REASON -->`` marker is in ``RUNS``, and every entry of ``RUNS`` is still on its
page. In a marked block the listed commands run too (``asteroids config presets`` beside the
lines that open a window); the marker's reason is for the rest.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_docs import ROOT, Block, command_blocks, commands


@dataclass(frozen=True)
class Run:
    """How one documented command is run."""

    variant: str | None = None
    """The command run instead of the page's, when the page's takes too long or names a
    placeholder (``...``); None: the page's own text."""
    rc: int = 0
    """The exit code the page documents."""
    files: tuple[tuple[str, str], ...] = ()
    """Files written into the copy before the command: (path, text)."""
    output: bool = False
    """Whether the block's output lines (a transcript's lines not starting ``$ ``) must be
    what the command prints."""
    needs: tuple[str, ...] = ()
    """Modules of an optional extra the command needs; without them it is skipped."""
    unchanged: str = ""
    """A glob of tracked files the command regenerates: after it they must be as committed."""


SMALL = "--games 2 --ticks 300"
"""The balance runs' variant: 2 games per side of 300 ticks instead of 20 or 200 of minutes."""
LAB = ("matplotlib", "scipy")

BROKEN_TOML = """[ship]
thrust_px_per_s2 = -5

[asteroids]
max_sped = 3

[borders]
ship = "wrapp"
"""
"""A file with the three mistakes docs/modders/configuration.md shows, on its lines."""

RUNS: dict[tuple[str, str], Run] = {
    ("docs/adding-a-rule.md", "python -m asteroids config show > config/default.toml"):
        Run(unchanged="config/default.toml"),
    ("docs/adding-a-rule.md", "cp config/*.toml asteroids/config/presets/"):
        Run(unchanged="asteroids/config/presets/*.toml"),
    ("docs/adding-a-rule.md", "python -m asteroids.config.reference docs/modders/reference"):
        Run(unchanged="docs/modders/reference/*.md"),
    ("docs/maintainers/replays.md", "asteroids record --bot aimer --seed 7 --ticks 3000 "
     "--config classic --out a.replay"): Run(),
    ("docs/maintainers/replays.md", "asteroids verify a.replay b.replay ..."):
        Run("asteroids verify a.replay"),
    ("docs/maintainers/replays.md", "asteroids verify --jobs 2 --json *.replay"): Run(),
    ("docs/modders/configuration.md", "asteroids config presets"): Run(),
    ("docs/modders/configuration.md", "asteroids config show --config classic > my.toml"): Run(),
    ("docs/modders/configuration.md", "asteroids config check my.toml"): Run(),
    ("docs/modders/configuration.md#broken", "asteroids config check my.toml"):
        Run(rc=2, files=(("my.toml", BROKEN_TOML),), output=True),
    ("docs/players/high-scores.md", "asteroids scores"): Run(),
    ("docs/players/high-scores.md", "asteroids scores --ruleset classic --json"): Run(),
    ("docs/players/high-scores.md", "asteroids scores --export mine.json"): Run(),
    ("docs/players/high-scores.md", "asteroids scores --import mine.json"): Run(),
    ("docs/players/high-scores.md", "asteroids scores --import - < mine.json"): Run(),
    ("docs/players/high-scores.md", "asteroids scores --clear [--ruleset NAME]"):
        Run("asteroids scores --clear --ruleset classic --yes"),
    ("docs/replay-format.md", "python -m asteroids.replay.rebless --check"): Run(),
    ("docs/modders/balance.md", "asteroids balance --config classic --sweep "
     "ship.thrust_px_per_s2=246.09375,420 --persona average --games 20 --ticks 11250 "
     "--json thrust.json --plot thrust.png"):
        Run("asteroids balance --config classic --sweep ship.thrust_px_per_s2=246.09375,420 "
            f"--persona average {SMALL} --json thrust.json --plot thrust.png", needs=LAB),
    ("docs/personas.md", "asteroids balance --config classic --persona "
     "novice,average,expert,perfect --games 20 --ticks 11250 --json personas.json "
     "--plot personas.png"):
        Run("asteroids balance --config classic --persona novice,average,expert,perfect "
            f"{SMALL} --json personas.json --plot personas.png", needs=LAB),
    ("docs/tuning.md", "asteroids balance --config classic --sweep "
     "ship.thrust_px_per_s2=246.09375,420 --bot aimer --games 20 --ticks 11250"):
        Run("asteroids balance --config classic --sweep ship.thrust_px_per_s2=246.09375,420 "
            f"--bot aimer {SMALL}"),
    ("docs/tuning.md", "asteroids balance --config my.toml --against classic --games 200 "
     "--json run.json --plot run.png"):
        Run(f"asteroids balance --config my.toml --against classic {SMALL} --json run.json "
            "--plot run.png", files=(("my.toml", "[game]\nlives = 5\n"),), needs=LAB),
    ("docs/tuning.md", "asteroids balance --config classic --set scoring.extra_life_every=0 "
     "--sweep game.lives=1,3"):
        Run("asteroids balance --config classic --set scoring.extra_life_every=0 "
            f"--sweep game.lives=1,3 {SMALL}"),
    ("docs/tuning.md", "asteroids balance --config classic --sweep "
     "ship.thrust_px_per_s2=246.09375,420 --bot aimer --games 20 --ticks 11250 "
     "--json thrust.json --plot thrust.png"):
        Run("asteroids balance --config classic --sweep ship.thrust_px_per_s2=246.09375,420 "
            f"--bot aimer {SMALL} --json thrust.json --plot thrust.png", needs=LAB),
    ("docs/researchers/benchmarks/games-per-second.md",
     "python -m benchmarks.batch_plot docs/img/batch-throughput.png"): Run(needs=LAB[:1]),
    ("docs/researchers/benchmarks/bots.md", "asteroids bench bots --bots aimer --presets "
     "classic --seeds 5 --minutes 0.5"): Run(),
    ("docs/researchers/benchmarks/collision.md", "asteroids bench collision --quick"): Run(),
    ("docs/researchers/benchmarks/step.md", "asteroids bench step --sizes 10 --ticks 3 "
     "--runs 1 --classic-ticks 200"): Run(),
    ("docs/researchers/benchmarks/verify.md", "asteroids bench verify --ticks 500 --files 2 "
     "--file-ticks 300"): Run(),
}
"""Every command a test runs: (page, the command as the page writes it) -> how. A page's
second block with the same command text is told apart by a ``#suffix`` on the page, matched
by ``BLOCK_KEYS``."""

BLOCK_KEYS = {("docs/modders/configuration.md", "$ asteroids config check my.toml"):
              "docs/modders/configuration.md#broken"}
"""Blocks whose commands are looked up under another key than their page: (page, the block's
first line) -> key."""

TIMEOUT_S = 60
LONGEST_FIRST = ("docs/replay-format.md", "docs/researchers/benchmarks/collision.md")
"""The blocks that take longest (about 15 s and 6-14 s), started first so that the two
workers end together."""


def normal(command: str) -> str:
    """A command line without its trailing comment and with single spaces."""
    return " ".join(re.sub(r"\s+#.*$", "", command).split())


def key(block: Block) -> str:
    page = block.path.relative_to(ROOT).as_posix()
    return BLOCK_KEYS.get((page, block.body[0].strip() if block.body else ""), page)


def test_every_unmarked_command_is_run_and_every_run_is_on_its_page() -> None:
    problems = []
    seen = set()
    for block in command_blocks():
        for line in commands(block):
            k = (key(block), normal(line))
            if k in RUNS:
                seen.add(k)
            elif not block.marked:
                problems.append(f"{block.where()}: {line!r} is not run by "
                                "tests/test_docs_commands.py: add it to RUNS (a small variant "
                                "if it is slow) or mark the block <!-- not run: REASON -->")
    stale = sorted(set(RUNS) - seen)
    assert not problems, "\n".join(problems)
    assert not stale, f"RUNS lists commands no page shows any more: {stale}"
    assert set(BLOCK_KEYS.values()) <= {k for k, _ in RUNS}


def _copy_of_the_repository(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _run_block(block: Block, base: Path, where: Path, env: dict[str, str]) -> list[str]:
    """Run the block's listed commands in order in a fresh copy; the problems found."""
    shutil.copytree(base, where, symlinks=True)
    env = {**env, "ASTEROIDS_DATA_DIR": str(where / ".data"), "HOME": str(where / ".home")}
    (where / ".home").mkdir()
    problems = []
    for line in commands(block):
        run = RUNS.get((key(block), normal(line)))
        if run is None:
            continue
        if any(importlib.util.find_spec(m) is None for m in run.needs):
            continue
        for name, text in run.files:
            (where / name).write_text(text, encoding="utf-8")
        command = run.variant or normal(line)
        start = time.perf_counter()
        try:
            proc = subprocess.run(["bash", "-c", command], cwd=where, env=env, text=True,
                                  capture_output=True, timeout=TIMEOUT_S,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            problems.append(f"{block.where()}: {command!r} ran over {TIMEOUT_S} s")
            continue
        took = time.perf_counter() - start
        print(f"{took:5.1f} s  rc {proc.returncode}  {block.where()}: {command}")
        if proc.returncode != run.rc:
            problems.append(f"{block.where()}: {command!r} exited {proc.returncode}, the page "
                            f"says {run.rc}:\n{(proc.stdout + proc.stderr)[-1500:]}")
        changed = [] if not run.unchanged else [
            name for f in sorted(where.glob(run.unchanged))
            if not (ROOT / (name := f.relative_to(where).as_posix())).is_file()
            or f.read_bytes() != (ROOT / name).read_bytes()]
        if changed:
            problems.append(f"{block.where()}: {command!r} changed {changed}: the committed "
                            "files are not what it writes")
        if run.output:
            want = [ln.rstrip() for ln in block.body if ln.strip() and
                    not ln.lstrip().startswith("$ ")]
            got = [ln.rstrip() for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
            if got != want:
                problems.append(f"{block.where()}: {command!r} prints\n" + "\n".join(got))
    return problems


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None or shutil.which("bash") is None,
                    reason="needs git (to copy the tracked files) and bash")
def test_the_documented_commands_run(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "asteroids").exists():
        pytest.skip("the asteroids command is not installed beside this python "
                    "(python -m pip install -e .)")
    base = tmp_path / "repo"
    _copy_of_the_repository(base)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTEST_CURRENT_TEST", None)
    runnable = sorted((b for b in command_blocks()
                       if any((key(b), normal(ln)) in RUNS for ln in commands(b))),
                      key=lambda b: key(b) not in LONGEST_FIRST)
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = pool.map(lambda ib: _run_block(ib[1], base, tmp_path / f"b{ib[0]}", env),
                         enumerate(runnable))
        problems = [p for block_problems in found for p in block_problems]
    assert not problems, "\n\n".join(problems)
