"""Helpers for the computer-player tests: a light `hard` and `expert` (the same code, a much smaller search)
so that full games stay fast, and positions collected from real games."""
from ttr_bot.ai import make_agent
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.maps import load_board

# every search path of `hard` runs, with one sample and few candidates
LIGHT_HARD = {"budget": 1, "min_samples": 1, "max_samples": 1, "max_candidates": 3,
              "keep_candidates": 2}
# the same for `expert`: every path of its search (blocks, risky tickets, noisy rollouts) runs
LIGHT_EXPERT = dict(LIGHT_HARD, min_samples=1)
LIGHT = {"hard": LIGHT_HARD, "expert": LIGHT_EXPERT}
ALL_LEVELS = ("expert", "hard", "medium", "easy", "random")


def agent(level, seed=0):
    return make_agent(level, seed, **LIGHT.get(level, {}))


def positions(map_id, n, seed, levels=("medium", "random"), every=1):
    """Yield (game copy, seat to move) for every decision of one game on that map."""
    board = load_board(map_id)
    agents = [make_agent(levels[s % len(levels)], seed * 10 + s) for s in range(n)]
    game = Game(board, n, Dealer(seed))
    k = 0
    while not game.over:
        for seat in game.to_move():
            if k % every == 0:
                yield game.copy(), seat
            k += 1
            game.apply(agents[seat].act(view(game, seat)))
