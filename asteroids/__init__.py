"""asteroids: an Asteroids-style vector game with a deterministic numpy core.

Importing the package is cheap: it imports neither arcade nor numpy.

Versions: ``__version__`` is the release, ``MAJOR.MINOR.PATCH`` (0.1.0 was the first). Each
release that changes what the game writes (a replay format, a rule knob, a rules version, a
player-file schema) raises MINOR and freezes what it wrote in ``tests/replays/archive/<version>/``;
every later release must verify and load all of it. The rules version (``rules_version`` in
the settings, ``asteroids.config.schema.RULES_VERSION`` the newest) and the replay format
(``asteroids.replay.format.FORMAT_VERSION``) are separate integers; ``asteroids --version``
prints all three.
"""

__all__ = ["__version__"]

__version__ = "0.2.0"
