"""docs/rules.md §5 Scoring: tickets, the longest trail (exact), bonus ties, winners and tie-breaks."""
import random

from tests.engine.rulekit import give_routes, make_game, route, ticket


def game_with(map_id="usa", n=2, routes=None, tickets=None, variant="base"):
    """A game whose seats own exactly these routes ({seat: [(a, b, colour[, lane])]}) and hold
    exactly these tickets ({seat: [(a, b)]})."""
    g = make_game(map_id, n, variant)
    g.tickets = [[] for _ in range(n)]
    for seat, rs in (routes or {}).items():
        give_routes(g, seat, [route(g, *r) for r in rs])
    for seat, ts in (tickets or {}).items():
        g.tickets[seat] = [ticket(g, *t) for t in ts]
    return g


def player(g, seat):
    return g.scores()[0][seat]


def longest(g, seat=0):
    return player(g, seat)["longest_path"]


# ----- §5.1 route points ------------------------------------------------------------------
def test_route_points_are_recomputed_at_the_end():
    g = game_with(routes={0: [("Dallas", "El Paso", "red"), ("El Paso", "Houston", "green")]})
    g.route_points[0] = 999                 # the running score is only a display
    assert player(g, 0)["route_points"] == 7 + 15


# ----- §5.2 tickets -----------------------------------------------------------------------
DENVER_ELPASO = [("Denver", "Santa Fe", "gray"), ("Santa Fe", "El Paso", "gray")]


def test_completed_ticket_adds_its_value():
    g = game_with(routes={0: DENVER_ELPASO}, tickets={0: [("Denver", "El Paso")]})
    p = player(g, 0)
    assert p["ticket_points"] == 4 and p["tickets_completed"] == 1
    assert p["tickets"] == [{"from": "Denver", "to": "El Paso", "points": 4, "completed": True}]


def test_uncompleted_ticket_subtracts_its_value():
    g = game_with(routes={0: DENVER_ELPASO[:1]}, tickets={0: [("Denver", "El Paso")]})
    p = player(g, 0)
    assert p["ticket_points"] == -4 and p["tickets_completed"] == 0
    assert p["total"] == 2 - 4 + 10


def test_ticket_needs_a_chain_of_the_players_own_routes():
    g = game_with(routes={0: DENVER_ELPASO[:1], 1: DENVER_ELPASO[1:]},
                  tickets={0: [("Denver", "El Paso")]})
    assert player(g, 0)["ticket_points"] == -4


def test_ticket_completed_through_a_long_chain():
    g = game_with(routes={0: [("Seattle", "Helena", "yellow"), ("Helena", "Duluth", "orange"),
                              ("Duluth", "Toronto", "purple"), ("Toronto", "Montréal", "gray"),
                              ("Montréal", "New York", "blue")]},
                  tickets={0: [("Seattle", "New York"), ("Boston", "Miami")]})
    p = player(g, 0)
    assert p["ticket_points"] == 22 - 12
    assert p["tickets_completed"] == 1


# ----- §5.3 longest continuous trail -------------------------------------------------------
def test_longest_path_of_a_simple_chain():
    g = game_with(routes={0: DENVER_ELPASO + [("El Paso", "Phoenix", "gray")]})
    assert longest(g) == 7


def test_longest_path_uses_a_loop_and_passes_a_city_twice():
    # tail Denver–Santa Fe, then round the triangle Santa Fe–El Paso–Phoenix–Santa Fe
    g = game_with(routes={0: [("Denver", "Santa Fe", "gray"), ("Santa Fe", "El Paso", "gray"),
                              ("El Paso", "Phoenix", "gray"), ("Phoenix", "Santa Fe", "gray")]})
    assert longest(g) == 2 + 2 + 3 + 3


def test_longest_path_of_a_figure_eight():
    # two cycles through Santa Fe: every route once
    g = game_with(routes={0: [("Santa Fe", "El Paso", "gray"), ("El Paso", "Phoenix", "gray"),
                              ("Phoenix", "Santa Fe", "gray"), ("Santa Fe", "Denver", "gray"),
                              ("Denver", "Oklahoma City", "red"),
                              ("Oklahoma City", "Santa Fe", "blue")]})
    assert longest(g) == 8 + 9


def test_branches_do_not_count():
    g = game_with(routes={0: [("Santa Fe", "Denver", "gray"), ("Santa Fe", "El Paso", "gray"),
                              ("Santa Fe", "Phoenix", "gray"),
                              ("Santa Fe", "Oklahoma City", "blue")]})
    assert longest(g) == 3 + 3


def test_separate_networks_are_not_added():
    g = game_with(routes={0: [("Dallas", "El Paso", "red"), ("Seattle", "Portland", "gray", 1),
                              ("Portland", "San Francisco", "green")]})
    assert longest(g) == 6


DEAD_END_TRAP = [("Denver", "Kansas City", "orange"), ("Denver", "Oklahoma City", "red"),
                 ("Denver", "Phoenix", "white"), ("El Paso", "Oklahoma City", "yellow"),
                 ("El Paso", "Phoenix", "gray"), ("El Paso", "Santa Fe", "gray"),
                 ("Kansas City", "Oklahoma City", "gray", 2),
                 ("Little Rock", "Oklahoma City", "gray"), ("Oklahoma City", "Santa Fe", "blue")]


def brute_longest(board, ids, starts=None):
    adj = {}
    for r in ids:
        ro = board.routes[r]
        adj.setdefault(ro.a, []).append(r)
        adj.setdefault(ro.b, []).append(r)
    best = 0

    def dfs(v, used, n):
        nonlocal best
        best = max(best, n)
        for r in adj[v]:
            if r not in used:
                ro = board.routes[r]
                used.add(r)
                dfs(ro.b if ro.a == v else ro.a, used, n + ro.length)
                used.discard(r)
    for s in (adj if starts is None else starts):
        dfs(s, set(), 0)
    return best


def test_longest_path_where_starting_only_from_dead_end_cities_is_wrong():
    g = game_with(routes={0: DEAD_END_TRAP})
    ids = g.routes_of[0]
    dead_ends = [v for v in range(len(g.board.nodes))
                 if sum(g.board.routes[r].a == v or g.board.routes[r].b == v for r in ids) == 1]
    assert brute_longest(g.board, ids, dead_ends) == 26      # the trap
    assert brute_longest(g.board, ids) == 28
    assert longest(g) == 28


def test_longest_path_matches_an_exhaustive_search_on_random_networks():
    g = make_game("usa", 2)
    b = g.board
    rng = random.Random(20240)
    for _ in range(150):
        k = rng.randint(3, 11)
        ids = [rng.randrange(len(b.routes))]
        while len(ids) < k:
            nodes = {b.routes[r].a for r in ids} | {b.routes[r].b for r in ids}
            cand = [r.index for r in b.routes if r.index not in ids
                    and (r.a in nodes or r.b in nodes or rng.random() < 0.02)
                    and r.twin not in ids]
            ids.append(rng.choice(cand))
        g.routes_of[0] = ids
        assert longest(g) == brute_longest(b, ids), [b.route_label(r) for r in ids]


def test_longest_path_bonus_is_10_to_the_longest():
    g = game_with(routes={0: [("Dallas", "El Paso", "red")], 1: [("Dallas", "Houston", "gray", 1)]})
    p0, p1 = g.scores()[0]
    assert p0["bonuses"]["longest_path"] == 10 and p1["bonuses"]["longest_path"] == 0
    assert p0["total"] == 7 + 10 and p1["total"] == 1


def test_every_tied_player_gets_the_longest_path_bonus():
    g = game_with(n=3, routes={0: [("Dallas", "El Paso", "red")],
                               1: [("Atlanta", "New Orleans", "yellow")],
                               2: [("El Paso", "Phoenix", "gray")]})
    bon = [p["bonuses"]["longest_path"] for p in g.scores()[0]]
    assert bon == [10, 10, 0]


# ----- §5.4 winners -----------------------------------------------------------------------
def test_most_points_wins():
    g = game_with(routes={0: [("Dallas", "El Paso", "red")], 1: [("El Paso", "Houston", "green")]})
    assert g.scores()[1] == [1]


def test_points_tie_is_broken_by_most_completed_tickets():
    # seat 0: 2+2 route points, +4 ticket, longest 4 (+10) = 18
    # seat 1: 7+1 route points, no ticket, longest 4 (+10) = 18
    g = game_with(routes={0: DENVER_ELPASO,
                          1: [("Dallas", "El Paso", "red"), ("Portland", "Seattle", "gray", 1)]},
                  tickets={0: [("Denver", "El Paso")]})
    players, winners = g.scores()
    assert [p["total"] for p in players] == [18, 18]
    assert winners == [0]


def test_then_by_the_holder_of_the_longest_path_bonus():
    g = game_with(routes={0: [("Dallas", "El Paso", "red")],
                          1: [("Calgary", "Vancouver", "gray"), ("Chicago", "Duluth", "red"),
                              ("El Paso", "Phoenix", "gray"), ("Montréal", "New York", "blue"),
                              ("Portland", "Seattle", "gray", 1)]})
    players, winners = g.scores()
    assert [p["total"] for p in players] == [17, 17]
    assert winners == [0]


def test_still_tied_players_all_win():
    g = game_with(routes={0: [("Dallas", "El Paso", "red")],
                          1: [("Atlanta", "New Orleans", "yellow")]})
    players, winners = g.scores()
    assert [p["total"] for p in players] == [17, 17]
    assert winners == [0, 1]


# ----- mid-game: what a claim completed, the bonuses earned so far ------------------------------
def test_the_claim_that_completes_a_ticket_is_named_by_the_engine():
    g = game_with(routes={0: DENVER_ELPASO}, tickets={0: [("Denver", "El Paso")]})
    last, first = (route(g, *DENVER_ELPASO[1]), route(g, *DENVER_ELPASO[0]))
    tid = g.tickets[0][0]
    assert g.tickets_completed_by(0, last) == [(tid, 4)]
    assert g.tickets_completed_by(0, first) == [(tid, 4)]      # either end closes it
    g2 = game_with(routes={0: DENVER_ELPASO[:1]}, tickets={0: [("Denver", "El Paso")]})
    assert g2.tickets_completed_by(0, first) == []             # not complete yet


def test_a_mid_game_score_has_no_bonus_nobody_earned():
    g = game_with(tickets={0: [("Denver", "El Paso")]})
    assert player(g, 0)["bonuses"]["longest_path"] == 10       # the end: a tie at 0 (§11.8)
    early = g.scores(earned_only=True)[0][0]
    assert early["bonuses"]["longest_path"] == 0 and early["total"] == -4
    g = game_with(routes={0: DENVER_ELPASO[:1]})
    assert g.scores(earned_only=True)[0][0]["bonuses"]["longest_path"] == 10
    assert g.scores(earned_only=True)[0][1]["bonuses"]["longest_path"] == 0
