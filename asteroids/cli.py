"""Command line: ``asteroids [play|config|bench|watch|verify|record|screenshot] ...``.

Used by the ``asteroids`` console script and by ``python -m asteroids``. Bad input (a broken
config, a missing file, a malformed ``--set``) becomes a readable message and exit code 2,
never a traceback; anything else is a bug and is allowed to surface.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from asteroids import __version__
from asteroids.config import ConfigError, ConfigIssue, load_config, render_default_toml, render_toml

__all__ = ["EXIT_BAD_INPUT", "main"]

EXIT_BAD_INPUT = 2
"""Exit code for anything the user can fix: bad config, missing file, unknown benchmark."""

COMMANDS = ("play", "config", "bench", "watch", "verify", "record", "screenshot")
"""Sub-commands; a command line with none (only options, or nothing) means ``play``."""

_NOT_YET = {
    "verify": "re-run a replay and check its state hashes",
    "record": "play and record a replay",
}

_BENCH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _add_config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", "-c", metavar="FILE", action="append", default=[],
        help="a TOML settings file; may repeat, later files win over earlier ones",
    )
    parser.add_argument(
        "--set", "-s", metavar="KEY=VALUE", dest="overrides", action="append", default=[],
        help="override one setting, e.g. ship.thrust_px_per_s2=400; may repeat; "
        "applied after all files",
    )


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="asteroids",
        description="An Asteroids-style vector game with a deterministic core. "
        "With no command, plays.",
        epilog="Run 'asteroids COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"asteroids {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play the game (the default command)",
                          description="Check the settings, then open the game window.")
    _add_config_options(play)
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="seed the game's random generator (for a repeatable game)")
    play.add_argument("--record", metavar="FILE", default=None,
                      help="save the game's replay to FILE (later games of the session "
                      "beside it as FILE-2, FILE-3, ...) instead of the replay folder")

    watch = sub.add_parser(
        "watch", help="watch a recorded replay in the game window",
        description="Play a replay file in the game window. Keys: Space/P pause, . or Right "
        "(paused) single step, Left/Right or PageDown/PageUp jump 10 s, Home start, End end, "
        "1-4 or +/- speed 1/2/4/8x, Esc quit. The game runs on the replay's own settings; "
        "--config/--set only change the display, sound and keys.",
    )
    watch.add_argument("replay", metavar="FILE", help="the replay file")
    watch.add_argument("--speed", type=int, choices=(1, 2, 4, 8), default=1,
                       help="starting speed (default 1)")
    _add_config_options(watch)

    config = sub.add_parser("config", help="show or check settings",
                            description="Show the resolved settings or check TOML files.")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    show = config_sub.add_parser(
        "show", help="print the resolved settings as TOML",
        description="Print the settings (defaults, then --config files, then --set) as TOML "
        "that loads back to the same settings. With no options this is config/default.toml.",
    )
    _add_config_options(show)
    show.add_argument("--no-comments", action="store_true",
                      help="leave out the per-setting comments")
    check = config_sub.add_parser(
        "check", help="validate settings files",
        description="Check each file on its own (over the defaults); print every problem. "
        "Exit code 0 when all are valid, 2 otherwise.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="TOML settings files")

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
    _add_config_options(shot)
    shot.add_argument("path", metavar="PNG", help="where to write the picture")
    shot.add_argument("--seed", type=int, default=0, metavar="N", help="the game's seed")
    shot.add_argument("--ticks", type=int, default=600, metavar="N",
                      help="simulation ticks before the picture (default 600)")
    shot.add_argument("--mode", choices=("play", "title"), default="play",
                      help="a bot game with HUD, or the title screen")
    shot.add_argument("--size", metavar="WxH", default=None,
                      help="image size in px (default: the configured window size)")

    for name, what in _NOT_YET.items():
        stub = sub.add_parser(name, help=f"{what} (not available yet)",
                              description=f"{what.capitalize()}. Not available yet.")
        stub.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _error(message: str) -> int:
    print(f"asteroids: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _cmd_play(args: argparse.Namespace) -> int:
    """Validate the settings, then hand them to ``asteroids.app.main.run_game(config, seed=)``.

    Until the app provides ``run_game`` this says so and succeeds; an ImportError from
    anything else inside the app (a real bug or a missing dependency) is not swallowed.
    """
    config = load_config(*args.config, overrides=args.overrides)
    try:
        from asteroids.app.main import run_game
    except ImportError as exc:
        if exc.name != "asteroids.app.main":
            raise
        print("asteroids: the settings are valid, but the arcade window is not built yet.")
        return 0
    if args.record is not None:
        folder = Path(args.record).resolve().parent
        if not folder.is_dir():
            return _error(f"play: --record {args.record}: the folder {folder} does not exist")
    result = run_game(config, seed=args.seed, record_to=args.record)
    return int(result or 0)


def _cmd_watch(args: argparse.Namespace) -> int:
    """Load the replay (a bad file is exit 2 with the replay module's message), then open
    the window (no display is ``run_game``'s one-line error)."""
    from asteroids.replay import ReplayError, load_replay

    config = load_config(*args.config, overrides=args.overrides)
    try:
        replay = load_replay(args.replay)
    except ReplayError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    from asteroids.app.main import watch_replay

    return int(watch_replay(replay, config, speed=args.speed) or 0)


def _cmd_config_show(args: argparse.Namespace) -> int:
    config = load_config(*args.config, overrides=args.overrides)
    if not args.config and not args.overrides and not args.no_comments:
        sys.stdout.write(render_default_toml())
        return 0
    header = ["asteroids: resolved settings, from the built-in defaults"]
    header += [f"  then {path}" for path in args.config]
    header += [f"  then --set {text}" for text in args.overrides]
    sys.stdout.write(render_toml(config, with_comments=not args.no_comments, header=header))
    return 0


def _cmd_config_check(args: argparse.Namespace) -> int:
    problems: list[ConfigIssue] = []
    for index, path in enumerate(args.files):
        try:
            load_config(path)
        except ConfigError as exc:
            # Each file is checked on its own; list them in the order given.
            problems.extend(dataclasses.replace(e, order=index) for e in exc.errors)
        else:
            print(f"{path}: ok")
    if problems:
        print(ConfigError(problems), file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    name = args.name
    if not _BENCH_NAME.fullmatch(name):
        return _error(f"bench: {name!r} is not a benchmark name (expected e.g. 'collision')")
    repo_root = str(Path(__file__).resolve().parent.parent)
    for entry in (repo_root, os.getcwd()):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    module_name = f"benchmarks.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name not in ("benchmarks", module_name):
            raise
        return _error(f"bench: no benchmark {name!r}; benchmarks live in the source checkout; "
                      "run from there")
    entry_point = getattr(module, "main", None)
    if not callable(entry_point):
        return _error(f"bench: benchmarks/{name}.py has no main(argv) function")
    return int(entry_point(list(args.args)) or 0)


def _cmd_screenshot(args: argparse.Namespace) -> int:
    config = load_config(*args.config, overrides=args.overrides)
    width = height = None
    if args.size:
        match = re.fullmatch(r"(\d+)x(\d+)", args.size)
        if not match or not (64 <= int(match[1]) <= 16384 and 64 <= int(match[2]) <= 16384):
            return _error(f"screenshot: --size must be WIDTHxHEIGHT in pixels (64..16384), "
                          f"e.g. 1280x720; got {args.size!r}")
        width, height = int(match[1]), int(match[2])
    if args.ticks < 0:
        return _error(f"screenshot: --ticks must be 0 or more; got {args.ticks}")
    from asteroids.app.screenshot import save_screenshot

    path = save_screenshot(config, args.path, seed=args.seed, ticks=args.ticks, mode=args.mode,
                           width=width, height=height)
    print(f"asteroids: wrote {path}")
    return 0


def _cmd_not_yet(args: argparse.Namespace) -> int:
    return _error(f"{args.command}: not available yet")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The process exit code: 0 on success, 2 for bad input.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    # No command, or options only (``asteroids --config x.toml``), means play.
    if not args_list or (args_list[0].startswith("-")
                         and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "play")
    parser = _build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help, --version, or a usage error
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        if args.command == "play":
            return _cmd_play(args)
        if args.command == "config":
            if args.config_command == "show":
                return _cmd_config_show(args)
            return _cmd_config_check(args)
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "screenshot":
            return _cmd_screenshot(args)
        if args.command == "watch":
            return _cmd_watch(args)
        return _cmd_not_yet(args)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        return _error(str(exc))
