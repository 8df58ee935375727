"""The README and the documentation site (docs/, mkdocs.yml) cannot rot unnoticed.

Every command shown in a code block is checked against the program it names (an
``asteroids`` line is parsed by the game's own argument parser; a module, script, extra or
test path must exist), marked ``<!-- not run: REASON -->`` on the line before its block or
not. ``tests/test_docs_commands.py`` runs the cheap ones (its slow test) and checks that every
command of an unmarked block is among them. No page is over 600 lines, every benchmark page
and every table of measurements names its command, the configuration reference is what the
schema writes, and the README stays a one-minute read. The site itself is built by
``.ci/run`` (``mkdocs build --strict``); ``test_the_site_builds`` builds it here too when
mkdocs is installed (the ``[docs]`` extra).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from asteroids.cli_parser import build_parser
from asteroids.config.reference import reference_pages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_PAGE_LINES = 600
MAX_README_LINES = 150
LONG_RECORDS = {DOCS / "mutation.md"}
"""Generated records outside the site's navigation, exempt from the page-size rule:
``docs/mutation.md`` lists every surviving mutant and is read by ``.ci/mutation.py``."""

COMMAND_LANGS = {"sh", "bash", "console", "shell"}
COMMAND_START = re.compile(r"^\s*(\$ )?(asteroids |python -m |python \S+\.py|mkdocs |cp |pipx )")
NOT_RUN = re.compile(r"^<!-- not run: .+ -->$")
TEST_LINE = "python -m pip install '.[test]' && python -m pytest"


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown page."""

    path: Path
    line: int
    lang: str
    body: tuple[str, ...]
    marked: bool

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^\s*(```+)(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        end = i + 1
        while not lines[end].strip().startswith(fence.group(1)):
            end += 1
        before = next((ln.strip() for ln in reversed(lines[:i]) if ln.strip()), "")
        out.append(Block(path, i + 1, fence.group(2), tuple(lines[i + 1:end]),
                         bool(NOT_RUN.match(before))))
        i = end + 1
    return out


def command_blocks() -> list[Block]:
    return [b for p in pages() for b in blocks(p)
            if b.lang in COMMAND_LANGS or (b.lang == "" and any(map(COMMAND_START.match, b.body)))]


def commands(block: Block) -> list[str]:
    """The command lines of a block: in a transcript (lines starting ``$ ``) only those, with
    their ``\\`` continuations; otherwise every line that starts like a command."""
    transcript = any(ln.lstrip().startswith("$ ") for ln in block.body)
    out: list[str] = []
    cont = False
    for raw in block.body:
        line = raw.strip()
        if cont:
            out[-1] = out[-1][:-1] + " " + line
        elif transcript and line.startswith("$ "):
            out.append(line[2:])
        elif not transcript and COMMAND_START.match(line):
            out.append(line)
        else:
            cont = False
            continue
        cont = out[-1].endswith("\\")
    return out


def _words(command: str) -> list[list[str]]:
    """A command line as its parts between ``&&``, each a word list, comments, redirections
    and the usage placeholders (``[--opt NAME]``, ``...``) left out."""
    command = re.sub(r"\s+#.*$", "", command)
    command = re.sub(r"\[[^\]']*\]", "", command)         # [--ruleset NAME], not '.[test]'
    parts = []
    for part in command.split("&&"):
        words = shlex.split(re.sub(r"\s[<>]\s*\S+", "", part))
        parts.append([w for w in words if w != "..."])
    return parts


def _module_exists(name: str) -> bool:
    """Whether ``python -m NAME`` has a module to run: a file of the checkout for our own
    packages (finding ``asteroids.env.evaluation`` by import would import ``asteroids.env``,
    which needs the [rl] extra), else an installed module."""
    parts = name.split(".")
    if parts[0] in ("asteroids", "benchmarks"):
        base = ROOT.joinpath(*parts)
        return base.with_suffix(".py").is_file() or (base / "__main__.py").is_file()
    return importlib.util.find_spec(name) is not None


def _extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project["optional-dependencies"])


def check(words: list[str]) -> str | None:
    """None if the command is known to work as written, else why not."""
    prog, *args = words
    if prog == "asteroids" or words[:3] == ["python", "-m", "asteroids"]:
        args = words[3:] if prog == "python" else args
        if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
            args = ["play", *args]
        if args[0] == "bench":
            module = ROOT / "benchmarks" / f"{args[1]}.py"
            return None if module.is_file() else f"no benchmark {module.name}"
        try:
            build_parser(bench=True).parse_args(args)
        except SystemExit as exc:
            return f"the CLI refuses it (exit {exc.code})"
        return None
    if words[:4] == ["python", "-m", "pip", "install"]:
        targets = [w for w in words[4:] if not w.startswith("-")]
        extras = {e for t in targets for e in re.findall(r"\.\[([\w,]+)\]", t)
                  for e in e.split(",")}
        unknown = extras - _extras()
        return f"no extra {sorted(unknown)} in pyproject.toml" if unknown else None
    if words[:3] == ["python", "-m", "pytest"]:
        missing = [w for w in words[3:] if "/" in w and not (ROOT / w.split("::")[0]).exists()]
        return f"no test path {missing}" if missing else None
    if prog == "python" and args[:1] == ["-m"]:
        return None if _module_exists(args[1]) else f"no module {args[1]}"
    if prog == "python" and args and args[0].endswith(".py"):
        return None if (ROOT / args[0]).is_file() else f"no script {args[0]}"
    if prog == "mkdocs":
        return None if (ROOT / "mkdocs.yml").is_file() else "no mkdocs.yml"
    if prog == "cp":
        return None if list(ROOT.glob(args[0])) else f"nothing matches {args[0]}"
    if prog == "pipx":
        return None
    return f"{prog}: not a command this test knows how to check"


def test_every_command_in_the_docs_is_checked_or_marked_not_run() -> None:
    problems = []
    checked = 0
    for block in command_blocks():
        lines = commands(block)
        if not lines and not block.marked:
            problems.append(f"{block.where()}: a {block.lang or 'plain'} block with no command "
                            "line: mark it <!-- not run: REASON -->")
        for line in lines:
            for words in _words(line):
                why = check(words)
                checked += 1
                if why:
                    problems.append(f"{block.where()}: {line!r}: {why}")
    assert not problems, "\n".join(problems)
    assert checked > 40


def test_the_checker_notices_a_stale_command() -> None:
    assert check(["asteroids", "play", "--no-such-option"])
    assert check(["asteroids", "verify", "--jobs", "two", "a.replay"])
    assert check(["python", "-m", "pip", "install", ".[nosuchextra]"])
    assert check(["python", "-m", "asteroids.no_such_module"])
    assert check(["asteroids", "bench", "no_such_bench"])
    assert check(["asteroids", "config", "check", "my.toml"]) is None


def test_no_page_is_over_600_lines() -> None:
    long = {p.relative_to(ROOT).as_posix(): n for p in DOCS.rglob("*.md")
            if p not in LONG_RECORDS
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_PAGE_LINES}
    assert not long, f"split these pages (at most {MAX_PAGE_LINES} lines): {long}"


def test_the_readme_is_short_with_the_two_commands_first() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md is {len(lines)} lines"
    play = text.index("python -m pip install . && asteroids")
    test = text.index(TEST_LINE)
    assert play < test < text.index("\n## ", text.index("\n## ") + 1), \
        "the install-and-play and install-and-test commands come first"
    assert any(ln.startswith(TEST_LINE) for ln in lines), ".ci/run reads this line"
    assert "python -m pytest -n 2 -m slow" in text
    assert "mkdocs build --strict" in text


def test_every_benchmark_page_names_its_command() -> None:
    bench = DOCS / "researchers" / "benchmarks"
    for page in sorted(bench.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert re.search(r"`(asteroids bench \w+|python -m benchmarks\.\w+)[^`]*`|"
                         r"^(asteroids bench|python -m benchmarks)", text, re.M), \
            f"{page.name}: name the command that produced its figures"
        tables = len(re.findall(r"^\|[-:| ]+\|$", text, re.M))
        assert tables == 0 or "Machine" in text or "machine" in text, \
            f"{page.name}: its figures need the machine they were measured on"


FIGURE_PAGES = (*sorted((DOCS / "researchers" / "benchmarks").glob("*.md")),
                DOCS / "batch-measurements.md")
"""The pages whose tables are measurements: each table's section names its command."""
BENCH_COMMAND = re.compile(
    r"asteroids bench \w+|python -m benchmarks\.\w+|asteroids (balance|verify)")


def tables(path: Path) -> list[tuple[int, str]]:
    """Each Markdown table outside code blocks: (line of its header, the text of its section
    from the heading before it to three lines after the table)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    inside = set()
    for block in blocks(path):
        inside.update(range(block.line - 1, block.line + len(block.body) + 1))
    out = []
    for i, line in enumerate(lines):
        if i in inside or not re.match(r"^\|[-:| ]+\|$", line.strip()):
            continue
        start = max((j for j in range(i) if j not in inside and lines[j].startswith("#")),
                    default=0)
        end = i
        while end < len(lines) and lines[end].strip().startswith("|"):
            end += 1
        out.append((i + 1, "\n".join(lines[start:end + 3])))
    return out


def test_every_benchmark_table_names_its_command() -> None:
    """Per table: its section names the command, or an option of the command the page names
    in its first paragraphs (``--kernels`` under ``python -m benchmarks.batch_spike``)."""
    problems = []
    for page in FIGURE_PAGES:
        head = "\n".join(page.read_text(encoding="utf-8").splitlines()[:30])
        page_command = BENCH_COMMAND.search(head)
        for line, section in tables(page):
            if BENCH_COMMAND.search(section):
                continue
            if page_command and re.search(r"`--[\w-]+", section):
                continue
            problems.append(f"{page.relative_to(ROOT)}:{line}: a table whose section names no "
                            "command (asteroids bench NAME, python -m benchmarks.NAME)")
    assert not problems, "\n".join(problems)


def test_the_batch_throughput_csv_is_the_pages_table() -> None:
    """The picture ``python -m benchmarks.batch_plot`` draws reads the CSV; the page shows the
    table: both must hold the same numbers."""
    from benchmarks.batch_plot import CSV, read_rows

    page = DOCS / "researchers" / "benchmarks" / "games-per-second.md"
    table = []
    for line in page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and (m := re.fullmatch(r"\**([\d ]+) ([\w/-]+)\**", cells[2])):
            table.append((cells[0], cells[1], int(m.group(1).replace(" ", "")), m.group(2)))
    rows = read_rows(CSV)
    assert table == [(e, i, rate, unit) for e, i, _, rate, unit in rows], \
        f"{page.name}'s table and {CSV.name} differ: update both, then run " \
        "python -m benchmarks.batch_plot docs/img/batch-throughput.png"
    for engine, _, batch, _, _ in rows:
        m = re.search(r"B = ([\d ]+)$", engine)
        assert batch == (int(m.group(1).replace(" ", "")) if m else None), engine


def test_the_configuration_reference_is_what_the_schema_writes() -> None:
    folder = DOCS / "modders" / "reference"
    want = reference_pages()
    have = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.md")}
    stale = sorted(n for n in want.keys() | have.keys() if want.get(n) != have.get(n))
    assert not stale, (f"{stale} differ from the schema: run "
                       "python -m asteroids.config.reference docs/modders/reference")


def test_every_page_is_in_the_nav_or_a_listed_record() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"[\w/.-]+\.md", nav))
    missing = [p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")
               if p.relative_to(DOCS).as_posix() not in listed and p not in LONG_RECORDS]
    assert not missing, f"add these pages to mkdocs.yml's nav: {missing}"


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="mkdocs is not installed (python -m pip install '.[docs]')")
def test_the_site_builds(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=240, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
