"""The games-per-second table as a picture.

``python -m benchmarks.batch_plot docs/img/batch-throughput.png`` reads the committed numbers of
``asteroids bench batch`` (``benchmarks/batch.py``) from
``docs/researchers/benchmarks/batch-throughput.csv``, the same numbers as the table on
``docs/researchers/benchmarks/games-per-second.md`` (``tests/test_docs.py`` checks that they
agree), and draws game-ticks per second against the batch size B for the idle games and the
batched aimer, with the one-game rates and ALE's Asteroids-v5 as reference lines. It measures
nothing: after a new benchmark run, update the table and the CSV, then run this again.
Needs matplotlib (the ``[lab]`` extra).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

__all__ = ["CSV", "Row", "main", "read_rows", "save_plot"]

CSV = Path(__file__).resolve().parent.parent / "docs/researchers/benchmarks/batch-throughput.csv"
"""The committed figures: engine, inputs, batch (B, empty for a one-game engine), rate, unit."""

Row = tuple[str, str, int | None, int, str]
"""One row of the CSV: (engine, inputs, B or None, rate, unit)."""


def read_rows(path: Path = CSV) -> list[Row]:
    """The CSV's rows, typed.

    Args:
        path: the CSV file.

    Returns:
        (engine, inputs, B or None, rate, unit) per row, in file order.
    """
    with open(path, encoding="utf-8", newline="") as f:
        return [(r["engine"], r["inputs"], int(r["batch"]) if r["batch"] else None,
                 int(r["rate"]), r["unit"]) for r in csv.DictReader(f)]


def save_plot(rows: list[Row], path: Path) -> None:
    """Draw the rates against B on log-log axes and write a PNG.

    Args:
        rows: from ``read_rows``.
        path: the PNG to write.
    """
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    fig = Figure(figsize=(7.0, 4.4), layout="constrained")
    ax = fig.subplots()
    series = (("idle", "idle", "tab:blue"),
              ("the batched aimer deciding", "the batched aimer deciding", "tab:orange"))
    for inputs, label, colour in series:
        points = sorted((b, rate) for _, i, b, rate, _ in rows if i == inputs and b)
        xs, ys = zip(*points, strict=True)
        ax.plot(xs, ys, "o-", color=colour, label=f"batched, {label}")
        for x, y in points:
            ax.annotate(_spaced(y), (x, y), textcoords="offset points",
                        xytext=(4, -12), fontsize="x-small", color=colour)
    one_game = {"idle": "tab:blue", "the aimer deciding (its cost included)": "tab:orange"}
    for engine, inputs, b, rate, _ in rows:
        if b is None and inputs in one_game:
            ax.axhline(rate, color=one_game[inputs], linestyle=":", linewidth=1,
                       label=f"one game at a time, {inputs.split(' (')[0]}")
        elif engine.startswith("ALE"):
            ax.axhline(rate, color="black", linestyle="--", linewidth=1,
                       label=f"ALE Asteroids-v5 (C++), {_spaced(rate)} frames/s")
    ax.set_xscale("log", base=2)
    sizes = sorted({b for _, _, b, _, _ in rows if b})
    ax.set_xticks(sizes, [_spaced(b) for b in sizes])
    ax.set_xlim(sizes[0] / 2, sizes[-1] * 3)
    ax.set_yscale("log")
    ax.set_xlabel("games in the batch, B")
    ax.set_ylabel("game-ticks per second, one core")
    ax.set_title("classic rules, one core of the 2-vCPU test VM (asteroids bench batch)",
                 fontsize="small")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper left")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    path.write_bytes(buffer.getvalue())


def _spaced(n: int) -> str:
    """``428885`` -> ``"428 885"``, as the docs write numbers."""
    return f"{n:,}".replace(",", " ")


def main(argv: list[str] | None = None) -> int:
    """Command line: the PNG to write, and optionally another CSV."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch_plot",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("png", type=Path, help="the picture to write")
    parser.add_argument("--csv", type=Path, default=CSV, help=f"the figures (default {CSV.name})")
    args = parser.parse_args(argv)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("batch_plot needs matplotlib: python -m pip install '.[lab]'", file=sys.stderr)
        return 2
    save_plot(read_rows(args.csv), args.png)
    print(f"wrote {args.png}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
