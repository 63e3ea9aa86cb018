"""RULES.md §17 Northern Lights: the 114-card deck without the flush, triples' lanes, ferries paid
with same-colour pairs, draw bonuses, the four bonus cards; and a golden record scored by hand."""
import json
from collections import Counter
from pathlib import Path

import pytest

from tests.engine.rulekit import (
    BLUE,
    GREEN,
    LOCO,
    ORANGE,
    PURPLE,
    RED,
    WHITE,
    A,
    cards,
    give_routes,
    refuse,
    route,
    ticket,
)
from ttr_bot.engine.cards import full_deck
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.seat_rules import DOUBLE_CLOSED, DOUBLE_OWN
from ttr_bot.engine.view import determinize, view
from ttr_bot.game_record import RecordError, export_record, replay, result
from ttr_bot.maps import load_board

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "northern_lights_bonus_cards.json"
FULL = Counter(full_deck(18))


def north(n=2, *, hands=None, faceup=(WHITE, WHITE, RED, RED, GREEN), deck=(), discard=(), seed=0,
          tickets=None):
    """A Northern Lights game after setup with its 114 cards where wanted (rulekit's arrange
    knows 110)."""
    b = load_board("northern_lights")
    g = Game(b, n, Dealer(seed, tickets=tickets))
    for p in range(n):
        g.apply(A.KeepTickets(p, tuple(g.offers[p])))
    hands = {p: list(h) for p, h in (hands or {}).items()}
    left = Counter(FULL)
    for h in hands.values():
        left.subtract(Counter({c: k for c, k in enumerate(h)}))
    left.subtract(Counter(faceup))
    left.subtract(Counter(deck))
    left.subtract(Counter(discard))
    assert min(left.values()) >= 0
    rest = [c for c, k in sorted(left.items()) for _ in range(k)]
    g.hands = [hands.get(p, [0] * 9) for p in range(n)]
    g.faceup = list(faceup)
    g.deck = (list(deck) + rest)[::-1]
    g.discard = list(discard)
    return g


def census(g):
    return len(g.deck) + len(g.discard) + len(g.faceup) + sum(map(sum, g.hands))


# ----- §17.1 components and setup ------------------------------------------------------------
def test_17_1_a_deck_of_114_with_18_locomotives_and_40_trains():
    g = Game(load_board("northern_lights"), 3, Dealer(4))
    assert census(g) == 114
    assert Counter(g.dealer.dealt["train"]) == FULL and FULL[LOCO] == 18
    assert g.trains == [40] * 3 and (g.rules.min_players, g.rules.max_players) == (2, 5)
    assert [len(o) for o in g.offers] == [4, 4, 4] and g.keep_min(0) == 2


def test_17_1_no_three_locomotive_flush_but_a_faceup_locomotive_ends_the_draw():
    g = north(faceup=(LOCO, LOCO, RED, RED, GREEN), deck=(LOCO, BLUE))
    g.apply(A.DrawCard(0, RED))                              # the row now shows 3 locomotives
    assert g.faceup.count(LOCO) == 3 and g.discard == []
    assert refuse(g, A.DrawCard(0, LOCO)) == "second_locomotive"
    g.apply(A.DrawCard(0, RED))
    g.apply(A.DrawCard(1, LOCO))                             # the whole draw
    assert g.current == 0 and g.hands[1][LOCO] == 1


@pytest.mark.parametrize("n,open_lanes", [(2, 0), (3, 2), (4, 2), (5, 2)])
def test_17_1_triples_one_lane_at_2_two_at_3_three_at_4_5(n, open_lanes):
    g = north(n, hands={0: cards(white=1)})
    lanes = [route(g, "Karlstad", "Oslo", c) for c in ("white", "green", "orange")]
    g.apply(A.ClaimRoute(0, lanes[0], cards(white=1)))
    assert [g.route_blocked(0, r) for r in lanes[1:]] == [DOUBLE_OWN, DOUBLE_OWN]
    assert sum(g.route_blocked(1, r) is None for r in lanes[1:]) == open_lanes
    if n == 3:                                               # a second lane taken closes the third
        g.current = 1
        g.hands[1] = list(cards(green=1))
        g.apply(A.ClaimRoute(1, lanes[1], cards(green=1)))
        assert g.route_blocked(2, lanes[2]) == DOUBLE_CLOSED


def test_17_1_four_of_the_eleven_bonus_cards_from_the_seed():
    one = Game(load_board("northern_lights"), 2, Dealer(1)).extra["bonus_cards"]["cards"]
    assert one == Game(load_board("northern_lights"), 2, Dealer(1)).extra["bonus_cards"]["cards"]
    assert len(one) == len(set(one)) == 4 and set(one) <= set("ABCDEFGHIJK")
    seen = {tuple(Game(load_board("northern_lights"), 2, Dealer(s)).extra["bonus_cards"]["cards"])
            for s in range(8)}
    assert len(seen) > 1
    g = Game(load_board("northern_lights"), 2, Dealer(1))
    assert view(g, 1).extra["bonus_cards"]["cards"] == one          # shown to all
    assert determinize(view(g, 1), None).extra["bonus_cards"]["cards"] == one


# ----- §17.2 ferries paid with pairs ------------------------------------------------------------
BERGEN = ("Åndalsnes", "Bergen", "gray", 1)                  # gray 4, two locomotive symbols, +2


@pytest.mark.parametrize("pay,ok", [
    (cards(red=2, locomotive=2), True),                      # locomotives on the symbols
    (cards(red=2, blue=2, locomotive=1), True),              # one symbol by a blue pair
    (cards(red=6), True),                                    # two red pairs, two red spaces
    (cards(red=2, blue=2, green=2), True),                   # a pair per symbol
    (cards(red=1, blue=2, locomotive=2), True),              # red + locomotive on the spaces
    (cards(locomotive=4), True),
    (cards(blue=2, green=2), False),                         # pairs never pay ordinary spaces
    (cards(red=3, blue=2), False),                           # a card left over
    (cards(red=2, blue=1, locomotive=1), False),             # a single blue is no pair
    (cards(red=2, blue=4, green=2), False),                  # three pairs for two symbols
    (cards(red=1, green=1, locomotive=2), False),            # two colours on the spaces
])
def test_17_2_each_symbol_a_locomotive_or_a_same_colour_pair(pay, ok):
    g = north(hands={0: cards(red=6, blue=4, green=2, locomotive=4)})
    r = route(g, *BERGEN)
    if ok:
        g.apply(A.ClaimRoute(0, r, pay))
        assert g.owner[r] == 0 and g.route_points[0] == 7
    else:
        assert refuse(g, A.ClaimRoute(0, r, pay)) in ("pay_ferry_pairs", "pay_route_color")


def test_17_2_the_listed_payments_are_exactly_the_legal_ones():
    # red 3, blue 2, a locomotive on a gray 4 with two symbols: red 2 + a blue pair + the
    # locomotive, or red 1 + a red pair + a blue pair + the locomotive; nothing else pays it
    g = north(hands={0: cards(red=3, blue=2, locomotive=1)})
    r = route(g, *BERGEN)
    listed = {a.cards for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.route == r}
    assert listed == {cards(red=2, blue=2, locomotive=1), cards(red=3, blue=2, locomotive=1)}
    for p in listed:
        assert g.check(A.ClaimRoute(0, r, p)) is None


# ----- §17.3 draw bonus -------------------------------------------------------------------------
def test_17_3_after_a_plus_x_route_draw_x_blind():
    g = north(hands={0: cards(red=1, locomotive=1)}, deck=(ORANGE, PURPLE))
    r = route(g, "Åndalsnes", "Trondheim", lane=1)           # gray 1 ferry, +1
    events = g.apply(A.ClaimRoute(0, r, cards(locomotive=1)))
    bonus = [e for e in events if e["type"] == "draw_bonus"]
    assert bonus == [{"type": "draw_bonus", "seat": 0, "route": r, "count": 1,
                      "private": {"cards": [ORANGE]}}]
    assert g.hands[0] == list(cards(red=1, orange=1)) and census(g) == 114


def test_17_3_the_paid_cards_are_discarded_and_reshuffled_first():
    # the deck is empty (seat 1 holds the rest): the paid cards become the deck for the bonus
    g = north(hands={0: cards(red=5, locomotive=2)})
    g.hands[1] = [a + b for a, b in zip(g.hands[1], counts(g.deck))]
    g.deck = []
    r = route(g, "Mo I Rana", "Trondheim", lane=1)           # gray 5, two symbols, +3
    events = g.apply(A.ClaimRoute(0, r, cards(red=3, locomotive=2)))
    assert [e["type"] for e in events][:3] == ["claim_route", "reshuffle", "draw_bonus"]
    drawn = Counter({c: k for c, k in enumerate(g.hands[0]) if k}) - Counter({RED: 2})
    assert sum(drawn.values()) == 3 and drawn + Counter(g.deck) == Counter({RED: 3, LOCO: 2})
    assert census(g) == 114


def counts(deck):
    out = [0] * 9
    for c in deck:
        out[c] += 1
    return out


# ----- §17.4 bonus cards -------------------------------------------------------------------------
def scored(g, letters):
    g.extra["bonus_cards"]["cards"] = list(letters)
    return g.scores()[0]


def test_17_4_every_card_scores_its_leaders():
    g = north(n=3, hands={0: cards(locomotive=1, red=3), 1: cards(blue=4), 2: cards(green=1)})
    give_routes(g, 0, [route(g, "Helsinki", "Lahti", "purple"), route(g, "Lahti", "Tampere"),
                       route(g, "Helsinki", "Tallinn", lane=1)])
    give_routes(g, 1, [route(g, "Kiruna", "Narvik", "yellow"), route(g, "Boden", "Kiruna", "black"),
                       route(g, "Lillehammer", "Oslo", "white")])
    g.tickets = [[ticket(g, "Oslo", "Stockholm")], [ticket(g, "Narvik", "Apatity")], []]
    players = scored(g, "ADGI")
    # A: 1 + 1 (red 3 -> one pair) = 2; 2 pairs of blue = 2; 0 -> seats 0 and 1, 5 each
    # D: 1-space routes 3, 2, 0 -> seat 0 (10); G: countries 2 (Finland, Estonia), 2 (Sweden, Norway) -> 0 and 1 (12)
    # I: routes touching an Arctic city: seat 1 has Kiruna–Narvik, Boden–Kiruna: 2 -> 12
    assert [pl["bonuses"]["bonus_cards"] for pl in players] == [5 + 10 + 12, 5 + 12 + 12, 0]
    assert [pl["bonus_cards_won"] for pl in players] == [["A", "D", "G"], ["A", "G", "I"], []]


def test_17_4_ties_all_even_at_zero():
    g = north(n=3)
    players = scored(g, "BHJK")
    assert [pl["bonuses"]["bonus_cards"] for pl in players] == [7 + 12 + 12 + 7] * 3


def test_17_4_tickets_trains_path_and_norway():
    g = north()
    give_routes(g, 0, [route(g, "Oslo", "Kristiansand", "white"), route(g, "Bergen", "Oslo", "red"),
                       route(g, "Göteborg", "Oslo", "black")])
    g.tickets = [[ticket(g, "Oslo", "Stockholm"), ticket(g, "Trondheim", "Kristiansand")],
                 [ticket(g, "Lillehammer", "Ålborg")]]
    give_routes(g, 1, [route(g, "Karlstad", "Stockholm", "red")])
    g.tickets[1] = []
    # B: 0 completed tickets touch a capital for either (Oslo–Stockholm open): tie -> 7 each
    # C: trains 33 vs 39 -> seat 1; E: 3+2+... longest trail 3 vs 1 -> seat 0; K: 3 vs 0 -> seat 0
    players = scored(g, "BCEK")
    assert [pl["bonus_cards_won"] for pl in players] == [["B", "E", "K"], ["B", "C"]]


# ----- §17.5 precise points ---------------------------------------------------------------------
def test_17_5_1_the_draw_bonus_gets_fewer_when_the_cards_run_out():
    # deck and discard empty, three face-up slots empty: the paid locomotive refills the row
    # first, so nothing is left for the bonus
    g = north(hands={0: cards(locomotive=1)}, faceup=(WHITE, RED))
    g.hands[1] = [a + b for a, b in zip(g.hands[1], counts(g.deck))]
    g.deck, g.discard = [], []
    r = route(g, "Åndalsnes", "Trondheim", lane=1)           # gray 1 ferry, +1
    events = g.apply(A.ClaimRoute(0, r, cards(locomotive=1)))
    bonus = next(e for e in events if e["type"] == "draw_bonus")
    assert bonus["count"] == 0 and g.faceup.count(LOCO) == 1 and census(g) == 114


def test_17_5_3_call_of_the_wild_counts_locomotives_and_pairs():
    g = north(n=2, hands={0: cards(locomotive=2, red=3, blue=1), 1: cards(green=6)})
    players = scored(g, "A")                                  # 2 + 1 pair = 3; 3 pairs = 3
    assert [pl["bonus_cards_won"] for pl in players] == [["A"], ["A"]]
    g.hands[1] = list(cards(green=5))                         # 2 pairs
    assert [pl["bonus_cards_won"] for pl in scored(g, "A")] == [["A"], []]


def test_17_5_4_a_country_counts_once():
    g = north()
    give_routes(g, 0, [route(g, "Helsinki", "Lahti", "purple"), route(g, "Lahti", "Tampere"),
                       route(g, "Helsinki", "Turku")])
    give_routes(g, 1, [route(g, "Karlstad", "Oslo", "white")])
    assert [pl["bonus_cards_won"] for pl in scored(g, "G")] == [[], ["G"]]   # 1 country vs 2


def test_17_5_5_winner_ties_stop_after_completed_tickets():
    b = load_board("northern_lights")
    assert b.rules.tie_breaks == ("tickets",) and b.rules.longest_path_bonus == 0


def test_17_5_7_touching_means_an_end_and_short_ferries_count():
    g = north()
    give_routes(g, 0, [route(g, "Helsinki", "Tallinn", lane=1)])   # a 1-space ferry
    give_routes(g, 1, [route(g, "Boden", "Tornio")])                 # Tornio is not Arctic
    players = scored(g, "DJI")
    assert [pl["bonus_cards_won"] for pl in players] == [["D", "J", "I"], ["D", "I"]]


# ----- records ----------------------------------------------------------------------------------
def test_bonus_cards_deck_in_a_record_only_on_northern_lights():
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    bad = {**doc, "decks": {**doc["decks"], "bonus_cards": doc["decks"]["bonus_cards"][:10]}}
    with pytest.raises(RecordError):
        replay(bad)
    usa = {"format": "ttr-record/1", "map": "usa", "players": ["a", "b"], "decks": {"bonus_cards": ["A"]}}
    with pytest.raises(RecordError):
        replay(usa)
    game, names, _ = replay({**doc, "actions": doc["actions"][:2]})
    again = export_record(game, names, doc["actions"][:2])
    assert again["decks"]["bonus_cards"] == doc["decks"]["bonus_cards"]


def test_golden_record_northern_lights():
    """ann builds across Norway and into Sweden; bob four short Finnish routes. Bonus cards
    D, J, K, C (the record's deck). By hand, ann's 14 routes: Åndalsnes–Bergen 4 ferry (7; paid
    red 2 + a blue pair + a locomotive; +2 cards), Mo I Rana–Trondheim 5 ferry (10; +3),
    Mo I Rana–Narvik 4 ferry (7; yellow 2 + a yellow pair + a purple pair; +2),
    Trondheim–Lillehammer 3 (4), Lillehammer–Oslo 1 (1), Karlstad–Oslo 1 (1),
    Karlstad–Östersund 5 (10), Östersund–Trondheim 1 (1), Bergen–Oslo 3 (4),
    Åndalsnes–Lillehammer 2 (2), Karlstad–Sundsvall 4 (7), Stockholm–Sundsvall 3 (4),
    Karlstad–Stockholm 1 (1), Narvik–Tromsø 2 ferry (2; black 1 + a black pair; +1): 61 points,
    39 trains (1 left). Tickets: Trondheim–Bergen 5, Tromsø–Mo I Rana 6, Mo I Rana–Åndalsnes 6
    done, Stavanger–Karlstad 4 missed: 13.
    bob: Helsinki–Lahti, Lahti–Tampere, Tampere–Turku, Helsinki–Tallinn (a ferry paid with a
    green pair): 4 points, 36 trains left; Oslo–Helsinki 5 and Turku–Klaipėda 6 missed: -11.
    D (1-space routes): ann 4 (Lillehammer–Oslo, Karlstad–Oslo, Östersund–Trondheim,
    Karlstad–Stockholm), bob 4: both +10. J (ferries): ann 4, bob 1: ann +12. K (routes
    touching Norway): ann 10 (all but Karlstad–Östersund, Karlstad–Sundsvall,
    Stockholm–Sundsvall, Karlstad–Stockholm), bob 0: ann +7. C (trains left): bob +7.
    ann: 61 + 13 + 29 = 103; bob: 4 - 11 + 17 = 10."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over
    out = result(game, names)
    ann, bob = out["players"]
    assert out["bonus_cards"] == ["D", "J", "K", "C"]
    assert (ann["route_points"], ann["ticket_points"], ann["trains_left"]) == (61, 13, 1)
    assert ann["bonus_cards_won"] == ["D", "J", "K"] and ann["bonuses"]["bonus_cards"] == 29
    assert ann["total"] == 103
    assert (bob["route_points"], bob["ticket_points"], bob["bonus_cards_won"]) == (4, -11, ["D", "C"])
    assert bob["total"] == 10 and out["winners"] == ["ann"]
    assert census(game) == 114
