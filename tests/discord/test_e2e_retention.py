"""The outbox's housekeeping, end to end on a ManualClock (issue 23: tables that grow with time
stay bounded): rows sent or given up are deleted a week later, closed votes a month later,
on the worker's hourly schedule, even while a destination keeps a lane busy."""
import sqlite3

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game
from tests.discord.test_e2e_refusals import wait_until
from ttr_bot.discord.posting.outbox_worker import KEEP_SENT, KEEP_VOTES
from ttr_bot.i18n import t
from ttr_bot.service import Lane
from ttr_bot.service.clock import ManualClock
from ttr_bot.service.owed import notice_row
from ttr_bot.service.turns import DAY
from ttr_bot.store import OutboxItem, Owed

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def counts(path, game_ids):
    """(rows of these games sent, of them given up, votes closed), read past the bot."""
    marks = ",".join("?" * len(game_ids))
    with sqlite3.connect(path) as db:
        sent = db.execute(f"SELECT COUNT(*) FROM outbox WHERE game_id IN ({marks}) "
                          "AND sent_at IS NOT NULL", game_ids).fetchone()[0]
        given_up = db.execute(f"SELECT COUNT(*) FROM outbox WHERE game_id IN ({marks}) "
                              "AND error IS NOT NULL", game_ids).fetchone()[0]
        votes = db.execute("SELECT COUNT(*) FROM votes WHERE status != 'open'").fetchone()[0]
    return sent, given_up, votes


async def test_sent_and_given_up_rows_and_closed_votes_are_pruned_while_a_lane_is_busy(
        fake, tmp_path):
    path = db_file(tmp_path)
    table = Table(fake, path, clock=ManualClock())
    gone, busy = (fake.add_text_channel(table.guild, n) for n in ("gone", "busy"))
    await table.start_bot(sync=True)        # (the fake tells the bot of no channel made later)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    service = table.bot.service
    voted = await open_game(table, alice, [bob], map_id="usa", bots=0)
    vote = await service.votes.start_vote(voted, alice.id, "cancel")
    await service.votes.cast_vote(vote.id, bob.id, True)          # passes: the game is closed
    table.channel = gone
    deleted = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await fake.set_bot_can_send(gone, False)
    hosted = await service.load(deleted)
    await service.queue.owe([notice_row(hosted, "bot.return.done", name="x")], deleted)
    await table.settle()
    await fake.delete_channel(gone)                         # what it owed is given up
    await table.settle()
    sent, given_up, votes = counts(path, [voted, deleted])
    assert sent > 10 and given_up >= 1 and votes == 1
    assert (await service.load(voted)).status == (await service.load(deleted)).status == \
        "cancelled"

    table.channel = busy
    await table.slash(alice, "new", map="usa")
    await table.settle()
    lobby = await service.game_in_channel(busy.id)
    table.bot.outbox.send_timeout = 60.0    # the lane stays busy for the whole test
    async with fake.silent(busy):           # Discord stops answering that channel
        await service.queue.owe([notice_row(lobby, "bot.return.done", name="y")], lobby.id)

        async def lane_busy():
            return fake.held_quiet > 0 and Lane.channel(busy.id) in table.bot.outbox._busy
        assert await wait_until(lane_busy)
        table.clock.advance(max(KEEP_SENT, KEEP_VOTES) + DAY)

        async def pruned():
            return counts(path, [voted, deleted]) == (0, 0, 0)
        assert await wait_until(pruned, timeout=5.0), counts(path, [voted, deleted])
        assert await lane_busy()            # and it was busy all along
    await table.settle()
    # the lobby there was warned and closed meanwhile, on the bot's clock (its warning was
    # once owed at the wall clock's time: never, on a test's clock)
    warned = t("bot.lobby.closing_dm", channel=f"<#{busy.id}>")
    assert any(m.content == warned for m in fake.dms_to(alice))
    assert (await service.load(lobby.id)).status == "cancelled"
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_row_this_version_cannot_read_is_given_up_and_the_lane_goes_on(fake, tmp_path):
    """A row an earlier or later version wrote that this one cannot read (an unknown kind) is
    given up at once, with the reason kept on it and logged; the post owed after it in the same
    channel goes out."""
    path = db_file(tmp_path)
    table = Table(fake, path, clock=ManualClock())
    await table.start_bot(sync=True)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    service = table.bot.service
    game_id = await open_game(table, alice, [bob], map_id="usa", bots=0)
    await table.settle()
    hosted = await service.load(game_id)
    await service.core.store.write_owed(Owed((OutboxItem("telegram", f"c{table.channel.id}", {}),)),
                                        game_id, table.clock())
    await service.queue.owe([notice_row(hosted, "bot.return.done", name="after")], game_id)
    await table.settle()
    assert any(t("bot.return.done", name="after") in m.content for m in table.public_messages())
    with sqlite3.connect(path) as db:
        [(error,)] = db.execute("SELECT error FROM outbox WHERE kind = 'telegram' "
                                "AND sent_at IS NOT NULL").fetchall()
    assert error == "unreadable: unknown kind"
    assert await service.queue.owed_in_lane(Lane.channel(table.channel.id)) == []
    fake.assert_clean()
    await fake.stop_bot(table.bot)
