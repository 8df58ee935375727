"""Per-side summaries of bot games, paired bootstrap intervals and the one-word verdict.

Sides play the same seeds, so game i of side B is compared with game i of side A: the
bootstrap resamples game indices (the same indices for both sides and every metric), which
removes the luck of the seeds from the difference. Intervals are percentile intervals of
``resamples`` resampled statistics, drawn from a numpy generator seeded from the run's seed
and the side's number, so a report is reproducible to the last digit.

The verdict of a side against the first (``verdict``):

* **harder**: the survival-time and score intervals both lie below zero;
* **easier**: both lie above zero;
* **no clear change**: both contain zero;
* **mixed**: anything else (one moved, or they moved apart); the reason is spelled out.

Whenever games ended (game over before the cap) and scipy is there, survival is judged by
the log-rank test of the two survival curves instead of the survival-time interval:
longer or shorter when its p-value is under 0.05 (``lab.survival``).

When every game of both sides reached the tick cap, survival time says nothing (it is the
cap everywhere); the deaths-per-game interval then stands in for it, turned around (fewer
deaths counts as longer survival), and the reason says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from asteroids.lab.game import DEATH_CAUSES, GameResult

__all__ = ["CONFIDENCE", "METRICS", "RESAMPLES", "Interval", "Metric", "compare", "summarize",
           "verdict"]

RESAMPLES = 2000
"""Bootstrap resamples per comparison."""

CONFIDENCE = 0.95

_CHUNK = 250
"""Resamples drawn at a time, so memory stays ``_CHUNK x games`` whatever the run size."""


@dataclass(frozen=True)
class Metric:
    """A compared quantity: per-game mean of ``field``, or (``per`` set) a ratio of sums."""

    key: str
    label: str
    field: str
    per: str = ""
    """For a ratio metric: the denominator's field (sum of field / sum of per)."""


METRICS = (
    Metric("score", "score (mean)", "score"),
    Metric("survival_s", "survival s (mean)", "survival_s"),
    Metric("waves_cleared", "waves cleared (mean)", "waves_cleared"),
    Metric("deaths", "deaths per game", "total_deaths"),
    Metric("shots_per_kill", "shots per kill", "shots_fired", per="kills"),
    Metric("extra_lives", "extra lives per game", "extra_lives"),
)
"""The metrics each comparison gives an interval for, in report order."""


@dataclass(frozen=True)
class Interval:
    """A difference (B - A) with its bootstrap interval; NaN where undefined (no kills)."""

    diff: float
    low: float
    high: float

    @property
    def sign(self) -> int:
        """+1 when the interval lies above zero, -1 below, 0 when it contains zero (or is
        undefined)."""
        if self.low > 0.0:
            return 1
        if self.high < 0.0:
            return -1
        return 0

    def as_dict(self) -> dict[str, float | None]:
        return {"diff": _num(self.diff), "low": _num(self.low), "high": _num(self.high)}


def _num(x: float) -> float | None:
    """JSON has no NaN: undefined numbers become null."""
    return None if math.isnan(x) else float(x)


def _column(games: Sequence[GameResult], field: str) -> np.ndarray:
    return np.array([float(getattr(g, field)) for g in games])


def _ratio(top: float, bottom: float) -> float:
    return top / bottom if bottom else math.nan


def summarize(games: Sequence[GameResult]) -> dict[str, object]:
    """One side's numbers for the report: distribution of score and survival, means of the
    rest, deaths by cause, shots per kill over all games. Plain values (JSON-ready)."""
    n = len(games)
    score = _column(games, "score")
    survival = _column(games, "survival_s")
    waves = _column(games, "waves_cleared")

    def pct(values: np.ndarray) -> dict[str, float]:
        p10, p50, p90 = np.percentile(values, [10, 50, 90])
        return {"mean": float(values.mean()), "median": float(p50), "p10": float(p10),
                "p90": float(p90)}

    deaths = {cause: sum(g.deaths.get(cause, 0) for g in games) for cause in DEATH_CAUSES}
    shots = sum(g.shots_fired for g in games)
    kills = sum(g.kills for g in games)
    return {
        "games": n,
        "game_over": sum(g.game_over for g in games),
        "at_cap": sum(not g.game_over for g in games),
        "score": pct(score),
        "survival_s": pct(survival),
        "waves_cleared": pct(waves),
        "deaths_per_game": {c: deaths[c] / n for c in DEATH_CAUSES},
        "deaths_total": deaths,
        "deaths_mean": sum(deaths.values()) / n,
        "shots_fired": shots,
        "kills": kills,
        "shots_per_kill": _num(_ratio(shots, kills)),
        "extra_lives_mean": sum(g.extra_lives for g in games) / n,
        "extra_lives_total": sum(g.extra_lives for g in games),
    }


def compare(base: Sequence[GameResult], other: Sequence[GameResult], *, seed: int, side: int,
            resamples: int = RESAMPLES) -> dict[str, Interval]:
    """Paired bootstrap intervals of ``other - base`` for every metric of ``METRICS``.

    Args:
        base, other: the two sides' games, game i of each played on the same seed.
        seed: the run's seed; with ``side`` it seeds the resampling.
        side: the number of ``other`` in the run (1 for the second side, ...).
        resamples: how many resampled statistics the interval is taken from.

    Raises:
        ValueError: when the sides hold different numbers of games, or none.
    """
    n = len(base)
    if n != len(other) or n == 0:
        raise ValueError(f"paired sides need the same, non-zero number of games; got {n} and "
                         f"{len(other)}")
    rng = np.random.default_rng(np.random.SeedSequence([seed % 2**64, side]))
    cols = {}
    for m in METRICS:
        fields = (m.field, m.per) if m.per else (m.field,)
        for f in fields:
            cols[f] = (_column(base, f), _column(other, f))
    stats: dict[str, list[np.ndarray]] = {m.key: [] for m in METRICS}
    left = resamples
    while left > 0:
        idx = rng.integers(0, n, size=(min(left, _CHUNK), n))
        left -= idx.shape[0]
        for m in METRICS:
            a, b = cols[m.field]
            if m.per:
                pa, pb = cols[m.per]
                with np.errstate(invalid="ignore", divide="ignore"):
                    boot = (b[idx].sum(axis=1) / pb[idx].sum(axis=1)
                            - a[idx].sum(axis=1) / pa[idx].sum(axis=1))
            else:
                boot = (b - a)[idx].mean(axis=1)
            stats[m.key].append(boot)
    tail = (1.0 - CONFIDENCE) / 2.0 * 100.0
    out = {}
    for m in METRICS:
        a, b = cols[m.field]
        if m.per:
            pa, pb = cols[m.per]
            diff = _ratio(b.sum(), pb.sum()) - _ratio(a.sum(), pa.sum())
        else:
            diff = float((b - a).mean())
        boot = np.concatenate(stats[m.key])
        boot = boot[~np.isnan(boot)]  # a resample without kills has no shots per kill
        if math.isnan(diff) or boot.size == 0:
            out[m.key] = Interval(diff, math.nan, math.nan)
        else:
            low, high = np.percentile(boot, [tail, 100.0 - tail])
            out[m.key] = Interval(diff, float(low), float(high))
    return out


def _moved(sign: int, up: str, down: str) -> str:
    return up if sign > 0 else down if sign < 0 else "no clear change"


def verdict(intervals: dict[str, Interval], *, all_at_cap: bool = False,
            logrank: dict[str, float] | None = None) -> tuple[str, str]:
    """The one-word verdict and the reason, from the survival and score intervals (the rule
    is in the module docstring); ``all_at_cap``: every game of both sides reached the tick
    cap, so deaths per game stand in for survival; ``logrank``: the log-rank test of the
    survival curves (``lab.survival.compare_survival``), which decides survival whenever
    games ended (the mean of survival times cut at the cap understates a difference)."""
    score = intervals["score"].sign
    if logrank is not None and not all_at_cap:
        survival = int(logrank["sign"])
        why = (f"survival {_moved(survival, 'longer', 'shorter')} (log-rank p = "
               f"{logrank['p']:.3g}), score {_moved(score, 'higher', 'lower')}")
    elif all_at_cap:
        survival = -intervals["deaths"].sign
        deaths = {1: "fewer deaths", -1: "more deaths", 0: "deaths no clear change"}[survival]
        why = (f"every game reached the tick cap, so deaths stand in for survival: {deaths}, "
               f"score {_moved(score, 'higher', 'lower')}")
    else:
        survival = intervals["survival_s"].sign
        why = (f"survival {_moved(survival, 'longer', 'shorter')}, "
               f"score {_moved(score, 'higher', 'lower')}")
    if survival == score == 0:
        return "no clear change", why
    if survival == score:
        return ("easier" if survival > 0 else "harder"), why
    return "mixed", why
