"""Northern Lights' bonus cards (RULES.md §17.4): four of them are shown from the start, so a
player can chase them. The cards that count routes (D one-space routes, I routes touching an
Arctic city, J ferries, K routes touching Norway, G a country not yet reached) make a route
that counts worth a share of the card's points: a card is usually won with a handful of such
routes, so each is worth about a fifth of it. The cards that count tickets, trains, the hand or
the longest path are left to the base planner, which already plays for them."""
from __future__ import annotations

from typing import Any, ClassVar

from .base import Sense

SHARE = 0.2         # of a card's points, per route that counts for it


class BonusCards(Sense):
    name: ClassVar[str] = "bonus_cards"

    def __init__(self, board: Any) -> None:
        super().__init__(board)
        arctic = set(self.rules.arctic)
        norway = self.rules.wild_west_nation
        nodes = board.nodes
        self.counts = {            # letter -> does route r count for it
            "D": lambda r: r.length == 1,
            "I": lambda r: nodes[r.a].name in arctic or nodes[r.b].name in arctic,
            "J": lambda r: r.ferry > 0,
            "K": lambda r: norway in (nodes[r.a].nation, nodes[r.b].nation),
        }

    def route_value(self, v: Any, r: int) -> float:
        cards = v.extra.get(self.name, {}).get("cards", ())
        route = self.board.routes[r]
        value = 0.0
        for letter in cards:
            points = self.rules.bonus_cards[letter]
            if letter in self.counts and self.counts[letter](route):
                value += SHARE * points
            elif letter == "G" and self._new_country(v, route):
                value += SHARE * points
        return value

    def _new_country(self, v: Any, route: Any) -> bool:
        nodes = self.board.nodes
        mine = {nodes[end].nation for x, o in enumerate(v.owner) if o == v.seat
                for end in (self.board.routes[x].a, self.board.routes[x].b)}
        return any(nodes[end].nation and nodes[end].nation not in mine
                   for end in (route.a, route.b))
