"""A player's click while the bot's SQLite file cannot be written (read-only, a full disk,
locked by another program, damaged), end to end on the fake Discord: the player is told in
their language that the move could not be saved and nothing changed (never "done", never a
traceback), nothing is posted, the log says which file and what to do; once the fault is gone
the same button works and the game goes on. The faults are test_service_store_faults.py's."""
import logging
import sqlite3

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game
from tests.service.test_service_store_faults import FAULTS
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def table(tmp_path, caplog):
    async with FakeDiscord() as fake:
        table = Table(fake, db_file(tmp_path))
        await table.start_bot(sync=True)
        caplog.set_level(logging.INFO)
        yield table
        await table.settle()


async def first_turn(table):
    """A two-player game past its ticket choices: (the game, the user to move, the turn card
    and its "2 from the deck" button)."""
    alice = table.fake.add_user("alice", guild=table.guild, locale="ja")
    bob = table.fake.add_user("bob", guild=table.guild, locale="th")
    await open_game(table, alice, [bob], map_id="usa", bots=0)
    players = {u.id: Player(table, u) for u in (alice, bob)}
    while True:
        loaded = await table.wait_for_humans()
        if loaded.game.phase == "play":
            break
        await players[loaded.seats[loaded.game.to_move()[0]].user_id].move()
    mover = next(u for u in (alice, bob) if u.id == loaded.seats[loaded.game.to_move()[0]].user_id)
    card = table.last_panel()
    return loaded, mover, card, find_cid(card, f"ttr:draw:{loaded.id}:{loaded.seq}:decktwice")


def sent(table):
    """What the bot has sent or edited in channels and DMs (not its answers to clicks)."""
    return len([r for r in table.fake.requests if r.path.startswith("/api/v10/channels/")])


@pytest.mark.parametrize("kind", list(FAULTS))
async def test_a_click_the_database_cannot_save_is_answered_and_works_once_it_clears(
        table, caplog, kind):
    loaded, mover, card, button = await first_turn(table)
    store, path = table.bot.service.core.store, table.db_path
    await store._fetchall("PRAGMA busy_timeout = 200")      # the bot's own is 10 s
    posts = sent(table)
    fault = FAULTS[kind]()
    await fault.start(store, path)
    caplog.clear()

    answer = await table.click(mover, card, button)
    await table.settle()
    assert answer.content == t("bot.error.not_saved", mover.locale)
    assert (await table.game()).seq == loaded.seq
    assert sent(table) == posts         # no post, no DM, no edit
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(path in line and fault.remedy in line for line in said), said
    assert not [r for r in caplog.records if r.exc_info]    # one line, no traceback

    await fault.clear(store, path)
    answer = await table.click(mover, card, button)
    await table.settle()
    assert answer.content != t("bot.error.not_saved", mover.locale)
    assert (await table.game()).seq > loaded.seq
    assert sent(table) > posts          # the next turn is posted


async def test_a_game_whose_saved_log_is_damaged_says_so(table, caplog):
    """A game's log and snapshot edited behind the bot's back (store.CorruptData): the click is
    answered with the sentence for a damaged game in the player's language, not "something went
    wrong", nothing is posted, and the log names the game and what to run."""
    loaded, mover, card, button = await first_turn(table)
    path = table.db_path
    with sqlite3.connect(path) as db:       # past the log's append-only trigger, as a hand edit
        db.execute("DROP TRIGGER actions_no_update")
        db.execute("UPDATE snapshots SET state = '{\"v\": 1}' WHERE game_id = ?", (loaded.id,))
        db.execute("UPDATE actions SET action = '{\"type\": \"nonsense\"}' "
                   "WHERE game_id = ? AND seq = 1", (loaded.id,))
    table.bot.service.core.forget(loaded.id)     # as after a restart: read from the database
    posts = sent(table)
    caplog.clear()
    answer = await table.click(mover, card, button)
    await table.settle()
    assert answer.content == t("bot.error.corrupt", mover.locale)
    assert sent(table) == posts
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(f"game {loaded.id}" in line and "bot.py doctor" in line for line in said), said
    caplog.clear()                          # what the doctor (`bot.py doctor`) then says
    await table.bot.service.invariants.check_timers()
    named = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(f"game {loaded.id} cannot be loaded" in line for line in named), named
    assert not [r for r in caplog.records if r.exc_info]
