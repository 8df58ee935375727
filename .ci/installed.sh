#!/usr/bin/env bash
# What a player gets: build the wheel, install it in a fresh venv, and from a folder outside
# the checkout run the game's commands on every bundled preset and verify the bundled demo
# replays (headless, no display needed).
# Usage: .ci/installed.sh   (from anywhere; uses python3 on PATH, needs the package registry
# or pip's cache for arcade, numpy and platformdirs)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m pip wheel -q --no-deps -w "$work/dist" "$repo" >/dev/null
python3 -m venv "$work/player"
"$work/player/bin/python" -m pip install -q --upgrade pip >/dev/null
"$work/player/bin/python" -m pip install -q "$work"/dist/*.whl

export ARCADE_HEADLESS=1 ARCADE_SOUND_BACKENDS=silent
mkdir "$work/elsewhere"
cd "$work/elsewhere"
game="$work/player/bin/asteroids"
"$game" --version
# bench needs a source checkout: the installed game neither lists it nor runs it.
if "$game" --help | grep -qw bench; then
    echo "installed: --help offers bench, which cannot run from an install" >&2; exit 1
fi
set +e; "$game" bench step >/dev/null 2>&1; rc=$?; set -e
test "$rc" -eq 2 || { echo "installed: bench exited $rc, not 2" >&2; exit 1; }
presets=$("$game" config presets | awk '{print $1}')
echo "installed: presets: $(echo $presets)"
# shellcheck disable=SC2086
"$game" config check $presets
for p in $presets; do
    "$game" config show --config "$p" > "$p.toml"
    "$game" config check "$p.toml" >/dev/null
    "$game" screenshot --config "$p" --ticks 120 --size 320x180 "$p.png" >/dev/null
    test -s "$p.png"
done
# The bundled demo replays play bit for bit on the installed game.
demos=$("$work/player/bin/python" -c "from importlib.resources import files
print(' '.join(str(p) for p in files('asteroids.replay').joinpath('demos').iterdir()
               if p.name.endswith('.replay')))")
test -n "$demos" || { echo "installed: no demo replays in the wheel" >&2; exit 1; }
# shellcheck disable=SC2086
"$game" verify --jobs 1 $demos
# Every replay a released version wrote still verifies on the installed game.
# shellcheck disable=SC2046
"$game" verify --jobs 2 $(find "$repo/tests/replays/archive" -name '*.replay') | tail -1
# The sound report works from the wheel (the spectrogram needs the [lab] extra: it says so).
"$game" sounds --out sounds >/dev/null
test -s sounds/worst-case-cabinet.wav
# A balance run works from the wheel's declared dependencies alone (tqdm included).
"$game" balance --config classic --against default --bot idle --games 2 --ticks 200 \
    --jobs 1 --json balance.json >/dev/null
test -s balance.json
echo "installed: ok (wheel $(basename "$work"/dist/*.whl), run from $PWD)"
