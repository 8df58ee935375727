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
    "hashlib", "functools", "difflib", "numpy", "asteroids",
}
"""Top-level modules the core may import (stdlib maths/data, numpy, the game itself)."""

ALLOWED_FIRST_PARTY = ("asteroids.core", "asteroids.config.schema")

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
        "import sys, asteroids.core, asteroids.core.simulation, asteroids.core.collision; "
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
