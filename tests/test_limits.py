"""The work budget of a tick (docs/limits.md): rules that could make one step cost more than
``BUDGET_MS`` or ``BUDGET_MB`` are refused before a game starts (the config validator, at the
key's file:line:col; the replay reader, in one paragraph with exit 2), the worst accepted
games stay within it, an extra-life flood costs one event, and a replay's settings changes
load quickly."""

from __future__ import annotations

import dataclasses
import functools
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config import Config, ConfigError, load_config
from asteroids.config.budget import (
    BUDGET_MB,
    BUDGET_MS,
    CLASSIC_VERTICES,
    SHOT_PIECES,
    Carry,
    TickWork,
    rules_getter,
)
from asteroids.config.live import apply_changes, plan_reload
from asteroids.config.loader import load_preset
from asteroids.core import new_world, step
from asteroids.core.bot import aimer_bot
from asteroids.core.params import params_for
from asteroids.core.simulation import MAX_SHOT_PIECES
from asteroids.core.tables import CLASSIC_ROCKS
from asteroids.core.world import FIELD_NAMES
from asteroids.replay.changes import MAX_CHANGES, MAX_TOTAL_SETTINGS, ConfigChange
from asteroids.replay.format import (
    MAX_CHECKPOINT_EVERY,
    Replay,
    ReplayError,
    decode_replay,
    encode_replay,
    rules_fingerprint,
)
from benchmarks.limits import (
    CORNERS,
    PLACES,
    changes_replay,
    knob_extremes,
    largest_accepted,
    worst_world,
)

ROOT = Path(__file__).resolve().parents[1]
bound_of = functools.cache(largest_accepted)
"""Each corner's largest accepted number (a bisection of the validator), found once."""


def _over_budget(exc: ConfigError) -> bool:
    return any(e.code == "cross-field" and "budget" in e.message for e in exc.errors)


def _replay(config: Config, changes: tuple[ConfigChange, ...] = (), ticks: int = 2) -> bytes:
    """A well-formed replay file of ``config`` (its hashes are never checked: the reader
    refuses it before any simulation)."""
    replay = Replay(
        seed=1, config=config, masks=bytes(ticks), checkpoints=((0, "0" * 32),),
        final_hash="0" * 32, final_score=0, final_wave=1, created_at="2026-01-01T00:00:00Z",
        game_version="0.1.0", rules=rules_fingerprint(config), tick_hz=config.world.tick_hz,
        tick_hashes=bytes(ticks), checkpoint_digests=(bytes(len(FIELD_NAMES)),),
        checkpoint_every=MAX_CHECKPOINT_EVERY, config_changes=changes,
    )
    return encode_replay(replay)


def _set(config: Config, **tables: dict) -> Config:
    """``config`` with fields replaced, unchecked (a hostile file holds what it likes)."""
    return dataclasses.replace(config, **{
        name: dataclasses.replace(getattr(config, name), **values)
        for name, values in tables.items()})


# --------------------------------------------------------------------------- the model


def test_the_budget_counts_what_the_core_does() -> None:
    assert CLASSIC_VERTICES == max(len(r) for r in CLASSIC_ROCKS)
    assert SHOT_PIECES == MAX_SHOT_PIECES


@settings(max_examples=12, deadline=None)
@given(first=st.integers(1, 3), most=st.integers(1, 3), grow=st.integers(0, 1),
       split=st.integers(0, 3), cap=st.integers(1, 40), seed=st.integers(0, 2**32))
def test_rocks_alive_never_pass_the_count_the_budget_uses(first: int, most: int, grow: int,
                                                          split: int, cap: int,
                                                          seed: int) -> None:
    """Waves come one at a time, so the largest wave split twice bounds the rocks alive."""
    config = load_config(overrides=[
        f"game.first_wave_asteroids={first}", f"game.max_wave_asteroids={most}",
        f"game.wave_increment={grow}", f"asteroids.split_children={split}",
        f"asteroids.max_alive={cap}", "game.lives=99", "shots.max_alive=20",
        "shots.autofire=true", "shots.lifetime_s=3"])
    bound = TickWork.of(rules_getter(config)).rocks
    p = params_for(config)  # compiled once, passed every tick
    world = new_world(p, seed)
    for _ in range(900):
        world, _ = step(world, aimer_bot(world, p), p)
        assert world.asteroid_count <= bound


def test_rocks_made_under_earlier_rules_count_after_a_change() -> None:
    before = load_config(overrides=["game.first_wave_asteroids=9", "game.max_wave_asteroids=9",
                                    "asteroids.split_children=3", "asteroids.max_alive=100"])
    after = apply_changes(before, ["game.max_wave_asteroids=1", "asteroids.split_children=1"])
    assert TickWork.of(rules_getter(after)).rocks == 1
    assert TickWork.of(rules_getter(after), Carry.of(rules_getter(before))).rocks == 81
    carried = Carry.of(rules_getter(before)).then(rules_getter(after))
    assert (carried.wave, carried.split) == (9, 3)


# --------------------------------------------------------------------------- the validator


def test_every_rule_knob_at_either_end_of_its_range_fits_every_preset_but_one() -> None:
    """The documented ranges stay valid on every preset, knob by knob; the one exception
    (docs/limits.md) is the arena with the most shots: there every shot may ricochet twice
    in a tick, each piece tested on its own."""
    accepted, refused = knob_extremes()
    assert len(accepted) > 300
    assert {(preset, text) for preset, text, message in refused if "budget" in message} == {
        ("arena", "shots.max_alive=1000")}


@pytest.mark.parametrize("corner", CORNERS, ids=lambda c: c.name)
def test_each_kind_of_work_is_accepted_at_its_bound_and_refused_one_past(corner) -> None:
    k = bound_of(corner)
    assert 0 < k < corner.hi
    ms, mb = TickWork.of(rules_getter(corner.config(k))).cost()
    assert ms <= BUDGET_MS and mb <= BUDGET_MB
    with pytest.raises(ConfigError) as caught:
        corner.config(k + 1)
    assert _over_budget(caught.value)


ISSUE_FILE = """\
# 10 000 colliding rocks of radius 2 000 in a 4 100 px world (13.4 GB in verify)
[world]
width_px = 4100
height_px = 4100

[asteroids]
radius_px = [2000, 1000, 500]
max_alive = 10000
collide = true

[game]
first_wave_asteroids = 10000
max_wave_asteroids = 10000
"""


def test_the_issue_flood_is_refused_at_the_line_that_turns_it_on(tmp_path: Path) -> None:
    path = tmp_path / "flood.toml"
    path.write_text(ISSUE_FILE, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    (issue,) = caught.value.errors
    assert issue.code == "cross-field" and issue.key == "asteroids.collide"
    assert (issue.source, issue.line, issue.col) == (str(path), 9, 1)
    assert "49 995 000 pairs" in issue.message and "asteroids.collide = false" in issue.message
    done = subprocess.run([sys.executable, "-m", "asteroids", "config", "check", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"{path}:9:1: error[cross-field]" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("overrides, culprit", [
    (["shots.max_alive=1000", "saucers.max_shots=100", "asteroids.vertices_max=64"],
     "shots may each test"),
    (["obstacles=[{points = [" + ", ".join(f"[{100 + i % 1000}, {100 + i // 1000}]"
                                           for i in range(3000)) + "]}]",
      "shots.max_alive=200"], "shots may each test"),
    (["borders.shots=bounce", "shots.max_alive=1000"], "ricochet 2 times"),
    (["asteroids.max_alive=10000", "game.first_wave_asteroids=10000",
      "game.max_wave_asteroids=10000", "asteroids.split_children=0",
      "asteroids.vertices_min=3", "asteroids.vertices_max=3"], "a wave of 10 000 rocks"),
])
def test_other_floods_are_refused_naming_the_work(overrides: list[str], culprit: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(overrides=overrides)
    (issue,) = caught.value.errors
    assert issue.code == "cross-field" and culprit in issue.message


# --------------------------------------------------------------------------- the replay reader


def test_a_replay_over_the_budget_is_refused_in_one_paragraph(tmp_path: Path) -> None:
    hostile = _set(load_preset("default"), world={"width_px": 4100.0, "height_px": 4100.0},
                   asteroids={"radius_px": (2000.0, 1000.0, 500.0), "max_alive": 10000,
                              "collide": True},
                   game={"first_wave_asteroids": 10000, "max_wave_asteroids": 10000})
    data = _replay(hostile)
    with pytest.raises(ReplayError) as caught:
        decode_replay(data, "flood.replay")
    assert "budget" in caught.value.problem
    path = tmp_path / "flood.replay"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "asteroids", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    out = (done.stdout + done.stderr).strip()
    assert "budget" in out and "Traceback" not in out and "\n\n" not in out


def _flying_then_colliding() -> tuple[Config, Config]:
    """300 rocks a wave; then one-rock waves that collide: fine for a new game, over the
    budget while the 300 still fly."""
    start = load_config(overrides=["game.first_wave_asteroids=300",
                                   "game.max_wave_asteroids=300", "game.wave_increment=0",
                                   "asteroids.split_children=0", "asteroids.max_alive=300"])
    later = apply_changes(start, ["game.max_wave_asteroids=1", "asteroids.collide=true"])
    return start, later


def test_a_change_over_the_budget_with_the_rocks_still_flying_is_refused() -> None:
    start, later = _flying_then_colliding()
    assert not TickWork.of(rules_getter(later)).over_budget()
    change = ConfigChange(1, ("asteroids.collide=true", "game.max_wave_asteroids=1"), later)
    with pytest.raises(ReplayError) as caught:
        decode_replay(_replay(start, (change,), ticks=3), "live.replay")
    assert "config change 1 (tick 1)" in caught.value.problem
    assert "budget" in caught.value.problem


def test_a_live_reload_over_the_budget_with_the_rocks_still_flying_waits() -> None:
    start, later = _flying_then_colliding()
    assert plan_reload(start, later).config == later  # a new game could take it
    plan = plan_reload(start, later, carry=Carry.of(rules_getter(start)))
    assert plan.config is start and not plan.live
    assert "budget" in plan.reason


# --------------------------------------------------------------------------- extra lives


# --------------------------------------------------------------------------- measured


@pytest.mark.slow
@pytest.mark.parametrize("corner", CORNERS, ids=lambda c: c.name)
def test_the_worst_accepted_games_stay_within_the_memory_budget(corner) -> None:
    """Each kind of work at its bound, in every worst placement: the step's peak allocation
    (tracemalloc: deterministic, unlike time) stays within ``BUDGET_MB`` and its events
    within the count; its CPU time within a generous multiple of ``BUDGET_MS`` (the bar
    itself is measured by ``asteroids bench limits``, not here)."""
    config = corner.config(bound_of(corner))
    work = TickWork.of(rules_getter(config))
    p = params_for(config)  # compiled outside the timed step: the budget is the step's
    for place in PLACES:
        if place == "ricochet" and config.borders.shots != "bounce":
            continue
        world = worst_world(config, place)
        step(world, 0, p)
        tracemalloc.start()
        try:
            t0 = time.process_time()
            _, events = step(world, 0, p)
            spent = time.process_time() - t0
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= BUDGET_MB * 2**20, place
        assert len(events) <= work.events, place
        assert spent * 1e3 <= 5 * BUDGET_MS, place


# --------------------------------------------------------------------------- replay loading


@pytest.mark.slow
def test_the_most_changes_a_replay_holds_load_in_seconds() -> None:
    """10 000 changes took 24 s to read when each rebuilt the whole settings from TOML; now
    each costs what it sets, and the settings it keeps are shared with the one before."""
    data = changes_replay(MAX_CHANGES)
    t0 = time.process_time()
    replay = decode_replay(data, "changes.replay")
    assert time.process_time() - t0 < 8.0
    first, second = replay.config_changes[:2]
    assert len(replay.config_changes) == MAX_CHANGES
    assert second.config.world is first.config.world is replay.config.world
    assert second.config.ship is not first.config.ship


def _wide_changes(total: int) -> tuple[Config, tuple[ConfigChange, ...]]:
    """Changes of up to 20 live settings each, flipped back and forth, ``total`` in all."""
    start = load_preset("default")
    keys = ["ship.thrust_px_per_s2", "ship.turn_deg_per_s", "ship.drag_per_s",
            "ship.max_speed_px_per_s", "ship.respawn_delay_s", "shots.speed_px_per_s",
            "shots.lifetime_s", "saucers.lurk_s", "saucers.speed_px_per_s",
            "saucers.zigzag_interval_s", "saucers.fire_interval_s",
            "saucers.shot_speed_px_per_s", "saucers.shot_lifetime_s", "saucers.aim_error_deg",
            "saucers.aim_error_expert_deg", "asteroids.speed_max_px_per_s",
            "asteroids.spin_max_deg_per_s", "asteroids.split_kick_px_per_s",
            "game.next_wave_delay_s", "game.spawn_clearance_px"]
    get = rules_getter(start)
    out, config = [], start
    while total > 0:
        tick = len(out)
        settings = tuple(f"{key}={get(key) + (1.0 if tick % 2 == 0 else 0.0)!r}"
                         for key in keys[:min(total, len(keys))])
        config = apply_changes(config, settings)
        out.append(ConfigChange(tick, settings, config))
        total -= len(settings)
    return start, tuple(out)


@pytest.mark.slow
@pytest.mark.parametrize("total, ok", [(MAX_TOTAL_SETTINGS, True),
                                       (MAX_TOTAL_SETTINGS + 1, False)])
def test_a_replay_sets_at_most_so_many_settings_in_all(total: int, ok: bool) -> None:
    start, changes = _wide_changes(total)
    data = _replay(start, changes, ticks=len(changes) + 1)
    if ok:
        assert len(decode_replay(data, "wide.replay").config_changes) == len(changes)
    else:
        with pytest.raises(ReplayError, match=f"more than {MAX_TOTAL_SETTINGS} settings"):
            decode_replay(data, "wide.replay")


@pytest.mark.slow
def test_the_limits_benchmark_runs_and_prints_its_tables() -> None:
    """``asteroids bench limits --quick`` measures every corner (nothing is timed here)."""
    done = subprocess.run(
        [sys.executable, "-m", "asteroids", "bench", "limits", "--quick", "--ticks", "1",
         "--changes", "50"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for corner in CORNERS:
        assert f"| {corner.name} |" in done.stdout
    assert "Extra-life flood" in done.stdout and "gave 1000000 ships" in done.stdout
    assert "Replay load: 50 settings changes" in done.stdout
