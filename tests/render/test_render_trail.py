"""The longest-trail routes drawn on the final picture: a real trail, as long as the engine's
`longest_trail` says."""
import random
from collections import Counter
from pathlib import Path

import pytest

from ttr_bot.engine.network import longest_trail, longest_trail_routes
from ttr_bot.maps import available_maps, load_board

REPO = Path(__file__).resolve().parents[2]


def is_trail(board, routes):
    """Can these routes be run in one go, each once? (connected, 0 or 2 odd-degree cities)"""
    if not routes:
        return True
    deg = Counter()
    for r in routes:
        deg[board.routes[r].a] += 1
        deg[board.routes[r].b] += 1
    if sum(1 for d in deg.values() if d % 2) > 2:
        return False
    seen, stack = set(), [board.routes[routes[0]].a]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        for r in routes:
            ro = board.routes[r]
            if v in (ro.a, ro.b):
                stack.append(ro.b if ro.a == v else ro.a)
    return seen == set(deg)


@pytest.mark.parametrize("map_id", available_maps())
def test_random_networks_match_the_engine(map_id):
    board = load_board(map_id)
    rng = random.Random(map_id)
    for _ in range(60):
        k = rng.randrange(0, 22)
        routes = rng.sample(range(len(board.routes)), k)
        length, path = longest_trail_routes(board, routes)
        assert length == longest_trail(board, routes)
        assert set(path) <= set(routes)
        assert sum(board.routes[r].length for r in path) == length
        assert is_trail(board, list(path))


def test_a_branch_is_left_out():
    board = load_board("usa")
    by_name = {n.name: n.index for n in board.nodes}

    def route(a, b):
        return next(r.index for r in board.routes if {r.a, r.b} == {by_name[a], by_name[b]})

    # a star at Denver: three arms; the trail takes the two longest
    arms = [route("Denver", "Kansas City"), route("Denver", "Helena"), route("Denver", "Santa Fe")]
    length, path = longest_trail_routes(board, arms)
    lengths = sorted(board.routes[r].length for r in arms)
    assert length == lengths[-1] + lengths[-2]
    assert len(path) == 2
