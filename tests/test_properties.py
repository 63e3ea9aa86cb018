"""Property tests of the engine over whole random games (docs/rules.md §10 and §5, docs/record-format.md).

Hypothesis draws the map, variant, player count, dealer seed and the seed of a random legal
player. After every action: the 110 train cards are all somewhere (deck, discard, face-up,
hands, a pending tunnel's laid and revealed cards), trains placed + in supply = 45 (40), stations
placed + left = 3 (Europe) / 0, route points tracked = recomputed. Now and then a mutated action
is tried: if refused, nothing at all changed; if accepted, legal_actions had listed it. Scores
are recomputed from scratch (tests/helpers/ttr_check.py: own BFS for tickets, brute-force
longest trail, station assignments, bonuses, tie-breaks). Every game ends within a bound, and
its exported record, as JSON text, replays to the same state and the same result.
"""
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.ttr_check import (
    BIG_CITIES,
    CONFIGS,
    FULL_DECK,
    STYLES,
    TICKETS,
    assert_scores_match,
    card_census,
    check_invariants,
    choose,
    longest_trail_by_orderings,
    longest_trail_by_search,
    mutate,
    play_state,
    snapshot,
    trail_edges,
)
from ttr_bot.engine import actions as A
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.errors import Illegal
from ttr_bot.engine.game import Game
from ttr_bot.engine.network import longest_trail
from ttr_bot.game_record import action_to_json, export_record, replay, result
from ttr_bot.maps import load_board

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

MAX_ACTIONS = 4000          # random games end long before this (a few hundred actions)
SCORE_EVERY = 37            # mid-game scores are checked this often (§11.14)
NAMES = ["ann", "bob", "cyd", "dan", "eve"]


def _norm(action):
    """Actions compared the way the engine treats them (kept tickets are a set)."""
    if isinstance(action, A.KeepTickets):
        return ("keep", action.seat, tuple(sorted(action.tickets)))
    return action


def _listed(game, action):
    if not 0 <= action.seat < game.n:
        return False
    return _norm(action) in {_norm(a) for a in game.legal_actions(action.seat)}


def _try_mutation(game, rng, action, names):
    """Apply a mutated action. Refused: the state (dealer included) is exactly as before.
    Accepted: legal_actions listed it (Nordic lists one payment per substitution count, so
    there only refusals are checked). Returns the record JSON if it was accepted."""
    mut = mutate(rng, game, action)
    before = snapshot(game)
    listed = _listed(game, mut)
    assert snapshot(game) == before, "legal_actions changed the state"
    try:
        as_json = action_to_json(game, mut, names)
    except Exception:          # an action no record could name (bad index): must be refused
        as_json = None
    try:
        game.apply(mut)
    except Illegal as e:
        assert snapshot(game) == before, f"refused {mut} ({e.key}) but the state changed"
        assert not listed, f"legal_actions lists {mut} but apply refused it ({e.key})"
        return None
    assert as_json is not None, f"accepted an action with no record form: {mut}"
    nordic_claim = game.board.map_id == "nordic" and isinstance(mut, A.ClaimRoute)
    assert listed or nordic_claim, f"apply accepted {mut} that legal_actions does not list"
    return as_json


def play_and_check(map_id, variant, n, seed, play_seed, style, mutate_rate):
    cfg = CONFIGS[(map_id, variant)]
    board = load_board(map_id, variant)
    game = Game(board, n, Dealer(seed))
    names = NAMES[:n]
    rng = random.Random(play_seed)
    check_invariants(game, cfg)
    actions = []
    probe_at = rng.randrange(1, 200)
    probe = None
    final_from = None           # game.turn when a turn ended with 2 or fewer trains (§4)
    passes_in_a_row = 0
    while not game.over:
        assert len(actions) < MAX_ACTIONS, "the game does not end"
        movers = game.to_move()
        assert movers, "nobody may move in an unfinished game"
        turn_before = game.turn
        as_json = None
        if rng.random() < mutate_rate:
            seat = rng.choice(movers)
            as_json = _try_mutation(game, rng, rng.choice(game.legal_actions(seat)), names)
        if as_json is None:
            seat = rng.choice(movers)
            legal = game.legal_actions(seat)
            assert legal, f"seat {seat} may move but has no legal action"
            action = choose(rng, legal, style)
            as_json = action_to_json(game, action, names)
            game.apply(action)
        actions.append(as_json)
        check_invariants(game, cfg)
        if game.turn != turn_before:            # a turn ended
            assert game.turn == turn_before + 1
            passes_in_a_row = passes_in_a_row + 1 if as_json["type"] == "pass" else 0
            actor = names.index(as_json["player"])
            if final_from is None and game.trains[actor] <= 2:
                final_from = game.turn
            elif final_from is not None and not game.over:
                assert game.turn - final_from < n, "the final round is too long"
        if len(actions) % SCORE_EVERY == 0:
            players, winners = game.scores()
            assert_scores_match(game, players, winners)
        if len(actions) == probe_at:
            probe = (probe_at, play_state(game))

    # the end: after the final round (each player one more turn, §4, §11.13), or after as many
    # passes in a row as there are players (§3.6)
    if passes_in_a_row < n:
        assert final_from is not None and game.turn - final_from == n, (final_from, game.turn)
    assert all(game.legal_actions(s) == [] for s in range(n))
    before = snapshot(game)
    for a in (A.DrawCard(0), A.Pass(game.current), A.DrawTickets(0)):
        with pytest.raises(Illegal):
            game.apply(a)
    assert snapshot(game) == before

    players, winners = game.scores()
    assert_scores_match(game, players, winners)
    assert winners, "a finished game has winners"

    # export -> JSON text -> replay: the same game
    doc = export_record(game, names, actions)
    text = json.dumps(doc, ensure_ascii=False)
    game2, names2, error = replay(json.loads(text))
    assert error is None, error
    assert game2.over
    assert result(game2, names2) == result(game, names)
    assert play_state(game2) == play_state(game)
    assert json.dumps(export_record(game2, names2, actions), ensure_ascii=False) == text
    if probe is not None:
        k, state = probe
        doc_k = json.loads(text)
        doc_k["actions"] = doc_k["actions"][:k]
        game_k, _, error = replay(doc_k)
        assert error is None and play_state(game_k) == state
    return game, actions


CONFIG_KEYS = sorted(CONFIGS)


@st.composite
def games(draw):
    map_id, variant = draw(st.sampled_from(CONFIG_KEYS))
    lo, hi = CONFIGS[(map_id, variant)]["players"]
    return dict(map_id=map_id, variant=variant, n=draw(st.integers(lo, hi)),
                seed=draw(st.integers(0, 2**32 - 1)), play_seed=draw(st.integers(0, 2**32 - 1)),
                style=draw(st.sampled_from(STYLES)),
                mutate_rate=draw(st.sampled_from([0.0, 0.05, 0.2])))


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games(g):
    play_and_check(**g)


# Every map, every USA variant, every player count, at least once, whatever Hypothesis draws.
SWEEP = [(m, v, n) for (m, v), cfg in sorted(CONFIGS.items())
         for n in range(cfg["players"][0], cfg["players"][1] + 1)]


@pytest.mark.parametrize("map_id,variant,n", SWEEP)
def test_every_map_variant_and_player_count(map_id, variant, n):
    play_and_check(map_id, variant, n, seed=1000 * n, play_seed=7 * n, style=STYLES[n % len(STYLES)],
                   mutate_rate=0.2)


def test_hoarders_empty_the_deck_and_reshuffle():
    """Random play reaches the rare corners: deck and discard both empty, short face-up rows,
    reshuffles."""
    seen = set()
    for seed in range(12):
        cfg_key = CONFIG_KEYS[seed % len(CONFIG_KEYS)]
        board = load_board(*cfg_key)
        game = Game(board, 2, Dealer(seed))
        rng = random.Random(seed)
        steps = 0
        while not game.over and steps < MAX_ACTIONS:
            seat = rng.choice(game.to_move())
            deck_before = len(game.deck)
            game.apply(choose(rng, game.legal_actions(seat), "hoarder"))
            if len(game.deck) > deck_before:     # only a reshuffle makes the deck grow
                seen.add("reshuffle")
            if not game.deck and not game.discard:
                seen.add("deck_and_discard_empty")
            if len(game.faceup) < 5:
                seen.add("short_faceup")
            assert card_census(game) == FULL_DECK
            steps += 1
        assert game.over
    assert {"reshuffle", "deck_and_discard_empty", "short_faceup"} <= seen, seen


def test_game_ends_after_as_many_passes_as_players():
    """§3.6, §11.12: pass is the only action when nothing can be drawn or paid for; as many
    passes in a row as there are players end the game; any other action breaks the row.
    (The cards are taken out of this game: conservation is not what is tested here.)"""
    for n in (2, 3):
        game = _started("usa", n)
        game.deck, game.discard, game.faceup = [], [], []
        game.ticket_deck.clear()
        for i in range(n):
            seat = game.current
            assert game.legal_actions(seat) == [A.Pass(seat)]
            for refused in (A.DrawCard(seat), A.DrawTickets(seat)):
                with pytest.raises(Illegal):
                    game.apply(refused)
            if i == n - 1:
                # one card lets the last seat claim a 1-long route: pass is refused, the claim
                # breaks the row of passes
                game.hands[seat][7] = 1
                with pytest.raises(Illegal) as exc:
                    game.apply(A.Pass(seat))
                assert exc.value.key == "cannot_pass"
                kc_omaha = _route(game.board, "Kansas City", "Omaha")
                game.apply(A.ClaimRoute(seat, kc_omaha, (0, 0, 0, 0, 0, 0, 0, 1, 0)))
                game.deck, game.discard, game.faceup = [], [], []
                assert not game.over
            else:
                game.apply(A.Pass(seat))
                assert not game.over
        turns = game.turn
        for _ in range(n):
            assert not game.over
            game.apply(A.Pass(game.current))
        assert game.over and game.turn == turns + n
        players, winners = game.scores()
        assert_scores_match(game, players, winners)


@pytest.mark.parametrize("key", CONFIG_KEYS)
def test_ticket_deal_and_keep_rules(key):
    (n_regular, n_long), (deal_long, deal_regular, keep_start), (draw, keep_later), \
        (unkept_start, unkept_later) = TICKETS[key]
    board = load_board(*key)
    assert len(board.regular_tickets) == n_regular and len(board.long_tickets) == n_long
    if key == ("usa", "big_cities"):
        assert all(BIG_CITIES & {t.origin, *t.dests} for t in board.tickets)
    n = CONFIGS[key]["players"][1]
    game = Game(board, n, Dealer(5))
    regular_deck = list(game.ticket_deck)
    assert len(regular_deck) == n_regular - n * deal_regular
    for seat in range(n):
        offer = game.offers[seat]
        assert len(offer) == deal_long + deal_regular
        assert [board.tickets[t].long for t in offer] == [True] * deal_long + [False] * deal_regular
        sizes = {len(a.tickets) for a in game.legal_actions(seat)}
        assert min(sizes) == keep_start and max(sizes) == len(offer)
        before = snapshot(game)
        with pytest.raises(Illegal) as exc:
            game.apply(A.KeepTickets(seat, tuple(offer[:keep_start - 1])))
        assert exc.value.key == "keep_at_least"
        assert snapshot(game) == before
    # choices in reverse seat order; each keeps the minimum; the rest goes back or out (§11.11)
    returned = []
    for seat in reversed(range(n)):
        offer = game.offers[seat]
        game.apply(A.KeepTickets(seat, tuple(offer[len(offer) - keep_start:])))
        returned += [t for t in offer[:len(offer) - keep_start] if not board.tickets[t].long]
    expected = regular_deck + (returned if unkept_start == "bottom" else [])
    assert list(game.ticket_deck) == expected
    assert all(len(game.tickets[s]) == keep_start for s in range(n))
    # a later draw
    seat = game.current
    game.apply(A.DrawTickets(seat))
    offer = game.offers[seat]
    assert offer == expected[:draw]
    assert min(len(a.tickets) for a in game.legal_actions(seat)) == keep_later
    game.apply(A.KeepTickets(seat, (offer[-1],)))
    back = offer[:-1] if unkept_later == "bottom" else []
    assert list(game.ticket_deck) == expected[draw:] + back
    assert game.current == (seat + 1) % n and game.turn == 1


# ----- longest trail: the engine against a brute force over edge orderings ------------------------
@st.composite
def small_networks(draw):
    """Up to 7 routes grown from one city, so that they touch (cycles and branches)."""
    map_id = draw(st.sampled_from(["usa", "europe", "switzerland", "nordic"]))
    board = load_board(map_id)
    nodes = {draw(st.integers(0, len(board.nodes) - 1))}
    chosen = []
    for _ in range(draw(st.integers(1, 7))):
        options = [r.index for r in board.routes if (r.a in nodes or r.b in nodes)
                   and r.index not in chosen and r.twin not in chosen]
        if not options:
            break
        r = board.routes[draw(st.sampled_from(options))]
        chosen.append(r.index)
        nodes |= {r.a, r.b}
    return board, chosen


@settings(max_examples=300, deadline=None)
@given(small_networks())
def test_longest_trail_matches_brute_force(net):
    board, routes = net
    edges = trail_edges(board, routes)
    expected = longest_trail_by_orderings(edges)
    assert longest_trail_by_search(edges) == expected
    assert longest_trail(board, routes) == expected
    # disconnected pieces: the best of the pieces
    assert longest_trail(board, list(reversed(routes))) == expected


def _route(board, a, b, lane=1):
    return next(r.index for r in board.routes
                if {board.nodes[r.a].name, board.nodes[r.b].name} == {a, b} and r.lane == lane)


def test_longest_trail_known_shapes():
    usa = load_board("usa")
    # a triangle with a tail: Kansas City–Omaha 1, Omaha–Denver 4, Denver–Kansas City 4,
    # Kansas City–Saint Louis 2: one trail uses them all, 1 + 4 + 4 + 2 = 11
    tri = [_route(usa, "Kansas City", "Omaha"), _route(usa, "Omaha", "Denver"),
           _route(usa, "Denver", "Kansas City"), _route(usa, "Kansas City", "Saint Louis")]
    assert longest_trail(usa, tri) == 11
    # a star round Denver: Omaha 4, Kansas City 4, Santa Fe 2, Helena 4: only two arms, 8
    star = [_route(usa, "Omaha", "Denver"), _route(usa, "Denver", "Kansas City"),
            _route(usa, "Denver", "Santa Fe"), _route(usa, "Denver", "Helena")]
    assert longest_trail(usa, star) == 8
    # two separate lines: the longer one
    assert longest_trail(usa, [_route(usa, "Seattle", "Helena"), _route(usa, "Miami", "Atlanta")]) == 6
    assert longest_trail(usa, []) == 0
    # Switzerland: each border point is its own place (§11.7): Basel–Deutschland 1 and
    # St. Gallen–Deutschland 2 end at different points, so they do not join
    sw = load_board("switzerland")
    assert longest_trail(sw, [_route(sw, "Basel", "Deutschland"),
                              _route(sw, "St. Gallen", "Deutschland")]) == 2


# ----- payments the random player never tries -----------------------------------------------------
def _give(game, seat, cards):
    """Move cards from the deck into a hand (conservation still holds)."""
    for card, k in enumerate(cards):
        for _ in range(k):
            game.deck.remove(card)
            game.hands[seat][card] += 1
    assert card_census(game) == FULL_DECK


def _started(map_id, n=2, variant="base"):
    """A game past the starting ticket choice, with empty hands and an empty face-up row (their
    cards put back under the deck), so that a test can hand out exactly the cards it needs."""
    game = Game(load_board(map_id, variant), n, Dealer(1))
    for seat in range(n):
        game.apply(game.legal_actions(seat)[0])
        for card, k in enumerate(game.hands[seat]):
            game.deck[:0] = [card] * k
        game.hands[seat] = [0] * 9
    game.deck[:0] = game.faceup
    game.faceup = []
    assert card_census(game) == FULL_DECK
    return game


@pytest.mark.parametrize("cards,ok", [
    ((0, 0, 0, 0, 0, 0, 0, 9, 0), True),            # 9 of one colour
    ((0, 0, 0, 0, 0, 0, 0, 8, 4), True),            # 4 any cards replace one (locomotives too)
    ((4, 4, 0, 0, 0, 0, 0, 5, 8), True),            # 4 substitutions: 5 red + 16 any
    ((9, 9, 0, 0, 0, 0, 0, 6, 12), True),           # all 9 replaced: 36 cards
    ((0, 0, 0, 0, 0, 0, 0, 0, 9), False),           # locomotives only as substitutes
    ((0, 0, 0, 0, 0, 0, 0, 8, 3), False),           # 3 cards are not 4
    ((0, 0, 0, 0, 0, 0, 0, 5, 3), False),
    ((4, 0, 0, 0, 0, 0, 0, 5, 0), False),           # two colours, no substitution
])
def test_murmansk_lieksa_payments(cards, ok):
    game = _started("nordic")
    seat = game.current
    _give(game, seat, [9, 9, 0, 0, 0, 0, 0, 9, 12])
    r = _route(game.board, "Murmansk", "Lieksa")
    before = snapshot(game)
    if ok:
        game.apply(A.ClaimRoute(seat, r, cards))
        assert game.owner[r] == seat
    else:
        with pytest.raises(Illegal):
            game.apply(A.ClaimRoute(seat, r, cards))
        assert snapshot(game) == before


@pytest.mark.parametrize("cards", [
    (12, 12, 0, 0, 0, 0, 0, 1, 14),                 # 39 cards: 10 substitutions for 9 spaces
    (12, 12, 0, 0, 0, 0, 0, 4, 14),                 # 42 cards: 11 substitutions
])
def test_murmansk_lieksa_cannot_be_overpaid(cards):
    game = _started("nordic")
    _give(game, game.current, [12, 12, 0, 0, 0, 0, 0, 12, 14])
    r = _route(game.board, "Murmansk", "Lieksa")
    before = snapshot(game)
    with pytest.raises(Illegal):
        game.apply(A.ClaimRoute(game.current, r, cards))
    assert snapshot(game) == before


def test_double_route_lanes_by_player_count():
    """§3.4, §8, §9: below 4 players (3 on Switzerland and Nordic) the other lane closes once
    one is taken; from then on it is open to the others but never to the first lane's owner."""
    for map_id, a, b, both_from in (("usa", "Kansas City", "Omaha", 4),
                                    ("europe", "Dieppe", "London", 4),
                                    ("switzerland", "Bern", "Luzern", 3),
                                    ("nordic", "Stockholm", "Sundsvall", 3)):
        board = load_board(map_id)
        lanes = [_route(board, a, b, 1), _route(board, a, b, 2)]
        pays = []
        for r in lanes:
            route = board.routes[r]
            pay = [0] * 9
            pay[0] = route.length - route.ferry          # gray: purple, + the ferry locomotives
            pay[8] = route.ferry
            pays.append(tuple(pay))
        for n in range(board.rules.min_players, board.rules.max_players + 1):
            game = _started(map_id, n)
            first = game.current
            second = (first + 1) % n
            _give(game, first, [pays[0][0] + pays[1][0]] + [0] * 7 + [pays[0][8] + pays[1][8]])
            _give(game, second, [pays[1][0]] + [0] * 7 + [pays[1][8]])
            game.apply(A.ClaimRoute(first, lanes[0], pays[0]))
            assert game.owner[lanes[0]] == first and game.current == second
            if n < both_from:
                before = snapshot(game)
                with pytest.raises(Illegal) as exc:
                    game.apply(A.ClaimRoute(second, lanes[1], pays[1]))
                assert exc.value.key == "double_closed"
                assert snapshot(game) == before
                continue
            while game.current != first:                # the others draw; then ann again
                game.apply(A.DrawCard(game.current))
                game.apply(A.DrawCard(game.current))
            before = snapshot(game)
            with pytest.raises(Illegal) as exc:
                game.apply(A.ClaimRoute(first, lanes[1], pays[1]))
            assert exc.value.key == "double_own"
            assert snapshot(game) == before
            game.apply(A.DrawCard(first))
            game.apply(A.DrawCard(first))
            game.apply(A.ClaimRoute(second, lanes[1], pays[1]))
            assert game.owner[lanes[1]] == second


# ----- winners and tie-breaks (§5.4, §6, §11.8, §11.9) ------------------------------------------------
def _own(game, seat, a, b):
    """Give a route to a seat (as if claimed: trains and route points follow)."""
    r = _route(game.board, a, b)
    length = game.board.routes[r].length
    game.owner[r] = seat
    game.routes_of[seat].append(r)
    game.trains[seat] -= length
    game.route_points[seat] += {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}[length]


def _tickets(game, seat, *pairs):
    game.tickets[seat] = [next(t.id for t in game.board.tickets if {t.origin, *t.dests} == set(p))
                          for p in pairs]


def _totals_and_winners(game):
    players, winners = game.scores()
    assert_scores_match(game, players, winners)
    return [p["total"] for p in players], winners


def test_exact_tie_with_both_longest_paths_shares_the_win():
    game = _started("usa")
    _tickets(game, 0)
    _tickets(game, 1)
    _own(game, 0, "Seattle", "Helena")          # 15 + longest path 6 -> +10
    _own(game, 1, "Miami", "New Orleans")       # 15 + longest path 6 -> +10
    assert _totals_and_winners(game) == ([25, 25], [0, 1])


def test_tie_broken_by_completed_tickets():
    game = _started("usa")
    _own(game, 0, "Denver", "Santa Fe")         # 2
    _own(game, 0, "Santa Fe", "El Paso")        # 2, trail 4
    _tickets(game, 0, ("Denver", "El Paso"))    # +4
    _own(game, 1, "Chicago", "Omaha")           # 7, trail 4
    _own(game, 1, "Dallas", "Houston")          # 1
    _tickets(game, 1)
    # both trails are 4: both get 10. ann 2 + 2 + 4 + 10 = 18, bob 7 + 1 + 10 = 18
    assert _totals_and_winners(game) == ([18, 18], [0])


def test_tie_broken_by_the_longest_path_bonus():
    game = _started("usa")
    _tickets(game, 0)
    _tickets(game, 1)
    _own(game, 0, "Seattle", "Helena")          # 15, trail 6: bonus 10 -> 25
    for a, b in (("Portland", "San Francisco"), ("Montréal", "Sault St. Marie"),
                 ("Chicago", "Duluth"), ("Kansas City", "Omaha")):
        _own(game, 1, a, b)                     # 10 + 10 + 4 + 1 = 25, trail 5
    assert _totals_and_winners(game) == ([25, 25], [0])


def test_europe_fewest_stations_before_the_express():
    game = _started("europe")
    _tickets(game, 0)
    _tickets(game, 1)
    for a, b in (("Warszawa", "Wilno"), ("Kyiv", "Smolensk"), ("Sarajevo", "Zagrab"),
                 ("Cadiz", "Madrid"), ("Budapest", "Wien")):
        _own(game, 0, a, b)                     # 4 * 4 + 1 = 17, trail 3, 3 stations: +12 = 29
    _own(game, 1, "Marseille", "Pamplona")      # 7, trail 4: Express +10
    _own(game, 1, "Athina", "Sofia")            # 4
    city = game.board.place_nodes["Berlin"][0]  # one station placed: 2 left, +8 -> 29
    game.station_owner[city] = 1
    game.stations_of[1].append(city)
    game.stations_left[1] -= 1
    assert _totals_and_winners(game) == ([29, 29], [0])


def test_1910_has_no_longest_path_tie_break():
    game = _started("usa", variant="1910")
    _tickets(game, 0)
    _tickets(game, 1)
    _own(game, 0, "Seattle", "Helena")          # 15, trail 6
    for a, b in (("Chicago", "Omaha"), ("Denver", "Oklahoma City"), ("Dallas", "Houston")):
        _own(game, 1, a, b)                     # 7 + 7 + 1 = 15, trail 4
    # Globetrotter: both have 0 completed tickets: both get 15 (§11.8); still tied: both win
    assert _totals_and_winners(game) == ([30, 30], [0, 1])
