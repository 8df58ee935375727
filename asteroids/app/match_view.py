"""Two-player games on screen: a ``Match`` (``asteroids.core.match``) instead of one World.

The match decides whose turn it is and when it passes; this module only shows it:

- ``MatchStepping`` (a mixin for a ``WorldView``): one ``step_match`` per tick, with the
  active player's World as the view's ``world`` (the one drawn); a turn change cuts to the
  other World without blending, clears the debris and stops the sounds of the one left.
- ``MatchHud``: both scores (player 1 top left, player 2 top right) with each player's spare
  ships under them and a ``PLAYER 1`` / ``PLAYER 2`` tag; the active player's score and tag
  are lit, the waiting one's dimmed. ``PLAYER N`` fills the screen during the banner.
- ``MatchPlay``: a ``PlayView`` mixin (``views.MatchPlayView``): records the match into one
  replay, and at its end enters each player's score in the high-score table on its own,
  then asks each qualifying player's initials in turn.
- ``MatchReplayView``: ``asteroids watch`` for a two-player replay; ``replay_view`` picks the
  viewer a replay needs.

No game rule lives here. Imports go one way: this module builds on ``world_view``,
``replay_view`` and ``initials`` and never imports ``views`` (which imports it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import arcade

from asteroids.app.game import Game, ScoreSlot
from asteroids.app.hud import SELECTED, Hud
from asteroids.app.initials import InitialsView
from asteroids.app.recording import SaveResult
from asteroids.app.replay_view import ReplayView
from asteroids.app.scene import Segments
from asteroids.config import Config
from asteroids.config.live import ReloadPlan, apply_changes, plan_reload
from asteroids.core import state_hash
from asteroids.core.match import Match, MatchEvent, match_hash, new_match, step_match
from asteroids.profile import MAX_ENTRIES
from asteroids.replay import Recorder, Replay

if TYPE_CHECKING:
    from asteroids.app.world_view import WorldView

    _View = WorldView
else:
    _View = object

__all__ = ["DIM", "MatchHud", "MatchPlay", "MatchReplayView", "MatchStepping", "replay_view"]

DIM = (120, 120, 120, 255)
"""Colour of the waiting player's score and tag."""

_ICON_GAP = 0.8 * 0.9
"""Spare-ship icon spacing in ship lengths (as ``SceneBuilder.life_icons`` draws them)."""


def player_name(player: int) -> str:
    """``PLAYER 1`` for index 0, ..."""
    return f"PLAYER {player + 1}"


class MatchHud:
    """The labels a two-player game adds to a view's ``Hud`` (in the Hud's batch, so they
    are drawn with it, at the sizes and places its own labels use).

    Args:
        hud: the view's HUD; its ``score`` label becomes player 1's score.
        width: world width.
    """

    def __init__(self, hud: Hud, width: float) -> None:
        self.hud = hud
        score = hud.labels["score"]
        size = float(score.font_size)
        margin = float(score.x)
        self.width = width
        self.values: dict[str, str] = {}
        """Text of each label (``score2``, ``tag1``, ``tag2``, ``wave``): what tests read."""
        tag_y = hud.lives_xy[1] - size * 0.55
        small = size * 0.6

        def label(name: str, x: float, y: float, font: float, anchor_x: str) -> arcade.Text:
            self.values[name] = ""
            return arcade.Text("", x, y, arcade.color.WHITE, font, font_name=score.font_name,
                               anchor_x=anchor_x, anchor_y="top", batch=hud.batch)

        self.labels = {
            "score2": label("score2", width - margin, float(score.y), size, "right"),
            "tag1": label("tag1", margin, tag_y, small, "left"),
            "tag2": label("tag2", width - margin, tag_y, small, "right"),
            "wave": label("wave", width / 2, float(score.y) - size * 1.3, small, "center"),
        }
        self.active: int | None = None
        """Whose score and tag are lit (None until the first ``show``)."""
        # The Hud's score and wave labels are the match's now: the view's one-player
        # ``show_world`` (the active World's score) would fight ``show`` every frame.
        hud.show_world = _leave_to_the_match  # type: ignore[method-assign]

    def set(self, name: str, text: str) -> None:
        """Show ``text`` in one label; a no-op when it already does."""
        if self.values[name] != text:
            self.values[name] = text
            self.labels[name].text = text

    def show(self, match: Match) -> None:
        """Both scores, the tags, the active player's wave (the Hud's own wave label, top
        right, makes way for player 2's score)."""
        s1, s2 = match.scores
        self.hud.set("score", f"{s1:02d}")
        self.hud.set("wave", "")
        self.set("score2", f"{s2:02d}")
        self.set("tag1", player_name(0))
        self.set("tag2", player_name(1))
        self.set("wave", f"WAVE {max(match.world.wave, 1)}")
        if match.active != self.active:
            self.active = match.active
            lit = (arcade.color.WHITE, SELECTED)
            for player, (score, tag) in enumerate((("score", "tag1"), ("score2", "tag2"))):
                label = self.hud.labels[score] if score == "score" else self.labels[score]
                label.color = lit[0] if player == match.active else DIM
                self.labels[tag].color = lit[1] if player == match.active else DIM

    def colour(self, name: str) -> tuple[int, ...]:
        """The RGBA colour of one label (``score1`` is the Hud's score label), for tests."""
        label = self.hud.labels["score"] if name == "score1" else self.labels[name]
        return tuple(label.color)


def _leave_to_the_match(world: object) -> None:
    """``Hud.show_world`` of a two-player view: nothing (``MatchHud.show`` sets them)."""


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
        self.match_hud = MatchHud(self.hud, self.game.width)
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
            self.particles.on_event(event, self.game.params.ship_length)
            if self.sound:
                self.game.audio.on_event(event)
        if self.match.active != before.active:
            self.particles.clear()
            self.game.audio.stop_all()
        elif before.banner_ticks == 1 and self.sound and world.saucer_alive:
            # The turn resumes with a saucer still crossing: its siren comes back.
            self.game.audio.loop("saucer_small" if world.saucer_small else "saucer_large",
                                 True)
        self.events.extend(events)
        self.on_tick(mask)

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

    def build_segments(self: Any) -> Segments:
        """The active World, particles, and both players' spare ships (player 2's ending at
        the right margin)."""
        segs = self.scene.build(self.prev, self.world, self.stepper.alpha)
        self.particles.segments(self.stepper.alpha, segs)
        x, y = self.hud.lives_xy
        lives = [int(w.lives) for w in self.match.worlds]
        self.game.scene.life_icons(lives[0], x, y, segs)
        gap = self.game.params.ship_length * _ICON_GAP
        n = max(0, min(lives[1], 12))
        self.game.scene.life_icons(lives[1], self.game.width - x - (n - 1) * gap, y, segs)
        return segs


class MatchPlay(MatchStepping):
    """The two-player half of ``views.MatchPlayView`` (``MatchPlayView(MatchPlay,
    PlayView)``): what differs from a one-player game.

    The match is recorded into one replay (a two-player ``Recorder``), saved when the match is over
    or left. At the end every player's score goes to the rules' high-score table on its own
    (initials "???" at once, so nothing is lost), then the initials entry asks each player
    who made the table in turn, ``PLAYER N`` on screen, and the title shows the table.
    """

    PLAYERS = 2
    SHOWS_LIVES = False
    recorder: Recorder | None

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recorder = None  # PlayView's one-player recorder: a match has its own
        self.match_recorder: Recorder | None = (
            Recorder(self.config, self.seed, players=2) if self.game.saver is not None
            else None)
        """Records the match (None when games are not recorded)."""
        self.slots: list[tuple[int, ScoreSlot]] = []
        """(player, place) of each player who made the high-score table."""
        self.start_match(self.seed)

    @property
    def ended(self: Any) -> bool:
        """Both players are out."""
        return bool(self.match.over)

    def on_tick(self: Any, mask: int) -> None:
        """Record the tick; when the match is over, save it and enter the scores."""
        if self.match_recorder is not None and self.saved is None:
            self.match_recorder.add(mask, self.match)
            self.recorded_ticks += 1
        if self.match.over and not self.finished:
            self.game_over()

    def save_replay(self: Any) -> SaveResult | None:
        """Save the match recorded so far (once); None when nothing is recorded."""
        if self.saved is not None:
            return self.saved
        if self.match_recorder is None or self.game.saver is None or self.recorded_ticks == 0:
            return None
        self.saved = self.game.saver.save(self.match_recorder.finish(self.match))
        self.update_hud()
        return self.saved

    def game_over(self: Any) -> None:
        """Save the replay, then enter each player's score (each its own table entry)."""
        self.finished = True
        saved = self.save_replay()
        name = saved.table_name() if saved is not None else None
        slots: list[tuple[int, ScoreSlot]] = []
        for player, world in enumerate(self.match.worlds):
            slot = self.game.enter_score(world, self.config, name)
            if slot is None:
                continue
            for _, earlier in slots:  # a better score entered now pushes an earlier one down
                if earlier.key == slot.key and slot.rank <= earlier.rank:
                    earlier.rank += 1
            slots.append((player, slot))
        self.slots = [(p, s) for p, s in slots if s.rank < MAX_ENTRIES]
        self.slot = self.slots[0][1] if self.slots else None
        if saved is not None and saved.ok:
            self.game.prune_replays()
        self.update_hud()

    def enter_initials(self: Any) -> None:
        """Ask each qualifying player's initials in turn, then show the table."""
        if not self.slots:
            return
        game = self.game
        pick = min(slot.rank for _, slot in self.slots)

        def ask(i: int) -> None:
            if i >= len(self.slots):
                self.to_title(table=True, pick=pick)
                return
            player, slot = self.slots[i]
            game.audio.stop_all()
            game.window.show_view(InitialsView(
                game, slot, self.match.worlds[player], self.config, self.seed,
                done=lambda: ask(i + 1), who=player_name(player)))

        ask(0)

    def plan_reload(self: Any, target: Config) -> ReloadPlan:
        """A live reload (``--live``) in a two-player game: the player's keys, sound and
        display apply at once; rule changes wait for the next game, as a two-player replay
        records no change of rules."""
        plan = plan_reload(self.config, target)
        rules = tuple(c for c in plan.live if c.rule)
        if not rules:
            return plan
        keep = tuple(c for c in plan.live if not c.rule)
        config = apply_changes(self.config, keep) if keep else self.config
        return ReloadPlan(config, keep, plan.deferred + rules,
                          "a two-player game keeps its rules to the end")

    def update_hud(self: Any) -> None:
        """The one-player HUD, then both scores and the match's moment."""
        super().update_hud()
        self.match_hud.show(self.match)
        if self.paused:
            return
        if not self.match_message() and self.match.over and self.slots:
            places = "   ".join(f"{player_name(p)}: NUMBER {s.rank + 1}" for p, s in self.slots)
            self.hud.message("GAME OVER", f"HIGH SCORE!   {places}")


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
