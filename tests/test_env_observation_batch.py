"""The observation built from a batch's columns (issue 36, item 1; marker ``rl``) equals,
value for value, the one-game observation as it was before: ``reference_observe`` below is
``Observer.observe`` as it stood at commit 0b245cd, kept here as the comparison. Games of
the three rule sets (default, classic, arena) are stepped with random buttons; every tick,
every game's row of ``Observer.observe_batch`` and the single env's ``Observer.observe``
must be bit-for-bit the reference's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from asteroids.config import load_config  # noqa: E402
from asteroids.config.loader import load_config_over  # noqa: E402
from asteroids.core import World  # noqa: E402
from asteroids.core.batch import Batch, new_batch, step_batch  # noqa: E402
from asteroids.core.tables import COS, HEADING_STEPS, SIN  # noqa: E402
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP  # noqa: E402
from asteroids.env.observation import Observer  # noqa: E402

pytestmark = pytest.mark.rl

PRESETS = ("default", "classic", "arena")


def _reference_rel(o: Observer, pos: np.ndarray, world: World) -> np.ndarray:
    d = pos - np.array([world.ship_x, world.ship_y])
    if o.wrap is not None:
        half = 0.5 * o.wrap
        d = (d + half) % o.wrap - half
    return d / o.scale


def reference_observe(o: Observer, world: World) -> np.ndarray:
    """The one-game observation before the batched one (commit 0b245cd), verbatim."""
    p = o.p
    out = np.zeros(o.size, dtype=np.float64)
    h = world.ship_heading % HEADING_STEPS
    mine = int(np.count_nonzero(world.shot_owner == SHOOTER_SHIP))
    flying = world.ship_state == SHIP_FLYING and not world.game_over
    out[0:8] = (world.ship_x / p.width, world.ship_y / p.height,
                world.ship_vx / o.speed, world.ship_vy / o.speed, COS[h], SIN[h],
                float(flying), float(not world.fire_held and mine < p.shots_max_alive))
    at = 8
    n = world.ast_id.shape[0]
    if n:
        rel = _reference_rel(o, world.ast_pos, world)
        order = np.argsort(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1],
                           kind="stable")[:o.rocks]
        k = order.shape[0]
        block = np.zeros((o.rocks, 6))
        block[:k, 0] = 1.0
        block[:k, 1:3] = rel[order]
        block[:k, 3:5] = world.ast_vel[order] / o.speed
        block[:k, 5] = world.ast_radius[order] / o.radius
        out[at:at + 6 * o.rocks] = block.ravel()
    at += 6 * o.rocks
    if world.saucer_alive:
        rel = _reference_rel(o, np.array([[world.saucer_x, world.saucer_y]]), world)[0]
        out[at:at + 6] = (1.0, rel[0], rel[1], world.saucer_vx / o.speed,
                          world.saucer_vy / o.speed, float(world.saucer_small))
    at += 6
    out[at] = mine / max(p.shots_max_alive, 1)
    enemy = world.shot_owner == SHOOTER_SAUCER
    if enemy.any():
        rel = _reference_rel(o, world.shot_pos[enemy], world)
        k = int(np.argmin(rel[:, 0] * rel[:, 0] + rel[:, 1] * rel[:, 1]))
        vel = world.shot_vel[enemy][k] / o.speed
        out[at + 1:at + 6] = (1.0, rel[k, 0], rel[k, 1], vel[0], vel[1])
    return np.clip(out, -1.0, 1.0).astype(np.float32)


def _check(observers: list[Observer], batch: Batch, seen: dict[str, int]) -> None:
    worlds = batch.worlds()
    for o in observers:
        got = o.observe_batch(batch)
        want = np.stack([reference_observe(o, w) for w in worlds])
        assert got.dtype == np.float32 and got.shape == want.shape
        bad = np.argwhere(got.view(np.uint32) != want.view(np.uint32))
        assert bad.size == 0, (f"tick {int(batch.tick.max())}: game {bad[0][0]} value "
                               f"{bad[0][1]}: {got[tuple(bad[0])]} != {want[tuple(bad[0])]}")
    seen["saucer"] += int(batch.saucer_alive.sum())
    seen["saucer shots"] += int(np.count_nonzero(batch.shot_owner == SHOOTER_SAUCER))
    seen["not flying"] += int(np.count_nonzero(batch.ship_state != SHIP_FLYING))
    seen["no rocks"] += int(np.count_nonzero(np.diff(batch.ast_rows) == 0))


SAUCERS_SOON = ("saucers.first_interval_s=0.5", "saucers.min_interval_s=0.5")
"""Overrides that bring saucers (and their shots) inside a short test's ticks."""


def _soak(preset: str, games: int, ticks: int, seed: int,
          overrides: tuple[str, ...] = ()) -> dict[str, int]:
    cfg = load_config_over(load_config(preset), list(overrides), source="test")
    observers = [Observer(cfg), Observer(cfg, rocks=1), Observer(cfg, rocks=40)]
    rng = np.random.default_rng(seed)
    batch = new_batch(cfg, [seed * 1000 + i for i in range(games)])
    seen = dict.fromkeys(("saucer", "saucer shots", "not flying", "no rocks"), 0)
    for _ in range(ticks):
        _check(observers, batch, seen)
        # fire often, hyperspace and shield rarely: games that last and shoot their rocks
        masks = rng.integers(0, 16, size=games) & rng.choice([0xF, 0x3F], size=games,
                                                                 p=[0.97, 0.03])
        batch, _ = step_batch(batch, masks, cfg, auto_reset=iter(range(10**6, 10**7)))
    _check(observers, batch, seen)
    return seen


@pytest.mark.parametrize("preset", PRESETS)
def test_the_batched_observation_is_the_one_game_observation_value_for_value(preset):
    seen = _soak(preset, games=16, ticks=300, seed=1, overrides=SAUCERS_SOON)
    assert seen["not flying"] > 0 and seen["saucer"] > 0 and seen["saucer shots"] > 0, seen


def test_the_single_env_observation_is_the_reference():
    """The single env's ``observe`` (a vector of one) gives the reference's values."""
    cfg = load_config("classic")
    o = Observer(cfg)
    batch = new_batch(cfg, [7, 8])
    rng = np.random.default_rng(7)
    for _ in range(200):
        for w in batch.worlds():
            got, want = o.observe(w), reference_observe(o, w)
            assert got.shape == want.shape and (got.view(np.uint32) == want.view(np.uint32)).all()
        batch, _ = step_batch(batch, rng.integers(0, 16, size=2), cfg)


@pytest.mark.soak
@pytest.mark.parametrize("preset", PRESETS)
def test_soak_the_batched_observation_over_long_games(preset):
    """Longer: saucers, their shots and emptied waves come into it."""
    seen = _soak(preset, games=64, ticks=3000, seed=2)
    assert seen["saucer"] > 0 and seen["saucer shots"] > 0, seen
