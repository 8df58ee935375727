"""Every setting ``KNOB_TIMING`` calls live really can change under a running World.

For each live rule setting and each bundled preset: play a game for a while, change the
setting to another valid value (and, in the slow run, to each end of its range), play a few
hundred ticks more, and check every World invariant after every tick with the settings in
force. The settings that wait for the next game are shown to need it: lowering a cap under
what the World holds breaks the cap, switching saucers off strands a saucer in flight,
switching extra ships on from 0 pays every missed one at once.
"""

from __future__ import annotations

import functools
import random

import pytest

from asteroids.config import Config, ConfigError
from asteroids.config.bundled import preset_names
from asteroids.config.knobs import Knob, knobs
from asteroids.config.live import apply_changes, diff_configs, leaf_keys, timing_of
from asteroids.config.loader import load_preset
from asteroids.config.render import render_value
from asteroids.config.rulesets import LIVE, NEXT_GAME, RULE_TABLES
from asteroids.config.schema import Config as ConfigClass
from asteroids.core import new_world, step
from asteroids.core.params import params_for
from asteroids.core.world import SHOOTER_SHIP, Draft, World
from tests.core.invariants import check_world

PREFIX_TICKS = 800
"""Ticks played before the change: past the first saucer (9.3 s) in every preset."""
AFTER_TICKS = 240
"""Ticks played after it."""
SEED = 11
"""A game that has a saucer flying and shots in flight at the change, in every preset."""


def _knob(key: str) -> Knob:
    cls: type = ConfigClass
    parts = key.split(".")
    for part in parts[:-1]:
        cls = next(k.cls for k in knobs(cls) if k.name == part)
    return next(k for k in knobs(cls) if k.name == parts[-1])


def _get(config: Config, key: str) -> object:
    value: object = config
    for part in key.split("."):
        value = getattr(value, part)
    return value


def _candidates(key: str, value: object, extremes: bool) -> list[object]:
    """Other values for a setting: an ordinary one first, or the ends of its range."""
    knob = _knob(key)
    meta = knob.meta
    lo, hi = meta.get("lo"), meta.get("hi")
    if knob.kind == "bool":
        return [not value]
    if knob.kind == "str":
        return [c for c in meta["choices"] if c != value]
    if knob.kind == "list":
        assert isinstance(value, tuple)
        if extremes:
            return [tuple(type(v)(hi) for v in value), tuple(type(v)(lo) for v in value)]
        return [tuple(v + 1 for v in value)]
    if knob.kind == "int":
        assert isinstance(value, int)
        if extremes:
            return [int(hi), int(lo) + (1 if meta.get("lo_open") else 0)]
        return [value + 1, value * 2 + 1, value - 1]
    assert knob.kind == "float" and isinstance(value, float)
    if extremes:
        low = lo + (hi - lo) * 1e-6 if meta.get("lo_open") else lo
        return [float(hi), float(low)]
    return [value * 1.5 + 1.0, value * 0.5]


def _live_change(start: Config, key: str, extremes: bool) -> list[tuple[Config, Config]]:
    """(settings at start, settings after) pairs: the start is the preset, or, when no value
    is a live change from the preset's (saucers switched off), the preset with another
    value from which the preset's own is a live change."""
    value = _get(start, key)
    out = []
    for other in _candidates(key, value, extremes):
        try:
            changed = apply_changes(start, [f"{key}={render_value(other)}"])
        except ConfigError:
            continue
        diff = diff_configs(start, changed)
        if diff and all(c.when == LIVE for c in diff):
            out.append((start, changed))
        elif diff and all(c.when == LIVE for c in diff_configs(changed, start)):
            out.append((changed, start))  # e.g. saucers off at start, switched on live
        if out and not extremes:
            break
    return out


LIVE_RULE_KEYS = [k for k in leaf_keys() if k.split(".")[0] in RULE_TABLES
                  and timing_of(k).when == LIVE]
PRESETS = [p for p in preset_names() if p in ("default", "classic", "arena")]


def _masks(seed: int, n: int, hold_fire: int = 0) -> list[int]:
    """A busy player: turning, thrusting, firing in bursts (from tick ``hold_fire`` on), an
    occasional jump or shield."""
    rng = random.Random(seed)
    out = []
    for t in range(n):
        mask = rng.choice((0, 1, 2, 4, 1 | 2, 1 | 4))
        if t % 6 < 2 and t >= hold_fire:
            mask |= 8
        if rng.random() < 0.004:
            mask |= 16
        if rng.random() < 0.02:
            mask |= 32
        out.append(mask)
    return out


@functools.cache
def _played(config: Config, seed: int) -> World:
    p = params_for(config)  # compiled once, passed every tick
    world = new_world(p, seed)
    # Not firing at first makes the first saucer come on time (a lurking player).
    for mask in _masks(seed, PREFIX_TICKS, hold_fire=PREFIX_TICKS - 200):
        world, _ = step(world, mask, p)
    return world


def _play_on(world: World, config: Config, seed: int) -> World:
    p = params_for(config)
    prev = world
    for mask in _masks(seed + 1000, AFTER_TICKS):
        world, _ = step(world, mask, p)
        check_world(world, p, prev)
        prev = world
    return world


def _run_case(preset: str, key: str, extremes: bool) -> None:
    # Spare ships so the random pilot is still playing when the setting changes (the ships
    # of a game are counted at its start only).
    base = load_preset(preset, overrides=["game.lives=99"])
    pairs = _live_change(base, key, extremes)
    assert pairs, f"{key}: no valid live change from {preset}'s value"
    for start, changed in pairs:
        world = _played(start, SEED)
        assert world.tick == PREFIX_TICKS and not world.game_over
        end = _play_on(world, changed, SEED)
        assert end.tick == PREFIX_TICKS + AFTER_TICKS


@pytest.mark.slow  # ~15 s in all: left out of mutation runs, still in the default suite
@pytest.mark.parametrize("key", LIVE_RULE_KEYS)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_live_setting_changes_mid_game_with_every_invariant_kept(preset: str,
                                                                   key: str) -> None:
    _run_case(preset, key, extremes=False)


@pytest.mark.slow
@pytest.mark.parametrize("key", LIVE_RULE_KEYS)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_live_setting_changes_to_either_end_of_its_range(preset: str, key: str) -> None:
    _run_case(preset, key, extremes=True)


def test_the_live_settings_cover_handling_speeds_timers_scoring_saucers_shots() -> None:
    for key in ("ship.thrust_px_per_s2", "ship.turn_deg_per_s", "asteroids.speed_max_px_per_s",
                "saucers.fire_interval_s", "scoring.asteroid", "saucers.aim_error_deg",
                "shots.speed_px_per_s", "game.heartbeat.start_interval_s"):
        assert key in LIVE_RULE_KEYS, key
    for key in ("world.width_px", "world.height_px", "world.tick_hz", "obstacles",
                "asteroids.shapes", "asteroids.radius_px", "asteroids.jaggedness"):
        assert timing_of(key).when == NEXT_GAME, key


# --- why the others wait ----------------------------------------------------------------------


def _with(config: Config, **changes: str) -> Config:
    return apply_changes(config, [f"{k.replace('__', '.')}={v}" for k, v in changes.items()])


@pytest.mark.parametrize(("key", "value", "lowered"), [
    ("shots.max_alive", 4, 3), ("asteroids.max_alive", 27, 26), ("saucers.max_shots", 2, 1)])
def test_a_cap_is_live_raised_by_one_and_waits_lowered_by_one(key: str, value: int,
                                                             lowered: int) -> None:
    timing = timing_of(key)
    assert timing.of(value, value + 1) == LIVE
    assert timing.of(value, lowered) == NEXT_GAME


def test_lowering_the_shot_cap_under_a_full_world_would_break_the_cap() -> None:
    config = load_preset("default")
    world = new_world(config, 1)
    for mask in [8, 0] * 4:  # four shots in flight
        world, _ = step(world, mask, config)
    assert int((world.shot_owner == SHOOTER_SHIP).sum()) == 4
    lowered = _with(config, shots__max_alive="3")
    after, _ = step(world, 0, lowered)
    with pytest.raises(AssertionError):
        check_world(after, params_for(lowered), world)


def test_switching_saucers_off_under_a_flying_saucer_would_strand_it() -> None:
    config = load_preset("default")
    p = params_for(config)  # compiled once, passed every tick
    world = new_world(p, 1)
    while not world.saucer_alive:
        world, _ = step(world, 0, p)
    off = _with(config, saucers__enabled="false")
    p_off = params_for(off)
    assert timing_of("saucers.enabled").of(True, False) == NEXT_GAME
    assert timing_of("saucers.enabled").of(False, True) == LIVE
    left = world.saucer_ticks_left
    on_world, stranded = world, world
    for _ in range(100):
        on_world, _ = step(on_world, 0, p)
        stranded, _ = step(stranded, 0, p_off)
    assert on_world.saucer_ticks_left == left - 100
    # Switched off, its crossing clock stopped: it would never leave.
    assert stranded.saucer_alive and stranded.saucer_ticks_left == left


def test_switching_extra_ships_on_from_zero_would_pay_every_missed_ship_at_once() -> None:
    config = _with(load_preset("default"), scoring__extra_life_every="0")
    world = new_world(config, 1)
    d = Draft(world)
    d.score = 40_000
    world = d.freeze()
    on = _with(config, scoring__extra_life_every="10000")
    assert timing_of("scoring.extra_life_every").of(0, 10000) == NEXT_GAME
    assert timing_of("scoring.extra_life_every").of(10000, 5000) == LIVE
    after, _ = step(world, 0, on)
    assert after.lives >= world.lives + 4


def test_game_lives_only_counts_at_the_start() -> None:
    config = load_preset("default")
    world = new_world(config, 1)
    more = _with(config, game__lives="9")
    after, _ = step(world, 0, more)
    assert after.lives == world.lives  # a live change would do nothing: it waits
    assert timing_of("game.lives").when == NEXT_GAME
    assert new_world(more, 1).lives == 9


@pytest.mark.parametrize("preset", PRESETS)
def test_every_case_changes_the_setting_mid_game(preset: str) -> None:
    world = _played(load_preset(preset, overrides=["game.lives=99"]), SEED)
    assert world.tick == PREFIX_TICKS and world.asteroid_count > 0
    assert world.saucer_alive and world.shot_id.shape[0] > 0
