#!/bin/bash
# Bot games recorded by asteroids 0.1.0 (commit bcade8a) for tests/replays/archive/0.1.0/.
set -eu
out=/work/main/tests/replays/archive/0.1.0/bots
mkdir -p "$out"
r() { name=$1; shift; /work/main/.venv/bin/asteroids record "$@" --out "$out/$name.replay"; }
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
