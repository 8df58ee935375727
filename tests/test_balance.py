"""``asteroids balance``: the proofs of issue 11 (more lives -> longer survival, identical
configs -> no clear change, results independent of --jobs), bad input, and the pieces."""

from __future__ import annotations

import json
import math
import struct
import sys
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import load_config
from asteroids.lab.cli import split_values
from asteroids.lab.engines import EngineUnavailable, check_reachable, pool_map, start_method
from asteroids.lab.game import DEATH_CAUSES, GameResult, play_game
from asteroids.lab.stats import METRICS, Interval, compare, verdict
from asteroids.replay import load_replay, record_bot_game, verify_replay
from asteroids.replay.record import get_bot

ROOT = Path(__file__).resolve().parent.parent


def balance(tmp_path: Path, *argv: str, name: str = "out.json") -> dict:
    """Run ``asteroids balance ARGV --json FILE`` in this process; the document it wrote."""
    out = tmp_path / name
    code = cli.main(["balance", *argv, "--json", str(out)])
    assert code == 0
    return json.loads(out.read_text())


# --- the proofs ---------------------------------------------------------------------

def test_more_lives_survive_longer_with_an_interval_excluding_zero(tmp_path, capsys):
    """Two configs differing only in game.lives: the side with more ships survives longer,
    and the paired interval of the difference lies wholly above zero."""
    doc = balance(tmp_path, "--sweep", "game.lives=1,3", "--bot", "spinner", "--games", "12",
                  "--seed", "1", "--ticks", "9000", "--jobs", "1")
    a, b = doc["sides"]
    assert a["overrides"] == ["game.lives=1"] and b["overrides"] == ["game.lives=3"]
    survival = doc["comparisons"][0]["metrics"]["survival_s"]
    assert survival["low"] > 0.0, survival
    assert b["summary"]["survival_s"]["mean"] > a["summary"]["survival_s"]["mean"]
    # Same seeds on both sides, game by game.
    assert [g["seed"] for g in a["games"]] == [g["seed"] for g in b["games"]] == list(
        range(1, 13))
    report = capsys.readouterr().out
    assert "survival s (mean)" in report
    assert doc["comparisons"][0]["verdict"] in report


def test_identical_configs_give_no_clear_change(tmp_path, capsys):
    doc = balance(tmp_path, "--config", "default", "--against", "default", "--bot", "spinner",
                  "--games", "6", "--ticks", "1200", "--jobs", "1")
    comparison = doc["comparisons"][0]
    assert comparison["verdict"] == "no clear change"
    for key, value in comparison["metrics"].items():
        assert value == {"diff": 0.0, "low": 0.0, "high": 0.0}, key
    a, b = doc["sides"]
    assert a["games"] == b["games"]
    assert "no clear change" in capsys.readouterr().out


def test_results_are_identical_for_any_number_of_jobs(tmp_path):
    """The whole JSON document, byte for byte, for --jobs 1 (in process) and 2 (a pool)."""
    argv = ["--config", "classic", "--sweep", "ship.thrust_px_per_s2=300,450", "--bot",
            "spinner", "--games", "4", "--ticks", "900"]
    for jobs in ("1", "2"):
        assert cli.main(["balance", *argv, "--jobs", jobs, "--json",
                         str(tmp_path / f"j{jobs}.json")]) == 0
    one = (tmp_path / "j1.json").read_bytes()
    assert one == (tmp_path / "j2.json").read_bytes()
    doc = json.loads(one)
    assert len(doc["sides"]) == 2 and len(doc["sides"][0]["games"]) == 4


@pytest.mark.slow
def test_aimer_more_lives_survive_longer_on_classic(tmp_path):
    """The same proof with the competent bot on the classic rules (no extra ships, so the
    games end): 1 ship against 3."""
    doc = balance(tmp_path, "--config", "classic", "--set", "scoring.extra_life_every=0",
                  "--sweep", "game.lives=1,3", "--bot", "aimer", "--games", "8",
                  "--ticks", "10000")
    comparison = doc["comparisons"][0]
    assert comparison["metrics"]["survival_s"]["low"] > 0.0, comparison
    assert comparison["metrics"]["deaths"]["diff"] > 0.0


# --- one game -------------------------------------------------------------------------------

def test_a_game_counts_what_the_replay_of_the_same_game_shows():
    """play_game is the game ``asteroids record`` would save: same ticks, score and wave;
    every ship lost is a death with a cause."""
    config = load_config("default")
    result, replay = play_game(config, 3, "spinner", 5000, record=True)
    recorded = record_bot_game(config, 3, get_bot("spinner"), 5000)
    # Everything but the time of writing (the two may be written in different seconds).
    assert replay is not None and replay.same_game(recorded)
    assert (result.ticks, result.score, result.final_wave) == (
        recorded.ticks, recorded.final_score, recorded.final_wave)
    assert result.game_over and result.ticks < 5000
    assert set(result.deaths) == set(DEATH_CAUSES)
    lives = config.game.lives + result.extra_lives - result.lives_left
    assert result.total_deaths == lives > 0
    assert result.shots_fired > result.kills > 0
    assert result.survival_s == result.ticks / 60.0


def test_a_game_stops_at_the_tick_cap_and_says_it_was_still_going():
    result, replay = play_game(load_config("default"), 3, "aimer", 120)
    assert (result.ticks, result.game_over, replay) == (120, False, None)
    assert play_game(load_config("default"), 3, "aimer", 121)[0].ticks == 121


def test_pool_map_yields_in_input_order_whatever_finishes_first():
    items = [0.3, 0.0, 0.2, 0.0, 0.1]
    assert list(pool_map(_sleep_and_return, items, jobs=2)) == items


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
def test_pool_workers_fork_when_nothing_else_runs_and_spawn_beside_a_thread():
    """A forked worker starts at once; beside another thread (which could hold a lock at the
    fork) the pool spawns fresh interpreters, and the results are the same either way."""
    import threading

    items = [0.0, 0.1, 0.0]
    if threading.active_count() == 1:
        assert start_method() == "fork"
        assert list(pool_map(_sleep_and_return, items, jobs=2)) == items
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert start_method() == "spawn"
        assert list(pool_map(_sleep_and_return, items, jobs=2)) == items
    finally:
        stop.set()
        other.join()


def test_a_dead_ray_address_fails_fast_with_a_paragraph():
    """Nothing listens on port 1 of this machine: refused at once (Ray alone retries a dead
    address for minutes)."""
    with pytest.raises(EngineUnavailable, match="nothing answers at the Ray address"):
        check_reachable("127.0.0.1:1", timeout_s=2.0)
    check_reachable("auto")  # not HOST:PORT: left to Ray


def _sleep_and_return(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


# --- statistics -----------------------------------------------------------------------------

def _game(seed: int, score: int, ticks: int, kills: int = 10) -> GameResult:
    return GameResult(seed=seed, ticks=ticks, tick_hz=60.0, game_over=True, score=score,
                      final_wave=1, waves_cleared=0, deaths=dict.fromkeys(DEATH_CAUSES, 0),
                      shots_fired=20, kills=kills, extra_lives=0, lives_left=0)


def test_a_constant_shift_has_that_difference_and_a_zero_width_interval():
    base = [_game(i, 100 * i, 600 + 60 * i) for i in range(10)]
    shifted = [_game(i, 100 * i + 50, 600 + 60 * i - 120) for i in range(10)]
    intervals = compare(base, shifted, seed=1, side=1)
    assert intervals["score"] == Interval(50.0, 50.0, 50.0)
    assert intervals["survival_s"] == Interval(-2.0, -2.0, -2.0)
    assert verdict(intervals)[0] == "mixed"
    assert set(intervals) == {m.key for m in METRICS}


def test_bootstrap_is_reproducible_and_depends_on_its_seed():
    base = [_game(i, (37 * i) % 101, 600) for i in range(30)]
    other = [_game(i, (53 * i) % 97, 600) for i in range(30)]
    first = compare(base, other, seed=5, side=1)
    assert first == compare(base, other, seed=5, side=1)
    assert first["score"] != compare(base, other, seed=6, side=1)["score"]
    low, high = first["score"].low, first["score"].high
    assert low < first["score"].diff < high


def test_shots_per_kill_without_kills_is_undefined_not_a_crash():
    base = [_game(i, 0, 600, kills=0) for i in range(5)]
    intervals = compare(base, base, seed=1, side=1)
    assert math.isnan(intervals["shots_per_kill"].diff)
    assert intervals["shots_per_kill"].as_dict() == {"diff": None, "low": None, "high": None}


@pytest.mark.parametrize(("survival", "score", "word"), [
    ((1, 2), (1, 2), "easier"),
    ((-2, -1), (-2, -1), "harder"),
    ((-1, 1), (-1, 1), "no clear change"),
    ((0, 0), (0, 0), "no clear change"),
    ((1, 2), (-1, 1), "mixed"),
    ((1, 2), (-2, -1), "mixed"),
    ((-1, 1), (-2, -1), "mixed"),
])
def test_verdict_needs_survival_and_score_to_agree(survival, score, word):
    intervals = {"survival_s": Interval(0.0, *survival), "score": Interval(0.0, *score)}
    assert verdict(intervals)[0] == word


@pytest.mark.parametrize(("deaths", "score", "word"), [
    ((-2, -1), (1, 2), "easier"),
    ((1, 2), (-2, -1), "harder"),
    ((-1, 1), (-1, 1), "no clear change"),
    ((-2, -1), (-1, 1), "mixed"),
])
def test_when_every_game_reached_the_cap_deaths_stand_in_for_survival(deaths, score, word):
    intervals = {"survival_s": Interval(0.0, 0.0, 0.0), "deaths": Interval(0.0, *deaths),
                 "score": Interval(0.0, *score)}
    got, why = verdict(intervals, all_at_cap=True)
    assert got == word
    assert "deaths stand in for survival" in why
    assert verdict(intervals)[0] == ("no clear change" if score == (-1, 1) else "mixed")


def test_an_interval_touching_zero_is_not_a_change():
    assert Interval(1.0, 0.0, 2.0).sign == 0
    assert Interval(1.0, 1e-9, 2.0).sign == 1
    assert Interval(-1.0, -2.0, -1e-9).sign == -1


# --- command line ---------------------------------------------------------------------------

def test_split_values_keeps_arrays_and_strings_whole():
    assert split_values('1, [2, 3],"a,b" ,wrap') == ["1", "[2, 3]", '"a,b"', "wrap"]


@pytest.mark.parametrize(("argv", "needle"), [
    (["--config", "nope.toml"], "nope.toml: error[unreadable]"),
    (["--sweep", "ship.thrust_px_per_s=1,2"], "ship.thrust_px_per_s is not a known key"),
    (["--sweep", "game.lives=3,0"], "game.lives=0: game.lives must be"),
    (["--sweep", "game.lives"], "is not KEY=V1,V2,..."),
    (["--sweep", "game.lives=3,,4"], "is not KEY=V1,V2,..."),
    (["--sweep", "game.lives=3,3"], "lists 3 more than once"),
    (["--bot", "aimr"], "no bot named 'aimr'; known bots: aimer,"),
    (["--games", "0"], "--games must be in [1,"),
    (["--ticks", "0"], "--ticks must be in [1,"),
    (["--jobs", "0"], "--jobs must be 1 or more"),
    (["--address", "127.0.0.1:1"], "needs --engine ray"),
])
def test_bad_input_is_one_paragraph_and_exit_2_before_any_game(argv, needle, tmp_path,
                                                               capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "never.json"
    assert cli.main(["balance", *argv, "--games", "1", "--json", str(out)]
                    if "--games" not in argv else
                    ["balance", *argv, "--json", str(out)]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert "Traceback" not in err
    assert not out.exists()


def test_a_bad_sweep_names_every_bad_value_in_one_paragraph(capsys):
    assert cli.main(["balance", "--sweep", "game.lives=0,3,100", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "game.lives=0:" in err and "game.lives=100:" in err and "No game was played" in err


def test_plot_without_matplotlib_says_how_to_install_it_before_any_game(
        tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    out = tmp_path / "never.json"
    assert cli.main(["balance", "--plot", str(tmp_path / "p.png"), "--json", str(out)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'asteroids[lab]'" in err and err.count("\n") == 1
    assert not out.exists()


def test_engine_ray_without_ray_is_a_clear_message(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert cli.main(["balance", "--engine", "ray", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'asteroids[cluster]'" in err and err.count("\n") == 1
    assert cli.main(["verify", "--engine", "ray", str(ROOT / "tests/replays/idle.replay")]) == 2
    assert "[cluster]" in capsys.readouterr().err


def test_kept_replays_verify_and_match_their_results(tmp_path):
    folder = tmp_path / "kept"
    doc = balance(tmp_path, "--sweep", "game.lives=1,2", "--bot", "spinner", "--games", "2",
                  "--seed", "7", "--ticks", "700", "--jobs", "1", "--keep-replays", str(folder))
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["A-seed7.replay", "A-seed8.replay", "B-seed7.replay", "B-seed8.replay"]
    for side in doc["sides"]:
        for game in side["games"]:
            replay = load_replay(folder / game["replay"])
            assert verify_replay(replay).ok
            assert (replay.seed, replay.ticks, replay.final_score) == (
                game["seed"], game["ticks"], game["score"])


def test_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs the [lab] extra (matplotlib)")
    png = tmp_path / "plots" / "b.png"
    balance(tmp_path, "--sweep", "game.lives=1,2", "--bot", "idle", "--games", "3", "--ticks",
            "300", "--jobs", "1", "--plot", str(png))
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 400 and height >= 400


def test_balance_in_a_fresh_process_prints_the_report_and_no_traceback(tmp_path):
    from tests.test_cli import run_cli

    out = run_cli("balance", "--config", "classic", "--against", "default", "--bot", "idle",
                  "--games", "2", "--ticks", "200", "--jobs", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "A: classic" in out.stdout and "B: default" in out.stdout
    assert "verdict" in out.stdout
    assert "Traceback" not in out.stderr
    # stderr is no terminal here: no progress bar, only the one summary line.
    assert out.stderr.startswith("asteroids: balance: 4 games in ")


def test_games_stopped_at_the_cap_are_counted_and_flagged(tmp_path, capsys):
    doc = balance(tmp_path, "--bot", "idle", "--games", "3", "--ticks", "60", "--jobs", "1")
    summary = doc["sides"][0]["summary"]
    assert (summary["game_over"], summary["at_cap"]) == (0, 3)
    assert summary["survival_s"]["median"] == 1.0
    assert doc["comparisons"] == []
    out = capsys.readouterr().out
    assert "note: 3 of 3 games of A were still going at the tick cap" in out
    assert "Difference against" not in out
