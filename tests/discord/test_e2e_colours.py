"""End to end through the fake Discord: the colour-blind palette. `/ttr me colours` is a
player's own setting, kept by the store, for the pictures only they see (their private board
in /ttr hand); `/ttr new colours:` is the game's, for the pictures everyone in the channel
sees (the start post's board, the turn posts, /ttr status); neither leaks into the other."""
import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import lobby_game
from ttr_bot.i18n import t
from ttr_bot.render import render_board, render_map

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def _open(table, host, others, **options):
    await table.slash(host, "new", map="usa", **options)
    lobby = table.public_messages()[-1]
    game = lobby_game(lobby)
    for user in others:
        await table.click(user, lobby, f"ttr:lobby:{game}:join")
    return game, table.public_messages()[-1]


async def _play_until_a_claim(table, game_id):
    """Through the service: both players keep their tickets, then draw blind until the player
    to move can claim a route, and claim it."""
    from ttr_bot.engine import ClaimRoute, DrawCard, KeepTickets
    service = table.bot.service
    while True:
        hosted = await table.game()
        game = hosted.game
        seat = game.to_move()[0]
        user = hosted.seats[seat].user_id
        actions = game.legal_actions(seat)
        pick = (next((a for a in actions if isinstance(a, KeepTickets)), None)
                or next((a for a in actions if isinstance(a, ClaimRoute)), None)
                or next(a for a in actions if isinstance(a, DrawCard) and a.card == -1))
        await service.moves.act(game_id, user, pick, hosted.seq)
        if isinstance(pick, ClaimRoute):
            break
    await table.settle()


async def test_a_colour_blind_game_draws_its_public_pictures_in_that_palette(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    game_id, _ = await _open(table, alice, [bob], colours="colourblind")
    lobby = next(m for m in table.public_messages() if "ttr:lobby:" in str(m.components))
    assert t("bot.settings.palette_colourblind") in lobby.content      # the lobby says so
    await table.slash(alice, "start")
    await table.settle()
    start = next(m for m in table.public_messages() if "map.png" in m.files)
    hosted = await table.bot.service.moves.state_at(game_id, 0)
    cb = render_map(hosted.game, hosted.names(), locale="en", palette="colourblind")
    assert start.files["map.png"] == cb
    # once a route is claimed the owner's colour is the colour-blind palette's, not the standard
    await _play_until_a_claim(table, game_id)
    card = [m for m in table.public_messages() if "map.png" in m.files][-1]
    now = await table.game()
    cb = render_map(now.game, now.names(), locale="en", palette="colourblind")
    assert card.files["map.png"] == cb
    assert cb != render_map(now.game, now.names(), locale="en")
    # a player's own board stays in their own (standard) colours
    hand = await table.slash(bob, "hand")
    now = await table.game()
    seat = now.seat_of(bob.id)
    assert hand.files["board.png"] == render_board(now.game, now.names(), seat, "en")


async def test_a_players_own_colours_are_kept_and_used_for_their_board_only(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    shown = await table.slash(alice, "me colours")
    assert shown.content == t("bot.palette.now", palette=t("bot.palette.standard"))
    done = await table.slash(alice, "me colours", palette="colourblind")
    assert done.content == t("bot.palette.done", palette=t("bot.palette.colourblind"))
    assert await table.bot.service.adapter_state.user_palette(alice.id) == "colourblind"   # in the store
    game_id, _ = await _open(table, alice, [bob])
    await table.restart_bot()                  # kept across a restart
    shown = await table.slash(alice, "me colours")
    assert shown.content == t("bot.palette.now", palette=t("bot.palette.colourblind"))

    await table.slash(alice, "start")
    await table.settle()
    hosted = await table.game()
    # the public board is the game's (standard): one player's setting changes nobody else's view
    start = next(m for m in table.public_messages() if "map.png" in m.files)
    first = await table.bot.service.moves.state_at(game_id, 0)
    assert start.files["map.png"] == render_map(first.game, first.names(), locale="en")
    mine = await table.slash(alice, "hand")
    seat = hosted.seat_of(alice.id)
    want = render_board(hosted.game, hosted.names(), seat, "en", palette="colourblind")
    assert mine.files["board.png"] == want
    assert want != render_board(hosted.game, hosted.names(), seat, "en")
    theirs = await table.slash(bob, "hand")
    other = hosted.seat_of(bob.id)
    assert theirs.files["board.png"] == render_board(hosted.game, hosted.names(), other, "en")

    # back to the standard colours
    await table.slash(alice, "me colours", palette="standard")
    assert await table.bot.service.adapter_state.user_palette(alice.id) == "standard"


async def test_drawing_tickets_answers_with_the_offer_on_the_private_board(fake, tmp_path):
    """The answer to "Tickets" carries the player's private board with the offer on it (in
    their own colours), numbered as the menu under it."""
    from testkit.e2e_driver import find_cid
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    await table.slash(alice, "me colours", palette="colourblind")
    await _open(table, alice, [bob])
    await table.slash(alice, "start")
    await table.settle()
    for user in (alice, bob):                      # the starting choice: keep everything
        hosted = await table.game()
        seat = hosted.seat_of(user.id)
        count = len(hosted.game.offers[seat])
        await table.slash(user, "keep", tickets=",".join(str(i + 1) for i in range(count)))
    await table.settle()
    hosted = await table.game()
    mover = hosted.seats[hosted.game.current]
    user = alice if mover.user_id == alice.id else bob
    turn = next(m for m in reversed(table.public_messages()) if find_cid(m, "ttr:tickets:"))
    asked = await table.click(user, turn, find_cid(turn, "ttr:tickets:"))
    answer = await table.click(user, asked, find_cid(asked, "ttr:tickets:"))   # "Draw tickets"
    now = await table.game()
    seat = now.seat_of(user.id)
    assert now.game.offers[seat]
    palette = "colourblind" if user is alice else "standard"
    assert answer.files["board.png"] == render_board(now.game, now.names(), seat, "en",
                                                     palette=palette)
    # its alt text names the offer as lettered in the menu
    alt = answer.attachments[0].description
    for tag, tid in zip("ABCDE", now.game.offers[seat]):
        assert f"{tag}. {now.board.tickets[tid].label()}" in alt
