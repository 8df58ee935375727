#!/bin/bash
# Session 3: the arena rules picked on the title, a game left unfinished (pause, Q).
set -u
root=/work/main
work=${1:-/tmp/arch/work}
cd "$work"
export ASTEROIDS_DATA_DIR="$work/data" DISPLAY=:96
unset ARCADE_HEADLESS
Xvfb :96 -screen 0 1280x800x24 >/dev/null 2>&1 & xvfb=$!
sleep 2
k() { xdotool key --window "$win" "$@"; sleep 0.4; }
$root/.venv/bin/asteroids --seed 21 2> err3.txt & game=$!
sleep 10
win=$(xdotool search --name Asteroids | head -1)
k Right; sleep 1
import -window root "$work/s3-rules.png" 2>/dev/null
k Return; sleep 2
xdotool keydown --window "$win" Right
for i in $(seq 1 20); do xdotool key --window "$win" space; sleep 0.2; done
xdotool keyup --window "$win" Right
k Escape; sleep 1
import -window root "$work/s3-pause.png" 2>/dev/null
k q; sleep 2
k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
kill $xvfb
cat err3.txt
find data -type f | sort
