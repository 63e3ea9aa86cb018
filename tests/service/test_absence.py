"""Absence (absence.py: a turn's clock), on a ManualClock (no test waits for time to pass):
reminders across a restart and held back by quiet hours (over a daylight-saving change),
deadlines played once by a computer player even when two processes race, three timeouts hand
the seat over and /ttr return takes it back, idle games closed (and a lobby nobody starts,
lobby.py's timers), a table of computers finishing by itself. On SQLite (the race of two
processes on PostgreSQL too). Away periods are test_away.py's, votes test_votes.py's."""
import asyncio
import random
from datetime import datetime, timezone

import pytest

from tests.service.svckit import (
    end_turn,
    game_in_play,
    move_human,
    open_store,
    owed,
    run_timers,
    timed_service,
    timers_of,
)
from tests.store.dbkit import DRIVERS
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio


async def test_a_reminder_fires_at_the_right_moment_across_a_restart(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 10, options={"deadline": 0, "remind": 24})
    hosted = await svc.load(game_id)
    to_move = hosted.seats[hosted.game.current].user_id
    clock.advance(23 * HOUR)
    await run_timers(svc)
    assert await owed(store, "reminder") == []
    await svc.close()                                   # down for the 24th hour
    clock.advance(2 * HOUR)
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    await run_timers(svc)
    [reminder] = await owed(store, "reminder")
    assert reminder.payload["user"] == to_move and reminder.lane == f"c{10}"
    clock.advance(20 * HOUR)                            # the next one is a day later
    await run_timers(svc)
    assert len(await owed(store, "reminder")) == 1
    clock.advance(5 * HOUR)
    await run_timers(svc)
    assert len(await owed(store, "reminder")) == 2
    await svc.close()


async def test_missed_reminders_are_sent_once_after_downtime(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, _ = await game_in_play(svc, 11, options={"deadline": 0, "remind": 12})
    await svc.close()
    clock.advance(4 * DAY)                  # all three reminders of the turn fell due meanwhile
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    await run_timers(svc)
    assert len(await owed(store, "reminder")) == 1
    await svc.close()


async def test_quiet_hours_hold_a_reminder_back_over_a_dst_change(db_path):
    utc = timezone.utc
    # the turn starts 24 h before 23:00 CET on 30 March, inside the player's quiet hours
    clock = ManualClock(datetime(2024, 3, 29, 22, tzinfo=utc).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 12, options={"deadline": 0, "remind": 24})
    hosted = await svc.load(game_id)
    user = hosted.seats[hosted.game.current].user_id
    await svc.queue.set_notify(user, {"how": "ping", "tz": "Europe/Berlin", "quiet": [1320, 480]})
    clock.advance(24 * HOUR + 60)
    await run_timers(svc)
    assert await owed(store, "reminder") == []
    end = datetime(2024, 3, 31, 6, tzinfo=utc).timestamp()               # 08:00 CEST
    assert any(abs(t.due_at - end) < 1e-6 for t in await timers_of(store, game_id, "remind"))
    clock.set(end - 60)
    await run_timers(svc)
    assert await owed(store, "reminder") == []
    clock.set(end)
    await run_timers(svc)
    assert len(await owed(store, "reminder")) == 1
    await svc.close()


@pytest.mark.drivers(*DRIVERS)
async def test_an_expired_deadline_plays_one_turn_even_when_two_processes_race(db_path, clock):
    a_store = await open_store(db_path)
    a = timed_service(a_store, clock)       # not started: the race is run by hand below
    game_id, users = await game_in_play(a, 13, options={"deadline": 12})
    before = await a.load(game_id)
    seat = before.game.current
    [deadline] = [t for t in await timers_of(a_store, game_id, "deadline")
                  if t.payload["seat"] == seat and t.payload["phase"] == "play"]
    b_store = await open_store(db_path)
    b = timed_service(b_store, clock)
    clock.set(deadline.due_at)
    await asyncio.gather(a.absence._on_deadline(deadline), b.absence._on_deadline(deadline))
    await a.absence._on_deadline(deadline)          # and once more, as after a restart
    after = await b.core.reload(game_id)
    assert after.game.turn == before.game.turn + 1 and after.game.current != seat
    log = await a_store.load_actions(game_id)
    played = [r for r in log[before.seq:]]
    assert played and all(r.actor is None for r in played)     # the computer's, for the player
    assert after.seats[seat].timeouts == 1 and after.seats[seat].user_id == users[seat]
    turns = [r for r in await owed(a_store, "turn") if r.seq > before.seq]
    assert [r.payload["by"] for r in turns] == ["timeout"] * len(turns)
    assert sum(not r.held for r in turns) == 1          # one turn post for the turn
    await a_store.close()
    await b_store.close()


async def test_three_timeouts_hand_the_seat_over_and_return_takes_it_back(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    rng = random.Random(3)
    game_id, users = await game_in_play(svc, 14, options={"deadline": 12})
    absent = 1
    for _ in range(40):
        hosted = await svc.load(game_id)
        if hosted.seats[absent].is_bot:
            break
        if hosted.game.current == absent:
            clock.advance(12 * HOUR + 1)
            await run_timers(svc)
        else:
            await end_turn(svc, game_id, rng)
    hosted = await svc.load(game_id)
    assert hosted.seats[absent].is_bot and hosted.seats[absent].handover == "timeout"
    assert hosted.seats[absent].former_user_id == users[absent]
    assert [r.payload["reason"] for r in await owed(store, "handover")] == ["timeout"]
    with pytest.raises(ServiceError) as err:
        await svc.absence.return_seat(game_id, users[0], "P0")
    assert err.value.key == "service.not_active" or err.value.key == "service.return_nothing"
    back = await svc.absence.return_seat(game_id, users[absent], "Bo")
    assert back.seats[absent].user_id == users[absent] and back.seats[absent].timeouts == 0
    assert back.seats[absent].name == "Bo" and not back.seats[absent].is_bot
    with pytest.raises(ServiceError):
        await svc.absence.return_seat(game_id, users[absent], "Bo")     # nothing to take back now
    await svc.close()


async def test_a_lobby_nobody_starts_is_warned_then_closed(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=18, user_id=180, name="H", map_id="usa")
    clock.advance(6 * DAY + 1)
    await run_timers(svc)
    assert [r.payload["key"] for r in await owed(store, "notice")] == ["bot.lobby.closing"]
    assert [r.payload["key"] for r in await owed(store, "dm")] == ["bot.lobby.closing_dm"]
    clock.advance(1 * DAY)
    await run_timers(svc)
    hosted = await svc.load(loaded.id)
    assert hosted.status == "cancelled" and hosted.end_reason == "lobby_expired"
    assert await svc.game_in_channel(18) is None
    await svc.close()


async def test_a_game_without_a_deadline_left_for_30_days_is_closed(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    rng = random.Random(5)
    game_id, users = await game_in_play(svc, 19, options={"deadline": 0})
    clock.advance(20 * DAY)
    await move_human(svc, game_id, rng)     # an action: thirty days from now on
    clock.advance(20 * DAY)
    await run_timers(svc)
    assert (await svc.load(game_id)).is_active
    clock.advance(10 * DAY + 1)
    await run_timers(svc)
    hosted = await svc.load(game_id)
    assert hosted.status == "cancelled" and hosted.end_reason == "abandoned"
    assert await store.load_actions(game_id)            # the record is kept
    assert sorted(r.payload["key"] for r in await owed(store, "dm")) == \
        ["bot.closed.abandoned"] * 2
    await svc.close()


async def test_a_seat_handed_over_does_not_keep_an_idle_game_open_for_ever(db_path, clock):
    """Found by the timer fuzz: a player leaving (their seat to a computer) changes the game
    without an action of the one still to move; when the idle timer came, "something happened
    since" made it stand down, and nothing re-armed it: the game stayed open for ever. Now it
    is re-armed for 30 days after that change, and the game is closed then."""
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 21, players=3, options={"deadline": 0})
    hosted = await svc.load(game_id)
    waiting = hosted.seats[hosted.game.current].user_id
    clock.advance(10 * DAY)
    await svc.handover.leave_game(game_id, next(u for u in users if u != waiting))
    clock.advance(20 * DAY + 1)                     # the idle timer of the last action
    await run_timers(svc)
    assert (await svc.load(game_id)).is_active and await svc.invariants.check_timers() == []
    clock.advance(10 * DAY)
    await run_timers(svc)
    assert (await svc.load(game_id)).end_reason == "abandoned"
    await svc.close()


async def test_a_table_left_to_computers_finishes_by_itself(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock, bot_delay=1.0)
    await svc.resume()
    game_id, users = await game_in_play(svc, 20, players=1, bots=1, options={"deadline": 12})
    for _ in range(3000):
        hosted = await svc.load(game_id)
        if hosted.game.over:
            break
        clock.advance(12 * HOUR + 1 if not hosted.seats[0].is_bot and
                      hosted.game.current == 0 else 1.0)
        await run_timers(svc)
    hosted = await svc.load(game_id)
    assert hosted.status == "finished" and hosted.end_reason == "computers"
    assert hosted.seats[0].handover == "timeout"
    results = await store.load_results(game_id)
    assert results[0].user_id is None and results[0].former_user_id == users[0]
    posts = [r for r in await owed(store, "turn") if not r.held]
    assert posts[-1].payload["over"] and posts[-1].payload["computers"]
    await svc.close()
