"""Re-record the golden replays and the attract-mode demos after a deliberate rules change:
``python -m asteroids.replay.rebless [--check]``.

Two folders hold bot-scripted games, each listed in its ``manifest.toml`` (settings, bot,
seed, ticks): the golden replays in ``tests/replays/`` and the title screen's demos in
``asteroids/replay/demos/`` (package data). This records every entry of both again into
``NAME.replay`` beside its manifest, prints which replays changed, and writes
``tests/replays/coverage.toml``: what each golden replay exercises (waves cleared, deaths,
hyperspace deaths, small saucers shot, rocks colliding, ricochets, ...), found by
re-simulating it and counting the core's events and the changes between consecutive Worlds.
``--check`` writes nothing and exits 1 if anything would change (after a rules change it is
the list of replays to re-bless). ``--goldens`` or ``--demos`` does one folder only.

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

import numpy as np

from asteroids.config import Config, load_config
from asteroids.config.bundled import preset_names
from asteroids.config.loader import load_preset
from asteroids.core import events as ev
from asteroids.core import new_world
from asteroids.core.contacts import circle_segment_contacts
from asteroids.core.geometry import wrap_delta
from asteroids.core.match import Match, MatchEvent, MatchOver, Tagged, TurnStarted, new_match
from asteroids.core.params import params_for
from asteroids.core.world import SHIP_FLYING, SHOOTER_SAUCER, SHOOTER_SHIP, World
from asteroids.replay.files import load_replay, save_replay
from asteroids.replay.format import Replay, ReplayError, rules_fingerprint
from asteroids.replay.record import get_bot, record_bot_game
from asteroids.replay.verify import VerifyResult, verify_replay

__all__ = ["COVERAGE_KEYS", "DEMO_DIR", "GOLDEN_DIR", "REBLESS", "GoldenEntry", "coverage",
           "load_manifest", "main", "record_entry"]

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "replays"
DEMO_DIR = Path(__file__).resolve().parent / "demos"
REBLESS = "python -m asteroids.replay.rebless"
"""The one command that re-records the golden replays and the demos."""

COVERAGE_KEYS = (
    "wave_cleared", "ship_death", "safe_respawn", "hyperspace", "hyperspace_death",
    "small_saucer_kill", "extra_life", "game_over", "classic_preset", "arena_preset",
    "bounce_borders", "shield", "rock_collision", "obstacle_bounce", "shot_ricochet",
    "ricochet_hit", "turn_change", "match_over",
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
    players: int = 1
    """2: a two-player match (one bot flies both players' turns)."""

    def config(self, golden_dir: Path = GOLDEN_DIR) -> Config:
        """The settings: a file ``PRESET.toml`` beside the manifest or else the bundled
        preset of that name, then the overrides ("default" is the built-in defaults)."""
        if self.preset == "default":
            return load_config(overrides=self.overrides)
        beside = golden_dir / f"{self.preset}.toml"
        if beside.is_file():
            return load_config(beside, overrides=self.overrides)
        if self.preset in preset_names():
            return load_preset(self.preset, overrides=self.overrides)
        raise ValueError(f"{golden_dir / 'manifest.toml'}: no preset {self.preset!r} (the "
                         f"bundled ones are {', '.join(preset_names())}, or put "
                         f"{self.preset}.toml beside the manifest)")


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
            players=int(item.get("players", 1)),
        ))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ValueError("manifest: replay names must be unique")
    return entries


def record_entry(entry: GoldenEntry, golden_dir: Path = GOLDEN_DIR) -> Replay:
    """Play the entry's bot script again (stopping at game over, or when a two-player
    match is over)."""
    return record_bot_game(entry.config(golden_dir), entry.seed, get_bot(entry.bot),
                           entry.ticks, players=entry.players)


class _ArenaWatch:
    """Counts the arena's physics from consecutive Worlds (the core sends no event for a
    bounce): rocks colliding, bodies pushed off a pillar, shots ricocheting, and kills by
    shots that ricocheted.

    A rock or shot keeps its id for life, so a velocity that differs between the World before
    a tick and the World after it is a turn during that tick. Rocks fly straight except at
    the walls, the pillars, the shield and each other; ``rock_collision`` takes two rocks that
    both turned while within touching distance of each other (the collision radius of
    ``simulation._collide_asteroids``). ``obstacle_bounce`` takes a rock or the ship that ends
    the tick touching a pillar with its velocity's normal part turned from approaching to
    leaving. A shot's velocity changes only at a bouncing wall or a pillar
    (``shot_ricochet``). A shot that leaves before its time ran out hit something; it is a
    ricochet hit when it had turned earlier in its life, or when its straight path this tick
    could not have reached anything destroyed this tick (so it turned first).
    """

    def __init__(self, config: Config) -> None:
        p = params_for(config)
        self.p = p
        self.counts: Counter[str] = Counter()
        self.turned: set[int] = set()  # ids of shots that ricocheted
        self.pillars = p.obstacle_offsets.shape[0] > 1
        self.world_size = None if p.wrap_asteroids else (p.width, p.height)
        self.size = np.array([p.width, p.height])

    def tick(self, before: World, after: World, events: tuple[ev.Event, ...]) -> None:
        """Count what happened between ``before`` and ``after`` (one step)."""
        self._rocks(before, after)
        if self.pillars and after.ship_state == before.ship_state:
            self._ship(before, after)
        self._shots(before, after, events)

    def _delta(self, d: np.ndarray, wrap: bool) -> np.ndarray:
        return wrap_delta(d, self.size) if wrap else d

    def _rocks(self, before: World, after: World) -> None:
        common, ia, ib = np.intersect1d(before.ast_id, after.ast_id, assume_unique=True,
                                        return_indices=True)
        if common.shape[0] == 0:
            return
        vel_a, vel_b = before.ast_vel[ia], after.ast_vel[ib]
        moved = np.flatnonzero(np.any(vel_a != vel_b, axis=1))
        if moved.shape[0] == 0:
            return
        pos = after.ast_pos[ib]
        radius = after.ast_radius[ib]
        p = self.p
        if p.asteroids_collide and moved.shape[0] > 1:
            r = radius[moved] * (1.0 - 0.5 * p.asteroids_jaggedness)
            d = self._delta(pos[moved][:, None, :] - pos[moved][None, :, :], p.wrap_asteroids)
            dist = np.sqrt((d * d).sum(axis=2))
            touch = dist <= (r[:, None] + r[None, :]) * (1.0 + 1e-9) + 1e-6
            self.counts["rock_collision"] += int(np.count_nonzero(np.triu(touch, 1)))
        if self.pillars:
            self.counts["obstacle_bounce"] += self._off_pillar(
                pos[moved], radius[moved], vel_a[moved], vel_b[moved])

    def _off_pillar(self, pos: np.ndarray, radius: np.ndarray, vel_a: np.ndarray,
                    vel_b: np.ndarray) -> int:
        """How many of these bodies touch a pillar with their velocity turned off it."""
        c = circle_segment_contacts(pos, radius * (1.0 + 1e-9) + 1e-6, self.p.obstacle_points,
                                    self.p.obstacle_offsets)
        if c.circle.shape[0] == 0:
            return 0
        n = c.normal
        before = (vel_a[c.circle] * n).sum(axis=1)
        after = (vel_b[c.circle] * n).sum(axis=1)
        return len(set(c.circle[(before < 0.0) & (after > 0.0)].tolist()))

    def _ship(self, before: World, after: World) -> None:
        va = np.array([[before.ship_vx, before.ship_vy]])
        vb = np.array([[after.ship_vx, after.ship_vy]])
        if (va == vb).all() or after.ship_state != SHIP_FLYING:
            return
        self.counts["obstacle_bounce"] += self._off_pillar(
            np.array([[after.ship_x, after.ship_y]]), np.array([self.p.ship_radius]), va, vb)

    def _shots(self, before: World, after: World, events: tuple[ev.Event, ...]) -> None:
        common, ia, ib = np.intersect1d(before.shot_id, after.shot_id, assume_unique=True,
                                        return_indices=True)
        turned = common[np.any(before.shot_vel[ia] != after.shot_vel[ib], axis=1)].tolist()
        turned += self._turned_at_birth(before, after, events)
        self.counts["shot_ricochet"] += len(turned)
        self.turned.update(turned)
        kills = {owner: 0 for owner in (SHOOTER_SHIP, SHOOTER_SAUCER)}
        for e in events:
            if isinstance(e, (ev.AsteroidDestroyed, ev.SaucerDestroyed)):
                if e.by == "ship-shot":
                    kills[SHOOTER_SHIP] += 1
                elif e.by == "saucer-shot":
                    kills[SHOOTER_SAUCER] += 1
        if not any(kills.values()):
            return
        gone = np.flatnonzero(~np.isin(before.shot_id, after.shot_id) & (before.shot_ttl > 1))
        found = {owner: 0 for owner in kills}
        for k in gone.tolist():
            owner = int(before.shot_owner[k])
            if int(before.shot_id[k]) in self.turned:
                found[owner] += 1
                continue
            turn = self._turn_time(before, k)
            if turn <= 1.0 and not self._reaches_a_wreck(before, after, k, turn, events):
                found[owner] += 1
        self.counts["ricochet_hit"] += sum(min(found[o], kills[o]) for o in kills)

    def _turned_at_birth(self, before: World, after: World,
                         events: tuple[ev.Event, ...]) -> list[int]:
        """Ids of the shots fired this tick that turned already: one tick back along their
        velocity is not where any ``ShotFired`` of their shooter launched a shot."""
        born = np.flatnonzero(~np.isin(after.shot_id, before.shot_id))
        if born.shape[0] == 0:
            return []
        launches = {SHOOTER_SHIP: [], SHOOTER_SAUCER: []}
        for e in events:
            if isinstance(e, ev.ShotFired):
                owner = SHOOTER_SHIP if e.shooter == ev.SHOOTER_SHIP else SHOOTER_SAUCER
                launches[owner].append((e.x, e.y))
        out = []
        for k in born.tolist():
            fired = np.array(launches[int(after.shot_owner[k])], dtype=np.float64).reshape(-1, 2)
            back = self._delta(after.shot_pos[k] - after.shot_vel[k] - fired, self.p.wrap_shots)
            if not np.any(np.abs(back).max(axis=1) <= 1e-6):
                out.append(int(after.shot_id[k]))
        return out

    def _turn_time(self, before: World, k: int) -> float:
        """When (as a fraction of the tick) shot ``k``'s straight path first meets a pillar it
        ricochets off or a bouncing wall; 1.0 or more when it meets neither. Where pillars
        stop shots, a shot that vanished may have met one, which is no hit: those are not
        turns."""
        p = self.p
        start, vel = before.shot_pos[k], before.shot_vel[k]
        turn = 2.0
        if not p.wrap_shots:
            end = start + vel
            for axis in (0, 1):
                if vel[axis] and (end[axis] < 0.0 or end[axis] > self.size[axis]):
                    wall = 0.0 if vel[axis] < 0.0 else self.size[axis]
                    turn = min(turn, (wall - start[axis]) / vel[axis])
        if self.pillars and p.shots_ricochet_obstacles:
            pts, offs = p.obstacle_points, p.obstacle_offsets
            for b in range(offs.shape[0] - 1):
                poly = pts[offs[b]:offs[b + 1]]
                a, e = poly, np.roll(poly, -1, axis=0)
                edge = e - a
                den = vel[0] * edge[:, 1] - vel[1] * edge[:, 0]
                ok = den != 0.0
                rel = a - start
                safe = np.where(ok, den, 1.0)
                t = (rel[:, 0] * edge[:, 1] - rel[:, 1] * edge[:, 0]) / safe
                u = (rel[:, 0] * vel[1] - rel[:, 1] * vel[0]) / safe
                hit = ok & (t >= 0.0) & (t <= 1.0) & (u >= 0.0) & (u <= 1.0)
                if hit.any():
                    turn = min(turn, float(t[hit].min()))
        return turn

    def _reaches_a_wreck(self, before: World, after: World, k: int, until: float,
                         events: tuple[ev.Event, ...]) -> bool:
        """Whether shot ``k``'s straight path this tick, up to tick time ``until`` (its first
        turn), passes within reach of anything destroyed this tick (a rock or the saucer,
        moving as it did), a few pixels spare: then it may have hit before turning."""
        p = self.p
        gone = np.flatnonzero(~np.isin(before.ast_id, after.ast_id))
        centres = [before.ast_pos[gone]]
        motion = [before.ast_vel[gone]]
        reach = [before.ast_radius[gone]]
        if before.saucer_alive and any(isinstance(e, ev.SaucerDestroyed) for e in events):
            centres.append(np.array([[before.saucer_x, before.saucer_y]]))
            motion.append(np.array([[before.saucer_vx, before.saucer_vy]]))
            reach.append(np.array([p.saucer_radius[1 if before.saucer_small else 0]]))
        c, m, r = np.concatenate(centres), np.concatenate(motion), np.concatenate(reach)
        if c.shape[0] == 0:
            return False
        start = self._delta(before.shot_pos[k] - c, p.wrap_shots)
        rel = before.shot_vel[k] - m  # the shot in each target's frame
        speed2 = np.maximum((rel * rel).sum(axis=1), 1e-12)
        t = np.clip(-(start * rel).sum(axis=1) / speed2, 0.0, until)
        near = start + t[:, None] * rel
        return bool(np.any(np.sqrt((near * near).sum(axis=1)) <= r + 3.0))


def coverage(replay: Replay) -> tuple[VerifyResult, dict[str, int]]:
    """Verify ``replay`` and count what it exercises, from the events of the re-simulation
    and the Worlds before and after each tick (not from what the manifest claims)."""
    counts: Counter[str] = Counter()
    dead: set[int] = set()
    arena = _ArenaWatch(replay.config)

    def count(player: int, before: World, world: World, events: Sequence[ev.Event]) -> None:
        arena.tick(before, world, tuple(events))
        for e in events:
            if isinstance(e, ev.WaveCleared):
                counts["wave_cleared"] += 1
            elif isinstance(e, ev.ShipDestroyed):
                counts["hyperspace_death" if e.cause == "hyperspace" else "ship_death"] += 1
                dead.add(player)
            elif isinstance(e, ev.ShipSpawned) and player in dead:
                counts["safe_respawn"] += 1
                dead.discard(player)
            elif isinstance(e, ev.HyperspaceEntered):
                counts["hyperspace"] += 1
            elif isinstance(e, ev.SaucerDestroyed) and e.small and e.by in ("ship-shot", "ship"):
                counts["small_saucer_kill"] += 1
            elif isinstance(e, ev.ExtraLife):
                counts["extra_life"] += e.count
            elif isinstance(e, ev.GameOver):
                counts["game_over"] += 1
            elif isinstance(e, ev.ShieldChanged) and e.on:
                counts["shield"] += 1

    if replay.players == 1:
        previous = [new_world(replay.config, replay.seed)]

        def on_step(world: World, events: tuple[ev.Event, ...]) -> None:
            count(0, previous[0], world, events)
            previous[0] = world

        result = verify_replay(replay, on_step=on_step)
    else:
        waiting = list(new_match(replay.config, replay.seed, replay.players).worlds)

        def on_match_step(match: Match, tagged: tuple[Tagged, ...]) -> None:
            for k, world in enumerate(match.worlds):
                if world is not waiting[k]:  # the one World this tick stepped
                    count(k, waiting[k], world, [e for p, e in tagged
                                                 if p == k and not isinstance(e, MatchEvent)])
                    waiting[k] = world
            for _, e in tagged:
                if isinstance(e, TurnStarted):
                    counts["turn_change"] += 1
                elif isinstance(e, MatchOver):
                    counts["match_over"] += 1

        result = verify_replay(replay, on_state=on_match_step)
    counts.update(arena.counts)
    fingerprint = rules_fingerprint(replay.config)
    for preset in ("classic", "arena"):
        if fingerprint == rules_fingerprint(load_preset(preset)):
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


def _rebless_folder(folder: Path, *, check: bool, only: Sequence[str],
                   with_coverage: bool) -> tuple[int, dict[str, int] | None]:
    """Re-record the entries of ``folder/manifest.toml``; print one line each. Returns how
    many files changed (or would) and, for the goldens, the coverage totals."""
    rows = []
    changed = 0
    for entry in load_manifest(folder):
        if only and entry.name not in only:
            continue
        path = folder / f"{entry.name}.replay"
        fresh = record_entry(entry, folder)
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
            if not check:
                save_replay(fresh, path)
        label = entry.name if with_coverage else f"{folder.name}/{entry.name}"
        if not with_coverage:
            print(f"{label}: {status}; {fresh.ticks} ticks; score {fresh.final_score}, "
                  f"wave {fresh.final_wave}")
            continue
        result, counts = coverage(keep)
        if not result.ok:  # pragma: no cover - a fresh recording always verifies
            raise SystemExit(f"{entry.name}: does not verify right after recording: "
                             f"{result.problem}")
        covered = ", ".join(k for k, v in counts.items() if v) or "nothing"
        print(f"{label}: {status}; {fresh.ticks} ticks; covers {covered}")
        rows.append((entry, keep, counts))
    if not with_coverage or only:
        return changed, None
    text = _coverage_toml(rows)
    cov_path = folder / "coverage.toml"
    old_text = cov_path.read_text("utf-8") if cov_path.is_file() else ""
    if old_text != text:
        changed += 1
        print("coverage.toml: changed")
        if not check:
            cov_path.write_text(text, "utf-8")
    return changed, {k: sum(c[k] for _, _, c in rows) for k in COVERAGE_KEYS}


def main(argv: Sequence[str] | None = None) -> int:
    """Re-record every golden replay and demo; print which changed. Exit 0 (with
    ``--check``: 1 if any replay or the coverage summary would change)."""
    parser = argparse.ArgumentParser(prog=REBLESS, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if any replay would change")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--goldens", action="store_true",
                       help=f"only the golden replays ({GOLDEN_DIR})")
    which.add_argument("--demos", action="store_true",
                       help=f"only the attract-mode demos ({DEMO_DIR})")
    which.add_argument("--dir", type=Path, default=None,
                       help="only this folder of golden replays (manifest.toml beside them; "
                            "coverage.toml is written there)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="re-record only this entry (may repeat); coverage is not written")
    args = parser.parse_args(argv)
    if args.dir is not None:
        folders = [(args.dir, True)]
    elif args.goldens:
        folders = [(GOLDEN_DIR, True)]
    elif args.demos:
        folders = [(DEMO_DIR, False)]
    else:
        folders = [(GOLDEN_DIR, True), (DEMO_DIR, False)]
    changed = 0
    for folder, with_coverage in folders:
        n, total = _rebless_folder(folder, check=args.check, only=args.only,
                                   with_coverage=with_coverage)
        changed += n
        missing = [k for k, v in (total or {}).items() if not v]
        if missing:
            print(f"warning: no golden replay covers {', '.join(missing)}", file=sys.stderr)
    print(f"{changed} changed" + (" (nothing written: --check)" if args.check else ""))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
