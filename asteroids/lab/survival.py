"""Difficulty as survival: Kaplan-Meier curves, the hazard by time and by wave, log-rank.

A game's **survival time** is its length to game over; a game still going at the tick cap
is *censored* there (it would have lasted longer). The Kaplan-Meier estimate and its 95 %
confidence band (log-log) come from ``scipy.stats.ecdf``, the comparison of two sides'
curves from ``scipy.stats.logrank``: nothing of either is written here. scipy comes with the
optional ``[lab]`` extra; without it ``SurvivalUnavailable`` says how to get it.

The **hazard** is the rate of ship losses: ships lost per minute of play, counted in bins
of game time (``BIN_S``) and in each wave, over every game that played there. It says where
a game kills (the first seconds of a wave, the saucer's arrival, wave 4) as Isaksen and
Nealen read difficulty (AIIDE 2015).
"""

from __future__ import annotations

import importlib.util
import math
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from asteroids.lab.game import GameResult

__all__ = ["BIN_S", "CONFIDENCE", "SCIPY_MISSING", "SurvivalUnavailable", "compare_survival",
           "hazard_by_time", "hazard_by_wave", "kaplan_meier", "require_scipy", "scipy_installed",
           "side_survival"]

BIN_S = 30.0
"""Width of the hazard's time bins, in seconds of game time."""
CONFIDENCE = 0.95
SIGNIFICANCE = 0.05
"""A log-rank p-value under this counts as a change in survival."""

SCIPY_MISSING = (
    "survival curves (Kaplan-Meier, log-rank) need scipy, which comes with the optional "
    "[lab] extra: python -m pip install 'asteroids[lab]' (from a source checkout: "
    "python -m pip install '.[lab]')."
)


class SurvivalUnavailable(Exception):
    """scipy is not installed; ``str()`` says how to install it."""


def scipy_installed() -> bool:
    """Whether scipy can be imported, found without importing it (``scipy.stats`` takes
    half a second to import)."""
    if "scipy" in sys.modules:
        return sys.modules["scipy"] is not None
    try:
        return importlib.util.find_spec("scipy") is not None
    except (ImportError, ValueError):
        return False


def require_scipy() -> Any:
    """The ``scipy.stats`` module.

    Raises:
        SurvivalUnavailable: without scipy (the message says how to install it).
    """
    try:
        from scipy import stats
    except ImportError:
        raise SurvivalUnavailable(SCIPY_MISSING) from None
    return stats


def _censored(games: Sequence[GameResult]) -> Any:
    stats = require_scipy()
    over = [g.survival_s for g in games if g.game_over]
    going = [g.survival_s for g in games if not g.game_over]
    return stats.CensoredData(uncensored=over, right=going)


def _median(times: list[float], surv: list[float]) -> float | None:
    """The first time the curve is at or under one half; None when it never gets there."""
    for t, s in zip(times, surv, strict=True):
        if s <= 0.5:
            return t
    return None


def kaplan_meier(games: Sequence[GameResult]) -> dict[str, Any]:
    """The survival curve to game over, its 95 % band and its median (with the band's).

    Returns:
        ``times`` (s, where the curve steps), ``survival``, ``low``, ``high`` (the band),
        ``median_s`` with ``median_low`` and ``median_high`` (None where the curve or its
        band never falls to one half), ``events`` (games over) and ``censored``.

    Raises:
        SurvivalUnavailable: without scipy, where some game ended (with none the curve is
            flat, and scipy, half a second to import, is not asked).
    """
    events = sum(g.game_over for g in games)
    out: dict[str, Any] = {"events": events, "censored": len(games) - events}
    if events == 0:
        out.update(times=[], survival=[], low=[], high=[], median_s=None, median_low=None,
                   median_high=None)
        return out
    sf = require_scipy().ecdf(_censored(games)).sf
    with warnings.catch_warnings():
        # Where the curve is 0 the log-log band is undefined (NaN: the band is the curve).
        warnings.filterwarnings("ignore", "The confidence interval is undefined",
                                RuntimeWarning)
        band = sf.confidence_interval(CONFIDENCE, method="log-log")
    times = [float(t) for t in sf.quantiles]
    surv = [float(s) for s in sf.probabilities]
    low = [_finite(x, v) for x, v in zip(band.low.probabilities, surv, strict=True)]
    high = [_finite(x, v) for x, v in zip(band.high.probabilities, surv, strict=True)]
    out.update(times=times, survival=surv, low=low, high=high, median_s=_median(times, surv),
               median_low=_median(times, low), median_high=_median(times, high))
    return out


def _finite(x: float, fallback: float) -> float:
    return float(x) if math.isfinite(x) else fallback


def at_time(curve: dict[str, Any], t: float, key: str = "survival") -> float:
    """The curve's value (or its band's, ``key`` ``low`` / ``high``) at ``t`` seconds."""
    value = 1.0
    for time, s in zip(curve["times"], curve[key], strict=True):
        if time > t:
            break
        value = s
    return value


def _spans(g: GameResult) -> list[tuple[int, float, float]]:
    """Each wave a game played: (wave number from 1, start s, end s)."""
    starts = [0.0] + [t / g.tick_hz for t in g.wave_ticks]
    ends = starts[1:] + [g.survival_s]
    return [(i + 1, a, b) for i, (a, b) in enumerate(zip(starts, ends, strict=True))]


def _rate(deaths: int, seconds: float) -> float | None:
    return deaths / (seconds / 60.0) if seconds > 0.0 else None


def hazard_by_time(games: Sequence[GameResult], bin_s: float = BIN_S) -> list[dict[str, Any]]:
    """Ships lost per minute of play in each ``bin_s`` of game time, over every game still
    playing then: ``from_s``, ``to_s``, ``games`` (playing at the bin's start), ``deaths``,
    ``minutes`` of play, ``per_min`` (None with no play)."""
    longest = max((g.survival_s for g in games), default=0.0)
    bins = []
    k = 0
    while k * bin_s < longest:
        lo, hi = k * bin_s, (k + 1) * bin_s
        seconds = sum(max(0.0, min(g.survival_s, hi) - lo) for g in games)
        deaths = sum(1 for g in games for t in g.death_ticks if lo <= t / g.tick_hz < hi)
        playing = sum(1 for g in games if g.survival_s > lo)
        bins.append({"from_s": lo, "to_s": hi, "games": playing, "deaths": deaths,
                     "minutes": seconds / 60.0, "per_min": _rate(deaths, seconds)})
        k += 1
    return bins


def hazard_by_wave(games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Ships lost per minute of play in each wave: ``wave`` (1 = the first played),
    ``games`` that reached it, ``deaths``, ``minutes``, ``per_min``."""
    waves: dict[int, list[float]] = {}
    for g in games:
        deaths = [t / g.tick_hz for t in g.death_ticks]
        for wave, a, b in _spans(g):
            row = waves.setdefault(wave, [0, 0, 0.0])
            row[0] += 1
            row[1] += sum(1 for t in deaths if a <= t < b or (t == b and b == g.survival_s))
            row[2] += b - a
    return [{"wave": w, "games": int(n), "deaths": int(d), "minutes": s / 60.0,
             "per_min": _rate(int(d), s)} for w, (n, d, s) in sorted(waves.items())]


def side_survival(games: Sequence[GameResult]) -> dict[str, Any]:
    """One side's survival section: the curve, and the hazard by time and by wave.

    Raises:
        SurvivalUnavailable: without scipy.
    """
    return {"kaplan_meier": kaplan_meier(games), "hazard_by_time": hazard_by_time(games),
            "hazard_by_wave": hazard_by_wave(games), "bin_s": BIN_S}


def compare_survival(base: Sequence[GameResult],
                     other: Sequence[GameResult]) -> dict[str, Any] | None:
    """The log-rank test of ``other``'s survival curve against ``base``'s.

    Returns:
        ``z`` (positive: ``other`` loses its games sooner than ``base``), ``p`` (two-sided)
        and ``sign`` (+1 ``other`` survives longer, -1 shorter, 0 no significant change at
        ``SIGNIFICANCE``); None when no game of either side ended (nothing to compare).

    Raises:
        SurvivalUnavailable: without scipy.
    """
    if not any(g.game_over for g in (*base, *other)):
        return None
    stats = require_scipy()
    result = stats.logrank(_censored(other), _censored(base))
    z, p = float(result.statistic), float(result.pvalue)
    if not (math.isfinite(z) and math.isfinite(p)):  # identical sides: no variance
        z, p = 0.0, 1.0
    sign = (-1 if z > 0 else 1) if p < SIGNIFICANCE else 0
    return {"z": z, "p": p, "sign": sign}
