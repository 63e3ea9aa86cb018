"""What a computer player knows of one map rule (RULES.md §12–§17): a `Sense` per engine
mechanic (`ttr_bot.engine.mechanics`), named as it is, overriding the few hooks its rule needs.
The levels consult every sense of the map at these points and never ask which map it is; a map
without mechanics has none, so the four first maps play exactly as before.

- `long_bonus(bonus)`: how much cheaper a long route looks for its extra points (the level's
  `long_bonus`), on this rule's map: a rule that pays every claim alike makes them weigh less.
- `adjust_costs(v, info, cost)`: planning costs of the routes (a list, changed in place): the
  trains a route really takes, the routes everyone may use.
- `route_value(v, r)`: points a claim of route r is worth beyond its length's.
- `claim_score(v, claim)`: how much this rule likes one of the engine's claims of a route (its
  payment and fields: the ferry cards it spends, a share's company); the best is played.
- `fix_claim(v, claim)`: the claim with its fields set to what the seat can know is legal.
- `choices(v, claim)`: the other legal claims of the same route and payment that differ in this
  rule's own choice (a share of another company), for a search to compare; asked by the levels
  that search (hard, expert).
- `early_action(v, to_claim)`: an action of this rule worth more than the plan's claims now
  (race the bullet track when a claim changes its ranking), or None; only levels that race
  (`race_early`: medium and above) ask.
- `adjust_wants(v, want)`: how much the seat wants each card kind (a list, changed in place),
  asked by the same levels after the plan's demand.
- `turn_action(v, to_claim)`: an action of this rule worth a turn now, given the routes the plan
  still claims (draw a ferry card), or None.
"""
from __future__ import annotations

from typing import Any, ClassVar


class Sense:
    name: ClassVar[str] = ""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.rules = board.rules

    def long_bonus(self, bonus: float) -> float:
        return bonus

    def adjust_costs(self, v: Any, info: Any, cost: list[float]) -> None:
        return None

    def route_value(self, v: Any, r: int) -> float:
        return 0.0

    def claim_score(self, v: Any, claim: Any) -> float:
        return 0.0

    def fix_claim(self, v: Any, claim: Any) -> Any:
        return claim

    def choices(self, v: Any, claim: Any) -> list[Any]:
        return []

    def early_action(self, v: Any, to_claim: list[int]) -> Any:
        return None

    def adjust_wants(self, v: Any, want: list[float]) -> None:
        return None

    def turn_action(self, v: Any, to_claim: list[int]) -> Any:
        return None
