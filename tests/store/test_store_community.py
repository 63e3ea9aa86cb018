"""The community subjects of the store (store/community.py) on both drivers: the server's time
zone, season settings, a season's rated results by finishing time (half-open: a game finishing
at the boundary belongs to the next season, none is counted twice), closing a season once with
what it owes, and the live board (moved, owed only when changed and when no edit of it is still
unsent, its message, a refusal reported once)."""
import pytest

from ttr_bot.store import NewTimer, OutboxItem, Owed, SeatResult
from ttr_bot.store.subjects.community import board_store, season_store

pytestmark = pytest.mark.asyncio
GUILD = 1


async def finished(store, make_game, at, *, rated=True, users=(10, 11)):
    game_id = await make_game(now=at - 100)
    results = [SeatResult(seat=i, user_id=u, score=100 - i, rank=i + 1, won=i == 0,
                          tickets_completed=1, rated=rated) for i, u in enumerate(users)]
    await store.record_results(game_id, results, now=at)
    return game_id


async def test_a_season_holds_the_rated_games_finished_in_it(store, make_game):
    s = season_store(store)
    before = await finished(store, make_game, 999.5)
    on_boundary = await finished(store, make_game, 1000.0)
    inside = await finished(store, make_game, 1500.0)
    await finished(store, make_game, 1600.0, rated=False)
    first = {r.game_id for r in await s.season_results(GUILD, 0.0, 1000.0)}
    second = {r.game_id for r in await s.season_results(GUILD, 1000.0, 2000.0)}
    assert first == {before} and second == {on_boundary, inside}
    rows = await s.season_results(GUILD, 1000.0, 2000.0)
    assert [(r.game_id, r.seat) for r in rows] == [(on_boundary, 0), (on_boundary, 1),
                                                   (inside, 0), (inside, 1)]
    assert await s.season_results(GUILD + 1, 0.0, 2000.0) == []


async def test_settings_time_zone_and_closing_once(store):
    s = season_store(store)
    assert await s.get_season_settings(GUILD) is None
    assert await s.get_guild_timezone(GUILD) is None
    timer = NewTimer("season_end", 5000.0, {"guild": GUILD})
    await s.set_season_settings(GUILD, "monthly", channel_id=7, role_id=None, set_by=3,
                                now=10.0, owed=Owed(timers=(timer,)))
    got = await s.get_season_settings(GUILD)
    assert (got.period, got.channel_id, got.role_id, got.updated_at) == ("monthly", 7, None, 10.0)
    assert [t.kind for t in await store.due_timers(6000.0)] == ["season_end"]
    await s.set_guild_timezone(GUILD, "Asia/Bangkok", now=20.0)
    assert await s.get_guild_timezone(GUILD) == "Asia/Bangkok"
    assert (await s.get_season_settings(GUILD)).updated_at == 20.0   # a new timer chain
    await store.set_guild_locale(GUILD, "th", now=21.0)              # the same row, kept apart
    assert await s.get_guild_timezone(GUILD) == "Asia/Bangkok"

    post = Owed((OutboxItem("season_end", "c7", {"season": "2026-11"}, key="season:1:2026-11"),))
    assert await s.close_season(GUILD, "2026-11", 10, now=30.0, owed=post)
    assert not await s.close_season(GUILD, "2026-11", 11, now=31.0, owed=post)
    assert [r.kind for r in await store.pending_outbox()] == ["season_end"]
    await s.close_season(GUILD, "2026-12", None, now=40.0)
    assert [(c.season, c.champion_id) for c in await s.closed_seasons(GUILD)] == [
        ("2026-12", None), ("2026-11", 10)]
    await s.set_season_settings(GUILD, None, channel_id=0, role_id=None, set_by=3, now=50.0)
    assert await s.get_season_settings(GUILD) is None


async def test_the_board_is_owed_only_when_changed_and_not_already_owed(store):
    b = board_store(store)
    await b.set_board(GUILD, 7, set_by=3, now=10.0)
    row = await b.get_board(GUILD)
    assert (row.channel_id, row.message_id, row.digest, row.set_at) == (7, None, None, 10.0)

    def edit(n):
        return Owed((OutboxItem("board", "c7", {"n": n}),))
    assert await b.owe_board(GUILD, "aa", channel_id=7, set_at=10.0, now=11.0, owed=edit(1))
    assert not await b.owe_board(GUILD, "bb", channel_id=7, set_at=10.0, now=12.0, owed=edit(2))  # unsent
    assert (await b.get_board(GUILD)).digest == "aa"
    rows = await store.pending_outbox()
    await store.mark_outbox_sent([r.id for r in rows], now=13.0)
    assert not await b.owe_board(GUILD, "cc", channel_id=7, set_at=9.0, now=14.0, owed=edit(3))   # old chain
    assert not await b.owe_board(GUILD, "cc", channel_id=8, set_at=10.0, now=15.0,
                                 owed=edit(4))                                # moved since
    assert await b.owe_board(GUILD, "cc", channel_id=7, set_at=10.0, now=15.0, owed=edit(4))
    assert [r.payload["n"] for r in await store.pending_outbox()] == [4]

    assert await b.set_board_message(GUILD, 7, 555)
    assert not await b.set_board_message(GUILD, 8, 556)     # the board is not there
    await b.set_board(GUILD, 7, set_by=4, now=20.0)         # same channel: same message
    assert (await b.get_board(GUILD)).message_id == 555
    await b.set_board(GUILD, 9, set_by=4, now=21.0)         # another channel: a new one
    row = await b.get_board(GUILD)
    assert (row.channel_id, row.message_id, row.digest, row.set_by) == (9, None, None, 4)

    assert await b.board_refused(GUILD, 30.0)
    assert not await b.board_refused(GUILD, 31.0)           # reported once
    await b.board_works(GUILD)
    assert await b.board_refused(GUILD, 32.0)
    await b.set_board(GUILD, 9, set_by=4, now=21.0, told=True)  # its answer said it: no DM
    assert not await b.board_refused(GUILD, 33.0)
    await b.board_works(GUILD)
    assert await b.board_refused(GUILD, 34.0)
    await b.set_board(GUILD, 9, set_by=4, now=21.0)         # set again: a refusal is news
    assert await b.board_refused(GUILD, 35.0)
    tick = Owed(timers=(NewTimer("board_tick", 100.0, {"guild": GUILD}),))
    assert await b.tick_board(GUILD, set_at=21.0, now=40.0, min_gap=30.0, owed=tick)
    assert not await b.tick_board(GUILD, set_at=21.0, now=45.0, min_gap=30.0, owed=tick)
    assert not await b.tick_board(GUILD, set_at=20.0, now=99.0, min_gap=30.0, owed=tick)
    assert await b.tick_board(GUILD, set_at=21.0, now=99.0, min_gap=30.0, owed=tick)
    assert len(await store.due_timers(1000.0)) == 2
    assert await b.clear_board(GUILD) and await b.get_board(GUILD) is None
