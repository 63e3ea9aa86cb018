"""Games made by random or simple greedy legal play (`random_game`, `greedy_game`; `drawn_state`:
a map's picture input with routes claimed at random), a greedy game's `ttr-record/1`
(`greedy_record`) and a record as the film's input (`film_input`).

Used by the tests (the pictures' tests in tests/render, a few of tests/discord and
tests/service) and by the developer's tools: the benchmarks (tools/bench: render, film,
workers, names) and the sample pictures (`python -m tools.render_samples`)."""
import heapq
import random

from ttr_bot.engine.actions import BuildStation, ClaimRoute, DrawCard, DrawTickets, KeepTickets, TunnelPay
from ttr_bot.engine.cards import LOCO
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.network import components, connected
from ttr_bot.game_record import action_from_json, action_to_json, export_record, open_record
from ttr_bot.maps import load_board

NAMES = ("Amélie", "Bjørn", "Chidi", "Dörte", "Emeka")
PLAYERS = {"usa": 4, "europe": 5, "switzerland": 3, "nordic": 3, "india": 4, "legendary_asia": 5,
           "pennsylvania": 5, "japan": 5, "italy": 5, "northern_lights": 5}


def random_game(map_id, n=None, seed=1, until=None, variant="base"):
    """Play random legal actions. until=None: to the end; a float f: until the players have
    used that share of their trains and the last move was a claim."""
    return _play(map_id, n, seed, until, variant, lambda game, seat, acts, rng: rng.choice(acts))


def greedy_game(map_id, n=None, seed=1, until=None, variant="base"):
    """Like random_game, but every player plays a simple plan (claim the routes of a shortest
    way between their ticket cities), so that the pictures look like real games."""
    def choose(game, seat, acts, rng):
        return _greedy(game, seat, acts, rng) if game.turn < 2000 else rng.choice(acts)
    return _play(map_id, n, seed, until, variant, choose)


def _play(map_id, n, seed, until, variant, choose):
    board = load_board(map_id, variant)
    n = n or PLAYERS.get(map_id, 3)
    game = Game(board, n, Dealer(seed))
    rng = random.Random(seed)
    total = board.rules.trains * n
    while not game.over:
        if until is not None and game.phase == "play":
            used = total - sum(game.trains)
            if used >= until * total and game.last_move and game.last_move[1] == "claim_route":
                break
        seat = game.to_move()[0]
        game.apply(choose(game, seat, game.legal_actions(seat), rng))
    return game


def _way(game, seat, sources, targets):
    """Free routes of a cheapest way from any source node to any target (own routes cost 0),
    or None."""
    board = game.board
    blocked = game.route_blocks(seat)
    dist = {v: 0 for v in sources}
    prev = {}
    heap = [(0, v) for v in sorted(sources)]
    while heap:
        d, v = heapq.heappop(heap)
        if v in targets:
            way = []
            while v in prev:
                r, v = prev[v]
                if game.owner[r] < 0:
                    way.append(r)
            return way
        if d > dist.get(v, 1 << 30):
            continue
        for r in board.node_routes[v]:
            o = game.owner[r]
            route = board.routes[r]
            if o >= 0 and o != seat:
                continue
            if o < 0 and blocked[r] is not None:
                continue
            w = route.b if route.a == v else route.a
            nd = d + (0 if o == seat else route.length)
            if nd < dist.get(w, 1 << 30):
                dist[w], prev[w] = nd, (r, v)
                heapq.heappush(heap, (nd, w))
    return None


def _plan(game, seat):
    """(free routes wanted, a city of an unreachable ticket or None)."""
    board = game.board
    wanted, stuck = [], None
    comp = components(len(board.nodes), board, game.routes_of[seat])
    for tid in game.tickets[seat]:
        ticket = board.tickets[tid]
        if any(connected(board, comp, ticket.origin, d) for d in ticket.dests):
            continue
        way = _way(game, seat, set(board.place_nodes[ticket.origin]),
                   {v for d in ticket.dests for v in board.place_nodes[d]})
        if way is None:
            stuck = board.place_nodes[ticket.origin][0]
        else:
            wanted.extend(r for r in way if r not in wanted)
    return wanted, stuck


def _greedy(game, seat, acts, rng):
    board = game.board
    first = acts[0]
    if isinstance(first, KeepTickets):
        small = min(len(a.tickets) for a in acts)
        options = [a for a in acts if len(a.tickets) == small]
        return min(options, key=lambda a: sum(board.tickets[t].points[0] for t in a.tickets))
    if any(isinstance(a, TunnelPay) for a in acts):
        return next(a for a in acts if isinstance(a, TunnelPay))
    wanted, stuck = _plan(game, seat)
    claims = [a for a in acts if isinstance(a, ClaimRoute)]
    for r in sorted(wanted, key=lambda r: -board.routes[r].length):
        options = [a for a in claims if a.route == r]
        if options:
            return min(options, key=lambda a: a.cards[LOCO])
    if stuck is not None or (game.stations_left[seat] and rng.random() < 0.03):
        # a station where the plan is stuck, or now and then at one of the player's cities
        cities = {stuck} if stuck is not None else {
            v for t in game.tickets[seat] for v in board.place_nodes[board.tickets[t].origin]}
        for a in acts:
            if isinstance(a, BuildStation) and a.city in cities:
                return a
    if not wanted:
        if game.trains[seat] >= 16 and any(isinstance(a, DrawTickets) for a in acts):
            return next(a for a in acts if isinstance(a, DrawTickets))
        if claims:
            return max(claims, key=lambda a: (board.routes[a.route].length, -a.cards[LOCO]))
    colours = {board.routes[r].color for r in wanted}
    draws = [a for a in acts if isinstance(a, DrawCard)]
    for a in draws:
        if a.card >= 0 and a.card != LOCO and a.card in colours:
            return a
    for a in draws:
        if a.card == -1:
            return a
    return rng.choice(acts)


def names_for(game):
    return list(NAMES[:game.n])


def drawn_state(map_id, share=0.25, n=3, seed=1):
    """What the map pictures read of a game (board, owner, station_owner, last_move, n, extra)
    with `share` of the routes claimed at random (never two lanes of one pair): the pictures of
    a map whose rules the engine does not play yet (issue 32), and the pixel tests of a map's
    own marks."""
    from types import SimpleNamespace
    board = load_board(map_id)
    rng = random.Random(seed)
    owner = [-1] * len(board.routes)
    claimed = None
    for r in rng.sample(range(len(board.routes)), round(len(board.routes) * share)):
        if all(owner[x] < 0 for x in board.routes[r].lanes):
            owner[r] = rng.randrange(n)
            claimed = r
    last = (owner[claimed], "claim_route", claimed) if claimed is not None else None
    return SimpleNamespace(board=board, owner=owner, station_owner={}, last_move=last, n=n,
                           extra={})


def greedy_record(map_id, n, seed=1, variant="base"):
    """The record of `greedy_game(map_id, n, seed)`: the same game, with its actions written
    down as it is played. (the record, the game)"""
    board = load_board(map_id, variant)
    game = Game(board, n, Dealer(seed))
    names = list(NAMES[:n])
    rng = random.Random(seed)
    actions = []
    while not game.over:
        seat = game.to_move()[0]
        acts = game.legal_actions(seat)
        action = _greedy(game, seat, acts, rng) if game.turn < 2000 else rng.choice(acts)
        actions.append(action_to_json(game, action, names))
        game.apply(action)
    return export_record(game, names, actions), game


def film_input(record):
    """(the game as dealt, names, engine actions) of a ttr-record/1 document: what
    `render_film` takes. RecordError or the engine's Illegal for a record that does not replay."""
    game, names, docs = open_record(record)
    start = game.copy()
    actions = []
    for obj in docs:
        action = action_from_json(game, obj, names)
        game.apply(action)
        actions.append(action)
    return start, names, actions
