#!/usr/bin/env python3
"""Run from the repo root: .venv/bin/python tests/replays/archive/0.2.0/how/check_grace.py FILE...

Where the rules new in 0.2.0 decide a recorded game. For each replay, its own inputs are
played again twice, everything else as recorded:
- with ship.grace_s=0: the first tick where that game parts from the recorded one, how many
  returns of the ship (a grace starting after tick 0) came before it, the grace left then,
  and (ship state, lives) with and without grace: FLYING with, DEAD without is a ship the
  grace saved;
- with game.spawn_clearance_s=0: the first tick (and wave) where the rocks' headings differ.
"""
import sys
from dataclasses import replace

from asteroids.core.play import play_for
from asteroids.replay import load_replay


def grace(r):
    play = play_for(r.players)
    cfg = r.config
    cfg0 = replace(cfg, ship=replace(cfg.ship, grace_s=0.0))
    a = play.start(cfg, r.seed)
    b = play.start(cfg0, r.seed)
    returns = 0
    prev_grace = play.world(a).ship_grace
    for t, m in enumerate(r.masks):
        a, _ = play.step(a, m, cfg)
        b, _ = play.step(b, m, cfg0)
        wa, wb = play.world(a), play.world(b)
        if wa.ship_grace > prev_grace and t > 0:
            returns += 1
        prev_grace = wa.ship_grace
        if (wa.ship_state, wa.lives, wa.ship_x, wa.ship_y, wa.score) != (
                wb.ship_state, wb.lives, wb.ship_x, wb.ship_y, wb.score):
            return dict(parted_at=t + 1, returns_before=returns, grace_left=int(wa.ship_grace),
                        with_grace=(wa.ship_state.name, wa.lives),
                        without=(wb.ship_state.name, wb.lives))
    return dict(parted_at=None, returns=returns)


def clearance(r):
    play = play_for(r.players)
    cfg = r.config
    cfg0 = replace(cfg, game=replace(cfg.game, spawn_clearance_s=0.0))
    a = play.start(cfg, r.seed)
    b = play.start(cfg0, r.seed)
    for t, m in enumerate(r.masks):
        wa, wb = play.world(a), play.world(b)
        if wa.ast_vel.shape != wb.ast_vel.shape or (wa.ast_vel != wb.ast_vel).any():
            return dict(headings_part_at=t, wave=int(wa.wave))
        a, _ = play.step(a, m, cfg)
        b, _ = play.step(b, m, cfg0)
    return dict(headings_part_at=None)


for p in sys.argv[1:]:
    r = load_replay(p)
    print(p, "grace:", grace(r), "clearance:", clearance(r))
