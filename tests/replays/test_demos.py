"""The attract-mode demos shipped in the package: each loads, is the game its manifest entry
describes, and re-simulates bit for bit through the pure core, so a rules change that makes
a demo stale fails here (re-record with ``python -m asteroids.replay.rebless``); and the
title screen has a demo recorded under each bundled preset's own rules."""

from __future__ import annotations

import pytest

from asteroids.app.demos import demo_files, load_demos
from asteroids.config import load_config
from asteroids.config.bundled import preset_names
from asteroids.config.loader import load_preset
from asteroids.replay import load_replay, rules_fingerprint, verify_replay
from asteroids.replay.rebless import DEMO_DIR, REBLESS, load_manifest

ENTRIES = load_manifest(DEMO_DIR)
NAMES = [e.name for e in ENTRIES]
MAX_DEMO_BYTES = 16_000
"""The demos ship in every install; each stays small."""


def _preset(name: str):  # noqa: ANN202
    return load_config() if name == "default" else load_preset(name)


def test_bundled_demos_are_the_manifest() -> None:
    assert sorted(p.stem for p in demo_files()) == sorted(NAMES), (
        f"demo files and asteroids/replay/demos/manifest.toml differ; run {REBLESS}")


@pytest.mark.parametrize("entry", ENTRIES, ids=NAMES)
def test_demo_verifies_bit_for_bit(entry) -> None:  # noqa: ANN001
    path = DEMO_DIR / f"{entry.name}.replay"
    assert path.stat().st_size <= MAX_DEMO_BYTES
    replay = load_replay(path)
    assert replay.config == entry.config(DEMO_DIR) and replay.seed == entry.seed
    result = verify_replay(replay)
    assert result.ok, (
        f"demo {path.name} plays differently now: {result.problem}. The attract mode would "
        f"show a game that drifts from its recording; re-record with `{REBLESS}`.")
    assert replay.final_wave >= 2, f"demo {path.name} clears no wave"


@pytest.mark.parametrize("preset", preset_names())
def test_each_bundled_preset_has_its_own_demo(preset: str) -> None:
    config = _preset(preset)
    demos = load_demos(config)
    assert demos, f"the title screen has no demo for the {preset} rules"
    assert all(rules_fingerprint(d.config) == rules_fingerprint(config) for d in demos), (
        f"no demo was recorded under the {preset} rules")
