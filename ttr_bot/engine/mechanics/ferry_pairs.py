"""Northern Lights' ferries (RULES.md §17.2, §17.5.2): each locomotive symbol is paid by a
locomotive or by a pair of cards of one colour (any of the eight, each pair its own; two
locomotives are not a pair); the other spaces take one colour (the route's; on gray any one) or
locomotives. A payment is legal when some assignment of its cards pays every space exactly.

With p pairs a payment holds length + p cards; its coloured cards are k of the spaces' colour
X and p pairs; so p = cards - length, k = coloured - 2p, and every colour but X must come in
pairs (X: k more)."""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, ClassVar

from ..cards import GRAY, LOCO, N_CARD_KINDS, N_COLORS
from ..errors import Illegal
from .base import Mechanic

if TYPE_CHECKING:
    from ..actions import ClaimRoute
    from ..board import Route, Rules
    from ..game import Game
    from ..payment import Hand, Payment


def _colors(route: Route) -> range | tuple[int, ...]:
    return range(N_COLORS) if route.color == GRAY else (route.color,)


class FerryPairs(Mechanic):
    name: ClassVar[str] = "ferry_pairs"

    def pays(self, route: Route) -> bool:
        return route.pairs and route.ferry > 0

    def route_payment(self, rules: Rules, route: Route, cards: Hand, game: Game | None,
                      action: ClaimRoute | None = None) -> int:
        length, symbols = route.length, route.ferry
        total = sum(cards)
        pairs = total - length
        coloured = total - cards[LOCO]
        plain = coloured - 2 * pairs                     # coloured cards on ordinary spaces
        if not 0 <= pairs <= symbols or not 0 <= plain <= length - symbols:
            raise Illegal("pay_ferry_pairs", count=length, locos=symbols)
        for x in _colors(route):
            if cards[x] >= plain and all((cards[c] - (plain if c == x else 0)) % 2 == 0
                                         for c in range(N_COLORS)):
                return x if plain else -1
        if route.color != GRAY and plain and cards[route.color] < plain:
            raise Illegal("pay_route_color")
        raise Illegal("pay_ferry_pairs", count=length, locos=symbols)

    @staticmethod
    def could_pay(route: Route, hand: Hand) -> bool:
        """The count test before listing payments: the most cards of one colour on the plain
        spaces (a card moved from them to a pair frees two spaces for one symbol: never
        better), locomotives on the rest, then locomotives and pairs on the symbols."""
        length, symbols = route.length, route.ferry
        all_pairs = 0
        for c in range(N_COLORS):
            all_pairs += hand[c] // 2
        spaces = length - symbols
        for x in _colors(route):
            have = hand[x]
            plain = have if have < spaces else spaces
            locos = hand[LOCO] - (spaces - plain)
            if locos >= 0 and locos + all_pairs - have // 2 + (have - plain) // 2 >= symbols:
                return True
        return False

    def route_payments(self, rules: Rules, route: Route, hand: Hand,
                       game: Game | None) -> list[Payment]:
        length, symbols = route.length, route.ferry
        out: set[Payment] = set()
        if not self.could_pay(route, hand):
            return []
        for pairs in range(symbols + 1):
            for plain in range(length - symbols + 1):
                locos = length - pairs - plain
                if locos > hand[LOCO]:
                    continue
                for x in (_colors(route) if plain else (0,)):
                    if hand[x] < plain and plain:
                        continue
                    rest = [hand[c] - (plain if c == x else 0) for c in range(N_COLORS)]
                    pairable = [c for c in range(N_COLORS) if rest[c] >= 2]
                    for combo in combinations_with_replacement(pairable, pairs):
                        p = [0] * N_CARD_KINDS
                        if plain:
                            p[x] += plain
                        for c in combo:
                            p[c] += 2
                        p[LOCO] = locos
                        if all(p[c] <= hand[c] for c in range(N_CARD_KINDS)):
                            out.add(tuple(p))
        return sorted(out)
