"""What the screens hand each other, and the moves between them as the screens see them.

The screens (``title_view``, ``play_view``, ``game_over_view``, ``initials``,
``replay_view``) never import each other: a screen asks ``game.nav`` (a ``Navigator``) for
the next one, and ``asteroids.app.router.Router`` (which imports them all) makes it. So the
imports go ``router -> screens -> this module``, never back. No arcade, no game rule here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from asteroids.app.profile_service import ScoreSlot
    from asteroids.app.recording import SaveResult
    from asteroids.config import Config
    from asteroids.config.live import Change
    from asteroids.core import World
    from asteroids.replay import Replay

__all__ = ["FinishedGame", "Navigator", "player_name"]


def player_name(player: int) -> str:
    """``PLAYER 1`` for index 0, ..."""
    return f"PLAYER {player + 1}"


@dataclass
class FinishedGame:
    """A game that ended, as the screens after it need it."""

    worlds: tuple[World, ...]
    """Each player's World at the end (one for a one-player game)."""
    config: Config
    """The rules it was played with (the player's display, sound and keys)."""
    seed: int
    active: int = 0
    """Whose World is on screen."""
    slots: list[tuple[int, ScoreSlot]] = field(default_factory=list)
    """(player, place) of each player who made the high-score table, in the order their
    initials are asked for."""
    saved: SaveResult | None = None
    """What became of the replay (None: not recorded)."""
    rules_changed: bool = False
    """A live reload changed the rules during it: it entered no table."""
    pending: tuple[Change, ...] = ()
    """Settings changes that wait for the next game."""

    @property
    def players(self) -> int:
        """Players in the game."""
        return len(self.worlds)

    @property
    def world(self) -> World:
        """The World on screen."""
        return self.worlds[self.active]

    @property
    def slot(self) -> ScoreSlot | None:
        """The first place taken (None: nobody made the table)."""
        return self.slots[0][1] if self.slots else None

    @property
    def pick(self) -> int | None:
        """The table row to select afterwards: the best place taken."""
        return min(slot.rank for _, slot in self.slots) if self.slots else None


class Navigator(Protocol):
    """The moves between screens (``asteroids.app.router.Router``)."""

    def title(self, *, table: bool = False, pick: int | None = None) -> None:
        """The title / attract screen (on its high-score table, row ``pick`` selected)."""

    def play(self, players: int = 1) -> None:
        """A new game on the selected rules, with the next seed."""

    def game_over(self, finished: FinishedGame) -> None:
        """The game-over screen of a game that just ended."""

    def initials(self, finished: FinishedGame, index: int = 0) -> None:
        """The initials entry of ``finished.slots[index]`` (past the last: the table)."""

    def watch(self, replay: Replay, back: Callable[[], None] | None = None) -> None:
        """The replay viewer (``back``: what Escape does; None closes the window)."""
