"""Helpers shared by the service tests (and the crash test's writer process).

Everything runs on real databases, SQLite files or PostgreSQL databases (the `db_path` fixture
is one of each in turn, see conftest.py); nothing in the store or the service is mocked.
"""
import json
import random
import sqlite3
from pathlib import Path

from ttr_bot.engine.actions import type_name
from ttr_bot.engine.snapshot import to_dict
from ttr_bot.service import GameService
from ttr_bot.store import open_store as store_for

REPO = Path(__file__).resolve().parents[2]


class Clock:
    """A clock that moves on by a millisecond each time it is read."""

    def __init__(self, t=1_700_000_000.0):
        self.t = t

    def __call__(self):
        self.t += 0.001
        return self.t


def make_service(store, seed=7, **kw):
    return GameService(store, clock=Clock(), seeds=random.Random(seed), **kw)


def store_class(db, mixin=None):
    """The driver class for `db` (a TestDB, a database URL or a SQLite path), with `mixin`
    (a class whose methods wrap the store's through super()) in front of it if given."""
    cls = type(store_for(str(db)))
    return cls if mixin is None else type(f"{mixin.__name__}On{cls.__name__}", (mixin, cls), {})


async def open_store(db, mixin=None, **kw):
    """An opened store on `db`; options of the other driver (busy_timeout) are dropped."""
    url = str(db)
    if store_for(url).__class__.__name__ != "SqliteStore":
        kw.pop("busy_timeout", None)
    store = store_class(url, mixin)(url, **kw)
    await store.open()
    return store


def users_for(channel_id, n):
    """The user ids the helpers seat in a channel's game: host first."""
    return [channel_id * 10 + i for i in range(n)]


async def lobby(svc, channel_id, players=2, map_id="usa", variant="base"):
    """A lobby with `players` humans (user ids from users_for); returns the game id."""
    users = users_for(channel_id, players)
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=channel_id, user_id=users[0],
                                  name=f"P{users[0]}", map_id=map_id, variant=variant)
    for u in users[1:]:
        await svc.lobby.join(channel_id, u, f"P{u}")
    return loaded.id


async def started(svc, channel_id, players=2, map_id="usa", variant="base"):
    """A started game; returns (game_id, user ids in seat order)."""
    game_id = await lobby(svc, channel_id, players, map_id, variant)
    await svc.lobby.start(channel_id, users_for(channel_id, players)[0])
    return game_id, users_for(channel_id, players)


def pick_action(game, rng, seat=None):
    """A random legal action: a random kind first, then one of that kind (so that the many
    ways of paying for a route do not drown out drawing cards and tickets)."""
    if seat is None:
        seat = rng.choice(game.to_move())
    kinds = {}
    for a in game.legal_actions(seat):
        kinds.setdefault(type_name(a), []).append(a)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


async def play_one(svc, game_id, rng):
    """Let a random player to move make a random legal move through the service.
    Returns (effects, action, seq the move was made at)."""
    loaded = await svc.load(game_id)
    action = pick_action(loaded.game, rng)
    seq = loaded.seq
    eff = await svc.moves.act(game_id, loaded.seats[action.seat].user_id, action, seq)
    return eff, action, seq


async def play_to_end(svc, game_id, rng, limit=5000):
    effects = []
    for _ in range(limit):
        eff, _, _ = await play_one(svc, game_id, rng)
        effects.append(eff)
        if eff.over:
            return effects
    raise AssertionError(f"game {game_id} did not finish in {limit} actions")


def state_of(game):
    """A game's whole state as comparable plain data."""
    return json.loads(json.dumps(to_dict(game)))


def raw_counts(path, game_id):
    """(rows in the log, games.seq, games.status, snapshot seq, snapshot text), read past the
    store: with the test database's own connection, or a plain sqlite3 one for a file."""
    from tests.store.dbkit import TestDB  # not at the top: the crash writer imports this module
    if isinstance(path, TestDB):
        n = path.scalar("SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id)
        seq, status = path.fetchone("SELECT seq, status FROM games WHERE id = ?", game_id)
        snap = path.fetchone("SELECT seq, state FROM snapshots WHERE game_id = ?", game_id)
        return n, seq, status, snap
    conn = sqlite3.connect(path)
    try:
        n = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
        seq, status = conn.execute("SELECT seq, status FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        snap = conn.execute("SELECT seq, state FROM snapshots WHERE game_id = ?",
                            (game_id,)).fetchone()
        return n, seq, status, snap
    finally:
        conn.close()


def walk_keys(obj):
    """Every dict key anywhere inside obj."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from walk_keys(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from walk_keys(v)


# ----- time: a service on a ManualClock ------------------------------------------------------
def timed_service(store, clock, seed=7, **kw):
    """A service whose clock, scheduler included, is `clock` (a ManualClock)."""
    kw.setdefault("bot_delay", 2.0)
    return GameService(store, clock=clock, seeds=random.Random(seed), **kw)


async def run_timers(svc, timeout=30.0):
    """Let the scheduler handle every timer due at the clock's time, then return: until it is
    not `busy` (no handler running, nothing due by now) for a few loop turns in a row. Loop
    turns, never game time passing."""
    import asyncio
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    calm = 0
    while calm < 3:
        if loop.time() > end:
            raise AssertionError("the scheduler did not settle")
        calm = 0 if svc.busy else calm + 1
        await asyncio.sleep(0 if calm else 0.001)


async def owed(store, kind=None):
    return [r for r in await store.pending_outbox(10_000) if kind is None or r.kind == kind]


async def timers_of(store, game_id, kind):
    return await store.list_timers(game_id, kind)


# ----- a game in play (the timer tests' start) ------------------------------------------------
async def game_in_play(svc, channel, players=2, options=None, bots=0):
    """A started game past the starting ticket choice; (game id, users)."""
    users = users_for(channel, players)
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=users[0],
                                        name=f"P{users[0]}", map_id="usa", options=options)
    for u in users[1:]:
        await svc.lobby.join(channel, u, f"P{u}")
    for _ in range(bots):
        await svc.lobby.add_bot(channel, users[0], "easy")
    await svc.lobby.start(channel, users[0])
    hosted = await svc.load(loaded.id)
    for seat in list(hosted.game.to_move()):
        if hosted.seats[seat].user_id is None:
            continue
        hosted = await svc.load(loaded.id)
        offer = hosted.game.offers[seat]
        from ttr_bot.engine.actions import KeepTickets
        await svc.moves.act(loaded.id, hosted.seats[seat].user_id, KeepTickets(seat, tuple(offer)))
    return loaded.id, users


async def move_human(svc, game_id, rng):
    """One random action by the human to move."""
    hosted = await svc.load(game_id)
    seat = hosted.game.to_move()[0]
    action = pick_action(hosted.game, rng, seat)
    return await svc.moves.act(game_id, hosted.seats[seat].user_id, action, hosted.seq)


async def end_turn(svc, game_id, rng):
    """The human to move plays until their turn ends."""
    turn = (await svc.load(game_id)).game.turn
    while (await svc.load(game_id)).game.turn == turn:
        await move_human(svc, game_id, rng)
