"""A map's own rules (RULES.md §12–§17), one module per mechanic, each a `Mechanic` (base.py)
the base game consults at its hooks. `mechanics_of(board)` gives a board's, in the order its
map file names them; `IMPLEMENTED` is what the engine plays (`maps.available_maps` offers a
map only when it plays every mechanic the map names)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .asian_explorer import AsianExplorer
from .base import Mechanic
from .bonus_cards import BonusCards
from .bullet import Bullet
from .draw_bonus import DrawBonus
from .ferry_cards import FerryCards
from .ferry_pairs import FerryPairs
from .grand_tour import GrandTour
from .mountains import Mountains
from .regions import Regions
from .shares import Shares

if TYPE_CHECKING:
    from ..board import Board

REGISTRY: dict[str, type[Mechanic]] = {m.name: m for m in (
    Mountains, AsianExplorer, GrandTour, FerryPairs, DrawBonus, BonusCards, FerryCards, Regions,
    Bullet, Shares)}
# the mechanics whose every precise point is tested (tests/engine/test_s12…s17): a map is
# offered for new games once all of its are here
IMPLEMENTED: frozenset[str] = frozenset({"mountains", "asian_explorer", "grand_tour", "ferry_pairs",
                                       "draw_bonus", "bonus_cards", "ferry_cards", "regions",
                                       "bullet", "shares"})

_BY_BOARD: dict[int, tuple[Board, tuple[Mechanic, ...]]] = {}


def mechanics_of(board: Board) -> tuple[Mechanic, ...]:
    """The board's mechanics (built once per board; () for a map of the base rules)."""
    hit = _BY_BOARD.get(id(board))
    if hit is None or hit[0] is not board:
        names = board.rules.mechanics
        missing = [n for n in names if n not in REGISTRY]
        if missing:
            raise ValueError(f"{board.name}: the engine does not play {', '.join(missing)} yet")
        hit = _BY_BOARD[id(board)] = (board, tuple(REGISTRY[n](board) for n in names))
    return hit[1]


__all__ = ["IMPLEMENTED", "REGISTRY", "Mechanic", "mechanics_of"]
