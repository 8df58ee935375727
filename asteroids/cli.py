"""Command line: ``asteroids [play|config|bench|watch|verify|record|screenshot|scores] ...``.

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
from typing import TYPE_CHECKING, Any

from asteroids.cli_parser import EXIT_BAD_INPUT, benchmarks_here, build_parser
from asteroids.config import ConfigError, ConfigIssue, load_config, render_default_toml, render_toml
from asteroids.config.bundled import preset_description, preset_names
from asteroids.config.overrides import parse_override
from asteroids.config.rulesets import PLAYER_SECTIONS, RulesetChoices, ruleset_choices
from asteroids.messages import one_line
from asteroids.userfile import STDIN, display_name

if TYPE_CHECKING:
    from asteroids.app.live import LiveSpec

__all__ = ["EXIT_BAD_INPUT", "EXIT_CLOSED_PIPE", "EXIT_MISMATCH", "main"]

EXIT_MISMATCH = 1
"""``verify``: a well-formed replay re-simulated differently from how it was recorded."""

EXIT_CLOSED_PIPE = 141
"""The reader of the output closed the pipe (128 + SIGPIPE, as a shell reports it)."""

_BENCH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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
    extra: dict[str, Any] = {"live": live} if live is not None else {}
    if args.audio is not None:  # else audio.driver chooses
        extra["audio"] = args.audio
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
    from asteroids.replay.files import read_replay_bytes
    from asteroids.replay.format import decode_replay
    from asteroids.replay.work import Deadline, watch_notice

    deadline = Deadline.after(args.time_limit)
    if args.replay == STDIN and STDIN in args.config:
        return _error("watch: standard input (-) can give the replay or the settings, not both")
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
        if args.audio is not None:  # else audio.driver chooses
            extra["audio"] = args.audio
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
    bench = benchmarks_here()
    if args_list[0] == "bench" and not bench:
        return _error("bench runs the benchmarks of a source checkout (benchmarks/ beside the "
                      "asteroids package, or in the current folder); this installed game has "
                      "none. Clone the repository and run it from there.")
    parser = build_parser(bench)
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
