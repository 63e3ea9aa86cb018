"""Northern Lights' bonus cards (RULES.md §17.4, §17.5.3–7): `bonus_cards_dealt` of the map's
cards are dealt at setup from the game's dealer (deck kind "bonus_cards": the letters' indices
in the map's order) and shown to all; at the end every player with the most of a card's measure
scores its points (all tied leaders, even at 0)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import LOCO, N_COLORS
from ..network import longest_trail
from .base import Mechanic

if TYPE_CHECKING:
    from ..final_scores import Score
    from ..game import Game

Measure = Callable[["Game", int, "Score"], int]


class BonusCards(Mechanic):
    name: ClassVar[str] = "bonus_cards"

    def setup(self, game: Game) -> Any:
        letters = list(self.rules.bonus_cards)
        order = game.dealer.order("bonus_cards", list(range(len(letters))))
        return {"cards": [letters[i] for i in order[:self.rules.bonus_cards_dealt]]}

    # ----- the measures, by letter ----------------------------------------------------------
    def _touches(self, places: tuple[str, ...], names: set[str]) -> bool:
        return any(p in names for p in places)

    def measure(self, letter: str, game: Game, seat: int, pl: Score) -> int:
        board, rules = self.board, self.rules
        routes = [board.routes[r] for r in game.routes_of[seat]]
        ends = [(board.nodes[r.a], board.nodes[r.b]) for r in routes]
        done = [board.tickets[t] for t, res in zip(game.tickets[seat], pl["tickets"])
                if res["completed"]]
        arctic, capitals = set(rules.arctic), set(rules.capitals)
        hand = game.hands[seat]
        if letter == "A":      # locomotive equivalents in hand
            return hand[LOCO] + sum(hand[c] // 2 for c in range(N_COLORS))
        if letter == "B":      # completed tickets touching a capital
            return sum(self._touches((t.origin, *t.dests), capitals) for t in done)
        if letter == "C":      # trains left
            return game.trains[seat]
        if letter == "D":      # 1-space routes
            return sum(r.length == 1 for r in routes)
        if letter == "E":      # longest continuous path
            return longest_trail(board, game.routes_of[seat])
        if letter == "F":      # completed tickets worth 5 or less
            return sum(max(t.points) <= 5 for t in done)
        if letter == "G":      # countries touched by own routes
            return len({n.nation for a, b in ends for n in (a, b) if n.nation})
        if letter == "H":      # completed tickets touching an Arctic city
            return sum(self._touches((t.origin, *t.dests), arctic) for t in done)
        if letter == "I":      # own routes touching an Arctic city
            return sum(a.name in arctic or b.name in arctic for a, b in ends)
        if letter == "J":      # ferries
            return sum(r.ferry > 0 for r in routes)
        if letter == "K":      # routes touching Norway
            return sum(rules.wild_west_nation in (a.nation, b.nation) for a, b in ends)
        raise ValueError(f"unknown bonus card {letter!r}")

    def score(self, game: Game, players: list[Score]) -> None:
        cards = game.extra[self.name]["cards"]
        for pl in players:
            pl["bonuses"]["bonus_cards"] = 0
            pl["bonus_cards_won"] = []
        for letter in cards:
            values = [self.measure(letter, game, p, pl) for p, pl in enumerate(players)]
            top = max(values)
            for pl, v in zip(players, values):
                if v == top:
                    pl["bonuses"]["bonus_cards"] += self.rules.bonus_cards[letter]
                    pl["bonus_cards_won"].append(letter)

    def output(self, game: Game) -> dict[str, Any]:
        return {"bonus_cards": list(game.extra[self.name]["cards"])}
