"""Pictures end to end: `/ttr status` on the turn just posted sends the post's own picture
without drawing it again; a private board is drawn once per state; past a member's allowance
the commands still answer, without the picture, saying (in the member's language) when the
next one comes."""
import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e_refusals import wait_until
from ttr_bot.discord.posting.cooldown import PER, RATE
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


class Clock:
    def __init__(self, now=1_000.0):
        self.now = now

    def __call__(self):
        return self.now


def png_of(message):
    (png,) = [data for name, data in message.files.items() if name.endswith(".png")]
    return png


async def started(table, host, guest):
    await table.slash(host, "new", map="switzerland")
    lobby = table.public_messages()[-1]
    game = int(find_cid(lobby, "ttr:lobby:").split(":")[2])
    await table.click(guest, lobby, f"ttr:lobby:{game}:join")
    await table.slash(host, "start")
    await table.settle()

    async def delivered():      # a first picture that ran over its time is retried a second later
        return not await table.bot.service.core.store.pending_outbox(100)
    assert await wait_until(delivered, timeout=60.0)
    return game


async def test_an_unchanged_board_is_sent_again_without_drawing(fake, tmp_path):
    table = Table(fake, db_file(tmp_path), workers=1)
    await table.start_bot(sync=True)
    clock = Clock()
    table.bot.picture_cooldown.clock = clock
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    await started(table, alice, bob)
    pictures = table.bot.pictures
    posted = next(m for m in reversed(table.public_messages()) if m.files)
    drawn = pictures.stats["drawn"]

    board = await table.slash(bob, "status")
    assert png_of(board) == png_of(posted)            # the very picture of the post
    assert pictures.stats["drawn"] == drawn           # not drawn again

    # bob's private board was drawn once, for his hand DM: /ttr hand sends that picture
    dm = next(m for m in reversed(fake.messages_in(fake.dm_channel(bob))) if m.files)
    hand = await table.slash(bob, "hand")
    assert png_of(hand) == png_of(dm) and pictures.stats["drawn"] == drawn
    clock.now += PER + 1
    again = await table.slash(bob, "hand")
    assert png_of(again) == png_of(hand) and pictures.stats["drawn"] == drawn
    assert png_of(again) != png_of(board)

    # the state changes (bob keeps his tickets): his private board is drawn anew
    keep = find_cid(again, "ttr:keep:")
    menu = again.component(keep)
    await table.select(bob, again, keep, [o["value"] for o in menu["options"]][:menu["max_values"]])
    await table.settle()
    clock.now += PER + 1
    changed = await table.slash(bob, "hand")
    assert png_of(changed) != png_of(hand) and pictures.stats["drawn"] > drawn
    await table.settle()
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_past_the_allowance_the_answer_comes_without_the_picture(fake, tmp_path):
    table = Table(fake, db_file(tmp_path), workers=1)
    await table.start_bot(sync=True)
    clock = Clock()
    table.bot.picture_cooldown.clock = clock
    alice = fake.add_user("alice", guild=table.guild, locale="ja")
    bob = fake.add_user("bob", guild=table.guild)
    game = await started(table, alice, bob)
    for _ in range(RATE):
        assert png_of(await table.slash(alice, "status"))
    clock.now += 10
    refused = await table.slash(alice, "status")
    assert not refused.files
    wait = round(PER - 10)
    assert t("bot.picture.cooldown", "ja", seconds=wait) in refused.content   # in her language
    assert "alice" in refused.content                  # the status is still there
    # the "My hand" button shares the allowance, and still gives the hand and its menu
    start_post = next(m for m in table.public_messages() if find_cid(m, "ttr:hand:"))
    hand = await table.click(alice, start_post, f"ttr:hand:{game}")
    assert not hand.files and find_cid(hand, "ttr:keep:")
    assert t("bot.picture.cooldown", "ja", seconds=wait) in hand.content
    # another member is not held back by her
    assert png_of(await table.slash(bob, "status"))
    clock.now += PER
    assert png_of(await table.slash(alice, "hand"))   # a new period: pictures again
    await table.settle()
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_game_starts_even_when_its_pictures_cannot_be_prepared(fake, tmp_path):
    """Building a new game's picture layers is the workers' background chore: when it fails,
    the start post is still sent once and marked sent, and the game goes on."""
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)

    async def broken(*args, **kwargs):
        raise RuntimeError("no workers today")
    table.bot.pictures.warm = broken
    alice = fake.add_user("alice", guild=table.guild)
    bob = fake.add_user("bob", guild=table.guild)
    await started(table, alice, bob)
    starts = [m for m in table.public_messages() if "map.png" in m.files]
    assert len(starts) == 1
    owed = await table.bot.service.core.store.pending_outbox()
    assert [(r.kind, r.attempts) for r in owed] == [], owed     # sent, not retried
    assert (await table.game()).game.phase == "setup"
    await fake.stop_bot(table.bot)
