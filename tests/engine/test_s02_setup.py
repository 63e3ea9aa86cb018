"""docs/rules.md §2 Setup: dealing, face-up row, starting tickets, seat order."""
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
    deal_top,
    deck_top,
    make_game,
    refuse,
    train_order,
)


def test_four_cards_dealt_to_each_player_one_at_a_time_round_the_table():
    top = [PURPLE, BLUE, ORANGE, WHITE, GREEN, YELLOW, BLACK, RED]
    g = make_game("usa", 2, top=top, setup=False)
    # seat 0 gets cards 1, 3, 5, 7; seat 1 gets 2, 4, 6, 8
    assert g.hands[0] == [1, 0, 1, 0, 1, 0, 1, 0, 0]
    assert g.hands[1] == [0, 1, 0, 1, 0, 1, 0, 1, 0]


def test_deal_round_the_table_with_three_players():
    hands = [[RED, RED, RED, RED], [BLUE, BLUE, GREEN, GREEN], [LOCO, WHITE, WHITE, WHITE]]
    g = make_game("usa", 3, top=deal_top(3, hands), setup=False)
    assert g.hands[0][RED] == 4
    assert g.hands[1][BLUE] == 2 and g.hands[1][GREEN] == 2
    assert g.hands[2][LOCO] == 1 and g.hands[2][WHITE] == 3


def test_five_cards_turned_face_up_after_the_hands():
    hands = [[RED] * 4, [BLUE] * 4]
    up = [GREEN, YELLOW, LOCO, BLACK, WHITE]
    g = make_game("usa", 2, top=deal_top(2, hands, up), setup=False)
    assert sorted(g.faceup) == sorted(up)
    assert g.discard == []
    assert len(g.deck) == 110 - 8 - 5
    # the next card of the order is now the top of the deck
    order = train_order(deal_top(2, hands, up))
    assert deck_top(g, 3) == order[13:16]


def test_setup_applies_the_three_locomotive_rule():
    hands = [[RED] * 4, [BLUE] * 4]
    up = [LOCO, GREEN, LOCO, BLACK, LOCO]
    nxt = [WHITE, WHITE, YELLOW, YELLOW, ORANGE]
    g = make_game("usa", 2, top=deal_top(2, hands, up) + nxt, setup=False)
    assert sorted(g.discard) == sorted(up)
    assert sorted(g.faceup) == sorted(nxt)
    assert sum(g.hands[0]) == sum(g.hands[1]) == 4


def test_three_tickets_dealt_to_each_player_whole_hand_in_seat_order():
    order = list(range(30))[::-1]
    g = make_game("usa", 3, tickets=order, setup=False)
    assert g.offers == [[29, 28, 27], [26, 25, 24], [23, 22, 21]]
    assert list(g.ticket_deck)[:2] == [20, 19]


def test_each_player_keeps_at_least_two_starting_tickets():
    g = make_game("usa", 2, tickets=list(range(30)), setup=False)
    assert refuse(g, A.KeepTickets(0, (0,))) == "keep_at_least"
    assert refuse(g, A.KeepTickets(0, ())) == "keep_at_least"
    g.apply(A.KeepTickets(0, (0, 2)))
    g.apply(A.KeepTickets(1, (3, 4, 5)))
    assert g.tickets == [[0, 2], [3, 4, 5]]


def test_only_offered_tickets_can_be_kept_and_only_once():
    g = make_game("usa", 2, tickets=list(range(30)), setup=False)
    assert refuse(g, A.KeepTickets(0, (0, 3))) == "not_offered"      # 3 is seat 1's
    assert refuse(g, A.KeepTickets(0, (0, 0))) == "not_offered"
    g.apply(A.KeepTickets(0, (0, 1)))
    assert refuse(g, A.KeepTickets(0, (0, 1))) == "already_chosen"


def test_returned_starting_tickets_go_to_the_bottom_in_the_order_chosen():
    g = make_game("usa", 2, tickets=list(range(30)), setup=False)
    g.apply(A.KeepTickets(1, (3, 5)))        # seat 1 chooses first, returns 4
    g.apply(A.KeepTickets(0, (1, 2)))        # then seat 0 returns 0
    deck = list(g.ticket_deck)
    assert deck[:2] == [6, 7]
    assert deck[-2:] == [4, 0]
    assert len(deck) == 30 - 6 + 2


def test_players_choose_at_the_same_time_and_in_any_order():
    g = make_game("usa", 3, setup=False)
    assert sorted(g.to_move()) == [0, 1, 2]
    g.apply(A.KeepTickets(2, tuple(g.offers[2])))
    g.apply(A.KeepTickets(0, tuple(g.offers[0])))
    assert g.phase == "setup" and g.to_move() == [1]
    g.apply(A.KeepTickets(1, tuple(g.offers[1])[:2]))
    assert g.phase == "play"


def test_no_turn_action_before_every_player_has_chosen():
    g = make_game("usa", 2, setup=False)
    assert refuse(g, A.DrawCard(0)) == "setup_pending"
    g.apply(A.KeepTickets(0, tuple(g.offers[0])))
    assert refuse(g, A.DrawCard(0)) == "setup_pending"
    assert refuse(g, A.DrawTickets(0)) == "setup_pending"
    g.apply(A.KeepTickets(1, tuple(g.offers[1])))
    g.apply(A.DrawCard(0))


def test_first_player_starts_then_play_goes_to_the_next_seat_and_wraps():
    g = make_game("usa", 3)
    assert g.current == 0
    for expected in (1, 2, 0, 1):
        g.apply(A.DrawCard(g.current))
        g.apply(A.DrawCard(g.current))
        assert g.current == expected
    assert refuse(g, A.DrawCard(0)) == "not_your_turn"
