"""A computer player takes over a seat in a game in play (hand_seat_to_bot), the results of such
a seat, and a lobby created with its host seated in the same transaction."""
import pytest

from ttr_bot.store import (
    NotFound,
    SeatIsBot,
    SeatResult,
    StoreError,
    WrongStatus,
)

pytestmark = pytest.mark.asyncio


def seat_rows(db, game_id):
    return db.fetchall("SELECT seat, user_id, bot_level, former_user_id, display_name "
                       "FROM seats WHERE game_id = ? ORDER BY seat", game_id)


async def test_a_computer_takes_a_seat_and_the_player_is_remembered(db, store, make_game):
    game_id = await make_game(seats=3)          # users 10 (the host), 11, 12
    seat = await store.hand_seat_to_bot(game_id, 1, bot_level=2, display_name="P1 (bot)",
                                        now=200.0)
    assert (seat.user_id, seat.bot_level, seat.former_user_id, seat.display_name, seat.is_bot) \
        == (None, 2, 11, "P1 (bot)", True)
    assert (await store.get_game(game_id)).updated_at == 200.0
    # the host's seat: the host's powers pass to another user in the same transaction
    await store.hand_seat_to_bot(game_id, 0, bot_level=3, display_name="P0 (bot)", host_id=12)
    assert (await store.get_game(game_id)).host_id == 12
    await store.close()
    async with db.open_store() as again:    # durable
        assert [(s.user_id, s.bot_level, s.former_user_id) for s in
                await again.list_seats(game_id)] == [(None, 3, 10), (None, 2, 11), (12, None, None)]
    assert seat_rows(db, game_id)[2] == (2, 12, None, None, "P2")


async def test_only_a_humans_seat_in_a_game_in_play(store, make_game, db):
    game_id = await make_game(seats=2)
    await store.hand_seat_to_bot(game_id, 1, bot_level=1, display_name="bot")
    before = seat_rows(db, game_id)
    with pytest.raises(SeatIsBot):
        await store.hand_seat_to_bot(game_id, 1, bot_level=3, display_name="again")
    with pytest.raises(NotFound):
        await store.hand_seat_to_bot(game_id, 5, bot_level=3, display_name="nobody")
    with pytest.raises(NotFound):
        await store.hand_seat_to_bot(game_id + 100, 0, bot_level=3, display_name="no game")
    with pytest.raises(ValueError):
        await store.hand_seat_to_bot(game_id, 0, bot_level=None, display_name="no level")
    lobby = await make_game(active=False)
    with pytest.raises(WrongStatus):
        await store.hand_seat_to_bot(lobby, 1, bot_level=2, display_name="too early")
    await store.record_results(game_id, [SeatResult(0, 10, 1, 1, True, 0)])
    with pytest.raises(WrongStatus):
        await store.hand_seat_to_bot(game_id, 0, bot_level=2, display_name="too late")
    assert seat_rows(db, game_id) == before
    assert [r[1] for r in seat_rows(db, lobby)] == [10, 11]


async def test_the_handover_is_one_transaction(store, make_game, db):
    game_id = await make_game(seats=2)
    db.failing_trigger("no_new_host", "games", "UPDATE OF host_id", "host change failed")
    with pytest.raises(Exception, match="host change failed"):
        await store.hand_seat_to_bot(game_id, 0, bot_level=2, display_name="x", host_id=11)
    assert seat_rows(db, game_id)[0] == (0, 10, None, None, "P0")   # the seat change undone
    assert (await store.get_game(game_id)).host_id == 10


async def test_the_database_keeps_a_former_player_only_on_a_computer_seat(make_game, db):
    game_id = await make_game(seats=2)
    with pytest.raises(Exception, match="(?i)check constraint"):
        db.execute("UPDATE seats SET former_user_id = 5 WHERE game_id = ? AND seat = 0", game_id)


async def test_results_of_a_seat_a_computer_finished(store, make_game):
    game_id = await make_game(seats=2)
    await store.hand_seat_to_bot(game_id, 1, bot_level=2, display_name="bot")
    await store.record_results(game_id, [
        SeatResult(0, 10, 50, 2, False, 1), SeatResult(1, None, 90, 1, True, 4, former_user_id=11),
    ], now=300.0)
    stored = await store.load_results(game_id)
    assert [(r.seat, r.user_id, r.won, r.former_user_id) for r in stored] == [
        (0, 10, False, None), (1, None, True, 11)]
    # the computer's win is not the player's: statistics leave it out unless asked for
    assert await store.results_for_user(11) == []
    left = await store.results_for_user(11, include_left=True)
    assert [(r.game_id, r.user_id, r.former_user_id) for r in left] == [(game_id, None, 11)]
    assert [r.game_id for r in await store.results_for_user(10, include_left=True)] == [game_id]


async def test_a_lobby_is_created_with_its_host_seated_or_not_at_all(store, db):
    game_id = await store.create_game(guild_id=1, channel_id=9, map="usa", variant="base",
                                      options={}, seed=1, host_id=90, now=1.0, host_name="Ann")
    assert [(s.seat, s.user_id, s.display_name, s.bot_level) for s in
            await store.list_seats(game_id)] == [(0, 90, "Ann", None)]
    db.failing_trigger("no_seats", "seats", "INSERT", "seat refused")
    with pytest.raises(StoreError, match="seat refused"):
        await store.create_game(guild_id=1, channel_id=10, map="usa", variant="base",
                                options={}, seed=1, host_id=91, host_name="Bob")
    assert await store.find_open_game(10) is None      # no seatless lobby blocks the channel
    assert db.fetchone("SELECT COUNT(*) FROM games") == (1,)
    with pytest.raises(ValueError):
        await store.create_game(guild_id=1, channel_id=11, map="usa", variant="base",
                                options={}, seed=1, host_id=92, host_name=92)
