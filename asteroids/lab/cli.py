"""``asteroids balance``: compare configs by headless bot games on the same seeds.

Registered from ``asteroids.cli`` (``add_parser`` and ``run``). Everything the user can get
wrong (a config, a sweep, the bot's name, a missing extra) is checked before the first game
runs and reported as one paragraph with exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asteroids.config import ConfigError, load_config
from asteroids.config.errors import OVERRIDE_SOURCE
from asteroids.lab.engines import ENGINES, EngineUnavailable, import_ray
from asteroids.lab.plot import PlotUnavailable, require_matplotlib
from asteroids.lab.survival import SurvivalUnavailable
from asteroids.storage import atomic_write

if TYPE_CHECKING:
    from asteroids.lab.run import Side

__all__ = ["DEFAULT_GAMES", "DEFAULT_MINUTES", "EXIT_BAD_INPUT", "add_parser", "run",
           "split_values"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
DEFAULT_GAMES = 100
DEFAULT_MINUTES = 5.0
"""Without ``--ticks``, each game is capped at this much game time at its side's tick rate."""
MAX_GAMES = 1_000_000

DESCRIPTION = """\
Play the same seeds with a bot on two or more configs and compare them side by side: score
(median, p10, p90), waves cleared, survival time, deaths by cause, shots per kill, extra
lives; for each side after the first, the mean difference against the first with a paired
bootstrap 95 % interval, and a verdict (harder / easier when the survival and score
intervals both exclude zero on the same side; no clear change when both contain it; mixed
otherwise; whenever games ended, survival is judged by the log-rank test of the survival
curves; when every game reached the tick cap, deaths per game stand in for survival). With
scipy (the [lab] extra) each side also gets its Kaplan-Meier survival curve to game over with
a 95 % band and the hazard (ships lost per minute) by game time and by wave. --persona
novice,average,expert compares pilots with human limits on one config. Game i of every side
uses seed SEED+i and runs to game over or the tick cap; survival time is that length in
seconds of game time. Sides: --config (the first, A), then each --against file, or one side
per --sweep value on top of A. --set applies to every side."""


class _BadInput(Exception):
    """A one-paragraph problem with the command line."""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``balance`` command to the ``asteroids`` sub-command parsers."""
    p = sub.add_parser("balance", help="compare configs by headless bot games (tuning)",
                       description=DESCRIPTION)
    p.add_argument("--config", "-c", metavar="FILE", action="append", default=[],
                   help="side A: TOML files or bundled preset names, layered in order "
                   "(default: the built-in defaults)")
    p.add_argument("--set", "-s", metavar="KEY=VALUE", dest="overrides", action="append",
                   default=[], help="override one setting on every side; may repeat")
    sides = p.add_mutually_exclusive_group()
    sides.add_argument("--against", metavar="FILE", action="append", default=[],
                       help="one more side: this file or preset over the built-in defaults; "
                       "may repeat")
    sides.add_argument("--sweep", metavar="KEY=V1,V2,...", default=None,
                       help="one side per value of KEY, each on top of side A's settings "
                       "(the first value is the side the others are compared with)")
    pilots = p.add_mutually_exclusive_group()
    pilots.add_argument("--bot", default=None, metavar="NAME",
                        help="which bot plays (default aimer; an unknown name lists the known "
                        "ones)")
    pilots.add_argument("--persona", default=None, metavar="NAME[,NAME...]",
                        help="personas play instead of a bot: novice, average, expert, perfect "
                        "(the aimer) or a persona file (asteroids persona fit); several names: "
                        "one side per persona on side A's settings (not with --against or "
                        "--sweep); the report adds survival curves and the hazard (needs "
                        "scipy: the [lab] extra)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"games per side (default {DEFAULT_GAMES})")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="game i uses seed S+i on every side (default 1)")
    p.add_argument("--ticks", type=int, default=None, metavar="T",
                   help=f"tick cap per game (default: {DEFAULT_MINUTES:g} minutes of game time "
                   "at each side's tick rate)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="J",
                   help="worker processes (default: all cores; with --engine ray and no "
                   "--address, the local Ray's CPUs)")
    p.add_argument("--engine", choices=ENGINES, default="batch",
                   help="batch: this machine's cores, each playing its games as one batch "
                   "(default; --keep-replays records one game at a time); pool: this "
                   "machine's cores, one game per task (the same results); ray: Ray "
                   "tasks (the [cluster] extra)")
    p.add_argument("--address", metavar="ADDR", default=None,
                   help="with --engine ray: the Ray cluster to use (default: start a local one)")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="write every game's result, the summaries and comparisons as JSON")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw the distributions to a PNG (needs the [lab] extra: matplotlib)")
    p.add_argument("--keep-replays", metavar="DIR", default=None,
                   help="save every game as a replay in DIR (SIDE-seedSEED.replay) to watch "
                   "with 'asteroids watch'")
    return p


def split_values(text: str) -> list[str]:
    """Split ``V1,V2,...`` at the commas outside brackets and quotes, so a TOML array or a
    string with a comma stays one value: ``'1,[2, 3],"a,b"'`` -> ``['1', '[2, 3]', '"a,b"']``.
    """
    values, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            values.append(text[start:i].strip())
            start = i + 1
    values.append(text[start:].strip())
    return values


def _label(sources: list[str], overrides: list[str]) -> str:
    parts = [", ".join(sources) if sources else "built-in defaults"]
    parts += overrides
    return ", ".join(parts)


def _cap(ticks: int | None, tick_hz: float) -> int:
    return ticks if ticks is not None else round(DEFAULT_MINUTES * 60.0 * tick_hz)


def _sweep_sides(args: argparse.Namespace) -> list[Side]:
    from asteroids.lab.run import Side, side_name

    key, eq, rest = args.sweep.partition("=")
    key = key.strip()
    values = split_values(rest) if eq else []
    if not key or not eq or not all(values):
        raise _BadInput(f"balance: --sweep {args.sweep!r} is not KEY=V1,V2,...: expected a "
                        "dotted setting name, '=', and one or more comma-separated TOML "
                        "values, e.g. --sweep ship.thrust_px_per_s2=300,400,500")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise _BadInput(f"balance: --sweep {args.sweep!r} lists {', '.join(repeated)} more "
                        "than once; give each value once")
    sides: list[Side] = []
    problems: list[str] = []
    for v in values:
        override = f"{key}={v}"
        try:
            config = load_config(*args.config, overrides=[*args.overrides, override])
        except ConfigError as exc:
            for issue in exc.errors:
                if issue.source == OVERRIDE_SOURCE and issue.override == override:
                    problems.append(f"{override}: {issue.message}")
                else:
                    problems.append(str(issue))
            continue
        i = len(sides)
        sides.append(Side(side_name(i), _label(args.config, [*args.overrides, override]),
                          config, _cap(args.ticks, config.world.tick_hz),
                          tuple(args.config), (*args.overrides, override)))
    if problems:
        raise _BadInput(f"balance: --sweep {args.sweep}: " + "; ".join(problems)
                        + ". No game was played.")
    return sides


def _sides(args: argparse.Namespace) -> list[Side]:
    """Side A, then each --against, or one side per --sweep value; every config checked."""
    from asteroids.lab.run import Side, side_name

    if args.sweep is not None:
        # Side A's own settings must be valid first (its errors are reported as usual).
        load_config(*args.config, overrides=args.overrides)
        return _sweep_sides(args)
    config = load_config(*args.config, overrides=args.overrides)
    sides = [Side("A", _label(args.config, args.overrides), config,
                  _cap(args.ticks, config.world.tick_hz), tuple(args.config),
                  tuple(args.overrides))]
    for path in args.against:
        config = load_config(path, overrides=args.overrides)
        sides.append(Side(side_name(len(sides)), _label([path], args.overrides), config,
                          _cap(args.ticks, config.world.tick_hz), (path,),
                          tuple(args.overrides)))
    return sides


def _check(args: argparse.Namespace) -> None:
    """Every check that needs no config, in the order a user would fix them."""
    from asteroids.replay.format import MAX_TICKS
    from asteroids.replay.record import get_bot

    if not 1 <= args.games <= MAX_GAMES:
        raise _BadInput(f"balance: --games must be in [1, {MAX_GAMES}]; got {args.games}")
    if args.ticks is not None and not 1 <= args.ticks <= MAX_TICKS:
        raise _BadInput(f"balance: --ticks must be in [1, {MAX_TICKS}]; got {args.ticks}")
    if args.jobs is not None and args.jobs < 1:
        raise _BadInput(f"balance: --jobs must be 1 or more; got {args.jobs}")
    last = args.seed + args.games - 1
    if not (-(2**63) <= args.seed and last < 2**64):
        raise _BadInput(f"balance: seeds {args.seed}..{last} (--seed S, then S+1, ... for "
                        "each game) must lie in [-2**63, 2**64)")
    if args.persona is None:
        args.bot = args.bot or "aimer"
        try:
            get_bot(args.bot)
        except KeyError as exc:
            raise _BadInput(f"balance: {exc.args[0]}") from None
    else:
        _check_personas(args)
    if args.address is not None and args.engine != "ray":
        raise _BadInput("balance: --address names a Ray cluster; it needs --engine ray")
    for flag, path in (("--json", args.json), ("--plot", args.plot)):
        if path is not None and Path(path).is_dir():
            raise _BadInput(f"balance: {flag} {path}: that is a folder; give a file name")
    if args.engine == "ray":
        import_ray()
    if args.plot is not None:
        require_matplotlib()


def _check_personas(args: argparse.Namespace) -> None:
    """Read every ``--persona`` (files once, here) into ``args.pilots``: (name, pilot)."""
    from asteroids.lab.survival import require_scipy
    from asteroids.pilots import PersonaError, load_persona

    names = [n.strip() for n in split_values(args.persona)]
    if not all(names):
        raise _BadInput(f"balance: --persona {args.persona!r}: expected one or more persona "
                        "names or files, separated by commas, e.g. --persona "
                        "novice,average,expert")
    if len(set(names)) != len(names):
        raise _BadInput(f"balance: --persona {args.persona!r} names a persona twice")
    if len(names) > 1 and (args.against or args.sweep is not None):
        raise _BadInput("balance: several --persona names make one side per persona; "
                        "--against and --sweep make one side per config: give one of the two "
                        "(one persona with --against or --sweep is fine)")
    pilots = []
    for name in names:
        try:
            persona = load_persona(name)
        except KeyError as exc:
            raise _BadInput(f"balance: {exc.args[0]}") from None
        except PersonaError as exc:
            raise _BadInput("balance: --persona: " + "; ".join(exc.problems)) from None
        if persona is None or persona.name == name:
            pilots.append((name, name))  # bundled, or perfect: workers look it up by name
        else:
            pilots.append((persona.name, persona))
    args.pilots = pilots
    args.bot = "persona " + ", ".join(n for n, _ in pilots) if len(pilots) > 1 else \
        f"persona {pilots[0][0]}"
    require_scipy()


def _with_pilots(args: argparse.Namespace, sides: list[Side]) -> list[Side]:
    """The sides with their pilots: one persona for every side, or one side per persona."""
    import dataclasses

    from asteroids.lab.run import side_name

    pilots = getattr(args, "pilots", None)
    if not pilots:
        return sides
    if len(pilots) == 1:
        name, pilot = pilots[0]
        return [dataclasses.replace(s, pilot=pilot, pilot_name=name) for s in sides]
    base = sides[0]
    return [dataclasses.replace(base, name=side_name(i), label=f"persona {name}, {base.label}",
                                pilot=pilot, pilot_name=name)
            for i, (name, pilot) in enumerate(pilots)]


def _progress(total: int) -> Any:
    """A tqdm bar on stderr (games done, rate, time left); silent when stderr is no TTY."""
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[type-arg, misc]
        monitor_interval = 0  # no monitor thread: the pool may then fork its workers

    return Bar(total=total, desc="balance", unit="game", file=sys.stderr,
               disable=not sys.stderr.isatty(), dynamic_ncols=True)


def run(args: argparse.Namespace) -> int:
    """Run ``asteroids balance``; returns the exit code (ConfigError and OSError are left to
    the caller, which prints them as for every command)."""
    from asteroids.lab.plot import save_plot
    from asteroids.lab.report import build_document, render_json, render_text
    from asteroids.lab.run import plan, run_balance

    try:
        _check(args)
        sides = _with_pilots(args, _sides(args))
        if args.keep_replays is not None:
            Path(args.keep_replays).mkdir(parents=True, exist_ok=True)
        for path in (args.json, args.plot):
            if path is not None:
                Path(path).resolve().parent.mkdir(parents=True, exist_ok=True)
    except (_BadInput, EngineUnavailable, PlotUnavailable, SurvivalUnavailable) as exc:
        print(f"asteroids: {exc}" if isinstance(exc, _BadInput) else f"asteroids: balance: {exc}",
              file=sys.stderr)
        return EXIT_BAD_INPUT

    total = len(plan(sides, bot=args.bot, games=args.games, seed=args.seed))
    started = time.perf_counter()
    try:
        with _progress(total) as bar:
            result = run_balance(sides, bot=args.bot, games=args.games, seed=args.seed,
                                 engine=args.engine, jobs=args.jobs, address=args.address,
                                 keep_replays=args.keep_replays, on_done=lambda: bar.update(1))
    except KeyboardInterrupt:
        print("asteroids: balance: interrupted; no report written", file=sys.stderr)
        return EXIT_INTERRUPTED
    except EngineUnavailable as exc:
        print(f"asteroids: balance: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    elapsed = time.perf_counter() - started
    where = (f"ray at {args.address}" if args.address else "local ray") \
        if args.engine == "ray" else f"{args.engine} on {args.jobs or os.cpu_count() or 1} cores"
    print(f"asteroids: balance: {total} games in {elapsed:.1f} s ({total / elapsed:.2f} "
          f"games/s, {where})", file=sys.stderr)

    doc = build_document(result)
    sys.stdout.write(render_text(doc))
    if args.json is not None:
        atomic_write(args.json, render_json(doc).encode("utf-8"))
        print(f"asteroids: wrote {args.json}", file=sys.stderr)
    if args.plot is not None:
        save_plot(doc, args.plot)
        print(f"asteroids: wrote {args.plot}", file=sys.stderr)
    if args.keep_replays is not None:
        print(f"asteroids: saved {len(result.replays)} replays in {args.keep_replays} "
              "(asteroids watch FILE)", file=sys.stderr)
    return 0
