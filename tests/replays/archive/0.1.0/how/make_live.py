"""A format-2 game whose rules change while it runs, recorded by asteroids 0.1.0 (bcade8a)
through the same Recorder the live window uses (a bot at the controls, the edits scripted)."""
from asteroids.config import load_config
from asteroids.core import new_world, step
from asteroids.replay.files import save_replay
from asteroids.replay.record import Recorder, get_bot

edits = {  # tick -> the --set overrides in force from that tick on (layered)
    300: ["ship.thrust_px_per_s2=420"],
    700: ["ship.thrust_px_per_s2=420", "shots.speed_px_per_s=750", "scoring.asteroid=[25, 60, 120]"],
    1200: ["ship.thrust_px_per_s2=380", "shots.speed_px_per_s=750", "scoring.asteroid=[25, 60, 120]",
           "saucers.fire_interval_s=0.4", "ship.turn_deg_per_s=300"],
    1800: ["ship.thrust_px_per_s2=380", "shots.speed_px_per_s=750", "scoring.asteroid=[25, 60, 120]",
           "saucers.fire_interval_s=0.4", "ship.turn_deg_per_s=300", "shots.autofire=true"],
}
for preset, seed, out in (("default", 201, "live-default"), ("classic", 202, "live-classic")):
    config = load_config(preset)
    bot = get_bot("aimer")
    rec = Recorder(config, seed)
    world = new_world(config, seed)
    current = config
    for t in range(2400):
        if t in edits:
            current = load_config(preset, overrides=edits[t])
        if world.game_over:
            break
        mask = bot(world, current)
        world, _ = step(world, mask, current)
        rec.add(mask, world, current)
    replay = rec.finish(world)
    path = save_replay(replay, f"/work/main/tests/replays/archive/0.1.0/live/{out}.replay")
    print(path, replay.ticks, replay.final_score, len(replay.config_changes))
