"""The outbox per destination (migration 0007, both drivers): the worker reads the first rows of
every destination, not the oldest rows overall, so a channel owing hundreds of posts hides no
other's; a refused destination is blocked on its own until its retry time; sent and given-up
rows, closed votes and finished blocks are pruned."""
import pytest

from ttr_bot.store import OutboxItem, Owed, Shards

pytestmark = pytest.mark.asyncio
ON_SHARD_1 = 3 << 22


async def owe(store, game_id, lane, n, now=1.0, kind="notice"):
    await store.write_owed(Owed(tuple(OutboxItem(kind, lane, {"n": i}) for i in range(n))),
                           game_id, now)


async def test_a_destination_owing_hundreds_hides_no_other(store, make_game):
    stuck, healthy = await make_game(), await make_game()
    for lane in ("c1", "c2", "c3", "c4"):
        await owe(store, stuck, lane, 165)
    await owe(store, healthy, "c9", 2, now=5.0)
    await owe(store, healthy, "u7", 1, now=5.0)
    rows = await store.deliverable_outbox(10.0, lanes=200, per_lane=20)
    lanes = [r.lane for r in rows]
    assert {"c9", "u7"} <= set(lanes)                       # the oldest 500 rows were all stuck
    assert all(lanes.count(f"c{i}") == 20 for i in range(1, 5))     # 20 rows a destination
    for lane in set(lanes):                                 # each lane's rows together, in order
        mine = [r.id for r in rows if r.lane == lane]
        assert mine == sorted(mine)
        first = lanes.index(lane)
        assert lanes[first:first + len(mine)] == [lane] * len(mine)
    assert len(await store.deliverable_outbox(10.0, lanes=2)) == 40     # 2 destinations: 2 x 20


async def test_a_refused_destination_waits_alone_until_its_retry(store, make_game):
    game_id = await make_game()
    await owe(store, game_id, "c1", 3)
    await owe(store, game_id, "c2", 1)
    block = await store.refuse_lane("c1", 10.0, 70.0, guild_id=1, code=50013)
    assert (block.refused_since, block.retry_at, block.attempts, block.code) == (10.0, 70.0, 1, 50013)
    assert {r.lane for r in await store.deliverable_outbox(20.0)} == {"c2"}
    again = await store.refuse_lane("c1", 80.0, 200.0, code=50001)
    assert (again.refused_since, again.attempts, again.guild_id, again.code) == (10.0, 2, 1, 50001)
    assert {r.lane for r in await store.deliverable_outbox(199.0)} == {"c2"}
    assert {r.lane for r in await store.deliverable_outbox(200.0)} == {"c1", "c2"}
    assert await store.retry_lanes_at(["c1", "c5"], 150.0) == 1       # a permission came back
    assert {r.lane for r in await store.deliverable_outbox(150.0)} == {"c1", "c2"}
    assert [b.lane for b in await store.lane_blocks()] == ["c1"]
    assert len(await store.owed_in_lane("c1")) == 3
    cleared = await store.clear_lane_block("c1")
    assert cleared.lane == "c1" and await store.clear_lane_block("c1") is None


async def test_blocks_are_per_shard_and_end_when_given_up(store, make_game):
    game_id = await make_game()
    await owe(store, game_id, "c1", 2)
    await store.refuse_lane("c1", 1.0, 5.0, guild_id=1)
    await store.refuse_lane("c8", 1.0, 5.0, guild_id=ON_SHARD_1)
    assert [b.lane for b in await store.lane_blocks(shards=Shards(2, (1,)))] == ["c8"]
    assert await store.fail_outbox_lane("c1", "given up: no_access", now=9.0) == 2
    assert [b.lane for b in await store.lane_blocks()] == ["c8"]
    rows = [r for r in await store.pending_outbox(100) if r.lane == "c1"]
    assert rows == []


async def test_sent_rows_closed_votes_and_idle_blocks_are_pruned(store, make_game):
    game_id = await make_game()
    await owe(store, game_id, "c1", 3)
    ids = [r.id for r in await store.pending_outbox(10)]
    await store.mark_outbox_sent(ids[:2], now=100.0)
    await store.mark_outbox_sent(ids[2:], now=100.0, error="given up: no_access")
    await store.refuse_lane("c1", 50.0, 60.0, guild_id=1)       # owes nothing any more
    await store.refuse_lane("c2", 50.0, 60.0, guild_id=1)
    await owe(store, game_id, "c2", 1)
    vote = await store.open_vote(game_id, kind="cancel", target_seat=None, proposer=10,
                                 voters=[10, 11], ballots={10: True}, expires_at=200.0,
                                 now=100.0)
    await store.close_vote(vote.id, "failed", now=150.0)
    assert await store.purge_votes(150.0) == 0
    assert await store.purge_votes(151.0) == 1
    assert await store.get_vote(vote.id) is None
    assert await store.purge_outbox(100.0) == 0
    assert await store.purge_outbox(101.0) == 3
    assert [b.lane for b in await store.lane_blocks()] == ["c2"]
    assert await store.open_games_in_guild(1) == [game_id]
