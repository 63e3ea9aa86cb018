"""Engine figures: random complete games per second, time per turn and per action (legal-action
generation included), longest-path times over random 45-train networks, and the worst-case
station assignment in 5-player Europe games.

    python -m tools.bench [engine] [--games N] [--networks N]
"""
import argparse
import random
import statistics
import time

from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.final_scores import final_scores
from ttr_bot.engine.game import Game
from ttr_bot.engine.network import longest_trail
from ttr_bot.maps import engine_maps, load_board


def play_random(board, n, seed):
    """One complete game of uniformly random legal actions: (turns, actions)."""
    game = Game(board, n, Dealer(seed))
    rng = random.Random(seed)
    actions = 0
    while not game.over:
        seat = game.to_move()[0]
        game.apply(rng.choice(game.legal_actions(seat)))
        actions += 1
    return game, actions


def bench_maps():
    """The four first maps, then every newer map whose rules the engine plays."""
    first = ["usa", "europe", "switzerland", "nordic"]
    return first + [m for m in engine_maps() if m not in first]


def games_per_second(board, n, games, seed=0):
    turns = actions = 0
    t0 = time.perf_counter()
    for i in range(games):
        g, a = play_random(board, n, seed + i)
        turns += g.turn
        actions += a
    dt = time.perf_counter() - t0
    return games / dt, dt / turns * 1e6, dt / actions * 1e6


def random_network(board, rng, trains=45):
    """Routes one player could own: grown mostly next to what it has, up to `trains`."""
    owned, used, touched = [], 0, set()
    free = list(range(len(board.routes)))
    rng.shuffle(free)
    while True:
        near = [r for r in free if (board.routes[r].a in touched or board.routes[r].b in touched)
                and used + board.routes[r].length <= trains]
        pool = near if near and rng.random() < 0.8 else [r for r in free if used + board.routes[r].length <= trains]
        if not pool:
            return owned
        r = rng.choice(pool)
        free.remove(r)
        route = board.routes[r]
        if route.twin in owned:
            continue
        owned.append(r)
        used += route.length
        touched |= {route.a, route.b}


def longest_path_times(board, count, seed=0):
    rng = random.Random(seed)
    nets = [random_network(board, rng) for _ in range(count)]
    times = []
    for net in nets:
        t0 = time.perf_counter()
        longest_trail(board, net)
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def station_worst(games, seed=0):
    """Worst final scoring time of 5-player Europe games where every player has placed 3
    stations on the cities with the most opponent routes around them."""
    board = load_board("europe")
    worst = 0.0
    for i in range(games):
        g, _ = play_random(board, 5, seed + i)
        g.station_owner.clear()
        by_degree = sorted(range(len(board.nodes)), key=lambda c: -sum(
            1 for r in board.node_routes[c] if g.owner[r] >= 0))
        for k, city in enumerate(by_degree[:15]):
            p = k % 5
            g.station_owner[city] = p
        g.stations_of = [[c for c, o in g.station_owner.items() if o == p] for p in range(5)]
        g.stations_left = [0] * 5
        t0 = time.perf_counter()
        final_scores(g)
        worst = max(worst, time.perf_counter() - t0)
    return worst * 1e3


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.bench engine")
    ap.add_argument("--games", type=int, default=60, help="random games per configuration")
    ap.add_argument("--networks", type=int, default=2000, help="random networks for longest path")
    args = ap.parse_args(argv)
    usa = load_board("usa")
    print("Random complete games, USA base (legal-action generation included):")
    print(f"  {'players':>7}  {'games/s':>8}  {'µs/turn':>8}  {'µs/action':>9}")
    for n in (2, 3, 4, 5):
        gps, us_turn, us_action = games_per_second(usa, n, args.games)
        print(f"  {n:>7}  {gps:8.1f}  {us_turn:8.1f}  {us_action:9.1f}")
    print("Random complete games per map (max players; every map whose rules the engine plays):")
    for map_id in bench_maps():
        board = load_board(map_id)
        n = board.rules.max_players
        gps, us_turn, _ = games_per_second(board, n, args.games)
        print(f"  {map_id:<16} {n} players  {gps:8.1f} games/s  {us_turn:7.1f} µs/turn")
    for map_id in ("usa", "europe"):
        times = longest_path_times(load_board(map_id), args.networks)
        print(f"Longest path, {args.networks} random 45-train networks on {map_id}: "
              f"median {statistics.median(times):.1f} µs, mean {statistics.mean(times):.1f} µs, "
              f"worst {max(times):.1f} µs")
    print(f"Station assignment, 5-player Europe, 3 stations each: worst {station_worst(20):.2f} ms "
          f"over 20 games")
    return 0
