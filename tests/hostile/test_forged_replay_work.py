"""Replays that ask for hours of work: forged long games, games past the length bound, and
time limits, against the real ``verify`` and ``watch`` (issue 34, item 3).

The attack: ``default.replay`` edited to ``ticks = 999999``, ``checkpoint_every = 1000000``,
one idle input run and made-up tick hashes, checksum resealed (1.36 MB), ran 63 s here (90 s
on the reference machine) before its MISMATCH; the same on an arena game with 157 bouncing
shots ran past 200 s. Now a forgery fails within ``MAX_HASH_GAP`` ticks (every tick's hash
byte is compared when checkpoints are sparser), a game longer than ``DEFAULT_MAX_TICKS`` is
refused unless ``--max-ticks`` allows it, long work is stated first, and ``--time-limit S``
stops it. Each case runs under the suite's caps (20 s, 768 MiB): exit 0, 1 or 2 (``watch``
without a display: its own exit 3), no traceback, no stderr line over 600 characters.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from asteroids.config import load_config_text, render_toml
from asteroids.core.inputs import InputFrame
from asteroids.core.params import params_for
from asteroids.core.play import play_for
from asteroids.replay.format import (
    CHECKPOINT_EVERY,
    DEFAULT_MAX_TICKS,
    MAX_CHECKPOINT_EVERY,
    decode_replay,
    encode_replay,
    rules_fingerprint,
)
from tests.hostile.harness import (
    EXIT_BAD_INPUT,
    EXIT_MISMATCH,
    EXIT_OK,
    GOLDEN,
    MAX_LINE,
    MEMORY_CAP_MB,
    ROOT,
    TIME_LIMIT_S,
    Outcome,
    capped,
    reseal,
    run_cli,
)

EXIT_NO_DISPLAY = 3
"""``watch`` under ``ARCADE_HEADLESS``: the window cannot open (``asteroids.app.main``)."""
FORGED_TICKS = 999_999
ARENA_157 = ("shots.max_alive=157", "shots.autofire=true", "shots.autofire_interval_s=0.001",
             "shots.lifetime_s=30", "game.lives=99")
"""The arena with the most ship shots its budget allows, each flying 30 s and bouncing: held
fire keeps 157 of them alive (the slowest accepted game of the issue)."""


def forge(src: Path, ticks: int, every: int = CHECKPOINT_EVERY, *, mask: int = 0,
          overrides: Sequence[str] = (), honest: bool = False) -> bytes:
    """A replay of ``ticks`` ticks of ``mask`` on ``src``'s settings (with ``overrides``) and
    seed, as a forger writes it: a true checkpoint at tick 0, made-up tick hash bytes, and
    made-up later checkpoints, unless ``honest`` (then every checkpoint and the end are
    simulated, and only the tick hash bytes, which dense checkpoints never read, are
    made up: the file verifies)."""
    replay = decode_replay(src.read_bytes(), src.name)
    config = replay.config
    if overrides:
        config = load_config_text(render_toml(config, with_comments=False),
                                  overrides=list(overrides), recorded=True)
    play = play_for(replay.players)
    hasher = play.hasher()
    rules = params_for(config)  # compiled once, passed every tick
    state = play.start(rules, replay.seed)
    checkpoints = [(0, hasher(state))]
    digests = [play.field_digests(state)]
    final, score, wave = "0" * 32, replay.final_score, replay.final_wave
    if honest:
        for t in range(1, ticks + 1):
            state, _ = play.step(state, mask, rules)
            if t % every == 0:
                checkpoints.append((t, hasher(state)))
                digests.append(play.field_digests(state))
        final = hasher(state)
        score, wave = max(play.scores(state)), max(play.waves(state))
    else:
        checkpoints += [(t, "0" * 32) for t in range(every, ticks + 1, every)]
        digests += [digests[0]] * (len(checkpoints) - 1)
    forged = dataclasses.replace(
        replay, config=config, masks=bytes([mask]) * ticks, checkpoints=tuple(checkpoints),
        checkpoint_digests=tuple(digests), checkpoint_every=every,
        tick_hashes=random.Random(ticks).randbytes(ticks), final_hash=final,
        final_score=score, final_wave=wave, rules=rules_fingerprint(config, replay.players),
        tick_hz=config.world.tick_hz, config_changes=())
    return encode_replay(forged)


FORGERIES = {
    "sparse-default": lambda: forge(GOLDEN / "default.replay", FORGED_TICKS,
                                    MAX_CHECKPOINT_EVERY),
    "sparse-arena-157-shots": lambda: forge(GOLDEN / "arena.replay", FORGED_TICKS,
                                            MAX_CHECKPOINT_EVERY, mask=InputFrame.FIRE,
                                            overrides=ARENA_157),
    "dense-default": lambda: forge(GOLDEN / "default.replay", FORGED_TICKS),
    "dense-arena-157-shots": lambda: forge(GOLDEN / "arena.replay", FORGED_TICKS,
                                           mask=InputFrame.FIRE, overrides=ARENA_157),
}
"""The issue's forgeries (``sparse``: checkpoint_every = 1 000 000) and the same with
checkpoints every 600 ticks, all made up but the first."""
COMMANDS = {
    "verify": lambda name: (("verify", name), b""),
    "verify-jobs-2": lambda name: (("verify", "--jobs", "2", str(GOLDEN / "idle.replay"),
                                    name), b""),
    "verify-stdin": lambda name: (("verify", "-"), None),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("work")


@functools.cache
def _made(kind: str) -> bytes:
    return FORGERIES[kind]()


def _file(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    if not path.exists():
        path.write_bytes(data)
    return name


def run_watch(*args: str, cwd: Path, expect: int) -> Outcome:
    """``run_cli`` for ``watch`` of a file it can load: without a display it states the
    work, then exits ``EXIT_NO_DISPLAY`` (which ``run_cli`` does not take); same caps and
    checks."""
    if expect != EXIT_NO_DISPLAY:
        return run_cli("watch", *args, expect=expect, cwd=cwd)
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARCADE_HEADLESS="1",
               ARCADE_SOUND_BACKENDS="silent", OPENBLAS_NUM_THREADS="1",
               ASTEROIDS_DATA_DIR=str(cwd / "data"))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "asteroids", "watch", *args], cwd=cwd,
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=capped(MEMORY_CAP_MB))
    try:
        out, err = proc.communicate(timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"asteroids watch {' '.join(args)} did not finish within {TIME_LIMIT_S} s")
    outcome = Outcome(proc.returncode, out.decode("utf-8", "replace"),
                      err.decode("utf-8", "replace"), time.perf_counter() - start)
    where = f"asteroids watch {' '.join(args)} (exit {outcome.code}):\n{outcome.stderr}"
    assert outcome.code == EXIT_NO_DISPLAY and "ARCADE_HEADLESS" in outcome.stderr, where
    assert "Traceback" not in outcome.stderr + outcome.stdout, where
    assert all(len(line) <= MAX_LINE for line in outcome.stderr.splitlines()), where
    return outcome


# --------------------------------------------------------------------------- forgeries


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", FORGERIES)
def test_a_forged_long_game_fails_within_600_ticks(kind: str, command: str,
                                                   folder: Path) -> None:
    data = _made(kind)
    name = _file(folder, f"{kind}.replay", data)
    args, stdin = COMMANDS[command](name)
    out = run_cli(*args, expect=EXIT_MISMATCH, cwd=folder,
                  stdin=data if stdin is None else stdin)
    shown = "<stdin>" if stdin is None else name
    line = next(x for x in out.stdout.splitlines() if x.startswith(f"{shown}: "))
    if kind.startswith("sparse"):  # every tick's hash byte: the first made-up one fails
        assert "MISMATCH: the game first differs at tick " in line, line
        assert "so every tick's hash byte is compared" in line
    else:  # the first made-up checkpoint
        assert "MISMATCH: the checkpoint at tick 600 differs" in line, line
    assert all(len(x) <= MAX_LINE for x in out.stdout.splitlines())


@pytest.mark.parametrize("kind", FORGERIES)
def test_watch_states_what_a_forged_long_game_costs(kind: str, folder: Path) -> None:
    name = _file(folder, f"{kind}.replay", _made(kind))
    out = run_watch(name, cwd=folder, expect=EXIT_NO_DISPLAY)
    if "arena" in kind:  # hundreds of ticks a second: minutes to seek to the end
        assert (f"asteroids: {name}: 4:37:46 of play at 60 Hz; a seek to its end "
                "re-simulates 999 999 ticks, about ") in out.stderr, out.stderr


def test_verify_states_long_work_before_it(folder: Path) -> None:
    name = _file(folder, "dense-arena-157-shots.replay", _made("dense-arena-157-shots"))
    out = run_cli("verify", name, expect=EXIT_MISMATCH, cwd=folder)
    notice = out.stderr.splitlines()[0]
    assert notice.startswith(f"asteroids: {name}: verifying 999 999 ticks, about ")
    assert "ticks/s (--time-limit S stops it sooner)" in notice


# --------------------------------------------------------------------------- length


@pytest.fixture(scope="module")
def at_bound(folder: Path) -> tuple[str, str]:
    """Forgeries of exactly ``DEFAULT_MAX_TICKS`` ticks and of one more."""
    src = GOLDEN / "default.replay"
    return (_file(folder, "at-bound.replay", forge(src, DEFAULT_MAX_TICKS)),
            _file(folder, "past-bound.replay", forge(src, DEFAULT_MAX_TICKS + 1)))


def test_the_longest_game_is_read_and_one_tick_more_is_refused(at_bound: tuple[str, str],
                                                               folder: Path) -> None:
    at, past = at_bound
    out = run_cli("verify", at, past, expect=EXIT_BAD_INPUT, cwd=folder)
    assert f"{at}: MISMATCH: the checkpoint at tick 600 differs" in out.stdout
    assert (f"asteroids: {past}: the game is 1 000 001 ticks long (4:37:46 of play at 60 Hz), "
            "longer than the 1 000 000 ticks that verify and watch replay by default (a "
            "bound on their work); if it is a real game, allow it with --max-ticks "
            "1000001.") in out.stderr.splitlines()


def test_max_ticks_raises_the_bound_and_lowers_it(at_bound: tuple[str, str],
                                                  folder: Path) -> None:
    at, past = at_bound
    out = run_cli("verify", "--jobs", "2", "--max-ticks", "1000001", at, past,
                  expect=EXIT_MISMATCH, cwd=folder)
    assert out.stdout.count("MISMATCH: the checkpoint at tick 600 differs") == 2
    out = run_cli("verify", "--max-ticks", "999999", at, expect=EXIT_BAD_INPUT, cwd=folder)
    assert "longer than the 999 999 ticks that verify and watch replay (a" in out.stderr
    assert "allow it with --max-ticks 1000000." in out.stderr


def test_watch_refuses_a_game_past_the_bound(at_bound: tuple[str, str], folder: Path) -> None:
    at, past = at_bound
    out = run_watch(past, cwd=folder, expect=EXIT_BAD_INPUT)
    assert "allow it with --max-ticks 1000001." in out.stderr
    run_watch("--max-ticks", "1000001", past, cwd=folder, expect=EXIT_NO_DISPLAY)
    run_watch(at, cwd=folder, expect=EXIT_NO_DISPLAY)


def test_the_bound_is_read_before_the_inputs(folder: Path) -> None:
    """A header that says 17 280 000 ticks (the format's most) and holds a few is refused
    for its length, not decoded."""
    text = (GOLDEN / "default.replay").read_text("utf-8")
    name = _file(folder, "says-long.replay", reseal(text.replace(
        "\nticks = 2500\n", "\nticks = 17280000\n", 1)))
    out = run_cli("verify", "-", expect=EXIT_BAD_INPUT, cwd=folder,
                  stdin=(folder / name).read_bytes())
    assert "the game is 17 280 000 ticks long (80:00:00 of play at 60 Hz)" in out.stderr


# --------------------------------------------------------------------------- time limit


@pytest.fixture(scope="module")
def slow(folder: Path) -> str:
    """An honest replay of 40 000 idle ticks (it verifies, in about 1.5 s here)."""
    return _file(folder, "honest.replay", forge(GOLDEN / "default.replay", 40_000,
                                                honest=True))


def test_the_honest_long_game_verifies(slow: str, folder: Path) -> None:
    out = run_cli("verify", slow, expect=EXIT_OK, cwd=folder)
    assert f"{slow}: ok: 40000 ticks" in out.stdout


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_time_limit_stops_every_check_still_running(slow: str, folder: Path,
                                                    jobs: str) -> None:
    files = [slow] if jobs == "1" else [slow, slow, str(GOLDEN / "idle.replay")]
    out = run_cli("verify", "--jobs", jobs, "--time-limit", "0.3", *files,
                  expect=EXIT_BAD_INPUT, cwd=folder)
    stopped = f"{slow}: stopped: not verified within the time limit"
    assert out.stdout.count(stopped) == (2 if jobs == "2" else 1), out.stdout
    assert f"asteroids: {slow}: stopped at the time limit (--time-limit 0.3 s) " in out.stderr
    assert "not verified (a larger --time-limit lets it finish)" in out.stderr
    assert "stopped" in out.stdout.splitlines()[-1]
    assert out.seconds < 10


def test_time_limit_on_standard_input_and_as_json(slow: str, folder: Path) -> None:
    out = run_cli("verify", "--json", "--time-limit", "0.3", "-", expect=EXIT_BAD_INPUT,
                  cwd=folder, stdin=(folder / slow).read_bytes())
    assert '"status": "stopped"' in out.stdout and '"stopped": 1' in out.stdout


def test_watch_time_limit_stops_before_the_window(slow: str, folder: Path) -> None:
    out = run_watch("--time-limit", "0.001", slow, cwd=folder, expect=EXIT_BAD_INPUT)
    assert (f"asteroids: watch: {slow}: stopped at the time limit (--time-limit 0.001 s) "
            "before the window opened") in out.stderr


@pytest.mark.parametrize("command, option", [
    ("verify", ("--max-ticks", "9" * 5000)), ("verify", ("--time-limit", "1e999")),
    ("watch", ("--time-limit", "nan")), ("watch", ("--max-ticks", "-" + "9" * 5000))])
def test_a_bad_limit_is_one_line_and_exit_2(command: str, option: tuple[str, str],
                                            folder: Path) -> None:
    """(Every kind of bad value, in process: tests/test_replay_work.py.)"""
    out = run_cli(command, *option, str(GOLDEN / "idle.replay"), expect=EXIT_BAD_INPUT,
                  cwd=folder)
    assert f"error: argument {option[0]}: expected " in out.stderr


# --------------------------------------------------------------------------- messages


def _with_keys(extra: str) -> bytes:
    text = (GOLDEN / "default.replay").read_text("utf-8")
    at = text.index("\nformat = ") + 1
    return reseal(text[:at] + extra + text[at:])


UNKNOWN = {
    "key-200000-chars": lambda: _with_keys("k" * 200_000 + " = 1\n"),
    "keys-20000": lambda: _with_keys("".join(f"unknown_{i:05d} = 1\n" for i in range(20_000))),
    "key-quoted-lines": lambda: _with_keys('"' + "a\\n" * 5_000 + '" = 1\n'),
}


@pytest.mark.parametrize("command", ["verify", "watch"])
def test_unknown_header_keys_are_one_short_line(command: str, folder: Path) -> None:
    names = [_file(folder, f"{kind}.replay", make()) for kind, make in UNKNOWN.items()]
    if command == "watch":
        for name in names:
            out = run_cli("watch", name, expect=EXIT_BAD_INPUT, cwd=folder)
            assert len(out.stderr.splitlines()) == 1
        return
    out = run_cli("verify", *names, expect=EXIT_BAD_INPUT, cwd=folder)
    said = [x for x in out.stderr.splitlines() if "unknown keys" in x]
    assert len(said) == 3
    assert "'kkkkkkkkkk" in said[0] and "...' (200 000 characters)." in said[0]
    assert "unknown_00000, unknown_00001, unknown_00002 and 19 997 more." in said[1]
    assert "...' (10 000 characters)." in said[2]
