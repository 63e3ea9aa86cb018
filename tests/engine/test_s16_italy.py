"""RULES.md §16 Italy: the ferry-card draw, paying wave spaces, the region bonus, the triple
Napoli–Roma; and a golden record scored by hand."""
import json
from pathlib import Path

import pytest

from tests.engine.rulekit import (
    GREEN,
    RED,
    WHITE,
    A,
    arrange,
    board,
    cards,
    give_routes,
    make_game,
    refuse,
    route,
    ticket,
)
from ttr_bot.engine.actions import DrawFerryCard
from ttr_bot.engine.mechanics.regions import Regions, network_regions
from ttr_bot.engine.seat_rules import DOUBLE_CLOSED
from ttr_bot.engine.view import determinize, view
from ttr_bot.game_record import action_from_json, action_to_json, replay, result

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "italy_ferries_regions.json"
FACE = [WHITE, WHITE, RED, RED, GREEN]
CROAZIA = ("Ancona", "Croazia")            # gray 4, two waves


def italy(n=2, hands=None, ferry=None, **kw):
    g = make_game("italy", n, **kw)
    arrange(g, hands=hands or {}, faceup=FACE)
    for seat, k in (ferry or {}).items():
        g.extra["ferry_cards"]["held"][seat] = k
    return g


def held(g, seat=0):
    return g.extra["ferry_cards"]["held"][seat]


# ----- §16.1 components and setup ------------------------------------------------------------
def test_16_1_players_trains_tickets_and_no_path_bonus():
    b = board("italy")
    assert (b.rules.min_players, b.rules.max_players, b.rules.trains) == (2, 5, 45)
    g = make_game("italy", 3, setup=False)
    assert [len(o) for o in g.offers] == [5, 5, 5] and g.keep_min(0) == 3
    g = italy()
    g.apply(A.DrawTickets(0))
    assert len(g.offers[0]) == 4 and g.keep_min(0) == 1
    assert b.rules.longest_path_bonus == 0 and b.rules.globetrotter_bonus == 0
    assert b.rules.route_points[7] == 18


# ----- §16.2 drawing a ferry card ----------------------------------------------------------------
def test_16_2_a_ferry_card_is_the_whole_turn_and_two_is_the_most():
    g = italy()
    assert DrawFerryCard(0) in g.legal_actions(0)
    events = g.apply(DrawFerryCard(0))
    assert events[0] == {"type": "draw_ferry_card", "seat": 0, "held": 1}
    assert g.current == 1 and held(g) == 1
    g.apply(DrawFerryCard(1))
    g.apply(DrawFerryCard(0))
    assert held(g) == 2 and DrawFerryCard(0) not in g.legal_actions(1)
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    assert refuse(g, DrawFerryCard(0)) == "ferry_cards_max"
    assert DrawFerryCard(0) not in g.legal_actions(0)


def test_16_2_ferry_cards_are_public_and_survive_a_determinization():
    g = italy(ferry={1: 2})
    assert view(g, 0).extra["ferry_cards"]["held"] == [0, 2]
    assert determinize(view(g, 0), None).extra["ferry_cards"]["held"] == [0, 2]


# ----- §16.3 paying a ferry route -----------------------------------------------------------------
@pytest.mark.parametrize("pay,ferry,ok", [
    (cards(red=2, locomotive=2), 0, True),          # a locomotive per wave
    (cards(red=2), 1, True),                        # one ferry card covers both waves
    (cards(red=2, locomotive=1), 1, True),          # a card for one wave, a locomotive the other
    (cards(locomotive=2), 1, True),                 # locomotives on the plain spaces
    (cards(red=4), 0, False),                       # coloured cards never pay a wave
    (cards(red=3), 1, False),                       # likewise, beside a ferry card
    (cards(red=1, green=1, locomotive=2), 0, False),    # one colour on the plain spaces
    (cards(red=2, locomotive=2), 1, False),         # a ferry card with nothing to cover
])
def test_16_3_waves_take_locomotives_or_ferry_cards(pay, ferry, ok):
    g = italy(hands={0: cards(red=4, green=1, locomotive=2)}, ferry={0: 2})
    r = route(g, *CROAZIA)
    claim = A.ClaimRoute(0, r, pay, ferry=ferry)
    if ok:
        g.apply(claim)
        assert g.owner[r] == 0 and held(g) == 2 - ferry and g.route_points[0] == 7
    else:
        assert refuse(g, claim) in ("pay_waves", "pay_one_color")


def test_16_3_ferry_cards_only_on_wave_routes_and_only_those_held():
    g = italy(hands={0: cards(red=4)}, ferry={0: 1})
    assert refuse(g, A.ClaimRoute(0, route(g, "Bari", "Foggia", "red"), cards(red=3), ferry=1)) \
        == "no_ferry_here"
    g2 = italy(hands={0: cards(red=2)})
    assert refuse(g2, A.ClaimRoute(0, route(g2, *CROAZIA), cards(red=2), ferry=1)) == "ferry_cards_missing"
    usa = make_game("usa")
    arrange(usa, hands={0: cards(red=4)}, faceup=FACE)
    assert refuse(usa, A.ClaimRoute(0, 0, cards(red=1), ferry=1)) == "no_ferry_here"


def test_16_3_the_listed_claims_spend_only_held_ferry_cards():
    g = italy(hands={0: cards(red=2, locomotive=1)}, ferry={0: 1})
    r = route(g, *CROAZIA)
    listed = {(a.cards, a.ferry) for a in g.legal_actions(0)
              if isinstance(a, A.ClaimRoute) and a.route == r}
    assert listed == {(cards(red=2), 1), (cards(red=2, locomotive=1), 1),
                      (cards(red=1, locomotive=1), 1)}


# ----- §16.4 the region bonus ---------------------------------------------------------------------
@pytest.mark.parametrize("regions,points", [(0, 0), (4, 0), (5, 1), (8, 7), (14, 46), (15, 56), (18, 56)])
def test_16_4_the_table(regions, points):
    assert Regions(board("italy")).points(regions) == points


def test_16_4_each_network_alone_and_whole_islands_count_twice():
    g = italy()
    b = g.board
    sard = [route(g, "Cagliari", "Olbia", "blue"), route(g, "Olbia", "Sassari", "red")]
    give_routes(g, 0, sard)
    assert network_regions(b, g.routes_of[0], b.rules.region_double) == [2]   # Sardegna whole
    give_routes(g, 0, [route(g, "Olbia", "Roma", lane=1), route(g, "Roma", "Grosseto", "green"),
                       route(g, "Grosseto", "Perugia"), route(g, "Perugia", "Ancona")])
    # Sardegna (twice), Roma, Toscana, Umbria, Marche: 6 -> 2 points
    assert g.scores()[0][0]["bonuses"]["regions"] == 2
    give_routes(g, 0, [route(g, "Bari", "Taranto", "purple"), route(g, "Lecce", "Taranto", "red")])
    # a separate network: Puglia (not whole: Foggia missing) alone: 1 region -> 0
    assert sorted(network_regions(b, g.routes_of[0], b.rules.region_double)) == [1, 6]
    give_routes(g, 0, [route(g, "Bari", "Foggia", "red")])
    assert sorted(network_regions(b, g.routes_of[0], b.rules.region_double)) == [2, 6]


# ----- §16.5 precise points -----------------------------------------------------------------------
def test_16_5_1_two_ferry_cards_never_pay_two_waves():
    g = italy(hands={0: cards(red=2)}, ferry={0: 2})
    assert refuse(g, A.ClaimRoute(0, route(g, *CROAZIA), cards(red=2), ferry=2)) == "pay_waves"


def test_16_5_2_countries_belong_to_no_region():
    g = italy()
    give_routes(g, 0, [route(g, "Torino", "Francia", "yellow"), route(g, "Torino", "Monaco")])
    assert network_regions(g.board, g.routes_of[0], g.rules.region_double) == [1]


@pytest.mark.parametrize("n,closed", [(2, True), (3, True), (4, False), (5, False)])
def test_16_5_3_the_triple_napoli_roma(n, closed):
    g = italy(n=n, hands={0: cards(yellow=4)})
    lanes = [route(g, "Napoli", "Roma", c) for c in ("yellow", "white", "red")]
    g.apply(A.ClaimRoute(0, lanes[0], cards(yellow=4)))
    assert all((g.route_blocked(1, r) == DOUBLE_CLOSED) == closed for r in lanes[1:])


def test_16_5_4_the_francia_ticket_names_the_country():
    b = board("italy")
    t = b.tickets[ticket(b, "Francia", "Austria")]
    assert (t.origin, t.dests, t.points) == ("Francia", ("Austria",), (11,))


def test_16_5_6_no_pass_while_a_ferry_card_can_be_drawn():
    g = italy()
    g.deck, g.discard, g.faceup = [], [], []
    g.ticket_deck.clear()
    g.hands = [[0] * 9 for _ in range(2)]
    assert not g.can_pass(0) and g.legal_actions(0) == [DrawFerryCard(0)]
    g.extra["ferry_cards"]["held"][0] = 2
    assert g.can_pass(0)


# ----- records ----------------------------------------------------------------------------------
def test_the_record_names_ferry_cards_in_the_payment():
    g = italy(hands={0: cards(red=2)}, ferry={0: 1})
    claim = A.ClaimRoute(0, route(g, *CROAZIA), cards(red=2), ferry=1)
    obj = action_to_json(g, claim, ["ann", "bob"])
    assert obj["cards"] == {"red": 2, "ferry": 1}
    assert action_from_json(g, obj, ["ann", "bob"]) == claim
    assert action_to_json(g, DrawFerryCard(0), ["ann", "bob"]) == {"player": "ann", "type": "draw_ferry_card"}


def test_golden_record_italy():
    """ann crosses from Sardegna to Roma and Puglia, then to Sicilia, with three ferry cards; bob
    claims Bergamo–Milano and Milano–Torino. By hand, ann's 15 routes: Cagliari–Olbia 4 (7),
    Olbia–Sassari 2 (2), Olbia–Roma 4 (7; red 2 and a ferry card on the two waves),
    Roma–Grosseto 3 (4), Grosseto–Perugia 2 (2), Perugia–Ancona 2 (2), Roma–Napoli 4 (7),
    Napoli–Salerno 1 (1), Salerno–Taranto 5 (10), Taranto–Bari 1 (1), Cagliari–Palermo 7 (18;
    black 3 and two ferry cards on the four waves), Palermo–Messina 4 (7), Messina–Catania 2
    (2), Catania–Siracusa 1 (1), Agrigento–Palermo 2 (2): 73 points, 44 trains (1 left).
    Tickets: Sassari–Roma 7, Olbia–Napoli 9, Palermo–Siracusa 5, Roma–Palermo 13 done,
    Firenze–Roma 5 missed: 29. One network in the regions Sardegna (whole: twice), Roma,
    Toscana, Umbria, Marche, Campania, Puglia (not whole), Sicilia (whole: twice): 10 -> 16.
    ann: 73 + 29 + 16 = 118, no ferry card left.
    bob: 1 + 4 = 5; Milano–Bologna 4, Torino–Firenze 7, Milano–Trieste 8 missed: -19; one
    network in two regions: 0. bob: -14."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over
    assert sum(a["type"] == "draw_ferry_card" for a in doc["actions"]) == 3
    ann, bob = result(game, names)["players"]
    assert (ann["route_points"], ann["ticket_points"], ann["bonuses"]["regions"]) == (73, 29, 16)
    assert (ann["total"], ann["ferry_cards"], ann["trains_left"]) == (118, 0, 1)
    assert (bob["route_points"], bob["ticket_points"], bob["bonuses"]["regions"], bob["total"]) \
        == (5, -19, 0, -14)


def test_the_menus_offer_only_payments_the_held_ferry_cards_allow():
    g = italy(hands={0: cards(red=2, locomotive=1)})
    r = route(g, *CROAZIA)
    assert all(r != ro.index for ro, _ in view(g, 0).claimable_routes())   # no card: 1 loco < 2 waves
    g.extra["ferry_cards"]["held"][0] = 1
    [(ro, pays)] = [(ro, p) for ro, p in view(g, 0).claimable_routes() if ro.index == r]
    assert set(pays) == {cards(red=2), cards(red=2, locomotive=1), cards(red=1, locomotive=1)}
