#!/bin/bash
# A real `asteroids play --live` session run by 0.2.0 (the script of .ci/live_session.sh, as
# 0.1.0's how/live_session.sh): the game in a virtual X display (Xvfb), keys sent with
# xdotool, the settings file edited while it runs. Keeps the replays it saved in live/
# (game.replay -> window-live.replay, game-2.replay -> window-live-next-game.replay).
set -eu
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
out="$root/tests/replays/archive/0.2.0/live"
work=$(mktemp -d)
trap 'kill $game $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
export ASTEROIDS_DATA_DIR="$work/data" DISPLAY=:97 PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
export ARCADE_SOUND_BACKENDS=silent
unset ARCADE_HEADLESS
Xvfb :97 -screen 0 1280x800x24 >/dev/null 2>&1 & xvfb=$!
sleep 2
printf '[ship]\nthrust_px_per_s2 = 300\n' > my.toml
"$root/.venv/bin/python" -m asteroids play --config my.toml --live --seed 7 --record game.replay 2> err.txt &
game=$!
sleep 8
win=$(xdotool search --name Asteroids | head -1)
xdotool key --window "$win" Return; sleep 3                    # play
printf '[ship]\nthrust_px_per_s2 = 420\n' > my.toml; sleep 3  # live
printf '[ship]\nthrust_px_per_s2 = -5\n' > my.toml; sleep 3   # broken: the panel
printf '[ship]\nthrust_px_per_s2 = 420\ngrace_s = 1.5\n[world]\nwidth_px = 1600\n' > my.toml; sleep 3
xdotool key --window "$win" r; sleep 3                         # the next game, now
rm my.toml; sleep 3                                            # vanished
printf '[ship]\nthrust_px_per_s2 = 420\ngrace_s = 1.5\n[world]\nwidth_px = 1600\n[game]\nspawn_clearance_s = 2.0\n' > my.toml; sleep 3
xdotool key --window "$win" Escape; sleep 1; xdotool key --window "$win" q; sleep 2
cat err.txt
"$root/.venv/bin/python" -m asteroids verify --jobs 1 game*.replay
cp game.replay "$out/window-live.replay"
cp game-2.replay "$out/window-live-next-game.replay"
