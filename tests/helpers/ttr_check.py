"""Independent checks of the engine: card and train conservation, state snapshots, a random
player, and a from-scratch recomputation of the final scores (docs/rules.md §5–§11) that shares no
code with ttr_bot.engine.final_scores / scoring.

Only the map *data* (cities, routes, tickets) is read from the engine's Board; every rule
constant used here is written out from docs/rules.md, so a wrong value in maps/*.json shows up too.
"""
import copy
from collections import Counter, deque
from itertools import permutations, product
from pathlib import Path

from ttr_bot.engine import actions as A

REPO = Path(__file__).resolve().parents[2]

CARD_NAMES = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red", "locomotive")
LOCO = 8
FULL_DECK = Counter({**{i: 12 for i in range(8)}, LOCO: 14})          # docs/rules.md §1: 110 cards
ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}  # §3.4, §9

# What docs/rules.md says about each playable (map, variant). Ticket rules (§2, §3.5, §6–§9):
TICKETS = {   # (regular deck, long deck), (long dealt, regular dealt, keep at start),
              # (drawn later, keep later), where unkept go (start, later)
    ("usa", "base"): ((30, 0), (0, 3, 2), (3, 1), ("bottom", "bottom")),
    ("usa", "1910"): ((35, 0), (0, 3, 2), (3, 1), ("bottom", "bottom")),
    ("usa", "mega"): ((69, 0), (0, 5, 3), (4, 1), ("bottom", "bottom")),
    ("usa", "big_cities"): ((35, 0), (0, 4, 2), (4, 1), ("bottom", "bottom")),
    ("europe", "base"): ((40, 6), (1, 3, 2), (3, 1), ("out", "bottom")),
    ("switzerland", "base"): ((46, 0), (0, 5, 2), (3, 1), ("out", "out")),
    ("nordic", "base"): ((46, 0), (0, 5, 2), (3, 1), ("out", "out")),
}
BIG_CITIES = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}

CONFIGS = {
    ("usa", "base"): dict(trains=45, stations=0, lp=10, gt=0, ties=("tickets", "lp"),
                          players=(2, 5)),
    ("usa", "1910"): dict(trains=45, stations=0, lp=0, gt=15, ties=("tickets",), players=(2, 5)),
    ("usa", "mega"): dict(trains=45, stations=0, lp=10, gt=15, ties=("tickets", "lp"),
                          players=(2, 5)),
    ("usa", "big_cities"): dict(trains=45, stations=0, lp=0, gt=0, ties=("tickets",),
                                players=(2, 5)),
    ("europe", "base"): dict(trains=45, stations=3, lp=10, gt=0,
                             ties=("tickets", "fewest_stations", "lp"), players=(2, 5)),
    ("switzerland", "base"): dict(trains=40, stations=0, lp=10, gt=0, ties=("tickets", "lp"),
                                  players=(2, 3)),
    ("nordic", "base"): dict(trains=40, stations=0, lp=0, gt=10, ties=("tickets",),
                             players=(2, 3)),
}


# ----- conservation ----------------------------------------------------------------------------
def card_census(game):
    """Every train card the game knows of, by kind (deck, discard, face-up, hands, tunnel)."""
    c = Counter(game.deck) + Counter(game.discard) + Counter(game.faceup)
    for hand in game.hands:
        assert len(hand) == 9 and all(n >= 0 for n in hand), hand
        c += Counter({i: n for i, n in enumerate(hand) if n})
    if game.tunnel is not None:
        laid, revealed = game.tunnel.laid, game.tunnel.revealed
        c += Counter({i: n for i, n in enumerate(laid) if n}) + Counter(revealed)
    return c


def check_invariants(game, cfg):
    """docs/rules.md §10: cards, trains and stations are conserved; ownership is consistent."""
    census = card_census(game)
    assert census == FULL_DECK, f"train cards not conserved: {dict(census)}"
    assert len(game.faceup) <= 5
    board = game.board
    seen_routes = set()
    for p in range(game.n):
        mine = game.routes_of[p]
        assert len(set(mine)) == len(mine)
        seen_routes |= set(mine)
        for r in mine:
            assert game.owner[r] == p
        placed = sum(board.routes[r].length for r in mine)
        assert placed + game.trains[p] == cfg["trains"], (p, placed, game.trains[p])
        assert game.trains[p] >= 0
        assert len(game.stations_of[p]) + game.stations_left[p] == cfg["stations"]
        for city in game.stations_of[p]:
            assert game.station_owner[city] == p
        # route points tracked during play == recomputed from the routes owned (§5.1)
        assert game.route_points[p] == sum(ROUTE_POINTS[board.routes[r].length] for r in mine)
        # never both lanes of a double route (§3.4)
        for r in mine:
            assert board.routes[r].twin not in mine
    assert {r for r, o in enumerate(game.owner) if o >= 0} == seen_routes
    assert len(game.station_owner) == sum(len(s) for s in game.stations_of)
    if game.n < _double_min(cfg, game):
        for r, route in enumerate(board.routes):
            if route.twin >= 0:
                assert not (game.owner[r] >= 0 and game.owner[route.twin] >= 0), "both lanes used"


def _double_min(cfg, game):
    # docs/rules.md §3.4: both lanes from 4 players (USA, Europe); §8/§9: from 3 (Switzerland, Nordic)
    return 3 if game.board.map_id in ("switzerland", "nordic") else 4


# ----- snapshots -------------------------------------------------------------------------------
def snapshot(game):
    """Everything that makes up the state, dealer included (deep-copied, comparable)."""
    d = {k: v for k, v in vars(game).items() if k not in ("board", "rules", "dealer")}
    d = copy.deepcopy(d)
    dealer = game.dealer
    d["@rng"] = dealer.rng.getstate()
    d["@used_reshuffles"] = dealer.used_reshuffles
    d["@dealt_reshuffles"] = copy.deepcopy(dealer.dealt_reshuffles)
    for k in ("ticket_deck", "long_deck"):
        if k in d:
            d[k] = list(d[k])
    return d


def play_state(game):
    """The state that replaying must reproduce (no RNG internals). Tickets are named by their
    cities, not ids: Switzerland's two identical copies of a ticket are interchangeable."""
    d = snapshot(game)
    for k in ("@rng", "@used_reshuffles"):
        d.pop(k)
    tickets = game.board.tickets
    name = lambda t: (tickets[t].origin, tickets[t].dests, tickets[t].points)
    d["tickets"] = [[name(t) for t in ts] for ts in d["tickets"]]
    d["offers"] = [None if o is None else [name(t) for t in o] for o in d["offers"]]
    for k in ("ticket_deck", "long_deck"):
        if k in d:
            d[k] = [name(t) for t in d[k]]
    return d


# ----- random play -----------------------------------------------------------------------------
STYLES = ("by_type", "uniform", "claimer", "hoarder")


def choose(rng, legal, style):
    """One of the legal actions: uniform over action kinds, over actions, or claim-happy."""
    if style == "uniform":
        return rng.choice(legal)
    if style == "hoarder":            # draws cards whenever it can: empties deck and discard
        draws = [a for a in legal if isinstance(a, A.DrawCard)]
        if draws and rng.random() < 0.95:
            return rng.choice(draws)
        style = "by_type"
    by = {}
    for a in legal:
        by.setdefault(type(a), []).append(a)
    if style == "claimer":
        for kind in (A.ClaimRoute, A.TunnelPay):
            if kind in by and rng.random() < 0.8:
                return rng.choice(by[kind])
        if A.DrawTickets in by and len(by) > 1 and rng.random() < 0.9:
            del by[A.DrawTickets]
    return rng.choice(by[rng.choice(sorted(by, key=lambda k: k.__name__))])


def mutate(rng, game, action):
    """A random action near `action` (likely, not surely, illegal)."""
    n = game.n
    board = game.board
    seat = action.seat
    k = rng.randrange(8)
    rand_cards = lambda: tuple(rng.choice((0, 0, 0, 1, 2, 3, -1)) for _ in range(9))
    if k == 0:
        seat = rng.choice([s for s in range(-1, n + 1) if s != action.seat])
        if isinstance(action, A.KeepTickets):
            return A.KeepTickets(seat, action.tickets)
        if isinstance(action, (A.ClaimRoute,)):
            return A.ClaimRoute(seat, action.route, action.cards)
        return A.DrawCard(seat, rng.randrange(-1, 9))
    if k == 1:
        return A.DrawCard(seat, rng.randrange(-2, 10))
    if k == 2:
        cards = list(action.cards) if hasattr(action, "cards") else [0] * 9
        i = rng.randrange(9)
        cards[i] += rng.choice((-1, 1))
        if isinstance(action, A.BuildStation):
            return A.BuildStation(seat, action.city, tuple(cards))
        if isinstance(action, A.TunnelPay):
            return A.TunnelPay(seat, tuple(cards))
        route = action.route if isinstance(action, A.ClaimRoute) else rng.randrange(len(board.routes))
        return A.ClaimRoute(seat, route, tuple(cards))
    if k == 3:
        cards = action.cards if hasattr(action, "cards") else rand_cards()
        return A.ClaimRoute(seat, rng.randrange(-1, len(board.routes) + 1), cards)
    if k == 4:
        offer = game.offers[seat] if 0 <= seat < n and game.offers[seat] else []
        pool = list(offer) + [rng.randrange(len(board.tickets))]
        size = rng.randrange(0, len(pool) + 2)
        return A.KeepTickets(seat, tuple(rng.choice(pool) for _ in range(size)))
    if k == 5:
        return A.BuildStation(seat, rng.randrange(-1, len(board.nodes) + 1), rand_cards())
    if k == 6:
        return A.TunnelPay(seat, rand_cards())
    return rng.choice([A.Pass(seat), A.DrawTickets(seat), A.TunnelDecline(seat)])


# ----- independent scoring ---------------------------------------------------------------------
def _adjacency(board, route_ids):
    adj = {}
    for r in route_ids:
        ro = board.routes[r]
        adj.setdefault(ro.a, []).append(ro.b)
        adj.setdefault(ro.b, []).append(ro.a)
    return adj


def reachable(board, route_ids, place):
    """Node indices reachable from any node named `place` over these routes (BFS). A country's
    border point is an end only: the search never continues through one (§11.7)."""
    adj = _adjacency(board, route_ids)
    starts = [n.index for n in board.nodes if n.name == place]
    seen = set(starts)
    queue = deque(starts)
    while queue:
        v = queue.popleft()
        if board.nodes[v].country and v not in starts:
            continue
        for w in adj.get(v, ()):
            if w not in seen:
                seen.add(w)
                queue.append(w)
    return seen


def ticket_outcome(board, route_ids, ticket):
    """(completed, signed points) of one ticket (§5.2, §8)."""
    reach = reachable(board, route_ids, ticket.origin)
    got = [pts for dest, pts in zip(ticket.dests, ticket.points)
           if any(n.index in reach for n in board.nodes if n.name == dest)]
    if got:
        return True, max(got)
    return False, -min(ticket.points)


def trail_edges(board, route_ids):
    return [(r, board.routes[r].a, board.routes[r].b, board.routes[r].length) for r in route_ids]


def longest_trail_by_orderings(edges):
    """Brute force over every ordering of the edges: the longest prefix that is a trail."""
    best = 0
    for perm in permutations(edges):
        for start in (perm[0][1], perm[0][2]):
            at, length = start, 0
            for _r, a, b, n in perm:
                if a == at:
                    at = b
                elif b == at:
                    at = a
                else:
                    break
                length += n
            best = max(best, length)
    return best


def longest_trail_by_search(edges, budget=300_000):
    """Every trail from every start (depth-first, no pruning); None if too many to try."""
    adj = {}
    for e in edges:
        _r, a, b, _n = e
        adj.setdefault(a, []).append(e)
        adj.setdefault(b, []).append(e)
    best = 0
    steps = 0
    used = set()

    def dfs(v, length):
        nonlocal best, steps
        steps += 1
        if steps > budget:
            raise OverflowError
        best = max(best, length)
        for r, a, b, n in adj[v]:
            if r not in used:
                used.add(r)
                dfs(b if a == v else a, length + n)
                used.discard(r)

    try:
        for v in adj:
            dfs(v, 0)
    except OverflowError:
        return None
    return best


def longest_trail(board, route_ids):
    edges = trail_edges(board, route_ids)
    if len(edges) <= 6:
        return longest_trail_by_orderings(edges) if edges else 0
    return longest_trail_by_search(edges)


def _ticket_rows(board, results, tickets):
    rows = []
    for t, (ok, pts) in zip(tickets, results):
        rows.append({"from": t.origin, "to": list(t.dests) if len(t.dests) > 1 else t.dests[0],
                     "points": abs(pts), "completed": ok})
    return rows


def expected_scores(game):
    """Per-seat score dicts (the replay output's player keys) and the winning seats, computed
    from docs/rules.md alone. `tickets` holds every *best* alternative when stations make several
    assignments tie (a set of tuples of (completed, points)); compare with `matches()`."""
    board = game.board
    cfg = CONFIGS[(board.map_id, board.variant)]
    players = []
    for p in range(game.n):
        tickets = [board.tickets[t] for t in game.tickets[p]]
        own = list(game.routes_of[p])
        # stations: each may borrow one opponent route touching its city (§6, §11.10)
        choices = []
        for city in game.stations_of[p]:
            opts = [r for r, ro in enumerate(board.routes)
                    if city in (ro.a, ro.b) and game.owner[r] >= 0 and game.owner[r] != p]
            choices.append(opts + [None])
        best_key, best_results = None, set()
        for pick in product(*choices):
            routes = own + [r for r in pick if r is not None]
            results = tuple(ticket_outcome(board, routes, t) for t in tickets)
            key = (sum(pts for _, pts in results), sum(ok for ok, _ in results))
            if best_key is None or key > best_key:
                best_key, best_results = key, {results}
            elif key == best_key:
                best_results.add(results)
        players.append({
            "route_points": sum(ROUTE_POINTS[board.routes[r].length] for r in own),
            "ticket_alternatives": best_results,
            "tickets_completed": best_key[1],
            "ticket_points": best_key[0],
            "longest_path": longest_trail(board, own),
            "bonuses": {"longest_path": 0, "globetrotter": 0,
                        "stations": 4 * (cfg["stations"] - len(game.stations_of[p]))},
            "trains_left": cfg["trains"] - sum(board.routes[r].length for r in own),
            "stations_left": cfg["stations"] - len(game.stations_of[p]),
            "hand": {CARD_NAMES[i]: k for i, k in enumerate(game.hands[p]) if k},
            "_tickets": tickets,
        })
    if cfg["lp"] and all(pl["longest_path"] is not None for pl in players):
        top = max(pl["longest_path"] for pl in players)
        for pl in players:
            if pl["longest_path"] == top:
                pl["bonuses"]["longest_path"] = cfg["lp"]
    if cfg["gt"]:
        top = max(pl["tickets_completed"] for pl in players)
        for pl in players:
            if pl["tickets_completed"] == top:
                pl["bonuses"]["globetrotter"] = cfg["gt"]
    for pl in players:
        pl["total"] = pl["route_points"] + pl["ticket_points"] + sum(pl["bonuses"].values())
    return players, expected_winners(players, cfg, [len(s) for s in game.stations_of])


def expected_winners(players, cfg, stations_used):
    """§5.4, §6, §11.9."""
    top = max(pl["total"] for pl in players)
    tied = [p for p, pl in enumerate(players) if pl["total"] == top]
    for rule in cfg["ties"]:
        if len(tied) < 2:
            break
        if rule == "tickets":
            key = lambda p: players[p]["tickets_completed"]
        elif rule == "fewest_stations":
            key = lambda p: -stations_used[p]
        else:
            key = lambda p: players[p]["bonuses"]["longest_path"] > 0
        best = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == best]
    return tied


def assert_scores_match(game, actual_players, actual_winners, check_winners=True):
    """The engine's scores() against expected_scores(); a useful message on mismatch."""
    expected, winners = expected_scores(game)
    assert len(actual_players) == len(expected)
    lp_known = all(pl["longest_path"] is not None for pl in expected)
    for p, (got, exp) in enumerate(zip(actual_players, expected)):
        where = f"seat {p}"
        for key in ("route_points", "tickets_completed", "ticket_points", "trains_left",
                    "stations_left", "hand"):
            assert got[key] == exp[key], (where, key, got[key], exp[key])
        if exp["longest_path"] is not None:
            assert got["longest_path"] == exp["longest_path"], (where, "longest_path")
        if lp_known:
            assert got["bonuses"] == exp["bonuses"], (where, got["bonuses"], exp["bonuses"])
            assert got["total"] == exp["total"], (where, "total", got["total"], exp["total"])
        rows = got["tickets"]
        assert len(rows) == len(exp["_tickets"])
        got_results = tuple((r["completed"], r["points"] if r["completed"] else -r["points"])
                            for r in rows)
        assert got_results in exp["ticket_alternatives"], (where, got_results)
        for row, t in zip(rows, exp["_tickets"]):
            assert row["from"] == t.origin
            assert row["to"] == (list(t.dests) if len(t.dests) > 1 else t.dests[0])
            assert row["points"] > 0
        assert got["ticket_points"] == sum(v for _, v in got_results)
    if check_winners and lp_known:
        assert list(actual_winners) == winners, (actual_winners, winners)

