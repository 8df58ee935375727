"""Fit a persona to a player's replays, and show how well it plays like them.

The statistics of ``asteroids.pilots.measure`` identify five parameters directly:

* ``reaction_ms``: the median reaction to a new wave; ``reaction_jitter_ms``: their spread
  (interquartile range / 1.349);
* ``thrust_share``: thrust ticks over flying ticks;
* ``fire_discipline``: ``1 - spray / SPRAY_CHANCE``, the spray per ready, unaimed moment
  measured against what a pilot with no discipline at all would spray;
* ``hyperspace_panic``: jumps per close call (at most 1).

Aim error, turn overshoot and attention leave no statistic of their own in these numbers;
they are taken from the bundled persona whose reaction is nearest. The fitted persona then
plays the replays' own seeds and settings for as long as each replay lasted, and the same
statistics of its games are set beside the player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from asteroids.pilots.measure import measure_game, measure_replay, pooled
from asteroids.pilots.persona import BUNDLED, Persona, bundled_persona
from asteroids.pilots.pilot import SPRAY_CHANCE, PersonaPilot

__all__ = ["ENOUGH_REACTIONS", "Fit", "fit_persona", "render_fit"]

ENOUGH_REACTIONS = 20
"""Fewer reactions timed than this make the fitted reaction rough (the report says so)."""


@dataclass(frozen=True)
class Fit:
    """A fitted persona, the player's statistics and the persona's on the same seeds."""

    persona: Persona
    base: str
    """The bundled persona the unidentified parameters came from."""
    player: dict[str, Any]
    fitted: dict[str, Any] | None
    """The fitted persona's statistics (None when it was not played: ``replay=False``)."""
    notes: tuple[str, ...] = ()


def _clamp(x: float, lo: float, hi: float) -> float:
    return min(max(x, lo), hi)


def _measure(replays: Sequence[Any], reaction_ms: float | None) -> dict[str, Any]:
    games = [measure_replay(r, _ticks(reaction_ms, r.tick_hz)) for r in replays]
    return pooled(games)


def _ticks(ms: float | None, hz: float) -> int:
    return 0 if ms is None else round(ms * hz / 1000.0)


def fit_persona(replays: Sequence[Any], *, name: str = "me", replay: bool = True) -> Fit:
    """Fit a persona to one-player replays (``asteroids.replay.Replay``).

    Args:
        replays: the player's games.
        name: the fitted persona's name.
        replay: also play the fitted persona on the same seeds and measure it.

    Raises:
        ValueError: for no replays, or a two-player replay.
    """
    if not replays:
        raise ValueError("no replays to fit")
    first = _measure(replays, None)
    reaction = first["reaction_ms"]
    player = _measure(replays, reaction) if reaction else first
    notes = []
    if reaction is None:
        notes.append("no new wave was met flying and waiting, so the reaction could not be "
                     "measured: the nearest bundled persona's is kept")
    elif player["reactions"] < ENOUGH_REACTIONS:
        notes.append(f"only {player['reactions']} new waves were timed: the reaction is rough "
                     f"(give replays with {ENOUGH_REACTIONS} or more waves met)")
    if player["reaction_spread_ms"] is None:
        notes.append("fewer than 4 reactions timed: the reaction jitter is kept")
    bundled = [bundled_persona(n) for n in BUNDLED]
    base = min(bundled, key=lambda b: abs(b.reaction_ms - (reaction or 320.0)))
    values: dict[str, Any] = {"name": name, "description": f"fitted to {len(replays)} "
                              f"replay{'s' if len(replays) != 1 else ''}; aim, overshoot and "
                              f"attention from {base.name}"}
    if reaction is not None:
        values["reaction_ms"] = _clamp(round(reaction, 1), 0.0, 1500.0)
    if player["reaction_spread_ms"] is not None:
        values["reaction_jitter_ms"] = _clamp(round(player["reaction_spread_ms"], 1), 0.0, 500.0)
    if player["thrust_share"] is not None:
        values["thrust_share"] = _clamp(round(player["thrust_share"], 3), 0.0, 0.95)
    if player["spray_per_ready"] is not None:
        values["fire_discipline"] = _clamp(round(1.0 - player["spray_per_ready"] / SPRAY_CHANCE,
                                                 3), 0.0, 1.0)
    else:
        notes.append("fire was never ready while aimed at nothing: fire discipline kept")
    if player["jumps_per_close_call"] is not None:
        values["hyperspace_panic"] = _clamp(round(player["jumps_per_close_call"], 3), 0.0, 1.0)
    else:
        notes.append("no close call: hyperspace habit kept")
    persona = base.replace(**values)
    fitted = _play(persona, replays, reaction) if replay else None
    return Fit(persona=persona, base=base.name, player=player, fitted=fitted,
               notes=tuple(notes))


def _play(persona: Persona, replays: Sequence[Any], reaction: float | None) -> dict[str, Any]:
    """The persona's statistics on the replays' seeds and settings, as long as each lasted."""
    from asteroids.replay.record import record_bot_game

    games = []
    for r in replays:
        game = record_bot_game(r.config, r.seed, PersonaPilot(persona), r.ticks)
        games.append(measure_game(r.config, r.seed, game.masks,
                                  delay_ticks=_ticks(reaction, r.tick_hz)))
    return pooled(games)


_ROWS = (
    ("reaction to a new wave, ms (median)", "reaction_ms", 0),
    ("reaction spread, ms", "reaction_spread_ms", 0),
    ("waves met (reactions timed)", "reactions", 0),
    ("shots per kill", "shots_per_kill", 2),
    ("thrust share", "thrust_share", 3),
    ("spray per ready, unaimed moment", "spray_per_ready", 3),
    ("hyperspace jumps per close call", "jumps_per_close_call", 2),
    ("hyperspace jumps per minute", "jumps_per_min", 2),
    ("minutes flying", "minutes_flying", 1),
    ("game length s (mean)", "survival_s", 1),
)


def _cell(value: Any, digits: int) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}" if isinstance(value, float) else str(value)


def render_fit(fit: Fit) -> str:
    """The side-by-side report: each statistic for the replays and the fitted persona."""
    head = ["", "replays", f"persona {fit.persona.name} (same seeds)"]
    rows = [head]
    for label, key, digits in _ROWS:
        rows.append([label, _cell(fit.player[key], digits),
                     _cell(fit.fitted[key], digits) if fit.fitted else "-"])
    waves = sorted(set(fit.player["waves"]) | set(fit.fitted["waves"] if fit.fitted else ()))
    for w in waves:
        mine = fit.player["waves"].get(w)
        theirs = fit.fitted["waves"].get(w) if fit.fitted else None
        rows.append([f"wave {w}: ships lost per minute (games)",
                     _wave(mine), _wave(theirs)])
    widths = [max(len(r[c]) for r in rows) for c in range(3)]
    lines = [f"asteroids persona fit: {fit.player['games']} replays; parameters measured, "
             f"the rest from {fit.base}"]
    for r in rows:
        lines.append("  ".join([r[0].ljust(widths[0]), r[1].rjust(widths[1]),
                                r[2].rjust(widths[2])]).rstrip())
    lines.append("")
    lines.append("fitted: " + ", ".join(f"{k} = {v:g}" for k, v in fit.persona.values().items()))
    lines += [f"note: {n}" for n in fit.notes]
    return "\n".join(lines) + "\n"


def _wave(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    rate = row["deaths_per_min"]
    return f"{_cell(rate, 2)} ({row['games']})"
