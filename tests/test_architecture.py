"""The core stays pure: no arcade, pyglet, clock or global chance, and no call that can give
different bits on another machine. These checks fail the build when the rule is broken."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "asteroids" / "core"

ALLOWED_MODULES = {
    "__future__", "dataclasses", "enum", "typing", "collections", "math", "struct",
    "hashlib", "functools", "difflib", "numpy", "asteroids", "types",
}
"""Top-level modules the core may import (stdlib maths/data, numpy, the game itself)."""

ALLOWED_FIRST_PARTY = ("asteroids.core", "asteroids.config.schema", "asteroids.config.declare",
                       "asteroids.config.knobs")
"""The core's first-party imports: itself and the schema's declarations (pure data)."""

BANNED_NUMPY = {
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "exp", "exp2", "expm1",
    "log", "log2", "log10", "log1p", "power", "float_power", "hypot", "sum", "nansum",
    "mean", "average", "dot", "vdot", "inner", "matmul", "einsum", "linalg", "random",
    "cumprod", "prod", "std", "var", "tensordot",
}
"""numpy functions whose results can change with CPU dispatch, BLAS or numpy version."""

BANNED_MATH = {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "exp", "log", "log2",
               "log10", "pow", "hypot", "fsum", "prod", "dist"}
BANNED_METHODS = {"sum", "mean", "dot", "prod", "std", "var", "cumprod"}


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def import_violations(source: str, name: str = "<core>") -> list[str]:
    """Imports in ``source`` that the core may not have."""
    bad = []
    for line, module in _imports(ast.parse(source)):
        top = module.split(".")[0]
        if top not in ALLOWED_MODULES:
            bad.append(f"{name}:{line}: imports {module}")
        elif top == "asteroids" and not module.startswith(ALLOWED_FIRST_PARTY):
            bad.append(f"{name}:{line}: imports {module} (core may use asteroids.core only)")
        elif module.startswith("numpy.random"):
            bad.append(f"{name}:{line}: imports {module}")
    return bad


def call_violations(source: str, name: str = "<core>") -> list[str]:
    """Calls and operators in ``source`` that break bit-exact determinism."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.MatMult)):
            bad.append(f"{name}:{node.lineno}: operator {type(node.op).__name__}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in ("np", "numpy") and node.attr in BANNED_NUMPY:
                bad.append(f"{name}:{node.lineno}: np.{node.attr}")
            elif node.value.id == "math" and node.attr in BANNED_MATH:
                bad.append(f"{name}:{node.lineno}: math.{node.attr}")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("sum", "set", "frozenset", "hash"):
                bad.append(f"{name}:{node.lineno}: builtin {func.id}()")
            elif isinstance(func, ast.Attribute) and func.attr in BANNED_METHODS and not (
                isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy")
            ):
                bad.append(f"{name}:{node.lineno}: .{func.attr}() reduction")
        elif isinstance(node, (ast.Set, ast.SetComp)):
            bad.append(f"{name}:{node.lineno}: set (iteration order is not stable)")
    return bad


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_import_violations(source: str, name: str = "<module>") -> list[str]:
    """Uses of another asteroids module's ``_private`` names in ``source``.

    Caught: ``from asteroids.x import _name`` (and relative imports), and ``mod._name`` where
    ``mod`` was imported from the asteroids package (``from asteroids.core import geometry``,
    ``import asteroids.core.geometry as g``). A name shared between modules is public in the
    module that owns it (documented), so a refactor of one module cannot silently break another.
    """
    tree = ast.parse(source)
    bad = []
    modules: set[str] = set()  # local names bound to asteroids modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            ours = node.level > 0 or (node.module or "").split(".")[0] == "asteroids"
            if not ours:
                continue
            for alias in node.names:
                if _is_private(alias.name):
                    bad.append(f"{name}:{node.lineno}: imports {alias.name} from "
                               f"{'.' * node.level}{node.module or ''}")
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "asteroids":
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):  # asteroids.core.geometry._x
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                bad.append(f"{name}:{node.lineno}: uses {ast.unparse(node)}")
    return bad


def package_files() -> list[Path]:
    return sorted((ROOT / "asteroids").rglob("*.py"))


@pytest.mark.parametrize("path", package_files(),
                         ids=lambda p: p.relative_to(ROOT / "asteroids").as_posix())
def test_no_module_uses_another_modules_private_names(path: Path) -> None:
    assert private_import_violations(path.read_text(), path.name) == []


@pytest.mark.parametrize("source", [
    "from asteroids.core.geometry import _edge_rows",
    "from asteroids.core.geometry import EPS, _inside_rows as inside",
    "from .geometry import _orientation_ccw",
    "from asteroids.core import geometry\ny = geometry._edge_rows(o, b)",
    "import asteroids.core.geometry as g\ny = g._inside_rows",
    "import asteroids.core.geometry\ny = asteroids.core.geometry._edge_rows",
])
def test_private_import_checker_catches_private_names(source: str) -> None:
    assert private_import_violations(source)


@pytest.mark.parametrize("source", [
    "from asteroids.core.geometry import edge_rows, EPS",
    "from __future__ import annotations",
    "from asteroids.core import geometry\ny = geometry.edge_rows; z = geometry.__name__",
    "import numpy as np\ny = np._NoValue",
    "class A:\n    def f(self):\n        return self._x",
])
def test_private_import_checker_allows_public_names(source: str) -> None:
    assert private_import_violations(source) == []


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_imports_only_pure_modules(path: Path) -> None:
    assert import_violations(path.read_text(), path.name) == []


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_has_no_nondeterministic_calls(path: Path) -> None:
    assert call_violations(path.read_text(), path.name) == []


@pytest.mark.parametrize("source", [
    "import arcade", "from pyglet import gl", "import random", "from time import time",
    "import numpy.random", "from asteroids.app import window", "import os",
])
def test_import_checker_catches_forbidden_imports(source: str) -> None:
    assert import_violations(source)


@pytest.mark.parametrize("source", [
    "y = np.sin(x)", "y = np.sum(x)", "y = x ** 2", "y = a @ b", "y = sum(xs)",
    "y = x.sum()", "y = math.atan2(a, b)", "s = {1, 2}", "y = np.linalg.norm(x)",
])
def test_call_checker_catches_forbidden_calls(source: str) -> None:
    assert call_violations(source)


def test_core_imports_without_arcade_or_pyglet() -> None:
    """Importing the whole core in a fresh interpreter loads neither arcade nor pyglet."""
    code = (
        "import sys, asteroids.core, asteroids.core.simulation, asteroids.core.shots, "
        "asteroids.core.contacts, asteroids.core.overlap; "
        "bad = [m for m in ('arcade', 'pyglet') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent /
                    "ruff").exists(), reason="ruff is not installed")
def test_ruff_bans_arcade_in_core(tmp_path: Path) -> None:
    """The ruff rule (asteroids/core/ruff.toml) flags arcade in the core, not in the app."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    (tmp_path / "asteroids" / "core").mkdir(parents=True)
    (tmp_path / "asteroids" / "app").mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy(CORE / "ruff.toml", tmp_path / "asteroids" / "core" / "ruff.toml")
    bad = "import arcade\nimport numpy.random\n\nprint(arcade, numpy.random)\n"
    (tmp_path / "asteroids" / "core" / "probe.py").write_text(bad)
    (tmp_path / "asteroids" / "app" / "probe.py").write_text(bad)
    done = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise",
                           "--select", "TID251", "."],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode != 0
    flagged = [line for line in done.stdout.splitlines() if "TID251" in line]
    in_core = ("asteroids/core", "asteroids\\core")
    core_lines = [line for line in flagged if line.startswith(in_core)]
    assert any("arcade" in line for line in core_lines), done.stdout
    assert any("numpy.random" in line for line in flagged), done.stdout
    assert not any(line.startswith(("asteroids/app", "asteroids\\app")) for line in flagged)


APP = ROOT / "asteroids" / "app"


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, counting every import anywhere in the file
    (top level, inside functions, under ``if TYPE_CHECKING``), relative ones included.

    ``from pkg import name`` imports the module ``pkg.name`` when there is one, else ``pkg``
    itself (for a name its ``__init__`` defines). The parent packages Python runs first are
    not counted: every module of a package has them, and a package's ``__init__`` that
    gathers its modules' names would otherwise be in a cycle with each of them."""
    graph: dict[str, set[str]] = {name: set() for name in sources}
    is_package = {name: any(other.startswith(name + ".") for other in sources)
                  for name in sources}
    for name, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name if is_package.get(name) else name.rsplit(".", 1)[0]
                    parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{parent}.{base}" if base else parent
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources
                           else base for alias in node.names]
            for target in targets:
                if target in sources and target != name:
                    graph[name].add(target)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def package_sources(root: Path = ROOT / "asteroids") -> dict[str, str]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path.read_text()
    return out


def test_no_import_cycle_anywhere_in_the_package() -> None:
    """No two modules of the package import each other, directly or round a loop, counting
    imports inside functions and under ``TYPE_CHECKING``: every package (core, replay, config,
    profile, lab, app) reads one way."""
    sources = package_sources()
    graph = import_graph(sources)
    assert graph["asteroids.replay.verify"] and graph["asteroids.core.simulation"]
    assert "asteroids.core.play" in graph["asteroids.replay.verify"]
    assert import_cycles(graph) == []


def test_cycle_check_follows_imports_of_modules_and_of_package_names() -> None:
    """``from pkg import mod`` is an import of the module; ``from pkg import name`` (a name
    the package's ``__init__`` defines) one of the package; relative imports in a package's
    ``__init__`` start from the package itself."""
    sources = {
        "asteroids.core": "from asteroids.core.sim import step\n",
        "asteroids.core.sim": "from asteroids.core import events\n",
        "asteroids.core.events": "",
        "asteroids.replay": "from .verify import check\n",
        "asteroids.replay.verify": "from asteroids.core import step\n",
    }
    graph = import_graph(sources)
    assert graph["asteroids.core.sim"] == {"asteroids.core.events"}
    assert graph["asteroids.replay"] == {"asteroids.replay.verify"}
    assert graph["asteroids.replay.verify"] == {"asteroids.core"}
    assert import_cycles(graph) == []
    sources["asteroids.core.events"] = "def f():\n    from asteroids.replay import verify\n"
    assert import_cycles(import_graph(sources)) == [[
        "asteroids.core", "asteroids.core.events", "asteroids.core.sim",
        "asteroids.replay.verify"]]


def app_sources() -> dict[str, str]:
    return {f"asteroids.app.{p.stem}" if p.stem != "__init__" else "asteroids.app":
            p.read_text() for p in sorted(APP.glob("*.py"))}


def test_app_modules_import_each_other_one_way_only() -> None:
    """No cycle among asteroids/app modules, even through lazy or TYPE_CHECKING imports."""
    graph = import_graph(app_sources())
    assert "asteroids.app.game" in graph and graph["asteroids.app.router"]  # the scan sees them
    assert import_cycles(graph) == []


SCREENS = {"title_view", "play_view", "game_over_view", "initials", "replay_view",
           "options_overlay"}
"""The screens and overlays (issue 22): the router makes them; they never import each other,
but for the ones built on another (``SCREEN_BASES``)."""

SCREEN_BASES = {
    "title_view": {"options_overlay"},              # the overlays it opens
    "play_view": {"options_overlay"},
}

SERVICES = {"game", "screen", "rules_service", "profile_service", "audio_service",
            "live_service", "screens", "keymap"}
"""The shell's services and what the screens share: they import no screen."""


def test_screens_reach_each_other_only_through_the_router() -> None:
    graph = import_graph(app_sources())
    short = {name.rsplit(".", 1)[-1]: {t.rsplit(".", 1)[-1] for t in targets}
             for name, targets in graph.items()}
    assert SCREENS <= set(short) and SERVICES <= set(short)
    for screen in SCREENS:
        assert short[screen] & SCREENS <= SCREEN_BASES.get(screen, set()), screen
    for service in SERVICES:
        assert not short[service] & (SCREENS | {"router", "window", "world_view"}), service
    assert SCREENS - {"options_overlay"} <= short["router"]


def test_cycle_check_sees_lazy_and_type_checking_imports() -> None:
    """The window/views cycle as it used to be (a function-level import one way, a
    TYPE_CHECKING import the other) is found; so are relative and ``from pkg import mod``."""
    old = {
        "asteroids.app.window": "def show():\n    from asteroids.app.views import TitleView\n",
        "asteroids.app.views": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                               "    from asteroids.app.window import Game\n",
        "asteroids.app.hud": "import arcade\n",
    }
    assert import_cycles(import_graph(old)) == [["asteroids.app.views",
                                                     "asteroids.app.window"]]
    relative = {"asteroids.app.a": "from . import b\n", "asteroids.app.b": "from .c import x\n",
                "asteroids.app.c": "from asteroids.app import a\n"}
    assert import_cycles(import_graph(relative)) == [
        ["asteroids.app.a", "asteroids.app.b", "asteroids.app.c"]]
    one_way = {"asteroids.app.a": "from asteroids.app.b import x\n", "asteroids.app.b": ""}
    assert import_cycles(import_graph(one_way)) == []


# --- no process-wide state in the core ------------------------------------------------------


def _immutable(value: object, seen: set[int] | None = None) -> bool:
    """Whether a module-level value can never change: plain values, read-only arrays and
    mappings, frozen tuples of them, functions, classes, modules and enum members."""
    import enum
    import types

    import numpy as np

    seen = set() if seen is None else seen
    if id(value) in seen:
        return True
    seen.add(id(value))
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, range,
                                           enum.Enum, np.dtype, np.generic)):
        return True
    if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                          types.WrapperDescriptorType, types.MethodWrapperType, type,
                          types.GenericAlias, types.UnionType)):
        return True
    if isinstance(value, np.ndarray):
        return not value.flags.writeable
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(v, seen) for v in value)
    if isinstance(value, types.MappingProxyType):
        return all(_immutable(v, seen) for v in value.values())
    params = getattr(type(value), "__dataclass_params__", None)
    if params is not None and not isinstance(value, type):
        return params.frozen and all(_immutable(getattr(value, f), seen)
                                     for f in type(value).__dataclass_fields__)
    return type(value).__module__ in ("__future__", "typing")


def core_module_names() -> list[str]:
    return sorted(
        "asteroids.core" + ("." + ".".join(p.relative_to(CORE).with_suffix("").parts)
                            if p.stem != "__init__" else
                            ("." + ".".join(p.parent.relative_to(CORE).parts)
                             if p.parent != CORE else ""))
        for p in core_files())


@pytest.mark.parametrize("name", core_module_names())
def test_core_module_holds_no_state_between_calls(name: str) -> None:
    """Nothing at module level in the core can change after import: no caches (``global``,
    ``functools`` caches, lists or dicts filled as games run), only constants and tables built
    once at import (read-only arrays, tuples, read-only mappings). So no game can see another's
    leftovers, and nothing needs a test that it invalidates."""
    import importlib

    module = importlib.import_module(name)
    source = Path(module.__file__).read_text()
    tree = ast.parse(source)
    assert not [n.lineno for n in ast.walk(tree) if isinstance(n, (ast.Global, ast.Nonlocal))]
    cached = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute | ast.Name)
              and (n.attr if isinstance(n, ast.Attribute) else n.id)
              in ("lru_cache", "cache", "cached_property")]
    assert cached == [], f"{name}: functools caches at lines {cached}"
    own = {k: v for k, v in vars(module).items() if not k.startswith("__")
           and not (callable(v) and getattr(v, "__module__", name) != name)}  # imported
    mutable = sorted(k for k, v in own.items() if not _immutable(v))
    assert mutable == [], f"{name}: module-level state {mutable}"


@pytest.mark.parametrize("source", [
    "import functools\n@functools.lru_cache\ndef f(x):\n    return x\n",
    "_last = []\ndef f(x):\n    global _last\n    _last = [x]\n",
])
def test_state_checker_sees_caches_in_the_source(source: str) -> None:
    tree = ast.parse(source)
    found = [n for n in ast.walk(tree) if isinstance(n, (ast.Global, ast.Nonlocal))
             or (isinstance(n, ast.Attribute) and n.attr == "lru_cache")]
    assert found


def test_state_checker_sees_mutable_module_values() -> None:
    import types

    import numpy as np

    frozen = np.zeros(3)
    frozen.flags.writeable = False
    assert _immutable((1, "a", frozen, types.MappingProxyType({"k": (2.0,)})))
    assert not _immutable([])
    assert not _immutable({"k": 1})
    assert not _immutable(np.zeros(3))
    assert not _immutable((frozen, [1]))
    assert not _immutable(types.MappingProxyType({"k": []}))
    from asteroids.core.bodies import Contact
    from asteroids.core.craft import Craft
    from asteroids.core.kinds import Cause, Kind

    assert _immutable(Contact(Kind.SHIP, Kind.ROCK, Cause.ROCK, Cause.SHIP))
    assert not _immutable(Craft(Kind.SHIP, 0.0, 0.0, 0.0, 0.0, 1.0, lambda: frozen))
