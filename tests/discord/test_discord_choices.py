"""Autocomplete and payments: what a player is offered while typing /ttr claim, keep and
station, how typed text is read back, and when the bot picks the payment itself."""
import pytest

from tests.discord.adapter_kit import new_game
from ttr_bot.discord.controls import autocomplete as A
from ttr_bot.discord.controls import payment_choices as pay
from ttr_bot.engine import payment
from ttr_bot.engine.cards import CARD_INDEX, GRAY, LOCO
from ttr_bot.engine.view import view

RED, BLUE = CARD_INDEX["red"], CARD_INDEX["blue"]


def hand(**counts):
    h = [0] * 9
    for name, n in counts.items():
        h[CARD_INDEX[name]] = n
    return h


def playing(map_id="usa", n=2, seed=1, cards=None):
    """A game past the starting choice, seat 0 to move, with `cards` as seat 0's hand."""
    game = new_game(map_id, n, seed)
    for p in range(n):
        game.apply(game.legal_actions(p)[0])
    if cards is not None:
        game.hands[0] = list(cards)
    assert game.phase == "play" and game.current == 0
    return game


# ----- routes ---------------------------------------------------------------------------------------
def test_route_choices_are_affordable_at_most_25_and_filtered():
    game = playing(cards=hand(red=6, blue=6, green=6, locomotive=4))
    v = view(game, 0)
    choices = A.route_choices(v, "", "en")
    assert 0 < len(choices) <= 25
    for label, value in choices:
        route = game.board.routes[int(value)]
        assert payment.route_payments(game.board.rules, route, v.hand)
        assert len(label) <= 100 and len(value) <= 100
    affordable = A.claimable_routes(v)
    assert len(affordable) > 25             # the cap matters here
    denver = A.route_choices(v, "denv", "en")
    assert denver and all("Denver" in label for label, _ in denver)
    both = A.route_choices(v, "denver omaha", "en")
    assert both and all("Denver" in label and "Omaha" in label for label, _ in both)


def test_route_choices_leave_out_what_cannot_be_paid_or_is_taken():
    game = playing(cards=hand(red=2))
    v = view(game, 0)
    for _label, value in A.route_choices(v, "", "en"):
        route = game.board.routes[int(value)]
        assert route.length <= 2 and route.color in (RED, GRAY)
    taken = int(A.route_choices(v, "", "en")[0][1])
    game.owner[taken] = 1
    assert str(taken) not in [value for _, value in A.route_choices(view(game, 0), "", "en")]


def test_no_route_choices_when_it_is_not_your_turn():
    game = playing(cards=hand(red=6, locomotive=4))
    assert A.route_choices(view(game, 1), "", "en") == []


def test_typed_route_names_resolve():
    board = new_game().board
    found = A.resolve_route(board, "Denver – Omaha")
    assert found and all({board.nodes[board.routes[r].a].name, board.nodes[board.routes[r].b].name}
                         == {"Denver", "Omaha"} for r in found)
    assert A.resolve_route(board, "omaha denver") == found
    assert A.resolve_route(board, str(found[0])) == [found[0]]
    assert A.resolve_route(board, "Atlantis Lemuria") == []
    assert len(A.resolve_route(board, "Denver Kansas City")) == 2      # a double route


# ----- tickets ------------------------------------------------------------------------------------------
def test_ticket_choices_respect_the_minimum_and_the_filter():
    game = new_game("usa", 2, seed=3)
    v = view(game, 0)
    choices = A.ticket_choices(v, "", "en", 2)
    assert [value for _, value in choices] == ["A,B,C", "A,B", "A,C", "B,C"]   # the menu's letters
    first = game.board.tickets[v.offer[0]].origin
    assert all("A" in value.split(",") or first in label
               for label, value in A.ticket_choices(v, first, "en", 2))
    assert [value for _, value in A.ticket_choices(v, "1,3", "en", 2)] == ["A,C"]
    mega = new_game("usa", 2, seed=3, variant="mega")
    assert len(A.ticket_choices(view(mega, 0), "", "en", 3)) <= 25


def test_parse_keep():
    board = new_game().board
    offer = [4, 9, 17]
    assert A.parse_keep("A,C", offer, board) == (4, 17)     # the letters of the menu and map
    assert A.parse_keep("c b", offer, board) == (17, 9)
    assert A.parse_keep("1,3", offer, board) == (4, 17)     # positions still read
    assert A.parse_keep(" 3 2 ", offer, board) == (17, 9)
    assert A.parse_keep("all", offer, board) == (4, 9, 17)
    assert A.parse_keep(board.tickets[9].label(), offer, board) == (9,)
    for bad, key in (("4", "bot.keep.bad_number"), ("D", "bot.keep.bad_number"),
                     ("", "bot.keep.empty"),
                     ("Nowhere", "bot.keep.bad_name")):
        with pytest.raises(ValueError, match=key):
            A.parse_keep(bad, offer, board)


# ----- stations -------------------------------------------------------------------------------------------
def test_city_choices_show_free_cities_with_the_price():
    game = playing("europe", cards=hand(red=3))
    game.station_owner[0] = 1
    v = view(game, 0)
    choices = A.city_choices(v, "", "en")
    assert 0 < len(choices) <= 25
    assert str(0) not in [value for _, value in choices]
    assert all("1 card" in label for label, _ in choices)
    assert A.city_choices(view(playing("usa"), 0), "", "en") == []    # no stations on the USA map
    assert A.city_choices(view(game, 1), "", "en") == []               # not their turn
    game.hands[0] = hand()                                              # nothing to pay with
    assert A.city_choices(view(game, 0), "", "en") == []
    assert A.resolve_city(game.board, "paris") == next(
        n.index for n in game.board.nodes if n.name == "Paris")


# ----- payments -------------------------------------------------------------------------------------------
def route(board, color, length, **kw):
    return next(r for r in board.routes if r.color == color and r.length == length and
                all(getattr(r, k) == v for k, v in kw.items()))


def test_one_sensible_payment_is_chosen_without_asking():
    board = new_game().board
    r = route(board, RED, 4, tunnel=False, ferry=0)
    options = pay.route_options(board.rules, r, hand(red=4, locomotive=2))
    assert options == [tuple(hand(red=4))]
    # not enough red: the fewest locomotives that make it up
    assert pay.route_options(board.rules, r, hand(red=3, locomotive=2)) == \
        [tuple(hand(red=3, locomotive=1))]


def test_gray_route_with_two_colours_asks():
    board = new_game().board
    r = route(board, GRAY, 2)
    options = pay.route_options(board.rules, r, hand(red=2, blue=3, locomotive=1))
    assert sorted(options) == sorted([tuple(hand(red=2)), tuple(hand(blue=2))])
    stated = pay.route_options(board.rules, r, hand(red=2, blue=3, locomotive=1), color=BLUE)
    assert stated == [tuple(hand(blue=2))]
    locos = pay.route_options(board.rules, r, hand(red=2, blue=3, locomotive=1), color=BLUE,
                              locomotives=1)
    assert locos == [tuple(hand(blue=1, locomotive=1))]


def test_all_locomotives_only_when_nothing_else_pays_or_asked():
    board = new_game().board
    r = route(board, RED, 2)
    assert pay.route_options(board.rules, r, hand(locomotive=3)) == [tuple(hand(locomotive=2))]
    assert pay.route_options(board.rules, r, hand(red=2, locomotive=3)) == [tuple(hand(red=2))]
    assert pay.route_options(board.rules, r, hand(red=2, locomotive=3), color=LOCO) == \
        [tuple(hand(locomotive=2))]
    assert pay.route_options(board.rules, r, hand(blue=5)) == []


def test_station_and_tunnel_options():
    assert pay.station_options(hand(red=1, blue=1), 1) == sorted(
        [tuple(hand(red=1)), tuple(hand(blue=1))], key=lambda p: (p[LOCO], p))
    assert pay.station_options(hand(red=1, blue=1), 1, color=RED) == [tuple(hand(red=1))]
    assert pay.station_options(hand(red=1, locomotive=1), 2) == [tuple(hand(red=1, locomotive=1))]
    opts = pay.tunnel_options(hand(red=2, locomotive=2), 2, RED)
    assert opts[0] == tuple(hand(red=2)) and len(opts) == 3
    assert pay.tunnel_options(hand(red=2), 2, -1) == []


def test_a_ferry_on_northern_lights_offers_a_pair_for_its_locomotive():
    """The claim's payments are the map's own (the engine's): a ferry's locomotive symbol is
    paid by a pair of one colour too (RULES.md §17.2), so a hand without locomotives can claim
    it and is offered the payment."""
    game = playing("northern_lights")
    r = next(i for i, rt in enumerate(game.board.routes)
             if rt.ferry == 1 and rt.length == 2 and rt.color == GRAY)
    game.hands[0] = hand(red=1, blue=2)
    options = pay.claim_options(view(game, 0), r)
    assert options == [tuple(hand(red=1, blue=2))]
    # the base rule would have found nothing to pay with
    assert pay.route_options(game.board.rules, game.board.routes[r], game.hands[0]) == []
    game.hands[0] = hand(red=1, blue=1)                 # no pair, no locomotive: nothing
    assert pay.claim_options(view(game, 0), r) == []
