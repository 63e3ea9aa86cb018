"""Helpers shared by the adapter's tests (a plain module: `conftest` is a name every test
directory uses, so importing from it would pick whichever was loaded first)."""
from pathlib import Path

from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.maps import load_board

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent


def new_game(map_id="usa", n=3, seed=1, variant="base"):
    return Game(load_board(map_id, variant), n, Dealer(seed))
