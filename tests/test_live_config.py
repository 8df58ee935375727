"""Live reload, the pure part: every setting classified, diffs, reload plans, the file watcher."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.app.live import Outcome, notice_lines, problem_lines
from asteroids.config import ConfigError, load_config
from asteroids.config.live import (
    apply_changes,
    diff_configs,
    leaf_keys,
    plan_reload,
    timing_of,
)
from asteroids.config.rulesets import (
    KNOB_TIMING,
    LIVE,
    MATCH_TABLES,
    NEXT_GAME,
    NON_RULE_TABLES,
    RULE_TABLES,
    ruleset_choices,
)
from asteroids.config.watch import ConfigWatcher, file_signature

# --- the table ----------------------------------------------------------------------------


def test_every_setting_of_the_schema_is_classified() -> None:
    for key in leaf_keys():
        table = key.split(".")[0]
        if table in RULE_TABLES + MATCH_TABLES:
            assert key in KNOB_TIMING, f"{key}: decide whether it can change mid-game"
        else:
            assert table in NON_RULE_TABLES
            assert timing_of(key).when == LIVE


def test_the_table_names_only_real_settings() -> None:
    leaves = set(leaf_keys())
    for key, timing in KNOB_TIMING.items():
        assert key in leaves or key in NON_RULE_TABLES, key
        assert timing.when in (LIVE, NEXT_GAME) and timing.why, key
        if timing.next_game_if is not None:
            assert timing.when == LIVE, key


def test_the_player_tables_are_listed_whole() -> None:
    for table in NON_RULE_TABLES:
        assert KNOB_TIMING[table].when == LIVE
    with pytest.raises(KeyError):
        timing_of("nosuch.key")


# --- diffs and plans ------------------------------------------------------------------------


def test_a_diff_lists_each_changed_setting_with_old_and_new_value() -> None:
    old = load_config()
    new = load_config(overrides=["ship.thrust_px_per_s2=420", "borders.ship=bounce",
                                 "scoring.asteroid=[20, 50, 200]", "keys.fire=['SPACE', 'J']"])
    changes = diff_configs(old, new)
    assert [c.text for c in changes] == [
        "borders.ship wrap \u2192 bounce",
        "ship.thrust_px_per_s2 300 \u2192 420",
        "scoring.asteroid [20, 50, 100] \u2192 [20, 50, 200]",
        "keys.fire [SPACE] \u2192 [SPACE, J]",
    ]
    assert [c.rule for c in changes] == [True, True, True, False]
    assert diff_configs(old, old) == []
    # As --set overrides they rebuild exactly the new settings.
    assert apply_changes(old, changes) == new


def test_an_override_keeps_every_bit_of_a_float() -> None:
    old = load_config()
    new = load_config(overrides=["ship.drag_per_s=0.1"])
    value = 0.1 + 0.2  # not a short decimal
    new = apply_changes(old, [f"ship.drag_per_s={value!r}"])
    assert new.ship.drag_per_s == value
    (change,) = diff_configs(old, new)
    assert apply_changes(old, [change.override]).ship.drag_per_s == value


def test_a_plan_applies_live_settings_and_defers_the_world() -> None:
    running = load_config()
    new = load_config(overrides=["ship.thrust_px_per_s2=420", "world.width_px=1600"])
    plan = plan_reload(running, new)
    assert [c.key for c in plan.live] == ["ship.thrust_px_per_s2"]
    assert [c.key for c in plan.deferred] == ["world.width_px"]
    assert plan.config.ship.thrust_px_per_s2 == 420.0
    assert plan.config.world.width_px == 1280.0
    assert plan.reason == ""


def test_a_live_setting_that_contradicts_the_running_world_waits_too() -> None:
    running = load_config()  # 1280 x 720: safe radius at most 360
    new = load_config(overrides=["world.height_px=1200", "ship.safe_radius_px=500"])
    plan = plan_reload(running, new)
    assert plan.live == () and plan.config == running
    assert {c.key for c in plan.deferred} == {"world.height_px", "ship.safe_radius_px"}
    assert "safe_radius_px" in plan.reason


def test_a_plan_with_nothing_live_keeps_the_running_settings_object() -> None:
    running = load_config()
    plan = plan_reload(running, load_config(overrides=["world.tick_hz=50"]))
    assert plan.config is running and plan.live == ()


def test_long_change_lists_are_summarised() -> None:
    old = load_config()
    new = load_config(overrides=[f"saucers.{k}=1" for k in (
        "lurk_s", "speed_px_per_s", "large_radius_px", "small_radius_px", "fire_interval_s",
        "shot_speed_px_per_s", "shot_lifetime_s", "aim_error_deg")])
    changes = diff_configs(old, new)
    assert len(changes) == 8
    lines, waiting = notice_lines(["/x/my.toml"], changes, Outcome(), limit=5)
    assert lines[0] == "my.toml reloaded" and len(lines) == 6 and lines[-1] == "+4 more"
    assert lines[1] == "saucers.lurk_s 5.12 \u2192 1" and waiting == set()
    five, _ = notice_lines(["my.toml"], changes[:5], Outcome(), limit=5)
    assert len(five) == 6 and not five[-1].startswith("+")


def test_a_notice_marks_what_waits_and_ends_with_the_views_notes() -> None:
    old = load_config()
    changes = diff_configs(old, load_config(overrides=["world.width_px=1600",
                                                       "ship.thrust_px_per_s2=420"]))
    outcome = Outcome({"world.width_px"}, ["applies to the next game (R restarts now)"])
    lines, waiting = notice_lines(["a.toml", "b.toml"], changes, outcome)
    assert lines == ["a.toml, b.toml reloaded",
                     "world.width_px 1280 \u2192 1600  (next game)",
                     "ship.thrust_px_per_s2 300 \u2192 420",
                     "applies to the next game (R restarts now)"]
    assert waiting == {1, 3}
    assert notice_lines(["a.toml"], [], Outcome()) == (["a.toml reloaded: no setting changed"],
                                                        set())


def test_problem_lines_are_config_checks_lines_under_a_header(tmp_path: Path) -> None:
    path = tmp_path / "my.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = -5\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = problem_lines([str(path)], info.value)
    assert lines[0].startswith("my.toml: 1 problem; the game goes on with the last good")
    assert lines[1:] == str(info.value).splitlines()[:-1]


def test_ruleset_choices_take_an_already_loaded_player_config(tmp_path: Path) -> None:
    path = tmp_path / "my.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = 420\n")
    player = load_config(path, overrides=["ship.turn_deg_per_s=200"])
    choices = ruleset_choices([path], ["ship.turn_deg_per_s=200"], player=player)
    assert choices.rulesets[choices.selected].config is player
    assert choices.rulesets[choices.selected].label.startswith("my.toml")


# --- the watcher -----------------------------------------------------------------------------


def _write(path: Path, text: str, *, bump_ns: int = 10_000_000) -> None:
    """Write ``text`` and move the modification time on (as a later save would)."""
    before = file_signature(path)
    path.write_text(text)
    if isinstance(before, tuple):
        os.utime(path, ns=(before[0] + bump_ns, before[0] + bump_ns))


def _poll(watcher: ConfigWatcher, times: int = 2):  # type: ignore[no-untyped-def]
    result = None
    for _ in range(times):
        result = watcher.poll(0.0) or result
    return result


@pytest.fixture
def toml(tmp_path: Path) -> Path:
    path = tmp_path / "my.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = 300\n")
    return path


def test_a_watcher_reloads_a_changed_file_once_it_holds_still(toml: Path) -> None:
    watcher = ConfigWatcher([toml], ["ship.turn_deg_per_s=200"], interval_s=0.0)
    assert watcher.poll(0.0) is None  # nothing changed
    _write(toml, "[ship]\nthrust_px_per_s2 = 420\n")
    assert watcher.poll(0.0) is None  # just changed: not read yet (a save may be under way)
    result = watcher.poll(0.0)
    assert result is not None and result.ok and result.changed == (str(toml),)
    assert result.config is not None
    assert result.config.ship.thrust_px_per_s2 == 420.0
    assert result.config.ship.turn_deg_per_s == 200.0  # --set still on top
    assert watcher.poll(0.0) is None and watcher.loads == 1


def test_a_watcher_looks_at_most_every_interval(toml: Path) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.25)
    assert watcher.poll(10.0) is None
    _write(toml, "[ship]\nthrust_px_per_s2 = 420\n")
    assert watcher.poll(10.1) is None  # too soon to look at all
    assert watcher.poll(10.26) is None  # sees the change
    assert watcher.poll(10.3) is None
    result = watcher.poll(10.52)  # still the same: read it
    assert result is not None and result.ok


def test_a_file_still_being_written_is_not_read(toml: Path) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.0)
    _write(toml, "[ship]\nthrust_px_per_s2 = 4")
    assert watcher.poll(0.0) is None
    _write(toml, "[ship]\nthrust_px_per_s2 = 420\n[shots]\n")  # grew since the last look
    assert watcher.poll(0.0) is None
    result = watcher.poll(0.0)
    assert result is not None and result.ok and watcher.loads == 1


@pytest.mark.parametrize(("text", "code"), [
    ("[ship]\nthrust_px_per_s2 = ", "syntax"),              # cut off mid-save
    ("[ship]\nthrust_px_per_s2 = -5\n", "range"),
    (b"\xff\xfe[ship]", "syntax"),                          # not UTF-8
])
def test_a_broken_file_gives_the_same_problems_as_config_check(
        toml: Path, text: str | bytes, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.0)
    if isinstance(text, bytes):
        toml.write_bytes(text)
        os.utime(toml, ns=(1, 1))
    else:
        _write(toml, text)
    result = _poll(watcher)
    assert result is not None and not result.ok and result.error is not None
    assert cli.main(["config", "check", str(toml)]) == 2
    printed = capsys.readouterr().err.splitlines()
    assert [str(e) for e in result.error.errors] == printed[:-1]
    assert result.error.errors[0].code == code


def test_a_vanished_file_is_a_problem_and_its_return_a_reload(toml: Path) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.0)
    toml.unlink()
    result = _poll(watcher)
    assert result is not None and not result.ok and result.error is not None
    (issue,) = result.error.errors
    assert issue.code == "unreadable" and "No such file" in issue.message
    assert _poll(watcher) is None  # reported once
    toml.write_text("[ship]\nthrust_px_per_s2 = 500\n")
    result = _poll(watcher)
    assert result is not None and result.ok and result.config is not None
    assert result.config.ship.thrust_px_per_s2 == 500.0


def test_an_unreadable_file_is_a_problem_not_a_crash(toml: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    watcher = ConfigWatcher([toml], interval_s=0.0)
    toml.chmod(0)
    try:
        result = _poll(watcher)
    finally:
        toml.chmod(0o644)
    assert result is not None and result.error is not None
    assert result.error.errors[0].code == "unreadable"


def test_a_file_replaced_by_a_folder_is_a_problem_not_a_crash(toml: Path) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.0)
    toml.unlink()
    toml.mkdir()
    result = _poll(watcher)
    assert result is not None and result.error is not None
    assert "folder" in result.error.errors[0].message


def test_every_layer_is_watched_and_reloaded_in_order(tmp_path: Path) -> None:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("[ship]\nthrust_px_per_s2 = 100\nturn_deg_per_s = 100\n")
    b.write_text("[ship]\nthrust_px_per_s2 = 200\n")
    watcher = ConfigWatcher(["classic", a, b], interval_s=0.0)
    _write(a, "[ship]\nthrust_px_per_s2 = 100\nturn_deg_per_s = 150\n")
    result = _poll(watcher)
    assert result is not None and result.ok and result.config is not None
    assert result.changed == (str(a),)
    assert result.config.ship.turn_deg_per_s == 150.0
    assert result.config.ship.thrust_px_per_s2 == 200.0  # b still wins
    assert result.config.world.tick_hz == 62.5  # the classic preset under both


def test_a_watcher_of_no_files_never_loads() -> None:
    watcher = ConfigWatcher([], ["ship.thrust_px_per_s2=400"], interval_s=0.0)
    assert _poll(watcher, 3) is None


def test_config_error_of_a_broken_reload_lists_every_problem(toml: Path) -> None:
    watcher = ConfigWatcher([toml], interval_s=0.0)
    _write(toml, "[ship]\nthrust_px_per_s2 = -5\nturn_deg_per_s = true\n[nosuch]\n")
    result = _poll(watcher)
    assert result is not None and isinstance(result.error, ConfigError)
    assert [e.code for e in result.error.errors] == ["range", "type", "unknown-key"]
