"""The player's profile in the window: high scores, remembered settings and the messages for
the player about them (a corrupt file moved aside, a failed save).

One job: keep the player's files (``asteroids.profile``, through its store) and say what
became of them. It knows nothing of rules selection, sound or drawing: the shell
(``asteroids.app.game.Game``) tells it what to remember. No arcade here.
"""

from __future__ import annotations

import os
import sys
from dataclasses import fields

from asteroids.config import Config
from asteroids.core import World
from asteroids.paths import data_dir, replays_dir
from asteroids.profile import ScoreBook, ScoreEntry, Settings, now_iso, prune_replays
from asteroids.profile.scores import SCORES_FILE
from asteroids.profile.settings import SETTINGS_FILE

__all__ = ["REMEMBERED_FIELDS", "PlayerProfile", "ScoreSlot"]

REMEMBERED_FIELDS: tuple[str, ...] = tuple(
    f.name for f in fields(Settings)
    if not f.name.startswith("_") and f.name not in ("path", "warnings", "read_only"))
"""Every value the profile remembers (``Settings``' fields): what "reset to defaults"
forgets."""


class ScoreSlot:
    """A finished game's place in a high-score table, while its initials are entered."""

    def __init__(self, key: str, rank: int, score: int, error: str | None,
                 entry: ScoreEntry | None = None) -> None:
        self.key = key
        """The table (``asteroids.profile.ruleset_key``)."""
        self.rank = rank
        """0-based place in it."""
        self.score = score
        self.error = error
        """Why the table could not be saved (None: saved, with initials "???" for now)."""
        self.entry = entry
        """The entry itself: the initials go to it wherever it ranks when they are typed
        (another window may have saved scores meanwhile); None: the entry at ``rank``."""


class PlayerProfile:
    """The player's high scores and remembered settings, or none (tests, screenshots).

    Args:
        keep: load and save the player's files in the data folder (the desktop window
            does); False keeps no tables and remembers options for this session only.
        settings: the remembered settings when the caller has loaded them already (the
            window does, for its size); None loads them (with ``keep``). Without ``keep``
            they are applied but never saved (``asteroids watch`` shows a replay with the
            player's look).
    """

    def __init__(self, keep: bool = False, settings: Settings | None = None) -> None:
        self.notices: list[str] = []
        """One-line messages for the player; the next title screen shows them once."""
        self.scores: ScoreBook | None = None
        """The high-score tables (None: this session keeps none)."""
        self.settings: Settings | None = None
        """The remembered settings (None: nothing remembered yet)."""
        self.session_only = False
        """True when ``settings`` holds this session's options only (nothing is saved)."""
        self.card_due = False
        """The next game shows the controls card (a new player's first game)."""
        self.is_new = False
        """True when neither file existed at start: a new player."""
        if keep:
            folder = data_dir()
            self.is_new = not any(os.path.lexists(folder / name)
                                  for name in (SETTINGS_FILE, SCORES_FILE))
            self.scores = ScoreBook.load()
            self.settings = settings if settings is not None else Settings.load()
            self.notices += [*self.scores.warnings, *self.settings.warnings]
            self.card_due = self.is_new
        elif settings is not None:
            self.settings = settings
            self.session_only = True

    @property
    def keeps_scores(self) -> bool:
        """Whether high scores are kept."""
        return self.scores is not None

    def session_settings(self) -> Settings:
        """The remembered settings, made for this session when there are none (no profile:
        options still apply until the window closes)."""
        if self.settings is None:
            self.settings = Settings()
            self.session_only = True
        return self.settings

    def tell(self, line: str) -> None:
        """A message for the player: on stderr now, on the next title screen once."""
        print(f"asteroids: {line}", file=sys.stderr)
        if line not in self.notices:
            self.notices.append(line)

    def take_notices(self) -> list[str]:
        """The waiting messages (the list is emptied)."""
        out, self.notices[:] = list(self.notices), []
        return out

    def remember(self, **changes: object) -> str | None:
        """Set remembered settings (``Settings`` field names) and save them at once.

        Returns None when saved (or nothing changed, or nothing is remembered), else the
        one-line error, which is also told (``tell``); the values stay in memory and the
        next save retries.
        """
        s = self.settings
        if s is None:
            return None
        changed = False
        for name, value in changes.items():
            if getattr(s, name) != value:
                setattr(s, name, value)
                changed = True
        return self.save_settings() if changed else None

    def save_settings(self) -> str | None:
        """Save the remembered settings now (see ``remember``)."""
        if self.settings is None or self.session_only:
            return None
        error = self.settings.save()
        if error is not None:
            self.tell(error)
        return error

    def best(self, key: str) -> int | None:
        """The best score in table ``key`` (None when no tables are kept)."""
        return None if self.scores is None else self.scores.best(key)

    def enter_score(self, key: str, world: World, config: Config,
                    replay: str | None) -> ScoreSlot | None:
        """Put a finished game in table ``key`` with initials "???" and save the tables.

        The entry is saved before the initials are asked for, so leaving, a timeout or a
        crash during the entry never loses it. Returns None when no tables are kept or the
        score does not make the table.

        Args:
            key: the table (``RulesSelection.score_key`` of ``config``).
            world: the world at game over.
            config: the rules it was played with.
            replay: the game's replay file name in ``replays_dir()`` (None: not saved).
        """
        if self.scores is None:
            return None
        self.scores.refresh()  # another window's scores count too
        if not self.scores.qualifies(key, world.score):
            return None
        entry = ScoreEntry(initials="???", score=int(world.score), wave=max(int(world.wave), 1),
                           date=now_iso(),
                           play_seconds=round(world.tick / config.world.tick_hz, 2),
                           replay=replay)
        rank = self.scores.add(key, entry)
        if rank < 0:
            return None
        error = self.save_scores()
        rank = self.scores.rank_of(key, entry)  # the save merged what is on disk
        if rank < 0:
            return None
        return ScoreSlot(key, rank, entry.score, error, entry)

    def set_initials(self, slot: ScoreSlot, initials: str) -> str | None:
        """Give ``slot``'s entry its initials and save the tables (None: saved; else the
        one-line error, also told)."""
        if self.scores is None:
            return None
        if slot.entry is None:
            self.scores.set_initials(slot.key, slot.rank, initials)
            return self.save_scores()
        self.scores.set_initials_of(slot.key, slot.entry, initials)
        error = self.save_scores()
        rank = self.scores.rank_of(slot.key, slot.entry)  # where it is now, merged
        if rank >= 0:
            slot.rank = rank
        return error

    def save_scores(self) -> str | None:
        """Save the tables now; a failure is told and returned (the tables stay in memory
        and the next save retries)."""
        if self.scores is None:
            return None
        error = self.scores.save()
        if error is not None:
            self.tell(error)
        return error

    def prune_replays(self, keep: int) -> list[os.PathLike[str]]:
        """Delete the oldest recorded games beyond ``keep`` that no table refers to (never
        when no tables are kept: then nothing says which ones matter)."""
        if self.scores is None:
            return []
        try:
            return list(prune_replays(replays_dir(), keep, self.scores.referenced_replays(),
                                      root=data_dir()))
        except Exception as exc:  # pruning is housekeeping: never stop the game for it
            why = (f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError)
                   and exc.strerror else f"{type(exc).__name__}: {exc}")
            print(f"asteroids: replays not pruned: {why}", file=sys.stderr)
            return []
