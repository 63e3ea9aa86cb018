"""End to end through the fake Discord: a game's own language. /ttr new language: puts a game's
public posts and public board in that language whatever the server's Discord locale (Discord
has no Persian one); /ttr server language sets the server's default for new games (Manage Server
only); without either, the server's Discord locale applies when the bot speaks it."""
import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import P
from tests.discord.test_e2e import lobby_game
from ttr_bot.discord.text.card_text import mark
from ttr_bot.discord.text.format import map_title
from ttr_bot.i18n import t
from ttr_bot.render import render_map

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def _open(table, host, others, **options):
    await table.settle()            # what an earlier command owes is posted first (a cancel's)
    await table.slash(host, "new", map="usa", **options)
    await table.settle()
    lobby = next(m for m in reversed(table.public_messages()) if find_cid(m, "ttr:lobby:"))
    game = lobby_game(lobby)
    for user in others:
        await table.click(user, lobby, f"ttr:lobby:{game}:join")
    return game, lobby


async def test_a_persian_game_posts_and_draws_in_persian(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id, lobby = await _open(table, alice, [bob], language="fa")
    assert t("bot.btn.join", "fa") in str(lobby.components)      # the lobby's buttons
    assert t("bot.settings.language", "fa", language=t("bot.lang.fa", "fa")) in lobby.content
    await table.slash(alice, "start")
    await table.settle()

    start = next(m for m in table.public_messages() if "map.png" in m.files)
    hosted = await table.bot.service.moves.state_at(game_id, 0)
    assert start.content.startswith(t("bot.start.title", "fa",
                                      map=map_title(hosted.board, "fa")))
    assert t("bot.start.choose", "fa") in start.content
    # the public board is the Persian one, not the server's English one
    persian = render_map(hosted.game, hosted.names(), None, "fa")
    assert start.files["map.png"] == persian
    assert persian != render_map(hosted.game, hosted.names(), None, "en")

    # the turn posts too: play the ticket choices and one move, then read the turn post
    players = [Player(table, alice, seed=1), Player(table, bob, seed=2)]
    for _ in range(3):
        loaded = await table.wait_for_humans()
        seat = loaded.game.to_move()[0]
        await next(p for p in players if p.user.id == loaded.seats[seat].user_id).move()
    turn = table.public_messages()[-1]
    loaded = await table.game()
    mover = loaded.seats[loaded.game.current].user_id
    assert t("bot.turn.ping", "fa", mention=f"<@{mover}>").rstrip(".") in turn.body()
    # the card's words too: a standings line for each player
    points = t("bot.unit.points", "fa", count=5).replace("5", "").strip(" \u2068\u2069")
    for seat, name in enumerate(loaded.names()):
        assert any(mark(seat) in x and name in x and points in x
                   for x in turn.body().splitlines()), (points, turn.body())
    assert find_cid(turn, "ttr:draw:")
    # a player's own answers stay in their own language (English here)
    mine = await table.slash(alice, "status")
    assert t("bot.turn.ping", "fa", mention="") not in mine.content


async def test_the_server_language_is_the_default_and_needs_manage_server(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    admin_role = fake.add_role(table.guild, "mods", P["administrator"])
    mod = fake.add_user("mod", guild=table.guild, roles=[admin_role])
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)

    refused = await table.slash(alice, "server language", language="ja")
    assert refused.content == t("bot.server.language_admin")
    shown = await table.slash(alice, "server language")          # anyone may ask
    assert shown.content == t("bot.server.language_auto", language=t("bot.lang.en"))

    done = await table.slash(mod, "server language", language="ja")
    assert done.content == t("bot.server.language_set", language=t("bot.lang.ja"))
    game_id, lobby = await _open(table, alice, [bob])
    assert t("bot.btn.join", "ja") in str(lobby.components)
    hosted = await table.bot.service.load(game_id)
    assert hosted.options["language"] == "ja"
    await table.slash(alice, "cancel")
    await table.settle()

    # the host's choice beats the server's; "auto" gives the server's Discord locale back
    game_id, lobby = await _open(table, alice, [bob], language="th")
    assert (await table.bot.service.load(game_id)).options["language"] == "th"
    await table.slash(alice, "cancel")
    await table.settle()
    await table.slash(mod, "server language", language="auto")
    game_id, _ = await _open(table, alice, [bob])
    assert (await table.bot.service.load(game_id)).options["language"] == "en"


async def test_a_japanese_server_locale_is_followed_without_a_setting(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    table.guild.locale = "ja"
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id, lobby = await _open(table, alice, [bob])
    assert (await table.bot.service.load(game_id)).options["language"] == "ja"
    assert t("bot.btn.join", "ja") in str(lobby.components)
