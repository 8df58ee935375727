#!/bin/bash
# Bot games recorded by asteroids 0.2.0 (commit 274ac48) for tests/replays/archive/0.2.0/:
# the games of 0.1.0's how/make_bots.sh (same presets, bots, seeds, ticks and --set rules),
# then games of the rules new in 0.2.0 (ship.grace_s, game.spawn_clearance_s).
# Run from anywhere in the checkout, with the checkout's .venv.
set -eu
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
out="$root/tests/replays/archive/0.2.0/bots"
mkdir -p "$out"
r() { name=$1; shift; "$root/.venv/bin/asteroids" record "$@" --out "$out/$name.replay"; }
for preset in default classic arena; do
  r "$preset-aimer"   --config $preset --bot aimer   --seed 101 --ticks 3000
  r "$preset-classic" --config $preset --bot classic --seed 102 --ticks 4000
  r "$preset-idle"    --config $preset --bot idle    --seed 103 --ticks 2500
  r "$preset-spinner" --config $preset --bot spinner --seed 104 --ticks 2000
done
r classic-hyper --config classic --bot classic-hyper --seed 105 --ticks 2000
r default-shield --bot classic-shield --seed 106 --ticks 2000 --set ship.shield.enabled=true --set ship.shield.restitution=0.5
r default-bounce --bot aimer --seed 107 --ticks 2000 --set borders.ship=bounce --set borders.asteroids=bounce --set borders.shots=bounce --set borders.saucers=bounce
r default-autofire --bot spinner --seed 108 --ticks 1500 --set shots.autofire=true --set shots.max_alive=8
r default-collide --bot aimer --seed 109 --ticks 1500 --set asteroids.collide=true --set asteroids.restitution=0.8 --set asteroids.shapes=classic
r default-saucers --bot classic --seed 110 --ticks 2000 --set saucers.first_interval_s=3 --set saucers.always_large_count=0 --set saucers.small_score=0
r default-extra-lives --bot aimer --seed 111 --ticks 2000 --set scoring.extra_life_every=500 --set game.max_lives=6
r arena-lives1 --config arena --bot classic --seed 112 --ticks 3000 --set game.lives=1
r default-two-players --bot classic --seed 113 --ticks 6000 --players 2 --set game.lives=2
r classic-two-players --config classic --bot aimer --seed 114 --ticks 4000 --players 2
r arena-two-players --config arena --bot classic --seed 115 --ticks 6000 --players 2 --set game.lives=1
# New in 0.2.0: the ship's grace after it appears (ship.grace_s) and new waves' rocks heading
# so none reaches a still ship sooner than game.spawn_clearance_s. Both are on (3 s) in the
# default and arena presets, so every default and arena game above plays them; these add
# games where grace decides a return (how/check_grace.py shows where), the two knobs on the
# classic rules, a longer clearance, and both at their `before` value (0.1.0's rules).
r default-grace-idle    --bot idle --seed 122 --ticks 3000        # grace saves a returned ship at tick 1303
r arena-grace-spinner   --config arena --bot spinner --seed 124 --ticks 3000   # ...at tick 1308
r classic-grace         --config classic --bot spinner --seed 116 --ticks 3000 --set ship.grace_s=3 --set game.spawn_clearance_s=3
r default-clearance     --bot aimer --seed 117 --ticks 3000 --set game.spawn_clearance_s=6 --set ship.grace_s=1.5
r default-no-grace-idle --bot idle --seed 122 --ticks 3000 --set ship.grace_s=0 --set game.spawn_clearance_s=0
r arena-grace-two-players --config arena --bot spinner --seed 118 --ticks 5000 --players 2 --set game.lives=2
