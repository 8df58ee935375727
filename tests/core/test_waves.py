"""Waves: how many rocks (first, increment, cap), when the next wave comes after the last
rock breaks, and where a new wave's rocks appear (edges, clearance from the ship, speeds)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, spawn, step
from asteroids.core.params import params_for
from asteroids.core.rng import Pcg32, seed_state
from asteroids.core.spawn import (
    append_rocks,
    remove_all_rocks,
    spawn_wave,
    wave_size,
)
from asteroids.core.world import (
    SHOOTER_SHIP,
    Draft,
)
from tests.core.worlds import CFG, P, config_with, of, quiet, rock, with_shots, world_with
from tests.core.worlds import run as run_inputs

CX, CY = 0.5 * P.width, 0.5 * P.height


def run(world, cfg, n):
    """Step ``n`` ticks with no input; return the last world and each step's events."""
    per_step = []
    for _ in range(n):
        world, events = step(world, 0, cfg)
        per_step.append(events)
    return world, per_step


def quiet_with(**sections) -> Config:
    return quiet(config_with(**sections))


# A round rock at (300, y) and a shot that reaches its edge (x = 292) on the first tick.
def _target(size: int, y: float = 200.0, cfg: Config = CFG):
    return rock(size, 300.0, y, round_radius=8.0, cfg=cfg)


def _shot(y: float = 200.0, owner: int = SHOOTER_SHIP):
    return (owner, 285.0, y, 10.0, 0.0, 30)


def _clear_last_rock(cfg: Config = CFG, **fields):
    """A world whose last rock (small: no fragments) a shot breaks on the next tick."""
    return with_shots(world_with(cfg, [_target(2, cfg=cfg)], **fields), [_shot()])


def _spawn(cfg: Config, count: int, seed: int, ship: tuple[float, float] = (CX, CY)):
    d = Draft(world_with(cfg, []))
    d.ship_x, d.ship_y = ship
    return spawn_wave(d, params_for(cfg), Pcg32(*seed_state(seed)), count)


def _clearance_cfg(clearance: float, borders: tuple[str, str]) -> Config:
    return quiet_with(game={"spawn_clearance_px": clearance},
                      borders={"asteroids": borders[0], "ship": borders[1]})


def test_wave_size_reaches_max_wave_asteroids_exactly() -> None:
    # 4 + 2 * (wave - 1) hits the cap of 10 exactly at wave 4.
    p = params_for(quiet_with(game={"max_wave_asteroids": 10}))
    assert [wave_size(p, n) for n in (1, 3, 4, 5, 6)] == [4, 8, 10, 10, 10]


def test_wave_size_one_under_max_wave_asteroids() -> None:
    # Cap 11 (default): wave 4 is 10, one under it; wave 5 would be 12 and is capped.
    assert [wave_size(P, n) for n in (4, 5)] == [10, 11]


@pytest.mark.parametrize("max_alive,sizes", [(10, [8, 10, 10]), (9, [8, 9, 9])])
def test_wave_size_capped_by_asteroid_max_alive(max_alive: int, sizes: list[int]) -> None:
    p = params_for(quiet_with(asteroids={"max_alive": max_alive}))
    assert [wave_size(p, n) for n in (3, 4, 5)] == sizes


def test_first_wave_of_zero_asteroids_clears_at_once() -> None:
    cfg = quiet_with(game={"first_wave_asteroids": 0, "next_wave_delay_s": 0.0})
    w = new_world(cfg, 1)
    assert w.wave == 1 and w.asteroid_count == 0
    assert [wave_size(params_for(cfg), n) for n in (1, 2, 3)] == [0, 2, 4]
    world, events = step(w, 0, cfg)
    assert of(events, ev.WaveCleared) == [ev.WaveCleared(1)]
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(2, 2)]
    assert world.asteroid_count == 2


def test_next_wave_starts_exactly_wave_delay_ticks_after_the_break() -> None:
    w = _clear_last_rock()
    world, per_step = run(w, CFG, 1 + P.game_next_wave_delay_ticks)
    cleared = [i for i, events in enumerate(per_step) if of(events, ev.WaveCleared)]
    started = [i for i, events in enumerate(per_step) if of(events, ev.WaveStarted)]
    assert cleared == [0]  # the tick the last rock broke
    assert started == [P.game_next_wave_delay_ticks]  # nothing at delay - 1
    assert of(per_step[-1], ev.WaveStarted) == [ev.WaveStarted(2, wave_size(P, 2))]
    assert world.asteroid_count == wave_size(P, 2)


def test_next_wave_with_a_short_delay() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 3 / 60})
    assert params_for(cfg).game_next_wave_delay_ticks == 3
    world, per_step = run(_clear_last_rock(cfg), cfg, 4)
    assert [bool(of(events, ev.WaveStarted)) for events in per_step] == [False, False, False,
                                                                          True]
    assert world.wave_timer == -1 and world.asteroid_count == 6


def test_next_wave_with_zero_delay_starts_on_the_clearing_tick() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, events = step(_clear_last_rock(cfg), 0, cfg)
    assert [type(e) for e in events if isinstance(e, (ev.WaveCleared, ev.WaveStarted))] == [
        ev.WaveCleared, ev.WaveStarted]
    assert world.wave == 2 and world.asteroid_count == 6


def test_wave_counter_increments_by_one() -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, events = step(_clear_last_rock(cfg, wave=7), 0, cfg)
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(8, 11)]
    assert world.wave == 8


def test_new_wave_resets_saucer_timers_but_not_the_saucer_count() -> None:
    # The count of saucers decides the "first saucers of a game are large" rule
    # (always_large_count): it runs over the whole game, as the 1979 game's reload did.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, _ = step(_clear_last_rock(cfg, saucer_timer=3, saucer_interval=150,
                                     saucers_this_game=4), 0, cfg)
    assert world.saucer_timer == P.saucers_first_interval_ticks
    assert world.saucer_interval == P.saucers_first_interval_ticks
    assert world.saucers_this_game == 4


@pytest.mark.parametrize("refill,energy", [(True, P.ship_shield_energy_ticks), (False, 5)])
def test_new_wave_refills_shield_only_when_refill_per_wave(refill: bool, energy: int) -> None:
    cfg = quiet_with(game={"next_wave_delay_s": 0.0},
                     ship={"shield": {"refill_per_wave": refill}})
    world, _ = step(_clear_last_rock(cfg, shield_energy=5), 0, cfg)
    assert world.wave == 2 and world.shield_energy == energy


def test_new_wave_weight_is_seven_per_large_rock() -> None:
    # Wave 2 has 6 large rocks: weight 42. With one large rock (7) left the by-count interval
    # is 8 + 38 * 7 // 42 = 14.
    cfg = quiet_with(game={"next_wave_delay_s": 0.0})
    world, _ = step(_clear_last_rock(cfg), 0, cfg)
    assert world.wave_weight == 42
    d = Draft(world)
    remove_all_rocks(d)
    append_rocks(d, [rock(0, 100.0, 100.0, round_radius=10.0)])
    d.beat_timer = 1
    _, events = step(d.freeze(), 0, cfg)
    assert [b.interval_ticks for b in of(events, ev.Heartbeat)] == [14]


@pytest.mark.parametrize("borders,seed", [
    (("wrap", "wrap"), 2), (("wrap", "bounce"), 2), (("bounce", "wrap"), 4)])
def test_spawn_accepts_a_place_exactly_spawn_clearance_away_across_the_seam(
        borders: tuple[str, str], seed: int) -> None:
    # The seed's first try is on the top edge (y = 0, or the radius when rocks bounce). A ship
    # 520 px below it is 200 px away across the seam when anything wraps: at a clearance of
    # 200 that try is taken, at the next float above 200 it is not.
    first = _spawn(_clearance_cfg(0.0, borders), 1, seed).pos[0]
    top = 0.0 if borders[0] == "wrap" else P.radius[0]
    assert first[1] == top
    ship = (float(first[0]), top + 520.0)
    at = _spawn(_clearance_cfg(200.0, borders), 1, seed, ship).pos[0]
    assert at.tolist() == first.tolist()
    nudged = _clearance_cfg(math.nextafter(200.0, math.inf), borders)
    assert _spawn(nudged, 1, seed, ship).pos[0].tolist() != first.tolist()


def test_spawn_clearance_is_measured_straight_when_nothing_wraps() -> None:
    # Bounce borders, seed 4: first try on the top edge inset by the radius (y = 44).
    borders = ("bounce", "bounce")
    first = _spawn(_clearance_cfg(0.0, borders), 1, 4).pos[0]
    assert first[1] == P.radius[0]
    ship = (float(first[0]), P.radius[0] + 200.0)
    assert _spawn(_clearance_cfg(200.0, borders), 1, 4, ship).pos[0].tolist() == first.tolist()
    nudged = _clearance_cfg(math.nextafter(200.0, math.inf), borders)
    assert _spawn(nudged, 1, 4, ship).pos[0].tolist() != first.tolist()
    # 520 px straight down, 200 across a seam that does not exist here: taken at 300.
    far = (float(first[0]), P.radius[0] - 200.0 + P.height)
    assert _spawn(_clearance_cfg(300.0, borders), 1, 4, far).pos[0].tolist() == first.tolist()


def test_spawn_falls_back_to_the_farthest_try() -> None:
    # Walk the records: each clearance just past the last result finds the next farther try,
    # until none is farther; a clearance nobody can meet must then give that farthest try.
    ship = (150.0, 120.0)

    def place(clearance):
        pos = _spawn(_clearance_cfg(clearance, ("wrap", "wrap")), 1, 16, ship).pos[0]
        dx = min(abs(pos[0] - ship[0]), P.width - abs(pos[0] - ship[0]))
        dy = min(abs(pos[1] - ship[1]), P.height - abs(pos[1] - ship[1]))
        return pos.tolist(), math.hypot(dx, dy)

    records = [place(0.0)]
    while True:
        nxt = place(records[-1][1] * (1.0 + 1e-9))
        if nxt[0] == records[-1][0]:
            break
        records.append(nxt)
    assert len(records) >= 3  # seed 16's first try is not its farthest
    assert place(1e6)[0] == records[-1][0]


def test_new_wave_rocks_are_large_on_the_wrapping_edges() -> None:
    batch = _spawn(CFG, 60, 3)
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    assert (batch.size == 0).all()
    assert ((x == 0.0) | (y == 0.0)).all()  # the far edges fold onto 0 in [0, W) x [0, H)
    assert (x == 0.0).any() and (y == 0.0).any()
    assert ((x >= 0.0) & (x < P.width) & (y >= 0.0) & (y < P.height)).all()
    # Along its edge a rock may be anywhere: only the coordinate across the edge is pinned.
    assert np.ptp(x[y == 0.0]) > 0.5 * P.width and np.ptp(y[x == 0.0]) > 0.5 * P.height
    dx = np.minimum(abs(x - CX), P.width - abs(x - CX))
    dy = np.minimum(abs(y - CY), P.height - abs(y - CY))
    assert (dx * dx + dy * dy >= P.game_spawn_clearance_px * P.game_spawn_clearance_px).all()


def test_new_wave_rocks_sit_inset_by_their_radius_when_bouncing() -> None:
    cfg = quiet_with(borders={"asteroids": "bounce", "ship": "bounce"})
    batch = _spawn(cfg, 60, 3)
    r = P.radius[0]
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    on_x, on_y = (x == r) | (x == P.width - r), (y == r) | (y == P.height - r)
    assert (on_x | on_y).all()
    for edge in (x == r, x == P.width - r, y == r, y == P.height - r):
        assert edge.any()
    assert ((x >= r) & (x <= P.width - r) & (y >= r) & (y <= P.height - r)).all()


def test_new_wave_rocks_come_evenly_from_all_four_edges() -> None:
    # Each edge has odds 1/4 (with no clearance to meet, every first try is taken).
    cfg = quiet_with(borders={"asteroids": "bounce", "ship": "bounce"},
                     game={"spawn_clearance_px": 0.0})
    batch = _spawn(cfg, 1000, 5)
    r = P.radius[0]
    x, y = batch.pos[:, 0], batch.pos[:, 1]
    for edge in (x == r, x == P.width - r, y == r, y == P.height - r):
        assert 0.2 < edge.mean() < 0.3


def test_new_wave_speed_signs_are_even() -> None:
    vel = _spawn(CFG, 1000, 5).vel
    assert 0.45 < (vel < 0).mean() < 0.55


def test_new_wave_speeds_per_axis_within_min_and_max() -> None:
    vel = _spawn(CFG, 60, 3).vel
    speed = np.abs(vel)
    assert (speed >= P.asteroids_speed_min_px_per_tick).all()
    assert (speed < P.asteroids_speed_max_px_per_tick).all()
    span = P.asteroids_speed_max_px_per_tick - P.asteroids_speed_min_px_per_tick
    assert speed.min() < P.asteroids_speed_min_px_per_tick + 0.1 * span  # the whole range is used
    assert speed.max() > P.asteroids_speed_max_px_per_tick - 0.1 * span
    assert (vel > 0).any() and (vel < 0).any()


def test_new_wave_speed_equal_min_and_max_is_exact() -> None:
    cfg = quiet_with(asteroids={"speed_min_px_per_s": 90.0, "speed_max_px_per_s": 90.0})
    vel = _spawn(cfg, 20, 3).vel
    assert (np.abs(vel) == 90.0 / 60.0).all()


def test_wave_sizes_grow_by_two_up_to_eleven() -> None:
    assert [wave_size(P, n) for n in range(1, 8)] == [4, 6, 8, 10, 11, 11, 11]


def test_first_wave_spawns_on_the_edges_away_from_the_ship() -> None:
    for seed in range(20):
        w = new_world(CFG, seed)
        assert w.asteroid_count == 4 and w.wave == 1
        d = w.ast_pos - np.array([CX, CY])
        assert (np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) >= P.game_spawn_clearance_px).all()
        on_edge = (w.ast_pos[:, 0] == 0) | (w.ast_pos[:, 1] == 0)  # the seam of a torus
        assert on_edge.all()


def test_next_wave_comes_after_the_delay_and_is_bigger() -> None:
    w = world_with(CFG, [rock(2, 300.0, 200.0, round_radius=8.0)])
    w = with_shots(w, [(SHOOTER_SHIP, 280.0, 200.0, 10.0, 0.0, 30)])
    w, events = run_inputs(w, CFG, [0] * 2)
    assert of(events, ev.WaveCleared) == [ev.WaveCleared(1)]
    w, events = run_inputs(w, CFG, [0] * (P.game_next_wave_delay_ticks - 1))
    assert w.asteroid_count == 0 and not of(events, ev.WaveStarted)
    w, events = step(w, 0, CFG)
    assert of(events, ev.WaveStarted) == [ev.WaveStarted(2, 6)]
    assert w.asteroid_count == 6


# --- a new wave's headings clear of the ship (game.spawn_clearance_s) --------------------------


def _heading(t_reach: int, ticks: int, borders: str = "wrap") -> list[float]:
    """The velocity a new rock keeps or takes when, flying straight on at 5 px a tick, its
    centre first comes within ``reach`` (a large rock's radius plus the ship's, as a wave
    uses) of a still ship at tick ``t_reach`` (half a pixel inside; 4.5 px outside the tick
    before)."""
    cfg = quiet_with(borders={"asteroids": borders, "ship": borders})
    p = params_for(cfg)
    reach = p.radius[0] + p.ship_radius
    ship = (500.0, 400.0)
    pos = np.array([[ship[0] + reach - 0.5 + 5.0 * t_reach, ship[1]]])
    vel = np.array([[-5.0, 0.0]])
    return spawn._heading_clear(pos, vel, ship, reach, ticks, p)[0].tolist()


@pytest.mark.parametrize("borders", ["wrap", "bounce"])
@pytest.mark.parametrize(("t_reach", "ticks", "kept"), [
    (0, 30, False),   # one that appears within reach turns away too
    (1, 1, False),    # reaching on the very first tick counts
    (30, 30, False),  # reaching on the last tick looked at counts
    (31, 30, True),   # one tick past the horizon: the drawn heading stays
    (30, 29, True),
])
def test_a_new_rock_turns_only_when_it_would_reach_the_ship_within_the_clearance(
        t_reach: int, ticks: int, kept: bool, borders: str) -> None:
    # Turned, it takes its first mirror (-vx): straight away from the ship.
    assert _heading(t_reach, ticks, borders) == ([-5.0, 0.0] if kept else [5.0, 0.0])


def _first_reach(pos, vel, ship, reach, ticks, p) -> int:
    """The first tick (1..ticks) at which a rock flying straight on from ``pos`` at ``vel``
    comes within ``reach`` of ``ship``, step by step (wrapping, or reflected at its radius
    from the borders, as rocks do), or ``ticks + 1`` when it never does."""
    size = (p.width, p.height)
    lo = reach - p.ship_radius  # a bouncing rock turns where its edge meets the border
    x, v = list(pos), list(vel)
    for t in range(1, ticks + 1):
        for a in (0, 1):
            x[a] += v[a]
            if p.wrap_asteroids:
                x[a] %= size[a]
            else:
                while not lo <= x[a] <= size[a] - lo:
                    edge = lo if x[a] < lo else size[a] - lo
                    x[a], v[a] = 2.0 * edge - x[a], -v[a]
        d = [x[a] - ship[a] for a in (0, 1)]
        if p.wrap_asteroids or p.wrap_ship:
            d = [d[a] - size[a] * round(d[a] / size[a]) for a in (0, 1)]
        if d[0] * d[0] + d[1] * d[1] <= reach * reach:
            return t
    return ticks + 1


@pytest.mark.parametrize("borders", [("wrap", "wrap"), ("bounce", "bounce"),
                                     ("wrap", "bounce"), ("bounce", "wrap")])
def test_new_rocks_keep_the_first_heading_clear_of_the_ship_or_the_one_reaching_it_latest(
        borders: tuple[str, str]) -> None:
    """Many rocks at once, fast and slow, near the ship and across seams and walls (several
    bounces in one clearance): each keeps its drawn velocity if it stays out of reach for the
    whole clearance, else takes the first clear mirror (x, then y, then both), else the one
    that reaches the ship latest; checked against a step-by-step flight."""
    cfg = quiet_with(borders={"asteroids": borders[0], "ship": borders[1]})
    p = params_for(cfg)
    reach = p.radius[0] + p.ship_radius
    lo = p.radius[0]
    rng = np.random.default_rng(24)
    flips = [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)]
    outcomes = set()
    mixed = False  # a batch where one rock keeps a clear heading and another falls back
    for _ in range(24):
        # Often in a corner, so that rocks come within reach across a seam when one wraps.
        edge = rng.uniform(lo, lo + 10.0, 2) if rng.random() < 0.5 else rng.uniform(lo, p.size - lo)
        ship = tuple(np.where(rng.random(2) < 0.5, edge, p.size - edge).tolist())
        n = 24
        pos = np.array(ship) + rng.uniform(-250.0, 250.0, (n, 2))
        if p.wrap_asteroids:
            pos %= p.size
        else:
            pos = np.clip(pos, lo, p.size - lo)
        vel = rng.uniform(-1.0, 1.0, (n, 2)) * rng.choice([3.0, 12.0, 40.0, 100.0], (n, 1))
        ticks = int(rng.integers(1, 90))
        got = spawn._heading_clear(pos, vel, ship, reach, ticks, p)
        picks = []
        for i in range(n):
            cands = [(vel[i, 0] * fx, vel[i, 1] * fy) for fx, fy in flips]
            first = [_first_reach(pos[i], c, ship, reach, ticks, p) for c in cands]
            clear = [f > ticks for f in first]
            pick = clear.index(True) if any(clear) else first.index(max(first))
            outcomes.add(pick if any(clear) else -1 - pick)
            picks.append(pick if any(clear) else -1 - pick)
            assert got[i].tolist() == list(cands[pick]), (i, first)
        mixed |= any(o >= 0 for o in picks) and any(o < -1 for o in picks)
    assert {0, 1, 2} <= outcomes and mixed  # every branch taken


@pytest.mark.parametrize(("ticks", "kept"), [(10, False), (9, True)])
def test_a_new_rock_exactly_at_reach_on_the_clearance_last_tick_turns(ticks: int,
                                                                      kept: bool) -> None:
    # 100 px right of the ship at 5 px a tick: exactly 50 px (the reach) away at tick 10,
    # which is not "farther than the reach", so it turns when the clearance includes tick 10.
    p = params_for(CFG)
    got = spawn._heading_clear(np.array([[600.0, 400.0]]), np.array([[-5.0, 0.0]]),
                               (500.0, 400.0), 50.0, ticks, p)
    assert got[0].tolist() == ([-5.0, 0.0] if kept else [5.0, 0.0])


def test_a_one_tick_clearance_still_turns_a_rock_that_would_reach_the_ship_on_that_tick() -> None:
    # The shortest clearance there is (spawn_clearance_s of one tick): a rock whose drawn
    # heading brings it half its speed inside reach of the ship on the first tick turns away.
    # (No spawn distance, so the rock appears where the seed puts it wherever the ship is.)
    cfg0 = quiet_with(game={"spawn_clearance_px": 0.0, "spawn_clearance_s": 0.0})
    cfg1 = quiet_with(game={"spawn_clearance_px": 0.0, "spawn_clearance_s": 1.0 / 60.0})
    p = params_for(cfg1)
    assert p.per_tick["game.spawn_clearance_s"] == 1
    drawn = _spawn(cfg0, 1, 7)
    pos, vel = drawn.pos[0], drawn.vel[0]
    speed = math.hypot(*vel.tolist())
    reach = p.radius[0] + p.ship_radius
    ship = tuple(((pos + vel / speed * (reach + 0.5 * speed)) % p.size).tolist())
    kept, turned = _spawn(cfg0, 1, 7, ship), _spawn(cfg1, 1, 7, ship)
    assert kept.vel[0].tolist() == vel.tolist() and turned.pos[0].tolist() == pos.tolist()
    assert turned.vel[0].tolist() != vel.tolist()
    assert np.abs(turned.vel[0]).tolist() == np.abs(vel).tolist()  # a mirror of it


def _places_one_by_one(p, rng, ship, count):
    """The 1979-style placement loop as the game wrote it before it was shared with the
    batched tick (``spawn.wave_places``): the oracle for the shared text's choices."""
    from asteroids.core.scalar import min_image1

    r = p.radius[0]
    w, h = p.width, p.height
    inset = 0.0 if p.wrap_asteroids else r
    places = []
    for _ in range(count):
        best, best_d2 = (0.0, 0.0), -1.0
        for _attempt in range(spawn.ATTEMPTS):
            if rng.below(2):
                x = inset if rng.below(2) else w - inset
                y = rng.uniform(inset, h - inset)
            else:
                x = rng.uniform(inset, w - inset)
                y = inset if rng.below(2) else h - inset
            if p.wrap_asteroids:
                x, y = (0.0 if x >= w else x), (0.0 if y >= h else y)
            dx, dy = x - ship[0], y - ship[1]
            if p.wrap_ship or p.wrap_asteroids:
                dx, dy = min_image1(dx, w), min_image1(dy, h)
            d2 = dx * dx + dy * dy
            if d2 > best_d2:
                best, best_d2 = (x, y), d2
            if d2 >= p.game_spawn_clearance_px * p.game_spawn_clearance_px:
                break
        places.append(best)
    return places


@pytest.mark.parametrize("borders", [("wrap", "wrap"), ("bounce", "wrap"), ("bounce", "bounce")])
@pytest.mark.parametrize("clearance", [0.0, 150.0, 400.0, 5000.0])
def test_a_waves_places_are_the_first_far_try_or_the_farthest(borders, clearance) -> None:
    cfg = _clearance_cfg(clearance, borders)
    p = params_for(cfg)
    rng = np.random.default_rng(int(clearance) + len(borders[0]))
    for seed in range(12):
        ship = (float(rng.uniform(-5.0, P.width + 5.0)), float(rng.uniform(0.0, P.height)))
        count = seed % 6
        oracle = Pcg32(*seed_state(seed))
        want = _places_one_by_one(p, oracle, ship, count)
        oracle.skip(count * (4 + spawn.draws_per_rock(p)))
        d = Draft(world_with(cfg, []))
        d.ship_x, d.ship_y = ship
        stream = Pcg32(*seed_state(seed))
        got = spawn_wave(d, p, stream, count)
        assert got.pos.tolist() == [list(xy) for xy in want]
        assert stream.state == oracle.state
