"""End to end: players leave a game in play through the fake Discord. A player who leaves in the
middle of their turn confirms privately, a computer player finishes the turn and the game; the
host replaces another player by slash command; the channel is told who left and nothing else;
the game completes and its record replays. The last human leaving cancels the game."""
import json

import pytest
import pytest_asyncio

from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game, public_leaks
from ttr_bot.game_record import replay
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio
MAX_ACTIONS = 1500


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def posted_after(table, message_id):
    return [m for m in table.public_messages() if m.id > message_id]


async def test_a_player_leaves_mid_turn_another_is_replaced_and_the_game_completes(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob, carol = (fake.add_user(n, guild=table.guild) for n in ("alice", "bob", "carol"))
    players = {u.id: Player(table, u, seed=i) for i, u in enumerate((alice, bob, carol))}
    game_id = await open_game(table, alice, [bob, carol], map_id="usa", bots=0)
    left = replaced = False

    for _ in range(MAX_ACTIONS):
        loaded = await table.wait_for_humans()
        game = loaded.game
        if game.over:
            break
        seat = next(s for s in game.to_move() if loaded.seats[s].user_id)
        user = loaded.seats[seat].user_id
        if not left and user == bob.id and game.phase == "play" and game.turn >= 3 \
                and game.step == "idle":
            left = True
            await leave_mid_turn(table, fake, game_id, bob)
            continue
        if left and not replaced and user == alice.id and game.turn >= 6:
            replaced = True
            await replace_carol(table, alice, carol)
            continue
        await players[user].move()
    else:
        raise AssertionError("the game did not end")

    final = await table.game()
    assert final.game.over and left and replaced
    assert [s.former_user_id for s in final.seats] == [None, bob.id, carol.id]
    assert final.names()[1:] == ["bob (bot, medium)", "carol (bot, easy)"]
    messages = table.public_messages()
    reveal = next(m for m in messages if "🏁" in m.content)
    assert public_leaks(messages, final.game.board, reveal.id) == []
    # the results credit nobody with a computer's result; the leaver still finds the record
    results = {r.seat: r for r in await table.bot.service.core.store.load_results(game_id)}
    assert (results[0].user_id, results[1].user_id, results[1].former_user_id) == \
        (alice.id, None, bob.id)
    msg = await table.slash(bob, "server export")
    data = json.loads(next(iter(msg.files.values())))
    replayed, names, error = replay(data)
    assert error is None and replayed.scores() == final.game.scores()
    fake.assert_clean()
    assert fake.spec_violations == []
    await fake.stop_bot(table.bot)


async def leave_mid_turn(table, fake, game_id, bob):
    """Bob draws one card, then leaves: the computer player draws his second card."""
    await table.slash(bob, "draw", source="deck")
    await table.settle()
    panel = table.last_panel()
    seq = (await table.game()).seq
    question = await table.slash(bob, "leave")
    assert question.content == t("bot.leave.confirm", level=t("bot.level.medium"))
    cid = find_cid(question, "ttr:quit:")
    assert cid == f"ttr:quit:{game_id}:{seq}:bot"
    before = table.public_messages()[-1].id
    done = await table.click(bob, question, cid)
    assert done.content == t("bot.leave.done") and done.ephemeral
    loaded = await table.wait_for_humans()
    assert loaded.seats[1].user_id is None and loaded.seats[1].level == "medium"
    new = posted_after(table, before)
    assert new[0].content == t("bot.seat.left", name="bob", level=t("bot.level.medium"))
    # his turn was finished for him: the next public turn post tells bob's two draws
    assert any("bob (bot, medium)" in m.text() for m in new[1:])
    # his buttons are gone from the panel, and he is no longer a player
    assert fake.state.messages[panel.id].custom_ids() == []
    msg = await table.slash(bob, "hand")
    assert msg.content == t("service.not_a_player")
    msg = await table.slash(bob, "leave")
    assert msg.content == t("service.not_a_player")


async def replace_carol(table, alice, carol):
    msg = await table.slash(carol, "replace", player=alice)
    assert msg.content == t("service.replace_denied")
    before = table.public_messages()[-1].id
    msg = await table.slash(alice, "replace", player=carol, level="easy")
    assert msg.content == t("bot.replace.done", name="carol", level=t("bot.level.easy"))
    await table.settle()
    new = posted_after(table, before)
    assert new[0].content == t("bot.seat.replaced", by=f"<@{alice.id}>", name="carol",
                               level=t("bot.level.easy"))
    msg = await table.slash(alice, "replace", player=carol)
    assert msg.content == t("service.replace_not_player")


async def test_the_last_human_leaving_cancels_the_game(fake, tmp_path):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice = fake.add_user("alice", guild=table.guild)
    await open_game(table, alice, [], map_id="usa", bots=1)
    question = await table.slash(alice, "leave")
    assert question.content == t("bot.leave.confirm_end")
    cid = find_cid(question, "ttr:quit:")
    assert cid.endswith(":end")
    done = await table.click(alice, question, cid)
    assert done.content == t("bot.leave.done_end")
    await table.settle()
    assert table.public_messages()[-1].content == t("bot.seat.left_cancelled", name="alice")
    assert await table.bot.service.game_in_channel(table.channel.id) is None
    msg = await table.slash(alice, "status")
    assert msg.content == t("service.no_game")
    fake.assert_clean()
    await fake.stop_bot(table.bot)
