"""End to end through the fake Discord on a ManualClock: a server's seasons and its live board.

Seasons: the time zone and the period set by a member with Manage Server (refused to others),
a game finishing half a minute before the boundary and one finishing after it, each counted in
its own season; the season's end posted once in the chosen channel with the podium picture
(alt text), a line per player and the champion's role given; /ttr server season as text and a
picture, this season's and the last one's.

The live board: set up by /ttr server board, it lists a lobby with a Join button that seats a
member; during a busy run (two games, a move every ten seconds) it is edited at most once
a minute and not at all while nothing changes; a deleted board message is posted again; a lost
permission is reported to the member who set it up once; a deleted channel turns it off.

The games here are moved through the service (the board is about what they show, not how the
moves come; the moves' own path is the other end-to-end tests'), by a quick policy: claim the
longest route it can, else take cards."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.state import P
from ttr_bot.engine.actions import ClaimRoute, DrawCard, KeepTickets
from ttr_bot.i18n import t
from ttr_bot.service.board import BOARD_INTERVAL
from ttr_bot.service.clock import ManualClock

pytestmark = pytest.mark.asyncio
BANGKOK = ZoneInfo("Asia/Bangkok")


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def quick_action(game, seat):
    legal = game.legal_actions(seat)
    for kind in (KeepTickets, ClaimRoute, DrawCard):
        mine = [a for a in legal if isinstance(a, kind)]
        if mine:
            if kind is ClaimRoute:
                return max(mine, key=lambda a: game.board.routes[a.route].length)
            return mine[0]
    return legal[0]


async def move(service, game_id):
    """One move of a human to move (computers move on their timers)."""
    hosted = await service.load(game_id)
    seat = next(s for s in hosted.game.to_move() if hosted.seats[s].user_id)
    await service.moves.act(game_id, hosted.seats[seat].user_id, quick_action(hosted.game, seat),
                            hosted.seq)
    return await service.load(game_id)


async def open_started(table, channel, users):
    service = table.bot.service
    hosted = await service.lobby.open_lobby(guild_id=table.guild.id, channel_id=channel.id,
                                            user_id=users[0].id, name=users[0].username,
                                            map_id="usa", variant="base")
    for u in users[1:]:
        await service.lobby.join(channel.id, u.id, u.username)
    await service.lobby.start(channel.id, users[0].id)
    return hosted.id


async def finish(table, game_id):
    while not (hosted := await move(table.bot.service, game_id)).game.over:
        pass
    return hosted


def admin_of(fake, guild, name="ada"):
    mods = fake.add_role(guild, "mods", P["manage_guild"])
    return fake.add_user(name, guild=guild, roles=[mods])


async def test_a_season_boundary_between_two_games_and_its_end_post(fake, tmp_path):
    end = datetime(2026, 12, 1, tzinfo=BANGKOK).timestamp()      # November ends here
    table = Table(fake, db_file(tmp_path), clock=ManualClock(end - 2 * 86400))
    guild = table.guild
    above = fake.add_role(guild, "Legend")      # above the bot's role: it may not hand it out
    champion_role = fake.add_role(guild, "Champion")
    champion_role.position = 0                  # below the bot's role: it may hand it out
    bot_role = next(r for r in guild.roles.values() if r.managed)
    bot_role.permissions |= P["manage_roles"]
    admin = admin_of(fake, guild)
    alice, bob, carol, dave = (fake.add_user(n, guild=guild) for n in ("alice", "bob", "carol",
                                                                       "dave"))
    hall = fake.add_text_channel(guild, "hall-of-fame")
    await table.start_bot(sync=True)

    # bad input: a clear answer, nothing changed
    off = await table.slash(alice, "server season")
    assert off.content == t("service.season.off")
    refused = await table.slash(alice, "server timezone", zone="Asia/Bangkok")
    assert refused.content == t("bot.season.admin")
    nowhere = await table.slash(admin, "server timezone", zone="Mars/Olympus")
    assert nowhere.content == t("service.season.bad_zone", zone="Mars/Olympus")
    assert (await table.slash(alice, "server timezone")).content == \
        t("bot.server.timezone_now", zone="UTC")
    answer = await table.slash(admin, "server timezone", zone="asia/bangkok")
    assert "Asia/Bangkok" in answer.content
    answer = await table.slash(admin, "server season_set", period="quarterly", role=above)
    assert t("bot.season.role_cannot", role=f"<@&{above.id}>") in answer.content
    answer = await table.slash(admin, "server season_set", period="monthly", channel=hall,
                               role=champion_role)
    assert "Asia/Bangkok" in answer.content and f"<#{hall.id}>" in answer.content
    assert t("bot.season.role_cannot", role="").split(":")[0] not in answer.content

    # the games' own posts are not this test's business: their channels refuse them (blocked,
    # retried later), which spares drawing a card per move
    one = fake.add_text_channel(guild, "one", bot_can_send=False)
    two = fake.add_text_channel(guild, "two", bot_can_send=False)
    first = await open_started(table, one, [alice, bob])
    second = await open_started(table, two, [carol, dave])
    table.clock.set(end - 30)
    before = await finish(table, first)          # half a minute before the boundary
    await table.settle()
    assert not [m for m in fake.messages_in(hall)]
    table.clock.set(end + 30)
    await finish(table, second)                  # half a minute after it
    await table.settle()

    posts = fake.messages_in(hall)
    assert len(posts) == 1
    post = posts[0]
    _, winners = before.game.scores()
    november = await table.bot.service.seasons.standings(guild.id, previous=True)
    champion = november.lines[0].user_id
    assert champion == before.seats[winners[0]].user_id       # the one who won the one game
    assert t("bot.season.ended", season=t("bot.season.title_month", year=2026, month="11"),
             champion=f"<@{champion}>") in post.content
    assert {x.user_id for x in november.lines} == {alice.id, bob.id}     # not carol, not dave
    assert "carol" not in post.content and "dave" not in post.content
    assert set(post.files) == {"season.png"} and post.attachments[0].description
    assert champion_role.id in guild.members[champion].roles
    assert t("bot.season.role_given", role=f"<@&{champion_role.id}>",
             champion=f"<@{champion}>") in post.content

    now = await table.slash(bob, "server season")
    assert "carol" in now.content and "alice" not in now.content
    assert "season.png" in now.files
    last = await table.slash(bob, "server season", previous=True)
    assert "alice" in last.content and "carol" not in last.content
    table.clock.advance(86400)
    await table.settle()
    assert len(fake.messages_in(hall)) == 1                          # posted once


def board_edits(fake, channel):
    return [r for r in fake.requests if r.method == "PATCH" and
            r.path.startswith(f"/api/v10/channels/{channel.id}/messages/")]


async def test_the_live_board_coalesces_edits_comes_back_and_reports_once(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    guild = table.guild
    admin = admin_of(fake, guild)
    alice, bob, carol, dave = (fake.add_user(n, guild=guild) for n in ("alice", "bob", "carol",
                                                                       "dave"))
    board_channel = fake.add_text_channel(guild, "board")
    closed = fake.add_text_channel(guild, "closed", bot_can_send=False)
    await table.start_bot(sync=True)
    assert (await table.slash(alice, "server board")).content == t("bot.live.nowhere")
    refused = await table.slash(alice, "server board", channel=board_channel)
    assert refused.content == t("bot.live.admin")
    told = await table.slash(admin, "server board", channel=closed)
    assert t("bot.live.cannot_post", channel=f"<#{closed.id}>",
             missing=t("bot.perm.send_messages")) in told.content
    await table.settle()                # its post refused: the answer said so, no DM repeats it
    assert not [m for m in fake.dms_to(admin) if "/ttr server board" in m.content]
    told = await table.slash(admin, "server board", channel=board_channel)
    assert told.content == t("bot.live.set", channel=f"<#{board_channel.id}>")
    await table.settle()
    (board,) = fake.messages_in(board_channel)
    assert t("bot.live.no_games") in board.content

    # a lobby shows up with its Join button, which seats a member from the board
    await table.slash(alice, "new", map="usa", thread=False)
    table.clock.advance(BOARD_INTERVAL * 5)
    await table.settle()
    board = fake.messages_in(board_channel)[0]
    game_id = (await table.bot.service.game_in_channel(table.channel.id)).id
    cid = find_cid(board, "ttr:bjoin:")
    assert cid == f"ttr:bjoin:{game_id}"
    await table.restart_bot()                   # the button works after a restart
    joined = await table.click(bob, board, cid)
    assert joined.content == t("bot.live.joined", channel=f"<#{table.channel.id}>")
    await table.slash(alice, "start")
    stale = fake.messages_in(board_channel)[0]      # not edited yet: the Join is still there
    assert (await table.click(carol, stale, cid)).content == t("bot.live.lobby_gone")
    other = fake.add_text_channel(guild, "other", bot_can_send=False)    # its posts wait
    second = await open_started(table, other, [carol, dave])
    table.clock.advance(BOARD_INTERVAL)
    await table.settle()

    # busy: a move every ten seconds, in one game or the other, for six minutes
    edits = len(board_edits(fake, board_channel))
    minutes = 6
    for i in range(minutes * 6):
        await move(table.bot.service, second if i % 3 else game_id)
        table.clock.advance(10)
        await table.settle()
    made = len(board_edits(fake, board_channel)) - edits
    assert minutes - 1 <= made <= minutes + 1
    assert len(fake.messages_in(board_channel)) == 1
    # nothing changes: nothing is edited
    edits = len(board_edits(fake, board_channel))
    table.clock.advance(BOARD_INTERVAL * 10)
    await table.settle()
    assert len(board_edits(fake, board_channel)) == edits

    # deleted: posted again at the next change
    await table.bot.http.delete_message(board_channel.id, board.id)
    await move(table.bot.service, game_id)
    table.clock.advance(BOARD_INTERVAL)
    await table.settle()
    (again,) = fake.messages_in(board_channel)
    assert again.id != board.id and t("bot.live.games") in again.content
    assert (await table.bot.service.board.board(guild.id)).message_id == again.id

    # the permission lost: the member who set it up is told once
    await fake.set_bot_can_view(board_channel, False)
    for _ in range(4):
        await move(table.bot.service, game_id)
        table.clock.advance(BOARD_INTERVAL * 3)
        await table.settle()
    told = [m for m in fake.dms_to(admin) if "/ttr server board" in m.content]
    assert len(told) == 1 and f"<#{board_channel.id}>" in told[0].content

    # the channel deleted: the board is turned off
    await fake.delete_channel(board_channel)
    await move(table.bot.service, game_id)
    table.clock.advance(3600)
    await table.settle()
    assert await table.bot.service.board.board(guild.id) is None
