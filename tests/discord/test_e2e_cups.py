"""A cup over the fake Discord (cogs/cups.py, cup_posts.py): created by a member with Manage
Server (refused to one without), signed up for by the Join button, its post edited in place with
each sign-up, a round's table opened in a thread of its own with its players pinged there, the
stalled game settled at the round's deadline, and the final post with the standings as text and
a picture with alt text, the winner pinged."""
import pytest
import pytest_asyncio

from tests.discord.e2e_driver import Table, db_file, find_cid
from tests.fakediscord import FakeDiscord
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio
MANAGE_GUILD = 1 << 5


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def test_a_cup_from_sign_up_to_its_final_post(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    admins = fake.add_role(table.guild, "admins", permissions=MANAGE_GUILD)
    boss = fake.add_user("boss", guild=table.guild, roles=[admins])
    ann = fake.add_user("ann", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
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
    # sign-up closes: round 1, one table in a thread of its own, its players pinged there
    table.clock.advance(3600)
    await table.settle()
    threads = [c for c in fake.state.channels.values()
               if getattr(c, "parent_id", None) == table.channel.id]
    assert len(threads) == 1
    first = fake.messages_in(threads[0])[0]
    assert f"<@{ann.id}>" in first.content and f"<@{bob.id}>" in first.content
    assert not post.custom_ids()                                    # sign-up over: no buttons
    game = await table.bot.service.game_in_channel(threads[0].id)
    assert game is not None and game.options["cup"] == cup_id
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
