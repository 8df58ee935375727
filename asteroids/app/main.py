"""Entry points of the desktop game, called by the CLI: ``run_game`` (play) and
``watch_replay`` (watch a recorded game)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from asteroids.config import Config

if TYPE_CHECKING:
    from asteroids.app.live import LiveSpec
    from asteroids.config.rulesets import Ruleset
    from asteroids.replay import Replay
    from asteroids.replay.work import Deadline

__all__ = ["EXIT_NO_DISPLAY", "run_game", "watch_replay"]

EXIT_NO_DISPLAY = 3
"""Exit code when no window can be opened (no display, no OpenGL 3.3, arcade missing)."""


def _fail(message: str) -> int:
    print(f"asteroids: {message}", file=sys.stderr)
    return EXIT_NO_DISPLAY


def _run_window(make_window: Callable[[], Any], audio: str = "auto") -> int:
    """Open a window with ``make_window`` and run arcade until it closes, on audio driver
    ``audio`` (``audio_driver.CHOICES``, chosen before arcade opens one).

    Returns 0, or ``EXIT_NO_DISPLAY`` with a one-line reason on stderr (never a traceback)
    when arcade cannot load or no window can be opened.
    """
    from asteroids.app import audio_driver

    try:
        audio_driver.choose(audio)
    except audio_driver.TooLate as exc:
        print(f"asteroids: {exc}", file=sys.stderr)
    try:
        import arcade
    except Exception as exc:  # arcade/pyglet missing or broken: say so in one line
        return _fail(f"cannot load arcade ({type(exc).__name__}: {exc})")
    if arcade.headless:
        return _fail("ARCADE_HEADLESS is set, so no window can be shown; unset it to play")

    from asteroids.runtime import tune_malloc

    tune_malloc()
    try:
        window = make_window()
    except Exception as exc:  # no display, no OpenGL 3.3 context, ...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return _fail(f"cannot open the game window: {type(exc).__name__}"
                     f"{': ' + reason if reason else ''} "
                     "(a desktop display with OpenGL 3.3 is needed)")
    try:
        arcade.run()
    except KeyboardInterrupt:
        pass
    finally:
        if not window.closed:
            window.close()  # hides the view first: a game in progress saves its replay
    return 0


def run_game(config: Config, seed: int | None = None, *,
             record_to: str | os.PathLike[str] | None = None,
             rulesets: Sequence[Ruleset] | None = None, ruleset_index: int = 0,
             pinned: Collection[str] = (), live: LiveSpec | None = None,
             audio: str | None = None) -> int:
    """Open the game window and play until it is closed. Every game played is recorded.

    Args:
        config: the resolved, validated settings.
        seed: the first game's seed (later games count up); None picks one from the clock.
        record_to: save the replay to this file (later games beside it, ``NAME-2.replay``,
            ...) instead of the user's replay folder.
        rulesets: the rules the title screen offers (``ruleset_choices``); None offers
            only ``config``.
        ruleset_index: the one selected at start; its config must be ``config``.
        pinned: what the command line set explicitly (dotted ``--set`` keys, and
            ``ruleset`` when ``--config`` or a rules ``--set`` chose the rules): the
            settings remembered from the last run (size, full screen, mute, volume, rules)
            do not replace these at start.
        live: watch the settings files and apply their changes while the game runs
            (``--live``); ``config`` is what they gave at start.
        audio: the audio driver (``--audio``: one of ``audio_driver.CHOICES``);
            None: the ``audio.driver`` setting of ``config``.

    Returns:
        The process exit code: 0 after a normal quit, ``EXIT_NO_DISPLAY`` when no window
        could be opened (with a one-line reason on stderr, never a traceback).
    """
    def make() -> Any:
        from asteroids.app.window import GameWindow

        return GameWindow(config, seed=seed, record=True, record_to=record_to,
                          rulesets=rulesets, ruleset_index=ruleset_index, pinned=pinned,
                          live=live)

    return _run_window(make, audio if audio is not None else config.audio.driver)


def watch_replay(replay: Replay, config: Config | None = None, speed: int = 1, *,
                 live: LiveSpec | None = None, pinned: Collection[str] = (),
                 deadline: Deadline | None = None, audio: str | None = None) -> int:
    """Open the game window and play ``replay`` in it until the window is closed, with the
    player's remembered look (palette, monitor look, HUD scale, sound; never saved).

    Args:
        replay: the loaded recording.
        config: the player's settings; only their display, sound and key sections are used
            (the game itself runs on the replay's settings). None: all from the replay.
        speed: the starting speed (1, 2, 4 or 8).
        live: watch the settings files (``watch --live``); their display, sound and keys
            apply while the replay plays (``config`` is what they gave at start).
        pinned: what the command line set (dotted ``--set`` keys): the remembered look does
            not replace these.
        deadline: ``watch --time-limit``: the viewer closes the window when it passes and
            sets ``deadline.stopped_at`` to the tick it showed.
        audio: the audio driver (``--audio``); None: the ``audio.driver`` setting of
            ``config`` (auto without one).

    Returns:
        The process exit code, as for ``run_game``.
    """
    import dataclasses

    view_config = replay.config
    if config is not None:
        view_config = dataclasses.replace(replay.config, display=config.display,
                                          audio=config.audio, keys=config.keys)

    def make() -> Any:
        from asteroids.app.window import GameWindow

        window = GameWindow(view_config, replay=replay, speed=speed, live=live,
                            player=config, pinned=pinned)
        if deadline is not None:
            from asteroids.app.replay_view import ReplayView

            view = window.current_view
            if isinstance(view, ReplayView):
                view.deadline = deadline
        return window

    if audio is None:
        audio = config.audio.driver if config is not None else "auto"
    return _run_window(make, audio)
