"""Italy's ferry cards (RULES.md §16.1–3, §16.5.1, §16.5.6): drawing one is a turn's action
while the player holds fewer than `ferry_cards_max`; on a route with wave spaces each wave is
paid by a locomotive or covered by a ferry card, one card covering one or two waves (cards spent
= ceil(waves covered / 2)); the other spaces take one colour or locomotives, and coloured cards
never pay a wave. Spent cards go back to the supply, which is unlimited.

A claim names its ferry cards (`ClaimRoute.ferry`); the waves they cover are what the cards do
not pay: covered = length - cards paid, so the count is exactly ceil(covered / 2)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, ClaimRoute, DrawFerryCard
from ..cards import GRAY, LOCO, N_CARD_KINDS, N_COLORS
from ..errors import Illegal
from ..event_types import DRAW_FERRY_CARD, DrawFerryCardEvent
from .base import Mechanic, Plan

if TYPE_CHECKING:
    from ..board import Route, Rules
    from ..events import Event
    from ..final_scores import Score
    from ..game import Game
    from ..payment import Hand, Payment

# its event: event_types.DrawFerryCardEvent (`DRAW_FERRY_CARD`)


def _held(game: Game | None, seat: int) -> int:
    return 2 ** 31 if game is None else game.extra["ferry_cards"]["held"][seat]


class FerryCards(Mechanic):
    name: ClassVar[str] = "ferry_cards"
    action_fields: ClassVar[tuple[str, ...]] = ("ferry",)

    def setup(self, game: Game) -> Any:
        return {"held": [0] * game.n}

    # ----- the draw ------------------------------------------------------------------------
    def actions(self, game: Game, seat: int) -> list[Action]:
        return [DrawFerryCard(seat)] if _held(game, seat) < self.rules.ferry_cards_max else []

    def blocks_pass(self, game: Game, seat: int) -> bool:
        return _held(game, seat) < self.rules.ferry_cards_max

    def plan(self, game: Game, action: Action) -> Plan | None:
        if not isinstance(action, DrawFerryCard):
            return None
        if _held(game, action.seat) >= self.rules.ferry_cards_max:
            raise Illegal("ferry_cards_max", count=self.rules.ferry_cards_max)
        return lambda: self._draw(game, action.seat)

    def _draw(self, game: Game, seat: int) -> list[Event]:
        held = game.extra[self.name]["held"]
        held[seat] += 1
        game.passes = 0
        event: DrawFerryCardEvent = {"type": DRAW_FERRY_CARD, "seat": seat, "held": held[seat]}
        return [event] + game.end_turn(seat, DRAW_FERRY_CARD)

    # ----- paying the waves -----------------------------------------------------------------
    def pays(self, route: Route) -> bool:
        return route.waves > 0

    @staticmethod
    def spent(route: Route, cards: Hand) -> int:
        covered = route.length - sum(cards)
        return (covered + 1) // 2 if covered > 0 else 0

    def route_payment(self, rules: Rules, route: Route, cards: Hand, game: Game | None,
                      action: ClaimRoute | None = None) -> int:
        length, waves = route.length, route.waves
        covered = length - sum(cards)
        coloured = [c for c in range(N_COLORS) if cards[c]]
        plain = sum(cards) - cards[LOCO]
        if not 0 <= covered <= waves or len(coloured) > 1 or plain > length - waves:
            raise Illegal("pay_waves", count=length, waves=waves)
        if coloured and route.color != GRAY and coloured[0] != route.color:
            raise Illegal("pay_route_color")
        if action is not None:
            if action.ferry != self.spent(route, cards):
                raise Illegal("pay_waves", count=length, waves=waves)
            if action.ferry > _held(game, action.seat):
                raise Illegal("ferry_cards_missing")
        return coloured[0] if coloured else -1

    def route_payments(self, rules: Rules, route: Route, hand: Hand,
                       game: Game | None) -> list[Payment]:
        length, waves = route.length, route.waves
        out: list[Payment] = []
        colors = range(N_COLORS) if route.color == GRAY else (route.color,)
        # the count test: the most cards of one colour on the plain spaces, locomotives on the
        # rest, then locomotives and the ferry cards the seat could hold on the waves
        best = max(hand[c] for c in colors)
        spaces = length - waves
        locos = hand[LOCO] - (spaces - min(best, spaces))
        # a game is asked on its current seat's turn: only the ferry cards it holds
        cards_held = self.rules.ferry_cards_max if game is None else _held(game, game.current)
        if locos < 0 or locos + 2 * cards_held < waves:
            return out
        for covered in range(min(waves, 2 * cards_held) + 1):
            for plain in range(length - waves + 1):
                locos = length - covered - plain
                if locos > hand[LOCO]:
                    continue
                for x in (colors if plain else (0,)):
                    if plain and hand[x] < plain:
                        continue
                    p = [0] * N_CARD_KINDS
                    p[x] += plain
                    p[LOCO] = locos
                    out.append(tuple(p))
        return out

    def claim_variants(self, game: Game, claim: ClaimRoute) -> list[ClaimRoute]:
        route = self.board.routes[claim.route]
        if not route.waves:
            return [claim]
        spent = self.spent(route, claim.cards)
        if spent > _held(game, claim.seat):
            return []
        return [ClaimRoute(claim.seat, claim.route, claim.cards, ferry=spent)]

    def check_claim(self, game: Game, action: ClaimRoute) -> None:
        if action.ferry and not self.board.routes[action.route].waves:
            raise Illegal("no_ferry_here")

    def after_claim(self, game: Game, seat: int, route: Route, action: ClaimRoute) -> list[Event]:
        game.extra[self.name]["held"][seat] -= action.ferry
        return []

    def score(self, game: Game, players: list[Score]) -> None:
        for p, pl in enumerate(players):
            pl["ferry_cards"] = game.extra[self.name]["held"][p]
