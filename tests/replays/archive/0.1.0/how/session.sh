#!/bin/bash
# Play the 0.1.0 game in a real window (Xvfb + xdotool) to make a player's data folder.
set -u
root=/work/main
work=${1:-/tmp/arch/work}
rm -rf "$work"; mkdir -p "$work"; cd "$work"
export ASTEROIDS_DATA_DIR="$work/data" DISPLAY=:96
unset ARCADE_HEADLESS
Xvfb :96 -screen 0 1280x800x24 >/dev/null 2>&1 & xvfb=$!
sleep 2
k() { xdotool key --window "$win" "$@"; sleep 0.4; }
play_until_over() {  # spin, fire and jump until the window title / time says over
  local secs=$1
  xdotool keydown --window "$win" Left
  for i in $(seq 1 $((secs*4))); do
    xdotool key --window "$win" space; sleep 0.12
    if (( i % 40 == 0 )); then xdotool key --window "$win" Shift_L; fi
    xdotool keydown --window "$win" Up; sleep 0.05; xdotool keyup --window "$win" Up
  done
  xdotool keyup --window "$win" Left
}
# Session 1: plain `asteroids`, options changed, a classic game to game over, initials typed.
$root/.venv/bin/asteroids --seed 11 2> err1.txt & game=$!
sleep 10
win=$(xdotool search --name Asteroids | head -1)
echo "window $win"
import -window root "$work/s1-title.png" 2>/dev/null
k o; sleep 1
import -window root "$work/s1-options.png" 2>/dev/null
k Down; k Left; k Left            # effects volume down
k Down; k Down; k Down; k Right  # palette: next
k Down; k Right; k Right          # monitor look up
k Down; k Right                   # hud scale
k Down; k Return; k j             # thrust: bind J? (the first key item)
import -window root "$work/s1-options2.png" 2>/dev/null
k Escape; sleep 1
k bracketleft; k bracketleft      # master volume down
k Right; sleep 1                  # rules: next (classic?)
import -window root "$work/s1-rules.png" 2>/dev/null
k Return; sleep 2
play_until_over 60
import -window root "$work/s1-over.png" 2>/dev/null
sleep 5
import -window root "$work/s1-initials.png" 2>/dev/null
k a; k b; k c; k Return; sleep 2
import -window root "$work/s1-table.png" 2>/dev/null
k m                                # mute
k Escape; sleep 1; k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
echo "--- session 2"
# Session 2: custom rules (--set), a default-rules game and one left unfinished.
$root/.venv/bin/asteroids play --set game.lives=1 --seed 5 2> err2.txt & game=$!
sleep 10
win=$(xdotool search --name Asteroids | head -1)
k m                                # unmute
k Return; sleep 2
play_until_over 40
sleep 5
import -window root "$work/s2-initials.png" 2>/dev/null
k x; k y; k z; k Return; sleep 2
import -window root "$work/s2-table.png" 2>/dev/null
k Escape; sleep 1                 # leave the table's selection
k 2; sleep 3                      # a two-player game
play_until_over 50
sleep 5
import -window root "$work/s2-match-over.png" 2>/dev/null
k q; k r; k s; k Return; sleep 3
k t; k u; k v; k Return; sleep 3
import -window root "$work/s2-match-table.png" 2>/dev/null
k Escape; sleep 1
k Return; sleep 3                 # one more game, left unfinished
play_until_over 3
k Escape; sleep 1; k q; sleep 2
import -window root "$work/s2-end.png" 2>/dev/null
k Escape; sleep 1; k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
kill $xvfb
cat err1.txt err2.txt
find data -type f | sort
