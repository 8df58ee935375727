"""The batched core against the one-game core: every game of a batch, after every tick, has
the one-game core's state hash, fields and events for the same seed and inputs.

The reference is the one-game core behind ``step_batch``'s debug switch
(``reference=True``: every game by ``step``), stepped beside the batched pass with the same
masks. The quick runs here cover every preset with inputs that press every button (fire,
hyperspace, shield) and games that end at different ticks; the soak run (``-m soak``) plays
hundreds of seeds for thousands of ticks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from asteroids.config.loader import load_preset
from asteroids.core import batch as batch_module
from asteroids.core import events as ev
from asteroids.core import new_world, state_hash, step
from asteroids.core.batch import new_batch, step_batch
from asteroids.core.bot_batch import batch_bot_for
from asteroids.core.hashing import value_bytes
from asteroids.core.inputs import ALL_BUTTONS, InputFrame
from asteroids.core.params import params_for
from asteroids.core.world import FIELD_NAMES

PRESETS = ("classic", "default", "arena")


@pytest.fixture(autouse=True)
def batched_pass_for_any_size(request, monkeypatch):
    """Every batch here, however small, takes the batched pass (a real run takes it from
    ``BATCHED_PASS_MIN`` games on); ``@pytest.mark.one_by_one`` keeps the crossover."""
    if request.node.get_closest_marker("one_by_one") is None:
        monkeypatch.setattr(batch_module, "BATCHED_PASS_MIN", 1)


def _differing_fields(a, b) -> list[str]:
    return [n for n in FIELD_NAMES
            if value_bytes(getattr(a, n)) != value_bytes(getattr(b, n))]


@contextmanager
def one_game_steps() -> Iterator[list[int]]:
    """Count the games ``step_batch`` hands to the one-game ``step`` (by wrapping the
    ``step`` that ``asteroids.core.batch`` calls; the reference switch is never on inside)."""
    calls = [0]
    real = batch_module.step

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    batch_module.step = counting
    try:
        yield calls
    finally:
        batch_module.step = real


def play_both(cfg, seeds, ticks: int, masks_for, seen: set | None = None
              ) -> tuple[list[int], list]:
    """Step a batch by the batched pass and, beside it, the same games by the one-game core
    (``step_batch(..., reference=True)``) with the same masks; fail at the first tick and
    game where anything differs, or where the batched pass hands a game to the one-game
    ``step``. Returns each game's game-over tick and the reference's last Worlds; adds the
    events that happened to ``seen`` when given."""
    cfg = params_for(cfg)  # compiled once, passed every tick
    batch = new_batch(cfg, seeds)
    ref = new_batch(cfg, seeds)
    over_at = [-1] * len(seeds)
    for i in range(len(seeds)):
        assert _differing_fields(batch.world(i), ref.world(i)) == [], f"new game {i}"
    for tick in range(ticks):
        masks = masks_for(tick, batch)
        with one_game_steps() as handed:
            batch, columns = step_batch(batch, masks, cfg)
        assert handed == [0] or batch.size < batch_module.BATCHED_PASS_MIN, (
            f"tick {tick + 1}: {handed[0]} games left the batched pass")
        ref, ref_columns = step_batch(ref, masks, cfg, reference=True)
        for i in range(len(seeds)):
            mine, theirs = batch.world(i), ref.world(i)
            assert state_hash(mine) == state_hash(theirs), (
                f"seed {seeds[i]}, tick {tick + 1}: {_differing_fields(mine, theirs)}")
            events = ref_columns.of(i)
            assert columns.of(i) == events, f"seed {seeds[i]}, tick {tick + 1}: events"
            if seen is not None:
                seen.update(events)
            if theirs.game_over and over_at[i] < 0:
                over_at[i] = tick + 1
    return over_at, ref.worlds()


def random_masks(seed: int):
    rng = np.random.default_rng(seed)

    def masks(tick, batch):
        # Hold buttons for a few ticks at a time, as people do; every button shows up.
        return rng.integers(0, ALL_BUTTONS + 1, size=batch.size) * (tick % 4 != 0)

    return masks


@pytest.mark.parametrize("preset", PRESETS)
def test_every_game_of_a_batch_hashes_as_the_one_game_core_every_tick(preset):
    cfg = load_preset(preset)
    play_both(cfg, list(range(6)), 200, random_masks(1))


HYPER = int(InputFrame.HYPERSPACE)


def jumpy_masks(seed: int):
    """Hyperspace pressed every other tick, the other buttons at random: jumps with the
    engine and the shield on, exits, failed jumps, respawns and games ended by a jump."""
    rng = np.random.default_rng(seed)

    def masks(tick, batch):
        rest = rng.integers(0, ALL_BUTTONS + 1, size=batch.size) & ~HYPER
        return rest | (HYPER if tick % 2 == 0 else 0)

    return masks


@pytest.mark.parametrize(("preset", "overrides"), [
    ("classic", ["game.lives=2"]),
    ("default", ["ship.shield.enabled=true", "game.lives=2"]),
])
def test_jumps_exits_failed_jumps_and_respawns_are_the_one_game_cores(preset, overrides):
    cfg = load_preset(preset, overrides=overrides)
    seen: set = set()
    over_at, _ = play_both(cfg, list(range(30, 38)), 400, jumpy_masks(7), seen)
    kinds = {type(e) for e in seen}
    assert {ev.HyperspaceEntered, ev.HyperspaceExited, ev.ShipSpawned, ev.GameOver} <= kinds
    assert {e.survived for e in seen if isinstance(e, ev.HyperspaceExited)} == {True, False}
    assert "hyperspace" in {e.cause for e in seen if isinstance(e, ev.ShipDestroyed)}
    assert ev.ThrustChanged(False) in seen
    if preset == "default":  # the shield goes down with the jump
        assert any(isinstance(e, ev.ShieldChanged) and not e.on for e in seen)


@pytest.mark.parametrize(("preset", "overrides"), [
    ("classic", ["game.first_wave_asteroids=1", "game.wave_increment=1",
                 "game.next_wave_delay_s=0.1"]),
    # rocks inset from bouncing borders, most tries too close to the ship (the farthest
    # taken), new rocks turned from the ship
    ("default", ["game.first_wave_asteroids=1", "game.wave_increment=0",
                 "game.next_wave_delay_s=0", "borders.asteroids=bounce",
                 "game.spawn_clearance_px=600"]),
    # an empty first wave: every game starts its waves on the same ticks
    ("default", ["game.first_wave_asteroids=0", "game.wave_increment=1",
                 "game.next_wave_delay_s=0.2"]),
])
def test_waves_starting_are_the_one_game_cores(preset, overrides):
    # Rocks that break into nothing: the aimer clears waves quickly.
    cfg = load_preset(preset, overrides=[*overrides, "asteroids.split_children=0"])
    decide = batch_bot_for("aimer")
    seen: set = set()
    play_both(cfg, list(range(50, 56)), 400, lambda tick, batch: decide(batch, cfg), seen)
    started = [e for e in seen if isinstance(e, ev.WaveStarted)]
    assert len({e.wave for e in started}) >= 3, "several waves, in every game"


@pytest.mark.parametrize("preset", ["classic", "default"])
def test_craft_shot_down_are_the_one_game_cores(preset):
    # Saucers early and often (a rock broken does not keep them away), every one small and
    # accurate: the aimer's games shoot them down, the idle games' ships are shot down, and
    # the ships with their shield up take the saucer's shots on the shield.
    cfg = load_preset(preset, overrides=[
        "saucers.first_interval_s=1", "saucers.min_interval_s=1", "saucers.interval_step_s=1",
        "saucers.always_large_count=0", "saucers.small_score=0", "saucers.aim_error_deg=0",
        "saucers.lurk_s=0", "ship.shield.enabled=true", "game.lives=2"])
    decide = batch_bot_for("aimer")

    def masks(tick, batch):
        lane = np.arange(batch.size)
        aimed = np.asarray(decide(batch, cfg), dtype=np.int64)
        shield = int(InputFrame.SHIELD)
        return np.where(lane % 3 == 0, aimed, np.where(lane % 3 == 1, 0, shield))

    seen: set = set()
    play_both(cfg, list(range(60, 69)), 500, masks, seen)
    assert "ship-shot" in {e.by for e in seen if isinstance(e, ev.SaucerDestroyed)}
    assert "saucer-shot" in {e.cause for e in seen if isinstance(e, ev.ShipDestroyed)}


def shield_masks(seed: int):
    """The shield held up most of the time (it runs out and refills with a new ship or
    wave), the other buttons but hyperspace at random: rocks bounce off the shields."""
    rng = np.random.default_rng(seed)

    def masks(tick, batch):
        rest = rng.integers(0, ALL_BUTTONS + 1, size=batch.size) & ~HYPER
        return rest | np.where(rng.random(batch.size) < 0.8, int(InputFrame.SHIELD), 0)

    return masks


@pytest.mark.parametrize("preset", PRESETS)
def test_shields_bouncing_rocks_are_the_one_game_cores(preset):
    cfg = load_preset(preset, overrides=["ship.shield.enabled=true"])
    play_both(cfg, list(range(80, 88)), 300, shield_masks(9))


def test_games_that_end_at_different_ticks_stay_identical_after_game_over():
    cfg = load_preset("classic", overrides=["game.lives=1"])
    over_at, worlds = play_both(cfg, [3, 11, 12, 40, 41, 77], 450, random_masks(2))
    ended = [t for t in over_at if t > 0]
    assert len(set(ended)) >= 2, f"the games should end at different ticks: {over_at}"


def test_a_batch_of_one_is_the_one_game_core():
    cfg = load_preset("default")
    play_both(cfg, [123456789], 300, random_masks(3))


@pytest.mark.one_by_one
def test_small_batches_step_each_game_by_the_one_game_core():
    assert batch_module.BATCHED_PASS_MIN > 6
    play_both(load_preset("classic"), list(range(6)), 150, random_masks(6))


def test_the_same_seed_twice_in_a_batch_plays_the_same_game_twice():
    cfg = load_preset("classic")
    batch = new_batch(cfg, [5, 5, 6])
    for tick in range(100):
        batch, _ = step_batch(batch, np.array([tick % 64, tick % 64, tick % 64]), cfg)
    assert state_hash(batch.world(0)) == state_hash(batch.world(1))
    assert state_hash(batch.world(0)) != state_hash(batch.world(2))


@pytest.mark.soak
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("preset", PRESETS)
def test_soak_hundreds_of_seeds_for_thousands_of_ticks(preset):
    cfg = load_preset(preset)
    play_both(cfg, list(range(256)), 3000, random_masks(4))


def _crash_scenes(p):
    """Hand-made games where the craft crash: the ship into the saucer (shield down, then
    up), the ship and the saucer each into a rock, both on the same rock on one tick (the
    saucer gets the next one, the lowest unclaimed), and a shot claiming one of the two
    rocks the ship touches on one tick (the ship gets the other). Returns (worlds,
    masks)."""
    from tests.core.worlds import rock, with_shots, world_with

    saucer = dict(saucer_alive=True, saucer_small=False, saucer_ticks_left=500,
                  saucer_fire_timer=500, saucer_zig_timer=500, saucer_timer=500)
    cx, cy = 0.5 * p.width, 0.5 * p.height
    ship_meets_saucer = world_with(p, [rock(0, 100.0, 100.0, cfg=p)], seed=1, **saucer,
                                   saucer_x=cx + 60.0, saucer_y=cy, saucer_vx=-3.0,
                                   saucer_vy=0.0)
    into_rock = world_with(p, [rock(1, cx + 45.0, cy, -2.0, 0.0, cfg=p, round_radius=15.0),
                               rock(0, 100.0, 100.0, cfg=p)], seed=2)
    saucer_into_rock = world_with(p, [rock(0, 100.0, 100.0, cfg=p),
                                      rock(1, 700.0, 200.0, cfg=p, round_radius=15.0)],
                                  seed=3, **saucer, saucer_x=650.0, saucer_y=200.0,
                                  saucer_vx=3.0, saucer_vy=0.0)
    shared = world_with(p, [rock(1, cx + 12.0, cy, cfg=p, round_radius=15.0),
                            rock(1, cx + 55.0, cy, cfg=p, round_radius=15.0)],
                        seed=4, **saucer, saucer_x=cx + 40.0, saucer_y=cy, saucer_vx=0.0,
                        saucer_vy=0.0)
    shot_first = with_shots(
        world_with(p, [rock(2, cx + 8.0, cy, cfg=p, round_radius=6.0),
                       rock(2, cx - 8.0, cy, cfg=p, round_radius=6.0)],
                   seed=5), [(0, cx + 8.0, cy + 14.0, 0.0, -10.0, 30)])
    worlds = [ship_meets_saucer, ship_meets_saucer, into_rock, saucer_into_rock, shared,
              shot_first]
    masks = [0, int(InputFrame.SHIELD), 0, 0, 0, 0]
    return worlds, masks


@pytest.mark.parametrize("preset", ["classic", "default"])
def test_crashes_are_the_one_game_cores_in_the_batched_pass(preset):
    from asteroids.core.batch import pack

    p = params_for(load_preset(preset, overrides=["ship.shield.enabled=true"]))
    worlds, masks = _crash_scenes(p)
    batch = pack(worlds, p, range(len(worlds)), keep_worlds=False)
    seen: set = set()
    for tick in range(40):
        with one_game_steps() as handed:
            batch, columns = step_batch(batch, np.array(masks), p)
        assert handed == [0], f"tick {tick + 1}: {handed[0]} games left the batched pass"
        for i in range(len(worlds)):
            worlds[i], events = step(worlds[i], masks[i], p)
            assert _differing_fields(batch.world(i), worlds[i]) == [], f"game {i}, {tick + 1}"
            assert columns.of(i) == events, f"game {i}, tick {tick + 1}: events"
            seen.update(events)
    causes = {(type(e).__name__, getattr(e, "by", getattr(e, "cause", None))) for e in seen}
    assert {("SaucerDestroyed", "ship"), ("ShipDestroyed", "saucer"),
            ("ShipDestroyed", "asteroid"), ("SaucerDestroyed", "asteroid"),
            ("AsteroidDestroyed", "ship"), ("AsteroidDestroyed", "saucer"),
            ("AsteroidDestroyed", "ship-shot")} <= causes, causes


def _crowded_scenes(p):
    """Hand-made games whose tick needs more draws than one jump table (``JUMP_DRAWS``)
    holds: eight shots breaking eight large rocks on one tick (64 fragments of 132 draws'
    outlines each), and a wave of 30 rocks starting on an empty field (each rock's places,
    speeds and outline); the second lane keeps a game of the first kind, the fourth a
    normal one. Returns the worlds."""
    from tests.core.worlds import rock, with_shots, world_with

    rocks = [rock(0, 60.0 + 85.0 * k, 150.0, cfg=p, round_radius=30.0) for k in range(8)]
    shots = [(0, 60.0 + 85.0 * k, 100.0, 0.0, 9.0, 30) for k in range(8)]
    eight = with_shots(world_with(p, rocks, seed=1), shots)
    empty = world_with(p, [], seed=2, wave_timer=1)
    return [eight, eight, empty, new_world(p, 4)]


def test_ticks_beyond_one_jump_table_stay_in_the_batched_pass():
    # They once went to the one-game step; each game's draws now go on in rounds of a
    # table, the same stream.
    from asteroids.core.batch import pack
    from asteroids.core.rng import JUMP_DRAWS
    from asteroids.core.spawn import draws_per_rock

    p = params_for(load_preset("classic", overrides=[
        "asteroids.vertices_min=60", "asteroids.vertices_max=64",
        "asteroids.split_children=8", "asteroids.max_alive=400",
        "game.first_wave_asteroids=30", "game.max_wave_asteroids=30",
        "game.next_wave_delay_s=0"]))
    worlds = _crowded_scenes(p)
    batch = pack(worlds, p, range(len(worlds)), keep_worlds=False)
    seen: list = []
    for tick in range(30):
        masks = np.zeros(len(worlds), dtype=np.int64)
        with one_game_steps() as handed:
            batch, columns = step_batch(batch, masks, p)
        assert handed == [0], f"tick {tick + 1}: {handed[0]} games left the batched pass"
        for i in range(len(worlds)):
            worlds[i], events = step(worlds[i], 0, p)
            assert _differing_fields(batch.world(i), worlds[i]) == [], f"game {i}, {tick + 1}"
            assert columns.of(i) == events, f"game {i}, tick {tick + 1}: events"
            seen.append((i, tick, events))
    fragments = {}
    for i, tick, events in seen:
        for e in events:
            if isinstance(e, ev.AsteroidDestroyed):
                fragments[i, tick] = fragments.get((i, tick), 0) + e.children
    assert max(fragments.values()) * (2 + draws_per_rock(p)) > JUMP_DRAWS, fragments
    assert any(isinstance(e, ev.WaveStarted) and e.asteroids == 30 and i == 2
               for i, _, events in seen for e in events)
