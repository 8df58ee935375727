"""Issue 12 item 1 through the real (headless) window: 1 / 2 on the title, a two-player game
that alternates turns on every lost ship (PLAYER N before each turn, both scores with the
active one lit) and ends when both are out, recorded as one replay that is the golden's
game, each player's score in the high-score table with their own initials; pause, quit and
game over as in one-player games; the two-player golden replay played by the real viewer."""

from __future__ import annotations

import arcade
import pytest

from asteroids.app.game_over_view import ENTRY_DELAY_S, GAME_OVER_MIN_S, GameOverView
from asteroids.app.hud import DIM, SELECTED
from asteroids.app.initials import InitialsView
from asteroids.app.play_view import PlayView
from asteroids.app.replay_view import ReplayView
from asteroids.app.router import open_shell
from asteroids.app.title_view import TitleView
from asteroids.config import load_config
from asteroids.core.match import banner_ticks, match_hash, new_match, step_match
from asteroids.paths import replays_dir
from asteroids.profile import ScoreBook, ruleset_key
from asteroids.replay import get_bot, load_replay, verify_replay
from asteroids.replay.rebless import GOLDEN_DIR, load_manifest
from tests.app.test_title_rules import StubPad

pytestmark = pytest.mark.gl

GOLDEN = GOLDEN_DIR / "two-players.replay"
ENTRY = next(e for e in load_manifest() if e.name == "two-players")


def key(window, symbol, kind="press"):
    window.dispatch_event(f"on_key_{kind}", symbol, 0)
    window.dispatch_events()


def tap(window, symbol):
    key(window, symbol)
    key(window, symbol, "release")


@pytest.fixture(scope="module")
def quick():
    """Two ships each, a short banner: the idle ship is rammed four times in ~3000 ticks."""
    return load_config(overrides=["game.lives=2", "match.turn_banner_s=0.5"])


def test_title_1_plays_alone_2_plays_two_and_the_pad_has_a_button_for_it(window, config):
    game = open_shell(window, config, seed=3, sound=False)
    for symbol, players in ((arcade.key.KEY_2, 2), (arcade.key.KEY_1, 1),
                            (arcade.key.NUM_2, 2), (arcade.key.ENTER, 1)):
        window.show_view(TitleView(game))
        assert "PLAYERS: PRESS 1 OR 2" in window.current_view.hud.values["hint"]
        tap(window, symbol)
        view = window.current_view
        assert isinstance(view, PlayView) and view.play.players == players, symbol
    pad = StubPad()
    game = open_shell(window, config, seed=3, sound=False)
    game.gamepad = pad
    title = TitleView(game)
    window.show_view(title)
    pad.y = True
    title.on_update(1 / 60)
    assert isinstance(window.current_view, PlayView) and window.current_view.play.players == 2


def test_a_two_player_game_alternates_on_every_lost_ship_and_ends_when_both_are_out(
        window, quick, tmp_path):
    game = open_shell(window, quick, seed=5, sound=False, record_to=tmp_path / "two.replay")
    view = PlayView(game, game.rules.next_seed(), players=2, source=lambda world: 0)  # sits still
    window.show_view(view)
    banner = banner_ticks(quick)
    assert banner == 30
    turns, seen_banner, left = [0], set(), {}
    for frame in range(20_000):
        before = view.state
        view.on_update(1 / 60)
        m = view.state
        if frame % 97 == 0:
            view.on_draw()
        assert view.world is m.worlds[m.active]
        if m.active != before.active:
            turns.append(m.active)
            # The next player's World is shown at once, under its banner, as it was left.
            assert m.banner_ticks == banner and view.prev is view.world
            if m.active in left:
                assert view.world is left[m.active]
            left[before.active] = m.worlds[before.active]
        shown = view.hud.values["title"]
        if m.banner_ticks > 0:
            assert shown == f"PLAYER {m.active + 1}"
            seen_banner.add(m.active)
        elif m.world.game_over and not m.over:
            assert (shown, view.hud.values["hint"]) == ("GAME OVER", f"PLAYER {m.active + 1}")
        elif not m.over:
            assert shown == ""
        hud = view.match_hud
        lit, dim = (arcade.color.WHITE, SELECTED), (DIM, DIM)
        score = "score1" if m.active == 0 else "score2"
        tag = f"tag{m.active + 1}"
        assert (hud.colour(score), hud.colour(tag)) == tuple(tuple(c) for c in lit)
        other = 1 - m.active
        assert (hud.colour(("score1", "score2")[other]), hud.colour(f"tag{other + 1}")) == \
            tuple(tuple(c) for c in dim)
        assert view.hud.values["score"] == f"{m.worlds[0].score:02d}"
        assert hud.values["score2"] == f"{m.worlds[1].score:02d}"
        if m.over:
            break
    assert view.state.over and all(w.game_over for w in view.state.worlds)
    assert turns == [0, 1, 0, 1], "each lost ship passes the turn; the last ends the match"
    assert seen_banner == {0, 1}
    over = window.current_view
    assert isinstance(over, GameOverView) and over.hud.values["title"] == "GAME OVER"
    # Recorded as one replay, which verifies in the core.
    assert view.saved is not None and view.saved.ok
    replay = load_replay(view.saved.path)
    assert replay.players == 2 and replay.ticks == view.state.tick
    assert verify_replay(replay).ok
    # Both scores stay up; Enter (after the delay) plays two players again.
    for _ in range(int(GAME_OVER_MIN_S * 60) + 2):
        over.on_update(1 / 60)
    assert "PLAY AGAIN" in over.hud.values["hint"]
    assert over.match_hud.values["score2"] == f"{view.state.worlds[1].score:02d}"
    tap(window, arcade.key.ENTER)
    again = window.current_view
    assert isinstance(again, PlayView) and again.play.players == 2 and again is not view


def test_pause_and_quit_to_title_work_in_a_two_player_game(window, quick, tmp_path):
    game = open_shell(window, quick, seed=5, sound=False, record_to=tmp_path / "left.replay")
    view = PlayView(game, game.rules.next_seed(), players=2, source=lambda world: 0)
    window.show_view(view)
    for _ in range(40):
        view.on_update(1 / 60)
    tick = view.state.tick
    tap(window, arcade.key.P)
    for _ in range(30):
        view.on_update(1 / 60)
    assert view.paused and view.state.tick == tick
    assert view.hud.values["title"] == "PAUSED"
    tap(window, arcade.key.Q)
    assert isinstance(window.current_view, TitleView)
    # The match left unfinished is saved, as a one-player game would be, and verifies.
    left = load_replay(tmp_path / "left.replay")
    assert left.players == 2 and left.ticks == tick and verify_replay(left).ok


def test_each_players_score_enters_the_table_with_their_own_initials(window, data_dir):
    """The golden's match, played in the window: the same replay, two table entries."""
    config = ENTRY.config()
    game = open_shell(window, config, seed=ENTRY.seed, sound=False, record=True, profile=True)
    bot = get_bot(ENTRY.bot)
    view = PlayView(game, game.rules.next_seed(), players=2,
                    source=lambda world: bot(world, config))
    window.show_view(view)
    for _ in range(20_000):
        view.on_update(1 / 60)
        if view.state.over:
            break
    golden = load_replay(GOLDEN)
    assert view.state.scores == golden.final_scores
    saved = load_replay(view.saved.path)
    assert saved.same_game(golden), "the window recorded another game than the golden"
    assert view.saved.path.parent == replays_dir()
    # Both made the empty table at once, as "???", best first.
    table_key = ruleset_key(config)
    table = ScoreBook.load().table(table_key)
    assert [(e.score, e.initials) for e in table] == sorted(
        ((s, "???") for s in golden.final_scores), reverse=True)
    assert {e.replay for e in table} == {view.saved.path.name}
    p1, p2 = golden.final_scores
    over = window.current_view
    assert "PLAYER 1: NUMBER" in over.hud.values["hint"]
    # The entry asks player 1, then player 2, each named on screen.
    for _ in range(int(ENTRY_DELAY_S * 60) + 2):
        if isinstance(window.current_view, InitialsView):
            break
        over.on_update(1 / 60)
    for player, letters in ((1, "ABC"), (2, "XYZ")):
        entry = window.current_view
        assert isinstance(entry, InitialsView)
        assert entry.hud.values["title"] == f"PLAYER {player}"
        assert entry.hud.values["hint"].startswith("NEW HIGH SCORE: NUMBER ")
        assert entry.world is view.state.worlds[player - 1]
        for letter in letters:
            tap(window, getattr(arcade.key, letter))
        tap(window, arcade.key.ENTER)
    assert isinstance(window.current_view, TitleView) and window.current_view.showing_table
    table = ScoreBook.load().table(table_key)
    by_initials = {e.initials: e.score for e in table}
    assert by_initials == {"ABC": p1, "XYZ": p2}
    # The table's entry watches the whole match in the two-player viewer.
    title = window.current_view
    assert title.pick == 0
    tap(window, arcade.key.ENTER)
    watching = window.current_view
    assert isinstance(watching, ReplayView) and watching.replay.same_game(golden)
    assert watching.play.players == 2


def test_the_two_player_golden_plays_in_the_real_viewer(window):
    replay = load_replay(GOLDEN)
    view = ReplayView(open_shell(window, replay.config, sound=False), replay, speed=8)
    window.show_view(view)
    banners = set()
    for i in range(replay.ticks // 8 + 2):
        view.on_update(1 / 60)
        if view.state.banner_ticks > 0 and not view.at_end:
            assert view.hud.values["title"] == f"PLAYER {view.state.active + 1}"
            banners.add(view.state.active)
        if i % 100 == 0:
            view.on_draw()
    assert view.at_end and view.masks == list(replay.masks)
    assert view.out_of_step is None
    assert view.current_hash() == replay.final_hash and view.state.over
    assert banners == {0, 1}
    assert view.hud.values["score"] == f"{replay.final_scores[0]:02d}"
    assert view.match_hud.values["score2"] == f"{replay.final_scores[1]:02d}"
    # Seeking back re-simulates the match from a kept one: the same states as the core.
    core = new_match(replay.config, replay.seed)
    for mask in replay.masks[:1000]:
        core, _ = step_match(core, mask, replay.config)
    view.seek(1000)
    assert view.tick == 1000 and match_hash(view.state) == match_hash(core)
    assert view.world is view.state.world


def test_live_rule_edits_wait_for_the_next_game_in_a_two_player_game(window, tmp_path):
    """``--live``: keys apply at once, a rule change waits (a two-player replay records no
    change), and the match still records and verifies."""
    import os

    from asteroids.app.live import LiveSpec

    toml = tmp_path / "my.toml"
    toml.write_text("[ship]\nthrust_px_per_s2 = 300\n")
    game = open_shell(window, load_config(toml), seed=11, sound=False,
                record_to=tmp_path / "live.replay",
                live=LiveSpec((str(toml),), interval_s=0.0))
    view = PlayView(game, game.rules.next_seed(), players=2)
    window.show_view(view)
    for _ in range(5):
        view.on_update(1 / 60)
    toml.write_text("[ship]\nthrust_px_per_s2 = 900\n[keys]\nfire = ['J']\n")
    later = toml.stat().st_mtime_ns + 50_000_000
    os.utime(toml, ns=(later, later))
    for _ in range(5):
        view.on_update(1 / 60)
    assert view.config.keys.fire == ("J",)
    assert view.config.ship.thrust_px_per_s2 == 300.0
    assert [c.key for c in view.pending] == ["ship.thrust_px_per_s2"]
    assert not view.rules_changed
    tap(window, arcade.key.P)
    tap(window, arcade.key.Q)
    replay = load_replay(tmp_path / "live.replay")
    assert replay.players == 2 and replay.config_changes == () and verify_replay(replay).ok


def test_options_changed_mid_match_leave_its_ticks_and_its_replay_alone(window, quick, tmp_path,
                                                                        data_dir):
    """The options screen from pause in a two-player match (palette, monitor look, HUD scale,
    volume, a key rebound): the match keeps the core's tick stream, its rules fingerprint
    and a replay with no rule changes that verifies."""
    from asteroids.profile.options import ITEMS
    from asteroids.replay.format import rules_fingerprint
    from tests.app.test_view_ticks import ScriptedSource, scripted_masks

    n = 500
    script = scripted_masks(n, 9)
    game = open_shell(window, quick, seed=5, sound=False, profile=True,
                record_to=tmp_path / "opts.replay")
    view = PlayView(game, 77, players=2, source=ScriptedSource(script))
    window.show_view(view)

    def select(item: str) -> None:
        for _ in range(len(ITEMS)):
            if view.options.item.key == item:
                return
            tap(window, arcade.key.DOWN)
        raise AssertionError(f"no item {item}")

    for frame in range(n + 40):
        if frame == 200:
            tap(window, arcade.key.P)
            tap(window, arcade.key.O)
            assert view.options is not None
            for item in ("palette", "monitor_strength", "hud_scale", "effects_volume"):
                select(item)
                tap(window, arcade.key.RIGHT)
            select("key:hyperspace")
            tap(window, arcade.key.ENTER)
            tap(window, arcade.key.H)
            tap(window, arcade.key.ESCAPE)
            tap(window, arcade.key.P)
            assert not view.paused
        view.on_update(1 / 60)
        if frame % 25 == 0:
            view.on_draw()
        if view.state.tick >= n:
            break
    assert view.config.keys.hyperspace[0] == "H"
    assert view.config.display.palette != quick.display.palette
    assert rules_fingerprint(view.config, 2) == rules_fingerprint(quick, 2)
    ticks = view.state.tick
    assert ticks == n and list(view.masks) == script[:n]
    match = new_match(quick, 77, 2)
    for mask in script[:n]:
        match, _ = step_match(match, mask, quick)
    assert match_hash(match) == match_hash(view.state)
    tap(window, arcade.key.P)
    tap(window, arcade.key.Q)                       # leave: the match so far is saved
    replay = load_replay(tmp_path / "opts.replay")
    assert replay.players == 2 and replay.ticks == n and replay.config_changes == ()
    assert verify_replay(replay).ok
