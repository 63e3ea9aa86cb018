"""Away periods (away.py, /ttr me away), on a ManualClock: away pauses a turn's deadline
and it resumes on return; renewals hold games at most 14 days in any 30; with cover, a
computer plays the turn and no timeout is counted."""

import pytest

from tests.service.svckit import (
    game_in_play,
    open_store,
    owed,
    run_timers,
    timed_service,
    timers_of,
)
from tests.store.dbkit import DRIVERS
from ttr_bot.service import ServiceError
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio


async def test_away_pauses_the_deadline_and_it_resumes_on_return(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 16, options={"deadline": 24})
    hosted = await svc.load(game_id)
    seat = hosted.game.current
    user, turn = users[seat], hosted.game.turn
    clock.advance(4 * HOUR)                 # 20 hours left when they go
    away = await svc.away.set_away(user, 1, 3)
    assert away.until == clock() + 3 * DAY
    clock.advance(24 * HOUR)                # the deadline would have passed
    await run_timers(svc)
    assert (await svc.load(game_id)).game.turn == turn
    [deadline] = await timers_of(store, game_id, "deadline")
    assert deadline.due_at == pytest.approx(away.until + 20 * HOUR)
    clock.advance(1 * DAY)                  # back early (after two of the three days)
    await svc.away.set_away(user, 1, 0)
    [back] = [r for r in await owed(store, "notice") if r.payload["key"] == "bot.away.back"]
    assert back.due_at == clock()           # owed as of the service's clock, not the wall's
    [deadline] = await timers_of(store, game_id, "deadline")
    assert deadline.due_at == pytest.approx(clock() + 20 * HOUR)
    clock.advance(20 * HOUR - 60)
    await run_timers(svc)
    assert (await svc.load(game_id)).game.turn == turn
    clock.advance(120)
    await run_timers(svc)
    assert (await svc.load(game_id)).game.turn == turn + 1
    notices = [r.payload["key"] for r in await owed(store, "notice")]
    assert notices.count("bot.away.set") == 1 and notices.count("bot.away.back") == 1
    with pytest.raises(ServiceError):
        await svc.away.set_away(user, 1, 15)
    await svc.close()


@pytest.mark.drivers(*DRIVERS)
async def test_renewing_away_cannot_hold_games_more_than_14_days_in_30(db_path, clock):
    """Away has an end: renewed before it runs out, or taken again right after, a player's
    away periods hold their games at most 14 days in any 30; a renewal asking for more is
    refused (with the days still allowed) and changes nothing; a month later it is allowed."""
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 18, options={"deadline": 24})
    user = users[(await svc.load(game_id)).game.current]
    await svc.away.set_away(user, 1, 10)
    clock.advance(9 * DAY)                          # renewed a day before it ends
    with pytest.raises(ServiceError) as refused:
        await svc.away.set_away(user, 1, 14)
    assert refused.value.key == "service.away_limit" and refused.value.params["count"] == 5
    running = await store.get_away(user, 1)
    assert running.until == pytest.approx(clock() + DAY)        # the refusal changed nothing
    await svc.away.set_away(user, 1, 5)                  # 9 + 5 = 14 days
    clock.advance(5 * DAY)
    await run_timers(svc)                           # the period ends by its timer
    assert await svc.away.away_of(user, 1) is None
    clock.advance(DAY)
    with pytest.raises(ServiceError):               # taken again at once: still 14 in 30
        await svc.away.set_away(user, 1, 1)
    clock.advance(16 * DAY)                         # the first 10 days now out of the window
    await svc.away.set_away(user, 1, 9)
    assert (await svc.away.away_of(user, 1)).until == pytest.approx(clock() + 9 * DAY)
    notices = [r.payload["key"] for r in await owed(store, "notice")]
    assert notices.count("bot.away.set") == 3
    await svc.close()


async def test_away_with_cover_lets_a_computer_play_without_counting_timeouts(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 17, options={"deadline": 24, "away": "cover"})
    hosted = await svc.load(game_id)
    seat, turn = hosted.game.current, hosted.game.turn
    await svc.away.set_away(users[seat], 1, 2)
    clock.advance(3)
    await run_timers(svc)
    hosted = await svc.load(game_id)
    assert hosted.game.turn == turn + 1 and hosted.seats[seat].timeouts == 0
    assert [r.payload["by"] for r in await owed(store, "turn") if r.payload["by"]][-1] == "away"
    await svc.close()
