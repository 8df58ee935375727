"""``--live`` in the window: look at the watched settings files once a frame, hand valid
settings to the screen on show, and put up what changed (or what is broken) on the panel.

One job: the reload. What new player settings mean for the rest of the window (the rulesets,
the options, the sound, the window's size) is the shell's, through the ``take_player``
callback (``asteroids.app.game.Game``); what they mean for the screen on show is the
screen's (``SettingsView.apply_settings``). No game rule here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from asteroids.app.live import LiveReload, LiveSpec, Outcome, notice_lines, problem_lines, tell
from asteroids.app.live_panel import LivePanel
from asteroids.config import Config
from asteroids.config.live import Change

__all__ = ["LiveService", "SettingsView"]


class SettingsView(Protocol):
    """A screen that takes new settings from a live reload (``WorldView``)."""

    def apply_settings(self, player: Config, changes: list[Change]) -> Outcome: ...


class LiveService:
    """The watched files, the last good settings and the panel that shows reloads.

    Args:
        spec: what to watch.
        player: the settings the files gave at start.
        take_player: called with the new settings and what changed, before the screen is
            told (the shell updates rulesets, options, sound and window).
    """

    def __init__(self, spec: LiveSpec, player: Config,
                 take_player: Callable[[Config, list[Change]], None]) -> None:
        self.reload = LiveReload(spec, player)
        """The file watcher and the last good settings."""
        self.panel = LivePanel()
        """The reload notice and problem panel."""
        self.take_player = take_player

    @property
    def spec(self) -> LiveSpec:
        """What is watched."""
        return self.reload.spec

    def poll(self, view: SettingsView, delta_time: float) -> None:
        """Once per frame: age the notice; when the watched files changed, hand valid
        settings to ``view`` and put up what changed, or the problems of a broken file."""
        panel = self.panel
        panel.update(delta_time)
        result = self.reload.poll()
        if result is None:
            return
        if result.config is None:
            assert result.error is not None
            lines = problem_lines(result.changed, result.error)
            panel.show_problems(lines)
            tell("\n".join(lines))
            return
        if panel.problem_lines:
            panel.clear_problems()
        changes = self.reload.accept(result.config)
        outcome = Outcome()
        if changes:
            self.take_player(result.config, changes)
            outcome = view.apply_settings(result.config, changes)
        lines, waiting = notice_lines(result.changed, changes, outcome)
        panel.show_notice(lines, waiting)
        tell(lines[0] + "".join(f"\n  {line}" for line in lines[1:]))
