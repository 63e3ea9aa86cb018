"""Games between computer players, as the arena plays them: seat s of game `index` is played
by player (s + index) % n of the list (seats rotate from game to game), each agent is given
only its own `PlayerView`, every action is checked by the engine (`ArenaError` for an illegal
one, an answer for another seat, or a game that does not end), and the game comes back with
each player's score, win, decision times and its `ttr-record/1`. The seeds are fixed by
(seed, index): the same game every time.

Used by the arena (`python -m tools.arena`, tools/arena.py: its figures are these games') and
by the computer players' tests (tests/ai: legality on every map, strength, `hard` unchanged
by `expert`)."""
import time

from ttr_bot.ai import make_agent
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.errors import Illegal
from ttr_bot.engine.game import Game
from ttr_bot.engine.view import view
from ttr_bot.game_record import action_to_json, export_record

MAX_ACTIONS = 20000   # a safety net: a real game takes a few hundred


class ArenaError(Exception):
    pass


def player_names(levels):
    """Distinct names for the seats: 'medium', 'medium#2', …"""
    seen = {}
    out = []
    for lv in levels:
        seen[lv] = seen.get(lv, 0) + 1
        out.append(lv if seen[lv] == 1 else f"{lv}#{seen[lv]}")
    return out


def game_seed(seed, index):
    return seed * 1_000_003 + index


def play_game(board, levels, names, seed, index, agent_options=None):
    """One game. Seat s is played by player (s + index) % n of the list. Returns a dict with
    per-player scores, win flags, decision times and the record."""
    n = len(levels)
    gseed = game_seed(seed, index)
    order = [(s + index) % n for s in range(n)]          # seat -> player index
    seat_names = [names[p] for p in order]
    agents = [make_agent(levels[p], seed=gseed * 16 + s, **((agent_options or {}).get(levels[p], {})))
              for s, p in enumerate(order)]
    game = Game(board, n, Dealer(gseed))
    times = [[] for _ in range(n)]
    actions = []
    while not game.over:
        movers = game.to_move()
        if not movers:
            raise ArenaError("no one to move")
        for seat in movers:
            v = view(game, seat)
            t0 = time.perf_counter()
            action = agents[seat].act(v)
            times[seat].append(time.perf_counter() - t0)
            if getattr(action, "seat", None) != seat:
                raise ArenaError(f"{seat_names[seat]} answered for another seat: {action!r}")
            record = action_to_json(game, action, seat_names)
            try:
                game.apply(action)
            except Illegal as e:
                raise ArenaError(f"game {index}: {seat_names[seat]} played an illegal action "
                                 f"{action!r}: {e.key} {e.params}") from None
            actions.append(record)
            if len(actions) > MAX_ACTIONS:
                raise ArenaError(f"game {index} did not end after {MAX_ACTIONS} actions")
    players, winners = game.scores()
    result = {"index": index, "seed": gseed, "players": {}, "turns": game.turn,
              "record": export_record(game, seat_names, actions)}
    for seat, p in enumerate(order):
        result["players"][names[p]] = {
            "seat": seat, "score": players[seat]["total"], "win": seat in winners,
            "times": times[seat], "fallbacks": agents[seat].fallbacks}
    return result
