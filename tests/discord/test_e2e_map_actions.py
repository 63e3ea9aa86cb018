"""A map's own actions over the fake Discord (RULES.md §14, §16): Pennsylvania's share is
chosen with a button after the payment (and with 2 players the dummy's too, which only the
claimer is told; past 20 choices, from a menu), or named by /ttr claim's `share` option; Italy's ferry card is a button on
the turn card and /ttr draw source:ferry, and a claim over wave spaces spends the ferry cards
its payment leaves the waves to. Refusals change nothing."""
import random

import pytest
import pytest_asyncio

import ttr_bot.service.core as core
from testkit.e2e_driver import Player, Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game, play_to_end, public_leaks
from tests.discord.test_e2e_buttons import seated
from ttr_bot.discord.controls import ids
from ttr_bot.engine.actions import ClaimRoute, DrawFerryCard
from ttr_bot.engine.cards import CARD_NAMES, LOCO
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


DEAL = 5


@pytest_asyncio.fixture
async def fake(monkeypatch):
    deal = random.Random(DEAL)          # the same deal every run: the same games
    monkeypatch.setattr(core.random, "SystemRandom", lambda: deal)
    async with FakeDiscord() as f:
        yield f


async def _whole_game(fake, tmp_path, map_id, level, styles):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    users = [fake.add_user(f"p{i}", guild=table.guild) for i in range(len(styles))]
    players = [Player(table, u, level=level, seed=i, style=s)
               for i, (u, s) in enumerate(zip(users, styles))]
    game_id = await open_game(table, users[0], users[1:], map_id=map_id, bots=0)
    final = await play_to_end(table, players)
    assert final is not None and final.game.over
    start, actions, _ = await table.bot.service.core.replayed(game_id)
    return table, users, players, final, actions


async def test_pennsylvania_shares_are_chosen_by_button_and_the_dummys_told_to_the_claimer_alone(
        fake, tmp_path):
    table, users, players, final, actions = await _whole_game(
        fake, tmp_path, "pennsylvania", "medium", ("buttons", "slash"))
    used = sum((p.used for p in players), start=players[0].used.__class__())
    assert used["share", "component"] >= 1        # a route with two companies left: asked
    claims = [a for a in actions if isinstance(a, ClaimRoute)]
    assert any(a.share for a in claims) and any(a.dummy_share for a in claims)
    shares = final.game.extra["shares"]["held"]
    assert sum(len(ns) for h in shares for ns in h.values()) == sum(1 for a in claims if a.share)
    # the dummy's share: in the claimer's private answer, never in public before the end,
    # never to the other player
    public = table.public_messages()
    reveal = next(m for m in public if "🏁" in m.body())
    dummy_words = t("bot.you.dummy_share", company=0, number=0).split(" 0 ")[0]
    assert dummy_words and not [m for m in public if m.id < reveal.id and dummy_words in m.body()]
    told = {u.id: [m for m in fake.ephemeral_replies_to(u) + fake.dms_to(u)
                   if dummy_words in (m.content or "")] for u in users}
    assert told[users[0].id]      # the button player was told where the dummy's shares went
    seat_of = {final.seats[s].user_id: s for s in range(2)}
    for uid, msgs in told.items():
        mine = [a for a in claims if a.dummy_share and a.seat == seat_of[uid]]
        assert len(msgs) <= len(mine)
    assert public_leaks(public, final.game.board, reveal.id) == []
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_italy_ferry_cards_by_button_and_command_and_claims_spend_them(fake, tmp_path):
    table, users, players, final, actions = await _whole_game(
        fake, tmp_path, "italy", "medium", ("buttons", "slash"))
    used = sum((p.used for p in players), start=players[0].used.__class__())
    assert used["ferry", "component"] >= 1 and used["ferry", "slash"] >= 1
    draws = [a for a in actions if isinstance(a, DrawFerryCard)]
    spent = [a for a in actions if isinstance(a, ClaimRoute) and a.ferry]
    assert draws and spent
    held = final.game.extra["ferry_cards"]["held"]
    assert sum(held) == len(draws) - sum(a.ferry for a in spent)
    body = "\n".join(m.body() for m in table.public_messages())
    assert t("bot.ev.draw_ferry_card", name="p0", count=1) in body or \
        t("bot.ev.draw_ferry_card", name="p1", count=1) in body
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_ferry_card_off_italy_and_a_share_a_route_lacks_are_refused_plainly(
        fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    assert not any(":ferry" in c for c in table.last_panel().custom_ids())   # not offered
    answer = await table.slash(mover, "draw", source="ferry")
    assert answer.ephemeral and answer.content == t("bot.ferry_card.not_here")
    assert (await table.game()).seq == loaded.seq
    await fake.stop_bot(table.bot)


async def test_a_share_named_by_command_is_taken_and_one_not_on_the_route_is_refused(
        fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "pennsylvania")
    seat = loaded.game.current
    game = loaded.game
    # a route the mover can pay, showing two companies with shares left
    route, cards = next((r, a.cards) for a in game.legal_actions(seat)
                        if isinstance(a, ClaimRoute) and len((r := game.board.routes[a.route]).shares) > 1)
    other = next(c for c in (2, 3, 4, 5, 6, 7, 8, 10, 15) if c not in route.shares)
    value = str(route.index)
    color = CARD_NAMES[next(c for c, k in enumerate(cards) if k and c != LOCO)] \
        if any(cards[:LOCO]) else "locomotive"
    refused = await table.slash(mover, "claim", route=value, color=color, share=other)
    assert refused.ephemeral and refused.content == t("illegal.share_not_here")
    assert (await table.game()).seq == loaded.seq
    # by button: the claim asks whose share, a button per company
    asked = await table.slash(mover, "claim", route=value, color=color)
    buttons = [c for c in asked.custom_ids() if c.startswith("ttr:share:")]
    assert {ids.parse(c)[1]["share"] for c in buttons} == set(route.shares)
    assert find_cid(asked, "ttr:cancel:")
    # typed: the share named is taken
    pick = route.shares[-1]
    done = await table.slash(mover, "claim", route=value, color=color, share=pick,
                             dummy_share=route.shares[0])
    assert done.ephemeral
    after = await table.game()
    assert after.game.owner[route.index] == seat
    assert after.game.extra["shares"]["held"][seat] == {str(pick): [1]}
    await fake.stop_bot(table.bot)



async def test_more_than_20_share_choices_are_a_menu_that_claims_with_the_choice(fake, tmp_path):
    # a route of five companies: with 2 players, 5 shares x 5 of the dummy's are 25 choices,
    # more than a message's 20 buttons (with Cancel) can hold
    table, loaded, _ = await seated(fake, tmp_path, "pennsylvania")
    users = {u.id: u for u in fake.state.users.values()}
    route = next(r for r in loaded.game.board.routes if len(r.shares) == 5 and r.color < 0)
    for _ in range(20):         # both draw from the deck until the mover can pay the route
        loaded = await table.game()
        seat = loaded.game.current
        payments = [a.cards for a in loaded.game.legal_actions(seat)
                    if isinstance(a, ClaimRoute) and a.route == route.index]
        if payments:
            break
        mover = users[loaded.seats[seat].user_id]
        for _ in range(2):
            await table.slash(mover, "draw", source="deck")
        await table.settle()
    mover = users[loaded.seats[seat].user_id]
    paid = payments[0]
    used = next(c for c, k in enumerate(paid) if k and c != LOCO) if any(paid[:LOCO]) else LOCO
    asked = await table.slash(mover, "claim", route=str(route.index),
                              color="locomotive" if used == LOCO else CARD_NAMES[used],
                              locomotives=paid[LOCO])
    assert asked.ephemeral and not find_cid(asked, "ttr:share:")
    menu = find_cid(asked, "ttr:sharesel:")
    values = [int(o["value"]) for o in asked.component(menu)["options"]]
    assert sorted(divmod(v, 100) for v in values) == sorted(
        (s, d) for s in route.shares for d in route.shares)
    assert find_cid(asked, "ttr:cancel:")
    assert (await table.game()).seq == loaded.seq        # asking changed nothing
    share, dummy = route.shares[1], route.shares[3]
    done = await table.select(mover, asked, menu, [share * 100 + dummy])
    assert done.ephemeral
    await table.settle()
    after = await table.game()
    assert after.game.owner[route.index] == seat and after.seq > loaded.seq
    held = after.game.extra["shares"]["held"]
    assert held[seat] == {str(share): [1]}
    assert str(dummy) in after.game.extra["shares"]["dummy"]    # the share the claimer gave it
    told = t("bot.you.dummy_share", company=dummy, number=1)
    assert told in done.content
    assert not [m for m in table.public_messages() if told in m.body()]
    fake.assert_clean()
    await fake.stop_bot(table.bot)
