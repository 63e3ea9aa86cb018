"""End to end: the real bot plays complete games through the fake Discord.

Every request the bot sends is checked against Discord's OpenAPI description and its hard
limits (`fake.assert_clean()`); the bot is restarted mid-game and the old buttons keep working;
a player with closed DMs is served privately in the channel; and no public message shows a
ticket before the final reveal, or says which card a blind draw gave.
"""
import json
import logging
import re

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid, lobby_game, open_game
from testkit.fakediscord import FakeDiscord
from ttr_bot.discord.text.format import route_text, ticket_text
from ttr_bot.engine.cards import CARD_NAMES
from ttr_bot.game_record import replay
from ttr_bot.i18n import catalog, t
from ttr_bot.maps import available_maps

pytestmark = pytest.mark.asyncio
MAX_ACTIONS = 1500
# the opening words of the private answers ("You drew", "You kept"): never in public
PRIVATE_WORDS = [catalog("en")[k].split("{")[0].strip() for k in ("bot.you.drew", "bot.you.kept")]


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def play_to_end(table, players, restart_at=None, on_restart=None):
    by_id = {p.user.id: p for p in players}
    restarted = False
    for _ in range(MAX_ACTIONS):
        loaded = await table.wait_for_humans()
        if loaded is None or loaded.game.over:
            return loaded
        if restart_at and not restarted and loaded.game.turn >= restart_at and \
                loaded.game.step == "idle" and loaded.game.phase == "play":
            restarted = True
            await table.restart_bot()
            if on_restart:
                await on_restart()
            continue
        seat = loaded.game.to_move()[0]
        human = [s for s in loaded.game.to_move() if loaded.seats[s].user_id]
        seat = human[0] if human else seat
        await by_id[loaded.seats[seat].user_id].move()
    raise AssertionError("the game did not end")


def public_leaks(messages, board, reveal_id):
    """Public messages before the reveal that show a ticket, or name a blind-drawn card."""
    tickets = [ticket_text(tk) for tk in board.tickets]
    routes = sorted({route_text(board, r) for r in range(len(board.routes))}, key=len,
                    reverse=True)
    colours = [t(f"bot.card.{c}", "en") for c in CARD_NAMES]
    deck_words = t("bot.ev.draw_deck", "en", name="").strip().rstrip(".")
    leaks = []
    for m in messages:
        if m.id >= reveal_id:
            break
        text = m.text()
        for label in routes:    # a route's label may read as a ticket (Pennsylvania's
            text = text.replace(label, "")      # Baltimore – Philadelphia (4) is both)
        leaks += [(m.id, tk) for tk in tickets if tk in text]
        for line in m.text().splitlines():
            if deck_words in line and any(re.search(rf"\b{c}\b", line) for c in colours):
                leaks.append((m.id, line))
        leaks += [(m.id, words) for words in PRIVATE_WORDS if words in m.text()]
    return leaks


async def test_the_leak_check_can_fail():
    from tests.discord.adapter_kit import new_game
    game = new_game("usa")
    ticket = ticket_text(game.board.tickets[0])

    class Msg:
        def __init__(self, i, content):
            self.id, self.content = i, content

        def text(self):
            return self.content
    assert public_leaks([Msg(1, "all fine")], game.board, 10) == []
    assert public_leaks([Msg(1, f"Ann kept {ticket}")], game.board, 10)
    assert public_leaks([Msg(1, "Ann drew a card from the deck: red")], game.board, 10)
    assert public_leaks([Msg(11, f"Ann kept {ticket}")], game.board, 10) == []   # the reveal


async def test_complete_game_with_restart_and_closed_dms(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild, dms_closed=True)
    players = [Player(table, alice, seed=1), Player(table, bob, seed=2)]
    await open_game(table, alice, [bob])

    # bob's DMs are closed: told once in the channel, without private content
    notices = [m for m in table.public_messages() if str(bob.id) in m.text() and "direct" in m.text()]
    assert len(notices) == 1 and find_cid(notices[0], "ttr:hand:")
    assert fake.dms_to(alice), "alice gets her hand by DM"
    # ...and chooses his tickets from the menu "My hand" shows him privately
    mine = await table.click(bob, notices[0], find_cid(notices[0], "ttr:hand:"))
    assert mine.ephemeral and "Tickets" in mine.content
    menu = mine.component(find_cid(mine, "ttr:keep:"))
    await table.select(bob, mine, menu["custom_id"], [o["value"] for o in menu["options"]][:2])
    loaded = await table.game()
    game_id = loaded.id

    old_panel = {}

    async def after_restart():
        # a button posted before the restart still works afterwards
        loaded = await table.wait_for_humans()
        panel = table.last_panel()
        assert panel.id <= table.last_id_before_restart     # posted by the previous process
        seat = loaded.game.current
        user = alice if loaded.seats[seat].user_id == alice.id else bob
        old_panel["clicked"] = panel.id
        msg = await table.click(user, panel, f"ttr:draw:{game_id}:{loaded.seq}:deck")
        assert "You drew" in msg.content
        await table.settle()
        # the second card, by slash command, after the restart
        await table.slash(user, "draw", source="deck")
        await table.settle()

    final = await play_to_end(table, players, restart_at=8, on_restart=after_restart)
    assert table.generation == 2 and old_panel.get("clicked")
    assert final is not None and final.game.over

    messages = table.public_messages()
    reveal = next(m for m in messages if "🏁" in m.content)
    assert any(f.endswith(".png") for m in messages[messages.index(reveal):] for f in m.files)
    assert public_leaks(messages, final.game.board, reveal.id) == []
    # every player's tickets are revealed at the end
    names = final.names()
    for _p, name in enumerate(names):
        assert name in "\n".join(m.content for m in messages if m.id >= reveal.id)
    for tid in final.game.tickets[0]:
        tk = final.game.board.tickets[tid]
        assert tk.origin in "\n".join(m.content for m in messages if m.id >= reveal.id)

    assert fake.dms_to(bob) == [] and len(fake.blocked_dms) >= 1
    # the record can be exported, and replays to the same result
    msg = await table.slash(alice, "server export")
    data = json.loads(next(iter(msg.files.values())))
    game, _, error = replay(data)
    assert error is None and game.over
    assert game.scores()[0] == final.game.scores()[0]

    fake.assert_clean()
    assert fake.spec_violations == []
    await fake.stop_bot(table.bot)


async def test_stale_and_foreign_clicks_get_clear_answers(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    carol = fake.add_user("carol", guild=table.guild)
    await open_game(table, alice, [bob], map_id="usa", bots=0)
    for user in (alice, bob):
        await table.slash(user, "keep", tickets="1,2")
    await table.settle()
    panel = table.last_panel()
    loaded = await table.game()
    deck = f"ttr:draw:{loaded.id}:{loaded.seq}:deck"
    current = alice if loaded.game.current == 0 else bob
    other = bob if current is alice else alice

    msg = await table.click(carol, panel, deck)
    assert msg.content == t("service.not_a_player")
    msg = await table.click(other, panel, deck)
    assert msg.content == t("illegal.not_your_turn")
    first = await table.click(current, panel, deck)
    assert "You drew" in first.content
    # the same (now stale) button again: refused, with the current panel attached
    again = await table.click(current, panel, deck)
    assert again.content.startswith(t("service.stale"))
    assert any(c.startswith("ttr:draw:") for c in again.custom_ids())
    # an illegal move by slash: the engine's reason, privately
    msg = await table.slash(current, "tickets")
    assert msg.content == t("illegal.second_card_pending") and msg.ephemeral
    await table.settle()
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_autocomplete_lists_only_affordable_routes(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    await open_game(table, alice, [bob], map_id="usa", bots=0)
    for user in (alice, bob):
        await table.slash(user, "keep", tickets="1,2,3")
    await table.settle()
    loaded = await table.game()
    current = alice if loaded.game.current == 0 else bob
    handle = await fake.autocomplete(current, table.channel, "ttr", "claim", {"route": ""},
                                     focused="route")
    choices = (await handle.response()).choices
    assert len(choices) <= 25
    hand = loaded.game.hands[loaded.game.current]
    for c in choices:
        route = loaded.game.board.routes[int(c["value"])]
        assert route.length <= max(hand[:8]) + hand[8]
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_information_commands_and_language(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    msg = await table.slash(alice, "status")
    assert msg.content == t("service.no_game")
    await open_game(table, alice, [bob], map_id="switzerland", bots=0)
    rules = await table.slash(alice, "rules")
    assert "Switzerland" in rules.content and "three-locomotive" in rules.content
    status = await table.slash(bob, "status")
    assert "alice" in status.content and "bob" in status.content and status.ephemeral
    assert any(f.endswith(".png") for f in status.files)     # the board, as /ttr status shows
    hand = await table.slash(bob, "hand")
    assert "ttr:keep:" in " ".join(hand.custom_ids()) and any(f.endswith(".png") for f in hand.files)
    helptext = await table.slash(bob, "help")              # one screen, the buttons named
    assert t("bot.btn.claim") in helptext.content and len(helptext.content.splitlines()) <= 20
    handle = await fake.click(bob, helptext, "ttr:help:0:commands")
    parts = [await handle.answer(0, timeout=20)]
    while "ttr:help:0:ratings" not in parts[-1].custom_ids():    # the last part has the button
        assert len(parts) < 4
        parts.append(await handle.answer(len(parts), timeout=20))
    listed = "\n".join(p.content for p in parts)
    assert "/ttr claim" in listed and "/ttr server language" in listed
    ratings = await table.click(bob, parts[-1], "ttr:help:0:ratings")
    assert ratings.content.startswith(t("bot.ratings.rules.title"))
    export = await table.slash(bob, "server export")
    assert export.content == t("bot.export.none")
    done = await table.slash(bob, "me language", language="ja")
    assert await table.bot.service.core.store.get_locale(bob.id) == "ja" and done.content
    # Japanese has no catalog yet: English is the fallback, never a missing text
    msg = await table.slash(bob, "status")
    assert "alice" in msg.content
    await table.settle()
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_rules_teach_a_newcomer_where_no_game_is(fake, tmp_path):
    """/ttr help sends a newcomer to /ttr rules: with no game in the channel it teaches the
    game and its scores, then every map in a line; `map:` gives one map's rules in full."""
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    ann = fake.add_user("ann", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    handle = await fake.slash(ann, table.channel, "ttr", "rules", {})
    intro = await table.reply(handle)
    assert intro.content != t("service.no_game")
    assert t("bot.rules.turn") in intro.content and t("bot.rules.ticket_score") in intro.content
    assert "1→1 · 2→2 · 3→4 · 4→7 · 5→10 · 6→15 · 7→18 · 8→21" in intro.content
    assert t("bot.rules.maps") in intro.content
    offered = available_maps()
    for map_id in offered:
        assert f"• **{t('bot.map.' + map_id)}**: " in intro.content
    assert t("bot.rules.brief.stations", count=3) in intro.content          # Europe's line
    await table.settle()
    assert len(handle.answers()) == 1                      # one message, read on one screen
    assert len(intro.content.splitlines()) <= 12 + len(offered)   # the game, a line a map
    europe = await table.slash(ann, "rules", map="europe")
    assert t("bot.rules.title", map="Europe") in europe.content
    assert t("bot.rules.stations", count=3, bonus=4) in europe.content
    await table.slash(ann, "me language", language="ja")                   # her own language
    ja = await table.slash(ann, "rules")
    assert t("bot.rules.maps", "ja") in ja.content and t("bot.rules.turn", "ja") in ja.content
    await open_game(table, ann, [bob], map_id="switzerland", bots=0)
    game = await table.slash(bob, "rules")                 # a game here: its map's rules
    assert "Switzerland" in game.content and t("bot.rules.maps") not in game.content
    other = await table.slash(bob, "rules", map="nordic")  # unless another is asked for
    assert t("bot.rules.globetrotter", points=10) in other.content
    await table.settle()
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_the_log_says_once_at_start_when_letters_cannot_join(fake, tmp_path, caplog,
                                                                  monkeypatch):
    """Without libfribidi the bot runs, and its operator reads why Persian names look apart."""
    from ttr_bot.render import bidi
    monkeypatch.setattr(bidi, "HAVE_FRIBIDI", False)
    table = Table(fake, db_file(tmp_path))
    with caplog.at_level(logging.WARNING, logger="ttr_bot"):
        await table.start_bot()
        await table.settle()
    said = [r for r in caplog.records if "libfribidi" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert "apt-get install libfribidi0" in said[0].getMessage()
    await fake.stop_bot(table.bot)


async def test_a_channel_the_bot_cannot_post_in(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    mute = fake.add_text_channel(table.guild, "read-only", bot_can_send=False)
    handle = await fake.slash(alice, mute, "ttr", "new", {"map": "usa"})
    msg = await handle.answer(0)
    assert msg.content == t("bot.error.cannot_post")
    # the failed lobby does not block the channel
    assert await table.bot.service.game_in_channel(mute.id) is None
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_game_in_a_thread(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    thread = fake.add_thread(table.channel, "ttr game")
    table.channel = thread
    await open_game(table, alice, [], map_id="usa", bots=1)
    await table.slash(alice, "keep", tickets="1,2")
    loaded = await table.wait_for_humans()
    assert loaded.game.phase == "play"
    assert any("ttr:draw:" in " ".join(m.custom_ids()) for m in fake.messages_in(thread))
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_bot_py_sync_pushes_the_commands_and_exits(fake):
    import importlib.util

    from tests.discord.adapter_kit import REPO
    from ttr_bot.discord.config import Config
    spec = importlib.util.spec_from_file_location("ttr_entry", REPO / "bot.py")
    entry = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(entry)
    guild = fake.add_guild("Dev")
    await entry.sync_commands(Config(token=fake.token), guild.id)
    commands = fake.commands(guild)
    assert set(commands) == {"ttr"}
    # a server's channels only (contexts: 0 guild; not 1 bot DM, 2 private channel), installed
    # to servers (integration_types: 0 guild install; not 1 user install)
    assert commands["ttr"]["contexts"] == [0] and commands["ttr"]["integration_types"] == [0]
    subs = {o["name"] for o in commands["ttr"]["options"]}
    assert {"new", "draw", "claim", "keep", "tunnel", "station", "hand", "me", "server"} <= subs
    assert len(subs) <= 25                # Discord's limit of a group's subcommands
    assert fake.commands() == {}          # nothing global was pushed
    await entry.sync_commands(Config(token=fake.token), None)
    assert set(fake.commands()) == {"ttr"}
    fake.assert_clean()


async def test_lobby_leave_and_cancel(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    await table.slash(alice, "new", map="nordic")
    lobby = table.public_messages()[-1]
    game = lobby_game(lobby)
    await table.click(bob, lobby, f"ttr:lobby:{game}:join")
    await table.settle()
    assert "bob" in fake.messages_in(table.channel)[0].content        # the lobby was updated
    msg = await table.click(bob, lobby, f"ttr:lobby:{game}:start")
    assert msg.content == t("service.host_only")
    msg = await table.slash(bob, "cancel")
    assert msg.content == t("service.cancel_denied")
    await table.click(bob, lobby, f"ttr:lobby:{game}:leave")
    msg = await table.click(alice, lobby, f"ttr:lobby:{game}:start")
    assert msg.content == t("service.player_count", min=2, max=3)
    await table.slash(alice, "cancel")
    await table.settle()
    lobby_now = fake.messages_in(table.channel)[0]
    assert lobby_now.custom_ids() == [] and t("bot.lobby.cancelled") in lobby_now.content
    assert table.public_messages()[-1].content == t("bot.cancelled")
    # the old lobby buttons are gone; /ttr join now finds no game here
    msg = await table.slash(bob, "join")
    assert msg.content == t("service.no_game")
    fake.assert_clean()
    await fake.stop_bot(table.bot)
