"""``asteroids persona``: list and show the personas, and fit one to your own replays.

Registered from ``asteroids.cli`` (``add_parser`` and ``run``). Bad input (a replay that
cannot be read, a two-player replay, an output that is a folder) is one paragraph on stderr
and exit code 2, before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from asteroids.storage import atomic_write

__all__ = ["add_parser", "run"]

EXIT_BAD_INPUT = 2

DESCRIPTION = """\
Personas are pilots with human limits (reaction delay, aim error, turn overshoot,
attention, fire discipline, thrust and hyperspace habits), written as small TOML files.
'list' names them, 'show NAME' prints one as TOML, and 'fit REPLAYS... --out me.toml'
measures your replays (the game saves every game you play in its replays folder) and writes
the persona that plays like you: reaction to a new wave, thrust share, shots fired at
nothing, hyperspace per close call; it then plays your replays' seeds with it and prints
both sets of statistics side by side. Use the result anywhere a bot goes: asteroids record
--bot me.toml, asteroids balance --persona me.toml,expert."""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``persona`` command to the ``asteroids`` sub-command parsers."""
    p = sub.add_parser("persona", help="pilots with human limits: list, show, fit to replays",
                       description=DESCRIPTION)
    action = p.add_subparsers(dest="persona_command", metavar="ACTION", required=True)
    action.add_parser("list", help="the personas known by name")
    show = action.add_parser("show", help="print a persona as TOML")
    show.add_argument("name", metavar="NAME", help="novice, average, expert, or a file")
    fit = action.add_parser("fit", help="fit a persona to your replays",
                            description=DESCRIPTION)
    fit.add_argument("replays", nargs="+", metavar="REPLAY", help="one-player replay files")
    fit.add_argument("--out", "-o", required=True, metavar="FILE.toml",
                     help="where to write the fitted persona")
    fit.add_argument("--name", default=None, metavar="NAME",
                     help="the persona's name (default: the output file's stem)")
    fit.add_argument("--no-replay", action="store_true",
                     help="skip playing the fitted persona on the replays' seeds")
    return p


def _error(message: str) -> int:
    print(f"asteroids: persona: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    """Run ``asteroids persona ...``; returns the exit code."""
    from asteroids.pilots.persona import PARAMS, PersonaError, persona_toml
    from asteroids.pilots.registry import PERFECT, PERSONA_NAMES, load_persona

    if args.persona_command == "list":
        for name in PERSONA_NAMES:
            persona = load_persona(name)
            about = persona.description if persona else "the aimer bot: no human limit"
            print(f"{name:10} {about}")
        print("parameters: " + ", ".join(p.key for p in PARAMS))
        return 0
    if args.persona_command == "show":
        if args.name == PERFECT:
            return _error("'perfect' is the aimer bot (asteroids.core.bot.aimer_bot): it has "
                          "no human parameters to show")
        try:
            persona = load_persona(args.name)
        except KeyError as exc:
            return _error(str(exc.args[0]))
        except PersonaError as exc:
            print(exc, file=sys.stderr)
            return EXIT_BAD_INPUT
        assert persona is not None
        sys.stdout.write(persona_toml(persona))
        return 0
    return _fit(args)


def _fit(args: argparse.Namespace) -> int:
    from asteroids.pilots.fit import fit_persona, render_fit
    from asteroids.pilots.persona import persona_toml
    from asteroids.replay import ReplayError, load_replay

    out = Path(args.out)
    if out.is_dir():
        return _error(f"--out {args.out}: that is a folder; give a file name (me.toml)")
    replays = []
    for path in args.replays:
        try:
            replay = load_replay(path)
        except ReplayError as exc:
            print(exc, file=sys.stderr)
            return EXIT_BAD_INPUT
        if replay.players != 1:
            return _error(f"{path}: a two-player replay (two pilots at one set of controls) "
                          "cannot be read as one pilot's game; give one-player replays")
        replays.append(replay)
    name = args.name or out.stem or "me"
    fit = fit_persona(replays, name=name, replay=not args.no_replay)
    sys.stdout.write(render_fit(fit))
    atomic_write(out, persona_toml(fit.persona).encode("utf-8"))
    print(f"asteroids: wrote {out} (asteroids balance --persona {out},expert)", file=sys.stderr)
    return 0
