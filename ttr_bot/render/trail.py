"""Which routes form a player's longest trail, for drawing it on the final picture.

`ttr_bot.engine.scoring.longest_trail` gives only the length; this finds one trail of that
length by the same exact search: a component whose routes can all be run in one trail (0 or 2
odd-degree cities) is itself the answer, otherwise a depth-first search from the odd-degree
cities, pruned by the length still unused.
"""


def longest_trail_routes(board, route_ids):
    """(length, route indices of one longest trail); ties go to the first found, so the answer
    is the same on every run."""
    route_ids = sorted(route_ids)
    if not route_ids:
        return 0, ()
    routes = board.routes
    adj = {}
    for r in route_ids:
        ro = routes[r]
        adj.setdefault(ro.a, []).append((r, ro.b, ro.length))
        adj.setdefault(ro.b, []).append((r, ro.a, ro.length))
    best_len, best_routes = 0, ()
    seen = set()
    for start in sorted(adj):
        if start in seen:
            continue
        nodes, edges = _component(adj, start)
        seen |= nodes
        total = sum(routes[r].length for r in edges)
        if total <= best_len:
            continue
        odd = sorted(v for v in nodes if len(adj[v]) % 2)
        if len(odd) <= 2:
            best_len, best_routes = total, tuple(sorted(edges))
            continue
        length, path = _search(adj, odd, total, best_len)
        if length > best_len:
            best_len, best_routes = length, tuple(sorted(path))
    return best_len, best_routes


def _component(adj, start):
    nodes, stack, edges = {start}, [start], set()
    while stack:
        v = stack.pop()
        for r, w, _ in adj[v]:
            edges.add(r)
            if w not in nodes:
                nodes.add(w)
                stack.append(w)
    return nodes, edges


def _search(adj, starts, total, floor):
    used = []
    used_set = set()
    best = [floor, None]

    def dfs(v, length, remaining):
        if length > best[0]:
            best[0], best[1] = length, list(used)
            if length == total:
                return True
        if length + remaining <= best[0]:
            return False
        for r, w, n in adj[v]:
            if r not in used_set:
                used_set.add(r)
                used.append(r)
                done = dfs(w, length + n, remaining - n)
                used.pop()
                used_set.discard(r)
                if done:
                    return True
        return False

    for s in starts:
        if dfs(s, 0, total):
            break
    if best[1] is None:
        return 0, []
    return best[0], best[1]
