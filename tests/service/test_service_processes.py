"""Two bot processes on one database, as two GameService objects on two store connections:
a process's cached copy of a game is checked against the stored seq before every change, so
one that another process moved on is read again instead of acting on the old state (or
dropping a computer player's move); on PostgreSQL the per-game lock is the database's, so two
processes never change one game at once. (Real processes, killed too: test_service_processes_kill.py.)"""
import asyncio
import random

import pytest
import pytest_asyncio

from tests.service.svckit import make_service, open_store, pick_action, users_for
from tests.store.dbkit import DRIVERS

pytestmark = [pytest.mark.asyncio, pytest.mark.drivers(*DRIVERS)]


@pytest_asyncio.fixture
async def other(db_path):
    """The second process: its own store connection(s) and its own service (and cache)."""
    s = await open_store(db_path)
    yield make_service(s, seed=8)
    await s.close()


async def human_and_computer(svc, channel_id):
    human = users_for(channel_id, 1)[0]
    lobby = await svc.lobby.open_lobby(guild_id=1, channel_id=channel_id, user_id=human, name="Ann",
                                       map_id="usa")
    await svc.lobby.add_bot(channel_id, human, "easy")
    await svc.lobby.start(channel_id, human)
    return lobby.id, human


async def until_the_computer_is_to_move(svc, game_id, human, rng):
    while True:
        hosted = await svc.load(game_id)
        if hosted.seats[hosted.game.to_move()[0]].is_bot:
            return hosted.seq
        await svc.moves.act(game_id, human, pick_action(hosted.game, rng, seat=0), hosted.seq)


async def test_a_computer_move_timed_in_another_process_is_played_not_dropped(svc, other):
    rng = random.Random(3)
    game_id, human = await human_and_computer(svc, 70)
    await svc.load(game_id)                       # this process caches the game at seq 0
    seq = await until_the_computer_is_to_move(other, game_id, human, rng)
    assert seq > 0 and (await svc.load(game_id)).seq == 0     # the cache is behind
    # the computer's timer says "at seq": the move is made (the old code dropped it: None)
    eff = await svc.moves.play_bot(game_id, expected_seq=seq)
    assert eff is not None and eff.seq == seq + 1
    assert (await other.core.reload(game_id)).seq == seq + 1


async def test_a_change_after_another_process_moved_the_game_uses_the_stored_state(svc, other):
    rng = random.Random(4)
    game_id, human = await human_and_computer(svc, 71)
    seq = await until_the_computer_is_to_move(svc, game_id, human, rng)
    await other.load(game_id)                     # the other process caches it here
    await svc.moves.play_bot(game_id, expected_seq=seq)
    seq = await until_the_computer_is_to_move(svc, game_id, human, rng)
    # a turn taken for the computer by the other process (e.g. its timer fired there): its
    # copy is two turns old, yet the move is made on the stored state, not refused as stale
    eff = await other.moves.play_bot(game_id)
    assert eff is not None and eff.seq == seq + 1


async def test_on_postgresql_two_processes_never_hold_one_game_at_once(svc, other, driver):
    if driver != "postgresql":
        pytest.skip("SQLite has no lock across processes: each write takes the file's lock, "
                    "and the seq check refuses a stale action (the tests above)")
    game_id, _ = await human_and_computer(svc, 72)
    inside = []

    async def hold(service, name):
        async with service.core.lock(game_id):
            inside.append(name)
            assert len(inside) == 1, inside       # nobody else is in
            await asyncio.sleep(0.2)
            inside.remove(name)
    started = asyncio.get_running_loop().time()
    await asyncio.gather(hold(svc, "a"), hold(other, "b"), hold(svc, "c"))
    assert asyncio.get_running_loop().time() - started >= 0.6
