"""The suite itself: its caps really stop a runaway, and the docs' table lists what it tries."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.hostile.harness import EXIT_OK, MEMORY_CAP_MB, ROOT, TIME_LIMIT_S, capped, run_cli

HERE = Path(__file__).resolve().parent


def test_the_memory_cap_stops_a_process_that_asks_for_more() -> None:
    code = f"bytearray({MEMORY_CAP_MB + 64} * 1024 * 1024)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          preexec_fn=capped(MEMORY_CAP_MB), timeout=60)
    assert proc.returncode != 0 and "MemoryError" in proc.stderr
    fits = subprocess.run([sys.executable, "-c", f"bytearray({MEMORY_CAP_MB // 2} << 20)"],
                          preexec_fn=capped(MEMORY_CAP_MB), timeout=60)
    assert fits.returncode == 0


def test_the_time_limit_fails_a_case_instead_of_waiting(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match="did not finish within 0.01 s"):
        run_cli("config", "presets", expect=EXIT_OK, cwd=tmp_path, time_limit_s=0.01)


RELIABILITY_PAGE = ROOT / "docs" / "maintainers" / "reliability.md"
"""The documentation site's page on hostile input, with the table of what the suite tries."""


def _reliability_section() -> str:
    return RELIABILITY_PAGE.read_text(encoding="utf-8")


def _table(section: str) -> dict[str, int]:
    """Module name -> the number of test cases the page says it has."""
    rows = re.findall(r"^\| .*?`(test_\w+\.py)` .*\| (\d+) \|$", section, re.M)
    return {name: int(count) for name, count in rows}


def test_docs_list_every_class_with_its_caps_and_case_count(
        request: pytest.FixtureRequest) -> None:
    section = _reliability_section()
    assert f"{MEMORY_CAP_MB} MiB" in section and f"{TIME_LIMIT_S} s" in section
    modules = {p.name for p in HERE.glob("test_*.py")}
    table = _table(section)
    assert set(table) == modules, "docs/maintainers/reliability.md's table: one row per module"
    if request.config.getoption("keyword"):
        return  # a -k run collects only some cases: the counts cannot be compared
    collected = Counter(Path(str(item.fspath)).name for item in request.session.items)
    if not all(collected[m] for m in modules):
        return  # this module run alone
    assert table == {m: collected[m] for m in modules}
