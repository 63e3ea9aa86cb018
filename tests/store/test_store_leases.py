"""Several processes on one database: due timers and owed messages are claimed with a lease, so
each is handled by one process; a dead process's leases run out; a process sees only the rows
of its own shards' guilds (Discord's formula: (guild_id >> 22) % count; no game: shard 0)."""
import asyncio

import pytest

from ttr_bot.store import OutboxItem, Owed, Shards

pytestmark = pytest.mark.asyncio
ON_SHARD_1 = 3 << 22        # a guild id on shard 1 of 2 (guild 1 is on shard 0)


async def game_in(store, guild_id, channel_id):
    return await store.create_game(guild_id=guild_id, channel_id=channel_id, map="usa",
                                   variant="base", options={}, seed=1, host_id=10, now=1.0)


async def test_a_claimed_timer_is_nobody_elses_until_its_lease_runs_out(store, make_game):
    game_id = await make_game()
    first = await store.add_timer("turn", 10.0, {"n": 1}, game_id)
    second = await store.add_timer("turn", 20.0, {"n": 2}, game_id)
    assert [t.id for t in await store.claim_timers(30.0, "a", limit=1, lease=60.0)] == [first]
    assert [t.id for t in await store.claim_timers(35.0, "b", lease=60.0)] == [second]
    assert await store.claim_timers(36.0, "c") == []            # both are held
    assert await store.next_claim_at(36.0) == 90.0              # a's lease runs out first
    [again] = await store.claim_timers(90.0, "c", lease=60.0)   # a died: c fires it
    assert (again.id, again.payload) == (first, {"n": 1})
    assert await store.retry_timer(second, 200.0) == 1          # a retry ends b's lease
    assert await store.next_claim_at(100.0) == 150.0
    assert await store.release_timers("c") == 1                 # c stops: free again at once
    assert [t.id for t in await store.claim_timers(100.0, "d")] == [first]
    assert await store.delete_timer(first)
    assert await store.next_claim_at(100.0) == 200.0


async def test_a_process_claims_only_its_shards_timers(store):
    mine, theirs = await game_in(store, 1, 501), await game_in(store, ON_SHARD_1, 502)
    t0 = await store.add_timer("turn", 1.0, None, mine)
    t1 = await store.add_timer("turn", 1.0, None, theirs)
    chores = await store.add_timer("lobby_sweep", 2.0)          # no game: shard 0's
    zero, one = Shards(2, (0,)), Shards(2, (1,))
    assert await store.next_claim_at(0.0, shards=one) == 1.0
    assert [t.id for t in await store.due_timers(5.0, shards=one)] == [t1]
    assert [t.id for t in await store.claim_timers(5.0, "p1", shards=one)] == [t1]
    assert await store.next_claim_at(5.0, shards=one) == 65.0   # only its own, leased
    assert [t.id for t in await store.claim_timers(5.0, "p0", shards=zero)] == [t0, chores]
    assert await store.list_active_game_ids(include_lobbies=True, shards=one) == [theirs]
    assert await store.list_active_game_ids(include_lobbies=True, shards=Shards(2, (0, 1))) \
        == [mine, theirs]


async def test_two_processes_claiming_at_once_share_the_due_timers_without_overlap(db, store):
    game_id = await game_in(store, 1, 503)
    ids = {await store.add_timer("turn", float(i % 7), None, game_id) for i in range(200)}
    other = db.open_store()
    await other.open()
    try:
        claimed = {"a": [], "b": []}

        async def claimer(s, owner):
            while True:
                got = await s.claim_timers(10.0, owner, limit=7)
                if not got:
                    return
                claimed[owner] += [t.id for t in got]
                await asyncio.sleep(0)
        await asyncio.gather(claimer(store, "a"), claimer(other, "b"))
    finally:
        await other.close()
    every = claimed["a"] + claimed["b"]
    assert sorted(every) == sorted(ids)                         # each once, none lost


async def test_owed_messages_are_leased_all_or_none(store, make_game):
    game_id = await make_game()
    other = await game_in(store, ON_SHARD_1, 504)
    await store.write_owed(Owed(tuple(OutboxItem("post", f"c{i}", {"n": i}) for i in range(3))),
                           game_id, now=1.0)
    await store.write_owed(Owed((OutboxItem("post", "c9", {}),)), other, now=1.0)
    rows = await store.pending_outbox(shards=Shards(2, (0,)))
    assert [r.lane for r in rows] == ["c0", "c1", "c2"]
    assert [r.lane for r in await store.pending_outbox(shards=Shards(2, (1,)))] == ["c9"]
    a, b, c = (r.id for r in rows)
    assert await store.claim_outbox([a, b], "p", now=10.0, lease=60.0)
    assert await store.claim_outbox([a, b], "p", now=11.0)      # its own lease: renewed
    assert not await store.claim_outbox([b, c], "q", now=20.0)  # b is p's: nothing taken
    assert await store.claim_outbox([c], "q", now=20.0)
    assert await store.claim_outbox([a, b], "q", now=72.0)      # p's lease ran out
    assert await store.retry_outbox(a, 100.0) == 1              # ends q's lease on a
    assert await store.claim_outbox([a], "p", now=73.0)
    assert await store.release_outbox("q") == 2                 # b and c
    assert await store.claim_outbox([b, c], "p", now=74.0)
    assert await store.mark_outbox_sent([a, b, c], now=75.0) == 3
