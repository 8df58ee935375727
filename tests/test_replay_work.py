"""The bound on a replay's total work (issue 34, item 3), in process: every kept replay is
within it, a forgery fails within ``MAX_HASH_GAP`` ticks, a game past ``--max-ticks`` is
refused before it is decoded, long work is measured and stated first, ``--time-limit``
stops ``verify`` and the replay viewer where they are, and header keys are quoted short.
The same against the real command line, capped: tests/hostile/test_forged_replay_work.py."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from asteroids import cli
from asteroids.messages import MAX_LINE
from asteroids.replay import load_replay, record_bot_game, verify_replay
from asteroids.replay import verify as verify_module
from asteroids.replay.format import (
    CHECKPOINT_EVERY,
    DEFAULT_MAX_TICKS,
    MAX_CHECKPOINT_EVERY,
    MAX_HASH_GAP,
    MAX_TICKS,
    ReplayError,
    decode_replay,
    encode_replay,
)
from asteroids.replay.record import get_bot
from asteroids.replay.work import CHECK_EVERY, Deadline, measure_rate, watch_notice, work_line
from tests.hostile.harness import reseal, with_line
from tests.hostile.test_forged_replay_work import forge

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "replays"
KEPT = sorted([*GOLDEN.rglob("*.replay"), *(ROOT / "asteroids" / "replay" / "demos").glob(
    "*.replay")])
"""The golden replays, every archived one of every release and the demos."""


def test_every_kept_replay_is_within_the_bounds() -> None:
    """No replay any version wrote needs --max-ticks, nor has sparse checkpoints."""
    assert len(KEPT) > 100
    for path in KEPT:
        head = path.read_text("utf-8")[:4000]
        every = int(re.search(r"^checkpoint_every = (\d+)$", head, re.M)[1])  # type: ignore[index]
        ticks = int(re.search(r"^ticks = (\d+)$", head, re.M)[1])  # type: ignore[index]
        assert every == CHECKPOINT_EVERY <= MAX_HASH_GAP, path
        assert ticks <= DEFAULT_MAX_TICKS, path


# --------------------------------------------------------------------------- forgeries


def test_a_forgery_with_sparse_checkpoints_fails_at_its_first_made_up_tick() -> None:
    replay = decode_replay(forge(GOLDEN / "default.replay", 200_000, MAX_CHECKPOINT_EVERY),
                           "f.replay")
    began = time.perf_counter()
    result = verify_replay(replay)
    assert time.perf_counter() - began < 1.0
    assert not result.ok and not result.stopped and result.first_bad_tick is not None
    assert result.first_bad_tick <= 3  # a made-up byte agrees 1 time in 256
    assert "so every tick's hash byte is compared" in result.problem


def test_a_forgery_fails_at_its_first_wrong_checkpoint_as_soon_as_it_is_reached() -> None:
    replay = decode_replay(forge(GOLDEN / "default.replay", 200_000), "f.replay")
    seen: list[int] = []
    result = verify_replay(replay, on_state=lambda state, events: seen.append(0))
    assert result.first_bad_checkpoint == CHECKPOINT_EVERY and len(seen) == CHECKPOINT_EVERY


def test_sparse_checkpoints_of_a_real_game_verify_and_every_tick_byte_counts() -> None:
    """A file with one checkpoint (the library's ``Recorder(every=...)``) verifies tick by
    tick; there an edited tick hash byte is a mismatch at that tick, where checkpoints
    every 600 ticks never read it."""
    game = record_bot_game(load_replay(GOLDEN / "default.replay").config, 3,
                           get_bot("classic"), 1500, every=MAX_CHECKPOINT_EVERY)
    assert game.checkpoint_every > MAX_HASH_GAP and verify_replay(game).ok
    edited = bytearray(game.tick_hashes)
    edited[999] ^= 0x5A
    result = verify_replay(dataclasses.replace(game, tick_hashes=bytes(edited)))
    assert not result.ok and result.first_bad_tick == 1000
    dense = load_replay(GOLDEN / "default.replay")
    edited = bytearray(dense.tick_hashes)
    edited[999] ^= 0x5A
    assert verify_replay(dataclasses.replace(dense, tick_hashes=bytes(edited))).ok


# --------------------------------------------------------------------------- length


def test_max_ticks_accepts_the_bound_and_refuses_one_past_it() -> None:
    data = (GOLDEN / "extra-life.replay").read_bytes()
    assert decode_replay(data, "x.replay", max_ticks=700).ticks == 700
    with pytest.raises(ReplayError) as caught:
        decode_replay(data, "x.replay", max_ticks=699)
    assert str(caught.value) == (
        "x.replay: the game is 700 ticks long (0:00:11 of play at 60 Hz), longer than the "
        "699 ticks that verify and watch replay (a bound on their work); if it is a real "
        "game, allow it with --max-ticks 700.")


def test_the_default_bound_is_said_and_checked_before_the_inputs() -> None:
    text = (GOLDEN / "default.replay").read_text("utf-8")
    data = with_line(text, "ticks", str(DEFAULT_MAX_TICKS + 1))  # the inputs hold 2 500
    with pytest.raises(ReplayError, match="replay by default .* --max-ticks 1000001"):
        decode_replay(data, "x.replay", max_ticks=DEFAULT_MAX_TICKS)
    with pytest.raises(ReplayError, match="the inputs describe 2500 ticks"):
        decode_replay(data, "x.replay")  # the library reads up to the format's MAX_TICKS


# --------------------------------------------------------------------------- stating it


def test_work_line() -> None:
    assert work_line("verifying", 999_999, 12_345.0) == \
        "verifying 999 999 ticks, about 81 s at ~12 000 ticks/s"
    assert work_line("verifying", 999_999, 650.0) == \
        "verifying 999 999 ticks, about 26 min at ~650 ticks/s"


def _slowed(seconds: float) -> Any:
    """An ``on_state`` that makes each tick take at least ``seconds``."""
    return lambda state, events: time.sleep(seconds)


def test_a_long_verification_states_its_rate_once_a_short_one_never() -> None:
    replay = load_replay(GOLDEN / "default.replay")
    rates: list[float] = []
    result = verify_replay(replay, on_state=_slowed(0.002), on_rate=rates.append,
                           deadline=Deadline.after(0.5))
    assert result.stopped and len(rates) == 1 and 50 < rates[0] < 500
    assert verify_replay(replay, on_rate=rates.append).ok and len(rates) == 1


def test_verify_states_the_work_on_stderr_first(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(verify_module, "NOTICE_S", 0.0)
    monkeypatch.setattr(verify_module, "CALIBRATE_S", 0.0)
    assert cli.main(["verify", "--jobs", "1", str(GOLDEN / "default.replay")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and re.fullmatch(
        r"asteroids: .*default\.replay: verifying 2 500 ticks, about \d+ s at ~[0-9 ]+ "
        r"ticks/s \(--time-limit S stops it sooner\)", err[0]), err


def test_watch_notice_measures_before_the_window() -> None:
    replay = load_replay(GOLDEN / "default.replay")
    assert measure_rate(replay) > 1000
    assert watch_notice(replay) == ""  # seconds of work at most: nothing to say
    long = dataclasses.replace(replay, masks=bytes(400_000), tick_hashes=bytes(400_000))
    assert re.fullmatch(r"1:51:06 of play at 60 Hz; a seek to its end re-simulates 400 000 "
                        r"ticks, about \d+ s at ~[0-9 ]+ ticks/s; the window closes at the "
                        r"time limit, 9 s", watch_notice(long, Deadline.after(9)))


# --------------------------------------------------------------------------- time limit


def test_the_deadline_stops_verification_where_it_is() -> None:
    replay = load_replay(GOLDEN / "default.replay")
    began = time.perf_counter()
    result = verify_replay(replay, on_state=_slowed(0.001), deadline=Deadline.after(0.3))
    assert time.perf_counter() - began < 1.0
    assert result.stopped and not result.ok and 0 < result.stopped_at < replay.ticks
    assert result.stopped_at % CHECK_EVERY == 0
    assert f"at tick {result.stopped_at:,} of 2 500".replace(",", " ") in result.problem
    assert "--time-limit 0.3 s" in result.problem
    gone = verify_replay(replay, deadline=Deadline(at=time.time() - 1, limit_s=1.0))
    assert gone.stopped_at == 0 and "before it started" in gone.problem


def test_verify_time_limit_is_exit_2_and_a_stopped_line(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    golden = str(GOLDEN / "idle.replay")
    assert cli.main(["verify", "--time-limit", "1e-9", golden]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{golden}: stopped: not verified within the time limit",
                                "1 file: 0 ok, 0 mismatch, 0 unusable, 1 stopped"]
    assert "stopped at the time limit (--time-limit 1e-09 s) before it started" in err
    assert cli.main(["verify", "--json", "--time-limit", "1e-9", golden, golden]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["total"] == {"ok": 0, "mismatch": 0, "bad-input": 0, "stopped": 2}
    assert [f["status"] for f in doc["files"]] == ["stopped", "stopped"]
    assert cli.main(["verify", "--time-limit", "600", golden]) == 0


@pytest.mark.parametrize("command", ["verify", "watch"])
@pytest.mark.parametrize("option, value", [
    ("--time-limit", "0"), ("--time-limit", "-1"), ("--time-limit", "nan"),
    ("--time-limit", "inf"), ("--time-limit", "soon"), ("--max-ticks", "-1"),
    ("--max-ticks", str(MAX_TICKS + 1)), ("--max-ticks", "1e6"), ("--max-ticks", "9" * 5000)])
def test_a_bad_limit_is_refused_in_one_short_line(command: str, option: str, value: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command, option, value, str(GOLDEN / "idle.replay")]) == 2
    err = capsys.readouterr().err
    assert f"error: argument {option}: expected " in err
    assert all(len(line) <= MAX_LINE for line in err.splitlines())


def test_watch_refuses_past_the_bound_and_stops_before_the_window(
        capsys: pytest.CaptureFixture[str]) -> None:
    golden = str(GOLDEN / "default.replay")
    assert cli.main(["watch", "--max-ticks", "2499", golden]) == 2
    assert "allow it with --max-ticks 2500." in capsys.readouterr().err
    assert cli.main(["watch", "--time-limit", "1e-9", golden]) == 2
    assert capsys.readouterr().err == (f"asteroids: watch: {golden}: stopped at the time "
                                       "limit (--time-limit 1e-09 s) before the window "
                                       "opened\n")


VIEWER_SCRIPT = """
import json, sys, time
from asteroids.app.window import GameWindow
from asteroids.core import new_world, state_hash, step
from asteroids.replay import load_replay
from asteroids.replay.work import Deadline
replay = load_replay(sys.argv[1])
try:
    w = GameWindow(replay.config, replay=replay)
except Exception as exc:
    print(json.dumps({"skip": f"{type(exc).__name__}: {exc}"}))
    sys.exit(0)
v = w.current_view
v.deadline = Deadline.after(600)
v.seek(1234)
world = new_world(replay.config, replay.seed)
for mask in replay.masks[:1234]:
    world, _ = step(world, mask, replay.config)
same = state_hash(v.world) == state_hash(world)
v.deadline = Deadline(at=time.time() - 1, limit_s=0.5)
v.seek(replay.ticks)
print(json.dumps({"same": same, "stopped_at": v.deadline.stopped_at, "tick": v.tick,
                  "closed": w.closed}))
"""


def test_the_viewer_stops_a_seek_at_its_deadline_and_closes(tmp_path: Path) -> None:
    """``watch --time-limit``: a seek with time left lands where it would without a
    deadline; past it, a seek to the end stops after one step of ``keep_every`` ticks and
    the window closes (a real headless window: skipped without OpenGL)."""
    import os

    env = {**os.environ, "ARCADE_HEADLESS": "1", "ARCADE_SOUND_BACKENDS": "silent",
           "ASTEROIDS_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", VIEWER_SCRIPT, str(GOLDEN / "default.replay")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.splitlines()[-1])
    if "skip" in said:
        pytest.skip(f"no OpenGL context: {said['skip']}")
    assert said == {"same": True, "stopped_at": 1234 + CHECKPOINT_EVERY,
                    "tick": 1234 + CHECKPOINT_EVERY, "closed": True}


# --------------------------------------------------------------------------- messages


def _with_header_lines(extra: str) -> bytes:
    text = (GOLDEN / "default.replay").read_text("utf-8")
    at = text.index("\nformat = ") + 1
    return reseal(text[:at] + extra + text[at:])


@pytest.mark.parametrize("extra, says", [
    ("k" * 200_000 + " = 1\n",
     "unknown keys: 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' (200 000 "
     "characters)."),
    ("".join(f"unknown_{i:05d} = 1\n" for i in range(20_000)),
     "unknown keys: unknown_00000, unknown_00001, unknown_00002 and 19 997 more."),
    ('"a\\nb" = 1\nplain = 2\n', "unknown keys: 'a\\nb', plain."),
    ("players_ = 1\n", "unknown keys: players_."),
])
def test_unknown_header_keys_are_quoted_short_and_counted(extra: str, says: str) -> None:
    with pytest.raises(ReplayError) as caught:
        decode_replay(_with_header_lines(extra), "x.replay")
    text = str(caught.value)
    assert text == f"x.replay: the header has {says}" and len(text) <= MAX_LINE


def test_a_mismatch_names_a_few_fields_and_counts_the_rest() -> None:
    replay = decode_replay(forge(GOLDEN / "arena.replay", 1200), "f.replay")
    result = verify_replay(replay)
    assert result.first_bad_checkpoint == 600 and len(result.fields) > 12
    assert result.problem.endswith(f" and {len(result.fields) - 12} more")
    assert len(result.problem) < 500


def test_a_recorded_replay_round_trips_with_the_new_bounds(tmp_path: Path) -> None:
    game = record_bot_game(load_replay(GOLDEN / "idle.replay").config, 1, get_bot("idle"), 700)
    assert decode_replay(encode_replay(game), "g.replay", max_ticks=700).same_game(game)
