"""A cup over the fake Discord (cogs/cups.py, cup_posts.py): created by a member with Manage
Server (refused to one without), signed up for by the Join button, its post edited in place with
each sign-up, a round's table opened in a thread of its own with its players pinged there, the
stalled game settled at the round's deadline, and the final post with the standings as text and
a picture with alt text, the winner pinged."""
import asyncio

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio
MANAGE_GUILD = 1 << 5


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def test_a_cup_from_sign_up_to_its_final_post(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    board_channel = fake.add_text_channel(table.guild, "board")
    await table.start_bot(sync=True)
    admins = fake.add_role(table.guild, "admins", permissions=MANAGE_GUILD)
    boss = fake.add_user("boss", guild=table.guild, roles=[admins])
    ann = fake.add_user("ann", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    await table.slash(boss, "server board", channel=board_channel)
    refused = await table.slash(ann, "server cup_create", name="Spring cup", map="nordic")
    assert refused.content == t("bot.cup.admin_only", "en")
    made = await table.slash(boss, "server cup_create", name="Spring cup", map="nordic",
                             seats=2, rounds=1, deadline=12, signup_hours=1, round_hours=12)
    assert "Spring cup" in made.content
    await table.settle()
    post = table.public_messages()[-1]
    join = find_cid(post, "ttr:cup:")
    cup_id = int(join.split(":")[2])
    assert join == f"ttr:cup:{cup_id}:join" and f"ttr:cup:{cup_id}:leave" in post.custom_ids()
    for user in (ann, bob):
        joined = await table.click(user, post, f"ttr:cup:{cup_id}:join")
        assert joined.content == t("bot.cup.joined", "en", name="Spring cup")
    again = await table.click(ann, post, f"ttr:cup:{cup_id}:join")
    assert again.content == t("service.cup_joined", "en")
    await table.settle()
    assert [m.id for m in table.public_messages()] == [post.id]       # edited, not reposted
    assert "ann" in post.content and "bob" in post.content and post.history
    # the live board lists the cup in sign-up: its channel, when sign-up closes, who is in
    # (looked at every 5 minutes while nothing was open, then every minute)
    table.clock.advance(301)
    await table.settle()
    cup = await table.bot.service.cups.get(cup_id)
    (board,) = fake.messages_in(board_channel)
    where = f"<#{table.channel.id}>"
    assert "• " + t("bot.live.cup_signup", "en", name="Spring cup", channel=where, players=2,
                    deadline=f"<t:{int(cup.settings.signup_close)}:R>") in board.content
    # sign-up closes: round 1, one table in a thread of its own, its players pinged there;
    # the first try's opening of the game times out after Discord made the thread: the retry
    # opens the game in that thread, it makes no second one
    cups = table.bot.service.cups
    real_open, failed = cups.open_table, []

    async def open_once_lost(*args):
        if not failed:
            failed.append(args)
            raise asyncio.TimeoutError
        return await real_open(*args)
    cups.open_table = open_once_lost
    table.clock.advance(3600)
    await table.settle()
    for _ in range(5):
        table.clock.advance(10)
        await table.settle()
    assert failed
    threads = [c for c in fake.state.channels.values()
               if getattr(c, "parent_id", None) == table.channel.id]
    assert len(threads) == 1
    first = fake.messages_in(threads[0])[0]
    assert f"<@{ann.id}>" in first.content and f"<@{bob.id}>" in first.content
    assert not post.custom_ids()                                    # sign-up over: no buttons
    game = await table.bot.service.game_in_channel(threads[0].id)
    assert game is not None and game.options["cup"] == cup_id
    # and now its round, when the round ends and the top of the standings
    table.clock.advance(61)
    await table.settle()
    cup = await table.bot.service.cups.get(cup_id)
    board = fake.messages_in(board_channel)[0].content
    assert "• " + t("bot.live.cup_round", "en", name="Spring cup", channel=where, round=1,
                    rounds=1, deadline=f"<t:{int(cup.rounds[-1]['ends_at'])}:R>") in board
    top = " · ".join(t("bot.live.cup_top", "en", rank=i, name=line.name, points=line.points)
                     for i, line in enumerate(cup.standings[:3], 1))
    assert {"ann", "bob"} <= {line.name for line in cup.standings} and "  " + top in board
    # nobody moves: the round's deadline settles the game as it stands, and the cup ends
    for _ in range(13):
        table.clock.advance(3600)
        await table.settle()
    final = table.public_messages()[-1]
    assert final.id != post.id and "Spring cup" in final.content
    assert final.attachments and final.attachments[0].description.startswith(
        t("render.cup.alt", "en", name="Spring cup"))
    cup = await table.bot.service.cups.get(cup_id)
    assert cup.status == "finished"
    winner = cup.standings[0].id
    assert f"<@{winner}>" in final.content and winner in final.mentions
    await fake.stop_bot(table.bot)


async def test_a_role_the_server_names_organises_cups(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    admins = fake.add_role(table.guild, "admins", permissions=MANAGE_GUILD)
    hosts = fake.add_role(table.guild, "cup hosts")
    await table.start_bot(sync=True)
    boss = fake.add_user("boss", guild=table.guild, roles=[admins])
    cara = fake.add_user("cara", guild=table.guild, roles=[hosts])
    dan = fake.add_user("dan", guild=table.guild)
    said = await table.slash(cara, "server cup_role")
    assert said.content == t("bot.cup.role_none", "en")
    refused = await table.slash(cara, "server cup_role", role=hosts)
    assert refused.content == t("bot.cup.role_admin", "en")
    assert (await table.slash(cara, "server cup_create", name="Role cup", map="usa")).content \
        == t("bot.cup.admin_only", "en")
    named = await table.slash(boss, "server cup_role", role=hosts)
    assert named.content == t("bot.cup.role_is", "en", role=f"<@&{hosts.id}>")
    # the role's member creates a cup with a variant and cancels it; a member without it may not
    made = await table.slash(cara, "server cup_create", name="Role cup", map="usa",
                             variant="mega", level="hard")
    assert "Role cup" in made.content
    (cup,) = await table.bot.service.cups.cups_of(table.guild.id)
    assert (cup.settings.variant, cup.settings.level) == ("mega", "hard")
    await table.settle()
    assert t("bot.variant.mega", "en") in table.public_messages()[-1].content
    refused = await table.slash(dan, "server cup_create", name="Dan's cup", map="usa")
    assert refused.content == t("bot.cup.organiser_only", "en", role=f"<@&{hosts.id}>")
    refused = await table.slash(dan, "server cup_cancel", cup=cup.id)
    assert refused.content == t("service.cup_organiser", "en")
    done = await table.slash(boss, "server cup_role", clear=True)
    assert done.content == t("bot.cup.role_none", "en")
    assert (await table.slash(cara, "server cup_create", name="Again", map="usa")).content \
        == t("bot.cup.admin_only", "en")
    made_by_boss = await table.slash(boss, "server cup_create", name="Boss cup", map="usa")
    assert "Boss cup" in made_by_boss.content
    assert (await table.slash(boss, "server cup_cancel", cup=cup.id)).content == \
        t("bot.cup.cancelled_now", "en", name="Role cup")
    await fake.stop_bot(table.bot)
