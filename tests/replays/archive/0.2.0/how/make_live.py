"""Format-3 games whose rules change while they run, recorded by asteroids 0.2.0 (274ac48)
through the same Recorder the live window uses (a bot at the controls, the edits scripted):
0.1.0's how/make_live.py on the current API (``Recorder.play`` starts and steps the game,
``Recorder.add`` takes the settings of each step), with the same edits, and the knobs new in
0.2.0 (``ship.grace_s``, ``game.spawn_clearance_s``) changed live too. Run from the repo root:
    .venv/bin/python tests/replays/archive/0.2.0/how/make_live.py
"""
from pathlib import Path

from asteroids.config import load_config
from asteroids.replay.files import save_replay
from asteroids.replay.record import Recorder, get_bot

OUT = Path(__file__).resolve().parents[1] / "live"
base = ["ship.thrust_px_per_s2=420", "shots.speed_px_per_s=750", "scoring.asteroid=[25, 60, 120]"]
edits = {  # tick -> the --set overrides in force from that tick on (layered)
    300: ["ship.thrust_px_per_s2=420"],
    700: base,
    1200: [*base, "saucers.fire_interval_s=0.4", "ship.turn_deg_per_s=300"],
    1800: [*base, "saucers.fire_interval_s=0.4", "ship.turn_deg_per_s=300",
           "shots.autofire=true"],
    2100: [*base, "saucers.fire_interval_s=0.4", "ship.turn_deg_per_s=300",
           "shots.autofire=true", "ship.grace_s=1.5", "game.spawn_clearance_s=1.0"],
}
for preset, seed, out in (("default", 201, "live-default"), ("classic", 202, "live-classic"),
                          ("arena", 203, "live-arena")):
    config = load_config(preset)
    bot = get_bot("aimer")
    rec = Recorder(config, seed)
    play = rec.play
    state = play.start(config, seed)
    current = config
    for t in range(2400):
        if t in edits:
            current = load_config(preset, overrides=edits[t])
        if play.over(state):
            break
        mask = bot(play.world(state), current)
        state, _ = play.step(state, mask, current)
        rec.add(mask, state, current)
    replay = rec.finish(state)
    path = save_replay(replay, OUT / f"{out}.replay")
    print(path, replay.format, replay.ticks, replay.final_score,
          [(c.tick, c.settings) for c in replay.config_changes])
