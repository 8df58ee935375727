"""Golden replays: every committed game re-simulates bit for bit through the pure core, and
together they exercise the rules the issue lists (counted from the core's events, not taken
from the manifest). After a deliberate rules change: ``python -m asteroids.replay.rebless``.
"""

from __future__ import annotations

import tomllib
from functools import cache

import pytest

from asteroids.replay import VerifyResult, load_replay
from asteroids.replay.rebless import COVERAGE_KEYS, GOLDEN_DIR, REBLESS, coverage, load_manifest

ENTRIES = load_manifest()
NAMES = [e.name for e in ENTRIES]

REQUIRED = (
    "wave_cleared", "ship_death", "safe_respawn", "hyperspace", "hyperspace_death",
    "small_saucer_kill", "extra_life", "game_over", "classic_preset", "arena_preset",
    "bounce_borders", "rock_collision", "obstacle_bounce", "shot_ricochet", "ricochet_hit",
    "turn_change", "match_over",
)
"""What issues 9 and 12 ask the golden replays to cover together; the arena's elastic rock
collisions, pillars and ricochets are counted from the Worlds, not from any event."""


@cache
def _verified(name: str) -> tuple[VerifyResult, dict[str, int]]:
    return coverage(load_replay(GOLDEN_DIR / f"{name}.replay"))


def test_manifest_and_files_agree() -> None:
    assert len(ENTRIES) >= 8
    on_disk = sorted(p.stem for p in GOLDEN_DIR.glob("*.replay"))
    assert on_disk == sorted(NAMES), f"replay files and manifest differ; run {REBLESS}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay_verifies(name: str) -> None:
    result, _ = _verified(name)
    assert result.ok, (
        f"{name}.replay plays differently now: {result.problem}. If the rules changed on "
        f"purpose, re-record with `{REBLESS}` and say so in the commit."
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_golden_replay_is_its_manifest_script(entry) -> None:  # noqa: ANN001
    """The file holds the game its manifest entry describes (settings, seed, length)."""
    replay = load_replay(GOLDEN_DIR / f"{entry.name}.replay")
    assert replay.config == entry.config()
    assert replay.seed == entry.seed
    assert replay.ticks <= entry.ticks


def test_coverage_summary_matches_the_events() -> None:
    with open(GOLDEN_DIR / "coverage.toml", "rb") as fh:
        written = tomllib.load(fh)
    for name in NAMES:
        _, counts = _verified(name)
        row = {k: v for k, v in written[name].items() if k in COVERAGE_KEYS}
        assert row == counts, f"coverage.toml is stale for {name}; run {REBLESS}"


def test_golden_replays_cover_the_rules_together() -> None:
    assert set(REQUIRED) <= set(COVERAGE_KEYS)
    total = {k: sum(_verified(n)[1][k] for n in NAMES) for k in COVERAGE_KEYS}
    missing = [k for k in REQUIRED if not total[k]] + [k for k, v in total.items() if not v]
    missing = list(dict.fromkeys(missing))
    assert not missing, f"no golden replay exercises: {', '.join(missing)}"


def test_the_arena_golden_shows_the_arena_physics() -> None:
    """Item 6: the arena preset's golden itself has rocks colliding, pillars and ricochets
    that break rocks (not just some other replay)."""
    _, counts = _verified("arena")
    assert counts["arena_preset"] == 1
    for key in ("rock_collision", "obstacle_bounce", "shot_ricochet", "ricochet_hit"):
        assert counts[key] > 0, f"arena.replay has no {key}"



def test_the_two_player_golden_alternates_and_ends() -> None:
    """Issue 12: one replay holds a whole two-player match, with at least two turn changes
    and the match's end, and it verifies."""
    replay = load_replay(GOLDEN_DIR / "two-players.replay")
    assert replay.players == 2 and len(replay.final_scores) == 2
    result, counts = _verified("two-players")
    assert result.ok
    assert counts["turn_change"] >= 2 and counts["match_over"] == 1
    assert counts["game_over"] == 2
