"""Command line: ``asteroids [play|config|bench|watch|verify|record|screenshot|scores] ...``.

Used by the ``asteroids`` console script and by ``python -m asteroids``. Bad input (a broken
config, a missing file, a malformed ``--set``) becomes a readable message and exit code 2,
never a traceback; anything else is a bug and is allowed to surface.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from asteroids import __version__
from asteroids.config import ConfigError, ConfigIssue, load_config, render_default_toml, render_toml
from asteroids.config.bundled import preset_description, preset_names
from asteroids.config.overrides import parse_override
from asteroids.config.rulesets import PLAYER_SECTIONS, RulesetChoices, ruleset_choices
from asteroids.messages import one_line
from asteroids.userfile import STDIN, display_name

if TYPE_CHECKING:
    from asteroids.app.live import LiveSpec

__all__ = ["EXIT_BAD_INPUT", "EXIT_CLOSED_PIPE", "EXIT_MISMATCH", "main"]

EXIT_BAD_INPUT = 2
"""Exit code for anything the user can fix: bad config, missing file, unknown benchmark.
(``asteroids.replay.batch`` has the same codes for ``verify``.)"""

COMMANDS = ("play", "config", "bench", "watch", "verify", "record", "screenshot", "scores",
            "balance", "persona")
"""Sub-commands; a command line with none (only options, or nothing) means ``play``."""

EXIT_MISMATCH = 1
"""``verify``: a well-formed replay re-simulated differently from how it was recorded."""

EXIT_CLOSED_PIPE = 141
"""The reader of the output closed the pipe (128 + SIGPIPE, as a shell reports it)."""

_BENCH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _add_config_options(parser: argparse.ArgumentParser) -> None:
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


def _add_live_option(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--live", action="store_true", help=text)


def _live_spec(args: argparse.Namespace, *, rules: bool) -> LiveSpec | None:
    """``LiveSpec`` of ``--live`` (None without it); ValueError when nothing is watched."""
    if not args.live:
        return None
    if not args.config:
        raise ValueError("--live watches the --config files; give at least one, e.g. "
                         "--config my.toml --live")
    if STDIN in args.config:
        raise ValueError("--live watches the --config files for edits; standard input "
                         f"('--config {STDIN}') cannot be watched: save the settings to a file")
    from asteroids.app.live import LiveSpec

    return LiveSpec(tuple(args.config), tuple(args.overrides), rules=rules)


def _seconds(text: str) -> float:
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


def _tick_count(text: str) -> int:
    """``--max-ticks``'s value: a whole number of ticks a replay can hold."""
    from asteroids.messages import quote
    from asteroids.replay.format import MAX_TICKS

    if not re.fullmatch(r"\s*[0-9]{1,9}\s*", text) or int(text) > MAX_TICKS:
        raise argparse.ArgumentTypeError(f"expected a whole number of ticks from 0 to "
                                         f"{MAX_TICKS}; got {quote(text)}")
    return int(text)


def _add_work_options(parser: argparse.ArgumentParser, work: str) -> None:
    """``--time-limit`` and ``--max-ticks`` of ``verify`` and ``watch`` (the bound on a
    replay's work: docs/replay-format.md)."""
    from asteroids.replay.format import DEFAULT_MAX_TICKS

    parser.add_argument("--time-limit", type=_seconds, default=None, metavar="S",
                        help=f"stop {work} S seconds after the command started (exit code 2, "
                        "saying where it stopped); default: no limit")
    parser.add_argument("--max-ticks", type=_tick_count, default=DEFAULT_MAX_TICKS, metavar="N",
                        help=f"refuse a game longer than N ticks (default {DEFAULT_MAX_TICKS}, "
                        "4 h 37 min at 60 Hz: it bounds the work; raise it for a marathon)")


def _version_text() -> str:
    """``asteroids 0.2.0 (rules version 1, replay format 3)``: the game's release, the newest
    rules version it plays (older ones too) and the replay format it writes."""
    from asteroids.config.schema import RULES_VERSION
    from asteroids.replay.format import FORMAT_VERSION

    return f"asteroids {__version__} (rules version {RULES_VERSION}, replay format " \
           f"{FORMAT_VERSION})"


class _Parser(argparse.ArgumentParser):
    """argparse, with its error line (which quotes the argument it refused, of any length)
    cut to one line of at most ``MAX_LINE`` characters; its sub-command parsers too."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, one_line(f"{self.prog}: error: {message}") + "\n")


class _PlayHelp(argparse.Action):
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


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="asteroids",
        description="An Asteroids-style vector game with a deterministic core. "
        "With no command, plays.",
        epilog="Run 'asteroids COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=_version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play the game (the default command)",
                          description="Check the settings, then open the game window.",
                          formatter_class=argparse.RawDescriptionHelpFormatter,
                          add_help=False)
    play.add_argument("-h", "--help", action=_PlayHelp, nargs=0,
                      help="show this help message, with the in-game keys, and exit")
    _add_config_options(play)
    play.add_argument("--seed", type=int, default=None, metavar="N",
                      help="seed the game's random generator (for a repeatable game)")
    play.add_argument("--record", metavar="FILE", default=None,
                      help="save the game's replay to FILE (later games of the session "
                      "beside it as FILE-2, FILE-3, ...) instead of the replay folder")
    _add_live_option(play, "apply edits of the --config files while the game runs: "
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
    _add_config_options(watch)
    _add_live_option(watch, "apply edits of the --config files' display, sound and keys "
                     "while the replay plays")
    _add_work_options(watch, "watching (the window closes)")

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
    check.add_argument("files", nargs="+", metavar="FILE",
                       help="TOML settings files or bundled preset names (- reads standard "
                       "input)")
    config_sub.add_parser(
        "presets", help="list the bundled presets",
        description="List the presets that ship with the game; give a name to --config "
        "anywhere a file is accepted (a file of the same name wins).",
    )

    if _benchmarks_here():  # only a source checkout has them: an install does not offer it
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
    _add_work_options(verify, "every check still running (each such file is 'stopped')")

    record = sub.add_parser(
        "record", help="record a headless bot game to a replay file",
        description="Let a bot play a game without a window and save it as a replay. "
        "Recording stops at game over or after --ticks ticks.",
    )
    _add_config_options(record)
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


def _benchmarks_here() -> bool:
    """Whether a ``benchmarks`` package is at hand: beside the ``asteroids`` package (a
    source checkout) or in the current folder. An installed game has none."""
    roots = (Path(__file__).resolve().parent.parent, Path.cwd())
    return any((root / "benchmarks" / "__init__.py").is_file() for root in roots)


def _error(message: str) -> int:
    """Print ``message`` as one line on stderr (at most ``MAX_LINE`` characters); exit 2."""
    print(one_line(f"asteroids: {message}"), file=sys.stderr)
    return EXIT_BAD_INPUT


def _choices(args: argparse.Namespace) -> RulesetChoices:
    """The title screen's rulesets: the player's settings (raises ConfigError when they are
    broken), then every bundled preset with the ``--set`` overrides on top; a preset the
    overrides break is left out with one line on stderr."""
    choices = ruleset_choices(args.config, args.overrides)
    for line in choices.skipped:
        print(one_line(f"asteroids: note: {line}"), file=sys.stderr)
    return choices


def _pinned(args: argparse.Namespace) -> set[str]:
    """What this command line chose explicitly, so the remembered settings do not replace
    it: each ``--set`` key (``display.fullscreen``), and ``ruleset`` when ``--config`` or a
    ``--set`` outside ``[display]``, ``[audio]`` and ``[keys]`` chose the rules."""
    keys = set()
    for text in args.overrides:
        try:
            keys.add(parse_override(text)[0])
        except ValueError:
            continue
    if args.config or any(k.split(".")[0] not in PLAYER_SECTIONS for k in keys):
        keys.add("ruleset")
    return keys


def _cmd_play(args: argparse.Namespace) -> int:
    """Validate the settings, then hand them to ``asteroids.app.main.run_game(config, seed=,
    rulesets=, ruleset_index=)``: the title screen offers the player's settings and every
    bundled preset (``asteroids.config.rulesets``), the player's selected.

    Until the app provides ``run_game`` this says so and succeeds; an ImportError from
    anything else inside the app (a real bug or a missing dependency) is not swallowed.
    """
    choices = _choices(args)
    config = choices.rulesets[choices.selected].config
    try:
        live = _live_spec(args, rules=True)
    except ValueError as exc:
        return _error(f"play: {exc}")
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
    extra = {"live": live} if live is not None else {}
    result = run_game(config, seed=args.seed, record_to=args.record,
                      rulesets=choices.rulesets, ruleset_index=choices.selected,
                      pinned=_pinned(args), **extra)
    return int(result or 0)


def _cmd_watch(args: argparse.Namespace) -> int:
    """Load the replay (a bad file or one longer than ``--max-ticks`` is exit 2 with the
    replay module's message), state the work of a long one, then open the window (no
    display is ``run_game``'s one-line error); past ``--time-limit`` the window closes and
    the exit code is 2."""
    from asteroids.messages import one_line
    from asteroids.replay import ReplayError
    from asteroids.replay.batch import check_work_options
    from asteroids.replay.files import read_replay_bytes
    from asteroids.replay.format import decode_replay
    from asteroids.replay.work import Deadline, watch_notice

    deadline = Deadline.after(args.time_limit)
    if args.replay == STDIN and STDIN in args.config:
        return _error("watch: standard input (-) can give the replay or the settings, not both")
    problem = check_work_options(args, "watch")
    if problem is not None:
        return _error(problem)
    config = load_config(*args.config, overrides=args.overrides)
    try:
        live = _live_spec(args, rules=False)
    except ValueError as exc:
        return _error(f"watch: {exc}")
    name = display_name(args.replay)
    try:
        replay = decode_replay(read_replay_bytes(args.replay), name, max_ticks=args.max_ticks)
    except ReplayError as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return EXIT_BAD_INPUT
    notice = watch_notice(replay, deadline)
    if notice:
        print(one_line(f"asteroids: {name}: {notice}"), file=sys.stderr, flush=True)
    code = 0
    if deadline.passed():
        deadline.stopped_at = 0
    else:
        from asteroids.app.main import watch_replay

        extra: dict[str, object] = {"live": live} if live is not None else {}
        if deadline.at is not None:
            extra["deadline"] = deadline
        code = int(watch_replay(replay, config, speed=args.speed, pinned=_pinned(args),
                                **extra) or 0)  # type: ignore[arg-type]
    if deadline.stopped_at is None:
        return code
    where = (f"at tick {deadline.stopped_at} of {replay.ticks}" if deadline.stopped_at else
             "before the window opened")
    return _error(f"watch: {name}: stopped at the time limit (--time-limit "
                  f"{args.time_limit:g} s) {where}")


def _cmd_config_show(args: argparse.Namespace) -> int:
    config = load_config(*args.config, overrides=args.overrides)
    if not args.config and not args.overrides and not args.no_comments:
        sys.stdout.write(render_default_toml())
        return 0
    header = ["asteroids: resolved settings, from the built-in defaults"]
    header += [one_line(f"  then {path}", _HEADER_LINE) for path in args.config]
    header += [one_line(f"  then --set {text}", _HEADER_LINE) for text in args.overrides]
    sys.stdout.write(render_toml(config, with_comments=not args.no_comments, header=header))
    return 0


_HEADER_LINE = 200
"""``config show`` names each --config and --set in its header, cut to this many characters."""


def _cmd_config_check(args: argparse.Namespace) -> int:
    problems: list[ConfigIssue] = []
    for index, path in enumerate(args.files):
        try:
            load_config(path)
        except ConfigError as exc:
            # Each file is checked on its own; list them in the order given.
            problems.extend(dataclasses.replace(e, order=index) for e in exc.errors)
        else:
            print(one_line(f"{display_name(path)}: ok"))
    if problems:
        print(ConfigError(problems), file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _cmd_config_presets() -> int:
    names = preset_names()
    width = max(map(len, names))
    for name in names:
        print(f"{name:<{width}}  {preset_description(name)}")
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
    if args.palette is not None:
        args.overrides.append(f"display.palette={args.palette}")
    if args.monitor is not None:
        args.overrides.append(f"display.monitor.strength={args.monitor}")
    choices = _choices(args)
    config = choices.rulesets[choices.selected].config
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
                           width=width, height=height, rulesets=choices.rulesets,
                           ruleset_index=choices.selected)
    print(f"asteroids: wrote {path}")
    return 0


def _cmd_record(args: argparse.Namespace) -> int:
    from asteroids.replay import get_bot, record_bot_game, save_replay
    from asteroids.replay.format import MAX_TICKS

    config = load_config(*args.config, overrides=args.overrides)
    try:
        bot = get_bot(args.bot)
    except KeyError as exc:
        return _error(f"record: {exc.args[0]}")
    if not 0 <= args.ticks <= MAX_TICKS:
        return _error(f"record: --ticks must be in [0, {MAX_TICKS}]; got {args.ticks}")
    if not -(2**63) <= args.seed < 2**64:
        return _error(f"record: --seed must be in [-2**63, 2**64); got {args.seed}")
    replay = record_bot_game(config, args.seed, bot, args.ticks, players=args.players)
    if args.players == 2:
        score = "scores " + " / ".join(str(s) for s in replay.final_scores)
    else:
        score = f"score {replay.final_score}"
    try:
        path = save_replay(replay, args.out)
    except OSError as exc:  # a full disk, a read-only folder, a pipe or folder at --out
        from asteroids.storage import describe_os_error

        return _error(f"record: --out {args.out}: the replay was not written "
                      f"({describe_os_error(exc)}); no file was left there, and an earlier "
                      "file of that name is unchanged")
    why = "game over" if replay.ticks < args.ticks else "tick limit"
    print(f"asteroids: wrote {path}: {replay.ticks} ticks ({why}), {score}, "
          f"wave {replay.final_wave}, final hash {replay.final_hash}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: the arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The process exit code: 0 on success, 2 for bad input (1: ``verify`` found a replay
        that plays differently).
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    # No command, or options only (``asteroids --config x.toml``), means play.
    if not args_list or (args_list[0].startswith("-")
                         and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "play")
    if args_list[0] == "bench" and not _benchmarks_here():
        return _error("bench runs the benchmarks of a source checkout (benchmarks/ beside the "
                      "asteroids package, or in the current folder); this installed game has "
                      "none. Clone the repository and run it from there.")
    parser = _build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help, --version, or a usage error
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:  # --help into a closed pipe
        return _closed_pipe()
    try:
        return _run(args)
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """The reader of our output went away (``asteroids scores --json | head``): stop
    quietly, as Unix tools do, with the status a shell gives a tool SIGPIPE ended. Standard
    output is pointed at the null device so the interpreter's last flush cannot fail too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout: nothing more will be written anyway
        pass
    return EXIT_CLOSED_PIPE


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command (bad input: one paragraph on stderr and exit 2)."""
    try:
        if args.command == "play":
            return _cmd_play(args)
        if args.command == "config":
            if args.config_command == "show":
                return _cmd_config_show(args)
            if args.config_command == "presets":
                return _cmd_config_presets()
            return _cmd_config_check(args)
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "screenshot":
            return _cmd_screenshot(args)
        if args.command == "verify":
            from asteroids.replay.batch import run_verify

            return run_verify(args)
        if args.command == "record":
            return _cmd_record(args)
        if args.command == "watch":
            return _cmd_watch(args)
        if args.command == "scores":
            from asteroids.profile.cli import run_scores

            return run_scores(args)
        if args.command == "balance":
            from asteroids.lab.cli import run as run_balance

            return run_balance(args)
        if args.command == "persona":
            from asteroids.pilots.cli import run as run_persona

            return run_persona(args)
        if args.command == "sounds":
            from asteroids.app.sounds_cli import run as run_sounds

            return run_sounds(args)
        raise AssertionError(f"unhandled command {args.command!r}")  # argparse forbids it
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        raise
    except OSError as exc:
        return _error(str(exc))
