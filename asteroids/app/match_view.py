"""Two-player games on screen: a ``Match`` (``asteroids.core.match``) instead of one World.

The match decides whose turn it is and when it passes; this module only shows it:

- ``MatchStepping`` (a mixin for a ``WorldView``): one ``step_match`` per tick, with the
  active player's World as the view's ``world`` (the one drawn); a turn change cuts to the
  other World without blending, clears the debris and stops the sounds of the one left.
- ``MatchHud``: both scores (player 1 top left, player 2 top right) with each player's spare
  ships under them and a ``PLAYER 1`` / ``PLAYER 2`` tag; the active player's score and tag
  are lit, the waiting one's dimmed. ``PLAYER N`` fills the screen during the banner.
- ``MatchPlay``: a ``PlayView`` mixin (``match_play.MatchPlayView``): records the match into
  one replay, and at its end enters each player's score in the high-score table on its own
  (the game-over screen then asks each qualifying player's initials in turn).
- ``MatchReplayView``: ``asteroids watch`` for a two-player replay; ``replay_view`` picks the
  viewer a replay needs.

No game rule lives here. Imports go one way: this module builds on ``world_view`` and
``replay_view``; ``match_play`` builds on it and ``play_view``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from asteroids.app.game import Game
from asteroids.app.hud import MatchHud
from asteroids.app.palettes import VECTOR, Palette
from asteroids.app.replay_view import ReplayView
from asteroids.app.scene import ICON_PITCH, Segments
from asteroids.app.screens import player_name
from asteroids.core import state_hash
from asteroids.core.match import Match, MatchEvent, match_hash, new_match, step_match
from asteroids.replay import Replay

if TYPE_CHECKING:
    from asteroids.app.world_view import WorldView

    _View = WorldView
else:
    _View = object

__all__ = ["MatchReplayView", "MatchStepping", "replay_view", "shown_hash"]

class MatchStepping(_View):
    """Mixin for a ``WorldView`` that runs a two-player ``Match``: call ``start_match`` in
    ``__init__`` after the view's own; ``world`` is then always the active player's World.
    """

    match: Match
    match_hud: MatchHud

    def start_match(self: Any, seed: int) -> None:
        """A new match of ``seed`` under the view's config, player 1's banner up."""
        self.match = new_match(self.config, seed)
        self.world = self.prev = self.match.world
        self.match_hud = MatchHud(self.hud, self.game.rules.width)
        self.match_hud.show(self.match)

    def run_tick(self: Any, mask: int) -> None:
        """One ``step_match``: effects and sound for the active World's events; a turn
        change cuts to the next player's World (no blend, no debris, no sound carried)."""
        self.masks.append(mask)
        before = self.match
        self.match, tagged = step_match(before, mask, self.config)
        world = self.match.world
        self.prev = world if self.match.active != before.active else self.world
        self.world = world
        self.particles.tick()
        events = [e for _, e in tagged if not isinstance(e, MatchEvent)]
        for event in events:
            self.particles.on_event(event, self.game.rules.params.ship_length)
            if self.sound:
                self.game.audio.on_event(event, at=self.sound_time())
        if self.match.active != before.active:
            self.particles.clear()
            self.game.audio.stop_all()
        elif before.banner_ticks == 1 and self.sound and world.saucer_alive:
            # The turn resumes with a saucer still crossing: its siren comes back.
            self.game.audio.loop("saucer_small" if world.saucer_small else "saucer_large",
                                 True)
        self.events.extend(events)
        self.on_tick(mask)

    def sound_time(self: Any) -> float | None:
        """The match's tick on the game's clock (turn changes do not move it back); None
        (the next audio block) for a replay played faster than 1x."""
        if getattr(self, "speed", 1) != 1:
            return None
        return self.match.tick / self.config.world.tick_hz

    def match_message(self: Any) -> bool:
        """Put the match's moment on screen (``PLAYER N`` during a banner, ``GAME OVER`` for
        a player who is out while the other plays on); False when it has none to show."""
        match = self.match
        if match.banner_ticks > 0:
            self.hud.message(player_name(match.active), "")
            return True
        if match.world.game_over and not match.over:
            self.hud.message("GAME OVER", player_name(match.active))
            return True
        return False

    def world_palette(self: Any) -> Palette:
        """The palette ``build_segments`` draws the World in (the scene's default)."""
        return VECTOR

    def build_segments(self: Any) -> Segments:
        """The active World, particles, and both players' spare ships (player 2's ending at
        the right margin)."""
        segs = self.scene.build(self.prev, self.world, self.stepper.alpha)
        self.particles.segments(self.stepper.alpha, segs)
        x, y = self.hud.lives_xy
        x2, y2 = self.hud.lives2_xy
        lives = [int(w.lives) for w in self.match.worlds]
        rules = self.game.rules
        scale = 0.8 * self.hud.scale
        rules.scene.life_icons(lives[0], x, y, segs, scale=scale)
        gap = rules.params.ship_length * scale * ICON_PITCH
        n = max(0, min(lives[1], 12))
        rules.scene.life_icons(lives[1], x2 - (n - 1) * gap, y2, segs, scale=scale)
        return segs


class MatchReplayView(MatchStepping, ReplayView):
    """Watching a two-player replay: the replay viewer's keys and seeks, over a Match.

    Seeks re-simulate from the nearest kept Match; passing a recorded checkpoint checks its
    ``match_hash``.
    """

    SHOWS_LIVES = False

    def __init__(self, game: Game, replay: Replay, speed: int = 1,
                 back: Callable[[], None] | None = None) -> None:
        self.match = new_match(replay.config, replay.seed, replay.players)
        super().__init__(game, replay, speed=speed, back=back)
        self.start_match(replay.seed)
        self.kept_matches: dict[int, Match] = {0: self.match}
        """Matches passed so far, by tick, every ``keep_every`` ticks: where seeks restart
        (``kept``, the one-player viewer's Worlds, is not used)."""
        self.update_hud()

    def _passed(self, tick: int, world: object) -> None:
        """Bookkeeping for the Match after ``tick`` (the view's ``match``)."""
        self._passed_match(tick, self.match)

    def _passed_match(self, tick: int, match: Match) -> None:
        """Keep ``match`` (the Match after ``tick``) every ``keep_every`` ticks; check its
        hash against the recorded one."""
        if tick % self.keep_every == 0 and hasattr(self, "kept_matches"):
            self.kept_matches.setdefault(tick, match)
        want = self.expected.get(tick)
        if want is not None and self.out_of_step is None and match_hash(match) != want:
            self.out_of_step = tick

    def resimulate(self, target: int) -> int:
        """Step the match silently to ``target`` (see ``ReplayView.resimulate``)."""
        base = max(t for t in self.kept_matches if t <= target)
        if base <= self.tick <= target:
            start, match = self.tick, self.match
        else:
            start, match = base, self.kept_matches[base]
        masks, config = self.replay.masks, self.config
        for t in range(start, target):
            match, _ = step_match(match, masks[t], config)
            self._passed_match(t + 1, match)
        self.match = match
        self.world = self.prev = match.world
        return start

    def update_hud(self) -> None:
        """The viewer's HUD, both scores, and the banner."""
        super().update_hud()
        if hasattr(self, "match_hud"):
            self.match_hud.show(self.match)
            if not self.paused and not self.at_end:
                self.match_message()

    def current_hash(self) -> str:
        """The hash of what is shown (``match_hash``), to compare with the replay's."""
        return match_hash(self.match)


def replay_view(game: Game, replay: Replay, speed: int = 1,
                back: Callable[[], None] | None = None) -> WorldView:
    """The viewer ``replay`` needs: ``MatchReplayView`` for a two-player match, else
    ``ReplayView``."""
    if replay.players != 1:
        return MatchReplayView(game, replay, speed=speed, back=back)
    return ReplayView(game, replay, speed=speed, back=back)


def shown_hash(view: WorldView) -> str:
    """The state hash of what a replay viewer shows (a match's ``match_hash``)."""
    if isinstance(view, MatchReplayView):
        return view.current_hash()
    return state_hash(view.world)
