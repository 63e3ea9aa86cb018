"""The writer the crash test kills: plays random moves in many games through GameService,
forever, on the database it is given (a SQLite file's path or a postgresql:// URL).

    python -m tests.service.crash_writer DB ROUND GAMES [DISCORD_URL [drain]]

(The crash tests start it through `forked`, from a fork server that has imported it once.)

On start it resumes whatever the file holds (lobbies left half-made by an earlier kill are
filled and started), opens new games until GAMES are in play, prints "ready", then after every
act() that returned prints "done <game_id> <seq> <digest of the logged action>" and flushes.
Games that finish are replaced by new ones. It stops by itself after a while, in case the test
that should kill it is gone.

With DISCORD_URL (a fake Discord the test runs), the bot's real outbox worker runs beside it
and delivers what every action owes there (through discord.py's HTTP client, logged in with
the fake's token; no gateway), board pictures left out (a text summary instead: the pictures
are not what is tested, and drawing them would slow the writer down). With "drain", it only
delivers what is still owed (for as long as posts go out: the writers play faster than they
deliver, so a backlog of a thousand rows or more is usual), prints "drained" and exits.

With DISCORD_URL "-" and "shared", it is one of several processes on one database that play
the same games at once (overlapping shards: the misconfiguration the database lock is for):
it creates nothing, resumes the games there are (its scheduler fires the computer players'
timers, which it claims with a short lease, printing "fired <timer id>"), and plays humans'
moves in them; a move another process made first is refused ("refused <game> <key>") and the
writer goes on. When every game is over it waits (for its kill).
"""
import asyncio
import hashlib
import json
import logging
import os
import random
import sys
import time

from tests.service.svckit import make_service, open_store, pick_action, users_for
from ttr_bot.game_record import action_to_json
from ttr_bot.service import GameService, ServiceError

MAPS = [("usa", 5), ("europe", 5), ("switzerland", 3), ("nordic", 3)]
SEATS = [str(i) for i in range(5)]
MAX_SECONDS = 30
WRITER_SEND_TIMEOUT, WRITER_LEASE = 3.0, 4.0
# the drain: at most, and with nothing sent (more than a killed writer's leases last and a
# send's time bound, with room for a slow machine)
DRAIN_SECONDS, STALL_SECONDS = 300, 30


def awaiting(coro):
    """The whole chain of awaits a coroutine is suspended in, outermost first."""
    chain = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            chain.append(f"{frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return chain


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
        loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=channel_id, user_id=users[0],
                                            name=f"P{users[0]}", map_id=map_id)
    seated = {s.user_id for s in loaded.seats}
    for u in users:
        if u not in seated:
            await svc.lobby.join(channel_id, u, f"P{u}")
    if loaded.status == "lobby":
        await svc.lobby.start(channel_id, users[0])
    return loaded.id


class _Delivering:
    """The outbox worker of the real bot on a discord.py client that only logs in (HTTP)."""

    def __init__(self, url):
        import discord
        from discord.http import Route
        Route.BASE = url + "/api/v10"
        self.discord = discord

    async def start(self, svc):
        from ttr_bot.discord.posting.delivery import Delivery
        from ttr_bot.discord.posting.outbox_worker import OutboxWorker
        from ttr_bot.discord.posting.renderers import RENDERERS

        class NoPictures(Delivery):
            async def render(self, *args, **kwargs):
                return None

        class NoDrawing:
            """The bot's picture cache drawing nothing: every post goes out as text (the test
            is about what is delivered, not what it shows)."""
            async def render(self, *args, **kwargs):
                return None

            map = closeup = render

            async def warm(self, *args, **kwargs):
                return None

        class Client(self.discord.Client):
            async def locale_for_user(self, user_id):
                return "en"

        client = Client(intents=self.discord.Intents.none())
        await client.login("fake-bot-token")
        client.service, client.clock = svc, time.time
        client.pictures = NoDrawing()
        self.client = client
        # short leases (and sends bounded below them): the fake answers at once, and a killed
        # writer's claimed rows are free again for the next writer, or the drain, within seconds
        delivery = NoPictures(client, clock=time.time, renderers=RENDERERS)
        self.worker = OutboxWorker(client, delivery, time.time,
                                   send_timeout=WRITER_SEND_TIMEOUT, lease=WRITER_LEASE)
        svc.core.on_outbox = self.worker.wake
        self.worker.start()


async def shared(db, round_no):
    """One of several processes playing the same games (see the module's docstring)."""
    rng = random.Random(round_no * 7919)
    store = await open_store(db)
    svc = GameService(store, clock=time.time, seeds=random.Random(round_no), cache_size=4,
                      bot_delay=0.05, scheduler_options={"lease": 3.0})
    handler = svc.core.scheduler.handler

    async def reporting(timer):
        await handler(timer)
        print("fired", timer.id, flush=True)
    svc.core.scheduler.handler = reporting
    await svc.resume()
    playing = await store.list_active_game_ids()
    print("ready", len(playing), flush=True)
    deadline = time.monotonic() + MAX_SECONDS
    while playing and time.monotonic() < deadline:
        game_id = rng.choice(playing)
        loaded = await svc.load(game_id)
        if loaded.game.over:
            playing.remove(game_id)
            continue
        humans = [s for s in loaded.game.to_move() if not loaded.seats[s].is_bot]
        if not humans:                      # a computer's turn: its timer plays it
            await asyncio.sleep(0.005)
            continue
        action = pick_action(loaded.game, rng, seat=humans[0])
        logged = action_to_json(loaded.game, action, SEATS[:loaded.game.n])
        try:
            eff = await svc.moves.act(game_id, loaded.seats[action.seat].user_id, action, loaded.seq)
        except ServiceError as e:           # another process moved first
            print("refused", game_id, e.key, flush=True)
            svc.core.forget(game_id)
            continue
        print("done", game_id, eff.seq, digest(logged), flush=True)
    # every game is over: wait for the kill
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    await svc.close()


async def main(db, round_no, want, url=None, mode="play"):
    if mode == "shared":
        return await shared(db, round_no)
    rng = random.Random(round_no * 7919)
    store = await open_store(db)
    if url:     # the worker's clock and the service's must agree: the wall clock for both
        svc = GameService(store, clock=time.time, seeds=random.Random(round_no), cache_size=4)
    else:
        svc = make_service(store, seed=round_no, cache_size=4)   # small: evictions all the time
    if url:
        delivering = _Delivering(url)
        await delivering.start(svc)
        if mode == "drain":     # what it did, for the test's failure message
            logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                                format="%(relativeCreated)6.0f %(name)s %(message)s")
            owed, began = len(await svc.queue.owed_messages(100_000)), time.monotonic()
            drained = await delivering.worker.drain(timeout=DRAIN_SECONDS, stall=STALL_SECONDS)
            print(f"drain: {owed} rows owed at the start, {delivering.worker.sent} sent in "
                  f"{time.monotonic() - began:.1f} s, {len(await svc.queue.owed_messages(100_000))} "
                  f"left", file=sys.stderr)
            if not drained:
                for task in asyncio.all_tasks():    # where it waits, for the failure message
                    chain = [f.rsplit("/", 1)[-1] for f in awaiting(task.get_coro())]
                    print(f"{task.get_name()} waits in:", " <- ".join(chain[::-1][:6]),
                          file=sys.stderr)
            print("drained", flush=True)
            await delivering.worker.stop()
            await delivering.client.close()
            await store.close()
            return
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
            eff = await svc.moves.act(game_id, user, action, loaded.seq)
        except ServiceError as e:
            print("refused", game_id, e.key, flush=True)
            raise
        print("done", game_id, eff.seq, digest(logged), flush=True)
        if eff.over:
            playing.remove(game_id)
            next_channel += 1
            playing.append(await fill_and_start(svc, next_channel))
    await store.close()


def run(argv):
    asyncio.run(main(argv[0], int(argv[1]), int(argv[2]), *argv[3:5]))


def forked(out, err, argv):
    """A writer started by the crash test's fork server: its stdout and stderr are the pipes
    `out` and `err` (multiprocessing connections) the test reads."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    run(argv)


if __name__ == "__main__":
    run(sys.argv[1:])
