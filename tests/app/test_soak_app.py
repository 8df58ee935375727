"""The whole game headless, for a long time: the real arcade Views in the real (headless)
window, the core's bot at the controls, classic and arena rules, with everything a player's
session does around the play (replays recorded and saved, high scores entered, the initials
entry, the title table, new games). Memory (RSS and tracemalloc) is sampled every 1 000 game
ticks and must not grow beyond a few MB.

``pytest -m soak tests/app/test_soak_app.py -s`` runs the 100 000-tick soak per ruleset and
prints the samples' summary; a 3 000-tick smoke run of the same loop is part of the normal
suite.
"""

from __future__ import annotations

import gc
import os
import time
import tracemalloc
from dataclasses import dataclass, field

import arcade
import pytest

from asteroids.app.game_over_view import GameOverView
from asteroids.app.initials import InitialsView
from asteroids.app.play_view import PlayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config

pytestmark = pytest.mark.gl

SAMPLE_EVERY = 1000
"""Game ticks between memory samples."""

DRAW_EVERY = 4
"""Frames between draws (every view's real draw path runs, at a quarter of the frames)."""


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class SoakResult:
    """What one soak saw."""

    ticks: int = 0
    games: int = 0
    entries: int = 0
    seconds: float = 0.0
    rss: list[int] = field(default_factory=list)
    """RSS in bytes every ``SAMPLE_EVERY`` game ticks."""
    traced: list[int] = field(default_factory=list)
    """tracemalloc's current traced bytes at the same moments."""


def key(window, symbol: int) -> None:
    window.dispatch_event("on_key_press", symbol, 0)
    window.dispatch_event("on_key_release", symbol, 0)
    window.dispatch_events()


def run_soak(window, preset: str, ticks: int, seed: int = 7) -> SoakResult:
    """Play ``ticks`` game ticks the way a session goes: title, game (bot), game over, the
    initials entry when the score makes the table (confirmed with Enter, typing nothing),
    the title's table, the next game."""
    config = load_config(preset)
    game = open_shell(window, config, seed=seed, sound=False, record=True, profile=True)
    dt = 1.0 / config.world.tick_hz
    out = SoakResult()
    game.nav.title()
    gc.collect()
    start = time.perf_counter()
    frame = 0
    next_sample = 0
    while out.ticks < ticks:
        view = window.current_view
        frame += 1
        if isinstance(view, TitleView):
            key(window, arcade.key.SPACE)
            continue
        if isinstance(view, InitialsView):
            out.entries += 1
            key(window, arcade.key.ENTER)
            continue
        if isinstance(view, GameOverView):
            view.on_update(dt)
            if view.ready and not view.finished.slots:
                key(window, arcade.key.ENTER)
            continue
        assert isinstance(view, PlayView)
        if not view.autopilot:
            view.autopilot = True
            out.games += 1
        before = view.world.tick
        view.on_update(dt)
        out.ticks += view.world.tick - before if not view.world.game_over else 0
        if frame % DRAW_EVERY == 0:
            view.on_draw()
        if out.ticks >= next_sample:
            next_sample += SAMPLE_EVERY
            gc.collect()
            out.rss.append(rss_bytes())
            out.traced.append(tracemalloc.get_traced_memory()[0]
                              if tracemalloc.is_tracing() else 0)
    out.seconds = time.perf_counter() - start
    window.hide_view()
    return out


def growth(samples: list[int]) -> int:
    """Bytes the last quarter of the samples sits above the second quarter (medians): the
    warm-up (first games, caches, the first table) is left out."""
    n = len(samples)
    q = max(n // 4, 1)

    def median(xs: list[int]) -> int:
        xs = sorted(xs)
        return xs[len(xs) // 2]

    return median(samples[-q:]) - median(samples[q:2 * q])


def report(preset: str, r: SoakResult) -> str:
    mb = 1 / (1 << 20)
    return (f"{preset}: {r.ticks} ticks, {r.games} games, {r.entries} initials entries, "
            f"{r.seconds:.0f} s ({r.ticks / max(r.seconds, 1e-9):.0f} ticks/s); RSS "
            f"{r.rss[1] * mb:.1f} -> {r.rss[-1] * mb:.1f} MB (max {max(r.rss) * mb:.1f}, "
            f"growth {growth(r.rss) * mb:+.2f} MB); traced {r.traced[1] * mb:.2f} -> "
            f"{r.traced[-1] * mb:.2f} MB (growth {growth(r.traced) * mb:+.2f} MB); RSS every "
            f"10 000 ticks: {' '.join(f'{x * mb:.0f}' for x in r.rss[::10])} MB")


def test_soak_smoke(window):
    """The soak loop itself, briefly: games end, restart, and enter the table."""
    r = run_soak(window, "classic", 3000)
    assert r.ticks >= 3000 and r.games >= 1 and len(r.rss) >= 3


@pytest.mark.soak
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("preset", ["classic", "arena"])
def test_soak_100k_ticks_memory_stays_flat(window, preset, capsys):
    tracemalloc.start()
    try:
        r = run_soak(window, preset, 100_000)
    finally:
        tracemalloc.stop()
    line = report(preset, r)
    with capsys.disabled():
        print("\nsoak " + line)
    assert r.ticks >= 100_000 and r.games >= 2
    assert len(r.rss) >= 100
    assert growth(r.rss) < 8 << 20, line
    assert growth(r.traced) < 2 << 20, line
