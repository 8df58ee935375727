#!/bin/bash
# Play the 0.2.0 game in a real window (Xvfb + xdotool) to make a player's data folder:
# 0.1.0's how/session.sh and session3.sh adapted to 0.2.0's screens. What changed there: a
# key held into a screen acts only once pressed again, the game-over screen shows at least
# 1.5 s and goes to the initials by itself after 2 s, fire never moves past a "?", the
# options list has PLAYFIELD BORDER and FPS COUNTER before the keys. So the keys stop as soon
# as a game is over (its replay appears in data/replays/; "over" below), and the initials
# are typed once the entry is open (an entry with "???" in scores.json).
# Usage: how/session.sh WORKDIR   (the data folder is WORKDIR/data; screenshots beside it)
set -u
root=$(cd "$(dirname "$0")/../../../../.." && pwd)
work=${1:-/tmp/arch020/work}
rm -rf "$work"; mkdir -p "$work"; cd "$work"
export ASTEROIDS_DATA_DIR="$work/data" DISPLAY=:96 ARCADE_SOUND_BACKENDS=silent
unset ARCADE_HEADLESS
Xvfb :96 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 & xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 2
k() { xdotool key --window "$win" "$@"; sleep 0.4; }
shot() { import -window root "$work/$1.png" 2>/dev/null; }
replays() { ls data/replays 2>/dev/null | wc -l; }
unnamed() { grep -o '"???"' data/scores.json 2>/dev/null | wc -l; }
window() { win=$(xdotool search --sync --name '^Asteroids$' | head -1); echo "window $win"; }
play_until_over() {  # spin, fire, thrust and now and then jump until the game's replay is saved
  local secs=$1 thrust=$2 before; before=$(replays)
  xdotool keydown --window "$win" Left
  for i in $(seq 1 $((secs*4))); do
    [ "$(replays)" -gt "$before" ] && break
    xdotool key --window "$win" space; sleep 0.12
    if (( i % 40 == 0 )); then xdotool key --window "$win" Shift_L; fi
    xdotool keydown --window "$win" "$thrust"; sleep 0.05; xdotool keyup --window "$win" "$thrust"
  done
  xdotool keyup --window "$win" Left
  echo "over after $i rounds: $(replays) replays"
}
wait_entry() {  # until an initials entry is open (its score is in the table as "???")
  for _ in $(seq 1 40); do [ "$(unnamed)" -gt 0 ] && return 0; sleep 0.25; done
  echo "no initials entry"; return 1
}
type_initials() {  # the entry opens 2 s after GAME OVER (at once for a match's second player)
  local after=$1; shift
  wait_entry && { sleep "$after"; for c in "$@"; do k "$c"; done; k Return; sleep 1; }
}

# Session 1: plain `asteroids`, options changed, the classic rules picked on the title, a
# classic game to game over, initials typed, mute.
"$root/.venv/bin/asteroids" --seed 11 2> err1.txt & game=$!
window; sleep 6
shot s1-title
k o; sleep 1
shot s1-options
k Down; k Left; k Left            # effects volume down
k Down; k Down; k Down; k Right   # palette: next
k Down; k Right; k Right          # monitor look up
k Down; k Right                   # hud scale
k Down; k Right                   # playfield border: next
k Down; k Down                    # (FPS counter left as it is) key thrust
k Return; k j                     # thrust's primary key: J
shot s1-options2
k Escape; sleep 1
k bracketleft; k bracketleft      # master volume down
k Right; sleep 1                  # rules: next (classic)
shot s1-rules
k Return; sleep 2
play_until_over 90 j
shot s1-over
type_initials 3 a b c
shot s1-table
k m                               # mute
k Escape; sleep 1; k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
echo "--- session 2"
# Session 2: custom rules (--set game.lives=1): a game, a two-player match, one unfinished.
"$root/.venv/bin/asteroids" play --set game.lives=1 --seed 5 2> err2.txt & game=$!
window; sleep 6
k m                               # unmute
k Return; sleep 2
play_until_over 60 j
type_initials 3 x y z
shot s2-table
k Escape; sleep 1                 # leave the table's selection
k 2; sleep 3                      # a two-player match
play_until_over 120 j
shot s2-match-over
type_initials 3 q r s
shot s2-match-initials2
type_initials 1 t u v
shot s2-match-table
k Escape; sleep 1
k Return; sleep 3                 # one more game, left unfinished
play_until_over 3 j
k Escape; sleep 1; shot s2-pause; k q; sleep 2
shot s2-end
k Escape; sleep 1; k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
echo "--- session 3"
# Session 3: the arena rules picked on the title, a game left unfinished (pause, Q).
"$root/.venv/bin/asteroids" --seed 21 2> err3.txt & game=$!
window; sleep 6
k Right; sleep 1
shot s3-rules
k Return; sleep 2
xdotool keydown --window "$win" Right
for i in $(seq 1 20); do xdotool key --window "$win" space; sleep 0.2; done
xdotool keyup --window "$win" Right
k Escape; sleep 1
shot s3-pause
k q; sleep 2
k Escape; sleep 3
kill $game 2>/dev/null; wait $game 2>/dev/null
cat err1.txt err2.txt err3.txt
find data -type f | sort
