"""The tuning lab: measure what a config change does to difficulty with headless bot games.

``asteroids balance`` plays the same seeds with a bot on two or more configs and compares
them side by side (``asteroids.lab.cli``). The pieces, each usable on its own:

* ``game``: one bot game as a pure function (config, seed, bot, tick cap) -> ``GameResult``;
* ``engines``: many games in a process pool or as Ray tasks, results in game order;
* ``stats``: per-side summaries, paired bootstrap intervals and the verdict;
* ``report``: the text table and the JSON document; ``plot``: distribution plots.

Nothing here imports arcade, matplotlib or Ray at import time, and this package file imports
nothing at all, so registering the command costs the other commands no start-up time.
"""

__all__: list[str] = []
