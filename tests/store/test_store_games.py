"""Games, seats, statuses, results, users and message references."""
import asyncio

import pytest

from ttr_bot.store import (
    ChannelBusy,
    NotFound,
    OutboxItem,
    Owed,
    SeatResult,
    SeatTaken,
    StoreError,
    WrongStatus,
)

pytestmark = pytest.mark.asyncio


async def new_game(store, channel_id=7, now=1.0, **kw):
    args = dict(guild_id=1, channel_id=channel_id, map="europe", variant="base",
                options={"timeout": 30, "bots": [1]}, seed=2**62, host_id=99, now=now)
    args.update(kw)
    return await store.create_game(**args)


async def test_create_and_read_back_a_game(store):
    game_id = await new_game(store)
    game = await store.get_game(game_id)
    assert (game.channel_id, game.map, game.variant, game.seed, game.host_id) == (
        7, "europe", "base", 2**62, 99)
    assert game.options == {"timeout": 30, "bots": [1]}
    assert (game.status, game.seq, game.created_at, game.finished_at) == ("lobby", 0, 1.0, None)
    assert (await store.find_open_game(7)).id == game_id
    assert await store.find_open_game(8) is None
    assert await store.get_game(game_id + 100) is None


async def test_one_open_game_per_channel(store):
    first = await new_game(store)
    with pytest.raises(ChannelBusy) as caught:
        await new_game(store)
    assert (caught.value.channel_id, caught.value.game_id) == (7, first)
    assert "channel 7 already has an open game" in str(caught.value)
    await store.start_game(first, "{}")
    with pytest.raises(ChannelBusy):  # an active game blocks the channel too
        await new_game(store)
    assert await new_game(store, channel_id=8)  # other channels are free
    await store.set_status(first, "cancelled", now=5.0)
    second = await new_game(store)  # a cancelled game frees the channel
    assert (await store.find_open_game(7)).id == second
    assert (await store.get_game(first)).finished_at == 5.0


async def test_one_open_game_per_channel_is_enforced_by_the_database(store, db):
    await new_game(store)
    with pytest.raises(Exception, match="(?i)unique"):
        db.execute("INSERT INTO games (channel_id, map, seed, host_id, created_at, updated_at) "
                   "VALUES (7, 'usa', 1, 1, 0, 0)")
    db.execute("INSERT INTO games (channel_id, map, seed, host_id, created_at, updated_at, status) "
               "VALUES (7, 'usa', 1, 1, 0, 0, 'finished')")   # closed games do not count


async def test_racing_creates_in_one_channel_across_connections(db, store):
    others = [db.open_store() for _ in range(4)]
    for s in others:
        await s.open()
    try:
        outcomes = await asyncio.gather(*(new_game(s, channel_id=3) for s in [store, *others] * 5),
                                        return_exceptions=True)
    finally:
        for s in others:
            await s.close()
    created = [o for o in outcomes if isinstance(o, int)]
    assert len(created) == 1
    assert all(isinstance(o, ChannelBusy) for o in outcomes if not isinstance(o, int))
    # the loser is told which game holds the channel, even when it lost at the index
    assert {o.game_id for o in outcomes if isinstance(o, ChannelBusy)} <= {created[0], None}


async def test_status_moves(store):
    game_id = await new_game(store)
    with pytest.raises(WrongStatus, match="game .* is lobby"):
        await store.set_status(game_id, "finished")
    await store.set_status(game_id, "active", now=2.0)
    assert (await store.get_game(game_id)).status == "active"
    await store.set_status(game_id, "finished", now=3.0)
    game = await store.get_game(game_id)
    assert (game.status, game.finished_at, game.updated_at) == ("finished", 3.0, 3.0)
    for status in ("active", "lobby", "cancelled"):
        with pytest.raises(WrongStatus):
            await store.set_status(game_id, status)
    with pytest.raises(ValueError):
        await store.set_status(game_id, "paused")
    with pytest.raises(NotFound):
        await store.set_status(12345, "active")


async def test_list_active_game_ids(store):
    lobby = await new_game(store, channel_id=1)
    active = await new_game(store, channel_id=2)
    await store.start_game(active, "{}")
    done = await new_game(store, channel_id=3)
    await store.set_status(done, "cancelled")
    assert await store.list_active_game_ids() == [active]
    assert await store.list_active_game_ids(include_lobbies=True) == [lobby, active]


async def test_seats(store):
    game_id = await new_game(store)
    await store.add_seat(game_id, 0, user_id=99, display_name="Host", notify={"dm": True})
    await store.add_seat(game_id, 1, user_id=None, display_name="Bot A", bot_level=1)
    await store.add_seat(game_id, 2, user_id=None, display_name="Bot B", bot_level=3)
    with pytest.raises(SeatTaken):
        await store.add_seat(game_id, 0, user_id=5, display_name="late")
    with pytest.raises(SeatTaken):
        await store.add_seat(game_id, 3, user_id=99, display_name="twice")
    with pytest.raises(ValueError):
        await store.add_seat(game_id, 3, user_id=5, display_name="both", bot_level=1)
    with pytest.raises(NotFound):
        await store.add_seat(4242, 0, user_id=5, display_name="nowhere")
    seats = await store.list_seats(game_id)
    assert [(s.seat, s.user_id, s.bot_level, s.is_bot) for s in seats] == [
        (0, 99, None, False), (1, None, 1, True), (2, None, 3, True)]
    assert seats[0].notify == {"dm": True}

    assert await store.remove_seat(game_id, 1) is True
    assert await store.remove_seat(game_id, 1) is False
    assert [s.seat for s in await store.list_seats(game_id)] == [0, 2]

    # the host leaves the server: the seat, the host and the notice in one write
    await store.add_seat(game_id, 3, user_id=7, display_name="Cy")
    told = Owed((OutboxItem("notice", "c1", {"key": "bot.seat.host"}),))
    assert await store.leave_lobby(game_id, 0, host_id=7, owed=told) is True
    assert (await store.get_game(game_id)).host_id == 7
    assert [r.kind for r in await store.pending_outbox()] == ["notice"]
    assert await store.leave_lobby(game_id, 0) is False       # already free
    assert [s.seat for s in await store.list_seats(game_id)] == [2, 3]
    await store.add_seat(game_id, 0, user_id=99, display_name="Host")

    await store.add_seat(game_id, 1, user_id=5, display_name="Ann")
    await store.start_game(game_id, "{}")
    with pytest.raises(WrongStatus):  # the table is fixed once the game runs
        await store.add_seat(game_id, 3, user_id=6, display_name="late")
    with pytest.raises(WrongStatus):  # a game in play is handed to a computer player instead
        await store.leave_lobby(game_id, 3, host_id=5)
    # ... but a bot may take over a seat, and names and preferences change.
    seat = await store.update_seat(game_id, 1, user_id=None, bot_level=2)
    assert (seat.user_id, seat.bot_level, seat.display_name) == (None, 2, "Ann")
    seat = await store.update_seat(game_id, 0, display_name="Boss", notify={"dm": False})
    assert (seat.display_name, seat.notify, seat.user_id) == ("Boss", {"dm": False}, 99)
    assert (await store.list_seats(game_id))[0].display_name == "Boss"
    with pytest.raises(SeatTaken):
        await store.update_seat(game_id, 2, user_id=99, bot_level=None)
    with pytest.raises(NotFound):
        await store.update_seat(game_id, 7, display_name="x")


async def test_record_results_finishes_the_game(store, make_game):
    game_id = await make_game()
    results = [SeatResult(0, 10, 120, 1, True, 5), SeatResult(1, 11, 98, 2, False, 3)]
    await store.record_results(game_id, results, now=500.0)
    game = await store.get_game(game_id)
    assert (game.status, game.finished_at) == ("finished", 500.0)
    stored = await store.load_results(game_id)
    assert [(r.seat, r.user_id, r.score, r.rank, r.won, r.tickets_completed) for r in stored] == [
        (0, 10, 120, 1, True, 5), (1, 11, 98, 2, False, 3)]
    assert {(r.map, r.variant, r.finished_at) for r in stored} == {("usa", "classic", 500.0)}
    with pytest.raises(WrongStatus):  # never recorded twice
        await store.record_results(game_id, results)
    assert len(await store.load_results(game_id)) == 2
    assert [r.game_id for r in await store.results_for_user(10)] == [game_id]


async def test_bad_results_leave_the_game_active(store, make_game):
    game_id = await make_game()
    dup = [SeatResult(0, 10, 1, 1, True, 0), SeatResult(0, 10, 1, 1, True, 0)]
    with pytest.raises(StoreError):
        await store.record_results(game_id, dup)
    assert (await store.get_game(game_id)).status == "active"
    assert await store.load_results(game_id) == []


async def test_results_for_user_newest_first(store, make_game):
    ids = []
    for when in (10.0, 30.0, 20.0):
        game_id = await make_game()
        await store.record_results(game_id, [SeatResult(0, 10, 1, 1, True, 0)], now=when)
        ids.append(game_id)
    assert [r.game_id for r in await store.results_for_user(10)] == [ids[1], ids[2], ids[0]]
    assert len(await store.results_for_user(10, limit=2)) == 2
    assert await store.results_for_user(777) == []


async def test_a_users_colour_palette_is_kept_apart_from_their_other_settings(db, store):
    assert await store.get_palette(1) is None
    await store.set_locale(1, "th", now=1.0)
    await store.set_palette(1, "colourblind", now=2.0)
    assert await store.get_palette(1) == "colourblind"
    assert (await store.get_user(1)).locale == "th"          # the language is untouched
    await store.set_palette(2, "colourblind")                 # a user the store did not know
    await store.close()
    async with db.open_store() as again:                      # survives a restart
        assert await again.get_palette(1) == "colourblind"
        assert await again.get_palette(2) == "colourblind"
        await again.set_palette(1, None)
        assert await again.get_palette(1) is None
        assert await again.get_locale(1) == "th"


async def test_users_locale_and_dms_flags(db, store):
    assert await store.get_user(1) is None
    assert await store.get_locale(1) is None
    assert await store.get_dms_closed(1) is False
    await store.set_locale(1, "de", now=1.0)
    await store.set_dms_closed(1, True, now=2.0)
    await store.set_dms_closed(2, True)
    await store.set_dms_closed(2, False)
    user = await store.get_user(1)
    assert (user.locale, user.dms_closed, user.updated_at) == ("de", True, 2.0)
    await store.close()
    async with db.open_store() as again:  # survives a restart
        assert await again.get_locale(1) == "de"
        assert await again.get_dms_closed(1) is True
        assert await again.get_dms_closed(2) is False
        await again.set_locale(1, None)  # back to the default, the DM flag untouched
        assert await again.get_locale(1) is None
        assert await again.get_dms_closed(1) is True


async def test_a_servers_language_survives_a_restart_and_clears(db, store):
    big = 2 ** 62 + 5                          # guild ids are 64-bit snowflakes
    assert await store.get_guild_locale(big) is None
    await store.set_guild_locale(big, "fa", now=1.0)
    await store.set_guild_locale(7, "ja", now=1.0)
    await store.set_guild_locale(7, "th", now=2.0)
    await store.close()
    async with db.open_store() as again:
        assert await again.get_guild_locale(big) == "fa"
        assert await again.get_guild_locale(7) == "th"
        await again.set_guild_locale(big, None)
        assert await again.get_guild_locale(big) is None
        assert await again.get_guild_locale(7) == "th"


async def test_message_references(store):
    game_id = await new_game(store)
    assert await store.get_message(game_id, "turn_panel") is None
    await store.set_message(game_id, "turn_panel", 7, 1001, now=1.0)
    await store.set_message(game_id, "turn_panel", 7, 1002, now=2.0)  # replaces
    await store.set_message(game_id, "lobby", 7, 900)
    ref = await store.get_message(game_id, "turn_panel")
    assert (ref.channel_id, ref.message_id, ref.updated_at) == (7, 1002, 2.0)
    assert await store.delete_message(game_id, "turn_panel") is True
    assert await store.get_message(game_id, "turn_panel") is None
    assert (await store.get_message(game_id, "lobby")).message_id == 900
    with pytest.raises(NotFound):
        await store.set_message(555, "turn_panel", 1, 1)


async def test_closed_store_says_so(db):
    s = db.open_store()
    with pytest.raises(StoreError, match="not open"):
        await s.get_game(1)
    await s.open()
    await s.close()
    await s.close()  # twice is fine
    with pytest.raises(StoreError, match="not open"):
        await s.get_game(1)


async def test_the_lobbies_of_a_server(store):
    """What the lobby caps count: the server's games not started yet, with their hosts."""
    first = await new_game(store, channel_id=7)
    await new_game(store, channel_id=8, host_id=98)
    await new_game(store, channel_id=9, guild_id=2)
    started = await new_game(store, channel_id=10)
    await store.start_game(started, "{}", now=2.0)
    lobbies = await store.lobbies_in_guild(1)
    assert [(g.channel_id, g.host_id) for g in lobbies] == [(7, 99), (8, 98)]
    await store.set_status(first, "cancelled", now=3.0)
    assert [g.channel_id for g in await store.lobbies_in_guild(1)] == [8]
