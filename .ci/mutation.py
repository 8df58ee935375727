"""Mutation run over the pure core: run mutmut on some modules, print a kill rate per module.

Usage (from the repository root, with ``pip install '.[test]'``)::

    python .ci/mutation.py run ship saucer      # mutate and test these modules of asteroids/core
    python .ci/mutation.py run geometry.wrap    # a module of a subpackage, by its dotted name
    python .ci/mutation.py run                  # every module of asteroids/core (hours on 2 cores)
    python .ci/mutation.py run --pending ship   # retest only what survived or never ran
    python .ci/mutation.py run --not-run shots  # only what never ran (finish a long run first)
    python .ci/mutation.py run --only names.txt # these mutants (e.g. survivors a new test targets)
    python .ci/mutation.py report               # the table from the last runs, no testing
    python .ci/mutation.py report --markdown    # the same as a Markdown table (docs/mutation.md)
    python .ci/mutation.py survivors simulation # survivors not yet listed as equivalent

mutmut's settings are in ``pyproject.toml`` (``[tool.mutmut]``); its results stay in
``mutants/`` between runs, so a second ``run`` of the same modules only retests what changed.
A survivor listed in ``docs/mutation.md`` (its full mutant name in backticks) counts as an
equivalent mutant: it changes nothing a player or the replay hash could see. The report gives
the kill rate (killed over all mutants) and the mutation score (killed over the mutants that
are not equivalent), and compares each module with its target (rule modules 95 %, every
survivor explained; geometry 85 %): "met" when the kill rate reaches it, "met excluding
equivalents" when only the score does. ``report --check`` exits 1 when a target is missed or a
run is incomplete.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "asteroids" / "core"
RESULTS = ROOT / "mutants" / "asteroids" / "core"
DOC = ROOT / "docs" / "mutation.md"

RULE_MODULES = ("ship", "saucer", "spawn", "simulation", "sweep", "reach", "motion", "touch",
                "resolve", "waves", "bodies", "frame", "craft", "outlines")
"""Where the game's rules (and scoring) live: the tick pipeline and its phases, the craft and
the tables of who meets whom: 95 % killed, every survivor explained."""
GEOMETRY_MODULES = ("geometry.checks", "geometry.wrap", "geometry.bounce", "geometry.polygon",
                    "geometry.segment", "shots", "shots_small", "hits", "contacts", "overlap",
                    "broadphase", "broadphase_sweep")
"""Geometry, the collision queries (shots, contacts, overlap) and broad phase: 85 % killed,
survivors triaged."""
TARGETS = {**dict.fromkeys(RULE_MODULES, 0.95), **dict.fromkeys(GEOMETRY_MODULES, 0.85)}

# mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped the way we report them.
_KILLED = {1, 3}
_TIMEOUT = {24, -24, 36, 152, 255}
_SURVIVED = {0}
_NO_TESTS = {5, 33}

_NAME = re.compile(r"`(asteroids\.core\.[A-Za-z0-9_.ǁ]+__mutmut_\d+)`")


def memory_limit(gib: float):
    """A preexec_fn capping the address space (inherited by every mutant), or None."""
    if gib <= 0:
        return None

    def apply() -> None:
        import resource

        limit = int(gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


@dataclass
class ModuleResult:
    """Counts for one module of asteroids/core."""

    module: str
    total: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0
    equivalent: int = 0
    no_tests: int = 0
    not_run: int = 0
    other: int = 0

    @property
    def kill_rate(self) -> float:
        """Killed (a test failed, or the mutant hung and was stopped) over all mutants."""
        return (self.killed + self.timeout) / self.total if self.total else 1.0

    @property
    def score(self) -> float:
        """The mutation score proper: killed over the mutants that can be killed at all."""
        killable = self.total - self.equivalent
        return (self.killed + self.timeout) / killable if killable else 1.0

    @property
    def unexplained(self) -> int:
        return self.survived - self.equivalent


def core_modules() -> list[str]:
    """Every module of asteroids/core by dotted name below it (``geometry.wrap``)."""
    return sorted(".".join(p.relative_to(CORE).with_suffix("").parts)
                  for p in CORE.rglob("*.py") if p.stem != "__init__")


def listed_equivalents() -> set[str]:
    """Mutant names that docs/mutation.md lists as equivalent."""
    return set(_NAME.findall(DOC.read_text(encoding="utf-8"))) if DOC.exists() else set()


def load(module: str) -> dict[str, int | None]:
    """mutant name -> mutmut exit code (None: generated but not run yet)."""
    meta = RESULTS / f"{module.replace('.', '/')}.py.meta"
    if not meta.exists():
        return {}
    return json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]


def tally(module: str, equivalents: set[str]) -> ModuleResult:
    r = ModuleResult(module)
    for name, code in load(module).items():
        r.total += 1
        if code is None:
            r.not_run += 1
        elif code in _KILLED:
            r.killed += 1
        elif code in _TIMEOUT:
            r.timeout += 1
        elif code in _SURVIVED:
            r.survived += 1
            r.equivalent += name in equivalents
        elif code in _NO_TESTS:
            r.no_tests += 1
        else:
            r.other += 1
    return r


def survivors(module: str, equivalents: set[str]) -> list[str]:
    return [n for n, c in load(module).items() if c in _SURVIVED and n not in equivalents]


def _verdict(r: ModuleResult) -> str:
    target = TARGETS.get(r.module)
    if r.not_run:
        return "incomplete"
    if target is None:
        return ""
    explained = r.module not in RULE_MODULES or r.unexplained == 0
    if explained and r.kill_rate >= target:
        return f"met ({target:.0%})"
    if explained and r.score >= target:
        return f"met excluding equivalents ({target:.0%})"
    return f"MISSED ({target:.0%})"


def report(modules: list[str], markdown: bool) -> list[ModuleResult]:
    equivalents = listed_equivalents()
    rows = [tally(m, equivalents) for m in modules]
    rows = [r for r in rows if r.total]
    head = ("module", "mutants", "killed", "timeout", "survived", "equivalent", "unexplained",
            "no tests", "not run", "kill rate", "score", "target")
    lines = []
    for r in rows:
        lines.append((r.module, r.total, r.killed, r.timeout, r.survived, r.equivalent,
                      r.unexplained, r.no_tests, r.not_run, f"{r.kill_rate:.1%}", f"{r.score:.1%}",
                      _verdict(r)))
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for line in lines:
            print("| " + " | ".join(str(x) for x in line) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *lines, strict=False)]
        for line in (head, *lines):
            print("  ".join(str(x).rjust(w) for x, w in zip(line, widths, strict=True)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="run mutmut on modules of asteroids/core, then report")
    run_p.add_argument("modules", nargs="*", help="module names (default: all of the core)")
    run_p.add_argument("--jobs", type=int, default=None, help="parallel mutants (default: CPUs)")
    run_p.add_argument("--memory-gib", type=float, default=8.0,
                       help="address-space limit of mutmut and every mutant it runs, GiB "
                            "(default 8; 0 = none): a mutant that grows without bound fails "
                            "with MemoryError, which counts as killed, instead of filling the "
                            "machine")
    run_p.add_argument("--pending", action="store_true",
                       help="only mutants not killed yet (survivors and those not run), e.g. "
                            "after adding tests")
    run_p.add_argument("--not-run", action="store_true",
                       help="only mutants never run: finishes an interrupted run without "
                            "retesting its survivors (each survivor reruns every test that "
                            "reaches it, so in the geometry modules it costs 30-60 s)")
    run_p.add_argument("--only", metavar="FILE", default=None,
                       help="only the mutants named in FILE, one per line (e.g. the survivors "
                            "a new test was written for; delete mutants/mutmut-stats.json "
                            "first when tests were added)")
    rep_p = sub.add_parser("report", help="print kill rates from the last runs")
    rep_p.add_argument("modules", nargs="*")
    rep_p.add_argument("--markdown", action="store_true")
    rep_p.add_argument("--check", action="store_true",
                       help="exit 1 when a module misses its target")
    sur_p = sub.add_parser("survivors", help="surviving mutants not listed as equivalent")
    sur_p.add_argument("modules", nargs="*")
    args = parser.parse_args(argv)

    known = core_modules()
    modules = args.modules or known
    unknown = [m for m in modules if m not in known]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}; asteroids/core has: "
                     f"{', '.join(known)}")

    if args.command == "run":
        try:
            import mutmut  # noqa: F401
        except ImportError:
            print("mutmut is not installed: pip install '.[test]'", file=sys.stderr)
            return 2
        cmd = [sys.executable, "-m", "mutmut", "run"]
        if args.jobs:
            cmd += ["--max-children", str(args.jobs)]
        if args.only:
            try:
                names = Path(args.only).read_text(encoding="utf-8").split()
            except (OSError, UnicodeDecodeError) as exc:
                print(f"--only {args.only}: cannot read the list of mutant names ({exc})",
                      file=sys.stderr)
                return 2
            known_names = {n for m in modules for n in load(m)}
            unknown_names = [n for n in names if n not in known_names]
            if unknown_names:
                print(f"not mutants of {', '.join(modules)}: {', '.join(unknown_names[:5])}",
                      file=sys.stderr)
                return 2
            cmd += names
        elif args.pending or args.not_run:
            def wanted(code: int | None) -> bool:
                if args.not_run:
                    return code is None
                return code not in _KILLED and code not in _TIMEOUT

            names = [n for m in modules for n, c in load(m).items() if wanted(c)]
            if not names:
                print("nothing pending: every mutant of these modules has run" if args.not_run
                      else "nothing pending: every mutant of these modules is killed")
                report(modules, markdown=False)
                return 0
            cmd += names
        elif args.modules:
            cmd += [f"asteroids.core.{m}.*" for m in modules]
        done = subprocess.run(cmd, cwd=ROOT, check=False,
                              preexec_fn=memory_limit(args.memory_gib))
        print()
        report(modules, markdown=False)
        return done.returncode
    if args.command == "survivors":
        equivalents = listed_equivalents()
        for m in modules:
            for name in survivors(m, equivalents):
                print(name)
        return 0
    rows = report(modules, args.markdown)
    if args.check and any(_verdict(r).startswith(("MISSED", "incomplete")) for r in rows
                          if r.module in TARGETS):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
