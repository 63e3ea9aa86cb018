"""Helpers shared by the adapter's tests (a plain module: `conftest` is a name every test
directory uses, so importing from it would pick whichever was loaded first)."""
import sys
from pathlib import Path

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
