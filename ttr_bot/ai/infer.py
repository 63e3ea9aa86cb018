"""Guessing what the others hold, from what everyone can see.

A player's claimed routes say a lot about their tickets: a ticket whose connection their
network shortens a lot is likely theirs. `ticket_weights` turns that into sampling weights, and
`sample_game` deals a full game consistent with a view (like `determinize`) but gives each
opponent tickets drawn by those weights — what the search simulates on.
"""
import math
from collections import deque

from ..engine.dealer import Dealer
from ..engine.seat_rules import DOUBLE_OWN, route_blocks
from ..engine.view import determinize
from .boardinfo import board_info
from .planner import INF, dijkstra

TEMPERATURE = 2.5      # trains saved per factor e of likelihood


def _player_costs(info, owner, n, p, own_free):
    """Trains between places for player p: their own routes cost 0 when `own_free`, else their
    length (and so does the free lane beside one); free routes their length; routes of others,
    and lanes the rules close to p, are closed. Whatever trains p has left."""
    out = [INF] * info.n_routes
    blocks = route_blocks(info.board, n, owner, p)
    for r in range(info.n_routes):
        o = owner[r]
        if o == p:
            out[r] = 0.0 if own_free else float(info.length[r])
        elif o < 0:
            why = blocks[r]
            if why is None or (why == DOUBLE_OWN and not own_free):
                out[r] = float(info.length[r])
    return out


def ticket_weights(info, owner, n, p, candidates, cache=None):
    """Relative likelihood that player p holds each candidate ticket."""
    key = (p, tuple(owner)) if cache is not None else None
    if cache is not None and key in cache:
        table = cache[key]
    else:
        table = {}
        if any(o == p for o in owner):
            base = _player_costs(info, owner, n, p, False)
            mine = _player_costs(info, owner, n, p, True)
            by_origin = {}
            for tid in info.tickets:
                origins = info.tickets[tid][0]
                if origins not in by_origin:
                    by_origin[origins] = (dijkstra(info, base, origins)[0],
                                          dijkstra(info, mine, origins)[0])
                d0, d1 = by_origin[origins]
                best = None
                for nodes, _pts in info.tickets[tid][1]:
                    a = min(d0[x] for x in nodes)
                    b = min(d1[x] for x in nodes)
                    if b == INF:
                        fit = -3.0
                    elif a == INF:
                        fit = 4.0
                    else:
                        fit = a - b
                    best = fit if best is None else max(best, fit)
                table[tid] = math.exp(min(best, 20.0) / TEMPERATURE)
        if cache is not None:
            cache[key] = table
    return [table.get(t, 1.0) for t in candidates]


def _weighted_pick(rng, items, weights, k):
    items = list(items)
    weights = list(weights)
    out = []
    for _ in range(min(k, len(items))):
        total = sum(weights)
        x = rng.random() * total
        acc = 0.0
        idx = len(items) - 1
        for i, w in enumerate(weights):
            acc += w
            if acc >= x:
                idx = i
                break
        out.append(items.pop(idx))
        weights.pop(idx)
    return out


def sample_game(v, rng, cache=None, infer=True):
    """A full game consistent with view `v`: unknown cards dealt at random, opponents' tickets
    drawn by how well they fit their networks, players still choosing their starting tickets
    given an offer to choose from."""
    g = determinize(v, rng)
    g.dealer = Dealer(rng.getrandbits(32))
    info = board_info(v.board)
    board = v.board
    mine = set(v.tickets) | set(v.offer or ())
    pool = [t.id for t in board.tickets if t.id not in mine and not t.long]
    rng.shuffle(pool)
    setup = v.phase == "setup"
    rules = board.rules
    for p in range(v.n):
        if p == v.seat:
            continue
        k = v.ticket_counts[p]
        if setup and k == 0:
            # not chosen yet: give them an offer to choose from in the simulation
            m = min(rules.start_regular + rules.start_long, len(pool))
            g.tickets[p] = []
            g.offers[p] = [pool.pop() for _ in range(m)]
            continue
        if infer and k:
            w = ticket_weights(info, v.owner, v.n, p, pool, cache)
            got = _weighted_pick(rng, pool, w, k)
            for t in got:
                pool.remove(t)
        else:
            got = [pool.pop() for _ in range(min(k, len(pool)))]
        g.tickets[p] = got
    g.ticket_deck = deque(pool[:v.ticket_deck_size])
    return g
