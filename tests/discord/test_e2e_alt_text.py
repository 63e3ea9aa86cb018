"""Alt text end to end (issue 20): every picture the bot sends in a whole game (the start map,
the turn cards' close-ups and maps, /ttr status, the private board of the hand DM, "My hand" and
the ticket offer, the final picture, the film, the stats picture, /ttr server replay) carries a
description, in the reader's language: the game's for what is posted publicly, the reader's
own for what only they see; and a public one tells nothing hidden (no ticket, no card drawn
blind). Read from every upload the fake Discord received (edits of the hand message too), not
only from the messages as they ended up."""
import re

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import PRIVATE_WORDS, lobby_game, play_to_end
from ttr_bot.discord.text.format import ticket_text
from ttr_bot.engine.cards import CARD_NAMES
from ttr_bot.i18n import LOCALES, catalog, t

pytestmark = pytest.mark.asyncio
# what each picture's alt text says first, by its file name (board.png: a private board, or
# the public map of /ttr status)
KEYS = {"map.png": ("bot.alt.board",), "closeup.png": ("bot.alt.closeup",),
        "final.png": ("bot.alt.final",), "film.gif": ("bot.alt.film",),
        "board.png": ("bot.alt.private", "bot.alt.board"), "stats.png": ("bot.stats.scores",)}
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def words(key, loc):
    """The longest stretch of a catalog sentence with no placeholder in it: what the
    sentence reads as in that language whatever fills it."""
    text = catalog(loc)[key].translate(ISOLATES)
    pieces = (re.sub(r"^[\s.,:;。、]+|[\s.,:;。、]+$", "", p) for p in re.split(r"\{[^}]*\}", text))
    return max(pieces, key=len)


def language_of(description, filename):
    """The languages whose words for this picture's alt text the description holds."""
    return {loc for loc in LOCALES for key in KEYS[filename] if words(key, loc) in description}


def uploads(fake):
    """(request, filename, description) of every file the bot uploaded."""
    for r in fake.requests:
        if not r.files:
            continue
        body = r.json or {}
        body = body.get("data", body)       # an interaction callback's message is its data
        described = {a.get("filename"): a.get("description") for a in body.get("attachments", [])}
        for item in _walk(body.get("components", [])):     # a V2 card: its gallery's items
            for media in item.get("items", []) if item.get("type") == 12 else ():
                name = media["media"]["url"].removeprefix("attachment://")
                described[name] = described.get(name) or media.get("description")
        for f in r.files:
            yield r, f.filename, described.get(f.filename)


def _walk(items):
    for c in items or []:
        yield c
        yield from _walk(c.get("components"))


def reader(fake, request, public_channels):
    """None for a public post, else the user who alone sees it."""
    parts = request.path.split("/")
    if "/interactions/" in request.path:
        return fake.interactions[int(parts[4])].user
    if "/webhooks/" in request.path:
        return next(h.user for h in fake.interactions.values() if h.token == parts[5])
    channel = fake.state.channels[int(parts[4])]
    if channel.id in public_channels:
        return None
    return fake.state.users[channel.recipient_id]


async def test_every_picture_of_a_whole_game_is_described_in_its_readers_language(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)                  # /ttr me language: Thai
    bob = fake.add_user("bob", guild=table.guild, locale="fa")         # a Persian client
    await table.slash(alice, "me language", language="th")
    await table.slash(alice, "new", map="switzerland", language="ja")  # a Japanese game
    lobby = table.public_messages()[-1]
    game_id = lobby_game(lobby)
    await table.click(bob, lobby, f"ttr:lobby:{game_id}:join")
    await table.select(alice, lobby, find_cid(lobby, "ttr:addbot:"), ["easy"])
    await table.slash(alice, "start")
    await table.settle()
    players = [Player(table, alice, seed=1), Player(table, bob, seed=2)]
    while not ((loaded := await table.game()).game.phase == "play" and loaded.game.turn >= 6):
        human = [s for s in loaded.game.to_move() if loaded.seats[s].user_id]
        await next(p for p in players
                   if p.user.id == loaded.seats[human[0]].user_id).move()
        await table.wait_for_humans()
    await table.slash(alice, "status")
    await table.slash(bob, "hand")
    await table.click(alice, table.last_panel(), find_cid(table.last_panel(), "ttr:hand:"))
    final = await play_to_end(table, players)
    assert final.game.over
    await table.slash(alice, "server stats")
    await table.slash(bob, "server replay")
    await table.settle()

    language = {alice.id: "th", bob.id: "fa"}
    public = {table.channel.id}
    tickets = [ticket_text(tk) for tk in final.board.tickets]
    seen = {}
    for request, filename, description in uploads(fake):
        who = reader(fake, request, public)
        assert description, (request.method, request.path, filename)
        assert len(description) <= 1024
        expected = "ja" if who is None else language[who.id]
        assert language_of(description, filename) == {expected}, (filename, expected, description)
        if who is None:         # public: nothing hidden, before the end or after it
            assert not [tk for tk in tickets if tk in description], description
            assert not [w for w in PRIVATE_WORDS if w in description], description
            blind = words("bot.ev.draw_deck", "ja")       # a card from the deck, unnamed
            colours = [t(f"bot.card.{c}", "ja") for c in CARD_NAMES]
            assert not [line for line in description.splitlines()
                        if blind in line and any(c in line for c in colours)], description
        seen.setdefault((filename, "public" if who is None else "private"), 0)
        seen[filename, "public" if who is None else "private"] += 1
    # every kind of picture was seen: the start map and the cards, status, the hand DM and its
    # edits, My hand and the ticket offer, the final picture and film, stats and the replay
    assert {("map.png", "public"), ("closeup.png", "public"), ("final.png", "public"),
            ("film.gif", "public"), ("board.png", "private"), ("stats.png", "private"),
            ("film.gif", "private")} <= set(seen), seen
    assert seen["board.png", "private"] >= 10, seen
    # the film's alt text tells how the game ended
    players_, winners = final.game.scores()
    film = next(d for r, f, d in uploads(fake) if f == "film.gif" and reader(fake, r, public)
                is None)
    assert all(final.names()[w] in film for w in winners)
    assert all(f"{p['total']}" in film for p in players_)
    fake.assert_clean()
    await fake.stop_bot(table.bot)
