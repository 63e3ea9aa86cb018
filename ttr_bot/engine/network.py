"""What a player's routes connect (docs/rules.md §5, §6, §8, §9, §11.7–10): tickets, the longest
trail, the best use of stations; and which routes serve the tickets still open (the order of
the claim and station menus). Pure functions over a board and each player's routes."""
import heapq
import math
from itertools import product


def components(n_nodes, board, route_ids):
    """Union-find labels of the nodes joined by these routes.

    Switzerland's border points have one route each, so a network never runs *through* a
    country (docs/rules.md §11.7): each point is its own node."""
    parent = list(range(n_nodes))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ends = board.route_ends
    for r in route_ids:
        a, b = ends[r]
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return [find(i) for i in range(n_nodes)]


def connected(board, comp, a, b):
    """Are places a and b (names: a city, or a country's border points) joined?"""
    na = board.place_nodes[a]
    nb = board.place_nodes[b]
    labels = {comp[x] for x in na}
    return any(comp[y] in labels for y in nb)


def ticket_result(board, comp, ticket):
    """(completed, signed points). Multi-destination tickets score the best destination
    reached, or lose the lowest value (docs/rules.md §8)."""
    reached = [p for d, p in zip(ticket.dests, ticket.points) if connected(board, comp, ticket.origin, d)]
    if reached:
        return True, max(reached)
    return False, -min(ticket.points)


def tickets_score(board, route_ids, tickets):
    comp = components(len(board.nodes), board, route_ids)
    results = [ticket_result(board, comp, t) for t in tickets]
    return results


def longest_trail(board, route_ids):
    """Length in trains of the longest trail (no route used twice; cities may repeat)."""
    return _longest(board, route_ids, False)[0]


def longest_trail_routes(board, route_ids):
    """(length, sorted route indices of one longest trail), for drawing it. The same routes
    in the same order always give the same trail."""
    length, trail = _longest(board, route_ids, True)
    return length, tuple(sorted(trail or ()))


def _longest(board, route_ids, want_routes):
    """Exact: a longest trail either uses every route of an Euler-traversable component (0 or
    2 odd-degree cities), or starts at an odd-degree city — any trail starting at an
    even-degree city could be extended there. Depth-first search from those cities, pruned by
    the length still unused in the component. The routes are tracked only when asked: this
    runs at every scoring, in every simulated game."""
    if not route_ids:
        return 0, None
    routes = board.routes
    adj = {}
    for r in route_ids:
        ro = routes[r]
        adj.setdefault(ro.a, []).append((r, ro.b, ro.length))
        adj.setdefault(ro.b, []).append((r, ro.a, ro.length))
    best, best_routes = 0, None
    seen = set()
    for start in adj:
        if start in seen:
            continue
        comp_nodes, comp_edges, total = _component(adj, start, routes)
        seen |= comp_nodes
        if total <= best:
            continue
        odd = [v for v in comp_nodes if len(adj[v]) % 2]
        if len(odd) <= 2:
            best, best_routes = total, comp_edges
            continue
        length, trail = _search(adj, odd, total, best, [] if want_routes else None)
        if length > best:
            best, best_routes = length, trail
    return best, best_routes


def _component(adj, start, routes):
    nodes = {start}
    stack = [start]
    edges = set()
    while stack:
        v = stack.pop()
        for r, w, _ in adj[v]:
            edges.add(r)
            if w not in nodes:
                nodes.add(w)
                stack.append(w)
    return nodes, edges, sum(routes[r].length for r in edges)


def _search(adj, starts, total, floor, path):
    """(best length above `floor`, or `floor`; its routes when `path` is a list, else None)."""
    used = set()
    best = [floor, None]

    def dfs(v, length, remaining):
        if length > best[0]:
            best[0] = length
            if path is not None:
                best[1] = list(path)
            if length == total:
                return True
        if length + remaining <= best[0]:
            return False
        for r, w, n in adj[v]:
            if r not in used:
                used.add(r)
                if path is not None:
                    path.append(r)
                done = dfs(w, length + n, remaining - n)
                if path is not None:
                    path.pop()
                used.discard(r)
                if done:
                    return True
        return False

    for s in starts:
        if dfs(s, 0, total):
            break
    return best[0], best[1]


def station_options(board, seat, stations, owner):
    """For each of the player's stations, the opponent routes touching its city (None when
    there is none to borrow)."""
    opts = []
    for city in stations:
        borrow = [r for r in board.node_routes[city] if owner[r] >= 0 and owner[r] != seat]
        opts.append(borrow or [None])
    return opts


def best_ticket_score(board, seat, own_routes, tickets, stations, owner):
    """Tickets with the best station assignment (docs/rules.md §6, §11.10): every combination of one
    borrowed route per station; best = highest ticket points, then most completed."""
    best = None
    for choice in product(*station_options(board, seat, stations, owner)):
        borrowed = [r for r in choice if r is not None]
        results = tickets_score(board, list(own_routes) + borrowed, tickets)
        key = (sum(p for _, p in results), sum(1 for ok, _ in results if ok))
        if best is None or key > best[0]:
            best = (key, results, borrowed)
    return best[1], best[2]


# ----- what serves a player's tickets (the claim and station menus' order) ---------------------------
def _distances(board, adj, sources):
    """Cheapest cost from any of `sources` to every node over `adj` (node -> [(node, cost)])."""
    dist = [math.inf] * len(board.nodes)
    heap = []
    for s in sources:
        dist[s] = 0
        heap.append((0, s))
    heapq.heapify(heap)
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, c in adj[u]:
            if d + c < dist[v]:
                dist[v] = d + c
                heapq.heappush(heap, (d + c, v))
    return dist


def ticket_routes(board, costs, tickets):
    """{route index: how many of `tickets` it serves}: the routes with a cost on some cheapest
    way to finish each unfinished ticket. `costs[r]` is 0 for the player's own routes, the
    trains it takes for a route still open to them, None for one they cannot have. A ticket
    already joined (cost 0) or beyond reach serves nothing; a multi-destination ticket counts
    for its cheapest destination. Ties count every cheapest way: a route is on one when the
    cost from the ticket's one end to it, plus its own, plus the cost from it to the other
    end is the cheapest total."""
    adj = [[] for _ in board.nodes]
    for r, c in enumerate(costs):
        if c is not None:
            a, b = board.route_ends[r]
            adj[a].append((b, c))
            adj[b].append((a, c))
    served = {}
    for tid in tickets:
        ticket = board.tickets[tid]
        origin = board.place_nodes[ticket.origin]
        da = _distances(board, adj, origin)
        best = None
        for dest in ticket.dests:
            ends = board.place_nodes[dest]
            total = min(da[x] for x in ends)
            if best is None or total < best[0]:
                best = (total, ends)
        total, ends = best
        if total == 0 or total == math.inf:
            continue
        db = _distances(board, adj, ends)
        for r, c in enumerate(costs):
            if not c:
                continue
            a, b = board.route_ends[r]
            if min(da[a] + c + db[b], da[b] + c + db[a]) == total:
                served[r] = served.get(r, 0) + 1
    return served
