"""Reminders keep their promise (issue 23), on a ManualClock: never two reminders of a turn
within 24 hours, none later than 2 hours before the deadline, three a turn at most, the next
one moved a day after a reminder quiet hours held back; and the timer invariant expects every
reminder the schedule still owes (check_timers, `resume`, `python bot.py doctor --repair`)."""
import random
from datetime import datetime, timezone

import pytest

from tests.service.svckit import (
    end_turn,
    game_in_play,
    open_store,
    owed,
    run_timers,
    timed_service,
    timers_of,
)
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR, GameOptions, reminder_plan

UTC = timezone.utc


@pytest.mark.parametrize("options, hours", [
    ({"deadline": 12}, [6]),
    ({"deadline": 24}, [12]),               # 19.2 h would be 7.2 h after the first
    ({"deadline": 48}, [24]),               # 38.4 h: 14.4 h after; 48 h: the deadline itself
    ({"deadline": 72}, [36, 60]),
    ({"deadline": 168}, [84, 134.4]),
    ({"deadline": 0, "remind": 24}, [24, 48, 72]),
    ({"deadline": 0, "remind": 12}, [12, 36, 60]),
    ({"deadline": 0, "remind": 48}, [48, 96, 144]),
    ({"deadline": 0, "remind": 0}, []),
])
def test_the_plan_keeps_a_day_between_reminders(options, hours):
    plan = reminder_plan(GameOptions.of(options), 1000.0)
    assert [n for n, _ in plan] == list(range(1, len(hours) + 1))
    assert [at - 1000.0 for _, at in plan] == pytest.approx([h * HOUR for h in hours])


async def hour_by_hour(svc, clock, hours):
    for _ in range(hours):
        clock.advance(HOUR)
        await run_timers(svc)


@pytest.mark.asyncio
async def test_a_48_hour_deadline_reminds_once(db_path):
    """At half and four fifths of 48 h the player was pinged twice 14.4 h apart, though the
    README promised at most one a day. Now once, at 24 h."""
    clock = ManualClock(datetime(2024, 5, 6, 11, tzinfo=UTC).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, _ = await game_in_play(svc, 70, options={"deadline": 48})
    start = clock()
    await hour_by_hour(svc, clock, 47)
    sent = await owed(store, "reminder")
    assert [r.created_at - start for r in sent] == [24 * HOUR]
    await svc.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("quiet_end, second", [(8, 8), (10, None)])
async def test_a_reminder_held_back_by_quiet_hours_moves_the_next_a_day_on(db_path, quiet_end,
                                                                          second):
    """72 h deadline from 11:00: reminders planned at 36 h and 60 h (23:00 both days). Quiet
    hours 22:00-08:00 hold the first to 08:00 on the third day; the second, due 15 h later,
    goes a day after the first (08:00 on the fourth day, 69 h, before the 70 h limit). With
    quiet hours until 10:00 the day after the first would be 71 h: the second is dropped."""
    clock = ManualClock(datetime(2024, 5, 6, 11, tzinfo=UTC).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, _ = await game_in_play(svc, 71, options={"deadline": 72})
    hosted = await svc.load(game_id)
    user = hosted.seats[hosted.game.current].user_id
    await svc.queue.set_notify(user, {"how": "ping", "tz": "UTC", "quiet": [22 * 60, quiet_end * 60]})
    await hour_by_hour(svc, clock, 71)
    sent = [datetime.fromtimestamp(r.created_at, UTC) for r in await owed(store, "reminder")]
    expected = [datetime(2024, 5, 8, quiet_end, tzinfo=UTC)]
    if second is not None:
        expected.append(datetime(2024, 5, 9, second, tzinfo=UTC))
    assert sent == expected
    await svc.close()


@pytest.mark.asyncio
async def test_the_invariant_expects_the_reminders_still_due(db_path):
    """A reminder the schedule still owes has a timer (a lost one is found and re-armed, and
    goes out on time); one that went out is not expected again."""
    clock = ManualClock(datetime(2024, 5, 6, 11, tzinfo=UTC).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    timed, _ = await game_in_play(svc, 72, options={"deadline": 72})
    untimed, _ = await game_in_play(svc, 73, options={"deadline": 0, "remind": 24})
    start = clock()
    await hour_by_hour(svc, clock, 40)                  # the first of each has gone out
    assert len(await owed(store, "reminder")) == 2
    assert await svc.invariants.check_timers() == []
    for game_id in (timed, untimed):                    # as a bug or an old version lost them
        await store.delete_timers(game_id, "remind")
    problems = await svc.invariants.check_timers()
    assert sorted((p.game_id, p.timer.payload["n"], p.timer.due_at - start) for p in problems) \
        == [(timed, 2, 60 * HOUR), (untimed, 2, 48 * HOUR), (untimed, 3, 72 * HOUR)]
    await svc.invariants.check_timers(repair=True)
    assert await svc.invariants.check_timers() == []
    await hour_by_hour(svc, clock, 33)
    sent = await owed(store, "reminder")
    assert sorted((r.game_id, r.created_at - start) for r in sent) == [
        (timed, 36 * HOUR), (timed, 60 * HOUR),
        (untimed, 24 * HOUR), (untimed, 48 * HOUR), (untimed, 72 * HOUR)]
    assert await timers_of(store, untimed, "remind") == []
    assert await svc.invariants.check_timers() == []               # all went out: none expected
    await svc.close()


@pytest.mark.asyncio
async def test_the_next_turn_has_its_own_reminders(db_path):
    """A turn's reminders end with it; the next turn's start from its beginning, found even
    when every one of its timers is lost (the last move of another seat)."""
    clock = ManualClock(datetime(2024, 5, 6, 11, tzinfo=UTC).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, _ = await game_in_play(svc, 74, options={"deadline": 0, "remind": 12})
    clock.advance(DAY)
    await run_timers(svc)
    await end_turn(svc, game_id, random.Random(4))
    turn_began = clock()
    clock.advance(HOUR)
    await store.delete_timers(game_id, "remind")
    problems = await svc.invariants.check_timers(repair=True)
    assert [(p.timer.payload["n"], p.timer.due_at - turn_began) for p in problems] == [
        (1, 12 * HOUR), (2, 36 * HOUR), (3, 60 * HOUR)]
    await svc.close()
