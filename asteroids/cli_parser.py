"""The command line's grammar: every command, option and help text of ``asteroids``.

``build_parser`` makes the argparse parser that ``asteroids.cli.main`` runs; the option
types here (``seconds``, ``tick_count``) refuse a bad value in argparse's one line. Nothing
here runs a command.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path
from typing import NoReturn

from asteroids import __version__
from asteroids.config.player_tables import AUDIO_DRIVERS
from asteroids.messages import one_line

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "PlayHelp", "Parser", "add_audio_option",
           "add_config_options", "add_live_option", "add_work_options", "benchmarks_here",
           "build_parser", "seconds", "tick_count", "version_text"]

EXIT_BAD_INPUT = 2
"""Exit code for anything the user can fix: bad config, missing file, unknown benchmark.
(``asteroids.replay.batch`` has the same codes for ``verify``.)"""

COMMANDS = ("play", "config", "bench", "watch", "verify", "record", "screenshot", "scores",
            "balance", "persona")
"""Sub-commands; a command line with none (only options, or nothing) means ``play``."""


def add_config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", "-c", metavar="FILE", action="append", default=[],
        help="a TOML settings file or a bundled preset name (default, classic, arena; "
        "see 'asteroids config presets'), or - for standard input; may repeat, later ones win",
    )
    parser.add_argument(
        "--set", "-s", metavar="KEY=VALUE", dest="overrides", action="append", default=[],
        help="override one setting, e.g. ship.thrust_px_per_s2=400; may repeat; "
        "applied after all files",
    )


def add_audio_option(parser: argparse.ArgumentParser) -> None:
    """``--audio DRIVER``: which audio driver pyglet opens (chosen before arcade loads);
    None when not given, so the ``audio.driver`` setting chooses."""
    parser.add_argument("--audio", choices=AUDIO_DRIVERS, default=None,
                        help="the audio driver: auto (miniaudio when the [audio] extra is "
                        "installed, else openal, else pyglet's; or ARCADE_SOUND_BACKENDS when "
                        "set), openal (our OpenAL driver), pulse (our callback driver on "
                        "PulseAudio: the [audio] extra), miniaudio (our callback driver on any "
                        "output), pyglet-openal or pyglet-pulse (pyglet's own: a longer lag), "
                        "or silent (default: the audio.driver setting, auto unless set)")


def add_live_option(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--live", action="store_true", help=text)


def seconds(text: str) -> float:
    """``--time-limit``'s value: seconds above 0 (argparse's error names the option)."""
    from asteroids.messages import quote

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0; got "
                                         f"{quote(text)}")
    return value


def tick_count(text: str) -> int:
    """``--max-ticks``'s value: a whole number of ticks a replay can hold."""
    from asteroids.messages import quote
    from asteroids.replay.format import MAX_TICKS

    if not re.fullmatch(r"\s*[0-9]{1,9}\s*", text) or int(text) > MAX_TICKS:
        raise argparse.ArgumentTypeError(f"expected a whole number of ticks from 0 to "
                                         f"{MAX_TICKS}; got {quote(text)}")
    return int(text)


def add_work_options(parser: argparse.ArgumentParser, work: str) -> None:
    """``--time-limit`` and ``--max-ticks`` of ``verify`` and ``watch`` (the bound on a
    replay's work: docs/replay-format.md)."""
    from asteroids.replay.format import DEFAULT_MAX_TICKS

    parser.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                        help=f"stop {work} S seconds after the command started (exit code 2, "
                        "saying where it stopped); default: no limit")
    parser.add_argument("--max-ticks", type=tick_count, default=DEFAULT_MAX_TICKS, metavar="N",
                        help=f"refuse a game longer than N ticks (default {DEFAULT_MAX_TICKS}, "
                        "4 h 37 min at 60 Hz: it bounds the work; raise it for a marathon)")


def version_text() -> str:
    """``asteroids 0.2.0 (rules version 1, replay format 3)``: the game's release, the newest
    rules version it plays (older ones too) and the replay format it writes."""
    from asteroids.config.schema import RULES_VERSION
    from asteroids.replay.format import FORMAT_VERSION

    return f"asteroids {__version__} (rules version {RULES_VERSION}, replay format " \
           f"{FORMAT_VERSION})"


class Parser(argparse.ArgumentParser):
    """argparse, with its error line (which quotes the argument it refused, of any length)
    cut to one line of at most ``MAX_LINE`` characters; its sub-command parsers too."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, one_line(f"{self.prog}: error: {message}") + "\n")


class PlayHelp(argparse.Action):
    """``play --help``: the options, then the in-game keys from the game's own key tables
    (``asteroids.app.keys_help``, loaded only now: it imports arcade)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        try:
            from asteroids.app.keys_help import play_keys_help

            parser.epilog = play_keys_help()
        except Exception as exc:  # no arcade here: the options still show
            parser.epilog = f"(the in-game keys cannot be listed: {type(exc).__name__}: {exc})"
        parser.print_help()
        parser.exit()


def build_parser(bench: bool | None = None) -> argparse.ArgumentParser:
    """The ``asteroids`` parser; ``bench``: offer the ``bench`` command (default: where
    ``benchmarks_here``)."""
    parser = Parser(
        prog="asteroids",
        description="An Asteroids-style vector game with a deterministic core. "
        "With no command, plays.",
        epilog="Run 'asteroids COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play the game (the default command)",
                          description="Check the settings, then open the game window.",
                          formatter_class=argparse.RawDescriptionHelpFormatter,
                          add_help=False)
    play.add_argument("-h", "--help", action=PlayHelp, nargs=0,
                      help="show this help message, with the in-game keys, and exit")
    add_config_options(play)
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="seed the game's random generator (for a repeatable game)")
    play.add_argument("--record", metavar="FILE", default=None,
                      help="save the game's replay to FILE (later games of the session "
                      "beside it as FILE-2, FILE-3, ...) instead of the replay folder")
    add_audio_option(play)
    add_live_option(play, "apply edits of the --config files while the game runs: "
                     "handling, speeds, timers, scoring... from the next tick, the world's "
                     "size, tick rate, obstacles and rock shapes at the next game (R starts "
                     "it now)")

    watch = sub.add_parser(
        "watch", help="watch a recorded replay in the game window",
        description="Play a replay file in the game window. Keys: Space/P pause, . or Right "
        "(paused) single step, Left/Right or PageDown/PageUp jump 10 s, Home start, End end, "
        "1-4 or +/- speed 1/2/4/8x, Esc quit. The game runs on the replay's own settings; "
        "--config/--set only change the display, sound and keys.",
    )
    watch.add_argument("replay", metavar="FILE",
                       help="the replay file (- reads it from standard input)")
    watch.add_argument("--speed", type=int, choices=(1, 2, 4, 8), default=1,
                       help="starting speed (default 1)")
    add_config_options(watch)
    add_audio_option(watch)
    add_live_option(watch, "apply edits of the --config files' display, sound and keys "
                     "while the replay plays")
    add_work_options(watch, "watching (the window closes)")

    config = sub.add_parser("config", help="show or check settings",
                            description="Show the resolved settings or check TOML files.")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    show = config_sub.add_parser(
        "show", help="print the resolved settings as TOML",
        description="Print the settings (defaults, then --config files, then --set) as TOML "
        "that loads back to the same settings. With no options this is config/default.toml.",
    )
    add_config_options(show)
    show.add_argument("--no-comments", action="store_true",
                      help="leave out the per-setting comments")
    check = config_sub.add_parser(
        "check", help="validate settings files",
        description="Check each file on its own (over the defaults); print every problem. "
        "Exit code 0 when all are valid, 2 otherwise.",
    )
    check.add_argument("files", nargs="+", metavar="FILE",
                       help="TOML settings files or bundled preset names (- reads standard "
                       "input)")
    config_sub.add_parser(
        "presets", help="list the bundled presets",
        description="List the presets that ship with the game; give a name to --config "
        "anywhere a file is accepted (a file of the same name wins).",
    )

    # Only a source checkout has the benchmarks: an installed game does not offer them.
    if benchmarks_here() if bench is None else bench:
        bench = sub.add_parser(
            "bench", help="run a benchmark from benchmarks/ (source checkout only)",
            description="Run benchmarks/NAME.py's main(argv) from a source checkout.",
        )
        bench.add_argument("name", metavar="NAME", help="benchmark name, e.g. collision")
        bench.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the benchmark")

    shot = sub.add_parser(
        "screenshot", help="render a frame of the real game to a PNG (no window shown)",
        description="Let the built-in bot play (or show the title screen) for some ticks, "
        "then save the frame as a PNG. Runs headless; needs OpenGL (Mesa is fine).",
    )
    add_config_options(shot)
    shot.add_argument("path", metavar="PNG", help="where to write the picture")
    shot.add_argument("--seed", type=int, default=0, metavar="N", help="the game's seed")
    shot.add_argument("--ticks", type=int, default=600, metavar="N",
                      help="simulation ticks before the picture (default 600)")
    shot.add_argument("--mode", choices=("play", "title"), default="play",
                      help="a bot game with HUD, or the title screen")
    shot.add_argument("--size", metavar="WxH", default=None,
                      help="image size in px (default: the configured window size)")
    shot.add_argument("--palette", metavar="NAME", default=None,
                      help="line palette, as --set display.palette=NAME (vector, white, green, "
                      "amber, colour, high_contrast, colour_blind)")
    shot.add_argument("--monitor", metavar="STRENGTH", default=None,
                      help="vector-monitor look 0..1, as --set display.monitor.strength=STRENGTH")

    verify = sub.add_parser(
        "verify", help="re-simulate replays without a window and check their state hashes",
        description="Re-simulate each replay from its seed, settings and inputs and check "
        "every recorded state hash. One line per file, then a total. Exit code 0 when all "
        "match, 1 when a replay plays differently (its first divergent tick and the fields "
        "that differ are named), 2 when a file is not a usable replay (missing, not a "
        "regular file, damaged, edited, truncated, another format version, too large, longer "
        "than --max-ticks, or its check failed) or --time-limit stopped its check; 2 wins "
        "over 1. Each file is checked on its own: one unusable file is its own line and "
        "never stops the others. A check that will take more than a few seconds says so "
        "first, on stderr.",
    )
    verify.add_argument("files", nargs="+", metavar="FILE",
                        help="replay files (- reads one from standard input)")
    verify.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores)")
    verify.add_argument("--json", action="store_true",
                        help="print the results as JSON on stdout instead of text")
    verify.add_argument("--engine", choices=("pool", "ray"), default="pool",
                        help="pool: this machine's cores (default); ray: one Ray task per "
                        "file, for big collections (the [cluster] extra)")
    verify.add_argument("--address", metavar="ADDR", default=None,
                        help="with --engine ray: the Ray cluster (default: a local Ray)")
    add_work_options(verify, "every check still running (each such file is 'stopped')")

    record = sub.add_parser(
        "record", help="record a headless bot game to a replay file",
        description="Let a bot play a game without a window and save it as a replay. "
        "Recording stops at game over or after --ticks ticks.",
    )
    add_config_options(record)
    record.add_argument("--bot", required=True, metavar="NAME",
                        help="which bot plays (an unknown name lists the known ones)")
    record.add_argument("--seed", type=int, required=True, metavar="S", help="the game's seed")
    record.add_argument("--ticks", type=int, required=True, metavar="N",
                        help="the most ticks to record")
    record.add_argument("--out", required=True, metavar="FILE", help="the replay file to write")
    record.add_argument("--players", type=int, choices=(1, 2), default=1,
                        help="2: a two-player match, players taking turns (the bot flies "
                        "both); recording stops when both are out")

    scores = sub.add_parser(
        "scores", help="show, export, import or clear the high-score tables",
        description="Print the high-score tables (top 10 per ruleset) kept in the data folder "
        "(scores.json; ASTEROIDS_DATA_DIR overrides the folder). --export/--import move them "
        "between machines (import merges: repeated entries are kept once and each table keeps "
        "its top 10); --clear empties them after asking (--yes to skip the question).",
    )
    scores.add_argument("--ruleset", metavar="NAME", default=None,
                        help="only this table: a key or label as printed (classic, "
                        "custom-1a2b3c4d, 'CLASSIC (ASSISTED)')")
    scores.add_argument("--json", action="store_true", help="print the tables as JSON")
    action = scores.add_mutually_exclusive_group()
    action.add_argument("--export", metavar="FILE", default=None,
                        help="write the tables (or the --ruleset one) to FILE ('-': stdout)")
    action.add_argument("--import", dest="import_file", metavar="FILE", default=None,
                        help="merge the tables of FILE (an --export; '-': stdin) into yours")
    action.add_argument("--clear", action="store_true",
                        help="delete the tables (or the --ruleset one); asks first")
    scores.add_argument("--yes", "-y", action="store_true",
                        help="with --clear: do not ask (for scripts)")

    from asteroids.lab.cli import add_parser as add_balance_parser

    add_balance_parser(sub)
    from asteroids.pilots.cli import add_parser as add_persona_parser

    add_persona_parser(sub)
    from asteroids.app.sounds_cli import add_parser as add_sounds_parser

    add_sounds_parser(sub)
    return parser


def benchmarks_here() -> bool:
    """Whether a ``benchmarks`` package is at hand: beside the ``asteroids`` package (a
    source checkout) or in the current folder. An installed game has none."""
    roots = (Path(__file__).resolve().parent.parent, Path.cwd())
    return any((root / "benchmarks" / "__init__.py").is_file() for root in roots)
