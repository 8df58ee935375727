"""Batched bots decide for every game at once, each game's buttons equal to the one-game
bot's on that game, every tick."""

from __future__ import annotations

import pytest

from asteroids.config.loader import load_preset
from asteroids.core.batch import new_batch, step_batch
from asteroids.core.bot import BOTS
from asteroids.core.bot_batch import BATCH_BOTS, batch_bot_for


@pytest.mark.parametrize("name", sorted(BATCH_BOTS))
def test_each_games_masks_equal_the_one_game_bots(name):
    cfg = load_preset("classic")
    batch = new_batch(cfg, range(5))
    one, many = BOTS[name], BATCH_BOTS[name]
    pressed = 0
    for _ in range(150):
        masks = many(batch, cfg)
        assert masks.shape == (5,)
        assert masks.tolist() == [one(batch.world(i), cfg) for i in range(5)]
        pressed |= int(masks.max(initial=0))
        batch, _ = step_batch(batch, masks, cfg)
    assert (pressed != 0) == (name != "idle")


def test_every_named_bot_has_a_batched_form_and_unknown_names_say_which_do():
    assert set(BATCH_BOTS) == set(BOTS)
    with pytest.raises(ValueError, match="aimer, idle, spinner"):
        batch_bot_for("aimr")
