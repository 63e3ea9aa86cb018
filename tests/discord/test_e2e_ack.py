"""End to end over the fake Discord: an interaction is acknowledged in one request when its
answer is quick (the answer is the response), and deferred in time when it is not (the answer
follows): never two requests where one does, never later than Discord's 3 s."""
import asyncio

import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game
from ttr_bot.discord import ack
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord(strict_timing=True) as f:
        yield f


async def a_game(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob"))
    await open_game(table, alice, [bob], map_id="usa", bots=0)
    return table, alice


async def test_a_quick_answer_is_the_interactions_response_itself(fake, tmp_path):
    table, alice = await a_game(fake, tmp_path)
    handle = await fake.slash(alice, table.channel, "ttr", "hand", {})
    answer = await handle.answer(0)
    await table.settle()
    assert [c.type for c in handle.callbacks] == [4]            # one request: no "thinking…"
    assert answer.ephemeral and answer is handle.original and not handle.followups
    assert handle.latency < ack.ACK_AFTER
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_slow_answer_is_deferred_in_time_and_then_follows(fake, tmp_path, monkeypatch):
    table, alice = await a_game(fake, tmp_path)
    service = table.bot.service
    slow_load = service.core.load

    async def load(game_id):                # the store takes 1.5 s (a busy database)
        await asyncio.sleep(1.5)
        return await slow_load(game_id)
    monkeypatch.setattr(service.core, "load", load)
    handle = await fake.slash(alice, table.channel, "ttr", "hand", {})
    answer = await handle.answer(0, timeout=10)
    await table.settle()
    assert [c.type for c in handle.callbacks] == [5]            # deferred, then the follow-up
    assert ack.ACK_AFTER <= handle.latency < 3.0
    assert answer.ephemeral and not answer.loading and answer.content
    assert t("bot.error.unexpected") not in answer.content
    fake.assert_clean()
    await fake.stop_bot(table.bot)
