"""Difficulty curves (issue 26): Kaplan-Meier survival, the hazard by time and by wave, the
log-rank verdict, and ``asteroids balance --persona``."""

from __future__ import annotations

import json
import sys

import pytest

from asteroids import cli
from asteroids.lab.game import GameResult
from asteroids.lab.stats import Interval, verdict
from asteroids.lab.survival import (
    compare_survival,
    hazard_by_time,
    hazard_by_wave,
    kaplan_meier,
)

pytest.importorskip("scipy", reason="survival curves need scipy (the [lab] extra)")


def game(seconds: float, over: bool, deaths: tuple[float, ...] = (),
         waves: tuple[float, ...] = ()) -> GameResult:
    """A game of ``seconds`` at 10 ticks a second, its ships lost and waves begun at the
    seconds given."""
    return GameResult(seed=0, ticks=round(seconds * 10), tick_hz=10.0, game_over=over,
                      score=0, final_wave=1 + len(waves), waves_cleared=len(waves),
                      deaths={"asteroid": len(deaths)}, shots_fired=0, kills=0,
                      extra_lives=0, lives_left=0,
                      death_ticks=tuple(round(d * 10) for d in deaths),
                      wave_ticks=tuple(round(w * 10) for w in waves))


def test_kaplan_meier_steps_at_each_game_over_and_censors_the_cap():
    """Games over at 10 s and 20 s, one still going at 30 s, one over at 40 s: the curve is
    3/4, then 1/2, then (the censored game leaves the risk set) 0; the median is 20 s."""
    km = kaplan_meier([game(10, True), game(20, True), game(30, False), game(40, True)])
    assert km["events"] == 3 and km["censored"] == 1
    steps = dict(zip(km["times"], km["survival"], strict=True))
    assert steps[10.0] == pytest.approx(0.75) and steps[20.0] == pytest.approx(0.5)
    assert steps[40.0] == pytest.approx(0.0)
    assert km["median_s"] == 20.0
    for low, s, high in zip(km["low"], km["survival"], km["high"], strict=True):
        assert low <= s <= high


def test_no_game_over_means_no_curve_and_no_median():
    km = kaplan_meier([game(30, False), game(30, False)])
    assert km["events"] == 0 and km["median_s"] is None


def test_the_hazard_counts_ships_lost_per_minute_of_play_in_each_bin_and_wave():
    games = [game(40, True, deaths=(5, 25, 40), waves=(20,)), game(20, True, deaths=(15, 20))]
    bins = hazard_by_time(games, bin_s=30.0)
    # 0-30 s: 50 s of play (30 + 20), deaths at 5, 25, 15 and 20 s; 30-60 s: 10 s, one death.
    assert [b["deaths"] for b in bins] == [4, 1]
    assert bins[0]["per_min"] == pytest.approx(4 / (50 / 60))
    assert bins[1]["games"] == 1 and bins[1]["per_min"] == pytest.approx(6.0)
    waves = hazard_by_wave(games)
    assert [(w["wave"], w["games"], w["deaths"]) for w in waves] == [(1, 2, 3), (2, 1, 2)]
    assert waves[1]["minutes"] == pytest.approx(20 / 60)


def test_log_rank_says_which_side_survives_longer():
    short = [game(t, True) for t in (5, 6, 7, 8, 9, 10, 11, 12)]
    long = [game(t, True) for t in (30, 35, 40, 45, 50, 55, 60, 65)]
    test = compare_survival(short, long)
    assert test is not None and test["p"] < 0.01 and test["sign"] == 1
    assert compare_survival(long, short)["sign"] == -1
    same = compare_survival(short, short)
    assert same["sign"] == 0 and same["p"] == pytest.approx(1.0)
    assert compare_survival([game(30, False)], [game(30, False)]) is None


def test_the_log_rank_test_decides_survival_when_games_ended():
    flat = Interval(0.0, -1.0, 1.0)
    up = Interval(1.0, 0.5, 1.5)
    intervals = {"score": up, "survival_s": flat, "deaths": flat}
    assert verdict(intervals)[0] == "mixed"
    word, why = verdict(intervals, logrank={"z": -3.0, "p": 0.003, "sign": 1})
    assert word == "easier" and "log-rank p = 0.003" in why
    # At the cap everywhere, deaths still stand in whatever a log-rank would say.
    assert verdict(intervals, all_at_cap=True,
                   logrank={"z": 0.0, "p": 1.0, "sign": 0})[0] == "mixed"


def test_balance_personas_report_survival_curves_and_hazard(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert cli.main(["balance", "--config", "classic", "--persona", "novice,expert",
                     "--games", "3", "--ticks", "2500", "--jobs", "1", "--json",
                     str(out)]) == 0
    text = capsys.readouterr().out
    assert "persona novice" in text and "persona expert" in text
    assert "Survival to game over (Kaplan-Meier" in text and "wave 1" in text
    doc = json.loads(out.read_text())
    assert [s["pilot"] for s in doc["sides"]] == ["novice", "expert"]
    for side in doc["sides"]:
        km = side["survival"]["kaplan_meier"]
        assert km["events"] + km["censored"] == 3
        assert side["survival"]["hazard_by_time"][0]["games"] == 3
    if any(g["game_over"] for s in doc["sides"] for g in s["games"]):
        assert "logrank" in doc["comparisons"][0]


def test_a_persona_file_plays_a_balance_side(tmp_path, capsys):
    from asteroids.pilots import bundled_persona
    from asteroids.pilots.persona import persona_toml

    me = tmp_path / "me.toml"
    me.write_text(persona_toml(bundled_persona("average").replace(name="me")))
    assert cli.main(["balance", "--persona", f"{me},perfect", "--games", "1", "--ticks",
                     "300", "--jobs", "1"]) == 0
    assert "persona me" in capsys.readouterr().out


@pytest.mark.parametrize("argv, needle", [
    (["--persona", "novce"], "no persona named 'novce'"),
    (["--persona", "novice,novice"], "names a persona twice"),
    (["--persona", "novice,expert", "--sweep", "game.lives=1,2"], "give one of the two"),
    (["--persona", "novice", "--bot", "aimer"], "not allowed with argument"),
])
def test_bad_personas_are_one_paragraph_and_exit_2(argv, needle, capsys):
    assert cli.main(["balance", *argv, "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_personas_without_scipy_say_how_to_get_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    assert cli.main(["balance", "--persona", "novice,expert", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'asteroids[lab]'" in err and err.count("\n") == 1


def test_a_run_where_every_game_reached_the_cap_reports_without_importing_scipy(tmp_path):
    """scipy.stats takes half a second to import; with no game over the curves are flat and
    the report is made without it (the same survival section, its curve empty)."""
    import subprocess

    out = tmp_path / "capped.json"
    code = (
        "import sys\n"
        "from asteroids import cli\n"
        f"assert cli.main(['balance', '--config', 'classic', '--bot', 'idle', '--games', '2',"
        f" '--ticks', '30', '--jobs', '1', '--json', {str(out)!r}]) == 0\n"
        "print('scipy.stats' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
    km = json.loads(out.read_text())["sides"][0]["survival"]["kaplan_meier"]
    assert (km["events"], km["censored"], km["times"], km["median_s"]) == (0, 2, [], None)
    with_scipy = kaplan_meier([game(3.0, False), game(3.0, False)])
    assert (with_scipy["events"], with_scipy["times"]) == (0, [])
