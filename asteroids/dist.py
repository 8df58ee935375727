"""Build a one-file desktop executable of the game with PyInstaller: ``python -m asteroids.dist``.

The executable carries Python, numpy, arcade (its own PyInstaller hook collects its resources)
and the package's data (presets, sounds and demo replays), so a player needs no Python. It is
built for the platform it runs on. Needs the ``dist`` extra: ``pip install '.[dist]'``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["build", "main"]

_ENTRY = "import sys\nfrom asteroids.cli import main\nsys.exit(main())\n"

def _arcade_hook() -> str:
    """arcade's own PyInstaller hook, with its VERSION file put where arcade reads it.

    arcade 3.3's hook bundles the file VERSION as a folder named VERSION, so the frozen game
    logs "Unable to load version number". The copy (given with --additional-hooks-dir, which
    takes precedence over the hook arcade registers) differs only in that destination.
    """
    spec = importlib.util.find_spec("arcade.__pyinstaller")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("arcade is not installed, or ships no PyInstaller hook")
    hook = Path(next(iter(spec.submodule_search_locations))) / "hook-arcade.py"
    return hook.read_text().replace('"./arcade/VERSION"', '"./arcade"')


def build(out_dir: Path, *, name: str = "asteroids") -> Path:
    """Build the one-file executable into ``out_dir`` and return its path.

    Raises:
        RuntimeError: if PyInstaller is not installed (with the command that installs it).
    """
    if importlib.util.find_spec("PyInstaller") is None:
        raise RuntimeError("PyInstaller is not installed; install the build extra with "
                           "`python -m pip install '.[dist]'` (or `pip install pyinstaller`)")
    import PyInstaller.__main__

    out_dir = out_dir.resolve()
    with tempfile.TemporaryDirectory(prefix="asteroids-dist-") as tmp:
        entry = Path(tmp) / "asteroids_main.py"
        entry.write_text(_ENTRY)
        hooks = Path(tmp) / "hooks"
        hooks.mkdir()
        (hooks / "hook-arcade.py").write_text(_arcade_hook())
        PyInstaller.__main__.run([
            str(entry), "--onefile", "--name", name, "--noconfirm", "--clean",
            "--log-level", "WARN",
            "--distpath", str(out_dir), "--workpath", str(Path(tmp) / "build"),
            "--specpath", tmp,
            "--collect-data", "asteroids",
            "--additional-hooks-dir", str(hooks),
            # Imported lazily by the CLI, so PyInstaller's scan would miss them.
            "--collect-submodules", "asteroids",
        ])
    exe = out_dir / (name + (".exe" if sys.platform == "win32" else ""))
    if not exe.is_file():
        raise RuntimeError(f"PyInstaller finished but {exe} was not written")
    return exe


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m asteroids.dist [--out DIR]``; prints the executable's path."""
    parser = argparse.ArgumentParser(prog="python -m asteroids.dist", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("dist"),
                        help="folder for the executable (default: ./dist)")
    args = parser.parse_args(argv)
    try:
        exe = build(args.out)
    except RuntimeError as exc:
        print(f"asteroids.dist: {exc}", file=sys.stderr)
        return 2
    size_mb = exe.stat().st_size / 1e6
    print(f"asteroids.dist: built {exe} ({size_mb:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
