"""Distribution plots of a balance run (matplotlib, from the optional ``[lab]`` extra).

One PNG with four panels, a column per side: score and survival time as box plots with
every game drawn as a dot, waves cleared as a box plot, and deaths per game by cause as
stacked bars; with survival curves in the document (scipy), two more: each side's
Kaplan-Meier curve with its 95 % band, and its hazard (ships lost per minute) by game time.
The file is written atomically.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from asteroids.storage import atomic_write

__all__ = ["MATPLOTLIB_MISSING", "PlotUnavailable", "require_matplotlib", "save_plot"]

MATPLOTLIB_MISSING = (
    "--plot needs matplotlib, which comes with the optional [lab] extra: "
    "python -m pip install 'asteroids[lab]' (from a source checkout: "
    "python -m pip install '.[lab]'). Everything else balance does works without it; "
    "--json FILE keeps every game's numbers for plotting elsewhere."
)


class PlotUnavailable(Exception):
    """matplotlib is not installed; ``str()`` says how to install it."""


def require_matplotlib() -> None:
    """Check that matplotlib can be imported (before any game runs).

    Raises:
        PlotUnavailable: with the install hint.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotUnavailable(MATPLOTLIB_MISSING) from None


def save_plot(doc: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Draw the distributions of a balance document (``report.build_document``) to a PNG.

    Raises:
        PlotUnavailable: without matplotlib.
        OSError: when the file cannot be written.
    """
    require_matplotlib()
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    from asteroids.lab.game import DEATH_CAUSES

    sides = doc["sides"]
    names = [s["name"] for s in sides]
    survival = all("survival" in s for s in sides)
    rows = 3 if survival else 2
    fig = Figure(figsize=(4.0 + 1.2 * len(sides), 4.0 * rows), layout="constrained")
    axes = fig.subplots(rows, 2)
    if survival:
        _survival_panels(axes[2][0], axes[2][1], sides)
    panels = ((axes[0][0], "score", "score"), (axes[0][1], "survival_s", "survival time (s)"),
              (axes[1][0], "waves_cleared", "waves cleared"))
    for ax, key, title in panels:
        data = [[g[key] for g in s["games"]] for s in sides]
        ax.boxplot(data, tick_labels=names, showfliers=False)
        for i, values in enumerate(data, start=1):
            # A fixed, even spread instead of random jitter: the picture is reproducible.
            n = len(values)
            xs = [i - 0.2 + 0.4 * (k + 0.5) / n for k in range(n)]
            ax.plot(xs, values, "o", markersize=2.5, alpha=0.5, color="tab:blue")
        ax.set_title(title)
    ax = axes[1][1]
    bottom = [0.0] * len(sides)
    for cause in DEATH_CAUSES:
        heights = [s["summary"]["deaths_per_game"][cause] for s in sides]
        ax.bar(names, heights, bottom=bottom, label=cause)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    ax.set_title("deaths per game by cause")
    ax.legend(fontsize="small")
    first, last = doc["seeds"]
    fig.suptitle(f"bot {doc['bot']}, {doc['games_per_side']} games per side, seeds "
                 f"{first}..{last}: " + "; ".join(f"{s['name']} = {s['label']}" for s in sides),
                 fontsize="small", wrap=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return atomic_write(path, buffer.getvalue())


def _survival_panels(curves: Any, hazard: Any, sides: list[dict[str, Any]]) -> None:
    """Each side's survival curve with its band, and its hazard by game time."""
    for side in sides:
        km = side["survival"]["kaplan_meier"]
        cap = side["max_ticks"] / side["tick_hz"]
        times = [0.0, *km["times"], cap]
        surv = [1.0, *km["survival"], km["survival"][-1] if km["survival"] else 1.0]
        low = [1.0, *km["low"], km["low"][-1] if km["low"] else 1.0]
        high = [1.0, *km["high"], km["high"][-1] if km["high"] else 1.0]
        line = curves.step(times, surv, where="post", label=f"{side['name']}: "
                           f"{side.get('pilot') or side['label']}")[0]
        curves.fill_between(times, low, high, step="post", alpha=0.2, color=line.get_color())
        bins = side["survival"]["hazard_by_time"]
        xs = [0.5 * (b["from_s"] + b["to_s"]) for b in bins if b["per_min"] is not None]
        ys = [b["per_min"] for b in bins if b["per_min"] is not None]
        hazard.plot(xs, ys, "o-", color=line.get_color(), label=side["name"])
    curves.set_title("survival (Kaplan-Meier, 95% band)")
    curves.set_xlabel("game time (s)")
    curves.set_ylim(0.0, 1.02)
    curves.legend(fontsize="small")
    hazard.set_title("hazard: ships lost per minute")
    hazard.set_xlabel("game time (s)")
    hazard.legend(fontsize="small")
