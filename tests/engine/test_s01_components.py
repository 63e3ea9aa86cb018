"""docs/rules.md §1 Components (base game, USA) — and the per-map component counts of §8/§9."""
from collections import Counter

import pytest

from tests.engine.rulekit import DECK_SIZE, LOCO, Dealer, Game, board, card_total, load_board, make_game


def all_cards(g):
    c = Counter(g.deck) + Counter(g.discard) + Counter(g.faceup)
    for h in g.hands:
        c += Counter({k: n for k, n in enumerate(h) if n})
    return c


@pytest.mark.parametrize("map_id", ["usa", "europe", "switzerland", "nordic"])
def test_train_deck_is_110_cards_12_of_each_colour_and_14_locomotives(map_id):
    g = Game(load_board(map_id), 2, Dealer(7))
    assert card_total(g) == DECK_SIZE == 110
    c = all_cards(g)
    assert [c[k] for k in range(8)] == [12] * 8
    assert c[LOCO] == 14


@pytest.mark.parametrize("map_id,trains", [("usa", 45), ("europe", 45),
                                           ("switzerland", 40), ("nordic", 40)])
def test_each_player_has_45_trains_or_40_on_switzerland_and_nordic(map_id, trains):
    n = 3
    g = make_game(map_id, n)
    assert g.trains == [trains] * n


@pytest.mark.parametrize("map_id,lo,hi", [("usa", 2, 5), ("europe", 2, 5),
                                          ("switzerland", 2, 3), ("nordic", 2, 3)])
def test_player_count_limits(map_id, lo, hi):
    b = load_board(map_id)
    for n in range(lo, hi + 1):
        Game(b, n, Dealer(1))
    for n in (lo - 1, hi + 1):
        with pytest.raises(ValueError):
            Game(b, n, Dealer(1))


def test_usa_has_30_destination_tickets_each_two_cities_and_a_value():
    b = board("usa")
    assert len(b.tickets) == 30
    for t in b.tickets:
        assert len(t.dests) == 1 and len(t.points) == 1 and t.points[0] > 0
        assert t.origin != t.dests[0]


def test_longest_path_bonus_card_is_worth_10_on_usa():
    assert board("usa").rules.longest_path_bonus == 10
