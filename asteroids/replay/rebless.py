"""Re-record the golden replays after a deliberate rules change: ``python -m
asteroids.replay.rebless [--check]``.

``tests/replays/manifest.toml`` lists each golden game as a bot script (settings, bot, seed,
ticks). This records every entry again into ``tests/replays/NAME.replay``, prints which
replays changed, and writes ``tests/replays/coverage.toml``: what each replay exercises
(waves cleared, deaths, hyperspace deaths, small saucers shot, ...), found by re-simulating
it and counting the core's events. ``--check`` writes nothing and exits 1 if anything would
change (after a rules change it is the list of replays to re-bless).

A replay whose game is the same as before (same settings, inputs and hashes) is left as it
is, so its creation time does not churn.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asteroids.config import Config, load_config
from asteroids.core import events as ev
from asteroids.core.world import World
from asteroids.replay.files import load_replay, save_replay
from asteroids.replay.format import Replay, ReplayError, rules_fingerprint
from asteroids.replay.record import get_bot, record_bot_game
from asteroids.replay.verify import VerifyResult, verify_replay

__all__ = ["COVERAGE_KEYS", "GoldenEntry", "coverage", "load_manifest", "main", "record_entry"]

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "replays"

COVERAGE_KEYS = (
    "wave_cleared", "ship_death", "safe_respawn", "hyperspace", "hyperspace_death",
    "small_saucer_kill", "extra_life", "game_over", "classic_preset", "arena_preset",
    "bounce_borders", "shield",
)
"""What the golden replays must exercise together, each counted by ``coverage``."""


@dataclass(frozen=True)
class GoldenEntry:
    """One golden game as written in the manifest."""

    name: str
    preset: str
    bot: str
    seed: int
    ticks: int
    overrides: tuple[str, ...]
    covers: str

    def config(self, golden_dir: Path = GOLDEN_DIR) -> Config:
        """The settings: a preset from ``config/`` or a file beside the manifest, then the
        overrides ("default" is the built-in defaults)."""
        return load_config(*_preset_files(self.preset, golden_dir), overrides=self.overrides)


def _preset_files(preset: str, golden_dir: Path) -> list[Path]:
    if preset == "default":
        return []
    for folder in (ROOT / "config", golden_dir):
        path = folder / f"{preset}.toml"
        if path.is_file():
            return [path]
    raise ValueError(f"manifest: no preset {preset!r} in config/ or {golden_dir}")


def load_manifest(golden_dir: Path = GOLDEN_DIR) -> list[GoldenEntry]:
    """The entries of ``golden_dir/manifest.toml``."""
    with open(golden_dir / "manifest.toml", "rb") as fh:
        doc = tomllib.load(fh)
    entries = []
    for item in doc.get("replay", []):
        entries.append(GoldenEntry(
            name=item["name"], preset=item.get("preset", "default"), bot=item["bot"],
            seed=int(item["seed"]), ticks=int(item["ticks"]),
            overrides=tuple(item.get("overrides", ())), covers=item.get("covers", ""),
        ))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ValueError("manifest: replay names must be unique")
    return entries


def record_entry(entry: GoldenEntry, golden_dir: Path = GOLDEN_DIR) -> Replay:
    """Play the entry's bot script again (stopping at game over)."""
    return record_bot_game(entry.config(golden_dir), entry.seed, get_bot(entry.bot),
                           entry.ticks)


def coverage(replay: Replay) -> tuple[VerifyResult, dict[str, int]]:
    """Verify ``replay`` and count what it exercises, from the events of the re-simulation
    (not from what the manifest claims)."""
    counts: Counter[str] = Counter()
    dead = False

    def on_step(world: World, events: tuple[ev.Event, ...]) -> None:
        nonlocal dead
        for e in events:
            if isinstance(e, ev.WaveCleared):
                counts["wave_cleared"] += 1
            elif isinstance(e, ev.ShipDestroyed):
                counts["hyperspace_death" if e.cause == "hyperspace" else "ship_death"] += 1
                dead = True
            elif isinstance(e, ev.ShipSpawned) and dead:
                counts["safe_respawn"] += 1
                dead = False
            elif isinstance(e, ev.HyperspaceEntered):
                counts["hyperspace"] += 1
            elif isinstance(e, ev.SaucerDestroyed) and e.small and e.by in ("ship-shot", "ship"):
                counts["small_saucer_kill"] += 1
            elif isinstance(e, ev.ExtraLife):
                counts["extra_life"] += 1
            elif isinstance(e, ev.GameOver):
                counts["game_over"] += 1
            elif isinstance(e, ev.ShieldChanged) and e.on:
                counts["shield"] += 1

    result = verify_replay(replay, on_step=on_step)
    fingerprint = rules_fingerprint(replay.config)
    for preset in ("classic", "arena"):
        if fingerprint == rules_fingerprint(load_config(ROOT / "config" / f"{preset}.toml")):
            counts[f"{preset}_preset"] += 1
    borders = replay.config.borders
    if (borders.asteroids, borders.ship, borders.shots) == ("bounce",) * 3:
        counts["bounce_borders"] += 1
    return result, {k: counts[k] for k in COVERAGE_KEYS}


def _coverage_toml(rows: list[tuple[GoldenEntry, Replay, dict[str, int]]]) -> str:
    out = ["# What each golden replay exercises, counted from the core's events by",
           "# `python -m asteroids.replay.rebless` (do not edit; tests/replays/test_golden.py",
           "# re-simulates every replay and checks these counts and the required coverage).",
           ""]
    for entry, replay, counts in rows:
        out.append(f"[{entry.name}]")
        out.append(f"ticks = {replay.ticks}")
        out.append(f"final_score = {replay.final_score}")
        out.extend(f"{k} = {v}" for k, v in counts.items())
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Re-record every golden replay; print which changed. Exit 0 (with ``--check``: 1 if
    any replay or the coverage summary would change)."""
    parser = argparse.ArgumentParser(prog="python -m asteroids.replay.rebless",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if any replay would change")
    parser.add_argument("--dir", type=Path, default=GOLDEN_DIR,
                        help="folder holding manifest.toml and the replays")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="re-record only this entry (may repeat); coverage is not written")
    args = parser.parse_args(argv)
    golden_dir: Path = args.dir
    rows = []
    changed = 0
    for entry in load_manifest(golden_dir):
        if args.only and entry.name not in args.only:
            continue
        path = golden_dir / f"{entry.name}.replay"
        fresh = record_entry(entry, golden_dir)
        old: Replay | None = None
        why = "new"
        if path.exists():
            try:
                old = load_replay(path)
            except ReplayError as exc:
                why = f"replaced an unusable file ({exc.problem})"
        if old is not None and old.same_game(fresh):
            status, keep = "unchanged", old
        else:
            changed += 1
            status = (f"changed (final hash {old.final_hash} -> {fresh.final_hash}, "
                      f"{old.ticks} -> {fresh.ticks} ticks)" if old is not None
                      else why)
            keep = fresh
            if not args.check:
                save_replay(fresh, path)
        result, counts = coverage(keep)
        if not result.ok:  # pragma: no cover - a fresh recording always verifies
            raise SystemExit(f"{entry.name}: does not verify right after recording: "
                             f"{result.problem}")
        covered = ", ".join(k for k, v in counts.items() if v) or "nothing"
        print(f"{entry.name}: {status}; {fresh.ticks} ticks; covers {covered}")
        rows.append((entry, keep, counts))
    if not args.only:
        text = _coverage_toml(rows)
        cov_path = golden_dir / "coverage.toml"
        old_text = cov_path.read_text("utf-8") if cov_path.is_file() else ""
        if old_text != text:
            changed += 1
            print("coverage.toml: changed")
            if not args.check:
                cov_path.write_text(text, "utf-8")
        total = {k: sum(c[k] for _, _, c in rows) for k in COVERAGE_KEYS}
        missing = [k for k, v in total.items() if not v]
        if missing:
            print(f"warning: no golden replay covers {', '.join(missing)}", file=sys.stderr)
    print(f"{changed} changed" + (" (nothing written: --check)" if args.check else ""))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
