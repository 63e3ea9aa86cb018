"""The writer the crash test kills: plays random moves in many games through GameService,
forever, on the database it is given (a SQLite file's path or a postgresql:// URL).

    python -m tests.service.crash_writer DB ROUND GAMES

On start it resumes whatever the file holds (lobbies left half-made by an earlier kill are
filled and started), opens new games until GAMES are in play, prints "ready", then after every
act() that returned prints "done <game_id> <seq> <digest of the logged action>" and flushes.
Games that finish are replaced by new ones. It stops by itself after a while, in case the test
that should kill it is gone.
"""
import asyncio
import hashlib
import json
import random
import sys
import time

from tests.service.svckit import make_service, open_store, pick_action, users_for
from ttr_bot.record_format import action_to_json
from ttr_bot.service import ServiceError

MAPS = [("usa", 5), ("europe", 5), ("switzerland", 3), ("nordic", 3)]
SEATS = [str(i) for i in range(5)]
MAX_SECONDS = 30


def digest(action_json):
    text = json.dumps(action_json, sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def players_for(channel_id):
    map_id, most = MAPS[channel_id % len(MAPS)]
    return map_id, 2 + channel_id % (most - 1)


async def fill_and_start(svc, channel_id):
    """Bring a lobby (new or left behind) to its players and start it; the game id."""
    map_id, n = players_for(channel_id)
    users = users_for(channel_id, n)
    loaded = await svc.game_in_channel(channel_id)
    if loaded is None:
        loaded = await svc.open_lobby(guild_id=1, channel_id=channel_id, user_id=users[0],
                                      name=f"P{users[0]}", map_id=map_id)
    seated = {s.user_id for s in loaded.seats}
    for u in users:
        if u not in seated:
            await svc.join(channel_id, u, f"P{u}")
    if loaded.status == "lobby":
        await svc.start(channel_id, users[0])
    return loaded.id


async def main(db, round_no, want):
    rng = random.Random(round_no * 7919)
    store = await open_store(db)
    svc = make_service(store, seed=round_no, cache_size=4)   # small: evictions all the time
    playing = await store.list_active_game_ids()
    for game_id in await store.list_active_game_ids(include_lobbies=True):
        row = await store.get_game(game_id)
        if row.status == "lobby":                              # killed while setting it up
            playing.append(await fill_and_start(svc, row.channel_id))
    next_channel = round_no * 100_000
    while len(playing) < want:
        next_channel += 1
        playing.append(await fill_and_start(svc, next_channel))
    print("ready", len(playing), flush=True)
    deadline = time.monotonic() + MAX_SECONDS
    while time.monotonic() < deadline:
        game_id = rng.choice(playing)
        loaded = await svc.load(game_id)
        action = pick_action(loaded.game, rng)
        user = loaded.seats[action.seat].user_id
        logged = action_to_json(loaded.game, action, SEATS[:loaded.game.n])
        try:
            eff = await svc.act(game_id, user, action, loaded.seq)
        except ServiceError as e:
            print("refused", game_id, e.key, flush=True)
            raise
        print("done", game_id, eff.seq, digest(logged), flush=True)
        if eff.over:
            playing.remove(game_id)
            next_channel += 1
            playing.append(await fill_and_start(svc, next_channel))
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
