"""The computer players' side of a map's own rules: one `Sense` per engine mechanic (base.py
says the hooks), found by the mechanic's name. A mechanic without a sense here is played by the
base planner alone, legally: every claim on a map with mechanics is matched to one of the
engine's own legal claims of that route (`fit_claim`), so a level never needs to know a rule to
obey it."""
from __future__ import annotations

from typing import Any

from ...engine.actions import ClaimRoute
from .base import Sense
from .bonus_cards import BonusCards
from .bullet import Bullet
from .draw_bonus import DrawBonus
from .ferry_cards import FerryCards
from .mountains import Mountains
from .shares import Shares

SENSES: dict[str, type[Sense]] = {s.name: s for s in (Mountains, Bullet, FerryCards, Shares,
                                                      DrawBonus, BonusCards)}


_CACHE: dict[int, tuple[Any, tuple[Sense, ...]]] = {}


def senses_of(board: Any) -> tuple[Sense, ...]:
    """The senses of the board's mechanics, in its order ((): a map without any). Boards are
    immutable and cached by `ttr_bot.maps.load_board`, so their senses are too."""
    hit = _CACHE.get(id(board))
    if hit is None or hit[0] is not board:
        hit = _CACHE[id(board)] = (board, tuple(SENSES[m](board) for m in board.rules.mechanics
                                                if m in SENSES))
    return hit[1]


def has_mechanics(board: Any) -> bool:
    return bool(board.rules.mechanics)


def route_value(v: Any, r: int) -> float:
    return sum(s.route_value(v, r) for s in senses_of(v.board))


def long_bonus(board: Any, bonus: float) -> float:
    for s in senses_of(board):
        bonus = s.long_bonus(bonus)
    return bonus


def adjust_costs(v: Any, info: Any, cost: list[float]) -> None:
    for s in senses_of(v.board):
        s.adjust_costs(v, info, cost)


def turn_action(v: Any, to_claim: list[int]) -> Any:
    for s in senses_of(v.board):
        a = s.turn_action(v, to_claim)
        if a is not None:
            return a
    return None


def adjust_wants(v: Any, want: list[float]) -> None:
    for s in senses_of(v.board):
        s.adjust_wants(v, want)


def early_action(v: Any, to_claim: list[int]) -> Any:
    for s in senses_of(v.board):
        a = s.early_action(v, to_claim)
        if a is not None:
            return a
    return None


def claim_choices(v: Any, claim: ClaimRoute) -> list[ClaimRoute]:
    """Other legal claims of the same route and payment that the map's rules let the seat
    choose between (`Sense.choices`); [] on most maps."""
    return [c for s in senses_of(v.board) for c in s.choices(v, claim)]


def fit_claim(v: Any, claim: ClaimRoute) -> ClaimRoute | None:
    """The engine's legal claim of `claim.route` the map's senses like best, its own payment
    first when that is legal, with the fields the seat can know are legal; None if the route
    cannot be claimed now."""
    senses = senses_of(v.board)
    legal = v.route_claims(claim.route)
    if not legal:
        return None
    best = None
    for a in legal:
        key = (a.cards == claim.cards, sum(s.claim_score(v, a) for s in senses))
        if best is None or key > best[0]:
            best = (key, a)
    assert best is not None
    out = best[1]
    for s in senses:
        out = s.fix_claim(v, out)
    return out
