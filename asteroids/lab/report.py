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
from asteroids.lab.survival import (
    SCIPY_MISSING,
    SurvivalUnavailable,
    at_time,
    compare_survival,
    require_scipy,
    scipy_installed,
    side_survival,
)
from asteroids.replay.format import rules_fingerprint

__all__ = ["FORMAT", "build_document", "render_json", "render_text"]

FORMAT = "asteroids-balance/1"
"""The document's ``format`` field; bumped when a field changes meaning."""

CAP_NOTE_SHARE = 0.5
"""A side with at least this share of games still going at the cap gets a note."""


def _has_scipy(run: BalanceRun) -> bool:
    """Whether the survival sections can be made: scipy imports, or, where no game ended
    (the curves are flat and need nothing of it), it is installed."""
    if not any(g.game_over for results in run.results for g in results):
        return scipy_installed()
    try:
        require_scipy()
    except SurvivalUnavailable:
        return False
    return True


def build_document(run: BalanceRun, *, resamples: int = RESAMPLES) -> dict[str, Any]:
    """Everything about ``run``: inputs, per-game results, summaries and comparisons, and
    with scipy each side's survival curve and hazard and each comparison's log-rank test."""
    survival = _has_scipy(run)
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
        if side.pilot is not None:
            sides[-1]["pilot"] = side.pilot_name
        if survival:
            sides[-1]["survival"] = side_survival(run.results[s])
    comparisons = []
    base = run.results[0]
    for s in range(1, len(run.sides)):
        intervals = compare(base, run.results[s], seed=run.seed, side=s, resamples=resamples)
        capped = all(not g.game_over for g in (*base, *run.results[s]))
        logrank = compare_survival(base, run.results[s]) if survival else None
        word, why = verdict(intervals, all_at_cap=capped, logrank=logrank)
        comparisons.append({
            "side": run.sides[s].name, "against": run.sides[0].name,
            "metrics": {k: v.as_dict() for k, v in intervals.items()},
            "verdict": word, "why": why,
        })
        if logrank is not None:
            comparisons[-1]["logrank"] = logrank
    return {
        "format": FORMAT, "bot": run.bot, "games_per_side": run.games, "seed": run.seed,
        "seeds": [run.seed, run.seed + run.games - 1],
        "bootstrap": {"paired": True, "statistic": "mean difference (shots per kill: ratio "
                      "of sums)", "resamples": resamples, "confidence": CONFIDENCE},
        "sides": sides, "comparisons": comparisons, "survival": survival,
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
    who = doc["bot"] if doc["bot"].startswith("persona") else f"bot {doc['bot']}"
    lines = [f"asteroids balance: {who}, {doc['games_per_side']} games per side "
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
    lines += _survival_text(doc)

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
        if any("logrank" in c for c in comparisons):
            rows.append(["survival log-rank"] + [
                f"z {c['logrank']['z']:+.2f}, p {c['logrank']['p']:.3g}" if "logrank" in c
                else "-" for c in comparisons])
        rows.append(["verdict"] + [c["verdict"] for c in comparisons])
        lines += _table(rows)
        for c in comparisons:
            lines.append(f"  {c['side']}: {c['verdict']} ({c['why']})")
        lines.append("  (harder / easier: survival and score both moved, the same way: survival "
                     "by the log-rank test when games ended, else by its interval; mixed: they "
                     "do not agree)")
    for side, s in zip(sides, sums, strict=True):
        if s["at_cap"] >= CAP_NOTE_SHARE * s["games"]:
            lines.append(f"note: {s['at_cap']} of {s['games']} games of {side['name']} were "
                         "still going at the tick cap, so their survival time is only the "
                         "cap: for a survival comparison raise --ticks, or use rules the bot "
                         "dies in.")
    if not doc.get("survival", True):
        lines.append(f"note: no survival curves: {SCIPY_MISSING}")
    return "\n".join(lines) + "\n"


_AT_S = (60.0, 120.0, 180.0, 300.0)
"""The times the text report reads each survival curve at (those within the runs' caps)."""


def _band(value: float | None, low: float | None, high: float | None, digits: int) -> str:
    def one(x: float | None) -> str:
        return "never" if x is None else _f(x, digits)
    return f"{one(value)} [{one(low)}, {one(high)}]"


def _survival_text(doc: dict[str, Any]) -> list[str]:
    """Each side's survival curve read at a few times, and its hazard by time and wave."""
    sides = [s for s in doc["sides"] if "survival" in s]
    if not sides:
        return []
    longest = max(s["max_ticks"] / s["tick_hz"] for s in sides)
    lines = ["", f"Survival to game over (Kaplan-Meier, {CONFIDENCE:.0%} band, log-log; games "
             "at the cap are censored):"]
    rows = [[""] + [s["name"] for s in sides]]
    kms = [s["survival"]["kaplan_meier"] for s in sides]
    rows.append(["median survival s"] + [_band(k["median_s"], k["median_low"],
                                                k["median_high"], 1) for k in kms])
    for t in _AT_S:
        if t <= longest:
            rows.append([f"surviving at {t:g} s"] + [_band(
                at_time(k, t), at_time(k, t, "low"), at_time(k, t, "high"), 2) for k in kms])
    lines += _table(rows)
    bin_s = sides[0]["survival"]["bin_s"]
    lines += ["", f"Hazard: ships lost per minute of play, by game time ({bin_s:g} s bins) and "
              "by wave (games playing there in brackets):"]
    rows = [[""] + [s["name"] for s in sides]]
    tables = [{(b["from_s"], b["to_s"]): b for b in s["survival"]["hazard_by_time"]}
              for s in sides]
    for lo, hi in sorted({k for t in tables for k in t}):
        cells = []
        for t in tables:
            b = t.get((lo, hi))
            cells.append("-" if b is None else f"{_f(b['per_min'], 2)} ({b['games']})")
        rows.append([f"{lo:g}-{hi:g} s"] + cells)
    waves = [{b["wave"]: b for b in s["survival"]["hazard_by_wave"]} for s in sides]
    for w in sorted({k for t in waves for k in t}):
        cells = []
        for t in waves:
            b = t.get(w)
            cells.append("-" if b is None else f"{_f(b['per_min'], 2)} ({b['games']})")
        rows.append([f"wave {w}"] + cells)
    lines += _table(rows)
    return lines
