"""Personas (issue 26): pilots with human limits, reproducible and fitted back from replays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from asteroids import cli
from asteroids.config import load_config
from asteroids.pilots import PersonaPilot, bundled_persona, noise, pilot_for
from asteroids.pilots.fit import fit_persona
from asteroids.pilots.measure import measure_game, pooled
from asteroids.pilots.persona import PARAMS, PersonaError, parse_persona, persona_toml
from asteroids.replay import get_bot, load_replay, record_bot_game, verify_replay
from tests.test_architecture import call_violations

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = load_config("classic")

FIT_RULES = load_config(overrides=["game.first_wave_asteroids=1", "game.wave_increment=0",
                                   "asteroids.split_children=0"])
"""One large rock a wave and no fragments: a wave every few seconds, so a minute of play
times many reactions (the fit's stimulus is a new wave)."""


# --- the persona files ----------------------------------------------------------------------

def test_bundled_personas_load_and_rank_by_skill():
    novice, average, expert = (bundled_persona(n) for n in ("novice", "average", "expert"))
    assert novice.reaction_ms > average.reaction_ms > expert.reaction_ms
    assert novice.fire_discipline < average.fire_discipline < expert.fire_discipline
    assert novice.attention < average.attention < expert.attention


def test_a_persona_file_round_trips():
    persona = bundled_persona("novice").replace(reaction_ms=333.25, attention=7)
    assert parse_persona(persona_toml(persona)) == persona
    assert parse_persona(persona_toml(persona, comments=False)) == persona


def test_a_bad_persona_file_names_every_problem_with_line_and_column(tmp_path, capsys):
    text = persona_toml(bundled_persona("novice"), comments=False)
    text = text.replace("reaction_ms = 450.0", "reaction_ms = -1")
    text = text.replace("attention = 2", "attention = 2.5") + "aim = 3\n"
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    assert cli.main(["persona", "show", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3:1: error[range]: reaction_ms must be a number in [0, 1500] (ms)" in err
    assert "attention must be an integer in [1, 64]" in err
    assert "error[unknown-key]: aim is not a persona parameter" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.key)
def test_every_parameter_is_accepted_at_its_bounds_and_refused_past_them(param):
    base = bundled_persona("average")
    kind = int if param.integer else float
    assert base.replace(**{param.key: kind(param.low)}) is not None
    assert base.replace(**{param.key: kind(param.high)}) is not None
    step = 1 if param.integer else 0.001
    for value in (kind(param.low) - step, kind(param.high) + step):
        with pytest.raises(ValueError, match=param.key):
            base.replace(**{param.key: value})


def test_a_missing_parameter_is_refused():
    text = persona_toml(bundled_persona("expert"), comments=False)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("attention"))
    with pytest.raises(PersonaError, match="missing: attention"):
        parse_persona(text, source="x.toml")


# --- the random stream ------------------------------------------------------------------------

def test_the_stream_is_uniform_and_a_batch_draws_what_single_games_draw():
    keys = np.array([noise.game_key(s, 99) for s in range(8)], dtype=np.uint64)
    batch = noise.uniform(keys, 17, 3)
    single = [noise.uniform(keys[i:i + 1], 17, 3)[0] for i in range(8)]
    assert batch.tolist() == single
    u = noise.uniform(keys[:1], np.arange(50_000), 2)
    assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.003
    z = noise.normal(keys[:1], np.arange(50_000), 4)
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1.0) < 0.02 and np.abs(z).max() <= 3.47


def test_the_pilot_modules_use_only_bit_exact_arithmetic():
    """No libm, no reduction whose order can vary, no set: the same decisions everywhere."""
    for name in ("noise.py", "pilot.py"):
        path = ROOT / "asteroids" / "pilots" / name
        assert call_violations(path.read_text(), name) == []


# --- playing ---------------------------------------------------------------------------------

def test_a_persona_game_is_reproducible_and_its_replay_verifies():
    one = record_bot_game(CLASSIC, 5, get_bot("novice"), 800)
    two = record_bot_game(CLASSIC, 5, get_bot("novice"), 800)
    assert one.masks == two.masks and one.final_hash == two.final_hash
    assert verify_replay(one).ok
    other = record_bot_game(CLASSIC, 6, get_bot("novice"), 800)
    assert other.masks != one.masks


def test_one_pilot_plays_game_after_game_as_fresh_pilots_do():
    pilot = get_bot("average")
    first = record_bot_game(CLASSIC, 2, pilot, 600)
    again = record_bot_game(CLASSIC, 2, pilot, 600)
    assert first.masks == again.masks


def test_perfect_is_the_aimer():
    assert pilot_for("perfect") is get_bot("aimer")


def test_record_plays_a_persona_file(tmp_path, capsys):
    path = tmp_path / "me.toml"
    path.write_text(persona_toml(bundled_persona("expert").replace(name="me")))
    out = tmp_path / "g.replay"
    assert cli.main(["record", "--bot", str(path), "--seed", "3", "--ticks", "400",
                     "--out", str(out)]) == 0
    assert verify_replay(load_replay(out)).ok
    assert cli.main(["record", "--bot", "novce", "--seed", "1", "--ticks", "9",
                     "--out", str(out)]) == 2
    assert "known bots:" in capsys.readouterr().err


@pytest.mark.parametrize("reaction_ms", [200.0, 400.0])
def test_nothing_is_done_about_a_new_wave_before_the_reaction_time(reaction_ms):
    """With no jitter the first turn or shot after a wave appears comes exactly the reaction
    time later (rounded to a tick), never sooner."""
    persona = bundled_persona("average").replace(reaction_ms=reaction_ms,
                                                 reaction_jitter_ms=0.0)
    replay = record_bot_game(FIT_RULES, 1, PersonaPilot(persona), 1800)
    stats = measure_game(FIT_RULES, 1, replay.masks)
    delay = round(reaction_ms * FIT_RULES.world.tick_hz / 1000.0) * 1000.0 / 60.0
    assert len(stats.reactions) >= 3
    assert min(stats.reactions) == pytest.approx(delay)


def test_attention_of_one_sees_only_the_nearest_rock():
    """An attentive pilot turns toward a far rock on a collision course; one that tracks a
    single rock keeps to the nearest and never turns toward the far one first."""
    near = bundled_persona("expert").replace(attention=1, reaction_ms=0.0,
                                             reaction_jitter_ms=0.0, thrust_share=0.0)
    wide = near.replace(attention=2)
    a = record_bot_game(CLASSIC, 9, PersonaPilot(near), 900)
    b = record_bot_game(CLASSIC, 9, PersonaPilot(wide), 900)
    assert a.masks != b.masks


def test_skill_shows_in_the_games():
    """Over the same seeds, the expert scores more and fires fewer shots per kill than the
    novice, and the perfect pilot more than both."""
    from asteroids.lab.game import play_game

    results = {name: [play_game(CLASSIC, s, name, 3000)[0] for s in (1, 2, 3)]
               for name in ("novice", "expert")}
    score = {n: sum(g.score for g in r) for n, r in results.items()}
    spk = {n: sum(g.shots_fired for g in r) / max(sum(g.kills for g in r), 1)
           for n, r in results.items()}
    assert score["expert"] > score["novice"] and spk["expert"] < spk["novice"]


# --- fitting ---------------------------------------------------------------------------------

KNOWN = bundled_persona("average").replace(
    name="known", reaction_ms=380.0, reaction_jitter_ms=60.0, thrust_share=0.22,
    fire_discipline=0.4, hyperspace_panic=0.5)
"""The persona whose replays the fit must read back."""

FIT_ERROR = {"reaction_ms": 40.0, "reaction_jitter_ms": 40.0, "thrust_share": 0.03,
             "fire_discipline": 0.2}
"""The stated error of the fit on six one-minute games (the fit's docstring)."""


@pytest.mark.slow
def test_fit_recovers_a_known_persona_within_the_stated_error(tmp_path, capsys):
    paths = []
    for seed in range(1, 7):
        replay = record_bot_game(FIT_RULES, seed, PersonaPilot(KNOWN), 3600)
        path = tmp_path / f"g{seed}.replay"
        from asteroids.replay import save_replay

        save_replay(replay, path)
        paths.append(str(path))
    out = tmp_path / "fitted.toml"
    assert cli.main(["persona", "fit", *paths, "--out", str(out), "--no-replay"]) == 0
    report = capsys.readouterr().out
    assert "reaction to a new wave" in report and "shots per kill" in report
    fitted = parse_persona(out.read_text())
    assert fitted.name == "fitted"
    for key, error in FIT_ERROR.items():
        assert abs(getattr(fitted, key) - getattr(KNOWN, key)) <= error, (key, fitted)


def test_the_fit_plays_its_persona_on_the_same_seeds_side_by_side():
    replays = [record_bot_game(FIT_RULES, s, PersonaPilot(KNOWN), 600) for s in (1, 2)]
    fit = fit_persona(replays, name="me")
    assert fit.fitted is not None and fit.fitted["games"] == 2
    assert fit.fitted["minutes_flying"] > 0 and fit.player["minutes_flying"] > 0
    assert pooled([])["games"] == 0


def test_fit_refuses_an_unreadable_replay_in_one_paragraph(tmp_path, capsys):
    bad = tmp_path / "bad.replay"
    bad.write_bytes(b"not a replay")
    assert cli.main(["persona", "fit", str(bad), "--out", str(tmp_path / "o.toml")]) == 2
    err = capsys.readouterr().err
    assert "bad.replay" in err and "Traceback" not in err
    assert not (tmp_path / "o.toml").exists()


def test_persona_list_names_them_all(capsys):
    assert cli.main(["persona", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("novice", "average", "expert", "perfect"):
        assert name in out
