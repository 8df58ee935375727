"""Replays of games whose rules changed while they ran (``asteroids play --live``): recorded
as change records at their ticks, verified bit for bit in a fresh process, refused when
tampered with."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from asteroids.config import Config, load_config
from asteroids.config.live import apply_changes
from asteroids.core import new_world, state_hash, step
from asteroids.core.params import params_for
from asteroids.replay import (
    FORMAT_VERSION,
    Recorder,
    Replay,
    ReplayError,
    get_bot,
    load_replay,
    record_bot_game,
    save_replay,
    verify_replay,
)
from asteroids.replay.format import (
    FORMAT_CHANGES,
    FORMAT_PLAIN,
    decode_replay,
    encode_replay,
)

ROOT = Path(__file__).resolve().parents[1]
CHANGE_TICKS = (250, 600)


def _configs() -> tuple[Config, Config, Config]:
    start = load_config("classic")
    first = apply_changes(start, ["ship.thrust_px_per_s2=420.0", "shots.speed_px_per_s=650.5"])
    second = apply_changes(first, ["ship.thrust_px_per_s2=123.456", "game.max_lives=5"])
    return start, first, second


def _play(ticks: int = 900, seed: int = 7) -> tuple[Replay, list[str]]:
    """An aimer game whose rules change at ``CHANGE_TICKS``; also each tick's state hash."""
    rules = [(c, params_for(c)) for c in _configs()]  # each compiled once
    bot = get_bot("aimer")
    recorder = Recorder(rules[0][0], seed, every=200)
    world = new_world(rules[0][1], seed)
    hashes = []
    for t in range(ticks):
        config, p = rules[0 if t < CHANGE_TICKS[0] else 1 if t < CHANGE_TICKS[1] else 2]
        mask = bot(world, p)
        world, _ = step(world, mask, p)
        recorder.add(mask, world, config)
        hashes.append(state_hash(world))
    return recorder.finish(world, created_at="2026-01-01T00:00:00Z"), hashes


@pytest.fixture(scope="module")
def played() -> tuple[Replay, list[str]]:
    return _play()


def _reseal(text: str) -> bytes:
    body = text[: text.rstrip("\n").rindex("\n") + 1]
    digest = hashlib.blake2b(body.encode(), digest_size=16).hexdigest()
    return (body + f"checksum blake2b-128 {digest}\n").encode()


def test_changes_are_recorded_at_their_ticks_as_set_overrides(played) -> None:  # type: ignore[no-untyped-def]
    replay, _ = played
    assert [c.tick for c in replay.config_changes] == list(CHANGE_TICKS)
    assert replay.config_changes[0].settings == ("ship.thrust_px_per_s2=420.0",
                                                 "shots.speed_px_per_s=650.5")
    assert replay.config_changes[1].settings == ("ship.thrust_px_per_s2=123.456",
                                                 "game.max_lives=5")
    text = encode_replay(replay).decode()
    assert text.startswith(f"asteroids-replay {FORMAT_VERSION}\n")
    assert ("    {tick = 250, set = ['ship.thrust_px_per_s2=420.0', "
            "'shots.speed_px_per_s=650.5']},") in text
    start, first, second = _configs()
    assert replay.config_at(0) is replay.config and replay.config == start
    assert replay.config_at(249) == start and replay.config_at(250) == first
    assert replay.config_at(599) == first and replay.config_at(600) == second
    assert replay.config_at(899) == second


def test_a_changed_game_loads_back_the_same_and_verifies_bit_for_bit(played) -> None:  # type: ignore[no-untyped-def]
    replay, _ = played
    back = decode_replay(encode_replay(replay), "x.replay")
    assert back.same_game(replay) and back.config_changes == replay.config_changes
    result = verify_replay(back)
    assert result.ok, result.problem
    assert result.final_hash == replay.final_hash


def test_the_game_differs_from_one_played_on_the_first_settings_throughout(played) -> None:  # type: ignore[no-untyped-def]
    replay, hashes = played
    plain = Replay(**{**replay.__dict__, "config_changes": ()})
    result = verify_replay(plain)
    assert not result.ok
    assert result.first_bad_tick is not None and result.first_bad_tick > CHANGE_TICKS[0]


def test_a_changed_game_verifies_in_a_fresh_process(played, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    replay, _ = played
    path = save_replay(replay, tmp_path / "live.replay")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "asteroids", "verify", "--jobs", "1",
                          str(path)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"final hash {replay.final_hash}" in out.stdout


def test_a_game_whose_rules_never_changed_records_no_changes() -> None:
    config = load_config("classic")
    plain = record_bot_game(config, 3, get_bot("spinner"), 300,
                            created_at="2026-01-01T00:00:00Z")
    recorder = Recorder(config, 3)
    world = new_world(config, 3)
    bot = get_bot("spinner")
    display = apply_changes(config, ["display.glow=false", "keys.fire=['SPACE', 'J']"])
    p_config, p_display = params_for(config), params_for(display)  # compiled once each
    for t in range(300):
        used = config if t < 100 else display  # only the player's tables change
        p = p_config if t < 100 else p_display
        mask = bot(world, p)
        world, _ = step(world, mask, p)
        recorder.add(mask, world, used)
    again = recorder.finish(world, created_at="2026-01-01T00:00:00Z")
    assert again.config_changes == () and again.format == FORMAT_VERSION
    assert encode_replay(again) == encode_replay(plain)
    assert encode_replay(plain).startswith(f"asteroids-replay {FORMAT_VERSION}\n".encode())
    assert b"config_changes" not in encode_replay(plain)


def test_the_recorder_refuses_a_change_that_needs_a_new_world() -> None:
    config = load_config()
    recorder = Recorder(config, 1)
    world, _ = step(new_world(config, 1), 0, config)
    wider = apply_changes(config, ["world.width_px=1600"])
    with pytest.raises(ValueError, match="world.width_px cannot change during a game"):
        recorder.add(0, world, wider)


def test_a_change_before_the_first_step_is_recorded_at_tick_0() -> None:
    config = load_config()
    faster = apply_changes(config, ["ship.thrust_px_per_s2=500"])
    recorder = Recorder(config, 1)
    world = new_world(config, 1)
    for _ in range(5):
        world, _ = step(world, 1, faster)
        recorder.add(1, world, faster)
    replay = recorder.finish(world)
    assert [c.tick for c in replay.config_changes] == [0]
    assert verify_replay(decode_replay(encode_replay(replay), "x")).ok


# --- tampering ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(played, tmp_path_factory) -> tuple[Path, str]:  # type: ignore[no-untyped-def]
    replay, _ = played
    path = save_replay(replay, tmp_path_factory.mktemp("live") / "live.replay")
    return path, path.read_text()


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "asteroids", "verify", "--jobs", "1",
                           str(path)], capture_output=True, text=True, env=env, timeout=120)


def test_an_edited_change_breaks_the_checksum(saved, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, text = saved
    path = tmp_path / "edited.replay"
    path.write_text(text.replace("thrust_px_per_s2=420.0", "thrust_px_per_s2=421.0"))
    out = _verify(path)
    assert out.returncode == 2
    assert "damaged or edited" in out.stderr and "Traceback" not in out.stderr


def test_an_edited_change_with_its_checksum_redone_is_a_mismatch(saved, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, text = saved
    path = tmp_path / "resealed.replay"
    path.write_bytes(_reseal(text.replace("shots.speed_px_per_s=650.5",
                                          "shots.speed_px_per_s=651.5")))
    out = _verify(path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "MISMATCH" in out.stdout and "Traceback" not in out.stderr


def test_a_change_moved_by_one_tick_is_caught_at_that_tick(saved, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, text = saved
    path = tmp_path / "moved.replay"
    path.write_bytes(_reseal(text.replace("{tick = 250,", "{tick = 251,")))
    replay = load_replay(path)
    result = verify_replay(replay)
    assert not result.ok
    assert result.first_bad_tick is not None and 251 <= result.first_bad_tick <= 253


@pytest.mark.parametrize(("old", "new", "expect"), [
    ("'ship.thrust_px_per_s2=420.0'", "'world.width_px=1600.0'",
     "world.width_px cannot change during a game"),
    ("'ship.thrust_px_per_s2=420.0'", "'display.glow=false'", "not a rule setting"),
    ("'ship.thrust_px_per_s2=420.0'", "'ship.thrust_px_per_s2=-4.0'",
     "ship.thrust_px_per_s2 must be a number in [0, 20000]"),
    ("'ship.thrust_px_per_s2=420.0'", "'ship.nosuch=1'", "not a setting"),
    ("'ship.thrust_px_per_s2=420.0'", "'shots.max_alive=3'", "cannot happen during a game"),
    ("'ship.thrust_px_per_s2=420.0'", "'ship.thrust_px_per_s2=246.09375'", "already had"),
    ("'ship.thrust_px_per_s2=420.0'", "'ship.thrust_px_per_s2'", "is not KEY=VALUE"),
    ("{tick = 600,", "{tick = 250,", "increasing tick order"),
    ("{tick = 600,", "{tick = 900,", "before the last step"),
    ("{tick = 250,", "{tick = true,", "increasing tick order"),
    ("{tick = 250, set", "{tick = 250, when = 1, set", "exactly 'tick' and 'set'"),
    ("set = ['ship.thrust_px_per_s2=420.0', 'shots.speed_px_per_s=650.5']", "set = []",
     "1 to 200"),
    ("config_changes = [", "config_changes = 1\nnot_used = [", "unknown keys"),
])
def test_a_damaged_change_record_is_one_paragraph_and_exit_2(
        saved, tmp_path: Path, old: str, new: str, expect: str) -> None:  # type: ignore[no-untyped-def]
    _, text = saved
    assert old in text
    path = tmp_path / "bad.replay"
    path.write_bytes(_reseal(text.replace(old, new, 1)))
    with pytest.raises(ReplayError) as info:
        load_replay(path)
    message = str(info.value)
    assert expect in message and "\n" not in message
    assert message.startswith(f"{path}: ")


def test_an_empty_change_list_and_a_plain_file_with_changes_are_refused(
        saved, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, text = saved
    start = text.index("config_changes = [")
    end = text.index("]\n", text.index("{tick = 600")) + 2
    empty = text[:start] + "config_changes = []\n" + text[end:]
    path = tmp_path / "empty.replay"
    path.write_bytes(_reseal(empty))
    with pytest.raises(ReplayError, match="1 to 10000 changes"):
        load_replay(path)
    newest = f"asteroids-replay {FORMAT_VERSION}"
    as_plain = text.replace(newest, f"asteroids-replay {FORMAT_PLAIN}", 1)
    as_plain = as_plain.replace(f"format = {FORMAT_VERSION}", f"format = {FORMAT_PLAIN}", 1)
    path.write_bytes(_reseal(as_plain))
    with pytest.raises(ReplayError, match="unknown keys: config_changes"):
        load_replay(path)
    # 0.1.0's format 2 existed only for its new keys: one without them is damaged.
    no_changes = text[:start] + text[end:]
    as_2 = no_changes.replace(newest, f"asteroids-replay {FORMAT_CHANGES}", 1)
    as_2 = as_2.replace(f"format = {FORMAT_VERSION}", f"format = {FORMAT_CHANGES}", 1)
    path.write_bytes(_reseal(as_2))
    with pytest.raises(ReplayError, match="lacks config_changes"):
        load_replay(path)


def test_the_recorder_says_when_one_more_change_would_not_fit(monkeypatch) -> None:
    from asteroids.replay import record
    from asteroids.replay.changes import MAX_TOTAL_SETTINGS

    config = load_config()
    recorder = Recorder(config, 1)
    assert recorder.has_room(MAX_TOTAL_SETTINGS) and not recorder.has_room(MAX_TOTAL_SETTINGS + 1)
    world, _ = step(new_world(config, 1), 0, config)
    recorder.add(0, world, apply_changes(config, ["ship.thrust_px_per_s2=420"]))
    monkeypatch.setattr(record, "MAX_CHANGES", 2)
    assert recorder.has_room(1)
    monkeypatch.setattr(record, "MAX_CHANGES", 1)
    assert not recorder.has_room(1)
