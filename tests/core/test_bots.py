"""The named bots: what each presses, that they are pure, and that the aimer plays well.

The aimer's skill is measured in full by ``asteroids bench bots``; here a fixed set of seeds
pins the issue's requirement (it clears wave 1 of the classic preset in most seeds) and
hand-built worlds pin the behaviours a player would notice: aiming across the wrap seam,
leading a moving rock, and hyperspace only when nothing else saves the ship.
"""

from __future__ import annotations

import dataclasses

import pytest

from asteroids.config import Config
from asteroids.core import events as ev
from asteroids.core import new_world, state_hash, step
from asteroids.core.bot import BOTS, aimer_bot, bot_for
from asteroids.core.inputs import InputFrame, as_mask
from asteroids.core.params import params_for
from asteroids.core.world import Draft, World
from tests.core.bot_game import preset
from tests.core.worlds import quiet, rock, world_with

CLASSIC = preset("classic")
CLEAR_SEEDS = tuple(range(1, 11))
CLEAR_BUDGET = 3 * 60 * 62 + 30
"""Three minutes of classic game time (62.5 Hz): the aimer typically needs under ten seconds."""

UP = 1024
"""Heading pointing up the screen (+y)."""


def _play(bot_name: str, cfg: Config, seed: int, ticks: int) -> list[tuple[World, int, tuple]]:
    """(world, mask, events of that step) for each tick of a bot game, stopping at game over."""
    bot = bot_for(bot_name)
    p = params_for(cfg)
    world = new_world(p, seed)
    out = []
    for _ in range(ticks):
        if world.game_over:
            break
        mask = bot(world, p)
        nxt, events = step(world, mask, p)
        out.append((world, mask, events))
        world = nxt
    return out


def _clears_wave_one(seed: int) -> bool:
    p = params_for(CLASSIC)
    world = new_world(p, seed)
    for _ in range(CLEAR_BUDGET):
        if world.game_over:
            return False
        world, _ = step(world, aimer_bot(world, p), p)
        if world.wave > 1 or world.wave_timer >= 0:
            return True
    return False


def test_aimer_clears_wave_one_of_classic_in_most_seeds() -> None:
    cleared = [seed for seed in CLEAR_SEEDS if _clears_wave_one(seed)]
    assert len(cleared) >= 8, f"cleared wave 1 only in seeds {cleared} of {CLEAR_SEEDS}"


def test_bot_for_names_the_known_bots_and_the_closest() -> None:
    assert {"idle", "spinner", "aimer"} <= set(BOTS)
    assert bot_for("aimer") is BOTS["aimer"]
    with pytest.raises(ValueError) as err:
        bot_for("aimr")
    message = str(err.value)
    assert "did you mean 'aimer'" in message
    assert all(name in message for name in BOTS)
    with pytest.raises(ValueError, match="known bots"):
        bot_for("zzzz")


@pytest.mark.parametrize("preset_name", ["classic", "default", "arena"])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_give_valid_masks_and_are_pure(name: str, preset_name: str) -> None:
    """Valid masks in every preset (wrapping and bouncing); the same world gets the same
    mask whenever and however often it is asked (no hidden state, no clock, no chance)."""
    cfg = preset(preset_name)
    game = _play(name, cfg, seed=3, ticks=400)
    bot = bot_for(name)
    masks = [mask for _, mask, _ in game]
    assert all(as_mask(mask) == mask for mask in masks)
    sample = [world for world, _, _ in game[::7]]
    assert [bot(w, cfg) for w in reversed(sample)] == [masks[i] for i in
                                                       range(0, len(game), 7)][::-1]
    copy = Draft(sample[-1]).freeze()
    assert state_hash(copy) == state_hash(sample[-1])
    assert bot(copy, dataclasses.replace(cfg)) == bot(sample[-1], cfg)


def test_idle_presses_nothing_and_the_rocks_come() -> None:
    game = _play("idle", CLASSIC, seed=2, ticks=60 * 62)
    assert all(mask == 0 for _, mask, _ in game)
    deaths = [e for _, _, events in game for e in events if isinstance(e, ev.ShipDestroyed)]
    assert deaths, "an idle ship should be hit within a minute"
    first = game[0][0]
    assert all(w.ship_heading == first.ship_heading for w, _, _ in game[:50])


def test_spinner_turns_and_fires_but_never_thrusts_or_jumps() -> None:
    game = _play("spinner", CLASSIC, seed=4, ticks=600)
    banned = InputFrame.THRUST | InputFrame.HYPERSPACE | InputFrame.SHIELD
    assert not any(mask & banned for _, mask, _ in game)
    assert all(mask & InputFrame.LEFT for _, mask, _ in game)
    shots = [e for _, _, events in game for e in events
             if isinstance(e, ev.ShotFired) and e.shooter == "ship"]
    # Fire is released every other tick, so the shot cap (4 alive for 72 ticks) is what
    # limits it: about 4 shots per 72 ticks when none hits anything.
    assert len(shots) >= 25
    cap = params_for(CLASSIC).shots_max_alive
    for world, _, events in game:
        mine = int((world.shot_owner == 0).sum())
        if world.ship_visible and not world.fire_held and mine < cap:
            assert any(isinstance(e, ev.ShotFired) for e in events), world.tick
    headings = {w.ship_heading for w, _, _ in game[:100]}
    assert len(headings) > 50


# --- hand-built worlds -----------------------------------------------------------------------

QUIET = quiet(Config())


def _run_aimer(world: World, cfg: Config, ticks: int) -> tuple[World, list]:
    """Let the aimer play ``ticks`` ticks; return the last world and every (mask, events)."""
    log = []
    p = params_for(cfg)
    for _ in range(ticks):
        mask = aimer_bot(world, p)
        world, events = step(world, mask, p)
        log.append((mask, events))
    return world, log


def test_aimer_aims_across_the_wrap_seam() -> None:
    """A rock 50 px away through the left edge: the aimer turns left (toward -x) and breaks
    it with a shot through the seam, instead of turning right to shoot the long way (over
    1200 px, out of a shot's range)."""
    p = params_for(QUIET)
    target = rock(2, p.width - 30.0, 360.0, cfg=QUIET, round_radius=10.0)
    world = world_with(QUIET, [target], ship_x=20.0, ship_y=360.0, ship_heading=UP)
    assert aimer_bot(world, QUIET) & InputFrame.LEFT
    end, log = _run_aimer(world, QUIET, 60)
    broken = [e for _, events in log for e in events if isinstance(e, ev.AsteroidDestroyed)]
    assert broken and broken[0].by == "ship-shot"
    assert not any(mask & InputFrame.RIGHT for mask, _ in log[:10])


def test_aimer_leads_a_moving_rock() -> None:
    """A rock crossing the ship's view: the first shot points ahead of the rock, on its side
    of travel, and that one shot breaks it."""
    cfg = QUIET
    p = params_for(cfg)
    cx, cy = 0.5 * p.width, 0.5 * p.height
    target = rock(2, cx + 300.0, cy - 120.0, 0.0, 3.0, cfg=cfg, round_radius=10.0)
    world = world_with(cfg, [target], ship_x=cx, ship_y=cy, ship_heading=0)
    fired_from = None
    for _ in range(80):
        mask = aimer_bot(world, p)
        nxt, events = step(world, mask, p)
        if any(isinstance(e, ev.ShotFired) for e in events):
            fired_from = world
            world = nxt
            break
        world = nxt
    assert fired_from is not None, "the aimer never fired"
    (svx, svy), = world.shot_vel.tolist()
    rx, ry = fired_from.ast_pos[0].tolist()
    to_rock = (rx - fired_from.ship_x, ry - fired_from.ship_y)
    # The rock moves +y; the shot's direction turns from the rock toward +y (counter-clockwise).
    lead = to_rock[0] * svy - to_rock[1] * svx
    norm = (to_rock[0] ** 2 + to_rock[1] ** 2) ** 0.5 * (svx * svx + svy * svy) ** 0.5
    assert lead / norm > 0.05, "the shot was aimed at the rock, not ahead of it"
    for _ in range(60):
        world, events = step(world, 0, p)
        if any(isinstance(e, ev.AsteroidDestroyed) for e in events):
            break
    else:
        pytest.fail("the led shot missed")


def _ring(cfg: Config, n: int, distance: float, speed: float) -> list:
    """``n`` round rocks on a circle around the centre, all flying at it."""
    from asteroids.core.tables import COS, SIN
    p = params_for(cfg)
    cx, cy = 0.5 * p.width, 0.5 * p.height
    rocks = []
    for i in range(n):
        k = i * 4096 // n
        c, s = float(COS[k]), float(SIN[k])
        rocks.append(rock(0, cx + c * distance, cy + s * distance, -c * speed, -s * speed,
                          cfg=cfg, round_radius=30.0))
    return rocks


def test_aimer_jumps_to_hyperspace_when_hemmed_in() -> None:
    """Eight rocks a few px from the ship, closing from every side: no turn or thrust gets
    clear and no shot breaks them all in time, so the aimer jumps."""
    p = params_for(QUIET)
    world = world_with(QUIET, _ring(QUIET, 8, 30.0 + p.ship_radius + 2.0, 4.0),
                       ship_x=0.5 * p.width, ship_y=0.5 * p.height, ship_heading=UP)
    assert aimer_bot(world, QUIET) & InputFrame.HYPERSPACE


def test_aimer_flees_instead_of_jumping_when_it_has_room() -> None:
    """A large rock closing fast from behind: turning round to shoot it takes longer than it
    needs to arrive, but there is room to get out of its way, so the aimer thrusts away and
    keeps its life, without hyperspace."""
    p = params_for(QUIET)
    cx, cy = 0.5 * p.width, 0.5 * p.height
    behind = rock(0, cx + 20.0, cy - 150.0, 0.0, 5.0, cfg=QUIET, round_radius=30.0)
    world = world_with(QUIET, [behind], ship_x=cx, ship_y=cy, ship_heading=UP)
    end, log = _run_aimer(world, QUIET, 120)
    assert any(mask & InputFrame.THRUST for mask, _ in log[:10])
    assert not any(mask & InputFrame.HYPERSPACE for mask, _ in log)
    assert end.lives == world.lives


def test_aimer_goes_for_the_saucer_first() -> None:
    """A rock dead ahead and a small saucer behind, both in range: the aimer turns round for
    the saucer (the threat that shoots back and the bigger prize) and shoots it down. (Here its
    first shot, fired as it starts to turn, already meets the saucer through the top/bottom
    seam; then it deals with the rock.)"""
    p = params_for(QUIET)
    cx, cy = 0.5 * p.width, 0.5 * p.height
    ahead = rock(2, cx, cy + 200.0, cfg=QUIET, round_radius=10.0)
    world = world_with(QUIET, [ahead], ship_x=cx, ship_y=cy, ship_heading=UP,
                       saucer_alive=True, saucer_small=True, saucer_x=cx + 40.0,
                       saucer_y=cy - 220.0, saucer_vx=0.0, saucer_vy=0.0,
                       saucer_ticks_left=10_000, saucer_fire_timer=10_000)
    # The saucer is down and to the right: the short way round is clockwise (RIGHT).
    assert aimer_bot(world, QUIET) & InputFrame.RIGHT
    end, log = _run_aimer(world, QUIET, 90)
    assert any(isinstance(e, ev.SaucerDestroyed) for _, events in log for e in events)
