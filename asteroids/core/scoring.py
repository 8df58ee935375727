"""What a break earns the player: the scoring rule written once, for rocks and the saucer, for
one game (``lanes.ONE``) and for every game's rows (``lanes.MANY``)."""

from __future__ import annotations

from typing import Any

from asteroids.core.kinds import Cause
from asteroids.core.lanes import Lanes
from asteroids.core.params import Params

__all__ = ["player_broke", "player_points"]


def player_points(L: Lanes, p: Params, table: tuple[int, ...], index: Any, cause: Any,
                  scoring: Any) -> Any:
    """The points a break earns: ``table[index]`` when the player made it (a shot of the
    ship, or the ship ramming it where ``ramming_scores`` is on) and ``scoring`` holds (the
    game is on: a shot still in flight after game over scores nothing), else 0. One break,
    or one per row; ``resolve`` (rocks), ``saucer.destroy_saucer`` and the batched pass
    (``resolve_rows``) all score by it."""
    by_player = (cause == Cause.SHIP_SHOT) | ((cause == Cause.SHIP) & p.scoring_ramming_scores)
    return L.where(by_player & scoring, L.take(table, index), 0)


def player_broke(cause: Any) -> Any:
    """Whether the player broke it (a shot of the ship, or the ship itself), which restarts
    the lurk clock (``since_break``); one cause, or one per row."""
    return (cause == Cause.SHIP_SHOT) | (cause == Cause.SHIP)
