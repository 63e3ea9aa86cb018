"""Lobby rules: one game per channel, seats, who may start and cancel, player counts."""
import pytest

from tests.service.svckit import lobby, make_service, open_store, raw_counts, started, users_for
from ttr_bot.engine.actions import DrawCard, KeepTickets
from ttr_bot.service import MEMBER_LOBBIES, SERVER_LOBBIES, ServiceError

pytestmark = pytest.mark.asyncio


async def refused(key, coro):
    with pytest.raises(ServiceError) as caught:
        await coro
    assert caught.value.key == key, caught.value.key
    return caught.value


async def seats_in_store(store, game_id):
    return [(s.seat, s.user_id, s.display_name, s.bot_level)
            for s in await store.list_seats(game_id)]


async def test_open_lobby_seats_the_host_and_is_found_by_channel(svc, store):
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=50, user_id=500, name="Ann",
                                        map_id="europe")
    assert loaded.status == "lobby" and loaded.game is None
    assert (loaded.map_id, loaded.variant, loaded.host_id) == ("europe", "base", 500)
    assert await seats_in_store(store, loaded.id) == [(0, 500, "Ann", None)]
    assert (await svc.game_in_channel(50)).id == loaded.id
    assert await svc.game_in_channel(51) is None


async def test_unknown_map_or_variant_is_refused(svc, store):
    await refused("service.unknown_map", svc.lobby.open_lobby(
        guild_id=1, channel_id=1, user_id=1, name="a", map_id="atlantis"))
    await refused("service.unknown_variant", svc.lobby.open_lobby(
        guild_id=1, channel_id=1, user_id=1, name="a", map_id="usa", variant="nope"))
    assert await store.find_open_game(1) is None


async def test_one_open_game_per_channel(svc, store):
    game_id = await lobby(svc, 60)
    await refused("service.channel_busy", svc.lobby.open_lobby(
        guild_id=1, channel_id=60, user_id=999, name="Zed", map_id="usa"))
    await svc.lobby.start(60, users_for(60, 2)[0])
    await refused("service.channel_busy", svc.lobby.open_lobby(
        guild_id=1, channel_id=60, user_id=999, name="Zed", map_id="usa"))
    # another channel is free; after a cancel the channel is free again
    await lobby(svc, 61)
    await svc.lobby.cancel(60, users_for(60, 2)[0])
    again = await svc.lobby.open_lobby(guild_id=1, channel_id=60, user_id=999, name="Zed",
                                       map_id="usa")
    assert again.id != game_id
    assert (await store.get_game(game_id)).status == "cancelled"


async def test_join_twice_is_refused(svc, store):
    game_id = await lobby(svc, 70)
    host, guest = users_for(70, 2)
    await refused("service.already_seated", svc.lobby.join(70, guest, "again"))
    await refused("service.already_seated", svc.lobby.join(70, host, "host again"))
    assert [s[1] for s in await seats_in_store(store, game_id)] == [host, guest]


async def test_join_needs_a_lobby(svc):
    await refused("service.no_game", svc.lobby.join(71, 1, "nobody"))
    await started(svc, 72)
    await refused("service.already_started", svc.lobby.join(72, 12345, "late"))
    await refused("service.already_started", svc.lobby.leave(72, users_for(72, 2)[1]))


async def test_only_the_host_starts(svc, store):
    game_id = await lobby(svc, 80, players=3)
    host, guest, _ = users_for(80, 3)
    await refused("service.host_only", svc.lobby.start(80, guest))
    await refused("service.host_only", svc.lobby.start(80, 4242))
    assert (await store.get_game(game_id)).status == "lobby"
    eff = await svc.lobby.start(80, host)
    assert eff.seq == 0
    # everyone's first hand message (their ticket choice) is owed
    assert sorted((m.message.seat, m.message.why) for m in await svc.queue.owed_messages()
                  if m.kind == "hand" and m.game_id == game_id) == [
        (0, "start"), (1, "start"), (2, "start")]
    assert eff.to_move == [0, 1, 2]  # everyone chooses tickets at setup
    assert (await store.get_game(game_id)).status == "active"
    assert (await store.load_snapshot(game_id)).seq == 0


@pytest.mark.parametrize("map_id, lo, hi", [
    ("usa", 2, 5), ("europe", 2, 5), ("switzerland", 2, 3), ("nordic", 2, 3)])
async def test_player_count_limits(svc, store, map_id, lo, hi):
    channel = {"usa": 90, "europe": 91, "switzerland": 92, "nordic": 93}[map_id]
    host = 7000 + channel
    loaded = await svc.lobby.open_lobby(guild_id=1, channel_id=channel, user_id=host, name="host",
                                        map_id=map_id)
    err = await refused("service.player_count", svc.lobby.start(channel, host))  # alone
    assert err.params == {"min": lo, "max": hi}
    for i in range(1, hi):
        await svc.lobby.join(channel, host + 100 * i, f"p{i}")
    err = await refused("service.lobby_full", svc.lobby.join(channel, host + 999_000, "one too many"))
    assert err.params == {"count": hi}
    await refused("service.lobby_full", svc.lobby.add_bot(channel, host, "easy"))
    assert len(await store.list_seats(loaded.id)) == hi
    eff = await svc.lobby.start(channel, host)
    assert eff.to_move == list(range(hi))
    assert (await svc.load(loaded.id)).game.n == hi


async def test_smallest_tables_start(svc):
    for channel, map_id in ((94, "switzerland"), (95, "nordic"), (96, "usa")):
        game_id, _ = await started(svc, channel, players=2, map_id=map_id)
        assert (await svc.load(game_id)).game.n == 2


async def test_leave_renumbers_seats(svc, store):
    """The game's seats are the lobby's seats in join order, without the one who left:
    whatever numbers the store keeps, seat k of the game is the k-th remaining player."""
    game_id = await lobby(svc, 100, players=4)
    a, b, c, d = users_for(100, 4)
    await svc.lobby.add_bot(100, a, "hard")
    loaded = await svc.lobby.leave(100, b)
    assert [s.user_id for s in loaded.seats] == [a, c, d, None]
    assert [loaded.seat_of(u) for u in (a, b, c, d)] == [0, None, 1, 2]
    assert [s[1:] for s in await seats_in_store(store, game_id)] == [
        (a, f"P{a}", None), (c, f"P{c}", None), (d, f"P{d}", None), (None, "Bot 1 (hard)", 3)]
    await refused("service.not_seated", svc.lobby.leave(100, b))
    await refused("service.host_cannot_leave", svc.lobby.leave(100, a))
    # the one who left can come back, at the end
    await svc.lobby.join(100, b, "back")
    await svc.lobby.leave(100, d)
    assert [s[1] for s in await seats_in_store(store, game_id)] == [a, c, None, b]
    eff = await svc.lobby.start(100, a)
    assert eff.to_move == [0, 1, 2, 3]
    # in play, seat k is the k-th remaining player, in this service and after a restart
    for s in (svc, make_service(store)):
        loaded = await s.load(game_id)
        assert loaded.game.n == 4
        assert [loaded.seat_of(u) for u in (a, c, b, d)] == [0, 1, 3, None]
    game = loaded.game
    eff = await svc.moves.act(game_id, b, KeepTickets(3, tuple(game.offers[3])), 0)
    assert eff.actor == 3 and (await svc.load(game_id)).game.offers[3] is None
    assert (await store.load_actions(game_id))[0].actor == 3
    await refused("service.not_a_player", svc.moves.act(game_id, d, DrawCard(0), 1))


async def test_only_the_host_or_an_admin_adds_computer_players_of_a_known_level(svc, store):
    """A guest cannot fill the host's table with computer players (and then leave it so)."""
    game_id = await lobby(svc, 110)
    host, guest = users_for(110, 2)
    await refused("service.unknown_level", svc.lobby.add_bot(110, host, "godlike"))
    await refused("service.addbot_host_only", svc.lobby.add_bot(110, 31337, "easy"))
    await refused("service.addbot_host_only", svc.lobby.add_bot(110, guest, "easy"))
    assert len(await seats_in_store(store, game_id)) == 2
    await svc.lobby.add_bot(110, guest, "easy", is_admin=True)
    await svc.lobby.add_bot(110, host, "medium")
    await svc.lobby.add_bot(110, host, "expert")
    assert [(s[1], s[2], s[3]) for s in await seats_in_store(store, game_id)][2:] == [
        (None, "Bot 1 (easy)", 1), (None, "Bot 2 (medium)", 2), (None, "Bot 3 (expert)", 4)]
    svc.core.forget(game_id)   # the level comes back by its number
    assert [s.level for s in (await svc.load(game_id)).seats][2:] == ["easy", "medium", "expert"]


async def test_the_host_removes_any_seat_but_their_own_before_the_start(svc, store):
    game_id = await lobby(svc, 115, players=3)
    host, guest, other = users_for(115, 3)
    await svc.lobby.add_bot(115, host, "hard")
    numbers = [s[0] for s in await seats_in_store(store, game_id)]
    await refused("service.remove_host_only", svc.lobby.remove_seat(115, guest, numbers[3]))
    await refused("service.host_cannot_leave", svc.lobby.remove_seat(115, host, numbers[0]))
    await refused("service.no_such_seat", svc.lobby.remove_seat(115, host, 99))
    assert len(await seats_in_store(store, game_id)) == 4      # refusals change nothing
    hosted = await svc.lobby.remove_seat(115, host, numbers[3])       # the computer player
    assert [s.name for s in hosted.seats] == [f"P{host}", f"P{guest}", f"P{other}"]
    hosted = await svc.lobby.remove_seat(115, guest, numbers[2], is_admin=True)
    assert [s.user_id for s in hosted.seats] == [host, guest]
    await svc.lobby.start(115, host)
    await refused("service.already_started", svc.lobby.remove_seat(115, host, numbers[1]))


@pytest.mark.parametrize("late", ["join", "add_bot", "leave", "remove_seat", "start"])
async def test_a_lobby_change_racing_the_start_is_told_the_game_started(db_path, late):
    """Another process (or a stale cache) started the game: the late change is refused with
    the reason, not an error, and changes nothing."""
    first = await open_store(db_path)
    second = await open_store(db_path)
    try:
        a, b = make_service(first), make_service(second)
        game_id = await lobby(a, 118, players=3)
        host, guest, other = users_for(118, 3)
        await a.lobby.add_bot(118, host, "easy")
        await b.game_in_channel(118)                  # b has the lobby in its cache
        await a.lobby.start(118, host)
        before = await seats_in_store(first, game_id)
        call = {"join": lambda: b.lobby.join(118, 999, "late"),
                "add_bot": lambda: b.lobby.add_bot(118, host, "hard"),
                "leave": lambda: b.lobby.leave(118, guest),
                "remove_seat": lambda: b.lobby.remove_seat(118, host, before[3][0]),
                "start": lambda: b.lobby.start(118, host)}[late]
        await refused("service.already_started", call())
        assert await seats_in_store(first, game_id) == before
        assert (await first.get_game(game_id)).status == "active"
    finally:
        await first.close()
        await second.close()


async def test_cancel_by_host_or_admin_only(svc, store, db_path):
    game_id = await lobby(svc, 120, players=3)
    host, guest, _ = users_for(120, 3)
    await refused("service.cancel_denied", svc.lobby.cancel(120, guest))
    await refused("service.cancel_denied", svc.lobby.cancel(120, 555))
    assert (await store.get_game(game_id)).status == "lobby"
    eff = await svc.lobby.cancel(120, guest, is_admin=True)
    assert eff.cancelled and eff.game_id == game_id
    assert (await store.get_game(game_id)).status == "cancelled"
    await refused("service.no_game", svc.lobby.cancel(120, host))

    # a game in play: the host may cancel it; then it takes no more actions
    game_id, users = await started(svc, 121)
    await refused("service.cancel_denied", svc.lobby.cancel(121, users[1]))
    loaded = await svc.load(game_id)
    await svc.lobby.cancel(121, users[0])
    assert raw_counts(db_path, game_id)[2] == "cancelled"
    offer = loaded.game.offers[0]
    await refused("service.not_active",
                  svc.moves.act(game_id, users[0], KeepTickets(0, tuple(offer)), 0))
    assert raw_counts(db_path, game_id)[0] == 0


async def test_lobby_survives_a_restart(db_path):
    store = await open_store(db_path)
    svc = make_service(store)
    game_id = await lobby(svc, 130, players=3)
    await svc.lobby.leave(130, users_for(130, 3)[1])
    await store.close()

    store = await open_store(db_path)
    try:
        svc = make_service(store)
        loaded = await svc.game_in_channel(130)
        assert loaded.id == game_id and loaded.status == "lobby"
        assert [s.user_id for s in loaded.seats] == [users_for(130, 3)[0], users_for(130, 3)[2]]
        eff = await svc.lobby.start(130, users_for(130, 3)[0])
        assert eff.to_move == [0, 1] and (await store.get_game(game_id)).status == "active"
    finally:
        await store.close()


async def test_lobby_caps_per_member_and_per_server(svc, store):
    """A member hosts at most MEMBER_LOBBIES lobbies per server, a server has at most
    SERVER_LOBBIES; a started game no longer counts, nor does another server's lobby."""
    async def new(channel_id, user_id, guild_id=1):
        return await svc.lobby.open_lobby(guild_id=guild_id, channel_id=channel_id, user_id=user_id,
                                          name=f"P{user_id}", map_id="usa")
    for ch in range(MEMBER_LOBBIES):
        await new(900 + ch, 5)
    err = await refused("service.lobby_cap_member", new(950, 5))
    assert err.params == {"limit": MEMBER_LOBBIES,
                          "lobbies": ", ".join(f"<#{900 + ch}>" for ch in range(MEMBER_LOBBIES))}
    assert await store.find_open_game(950) is None
    await new(951, 5, guild_id=2)                       # another server counts apart
    await svc.lobby.join(900, 6, "P6")
    await svc.lobby.start(900, 5)                             # started: no longer a lobby
    await new(950, 5)
    for user in range(SERVER_LOBBIES - MEMBER_LOBBIES):  # the server fills up
        await new(1000 + user, 100 + user)
    await refused("service.lobby_cap_server", new(2000, 99))
    assert len(await store.lobbies_in_guild(1)) == SERVER_LOBBIES
    await svc.lobby.open_lobby(guild_id=None, channel_id=2001, user_id=5, name="P5", map_id="usa")
