"""docs/rules.md §8 Switzerland: locomotives only on tunnels, face-up locomotives are ordinary,
country tickets, ticket counts, double routes, longest path."""
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
    cards,
    give_routes,
    make_game,
    node,
    refuse,
    route,
)

FACE = [WHITE, YELLOW, WHITE, YELLOW, WHITE]


def swiss(n=2, hands=None, faceup=FACE, deck=(), **kw):
    g = make_game("switzerland", n, **kw)
    return arrange(g, hands=hands or {}, faceup=faceup, deck=list(deck))


# ----- locomotives ------------------------------------------------------------------------
@pytest.mark.parametrize("pay", [cards(orange=2, locomotive=1), cards(locomotive=3)])
def test_locomotives_may_not_be_used_on_an_ordinary_route(pay):
    g = swiss(hands={0: cards(orange=5, locomotive=5)})
    r = route(g, "Schaffhausen", "Zürich", "orange")          # 3, not a tunnel
    assert refuse(g, A.ClaimRoute(0, r, pay)) == "no_locos_here"
    assert not any(isinstance(a, A.ClaimRoute) and a.route == r and a.cards[LOCO]
                   for a in g.legal_actions(0))
    g.apply(A.ClaimRoute(0, r, cards(orange=3)))
    assert g.owner[r] == 0


@pytest.mark.parametrize("pay", [cards(orange=1, locomotive=1), cards(locomotive=2)])
def test_locomotives_may_be_used_on_tunnels(pay):
    g = swiss(hands={0: cards(orange=5, locomotive=5)}, deck=[RED, GREEN, BLUE])
    r = route(g, "Basel", "Olten")                             # orange tunnel, 2
    g.apply(A.ClaimRoute(0, r, pay))
    assert g.owner[r] == 0


def test_tunnels_work_as_in_europe():
    g = swiss(hands={0: cards(orange=5, locomotive=5)}, deck=[ORANGE, LOCO, RED])
    r = route(g, "Basel", "Olten")
    g.apply(A.ClaimRoute(0, r, cards(orange=2)))
    assert g.step == "tunnel" and g.tunnel.extra == 2
    g.apply(A.TunnelPay(0, cards(orange=1, locomotive=1)))
    assert g.owner[r] == 0 and g.current == 1


def test_a_face_up_locomotive_is_an_ordinary_card_two_may_be_taken():
    g = swiss(faceup=[LOCO, LOCO, RED, BLUE, GREEN], deck=[WHITE, YELLOW])
    g.apply(A.DrawCard(0, LOCO))
    assert g.step == "second_card" and g.current == 0
    assert A.DrawCard(0, LOCO) in g.legal_actions(0)
    g.apply(A.DrawCard(0, LOCO))
    assert g.hands[0] == list(cards(locomotive=2))
    assert g.current == 1


def test_no_stations_on_switzerland():
    g = swiss(hands={0: cards(red=3)})
    assert refuse(g, A.BuildStation(0, node(g, "Bern"), cards(red=1))) == "no_stations_left"
    assert g.scores()[0][0]["bonuses"]["stations"] == 0


# ----- country tickets ----------------------------------------------------------------------
def scored(own, tickets, opp=()):
    g = make_game("switzerland", 2)
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, *r) for r in own])
    give_routes(g, 1, [route(g, *r) for r in opp])
    g.tickets[0] = list(tickets)
    return g.scores()[0][0]


def multi(origin):
    b = board("switzerland")
    return [t.id for t in b.tickets if t.origin == origin and t.multi][0]


ZH_DE = [("Zürich", "Schaffhausen", "orange"), ("Schaffhausen", "Deutschland", "yellow")]
ZH_AT = [("Zürich", "St. Gallen", "black"), ("St. Gallen", "Österreich", "gray")]


def test_city_to_country_ticket_scores_the_destination_reached():
    p = scored(ZH_DE, [multi("Zürich")])                 # Zürich: F7 D3 A7 I11
    assert p["ticket_points"] == 3 and p["tickets_completed"] == 1


def test_several_countries_reached_score_only_the_highest_value():
    p = scored(ZH_DE + ZH_AT, [multi("Zürich")])
    assert p["ticket_points"] == 7
    assert p["tickets"][0]["points"] == 7 and p["tickets"][0]["completed"] is True


def test_no_country_reached_loses_the_lowest_value():
    p = scored([("Zürich", "Baden", "yellow")], [multi("Zürich")])
    assert p["ticket_points"] == -3
    assert p["tickets"][0]["points"] == 3 and p["tickets"][0]["completed"] is False


def test_country_to_country_ticket():
    # France (Delémont border) – Deutschland (Basel border): France ticket F→D5 A14 I11
    p = scored([("Delémont", "France", "black"), ("Basel", "Delémont", "yellow"),
                ("Basel", "Deutschland", "blue")], [multi("France")])
    assert p["ticket_points"] == 5


def test_a_country_is_reached_through_any_of_its_border_points():
    kz = route(board("switzerland"), "Kreuzlingen", "Deutschland", "white")
    b = board("switzerland")
    p = scored([("Zürich", "Winterthur", "blue"), ("Winterthur", "Kreuzlingen", "yellow"),
                ("Kreuzlingen", "Deutschland", "white")], [multi("Zürich")])
    assert b.nodes[b.routes[kz].b].country or b.nodes[b.routes[kz].a].country
    assert p["ticket_points"] == 3


def test_a_network_never_connects_through_a_country():
    # Genève–France and France–Delémont–Basel: Genève and Basel are not connected
    g_b = board("switzerland")
    gb = [t.id for t in g_b.tickets if {t.origin, *t.dests} == {"Genève", "Basel"}][0]
    p = scored([("Genève", "France", "yellow"), ("Delémont", "France", "black"),
                ("Basel", "Delémont", "yellow")], [gb])
    assert p["ticket_points"] == -13


def test_each_border_point_is_its_own_city_for_the_longest_path():
    p = scored([("Genève", "France", "yellow"), ("Delémont", "France", "black"),
                ("Basel", "Delémont", "yellow")], [])
    assert p["longest_path"] == 4                         # not 1 + 2 + 2 through France


def test_the_two_kreuzlingen_deutschland_routes_are_not_a_double_route():
    g = swiss(hands={0: cards(orange=1, white=1), 1: cards(white=1)})
    r1 = route(g, "Kreuzlingen", "Deutschland", "orange")
    r2 = route(g, "Kreuzlingen", "Deutschland", "white")
    g.apply(A.ClaimRoute(0, r1, cards(orange=1)))
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    g.apply(A.ClaimRoute(0, r2, cards(white=1)))          # the same player may own both
    assert g.owner[r1] == g.owner[r2] == 0


# ----- tickets ----------------------------------------------------------------------------
def test_start_5_tickets_keep_at_least_2_unkept_leave_the_game():
    g = make_game("switzerland", 2, tickets=list(range(46)), setup=False)
    assert g.offers == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert refuse(g, A.KeepTickets(0, (0,))) == "keep_at_least"
    g.apply(A.KeepTickets(0, (0, 1)))
    g.apply(A.KeepTickets(1, (5, 6, 7, 8, 9)))
    assert list(g.ticket_deck) == list(range(10, 46))


def test_later_draw_3_keep_at_least_1_unkept_leave_the_game():
    g = make_game("switzerland", 2, tickets=list(range(46)))
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [10, 11, 12]
    assert refuse(g, A.KeepTickets(0, ())) == "keep_at_least"
    g.apply(A.KeepTickets(0, (11,)))
    assert list(g.ticket_deck) == list(range(13, 46))


# ----- double routes and bonus --------------------------------------------------------------
def test_double_route_with_2_players_only_one_lane():
    g = swiss(hands={0: cards(blue=1), 1: cards(purple=1)})
    g.apply(A.ClaimRoute(0, route(g, "Winterthur", "Zürich", "blue"), cards(blue=1)))
    assert refuse(g, A.ClaimRoute(1, route(g, "Winterthur", "Zürich", "purple"),
                                  cards(purple=1))) == "double_closed"


def test_double_route_with_3_players_both_lanes_by_different_players():
    g = swiss(3, hands={0: cards(blue=1), 1: cards(purple=1)})
    r1, r2 = route(g, "Winterthur", "Zürich", "blue"), route(g, "Winterthur", "Zürich", "purple")
    g.apply(A.ClaimRoute(0, r1, cards(blue=1)))
    g.apply(A.ClaimRoute(1, r2, cards(purple=1)))
    assert g.owner[r1] == 0 and g.owner[r2] == 1


def test_longest_path_bonus_10():
    p = scored(ZH_DE, [])
    assert p["longest_path"] == 4 and p["bonuses"]["longest_path"] == 10


def test_only_face_up_locomotives_left_still_allow_a_second_card():
    g = make_game("switzerland", 2)
    arrange(g, faceup=[RED, LOCO], deck=[], discard=[], rest=1)
    g.apply(A.DrawCard(0, RED))
    assert g.step == "second_card" and g.current == 0
    g.apply(A.DrawCard(0, LOCO))
    assert g.hands[0] == list(cards(red=1, locomotive=1)) and g.current == 1
