"""Broken configs: every problem reported at once, one line each, at the right place.

Table-driven: each case writes files ``a.toml``, ``b.toml``, ... into a temporary folder,
loads them (plus any ``--set`` overrides) and compares the complete list of error lines,
the dotted keys, and the summary. Exact lines pin file:line:col, code, key, expected and got,
and that no bad key is reported twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asteroids.config import ERROR_CODES, Config, ConfigError, load_config

THRUST = "ship.thrust_px_per_s2 must be a number in [0, 20000] (px/s^2)"
KEY_NAME = 'a key name from arcade.key, e.g. "SPACE", "A", "KEY_1", "LSHIFT"'
KEYS_LIST = 'a non-empty list of key names from arcade.key, e.g. ["SPACE"]'
POINTS = "a list of at least 3 points [x, y] of finite numbers (px)"
POINT = "a point [x, y] of two finite numbers (px)"


@dataclass(frozen=True)
class Case:
    """Files (text, bytes, or None for a file that does not exist), overrides, and the
    expected error lines (exact ``str()`` of each issue, in order) with their dotted keys."""

    id: str
    files: tuple[str | bytes | None, ...]
    lines: tuple[str, ...]
    keys: tuple[str, ...]
    overrides: tuple[str, ...] = ()


CASES = [
    # --- TOML syntax -------------------------------------------------------------------
    Case("syntax-missing-value", ("[ship]\nthrust_px_per_s2 =\n",),
         ("a.toml:2:19: error[syntax]: invalid TOML: Invalid value",), ("",)),
    Case("syntax-unterminated-string", ('[borders]\nship = "wrap\n',),
         ("a.toml:2:13: error[syntax]: invalid TOML: Illegal character '\\n' "
          "(a string not closed on its line?)",), ("",)),
    Case("syntax-unterminated-multiline-string", ('[ship]\nlength_px = 30\nnote = """abc\n',),
         ("a.toml:4:1: error[syntax]: invalid TOML: Unterminated string",), ("",)),
    Case("syntax-duplicate-key", ("[ship]\nthrust_px_per_s2 = 1\nthrust_px_per_s2 = 2\n",),
         ("a.toml:3:1: error[syntax]: invalid TOML: ship.thrust_px_per_s2 is set twice",),
         ("ship.thrust_px_per_s2",)),
    Case("syntax-duplicate-table", ("[ship]\nlength_px = 30\n\n[ship]\n",),
         ("a.toml:4:1: error[syntax]: invalid TOML: table [ship] is declared twice",),
         ("ship",)),
    # --- wrong types -------------------------------------------------------------------
    Case("type-string-for-number", ('[ship]\nthrust_px_per_s2 = "fast"\n',),
         (f'a.toml:2:1: error[type]: {THRUST}; got "fast" (string)',),
         ("ship.thrust_px_per_s2",)),
    Case("type-number-for-string", ("[borders]\nship = 1\n",),
         ('a.toml:2:1: error[type]: borders.ship must be one of "wrap", "bounce"; got 1 (int)',),
         ("borders.ship",)),
    Case("type-list-for-scalar", ("[world]\nwidth_px = [1280, 720]\n",),
         ("a.toml:2:1: error[type]: world.width_px must be a number in [200, 20000] (px); "
          "got [1280, 720] (array)",), ("world.width_px",)),
    Case("type-table-for-scalar", ("[ship]\nturn_deg_per_s = { fast = true }\n",),
         ("a.toml:2:1: error[type]: ship.turn_deg_per_s must be a number in [0, 3600] (deg/s); "
          "got {fast = true} (table)",), ("ship.turn_deg_per_s",)),
    Case("type-scalar-for-table", ("ship = 5\n",),
         ("a.toml:1:1: error[type]: ship must be a table [ship]; got 5 (int)",), ("ship",)),
    Case("type-scalar-for-nested-table", ("[ship]\nhyperspace = false\n",),
         ("a.toml:2:1: error[type]: ship.hyperspace must be a table [ship.hyperspace]; "
          "got false (bool)",), ("ship.hyperspace",)),
    Case("type-datetime-for-number", ("[ship]\nthrust_px_per_s2 = 1979-05-27\n",),
         (f"a.toml:2:1: error[type]: {THRUST}; got 1979-05-27 (datetime)",),
         ("ship.thrust_px_per_s2",)),
    Case("bool-for-int", ("[game]\nlives = true\n",),
         ("a.toml:2:1: error[type]: game.lives must be an integer in [1, 99]; got true (bool)",),
         ("game.lives",)),
    Case("bool-for-float", ("[ship]\ndrag_per_s = false\n",),
         ("a.toml:2:1: error[type]: ship.drag_per_s must be a number in [0, 10] (1/s); "
          "got false (bool)",), ("ship.drag_per_s",)),
    Case("float-for-int", ("[shots]\nmax_alive = 4.0\n",),
         ("a.toml:2:1: error[type]: shots.max_alive must be an integer in [1, 1000]; "
          "got 4.0 (float)",), ("shots.max_alive",)),
    Case("int-for-bool", ("[audio]\nmuted = 0\n",),
         ("a.toml:2:1: error[type]: audio.muted must be true or false; got 0 (int)",),
         ("audio.muted",)),
    # --- non-finite and out of range ------------------------------------------------------
    Case("nan", ("[world]\ntick_hz = nan\n",),
         ("a.toml:2:1: error[non-finite]: world.tick_hz must be finite, a number in [10, 480] "
          "(Hz); got nan (float)",), ("world.tick_hz",)),
    Case("inf", ("[ship]\nmax_speed_px_per_s = inf\n",),
         ("a.toml:2:1: error[non-finite]: ship.max_speed_px_per_s must be finite, a number in "
          "[1, 20000] (px/s); got inf (float)",), ("ship.max_speed_px_per_s",)),
    Case("minus-inf", ("[ship]\nthrust_px_per_s2 = -inf\n",),
         ("a.toml:2:1: error[non-finite]: ship.thrust_px_per_s2 must be finite, a number in "
          "[0, 20000] (px/s^2); got -inf (float)",), ("ship.thrust_px_per_s2",)),
    Case("range-low", ("# comment\n\n[ship]\nthrust_px_per_s2 = -5\n",),
         (f"a.toml:4:1: error[range]: {THRUST}; got -5 (int)",), ("ship.thrust_px_per_s2",)),
    Case("range-high", ("[game]\nlives = 100\n",),
         ("a.toml:2:1: error[range]: game.lives must be an integer in [1, 99]; got 100 (int)",),
         ("game.lives",)),
    Case("lo-open-boundary-shot-lifetime-0", ("[shots]\nlifetime_s = 0\n",),
         ("a.toml:2:1: error[range]: shots.lifetime_s must be a number in (0, 30] (s); "
          "got 0 (int)",), ("shots.lifetime_s",)),
    # --- unknown keys and tables -------------------------------------------------------------
    Case("unknown-key-near-miss", ("[asteroids]\nmax_sped = 300\n",),
         ("a.toml:2:1: error[unknown-key]: asteroids.max_sped is not a known key; "
          "did you mean 'speed_max_px_per_s'?",), ("asteroids.max_sped",)),
    Case("unknown-key-typo", ("[ship]\nthurst = 300\n",),
         ("a.toml:2:1: error[unknown-key]: ship.thurst is not a known key; "
          "did you mean 'thrust_px_per_s2'?",), ("ship.thurst",)),
    Case("unknown-key-case-and-dashes", ("[asteroids]\nMax-Alive = 20\n",),
         ("a.toml:2:1: error[unknown-key]: asteroids.Max-Alive is not a known key; "
          "did you mean 'max_alive'?",), ("asteroids.Max-Alive",)),
    Case("unknown-table-near-miss", ("[shipp]\nthrust_px_per_s2 = 300\n",),
         ("a.toml:1:1: error[unknown-key]: shipp is not a known table; did you mean 'ship'?",),
         ("shipp",)),
    Case("unknown-nested-table-near-miss", ("[ship.hyperspac]\nenabled = false\n",),
         ("a.toml:1:1: error[unknown-key]: ship.hyperspac is not a known table; "
          "did you mean 'hyperspace'?",), ("ship.hyperspac",)),
    Case("unknown-key-no-near-match", ("[ship]\nwibble = 1\n",),
         ("a.toml:2:1: error[unknown-key]: ship.wibble is not a known key",), ("ship.wibble",)),
    Case("unknown-key-in-wrong-table", ("[ship]\ntick_hz = 60\n",),
         ("a.toml:2:1: error[unknown-key]: ship.tick_hz is not a known key; "
          "did you mean 'world.tick_hz'?",), ("ship.tick_hz",)),
    Case("unknown-top-level-key", ("volume = 0.5\n",),
         ("a.toml:1:1: error[unknown-key]: volume is not a known key; "
          "did you mean 'audio.volume'?",), ("volume",)),
    # --- choices and lists -----------------------------------------------------------------
    Case("bad-choice", ('[borders]\nasteroids = "wrapp"\n',),
         ('a.toml:2:1: error[choice]: borders.asteroids must be one of "wrap", "bounce"; '
          "got \"wrapp\" (string); did you mean 'wrap'?",), ("borders.asteroids",)),
    Case("bad-choice-no-near-match", ('[ship]\nspeed_limit = "square"\n',),
         ('a.toml:2:1: error[choice]: ship.speed_limit must be one of "radial", "axis"; '
          'got "square" (string)',), ("ship.speed_limit",)),
    Case("wrong-list-length", ("[asteroids]\nradius_px = [44, 22]\n",),
         ("a.toml:2:1: error[length]: asteroids.radius_px must be a list of 3 numbers, each in "
          "[1, 2000] (px); got [44, 22] (array of 2)",), ("asteroids.radius_px",)),
    Case("scalar-for-list", ("[asteroids]\nradius_px = 44\n",),
         ("a.toml:2:1: error[type]: asteroids.radius_px must be a list of 3 numbers, each in "
          "[1, 2000] (px); got 44 (int)",), ("asteroids.radius_px",)),
    Case("bad-list-element", ('[asteroids]\nradius_px = [44, "big", 11]\n',),
         ("a.toml:2:18: error[type]: asteroids.radius_px[1] must be a number in [1, 2000] (px); "
          'got "big" (string)',), ("asteroids.radius_px[1]",)),
    Case("list-element-out-of-range", ("[scoring]\nasteroid = [20, -50, 100]\n",),
         ("a.toml:2:17: error[range]: scoring.asteroid[1] must be an integer in [0, 1000000]; "
          "got -50 (int)",), ("scoring.asteroid[1]",)),
    Case("list-element-float-for-int", ("[scoring]\nsaucer = [200, 990.0]\n",),
         ("a.toml:2:16: error[type]: scoring.saucer[1] must be an integer in [0, 1000000]; "
          "got 990.0 (float)",), ("scoring.saucer[1]",)),
    # --- key bindings ------------------------------------------------------------------------
    Case("bad-key-name", ('[keys]\nfire = ["SPCE"]\n',),
         (f'a.toml:2:9: error[choice]: keys.fire[0] must be {KEY_NAME}; got "SPCE" (string); '
          "did you mean 'SPACE'?",), ("keys.fire[0]",)),
    Case("lowercase-key-name", ('[keys]\nthrust = ["UP", "w"]\n',),
         (f'a.toml:2:17: error[choice]: keys.thrust[1] must be {KEY_NAME}; got "w" (string); '
          "did you mean 'W'?",), ("keys.thrust[1]",)),
    Case("digit-key-name", ('[keys]\nhyperspace = ["1"]\n',),
         (f'a.toml:2:15: error[choice]: keys.hyperspace[0] must be {KEY_NAME}; got "1" (string); '
          "did you mean 'KEY_1'?",), ("keys.hyperspace[0]",)),
    Case("key-not-a-string", ("[keys]\nfire = [32]\n",),
         (f"a.toml:2:9: error[type]: keys.fire[0] must be {KEY_NAME}; got 32 (int)",),
         ("keys.fire[0]",)),
    Case("keys-empty-list", ("[keys]\npause = []\n",),
         (f"a.toml:2:1: error[length]: keys.pause must be {KEYS_LIST}; got [] (array)",),
         ("keys.pause",)),
    Case("keys-not-a-list", ('[keys]\nfire = "SPACE"\n',),
         (f'a.toml:2:1: error[type]: keys.fire must be {KEYS_LIST}; got "SPACE" (string)',),
         ("keys.fire",)),
    Case("key-bound-to-two-actions", ('[keys]\nfire = ["SPACE", "UP"]\n',),
         ('a.toml:2:18: error[cross-field]: keys.fire[1]: key "UP" is bound to more than one '
          "action: keys.thrust and keys.fire",), ("keys.fire[1]",)),
    Case("key-alias-bound-to-two-actions", ('[keys]\nfire = ["ENTER"]\npause = ["RETURN"]\n',),
         ('a.toml:2:9: error[cross-field]: keys.fire[0]: key "ENTER" is bound to more than one '
          "action: keys.fire and keys.pause",), ("keys.fire[0]",)),
    # --- cross-field contradictions ----------------------------------------------------------
    Case("world-smaller-than-largest-asteroid",
         ("[world]\nwidth_px = 400\nheight_px = 300\n\n[asteroids]\nradius_px = [160, 80, 40]\n",),
         ("a.toml:6:14: error[cross-field]: a large asteroid (asteroids.radius_px[0] = 160, so "
          "320 px across) must be smaller than the world's smaller side (world 400 x 300 px)",),
         ("asteroids.radius_px[0]",)),
    Case("vertices-min-above-max", ("[asteroids]\nvertices_min = 12\nvertices_max = 10\n",),
         ("a.toml:2:1: error[cross-field]: asteroids.vertices_min (12) must not be greater than "
          "asteroids.vertices_max (10)",), ("asteroids.vertices_min",)),
    Case("speed-min-above-max", ("[asteroids]\nspeed_max_px_per_s = 30\n",),
         ("a.toml:2:1: error[cross-field]: asteroids.speed_min_px_per_s (40) must not be greater "
          "than asteroids.speed_max_px_per_s (30)",), ("asteroids.speed_max_px_per_s",)),
    Case("radius-not-strictly-decreasing", ("[asteroids]\nradius_px = [44, 44, 11]\n",),
         ("a.toml:2:1: error[cross-field]: asteroids.radius_px must be strictly decreasing "
          "(large > medium > small); got [44, 44, 11]",), ("asteroids.radius_px",)),
    Case("saucer-min-interval-above-first",
         ("[saucers]\nfirst_interval_s = 2\nmin_interval_s = 3\n",),
         ("a.toml:3:1: error[cross-field]: saucers.min_interval_s (3) must not be greater than "
          "saucers.first_interval_s (2)",), ("saucers.min_interval_s",)),
    Case("heartbeat-min-interval-above-start", ("[game.heartbeat]\nstart_interval_s = 0.1\n",),
         ("a.toml:2:1: error[cross-field]: game.heartbeat.min_interval_s (0.13) must not be "
          "greater than game.heartbeat.start_interval_s (0.1)",),
         ("game.heartbeat.start_interval_s",)),
    Case("safe-radius-beyond-half-world", ("[ship]\nsafe_radius_px = 400\n",),
         ("a.toml:2:1: error[cross-field]: ship.safe_radius_px (400) must be at most half the "
          "world's smaller side (360, world 1280 x 720 px), or the ship could never return",),
         ("ship.safe_radius_px",)),
    Case("obstacle-with-two-points", ("[[obstacles]]\npoints = [[10, 10], [50, 10]]\n",),
         (f"a.toml:2:1: error[length]: obstacles[0].points must be {POINTS}; "
          "got [[10, 10], [50, 10]] (2 points)",), ("obstacles[0].points",)),
    Case("obstacle-without-points",
         ("[[obstacles]]\n\n[[obstacles]]\npoints = [[1, 1], [2, 1], [1, 2]]\n",),
         (f"a.toml:1:1: error[length]: obstacles[0].points must be {POINTS}; got [] (0 points)",),
         ("obstacles[0].points",)),
    Case("obstacle-point-outside-world",
         ("[[obstacles]]\npoints = [[1, 1], [2, 1], [1, 2]]\n\n"
          "[[obstacles]]\npoints = [[10, 10], [50, 10], [30, 800]]\n",),
         ("a.toml:5:31: error[cross-field]: obstacles[1].points[2] = [30, 800] lies outside the "
          "world ([0, 1280] x [0, 720])",), ("obstacles[1].points[2]",)),
    Case("obstacle-bad-points", ('[[obstacles]]\npoints = [[10, 10], [50], [30, "x"]]\n',),
         (f"a.toml:2:21: error[length]: obstacles[0].points[1] must be {POINT}; got [50] (array)",
          f'a.toml:2:27: error[type]: obstacles[0].points[2] must be {POINT}; '
          'got [30, "x"] (array)'),
         ("obstacles[0].points[1]", "obstacles[0].points[2]")),
    Case("obstacle-nan-point", ("[[obstacles]]\npoints = [[10, 10], [50, nan], [30, 40]]\n",),
         (f"a.toml:2:21: error[non-finite]: obstacles[0].points[1] must be {POINT}; "
          "got [50, nan] (array)",), ("obstacles[0].points[1]",)),
    Case("obstacle-unknown-key", ("[[obstacles]]\npionts = [[1, 1], [2, 1], [1, 2]]\n",),
         (f"a.toml:1:1: error[length]: obstacles[0].points must be {POINTS}; got [] (0 points)",
          "a.toml:2:1: error[unknown-key]: obstacles[0].pionts is not a known key; "
          "did you mean 'points'?"),
         ("obstacles[0].points", "obstacles[0].pionts")),
    Case("obstacles-not-tables", ("obstacles = [5]\n",),
         ("a.toml:1:14: error[type]: obstacles[0] must be a table with points = [[x, y], ...]; "
          "got 5 (int)",), ("obstacles[0]",)),
    Case("integer-beyond-float-range", ("[ship]\nthrust_px_per_s2 = 1" + "0" * 400 + "\n",),
         (f"a.toml:2:1: error[range]: {THRUST}; got 1{'0' * 56}... (int)",),
         ("ship.thrust_px_per_s2",)),
    Case("empty-key-name", ('[keys]\nfire = [""]\n',),
         (f'a.toml:2:9: error[choice]: keys.fire[0] must be {KEY_NAME}; got "" (string)',),
         ("keys.fire[0]",)),
    Case("cross-field-skipped-when-a-key-is-bad",
         ("[asteroids]\nvertices_min = 100\nvertices_max = 10\n",),
         ("a.toml:2:1: error[range]: asteroids.vertices_min must be an integer in [3, 64]; "
          "got 100 (int)",), ("asteroids.vertices_min",)),
    # --- where the key is written ------------------------------------------------------------
    Case("dotted-key-at-top-level", ("\nship.thrust_px_per_s2 = -5\n",),
         (f"a.toml:2:1: error[range]: {THRUST}; got -5 (int)",), ("ship.thrust_px_per_s2",)),
    Case("inline-table-column", ("[ship]\nhyperspace = { enabled = true, duration_s = 0 }\n",),
         ("a.toml:2:32: error[range]: ship.hyperspace.duration_s must be a number in (0, 10] (s); "
          "got 0 (int)",), ("ship.hyperspace.duration_s",)),
    Case("nested-table-header", ("[ship.hyperspace]\nenabled = true\n  duration_s = -1\n",),
         ("a.toml:3:3: error[range]: ship.hyperspace.duration_s must be a number in (0, 10] (s); "
          "got -1 (int)",), ("ship.hyperspace.duration_s",)),
    # --- several at once, files, overrides -------------------------------------------------
    Case("several-errors-sorted-by-line",
         ('[world]\nwidth_px = "wide"\ntick_hz = 62.5\n\n[ship]\nthurst = 300\nlives = 3\n\n'
          '[borders]\nship = "wrapp"\n',),
         ('a.toml:2:1: error[type]: world.width_px must be a number in [200, 20000] (px); '
          'got "wide" (string)',
          "a.toml:6:1: error[unknown-key]: ship.thurst is not a known key; "
          "did you mean 'thrust_px_per_s2'?",
          "a.toml:7:1: error[unknown-key]: ship.lives is not a known key; "
          "did you mean 'game.lives'?",
          'a.toml:10:1: error[choice]: borders.ship must be one of "wrap", "bounce"; '
          "got \"wrapp\" (string); did you mean 'wrap'?"),
         ("world.width_px", "ship.thurst", "ship.lives", "borders.ship")),
    Case("oversize-file", ("#" * (64 * 1024 + 1),),
         ("a.toml: error[too-large]: the file is larger than 64 KiB (65536 bytes); a settings "
          "file is only a few KiB",), ("",)),
    Case("not-utf8", (b"[ship]\nthrust_px_per_s2 = 1 # caf\xe9\n",),
         ("a.toml:2: error[syntax]: invalid TOML: the file is not UTF-8 text",), ("",)),
    Case("missing-file", (None,),
         ("a.toml: error[unreadable]: cannot read the file: No such file or directory "
          "(a bundled preset is given by name: default, classic, arena)",), ("",)),
    Case("errors-in-two-layered-files",
         ("[ship]\nthrust_px_per_s2 = -1\n", "[game]\n\nlives = 0\n"),
         (f"a.toml:2:1: error[range]: {THRUST}; got -1 (int)",
          "b.toml:3:1: error[range]: game.lives must be an integer in [1, 99]; got 0 (int)"),
         ("ship.thrust_px_per_s2", "game.lives")),
    Case("syntax-error-in-one-file-does-not-hide-the-other",
         ("[ship\n", "[game]\nlives = 0\n"),
         ("a.toml:1:6: error[syntax]: invalid TOML: Expected ']' at the end of a table "
          "declaration",
          "b.toml:2:1: error[range]: game.lives must be an integer in [1, 99]; got 0 (int)"),
         ("", "game.lives")),
    Case("cross-field-across-files-reported-at-last-setter",
         ("[asteroids]\nvertices_max = 10\n", "# b\n[asteroids]\nvertices_min = 12\n"),
         ("b.toml:3:1: error[cross-field]: asteroids.vertices_min (12) must not be greater than "
          "asteroids.vertices_max (10)",), ("asteroids.vertices_min",)),
    Case("cross-field-later-file-breaks-it",
         ("[asteroids]\nvertices_min = 12\nvertices_max = 20\n",
          "[asteroids]\nvertices_max = 10\n"),
         ("b.toml:2:1: error[cross-field]: asteroids.vertices_min (12) must not be greater than "
          "asteroids.vertices_max (10)",), ("asteroids.vertices_max",)),
    Case("overrides",
         (),
         (f"--set #1 (ship.thrust_px_per_s2=-5): error[range]: {THRUST}; got -5 (int)",
          '--set #2 (borders.ship=wrapp): error[choice]: borders.ship must be one of "wrap", '
          "\"bounce\"; got \"wrapp\" (string); did you mean 'wrap'?",
          "--set #3 (nokey): error[syntax]: expected KEY=VALUE with a dotted key, e.g. "
          "ship.thrust_px_per_s2=400",
          "--set #4 (ship.thurst=3): error[unknown-key]: ship.thurst is not a known key; "
          "did you mean 'thrust_px_per_s2'?",
          "--set #5 (world.tick_hz=[1,): error[syntax]: cannot read the value '[1,' as TOML: "
          "Invalid value"),
         ("ship.thrust_px_per_s2", "borders.ship", "", "ship.thurst", ""),
         overrides=("ship.thrust_px_per_s2=-5", "borders.ship=wrapp", "nokey", "ship.thurst=3",
                    "world.tick_hz=[1,")),
    Case("file-errors-before-override-errors",
         ("\n\n\n[game]\nlives = 0\n",),
         ("a.toml:5:1: error[range]: game.lives must be an integer in [1, 99]; got 0 (int)",
          '--set #1 (keys.fire=["UP"]): error[cross-field]: keys.fire[0]: key "UP" is bound to '
          "more than one action: keys.thrust and keys.fire"),
         ("game.lives", "keys.fire[0]"),
         overrides=('keys.fire=["UP"]',)),
]


def _write(tmp_path, files):
    names = []
    for i, content in enumerate(files):
        name = f"{'abcdefgh'[i]}.toml"
        if isinstance(content, bytes):
            (tmp_path / name).write_bytes(content)
        elif content is not None:
            (tmp_path / name).write_text(content, encoding="utf-8")
        names.append(name)
    return names


def _load_errors(case: Case, tmp_path, monkeypatch) -> ConfigError:
    monkeypatch.chdir(tmp_path)
    names = _write(tmp_path, case.files)
    with pytest.raises(ConfigError) as info:
        load_config(*names, overrides=list(case.overrides))
    return info.value


def test_at_least_thirty_cases():
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_config(case: Case, tmp_path, monkeypatch):
    error = _load_errors(case, tmp_path, monkeypatch)
    assert [str(e) for e in error.errors] == list(case.lines)
    assert [e.key for e in error.errors] == list(case.keys)
    n = len(case.lines)
    summary = f"{n} error{'' if n == 1 else 's'}. The game will not start with a broken config."
    assert str(error) == "\n".join([*case.lines, summary])
    for issue in error.errors:
        assert issue.code in ERROR_CODES
        assert f"error[{issue.code}]" in str(issue)
        assert issue.source in ("--set", *(f"{'abcdefgh'[i]}.toml" for i in range(8)))
        # The structured fields agree with the printed line.
        if issue.key and issue.code != "syntax":
            assert issue.key in issue.message
        if issue.code not in ("syntax", "unreadable", "too-large", "unknown-key"):
            assert issue.expected and issue.got
            if issue.code != "cross-field":
                assert issue.expected in issue.message
                assert f"got {issue.got}" in issue.message
    # One error per bad key: no key is reported twice.
    keys = [e.key for e in error.errors if e.key]
    assert len(keys) == len(set(keys))


def test_reported_line_is_the_keys_line_despite_decoys(tmp_path):
    """Strings, comments and arrays that look like keys or headers must not fool the locator."""
    text = (
        "# [ship]\n"                                      # 1 comment that looks like a header
        "# thrust_px_per_s2 = 5\n"                        # 2
        "[world]\n"                                       # 3
        'width_px = 1280 # thrust_px_per_s2 = "x"\n'      # 4
        "\n"                                              # 5
        "[[obstacles]]\n"                                 # 6
        "points = [\n"                                    # 7
        "  [100, 100], # [ship]\n"                        # 8
        "  [200, 100],\n"                                 # 9
        "  [150, 200],\n"                                 # 10
        "]\n"                                             # 11
        "[keys]\n"                                        # 12
        "fire = [\n"                                      # 13
        '  "SPACE",\n'                                    # 14
        "]\n"                                             # 15
        "\n"                                              # 16
        "[ship]\n"                                        # 17
        "length_px = 30\n"                                # 18
        "\n"                                              # 19
        "    thrust_px_per_s2 = -5\n"                     # 20
    )
    path = tmp_path / "decoys.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    [issue] = info.value.errors
    assert (issue.line, issue.col, issue.key) == (20, 5, "ship.thrust_px_per_s2")
    assert text.splitlines()[issue.line - 1].lstrip().startswith("thrust_px_per_s2 =")


def test_multiline_string_hides_fake_header(tmp_path):
    text = '[display]\nshow_fps = true\n\n[ship]\nnote = """\n[asteroids]\nradius_px = 5\n"""\n'
    path = tmp_path / "ml.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    [issue] = info.value.errors
    assert (issue.line, issue.col, issue.key, issue.code) == (5, 1, "ship.note", "unknown-key")


def test_error_carries_structured_fields(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = -5\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    [issue] = info.value.errors
    assert issue.source == str(path)
    assert (issue.line, issue.col) == (2, 1)
    assert issue.key == "ship.thrust_px_per_s2"
    assert issue.code == "range"
    assert issue.expected == "a number in [0, 20000] (px/s^2)"
    assert issue.got == "-5 (int)"
    assert isinstance(info.value, Exception)


TOMLISH = st.lists(
    st.sampled_from(list('[]{}=,."\'#\n -_0123456789aeinfstruxAWP') + [
        "ship", "thrust_px_per_s2", "obstacles", "points", "keys", "fire", "world",
        "width_px", "asteroids", "radius_px", "nan", "inf", "true", '"SPACE"', "[[", "]]",
        "\n[ship]\n", "\n[[obstacles]]\n", " = ", "[1, 2]",
    ]),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(text=TOMLISH, override=TOMLISH)
def test_garbage_gives_config_or_config_error_never_a_crash(tmp_path, text, override):
    """Whatever the input, the loader returns a Config or raises ConfigError with lines."""
    path = tmp_path / "fuzz.toml"
    path.write_text(text, encoding="utf-8")
    try:
        cfg = load_config(path, overrides=[override.replace("\n", " ")])
    except ConfigError as exc:
        assert exc.errors
        for issue in exc.errors:
            assert "\n" not in str(issue)
            assert issue.code in ERROR_CODES
    else:
        assert isinstance(cfg, Config)


def test_locator_puts_every_default_key_on_its_own_line():
    from pathlib import Path

    from asteroids.config.locate import key_positions

    text = (Path(__file__).resolve().parent.parent / "config" / "default.toml").read_text()
    lines = text.splitlines()
    positions = key_positions(text)
    leaves = [p for p in positions if len(p) >= 2 and isinstance(p[-1], str)
              and not lines[positions[p][0] - 1].startswith("[")]
    assert len(leaves) > 80
    for path in leaves:
        line, col = positions[path]
        assert lines[line - 1][col - 1:].startswith(f"{path[-1]} = "), path
