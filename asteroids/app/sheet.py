"""A contact sheet of every screen, rendered headless: the proof that every word fits.

``python -m asteroids.app.sheet docs/img`` draws the title, a game, pause, the options, game
over, the initials entry, the high-score table, the replay viewer and the ``--live`` panel,
each with long real strings (a 7-digit score, the longest replay name, the live-rules note),
at 640 x 480 and 3840 x 2160 with the default rules and at 1280 x 720 with the classic and
the default rules, into one PNG per size (``sheet-WxH-RULES.png``, 3 x 3 tiles, each tile
scaled to at most ``TILE_WIDTH`` pixels wide). The player's files are a fresh temporary
folder; nothing of the real profile is read or written.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import arcade
    from PIL import Image

    from asteroids.app.game import Game
    from asteroids.app.world_view import WorldView

__all__ = ["LONG_REPLAY", "SCREENS", "SIZES", "TILE_WIDTH", "main", "render_screen", "sheet",
           "stage"]

SCREENS = ("title", "play", "pause", "options", "game over", "initials", "table", "replay",
           "live panel")
"""Every screen on a sheet, in order."""

SIZES: tuple[tuple[int, int, str], ...] = ((640, 480, "default"), (1280, 720, "classic"),
                                           (1280, 720, "default"), (3840, 2160, "default"))
"""(width, height, rules) of each sheet."""

TILE_WIDTH = 1280
"""Tiles wider than this are scaled down on the sheet."""

LONG_REPLAY = "2026-11-23T17-05-00Z-seed9223372036854775807-score9999999.replay"
"""The longest replay name the game writes (a 63-bit seed, a 7-digit score)."""


def _frames(view: WorldView, n: int, dt: float = 1 / 60) -> None:
    for _ in range(n):
        view.on_update(dt)


def _fill_table(game: Game) -> None:
    from asteroids.profile import ScoreEntry

    scores = game.profile.scores
    assert scores is not None
    key = game.score_key()
    initials = ["ACE", "KXH", "CZB", "PTX", "OQD", "SBI", "UVW", "MNW", "JLR", "GCO"]
    for i, name in enumerate(initials):
        scores.add(key, ScoreEntry(name, 9_999_999 - i * 1_000_003, 99 - i,
                                   f"2026-11-{23 - i:02d}T17:05:00+00:00", 600.0 - i,
                                   LONG_REPLAY if i % 3 == 0 else None))
    scores.save()


def _finished(game: Game, view: Any, slot: bool) -> Any:
    from asteroids.app.profile_service import ScoreSlot
    from asteroids.app.recording import SaveResult
    from asteroids.app.screens import FinishedGame
    from asteroids.core.world import Draft

    draft = Draft(view.world)
    draft.score, draft.lives, draft.game_over = 9_999_999, 0, True
    world = draft.freeze()
    slots = [(0, ScoreSlot(game.score_key(), 0, 9_999_999, None))] if slot else []
    return FinishedGame((world,), view.config, view.seed, slots=slots,
                        saved=SaveResult(Path(LONG_REPLAY), None), rules_changed=True)


def render_screen(window: arcade.Window, config: Any, name: str, *, rulesets: Any = None,
                  index: int = 0, live_file: Path | None = None) -> Image.Image:
    """Stage screen ``name`` (``SCREENS``) in ``window`` and return its picture."""
    import arcade

    view = stage(window, config, name, rulesets=rulesets, index=index, live_file=live_file)
    view.on_update(1 / 120)
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    window.hide_view()
    return image


def stage(window: arcade.Window, config: Any, name: str, *, rulesets: Any = None,
          index: int = 0, live_file: Path | None = None) -> WorldView:
    """Put screen ``name`` (``SCREENS``) on show in ``window`` as a player would meet it,
    with the longest real strings (layout tests lay it out at every size)."""
    import arcade

    from asteroids.app.game_over_view import GameOverView
    from asteroids.app.initials import InitialsView
    from asteroids.app.live import LiveSpec
    from asteroids.app.play_view import PlayView
    from asteroids.app.replay_view import ReplayView
    from asteroids.app.router import open_shell
    from asteroids.app.title_view import TitleView
    from asteroids.replay import load_replay

    live = LiveSpec((str(live_file),), interval_s=3600.0) if name == "live panel" and \
        live_file is not None else None
    game = open_shell(window, config, seed=7, sound=False, rulesets=rulesets,
                      ruleset_index=index, profile=True, live=live)
    game.screen.frame_time_s = 1 / 60
    view: WorldView
    if name in ("title", "options"):
        view = TitleView(game)
        window.show_view(view)
        _frames(view, 240)
        if name == "options":
            view.open_options()
            for _ in range(9):
                view.options.move(1)  # type: ignore[union-attr]
    elif name == "table":
        _fill_table(game)
        view = TitleView(game, table=True, pick=2)
        window.show_view(view)
        _frames(view, 2)
    elif name == "replay":
        from importlib.resources import files

        demo = "classic.replay" if game.score_key() == "classic" else "default-1.replay"
        replay = load_replay(Path(str(files("asteroids.replay").joinpath("demos", demo))))
        view = ReplayView(game, replay)
        window.show_view(view)
        _frames(view, 600)
        view.toggle_pause()
    else:
        play = PlayView(game, 7, autopilot=True)
        window.show_view(play)
        _frames(play, 600)
        view = play
        if name == "pause":
            play.set_paused(True)
        elif name in ("game over", "initials"):
            finished = _finished(game, play, slot=name == "initials")
            view = (GameOverView(game, finished) if name == "game over"
                    else InitialsView(game, finished))
            window.show_view(view)
            _frames(view, 100)
            if name == "initials":
                window.dispatch_event("on_key_press", arcade.key.Q, 0)
                window.dispatch_events()
        elif name == "live panel":
            panel = game.live.panel  # type: ignore[union-attr]
            panel.show_notice(["my.toml reloaded", "ship.thrust_px_per_s2 300 \u2192 420",
                               "world.width_px 1280 \u2192 1600  (next game)",
                               "applies to the next game (R restarts now)"], {2, 3})
            panel.show_problems([
                "my.toml: 2 problems; the game goes on with the last good settings until the "
                "file is fixed",
                f"{live_file}:2:1: error[range]: ship.thrust_px_per_s2 = -5 must be a number "
                "in [0, 20000] (px/s^2)",
                f"{live_file}:3:1: error[unknown]: [nosuch] is not a table of the settings "
                "(did you mean [saucers]?)"])
    return view


def sheet(width: int, height: int, rules: str, out_dir: Path,
          screens: Sequence[str] = SCREENS,
          log: Callable[[str], None] = lambda line: None) -> Path:
    """Render ``screens`` at ``width`` x ``height`` with the ``rules`` preset and save them as
    one contact sheet in ``out_dir``; returns its path."""
    import arcade
    from PIL import Image, ImageDraw

    from asteroids.config.rulesets import ruleset_choices

    choices = ruleset_choices()
    labels = [r.label for r in choices.rulesets]
    index = labels.index(rules) if rules in labels else choices.selected
    config = choices.rulesets[index].config
    window = arcade.Window(width, height, "asteroids sheet", visible=False, vsync=False,
                           antialiasing=False)
    tiles = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            live_file = Path(tmp) / "my.toml"
            live_file.write_text("[ship]\nthrust_px_per_s2 = 420\n")
            for name in screens:
                os.environ["ASTEROIDS_DATA_DIR"] = str(Path(tmp) / name.replace(" ", "-"))
                log(f"{width}x{height} {rules}: {name}")
                tiles.append((name, render_screen(window, config, name,
                                                  rulesets=choices.rulesets, index=index,
                                                  live_file=live_file)))
    finally:
        window.close()
    scale = min(1.0, TILE_WIDTH / width)
    tw, th = round(width * scale), round(height * scale)
    cols, caption = 3, 22
    rows = -(-len(tiles) // cols)
    out = Image.new("RGB", (cols * (tw + 8) + 8, rows * (th + caption + 8) + 8), (40, 40, 40))
    draw = ImageDraw.Draw(out)
    for i, (name, image) in enumerate(tiles):
        x = 8 + (i % cols) * (tw + 8)
        y = 8 + (i // cols) * (th + caption + 8)
        draw.text((x, y + 4), f"{name}  ({width} x {height}, {rules} rules)",
                  fill=(220, 220, 220))
        if scale < 1.0:
            image = image.resize((tw, th), Image.LANCZOS)
        out.paste(image, (x, y + caption))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"sheet-{width}x{height}-{rules}.png"
    out.save(path, optimize=True)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m asteroids.app.sheet [DIR]``: every sheet of ``SIZES`` into DIR."""
    parser = argparse.ArgumentParser(prog="python -m asteroids.app.sheet",
                                     description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("out", nargs="?", default="docs/img", help="folder for the sheets")
    parser.add_argument("--only", metavar="WxH-RULES", action="append", default=[],
                        help="just this sheet, e.g. 640x480-default (may repeat)")
    args = parser.parse_args(argv)
    if "arcade" not in sys.modules:
        os.environ.setdefault("ARCADE_HEADLESS", "1")
        os.environ.setdefault("ARCADE_SOUND_BACKENDS", "silent")
    saved = os.environ.get("ASTEROIDS_DATA_DIR")
    try:
        for width, height, rules in SIZES:
            if args.only and f"{width}x{height}-{rules}" not in args.only:
                continue
            path = sheet(width, height, rules, Path(args.out),
                         log=lambda line: print(line, file=sys.stderr, flush=True))
            print(f"wrote {path}")
    finally:
        if saved is None:
            os.environ.pop("ASTEROIDS_DATA_DIR", None)
        else:
            os.environ["ASTEROIDS_DATA_DIR"] = saved
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
