"""Time in a game, on a ManualClock (no test waits for time to pass): reminders across a
restart and held back by quiet hours (over a daylight-saving change), deadlines played once
by a computer player even when two processes race, three timeouts hand the seat over and
/ttr return takes it back, away pauses and resumes, votes, lobbies and idle games closed, a
table of computers finishing by itself. On SQLite (the race of two processes on PostgreSQL
too)."""
import asyncio
import random
from datetime import datetime, timezone

import pytest

from tests.service.svckit import (
    open_store,
    owed,
    pick_action,
    run_timers,
    timed_service,
    timers_of,
    users_for,
)
from tests.store.dbkit import DRIVERS
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.turns import DAY, HOUR

pytestmark = pytest.mark.asyncio


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


@pytest.fixture
def clock():
    return ManualClock(datetime(2024, 3, 1, 12, tzinfo=timezone.utc).timestamp())


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
    after = await b.core._reload(game_id)
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


async def test_votes_pass_fail_and_expire(db_path, clock):
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    game_id, users = await game_in_play(svc, 15, players=3, options={"deadline": 0})
    a, b, c = users
    rng = random.Random(4)
    while (await svc.load(game_id)).game.current != 2:
        await end_turn(svc, game_id, rng)
    clock.advance(3 * DAY)                  # c has had the move for three days: absent
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, a, "replace", a)
    assert err.value.key == "service.vote_self"
    vote = await svc.votes.start_vote(game_id, a, "replace", c)      # voters: a and b; 2 needed
    assert vote.status == "open" and vote.voters == [a, b]
    with pytest.raises(ServiceError) as err:
        await svc.votes.start_vote(game_id, b, "cancel")
    assert err.value.key == "service.vote_open"
    with pytest.raises(ServiceError) as err:
        await svc.votes.cast_vote(vote.id, c, True)                  # not theirs to vote on
    assert err.value.key == "service.vote_not_voter"
    assert (await svc.votes.cast_vote(vote.id, b, False)).status == "failed"
    assert not (await svc.load(game_id)).seats[2].is_bot
    vote = await svc.votes.start_vote(game_id, b, "replace", c)
    assert (await svc.votes.cast_vote(vote.id, a, True)).status == "passed"
    hosted = await svc.load(game_id)
    assert hosted.seats[2].is_bot and hosted.seats[2].handover == "vote"
    vote = await svc.votes.start_vote(game_id, a, "cancel")          # voters a, b: 2 needed
    clock.advance(24 * HOUR + 1)
    await run_timers(svc)
    assert (await svc.votes.vote(vote.id)).status == "expired"
    assert (await svc.load(game_id)).is_active
    vote = await svc.votes.start_vote(game_id, a, "cancel")
    assert (await svc.votes.cast_vote(vote.id, b, True)).status == "passed"
    hosted = await svc.load(game_id)
    assert hosted.status == "cancelled" and hosted.end_reason == "vote"
    results = [r.payload["status"] for r in await owed(store, "vote_result")]
    assert results == ["failed", "passed", "expired", "passed"]
    await svc.close()


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
