"""Bad input, end to end: each case a real player or operator met, answered clearly, changing
nothing, with nothing logged as an error (the fuzz test, test_fuzz_commands.py, covers the
class; these are the cases it was built from)."""
import logging

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import lobby_game, open_game
from ttr_bot.bounded import KeyedLocks, LRUDict, LRUSet
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


@pytest_asyncio.fixture
async def table(fake, tmp_path, caplog):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    caplog.set_level(logging.INFO)
    yield table
    await table.settle()


def errors(caplog):
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def answer_to(table, user, sub, forge=False, **options):
    handle = await table.fake.slash(user, table.channel, "ttr", sub, options, forge=forge)
    return (await handle.answer(0, timeout=10)).content


async def a_game(table):
    alice = table.fake.add_user("alice", guild=table.guild)
    bob = table.fake.add_user("bob", guild=table.guild)
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    return alice, bob, game_id


@pytest.mark.parametrize("typed", ["①,③", "²", "1" * 4400, "0", "9"])
async def test_keep_with_numbers_it_cannot_use_gets_an_answer(table, caplog, typed):
    """Circled numbers (a Japanese keyboard), superscripts, a 4,400-digit number: once the
    interaction was left "thinking…" until its token expired."""
    alice, bob, game_id = await a_game(table)
    before = (await table.game()).seq
    text = await answer_to(table, alice, "keep", tickets=typed)
    assert text == t("bot.keep.bad_number", "en")
    assert (await table.game()).seq == before and not errors(caplog)


async def test_persian_digits_are_numbers(table, caplog):
    alice, bob, game_id = await a_game(table)
    text = await answer_to(table, alice, "keep", tickets="۱،۲".replace("،", ","))
    assert "kept" in text.lower() or "keep" in text.lower(), text
    assert not errors(caplog)


@pytest.mark.parametrize("sub,options,key", [
    ("claim", {"route": "²"}, "bot.claim.unknown_route"),
    ("claim", {"route": "9" * 5000}, "bot.claim.unknown_route"),
    ("station", {"city": "²"}, "bot.station.unknown_city"),
])
async def test_unreadable_routes_and_cities_are_unknown(table, caplog, sub, options, key):
    alice, bob, game_id = await a_game(table)
    assert await answer_to(table, alice, sub, **options) == t(key, "en")
    assert not errors(caplog)


@pytest.mark.parametrize("sub,options", [
    ("draw", {"source": "bogus"}),
    ("claim", {"route": "Denver El Paso", "color": "bogus"}),
    ("tunnel", {"choice": "maybe"}),
    ("me language", {"language": "xx"}),
    ("claim", {"route": "Denver El Paso", "locomotives": 10 ** 6}),
    ("server export", {"game": 2 ** 70}),
    ("addbot", {"level": "godlike"}),
])
async def test_forged_values_are_refused_and_nothing_is_stored(table, caplog, sub, options):
    """Values the Discord client never sends (not a choice, out of range): the bot does not
    depend on the client. /ttr language xx used to store "xx" before failing."""
    alice, bob, game_id = await a_game(table)
    before = (await table.game()).seq
    text = await answer_to(table, alice, sub, forge=True, **options)
    option = next(iter(options)) if sub != "claim" else next(k for k in options if k != "route")
    assert text == t("bot.error.not_a_choice", "en", option=option)
    assert await table.bot.service.adapter_state.user_locale(alice.id) is None
    assert (await table.game()).seq == before and not errors(caplog)


async def test_export_of_a_game_that_cannot_exist(table, caplog):
    alice, bob, game_id = await a_game(table)
    text = await answer_to(table, alice, "server export", game=2 ** 53 - 1)
    assert text == t("service.no_such_game", "en", game=2 ** 53 - 1) and not errors(caplog)


@pytest.mark.parametrize("custom_id", ["ttr:draw:{g}:{s}:bogus", "ttr:route:{g}:{s}",
                                       "ttr:keep:{g}:{s}", "ttr:nothing:{g}", "ttr:claim:{g}"])
async def test_a_control_with_a_garbage_field_is_out_of_date(table, caplog, custom_id):
    alice, bob, game_id = await a_game(table)
    hosted = await table.game()
    panel = next(m for m in reversed(table.public_messages()) if m.custom_ids())
    cid = custom_id.format(g=game_id, s=hosted.seq)
    if "route" in cid or "keep" in cid:
        handle = await table.fake.select(alice, panel, cid, ["not a number"], forge=True)
    else:
        handle = await table.fake.click(alice, panel, cid, forge=True)
    text = (await handle.answer(0)).content
    assert text == t("bot.error.old_control", "en")
    assert (await table.game()).seq == hosted.seq and not errors(caplog)


@pytest.mark.parametrize("values", [[], ["easy", "hard"], ["no such level"]])
@pytest.mark.parametrize("menu", ["addbot", "unseat"])
async def test_a_lobby_menu_sent_with_no_value_or_a_bogus_one_is_refused(table, caplog, menu,
                                                                          values):
    """The lobby's menus (add a computer player, take a seat away) from an old or forged
    interaction: no value, two, or one the menu never offered: a clear answer, nothing
    changed, nothing logged as an error (an empty add-a-computer menu was an IndexError)."""
    alice = table.fake.add_user("alice", guild=table.guild)
    await answer_to(table, alice, "new", map="usa", thread=False)
    lobby = table.public_messages()[-1]
    game_id = lobby_game(lobby)
    before = [s.name for s in (await table.bot.service.load(game_id)).seats]
    handle = await table.fake.select(alice, lobby, f"ttr:{menu}:{game_id}", values, forge=True)
    text = (await handle.answer(0)).content
    assert text and t("bot.error.unexpected", "en") not in text
    assert [s.name for s in (await table.bot.service.load(game_id)).seats] == before
    assert not errors(caplog)


async def test_a_late_lobby_edit_never_puts_the_buttons_back_on_a_started_game(table, caplog):
    """The lobby message is edited after every join; an edit that lands after the start's must
    show the started game, without Join or Start."""
    alice = table.fake.add_user("alice", guild=table.guild)
    bob = table.fake.add_user("bob", guild=table.guild)
    await answer_to(table, alice, "new", map="usa", thread=False)   # the lobby here
    lobby = table.public_messages()[-1]
    game_id = lobby_game(lobby)
    await table.click(bob, lobby, f"ttr:lobby:{game_id}:join")
    stale = await table.bot.service.load(game_id)         # what a join held before the start
    assert stale.is_lobby
    await answer_to(table, alice, "start")
    await table.settle()
    await table.bot.delivery.update_lobby(stale.id, "en")   # the join's edit, arriving late
    await table.settle()
    shown = table.fake.state.messages[lobby.id]
    assert not find_cid(shown, "ttr:lobby:") and not find_cid(shown, "ttr:addbot:")
    assert not errors(caplog)


async def test_guests_cannot_fill_the_table_and_the_host_can_remove_any_seat(table, caplog):
    alice = table.fake.add_user("alice", guild=table.guild)
    bob = table.fake.add_user("bob", guild=table.guild)
    await answer_to(table, alice, "new", map="usa", thread=False)   # the lobby here
    lobby = table.public_messages()[-1]
    game_id = lobby_game(lobby)
    await table.click(bob, lobby, f"ttr:lobby:{game_id}:join")
    text = await answer_to(table, bob, "addbot", level="easy")
    assert text == t("service.addbot_host_only", "en")
    await answer_to(table, alice, "addbot", level="hard")
    shown = table.fake.state.messages[lobby.id]
    menu = shown.component(find_cid(shown, "ttr:unseat:"))
    assert [o["label"] for o in menu["options"]] == ["2. bob", "3. Bot 1 (hard)"]
    await table.select(bob, shown, menu["custom_id"], [menu["options"][1]["value"]])
    assert len((await table.game()).seats) == 3                     # only the host may
    await table.select(alice, shown, menu["custom_id"], [menu["options"][1]["value"]])
    assert await answer_to(table, alice, "remove", seat=2) == t("bot.lobby.removed", "en",
                                                                 name="bob")
    assert [s.name for s in (await table.game()).seats] == ["alice"]
    assert not errors(caplog)


async def test_per_user_and_per_channel_memory_is_bounded():
    """A bot in thousands of servers must not keep every user and channel it ever saw."""
    seen = LRUDict(100)
    for user in range(10_000):
        seen[user] = "en"
    assert len(seen) == 100 and 9_999 in seen and 0 not in seen
    told = LRUSet(50)
    for pair in range(1_000):
        told.add(pair)
    assert len(told) == 50 and 999 in told
    locks = KeyedLocks()
    for key in range(1_000):
        async with locks[key]:
            pass
    assert len(locks) == 0                      # a lock lives only while it is used


async def test_the_bots_caches_are_the_bounded_kind(table):
    bot = table.bot
    assert isinstance(bot._locale_override, LRUDict) and isinstance(bot._seen_locale, LRUDict)
    assert isinstance(bot.delivery._lobby_locks, KeyedLocks)
    assert len(bot.outbox._busy) <= bot.outbox.lanes      # lanes in flight, at most `lanes`
    assert isinstance(bot.service.core._channels, LRUDict)


async def test_a_server_on_another_process_shard_is_told_so_and_nothing_changes(table, caplog):
    """Each process serves the servers on its shards; an interaction of another server (the
    processes' TTR_SHARD_COUNT disagree with Discord's routing) gets a clear answer and is not
    acted on: its games, timers and posts belong to the process that serves it."""
    from ttr_bot.service import Shards
    alice = table.fake.add_user("alice", guild=table.guild)
    bob = table.fake.add_user("bob", guild=table.guild)
    await answer_to(table, alice, "new", map="usa", thread=False)   # the lobby here
    lobby = table.public_messages()[-1]
    game_id = lobby_game(lobby)
    served = table.bot.served
    table.bot.served = Shards(2, (1 - Shards(2).shard_of(table.guild.id),))
    try:
        said = t("bot.error.other_shard", "en")
        assert await answer_to(table, bob, "join") == said
        handle = await table.fake.click(bob, lobby, f"ttr:lobby:{game_id}:join")
        assert (await handle.response()).content == said
        assert len((await table.bot.service.load(game_id)).seats) == 1     # bob is not seated
    finally:
        table.bot.served = served
    await table.click(bob, lobby, f"ttr:lobby:{game_id}:join")        # served again: seated
    assert len((await table.bot.service.load(game_id)).seats) == 2
    assert not errors(caplog)
