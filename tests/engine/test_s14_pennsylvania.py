"""RULES.md §14 Pennsylvania: stock shares taken with claims, the dummy with two players and its
revealed half, share scoring by rank, the Globetrotter; and a golden record scored by hand."""
import copy
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
    make_game,
    refuse,
    route,
)
from ttr_bot.engine.errors import DeckError
from ttr_bot.engine.view import determinize, view
from ttr_bot.game_record import RecordError, action_from_json, action_to_json, replay, result

RECORD = Path(__file__).resolve().parents[1] / "records" / "newer" / "pennsylvania_shares.json"
FACE = [WHITE, WHITE, RED, RED, GREEN]
NYC = ("Albany", "New York", "green")      # 6, companies 5, 10, 15


def penn(n=2, hands=None, **kw):
    g = make_game("pennsylvania", n, **kw)
    return arrange(g, hands=hands or {}, faceup=FACE)


def st(g):
    return g.extra["shares"]


def claim(g, seat, spec, pay, share=0, dummy=0):
    g.current = seat
    return g.apply(A.ClaimRoute(seat, route(g, *spec), pay, share=share, dummy_share=dummy))


# ----- §14.1 components and setup ------------------------------------------------------------
def test_14_1_nine_companies_sixty_shares_and_the_ticket_deal():
    b = board("pennsylvania")
    assert sum(b.rules.share_points) == 60 and len(b.rules.share_points) == 9
    g = make_game("pennsylvania", 3, setup=False)
    assert [len(o) for o in g.offers] == [5, 5, 5] and g.keep_min(0) == 3
    assert st(g) == {"next": {str(c): 1 for c in (2, 3, 4, 5, 6, 7, 8, 10, 15)},
                     "held": [{}, {}, {}]}
    assert "dummy" in st(make_game("pennsylvania", 2))


# ----- §14.2 taking a share ----------------------------------------------------------------------
def test_14_2_the_lowest_numbered_share_of_a_company_the_route_shows():
    g = penn(n=3, hands={0: cards(green=6), 1: cards(purple=4)})
    events = claim(g, 0, NYC, cards(green=6), share=10)
    assert st(g)["held"][0] == {"10": [1]} and st(g)["next"]["10"] == 2
    assert {"type": "share", "seat": 0, "company": 10, "number": 1, "private": {"dummy": None}} in events
    claim(g, 1, ("Baltimore", "Philadelphia", "purple"), cards(purple=4), share=10)
    assert st(g)["held"][1] == {"10": [2]}


def test_14_2_nothing_when_every_company_is_sold_out():
    g = penn(n=3, hands={0: cards(white=6)})
    st(g)["next"]["5"] = 6                                   # all five sold
    claim(g, 0, ("Albany", "Syracuse", "white"), cards(white=6))
    assert st(g)["held"][0] == {}


# ----- §14.3 the dummy -----------------------------------------------------------------------------
def test_14_3_with_two_players_the_dummy_gets_one_of_the_same_route():
    g = penn(hands={0: cards(green=6)})
    events = claim(g, 0, NYC, cards(green=6), share=15, dummy=15)
    assert st(g)["held"][0] == {"15": [1]} and st(g)["dummy"] == {"15": [2]}
    share = next(e for e in events if e["type"] == "share")
    assert share["private"] == {"dummy": [15, 2]}


def test_14_3_the_dummy_s_shares_stay_out_of_the_view():
    g = penn(hands={0: cards(green=6)})
    claim(g, 0, NYC, cards(green=6), share=15, dummy=10)
    for seat in (0, 1):    # the dummy's shares are not listed; the stacks (next numbers) are public
        seen = view(g, seat).extra["shares"]
        assert "dummy" not in seen and seen["dummy_count"] == 1
        assert seen["held"] == [{"15": [1]}, {}] and seen["next"]["10"] == 2
    d = determinize(view(g, 1), None)
    assert d.extra["shares"] == st(g)          # worked out exactly from what is public
    assert set(d.legal_actions(1)) == set(g.legal_actions(1))


# ----- §14.4 share scoring -------------------------------------------------------------------------
def scores_with(g, held, dummy=None, reveal=None):
    st(g)["held"] = held
    if dummy is not None:
        st(g)["dummy"] = dummy
        g.dealer.fixed["dummy_reveal"] = reveal
    return [pl["bonuses"]["shares"] for pl in g.scores()[0]]


def test_14_4_ranked_by_count_then_lowest_number():
    g = penn(n=3)
    # company 15: seat 0 holds 2 (#3, #9), seat 1 holds 2 (#1, #4), seat 2 holds 1 (#2)
    # -> seat 1 first (lowest #1), seat 0 second, seat 2 third: 30, 21, 14
    assert scores_with(g, [{"15": [3, 9]}, {"15": [1, 4]}, {"15": [2]}]) == [21, 30, 14]
    # company 2 pays two ranks: a third holder scores 0
    assert scores_with(g, [{"2": [2]}, {}, {"2": [1]}]) == [4, 0, 7]


def test_14_4_the_dummy_ranks_with_its_revealed_half_and_scores_nothing():
    g = penn()
    # dummy holds 10 #1, #2, #3, #4 (reveals 2: #2, #4); ann 10 #5, #6, #7 -> ann first (3 > 2)
    assert scores_with(g, [{"10": [5, 6, 7]}, {"10": [8]}], {"10": [1, 2, 3, 4]},
                       [[10, 2], [10, 4]]) == [20, 9]
    # ann 10 #5 alone: the dummy's 2 revealed push her to second, bob third
    assert scores_with(g, [{"10": [5]}, {"10": [8]}], {"10": [1, 2, 3, 4]},
                       [[10, 2], [10, 4]]) == [14, 9]


# ----- §14.5 scoring and end -----------------------------------------------------------------------
def test_14_5_globetrotter_fifteen_and_no_longest_path():
    b = board("pennsylvania")
    assert (b.rules.globetrotter_bonus, b.rules.longest_path_bonus) == (15, 0)
    g = penn()
    pl = g.scores()[0]
    assert [p["bonuses"]["globetrotter"] for p in pl] == [15, 15]      # 0 completed each: tied


# ----- §14.6 precise points ------------------------------------------------------------------------
def test_14_6_1_a_share_is_mandatory_and_chosen_among_several():
    g = penn(n=3, hands={0: cards(green=6, white=6)})
    assert refuse(g, A.ClaimRoute(0, route(g, *NYC), cards(green=6))) == "share_choose"
    offered = {a.share for a in g.legal_actions(0)
               if isinstance(a, A.ClaimRoute) and a.route == route(g, *NYC)}
    assert offered == {5, 10, 15}
    # one company: the share needs no naming
    claim(g, 0, ("Albany", "Syracuse", "white"), cards(white=6))
    assert st(g)["held"][0] == {"5": [1]}


def test_14_6_2_ties_go_to_the_lowest_number_never_shared():
    g = penn(n=3)
    assert scores_with(g, [{"8": [4]}, {"8": [2]}, {"8": [3]}]) == [5, 16, 10]


def test_14_6_3_a_player_without_a_share_is_not_ranked():
    g = penn(n=3)
    assert scores_with(g, [{}, {"6": [3]}, {}]) == [0, 12, 0]


def test_14_6_4_the_reveal_is_half_rounded_up_drawn_from_the_seed_or_the_record():
    g = penn()
    st(g)["dummy"] = {"10": [1, 2, 3], "15": [1, 2]}
    shares = g.scores()                                     # seed-drawn: 3 of the 5
    mech = next(m for m in g.mechanics if m.name == "shares")
    revealed = mech.revealed(g)
    assert len(revealed) == 3 and revealed == mech.revealed(g) and shares
    g.dealer.fixed["dummy_reveal"] = [[10, 1], [15, 2]]    # 2 of 5: not half rounded up
    with pytest.raises(DeckError):
        g.scores()
    g.dealer.fixed["dummy_reveal"] = [[10, 1], [15, 2], [4, 1]]   # one it does not hold
    with pytest.raises(DeckError):
        g.scores()


def test_14_6_5_ontario_s_two_ends_are_not_connected():
    g = penn()
    b = g.board
    from ttr_bot.engine.network import components, connected
    own = [route(g, "Buffalo", "Ontario", lane=1), route(g, "Erie", "Ontario", lane=1)]
    comp = components(len(b.nodes), b, own)
    assert not connected(b, comp, "Buffalo", "Erie")
    assert all(b.routes[r].ferry == 0 and b.routes[r].color == -1 for r in own)


def test_14_6_7_the_dummy_share_after_the_player_s_and_only_with_two_players():
    g = penn(hands={0: cards(white=6)})
    st(g)["next"]["5"] = 5                                   # one share of 5 left
    claim(g, 0, ("Albany", "Syracuse", "white"), cards(white=6))   # ann takes it; none for the dummy
    assert st(g)["held"][0] == {"5": [5]} and st(g)["dummy"] == {}
    g3 = penn(n=3, hands={0: cards(green=6)})
    assert refuse(g3, A.ClaimRoute(0, route(g3, *NYC), cards(green=6), share=15, dummy_share=15)) \
        == "dummy_share_not_here"
    g2 = penn(hands={0: cards(green=6)})
    assert refuse(g2, A.ClaimRoute(0, route(g2, *NYC), cards(green=6), share=15)) == "share_choose"
    assert refuse(g2, A.ClaimRoute(0, route(g2, *NYC), cards(green=6), share=8)) == "share_not_here"
    g2.apply(A.ClaimRoute(0, route(g2, *NYC), cards(green=6), share=15, dummy_share=15))
    assert st(g2)["dummy"] == {"15": [2]}


def test_shares_are_refused_off_pennsylvania():
    g = make_game("usa")
    arrange(g, hands={0: cards(red=4)}, faceup=FACE)
    assert refuse(g, A.ClaimRoute(0, 0, cards(red=1), share=5)) == "no_share_here"


# ----- records ----------------------------------------------------------------------------------
def test_the_record_names_the_companies():
    g = penn(hands={0: cards(green=6)})
    a = A.ClaimRoute(0, route(g, *NYC), cards(green=6), share=15, dummy_share=10)
    obj = action_to_json(g, a, ["ann", "bob"])
    assert (obj["share"], obj["dummy_share"]) == (15, 10)
    assert action_from_json(g, obj, ["ann", "bob"]) == a
    assert action_from_json(g, {**obj, "share": None, "dummy_share": None}, ["ann", "bob"]).share == 0


def test_a_dummy_reveal_that_does_not_fit_is_not_a_record():
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    bad = copy.deepcopy(doc)
    bad["decks"]["dummy_reveal"] = bad["decks"]["dummy_reveal"][:4]
    with pytest.raises(RecordError):
        replay(bad)
    three = {**doc, "players": ["ann", "bob", "cyd"]}
    with pytest.raises(RecordError):
        replay(three)


def test_golden_record_pennsylvania():
    """ann claims nine routes, bob three; every share taken and given is named in the record.
    In order: bob Buffalo–Rochester (bob 8#1, dummy 2#1); ann Albany–New York (15#1; dummy
    10#1); bob Pittsburgh–Wheeling (15#2; dummy 15#3); ann Albany–Syracuse (5#1; dummy 5#2);
    bob Erie–Youngstown (5#3; dummy 8#2); ann Atlantic City–New York (3#1; dummy 3#2);
    ann New York–Philadelphia (15#4; dummy 7#1); ann Baltimore–Cumberland (10#2; dummy 4#1);
    ann Baltimore–Philadelphia (15#5; dummy 10#3); ann Lancaster–Reading (7#2; dummy 7#3);
    ann Albany–Binghamton and Gettysburg–York show no company.
    The dummy holds 10 shares; the record reveals 5: 3#2, 7#1, 10#1, 10#3, 15#3.
    Shares by hand: 3: ann #1 and the dummy #2 hold one each, ann lower: ann 8. 5: ann #1, bob
    #3 (the dummy's #2 unrevealed): ann 10, bob 6. 7: the dummy #1, ann #2: ann second, 9.
    8: bob alone, 16. 10: the dummy 2, ann 1: ann second, 14. 15: ann 3 first, 30; bob #2 and
    the dummy #3 one each: bob second, 21. 2 and 4: only unrevealed dummy shares: nobody.
    ann 8 + 10 + 9 + 14 + 30 = 71; bob 6 + 16 + 21 = 43.
    Routes: ann five of 6 (75), 7 (18), 4 (7), two of 1 (2): 102, 43 trains (2 left); bob 5
    (10), 2 (2), 4 (7): 19. Tickets: ann Philadelphia–New York 6, Baltimore–New York 10,
    Baltimore–Albany 16, New York–Atlantic City 6 done, Erie–Albany 20 missed: 18; bob
    Youngstown–Rochester 14, Wheeling–Erie 9, Pittsburgh–Buffalo 10 missed: -33.
    Globetrotter: ann (4 completed) +15.
    ann: 102 + 18 + 71 + 15 = 206; bob: 19 - 33 + 43 = 29."""
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    game, names, error = replay(doc)
    assert error is None and game.over
    out = result(game, names)
    ann, bob = out["players"]
    assert ann["shares"] == {"3": [1], "5": [1], "7": [2], "10": [2], "15": [1, 4, 5]}
    assert bob["shares"] == {"5": [3], "8": [1], "15": [2]}
    assert out["dummy"]["revealed"] == [[3, 2], [7, 1], [10, 1], [10, 3], [15, 3]]
    assert sum(map(len, out["dummy"]["shares"].values())) == 10
    assert (ann["route_points"], ann["ticket_points"], ann["bonuses"]["shares"],
            ann["bonuses"]["globetrotter"], ann["total"]) == (102, 18, 71, 15, 206)
    assert (bob["route_points"], bob["ticket_points"], bob["bonuses"]["shares"], bob["total"]) \
        == (19, -33, 43, 29)
    assert out["winners"] == ["ann"]
