"""Where the opponents are likely going: for each route, how much it would hurt them to lose it.

From the ticket likelihoods of `infer.py`, take each opponent's likeliest tickets, find the
connection each would build (over their own routes and free ones), and for every route on it
measure the detour if it were gone — a bridge with no way round costs them the whole ticket.
`threats` sums that over tickets, weighted by how likely the opponent holds them.
"""
from .infer import _player_costs, ticket_weights
from .planner import INF, dijkstra, path_routes

TOP_TICKETS = 6


def _ticket_path(info, cost, tid):
    origins, dests, penalty = info.tickets[tid]
    dist, prev = dijkstra(info, cost, origins)
    best = None
    for nodes, pts in dests:
        for t in nodes:
            if dist[t] < INF and (best is None or dist[t] < best[0]):
                best = (dist[t], t, pts)
    if best is None:
        return None
    d, node, pts = best
    return d, pts, path_routes(info, prev, node)


def _ticket_dist(info, cost, tid):
    origins, dests, _ = info.tickets[tid]
    dist, _ = dijkstra(info, cost, origins)
    return min((dist[t] for nodes, _ in dests for t in nodes), default=INF)


def threats(info, v, cache=None, top=TOP_TICKETS):
    """route -> expected loss (in points) to the opponents if that free route were taken now."""
    out = {}
    mine = set(v.tickets) | set(v.offer or ())
    pool = [t.id for t in v.board.tickets if t.id not in mine and not t.long]
    # taking one lane of a double route closes the other one too in a small game
    closes_twin = not info.rules.both_lanes_open(v.n)
    for p in range(v.n):
        if p == v.seat or not v.ticket_counts[p]:
            continue
        w = ticket_weights(info, v.owner, v.n, p, pool, cache)
        total = sum(w)
        if not total:
            continue
        k = v.ticket_counts[p]
        ranked = sorted(zip(w, pool), reverse=True)[:top]
        base = _player_costs(info, v.owner, v.n, p, True)
        # a planning price per route (trains plus a turn), own routes free
        cost = [c if c == 0.0 or c == INF else c + 1.0 for c in base]
        for wt, tid in ranked:
            prob = min(1.0, k * wt / total)
            if prob < 0.05:
                continue
            found = _ticket_path(info, cost, tid)
            if found is None:
                continue
            d, pts, path = found
            if d == 0:
                continue   # already connected: nothing to block
            for r in path:
                if cost[r] == 0.0 or v.owner[r] >= 0:
                    continue
                saved = cost[r]
                cost[r] = INF
                twin = info.twin[r]
                if twin >= 0 and v.owner[twin] < 0 and closes_twin:
                    saved_twin = cost[twin]
                    cost[twin] = INF
                else:
                    twin = -1
                d2 = _ticket_dist(info, cost, tid)
                cost[r] = saved
                if twin >= 0:
                    cost[twin] = saved_twin
                if d2 == INF:
                    loss = 2 * pts          # the ticket flips from + to −
                else:
                    loss = min(2 * pts, 0.8 * (d2 - d))   # a detour: trains and turns
                if loss > 0:
                    out[r] = out.get(r, 0.0) + prob * loss
    return out
