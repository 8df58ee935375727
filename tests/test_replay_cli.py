"""``asteroids record`` and ``asteroids verify`` as a player or CI uses them: exit codes,
one line per file, and a one-paragraph error (no traceback) for every kind of bad file."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from asteroids import __version__, cli
from asteroids.replay import FORMAT_VERSION, MAX_REPLAY_BYTES, load_replay, save_replay

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.replay"
    code = cli.main(["record", "--bot", "classic", "--seed", "5", "--ticks", "900",
                     "--config", str(ROOT / "config" / "classic.toml"), "--out", str(path)])
    assert code == 0
    return path


def _reseal(text: str) -> bytes:
    """Re-compute the checksum line, as someone editing the file on purpose would."""
    body = text[: text.rstrip("\n").rindex("\n") + 1]
    digest = hashlib.blake2b(body.encode(), digest_size=16).hexdigest()
    return (body + f"checksum blake2b-128 {digest}\n").encode()


def test_record_then_verify_ok(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    replay = load_replay(recorded)
    assert replay.ticks == 900 and replay.config.world.tick_hz == 62.5
    assert cli.main(["verify", str(recorded)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"{recorded}: ok: 900 ticks, score {replay.final_score}, wave "
                      f"{replay.final_wave}, final hash {replay.final_hash}")
    assert out[1] == "1 file: 1 ok, 0 mismatch, 0 unusable"


def test_record_stops_at_game_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "short.replay"
    assert cli.main(["record", "--bot", "classic-hyper", "--seed", "7", "--ticks", "5000",
                     "--out", str(out)]) == 0
    assert "(game over)" in capsys.readouterr().out
    assert load_replay(out).ticks == 920


def test_record_unknown_bot_lists_the_bots(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["record", "--bot", "nobody", "--seed", "1", "--ticks", "10",
                     "--out", str(tmp_path / "x.replay")]) == 2
    err = capsys.readouterr().err
    assert "no bot named 'nobody'" in err and "classic" in err
    assert not (tmp_path / "x.replay").exists()


def test_verify_mismatch_exits_1_and_names_the_tick(recorded: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    replay = load_replay(recorded)
    masks = bytearray(replay.masks)
    masks[300:340] = bytes([0b011] * 40)
    bad = save_replay(dataclasses.replace(replay, masks=bytes(masks)), tmp_path / "m.replay")
    capsys.readouterr()
    assert cli.main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: MISMATCH: the checkpoint at tick 600 differs" in out
    assert "first differs at tick" in out and "fields that differ" in out
    assert cli.main(["verify", "--json", str(recorded), str(bad)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [f["status"] for f in doc["files"]] == ["ok", "mismatch"]
    assert doc["files"][1]["first_bad_checkpoint"] == 600
    assert 300 < doc["files"][1]["first_bad_tick"] <= 600
    assert doc["total"] == {"ok": 1, "mismatch": 1, "bad-input": 0,
                            "stopped": 0} and doc["exit_code"] == 1


def _bad_files(recorded: Path, tmp: Path) -> dict[str, tuple[Path, str]]:
    data = recorded.read_bytes()
    text = data.decode()
    files = {}

    def make(name: str, content: bytes, expect: str) -> None:
        path = tmp / f"{name}.replay"
        path.write_bytes(content)
        files[name] = (path, expect)

    make("truncated", data[: len(data) // 2], "truncated")
    mid = len(data) // 2
    make("corrupted", data[:mid] + bytes([data[mid] ^ 0x01]) + data[mid + 1:],
         "damaged or edited")
    make("tampered-hash", _edit_hash(data), "damaged or edited")
    make("tampered-config", _reseal(text.replace("thrust_px_per_s2 = ", "thrust_px_per_s2 = 1",
                                                 1)), "rules fingerprint")
    current = f"asteroids-replay {FORMAT_VERSION}".encode()
    make("wrong-version", data.replace(current, b"asteroids-replay 0", 1),
         "format 0 is not supported")
    newer = f"asteroids-replay {FORMAT_VERSION + 1}".encode()
    make("newer-format", data.replace(current, newer, 1),
         "newer version of asteroids")
    make("not-a-replay", (ROOT / "config" / "classic.toml").read_bytes(),
         "not an asteroids replay")
    make("empty", b"", "empty")
    make("binary", bytes(range(256)) * 4, "not an asteroids replay")
    oversized = tmp / "oversized.replay"
    with open(oversized, "wb") as fh:
        fh.write(data)
        fh.truncate(MAX_REPLAY_BYTES + 10)
    files["oversized"] = (oversized, "too large")
    files["missing"] = (tmp / "missing.replay", "No such file")
    files["folder"] = (tmp, "cannot read")
    return files


def _edit_hash(data: bytes) -> bytes:
    """Change one digit of the final hash and nothing else (the checksum no longer fits)."""
    at = data.index(b'final_hash = "') + len(b'final_hash = "')
    digit = b"0" if data[at:at + 1] != b"0" else b"1"
    return data[:at] + digit + data[at + 1:]


BAD_KINDS = ["truncated", "corrupted", "tampered-hash", "tampered-config", "wrong-version",
             "newer-format", "not-a-replay", "empty", "binary", "oversized", "missing",
             "folder"]


@pytest.mark.parametrize("kind", BAD_KINDS)
def test_bad_file_is_one_paragraph_exit_2(kind: str, recorded: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, expect = _bad_files(recorded, tmp_path)[kind]
    capsys.readouterr()
    assert cli.main(["verify", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith(f"asteroids: {path}: "), err
    assert expect in err
    assert "\n\n" not in err and "Traceback" not in err
    assert len(err.splitlines()) == 1
    assert "0 ok, 0 mismatch, 1 unusable" in captured.out


def test_bad_input_wins_over_mismatch_and_order_is_kept_with_jobs(
        recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "junk.replay"
    bad.write_text("hello\n")
    files = [str(recorded), str(bad), str(recorded)]
    capsys.readouterr()
    assert cli.main(["verify", "--jobs", "2", *files]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(": ")[0] for ln in lines[:3]] == files
    assert lines[3] == "3 files: 2 ok, 0 mismatch, 1 unusable"


def test_verify_rejects_zero_jobs(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--jobs", "0", str(recorded)]) == 2
    assert "--jobs must be 1 or more" in capsys.readouterr().err


def test_a_replay_of_a_newer_format_names_the_version_that_wrote_it(
        recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = recorded.read_text("utf-8")
    newer = text.replace(f"asteroids-replay {FORMAT_VERSION}\n",
                         f"asteroids-replay {FORMAT_VERSION + 1}\n", 1)
    newer = newer.replace(f'game_version = "{__version__}"', 'game_version = "7.1.0"', 1)
    path = tmp_path / "from-the-future.replay"
    path.write_bytes(_reseal(newer))
    capsys.readouterr()
    assert cli.main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"(asteroids 7.1.0, replay format {FORMAT_VERSION + 1}; this is asteroids " \
           f"{__version__}" in err
    assert "Update the game to verify or watch it." in err and "Traceback" not in err


def test_a_replay_under_an_unknown_rules_version_says_to_update(
        recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asteroids.config.schema import RULES_VERSION

    text = recorded.read_text("utf-8")
    later = text.replace(f"\nrules_version = {RULES_VERSION}\n",
                         f"\nrules_version = {RULES_VERSION + 1}\n", 1)
    later = later.replace(f'game_version = "{__version__}"', 'game_version = "7.1.0"', 1)
    assert later != text
    path = tmp_path / "later-rules.replay"
    path.write_bytes(_reseal(later))
    for command in (["verify", str(path)], ["watch", str(path)]):
        capsys.readouterr()
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert f"recorded by asteroids 7.1.0 under rules version {RULES_VERSION + 1}" in err
        assert "Update the game" in err and "Traceback" not in err


def test_verify_uses_the_command_lines_exit_codes() -> None:
    from asteroids.replay import batch

    assert (batch.EXIT_MISMATCH, batch.EXIT_BAD_INPUT) == (cli.EXIT_MISMATCH, cli.EXIT_BAD_INPUT)
