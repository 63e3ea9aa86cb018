"""RULES.md §12 India: setup, ferries, the Grand Tour bonus (two paths sharing no route), the
longest path; and a golden record scored by hand."""
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
from ttr_bot.engine.mechanics.grand_tour import disjoint_paths
from ttr_bot.engine.seat_rules import DOUBLE_CLOSED, DOUBLE_OWN
from ttr_bot.game_record import replay, result

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "india_grand_tours.json"
FACE = [WHITE, WHITE, RED, RED, GREEN]


def india(n=2, hands=None, tickets=None, **kw):
    g = make_game("india", n, tickets=tickets, **kw)
    return arrange(g, hands=hands or {}, faceup=FACE)


def holding(g, seat, *pairs):
    """Seat `seat` holds exactly these tickets."""
    g.tickets[seat] = [ticket(g, a, b) for a, b in pairs]


def tours(g, seat):
    pl = g.scores()[0][seat]
    return pl["grand_tours"], pl["bonuses"]["grand_tour"]


# ----- §12.1 components and setup ------------------------------------------------------------
def test_12_1_two_to_four_players_45_trains_and_the_map():
    b = board("india")
    assert (b.rules.min_players, b.rules.max_players, b.rules.trains) == (2, 4, 45)
    assert (len(b.nodes), len(b.routes), len(b.tickets)) == (39, 108, 58)
    [cm] = [r for r in b.routes if {b.nodes[r.a].name, b.nodes[r.b].name} == {"Calcutta", "Madras"}]
    assert (cm.length, cm.ferry, b.rules.route_points[8]) == (8, 2, 21)
    with pytest.raises(ValueError):
        make_game("india", 5)


def test_12_1_deal_four_keep_two_later_three_keep_one_unkept_to_the_bottom():
    g = make_game("india", 2, setup=False)
    assert [len(o) for o in g.offers] == [4, 4]
    assert refuse(g, A.KeepTickets(0, tuple(g.offers[0][:1]))) == "keep_at_least"
    returned = g.offers[0][2:]
    g.apply(A.KeepTickets(0, tuple(g.offers[0][:2])))
    assert list(g.ticket_deck)[-2:] == returned
    g.apply(A.KeepTickets(1, tuple(g.offers[1])))
    top = list(g.ticket_deck)[:3]
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == top and g.keep_min(0) == 1
    g.apply(A.KeepTickets(0, (top[2],)))
    assert list(g.ticket_deck)[-2:] == top[:2]


@pytest.mark.parametrize("n,closed", [(2, True), (3, True), (4, False)])
def test_12_1_doubles_one_lane_at_2_3_both_at_4(n, closed):
    g = india(n=n, hands={0: cards(purple=1)})
    purple, red = route(g, "Agra", "Bhopal", "purple"), route(g, "Agra", "Bhopal", "red")
    g.apply(A.ClaimRoute(0, purple, cards(purple=1)))
    assert g.route_blocked(1, red) == (DOUBLE_CLOSED if closed else None)
    assert g.route_blocked(0, red) == DOUBLE_OWN


# ----- §12.2 ferries ---------------------------------------------------------------------------
@pytest.mark.parametrize("pay,ok", [(cards(black=7, locomotive=1), False),
                                    (cards(black=6, locomotive=2), True),
                                    (cards(locomotive=8), True)])
def test_12_2_ferries_need_their_locomotives(pay, ok):
    g = india(hands={0: cards(black=7, locomotive=8)})
    r = route(g, "Calcutta", "Madras")
    if ok:
        g.apply(A.ClaimRoute(0, r, pay))
        assert g.route_points[0] == 21
    else:
        assert refuse(g, A.ClaimRoute(0, r, pay)) == "ferry_locos"


# ----- §12.3 the Grand Tour ----------------------------------------------------------------------
TRIANGLE = [("Agra", "Delhi"), ("Delhi", "Jaipur"), ("Agra", "Jaipur", "blue")]


def own(g, seat, *specs):
    give_routes(g, seat, [route(g, *s) for s in specs])


def test_12_3_a_completed_ticket_joined_twice_is_a_grand_tour():
    g = india()
    own(g, 0, *TRIANGLE)                                    # Agra, Delhi, Jaipur: a loop
    holding(g, 0, ("Jaipur", "Patna"))                      # not joined yet
    assert tours(g, 0) == (0, 0)
    own(g, 0, ("Agra", "Katni"), ("Katni", "Patna", None, 1))   # Patna: one way only
    assert tours(g, 0) == (0, 0)
    own(g, 0, ("Delhi", "Bareilly"), ("Bareilly", "Patna"))      # a second way, no route shared
    assert tours(g, 0) == (1, 5)


@pytest.mark.parametrize("count,points", [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40)])
def test_12_3_the_bonus_table(count, points):
    from ttr_bot.engine.mechanics.grand_tour import GrandTour
    assert GrandTour(board("india")).points(count) == points


# ----- §12.4 scoring ----------------------------------------------------------------------------
def test_12_4_longest_path_ten_and_the_total_adds_every_part():
    g = india()
    own(g, 0, *TRIANGLE, ("Delhi", "Bareilly"), ("Bareilly", "Patna"), ("Agra", "Katni"),
        ("Katni", "Patna", None, 1))
    holding(g, 0, ("Jaipur", "Patna"))
    own(g, 1, ("Bombay", "Poona"))
    players, winners = g.scores()
    a = players[0]
    assert a["bonuses"]["longest_path"] == 10 and players[1]["bonuses"]["longest_path"] == 0
    assert a["total"] == a["route_points"] + a["ticket_points"] + 10 + 5 and winners == [0]


# ----- §12.5 precise points ---------------------------------------------------------------------
def test_12_5_1_paths_may_share_a_city_never_a_route():
    g = india()
    # a figure-eight through Delhi: Jaipur–Agra–Delhi–Jaipur and Delhi–Lucknow–Bareilly–Delhi
    own(g, 0, *TRIANGLE, ("Delhi", "Lucknow"), ("Bareilly", "Lucknow"), ("Bareilly", "Delhi"))
    holding(g, 0, ("Jaipur", "Patna"), ("Jodhpur", "Lucknow"))
    own(g, 0, ("Bareilly", "Patna"), ("Lucknow", "Katni", "blue"), ("Katni", "Patna", None, 1))
    # Jaipur -> Patna: Jaipur–Delhi–Bareilly–Patna and Jaipur–Agra–Delhi–Lucknow–Katni–Patna
    # share the city Delhi and no route
    assert tours(g, 0)[0] == 1
    b = g.board
    assert disjoint_paths(b, g.routes_of[0], b.place_nodes["Jaipur"], b.place_nodes["Lucknow"]) == 2
    # a path that must cross one route (Jodhpur hangs on one) is never a Grand Tour
    own(g, 0, ("Jaipur", "Jodhpur"))
    assert disjoint_paths(b, g.routes_of[0], b.place_nodes["Jodhpur"], b.place_nodes["Lucknow"]) == 1
    assert tours(g, 0)[0] == 1


def test_12_5_2_a_failed_ticket_is_never_a_grand_tour():
    g = india()
    own(g, 0, *TRIANGLE)
    holding(g, 0, ("Jaipur", "Raipur"))
    assert g.scores()[0][0]["tickets"][0]["completed"] is False and tours(g, 0) == (0, 0)


def test_12_5_3_the_two_lanes_of_a_pair_never_make_a_tour():
    g = india(n=4, hands={0: cards(purple=1, red=1)})
    purple, red = route(g, "Agra", "Bhopal", "purple"), route(g, "Agra", "Bhopal", "red")
    g.apply(A.ClaimRoute(0, purple, cards(purple=1)))
    assert g.route_blocked(0, red) == DOUBLE_OWN


def test_12_5_4_more_than_five_tours_still_score_40():
    g = india()
    # a wheel: every ticket between two of its cities is joined twice
    own(g, 0, *TRIANGLE, ("Delhi", "Lucknow"), ("Agra", "Lucknow"), ("Bareilly", "Lucknow"),
        ("Bareilly", "Delhi"), ("Jaipur", "Jodhpur"), ("Delhi", "Bhatinda"), ("Bhatinda", "Jodhpur"),
        ("Ambala", "Bhatinda", "white"), ("Ambala", "Delhi", None, 1), ("Lahore", "Ambala"),
        ("Lahore", "Bhatinda", None, 1))
    # six kept tickets, each joined twice (a deck holds each ticket once: the same two, thrice)
    g.tickets[0] = [ticket(g, "Jodhpur", "Lucknow"), ticket(g, "Lahore", "Delhi")] * 3
    assert tours(g, 0) == (6, 40)


# ----- the golden record -----------------------------------------------------------------------
def test_golden_record_india():
    """ann builds two loops round Calcutta and one round Madras; bob a chain in the north-west.
    By hand, ann's 13 routes: Calcutta–Madras 8 (21), Madras–Waltair 3 (4), Calcutta–Waltair 4
    (7), Raipur–Waltair 3 (4), Calcutta–Raipur 4 (7), Guntakal–Madras 2 (2), Bezwada–Guntakal 2
    (2), Bezwada–Madras 1 (1), Calcutta–Patna 2 (2), Dhubri–Patna 2 (2), Calcutta–Dhubri 2 (2),
    Bombay–Calicut 6 (15), Khandwa–Raipur 4 (7): 76 points, 43 trains (2 left: the last round).
    Tickets: Raipur–Guntakal 7 (Raipur–Waltair–Madras–Guntakal and
    Raipur–Calcutta–Madras–Bezwada–Guntakal: done, no route shared: a Grand Tour through
    Madras twice), Patna–Madras 9 (Patna–Calcutta–Madras and Patna–Dhubri–Calcutta–Waltair–
    Madras: a Grand Tour), Calcutta–Erode 9 (missed): 7 + 9 - 9 = 7. Two Grand Tours: +10.
    Longest path: ann's trail is longer than bob's whole network (19): +10 to ann.
    ann: 76 + 7 + 10 + 10 = 103.
    bob: Peshawar–Jacobabad 3 (4), Jacobabad–Karachi 4 (7), Karachi–Jodhpur 3 (4),
    Jodhpur–Bhatinda 3 (4), Bhatinda–Ambala 2 (2), Ambala–Lahore 4 (7): 28 points, one chain of
    19 cars; Rohri–Agra 7 and Lahore–Delhi 5 missed: -12. bob: 28 - 12 = 16."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over and doc["reshuffles"]
    ann, bob = result(game, names)["players"]
    assert (ann["route_points"], ann["ticket_points"], ann["trains_left"]) == (76, 7, 2)
    assert ann["grand_tours"] == 2 and ann["bonuses"]["grand_tour"] == 10
    assert ann["bonuses"]["longest_path"] == 10 and ann["longest_path"] > bob["longest_path"] == 19
    assert ann["total"] == 103
    assert (bob["route_points"], bob["ticket_points"], bob["grand_tours"], bob["total"]) == (28, -12, 0, 16)
    assert result(game, names)["winners"] == ["ann"]
