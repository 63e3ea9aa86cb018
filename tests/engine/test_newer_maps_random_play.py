"""Random legal play finishes a seeded game on every newer map whose rules the engine plays (RULES.md
§12–§17), at 2, 3 and the map's most seats: the engine's legal actions always include a move,
every one of them applies, cards are conserved, the computer players' view offers the same
actions (the random player picks among them), and a snapshot taken on the way (through JSON)
plays on exactly as the game does."""
import json
import random

import pytest

from ttr_bot.ai.random_agent import RandomAgent
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.engine.snapshot import from_dict, to_dict
from ttr_bot.engine.view import view
from ttr_bot.maps import engine_maps, load_board

NEWER = ["india", "legendary_asia", "pennsylvania", "japan", "italy", "northern_lights"]
READY = [m for m in NEWER if m in engine_maps()]
CASES = [(m, n) for m in READY for n in sorted({2, 3, load_board(m).rules.max_players})]


def cards_in_play(g):
    return len(g.deck) + len(g.discard) + len(g.faceup) + sum(map(sum, g.hands))


@pytest.mark.parametrize("map_id,n", CASES)
def test_random_legal_play_finishes(map_id, n):
    board = load_board(map_id)
    g = Game(board, n, Dealer(seed=n))
    rng = random.Random(n)
    total = cards_in_play(g)
    agent = RandomAgent(seed=n)
    steps = 0
    copy = None
    while not g.over:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if steps % 25 == 0:    # now and then through the view, as a computer player sees it
            assert set(view(g, seat).legal_actions()) == set(legal)
            action = agent.act(view(g, seat))
        else:
            action = rng.choice(legal)
        if steps == 60:
            copy = from_dict(board, json.loads(json.dumps(to_dict(g))))
        g.apply(action)
        if copy is not None:
            copy.apply(action)
            assert to_dict(copy) == to_dict(g)
        steps += 1
        assert cards_in_play(g) == total and steps < 5000
    assert agent.fallbacks == 0
    players, winners = g.scores()
    assert winners and all(isinstance(pl["total"], int) for pl in players)
