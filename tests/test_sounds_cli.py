"""``asteroids sounds --out DIR``: every sound of both sets and the worst-case mixes as WAV, the
measurement table, and the cabinet set's spectrogram (or how to get matplotlib)."""

from __future__ import annotations

import contextlib
import io
import sys
import wave

import numpy as np
import pytest

from asteroids.app import synth
from asteroids.cli import main


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("sounds")
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["sounds", "--out", str(out)])
    return code, out, stdout.getvalue(), stderr.getvalue()


def read_wav(path) -> np.ndarray:
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, synth.RATE)
        return np.frombuffer(w.readframes(w.getnframes()), "<i2")


def test_every_sound_of_both_sets_is_written(rendered):
    code, out, text, err = rendered
    assert code == 0, err
    for sound_set in synth.SOUND_SETS:
        for name in synth.voice_names(sound_set):
            pcm = read_wav(out / sound_set / f"{name}.wav")
            assert np.abs(pcm.astype(np.int32)).max() > 300, name
            assert f"| {sound_set} | {name} |" in text


def test_the_worst_case_mixes_stay_under_minus_1_dbfs(rendered):
    _, out, text, _ = rendered
    for sound_set in synth.SOUND_SETS:
        pcm = read_wav(out / f"worst-case-{sound_set}.wav").astype(np.int32)
        assert pcm.size == 5 * synth.RATE
        assert 20 * np.log10(np.abs(pcm).max() / 32767) <= -1.0
        row = next(line for line in text.splitlines()
                   if line.startswith(f"| {sound_set} | WORST CASE MIX |"))
        assert float(row.split("|")[4]) <= -1.0  # the peak column
    assert ("| set | sound | duration s | peak dBFS | RMS dBFS | loudness dB(A) "
            "| small speaker dB(A) | centroid Hz |") in text


def test_the_spectrogram_is_a_png(rendered):
    pytest.importorskip("matplotlib")
    _, out, text, _ = rendered
    assert (out / "spectrogram-cabinet.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "spectrogram of the cabinet set" in text


def test_without_matplotlib_it_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert main(["sounds", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "pip install 'asteroids[lab]'" in err and "written without it" in err
    assert (tmp_path / "cabinet" / "thrust.wav").is_file()
    assert not (tmp_path / "spectrogram-cabinet.png").exists()


def test_an_out_that_is_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("mine")
    assert main(["sounds", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert "is a file" in err and "Traceback" not in err
    assert target.read_text() == "mine"


def test_the_report_measures_the_cabinet_against_the_board_and_every_loop(rendered):
    _, _, text, _ = rendered
    assert "| sound | what | circuit | measured | error | within 10 % |" in text
    rows = [line for line in text.splitlines() if line.startswith("| beat_")
            or line.startswith("| bang_") or line.startswith("| saucer_")
            or line.startswith("| fire |") or line.startswith("| thrust |")
            or line.startswith("| ship_explode |") or line.startswith("| extra_life |")
            or line.startswith("| heartbeat |")]
    circuit = [row for row in rows if " % |" in row]
    balance = [row for row in rows if " % |" not in row]
    assert len(circuit) == 30 and all(row.endswith("| yes |") for row in rows), rows
    assert "30 of 30 numbers within 10 % of the board's." in text
    assert "| sound | board's mixer | board dB | measured LU | difference | within 2 dB |" in text
    assert len(balance) == 11 and "11 of 11 voices within 2 dB of the board's." in text
    loops = [line for line in text.splitlines()
             if line.startswith(("| cabinet | thrust | 3", "| cabinet | saucer_",
                                 "| modern | thrust | 3", "| modern | saucer_"))
             and "ms |" in line]
    assert len(loops) == 2 * len(synth.LOOPING)
    assert all("| 0.0 ms |" in row and row.endswith("| yes |") for row in loops), loops
    assert f"{len(loops)} of {len(loops)} loops gapless and click-free." in text
