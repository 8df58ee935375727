"""The replay format, Recorder, atomic save, bounded load and verification (pure core)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from asteroids import __version__
from asteroids.config import Config, load_config
from asteroids.config.rulesets import MATCH_TABLES
from asteroids.config.schema import RULES_VERSION
from asteroids.core import new_world, state_hash, step
from asteroids.core.params import params_for
from asteroids.core.world import FIELD_NAMES
from asteroids.paths import data_dir, replays_dir
from asteroids.replay import (
    CHECKPOINT_EVERY,
    MAX_REPLAY_BYTES,
    NON_RULE_TABLES,
    RULE_TABLES,
    Recorder,
    Replay,
    ReplayError,
    get_bot,
    load_replay,
    record_bot_game,
    rules_fingerprint,
    save_replay,
    verify_replay,
    world_diff,
)
from asteroids.replay.format import FORMAT_VERSION
from asteroids.replay.masks import decode_masks, encode_masks

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "config" / "classic.toml"


@pytest.fixture(scope="module")
def short() -> Replay:
    """A 1300-tick default bot game: three checkpoints and a final hash between them."""
    return record_bot_game(load_config(), 11, get_bot("classic"), 1300, every=500)


def test_round_trip_is_exact(short: Replay, tmp_path: Path) -> None:
    path = save_replay(short, tmp_path / "a.replay")
    assert load_replay(path) == short
    assert [t for t, _ in short.checkpoints] == [0, 500, 1000]
    assert verify_replay(short).ok


def test_header_is_readable_text(short: Replay, tmp_path: Path) -> None:
    text = save_replay(short, tmp_path / "a.replay").read_text("utf-8")
    assert text.startswith(f"asteroids-replay {FORMAT_VERSION}\n")
    for line in ("seed = 11", f"ticks = {short.ticks}", f'game_version = "{__version__}"',
                 f'final_hash = "{short.final_hash}"', f"rules_version = {RULES_VERSION}\n",
                 "[ship]", "thrust_px_per_s2 = "):
        assert line in text


def test_run_length_encoding_round_trips_and_refuses_extra_ticks() -> None:
    masks = bytes([0] * 5 + [8, 8, 9] + [63] * 300 + [1] + [0] * 70000)
    packed = encode_masks(masks)
    assert len(packed) <= 12  # 6 runs: 1 byte each, 2-3 more for a long run
    assert decode_masks(packed, len(masks)) == masks
    with pytest.raises(ValueError, match="more than"):
        decode_masks(packed, len(masks) - 1)


def test_ten_minute_classic_game_fits_in_tens_of_kilobytes(tmp_path: Path) -> None:
    """37 500 ticks of a living bot (99 ships, so the game lasts) at classic 62.5 Hz."""
    cfg = load_config(CLASSIC, overrides=["game.lives=99"])
    replay = record_bot_game(cfg, 1, get_bot("classic"), 37_500)
    assert replay.ticks == 37_500
    size = save_replay(replay, tmp_path / "long.replay").stat().st_size
    assert size < 80_000, size


test_ten_minute_classic_game_fits_in_tens_of_kilobytes = pytest.mark.slow(
    test_ten_minute_classic_game_fits_in_tens_of_kilobytes)


def test_rules_fingerprint_tables_are_complete_and_disjoint() -> None:
    tables = [f.name for f in dataclasses.fields(Config)]
    assert sorted(RULE_TABLES + MATCH_TABLES + NON_RULE_TABLES) == sorted(tables)
    assert len(set(RULE_TABLES + MATCH_TABLES + NON_RULE_TABLES)) == len(tables)


def test_rules_fingerprint_ignores_keys_and_display_but_not_rules() -> None:
    base = rules_fingerprint(load_config())
    for harmless in ("keys.fire=['J']", "audio.volume=0.1", "display.glow=false"):
        assert rules_fingerprint(load_config(overrides=[harmless])) == base, harmless
    for rule in ("ship.thrust_px_per_s2=301", "world.tick_hz=62.5", "borders.ship='bounce'",
                 "game.lives=4"):
        assert rules_fingerprint(load_config(overrides=[rule])) != base, rule
    assert rules_fingerprint(load_config(CLASSIC)) != base


def test_recorder_refuses_a_skipped_tick() -> None:
    cfg = load_config()
    rec = Recorder(cfg, 1)
    world = new_world(cfg, 1)
    world, _ = step(world, 0, cfg)
    world, _ = step(world, 0, cfg)
    with pytest.raises(ValueError, match="tick 1"):
        rec.add(0, world)
    with pytest.raises(ValueError):
        Recorder(cfg, 1).add(64, step(new_world(cfg, 1), 0, cfg)[0])


def test_verify_names_first_divergent_tick_and_fields(short: Replay) -> None:
    """Change the inputs from tick 700 on: the reference stream says where the game first
    differs, and verify must name that tick, the checkpoint after it and what differs."""
    masks = bytearray(short.masks)
    for i in range(699, 760):
        masks[i] = 0b011  # thrust + turn left
    changed = dataclasses.replace(short, masks=bytes(masks))
    p = params_for(short.config)  # compiled once, passed every tick
    a = b = new_world(p, short.seed)
    first = None
    for t in range(1, 1001):
        a, _ = step(a, short.masks[t - 1], p)
        b, _ = step(b, changed.masks[t - 1], p)
        if first is None and state_hash(a) != state_hash(b):
            first = t
            diff_at_first = world_diff(a, b)
    result = verify_replay(changed)
    assert not result.ok
    assert result.first_bad_checkpoint == 1000
    assert result.first_bad_tick == first
    assert result.expected_hash == dict(short.checkpoints)[1000]
    assert set(result.fields) == set(world_diff(a, b))
    assert diff_at_first and set(diff_at_first) <= set(FIELD_NAMES)
    assert f"first differs at tick {first}" in result.problem


def test_verify_catches_a_change_after_the_last_checkpoint(short: Replay) -> None:
    masks = bytearray(short.masks)
    masks[-5:] = bytes([0b001] * 5)
    result = verify_replay(dataclasses.replace(short, masks=bytes(masks)))
    assert not result.ok and result.first_bad_checkpoint == short.ticks
    assert "the final state differs" in result.problem


def test_verify_catches_a_wrong_final_score(short: Replay) -> None:
    result = verify_replay(dataclasses.replace(short, final_score=short.final_score + 10))
    assert not result.ok and "score" in result.problem


def test_world_diff_names_fields() -> None:
    cfg = load_config()
    a = new_world(cfg, 1)
    b, _ = step(a, 0b001, cfg)
    assert {"tick", "ship_vy", "thrusting"} <= set(world_diff(a, b))
    assert world_diff(a, a) == ()


def test_save_is_atomic_and_keeps_the_old_file_on_failure(short: Replay, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = save_replay(short, tmp_path / "keep.replay")
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    other = dataclasses.replace(short, seed=12)
    with pytest.raises(OSError, match="No space"):
        save_replay(other, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.replay"]
    with pytest.raises(OSError):
        save_replay(other, tmp_path / "new.replay")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.replay"]


def test_save_creates_the_folder_and_a_shareable_file(short: Replay, tmp_path: Path) -> None:
    path = save_replay(short, tmp_path / "deep" / "er" / "a.replay")
    assert path.is_file()
    if os.name == "posix":
        assert path.stat().st_mode & 0o044 == 0o044


def test_oversized_file_is_refused_before_reading(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "huge.replay"
    with open(path, "wb") as fh:
        fh.truncate(MAX_REPLAY_BYTES + 1)  # sparse: nothing to read
    reads = []
    real_open = open

    def spy_open(*args, **kwargs):  # type: ignore[no-untyped-def]
        fh = real_open(*args, **kwargs)
        real_read = fh.read
        fh.read = lambda n=-1: reads.append(n) or real_read(n)  # type: ignore[method-assign]
        return fh

    monkeypatch.setattr("builtins.open", spy_open)
    with pytest.raises(ReplayError, match="too large"):
        load_replay(path)
    assert reads == []


def test_checkpoint_default_interval() -> None:
    assert CHECKPOINT_EVERY == 600


def test_data_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(tmp_path / "d"))
    assert data_dir() == tmp_path / "d"
    assert replays_dir() == tmp_path / "d" / "replays"
    monkeypatch.delenv("ASTEROIDS_DATA_DIR")
    assert data_dir().name == "asteroids"


def test_replay_package_is_pure() -> None:
    """Verifying needs no window: importing the replay code never imports arcade."""
    import subprocess
    import sys

    code = ("import sys, asteroids.replay, asteroids.replay.rebless, asteroids.paths; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert out.stdout.strip() == "[]"
