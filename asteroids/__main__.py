"""``python -m asteroids``: the same entry point as the ``asteroids`` command."""

from asteroids.cli import main

raise SystemExit(main())
