"""Two bot processes on one PostgreSQL database (docs/scaling.md), acting on the same game at
the same moment, as two GameService objects on two stores of their own (their own pools,
locks and leases: to the database, two processes):

- a player's click handled by one while the other fires that very turn's deadline: each
  turn is played once, by the player (the click reported done, at the seq it reported) or
  by the computer for them (the click refused as out of date), never both, never neither;
- both delivering what the game owes, one of them stopped dead while it holds leases and
  started again: every owed post is sent once (none twice, none lost), the dead one's only
  after its lease ran out. `send` below is what the outbox worker does between claiming
  rows (`claim_messages`) and marking them sent (`delivered`): the protocol under test.

On a ManualClock: nothing waits for time to pass (a few seconds in all)."""
import asyncio
import random
from collections import Counter

import asyncpg
import pytest

from tests.service.svckit import (
    game_in_play,
    open_store,
    pick_action,
    run_timers,
    state_of,
    timed_service,
    timers_of,
)
from ttr_bot.game_record import action_to_json
from ttr_bot.service import MESSAGE_LEASE, ServiceError
from ttr_bot.service.clock import ManualClock

pytestmark = [pytest.mark.asyncio, pytest.mark.drivers("postgresql")]
ROUNDS = 12
# someone holds the game's lock (ttr_lock_game: pg_advisory_lock on its id), or has moved it
BUSY = ("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND classid = 0 AND objid = $1 AND objsubid = 1) "
        "OR (SELECT seq FROM games WHERE id = $1) <> $2")
SEATS = [str(i) for i in range(5)]


async def deadline_of(store, game_id, seat):
    timers = [t for t in await timers_of(store, game_id, "deadline")
              if t.payload["seat"] == seat]
    return min(t.due_at for t in timers)


async def click(svc, watcher, game_id, user, action, seq, round_no):
    """The player's click: its Effects, or None when it was refused as out of date. Every
    other one comes once the other process holds the game's lock (its deadline is being
    played) or has moved it, the others at once; each a little later than the one before."""
    for _ in range(5000 if round_no % 2 else 0):
        if await watcher.fetchval(BUSY, game_id, seq):
            break
        await asyncio.sleep(0.001)
    for _ in range(round_no // 2 % 3):
        await asyncio.sleep(0)
    try:
        return await svc.moves.act(game_id, user, action, seq)
    except ServiceError as exc:
        assert exc.key == "service.stale", exc.key
        return None


async def test_a_click_in_one_process_and_its_deadline_in_the_other_play_the_turn_once(
        db_path):
    clock = ManualClock(1_700_000_000.0)
    a_store, b_store = await open_store(db_path), await open_store(db_path)
    clicks = timed_service(a_store, clock)               # the click is routed here...
    timers = timed_service(b_store, clock, seed=8)       # ...the turn's deadline fires here
    try:
        game_id, users = await game_in_play(clicks, 30, players=3, options={"deadline": 12})
        watcher = await asyncpg.connect(str(db_path))       # sees who holds the game's lock
        start = (await clicks.load(game_id)).seq
        await timers.resume()
        rng = random.Random(30)
        reported, refused = {}, 0
        for round_no in range(ROUNDS):
            clicks.core.forget(game_id)
            hosted = await clicks.load(game_id)
            seat = hosted.game.to_move()[0]
            user = hosted.seats[seat].user_id
            if user is None:        # three timeouts: a computer took the seat for good
                break
            action = pick_action(hosted.game, rng, seat)
            logged = action_to_json(hosted.game, action, SEATS[:hosted.game.n])
            deadline = await deadline_of(b_store, game_id, seat)
            clock.set(deadline - 1)             # the turn's reminder goes out first, alone:
            await run_timers(timers)            # the click races the deadline, not a reminder
            clock.set(deadline)

            eff, _ = await asyncio.gather(
                click(clicks, watcher, game_id, user, action, hosted.seq, round_no),
                run_timers(timers))
            await run_timers(timers)            # the rest of the turn, if the click began it
            if eff is None:
                refused += 1
            else:
                assert eff.seq == hosted.seq + 1
                reported[eff.seq] = (seat, logged)
            after = await timers.core.reload(game_id)
            assert after.game.to_move() != [seat] or after.seats[seat].user_id is None

        log = (await a_store.load_actions(game_id))[start:]
        by_players = {r.seq: (r.actor, r.action) for r in log if r.actor is not None}
        assert by_players == reported           # every click reported is there, once, as sent
        assert len(log) > len(reported)         # and the computer played the rest
        final = await timers.core.reload(game_id)
        assert final.seq == start + len(log)
        assert state_of(await clicks.moves.rebuild(game_id)) == state_of(final.game)
        # one turn post per turn: no action's post owed twice
        posts = [r for r in await a_store.pending_outbox(10_000) if r.game_id == game_id]
        keys = Counter((r.kind, r.lane, r.key, r.seq) for r in posts)
        assert max(keys.values()) == 1, [k for k, n in keys.items() if n > 1]
        assert reported and refused, (len(reported), refused)   # both outcomes met
        await watcher.close()
    finally:
        await timers.close()
        await a_store.close()


async def send_all(svc, sent):
    """What the outbox worker does, until it finds nothing it may send: the first owed row of
    each destination, leased (`claim_messages`) before it is sent and marked sent after;
    `sent` records each send as (row id, the process)."""
    while True:
        heads = {}
        for m in await svc.queue.deliverable():
            heads.setdefault(m.lane, m)
        progressed = False
        for m in heads.values():
            await asyncio.sleep(0)      # the other process reads, claims and sends meanwhile
            if not await svc.queue.claim_messages([m.id]):
                continue                # another process holds it
            sent.append((m.id, svc.core.owner))
            await asyncio.sleep(0)
            await svc.queue.delivered([m.id])
            progressed = True
        if not progressed:
            return


async def test_two_processes_send_each_owed_post_once_through_a_restart(db_path):
    clock = ManualClock(1_700_000_000.0)
    stores = [await open_store(db_path) for _ in range(3)]
    first, other, restarted = (timed_service(s, clock, seed=n) for n, s in enumerate(stores))
    try:
        game_id, _ = await game_in_play(first, 31, players=3)
        rng = random.Random(31)
        for _ in range(12):
            hosted = await first.load(game_id)
            action = pick_action(hosted.game, rng)
            await first.moves.act(game_id, hosted.seats[action.seat].user_id, action, hosted.seq)
        owed = {m.id: m for m in await first.queue.owed_messages(10_000)}
        lanes = {m.lane for m in owed.values()}
        assert len(owed) > 10 and len(lanes) > 2
        # the first process leases the first post of two destinations and dies holding them
        heads = {}
        for m in await first.queue.deliverable():
            heads.setdefault(m.lane, m)
        held = list(heads.values())[:2]
        assert await first.queue.claim_messages([m.id for m in held])
        await stores[0].close()             # killed: its leases stay until they run out
        sent = []
        await asyncio.gather(send_all(other, sent), send_all(restarted, sent))
        ids = [i for i, _ in sent]
        assert len(ids) == len(set(ids)), Counter(ids).most_common(3)     # none sent twice
        stuck = {m.lane for m in held}
        assert {i for i in owed if owed[i].lane not in stuck} <= set(ids)
        assert not {i for i in ids if owed[i].lane in stuck}  # the dead one's, and behind them
        clock.advance(MESSAGE_LEASE)        # its leases run out: the others send the rest
        await asyncio.gather(send_all(other, sent), send_all(restarted, sent))
        ids = [i for i, _ in sent]
        assert len(ids) == len(set(ids)) and set(ids) == set(owed)
        assert await other.queue.owed_messages(10_000) == []
    finally:
        for s in stores[1:]:
            await s.close()
