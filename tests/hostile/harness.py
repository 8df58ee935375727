"""The hostile-input suite's referee: the real command line, capped, judged by its exit code.

``run_cli`` starts ``python -m asteroids ARGS`` in a new session with its address space
capped (``RLIMIT_AS``, inherited by ``verify --jobs`` workers) and stdin empty unless given,
waits at most a time limit (then kills the whole process group, so a blocked ``open()`` or
runaway work fails the case instead of hanging the suite) and checks what a player would
see: the documented exit code, no traceback, and for exit 2 a message on stderr.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "replays"

MEMORY_CAP_MB = 768
"""Address-space cap of every CLI case (and of each of its worker processes)."""
TIME_LIMIT_S = 20
"""Wall-clock limit of every CLI case; a case that needs it has blocked or run away."""

EXIT_OK = 0
EXIT_MISMATCH = 1
"""``verify``: a replay plays differently from how it was recorded."""
EXIT_BAD_INPUT = 2
"""Unusable input: one paragraph on stderr saying what and where."""
DOCUMENTED_EXITS = (EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT)


@dataclass(frozen=True)
class Outcome:
    """What one run of the command line did."""

    code: int
    stdout: str
    stderr: str
    seconds: float


def capped(memory_mb: int) -> Callable[[], None]:
    """A ``preexec_fn`` that caps the child's address space at ``memory_mb`` MiB."""
    def limit() -> None:
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    return limit


MAX_LINE = 600
"""Longest line a message may have: a hostile value is shown shortened, never echoed whole."""


def run_cli(*args: str, expect: int, cwd: Path, stdin: bytes = b"",
            memory_mb: int = MEMORY_CAP_MB, time_limit_s: float = TIME_LIMIT_S) -> Outcome:
    """Run ``asteroids ARGS`` in ``cwd`` (also its data folder), capped; fail the test
    unless it exits ``expect`` cleanly.

    Clean means: within the time limit, exit code ``expect`` (one of ``DOCUMENTED_EXITS``),
    no ``Traceback`` on stdout or stderr, no stderr line over ``MAX_LINE`` characters, and,
    for exit 2, a message on stderr.
    """
    assert expect in DOCUMENTED_EXITS
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARCADE_HEADLESS="1",
               ARCADE_SOUND_BACKENDS="silent", OPENBLAS_NUM_THREADS="1",
               ASTEROIDS_DATA_DIR=str(cwd / "data"))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "asteroids", *args], cwd=cwd,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=capped(memory_mb))
    try:
        out, err = proc.communicate(stdin, timeout=time_limit_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"asteroids {_shown(args)} did not finish within {time_limit_s} s "
                    "(blocked, or work without a bound)")
    seconds = time.perf_counter() - start
    outcome = Outcome(proc.returncode, out.decode("utf-8", "replace"),
                      err.decode("utf-8", "replace"), seconds)
    where = f"asteroids {_shown(args)} (exit {outcome.code}):\n{outcome.stderr[-3000:]}"
    assert "Traceback" not in outcome.stderr and "Traceback" not in outcome.stdout, where
    assert outcome.code == expect, where
    assert all(len(line) <= MAX_LINE for line in outcome.stderr.splitlines()), where
    if expect == EXIT_BAD_INPUT:
        assert outcome.stderr.strip(), where
    return outcome


def _shown(args: tuple[str, ...]) -> str:
    text = " ".join(args)
    return text if len(text) <= 200 else text[:197] + "..."


def reseal(text: str) -> bytes:
    """A replay's text with its checksum line recomputed, as a forger would."""
    body = text[: text.rstrip("\n").rindex("\n") + 1]
    digest = hashlib.blake2b(body.encode("utf-8"), digest_size=16).hexdigest()
    return (body + f"checksum blake2b-128 {digest}\n").encode("utf-8")


def with_line(text: str, key: str, value: str) -> bytes:
    """The replay ``text`` with the first line ``key = ...`` set to ``key = value``,
    re-sealed (``key`` may be a header field or a setting inside the embedded config)."""
    pattern = re.compile(rf"^{re.escape(key)} = .*$", re.M)
    new, n = pattern.subn(lambda _: f"{key} = {value}", text, count=1)
    assert n == 1, key
    return reseal(new)
