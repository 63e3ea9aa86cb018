"""The engine's public questions (`ttr_bot.engine`): what a seat may claim, why a route is
closed to it, where a station may go and what it costs, how many tickets it must keep. The
Discord adapter and the computer players ask them instead of re-deriving the rules, so they
must agree with what the engine accepts, and a `PlayerView` must answer like its game."""
import json
import random

import pytest

import ttr_bot.engine as engine
from tests.engine.rulekit import (
    BLUE,
    LOCO,
    PURPLE,
    RED,
    A,
    arrange,
    board,
    cards,
    give_routes,
    make_game,
    route,
)
from tests.engine.test_s10_host import pick
from ttr_bot.engine import snapshot
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import determinize, view
from ttr_bot.maps import load_board

FACE = [PURPLE, PURPLE, BLUE, BLUE, RED]


def positions(map_id, n, seed, limit=400):
    """(game, seat) for every seat at every step of a random game."""
    rng = random.Random(seed)
    g = make_game(map_id, n, seed=seed, setup=False)
    for _ in range(limit):
        if g.over:
            return
        for seat in range(n):
            yield g, seat
        seat = g.to_move()[0]
        g.apply(pick(rng, g.legal_actions(seat)))


@pytest.mark.parametrize("map_id,n,seed", [("usa", 2, 1), ("usa", 4, 2), ("europe", 3, 3),
                                           ("switzerland", 3, 4), ("nordic", 2, 5)])
def test_the_answers_agree_with_the_legal_actions_and_with_the_view(map_id, n, seed):
    for g, seat in positions(map_id, n, seed):
        v = view(g, seat)
        legal = g.legal_actions(seat)
        claims = {(a.route, a.cards) for a in legal if isinstance(a, A.ClaimRoute)}
        offered = g.claimable_routes(seat)
        assert {(route.index, p) for route, pays in offered for p in pays} == claims
        assert v.claimable_routes() == offered
        assert v.route_blocks() == g.route_blocks(seat)
        for r, why in enumerate(g.route_blocks(seat)):
            assert v.route_blocked(r) == g.route_blocked(seat, r) == why
            if why is not None and seat == g.current and g.step == "idle" and g.phase == "play":
                assert g.check(A.ClaimRoute(seat, r, cards(locomotive=1))).key == why
        assert v.station_cost() == g.station_cost(seat)
        assert v.station_sites() == g.station_sites(seat)
        built = {a.city for a in legal if isinstance(a, A.BuildStation)}
        assert built <= set(g.station_sites(seat))
        assert all(sum(a.cards) == g.station_cost(seat) for a in legal if isinstance(a, A.BuildStation))
        assert v.keep_min() == g.keep_min(seat)
        kept = [len(a.tickets) for a in legal if isinstance(a, A.KeepTickets)]
        if kept:
            assert min(kept) == g.keep_min(seat)
        for a in legal[:5]:
            assert v.explain(a) is None and g.explain(a) is None


def test_a_route_is_blocked_for_the_reasons_of_the_rules():
    g = make_game("usa", 3)
    arrange(g, hands={0: cards(purple=2, blue=2), 1: cards(blue=2)}, faceup=FACE)
    purple = route(g, "Kansas City", "Saint Louis", "purple")
    blue = route(g, "Kansas City", "Saint Louis", "blue")
    long_ = route(g, "Los Angeles", "El Paso")
    g.trains[0] = 5
    assert g.route_blocked(0, long_) == engine.NOT_ENOUGH_TRAINS
    assert g.route_blocked(0, purple) is None
    give_routes(g, 0, [purple])
    assert g.route_blocked(0, purple) == engine.ROUTE_TAKEN
    assert g.route_blocked(0, blue) == engine.DOUBLE_OWN
    assert g.route_blocked(1, blue) == engine.DOUBLE_CLOSED      # 3 players: one lane only
    assert view(g, 1).route_blocked(blue) == engine.DOUBLE_CLOSED
    assert all(r.index != blue for r, _ in g.claimable_routes(1))
    four = make_game("usa", 4)
    give_routes(four, 0, [purple])
    assert four.route_blocked(1, blue) is None                  # 4 players: both lanes


def test_both_lanes_open_from_the_map_s_player_count():
    usa, swiss = board("usa").rules, board("switzerland").rules
    assert [usa.both_lanes_open(n) for n in (2, 3, 4, 5)] == [False, False, True, True]
    assert [swiss.both_lanes_open(n) for n in (2, 3)] == [False, True]


def test_claimable_routes_only_on_the_seat_s_idle_turn():
    g = make_game("usa", 2)
    arrange(g, hands={0: cards(blue=4), 1: cards(blue=4)}, faceup=FACE)
    assert g.claimable_routes(0) and view(g, 0).claimable_routes()
    assert g.claimable_routes(1) == view(g, 1).claimable_routes() == []
    g.apply(A.DrawCard(0, PURPLE))                               # a second card is pending
    assert g.claimable_routes(0) == view(g, 0).claimable_routes() == []


def test_stations_cost_one_two_three_and_go_on_free_cities_only():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(red=6)}, faceup=FACE)
    cities = g.station_sites(0)
    assert g.station_cost(0) == 1 and len(cities) == len(g.board.nodes)
    g.apply(A.BuildStation(0, cities[0], cards(red=1)))
    g.apply(A.DrawCard(1))
    g.apply(A.DrawCard(1))
    assert g.station_cost(0) == 2 and cities[0] not in g.station_sites(0)
    assert g.station_sites(1) == cities[1:]
    g.stations_left[0] = 0
    assert g.station_sites(0) == view(g, 0).station_sites() == []
    assert make_game("usa", 2).station_sites(0) == []


def test_keep_min_is_the_rule_s_minimum_or_the_whole_offer():
    g = make_game("usa", 2, setup=False)
    assert g.keep_min(0) == view(g, 0).keep_min() == 2           # start: keep 2 of 3
    g.offers[0] = g.offers[0][:1]
    assert g.keep_min(0) == 1                                    # fewer offered: keep them all
    g.offers[0] = None
    assert view(g, 0).keep_min() == 0


def test_a_pending_tunnel_has_named_fields_and_keeps_its_snapshot_form():
    g = make_game("europe", 2)
    arrange(g, hands={0: cards(blue=5)}, faceup=FACE, deck=[BLUE, LOCO, RED])
    r = route(g, "München", "Venezia")
    g.apply(A.ClaimRoute(0, r, cards(blue=2)))
    t = g.tunnel
    assert isinstance(t, engine.PendingTunnel)
    assert (t.route, t.color, t.laid, t.revealed, t.extra) == (r, BLUE, cards(blue=2), [BLUE, LOCO, RED], 2)
    d = json.loads(json.dumps(snapshot.to_dict(g)))
    assert d["tunnel"] == [r, BLUE, list(cards(blue=2)), [BLUE, LOCO, RED], 2]
    assert snapshot.from_dict(g.board, d).tunnel == t
    assert view(g, 0).tunnel == t and view(g, 1).tunnel is None


def test_a_game_is_built_from_a_state_only_with_every_field():
    g = make_game("usa", 2)
    state = {f.name: getattr(g, f.name) for f in engine.state.FIELDS}
    assert engine.Game.from_state(g.board, 2, g.dealer, state).owner == g.owner
    with pytest.raises(TypeError, match="missing.*'owner'"):
        engine.Game.from_state(g.board, 2, g.dealer, {k: v for k, v in state.items() if k != "owner"})
    with pytest.raises(TypeError, match="unknown.*'colour'"):
        engine.Game.from_state(g.board, 2, g.dealer, {**state, "colour": 1})
    assert snapshot.to_dict(determinize(view(g, 0), None))["owner"] == g.owner


def test_the_package_exports_its_api():
    for name in engine.__all__:
        assert getattr(engine, name) is not None, name
    assert engine.events.claim_route(0, 3, cards(red=2), 2) == {
        "type": "claim_route", "seat": 0, "route": 3, "cards": {"red": 2}, "points": 2}


def test_the_game_declares_every_state_field_and_nothing_else():
    """`Game`'s annotations (what the type checker knows of a game) are state.FIELDS, in their
    order, after what a game is made from: a field added to one and not the other fails here."""
    from ttr_bot.engine.game import Game
    from ttr_bot.engine.state import FIELDS
    declared = list(Game.__annotations__)
    assert declared[:4] == ["board", "rules", "n", "dealer"]
    assert declared[4:] == [f.name for f in FIELDS]


@pytest.mark.parametrize("map_id,n,seed", [("usa", 3, 6), ("europe", 4, 7), ("switzerland", 2, 8),
                                           ("nordic", 3, 9), ("india", 4, 10),
                                           ("legendary_asia", 3, 11), ("pennsylvania", 2, 12),
                                           ("japan", 5, 13), ("italy", 3, 14),
                                           ("northern_lights", 4, 15)])
def test_one_route_s_claims_are_the_legal_claims_of_that_route(map_id, n, seed):
    """`route_claims` (what a computer player asks before it claims) works out one route's claims
    alone; they must be exactly the legal actions' claims of that route, in their order: the
    shares, ferry cards and bullet choices of the newer maps included."""
    rng = random.Random(seed)
    g = Game(load_board(map_id), n, Dealer(seed=seed))
    compared = 0
    for step in range(150):
        if g.over:
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if step % 3 == 0:
            v = view(g, seat)
            for r in range(len(g.board.routes)):
                want = [a for a in legal if isinstance(a, A.ClaimRoute) and a.route == r]
                assert g.route_claims(seat, r) == want
                assert v.route_claims(r) == want
                compared += bool(want)
        g.apply(pick(rng, legal))
    assert compared >= 5
