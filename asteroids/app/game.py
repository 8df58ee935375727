"""The services every view shares (camera, lines, sound, input bindings, replay saving).

``Game`` knows nothing about views: a view receives the Game it draws with, and screen
changes live beside the views (``views.show_title`` / ``views.start_game``). So the imports go
one way: ``window -> views -> game``, never back.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import arcade
from arcade.types import LRBT

from asteroids.app.audio import SoundBank
from asteroids.app.demos import load_demos
from asteroids.app.input import KeyBindings, first_gamepad, open_gamepad
from asteroids.app.recording import ReplaySaver
from asteroids.app.render import LineRenderer
from asteroids.app.scene import SceneBuilder, Segments
from asteroids.config import Config
from asteroids.config.rulesets import Ruleset
from asteroids.core.params import Params, params_for

if TYPE_CHECKING:
    from asteroids.app.hud import Hud
    from asteroids.replay import Replay

__all__ = ["Game"]


class Game:
    """Everything the views share, attached to one arcade window.

    Tests attach a Game to their own headless window; ``GameWindow`` attaches one to itself.

    Args:
        window: the arcade window to draw into.
        config: the settings.
        seed: the first game's seed; later games count up from it. None picks one from the
            clock.
        sound: build the sound bank (False for tests and screenshots).
        record: save a replay of every game played (the desktop window does; tests and
            screenshots do not unless they ask).
        record_to: save the replays to this file (later games of the session beside it,
            ``NAME-2.replay``, ...) instead of the user's replay folder.
        rulesets: the rules the title screen offers (``asteroids.config.rulesets``); None
            offers only ``config``, labelled "custom".
        ruleset_index: which of ``rulesets`` is selected; its config must equal ``config``.
    """

    def __init__(self, window: arcade.Window, config: Config, seed: int | None = None,
                 sound: bool = True, *, record: bool = False,
                 record_to: str | os.PathLike[str] | None = None,
                 rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0) -> None:
        self.window = window
        self.rulesets: tuple[Ruleset, ...] = (tuple(rulesets) if rulesets
                                              else (Ruleset("custom", config),))
        """The rulesets the player can pick on the title screen."""
        if not 0 <= ruleset_index < len(self.rulesets):
            raise ValueError(f"ruleset_index {ruleset_index} is not in "
                             f"[0, {len(self.rulesets)})")
        if self.rulesets[ruleset_index].config != config:
            raise ValueError("config must be the selected ruleset's config")
        self.ruleset_index = ruleset_index
        """Index of the selected ruleset in ``rulesets``. The hook for remembering the choice
        between runs (issue 10's settings store): restore it with ``select_ruleset`` before
        the first view is shown, save ``ruleset.label`` when it changes."""
        self.seed: int = int(seed) if seed is not None else time.time_ns() % (1 << 31)
        """Seed of the next game."""
        self.gamepad = open_gamepad(first_gamepad())
        """The first game controller, opened once for the session (None: keyboard only)."""
        self.audio = SoundBank(config, enabled=sound)
        self.saver: ReplaySaver | None = (ReplaySaver(record_to)
                                          if record or record_to is not None else None)
        """Where played games are saved; None when games are not recorded."""
        self.lines = LineRenderer(window.ctx)
        self._use_config(config)

    def _use_config(self, config: Config) -> None:
        """Make ``config`` the settings of every view made from now on: world size (camera,
        letterbox, HUD), tick rate, key bindings, the scene and which demos fit."""
        self.config = config
        self.params: Params = params_for(config)
        self.width = float(config.world.width_px)
        self.height = float(config.world.height_px)
        self.bindings = KeyBindings(config)
        self._demos: list[Replay] | None = None
        w, h = self.width, self.height
        self.camera = arcade.Camera2D(position=(w / 2, h / 2),
                                      projection=LRBT(-w / 2, w / 2, -h / 2, h / 2),
                                      window=self.window)
        self.fit_camera()
        self.scene = SceneBuilder(config)

    @property
    def ruleset(self) -> Ruleset:
        """The selected ruleset."""
        return self.rulesets[self.ruleset_index]

    def select_ruleset(self, index: int) -> Ruleset:
        """Select ``rulesets[index]`` (wrapping around both ways) for the views made from now
        on; the views already shown keep the config they were made with.

        The player's sound settings stay as they are (every ruleset carries the player's own
        ``[audio]``, ``[display]`` and ``[keys]``; see ``asteroids.config.rulesets``).
        """
        self.ruleset_index = index % len(self.rulesets)
        chosen = self.ruleset
        if chosen.config != self.config:
            self._use_config(chosen.config)
        return chosen

    def next_seed(self) -> int:
        """The seed for a new game (then moves on, so each game differs)."""
        seed = self.seed
        self.seed = (self.seed + 1) % (1 << 63)
        return seed

    def demos(self) -> list[Replay]:
        """The bundled attract-mode replays that fit this world (loaded once; may be empty)."""
        if self._demos is None:
            self._demos = load_demos(self.config)
        return self._demos

    def fit_camera(self) -> None:
        """Letterbox the whole world into the window, keeping its aspect ratio."""
        self.camera.match_window(viewport=True, projection=False, scissor=False,
                                 aspect=self.width / self.height)
        self.camera.scissor = self.camera.viewport

    def line_width(self) -> float:
        """The configured line width in pixels, as world units under the current camera."""
        vw = max(self.camera.viewport.width, 1.0)
        return self.config.display.line_width_px * self.width / vw

    def draw_frame(self, segs: Segments, hud: Hud | None) -> None:
        """Clear (black bars included), then draw the segments and the HUD in world units."""
        self.window.ctx.scissor = None
        self.window.clear(color=arcade.color.BLACK)
        self.camera.use()
        s, c = segs.arrays()
        self.lines.update(s, c)
        self.lines.draw(self.line_width(), glow=self.config.display.glow)
        if hud is not None:
            hud.draw()

    def quit(self) -> None:
        """Close the window (the current view is hidden first, so it can save); ``arcade.run``
        then returns."""
        self.audio.stop_all()
        self.window.hide_view()
        self.window.close()
