"""Fixtures for the Discord adapter's tests.

Unit tests use engine games directly. End-to-end tests run the real bot (TTRBot, unmodified
discord.py) against tests/fakediscord over real sockets on 127.0.0.1, with a real SQLite file.

No __init__.py here on purpose: a package named `discord` under tests/ could shadow discord.py.
pytest-asyncio runs in strict mode: async tests are marked.
"""
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
for p in (REPO, TESTS):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from ttr_bot.engine.dealer import Dealer  # noqa: E402
from ttr_bot.engine.game import Game  # noqa: E402
from ttr_bot.maps import load_board  # noqa: E402


def new_game(map_id="usa", n=3, seed=1, variant="base"):
    return Game(load_board(map_id, variant), n, Dealer(seed))


@pytest.fixture
def usa3():
    return new_game()


def play_until(game, predicate, *, limit=2000, seed=0):
    """Apply the first legal action of each position (keeps, draws) until `predicate(game)`;
    returns all events in order as (event, private part or None)."""
    import random
    rng = random.Random(seed)
    out = []
    for _ in range(limit):
        if predicate(game) or game.over:
            return out
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        action = rng.choice(legal)
        out.extend(game.apply(action))
    return out
