"""RULES.md §13 Legendary Asia: long tickets at the start, mountain routes, ferries, the Asian
Explorer, the triple Bombay–Colombo; and a golden record scored by hand."""
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
    card_total,
    cards,
    give_routes,
    make_game,
    refuse,
    route,
)
from ttr_bot.engine.seat_rules import DOUBLE_CLOSED, DOUBLE_OWN, NOT_ENOUGH_TRAINS
from ttr_bot.game_record import replay, result

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "legendary_asia_mountains.json"
FACE = [WHITE, WHITE, RED, RED, GREEN]


def asia(n=2, hands=None, **kw):
    g = make_game("legendary_asia", n, **kw)
    return arrange(g, hands=hands or {}, faceup=FACE)


# ----- §13.1 components and setup ------------------------------------------------------------
def test_13_1_setup_deals_one_long_and_three_regular_and_unkept_ones_leave_the_game():
    g = make_game("legendary_asia", 3, setup=False)
    b = g.board
    for p in range(3):
        offer = g.offers[p]
        assert len(offer) == 4 and b.tickets[offer[0]].long
        assert not any(b.tickets[t].long for t in offer[1:])
    assert (len(g.ticket_deck), len(g.long_deck)) == (30 - 9, 6 - 3)
    g = make_game("legendary_asia", 2, setup=False)
    assert refuse(g, A.KeepTickets(0, tuple(g.offers[0][:1]))) == "keep_at_least"
    g.apply(A.KeepTickets(0, tuple(g.offers[0][:2])))      # the long one and one regular
    g.apply(A.KeepTickets(1, tuple(g.offers[1][1:3])))     # two regular: any mix
    assert (len(g.ticket_deck), len(g.long_deck)) == (30 - 6, 6 - 2)   # nothing came back


def test_13_1_later_draws_three_regular_and_the_rest_go_to_the_bottom():
    g = asia()
    top = list(g.ticket_deck)[:3]
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == top and not any(g.board.tickets[t].long for t in top)
    g.apply(A.KeepTickets(0, (top[0],)))
    assert list(g.ticket_deck)[-2:] == top[1:]


def test_13_1_two_to_five_players_and_no_longest_path_or_globetrotter():
    b = board("legendary_asia")
    assert (b.rules.min_players, b.rules.max_players, b.rules.trains) == (2, 5, 45)
    g = asia(hands={0: cards(black=5)})
    g.apply(A.ClaimRoute(0, route(g, "Khabarovsk", "Peking"), cards(black=5)))
    pl = g.scores()[0]
    assert pl[0]["bonuses"]["longest_path"] == pl[1]["bonuses"]["longest_path"] == 0
    assert pl[0]["bonuses"]["globetrotter"] == 0


# ----- §13.2 mountains ------------------------------------------------------------------------
def test_13_2_a_mountain_costs_one_more_train_per_x_and_scores_two_each():
    g = asia(hands={0: cards(yellow=2, purple=4)})
    r = route(g, "Irkutsk", "Ulan Bator")                   # yellow 2, XX
    events = g.apply(A.ClaimRoute(0, r, cards(yellow=2)))
    assert g.trains[0] == 45 - 2 - 2
    claim = next(e for e in events if e["type"] == "claim_route")
    assert claim["points"] == 2 + 2 * 2 == g.route_points[0]
    assert card_total(g) == 110


def test_13_2_the_claimer_needs_length_plus_x_trains():
    g = asia(hands={0: cards(yellow=2)})
    r = route(g, "Irkutsk", "Ulan Bator")
    g.trains[0] = 3
    assert g.route_blocked(0, r) == NOT_ENOUGH_TRAINS
    assert refuse(g, A.ClaimRoute(0, r, cards(yellow=2))) == NOT_ENOUGH_TRAINS
    assert all(getattr(a, "route", None) != r for a in g.legal_actions(0))
    g.trains[0] = 4
    assert g.route_blocked(0, r) is None
    g.apply(A.ClaimRoute(0, r, cards(yellow=2)))
    assert g.trains[0] == 0


# ----- §13.3 ferries ---------------------------------------------------------------------------
@pytest.mark.parametrize("pay,ok", [(cards(red=2), False), (cards(red=1, locomotive=1), True),
                                    (cards(locomotive=2), True)])
def test_13_3_ferries_need_their_locomotives(pay, ok):
    g = asia(hands={0: cards(red=2, locomotive=2)})
    r = route(g, "Seoul", "Vladivostok")                    # gray 2, one locomotive
    if ok:
        g.apply(A.ClaimRoute(0, r, pay))
        assert g.owner[r] == 0
    else:
        assert refuse(g, A.ClaimRoute(0, r, pay)) == "ferry_locos"


# ----- §13.4 Asian Explorer --------------------------------------------------------------------
def test_13_4_the_largest_network_in_distinct_cities_scores_ten():
    g = asia(n=3)
    # seat 0: Dihua–Peking–Xi'an (3 cities) and a separate Bangkok–Saigon (2): 3 counts
    give_routes(g, 0, [route(g, "Dihua", "Peking"), route(g, "Peking", "Xi'an", lane=1),
                       route(g, "Bangkok", "Saigon", "red")])
    # seat 1: a loop Baghdad–Tehran–Tbilisi–Ankara–Baghdad: 4 cities, 4 routes
    give_routes(g, 1, [route(g, "Baghdad", "Tehran", "blue"), route(g, "Tehran", "Tbilisi", "red"),
                       route(g, "Ankara", "Tbilisi"), route(g, "Ankara", "Baghdad", "purple")])
    players, _ = g.scores()
    assert [pl["network_cities"] for pl in players] == [3, 4, 0]
    assert [pl["bonuses"]["asian_explorer"] for pl in players] == [0, 10, 0]
    assert players[1]["total"] == players[1]["route_points"] + players[1]["ticket_points"] + 10


# ----- §13.5 precise points --------------------------------------------------------------------
def test_13_5_1_mountain_trains_count_for_the_end_trigger():
    g = asia(hands={0: cards(yellow=2)})
    g.trains[0] = 5                                          # 5 > 2: a plain length-2 claim leaves 3
    events = g.apply(A.ClaimRoute(0, route(g, "Irkutsk", "Ulan Bator"), cards(yellow=2)))
    assert g.trains[0] == 1
    assert any(e["type"] == "final_round" and e["seat"] == 0 for e in events)


def test_13_5_2_mountain_points_are_route_points():
    g = asia(hands={0: cards(purple=4)})
    g.apply(A.ClaimRoute(0, route(g, "Mandalay", "Xi'an"), cards(purple=4)))   # 4, X
    pl = g.scores()[0][0]
    assert pl["route_points"] == 7 + 2 and pl["mountain_trains"] == 1
    assert pl["trains_left"] == 45 - 5


def test_13_5_3_explorer_ties_all_even_at_zero():
    g = asia(n=3)
    players, _ = g.scores()
    assert [pl["bonuses"]["asian_explorer"] for pl in players] == [10, 10, 10]
    give_routes(g, 0, [route(g, "Hanoi", "Macau", lane=1)])
    give_routes(g, 2, [route(g, "Bangkok", "Saigon", "purple")])
    players, _ = g.scores()
    assert [pl["bonuses"]["asian_explorer"] for pl in players] == [10, 0, 10]


def test_13_5_4_a_double_with_a_gray_lane_is_an_ordinary_pair():
    g = asia(hands={0: cards(black=3), 1: cards(red=3)})
    gray, red = route(g, "Moscow", "Perm", "gray"), route(g, "Moscow", "Perm", "red")
    g.apply(A.ClaimRoute(0, gray, cards(black=3)))            # any one colour on the gray lane
    assert g.route_blocked(1, red) == DOUBLE_CLOSED            # 2 players: one lane
    g4 = asia(n=4, hands={0: cards(black=3), 1: cards(red=3)})
    g4.apply(A.ClaimRoute(0, gray, cards(black=3)))
    assert g4.route_blocked(0, red) == DOUBLE_OWN and g4.route_blocked(1, red) is None


@pytest.mark.parametrize("n,open_after_one", [(2, 0), (3, 0), (4, 2), (5, 2)])
def test_13_1_the_triple_bombay_colombo_one_lane_at_2_3_all_at_4_5(n, open_after_one):
    g = asia(n=n, hands={0: cards(red=3, locomotive=1)})
    lanes = [route(g, "Bombay", "Colombo", c) for c in ("red", "black", "green")]
    g.apply(A.ClaimRoute(0, lanes[0], cards(red=3, locomotive=1)))
    assert all(g.route_blocked(0, r) == DOUBLE_OWN for r in lanes[1:])
    assert sum(g.route_blocked(1, r) is None for r in lanes[1:]) == open_after_one


def test_13_5_5_no_legendary_characters():
    assert board("legendary_asia").rules.mechanics == ("mountains", "asian_explorer")


# ----- the golden record -----------------------------------------------------------------------
def test_golden_record_legendary_asia():
    """ann claims nine routes, three of them mountains, down to 1 train; bob claims
    Astrakhan–Tbilisi and draws. By hand:
    ann's routes: Dihua–Peking 6 (15), Dihua–Samarkand 5, Chita–Khabarovsk 5, Khabarovsk–Peking
    5, Dihua–Omsk 5, Dihua–Xi'an 5 (10 each: 50), Mandalay–Xi'an 4 X (7 + 2), Irkutsk–Ulan Bator
    2 XX (2 + 4), Lhasa–Mandalay 2 XX (2 + 4): 15 + 50 + 9 + 6 + 6 = 86 route points;
    trains 6+5*5+4+2+2 = 39 placed + 5 on mountains = 44, 1 left (the last round starts).
    Tickets: Dihua–Mandalay 10 (Dihua–Xi'an–Mandalay: done) and the long Omsk–Kobe 16 (not):
    -6. Network: Dihua, Peking, Samarkand, Omsk, Xi'an, Khabarovsk, Chita, Mandalay, Lhasa = 9
    cities (Irkutsk–Ulan Bator apart: 2), so the Asian Explorer +10: ann 86 - 6 + 10 = 90.
    bob: Astrakhan–Tbilisi 1 (1); Moscow–Ankara 7 and Tbilisi–Shiraz 7 both missed: -14;
    network 2 cities: 1 - 14 = -13. ann wins."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over
    out = result(game, names)
    ann, bob = out["players"]
    assert (ann["route_points"], ann["ticket_points"], ann["total"]) == (86, -6, 90)
    assert (ann["mountain_trains"], ann["network_cities"], ann["trains_left"]) == (5, 9, 1)
    assert ann["bonuses"] == {"longest_path": 0, "globetrotter": 0, "stations": 0,
                              "asian_explorer": 10}
    assert (bob["route_points"], bob["ticket_points"], bob["total"]) == (1, -14, -13)
    assert (bob["network_cities"], bob["bonuses"]["asian_explorer"]) == (2, 0)
    assert out["winners"] == ["ann"] and out["status"] == "finished"
    assert sum(game.trains) + sum(r.length for r in game.board.routes if game.owner[r.index] >= 0) \
        + ann["mountain_trains"] == 2 * 45                   # §10: placed + mountains + supply
