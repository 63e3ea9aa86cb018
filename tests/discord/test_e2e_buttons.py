"""End to end through the fake Discord: every move by button, and only what can be done offered.
"Build a station…" gives menus of cities (the player's ticket cities first) and builds the
station; it is not offered on a map without stations, nor on a private panel to a player who
cannot pay, and /ttr station's autocomplete is then empty; the claim menu puts the routes of
the player's tickets first (🎫), and past 25 payable routes asks for a city first; a tunnel the
player cannot pay is declined for them with a notice.

Hands and the deck are set by swapping cards inside the loaded game (the multiset of cards is
unchanged), so each test reaches its situation in a few moves."""
import pytest
import pytest_asyncio

from testkit.e2e_driver import Table, db_file, find_cid
from testkit.fakediscord import FakeDiscord
from tests.discord.test_e2e import open_game
from ttr_bot.discord.controls.menus import TICKET_MARK
from ttr_bot.discord.text.format import EMOJI, card_list_text, card_name
from ttr_bot.engine.cards import CARD_NAMES, N_CARD_KINDS
from ttr_bot.i18n import t

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def fake():
    async with FakeDiscord() as f:
        yield f


def rig(game, seat, hand, top=()):
    """Give `seat` exactly `hand` (9 counts) and put `top` on the deck (drawn first), by swapping
    cards between the seat's hand, the deck and the discard pile."""
    pool = list(game.deck) + list(game.discard)
    for c, k in enumerate(game.hands[seat]):
        pool += [c] * k
    for c, k in enumerate(hand):
        for _ in range(k):
            pool.remove(c)
    for c in top:
        pool.remove(c)
    game.hands[seat] = list(hand)
    game.discard = []
    game.deck = pool + list(reversed(top))      # the deck is drawn from its end


def cards(**counts):
    out = [0] * N_CARD_KINDS
    for name, k in counts.items():
        out[CARD_NAMES.index(name)] = k
    return out


async def seated(fake, tmp_path, map_id):
    table = Table(fake, db_file(tmp_path))
    await table.start_bot(sync=True)
    alice, bob = fake.add_user("alice", guild=table.guild), fake.add_user("bob", guild=table.guild)
    await open_game(table, alice, [bob], map_id=map_id, bots=0)
    for user in (alice, bob):
        await table.slash(user, "keep", tickets="1,2,3")
    await table.settle()
    loaded = await table.game()
    users = {alice.id: alice, bob.id: bob}
    return table, loaded, users[loaded.seats[loaded.game.current].user_id]


def options(message, prefix):
    return [o for cid in message.custom_ids() if cid.startswith(prefix)
            for o in message.component(cid)["options"]]


async def test_a_station_by_buttons_ticket_cities_first_and_only_when_payable(fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "europe")
    seat = loaded.game.current
    panel = table.last_panel()
    station = f"ttr:station:{loaded.id}:{loaded.seq}"
    assert station in panel.custom_ids()
    menu = await table.click(mover, panel, station)
    assert menu.ephemeral and menu.content == t("bot.station.menu", count=1)
    offered = options(menu, f"ttr:stcity:{loaded.id}:{loaded.seq}:")
    v = loaded.view(seat)
    assert sorted(int(o["value"]) for o in offered) == sorted(v.station_sites())   # 2 menus
    ticket_cities = [n for n in v.open_ticket_nodes() if n in v.station_sites()]
    assert ticket_cities
    assert [int(o["value"]) for o in offered[:len(ticket_cities)]] == ticket_cities
    assert all(o["label"].startswith(TICKET_MARK) for o in offered[:len(ticket_cities)])
    assert not any(o["label"].startswith(TICKET_MARK) for o in offered[len(ticket_cities):])

    city = ticket_cities[0]
    sel = next(c for c in menu.custom_ids() if str(city) in
               [o["value"] for o in menu.component(c)["options"]])
    forged = await table.reply(await fake.select(mover, menu, sel, ["9999"], forge=True))
    assert forged.content == t("bot.station.unknown_city")    # no such city: refused, clearly
    msg = await table.select(mover, menu, sel, [city])
    if find_cid(msg, "ttr:pay:"):                    # several colours could pay: pick one
        msg = await table.click(mover, msg, find_cid(msg, "ttr:pay:"))
    await table.settle()
    after = await table.game()
    assert after.game.station_owner.get(city) == seat
    name = after.board.nodes[city].name
    assert any(name in m.body() for m in table.public_messages()[-2:])

    # the same player's next turn: 2 cards of one colour for the second station, and a red
    # and a blue are not that. The public panel knows only "2 cards"; their own panel and
    # the autocomplete know better, and the public button says why
    other = next(u for u in fake.state.users.values()
                 if u.id != mover.id and u.username in ("alice", "bob"))
    await table.slash(other, "draw", source="deck")
    await table.slash(other, "draw", source="deck")
    await table.settle()
    loaded = await table.game()
    assert loaded.game.current == seat
    rig(loaded.game, seat, cards(red=1, blue=1))
    hand = await table.slash(mover, "hand")
    assert not find_cid(hand, "ttr:station:") and find_cid(hand, "ttr:claim:")
    handle = await fake.autocomplete(mover, table.channel, "ttr", "station", {"city": ""},
                                     focused="city")
    assert (await handle.response()).choices == []
    refused = await table.click(mover, table.last_panel(), f"ttr:station:{loaded.id}:{loaded.seq}")
    assert refused.content == t("bot.station.cannot_pay_any", count=2)
    assert (await table.game()).seq == loaded.seq                      # nothing changed
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_no_station_button_on_a_map_without_stations(fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    assert not find_cid(table.last_panel(), "ttr:station:")
    assert not find_cid(await table.slash(mover, "hand"), "ttr:station:")
    await fake.stop_bot(table.bot)


async def test_the_claim_menu_puts_ticket_routes_first_and_a_city_first_past_25(fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    seat = loaded.game.current
    rig(loaded.game, seat, cards(red=1))
    menu = await table.click(mover, table.last_panel(), f"ttr:claim:{loaded.id}:{loaded.seq}")
    v = loaded.view(seat)
    serves = v.ticket_routes()
    listed = [int(o["value"]) for o in options(menu, "ttr:route:")]
    assert sorted(listed) == sorted(r.index for r, _ in v.claimable_routes())
    marked = [r for r in listed if serves.get(r)]
    assert listed[:len(marked)] == marked              # the ticket routes lead
    if marked:
        assert t("bot.claim.tickets_first", mark=TICKET_MARK) in menu.content

    # a hand that pays for nearly every route: a city first, then that city's routes
    rig(loaded.game, seat, cards(red=6, blue=6, green=6, yellow=6, black=6, white=6,
                                 orange=6, purple=6, locomotive=4))
    v = loaded.view(seat)
    payable = [r for r, _ in v.claimable_routes()]
    assert len(payable) > 25
    menu = await table.click(mover, table.last_panel(), f"ttr:claim:{loaded.id}:{loaded.seq}")
    assert t("bot.claim.city_first") in menu.content
    best = [int(o["value"]) for o in options(menu, "ttr:route:")]    # the first 25 still one click
    assert len(best) == 25 and set(best) <= {r.index for r in payable}
    serves = v.ticket_routes()
    marked = [r for r in best if serves.get(r)]
    assert marked and best[:len(marked)] == marked
    assert len(marked) == min(25, sum(1 for r in payable if serves.get(r.index)))
    cities = options(menu, "ttr:rcity:")
    ends = {n for r in payable for n in (r.a, r.b)}
    assert sorted(int(o["value"]) for o in cities) == sorted(ends)
    city = int(cities[0]["value"])
    assert city in v.open_ticket_nodes() and cities[0]["label"].startswith(TICKET_MARK)
    sel = next(c for c in menu.custom_ids() if c.startswith("ttr:rcity:") and str(city) in
               [o["value"] for o in menu.component(c)["options"]])
    routes = await table.select(mover, menu, sel, [city])
    listed = [int(o["value"]) for o in options(routes, "ttr:route:")]
    assert sorted(listed) == sorted(r.index for r in payable if city in (r.a, r.b))
    claimed = listed[0]
    msg = await table.select(mover, routes, find_cid(routes, "ttr:route:"), [claimed])
    if find_cid(msg, "ttr:pay:"):
        await table.click(mover, msg, find_cid(msg, "ttr:pay:"))
    await table.settle()
    assert (await table.game()).game.owner[claimed] == seat
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_a_tunnel_that_cannot_be_paid_is_declined_for_the_player(fake, tmp_path):
    table, loaded, mover = await seated(fake, tmp_path, "europe")
    seat, board = loaded.game.current, loaded.board
    tunnel = next(r for r in board.routes if r.tunnel and r.color == 1 and r.length == 2
                  and loaded.game.owner[r.index] < 0)
    colour = CARD_NAMES[tunnel.color]
    rig(loaded.game, seat, cards(**{colour: 2}), top=[tunnel.color] * 3)
    requests = len(fake.requests)
    msg = await table.slash(mover, "claim", route=str(tunnel.index))
    assert t("bot.tunnel.auto_declined", route=board.route_label(tunnel), count=3,
             revealed=card_list_text([tunnel.color] * 3, "en")) in msg.content, msg.content
    assert not find_cid(msg, "ttr:tunnel:")            # nothing left to click
    await table.settle()
    after = await table.game()
    assert after.game.step == "idle" and after.game.current != seat
    assert after.game.owner[tunnel.index] < 0
    assert after.game.hands[seat][tunnel.color] == 2   # the laid cards came back
    # the reveal edits the mover's hand DM: no new DM, which would notify them
    dm = f"/api/v10/channels/{fake.state.dm_channel_for(mover.id).id}/messages"
    assert not [r for r in fake.requests[requests:] if r.method == "POST" and r.path == dm]
    assert [r for r in fake.requests[requests:] if r.method == "PATCH" and r.path.startswith(dm)]
    fake.assert_clean()
    await fake.stop_bot(table.bot)


async def test_two_from_the_deck_is_one_click_one_answer_and_one_card(fake, tmp_path):
    """"2 from the deck" on the card: both cards in one answer, the turn over, one card
    posted for it; when the deck cannot give a second card, the answer offers the second
    step as after one card."""
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    seat = loaded.game.current
    panel = table.last_panel()
    cid = f"ttr:draw:{loaded.id}:{loaded.seq}:decktwice"
    assert cid in panel.custom_ids()
    red, blue = CARD_NAMES.index("red"), CARD_NAMES.index("blue")
    hand = list(loaded.game.hands[seat])
    rig(loaded.game, seat, hand, top=(red, blue))
    posts, requests = len(table.public_messages()), len(fake.requests)
    reply = await table.click(mover, panel, cid)
    assert reply.content.splitlines() == [
        t("bot.you.drew", card=card_name(c, "en"), emoji=EMOJI[CARD_NAMES[c]]) for c in (red, blue)]
    assert not reply.custom_ids()                   # nothing more to do this turn
    await table.settle()
    after = await table.game()
    assert after.seq == loaded.seq + 2 and after.game.current != seat
    assert after.game.hands[seat][red] == hand[red] + 1
    assert after.game.hands[seat][blue] == hand[blue] + 1
    new = table.public_messages()[posts:]
    assert len(new) == 1 and new[0].v2
    # the turn's two draws in one line
    assert new[0].body().splitlines().count(
        t("bot.ev.draw_deck_n", name=mover.username, count=2)) == 1
    channel = f"/api/v10/channels/{table.channel.id}/"
    kinds = sorted(r.method + (" interaction" if "/interactions/" in r.path else
                               " channel" if r.path.startswith(channel) else " dm")
                   for r in fake.requests[requests:] if "/members/" not in r.path)
    # one answer, the card, the old card's buttons off, the mover's hand message; and the
    # player the card pings looked up in the server, once an hour (membership.PING_FOR)
    assert kinds == ["PATCH channel", "PATCH dm", "POST channel", "POST interaction"], kinds
    assert len([r for r in fake.requests[requests:] if "/members/" in r.path]) <= 1

    # the deck holds one card and the discard pile none: the second card is the player's pick
    loaded = await table.game()
    other = next(u for u in fake.state.users.values() if u.id == loaded.seats[
        loaded.game.current].user_id)
    loaded.game.discard = []
    loaded.game.deck = loaded.game.deck[-1:]
    reply = await table.click(other, table.last_panel(),
                              f"ttr:draw:{loaded.id}:{loaded.seq}:decktwice")
    lines = reply.content.splitlines()
    assert len(lines) == 2 and lines[1] == t("bot.panel.second")
    step = reply.custom_ids()
    assert step and all(c.startswith(f"ttr:draw:{loaded.id}:{loaded.seq + 1}:")
                        or c.startswith("ttr:hand:") for c in step)
    assert f"ttr:draw:{loaded.id}:{loaded.seq + 1}:decktwice" not in step
    await table.settle()
    assert (await table.game()).seq == loaded.seq + 1
    fake.assert_clean()
    await fake.stop_bot(table.bot)


def path_of(game, ticket):
    """The routes of a shortest path between a ticket's two cities over free, plain routes
    (one lane of each pair), in path order."""
    board = game.board
    by_name = {n.name: n.index for n in board.nodes}
    start, goal = by_name[ticket.origin], by_name[ticket.dests[0]]
    came = {start: None}
    frontier = [start]
    while goal not in came:
        nxt = []
        for node in frontier:
            for r in board.routes:
                if game.owner[r.index] >= 0 or r.tunnel or node not in (r.a, r.b):
                    continue
                other = r.b if node == r.a else r.a
                if other not in came:
                    came[other] = (node, r.index)
                    nxt.append(other)
        frontier = nxt
    out, node = [], goal
    while came[node] is not None:
        node, r = came[node]
        out.append(r)
    return out[::-1]


async def test_the_claim_that_completes_a_ticket_is_celebrated_privately(fake, tmp_path):
    """'🎉 Ticket completed: … (+n)' in the mover's own answer at the claim that completes it,
    never in a public message: the seat already holds every route of a path between a ticket's
    cities but the last one, and claims it."""
    table, loaded, mover = await seated(fake, tmp_path, "usa")
    seat, game = loaded.game.current, loaded.game
    board = game.board
    tid = next(t for t in game.tickets[seat] if not board.tickets[t].multi)
    ticket = board.tickets[tid]
    *held, r = path_of(game, ticket)
    assert held, "a ticket's cities are never neighbours on this map: the path has two routes"
    for h in held:
        game.owner[h] = seat
        game.routes_of[seat].append(h)
        game.trains[seat] -= board.routes[h].length
    route = board.routes[r]
    colour = route.color if route.color >= 0 else CARD_NAMES.index("red")
    rig(game, seat, [route.length if c == colour else 0 for c in range(N_CARD_KINDS)])
    before = {m.id for m in table.public_messages()}
    answer = await table.slash(mover, "claim", route=str(r))
    await table.settle()
    assert (await table.game()).game.owner[r] == seat
    line = t("bot.ticket.completed", ticket=ticket.label(), points=ticket.points[0])
    assert line in answer.content and answer.ephemeral
    assert all("🎉" not in m.body() for m in table.public_messages() if m.id not in before)
    await fake.stop_bot(table.bot)
