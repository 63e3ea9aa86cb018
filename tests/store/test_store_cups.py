"""The cups subject of the store (store/cups.py) on both drivers: a cup created with what its
creation owes in one transaction, a change written only at the version it was read at (a
second writer of the same version changes nothing and owes nothing), a server's open cups,
its post's message, and its timers."""
import pytest

from ttr_bot.store import NewTimer, OutboxItem, Owed
from ttr_bot.store.subjects.cups import cup_store

pytestmark = pytest.mark.asyncio


async def test_a_cup_changes_only_at_the_version_it_was_read(store):
    s = cup_store(store)
    cup_id = await s.create_cup(
        guild_id=1, channel_id=5, created_by=9, name="Winter cup", state={"players": []},
        now=100.0, owed_for=lambda i: Owed(
            (OutboxItem("cup_post", "c5", {"cup": i}, key=f"cup:{i}"),),
            (NewTimer("cup_signup", 200.0, {"cup": i}),)))
    cup = await s.get_cup(cup_id)
    assert cup is not None and (cup.name, cup.status, cup.version, cup.state) == (
        "Winter cup", "signup", 0, {"players": []})
    assert [(t.kind, t.payload) for t in await s.cup_timers()] == [("cup_signup", {"cup": cup_id})]
    assert [r.payload for r in await store.pending_outbox(10)] == [{"cup": cup_id}]
    more = Owed((OutboxItem("cup_post", "c5", {"cup": cup_id, "n": 1}, key="k1"),))
    assert await s.save_cup(cup_id, 0, status="running", state={"players": [1, 2]}, now=150.0,
                            owed=more)
    # a second writer that read version 0: nothing written, nothing owed
    assert not await s.save_cup(cup_id, 0, status="cancelled", state={}, now=151.0,
                                owed=Owed((OutboxItem("cup_post", "c5", {}, key="k2"),)))
    cup = await s.get_cup(cup_id)
    assert cup is not None and (cup.status, cup.version, cup.state, cup.updated_at) == (
        "running", 1, {"players": [1, 2]}, 150.0)
    assert [r.key for r in await store.pending_outbox(10)] == [f"cup:{cup_id}", "k1"]
    other = await s.create_cup(guild_id=1, channel_id=6, created_by=9, name="B", state={},
                               now=160.0, owed_for=lambda i: Owed())
    await s.create_cup(guild_id=2, channel_id=7, created_by=9, name="C", state={}, now=160.0,
                       owed_for=lambda i: Owed())
    assert [c.id for c in await s.cups_in_guild(1)] == [other, cup_id]
    assert await s.save_cup(other, 0, status="finished", state={}, now=170.0)
    assert [c.id for c in await s.cups_in_guild(1)] == [cup_id]
    assert [c.id for c in await s.cups_in_guild(1, open_only=False)] == [other, cup_id]
    assert cup_id in [c.id for c in await s.open_cups()]
    await s.set_cup_message(cup_id, 2 ** 62)
    cup = await s.get_cup(cup_id)
    assert cup is not None and cup.message_id == 2 ** 62
    assert await s.get_cup(10 ** 9) is None
