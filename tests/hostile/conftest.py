"""Every test under tests/hostile carries the ``hostile`` mark (``pytest -m hostile`` runs the
suite alone); it needs POSIX (named pipes, ``RLIMIT_AS``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.hostile)
            if sys.platform == "win32":
                item.add_marker(pytest.mark.skip(reason="needs POSIX: pipes, RLIMIT_AS"))
