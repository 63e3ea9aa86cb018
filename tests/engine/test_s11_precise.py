"""docs/rules.md §11 Precise points: each of §11.1–§11.14."""
import dataclasses
from collections import deque

import pytest

from tests.engine.rulekit import (
    BLACK,
    BLUE,
    GREEN,
    LOCO,
    ORANGE,
    PURPLE,
    RED,
    WHITE,
    YELLOW,
    A,
    Dealer,
    Game,
    arrange,
    board,
    card_total,
    cards,
    deck_top,
    give_routes,
    make_game,
    node,
    refuse,
    route,
    ticket,
    train_order,
)
from ttr_bot.engine.board import Ticket
from ttr_bot.engine.errors import DeckError

FACE = [ORANGE, WHITE, YELLOW, ORANGE, WHITE]


# ----- §11.1 reshuffle timing ------------------------------------------------------------------
def test_11_1_no_reshuffle_when_the_deck_runs_out_only_when_a_card_must_be_taken():
    g = make_game("usa", 2, reshuffles=[[GREEN, BLUE]])
    arrange(g, faceup=FACE, deck=[RED], discard=[BLUE, GREEN], rest=1)
    g.apply(A.DrawCard(0))
    assert g.deck == [] and sorted(g.discard) == sorted([BLUE, GREEN])   # not yet
    assert g.reshuffles == 0
    g.apply(A.DrawCard(0))
    assert g.hands[0] == list(cards(red=1, green=1))
    assert deck_top(g) == [BLUE] and g.discard == [] and g.reshuffles == 1


def test_11_1_reshuffle_for_a_face_up_replacement():
    g = make_game("usa", 2, reshuffles=[[BLACK, PURPLE]])
    arrange(g, faceup=[RED, BLUE, GREEN, WHITE, YELLOW], deck=[], discard=[PURPLE, BLACK], rest=1)
    g.apply(A.DrawCard(0, RED))
    assert BLACK in g.faceup and deck_top(g) == [PURPLE]


def test_11_1_reshuffle_during_a_tunnel_reveal_excludes_the_laid_cards():
    # 1 card in the deck, 2 in the discard: the reveal takes the deck card, then the discard
    # (only those 2 — the laid cards are not in it) becomes the deck.
    g = make_game("europe", 2, reshuffles=[[LOCO, RED]])
    arrange(g, hands={0: cards(blue=5)}, faceup=FACE, deck=[BLUE], discard=[RED, LOCO], rest=1)
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    assert g.tunnel.revealed == [BLUE, LOCO, RED]
    assert g.tunnel.extra == 2


def test_11_1_reshuffle_after_a_claim_includes_the_cards_just_paid():
    # an empty face-up slot, deck and discard empty: the claim's cards reach the discard and
    # are reshuffled to refill the slot
    g = make_game("usa", 2, reshuffles=[[RED, LOCO]])
    arrange(g, hands={0: cards(red=1, locomotive=1)}, faceup=[ORANGE, WHITE, YELLOW, ORANGE],
            deck=[], discard=[], rest=1)
    g.apply(A.ClaimRoute(0, route(g, "El Paso", "Santa Fe"), cards(red=1, locomotive=1)))
    assert sorted(g.faceup) == sorted([ORANGE, WHITE, YELLOW, ORANGE, RED])
    assert deck_top(g) == [LOCO]


def test_11_1_nothing_happens_when_the_discard_is_empty_too():
    g = make_game("usa", 2)
    arrange(g, faceup=[RED, BLUE], deck=[GREEN], discard=[], rest=1)
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0, RED))
    assert g.reshuffles == 0 and g.faceup == [BLUE] and card_total(g) == 110


def test_11_1_a_reshuffle_order_that_is_not_the_discard_pile_is_an_error():
    g = make_game("usa", 2, reshuffles=[[GREEN, GREEN]])
    arrange(g, faceup=FACE, deck=[], discard=[BLUE, GREEN], rest=1)
    with pytest.raises(DeckError):
        g.apply(A.DrawCard(0))


# ----- §11.2 three-locomotive check ---------------------------------------------------------------
def test_11_2_at_most_3_refills_counts_within_one_check_the_next_change_starts_anew():
    b1 = [LOCO, LOCO, LOCO, PURPLE, PURPLE]
    b2 = [LOCO, LOCO, LOCO, ORANGE, ORANGE]
    b3 = [LOCO, LOCO, LOCO, BLACK, BLACK]
    clean = [WHITE, WHITE, YELLOW, YELLOW, BLUE]
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, BLUE, GREEN],
                deck=[LOCO] + b1 + b2 + b3 + [RED] + clean)
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted(b3)
    g.apply(A.DrawCard(0, BLACK))           # the row changes again: a new check, a new count
    assert sorted(g.faceup) == sorted(clean)
    assert g.current == 1


def test_11_2_no_refill_when_deck_and_discard_are_both_empty():
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, BLUE, GREEN], deck=[LOCO], discard=[],
                rest=1)
    ev = g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted([LOCO, LOCO, LOCO, BLUE, GREEN])
    assert g.discard == []
    assert g.reshuffles == 0 and g.dealer.dealt_reshuffles == []      # no flush, no reshuffle
    assert not any(e["type"] == "reshuffle" for e in ev)
    # the second card cannot be a face-up locomotive; blue/green may still be taken
    g.apply(A.DrawCard(0, BLUE))
    assert g.current == 1


def test_11_2_row_of_fewer_than_5_with_3_locomotives_stays_when_nothing_can_be_drawn():
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, LOCO], deck=[], discard=[], rest=1)
    g.apply(A.DrawCard(0, RED))
    assert g.faceup == [LOCO, LOCO, LOCO] and card_total(g) == 110
    assert g.current == 1                      # only face-up locomotives left: draw ends


def test_11_2_flushed_five_go_to_the_discard_first_and_are_reshuffled_if_needed():
    flushed = [LOCO, LOCO, BLUE, GREEN, LOCO]
    g = make_game("usa", 2, reshuffles=[[BLUE, GREEN, LOCO, LOCO, LOCO]])
    arrange(g, faceup=[LOCO, LOCO, RED, BLUE, GREEN], deck=[LOCO, WHITE, YELLOW], discard=[],
            rest=1)
    g.apply(A.DrawCard(0, RED))
    # new five: the two deck cards, then three from the reshuffled discard (the flushed five)
    assert sorted(g.faceup) == sorted([WHITE, YELLOW, BLUE, GREEN, LOCO])
    assert deck_top(g) == [LOCO, LOCO]
    assert sorted(g.dealer.dealt_reshuffles[0]) == sorted(flushed)


@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_11_2_applied_on_every_map(map_id):
    g = make_game(map_id, 2)
    arrange(g, faceup=[LOCO, LOCO, RED, BLUE, GREEN],
            deck=[LOCO, WHITE, WHITE, YELLOW, YELLOW, ORANGE])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted([WHITE, WHITE, YELLOW, YELLOW, ORANGE])


# ----- §11.3 empty face-up slots refilled ------------------------------------------------------
def short_row(map_id="usa", hands=None, reshuffle=None):
    g = make_game(map_id, 2, reshuffles=[reshuffle] if reshuffle else [])
    return arrange(g, hands=hands or {}, faceup=[ORANGE, WHITE, YELLOW], deck=[], discard=[],
                   rest=1)


def test_11_3_slots_refilled_when_a_claim_discards_cards():
    g = short_row(hands={0: cards(red=2)}, reshuffle=[RED, RED])
    g.apply(A.ClaimRoute(0, route(g, "El Paso", "Santa Fe"), cards(red=2)))
    assert sorted(g.faceup) == sorted([ORANGE, WHITE, YELLOW, RED, RED])


def test_11_3_slots_refilled_when_a_station_discards_cards():
    g = short_row("europe", hands={0: cards(red=1)}, reshuffle=[RED])
    g.apply(A.BuildStation(0, node(g, "Paris"), cards(red=1)))
    assert sorted(g.faceup) == sorted([ORANGE, WHITE, YELLOW, RED])


def test_11_3_slots_refilled_after_a_tunnel_is_declined():
    g = make_game("europe", 2, reshuffles=[[GREEN, BLUE, RED]])
    arrange(g, hands={0: cards(blue=2)}, faceup=[ORANGE, WHITE, YELLOW], deck=[BLUE, RED, GREEN],
            discard=[], rest=1)
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    g.apply(A.TunnelDecline(0))
    assert sorted(g.faceup) == sorted([ORANGE, WHITE, YELLOW, GREEN, BLUE])
    assert deck_top(g) == [RED] and g.hands[0] == list(cards(blue=2))


def test_11_3_slots_refilled_after_a_tunnel_is_paid():
    g = make_game("europe", 2, reshuffles=[[GREEN, BLUE, RED, BLUE, BLUE, BLUE]])
    arrange(g, hands={0: cards(blue=3)}, faceup=[ORANGE, WHITE, YELLOW], deck=[BLUE, RED, GREEN],
            discard=[], rest=1)
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    g.apply(A.TunnelPay(0, cards(blue=1)))
    assert len(g.faceup) == 5 and card_total(g) == 110


# ----- §11.4 blind draw ---------------------------------------------------------------------------
def test_11_4_blind_draw_illegal_with_only_face_up_cards_left():
    g = arrange(make_game(), faceup=[RED, BLUE], deck=[], discard=[], rest=1)
    assert refuse(g, A.DrawCard(0)) == "deck_empty"
    g.apply(A.DrawCard(0, RED))
    assert g.step == "second_card"
    assert refuse(g, A.DrawCard(0)) == "deck_empty"
    g.apply(A.DrawCard(0, BLUE))
    assert g.current == 1


def test_11_4_draw_ends_after_one_card_when_no_second_can_legally_be_taken():
    g = arrange(make_game(), faceup=[LOCO, LOCO], deck=[GREEN], discard=[], rest=1)
    g.apply(A.DrawCard(0))                  # GREEN; then only face-up locomotives: no second
    assert g.current == 1 and g.hands[0] == list(cards(green=1))


# ----- §11.5 tunnels ------------------------------------------------------------------------------
@pytest.mark.parametrize("map_id,a,b,pay", [
    ("europe", "München", "Venezia", cards(blue=2)),
    ("switzerland", "Basel", "Olten", cards(orange=2)),
    ("nordic", "Åndalsnes", "Lillehammer", cards(yellow=2)),
])
def test_11_5_tunnel_with_no_extra_is_claimed_at_once(map_id, a, b, pay):
    g = make_game(map_id, 2)
    arrange(g, hands={0: pay}, faceup=[PURPLE, PURPLE, BLACK, BLACK, PURPLE],
            deck=[RED, GREEN, WHITE])
    ev = g.apply(A.ClaimRoute(0, route(g, a, b), pay))
    assert g.owner[route(g, a, b)] == 0 and g.step == "idle" and g.current == 1
    assert [e["type"] for e in ev][:2] == ["tunnel_reveal", "claim_route"]


@pytest.mark.parametrize("map_id,a,b,col", [
    ("switzerland", "Basel", "Olten", ORANGE),
    ("nordic", "Åndalsnes", "Lillehammer", YELLOW),
])
def test_11_5_same_tunnel_rule_on_switzerland_and_nordic(map_id, a, b, col):
    g = make_game(map_id, 2)
    hand = [0] * 9
    hand[col] = 4
    hand[LOCO] = 3
    arrange(g, hands={0: tuple(hand)}, faceup=[PURPLE, PURPLE, BLACK, BLACK, PURPLE],
            deck=[col, LOCO, RED])
    pay = [0] * 9
    pay[LOCO] = 2
    g.apply(A.ClaimRoute(0, route(g, a, b), tuple(pay)))     # locomotives only:
    assert g.tunnel.extra == 1                                   # only the revealed locomotive
    wrong = [0] * 9
    wrong[col] = 1
    assert refuse(g, A.TunnelPay(0, tuple(wrong))) == "tunnel_pay_color"
    g.apply(A.TunnelPay(0, cards(locomotive=1)))
    assert g.owner[route(g, a, b)] == 0


def test_11_5_laid_cards_are_not_in_the_hand_while_pending():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=3)}, faceup=FACE, deck=[BLUE, LOCO, RED])
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    assert g.hands[0] == list(cards(blue=1))
    assert g.scores()[0][0]["hand"] == {"blue": 1}


# ----- §11.6 Nordic payments ----------------------------------------------------------------------
def test_11_6_ferry_three_cards_per_locomotive_any_colours_locomotives_included():
    g = make_game("nordic", 2)
    arrange(g, hands={0: cards(red=3, blue=3, green=3, locomotive=3)}, faceup=FACE)
    r = route(g, "Mo I Rana", "Trondheim", "red")           # red 6, 2 locomotives
    g.apply(A.ClaimRoute(0, r, cards(red=3, blue=3, green=1, locomotive=3)))
    assert g.owner[r] == 0


def test_11_6_murmansk_lieksa_four_cards_per_card_as_often_as_needed():
    g = make_game("nordic", 2)
    arrange(g, hands={0: cards(red=7, blue=4, green=4)}, faceup=FACE)
    r = route(g, "Murmansk", "Lieksa")
    g.apply(A.ClaimRoute(0, r, cards(red=7, blue=4, green=4)))
    assert g.owner[r] == 0 and g.route_points[0] == 27


# ----- §11.7 Switzerland's countries --------------------------------------------------------------
def test_11_7_country_is_endpoints_only():
    g = make_game("switzerland", 2)
    g.tickets = [[], []]
    # Zürich–Basel (4) only through Deutschland: Zürich–Schaffhausen–DE … DE–Basel
    give_routes(g, 0, [route(g, "Zürich", "Schaffhausen", "orange"),
                       route(g, "Schaffhausen", "Deutschland"), route(g, "Basel", "Deutschland")])
    g.tickets[0] = [ticket(g, "Zürich", "Basel")]
    p = g.scores()[0][0]
    assert p["ticket_points"] == -4
    assert p["longest_path"] == 4


# ----- §11.8 bonus ties -------------------------------------------------------------------------
@pytest.mark.parametrize("map_id,variant,bonus,value", [
    ("usa", "base", "longest_path", 10), ("usa", "1910", "globetrotter", 15),
    ("usa", "mega", "longest_path", 10), ("usa", "mega", "globetrotter", 15),
    ("nordic", "base", "globetrotter", 10), ("europe", "base", "longest_path", 10)])
def test_11_8_bonus_to_every_player_with_the_maximum_even_when_it_is_0(map_id, variant, bonus,
                                                                        value):
    g = make_game(map_id, 3, variant)
    g.tickets = [[], [], []]
    assert [p["bonuses"][bonus] for p in g.scores()[0]] == [value] * 3


# ----- §11.9 winners ------------------------------------------------------------------------------
def test_11_9_longest_path_separates_only_if_some_but_not_all_hold_it():
    g = make_game("usa", 3)
    g.tickets = [[], [], []]
    give_routes(g, 0, [route(g, "Dallas", "El Paso", "red")])                  # 7 + 10
    give_routes(g, 1, [route(g, "Atlanta", "New Orleans", "yellow")])          # 7 + 10
    give_routes(g, 2, [route(g, "Calgary", "Vancouver"), route(g, "Chicago", "Duluth"),
                       route(g, "El Paso", "Phoenix"), route(g, "Montréal", "New York"),
                       route(g, "Portland", "Seattle", lane=1)])               # 17
    players, winners = g.scores()
    assert [p["total"] for p in players] == [17, 17, 17]
    assert winners == [0, 1]


@pytest.mark.parametrize("variant", ["1910", "big_cities"])
def test_11_9_without_a_longest_path_bonus_ties_stop_after_tickets(variant):
    g = make_game("usa", 2, variant)
    g.tickets = [[], []]
    give_routes(g, 0, [route(g, "Dallas", "El Paso", "red")])                  # 7, length 4
    give_routes(g, 1, [route(g, "Calgary", "Vancouver"), route(g, "Portland", "Seattle", lane=1),
                       route(g, "Dallas", "Houston", lane=1),
                       route(g, "Kansas City", "Omaha", lane=1)])             # 4+1+1+1
    players, winners = g.scores()
    assert players[0]["total"] == players[1]["total"]
    assert players[0]["longest_path"] > players[1]["longest_path"]
    assert winners == [0, 1]


# ----- §11.10 stations at the end ----------------------------------------------------------------
def with_tickets(map_id, extra):
    """The real map with extra tickets appended (ids after the real ones)."""
    b = board(map_id)
    n = len(b.tickets)
    new = tuple(Ticket(n + i, a, (c,), (v,)) for i, (a, c, v) in enumerate(extra))
    return dataclasses.replace(b, tickets=b.tickets + new), list(range(n, n + len(new)))


def station_game(b, own, opp, stations, tickets):
    g = Game(b, 2, Dealer(0))
    for p in range(2):
        g.apply(A.KeepTickets(p, tuple(g.offers[p])))
    g.tickets = [list(tickets), []]
    give_routes(g, 0, [route(g, *r) for r in own])
    give_routes(g, 1, [route(g, *r) for r in opp])
    for city in stations:
        c = node(g, city)
        g.station_owner[c] = 0
        g.stations_of[0].append(c)
        g.stations_left[0] -= 1
    return g


@pytest.mark.parametrize("big,small", [("Dieppe", "Brest"), ("Brest", "Dieppe")])
def test_11_10_equal_ticket_points_then_most_completed_tickets(big, small):
    # one station at Paris; borrowing Paris–big completes a 10, borrowing Paris–small
    # completes two 5s: both give 0 ticket points; the best completes 2 tickets
    b, ids = with_tickets("europe", [("Paris", big, 10), ("Paris", small, 5),
                                     (small, "Paris", 5)])
    g = station_game(b, own=[], opp=[("Paris", "Dieppe"), ("Paris", "Brest")],
                     stations=["Paris"], tickets=ids)
    p = g.scores()[0][0]
    assert p["ticket_points"] == 0
    assert p["tickets_completed"] == 2


def test_11_10_every_combination_of_one_route_per_station_is_tried():
    # Paris–London (9) needs Paris–Dieppe AND Dieppe–London: the Paris station must take
    # Paris–Dieppe and the Dieppe station Dieppe–London (not Paris–Dieppe, not Dieppe–Brest)
    b, ids = with_tickets("europe", [("Paris", "London", 9)])
    g = station_game(b, own=[], opp=[("Paris", "Dieppe"), ("Dieppe", "London", None, 1),
                                     ("Dieppe", "Brest"), ("Paris", "Brest")],
                     stations=["Dieppe", "Paris"], tickets=ids)
    p = g.scores()[0][0]
    assert p["ticket_points"] == 9 and p["tickets_completed"] == 1


# ----- §11.11 returned tickets --------------------------------------------------------------------
def test_11_11_returned_tickets_in_the_order_chosen_each_in_the_order_dealt():
    g = make_game("usa", 3, tickets=list(range(30)), setup=False)
    # dealt: seat 0 [0,1,2], seat 1 [3,4,5], seat 2 [6,7,8]
    g.apply(A.KeepTickets(2, (7, 8)))       # returns 6
    g.apply(A.KeepTickets(0, (1, 2)))       # returns 0
    g.apply(A.KeepTickets(1, (4, 3)))       # returns 5
    assert list(g.ticket_deck)[-3:] == [6, 0, 5]
    g.apply(A.DrawTickets(0))                     # 9, 10, 11
    g.apply(A.KeepTickets(0, (10,)))
    assert list(g.ticket_deck)[-2:] == [9, 11]


def test_11_11_minimum_is_min_of_minimum_and_offered_later():
    g = make_game("usa", 2, "mega")
    g.ticket_deck = deque([40])
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [40]
    assert refuse(g, A.KeepTickets(0, ())) == "keep_at_least"
    g.apply(A.KeepTickets(0, (40,)))


def test_11_11_minimum_is_min_of_minimum_and_offered_at_setup():
    b = board("usa")
    small = dataclasses.replace(b, tickets=b.tickets[:7])     # 7 tickets, 3 players
    g = Game(small, 3, Dealer(0, train=train_order(), tickets=list(range(7))))
    assert [len(o) for o in g.offers] == [3, 3, 1]
    assert refuse(g, A.KeepTickets(2, ())) == "keep_at_least"
    g.apply(A.KeepTickets(2, (6,)))
    assert refuse(g, A.KeepTickets(0, (0,))) == "keep_at_least"


def test_11_11_no_turn_action_until_every_player_has_chosen():
    g = make_game("europe", 3, setup=False)
    g.apply(A.KeepTickets(0, tuple(g.offers[0][:2])))
    g.apply(A.KeepTickets(1, tuple(g.offers[1][:2])))
    for a in (A.DrawCard(0), A.DrawTickets(0), A.Pass(0), A.DrawCard(2)):
        assert refuse(g, a) == "setup_pending"


# ----- §11.12 pass --------------------------------------------------------------------------------
def europe_stuck(hand, free=(), stations_left=0):
    g = make_game("europe", 2)
    arrange(g, hands={0: hand}, faceup=[], deck=[], discard=[], rest=1)
    g.owner = [1] * len(g.board.routes)
    for r in free:
        g.owner[r] = -1
    g.ticket_deck = deque()
    g.stations_left = [stations_left, 0]
    return g


def test_11_12_pass_legal_with_nothing_to_do():
    g = europe_stuck(cards(red=1))
    g.apply(A.Pass(0))
    assert g.current == 1


def test_11_12_a_tunnels_base_cost_counts():
    g = europe_stuck(cards(blue=2), free=[route(board("europe"), "München", "Venezia")])
    assert refuse(g, A.Pass(0)) == "cannot_pass"


def test_11_12_a_buildable_station_counts():
    g = europe_stuck(cards(red=1), stations_left=3)
    assert refuse(g, A.Pass(0)) == "cannot_pass"


def test_11_12_an_unaffordable_station_does_not():
    g = europe_stuck(cards(red=1, blue=1), stations_left=2)     # second station: 2 of a colour
    assert g.legal_actions(0) == [A.Pass(0)]
    assert refuse(g, A.BuildStation(0, node(g, "Paris"), cards(red=1, blue=1))) == "pay_one_color"
    g.apply(A.Pass(0))
    assert g.current == 1 and g.passes == 1


def test_11_12_tickets_left_count():
    g = europe_stuck(cards())
    g.ticket_deck = deque([3])
    assert refuse(g, A.Pass(0)) == "cannot_pass"


def test_11_12_a_face_up_locomotive_alone_counts_as_a_card_to_draw():
    g = make_game("usa", 2)
    arrange(g, faceup=[LOCO], deck=[], discard=[], rest=1)
    g.owner = [1] * len(g.board.routes)
    g.ticket_deck = deque()
    assert refuse(g, A.Pass(0)) == "cannot_pass"
    g.apply(A.DrawCard(0, LOCO))
    assert g.current == 1


# ----- §11.13 the end -----------------------------------------------------------------------------
def test_11_13_exactly_one_more_turn_each_trigger_last_then_nothing():
    g = make_game("europe", 3)
    arrange(g, hands={0: cards(blue=3)}, faceup=FACE, deck=[BLUE, RED, GREEN, RED, RED, RED])
    g.trains[0] = 3
    g.apply(A.ClaimRoute(0, route(g, "München", "Venezia"), cards(blue=2)))
    assert g.step == "tunnel" and g.final_turns_left is None
    g.apply(A.TunnelPay(0, cards(blue=1)))              # ends the turn with 1 train
    order = []
    while not g.over:
        order.append(g.current)
        g.apply(A.DrawCard(g.current))
        g.apply(A.DrawCard(g.current))
    assert order == [1, 2, 0]
    for seat in range(3):
        assert g.legal_actions(seat) == []
        assert refuse(g, A.DrawCard(seat)) == "game_over"


# ----- §11.14 scores mid-game ---------------------------------------------------------------------
def test_11_14_tickets_being_chosen_do_not_count():
    g = make_game("usa", 2, tickets=list(range(30)))
    g.tickets = [[], []]
    g.apply(A.DrawTickets(0))
    p = g.scores()[0][0]
    assert p["tickets"] == [] and p["ticket_points"] == 0


def test_11_14_starting_tickets_being_chosen_do_not_count():
    g = make_game("usa", 2, tickets=list(range(30)), setup=False)
    g.apply(A.KeepTickets(0, (0, 1)))
    players = g.scores()[0]
    assert len(players[0]["tickets"]) == 2 and players[1]["tickets"] == []


def test_11_14_scores_mid_game_as_if_the_game_ended_now():
    g = make_game("usa", 2, tickets=list(range(30)))
    g.tickets = [[ticket(g, "Denver", "El Paso")], []]
    give_routes(g, 0, [route(g, "Denver", "Santa Fe"), route(g, "Santa Fe", "El Paso")])
    players, winners = g.scores()
    assert players[0]["total"] == 4 + 4 + 10
    assert players[1]["total"] == 0


def stuck_on(map_id, hand, free_routes):
    """Nothing to draw, no tickets, no stations; only `free_routes` unclaimed."""
    g = make_game(map_id, 2)
    arrange(g, hands={0: hand}, faceup=[], deck=[], discard=[], rest=1)
    g.owner = [1] * len(g.board.routes)
    for r in free_routes:
        g.owner[r] = -1
    g.ticket_deck = deque()
    g.stations_left = [0, 0]
    return g


def test_11_12_a_ferry_without_its_locomotives_cannot_be_paid_so_pass_is_legal():
    b = board("europe")
    g = stuck_on("europe", cards(red=4), [route(b, "Athina", "Smyrna")])
    assert g.legal_actions(0) == [A.Pass(0)]
    g.apply(A.Pass(0))


def test_11_12_locomotives_that_may_not_be_used_do_not_make_a_route_payable():
    b = board("switzerland")
    g = stuck_on("switzerland", cards(orange=2, locomotive=5),
                 [route(b, "Schaffhausen", "Zürich", "orange")])
    assert g.legal_actions(0) == [A.Pass(0)]
    g.apply(A.Pass(0))


def test_11_12_a_nordic_ferry_paid_with_locomotives_only_is_a_legal_action():
    b = board("nordic")
    r = route(b, "Ålborg", "Göteborg")
    g = stuck_on("nordic", cards(locomotive=2), [r])
    assert A.ClaimRoute(0, r, cards(locomotive=2)) in g.legal_actions(0)
    assert refuse(g, A.Pass(0)) == "cannot_pass"


def test_11_12_the_second_lane_with_4_players_is_a_legal_action():
    g = make_game("usa", 4)
    arrange(g, hands={0: cards(blue=2), 1: cards(purple=2)}, faceup=FACE)
    r1 = route(g, "Kansas City", "Saint Louis", "blue")
    r2 = route(g, "Kansas City", "Saint Louis", "purple")
    g.apply(A.ClaimRoute(0, r1, cards(blue=2)))
    assert A.ClaimRoute(1, r2, cards(purple=2)) in g.legal_actions(1)
