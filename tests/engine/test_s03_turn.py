"""docs/rules.md §3 A turn: draw cards (§3.1), three-locomotive rule (§3.2), deck exhaustion (§3.3),
claim a route (§3.4), draw tickets (§3.5), pass (§3.6)."""
import random
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
    arrange,
    card_total,
    cards,
    deck_top,
    make_game,
    refuse,
    route,
)

PLAIN5 = [RED, BLUE, GREEN, WHITE, YELLOW]
OTHER5 = [ORANGE, WHITE, YELLOW, BLACK, ORANGE]   # no red, blue, green, purple


# ----- §3.1 draw train cards ------------------------------------------------------------------
def test_draw_two_cards_blind_from_the_top_of_the_deck():
    g = arrange(make_game(), faceup=PLAIN5, deck=[BLACK, ORANGE])
    g.apply(A.DrawCard(0))
    assert g.current == 0 and g.step == "second_card"
    g.apply(A.DrawCard(0))
    assert g.hands[0] == list(cards(black=1, orange=1))
    assert g.current == 1


def test_mix_face_up_and_blind():
    g = arrange(make_game(), faceup=PLAIN5, deck=[BLACK, ORANGE])
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0, GREEN))
    assert g.hands[0] == list(cards(black=1, green=1))
    assert g.current == 1


def test_face_up_card_is_replaced_at_once_before_the_second_pick():
    g = arrange(make_game(), faceup=PLAIN5, deck=[BLACK, ORANGE])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted([BLACK, BLUE, GREEN, WHITE, YELLOW])
    g.apply(A.DrawCard(0, BLACK))            # the card just turned up may be taken
    assert g.hands[0] == list(cards(red=1, black=1))
    assert sorted(g.faceup) == sorted([ORANGE, BLUE, GREEN, WHITE, YELLOW])


def test_face_up_locomotive_taken_first_ends_the_draw():
    g = arrange(make_game(), faceup=[LOCO, RED, BLUE, GREEN, WHITE], deck=[BLACK, ORANGE])
    g.apply(A.DrawCard(0, LOCO))
    assert g.hands[0] == list(cards(locomotive=1))
    assert g.current == 1 and g.step == "idle"


def test_face_up_locomotive_may_not_be_the_second_card():
    g = arrange(make_game(), faceup=[LOCO, RED, BLUE, GREEN, WHITE], deck=[BLACK, ORANGE])
    g.apply(A.DrawCard(0, RED))
    assert refuse(g, A.DrawCard(0, LOCO)) == "second_locomotive"
    assert A.DrawCard(0, LOCO) not in g.legal_actions(0)


def test_locomotive_just_turned_up_may_not_be_the_second_card():
    g = arrange(make_game(), faceup=PLAIN5, deck=[LOCO, ORANGE])
    g.apply(A.DrawCard(0, RED))
    assert LOCO in g.faceup
    assert refuse(g, A.DrawCard(0, LOCO)) == "second_locomotive"


def test_blind_locomotive_counts_as_a_normal_card():
    g = arrange(make_game(), faceup=PLAIN5, deck=[LOCO, ORANGE])
    g.apply(A.DrawCard(0))
    assert g.step == "second_card" and g.current == 0
    g.apply(A.DrawCard(0))
    assert g.hands[0] == list(cards(locomotive=1, orange=1))


def test_draw_ends_with_one_card_when_only_face_up_locomotives_remain():
    g = arrange(make_game(), faceup=[RED, LOCO, LOCO], deck=[], discard=[], rest=1)
    g.apply(A.DrawCard(0, RED))
    assert g.hands[0] == list(cards(red=1))
    assert g.current == 1


def test_draw_ends_with_one_card_when_nothing_else_can_be_taken():
    g = arrange(make_game(), faceup=[RED], deck=[], discard=[], rest=1)
    g.apply(A.DrawCard(0, RED))
    assert g.current == 1 and g.faceup == []


def test_no_hand_limit():
    g = make_game()
    g = arrange(g, hands={0: cards(red=11, blue=11, green=11, locomotive=10)},
                faceup=PLAIN5)
    g.apply(A.DrawCard(0))
    g.apply(A.DrawCard(0))
    assert sum(g.hands[0]) == 45


def test_cannot_take_a_face_up_card_that_is_not_there():
    g = arrange(make_game(), faceup=PLAIN5)
    assert refuse(g, A.DrawCard(0, BLACK)) == "card_not_faceup"


# ----- §3.2 three-locomotive rule ---------------------------------------------------------------
def test_three_face_up_locomotives_flush_the_row():
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, BLUE, GREEN],
                deck=[LOCO, WHITE, WHITE, YELLOW, YELLOW, ORANGE, BLACK])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.discard) == sorted([LOCO, LOCO, LOCO, BLUE, GREEN])
    assert sorted(g.faceup) == sorted([WHITE, WHITE, YELLOW, YELLOW, ORANGE])
    assert g.step == "second_card"


def test_flush_repeats_if_three_locomotives_come_up_again():
    bad = [LOCO, LOCO, LOCO, PURPLE, PURPLE]
    good = [WHITE, WHITE, YELLOW, YELLOW, ORANGE]
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, BLUE, GREEN],
                deck=[LOCO] + bad + good + [BLACK])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted(good)
    assert len(g.discard) == 10


def test_flush_at_most_three_times_in_a_row_then_the_row_stays():
    b1 = [LOCO, LOCO, LOCO, PURPLE, PURPLE]
    b2 = [LOCO, LOCO, LOCO, ORANGE, ORANGE]
    b3 = [LOCO, LOCO, LOCO, BLACK, BLACK]
    g = arrange(make_game(), faceup=[LOCO, LOCO, RED, BLUE, GREEN],
                deck=[LOCO] + b1 + b2 + b3 + [WHITE])
    g.apply(A.DrawCard(0, RED))
    assert sorted(g.faceup) == sorted(b3)      # third refill: stays although 3 locomotives
    assert len(g.discard) == 15
    assert deck_top(g, 1) == [WHITE]
    assert refuse(g, A.DrawCard(0, LOCO)) == "second_locomotive"


# ----- §3.3 deck exhaustion -----------------------------------------------------------------
def test_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_is_empty():
    g = make_game(reshuffles=[[GREEN, RED, BLUE]])
    arrange(g, faceup=PLAIN5, deck=[], discard=[RED, BLUE, GREEN], rest=1)
    g.apply(A.DrawCard(0))
    assert g.hands[0] == list(cards(green=1))
    assert g.discard == [] and deck_top(g) == [RED, BLUE]


def test_face_up_row_may_hold_fewer_than_five_when_deck_and_discard_are_empty():
    g = arrange(make_game(), faceup=[RED, BLUE, GREEN], deck=[BLACK], discard=[], rest=1)
    g.apply(A.DrawCard(0, RED))             # replaced by the last deck card
    assert sorted(g.faceup) == sorted([BLACK, BLUE, GREEN])
    g.apply(A.DrawCard(0, BLUE))            # nothing to replace it with
    assert sorted(g.faceup) == sorted([BLACK, GREEN])
    assert card_total(g) == 110


def test_draw_train_cards_not_offered_when_no_card_at_all_can_be_taken():
    g = arrange(make_game(), faceup=[], deck=[], discard=[], rest=1)
    assert refuse(g, A.DrawCard(0)) == "deck_empty"
    assert not any(isinstance(a, A.DrawCard) for a in g.legal_actions(0))


# ----- §3.4 claim a route -----------------------------------------------------------------
def claim_game(n=2, hand=None, **kw):
    g = make_game("usa", n, **kw)
    return arrange(g, hands={0: hand or cards(red=6, blue=6, green=6, locomotive=6)},
                   faceup=OTHER5)


def test_claim_pays_exactly_length_cards_of_the_route_colour():
    g = claim_game()
    r = route(g, "Dallas", "El Paso", "red")          # red, 4
    g.apply(A.ClaimRoute(0, r, cards(red=4)))
    assert g.owner[r] == 0
    assert g.hands[0][RED] == 2
    assert g.trains[0] == 41
    assert g.route_points[0] == 7
    assert g.current == 1


@pytest.mark.parametrize("pay,key", [
    (cards(red=3), "pay_exact"),
    (cards(red=5), "pay_exact"),
    (cards(blue=4), "pay_route_color"),
    (cards(red=2, blue=2), "pay_one_color"),
    (cards(red=2, blue=1, locomotive=1), "pay_one_color"),
])
def test_claim_with_wrong_payment_is_refused(pay, key):
    g = claim_game()
    assert refuse(g, A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), pay)) == key


def test_claim_with_cards_not_in_hand_is_refused():
    g = claim_game(hand=cards(red=3))
    assert refuse(g, A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"),
                                  cards(red=4))) == "cards_not_in_hand"


def test_locomotives_replace_any_card():
    g = claim_game()
    r = route(g, "Dallas", "El Paso", "red")
    g.apply(A.ClaimRoute(0, r, cards(red=1, locomotive=3)))
    assert g.owner[r] == 0


@pytest.mark.parametrize("a,b,color", [("Dallas", "El Paso", "red"),
                                       ("El Paso", "Phoenix", "gray")])
def test_all_locomotive_payment_is_legal(a, b, color):
    g = claim_game()
    r = route(g, a, b, color)
    n = g.board.routes[r].length
    assert A.ClaimRoute(0, r, cards(locomotive=n)) in g.legal_actions(0)
    g.apply(A.ClaimRoute(0, r, cards(locomotive=n)))
    assert g.owner[r] == 0


def test_gray_route_takes_any_one_colour_of_the_players_choice():
    g = claim_game()
    r = route(g, "El Paso", "Phoenix", "gray")        # 3
    assert refuse(g, A.ClaimRoute(0, r, cards(green=2, blue=1))) == "pay_one_color"
    g.apply(A.ClaimRoute(0, r, cards(green=2, locomotive=1)))
    assert g.owner[r] == 0


def test_not_enough_trains_left():
    g = claim_game()
    g.trains[0] = 3
    assert refuse(g, A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"),
                                  cards(red=4))) == "not_enough_trains"
    g.apply(A.ClaimRoute(0, route(g, "El Paso", "Phoenix", "gray"), cards(red=3)))
    assert g.trains[0] == 0


@pytest.mark.parametrize("a,b,color,points", [
    ("Dallas", "Houston", "gray", 1), ("El Paso", "Santa Fe", "gray", 2),
    ("El Paso", "Phoenix", "gray", 4), ("Dallas", "El Paso", "red", 7),
    ("Atlanta", "Miami", "blue", 10), ("El Paso", "Houston", "green", 15)])
def test_route_scores_at_once_by_length(a, b, color, points):
    g = claim_game(hand=cards(red=6, blue=6, green=6))
    r = route(g, a, b, color, lane=1)
    col = {"gray": "red"}.get(color, color)
    g.apply(A.ClaimRoute(0, r, cards(**{col: g.board.routes[r].length})))
    assert g.route_points[0] == points
    assert g.scores()[0][0]["route_points"] == points


def test_cards_paid_go_to_the_discard_pile():
    g = claim_game()
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=3, locomotive=1)))
    assert sorted(g.discard) == [RED, RED, RED, LOCO]
    assert card_total(g) == 110


def test_one_route_per_turn():
    g = claim_game()
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    assert refuse(g, A.ClaimRoute(0, route(g, "El Paso", "Phoenix", "gray"),
                                  cards(blue=3))) == "not_your_turn"


def test_route_need_not_connect_to_the_players_other_routes():
    g = claim_game()
    arrange(g, hands={0: cards(red=6, blue=6), 1: cards(green=4)}, faceup=OTHER5)
    g.apply(A.ClaimRoute(0, route(g, "Dallas", "El Paso", "red"), cards(red=4)))
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    r = route(g, "Atlanta", "Miami", "blue")
    g.apply(A.ClaimRoute(0, r, cards(blue=5)))
    assert g.owner[r] == 0


def test_a_claimed_route_is_taken():
    g = claim_game()
    arrange(g, hands={0: cards(red=6), 1: cards(red=6)}, faceup=OTHER5)
    r = route(g, "Dallas", "El Paso", "red")
    g.apply(A.ClaimRoute(0, r, cards(red=4)))
    assert refuse(g, A.ClaimRoute(1, r, cards(red=4))) == "route_taken"


@pytest.mark.parametrize("n", [2, 3])
def test_double_route_with_2_or_3_players_only_one_lane_can_be_used(n):
    g = make_game("usa", n)
    arrange(g, hands={p: cards(purple=3, blue=3) for p in range(n)}, faceup=OTHER5)
    r1 = route(g, "Kansas City", "Saint Louis", "blue")
    r2 = route(g, "Kansas City", "Saint Louis", "purple")
    g.apply(A.ClaimRoute(0, r1, cards(blue=2)))
    assert refuse(g, A.ClaimRoute(1, r2, cards(purple=2))) == "double_closed"
    assert not any(isinstance(a, A.ClaimRoute) and a.route == r2 for a in g.legal_actions(1))


@pytest.mark.parametrize("n", [4, 5])
def test_double_route_with_4_or_5_players_both_lanes_by_different_players(n):
    g = make_game("usa", n)
    arrange(g, hands={p: cards(red=2, blue=2, purple=2) for p in range(n)}, faceup=OTHER5)
    r1 = route(g, "Kansas City", "Saint Louis", "blue")
    r2 = route(g, "Kansas City", "Saint Louis", "purple")
    g.apply(A.ClaimRoute(0, r1, cards(blue=2)))
    g.apply(A.ClaimRoute(1, r2, cards(purple=2)))
    assert g.owner[r1] == 0 and g.owner[r2] == 1


def test_a_player_may_never_own_both_lanes_of_a_double_route():
    g = make_game("usa", 4)
    arrange(g, hands={p: cards(red=2, blue=2, purple=2) for p in range(4)}, faceup=OTHER5)
    r1 = route(g, "Kansas City", "Saint Louis", "blue")
    r2 = route(g, "Kansas City", "Saint Louis", "purple")
    g.apply(A.ClaimRoute(0, r1, cards(blue=2)))
    for p in (1, 2, 3):
        g.apply(A.DrawCard(p))
        g.apply(A.DrawCard(p))
    assert refuse(g, A.ClaimRoute(0, r2, cards(purple=2))) == "double_own"


# ----- §3.5 draw destination tickets ------------------------------------------------------------
def ticket_game():
    return make_game("usa", 2, tickets=list(range(30)))     # seats keep 0-2, 3-5; deck 6..29


def test_draw_tickets_offers_the_top_three():
    g = ticket_game()
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [6, 7, 8]
    assert g.step == "choosing" and g.current == 0


def test_keep_at_least_one_drawn_ticket_and_return_the_rest_to_the_bottom():
    g = ticket_game()
    g.apply(A.DrawTickets(0))
    assert refuse(g, A.KeepTickets(0, ())) == "keep_at_least"
    g.apply(A.KeepTickets(0, (7,)))
    assert 7 in g.tickets[0]
    assert list(g.ticket_deck)[-2:] == [6, 8]
    assert list(g.ticket_deck)[0] == 9
    assert g.current == 1


def test_the_choice_is_made_in_the_same_turn():
    g = ticket_game()
    g.apply(A.DrawTickets(0))
    assert refuse(g, A.DrawCard(0)) == "choose_tickets_first"
    assert refuse(g, A.DrawTickets(0)) == "choose_tickets_first"
    assert refuse(g, A.DrawCard(1)) == "not_your_turn"
    assert refuse(g, A.KeepTickets(1, (6,))) == "not_your_turn"


def test_fewer_tickets_offered_when_fewer_remain():
    g = ticket_game()
    g.ticket_deck = deque([20, 21])
    g.apply(A.DrawTickets(0))
    assert g.offers[0] == [20, 21]
    g.apply(A.KeepTickets(0, (21,)))
    assert list(g.ticket_deck) == [20]


def test_draw_tickets_not_allowed_when_none_remain():
    g = ticket_game()
    g.ticket_deck = deque()
    assert refuse(g, A.DrawTickets(0)) == "no_tickets_left"
    assert A.DrawTickets(0) not in g.legal_actions(0)


# ----- §3.6 pass --------------------------------------------------------------------------
def stuck_game(n=2, faceup=()):
    """No free route, no tickets, and (unless `faceup`) no card to draw: the last seat holds
    all the cards."""
    g = make_game("usa", n)
    arrange(g, faceup=list(faceup), deck=[], discard=[], rest=n - 1)
    g.owner = [0] * len(g.board.routes)
    g.ticket_deck = deque()
    return g


def test_pass_is_refused_while_the_player_could_draw_a_card():
    g = make_game()
    assert refuse(g, A.Pass(0)) == "cannot_pass"
    assert A.Pass(0) not in g.legal_actions(0)


def test_pass_is_refused_while_a_route_can_be_paid_for():
    g = make_game("usa", 2)
    arrange(g, hands={0: cards(red=2)}, faceup=[], deck=[], discard=[], rest=1)
    g.ticket_deck = deque()
    assert refuse(g, A.Pass(0)) == "cannot_pass"


def test_pass_only_when_no_legal_action_at_all():
    g = stuck_game()
    assert g.legal_actions(0) == [A.Pass(0)]
    g.apply(A.Pass(0))
    assert g.current == 1 and g.phase == "play"


def test_game_ends_after_as_many_passes_in_a_row_as_players():
    g = stuck_game(2)
    g.apply(A.Pass(0))
    assert g.phase == "play"
    g.apply(A.Pass(1))
    assert g.phase == "over"
    players, winners = g.scores()
    assert len(players) == 2 and winners


def test_passes_in_a_row_count_from_any_seat_and_another_action_resets_them():
    g = stuck_game(3, faceup=[RED])
    g.passes = 2                           # two passes already came in a row before this
    g.apply(A.DrawCard(0, RED))            # the last card: a real action
    g.apply(A.Pass(1))
    g.apply(A.Pass(2))
    assert g.phase == "play"
    g.apply(A.Pass(0))
    assert g.phase == "over"


# ----- turns go round ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 5])
def test_turns_taken_counts_each_seats_finished_turns(n):
    """A turn is finished when its last action is applied (a two-card draw is two actions, the
    ticket choice at the start is none); turns_taken(seat) agrees at every step."""
    g = make_game("europe" if n == 5 else "usa", n, seed=n, setup=False)
    assert [g.turns_taken(s) for s in range(n)] == [0] * n
    rng = random.Random(n)
    finished = [0] * n
    while not g.over and g.turn < 60:
        seat = g.to_move()[0]
        before = g.turn
        g.apply(rng.choice(g.legal_actions(seat)))
        if g.turn > before:
            finished[seat] += 1
        assert [g.turns_taken(s) for s in range(n)] == finished
    assert sum(finished) == g.turn > 0
