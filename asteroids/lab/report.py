"""The balance report: one JSON-ready document per run, and its text table.

The document holds the inputs (sides, bot, seeds, caps), every game's result, each side's
summary and each comparison with the first side. It has no wall times, engine or worker
counts in it, so the same run gives the same document on any engine and any ``--jobs``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from asteroids.lab.game import DEATH_CAUSES
from asteroids.lab.run import BalanceRun
from asteroids.lab.stats import CONFIDENCE, METRICS, RESAMPLES, compare, summarize, verdict
from asteroids.replay.format import rules_fingerprint

__all__ = ["FORMAT", "build_document", "render_json", "render_text"]

FORMAT = "asteroids-balance/1"
"""The document's ``format`` field; bumped when a field changes meaning."""

CAP_NOTE_SHARE = 0.5
"""A side with at least this share of games still going at the cap gets a note."""


def build_document(run: BalanceRun, *, resamples: int = RESAMPLES) -> dict[str, Any]:
    """Everything about ``run``: inputs, per-game results, summaries and comparisons."""
    sides = []
    for s, side in enumerate(run.sides):
        games = []
        for i, result in enumerate(run.results[s]):
            entry = result.as_dict()
            if (s, i) in run.replays:
                entry["replay"] = run.replays[(s, i)]
            games.append(entry)
        sides.append({
            "name": side.name, "label": side.label, "config": list(side.sources),
            "overrides": list(side.overrides),
            "rules_fingerprint": rules_fingerprint(side.config),
            "tick_hz": float(side.config.world.tick_hz), "max_ticks": side.max_ticks,
            "summary": summarize(run.results[s]), "games": games,
        })
    comparisons = []
    base = run.results[0]
    for s in range(1, len(run.sides)):
        intervals = compare(base, run.results[s], seed=run.seed, side=s, resamples=resamples)
        capped = all(not g.game_over for g in (*base, *run.results[s]))
        word, why = verdict(intervals, all_at_cap=capped)
        comparisons.append({
            "side": run.sides[s].name, "against": run.sides[0].name,
            "metrics": {k: v.as_dict() for k, v in intervals.items()},
            "verdict": word, "why": why,
        })
    return {
        "format": FORMAT, "bot": run.bot, "games_per_side": run.games, "seed": run.seed,
        "seeds": [run.seed, run.seed + run.games - 1],
        "bootstrap": {"paired": True, "statistic": "mean difference (shots per kill: ratio "
                      "of sums)", "resamples": resamples, "confidence": CONFIDENCE},
        "sides": sides, "comparisons": comparisons,
    }


def render_json(doc: dict[str, Any]) -> str:
    """The document as indented JSON text (no NaN: undefined numbers are null)."""
    return json.dumps(doc, indent=1, allow_nan=False) + "\n"


def _f(x: float | None, digits: int, signed: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:{'+' if signed else ''},.{digits}f}"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[c]) for r in rows if c < len(r)) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [v.rjust(widths[c + 1]) for c, v in enumerate(r[1:])]
        out.append("   ".join(cells).rstrip())
    return out


_DIGITS = {"score": 0, "survival_s": 1, "waves_cleared": 2, "deaths": 2, "shots_per_kill": 2,
           "extra_lives": 2}


def render_text(doc: dict[str, Any]) -> str:
    """The report for a terminal: the sides' legend, their numbers side by side, and each
    side's differences against the first with intervals and the verdict."""
    sides = doc["sides"]
    first, last = doc["seeds"]
    lines = [f"asteroids balance: bot {doc['bot']}, {doc['games_per_side']} games per side "
             f"(seeds {first}..{last}, the same on every side)"]
    for side in sides:
        cap_s = side["max_ticks"] / side["tick_hz"]
        lines.append(f"  {side['name']}: {side['label']}  (to game over or {side['max_ticks']} "
                     f"ticks = {cap_s:g} s)")
    lines.append("")
    sums = [side["summary"] for side in sides]
    rows = [[""] + [side["name"] for side in sides]]
    rows.append(["games over / at the cap"] + [f"{s['game_over']} / {s['at_cap']}" for s in sums])
    for key, label, digits in (("score", "score", 0), ("survival_s", "survival s", 1)):
        rows.append([f"{label} median"] + [_f(s[key]["median"], digits) for s in sums])
        rows.append([f"{label} p10 .. p90"]
                    + [f"{_f(s[key]['p10'], digits)} .. {_f(s[key]['p90'], digits)}"
                       for s in sums])
    rows.append(["waves cleared (mean)"] + [_f(s["waves_cleared"]["mean"], 2) for s in sums])
    rows.append(["deaths per game"] + [_f(s["deaths_mean"], 2) for s in sums])
    for cause in DEATH_CAUSES:
        rows.append([f"  {cause}"] + [_f(s["deaths_per_game"][cause], 2) for s in sums])
    rows.append(["shots per kill"] + [_f(s["shots_per_kill"], 2) for s in sums])
    rows.append(["extra lives per game"] + [_f(s["extra_lives_mean"], 2) for s in sums])
    lines += _table(rows)

    comparisons = doc["comparisons"]
    if comparisons:
        boot = doc["bootstrap"]
        base = comparisons[0]["against"]
        lines += ["", f"Difference against {base} (side - {base} on the same seeds: mean "
                  f"difference [paired bootstrap {boot['confidence']:.0%} interval, "
                  f"{boot['resamples']} resamples]):"]
        rows = [[""] + [c["side"] for c in comparisons]]
        for m in METRICS:
            digits = _DIGITS[m.key]
            cells = []
            for c in comparisons:
                v = c["metrics"][m.key]
                cells.append(f"{_f(v['diff'], digits, True)} [{_f(v['low'], digits, True)}, "
                             f"{_f(v['high'], digits, True)}]")
            rows.append([m.label] + cells)
        rows.append(["verdict"] + [c["verdict"] for c in comparisons])
        lines += _table(rows)
        for c in comparisons:
            lines.append(f"  {c['side']}: {c['verdict']} ({c['why']})")
        lines.append("  (harder / easier: the survival and score intervals both exclude zero, "
                     "on the same side of it; mixed: they do not agree)")
    for side, s in zip(sides, sums, strict=True):
        if s["at_cap"] >= CAP_NOTE_SHARE * s["games"]:
            lines.append(f"note: {s['at_cap']} of {s['games']} games of {side['name']} were "
                         "still going at the tick cap, so their survival time is only the "
                         "cap: for a survival comparison raise --ticks, or use rules the bot "
                         "dies in.")
    return "\n".join(lines) + "\n"
