"""Guarded taps through the fake Discord (/ttr me confirm; service/confirm.py has the defaults
and why): "Destination tickets" asks first, Cancel plays nothing, the question still works
after a restart, a player who turned it off draws at once; a claim tapped in the menu asks
first (one tap plays it), the same claim typed as /ttr claim with its route plays at once."""
import random

import pytest
import pytest_asyncio

import ttr_bot.service.core as core
from testkit.e2e_driver import find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e_buttons import seated
from ttr_bot.discord.controls import ids
from ttr_bot.discord.controls.payment_choices import route_options
from ttr_bot.discord.text.format import cards_text, route_choice_label
from ttr_bot.engine import payment
from ttr_bot.engine.actions import ClaimRoute
from ttr_bot.engine.cards import CARD_NAMES, LOCO
from ttr_bot.i18n import t
from ttr_bot.service.confirm import CLAIMS_FROM, ConfirmSettings

pytestmark = pytest.mark.asyncio
DEAL = 3


@pytest_asyncio.fixture
async def fake(monkeypatch):
    deal = random.Random(DEAL)          # the same cards every run
    monkeypatch.setattr(core.random, "SystemRandom", lambda: deal)
    async with FakeDiscord() as f:
        yield f


async def _users(table):
    return list(table.fake.state.users.values())


async def _to_move(table):
    loaded = await table.game()
    user = next(u for u in await _users(table)
                if u.id == loaded.seats[loaded.game.current].user_id)
    return loaded, user


async def test_a_ticket_draw_asks_first_cancel_plays_nothing_and_it_outlives_a_restart(
        fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    seq = loaded.seq
    panel = table.last_panel()
    # beside the standings, "Details": every standing in words, privately, to anyone
    watcher = fake.add_user("watcher", guild=table.guild)
    details = await table.click(watcher, panel, f"ttr:details:{loaded.id}")
    assert details.ephemeral and t("bot.seat_mark.standard.1") in details.content
    assert details.content.startswith(t("bot.status.title", map="USA", turn=loaded.game.turn + 1))
    asked = await table.click(mover, panel, f"ttr:tickets:{loaded.id}:{seq}")
    assert asked.content == t("bot.confirm.tickets")
    assert find_cid(asked, f"ttr:tickets:{loaded.id}:{seq}:go") and find_cid(asked, "ttr:cancel:")
    await fake.click(mover, asked, find_cid(asked, "ttr:cancel:"))
    await table.settle()
    assert asked.content == t("bot.confirm.cancelled") and not asked.custom_ids()
    assert (await table.game()).seq == seq                  # nothing was played
    asked = await table.click(mover, panel, f"ttr:tickets:{loaded.id}:{seq}")
    await table.restart_bot()                               # the id carries game and seq
    drawn = await table.click(mover, asked, f"ttr:tickets:{loaded.id}:{seq}:go")
    assert find_cid(drawn, "ttr:keep:"), drawn.content      # the offer: tickets were drawn
    await table.slash(mover, "keep", tickets="1,2,3")
    await table.settle()
    # the other player turns the question off: the same button draws at once
    loaded, other = await _to_move(table)
    settings = await table.slash(other, "me confirm", tickets=False, claims=0)
    assert settings.content.splitlines() == [t("bot.confirm.now_tickets_off"),
                                             t("bot.confirm.now_claims_off")]
    drawn = await table.click(other, table.last_panel(), f"ttr:tickets:{loaded.id}:{loaded.seq}")
    assert find_cid(drawn, "ttr:keep:"), drawn.content
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_tapped_claim_asks_first_and_a_typed_one_never(fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    for user in await _users(table):        # every claim would ask, were it tapped
        if user.id in loaded.user_ids():
            await table.slash(user, "me confirm", claims=1)
    # typed, with every option given: played at once
    seat, v = await table.bot.service.moves.player_view(loaded.id, mover.id)
    typed, cards = next((r, o) for r in v.board.routes for o in
                        route_options(v.board.rules, r, v.hand)[:1]
                        if v.explain(ClaimRoute(seat, r.index, o)) is None)
    used = payment.route_payment(v.board.rules, typed, cards)
    msg = await table.slash(mover, "claim", route=str(typed.index),
                            color="locomotive" if used < 0 else CARD_NAMES[used],
                            locomotives=cards[LOCO])
    assert not find_cid(msg, "ttr:cancel:") and not find_cid(msg, "ttr:pay:"), msg.content
    await table.settle()
    assert (await table.game()).game.owner[typed.index] == seat
    # tapped in the menu: asked first, one tap plays it
    loaded, other = await _to_move(table)
    menu = await table.click(other, table.last_panel(), f"ttr:claim:{loaded.id}:{loaded.seq}")
    select = find_cid(menu, "ttr:route:")
    for option in menu.component(select)["options"]:
        asked = await table.select(other, menu, select, [option["value"]])
        if find_cid(asked, "ttr:cancel:"):
            break
    else:
        raise AssertionError("no route with one way to pay in the menu")
    route = int(option["value"])
    pay = find_cid(asked, "ttr:pay:")
    label = route_choice_label(loaded.board, loaded.board.routes[route], "en")
    assert asked.content == t("bot.confirm.claim", route=label,
                              cards=cards_text(ids.parse(pay)[1]["cards"], "en"))
    assert (await table.game()).game.owner[route] < 0      # not yet
    await table.click(other, asked, pay)
    await table.settle()
    assert (await table.game()).game.owner[route] == loaded.game.current
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_by_default_a_cheap_tapped_claim_plays_at_once_and_a_ticket_draw_asks(
        fake, tmp_path):
    """The defaults (service/confirm.py) for a player who never opened /ttr me confirm: a claim
    paying fewer than CLAIMS_FROM cards is one tap, one paying that many or more asks, and a
    ticket draw asks."""
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    settings = await table.bot.service.adapter_state.confirm_settings(mover.id)
    assert settings == ConfirmSettings(tickets=True, claims_from=CLAIMS_FROM) and CLAIMS_FROM == 4
    assert [settings.asks_claim(n) for n in (1, 3, 4, 6)] == [False, False, True, True]
    seat, v = await table.bot.service.moves.player_view(loaded.id, mover.id)
    cheap = {r.index for r in v.board.routes
             if len(opts := route_options(v.board.rules, r, v.hand)) == 1
             and sum(opts[0]) < CLAIMS_FROM and v.explain(ClaimRoute(seat, r.index, opts[0])) is None}
    menu = await table.click(mover, table.last_panel(), f"ttr:claim:{loaded.id}:{loaded.seq}")
    select = find_cid(menu, "ttr:route:")
    route = next(int(o["value"]) for o in menu.component(select)["options"]
                 if int(o["value"]) in cheap)
    played = await table.select(mover, menu, select, [str(route)])
    assert not find_cid(played, "ttr:cancel:"), played.content
    await table.settle()
    assert (await table.game()).game.owner[route] == seat     # one tap, no question
    loaded, other = await _to_move(table)
    asked = await table.click(other, table.last_panel(), f"ttr:tickets:{loaded.id}:{loaded.seq}")
    assert asked.content == t("bot.confirm.tickets")          # the default asks
    fake.assert_clean()
    await fake.stop_bot(table.bot)
