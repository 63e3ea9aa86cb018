"""Pennsylvania's stock shares (RULES.md §14): a claim takes a share of one of the route's
companies, and each company's majority scores at the end. Take the company whose majority the
share wins or keeps, worth most; with two players give the dummy a share the seat can know is
there (the dummy's own shares are hidden, §14.4)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from .base import Sense

# The most a long route's extra points may lower its planning cost (medium's own long_bonus).
# Every claim takes a share, whatever its length, so two short claims bring two shares where
# one long claim brings one; and with hard's 1.0 a 5- or 6-train route cost next to nothing to
# plan (15 points for 6 trains), so a ticket of 8 trains was planned over 42 through them and
# the tickets after it no longer fitted the 45 trains (expert failed 1.6 tickets a game against
# medium's 0.7: docs/computer-players.md).
LONG_BONUS = 0.6


class Shares(Sense):
    name: ClassVar[str] = "shares"

    def long_bonus(self, bonus: float) -> float:
        return min(bonus, LONG_BONUS)

    def _held(self, v: Any) -> list[dict[str, list[int]]]:
        held: list[dict[str, list[int]]] = v.extra.get(self.name, {}).get("held", [])
        return held

    def _worth(self, v: Any, company: int) -> float:
        """Points the seat's next share of `company` is worth: its first place if it takes or
        keeps the majority, else its second place's share."""
        points = self.rules.share_points.get(company) or self.rules.share_points.get(str(company))
        if not points:
            return 0.0
        held = self._held(v)
        mine = len(held[v.seat].get(str(company), [])) if held else 0
        other = max((len(h.get(str(company), [])) for p, h in enumerate(held) if p != v.seat),
                    default=0)
        first = points[0]
        second = points[1] if len(points) > 1 else 0
        return first / 2 if mine + 1 > other else second / 3

    def route_value(self, v: Any, r: int) -> float:
        companies = self.board.routes[r].shares
        return max((self._worth(v, c) for c in companies), default=0.0) / 2

    def claim_score(self, v: Any, claim: Any) -> float:
        return self._worth(v, claim.share) if claim.share else 0.0

    def choices(self, v: Any, claim: Any) -> list[Any]:
        """The same claim taking a share of each other company the route's claim may take."""
        if not claim.share:
            return []
        out: list[Any] = []
        seen = {claim.share}
        for c in v.claims(claim.route, claim.cards):
            if c.share not in seen:
                seen.add(c.share)
                out.append(self.fix_claim(v, c))
        return out

    def fix_claim(self, v: Any, claim: Any) -> Any:
        seen = v.extra.get(self.name, {})
        if "open" not in seen or not claim.share:
            return claim
        # the dummy: another open company is surely there; else 0 lets the engine take the
        # only one left (or none)
        others = [c for c in self.board.routes[claim.route].shares
                  if c != claim.share and seen["open"].get(str(c))]
        return replace(claim, dummy_share=min(others) if others else 0)
