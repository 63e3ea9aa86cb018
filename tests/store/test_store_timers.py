"""Timer rows: stored in due order, retried, deleted (the scheduler that fires them is tested in
tests/service/test_scheduler.py)."""
import pytest

from ttr_bot.store import NotFound

pytestmark = pytest.mark.asyncio


async def test_store_keeps_timers_in_due_order(store, make_game):
    game_id = await make_game()
    late = await store.add_timer("turn", 30.0, {"n": 1}, game_id, now=1.0)
    early = await store.add_timer("reminder", 10.0, None, game_id, now=1.0)
    tie = await store.add_timer("cleanup", 10.0)
    assert (await store.next_due()).id == early
    assert [t.id for t in await store.due_timers(10.0)] == [early, tie]
    assert [t.id for t in await store.due_timers(100.0)] == [early, tie, late]
    timer = (await store.due_timers(100.0))[2]
    assert (timer.game_id, timer.kind, timer.payload, timer.created_at) == (
        game_id, "turn", {"n": 1}, 1.0)
    assert await store.retry_timer(late, 50.0) == 1
    assert (await store.due_timers(100.0))[2].due_at == 50.0
    assert await store.delete_timers(game_id, "reminder") == 1
    assert await store.delete_timer(tie) is True
    assert await store.delete_timer(tie) is False
    assert await store.delete_timers(game_id) == 1
    assert await store.next_due() is None
    assert await store.retry_timer(late, 1.0) is None
    with pytest.raises(NotFound):
        await store.add_timer("turn", 1.0, game_id=9999)
