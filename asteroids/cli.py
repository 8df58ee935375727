"""Command line: ``asteroids [play|config|...]``. Placeholder until the CLI lands."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    print("asteroids: work in progress")
    return 0
