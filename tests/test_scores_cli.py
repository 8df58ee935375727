"""``asteroids scores``: printing, export/import, clear; and the score, settings and replay
parsers fuzzed with hypothesis (only the documented errors, never a traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asteroids import cli
from asteroids.profile import (
    ScoreBook,
    ScoreEntry,
    ScoreFileError,
    Settings,
    SettingsFileError,
    parse_scores,
    parse_settings,
)
from asteroids.replay import ReplayError
from asteroids.replay.format import decode_replay

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("ASTEROIDS_DATA_DIR", str(folder))
    return folder


def fill(folder: Path) -> ScoreBook:
    book = ScoreBook.load(folder / "scores.json")
    for i in range(12):
        book.add("classic", ScoreEntry("ABC", 1000 * (i + 1), i + 1,
                                       f"2026-01-{i + 1:02d}T10:00:00Z", 125.0 * i, None))
    (folder / "replays").mkdir(parents=True)
    (folder / "replays" / "g.replay").write_text("x")
    book.add("custom-1a2b3c4d:assisted",
             ScoreEntry("???", 42, 1, "2026-02-01T00:00:00Z", 3725.0, "g.replay"))
    assert book.save() is None
    return book


def test_scores_prints_readable_tables(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["scores"]) == 0
    assert "No high scores yet" in capsys.readouterr().out
    fill(data)
    assert cli.main(["scores"]) == 0
    out = capsys.readouterr().out
    assert "CLASSIC  (classic)" in out and "CUSTOM 1A2B3C4D (ASSISTED)" in out
    assert "RANK  NAME        SCORE  WAVE  DATE (UTC)" in out
    assert "     1  ABC        12,000    12  2026-01-12 10:00    22:55  -" in out
    assert "1:02:05  g.replay" in out
    assert "  3,000 " in out and "  2,000 " not in out         # top 10 only


def test_scores_ruleset_and_json(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(data)
    assert cli.main(["scores", "--ruleset", "CUSTOM 1A2B3C4D (ASSISTED)", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc["tables"]) == ["custom-1a2b3c4d:assisted"]
    assert doc["tables"]["custom-1a2b3c4d:assisted"]["entries"][0]["replay"] == "g.replay"
    assert cli.main(["scores", "--ruleset", "arena"]) == 0
    assert "(no entries yet)" in capsys.readouterr().out
    assert cli.main(["scores", "--ruleset", "no such!"]) == 2
    err = capsys.readouterr().err
    assert "is not a ruleset" in err and "classic" in err


def test_export_import_merges_and_dedups(data: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    fill(data)
    export = tmp_path / "out.json"
    assert cli.main(["scores", "--export", str(export)]) == 0
    assert cli.main(["scores", "--clear", "--yes", "--ruleset", "classic"]) == 0
    book = ScoreBook.load()
    book.add("classic", ScoreEntry("NEW", 5500, 3, "2026-03-01T00:00:00Z", 1.0, None))
    assert book.save() is None
    assert cli.main(["scores", "--import", str(export)]) == 0
    assert "imported 9 new entries of 11" in capsys.readouterr().out
    scores = [e.score for e in ScoreBook.load().table("classic")]
    assert scores == [12000, 11000, 10000, 9000, 8000, 7000, 6000, 5500, 5000, 4000]
    assert cli.main(["scores", "--import", str(export)]) == 0      # again: nothing new
    assert "imported 0 new entries" in capsys.readouterr().out
    assert len(ScoreBook.load().table("custom-1a2b3c4d:assisted")) == 1


@pytest.mark.parametrize(("content", "needle"), [
    (b"", "the file is empty"),
    (b"\x00\xff garbage", "not UTF-8"),
    (b'{"schema_version": 1, "tables": {"classic": [{"initials": "abc"}]}}', "entry 1"),
    (b'{"schema_version": 1, "tables": {"NO WAY": []}}', "not a ruleset name"),
    (b'{"schema_version": "1", "tables": {}}', "schema_version"),
])
def test_a_bad_import_is_one_paragraph_and_exit_2(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
        needle: str) -> None:
    fill(data)
    before = (data / "scores.json").read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert cli.main(["scores", "--import", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and needle in err
    assert "Nothing was imported" in err or "nothing was imported" in err
    assert (data / "scores.json").read_bytes() == before
    assert cli.main(["scores", "--import", str(tmp_path / "missing.json")]) == 2


def test_clear_asks_on_a_terminal_and_refuses_without_one(
        data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fill(data)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    assert cli.main(["scores", "--clear"]) == 2
    assert "add --yes" in capsys.readouterr().err
    assert ScoreBook.load().keys() != []
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    answers = iter(["n", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert cli.main(["scores", "--clear"]) == 0
    assert "nothing was cleared" in capsys.readouterr().out
    assert ScoreBook.load().keys() != []
    assert cli.main(["scores", "--clear"]) == 0
    assert "cleared 11 entries in 2 tables" in capsys.readouterr().out
    assert ScoreBook.load().keys() == []
    assert cli.main(["scores", "--yes"]) == 2                      # --yes alone is a mistake


def test_scores_through_a_real_process_with_a_corrupt_file(tmp_path: Path) -> None:
    (tmp_path / "scores.json").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    env = dict(os.environ, ASTEROIDS_DATA_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "asteroids", "scores"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert "asteroids: note: scores.json: not a scores file: it is not UTF-8 text; not used, " \
           "and left as it is until the game next saves high scores" in out.stderr
    assert "No high scores yet" in out.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["scores.json"]  # listing changes nothing


# --- fuzz ------------------------------------------------------------------------------------

VALID = (b'{"schema_version": 1, "tables": {"classic": [{"initials": "ABC", "score": 10, '
         b'"wave": 1, "date": "2026-01-01T00:00:00Z", "play_seconds": 5, "replay": null}]}}')

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=20,
)
entry_like = st.fixed_dictionaries({}, optional={
    "initials": st.sampled_from(["ABC", "???", "abc", "AB", 3]) | st.text(max_size=4),
    "score": st.integers(-5, 2**64) | st.floats() | st.booleans(),
    "wave": st.integers(-2, 2**21) | st.none(),
    "date": st.sampled_from(["2026-01-01T00:00:00Z", "2026-13-01T00:00:00Z", ""]) | st.text(),
    "play_seconds": st.floats() | st.integers(-1, 10**8),
    "replay": st.none() | st.sampled_from(["a.replay", "../a.replay", ".x.replay"]) | st.text(),
})
structured = st.fixed_dictionaries({
    "schema_version": st.integers(-1, 3) | json_values,
    "tables": st.dictionaries(st.sampled_from(["classic", "custom-1a2b3c4d:assisted", "X"])
                              | st.text(max_size=10),
                              st.lists(entry_like, max_size=12) | json_values, max_size=3),
}).map(lambda d: json.dumps(d).encode())
mangled = st.tuples(st.integers(0, len(VALID)), st.binary(max_size=8)).map(
    lambda t: VALID[: t[0]] + t[1] + VALID[t[0]:])
any_bytes = (st.binary(max_size=400) | st.text(max_size=400).map(str.encode) | structured
             | mangled)


@settings(max_examples=400, deadline=None)
@given(any_bytes)
def test_fuzz_the_scores_parser(data: bytes) -> None:
    try:
        parsed = parse_scores(data, "fuzz.json")
    except ScoreFileError as exc:
        assert str(exc).startswith("fuzz.json: ") and "\n" not in str(exc)
        return
    for key, entries in parsed.tables.items():
        assert 0 < len(entries) <= 10
        assert [e.score for e in entries] == sorted((e.score for e in entries), reverse=True)
        book = ScoreBook(Path("unused"))
        book.merge({key: entries})
        assert parse_scores(book.to_bytes()).tables == {key: entries}   # round trip


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode)
       | st.dictionaries(st.sampled_from(["schema_version", "window_width", "muted",
                                          "master_volume", "ruleset", "window_x"]),
                         json_values).map(lambda d: json.dumps(d).encode()))
def test_fuzz_the_settings_parser(data: bytes) -> None:
    try:
        parsed = parse_settings(data, "fuzz.json")
    except SettingsFileError as exc:
        assert str(exc).startswith("fuzz.json: ") and "\n" not in str(exc)
        return
    s = Settings(**parsed.values)
    assert parse_settings(json.dumps(s.to_json()).encode()).values == parsed.values


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600) | st.text(max_size=600).map(str.encode))
def test_fuzz_the_replay_parser(data: bytes) -> None:
    for blob in (data, b"asteroids-replay 1\n" + data):
        try:
            decode_replay(blob, "fuzz.replay")
        except ReplayError as exc:
            assert str(exc).startswith("fuzz.replay: ")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(any_bytes)
def test_fuzz_the_cli_never_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        monkeypatch.setenv("ASTEROIDS_DATA_DIR", folder)
        path = Path(folder) / "scores.json"
        path.write_bytes(data)
        assert cli.main(["scores", "--json"]) == 0           # a bad file is set aside
        path.write_bytes(data)
        assert cli.main(["scores", "--import", str(path)]) in (0, 2)
        assert cli.main(["scores"]) == 0


def test_an_unknown_ruleset_is_one_paragraph_with_the_known_ones_and_did_you_mean(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(data)
    assert cli.main(["scores", "--ruleset", "nosuch"]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert captured.out == "" and err.count("\n") == 1               # one paragraph
    assert "'nosuch' is not a ruleset" in err
    for known in ("default", "classic", "arena", "custom-XXXXXXXX", "custom-1a2b3c4d:assisted"):
        assert known in err
    assert "Did you mean" not in err
    assert cli.main(["scores", "--ruleset", "clasic"]) == 2
    assert "Did you mean 'classic'?" in capsys.readouterr().err
    assert cli.main(["scores", "--ruleset", "custom-1a2b3c4e"]) == 0  # custom rules: no table yet
    assert "(no entries yet)" in capsys.readouterr().out


def test_a_closed_pipe_ends_quietly(data: Path) -> None:
    """``asteroids scores --json | head``: the reader goes away; no message, no traceback,
    the status a shell gives a tool SIGPIPE ended."""
    book = fill(data)
    for key in ("default", "arena"):
        for i in range(10):
            book.add(key, ScoreEntry("ABC", 1000 + i, 3, "2026-01-02T03:04:05+00:00", 60.0,
                                     None))
    assert book.save() is None
    env = {**os.environ, "ASTEROIDS_DATA_DIR": str(data)}
    proc = subprocess.Popen([sys.executable, "-m", "asteroids", "scores", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # gone before the first write (the interpreter takes longer to start)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == cli.EXIT_CLOSED_PIPE and err == ""
