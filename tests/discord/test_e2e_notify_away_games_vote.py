"""The new commands end to end over the fake Discord: /ttr notify (and its clear answers to bad
input), /ttr away, /ttr games, /ttr vote with its buttons, /ttr return with nothing to take
back."""
import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


async def test_notify_settings_and_bad_input(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    msg = await table.slash(alice, "me notify", timezone="Mars/Olympus")
    assert msg.content == t("bot.notify.bad_zone")
    msg = await table.slash(alice, "me notify", quiet="late")
    assert msg.content == t("bot.notify.bad_quiet")
    msg = await table.slash(alice, "me notify", quiet="22:00-08:00")
    assert msg.content == t("bot.notify.need_zone")
    assert await table.bot.service.queue.notify_settings(alice.id) == {}      # nothing changed
    handle = await fake.autocomplete(alice, table.channel, "ttr", "me notify",
                                     {"timezone": "bangk"}, focused="timezone")
    assert [c["value"] for c in (await handle.response()).choices] == ["Asia/Bangkok"]
    msg = await table.slash(alice, "me notify", how="dm", timezone="asia/bangkok",
                            quiet="22:00-08:00")
    assert t("bot.notify.how_dm") in msg.content and "Asia/Bangkok" in msg.content
    assert await table.bot.service.queue.notify_settings(alice.id) == {
        "how": "dm", "tz": "Asia/Bangkok", "quiet": [1320, 480]}
    msg = await table.slash(alice, "me notify", quiet="off")
    assert msg.content.endswith(t("bot.notify.no_quiet"))
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_games_away_vote_and_return(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob, carol = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob", "carol"))
    msg = await table.slash(alice, "games")
    assert msg.content == t("bot.games.none")
    game_id = await open_game(table, alice, [bob, carol], map_id="usa", bots=0)
    for user in (alice, bob, carol):
        await table.slash(user, "keep", tickets="1,2")
    await table.settle()
    msg = await table.slash(alice, "games")
    assert f"<#{table.channel.id}>" in msg.content and "USA" in msg.content
    assert ("your turn" in msg.content) == ((await table.game()).game.current == 0)
    assert t("bot.games.deadline", when="").split("{")[0].strip() in msg.content
    msg = await table.slash(bob, "me away", days=2)
    assert msg.content.startswith(t("bot.away.done", until="").split("{")[0][:20])
    await table.settle()
    assert any("bob is away until" in m.text() for m in table.public_messages())
    msg = await table.slash(bob, "me away", days=0)
    assert msg.content == t("bot.away.ended")
    msg = await table.slash(alice, "return")
    assert msg.content == t("service.return_nothing")
    msg = await table.slash(alice, "vote", kind="replace")
    assert msg.content == t("bot.vote.need_player")
    msg = await table.slash(alice, "vote", kind="replace", player=carol)
    assert msg.content == t("service.vote_not_absent", name="carol", count=3)   # carol is here
    msg = await table.slash(alice, "vote", kind="cancel")
    assert msg.content == t("bot.vote.started")
    await table.settle()
    vote_post = next(m for m in reversed(table.public_messages()) if find_cid(m, "ttr:vote:"))
    assert f"<@{bob.id}>" in vote_post.content and f"<@{carol.id}>" in vote_post.content
    dave = fake.add_user("dave", guild=table.guild)
    no = await table.click(dave, vote_post, find_cid(vote_post, "ttr:vote:").rsplit(":", 1)[0]
                           + ":yes")
    assert no.content == t("service.vote_not_voter")
    yes = await table.click(bob, vote_post, find_cid(vote_post, "ttr:vote:").rsplit(":", 1)[0]
                            + ":yes")
    assert yes.content.startswith("✅")
    await table.settle()
    assert (await table.bot.service.load(game_id)).status == "cancelled"
    vote_post = fake.state.messages[vote_post.id]
    assert vote_post.custom_ids() == []                 # its buttons are gone
    assert any(m.content.startswith("✅") for m in table.public_messages())
    assert any("There is a vote" in m.content for m in fake.dms_to(bob))
    fake.assert_clean()
    await fake.stop_bot(table.bot)
