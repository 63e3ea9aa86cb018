"""docs/rules.md §6 Europe: ferries, tunnels, stations, long tickets, European Express, tie-breaks."""
from collections import Counter

import pytest

from tests.engine.rulekit import (
    BLUE,
    GREEN,
    LOCO,
    ORANGE,
    RED,
    WHITE,
    YELLOW,
    A,
    arrange,
    board,
    card_total,
    cards,
    give_routes,
    make_game,
    node,
    refuse,
    route,
    ticket,
)

FACE = [ORANGE, WHITE, YELLOW, ORANGE, WHITE]


def europe(n=2, hands=None, deck=(), discard=(), **kw):
    g = make_game("europe", n, **kw)
    return arrange(g, hands=hands or {}, faceup=FACE, deck=list(deck), discard=list(discard))


# ----- the map ----------------------------------------------------------------------------
def test_europe_has_47_cities_and_routes_up_to_8_without_lengths_5_and_7():
    b = board("europe")
    assert len(b.nodes) == 47
    lengths = {r.length for r in b.routes}
    assert max(lengths) == 8 and 5 not in lengths and 7 not in lengths


def test_length_8_route_scores_21():
    g = europe(hands={0: cards(green=8)}, deck=[RED, RED, RED])
    r = route(g, "Petrograd", "Stockholm")             # gray tunnel, 8
    g.apply(A.ClaimRoute(0, r, cards(green=8)))
    assert g.owner[r] == 0 and g.route_points[0] == 21


# ----- ferries ----------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,pay,ok", [
    ("Dieppe", "London", cards(red=2), False),
    ("Dieppe", "London", cards(red=1, locomotive=1), True),
    ("Dieppe", "London", cards(locomotive=2), True),
    ("Amsterdam", "London", cards(red=1, locomotive=1), False),
    ("Amsterdam", "London", cards(locomotive=2), True),
    ("Palermo", "Smyrna", cards(red=5, locomotive=1), False),
    ("Palermo", "Smyrna", cards(red=4, locomotive=2), True),
    ("Palermo", "Smyrna", cards(red=1, locomotive=5), True),
])
def test_ferry_payment_contains_at_least_its_locomotives(a, b, pay, ok):
    g = europe(hands={0: cards(red=6, blue=6, locomotive=6)})
    r = [x.index for x in g.board.routes
         if {g.board.nodes[x.a].name, g.board.nodes[x.b].name} == {a, b}][0]
    if ok:
        g.apply(A.ClaimRoute(0, r, pay))
        assert g.owner[r] == 0
    else:
        assert refuse(g, A.ClaimRoute(0, r, pay)) == "ferry_locos"


def test_ferry_remaining_cards_are_one_colour():
    g = europe(hands={0: cards(red=6, blue=6, locomotive=6)})
    r = route(g, "Palermo", "Smyrna")
    assert refuse(g, A.ClaimRoute(0, r, cards(red=3, blue=1, locomotive=2))) == "pay_one_color"


# ----- tunnels ----------------------------------------------------------------------------
MV = ("München", "Venezia")          # blue tunnel, 2


def test_tunnel_extra_cost_counts_revealed_cards_of_the_colour_used_and_locomotives():
    g = europe(hands={0: cards(blue=5, locomotive=2)}, deck=[BLUE, LOCO, RED, GREEN])
    r = route(g, *MV)
    events = g.apply(A.ClaimRoute(0, r, cards(blue=2)))
    assert g.step == "tunnel" and g.current == 0
    reveal = [e for e in events if e["type"] == "tunnel_reveal"][0]
    assert sorted(reveal["revealed"]) == sorted([BLUE, LOCO, RED])
    assert reveal["extra"] == 2
    assert g.hands[0] == list(cards(blue=3, locomotive=2))       # laid cards are out of hand
    assert card_total(g) == 110
    g.apply(A.TunnelPay(0, cards(blue=1, locomotive=1)))
    assert g.owner[r] == 0 and g.route_points[0] == 2 and g.trains[0] == 43
    assert g.hands[0] == list(cards(blue=2, locomotive=1))
    assert Counter(g.discard) == Counter([BLUE, BLUE, BLUE, LOCO, BLUE, LOCO, RED])
    assert g.current == 1


def test_tunnel_extra_with_colour_and_locomotive_payment():
    g = europe(hands={0: cards(blue=5, locomotive=3)}, deck=[BLUE, BLUE, LOCO])
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(blue=1, locomotive=1)))
    assert g.tunnel.extra == 3


def test_gray_tunnel_counts_the_colour_the_player_chose():
    g = europe(hands={0: cards(green=5, red=4)}, deck=[GREEN, RED, RED])
    g.apply(A.ClaimRoute(0, route(g, "Paris", "Zürich"), cards(green=3)))
    assert g.tunnel.extra == 1
    assert refuse(g, A.TunnelPay(0, cards(red=1))) == "tunnel_pay_color"
    g.apply(A.TunnelPay(0, cards(green=1)))
    assert g.owner[route(g, "Paris", "Zürich")] == 0


def test_tunnel_paid_only_with_locomotives_counts_only_revealed_locomotives():
    g = europe(hands={0: cards(blue=5, locomotive=4)}, deck=[BLUE, BLUE, LOCO])
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(locomotive=2)))
    assert g.tunnel.extra == 1
    assert refuse(g, A.TunnelPay(0, cards(blue=1))) == "tunnel_pay_color"
    g.apply(A.TunnelPay(0, cards(locomotive=1)))
    assert g.owner[route(g, *MV)] == 0


def test_tunnel_extra_must_be_exactly_the_number_required():
    g = europe(hands={0: cards(blue=6)}, deck=[BLUE, BLUE, RED])
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(blue=2)))
    assert refuse(g, A.TunnelPay(0, cards(blue=1))) == "tunnel_pay_exact"
    assert refuse(g, A.TunnelPay(0, cards(blue=3))) == "tunnel_pay_exact"


def test_tunnel_decline_returns_the_cards_and_ends_the_turn():
    g = europe(hands={0: cards(blue=2)}, deck=[BLUE, LOCO, RED, GREEN])
    r = route(g, *MV)
    g.apply(A.ClaimRoute(0, r, cards(blue=2)))
    assert g.legal_actions(0) == [A.TunnelDecline(0)]      # cannot pay 2 more
    g.apply(A.TunnelDecline(0))
    assert g.hands[0] == list(cards(blue=2))
    assert g.owner[r] == -1 and g.trains[0] == 45 and g.route_points[0] == 0
    assert sorted(g.discard) == sorted([BLUE, LOCO, RED])        # revealed: discarded
    assert g.current == 1 and g.step == "idle"
    assert card_total(g) == 110


def test_tunnel_without_extra_is_claimed_at_once():
    g = europe(hands={0: cards(blue=2)}, deck=[RED, GREEN, WHITE])
    r = route(g, *MV)
    g.apply(A.ClaimRoute(0, r, cards(blue=2)))
    assert g.owner[r] == 0 and g.step == "idle" and g.current == 1
    assert sorted(g.discard) == sorted([BLUE, BLUE, RED, GREEN, WHITE])


def test_tunnel_reveals_fewer_than_3_when_the_decks_run_low():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=4)}, faceup=FACE, deck=[BLUE], discard=[], rest=1)
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(blue=2)))
    assert g.tunnel.revealed == [BLUE] and g.tunnel.extra == 1
    g.apply(A.TunnelPay(0, cards(blue=1)))
    assert g.owner[route(g, *MV)] == 0


def test_tunnel_with_nothing_to_reveal_is_claimed_at_once():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=2)}, faceup=FACE, deck=[], discard=[], rest=1)
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(blue=2)))
    assert g.owner[route(g, *MV)] == 0 and g.current == 1


def test_nothing_else_may_happen_while_a_tunnel_is_pending():
    g = europe(hands={0: cards(blue=5, red=5), 1: cards(red=4)}, deck=[BLUE, RED, RED])
    g.apply(A.ClaimRoute(0, route(g, *MV), cards(blue=2)))
    assert refuse(g, A.DrawCard(0)) == "tunnel_pending"
    assert refuse(g, A.DrawCard(0, ORANGE)) == "tunnel_pending"
    assert refuse(g, A.DrawTickets(0)) == "tunnel_pending"
    assert refuse(g, A.ClaimRoute(0, route(g, "Berlin", "Frankfurt", "red"),
                                  cards(red=3))) == "tunnel_pending"
    assert refuse(g, A.BuildStation(0, node(g, "Paris"), cards(red=1))) == "tunnel_pending"
    assert refuse(g, A.Pass(0)) == "tunnel_pending"
    assert refuse(g, A.DrawCard(1)) == "not_your_turn"
    assert refuse(g, A.TunnelPay(1, cards(red=1))) == "not_your_turn"


def test_tunnel_pay_or_decline_only_when_a_tunnel_is_pending():
    g = europe(hands={0: cards(blue=5)})
    assert refuse(g, A.TunnelPay(0, cards(blue=1))) == "no_tunnel"
    assert refuse(g, A.TunnelDecline(0)) == "no_tunnel"


# ----- stations ---------------------------------------------------------------------------
def test_stations_cost_1_then_2_then_3_cards_of_one_colour():
    g = europe(hands={0: cards(red=6, blue=6, locomotive=2), 1: cards()})
    paris, wien, roma = node(g, "Paris"), node(g, "Wien"), node(g, "Roma")
    assert refuse(g, A.BuildStation(0, paris, cards(red=2))) == "station_cost"
    g.apply(A.BuildStation(0, paris, cards(blue=1)))
    assert g.stations_left[0] == 2 and g.station_owner[paris] == 0
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    assert refuse(g, A.BuildStation(0, wien, cards(red=1))) == "station_cost"
    assert refuse(g, A.BuildStation(0, wien, cards(red=1, blue=1))) == "pay_one_color"
    g.apply(A.BuildStation(0, wien, cards(red=1, locomotive=1)))
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    assert refuse(g, A.BuildStation(0, roma, cards(red=2))) == "station_cost"
    g.apply(A.BuildStation(0, roma, cards(red=3)))
    assert g.stations_left[0] == 0
    assert Counter(g.discard) == Counter([BLUE, RED, LOCO, RED, RED, RED])
    assert card_total(g) == 110


def test_three_stations_per_player():
    g = europe(hands={0: cards(red=6)})
    g.stations_left[0] = 0
    assert refuse(g, A.BuildStation(0, node(g, "Paris"), cards(red=3))) == "no_stations_left"


def test_one_station_per_city():
    g = europe(hands={0: cards(red=2), 1: cards(blue=2)})
    paris = node(g, "Paris")
    g.apply(A.BuildStation(0, paris, cards(red=1)))
    assert refuse(g, A.BuildStation(1, paris, cards(blue=1))) == "station_taken"


def station_game(own, opp, stations, tickets, n=2):
    """Seat 0 owns `own`, seat 1 owns `opp`, seat 0 has stations on `stations`."""
    g = make_game("europe", n)
    g.tickets = [[] for _ in range(n)]
    give_routes(g, 0, [route(g, *r) for r in own])
    give_routes(g, 1, [route(g, *r) for r in opp])
    for city in stations:
        c = node(g, city)
        g.station_owner[c] = 0
        g.stations_of[0].append(c)
        g.stations_left[0] -= 1
    g.tickets[0] = [ticket(g, *t) for t in tickets]
    return g


def test_station_borrows_one_opponent_route_for_tickets():
    # Madrid–Dieppe (8): own Madrid–Pamplona, Paris–Dieppe; opponent has Pamplona–Paris
    g = station_game(own=[("Madrid", "Pamplona", "black"), ("Paris", "Dieppe", "purple")],
                     opp=[("Pamplona", "Paris", "blue")], stations=["Pamplona"],
                     tickets=[("Madrid", "Dieppe")])
    p = g.scores()[0][0]
    assert p["tickets_completed"] == 1 and p["ticket_points"] == 8


def test_without_the_station_the_ticket_fails():
    g = station_game(own=[("Madrid", "Pamplona", "black"), ("Paris", "Dieppe", "purple")],
                     opp=[("Pamplona", "Paris", "blue")], stations=[],
                     tickets=[("Madrid", "Dieppe")])
    assert g.scores()[0][0]["ticket_points"] == -8


def test_a_borrowed_route_never_counts_for_the_longest_path():
    g = station_game(own=[("Madrid", "Pamplona", "black"), ("Paris", "Dieppe", "purple")],
                     opp=[("Pamplona", "Paris", "blue")], stations=["Pamplona"],
                     tickets=[("Madrid", "Dieppe")])
    players = g.scores()[0]
    assert players[0]["longest_path"] == 3
    assert players[1]["bonuses"]["longest_path"] == 10
    assert players[0]["bonuses"]["longest_path"] == 0


def test_a_station_uses_only_one_route():
    # ticket Brest–Marseille (7) needs both of the opponent's routes through Pamplona
    g = station_game(own=[], opp=[("Brest", "Pamplona", "purple"),
                                  ("Pamplona", "Marseille", "red")],
                     stations=["Pamplona"], tickets=[("Brest", "Marseille")])
    assert g.scores()[0][0]["ticket_points"] == -7


def test_station_owner_gets_the_route_that_scores_best():
    # one station at Paris, two opponent routes there: Brest–Paris would complete
    # Brest–Marseille (7), Pamplona–Paris would complete Madrid–Dieppe (8): take the latter
    g = station_game(own=[("Madrid", "Pamplona", "black"), ("Paris", "Dieppe", "purple"),
                          ("Paris", "Marseille", "gray")],
                     opp=[("Pamplona", "Paris", "blue"), ("Brest", "Paris", "black")],
                     stations=["Paris"],
                     tickets=[("Brest", "Marseille"), ("Madrid", "Dieppe")])
    p = g.scores()[0][0]
    assert p["ticket_points"] == 8 - 7
    assert p["tickets_completed"] == 1


def test_each_unused_station_is_worth_4():
    g = europe(hands={0: cards(red=1)})
    g.tickets = [[], []]
    assert [p["bonuses"]["stations"] for p in g.scores()[0]] == [12, 12]
    g.apply(A.BuildStation(0, node(g, "Paris"), cards(red=1)))
    assert [p["bonuses"]["stations"] for p in g.scores()[0]] == [8, 12]
    assert g.scores()[0][0]["total"] == 8 + 10 and g.scores()[0][1]["total"] == 12 + 10


# ----- long tickets -----------------------------------------------------------------------
def long_setup(n=2):
    return make_game("europe", n, tickets=list(range(40)), long_tickets=list(range(40, 46)),
                     setup=False)


def test_setup_deals_1_long_and_3_regular_tickets():
    g = long_setup()
    assert g.offers == [[40, 0, 1, 2], [41, 3, 4, 5]]
    assert all(g.board.tickets[o[0]].long for o in g.offers)


def test_keep_at_least_2_of_the_4_in_any_mix():
    g = long_setup()
    assert refuse(g, A.KeepTickets(0, (40,))) == "keep_at_least"
    g.apply(A.KeepTickets(0, (0, 1)))         # no long ticket at all
    g.apply(A.KeepTickets(1, (41, 3, 4, 5)))
    assert g.tickets == [[0, 1], [41, 3, 4, 5]]


def test_unkept_starting_tickets_leave_the_game():
    g = long_setup()
    g.apply(A.KeepTickets(0, (0, 1)))
    g.apply(A.KeepTickets(1, (41, 3)))
    assert list(g.ticket_deck) == list(range(6, 40))
    assert list(g.long_deck) == [42, 43, 44, 45]
    seen = set(g.ticket_deck) | set(g.long_deck) | {t for ts in g.tickets for t in ts}
    assert not seen & {40, 2, 4, 5}


def test_later_draws_come_from_the_regular_deck_and_return_to_its_bottom():
    g = long_setup()
    g.apply(A.KeepTickets(0, (0, 1)))
    g.apply(A.KeepTickets(1, (3, 4)))
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [6, 7, 8]
    g.apply(A.KeepTickets(0, (7,)))
    assert list(g.ticket_deck)[-2:] == [6, 8]
    assert list(g.long_deck) == [42, 43, 44, 45]


# ----- European Express and tie-breaks ----------------------------------------------------
def test_european_express_is_10_points():
    g = station_game(own=[("Berlin", "Danzig", "gray")], opp=[], stations=[], tickets=[])
    p = g.scores()[0]
    assert p[0]["bonuses"]["longest_path"] == 10 and p[1]["bonuses"]["longest_path"] == 0


def test_tie_on_points_and_tickets_goes_to_fewest_stations_before_the_express():
    # seat 0: 4-route (7) + Express (10), three stations placed (0 bonus) = 17
    # seat 1: a 3-route (4) + a 1-route (1), no stations (12) = 17
    g = station_game(own=[("Berlin", "Danzig", "gray")],
                     opp=[("Berlin", "Frankfurt", "red"), ("Amsterdam", "Bruxelles", "black")],
                     stations=["Roma", "Wien", "Madrid"], tickets=[])
    players, winners = g.scores()
    assert [p["total"] for p in players] == [17, 17]
    assert players[0]["bonuses"]["longest_path"] == 10
    assert winners == [1]
