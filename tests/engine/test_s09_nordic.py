"""docs/rules.md §9 Nordic Countries: locomotives only on tunnels and ferries, Nordic ferry and
Murmansk–Lieksa substitutions, length 9, Globetrotter, three-locomotive refill."""
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
    refuse,
    route,
    ticket,
)

FACE = [WHITE, YELLOW, WHITE, YELLOW, WHITE]
RICH = cards(purple=9, blue=9, orange=9, green=9, black=9, red=9, locomotive=9)


def nordic(n=2, hands=None, faceup=FACE, deck=(), **kw):
    g = make_game("nordic", n, **kw)
    return arrange(g, hands={0: RICH} if hands is None else hands, faceup=faceup, deck=list(deck))


def ok(g, r, pay):
    g.apply(A.ClaimRoute(0, r, pay))
    assert g.owner[r] == 0


# ----- where locomotives may be used ----------------------------------------------------------
def test_no_locomotives_on_an_ordinary_route():
    g = nordic()
    r = route(g, "Ålborg", "Århus")                    # purple 1
    assert refuse(g, A.ClaimRoute(0, r, cards(locomotive=1))) == "no_locos_here"
    ok(g, r, cards(purple=1))


def test_locomotives_on_a_tunnel():
    g = nordic(deck=[RED, GREEN, BLUE])
    ok(g, route(g, "Åndalsnes", "Lillehammer"), cards(locomotive=2))


def test_locomotives_on_a_ferry_beyond_the_required_ones():
    g = nordic()
    ok(g, route(g, "Ålborg", "Göteborg"), cards(locomotive=2))


def test_a_face_up_locomotive_is_an_ordinary_card_two_may_be_taken():
    g = nordic(hands={}, faceup=[LOCO, LOCO, RED, BLUE, GREEN], deck=[WHITE, YELLOW])
    g.apply(A.DrawCard(0, LOCO))
    assert g.step == "second_card"
    g.apply(A.DrawCard(0, LOCO))
    assert g.hands[0] == list(cards(locomotive=2)) and g.current == 1


# ----- ferries: any 3 cards replace one required locomotive -----------------------------------
@pytest.mark.parametrize("pay", [
    cards(red=1, locomotive=1),
    cards(red=1, blue=1, green=1, black=1),             # 3 any replace the locomotive
    cards(red=2, blue=1, locomotive=1),                 # substitutes may be any, locos included
    cards(red=4),                                       # 1 red + 3 red
])
def test_ferry_any_three_cards_replace_one_locomotive(pay):
    g = nordic()
    ok(g, route(g, "Ålborg", "Göteborg"), pay)         # gray 2, 1 locomotive


@pytest.mark.parametrize("pay, why", [
    (cards(red=2), "ferry_locos"),                          # the exact length, no locomotive
    (cards(red=1, blue=1, green=1), "pay_ferry_any"),
    (cards(red=1, blue=2, green=2), "pay_ferry_any"),
    (cards(red=2, blue=3, green=3), "pay_ferry_any"),       # more triples than locos
    (cards(red=1, locomotive=1, blue=3), "pay_ferry_any"),  # a triple not needed
])
def test_ferry_without_its_locomotive_or_three_cards_is_refused(pay, why):
    g = nordic()
    assert refuse(g, A.ClaimRoute(0, route(g, "Ålborg", "Göteborg"), pay)) == why


@pytest.mark.parametrize("pay", [
    cards(red=2, locomotive=2),
    cards(red=2, locomotive=1, blue=3),
    cards(red=2, blue=3, green=3),                       # both locomotives replaced
    cards(locomotive=4),
])
def test_ferry_substitution_as_often_as_needed(pay):
    g = nordic()
    ok(g, route(g, "Helsinki", "Stockholm", "gray"), pay)  # gray 4, 2 locomotives


@pytest.mark.parametrize("pay, why", [
    (cards(red=2, locomotive=1, blue=2), "pay_ferry_any"),  # two cards are not a triple
    (cards(red=3, locomotive=1), "ferry_locos"),            # the length, one locomotive short
    (cards(red=1, blue=1, locomotive=2), "pay_one_color"),  # the rest in two colours
])
def test_ferry_substitution_wrong_counts_refused(pay, why):
    g = nordic()
    assert refuse(g, A.ClaimRoute(0, route(g, "Helsinki", "Stockholm", "gray"), pay)) == why


def test_coloured_ferry_still_needs_its_colour():
    g = nordic()
    r = route(g, "Ålborg", "Kristiansand")             # red 2, 1 locomotive
    assert refuse(g, A.ClaimRoute(0, r, cards(blue=1, locomotive=1))) == "pay_one_color"
    ok(g, r, cards(red=1, blue=2, green=1))


# ----- Murmansk–Lieksa ----------------------------------------------------------------------
ML = ("Murmansk", "Lieksa")


@pytest.mark.parametrize("pay", [
    cards(red=9),
    cards(red=8, blue=2, green=1, locomotive=1),
    cards(red=7, blue=4, locomotive=4),
])
def test_murmansk_lieksa_any_four_cards_replace_one_card(pay):
    g = nordic()
    ok(g, route(g, *ML), pay)


@pytest.mark.parametrize("pay", [cards(red=8, locomotive=1), cards(locomotive=9),
                                 cards(red=8, blue=3), cards(red=8, blue=1, green=1)])
def test_murmansk_lieksa_no_locomotive_otherwise(pay):
    g = nordic()
    assert refuse(g, A.ClaimRoute(0, route(g, *ML), pay)) == "pay_any_cards"


def test_length_9_scores_27():
    g = nordic()
    ok(g, route(g, *ML), cards(red=9))
    assert g.route_points[0] == 27 and g.trains[0] == 31


# ----- end bonus ----------------------------------------------------------------------------
def test_globetrotter_10_and_no_longest_path_bonus():
    g = make_game("nordic", 2)
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, "Kirkenes", "Rovaniemi")])              # long network
    give_routes(g, 1, [route(g, "Oslo", "Göteborg"), route(g, "Göteborg", "Örebro"),
                       route(g, "Örebro", "Stockholm", "black")])
    g.tickets[1] = [ticket(g, "Oslo", "Stockholm")]
    p0, p1 = g.scores()[0]
    assert p0["bonuses"] == {"longest_path": 0, "globetrotter": 0, "stations": 0}
    assert p1["bonuses"]["globetrotter"] == 10
    assert p1["total"] == 2 + 2 + 2 + 4 + 10


def test_globetrotter_ties_all_get_it():
    g = make_game("nordic", 3)
    g.tickets = [[], [], []]
    assert [p["bonuses"]["globetrotter"] for p in g.scores()[0]] == [10, 10, 10]


def test_three_locomotive_refill_is_applied_and_said_in_the_rules_summary():
    g = nordic(hands={}, faceup=[LOCO, LOCO, RED, BLUE, GREEN],
               deck=[LOCO, WHITE, WHITE, YELLOW, YELLOW, ORANGE])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted([WHITE, WHITE, YELLOW, YELLOW, ORANGE])
    assert any("three-locomotive" in n for n in board("nordic").rules.notes)


# ----- tickets and doubles ----------------------------------------------------------------------
def test_start_5_keep_2_later_3_keep_1_unkept_leave_the_game():
    g = make_game("nordic", 2, tickets=list(range(46)), setup=False)
    assert [len(o) for o in g.offers] == [5, 5]
    assert refuse(g, A.KeepTickets(0, (0,))) == "keep_at_least"
    g.apply(A.KeepTickets(0, (0, 1)))
    g.apply(A.KeepTickets(1, (5, 6)))
    assert list(g.ticket_deck) == list(range(10, 46))
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [10, 11, 12]
    g.apply(A.KeepTickets(0, (12,)))
    assert list(g.ticket_deck) == list(range(13, 46))


def test_double_route_one_lane_with_2_players_both_with_3():
    for n, second_ok in ((2, False), (3, True)):
        g = nordic(n, hands={0: cards(black=2), 1: cards(purple=2)})
        r1, r2 = route(g, "Örebro", "Stockholm", "black"), route(g, "Örebro", "Stockholm", "purple")
        g.apply(A.ClaimRoute(0, r1, cards(black=2)))
        if second_ok:
            g.apply(A.ClaimRoute(1, r2, cards(purple=2)))
            assert g.owner[r2] == 1
        else:
            assert refuse(g, A.ClaimRoute(1, r2, cards(purple=2))) == "double_closed"


def test_tie_break_is_tickets_only():
    g = make_game("nordic", 2)
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, "Kirkenes", "Rovaniemi")])             # 10, length 5
    # seat 1: separate short routes, 1 + 4 + 2 + 1 + 2 = 10 points; both 0 tickets (+10 each)
    give_routes(g, 1, [route(g, "Ålborg", "Århus"), route(g, "Kuopio", "Lahti"),
                       route(g, "Oslo", "Göteborg"), route(g, "Oulu", "Tornio"),
                       route(g, "Imatra", "Lahti")])
    players, winners = g.scores()
    assert [p["total"] for p in players] == [20, 20]
    assert winners == [0, 1]
