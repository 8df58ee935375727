"""Two-player replays (``Recorder(players=2)``, ``asteroids.core.play``): one input stream
records a whole match in
the ordinary file format, verifies through the core, names the first bad tick and field, and
leaves one-player files exactly as they were."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from asteroids import cli
from asteroids.config import Config, load_config
from asteroids.core.match import MATCH_FIELD_NAMES, new_match, step_match
from asteroids.core.params import params_for
from asteroids.replay import (
    Recorder,
    ReplayError,
    get_bot,
    load_replay,
    record_bot_game,
    rules_fingerprint,
    save_replay,
    verify_replay,
)
from asteroids.replay.format import (
    FORMAT_VERSION,
    MAX_CHECKPOINT_EVERY,
    decode_replay,
    encode_replay,
)

CONFIG = load_config(overrides=["game.lives=1", "match.turn_banner_s=0.5"])
ARCHIVE = Path(__file__).parent / "replays" / "archive" / "0.1.0" / "bots"
"""Files asteroids 0.1.0 wrote (format 1 and its two-player format 2)."""
"""One ship each and a short banner: the idle bot's match is over in about 1500 ticks."""


@pytest.fixture(scope="module")
def match_replay():  # noqa: ANN201
    """A whole two-player match: each player's one ship rammed, the turn passing once."""
    replay = record_bot_game(CONFIG, 4, get_bot("idle"), 6000, players=2, every=400)
    assert replay.ticks < 6000, "the match should have ended"
    return replay


def _reseal(text: str) -> bytes:
    body = text[: text.rstrip("\n").rindex("\n") + 1]
    digest = hashlib.blake2b(body.encode(), digest_size=16).hexdigest()
    return (body + f"checksum blake2b-128 {digest}\n").encode()


def test_a_match_records_to_one_replay_that_round_trips_and_verifies(match_replay,  # noqa: ANN001
                                                                     tmp_path: Path) -> None:
    r = match_replay
    assert r.players == 2 and r.field_names == MATCH_FIELD_NAMES
    path = save_replay(r, tmp_path / "m.replay")
    text = path.read_text("utf-8")
    assert text.startswith(f"asteroids-replay {FORMAT_VERSION}\n")
    assert f"\nformat = {FORMAT_VERSION}\n" in text
    assert "\nplayers = 2\n" in text and f"\nfinal_scores = [{r.final_scores[0]}, " in text
    assert "\n[match]\nturn_banner_s = 0.5\n" in text
    back = load_replay(path)
    assert back == r
    result = verify_replay(back)
    assert result.ok and result.ticks == r.ticks
    assert r.final_score == max(r.final_scores)


def test_the_replay_is_the_match_the_core_plays(match_replay) -> None:  # noqa: ANN001
    """Re-simulating by hand from the masks ends in the recorded state, both players out."""
    p = params_for(CONFIG)  # compiled once, passed every tick
    match = new_match(p, match_replay.seed)
    bot = get_bot("idle")
    for mask in match_replay.masks:
        assert mask == bot(match.world, p)
        match, _ = step_match(match, mask, p)
    assert match.over and all(w.game_over for w in match.worlds)
    assert match.scores == match_replay.final_scores


def test_one_player_files_are_unchanged_by_two_player_games(tmp_path: Path) -> None:
    """No players line, no [match] table, the one-player fingerprint: whatever the banner."""
    for banner in ("2.0", "0.5"):
        cfg = load_config(overrides=[f"match.turn_banner_s={banner}"])
        one = record_bot_game(cfg, 3, get_bot("classic"), 300)
        text = encode_replay(one).decode()
        assert "players" not in text and "[match]" not in text
        assert one.rules == rules_fingerprint(load_config())
    base = load_config()
    longer = load_config(overrides=["match.turn_banner_s=3"])
    assert rules_fingerprint(base) == rules_fingerprint(longer)
    assert rules_fingerprint(base, 2) != rules_fingerprint(longer, 2)
    assert rules_fingerprint(base, 2) != rules_fingerprint(base)


def test_a_changed_input_is_named_by_tick_and_player_field(match_replay) -> None:  # noqa: ANN001
    r = match_replay
    banner = 30  # 0.5 s at 60 Hz: masks before this are ignored
    masks = bytearray(r.masks)
    masks[banner - 1] = 0b1000  # a press during the banner changes nothing
    assert verify_replay(dataclasses.replace(r, masks=bytes(masks))).ok
    masks[banner + 10] = 0b0010  # player 1 turns left once
    bad = verify_replay(dataclasses.replace(r, masks=bytes(masks)))
    assert not bad.ok
    assert bad.first_bad_tick == banner + 11
    assert bad.first_bad_checkpoint == 400
    assert "p1_ship_heading" in bad.fields and not any(f.startswith("p2_") for f in bad.fields)


def test_final_scores_are_checked(match_replay) -> None:  # noqa: ANN001
    r = match_replay
    wrong = dataclasses.replace(r, final_scores=(r.final_scores[0] + 10, r.final_scores[1]))
    result = verify_replay(wrong)
    assert not result.ok and "scores" in result.problem


@pytest.mark.parametrize(("edit", "says"), [
    (("players = 2\n", "players = 3\n"), "'players' must be 2"),
    (("players = 2\n", ""), "'players' must be 2"),
    (("\nconfig = ", "\nconfig_changes = [{tick = 5, set = ['ship.thrust_px_per_s2=1.0']}]\n"
      "config = "), "two-player replay cannot have config_changes"),
    (("final_scores = [", "final_scores = [1, "), "'final_scores' must list 2"),
    (("turn_banner_s = 0.5", "turn_banner_s = 0.25"), "rules fingerprint"),
])
def test_a_damaged_two_player_header_is_one_clear_paragraph(match_replay, edit,  # noqa: ANN001
                                                            says: str) -> None:
    text = encode_replay(match_replay).decode()
    old, new = edit
    assert old in text
    with pytest.raises(ReplayError, match=says):
        decode_replay(_reseal(text.replace(old, new, 1)), "m.replay")


def test_a_format_2_file_without_players_or_changes_is_refused() -> None:
    # Format 2 (asteroids 0.1.0's) existed only for those keys: a file without them is damaged.
    text = (ARCHIVE / "default-two-players.replay").read_text("utf-8")
    assert text.startswith("asteroids-replay 2\n")
    text = text.replace("players = 2\n", "", 1)
    start = text.index("final_scores = [")
    text = text[:start] + text[text.index("\n", start) + 1:]
    with pytest.raises(ReplayError, match=r"lacks config_changes \(or players"):
        decode_replay(_reseal(text), "m.replay")


def test_a_players_line_in_a_format_1_file_is_refused() -> None:
    text = (ARCHIVE / "default-aimer.replay").read_text("utf-8")
    assert text.startswith("asteroids-replay 1\n")
    text = text.replace("seed = 101\n", "seed = 101\nplayers = 2\n")
    with pytest.raises(ReplayError, match="unknown keys: players"):
        decode_replay(_reseal(text), "one.replay")


def test_match_recorder_refuses_a_skipped_tick() -> None:
    rec = Recorder(CONFIG, 1, players=2)
    m = new_match(CONFIG, 1)
    m, _ = step_match(m, 0, CONFIG)
    m, _ = step_match(m, 0, CONFIG)
    with pytest.raises(ValueError, match="expected the match after tick 1"):
        rec.add(0, m)


def test_cli_records_and_verifies_a_two_player_match(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "two.replay"
    assert cli.main(["record", "--bot", "idle", "--players", "2", "--seed", "4", "--ticks",
                     "6000", "--set", "game.lives=1", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "(game over)" in said and "scores " in said
    assert cli.main(["verify", str(out)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"{out}: ok: ") and "2 players, scores " in line


@pytest.mark.parametrize("players", [1, 2])
def test_the_recorder_takes_the_seed_range_and_refuses_one_past_it(players: int) -> None:
    """A replay holds a seed in [-2**63, 2**64) and a checkpoint interval in [1, 1e6], one
    player or two."""
    cfg = Config()
    Recorder(cfg, 2**64 - 1, players=players)
    Recorder(cfg, -(2**63), players=players)
    for seed in (2**64, -(2**63) - 1, True, 1.0):
        with pytest.raises(ValueError, match=r"^a replay's seed must be an int"):
            Recorder(cfg, seed, players=players)
    Recorder(cfg, 1, players=players, every=MAX_CHECKPOINT_EVERY)
    for every in (0, MAX_CHECKPOINT_EVERY + 1):
        with pytest.raises(ValueError, match=r"^checkpoint interval must be in \[1, "):
            Recorder(cfg, 1, players=players, every=every)


def test_the_recorder_takes_one_or_two_players_only() -> None:
    for players in (0, 3):
        with pytest.raises(ValueError, match="1 to 2 players"):
            Recorder(Config(), 1, players=players)
