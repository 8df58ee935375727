"""Two players alternating (asteroids.core.match): turns pass on a lost ship when the other
player still has ships, an out player is skipped, the match ends when both are out, the
waiting World is untouched, the banner holds both Worlds still for exactly its length."""

from __future__ import annotations

import dataclasses

import pytest

from asteroids.config import load_config
from asteroids.config.schema import Config
from asteroids.core import events as ev
from asteroids.core import new_world, state_hash, step
from asteroids.core.match import (
    Match,
    MatchOver,
    TurnStarted,
    banner_ticks,
    match_hash,
    new_match,
    player_seed,
    step_match,
)
from asteroids.core.params import params_for
from asteroids.core.play import MATCH
from asteroids.core.world import SHIP_DEAD, SHIP_FLYING, World

from .worlds import config_with, quiet, rock, world_with


def _cfg(**match: float) -> Config:
    return quiet(config_with(match=match) if match else Config())


def _doomed(cfg: Config, *, seed: int = 1, lives: int = 3) -> World:
    """A World whose ship is rammed on its first step: a small rock (no fragments) sits on it."""
    p = params_for(cfg)
    return world_with(cfg, [rock(2, 0.5 * p.width, 0.5 * p.height, cfg=cfg)], seed=seed,
                      lives=lives)


def _calm(cfg: Config, *, seed: int = 2) -> World:
    """A World with one rock far from the centre, drifting nowhere near it."""
    return world_with(cfg, [rock(2, 40.0, 40.0, cfg=cfg)], seed=seed)


def _match(*worlds: World, active: int = 0) -> Match:
    return Match(worlds=tuple(worlds), active=active, banner_ticks=0, handover_ticks=-1,
                 tick=0, over=False)


def _out(world: World) -> World:
    return dataclasses.replace(world, lives=0, game_over=True)


def _run_until(match: Match, cfg: Config, done, limit: int = 20_000):  # noqa: ANN001, ANN202
    """Step with no input (``cfg`` compiled once) until ``done(match, events)``; returns
    (match, events, steps)."""
    p = params_for(cfg)
    for n in range(1, limit + 1):
        match, events = step_match(match, 0, p)
        if done(match, events):
            return match, events, n
    raise AssertionError("the condition never came")


def _turn_started(events) -> list[int]:  # noqa: ANN001
    return [e.player for _, e in events if isinstance(e, TurnStarted)]


def test_player_one_plays_the_one_player_game_of_the_seed_and_player_two_another() -> None:
    cfg = _cfg()
    m = new_match(cfg, 42)
    assert state_hash(m.worlds[0]) == state_hash(new_world(cfg, 42))
    assert state_hash(m.worlds[1]) == state_hash(new_world(cfg, player_seed(42, 1)))
    assert state_hash(m.worlds[0]) != state_hash(m.worlds[1])
    assert (m.active, m.tick, m.over, m.players) == (0, 0, False, 2)
    with pytest.raises(ValueError):
        new_match(cfg, 42, players=3)


def test_banner_length_is_the_setting_and_one_tick_past_it_the_turn_runs() -> None:
    cfg = _cfg(turn_banner_s=0.5)
    assert banner_ticks(cfg) == 30  # 0.5 s at the default 60 Hz
    m = new_match(cfg, 7)
    start = m.worlds
    for n in range(1, 31):
        m, events = step_match(m, 0b1111, cfg)  # every button held: ignored
        assert events == ()
        assert m.worlds is start, f"a World moved during banner tick {n}"
        assert m.banner_ticks == 30 - n and m.tick == n
    m, _ = step_match(m, 0, cfg)
    assert m.worlds[0].tick == 1 and m.worlds[1] is start[1]


def test_no_banner_when_the_setting_is_zero() -> None:
    cfg = _cfg(turn_banner_s=0.0)
    m, _ = step_match(new_match(cfg, 7), 0, cfg)
    assert m.worlds[0].tick == 1


def test_turn_passes_when_the_lost_ship_would_come_back_not_a_tick_sooner() -> None:
    cfg = _cfg()
    p = params_for(cfg)
    waiting = _calm(cfg)
    m, events = step_match(_match(_doomed(cfg), waiting), 0, cfg)
    assert [e for _, e in events if isinstance(e, ev.ShipDestroyed)]
    assert all(player == 0 for player, _ in events)
    timer = m.worlds[0].ship_timer
    assert timer == p.ship_respawn_delay_ticks - 1  # the death tick counts down once already
    steps = 0
    while not _turn_started(events):
        before = m
        m, events = step_match(m, 0, p)
        steps += 1
        assert steps <= timer
    assert steps == timer - 1
    # One step sooner the dead player still had the turn, and their ship was not yet due.
    assert before.active == 0 and before.worlds[0].ship_timer == 2
    # Now: player 2's turn, banner up; player 1's ship is dead with one tick to go, so its
    # very next step brings it back (the centre is clear).
    assert (m.active, m.banner_ticks, _turn_started(events)) == (1, banner_ticks(cfg), [1])
    dead = m.worlds[0]
    assert dead.ship_state == SHIP_DEAD and dead.ship_timer == 1 and not dead.game_over
    back, back_events = step(dead, 0, cfg)
    assert back.ship_state == SHIP_FLYING
    assert any(isinstance(e, ev.ShipSpawned) for e in back_events)
    # The waiting World was never stepped.
    assert m.worlds[1] is waiting


def test_waiting_world_is_bit_identical_after_the_other_players_turn() -> None:
    cfg = _cfg()
    m = _match(_doomed(cfg, lives=2), _doomed(cfg, seed=3, lives=2))
    waiting_hash = state_hash(m.worlds[1])
    m, _, _ = _run_until(m, cfg, lambda m, e: _turn_started(e))
    assert m.active == 1 and state_hash(m.worlds[1]) == waiting_hash
    paused = m.worlds[0]
    paused_hash = state_hash(paused)
    m, _, _ = _run_until(m, cfg, lambda m, e: _turn_started(e))
    assert m.active == 0
    assert m.worlds[0] is paused and state_hash(m.worlds[0]) == paused_hash
    # Its first step after the banner brings its ship back.
    m, _, _ = _run_until(m, cfg, lambda m, e: any(isinstance(x, ev.ShipSpawned) for _, x in e))
    assert m.worlds[0].tick == paused.tick + 1


def test_turns_alternate_and_an_out_player_is_skipped() -> None:
    cfg = _cfg()
    # Player 1 is already out: player 0 loses a ship and plays on, no banner, no turn change.
    m = _match(_doomed(cfg), _out(_calm(cfg)))
    m, events, _ = _run_until(m, cfg, lambda m, e: any(isinstance(x, ev.ShipSpawned)
                                                       for _, x in e))
    assert m.active == 0 and m.banner_ticks == 0 and not m.over
    assert m.worlds[0].ship_state == SHIP_FLYING and m.worlds[0].lives == 2
    # The same from the other side: player 0 out, player 1 plays on alone.
    m = _match(_out(_calm(cfg)), _doomed(cfg), active=1)
    m, events, _ = _run_until(m, cfg, lambda m, e: any(isinstance(x, ev.ShipSpawned)
                                                       for _, x in e))
    assert m.active == 1 and not _turn_started(events)


def test_the_last_ship_passes_the_turn_too_and_the_match_ends_when_both_are_out() -> None:
    cfg = _cfg()
    m = _match(_doomed(cfg, lives=1), _doomed(cfg, seed=3, lives=1))
    m, events = step_match(m, 0, cfg)
    assert m.worlds[0].game_over and not m.over
    assert not any(isinstance(e, MatchOver) for _, e in events)
    # The World stops its respawn timer at game over; the match counts the same wait.
    timer = m.worlds[0].ship_timer
    assert timer == params_for(cfg).ship_respawn_delay_ticks
    m, events, steps = _run_until(m, cfg, lambda m, e: _turn_started(e))
    assert steps == timer - 1
    assert m.active == 1
    m, events, _ = _run_until(m, cfg, lambda m, e: m.over)
    assert m.worlds[1].game_over and m.active == 1
    over = [(player, e) for player, e in events if isinstance(e, MatchOver)]
    assert over == [(1, MatchOver(m.scores))]
    # Over is over: no more turns, the last World keeps drifting.
    tick = m.worlds[1].tick
    m, events = step_match(m, 0, cfg)
    assert m.over and m.active == 1 and m.worlds[1].tick == tick + 1 and events == ()


def test_a_whole_match_alternates_on_every_lost_ship() -> None:
    """Both ships sit still and the rocks ram them: 3 + 3 ships lost, turns 1 2 1 2 1 2."""
    cfg = params_for(_cfg(turn_banner_s=0.25))  # compiled once, passed every tick
    m = new_match(cfg, 5)
    turns, lost = [0], {0: 0, 1: 0}
    for _ in range(40_000):
        playing = m.active
        m, events = step_match(m, 0, cfg)
        for player, e in events:
            if isinstance(e, TurnStarted):
                turns.append(e.player)
            elif isinstance(e, ev.ShipDestroyed):
                assert player == playing  # a World event is tagged with whose World it is
                lost[player] += 1
        if m.over:
            break
    assert m.over
    assert lost == {0: 3, 1: 3}
    assert turns == [0, 1, 0, 1, 0, 1]
    assert all(w.game_over for w in m.worlds)


def test_same_seed_and_inputs_give_the_same_match() -> None:
    cfg = params_for(_cfg(turn_banner_s=0.1))
    masks = [(t * 7919) % 64 for t in range(3000)]

    def play(seed: int) -> list[str]:
        m = new_match(cfg, seed)
        hashes = []
        for t, mask in enumerate(masks):
            m, _ = step_match(m, mask, cfg)
            if t % 500 == 0:
                hashes.append(match_hash(m))
        return hashes + [match_hash(m)]

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_match_hash_sees_every_field_and_both_worlds() -> None:
    cfg = _cfg()
    m = new_match(cfg, 3)
    base = match_hash(m)
    for change in ({"active": 1}, {"banner_ticks": 1}, {"handover_ticks": 4}, {"tick": 9},
                   {"over": True}, {"worlds": (m.worlds[0], new_world(cfg, 99))}):
        assert match_hash(dataclasses.replace(m, **change)) != base, change
    hashes = tuple(state_hash(w) for w in m.worlds)
    assert match_hash(m, hashes) == base
    with pytest.raises(ValueError):
        match_hash(m, hashes[:1])


def test_the_match_hasher_of_one_pass_gives_match_hash_on_every_tick() -> None:
    """``MATCH.hasher`` hashes only the World the last step moved; on every tick of a match
    with turns and banners it gives ``match_hash``, and a state out of order (a seek back,
    the same state twice) has every World hashed again."""
    cfg = params_for(_cfg(turn_banner_s=0.05))
    hasher = MATCH.hasher()
    m = new_match(cfg, 5)
    states = [m]
    assert hasher(m) == match_hash(m)
    for t in range(6000):
        m, _ = step_match(m, (t * 7919) % 64 if t % 3 else 0, cfg)
        states.append(m)
        assert hasher(m) == match_hash(m), t
        if m.over:
            break
    assert len({s.active for s in states}) == 2, "the turn should pass"
    for back in (states[100], states[100], states[101], states[2], states[-1]):
        assert hasher(back) == match_hash(back)


def test_banner_setting_is_a_rule_of_two_player_games_only() -> None:
    from asteroids.config.rulesets import MATCH_TABLES, NON_RULE_TABLES, RULE_TABLES

    assert "match" in MATCH_TABLES
    assert "match" not in RULE_TABLES + NON_RULE_TABLES
    assert load_config(overrides=["match.turn_banner_s=3"]).match.turn_banner_s == 3.0
