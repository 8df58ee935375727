#!/usr/bin/env python3
"""Run from the repo root: .venv/bin/python tests/replays/archive/0.2.0/how/check_grace.py FILE...
For each replay: does the ship's grace (ship.grace_s) matter after a respawn?
Plays the replay's own inputs again with ship.grace_s=0 (everything else as recorded) and
names the first tick where the two games part, whether the grace game's ship was then in a
grace that began with a return (not the game's start), and whether the no-grace game lost a
ship there."""
import sys
from dataclasses import replace

from asteroids.core.play import play_for
from asteroids.replay import load_replay


def check(path):
    r = load_replay(path)
    play = play_for(r.players)
    cfg = r.config
    cfg0 = replace(cfg, ship=replace(cfg.ship, grace_s=0.0))
    a = play.start(cfg, r.seed)
    b = play.start(cfg0, r.seed)
    returns = 0
    prev_grace = play.world(a).ship_grace
    for t, m in enumerate(r.masks):
        wa, wb = play.world(a), play.world(b)
        a2, _ = play.step(a, m, cfg)
        b2, _ = play.step(b, m, cfg0)
        w2a, w2b = play.world(a2), play.world(b2)
        if w2a.ship_grace > prev_grace and t > 0:
            returns += 1
        prev_grace = w2a.ship_grace
        if (w2a.ship_state, w2a.lives, w2a.ship_x, w2a.ship_y, w2a.score) != (
                w2b.ship_state, w2b.lives, w2b.ship_x, w2b.ship_y, w2b.score) and \
                play.tick(a2) == play.tick(b2):
            return dict(file=path, parted_at=t + 1, returns_before=returns,
                        grace_left=int(w2a.ship_grace), state_with=(w2a.ship_state, w2a.lives),
                        state_without=(w2b.ship_state, w2b.lives))
        a, b = a2, b2
    return dict(file=path, parted_at=None, returns=returns)


for p in sys.argv[1:]:
    print(check(p))
