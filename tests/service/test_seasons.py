"""Seasons through the service (service/seasons.py) on a ManualClock: the standings of a
season by placement points checked against a hand computation, a game finishing on each side
of a boundary counted in its own season only, the season's end posted once through the outbox
with the champion and the role passing on, the time zone moving the boundary, and bad input."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tests.service.svckit import open_store, owed, run_timers, timed_service
from ttr_bot.service import ServiceError
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.messages import parse
from ttr_bot.service.season_calendar import season_at, season_named
from ttr_bot.service.seasons import standings
from ttr_bot.store import ResultRecord, SeatResult

GUILD = 1
BANGKOK = ZoneInfo("Asia/Bangkok")


def result(game, seat, user, rank, score, *, won=None, left=False):
    return ResultRecord(game_id=game, seat=seat, user_id=None if left else user, score=score,
                        rank=rank, won=rank == 1 if won is None else won, tickets_completed=0,
                        former_user_id=user if left else None, name=f"U{user}",
                        handover="left" if left else None, rated=True, map="usa",
                        variant="base", finished_at=0.0, guild_id=GUILD)


def test_placement_points_by_hand():
    rows = [result(1, 0, 10, 1, 120), result(1, 1, 11, 2, 90), result(1, 2, 12, 3, 60),
            result(2, 0, 11, 1, 100), result(2, 1, 10, 2, 80),
            # a game 12 won on points, but 10 left it: last, as the ratings say
            result(3, 0, 12, 2, 70), result(3, 1, 10, 1, 99, left=True), result(3, 2, 11, 3, 50)]
    lines = standings(rows)
    # 10: 2 + 0 + 0 = 2, one win; 11: 1 + 1 + 1 = 3 (beat 10 who left), one win;
    # 12: 0 + 2 = 2, no win (the leaver's points do not make 12 a winner)
    assert [(x.user_id, x.rank, x.points, x.games, x.wins, x.score) for x in lines] == [
        (11, 1, 3, 3, 1, 240), (10, 2, 2, 3, 1, 299), (12, 3, 2, 2, 0, 130)]
    tie = standings([result(1, 0, 10, 1, 50), result(1, 1, 11, 1, 50, won=True)])
    assert [(x.rank, x.points) for x in tie] == [(1, 0), (1, 0)]


def test_months_and_quarters_in_the_servers_zone():
    t = datetime(2026, 12, 31, 23, 30, tzinfo=BANGKOK).timestamp()
    assert season_at(t, "monthly", "Asia/Bangkok").name == "2026-12"
    assert season_at(t, "monthly", "UTC").name == "2026-12"
    assert season_at(t + 3600, "monthly", "Asia/Bangkok").name == "2027-01"   # midnight there
    assert season_at(t + 3600, "monthly", "UTC").name == "2026-12"            # 17:30 UTC
    q = season_named("2026-Q4", "Asia/Bangkok")
    assert (q.start, q.end) == (datetime(2026, 10, 1, tzinfo=BANGKOK).timestamp(),
                                datetime(2027, 1, 1, tzinfo=BANGKOK).timestamp())


async def finished_at(store, channel, users, at, rank_first=0):
    """A rated two-player game of `users` finished at `at` (its results written as the
    service's finish writes them; the end-to-end test finishes real games)."""
    game_id = await store.create_game(guild_id=GUILD, channel_id=channel, map="usa",
                                      variant="base", options={}, seed=1, host_id=users[0],
                                      now=at - 100)
    for i, u in enumerate(users):
        await store.add_seat(game_id, i, user_id=u, display_name=f"U{u}")
    await store.start_game(game_id, "{}", now=at - 100)
    await store.record_results(game_id, [
        SeatResult(seat=i, user_id=u, score=100 - 10 * i, rank=i + 1, won=i == 0,
                   tickets_completed=1, name=f"U{u}", rated=True)
        for i, u in enumerate(users)], now=at)
    return game_id


@pytest.mark.asyncio
async def test_a_boundary_between_two_games_and_the_end_post(db_path):
    end = datetime(2026, 12, 1, tzinfo=BANGKOK).timestamp()     # November ends here
    clock = ManualClock(end - 3 * 86400)
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        assert await svc.seasons.set_timezone(GUILD, "asia/bangkok") == "Asia/Bangkok"
        await svc.seasons.set_period(GUILD, "monthly", channel_id=77, role_id=5, user_id=1)
        await finished_at(store, 100, [11, 10], end - 0.5)     # half a second before the end
        await finished_at(store, 200, [20, 21], end)           # at the boundary: December's
        clock.set(end + 1)
        await run_timers(svc)
        rows = await owed(store, "season_end")
        assert len(rows) == 1 and rows[0].lane == "c77"
        post = parse(rows[0].kind, rows[0].payload)
        assert post.season == "2026-11" and post.role == 5 and post.previous is None
        assert [(x.user_id, x.rank, x.points, x.wins) for x in post.lines] == [
            (11, 1, 1, 1), (10, 2, 0, 0)]

        december = await svc.seasons.standings(GUILD)
        assert december.season.name == "2026-12"
        assert [x.user_id for x in december.lines] == [20, 21]
        november = await svc.seasons.standings(GUILD, previous=True)
        assert november.lines == post.lines

        clock.advance(3600)
        await run_timers(svc)              # nothing posted twice
        assert len(await owed(store, "season_end")) == 1
        # December ends: its post names November's champion as the role's last holder
        clock.set(datetime(2027, 1, 1, tzinfo=BANGKOK).timestamp())
        await run_timers(svc)
        rows = await owed(store, "season_end")
        last = parse(rows[-1].kind, rows[-1].payload)
        assert last.season == "2026-12" and last.previous == 11
        assert [x.user_id for x in last.lines] == [20, 21]
        # January passes without a game (closed, nothing posted); February's post still names
        # December's champion as the role's holder
        clock.set(datetime(2027, 2, 1, tzinfo=BANGKOK).timestamp())
        await run_timers(svc)
        await finished_at(store, 300, [31, 30], clock() + 60)
        clock.set(datetime(2027, 3, 1, tzinfo=BANGKOK).timestamp())
        await run_timers(svc)
        rows = await owed(store, "season_end")
        february = parse(rows[-1].kind, rows[-1].payload)
        assert len(rows) == 3 and february.season == "2027-02" and february.previous == 20
    finally:
        await svc.close()


@pytest.mark.asyncio
async def test_off_bad_input_and_an_empty_season(db_path):
    clock = ManualClock(datetime(2026, 5, 20, tzinfo=ZoneInfo("UTC")).timestamp())
    store = await open_store(db_path)
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        with pytest.raises(ServiceError) as err:
            await svc.seasons.standings(GUILD)
        assert err.value.key == "service.season.off"
        with pytest.raises(ServiceError) as err:
            await svc.seasons.set_timezone(GUILD, "Mars/Olympus")
        assert err.value.key == "service.season.bad_zone"
        with pytest.raises(ServiceError):
            await svc.seasons.set_period(GUILD, "weekly", channel_id=1, role_id=None, user_id=1)
        await svc.seasons.set_period(GUILD, "quarterly", channel_id=1, role_id=None, user_id=1)
        table = await svc.seasons.standings(GUILD)
        assert table.season.name == "2026-Q2" and table.lines == ()
        clock.set(table.season.end + 1)
        await run_timers(svc)
        assert not await owed(store, "season_end")
        assert [c.season for c in await svc.seasons.store.closed_seasons(GUILD)] == ["2026-Q2"]
        await svc.seasons.set_period(GUILD, None, channel_id=1, role_id=None, user_id=1)
        assert await svc.seasons.settings(GUILD) is None
    finally:
        await svc.close()


UTC = ZoneInfo("UTC")


def at(*args, zone=UTC):
    return datetime(*args, tzinfo=zone).timestamp()


async def season_posts(store):
    return [parse(r.kind, r.payload) for r in await owed(store, "season_end")]


@pytest.mark.asyncio
async def test_a_time_zone_changed_next_to_a_boundary_skips_and_doubles_nothing(tmp_path):
    """Three changes next to November's end: east after the new zone's boundary passed
    (November still closes, at once), east after November closed (a game November counted is
    not December's too), west after November closed (the games between the two midnights are
    December's, not lost)."""
    # east, before November closed: at 20:00 UTC it is already December 1 in Bangkok
    clock = ManualClock(at(2026, 11, 20))
    store = await open_store(tmp_path / "east.sqlite")
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        await svc.seasons.set_period(GUILD, "monthly", channel_id=77, role_id=None, user_id=1)
        await finished_at(store, 100, [11, 10], at(2026, 11, 25))
        await finished_at(store, 101, [20, 21], at(2026, 11, 30, 18))   # Dec 1, 01:00 there
        clock.set(at(2026, 11, 30, 20))
        await svc.seasons.set_timezone(GUILD, "Asia/Bangkok")
        await run_timers(svc)
        (november,) = await season_posts(store)
        assert november.season == "2026-11" and [x.user_id for x in november.lines] == [11, 10]
        december = await svc.seasons.standings(GUILD)
        assert december.season.name == "2026-12"
        assert [x.user_id for x in december.lines] == [20, 21]
        clock.set(at(2027, 1, 1, zone=BANGKOK))
        await run_timers(svc)
        assert [(p.season, [x.user_id for x in p.lines]) for p in await season_posts(store)] \
            == [("2026-11", [11, 10]), ("2026-12", [20, 21])]
    finally:
        await svc.close()
    # east, after November closed in UTC: its 18:00 UTC game stays November's alone
    clock = ManualClock(at(2026, 11, 20))
    store = await open_store(tmp_path / "late.sqlite")
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        await svc.seasons.set_period(GUILD, "monthly", channel_id=77, role_id=None, user_id=1)
        await finished_at(store, 100, [11, 10], at(2026, 11, 30, 18))
        clock.set(at(2026, 12, 1, 0, 0, 1))
        await run_timers(svc)
        clock.set(at(2026, 12, 5))
        await svc.seasons.set_timezone(GUILD, "Asia/Bangkok")
        assert (await svc.seasons.standings(GUILD)).lines == ()
        assert [x.user_id for x in (await svc.seasons.standings(GUILD, previous=True)).lines] \
            == [11, 10]
        clock.set(at(2027, 1, 1, zone=BANGKOK))
        await run_timers(svc)
        assert [p.season for p in await season_posts(store)] == ["2026-11"]   # December: empty
    finally:
        await svc.close()
    # west, after November closed in Bangkok (17:00 UTC): a game at 19:00 UTC is December's
    clock = ManualClock(at(2026, 11, 20))
    store = await open_store(tmp_path / "west.sqlite")
    svc = timed_service(store, clock)
    await svc.resume()
    try:
        await svc.seasons.set_timezone(GUILD, "Asia/Bangkok")
        await svc.seasons.set_period(GUILD, "monthly", channel_id=77, role_id=None, user_id=1)
        await finished_at(store, 100, [11, 10], at(2026, 11, 30, 16))
        clock.set(at(2026, 11, 30, 17, 0, 1))
        await run_timers(svc)
        await finished_at(store, 101, [20, 21], at(2026, 11, 30, 19))
        clock.set(at(2026, 11, 30, 20))
        await svc.seasons.set_timezone(GUILD, None)              # back to UTC: still November
        december = await svc.seasons.standings(GUILD)
        assert december.season.name == "2026-12"
        assert [x.user_id for x in december.lines] == [20, 21]
        clock.set(at(2027, 1, 1, 0, 0, 1))
        await run_timers(svc)
        assert [(p.season, [x.user_id for x in p.lines]) for p in await season_posts(store)] \
            == [("2026-11", [11, 10]), ("2026-12", [20, 21])]
    finally:
        await svc.close()
