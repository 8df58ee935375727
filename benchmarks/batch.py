"""Games per second, ours and the peers': ``python -m benchmarks.batch`` or ``asteroids bench
batch``.

The baseline for issue 25 (thousands of games at once), measured in one run on one core:

* **ours, one game at a time**: classic games through the one-game core (``new_world`` and
  ``step``), with idle inputs and with the aimer bot deciding every tick (its cost
  included): game-ticks per second, and memory per game (``tracemalloc``: what holding
  ``--hold`` live games costs, divided by their number, at tick 600);
* **ALE's Asteroids-v5** (the Atari 2600 game under the Stella emulator, C++), random
  actions: emulator frames per second (v5 repeats each action for 4 frames);
* **kesslergame** (pure Python, 30 asteroids) with a simple aiming controller (turn to the
  nearest asteroid, fire): frames per second.

* **ours, batched**: ``new_batch`` / ``step_batch`` at B = 1, 64, 1 024 and 4 096 games in
  lock-step, idle and with the batched aimer deciding (``asteroids.core.bot_batch``):
  game-ticks per second from the games' first tick over ``--batch-ticks`` ticks (or
  ``--batch-seconds``, whichever ends first; the note says which ticks), and memory per
  game (``tracemalloc``: what a batch holds after two steps, divided by B; its packed
  arrays alone, ``Batch.nbytes``, in the note);

The peers come with the optional ``[peers]`` extra (``python -m pip install '.[peers]'``);
without them their rows say so. The issue's targets for the batched core are printed beside
the table.

Wall clock on a machine that may be busy: run it on an idle machine and quote the machine
line it prints.
"""

from __future__ import annotations

import argparse
import math
import platform
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from asteroids.config import Config, load_config
from asteroids.core import World, new_world, step
from asteroids.core.batch import new_batch, step_batch
from asteroids.core.bot import bot_for
from asteroids.core.bot_batch import batch_bot_for
from asteroids.runtime import tune_malloc
from benchmarks._util import cpu_name

__all__ = ["Row", "ale_row", "batch_row", "kessler_row", "main", "one_game_row"]

SIZES = (1, 64, 1024, 4096)
"""The batch sizes the issue asks for."""

TARGETS = ("issue 25's targets for the batched core at B = 4 096, classic: at least 200 000 "
           "game-ticks/s with idle inputs, 100 000 with the aimer deciding (moonshot: "
           "1 000 000), at most 20 kB per game; 200 classic aimer games of 3 000 ticks "
           "balanced in under 10 s")
PEERS_MISSING = ("not installed: python -m pip install '.[peers]' (ale-py, kesslergame)")


@dataclass
class Row:
    """One line of the table."""

    engine: str
    inputs: str
    rate: float | None
    """Game-ticks (frames) per second on one core; None when not measured."""
    unit: str
    kb_per_game: float | None = None
    note: str = ""


def _play(cfg: Config, seeds: Sequence[int], ticks: int,
          decide: Callable[[World, Config], int] | None) -> int:
    played = 0
    for seed in seeds:
        w = new_world(cfg, seed)
        for _ in range(ticks):
            w, _ = step(w, 0 if decide is None else decide(w, cfg), cfg)
            played += 1
            if w.game_over:
                break
    return played


def _kb_per_game(cfg: Config, hold: int, at_tick: int = 600) -> float:
    """What ``hold`` live idle games cost at ``at_tick``, per game (kB)."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    worlds = []
    for seed in range(hold):
        w = new_world(cfg, seed)
        for _ in range(at_tick):
            w, _ = step(w, 0, cfg)
        worlds.append(w)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del worlds
    return used / hold / 1000.0


def one_game_row(cfg: Config, bot: str, games: int, ticks: int, hold: int) -> Row:
    """Our one-game core playing ``games`` games of up to ``ticks`` ticks with ``bot``."""
    decide = None if bot == "idle" else bot_for(bot)
    seeds = list(range(1, games + 1))
    start = time.perf_counter()
    played = _play(cfg, seeds, ticks, decide)
    rate = played / (time.perf_counter() - start)
    return Row("ours, one game at a time", bot, rate, "game-ticks/s",
               _kb_per_game(cfg, hold) if bot == "idle" else None)


def batch_row(cfg: Config, bot: str, lanes: int, ticks: int, seconds: float) -> Row:
    """``step_batch`` over ``lanes`` new classic games with ``bot`` deciding (its cost
    included), from their first tick for ``ticks`` ticks (the saucers' first visit, deaths
    and respawns come in the first 1 200), or until ``seconds`` have passed (at least two
    steps)."""
    decide = batch_bot_for(bot)
    batch = new_batch(cfg, range(1, lanes + 1))
    steps = 0
    start = time.perf_counter()
    while steps < 2 or (steps < ticks and time.perf_counter() - start < seconds):
        batch, _ = step_batch(batch, decide(batch, cfg), cfg)
        steps += 1
    rate = steps * lanes / (time.perf_counter() - start)
    size = f"{lanes:,}".replace(",", " ")
    return Row(f"ours, batched, B = {size}", bot, rate, "game-ticks/s",
               _batch_kb_per_game(cfg, lanes, decide),
               note=f"ticks 1-{steps}; arrays {batch.nbytes / lanes / 1000.0:.1f} kB/game")


def _batch_kb_per_game(cfg: Config, lanes: int, decide: Callable[..., Any]) -> float:
    """What a batch of ``lanes`` games holds after two steps, per game (kB, tracemalloc):
    its arrays and whatever else it keeps (while the phases run game by game, the Worlds)."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    batch = new_batch(cfg, range(1, lanes + 1))
    for _ in range(2):
        batch, _ = step_batch(batch, decide(batch, cfg), cfg)
    batch.nbytes  # noqa: B018 (every column packed, as a batched core holds them)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del batch
    return used / lanes / 1000.0


def ale_row(frames: int) -> Row:
    """ALE Asteroids-v5 with random actions: emulator frames per second."""
    try:
        import ale_py
        import gymnasium as gym
    except ImportError:
        return Row("ALE Asteroids-v5 (ale-py)", "random", None, "frames/s", note=PEERS_MISSING)
    gym.register_envs(ale_py)
    env = gym.make("ALE/Asteroids-v5", obs_type="ram")
    skip = int(env.unwrapped._frameskip) if isinstance(env.unwrapped._frameskip, int) else 4
    env.reset(seed=0)
    env.action_space.seed(0)
    done_frames = 0
    start = time.perf_counter()
    while done_frames < frames:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        done_frames += skip
        if term or trunc:
            env.reset()
    rate = done_frames / (time.perf_counter() - start)
    env.close()
    return Row(f"ALE Asteroids-v5 (ale-py {ale_py.__version__})", "random", rate, "frames/s",
               note=f"{skip} frames per step, RAM observation")


def _aiming_controller() -> Any:
    from kesslergame import KesslerController

    class Aimer(KesslerController):
        """Turn towards the nearest asteroid and fire: the simple controller of the issue."""

        def actions(self, ship_state: Any, game_state: Any) -> tuple[float, float, bool, bool]:
            sx, sy = ship_state["position"]
            best, aim = math.inf, 0.0
            for a in game_state["asteroids"]:
                ax, ay = a["position"]
                d = (ax - sx) ** 2 + (ay - sy) ** 2
                if d < best:
                    best, aim = d, math.degrees(math.atan2(ay - sy, ax - sx))
            turn = (aim - ship_state["heading"] + 180.0) % 360.0 - 180.0
            return 0.0, max(-180.0, min(180.0, 6.0 * turn)), True, False

        @property
        def name(self) -> str:
            return "aimer"

    return Aimer()


def kessler_row(seconds: float) -> Row:
    """kesslergame, 30 asteroids, the aiming controller: frames per second."""
    try:
        import kesslergame
        from kesslergame import Scenario, TrainerEnvironment
    except ImportError:
        return Row("kesslergame", "aiming controller", None, "frames/s", note=PEERS_MISSING)
    game = TrainerEnvironment(settings={"time_limit": seconds})
    scenario = Scenario(name="bench", num_asteroids=30, seed=1, time_limit=seconds,
                        ship_states=[{"position": (400, 400), "lives": 99}])
    start = time.perf_counter()
    score, _ = game.run(scenario=scenario, controllers=[_aiming_controller()])
    elapsed = time.perf_counter() - start
    frames = round(score.sim_time * game.frequency)
    version = getattr(kesslergame, "__version__", "")
    return Row(f"kesslergame {version}".strip(), "aiming controller, 30 asteroids",
               frames / elapsed, "frames/s", note=f"{frames} frames at {game.frequency:g} Hz")


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| engine | inputs | rate, one core | memory per game | note |",
             "|---|---|---:|---:|---|"]
    for r in rows:
        rate = "-" if r.rate is None else f"{r.rate:,.0f} {r.unit}".replace(",", " ")
        mem = "" if r.kb_per_game is None else f"{r.kb_per_game:.1f} kB"
        lines.append(f"| {r.engine} | {r.inputs} | {rate} | {mem} | {r.note} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="asteroids bench batch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8, help="one-game core: games per row")
    parser.add_argument("--ticks", type=int, default=3000, help="one-game core: ticks a game")
    parser.add_argument("--hold", type=int, default=64,
                        help="live games held to measure memory per game")
    parser.add_argument("--ale-frames", type=int, default=40000, help="ALE frames to run")
    parser.add_argument("--kessler-seconds", type=float, default=60.0,
                        help="kesslergame game time to run")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="batch sizes B, comma-separated (default %(default)s; none: '')")
    parser.add_argument("--batch-ticks", type=int, default=1200,
                        help="batched rows: ticks from the games' start (default %(default)s)")
    parser.add_argument("--batch-seconds", type=float, default=20.0,
                        help="batched rows: stop a row after this many seconds (default "
                        "%(default)s)")
    parser.add_argument("--no-peers", action="store_true", help="leave the peers out")
    args = parser.parse_args(argv)
    tune_malloc()
    cfg = load_config("classic")
    print(f"Machine: {cpu_name()}; Python {platform.python_version()}, numpy {np.__version__}")
    print(f"Classic rules; one-game rows: {args.games} games of up to {args.ticks} ticks.\n")
    rows = [one_game_row(cfg, bot, args.games, args.ticks, args.hold)
            for bot in ("idle", "aimer")]
    sizes = [int(b) for b in args.sizes.split(",") if b.strip()]
    rows += [batch_row(cfg, bot, b, args.batch_ticks, args.batch_seconds)
             for bot in ("idle", "aimer") for b in sizes]
    if not args.no_peers:
        rows += [ale_row(args.ale_frames), kessler_row(args.kessler_seconds)]
    print(table(rows))
    print("\nMemory per game by tracemalloc: the one-game row holds live Worlds at tick 600, a "
          "batched row a batch after two steps (its packed arrays alone in the note).")
    print(TARGETS + ".")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
