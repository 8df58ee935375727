"""A later version of the game with a new enemy, made in a scratch copy of the package the
way docs/modders/adding-an-enemy.md says: a drifting mine that explodes on contact.

``later_with_mine(tmp)`` copies ``asteroids/`` under ``tmp`` and makes the mine's edits, each
an anchored insertion, in at most five files: the mine's rules module (new), its line in
``bodies.ENEMIES``, its state in ``World``'s field table, its settings table, and its look
and sound in the app's table. tests/test_adding_an_enemy.py plays it; other tests may too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MINE_MODULE = '''"""The mine: drifts in from the top edge every ``game.mines.every_s``
while none is out, wraps, and explodes when the ship touches it (the ship is lost; the
shield explodes it safely); the ship's shots destroy it for ``game.mines.points``."""

from __future__ import annotations

from typing import Any

import numpy as np

from asteroids.core.craft import Contact, Craft, CraftRows, Enemy
from asteroids.core.kinds import Cause, Kind, Shooter
from asteroids.core.lanes import Lanes
from asteroids.core.scoring import player_points
from asteroids.core.tables import COS_TABLE, HEADING_STEPS, SIN_TABLE

KIND, CAUSE, HIT = 3, 6, 5
_ANGLES = np.arange(8) * (np.pi / 4)
_OUTLINE = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)


def _knob(p: Any, name: str) -> Any:
    return p.per_tick["game.mines." + name]


def mine_craft(d: Any, p: Any) -> Craft | None:
    if not d.mine_alive:
        return None
    x, y, r = d.mine_x, d.mine_y, _knob(p, "radius_px")
    return Craft(KIND, x, y, d.mine_vx, d.mine_vy, r, lambda: np.array([x, y]) + _OUTLINE * r)


def mine_rows(d: Any, p: Any) -> CraftRows:
    x, y, r = d.mine_x, d.mine_y, _knob(p, "radius_px")
    return CraftRows(d.mine_alive, x, y, d.mine_vx, d.mine_vy, np.full(x.shape[0], r),
                     lambda g: np.stack([x[g], y[g]], axis=1)[:, None, :] + _OUTLINE * r,
                     np.zeros(x.shape[0], dtype=bool))


def mine_clock(L: Lanes, d: Any, p: Any, rng: Any) -> tuple[Any, Any]:
    every = _knob(p, "every_s")
    if every <= 0:
        return False, False
    waiting = (d.mine_alive ^ True) & (d.game_over ^ True)
    timer = L.where(waiting, d.mine_timer - 1, d.mine_timer)
    arrive = waiting & (timer <= 0)
    x = L.uniform(rng, 0.0, p.width, arrive)
    heading = L.below(rng, HEADING_STEPS, arrive)
    speed = _knob(p, "speed_px_per_s")
    d.mine_x = L.where(arrive, x, d.mine_x)
    d.mine_y = L.where(arrive, 0.0, d.mine_y)
    d.mine_vx = L.where(arrive, speed * L.take(COS_TABLE, heading), d.mine_vx)
    d.mine_vy = L.where(arrive, speed * L.take(SIN_TABLE, heading), d.mine_vy)
    d.mine_alive = d.mine_alive | arrive
    d.mine_timer = L.where(arrive, every, timer)
    return arrive, False


def drift(L: Lanes, d: Any, p: Any) -> None:
    if not (L.many or d.mine_alive):
        return
    d.mine_x = L.where(d.mine_alive, L.wrap(d.mine_x + d.mine_vx, p.width), d.mine_x)
    d.mine_y = L.where(d.mine_alive, L.wrap(d.mine_y + d.mine_vy, p.height), d.mine_y)


def explode(L: Lanes, d: Any, p: Any, when: Any, cause: Any, scoring: Any) -> Any:
    points = L.where(when, player_points(L, p, (_knob(p, "points"),), 0, cause, scoring), 0)
    d.score = d.score + points
    d.mine_alive = d.mine_alive & (when ^ True)
    return points


MINE = Enemy(KIND, CAUSE, HIT, "mine", mine_craft, mine_rows, mine_clock, drift, explode,
             contacts=(Contact(Kind.SHIP, KIND, craft_by=CAUSE, other_by=Cause.SHIP),),
             shot_by=(Shooter.SHIP,))
'''

MINE_STATE = '''    mine_alive: bool = per_game(False, neutral=False)
    mine_x: float = per_game(0.0, neutral=0.0)
    mine_y: float = per_game(0.0, neutral=0.0)
    mine_vx: float = per_game(0.0, neutral=0.0)
    mine_vy: float = per_game(0.0, neutral=0.0)
    mine_timer: int = per_game(lambda p: p.per_tick["game.mines.every_s"], neutral=0)
'''

MINE_TABLE = '''

@dataclass(frozen=True, slots=True)
class MinesConfig:
    """Drifting mines (a later version's enemy)."""

    every_s: float = knob(4.0, "a mine drifts in this often while none is out (0 = never)",
                          unit="s", lo=0.0, hi=600.0, timing=TIMER, tick=ticks(),
                          since="0.3.0", before=0.0)
    speed_px_per_s: float = knob(90.0, "how fast a mine drifts", unit="px/s", lo=0.0,
                                 hi=2000.0, timing=NEW_ONES, tick=PER_TICK, since="0.3.0",
                                 before=90.0)
    radius_px: float = knob(14.0, "a mine's size", unit="px", lo=1.0, hi=500.0, timing=STEP,
                            tick=AS_IS, since="0.3.0", before=14.0)
    points: int = knob(300, "points for shooting a mine", lo=0, hi=1_000_000, timing=STEP,
                       tick=AS_IS, since="0.3.0", before=300)
'''

MINE_LOOK = '''def _mine_drawing(craft: Craft) -> np.ndarray:
    """The mine: an octagon and four spikes."""
    pts = craft.outline()
    hull = np.stack([pts, np.roll(pts, -1, axis=0)], axis=1)
    centre = np.array([craft.x, craft.y])
    spikes = np.stack([pts[::2], centre + (pts[::2] - centre) * 1.6], axis=1)
    return np.concatenate([hull, spikes])


def _mine_sound(rate: int) -> np.ndarray:
    """A dull thud: 90 Hz, a quarter second, decaying."""
    t = np.arange(int(rate * 0.25)) / rate
    return np.sin(2.0 * np.pi * 90.0 * t) * np.exp(-12.0 * t)


LOOKS: Mapping[str, Look] = MappingProxyType({
    "mine": Look(draw=_mine_drawing, sound=_mine_sound),
})'''

EDITS: tuple[tuple[str, str, str], ...] = (
    ("core/bodies.py", "ENEMIES: tuple[Enemy, ...] = ()",
     "from asteroids.core.mine import MINE  # noqa: E402\n\nENEMIES: tuple[Enemy, ...] = (MINE,)"),
    ("core/world.py", "    game_over: bool = per_game(False)\n",
     "    game_over: bool = per_game(False)\n" + MINE_STATE),
    ("config/rule_tables.py", "\n\n@dataclass(frozen=True, slots=True)\nclass GameConfig:",
     MINE_TABLE + "\n\n@dataclass(frozen=True, slots=True)\nclass GameConfig:"),
    ("config/rule_tables.py",
     "    heartbeat: HeartbeatConfig = field(default_factory=HeartbeatConfig)\n",
     "    heartbeat: HeartbeatConfig = field(default_factory=HeartbeatConfig)\n"
     "    mines: MinesConfig = field(default_factory=MinesConfig)\n"),
    ("app/enemy_looks.py", "LOOKS: Mapping[str, Look] = MappingProxyType({\n})", MINE_LOOK),
)
"""(file, anchor, replacement): every edit the mine needs, besides its new module."""

NEW_FILES = {"core/mine.py": MINE_MODULE}


def later_version(tmp: Path, edits: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...],
                  new_files: dict[str, str] | None = None, version: str = "0.3.0") -> Path:
    """A copy of the package under ``tmp`` with ``new_files`` (path under ``asteroids/`` ->
    text), the ``(file, anchor, replacement)`` edits (each anchor found exactly once) and
    version ``version``; returns the folder to put on ``PYTHONPATH``. The scratch copies of
    tests/test_adding_a_rule.py and tests/test_adding_an_enemy.py are made by it."""
    pkg = tmp / "later"
    shutil.copytree(ROOT / "asteroids", pkg / "asteroids",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in (new_files or {}).items():
        (pkg / "asteroids" / name).write_text(text, "utf-8")
    edits = [*edits, ("__init__.py", '__version__ = "', f'__version__ = "{version}"  # ')]
    for name, anchor, new in edits:
        path = pkg / "asteroids" / name
        text = path.read_text("utf-8")
        assert text.count(anchor) == 1, f"{name}: the anchor {anchor!r} moved; update the test"
        path.write_text(text.replace(anchor, new, 1), "utf-8")
    return pkg


def later_with_mine(tmp: Path, version: str = "0.3.0") -> Path:
    """A copy of the package under ``tmp`` with the mine added and version ``version``;
    returns the folder to put on ``PYTHONPATH``."""
    return later_version(tmp, EDITS, NEW_FILES, version)


def files_touched() -> set[str]:
    """The package files the mine adds or changes (the version line aside)."""
    return set(NEW_FILES) | {name for name, _, _ in EDITS}
