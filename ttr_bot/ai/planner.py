"""Route planning shared by the computer players: what each route costs this player, shortest
connections for tickets over free and own routes, the colours a plan needs, and how to pay.

Everything here reads only what a `PlayerView` holds (owner list, own hand and tickets, trains),
so it works the same on a real view and on a view of a simulated game.
"""
import heapq
from itertools import combinations, compress

from ..engine.cards import GRAY, LOCO, N_CARD_KINDS, N_COLORS
from ..engine.network import components
from ..engine.payment import could_pay, route_payments, station_payments
from ..engine.seat_rules import route_blocked

INF = float("inf")
MIN_COST = 0.25


class CostModel:
    """How a player prices a free route when planning: trains, plus a per-claim overhead (a
    turn and a set of cards), plus extras for the risky or locomotive-hungry kinds."""

    def __init__(self, overhead=1.0, tunnel=1.0, ferry=1.5, station=6.0, hand_discount=0.0,
                 long_bonus=0.0):
        self.long_bonus = long_bonus
        self.overhead = overhead
        self.tunnel = tunnel
        self.ferry = ferry
        self.station = station
        self.hand_discount = hand_discount


DEFAULT_COSTS = CostModel()


def route_costs(info, v, model=DEFAULT_COSTS, extra=None):
    """Planning cost of every route for the view's seat.
    0: own; INF: unusable; a borrowed opponent route costs `model.station` when a station could
    still be placed at one of its ends. `extra` (optional list) adds per-route costs."""
    seat = v.seat
    owner = v.owner
    board, n, trains = info.board, v.n, v.trains[seat]
    routes = info.routes
    out = [INF] * info.n_routes
    can_station = info.stations and v.stations_left[seat] > 0
    st_owner = v.station_owner
    hand = v.hand
    for r in range(info.n_routes):
        o = owner[r]
        if o == seat:
            out[r] = 0.0
            continue
        if o >= 0:
            if info.stations:
                a, b = info.ends[r]
                if st_owner.get(a) == seat or st_owner.get(b) == seat:
                    out[r] = 0.0    # our station there already lends it (one route per station:
                                    # good enough for planning)
                elif can_station and (a not in st_owner or b not in st_owner):
                    out[r] = model.station
            continue
        if route_blocked(board, n, owner, seat, trains, r) is not None:
            continue
        route = routes[r]
        c = info.length[r] + model.overhead - model.long_bonus * (info.points[r] - info.length[r])
        if route.tunnel:
            c += model.tunnel
        if route.ferry:
            c += model.ferry * route.ferry
        if model.hand_discount:
            col = route.color
            have = max(hand[:N_COLORS]) if col == GRAY else hand[col]
            c -= model.hand_discount * min(have, route.length) / route.length
        if extra is not None:
            c += extra[r]
        out[r] = max(c, MIN_COST)   # positive: Dijkstra needs it, and own routes stay cheaper
    return out


def dijkstra(info, cost, sources):
    dist = [INF] * info.n_nodes
    prev = [-1] * info.n_nodes
    heap = []
    for s in sources:
        dist[s] = 0.0
        heap.append((0.0, s))
    heapq.heapify(heap)
    adj = info.adj
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, u = pop(heap)
        if d > dist[u]:
            continue
        for r, w in adj[u]:
            c = cost[r]
            if c == INF:
                continue
            nd = d + c
            if nd < dist[w]:
                dist[w] = nd
                prev[w] = r
                push(heap, (nd, w))
    return dist, prev


def path_routes(info, prev, target):
    """Routes of the shortest path found by `dijkstra` to `target`, target end first."""
    out = []
    u = target
    ends = info.ends
    while prev[u] >= 0:
        r = prev[u]
        out.append(r)
        a, b = ends[r]
        u = a if b == u else b
    return out


class Plan:
    __slots__ = ("routes", "cost", "trains", "tickets", "failed", "use", "points", "done")

    def __init__(self):
        self.routes = []      # routes still to claim (free) or borrow (opponent's), in order found
        self.cost = 0.0
        self.trains = 0       # trains the free routes need
        self.tickets = []     # (ticket id, points at stake, routes)
        self.failed = []      # ticket ids not planned (unreachable or over budget)
        self.done = []        # ticket ids already connected
        self.use = {}         # route -> number of planned tickets through it
        self.points = {}      # route -> ticket points that depend on it


def ticket_target(info, dist, tid):
    """(target node, points gained by reaching it, its cost) for one ticket from a distance map;
    multi-destination tickets take the destination that pays best for its cost."""
    origins, dests, penalty = info.tickets[tid]
    best = None
    for nodes, pts in dests:
        for t in nodes:
            d = dist[t]
            if d == INF:
                continue
            key = pts - 0.5 * d if len(dests) > 1 else -d
            if best is None or key > best[0]:
                best = (key, t, pts, d)
    if best is None:
        return None
    return best[1], best[2], best[3]


def make_plan(info, cost, tickets, trains, order=None, owner=None):
    """Plan connections for `tickets` in priority order; each ticket's routes become free for
    the next ones (a shared network). A ticket whose extra trains would exceed `trains`, or that
    cannot be reached, is listed in `failed`."""
    plan = Plan()
    c = list(cost)
    length = info.length
    tickets = list(tickets) if order is None else list(order)
    budget = trains
    for tid in tickets:
        origins = info.tickets[tid][0]
        dist, prev = dijkstra(info, c, origins)
        tgt = ticket_target(info, dist, tid)
        if tgt is None:
            plan.failed.append(tid)
            continue
        node, pts, d = tgt
        if d == 0:
            plan.done.append(tid)
            continue
        rs = [r for r in path_routes(info, prev, node) if cost[r] > 0]
        need = sum(length[r] for r in rs if owner is None or owner[r] < 0)
        if need > budget:
            plan.failed.append(tid)
            continue
        budget -= need
        plan.trains += need
        plan.cost += d
        stake = pts + info.tickets[tid][2]
        plan.tickets.append((tid, stake, rs))
        for r in rs:
            if r not in plan.use:
                plan.routes.append(r)
                plan.use[r] = 0
                plan.points[r] = 0
            plan.use[r] += 1
            plan.points[r] += stake
            c[r] = 0.0
    return plan


def ticket_order(info, tickets):
    """Default priority: the most valuable first."""
    return sorted(tickets, key=lambda t: -info.max_points[t])


def best_plan(info, cost, tickets, trains, owner, orders=1):
    """The cheapest of a few ticket orders (by value; by value reversed; rotations)."""
    base = ticket_order(info, tickets)
    cands = [base]
    if orders > 1 and len(base) > 1:
        cands.append(base[::-1])
        for i in range(1, len(base)):
            if len(cands) >= orders:
                break
            cands.append(base[i:] + base[:i])
    best = None
    for order in cands[:orders]:
        p = make_plan(info, cost, tickets, trains, order, owner)
        lost = sum(info.max_points[t] for t in p.failed)
        key = (lost, p.cost)
        if best is None or key < best[0]:
            best = (key, p)
    return best[1]


# ----- cards ---------------------------------------------------------------------------------
def color_demand(info, routes, hand, owner):
    """Cards per colour the free routes of a plan need (gray routes get the colour the hand
    holds most of beyond the other needs); index LOCO: locomotives ferries require."""
    demand = [0] * N_CARD_KINDS
    gray = []
    for r in routes:
        if owner[r] >= 0:
            continue
        route = info.routes[r]
        length = route.length - route.ferry
        demand[LOCO] += route.ferry
        if route.color == GRAY:
            gray.append((length, r))
        else:
            demand[route.color] += length
    for length, _ in sorted(gray, reverse=True):
        c = max(range(N_COLORS), key=lambda k: (hand[k] - demand[k], -k))
        demand[c] += length
    return demand


def pay_score(info, r, pay, hand, demand):
    """Lower is better: locomotives spent, and cards other planned routes still need."""
    score = 0.0
    for c in range(N_COLORS):
        k = pay[c]
        if k:
            before = max(0, demand[c] - hand[c])
            after = max(0, demand[c] - (hand[c] - k))
            score += after - before
    locos = pay[LOCO]
    if locos:
        score += locos * (1.6 if info.any_locos_anywhere else 1.0)
    score += 0.2 * (sum(pay) - info.length[r])   # substitution payments spend extra cards
    return score


def could_afford(info, r, hand):
    """The engine's count test (payment.could_pay) with the board's precomputed tables."""
    return could_pay(info.routes[r], hand, info.locos_ok[r])


def tunnel_spare(route, hand, pay):
    """Cards left that could pay a tunnel's extra cost after laying `pay`."""
    used = [c for c in range(N_COLORS) if pay[c]]
    spare = hand[LOCO] - pay[LOCO]
    if used:
        spare += hand[used[0]] - pay[used[0]]
    return spare


def best_payment(info, r, hand, demand=None, spare=0):
    """The payment for route r that spends least of what the plan needs, or None. On a tunnel,
    only payments that keep `spare` cards for the extra cost count."""
    if not could_afford(info, r, hand):
        return None
    route = info.routes[r]
    pays = route_payments(info.rules, route, hand)
    if route.tunnel and spare:
        pays = [p for p in pays if tunnel_spare(route, hand, p) >= spare]
    if not pays:
        return None
    if demand is None:
        demand = [0] * N_CARD_KINDS
    own = list(demand)
    # the route's own demand does not count against paying for it
    if route.color != GRAY:
        own[route.color] = max(0, own[route.color] - route.length)
    return min(pays, key=lambda p: (pay_score(info, r, p, hand, own), p))


def best_station_payment(info, hand, count, demand=None):
    pays = station_payments(hand, count)
    if not pays:
        return None
    demand = demand or [0] * N_CARD_KINDS
    return min(pays, key=lambda p: (sum(max(0, demand[c] - (hand[c] - p[c])) for c in range(N_COLORS))
                                    + 2 * p[LOCO], p))


# ----- tickets -------------------------------------------------------------------------------
def ticket_value(info, comp, tid):
    """Signed points of one ticket given component labels."""
    origins, dests, penalty = info.tickets[tid]
    labels = {comp[x] for x in origins}
    best = None
    for nodes, pts in dests:
        if any(comp[y] in labels for y in nodes):
            best = pts if best is None else max(best, pts)
    return -penalty if best is None else best


class TicketGains:
    """Ticket points a single extra route would add to a network, computed from one union-find
    of the network (for choosing among many routes)."""

    def __init__(self, info, routes, tickets):
        self.info = info
        comp = self.comp = components(info.n_nodes, info.board, routes)
        # the tickets a join could still improve, with what each scores now
        self.now = {t: v for t in tickets
                    if (v := ticket_value(info, comp, t)) < info.max_points[t]}
        self.tickets = list(self.now)
        # the components a ticket's origin is in: joining two components changes the ticket
        # only if its origin is in one of them
        self.origin_labels = [(t, {comp[x] for x in info.tickets[t][0]}) for t in self.tickets]

    def gain(self, a, b):
        comp = self.comp
        ca, cb = comp[a], comp[b]
        if ca == cb or not self.tickets:
            return 0
        merged = _Merged(comp, cb, ca)
        info = self.info
        return sum(ticket_value(info, merged, t) - self.now[t]
                   for t, labels in self.origin_labels if ca in labels or cb in labels)


class _Merged:
    __slots__ = ("comp", "old", "new")

    def __init__(self, comp, old, new):
        self.comp, self.old, self.new = comp, old, new

    def __getitem__(self, x):
        c = self.comp[x]
        return self.new if c == self.old else c


def tickets_value(info, routes, tickets):
    comp = components(info.n_nodes, info.board, routes)
    return sum(ticket_value(info, comp, t) for t in tickets)


def own_routes(v, seat=None):
    seat = v.seat if seat is None else seat
    owner = v.owner
    return list(compress(range(len(owner)), map(seat.__eq__, owner)))


def keep_choices(offer, keep_min):
    """Every choice of at least `keep_min` (the view's `keep_min()`) tickets of the offer."""
    for k in range(keep_min, len(offer) + 1):
        for combo in combinations(offer, k):
            yield combo
