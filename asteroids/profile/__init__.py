"""The player's data: high-score tables, settings that stick, replay pruning.

Pure (never imports arcade)::

    book = ScoreBook.load()                       # data_dir()/scores.json; never raises
    key = ruleset_key(config)                     # "classic", "custom-1a2b3c4d:assisted"
    if book.qualifies(key, score):
        rank = book.add(key, ScoreEntry("???", score, wave, now_iso(), seconds, replay_name))
        book.set_initials(key, rank, "ABC")
    problem = book.save()                         # None, or one line for the screen
    prune_replays(replays_dir(), config.storage.keep_replays, book.referenced_replays())

Both files go through one versioned JSON store (``asteroids.profile.store``): bounded reads
of regular files only, unusable files moved aside and bad fields copied aside before the
next write, upgrades from older schemas, newer and read-only files never written, and saves
merged with what is on disk under an advisory lock, written atomically
(``asteroids.storage``).
"""

from asteroids.profile.replays import prune_replays
from asteroids.profile.rulesets import (
    ASSIST_RULES,
    assists,
    closest_preset,
    is_assisted,
    is_ruleset_key,
    ruleset_key,
    ruleset_label,
)
from asteroids.profile.scores import (
    MAX_ENTRIES,
    ScoreBook,
    ScoreEntry,
    ScoreFileError,
    now_iso,
    parse_scores,
    valid_initials,
)
from asteroids.profile.settings import Settings, SettingsFileError, parse_settings

__all__ = [
    "ASSIST_RULES",
    "MAX_ENTRIES",
    "ScoreBook",
    "ScoreEntry",
    "ScoreFileError",
    "Settings",
    "SettingsFileError",
    "assists",
    "closest_preset",
    "is_assisted",
    "is_ruleset_key",
    "now_iso",
    "parse_scores",
    "parse_settings",
    "prune_replays",
    "ruleset_key",
    "ruleset_label",
    "valid_initials",
]
