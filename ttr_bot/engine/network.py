"""What a player's routes connect (docs/rules.md §5, §6, §8, §9, §11.7–10): tickets, the longest
trail, the best use of stations; and which routes serve the tickets still open (the order of
the claim and station menus). Pure functions over a board and each player's routes."""
from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board, Route, Ticket

Adjacency = dict[int, list[tuple[int, int, int]]]   # node -> [(route, other end, length)]
TicketResult = tuple[bool, int]                     # (completed, signed points)


def components(n_nodes: int, board: Board, route_ids: Iterable[int]) -> list[int]:
    """Union-find labels of the nodes joined by these routes.

    Switzerland's border points have one route each, so a network never runs *through* a
    country (docs/rules.md §11.7): each point is its own node."""
    parent = list(range(n_nodes))

    def find(x: int) -> int:
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


def connected(board: Board, comp: Sequence[int], a: str, b: str) -> bool:
    """Are places a and b (names: a city, or a country's border points) joined?"""
    na = board.place_nodes[a]
    nb = board.place_nodes[b]
    labels = {comp[x] for x in na}
    return any(comp[y] in labels for y in nb)


def ticket_result(board: Board, comp: Sequence[int], ticket: Ticket) -> TicketResult:
    """(completed, signed points). Multi-destination tickets score the best destination
    reached, or lose the lowest value (docs/rules.md §8)."""
    reached = [p for d, p in zip(ticket.dests, ticket.points) if connected(board, comp, ticket.origin, d)]
    if reached:
        return True, max(reached)
    return False, -min(ticket.points)


def completed_by(board: Board, route_ids: Sequence[int], ticket_ids: Iterable[int],
                 route: int) -> list[tuple[int, int]]:
    """(ticket id, points) of the tickets that `route` completes: done with `route_ids` (which
    hold it) and not done without it. Own routes only: a station's borrowed route counts in the
    final scores, not here."""
    with_it = components(len(board.nodes), board, route_ids)
    without = components(len(board.nodes), board, [r for r in route_ids if r != route])
    out = []
    for tid in ticket_ids:
        ticket = board.tickets[tid]
        done, points = ticket_result(board, with_it, ticket)
        if done and not ticket_result(board, without, ticket)[0]:
            out.append((tid, points))
    return out


def tickets_score(board: Board, route_ids: Iterable[int],
                  tickets: Iterable[Ticket]) -> list[TicketResult]:
    comp = components(len(board.nodes), board, route_ids)
    results = [ticket_result(board, comp, t) for t in tickets]
    return results


def longest_trail(board: Board, route_ids: Sequence[int]) -> int:
    """Length in trains of the longest trail (no route used twice; cities may repeat)."""
    return _longest(board, route_ids, False)[0]


def longest_trail_routes(board: Board, route_ids: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(length, sorted route indices of one longest trail), for drawing it. The same routes
    in the same order always give the same trail."""
    length, trail = _longest(board, route_ids, True)
    return length, tuple(sorted(trail or ()))


def _longest(board: Board, route_ids: Sequence[int],
             want_routes: bool) -> tuple[int, Iterable[int] | None]:
    """Exact: a longest trail either uses every route of an Euler-traversable component (0 or
    2 odd-degree cities), or starts at an odd-degree city — any trail starting at an
    even-degree city could be extended there. Depth-first search from those cities, pruned by
    the length still unused in the component. The routes are tracked only when asked: this
    runs at every scoring, in every simulated game."""
    if not route_ids:
        return 0, None
    routes = board.routes
    adj: Adjacency = {}
    for r in route_ids:
        ro = routes[r]
        adj.setdefault(ro.a, []).append((r, ro.b, ro.length))
        adj.setdefault(ro.b, []).append((r, ro.a, ro.length))
    best: int = 0
    best_routes: Iterable[int] | None = None
    seen: set[int] = set()
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


def _component(adj: Adjacency, start: int,
               routes: Sequence[Route]) -> tuple[set[int], set[int], int]:
    nodes = {start}
    stack = [start]
    edges: set[int] = set()
    while stack:
        v = stack.pop()
        for r, w, _ in adj[v]:
            edges.add(r)
            if w not in nodes:
                nodes.add(w)
                stack.append(w)
    return nodes, edges, sum(routes[r].length for r in edges)


def _search(adj: Adjacency, starts: list[int], total: int, floor: int,
            path: list[int] | None) -> tuple[int, list[int] | None]:
    """(best length above `floor`, or `floor`; its routes when `path` is a list, else None)."""
    used: set[int] = set()
    best_length = floor
    best_path: list[int] | None = None

    def dfs(v: int, length: int, remaining: int) -> bool:
        nonlocal best_length, best_path
        if length > best_length:
            best_length = length
            if path is not None:
                best_path = list(path)
            if length == total:
                return True
        if length + remaining <= best_length:
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
    return best_length, best_path


def station_options(board: Board, seat: int, stations: Iterable[int],
                    owner: Sequence[int]) -> list[list[int | None]]:
    """For each of the player's stations, the opponent routes touching its city (None when
    there is none to borrow)."""
    opts: list[list[int | None]] = []
    for city in stations:
        borrow: list[int | None] = [r for r in board.node_routes[city] if owner[r] >= 0 and owner[r] != seat]
        opts.append(borrow or [None])
    return opts


def best_ticket_score(board: Board, seat: int, own_routes: Iterable[int], tickets: Sequence[Ticket],
                      stations: Sequence[int], owner: Sequence[int]) -> tuple[list[TicketResult], list[int]]:
    """Tickets with the best station assignment (docs/rules.md §6, §11.10): every combination of one
    borrowed route per station; best = highest ticket points, then most completed."""
    best: tuple[tuple[int, int], list[TicketResult], list[int]] | None = None
    for choice in product(*station_options(board, seat, stations, owner)):
        borrowed = [r for r in choice if r is not None]
        results = tickets_score(board, list(own_routes) + borrowed, tickets)
        key = (sum(p for _, p in results), sum(1 for ok, _ in results if ok))
        if best is None or key > best[0]:
            best = (key, results, borrowed)
    assert best is not None     # product() of non-empty options yields at least once
    return best[1], best[2]


# ----- what serves a player's tickets (the claim and station menus' order) ---------------------------
def _distances(board: Board, adj: list[list[tuple[int, int]]],
               sources: Iterable[int]) -> list[float]:
    """Cheapest cost from any of `sources` to every node over `adj` (node -> [(node, cost)])."""
    dist: list[float] = [math.inf] * len(board.nodes)
    heap: list[tuple[float, int]] = []
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


def ticket_routes(board: Board, costs: Sequence[int | None],
                  tickets: Iterable[int]) -> dict[int, int]:
    """{route index: how many of `tickets` it serves}: the routes with a cost on some cheapest
    way to finish each unfinished ticket. `costs[r]` is 0 for the player's own routes, the
    trains it takes for a route still open to them, None for one they cannot have. A ticket
    already joined (cost 0) or beyond reach serves nothing; a multi-destination ticket counts
    for its cheapest destination. Ties count every cheapest way: a route is on one when the
    cost from the ticket's one end to it, plus its own, plus the cost from it to the other
    end is the cheapest total."""
    adj: list[list[tuple[int, int]]] = [[] for _ in board.nodes]
    for r, c in enumerate(costs):
        if c is not None:
            a, b = board.route_ends[r]
            adj[a].append((b, c))
            adj[b].append((a, c))
    served: dict[int, int] = {}
    for tid in tickets:
        ticket = board.tickets[tid]
        origin = board.place_nodes[ticket.origin]
        da = _distances(board, adj, origin)
        best: tuple[float, Sequence[int]] | None = None
        for dest in ticket.dests:
            nodes = board.place_nodes[dest]
            cost = min(da[x] for x in nodes)
            if best is None or cost < best[0]:
                best = (cost, nodes)
        assert best is not None          # a ticket has a destination
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
