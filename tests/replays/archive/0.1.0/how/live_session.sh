#!/bin/bash
# A real `asteroids play --live` session, end to end, for the README's example: the game in
# a virtual X display (Xvfb), keys sent with xdotool, the settings file edited while it runs.
# Needs Xvfb and xdotool (Debian: apt-get install xvfb xdotool) and the game importable.
# Prints the game's stderr, then verifies the replays it saved. About 35 seconds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $game $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
export ASTEROIDS_DATA_DIR="$work/data" DISPLAY=:97 PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
unset ARCADE_HEADLESS
Xvfb :97 -screen 0 1280x800x24 >/dev/null 2>&1 & xvfb=$!
sleep 2
printf '[ship]\nthrust_px_per_s2 = 300\n' > my.toml
python -m asteroids play --config my.toml --live --seed 7 --record game.replay 2> err.txt &
game=$!
sleep 8
win=$(xdotool search --name Asteroids | head -1)
xdotool key --window "$win" Return; sleep 3                    # play
printf '[ship]\nthrust_px_per_s2 = 420\n' > my.toml; sleep 3  # live
printf '[ship]\nthrust_px_per_s2 = -5\n' > my.toml; sleep 3   # broken: the panel
printf '[ship]\nthrust_px_per_s2 = 420\n[world]\nwidth_px = 1600\n' > my.toml; sleep 3
xdotool key --window "$win" r; sleep 3                         # the next game, now
rm my.toml; sleep 3                                            # vanished
printf '[ship]\nthrust_px_per_s2 = 420\n[world]\nwidth_px = 1600\n' > my.toml; sleep 3
xdotool key --window "$win" Escape; sleep 1; xdotool key --window "$win" q; sleep 2
cat err.txt
python -m asteroids verify --jobs 1 game*.replay
