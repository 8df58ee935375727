"""The batched tick: every game in one pass by the shared rule texts, and the pieces that
make it (the lanes helpers, the query over many games, the merge of lanes).

Bit-identity of whole games is tested in test_batch_identity.py; here, that the batched
pass really carries the games on every preset (a batch that handed every game to the
one-game driver would pass those tests too: ``one_game_share`` counts the games handed to
it, which must be none), and that each piece gives the one-game answer.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asteroids.config.loader import load_preset
from asteroids.core import events as ev
from asteroids.core import new_world, state_hash, step
from asteroids.core.aim import IMAGE_STEPS, AimKit, closest, closest_within, escapes
from asteroids.core.batch import (
    SCALAR_FIELDS,
    Batch,
    new_batch,
    pack,
    reset_lanes,
    step_batch,
    take_lanes,
)
from asteroids.core.batch_rows import merge_lanes, put_lanes, take_columns
from asteroids.core.bot_batch import batch_bot_for
from asteroids.core.broadphase import box_pairs
from asteroids.core.inputs import ALL_BUTTONS
from asteroids.core.lanes import MANY, ONE
from asteroids.core.params import params_for
from asteroids.core.shots import first_hits

from .test_batch_identity import (
    batched_pass_for_any_size,
    one_game_steps,
    play_both,
    shield_masks,
)

__all__ = ["batched_pass_for_any_size"]  # the fixture, used here too

EDGES = [0.0, -0.0, 1e-300, -1e-17, 5e-324, 799.9999999999999, 800.0, 800.0000000000001,
         -800.0, 1e6, -1e6, math.inf, -math.inf, math.nan, 0.5, -3.25, 400.0]


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) ==
                                                 math.copysign(1, b))


def test_the_lanes_helpers_give_one_games_bits_on_many_games():
    xs = np.array(EDGES)
    for name, one, many in [
        ("clip", lambda x: ONE.clip(x, -5.0, 5.0), lambda x: MANY.clip(x, -5.0, 5.0)),
        ("wrap", lambda x: ONE.wrap(x, 800.0), lambda x: MANY.wrap(x, 800.0)),
        ("where", lambda x: ONE.where(x > 1.0, x, -x), lambda x: MANY.where(x > 1.0, x, -x)),
        ("maximum", lambda x: ONE.maximum(x, 0.0), lambda x: MANY.maximum(x, 0.0)),
        ("minimum", lambda x: ONE.minimum(x, 0.0), lambda x: MANY.minimum(x, 0.0)),
    ]:
        with np.errstate(all="ignore"):
            got = many(xs)
        for x, g in zip(EDGES, got.tolist(), strict=True):
            if name == "wrap" and not math.isfinite(x):
                continue  # the rules never wrap a non-finite coordinate
            assert _same(one(x), g), f"{name}({x!r}): {one(x)!r} one, {g!r} many"
    heads = np.arange(-3, 260) % 256
    table = tuple(np.linspace(-1.0, 1.0, 256).tolist())
    assert MANY.take(table, heads).tolist() == [ONE.take(table, int(h)) for h in heads]
    assert MANY.sqrt(np.array([2.0, 0.0])).tolist() == [ONE.sqrt(2.0), ONE.sqrt(0.0)]


@settings(max_examples=300, derandomize=True, database=None)
@given(x=st.floats(-1e5, 1e5), v=st.floats(-1e4, 1e4), lo=st.floats(0.0, 100.0),
       span=st.floats(200.0, 5000.0))
def test_bounce_on_many_games_is_bounce_on_one(x, v, lo, span):
    hi = lo + span
    pos, vel = MANY.bounce(np.array([x]), np.array([v]), lo, hi)
    assert ONE.bounce(x, v, lo, hi) == (float(pos[0]), float(vel[0]))


def one_game_share(cfg, bot, lanes: int, ticks: int) -> float:
    """The share of game-ticks the batched pass handed to the one-game ``step``, over a run
    of ``bot`` (a batched bot's name, or a function of the batch and the rules)."""
    decide = batch_bot_for(bot) if isinstance(bot, str) else bot
    batch = new_batch(cfg, range(1, lanes + 1))
    with one_game_steps() as handed:
        for _ in range(ticks):
            masks = np.asarray(decide(batch, cfg), dtype=np.int64)
            batch, _ = step_batch(batch, masks, cfg)
    return handed[0] / (lanes * ticks)


def _random_buttons(seed: int):
    rng = np.random.default_rng(seed)

    def buttons(batch, cfg):
        return rng.integers(0, ALL_BUTTONS + 1, size=batch.size)

    return buttons


def _shields(seed: int):
    shields = shield_masks(seed)
    return lambda batch, cfg: shields(0, batch)


BOTS = {"random buttons": _random_buttons, "shield held": _shields,
        "aimer": lambda seed: "aimer"}
"""What plays the games that must never leave the batched pass: random buttons press
hyperspace every other tick or so and fly the ships into rocks and saucers (jumps, exits,
deaths, respawns, waves, crashes, craft shot down: they once sent about 2.7 % of
game-ticks to the one-game driver); the shield held up most of the time bounces rocks
(``touch.shield_bounce``); the aimer clears waves and shoots saucers down."""


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("preset", ["classic", "default", "arena"])
def test_no_game_leaves_the_batched_pass(preset, bot):
    cfg = load_preset(preset, overrides=["ship.shield.enabled=true"] * (bot == "shield held"))
    lanes, ticks = (8, 150) if bot == "aimer" else (16, 300)
    assert one_game_share(cfg, BOTS[bot](11), lanes, ticks) == 0


@pytest.mark.soak
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("preset", ["classic", "default", "arena"])
def test_soak_no_game_leaves_the_batched_pass(preset, bot):
    cfg = load_preset(preset, overrides=["ship.shield.enabled=true"] * (bot == "shield held"))
    assert one_game_share(cfg, BOTS[bot](12), 256, 3000) == 0


def test_idle_games_and_pillars_stay_in_the_batched_pass():
    # Idle arena games: rocks bounce off the pillars, the walls and each other.
    arena = load_preset("arena")
    rules = params_for(arena)
    assert rules.obstacle_offsets.shape[0] > 1 and rules.asteroids_collide, "pillars, collisions"
    assert one_game_share(arena, "idle", 8, 400) == 0
    assert one_game_share(load_preset("classic"), "idle", 12, 650) == 0


def test_waves_starting_stay_in_the_batched_pass():
    # Waves of one rock that breaks into nothing: the aimer's games start a wave every
    # 60 ticks or so (each once sent its game to the one-game driver).
    cfg = load_preset("classic", overrides=["game.first_wave_asteroids=1",
                                            "game.next_wave_delay_s=0",
                                            "asteroids.split_children=0"])
    assert one_game_share(cfg, "aimer", 8, 300) == 0


def test_craft_shot_down_stay_in_the_batched_pass():
    # Small accurate saucers early and often; the aimer's games shoot them down, the idle
    # games' ships are shot down: those ticks are the batched pass's (each once sent its
    # game to the one-game driver).
    cfg = params_for(load_preset("classic", overrides=[
        "saucers.first_interval_s=1", "saucers.min_interval_s=1", "saucers.interval_step_s=1",
        "saucers.always_large_count=0", "saucers.small_score=0", "saucers.aim_error_deg=0",
        "saucers.lurk_s=0"]))
    decide = batch_bot_for("aimer")
    batch = new_batch(cfg, range(60, 70))
    shot_down = 0
    with one_game_steps() as handed:
        for _ in range(400):
            masks = np.where(np.arange(batch.size) % 2 == 0,
                             np.asarray(decide(batch, cfg), dtype=np.int64), 0)
            batch, events = step_batch(batch, masks, cfg)
            for i in range(batch.size):
                shot_down += any(
                    (isinstance(e, ev.SaucerDestroyed) and e.by == "ship-shot") or
                    (isinstance(e, ev.ShipDestroyed) and e.cause == "saucer-shot")
                    for e in events.of(i))
    assert shot_down >= 5 and handed == [0], (shot_down, handed)


def test_a_broken_shot_is_refused_where_it_enters_a_batch_and_by_the_pass():
    # A shot with a NaN or infinite position or velocity (once handed to the one-game step):
    # no game reaches one from new_world under validated rules, so a World built by hand
    # with one is refused by pack, and a batch built from such columns by the pass, each
    # naming the game.
    from tests.core.worlds import with_shots

    p = params_for(load_preset("classic"))
    good = pack([new_world(p, 1), new_world(p, 3)], p, range(2), keep_worlds=False).columns()
    for shot in [(0, math.nan, 100.0, 1.0, 1.0, 30), (0, 100.0, 100.0, math.inf, 0.0, 30)]:
        worlds = [new_world(p, 1), with_shots(new_world(p, 2), [shot]), new_world(p, 3)]
        with pytest.raises(ValueError, match="game 1: a shot with a NaN or infinite"):
            pack(worlds, p, range(3))
        broken = put_lanes(good, SCALAR_FIELDS, np.array([1]),
                           Batch({}, (2,), p, worlds[1:2]).columns())
        with pytest.raises(ValueError, match="game 1: a shot with a NaN or infinite"):
            step_batch(Batch(broken, (1, 2), p), np.zeros(2, dtype=np.int64), p)


@pytest.mark.parametrize(("preset", "ticks"), [("classic", 1000), ("default", 600)])
def test_idle_games_through_saucers_deaths_and_game_over_stay_identical(preset, ticks):
    cfg = load_preset(preset)
    play_both(cfg, list(range(1, 6)), ticks, lambda tick, batch: np.zeros(batch.size,
                                                                          dtype=np.int64))


def test_aimer_games_stay_identical_through_hits_and_waves():
    cfg = load_preset("classic")
    decide = batch_bot_for("aimer")
    play_both(cfg, list(range(20, 26)), 500, lambda tick, batch: decide(batch, cfg))


def test_spinner_games_with_a_shield_stay_identical():
    cfg = load_preset("classic", overrides=["ship.shield.enabled=true"])
    rng = np.random.default_rng(5)

    def masks(tick, batch):  # turn and fire, with the shield up now and then
        spin = np.asarray(batch_bot_for("spinner")(batch, cfg), dtype=np.int64)
        return spin | np.where(rng.random(batch.size) < 0.2, 32, 0) | np.where(
            (tick // 40) % 2 == 1, 1, 0)

    play_both(cfg, list(range(40, 46)), 500, masks)


def _scene(rng: np.random.Generator, world: float):
    """One game's shots and square bodies, at random."""
    n_shots, n_bodies = int(rng.integers(1, 4)), int(rng.integers(1, 5))
    starts = rng.uniform(0.0, world, size=(n_shots, 2))
    ends = starts + rng.uniform(-40.0, 40.0, size=(n_shots, 2))
    centres = rng.uniform(0.0, world, size=(n_bodies, 1, 2))
    half = rng.uniform(5.0, 60.0, size=(n_bodies, 1, 1))
    square = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    points = (centres + square * half).reshape(-1, 2)
    motion = rng.uniform(-5.0, 5.0, size=(n_bodies, 2))
    return starts, ends, points, np.arange(n_bodies + 1) * 4, motion


@settings(max_examples=60, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), games=st.integers(1, 12), wrap=st.booleans())
def test_one_query_over_many_games_gives_each_shot_its_own_games_answer(seed, games, wrap):
    rng = np.random.default_rng(seed)
    world = 300.0  # small: the games' shots cross each other's bodies all the time
    size = (world, world) if wrap else None
    scenes = [_scene(rng, world) for _ in range(games)]
    shot_base = np.cumsum([0] + [s[0].shape[0] for s in scenes])
    body_base = np.cumsum([0] + [s[4].shape[0] for s in scenes])
    point_base = np.cumsum([0] + [s[2].shape[0] for s in scenes])
    ia, ib = [], []
    for g, s in enumerate(scenes):
        a, b = np.meshgrid(np.arange(s[0].shape[0]), np.arange(s[4].shape[0]), indexing="ij")
        ia.append(a.ravel() + shot_base[g])
        ib.append(b.ravel() + body_base[g])
    offsets = np.concatenate([[0]] + [s[3][1:] + point_base[g] for g, s in enumerate(scenes)])
    hits = first_hits(np.concatenate([s[0] for s in scenes]),
                      np.concatenate([s[1] for s in scenes]),
                      np.concatenate([s[2] for s in scenes]), offsets, world_size=size,
                      body_motion=np.concatenate([s[4] for s in scenes]),
                      among=(np.concatenate(ia), np.concatenate(ib)))
    for g, s in enumerate(scenes):
        own = first_hits(s[0], s[1], s[2], s[3], world_size=size, body_motion=s[4])
        rows = slice(shot_base[g], shot_base[g + 1])
        body = hits.body[rows]
        assert (body >= 0).tolist() == (own.body >= 0).tolist()
        assert np.where(body >= 0, body - body_base[g], -1).tolist() == own.body.tolist()
        assert hits.edge[rows].tolist() == own.edge.tolist()
        assert hits.t[rows].tobytes() == own.t.tobytes()
        assert np.array_equal(hits.point[rows], own.point, equal_nan=True)


def test_box_pairs_among_tests_just_the_pairs_given():
    rng = np.random.default_rng(3)
    lo = rng.uniform(0.0, 100.0, size=(30, 2))
    hi = lo + rng.uniform(1.0, 30.0, size=(30, 2))
    world = np.array([100.0, 100.0])
    full = box_pairs(lo[:10], hi[:10], lo, hi, world, method="direct")
    every = set(zip(full[0].tolist(), full[1].tolist(), full[2].tolist(), full[3].tolist(),
                    strict=True))
    ia, ib = np.divmod(np.arange(300), 30)
    some = (ia + ib) % 3 == 0
    got = box_pairs(lo[:10], hi[:10], lo, hi, world, among=(ia[some], ib[some]))
    want = {t for t in every if (t[0] + t[1]) % 3 == 0}
    assert set(zip(*(x.tolist() for x in got), strict=True)) == want
    none = box_pairs(lo, hi, lo, hi, world, among=(np.zeros(0, np.int64),
                                                   np.zeros(0, np.int64)))
    assert none[0].shape == (0,)


def six_games_of_different_sizes():
    """Classic's rules and six games played 40-190 ticks (some shots, some broken rocks)."""
    cfg = params_for(load_preset("classic"))
    worlds = [new_world(cfg, s) for s in range(1, 7)]
    for i in range(len(worlds)):
        for t in range(40 + 30 * i):
            worlds[i], _ = step(worlds[i], 8 if t % 3 == 0 else 2, cfg)
    return cfg, worlds


def test_merge_lanes_puts_each_replaced_game_in_its_lane():
    cfg, worlds = six_games_of_different_sizes()
    batch = pack(worlds, cfg, range(1, 7), keep_worlds=False)
    fresh = [new_world(cfg, 100), new_world(cfg, 101)]
    merged = merge_lanes(batch.columns(), SCALAR_FIELDS, 6, None, [1, 4], fresh)
    want = list(worlds)
    want[1], want[4] = fresh
    got = pack(want, cfg, range(6), keep_worlds=False).columns()
    assert set(merged) == set(got)
    for name, value in got.items():
        assert value.dtype == merged[name].dtype, name
        assert np.array_equal(value, merged[name]), name
    again = pack(want, cfg, range(6), keep_worlds=False)
    assert [state_hash(again.world(i)) for i in range(6)] == [state_hash(w) for w in want]


def test_put_lanes_puts_a_smaller_batchs_games_in_their_lanes():
    cfg, worlds = six_games_of_different_sizes()
    columns = pack(worlds, cfg, range(1, 7), keep_worlds=False).columns()
    others = [new_world(cfg, 100), worlds[5], new_world(cfg, 101)]
    sub = pack(others, cfg, range(3), keep_worlds=False).columns()
    lanes = np.array([0, 2, 5])
    assert all(np.array_equal(v, columns[k]) for k, v in put_lanes(
        columns, SCALAR_FIELDS, lanes, take_columns(columns, SCALAR_FIELDS, lanes)).items())
    put = put_lanes(columns, SCALAR_FIELDS, lanes, sub)
    want = list(worlds)
    want[0], want[2], want[5] = others
    got = pack(want, cfg, range(6), keep_worlds=False).columns()
    assert set(put) == set(got)
    for name, value in got.items():
        assert value.dtype == put[name].dtype, name
        assert np.array_equal(value, put[name]), name


def test_games_held_still_keep_every_column_and_make_no_events():
    # Held games (``active`` False: an env's games that ended inside a frame skip, a match's
    # waiting player) are left out of the batched pass, not handed to the one-game step.
    cfg = params_for(load_preset("default"))
    batch = new_batch(cfg, range(1, 9))
    rng = np.random.default_rng(3)
    worlds = batch.worlds()
    for tick in range(200):
        active = rng.random(8) < 0.5
        masks = rng.integers(0, ALL_BUTTONS + 1, size=8)
        with one_game_steps() as handed:
            batch, events = step_batch(batch, masks, cfg, active=active)
        assert handed == [0]
        for i in range(8):
            if active[i]:
                worlds[i], want = step(worlds[i], int(masks[i]), cfg)
            else:
                want = ()
            assert state_hash(batch.world(i)) == state_hash(worlds[i]), (tick, i)
            assert events.of(i) == want, (tick, i)


def test_reset_and_take_lanes_on_columns_give_the_games_asked_for():
    cfg = load_preset("classic")
    batch = new_batch(cfg, range(1, 9))
    for t in range(120):
        batch, _ = step_batch(batch, np.full(8, 8 if t % 2 else 2, dtype=np.int64), cfg)
    before = [state_hash(batch.world(i)) for i in range(8)]
    reset = reset_lanes(batch, [5, 2], [100, 101])
    want = list(before)
    want[5], want[2] = state_hash(new_world(cfg, 100)), state_hash(new_world(cfg, 101))
    assert [state_hash(reset.world(i)) for i in range(8)] == want
    assert reset.seeds[2] == 101 and reset.seeds[5] == 100
    taken = take_lanes(reset, [7, 0, 5])
    assert [state_hash(taken.world(i)) for i in range(3)] == [want[7], want[0], want[5]]
    assert taken.seeds == (8, 1, 100)
    stepped, _ = step_batch(taken, np.zeros(3, dtype=np.int64), cfg)
    alone = [step(w, 0, cfg)[0] for w in (taken.world(0), taken.world(1), taken.world(2))]
    assert [state_hash(stepped.world(i)) for i in range(3)] == [state_hash(w) for w in alone]


@settings(max_examples=200, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), speed=st.floats(0.0, 20.0))
def test_closest_within_is_closest_wherever_the_aimer_reads_it(seed, speed):
    rng = np.random.default_rng(seed)
    size = np.array([1024.0, 768.0])
    n = 300
    rel = rng.uniform(-0.5, 0.5, size=(n, 2)) * size  # nearest images, as the aimer has them
    vel = rng.uniform(-1.0, 1.0, size=(n, 2)) * speed
    horizon = rng.integers(0, 80, size=n).astype(np.float64)
    radius = rng.uniform(5.0, 70.0, size=n)
    images = IMAGE_STEPS * size
    t, miss = closest(rel, vel, horizon, images)
    t_w, miss_w = closest_within(rel[:, 0], rel[:, 1], vel[:, 0], vel[:, 1], horizon, images,
                                 size, radius)
    near = miss < radius
    assert (miss_w < radius).tolist() == near.tolist()
    assert t_w[near].tobytes() == t[near].tobytes()
    assert miss_w[near].tobytes() == miss[near].tobytes()


@settings(max_examples=60, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), ships=st.integers(1, 12),
       preset=st.sampled_from(["classic", "arena"]))
def test_escapes_of_many_ships_are_each_ships_own(seed, ships, preset):
    """The batched aimer asks ``escapes`` for every ship in danger at once, the one-game
    aimer for its one ship: each ship's answer must not depend on the others'."""
    kit = AimKit(params_for(load_preset(preset)))
    rng = np.random.default_rng(seed)
    size = kit.p.size
    counts = rng.integers(1, 9, size=ships)
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    n = int(counts.sum())
    ship = [rng.uniform(0.0, 1.0, ships) * size[0], rng.uniform(0.0, 1.0, ships) * size[1],
            rng.uniform(-6.0, 6.0, ships), rng.uniform(-6.0, 6.0, ships),
            rng.integers(0, 256, ships), rng.integers(-1, 2, ships)]
    danger = [rng.uniform(0.0, 1.0, (n, 2)) * size, rng.uniform(-4.0, 4.0, (n, 2)),
              rng.uniform(2.0, 40.0, n)]
    together = escapes(*ship, *danger, start, kit)
    for i in range(ships):
        rows = slice(start[i], start[i] + counts[i])
        alone = escapes(*[a[i:i + 1] for a in ship], *[a[rows] for a in danger],
                        np.zeros(1, dtype=np.int64), kit)
        assert [int(a[i]) for a in together] == [int(a[0]) for a in alone]
