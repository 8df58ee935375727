"""The mutation run's summary script (.ci/mutation.py): counts, equivalents and verdicts.

The kill rates in docs/mutation.md come from this script, so a miscount there would misstate
what the tests guard.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def mutation(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("ci_mutation", ROOT / ".ci" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "ci_mutation", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path / "mutants")
    monkeypatch.setattr(module, "DOC", tmp_path / "mutation.md")
    (tmp_path / "mutants").mkdir()
    return module


def _write(mutation, module: str, codes: dict[str, int | None]) -> None:
    names = {f"asteroids.core.{module}.x_f__mutmut_{n}": c for n, c in codes.items()}
    meta = {"exit_code_by_key": names}
    path = mutation.RESULTS / f"{module.replace('.', '/')}.py.meta"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(meta), encoding="utf-8")


def test_tally_counts_each_outcome_and_equivalents_from_the_doc(mutation) -> None:
    # 1 and 3 are kills, 36 a timeout, 0 a survivor, 33 no tests, None not run yet.
    _write(mutation, "ship", {1: 1, 2: 3, 3: 36, 4: 0, 5: 0, 6: 33, 7: None})
    mutation.DOC.write_text("| `asteroids.core.ship.x_f__mutmut_4` | -0.0 + 0.0 |\n",
                            encoding="utf-8")
    r = mutation.tally("ship", mutation.listed_equivalents())
    assert (r.total, r.killed, r.timeout, r.survived, r.equivalent, r.no_tests, r.not_run) == (
        7, 2, 1, 2, 1, 1, 1)
    assert r.unexplained == 1
    assert r.kill_rate == pytest.approx(3 / 7)
    assert mutation.survivors("ship", mutation.listed_equivalents()) == [
        "asteroids.core.ship.x_f__mutmut_5"]


def test_rule_module_needs_95_percent_and_every_survivor_explained(mutation) -> None:
    codes = {n: 1 for n in range(1, 20)}
    codes[20] = 0  # 19 of 20 killed: exactly 95 %
    _write(mutation, "saucer", codes)
    equivalents = mutation.listed_equivalents()
    assert mutation._verdict(mutation.tally("saucer", equivalents)) == "MISSED (95%)"
    mutation.DOC.write_text("`asteroids.core.saucer.x_f__mutmut_20`", encoding="utf-8")
    assert mutation._verdict(mutation.tally("saucer", mutation.listed_equivalents())) == (
        "met (95%)")
    codes[19] = 0  # 18 of 20 killed: 90 %, and one survivor unexplained
    _write(mutation, "saucer", codes)
    assert mutation._verdict(mutation.tally("saucer", mutation.listed_equivalents())) == (
        "MISSED (95%)")
    # Both listed: every killable mutant is killed (score 100 %) but the kill rate is 90 %.
    mutation.DOC.write_text("`asteroids.core.saucer.x_f__mutmut_19` "
                            "`asteroids.core.saucer.x_f__mutmut_20`", encoding="utf-8")
    r = mutation.tally("saucer", mutation.listed_equivalents())
    assert (r.kill_rate, r.score) == (0.9, 1.0)
    assert mutation._verdict(r) == "met excluding equivalents (95%)"


def test_geometry_needs_85_percent_and_incomplete_runs_are_not_judged(mutation) -> None:
    """A module of the geometry package, by its dotted name, is held to the 85 % target."""
    name = "geometry.wrap"
    _write(mutation, name, {n: (1 if n <= 17 else 0) for n in range(1, 21)})
    assert mutation._verdict(mutation.tally(name, set())) == "met (85%)"
    _write(mutation, name, {n: (1 if n <= 16 else 0) for n in range(1, 21)})
    assert mutation._verdict(mutation.tally(name, set())) == "MISSED (85%)"
    _write(mutation, name, {1: 1, 2: None})
    assert mutation._verdict(mutation.tally(name, set())) == "incomplete"


def test_report_check_fails_when_a_target_is_missed(mutation, capsys) -> None:
    _write(mutation, "ship", {1: 1, 2: 0})
    assert mutation.main(["report", "ship", "--check"]) == 1
    mutation.DOC.write_text("`asteroids.core.ship.x_f__mutmut_40`", encoding="utf-8")
    _write(mutation, "ship", {n: 1 for n in range(1, 40)} | {40: 0})
    assert mutation.main(["report", "ship", "--check", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| ship | 40 | 39 | 0 | 1 | 1 | 0 | 0 | 0 | 97.5% | 100.0% | met (95%) |" in out


def test_unknown_module_is_refused_with_the_list(mutation, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        mutation.main(["report", "shipp"])
    assert stop.value.code == 2
    assert "unknown module(s) shipp" in capsys.readouterr().err


def test_every_module_with_a_target_exists_in_the_core(mutation) -> None:
    """A renamed or split module keeps its target: no target names a module that is gone,
    and every collision query module is held to the geometry target."""
    known = set(mutation.core_modules())
    assert set(mutation.TARGETS) <= known
    assert {"shots", "contacts", "overlap"} <= set(mutation.GEOMETRY_MODULES)
    # Every module of the geometry package and every phase of the tick has a target.
    assert {m for m in known if m.startswith("geometry.")} <= set(mutation.GEOMETRY_MODULES)
    assert {"sweep", "motion", "touch", "resolve", "waves"} <= set(mutation.RULE_MODULES)


def test_the_memory_limit_reaches_the_children_and_stops_a_runaway_mutant(mutation) -> None:
    """A mutant that allocates without bound gets MemoryError (a failed test: killed) under the
    run's address-space cap instead of filling the machine; 0 means no cap."""
    import subprocess

    assert mutation.memory_limit(0) is None
    code = ("import resource\n"
            "print(resource.getrlimit(resource.RLIMIT_AS)[0])\n"
            "try:\n    b = bytearray(3 * 2**30)\nexcept MemoryError:\n    print('MemoryError')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         preexec_fn=mutation.memory_limit(2.0), check=True).stdout.split()
    assert out == [str(2 * 2**30), "MemoryError"]
